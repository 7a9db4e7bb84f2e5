"""B − A: each variant against its own service's baseline, with a 95% interval.

Variants of different services are never compared: each service's baseline is its first labelled variant by
name (requests without a variant label come last, so they are compared against a labelled baseline rather
than serving as one).

Rates (the hallucination verdicts) use Newcombe's hybrid score interval, which holds at small n and at rates
near 0 or 1; means use Welch's interval, which needs no equal variances or sizes. Over directed samples both
are inverse-probability weighted, each side at its effective sample size.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from ragpulse_scorers.stats import weighted_difference_interval, welch_interval

from ragpulse_dashboards.report.model import Difference, HallucinationRow, MetricRow, primary_scorer


def baseline_first(variants: Iterable[str]) -> list[str]:
    """Variants in comparison order: the baseline first, unlabelled requests ("") last."""
    return sorted(set(variants), key=lambda variant: (variant == "", variant))


def rate_differences(rows: Sequence[HallucinationRow]) -> list[Difference]:
    """Every variant's hallucination rate against its service's baseline, by the service's leading judge
    (:func:`primary_scorer` of the judges that scored it)."""
    by_service: dict[str, dict[str, HallucinationRow]] = {}
    judges = {
        service: primary_scorer(row.scorer for row in rows if row.service == service and row.rate.n)
        for service in {row.service for row in rows}
    }
    for row in rows:
        if row.scorer == judges[row.service] and row.rate.n:
            by_service.setdefault(row.service, {})[row.variant] = row
    differences = []
    for service, by_variant in sorted(by_service.items()):
        scorer = judges[service]
        baseline, *others = baseline_first(by_variant)
        base = by_variant[baseline].rate
        for variant in others:
            rate = by_variant[variant].rate
            low, high = weighted_difference_interval(rate.counts, base.counts)
            differences.append(
                Difference(scorer or "", "hallucination", baseline, variant, rate.value - base.value, low,
                           high, base.n, rate.n, is_rate=True, service=service)
            )  # fmt: skip
    return differences


def mean_differences(rows: Sequence[MetricRow]) -> list[Difference]:
    """Every (service, scorer, metric) measured on two or more variants, each against the baseline's mean."""
    cells: dict[tuple[str, str, str], dict[str, MetricRow]] = {}
    for row in rows:
        if not math.isnan(row.mean):
            cells.setdefault((row.service, row.scorer, row.metric), {})[row.variant] = row
    differences = []
    for (service, scorer, metric), by_variant in sorted(cells.items()):
        if len(by_variant) < 2:
            continue
        baseline, *others = baseline_first(by_variant)
        base = by_variant[baseline]
        for variant in others:
            row = by_variant[variant]
            low, high = _welch(row, base)
            differences.append(
                Difference(scorer, metric, baseline, variant, row.mean - base.mean, low, high, base.n, row.n,
                           is_rate=False, service=service)
            )  # fmt: skip
    return differences


def _welch(row: MetricRow, base: MetricRow) -> tuple[float, float]:
    """Welch's interval, each side at its (effective, when weighted) sample size."""
    row_n, base_n = row.sample_size, base.sample_size
    if row_n < 2 or base_n < 2 or math.isnan(row.variance) or math.isnan(base.variance):
        return math.nan, math.nan
    return welch_interval(row.mean, row.variance, row_n, base.mean, base.variance, base_n)
