"""An explanation as people and machines read it: each named slice's label, rates, intervals, n and share of
the change; one line of text for the alert and the pages; a JSON document for payloads and storage.

Slice values come from traffic (attribute values, document ids, model names a sender chose): a label is cut
to :data:`VALUE_LIMIT` characters, and every renderer escapes it for where it goes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Final

from ragpulse_core.printable import printable
from ragpulse_scorers.stats import WeightedCount, weighted_wilson_interval

from ragpulse_dashboards.rootcause.ranking import Explanation, Finding, SliceKey
from ragpulse_dashboards.rootcause.slices import VARIANT

VALUE_LIMIT: Final = 80
TOPIC: Final = "topic"
# The slices an alert's text names (the payload carries them all).
NAMED_IN_TEXT: Final = 2


@dataclass(frozen=True)
class RateFigure:
    """A rate with its 95% Wilson interval and n (over directed samples the effective n, and ``weighted``)."""

    rate: float
    low: float
    high: float
    n: int
    weighted: bool = False

    @classmethod
    def of(cls, count: WeightedCount) -> RateFigure:
        low, high = weighted_wilson_interval(count)
        n = count.weights if count.is_unweighted else count.effective_n
        return cls(count.rate, low, high, round(n), not count.is_unweighted)

    def text(self) -> str:
        n = f"n≈{self.n:,} weighted" if self.weighted else f"n={self.n:,}"
        return f"{_percent(self.rate)} [{_percent(self.low)}, {_percent(self.high)}] {n}"

    def payload(self) -> dict[str, Any]:
        return {"rate": _number(self.rate), "low": _number(self.low), "high": _number(self.high), "n": self.n,
                "weighted": self.weighted}  # fmt: skip


@dataclass(frozen=True)
class CauseSlice:
    dimension: str
    value: str
    label: str
    window: RateFigure
    baseline: RateFigure
    """The slice's own baseline, or the scope's when it is new in the window."""
    share: float | None
    """Its share of the overall change (Adtributor's explanatory power), None when nothing moved."""
    new: bool

    def text(self) -> str:
        before = "the scope before (new in the window)" if self.new else "before"
        share = (
            f"; {_percent(min(1.0, max(0.0, self.share)), 0)} of the change" if self.share is not None else ""
        )
        return f"{self.label}: {self.window.text()} against {self.baseline.text()} {before}{share}"


@dataclass(frozen=True)
class Cause:
    """Where the change of one scope sits, between a baseline of ``baseline_days`` and a window."""

    finding: Finding
    window: RateFigure
    baseline: RateFigure
    slices: tuple[CauseSlice, ...]
    baseline_days: float

    @classmethod
    def of(cls, explanation: Explanation, baseline_days: float, topic_names: dict[int, str]) -> Cause:
        return cls(
            explanation.finding,
            RateFigure.of(explanation.window),
            RateFigure.of(explanation.baseline),
            tuple(
                CauseSlice(
                    ranked.key.dimension,
                    ranked.key.value,
                    label(ranked.key, topic_names),
                    RateFigure.of(ranked.window),
                    RateFigure.of(ranked.baseline),
                    ranked.share,
                    ranked.new,
                )
                for ranked in explanation.slices
            ),
            baseline_days,
        )

    def text(self) -> str:
        """One line: the slices that carry the change, or why none is named."""
        before = f"over {days_before(self.baseline_days)}"
        against = f"{self.window.text()} now against {self.baseline.text()} {before}"
        if self.finding is Finding.FOUND:
            named = "; ".join(part.text() for part in self.slices[:NAMED_IN_TEXT])
            more = len(self.slices) - NAMED_IN_TEXT
            return f"Where: {named}" + (f" (and {more} more)" if more > 0 else "")
        if self.finding is Finding.SPREAD:
            return f"Where: no single slice explains it; the change is spread across the traffic ({against})"
        if self.finding is Finding.NO_CHANGE:
            return f"Where: no change against the baseline, and no slice stands out ({against})"
        return f"Where: too few judged requests to tell ({against})"

    def payload(self) -> dict[str, Any]:
        return {
            "finding": self.finding.value,
            "text": self.text(),
            "window": self.window.payload(),
            "baseline": self.baseline.payload(),
            "baseline_days": self.baseline_days,
            "slices": [
                {"dimension": part.dimension, "value": part.value, "label": part.label,
                 "window": part.window.payload(), "baseline": part.baseline.payload(),
                 "share": None if part.share is None else _number(part.share), "new": part.new}
                for part in self.slices
            ],
        }  # fmt: skip

    def to_json(self) -> str:
        return json.dumps(self.payload(), ensure_ascii=False, allow_nan=False)

    @classmethod
    def from_json(cls, text: str) -> Cause | None:
        """A stored cause; None for "" or anything that is not one (never raises)."""
        if not text:
            return None
        try:
            data = json.loads(text)
            return cls(
                Finding(data["finding"]),
                _figure(data["window"]),
                _figure(data["baseline"]),
                tuple(
                    CauseSlice(
                        str(part["dimension"]),
                        str(part["value"]),
                        str(part["label"]),
                        _figure(part["window"]),
                        _figure(part["baseline"]),
                        None if part["share"] is None else float(part["share"]),
                        bool(part["new"]),
                    )
                    for part in data["slices"]
                ),
                float(data["baseline_days"]),
            )
        except (ValueError, KeyError, TypeError):
            return None


def cause_line(stored: str) -> str:
    """A stored cause's one line ("" when the alert has none)."""
    cause = Cause.from_json(stored)
    return cause.text() if cause is not None else ""


def days_before(days: float) -> str:
    """``the day before``, ``the 7 days before``; a baseline under a day in hours, minutes or seconds (a
    demo's or a test's short windows), never ``the 0.00013929 days before``."""
    if days == 1:
        return "the day before"
    if days >= 1:
        return f"the {days:g} days before"
    seconds = days * 86_400
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = f"{seconds / size:.3g}"
            return f"the {unit} before" if count == "1" else f"the {count} {unit}s before"
    return f"the {max(seconds, 1):.0f} s before"


def label(key: SliceKey, topic_names: dict[int, str]) -> str:
    """How a slice is named: ``model version gpt-4o-2024-08-06``, ``topic 3 (invoice · vat · receipt)``."""
    value = printable(key.value)
    if len(value) > VALUE_LIMIT:
        value = value[: VALUE_LIMIT - 1] + "…"
    if key.dimension == TOPIC:
        name = topic_names.get(int(key.value)) if key.value.isdigit() else None
        return (
            f"topic {value} ({printable(name)})"
            if name
            else ("no topic" if value == "0" else f"topic {value}")
        )
    if key.dimension == VARIANT:
        return f"{key.dimension} {value or '(none)'}"
    return f"{printable(key.dimension)} {value}"


def _figure(data: dict[str, Any]) -> RateFigure:
    return RateFigure(
        _float(data["rate"]),
        _float(data["low"]),
        _float(data["high"]),
        int(data["n"]),
        bool(data["weighted"]),
    )


def _float(value: Any) -> float:
    return math.nan if value is None else float(value)


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _percent(value: float, digits: int = 1) -> str:
    return f"{100 * value:.{digits}f}%" if math.isfinite(value) else "–"
