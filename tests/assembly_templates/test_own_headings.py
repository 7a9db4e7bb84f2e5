"""Documents between the template's tags, some opening with a markdown heading of their own ("# Streaming",
a blank line, then the text). The structure rules take the heading for a title and drop it; the learnt
template reads it inside the document's text, where the template writes no title of its own, and its reading
stands. Every request is read right or refused, never on a wrong context."""

from __future__ import annotations

import random

from both_readers import right_shares
from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest

FRAMES = (("<doc id='{n}'>", "</doc>"), ("<source_{n}>", "</source_{n}>"), ("[{n}] <<", ">>"))


def headed_stream(seed: int, script: str, frame: int, hashes: str) -> Stream:
    """Twenty-four requests of one to four of ten documents, each in ``FRAMES[frame]`` on a line of its own,
    half of them opening with a heading of ``hashes``; the question in the user's message."""
    rng = random.Random(seed)
    pool = []
    for index in range(10):
        text = " ".join(sentence(rng, script) for _ in range(rng.randint(1, 3)))
        heading = " ".join(word(rng, script) for _ in range(rng.randint(1, 3))).capitalize()
        pool.append(f"{hashes} {heading}\n\n{text}" if index % 2 else text)
    opening, closing = FRAMES[frame]
    system = f"{sentence(rng, script)}\n\n<context>\n"
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        body = "\n".join(opening.format(n=n) + doc + closing.format(n=n) for n, doc in enumerate(chosen))
        asked = question(rng, script)
        messages = [("system", f"{system}{body}\n</context>"), ("user", asked)]
        requests.append(StreamRequest(messages, tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/{frame}/{hashes}/{seed}", requests)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(sorted(SCRIPTS)),
    st.integers(0, len(FRAMES) - 1),
    st.sampled_from(("#", "##", "###")),
)
def test_a_document_s_own_heading_is_kept(seed: int, script: str, frame: int, hashes: str) -> None:
    alone, both = right_shares(headed_stream(seed, script, frame, hashes))

    assert alone >= 2 / 3 and both >= 2 / 3, (alone, both)
