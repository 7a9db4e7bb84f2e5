"""Documents joined by a bare line break, each opening with a short title line and holding blank lines and a
short line many documents write ("Note:") of their own: no separator splits them, so they are told apart by
how their lines recur across requests. A title too short to name one place still opens a document once it
came after several lines but always before the same one; the shared short line, followed by several, never
does. Every request is read right or refused, never on a wrong context."""

from __future__ import annotations

import random

from both_readers import right_shares
from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest


def _document(rng: random.Random, script: str, note: str | None) -> str:
    title = word(rng, script) if script == "cjk" else " ".join(word(rng, script) for _ in range(2))
    paragraphs = ["\n".join(sentence(rng, script) for _ in range(rng.randint(1, 2))) for _ in range(2)]
    if note is not None and rng.random() < 0.5:
        paragraphs.append(f"{note}\n- {sentence(rng, script)}")
    return "\n\n".join([title.capitalize(), *paragraphs])


def titled_stream(seed: int, script: str, noted: bool) -> Stream:
    """Twenty requests of two or three of six documents, in the order the search ranks them (the last one
    never first), joined by a line break inside tags the template writes, the question after them;
    ``noted``: half the documents end with the same short line and a list item of their own."""
    rng = random.Random(seed)
    tag, asking, note = word(rng, "latin"), word(rng, script), word(rng, script) + ":"
    instruction = sentence(rng, script)
    pool = [_document(rng, script, note if noted else None) for _ in range(6)]
    requests = []
    for _ in range(20):
        chosen = sorted(rng.sample(pool, rng.randint(2, 3)), key=pool.index)
        asked = question(rng, script)
        text = (
            f"<{tag}>{instruction}</{tag}>\n<ctx>"
            + "\n".join(chosen)
            + f"</ctx>\n<{asking}>{asked}</{asking}>"
        )
        requests.append(StreamRequest([("user", text)], tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/{seed}/noted={noted}", requests)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)), st.booleans())
def test_short_titles_joined_by_a_line_break_are_read_or_refused(seed: int, script: str, noted: bool) -> None:
    stream = titled_stream(seed, script, noted)
    _, both = right_shares(stream)

    # Refusing everything would pass: most are read.
    assert noted or both >= 2 / 3
