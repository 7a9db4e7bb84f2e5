"""Documents under a header line the template writes with a counter and a decimal value ("[2] (relevance
0.87)", "<3> {weight 0,41}"), joined by a line of marks; some documents hold bullet lists, numbered steps
or a table of their own, in several scripts. Read with both readings, no request is read on a wrong
context (a document's own bullets taken for the separator, a first document keeping the tail of its
header's value), and most are read exactly: the header is the template's, the value is metadata."""

from __future__ import annotations

import random

from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_both

HEADERS = ("[{n}] ({label} {value})", "<{n}> {{{label} {value}}}", "#{n} ({label}: {value})")
JOINERS = ("\n---\n", "\n\n====\n\n", "\n* * *\n", "\n### \n", "\n\n")
DECIMALS = (".", ",")


def _document(rng: random.Random, script: str) -> str:
    """Sentences, at times with a bullet list, numbered steps or a small table of their own."""
    text = [sentence(rng, script) for _ in range(rng.randint(1, 2))]
    kind = rng.random()
    if kind < 0.3:
        text += [f"- {sentence(rng, script)}" for _ in range(rng.randint(2, 3))]
    elif kind < 0.45:
        text += [f"{n}. {sentence(rng, script)}" for n in range(1, rng.randint(3, 4))]
    elif kind < 0.6:
        row = f"| {word(rng, script)} | {word(rng, script)} |"
        text[1:1] = [row, "|---|---|", f"| {rng.randint(1, 99)} | x |"]
    return "\n".join(text)


@st.composite
def scored(draw: st.DrawFn) -> Stream:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    header, joiner = draw(st.sampled_from(HEADERS)), draw(st.sampled_from(JOINERS))
    decimal = draw(st.sampled_from(DECIMALS))
    label, heading, asking = word(rng, script), word(rng, script).title(), word(rng, script).title()
    instruction = " ".join(sentence(rng, script) for _ in range(rng.randint(1, 2)))
    pool = [_document(rng, script) for _ in range(12)]
    requests = []
    for _ in range(24):
        documents = rng.sample(pool, rng.randint(1, 5))
        items = joiner.join(
            header.format(n=n, label=label, value=f"0{decimal}{rng.randint(0, 99):02d}") + "\n" + text
            for n, text in enumerate(documents, 1)
        )
        asked = question(rng, script)
        messages = [("user", f"{instruction}\n\n{heading}:\n{items}\n\n{asking}: {asked}")]
        requests.append(StreamRequest(messages, tuple(documents), asked, "An answer."))
    return Stream(f"{script}/{header!r}/{joiner!r}/{decimal!r}", requests)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scored())
def test_documents_under_scored_headers_are_read_exactly(stream: Stream) -> None:
    outcomes = read_both(stream)
    verdicts = [outcome.verdict for outcome in outcomes]

    assert [outcome.detail for outcome in outcomes if outcome.verdict is Verdict.WRONG] == []
    assert verdicts.count(Verdict.RIGHT) * 2 >= len(verdicts), verdicts


@st.composite
def titled(draw: st.DrawFn) -> Stream:
    """Documents under a counter and a one-word title on the template's header line ("[2] Onboarding"), the
    text on the lines below; in Chinese a title is one run of characters, as a document's own first line
    may be."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    joiner = draw(st.sampled_from(JOINERS[:-1]))
    heading, asking, instruction = word(rng, script).title(), word(rng, script).title(), sentence(rng, script)
    pool = [(word(rng, script).title(), _document(rng, script)) for _ in range(12)]
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 5))
        items = joiner.join(f"[{n}] {title}\n{text}" for n, (title, text) in enumerate(chosen, 1))
        asked = question(rng, script)
        messages = [("user", f"{instruction}\n\n{heading}:\n{items}\n\n{asking}: {asked}")]
        requests.append(StreamRequest(messages, tuple(text for _, text in chosen), asked, "An answer."))
    return Stream(f"{script}/titled/{joiner!r}", requests)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(titled())
def test_titles_on_the_header_line_are_never_read_into_documents(stream: Stream) -> None:
    outcomes = read_both(stream)

    assert [outcome.detail for outcome in outcomes if outcome.verdict is Verdict.WRONG] == []
