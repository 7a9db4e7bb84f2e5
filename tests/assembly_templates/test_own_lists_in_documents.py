"""Documents joined by blank lines only ("\\n\\n\\n"), some holding a bullet list or a table of their own,
in several scripts: the bullets (" - ", " | ") split documents in lines that never recur across requests,
the template's blank lines between them part documents that do. No request is read on a wrong context, and
most are read exactly."""

from __future__ import annotations

import random

from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_both


def _document(rng: random.Random, script: str) -> str:
    """Sentences; now and then under a heading with a bullet list, above a table, or in two paragraphs: a
    window holds few of those, and each bullet once or twice."""
    lines = [sentence(rng, script) for _ in range(rng.randint(1, 2))]
    kind = rng.random()
    if kind < 0.12:
        heading = f"## {word(rng, script)} {word(rng, script)}"
        return "\n".join([heading, *lines, *(f"- {sentence(rng, script)}" for _ in range(2))])
    if kind < 0.22:
        row = f"| {word(rng, script)} | {word(rng, script)} |"
        return "\n".join([row, "|---|---|", f"| {rng.randint(1, 99)} | {word(rng, script)} |", *lines])
    if kind < 0.35:
        return f"{lines[0]}\n\n{sentence(rng, script)}"
    return " ".join(lines)


@st.composite
def bulleted(draw: st.DrawFn) -> Stream:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    joiner = draw(st.sampled_from(("\n\n\n", "\n\n\n\n")))
    heading, asking, instruction = word(rng, script).title(), word(rng, script).title(), sentence(rng, script)
    pool = [_document(rng, script) for _ in range(12)]
    requests = []
    for _ in range(24):
        documents = rng.sample(pool, rng.randint(1, 5))
        asked = question(rng, script)
        body = joiner.join(documents)
        messages = [("user", f"{instruction}\n\n{heading}:\n{body}\n\n{asking}: {asked}\nAnswer:")]
        requests.append(StreamRequest(messages, tuple(documents), asked, "An answer."))
    return Stream(f"{script}/{joiner!r}", requests)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bulleted())
def test_documents_own_bullets_never_split_them_and_blank_lines_do(stream: Stream) -> None:
    outcomes = read_both(stream)

    verdicts = [outcome.verdict for outcome in outcomes]

    assert [outcome.detail for outcome in outcomes if outcome.verdict is Verdict.WRONG] == []
    assert verdicts.count(Verdict.RIGHT) * 2 >= len(verdicts), verdicts
