"""Numbered documents, in several scripts and numbering styles (1. 1) (1) ① 一、), documents that hold
numbered lines of their own: numbered one after the other, one to eight per request, they are read exactly
where the numbers run on; under group headers ("Document: <file>", a line the template writes, then "1. …",
"2. …", the numbering starting again in each group), one to nine in one to three groups, they are read
exactly or refused. Every request is read with the learnt templates alone; none is read on a wrong context
and none stops the reader."""

from __future__ import annotations

import random

from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone

CIRCLED = "①②③④⑤⑥⑦⑧⑨"
CHINESE = "一二三四五六七八九"
OWN_LISTS = 0.3
"""Share of documents holding a numbered list of their own, numbered as the template numbers documents."""
NUMBERINGS = ("{n}. ", "{n}) ", "({n}) ", "{circled} ", "{chinese}、")


def _numbered(numbering: str, number: int) -> str:
    return numbering.format(n=number, circled=CIRCLED[number - 1], chinese=CHINESE[number - 1])


def _document(rng: random.Random, script: str, numbering: str) -> str:
    lines = [sentence(rng, script) for _ in range(rng.randint(1, 3))]
    if rng.random() < OWN_LISTS:
        # The document's own numbered list, numbered as the template numbers documents.
        steps = [_numbered(numbering, n) + sentence(rng, script) for n in range(1, rng.randint(2, 4))]
        lines[rng.randint(0, len(lines)) :] = steps
    return "\n".join(lines)


@st.composite
def numbered(draw: st.DrawFn) -> tuple[Stream, bool]:
    """Documents numbered one after the other after a label; whether some hold numbered lines of their own
    (returned with the stream)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    numbering = draw(st.sampled_from(NUMBERINGS))
    own_lists = draw(st.booleans())
    label, instruction = word(rng, script), " ".join(sentence(rng, script) for _ in range(rng.randint(1, 3)))
    pool = [
        _document(rng, script, numbering) if own_lists else "\n".join(sentence(rng, script) for _ in range(2))
        for _ in range(40)
    ]
    requests = []
    for _ in range(20):
        documents = rng.sample(pool, rng.randint(1, 8))
        items = "\n".join(_numbered(numbering, n) + text for n, text in enumerate(documents, 1))
        asked = question(rng, script)
        messages = [("system", f"{instruction}\n\n{label}:\n{items}"), ("user", asked)]
        requests.append(StreamRequest(messages, tuple(documents), asked, "An answer."))
    return Stream(f"{script}/{numbering!r}/own lists={own_lists}", requests), own_lists


def _outcomes(stream: Stream) -> list[Verdict]:
    outcomes = read_alone(stream)
    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    return [o.verdict for o in outcomes]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(numbered())
def test_documents_numbered_in_sequence_are_read_exactly(case: tuple[Stream, bool]) -> None:
    stream, own_lists = case
    verdicts = _outcomes(stream)

    if not own_lists:
        assert verdicts.count(Verdict.RIGHT) >= len(verdicts) * 3 // 4, verdicts


@st.composite
def grouped(draw: st.DrawFn) -> Stream:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    numbering = draw(st.sampled_from(NUMBERINGS))
    label, fragments = word(rng, script), " ".join(word(rng, script) for _ in range(3))
    instruction = " ".join(sentence(rng, script) for _ in range(rng.randint(1, 3)))
    files = [f"{word(rng, 'latin')}.{rng.choice(('pdf', 'md', 'docx'))}" for _ in range(6)]
    pool = [_document(rng, script, numbering) for _ in range(40)]
    requests = []
    for _ in range(20):
        documents = rng.sample(pool, 9)
        groups, sent = [], []
        for name in rng.sample(files, rng.randint(1, 3)):
            chunks = [documents.pop() for _ in range(rng.randint(1, 3))]
            sent += chunks
            items = "\n".join(_numbered(numbering, n) + chunk for n, chunk in enumerate(chunks, 1))
            groups.append(f"{label}: {name}\n{fragments}:\n{items}")
        asked = question(rng, script)
        messages = [("system", instruction + "\n\n" + "\n\n".join(groups)), ("user", asked)]
        requests.append(StreamRequest(messages, tuple(sent), asked, "An answer."))
    return Stream(f"{script}/{numbering!r}", requests)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grouped())
def test_numbered_documents_under_group_headers_are_read_exactly_or_refused(stream: Stream) -> None:
    _outcomes(stream)
