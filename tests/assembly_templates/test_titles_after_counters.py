"""A title the template writes on its counter's line, the text on the next line ("[2] Padma Bridge\\nThe
bridge…", NoMIRACL's passages), looks exactly like a document whose own first line is a short heading: one
template cannot tell the two apart. Such a request is read with the texts alone or refused, never with the
titles kept in the documents; documents without such a line, or hard-wrapped, are still read. Left: a
stream whose requests hold one document each (no loop is learnt, and the title stays in the one text)."""

from __future__ import annotations

import random

from drawn import SCRIPTS, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict
from test_document_headers import _verdicts

COUNTERS = ("[{n}] ", "({n}) ", "<{n}> ", "【{n}】", "#{n} ")
"""Counters that close before the title, with no colon (a labelled line is cut as a field)."""


def _stream(
    rng: random.Random, script: str, counter: str, head: str, between: str, question_first: bool
) -> Stream:
    """Twenty requests of two to four of twelve documents, each ``counter`` then ``head`` (a title line, or
    nothing) then its text, joined by ``between``."""
    joiner = "" if script == "cjk" else " "
    pool = []
    for _ in range(12):
        text = joiner.join(sentence(rng, script) for _ in range(rng.randint(2, 4)))
        title = joiner.join(word(rng, script) for _ in range(rng.randint(1, 3))) if head == "title" else ""
        pool.append((f"{title}\n" if title else "", text))
    instruction = sentence(rng, script)
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(2, 4))
        body = between.join(
            f"{counter.format(n=n)}{title}{text}" for n, (title, text) in enumerate(chosen, 1)
        )
        asked = sentence(rng, script)[:-1] + "?"
        parts = [f"QUESTION:\n{asked}", f"CONTEXTS:\n{body}"]
        user = "\n\n".join([instruction, *(parts if question_first else parts[::-1]), "OUTPUT:"])
        requests.append(StreamRequest([("user", user)], tuple(text for _, text in chosen), asked, "Yes."))
    return Stream(f"{script}/{counter!r}/{head}", requests)


@st.composite
def titled_traffic(draw: st.DrawFn) -> Stream:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    return _stream(
        rng,
        draw(st.sampled_from(sorted(SCRIPTS))),
        draw(st.sampled_from(COUNTERS)),
        "title",
        draw(st.sampled_from(("\n\n", "\n"))),
        draw(st.booleans()),
    )


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(titled_traffic())
def test_a_title_on_the_counters_line_is_never_kept_in_the_document(stream: Stream) -> None:
    for rules in (False, True):
        verdicts = _verdicts(stream, rules)

        assert [detail for verdict, detail in verdicts if verdict is Verdict.WRONG] == [], stream.service


def test_documents_without_a_title_line_after_the_counter_are_still_read() -> None:
    for seed, script in enumerate(sorted(SCRIPTS)):
        stream = _stream(random.Random(seed), script, "[{n}] ", "", "\n\n", seed % 2 == 0)

        verdicts = [verdict for verdict, _ in _verdicts(stream, rules=False)]

        assert Verdict.WRONG not in verdicts
        assert verdicts.count(Verdict.RIGHT) >= 15, (script, verdicts)


def test_hard_wrapped_documents_after_the_counter_are_still_read() -> None:
    # A wrapped paragraph's first line ends without a sentence's end and the text goes on below it, as
    # under a title; it is as long as the next line, which a title is not.
    rng = random.Random(3)
    pool = []
    for _ in range(12):
        words = " ".join(word(rng, "latin") for _ in range(rng.randint(24, 40))) + "."
        lines, line = [], ""
        for token in words.split(" "):
            if line and len(line) + len(token) > 56:
                lines.append(line)
                line = token
            else:
                line = f"{line} {token}".strip()
        pool.append("\n".join([*lines, line]))
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(1, 4))
        body = "\n\n".join(f"[{n}] {text}" for n, text in enumerate(chosen, 1))
        asked = sentence(rng, "latin")[:-1] + "?"
        user = f"Read the contexts.\n\nQUESTION:\n{asked}\n\nCONTEXTS:\n{body}\n\nOUTPUT:"
        requests.append(StreamRequest([("user", user)], tuple(chosen), asked, "Yes."))

    verdicts = [verdict for verdict, _ in _verdicts(Stream("wrapped", requests), rules=False)]

    assert Verdict.WRONG not in verdicts
    assert verdicts.count(Verdict.RIGHT) >= 15, verdicts
