"""What a report shows: plain values, independent of where they were read."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from ragpulse_scorers.stats import WeightedCount, weighted_wilson_interval

from ragpulse_dashboards.alerts.checks import AlertChecks, Checked
from ragpulse_dashboards.alerts.notify import NotificationLog
from ragpulse_dashboards.alerts.rules import HALLUCINATION_RATE, AlertKey
from ragpulse_dashboards.alerts.state import FIRING, RESOLVED, AlertRecord
from ragpulse_dashboards.report.agreement import JudgeAgreement

if TYPE_CHECKING:  # people.py builds on this module's rows
    from ragpulse_dashboards.report.people import PeopleFigures
    from ragpulse_dashboards.rootcause.figures import RootCauseFigures


# Scorers whose hallucination verdict leads the report when several are present: LLM judges first.
PREFERRED_SCORERS = ("support", "lexical")


def primary_scorer(scorers: Iterable[str]) -> str | None:
    """The judge whose verdicts lead, of those given: the support judge, else lexical, else the first."""
    present = set(scorers)
    for name in PREFERRED_SCORERS:
        if name in present:
            return name
    return min(present) if present else None


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95% Wilson interval; over directed samples, weighted by 1 / inclusion chance.

    ``successes`` and ``n`` count the judged requests; ``weighted`` holds their weighted sums (absent or all
    weights 1: the plain proportion). The value is then the Hájek estimate and the interval Wilson's at the
    estimate's effective sample size (:func:`ragpulse_scorers.stats.weighted_wilson_interval`).
    """

    successes: int
    n: int
    weighted: WeightedCount | None = None

    @property
    def counts(self) -> WeightedCount:
        return self.weighted or WeightedCount.unweighted(self.successes, self.n)

    @property
    def is_weighted(self) -> bool:
        return not self.counts.is_unweighted

    @property
    def value(self) -> float:
        if self.is_weighted:
            return self.counts.rate
        return self.successes / self.n if self.n else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return weighted_wilson_interval(self.counts)


@dataclass(frozen=True)
class TemplateVersionRow:
    """One learnt prompt template version's requests in the window: how many it read, how many of those
    could not be scored, and their hallucination rate (each request's verdict from the best judge)."""

    service: str
    version: str
    requests: int
    not_scored: int
    hallucination: Rate


@dataclass(frozen=True)
class VariantTraffic:
    variant: str
    requests: int
    errors: int
    scored: int
    service: str = ""


@dataclass(frozen=True)
class HallucinationRow:
    scorer: str
    variant: str
    rate: Rate
    service: str = ""


@dataclass(frozen=True)
class PassRow:
    """An evaluator's pass rate over one variant's requests it gave a verdict on (the metric ``pass``)."""

    scorer: str
    variant: str
    rate: Rate
    service: str = ""


@dataclass(frozen=True)
class MetricRow:
    """One metric's mean over one variant's ``n`` scored requests.

    Over directed samples each value weighs 1 / its request's inclusion probability: ``mean`` is then
    Σw·v / Σw, ``variance`` the values' weighted variance and ``effective_n`` Kish's (Σw)² / Σw², the size
    Welch's interval uses; ``effective_n`` is None when every weight is 1 (the plain mean, variance and n).
    """

    scorer: str
    metric: str
    variant: str
    n: int
    mean: float
    variance: float = math.nan
    """Sample variance of the values (NaN below two), for Welch's interval on a difference of means."""
    service: str = ""
    effective_n: float | None = None

    @property
    def is_weighted(self) -> bool:
        return self.effective_n is not None

    @property
    def sample_size(self) -> float:
        """The size the mean's standard error divides by: ``n``, or the effective one when weighted."""
        return float(self.n) if self.effective_n is None else self.effective_n


@dataclass(frozen=True)
class Difference:
    """One variant against its service's baseline on one metric: ``variant − baseline`` with its 95% interval.

    Rates use Newcombe's interval, means Welch's; ``low``/``high`` are NaN when too few samples allow one.
    """

    scorer: str
    metric: str
    baseline: str
    variant: str
    estimate: float
    low: float
    high: float
    n_baseline: int
    n_variant: int
    is_rate: bool
    service: str = ""

    @property
    def detectable(self) -> bool:
        """The interval excludes zero: at 95% confidence the variants differ on this metric."""
        return self.low > 0 or self.high < 0


@dataclass(frozen=True)
class LatencyRow:
    step: str
    count: int
    p50_ms: float
    p95_ms: float


@dataclass(frozen=True)
class SeriesPoint:
    """One time bucket (start, seconds since the epoch) of one variant."""

    bucket: int
    variant: str
    rate: Rate
    service: str = ""


@dataclass(frozen=True)
class TrafficPoint:
    bucket: int
    requests: int
    errors: int


@dataclass(frozen=True)
class WorstRequest:
    trace_id: str
    variant: str
    question: str
    answer: str
    hallucinated: bool
    support: float | None
    unsupported: list[str]
    service: str = ""
    span_id: str = ""
    at_us: int = 0
    """The request's start in microseconds: with the ids, what the live page opens it by."""


@dataclass(frozen=True)
class SpendRow:
    day: str
    scorer: str
    cost_usd: float
    input_tokens: int
    output_tokens: int
    scored: int
    unpriced: tuple[str, ...] = ()
    """Judge models used without a known price: ``cost_usd`` leaves their calls out."""


@dataclass(frozen=True)
class ScoringHealth:
    requests: int
    scored: int
    lag_p50_s: float | None
    lag_p95_s: float | None
    last_scored_at: str | None
    judge_errors: int
    outcomes: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)
    """Items from outside refused in the window, per kind (feedback spans, quarantined feedback): each
    costs only itself, and is counted here."""

    @property
    def share_scored(self) -> float:
        return self.scored / self.requests if self.requests else math.nan


@dataclass(frozen=True)
class RequestOutcomes:
    """What became of one service's requests for one scorer: ``requests = scored + not scored + pending``.

    ``not_scored`` counts requests by the scoring log's outcome that kept them from a score (skipped with a
    reason, failed, sampled out, throttled, over budget, deferred); ``pending`` ones have no log row yet: they
    are younger than the settle delay or wait for the next tick."""

    service: str
    scorer: str
    requests: int
    scored: int
    not_scored: dict[str, int]
    pending: int

    @property
    def balanced(self) -> bool:
        return self.requests == self.scored + sum(self.not_scored.values()) + self.pending


@dataclass(frozen=True)
class NotScored:
    """Requests of one service that cannot be judged, for one reason (``ragpulse_requests.Unscorable``)."""

    service: str
    reason: str
    requests: int


@dataclass(frozen=True)
class AlertLimits:
    """What the hallucination alert needs beyond its threshold before it fires, so a page can say why a rate
    above the threshold has no alert (``alerts.min_samples``, ``alerts.window_minutes``)."""

    min_samples: int
    window_minutes: float
    interval_s: float = 60.0
    enabled: bool = True


@dataclass(frozen=True)
class AlertCheckView:
    """What the last alert check said about one series, for the report generated at ``now``."""

    now: datetime
    last_at: datetime | None
    interval_s: float
    seen: Checked | None


@dataclass(frozen=True)
class UnscoredReason:
    """Requests of the window that no judge may score, for one reason (``ragpulse_requests.Unscorable``)."""

    code: str
    count: int


@dataclass(frozen=True)
class RequestLine:
    """One request as ``ragpulse requests`` lists it."""

    trace_id: str
    timestamp: datetime
    service_name: str
    source: str
    context_source: str
    unscorable: str
    question: str
    answer: str = ""
    verdict: str = ""
    """``hallucinated`` or ``supported`` by the best judge that scored it (``""`` when none has)."""
    judge: str = ""


@dataclass(frozen=True)
class ReportData:
    generated_at: datetime
    since: datetime
    service: str | None
    primary_scorer: str | None
    bucket_s: int
    variants: list[VariantTraffic]
    hallucination: list[HallucinationRow]
    metrics: list[MetricRow]
    latency: list[LatencyRow]
    hallucination_series: list[SeriesPoint]
    traffic_series: list[TrafficPoint]
    worst: list[WorstRequest]
    spend: list[SpendRow]
    scoring: ScoringHealth
    alerts: list[AlertRecord] = field(default_factory=list)
    """Alerts firing now (whenever they fired), then those resolved within the window; newest first."""
    notifications: NotificationLog = field(default_factory=NotificationLog)
    """Alert notifications to destinations within the window: the failed ones listed, all counted."""
    differences: list[Difference] = field(default_factory=list)
    """Each variant against its own service's baseline: the primary hallucination rates first, then means."""
    hallucination_threshold: float | None = None
    """The alert threshold on the hallucination rate (``alerts.hallucination_threshold``): above it is bad."""
    alert_limits: AlertLimits | None = None
    """The hallucination alert's limits, when known: they explain a rate shown red without an alert."""
    not_scored: list[NotScored] = field(default_factory=list)
    """Requests that cannot be scored, per service and reason."""
    template_versions: list[TemplateVersionRow] = field(default_factory=list)
    """Per service and learnt prompt template version: "did the new prompt help?"."""

    agreement: list[JudgeAgreement] = field(default_factory=list)
    outcomes: list[RequestOutcomes] = field(default_factory=list)
    """Where the free judge and an LLM judge scored the same requests: how far their verdicts agree."""
    alert_checks: AlertChecks = field(default_factory=AlertChecks)
    unscored_requests: list[RequestLine] = field(default_factory=list)
    people: PeopleFigures | None = None
    """Judges against people's labels, and the corrected hallucination rates."""
    rootcause: RootCauseFigures | None = None
    """Where the change against the days before sits, the questions' topics, conversations."""
    pass_rates: list[PassRow] = field(default_factory=list)
    """The team's own evaluators' verdicts: their pass rates per variant."""
    pass_thresholds: dict[str, float] = field(default_factory=dict)
    """The lowest pass rate each evaluator may have before its alert fires (``alerts.pass_rates``)."""
    """The newest requests no judge may score, each with its reason."""
    """What the last alert evaluation saw: the real reason a rate above the threshold has no alert."""

    def hallucination_check(self, service: str, variant: str) -> AlertCheckView:
        checks = self.alert_checks
        interval_s = checks.interval_s or (self.alert_limits.interval_s if self.alert_limits else 0.0)
        seen = checks.latest(AlertKey(HALLUCINATION_RATE, service, variant))
        return AlertCheckView(self.generated_at, checks.last_at, interval_s, seen)

    @property
    def resolved_alerts(self) -> list[AlertRecord]:
        return [alert for alert in self.alerts if alert.state == RESOLVED]

    @property
    def unscored(self) -> list[UnscoredReason]:
        """Requests that cannot be scored, per reason over every service, most frequent first."""
        totals: dict[str, int] = {}
        for row in self.not_scored:
            totals[row.reason] = totals.get(row.reason, 0) + row.requests
        ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
        return [UnscoredReason(code, count) for code, count in ranked]

    @property
    def not_scored_total(self) -> int:
        return sum(row.requests for row in self.not_scored)

    @property
    def firing_alerts(self) -> list[AlertRecord]:
        return [alert for alert in self.alerts if alert.state == FIRING]

    @property
    def requests(self) -> int:
        return sum(variant.requests for variant in self.variants)

    @property
    def services(self) -> list[str]:
        """The services with requests in the window, by name."""
        return sorted({variant.service for variant in self.variants})

    @property
    def spans_services(self) -> bool:
        """Several services share this report: every variant is named with its service."""
        return len(self.services) > 1

    def primary_rate(self, variant: str, service: str | None = None) -> Rate | None:
        return next(
            (
                row.rate
                for row in self.hallucination
                if row.scorer == self.primary_scorer
                and row.variant == variant
                and (service is None or row.service == service)
            ),
            None,
        )
