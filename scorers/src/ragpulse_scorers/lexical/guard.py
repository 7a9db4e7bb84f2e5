"""What the ``lexical`` scorer makes of a guard's verdict on the request's span: a check, never a substitute.

A service that ran ``ragpulse.guard`` records its verdict on the root span (``ragpulse.guard.*``). Anyone
who can send OTLP can write those attributes, and a digest of the input proves which text a verdict is about,
not who decided it: a sender can hash any text and pair it with any verdict. So the scorer judges every
request itself (the free judge costs a few milliseconds) and compares. Where the guard used the same judge
and version on the very text the scorer assembled (same digest), the judge being deterministic, a genuine
verdict is identical: the scorer's score is then the verdict the service acted on, and says so
(``confirmed``). A verdict that differs is overruled, logged and kept beside the score for people to see;
one by another judge or version, or about other text (redacted, cut, another context), is not compared.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ragpulse import semconv
from ragpulse_judge.rules import LexicalAnalysis

logger = logging.getLogger(__name__)

GUARD_ATTRIBUTES: tuple[str, ...] = (
    semconv.GUARD_VERDICT,
    semconv.GUARD_REASON,
    semconv.GUARD_SCORE,
    semconv.GUARD_JUDGE,
    semconv.GUARD_VERSION,
    semconv.GUARD_INPUT_SHA256,
)
_MAX_REASON_CHARS = 200
_overruled = 0


@dataclass(frozen=True)
class OwnVerdict:
    """The scorer's own judgement of the request and what it judged."""

    judge: str
    version: str
    digest: str
    analysis: LexicalAnalysis


def compare_with_guard(attributes: Mapping[str, str], own: OwnVerdict) -> dict[str, Any] | None:
    """How the guard's verdict relates to the scorer's own, for the score's details; None without one."""
    verdict = attributes.get(semconv.GUARD_VERDICT)
    if verdict is None:
        return None
    if verdict == semconv.GUARD_VERDICT_UNKNOWN:
        reason = attributes.get(semconv.GUARD_REASON, "")[:_MAX_REASON_CHARS]
        return {"status": "no verdict", "reason": f"the guard gave no verdict: {reason or 'no reason given'}"}
    judge, version = attributes.get(semconv.GUARD_JUDGE, ""), attributes.get(semconv.GUARD_VERSION, "")
    if (judge, version) != (own.judge, own.version):
        return {
            "status": "not compared",
            "reason": f"the guard's judge ({judge[:40]} {version[:40]}) is not this scorer's "
            f"({own.judge} {own.version})",
        }
    if attributes.get(semconv.GUARD_INPUT_SHA256) != own.digest:
        return {
            "status": "not compared",
            "reason": "the guard judged other text than the request holds (redacted, cut, other context)",
        }
    expected = (
        semconv.GUARD_VERDICT_UNSUPPORTED if own.analysis.hallucinated else semconv.GUARD_VERDICT_SUPPORTED
    )
    score = _number(attributes.get(semconv.GUARD_SCORE, ""))
    if verdict == expected and score is not None and abs(score - own.analysis.support_score) < 1e-6:
        return {"status": "confirmed", "reason": "the guard's verdict is this score's"}
    global _overruled
    _overruled += 1
    # Warned once per process, then at debug: a sender writing forged verdicts must not flood the log.
    logger.log(
        logging.WARNING if _overruled == 1 else logging.DEBUG,
        "lexical: a guard verdict (%s, score %s) disagrees with the scorer's own judgement of the same text "
        "(%s, %s): kept the scorer's; the span may have been altered or forged",
        verdict[:20],
        attributes.get(semconv.GUARD_SCORE, "")[:20],
        expected,
        own.analysis.support_score,
    )
    return {
        "status": "overruled",
        "reason": "the guard's verdict differs from this judge's on the same text; the score is the judge's",
        "guard_verdict": verdict[:20],
        "guard_score": score,
    }


def _number(text: str) -> float | None:
    try:
        value = float(text[:40])
    except ValueError:
        return None
    return value if math.isfinite(value) else None
