"""A drawn stream read by the learnt template alone and with the structure rules: never a wrong context
under either, and the share of requests each read right."""

from __future__ import annotations

import random

from drawn import question
from streams import Stream, StreamRequest, Verdict
from test_document_headers import _verdicts


def right_shares(stream: Stream) -> tuple[float, float]:
    """The share read right by the learnt template alone and with the rules; fails on any wrong context."""
    alone, both = _verdicts(stream, rules=False), _verdicts(stream, rules=True)
    assert [detail for verdict, detail in alone + both if verdict is Verdict.WRONG] == []
    return _share(alone), _share(both)


def _share(verdicts: list[tuple[Verdict, str]]) -> float:
    return sum(verdict is Verdict.RIGHT for verdict, _ in verdicts) / len(verdicts)


def context_stream(service: str, pool: list[str], joiner: str, rng: random.Random, script: str) -> Stream:
    """Twenty-four requests of one to four documents of ``pool`` joined by ``joiner`` under "Context:", the
    labelled question after them: a template that writes nothing around each document."""
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        asked = question(rng, script)
        text = "Context:\n\n" + joiner.join(chosen) + f"\n\nQuestion: {asked}"
        requests.append(StreamRequest([("user", text)], tuple(chosen), asked, "An answer."))
    return Stream(service, requests)
