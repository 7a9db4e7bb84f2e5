"""A drawn stream read by the learnt template alone and with the structure rules: never a wrong context
under either, and the share of requests each read right."""

from __future__ import annotations

from streams import Stream, Verdict
from test_document_headers import _verdicts


def right_shares(stream: Stream) -> tuple[float, float]:
    """The share read right by the learnt template alone and with the rules; fails on any wrong context."""
    alone, both = _verdicts(stream, rules=False), _verdicts(stream, rules=True)
    assert [detail for verdict, detail in alone + both if verdict is Verdict.WRONG] == []
    return _share(alone), _share(both)


def _share(verdicts: list[tuple[Verdict, str]]) -> float:
    return sum(verdict is Verdict.RIGHT for verdict, _ in verdicts) / len(verdicts)
