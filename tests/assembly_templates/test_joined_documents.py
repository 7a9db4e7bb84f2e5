"""Documents joined by a space or a bare line break, when they hold line breaks and spaces of their own: the
template's separator is also the documents' own, so no separator cuts the documents slot. A search returns
the same documents again in other company and order, so where a document begins and ends is where the text
on either side of a gap changes from request to request. Drawn in several scripts, a popular chunk in most
requests, at times a mark the template writes after the last document (" ."), and documents that share a
sentence: every request is read right or refused, never wrong, and most of the later ones are read."""

from __future__ import annotations

import random

from drawn import EXAMPLES, drawn_in_a_script, question, retrieved, sentence, shaped
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_both


def _pool(rng: random.Random, script: str, shared: bool) -> list[str]:
    pool = [shaped(rng, script, "prose", "paragraphs", "list") for _ in range(9)]
    if shared:
        # A sentence two documents both hold (a disclaimer, a product's name line), at the same place.
        common = sentence(rng, script)
        pool[1] = f"{pool[1]} {common}"
        pool[2] = f"{pool[2]} {common}"
    return pool


@st.composite
def joined_documents(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    joiner = draw(st.sampled_from([" ", "\n"]))
    closing = draw(st.sampled_from(["", " ."]))
    pool = _pool(rng, script, draw(st.booleans()))
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    requests = []
    for _ in range(40):
        chosen = retrieved(rng, pool, 4, 0.7)
        asked = question(rng, script)
        context = joiner.join(chosen) + closing
        messages = [("system", f"{instruction}\n\n{context}"), ("user", asked)]
        requests.append(StreamRequest(messages, tuple(chosen), asked, "Ok."))
    return Stream(f"{script}/{joiner!r}/{closing!r}", requests)


@EXAMPLES
@given(joined_documents())
def test_documents_joined_by_their_own_whitespace_are_read_right_or_refused(stream: Stream) -> None:
    outcomes = read_both(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    later = outcomes[len(outcomes) // 2 :]
    assert sum(o.verdict is Verdict.RIGHT for o in later) * 2 >= len(later)
