"""A question the template appends after the last document with only blank lines and no label
("…Excerpt: …\\n\\nhow do I …"): the learnt template reads it as the question and every document exactly, or
refuses; never a wrong context."""

from __future__ import annotations

import random

from drawn import SCRIPTS, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict
from test_document_headers import _verdicts


def _record(rng: random.Random, script: str, keys: list[str], source: str, text: str) -> str:
    """A document as records of ``key: value`` lines (a collection, a path) before its text, or bare."""
    if not keys:
        return text
    return "\n".join([f"{keys[0]}: {source}", f"{keys[1]}: /docs/{source}.md", f"{keys[2]}: {text}"])


def _stream(seed: int, script: str, blanks: str, keyed: bool) -> Stream:
    """Twenty requests of one template: a heading, one to four documents, ``blanks``, then the question."""
    rng = random.Random(seed)
    keys = [word(rng, "latin").capitalize() for _ in range(3)] if keyed else []
    heading = f"### {word(rng, script)}:"
    pool = [
        (word(rng, "latin"), "\n".join(sentence(rng, script) for _ in range(rng.randint(1, 3))))
        for _ in range(12)
    ]
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(1, 4))
        body = "\n\n".join(_record(rng, script, keys, source, text) for source, text in chosen)
        question = sentence(rng, script)[:-1] + ("？" if script == "cjk" else "?")
        text = f"{heading}\n{body}{blanks}{question}"
        requests.append(StreamRequest([("user", text)], tuple(t for _, t in chosen), question, "An answer."))
    return Stream(f"{script}/{'records' if keyed else 'bare'}/{blanks!r}", requests)


@st.composite
def question_after_documents(draw: st.DrawFn, keyed: bool) -> Stream:
    seed = draw(st.integers(0, 2**32 - 1))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    return _stream(seed, script, draw(st.sampled_from(("\n\n", "\n\n\n"))), keyed)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(question_after_documents(keyed=True))
def test_a_question_after_the_last_record_is_read_as_the_question(stream: Stream) -> None:
    alone = _verdicts(stream, rules=False)

    assert [detail for verdict, detail in alone if verdict is Verdict.WRONG] == []
    assert sum(verdict is Verdict.RIGHT for verdict, _ in alone) >= len(alone) * 3 // 4, alone


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(question_after_documents(keyed=False))
def test_a_question_after_bare_documents_is_read_or_refused(stream: Stream) -> None:
    """Bare documents joined by the same blank lines as the question may be refused: nothing but how they
    recur tells where one ends."""
    alone = _verdicts(stream, rules=False)

    assert [detail for verdict, detail in alone if verdict is Verdict.WRONG] == []


def test_a_record_name_that_its_path_repeats_is_never_read_as_the_question() -> None:
    """A draw that once read the first record's name as the question ("Source: faq" then "/docs/faq.md"): in
    its learning window no record came back in another prompt, so it may be refused, never read wrong."""
    alone = _verdicts(_stream(15, "latin", "\n\n", keyed=True), rules=False)

    assert [detail for verdict, detail in alone if verdict is Verdict.WRONG] == []
