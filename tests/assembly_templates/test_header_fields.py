"""Header lines with several varying values (a number, a source that repeats for chunks of one file, a title
with blanks or in Chinese or Japanese, a score): the learnt template reads each document exactly, without any
of the header, or refuses; never a wrong context. Blind wave E (these header lines, Chinese chunks of several
lines joined by a line break, few-shot, web search, history) is read on the right context or not scored."""

from __future__ import annotations

import random

from drawn import SCRIPTS, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import BLIND, Stream, StreamRequest, Verdict, blind_streams, run
from test_document_headers import _verdicts

MARKS = (" — ", " / ", "／", " | ", ", ")
"""What the template writes between the source and the title."""


def _title(rng: random.Random, script: str) -> str:
    joiner = "" if script == "cjk" else " "
    return joiner.join(word(rng, script) for _ in range(rng.randint(1, 3)))


@st.composite
def multi_field_traffic(draw: st.DrawFn) -> Stream:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    mark = draw(st.sampled_from(MARKS))
    scored = draw(st.booleans())
    blank = draw(st.sampled_from(("\n", "\n\n")))
    header, asking = (word(rng, script) for _ in range(2))
    instruction = sentence(rng, script)
    # Twelve chunks of four files: a source repeats across some items of a request but not all.
    files = [f"{word(rng, 'latin')}.{rng.choice(('pdf', 'md', 'docx'))}" for _ in range(4)]
    pool = [
        (
            files[n % 4],
            _title(rng, script),
            "\n".join(sentence(rng, script) for _ in range(rng.randint(1, 3))),
        )
        for n in range(12)
    ]
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(1, 4))
        items = []
        for number, (source, title, text) in enumerate(chosen, 1):
            score = f" ({rng.random():.2f})" if scored else ""
            items.append(f"[{number}] {source}{mark}{title}{score}{blank}{text}")
        question = sentence(rng, script)[:-1] + "?"
        body = "\n\n".join(items)
        text = f"{instruction}\n\n{header}:\n{body}\n\n{asking}: {question}"
        requests.append(
            StreamRequest([("user", text)], tuple(d for _, _, d in chosen), question, "An answer.")
        )
    return Stream(f"{script}/{mark!r}/scored={scored}/{blank!r}", requests)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(multi_field_traffic())
def test_a_header_line_of_several_values_is_cut_whole_or_refused(stream: Stream) -> None:
    alone = _verdicts(stream, rules=False)

    assert [detail for verdict, detail in alone if verdict is Verdict.WRONG] == []
    assert sum(verdict is Verdict.RIGHT for verdict, _ in alone) >= len(alone) * 3 // 4, alone


def test_blind_wave_e_is_read_on_the_right_context_or_not_scored_but_for_titles_joined_to_the_text() -> None:
    """Blind wave E's services under both instrumentations with ragpulse's default readers: no request on a
    wrong context, except the one template that joins each result's title to its text with a blank
    (`1. Title text`), where nothing tells the title from the text's first words."""
    outcomes = run(blind_streams(BLIND / "wave_e"), "learnt+rules")

    wrong = {o.service for o in outcomes if o.verdict is Verdict.WRONG}
    assert wrong <= {"perplexica-web"}
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) * 90 // 100
