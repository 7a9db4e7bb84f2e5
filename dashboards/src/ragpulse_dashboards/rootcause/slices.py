"""Reading a scope's slices, window against baseline, and explaining its change.

The baseline is the ``baseline_days`` before the window. Each is cut to the microsecond when it is at most
:data:`EXACT_WINDOW` long (an alert's hour is an hour to the second), else to the hour (a baseline then ending
at the hour the window starts in). Both are read in one statement: whole days from the daily sums
(``ragpulse_slice_days``), the other whole hours from the hourly ones (``ragpulse_slice_hours``), and only the
part-hours at either end from the per-request facts. A request's verdict is its best judge's, the one the
hallucination alert counts."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ragpulse_core.store import Store
from ragpulse_scorers.stats import WeightedCount

from ragpulse_dashboards.rootcause.ranking import Explanation, SliceCounts, SliceKey, explain

EXACT_WINDOW: Final = timedelta(days=2)
VARIANT: Final = "variant"
# Each dimension's column in ragpulse_request_facts, as a condition on one bound value; configured
# attributes are read from the Attributes map.
_CONDITIONS: Final = {
    VARIANT: "Variant = {value}",
    "pipeline": "Pipeline = {value}",
    "model": "Model = {value}",
    "model version": "ModelVersion = {value}",
    "template version": "TemplateVersion = {value}",
    "topic": "toString(Topic) = {value}",
    "document": "has(Documents, {value})",
    "source": "has(Sources, toLowCardinality({value}))",
}
# The same slices the hourly view writes, for the exact window read from the facts.
_SLICES_OF_A_FACT: Final = """
arrayFilter(pair -> pair.1 = '' OR pair.2 != '', arrayConcat(
    [('', ''), ('pipeline', toString(Pipeline)), ('model', toString(Model)),
     ('model version', toString(ModelVersion)), ('template version', toString(TemplateVersion)),
     ('topic', toString(Topic))],
    arrayMap(document -> ('document', document), arrayDistinct(Documents)),
    arrayMap(source -> ('source', toString(source)), arrayDistinct(Sources)),
    arrayMap((name, value) -> (toString(name), value), mapKeys(Attributes), mapValues(Attributes))))
"""
_SUMS: Final = (
    "sum(Judged) AS n, sum(Hallucinated) AS h, sum(Weights) AS w, sum(WeightedHallucinated) AS wh,"
    " sum(SquaredWeights) AS w2, sum(SquaredWeightedHallucinated) AS w2h"
)
_FACT_SUMS: Final = (
    "sum(Sign) AS n, sum(Sign * Hallucinated) AS h, sum(Sign * Weight) AS w,"
    " sum(Sign * Weight * Hallucinated) AS wh, sum(Sign * Weight * Weight) AS w2,"
    " sum(Sign * Weight * Weight * Hallucinated) AS w2h"
)
_SCOPE: Final = (
    "({service:String} = '' OR ServiceName = {service:String})"
    " AND ({variant_all:UInt8} = 1 OR Variant = {variant:String})"
)


@dataclass(frozen=True)
class Scope:
    """What is explained: one service's variant, or one service with its variants among the dimensions."""

    service: str
    variant: str | None = None

    def parameters(self) -> dict[str, Any]:
        return {
            "service": self.service,
            "variant": self.variant or "",
            "variant_all": int(self.variant is None),
        }


@dataclass(frozen=True)
class Period:
    """A window and the baseline of ``baseline_days`` before it. A span of at most EXACT_WINDOW is read to
    the microsecond from the facts; a longer one in whole hours (a longer window from the hour it starts in),
    and a baseline ends where its window starts, so the two never overlap."""

    start: datetime
    end: datetime
    baseline_days: float

    @property
    def exact_window(self) -> bool:
        return self.end - self.start <= EXACT_WINDOW

    @property
    def exact_baseline(self) -> bool:
        return timedelta(days=self.baseline_days) <= EXACT_WINDOW

    @property
    def window_start(self) -> datetime:
        """Where the window is read from: its start, or the hour it starts in when read in hours."""
        return self.start if self.exact_window else _hour(self.start)

    @property
    def baseline_start(self) -> datetime:
        start = self.window_start - timedelta(days=self.baseline_days)
        return start if self.exact_baseline else _hour(start)

    @property
    def baseline_end(self) -> datetime:
        return self.window_start if self.exact_baseline else _hour(self.window_start)


@dataclass(frozen=True)
class ScopeCounts:
    window: WeightedCount
    baseline: WeightedCount
    slices: list[SliceCounts]


_EMPTY: Final = WeightedCount(0.0, 0.0, 0.0, 0.0)


def scope_counts(store: Store, scope: Scope, period: Period) -> ScopeCounts:
    """The scope's totals and every slice's counts, in the window and in the baseline."""
    found = service_counts(store, scope.service, period, variant=scope.variant)
    return found.get(scope.service, ScopeCounts(_EMPTY, _EMPTY, []))


def service_counts(
    store: Store, service: str | None, period: Period, *, variant: str | None = None
) -> dict[str, ScopeCounts]:
    """Per service (every one, or ``service``): its totals and slices, its variants among them unless
    ``variant`` narrows it to one. One read whatever the number of services, window and baseline together."""
    parameters = {"service": service or "", "variant": variant or "", "variant_all": int(variant is None)}
    window, baseline = _period_sums(store, parameters, period)
    total = SliceKey("", "")
    counts = {}
    for name in sorted(set(window) | set(baseline)):
        now, before = window.get(name, {}), baseline.get(name, {})
        keys = sorted((set(now) | set(before)) - {total}, key=_in_order)
        slices = [SliceCounts(key, now.get(key, _EMPTY), before.get(key, _EMPTY)) for key in keys]
        counts[name] = ScopeCounts(now.get(total, _EMPTY), before.get(total, _EMPTY), slices)
    return counts


def explain_scope(
    store: Store, scope: Scope, period: Period, *, min_samples: int = 30, direction: int | None = None
) -> Explanation:
    """Where the change of ``scope`` between the baseline and the window sits (see ``ranking``)."""
    counts = scope_counts(store, scope, period)

    def residuals(keys: Sequence[SliceKey]) -> dict[tuple[SliceKey, SliceKey], SliceCounts]:
        return slice_residuals(store, scope, period, keys)

    return explain(
        counts.window,
        counts.baseline,
        counts.slices,
        residuals=residuals,
        min_samples=min_samples,
        direction=direction,
    )


def slice_residuals(
    store: Store, scope: Scope, period: Period, keys: Sequence[SliceKey]
) -> dict[tuple[SliceKey, SliceKey], SliceCounts]:
    """For every ordered pair of ``keys``, the first slice's requests outside the second, window and
    baseline: one read of the facts, grouping requests by which of the slices they belong to."""
    parameters: dict[str, Any] = {
        **scope.parameters(),
        "baseline_start": period.baseline_start,
        "baseline_end": period.baseline_end,
        "window_start": period.window_start,
        "window_end": period.end,
    }
    bits = []
    for position, key in enumerate(keys):
        parameters[f"value_{position}"] = key.value
        bits.append(f"if({condition(key, position, parameters)}, {1 << position}, 0)")
    rows = store.query_dicts(
        f"SELECT ({' + '.join(bits)}) AS members, RequestTime >= {{window_start:DateTime64(9)}} AS now,"
        f" {_FACT_SUMS} FROM {store.table('ragpulse_request_facts')}"
        " WHERE RequestTime >= {baseline_start:DateTime64(9)} AND RequestTime < {window_end:DateTime64(9)}"
        " AND (RequestTime >= {window_start:DateTime64(9)} OR RequestTime < {baseline_end:DateTime64(9)})"
        f" AND {_SCOPE} GROUP BY members, now",
        parameters,
    )
    groups = [(int(row["members"]), bool(row["now"]), _count(row)) for row in rows]
    found = {}
    for first, inside in enumerate(keys):
        for second, outside in enumerate(keys):
            if first == second:
                continue
            chosen = [
                (now, count)
                for members, now, count in groups
                if members >> first & 1 and not members >> second & 1
            ]
            found[(inside, outside)] = SliceCounts(
                inside,
                _added(count for now, count in chosen if now),
                _added(count for now, count in chosen if not now),
            )
    return found


def condition(key: SliceKey, position: int, parameters: dict[str, Any]) -> str:
    """The facts' condition for ``key``, its value bound as ``value_{position}`` (which the caller sets)."""
    value = f"{{value_{position}:String}}"
    template = _CONDITIONS.get(key.dimension)
    if template is not None:
        return template.format(value=value)
    parameters[f"name_{position}"] = key.dimension
    return f"Attributes[{{name_{position}:String}}] = {value}"


_COLUMNS: Final = (
    "Judged, Hallucinated, Weights, WeightedHallucinated, SquaredWeights, SquaredWeightedHallucinated"
)


def _period_sums(
    store: Store, parameters: dict[str, Any], period: Period
) -> tuple[dict[str, dict[SliceKey, WeightedCount]], dict[str, dict[SliceKey, WeightedCount]]]:
    """The window's sums and the baseline's, in one read: each span's whole days from the daily sums, its
    whole hours outside them from the hourly sums, and only the part-hours at its ends from the facts."""
    bounds: dict[str, Any] = {}
    parts = [
        *_span_parts(store, "b", period.baseline_start, period.baseline_end, 0, bounds),
        *_span_parts(store, "w", period.window_start, period.end, 1, bounds),
    ]
    if not parts:
        return {}, {}
    # A variant is a slice too, from the rows of its whole scope (Dimension ''), unless the scope is one.
    sql = (
        f"SELECT now, ServiceName, pair.1 AS Dimension, pair.2 AS Value, {_SUMS}"
        f" FROM ({' UNION ALL '.join(parts)})"
        f" ARRAY JOIN if(dim = '' AND {{variant_all:UInt8}} = 1,"
        f" [('', ''), ('{VARIANT}', toString(Variant))], [(toString(dim), val)]) AS pair"
        " GROUP BY now, ServiceName, Dimension, Value"
    )
    # Tuples, not dicts: a month holds thousands of slices per service, and their Python is most of the read.
    rows = store.query(sql, {**parameters, **bounds})
    window = [row[1:] for row in rows if row[0]]
    baseline = [row[1:] for row in rows if not row[0]]
    return _by_service(window), _by_service(baseline)


def _span_parts(
    store: Store, name: str, start: datetime, end: datetime, now: int, bounds: dict[str, Any]
) -> list[str]:
    """SELECTs of [start, end)'s sums per slice (each flagged ``now``), their bounds added to ``bounds``."""
    if end <= start:
        return []
    first_hour, last_hour = _ceil(start, _hour, timedelta(hours=1)), _hour(end)
    if first_hour >= last_hour:
        return [_fact_part(store, [(f"{name}_0", start, end)], now, bounds)]
    first_day, last_day = _ceil(first_hour, _day, timedelta(days=1)), _day(last_hour)
    if first_day >= last_day:
        first_day = last_day = last_hour
    edges = [(f"{name}_0", start, first_hour), (f"{name}_1", last_hour, end)]
    hours = [(f"{name}_2", first_hour, first_day), (f"{name}_3", last_day, last_hour)]
    parts = []
    if any(low < high for _, low, high in edges):
        parts.append(_fact_part(store, edges, now, bounds))
    if any(low < high for _, low, high in hours):
        parts.append(_summed_part(store, "ragpulse_slice_hours", "Hour", hours, now, bounds))
    if first_day < last_day:
        days = [(f"{name}_4", first_day, last_day)]
        parts.append(_summed_part(store, "ragpulse_slice_days", "Day", days, now, bounds))
    return parts


def _ranges(column: str, spans: list[tuple[str, datetime, datetime]], bounds: dict[str, Any]) -> str:
    chosen = []
    for key, low, high in spans:
        if low < high:
            bounds[f"{key}_from"], bounds[f"{key}_to"] = low, high
            chosen.append(
                f"({column} >= {{{key}_from:DateTime64(9)}} AND {column} < {{{key}_to:DateTime64(9)}})"
            )
    return "(" + " OR ".join(chosen) + ")"


def _summed_part(
    store: Store,
    table: str,
    column: str,
    spans: list[tuple[str, datetime, datetime]],
    now: int,
    bounds: dict[str, Any],
) -> str:
    return (
        f"SELECT {now} AS now, ServiceName, Variant, Dimension AS dim, Value AS val, {_COLUMNS}"
        f" FROM {store.table(table)} WHERE {_ranges(column, spans, bounds)} AND {_SCOPE}"
    )


def _fact_part(
    store: Store, spans: list[tuple[str, datetime, datetime]], now: int, bounds: dict[str, Any]
) -> str:
    """Per slice of each fact, its signed counts, as the hourly view writes them."""
    return (
        f"SELECT {now} AS now, ServiceName, Variant, slice.1 AS dim, slice.2 AS val, Sign AS Judged,"
        " Sign * Hallucinated AS Hallucinated, Sign * Weight AS Weights,"
        " Sign * Weight * Hallucinated AS WeightedHallucinated, Sign * Weight * Weight AS SquaredWeights,"
        " Sign * Weight * Weight * Hallucinated AS SquaredWeightedHallucinated"
        f" FROM {store.table('ragpulse_request_facts')} ARRAY JOIN {_SLICES_OF_A_FACT} AS slice"
        f" WHERE {_ranges('RequestTime', spans, bounds)} AND {_SCOPE}"
    )


def _by_service(rows: Sequence[Sequence[Any]]) -> dict[str, dict[SliceKey, WeightedCount]]:
    """Rows of (service, dimension, value, n, h, w, wh, w2, w2h) by service and slice."""
    found: dict[str, dict[SliceKey, WeightedCount]] = {}
    for service, dimension, value, n, _, w, wh, w2, w2h in rows:
        if int(n) > 0:
            found.setdefault(str(service), {})[SliceKey(str(dimension), str(value))] = WeightedCount(
                float(w), float(wh), float(w2), float(w2h)
            )
    return found


def _in_order(key: SliceKey) -> tuple[str, str]:
    """SliceKey's own order as a tuple: thousands of slices sort without a Python call per comparison."""
    return key.dimension, key.value


def _count(row: Mapping[str, Any]) -> WeightedCount:
    return WeightedCount(float(row["w"]), float(row["wh"]), float(row["w2"]), float(row["w2h"]))


def _added(counts: Any) -> WeightedCount:
    total = WeightedCount(0.0, 0.0, 0.0, 0.0)
    for count in counts:
        total = WeightedCount(
            total.weights + count.weights,
            total.weighted_events + count.weighted_events,
            total.squared_weights + count.squared_weights,
            total.squared_weighted_events + count.squared_weighted_events,
        )
    return total


def _hour(moment: datetime) -> datetime:
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.replace(minute=0, second=0, microsecond=0)


def _day(moment: datetime) -> datetime:
    return _hour(moment).replace(hour=0)


def _ceil(moment: datetime, floor: Callable[[datetime], datetime], step: timedelta) -> datetime:
    """The first hour or day (``floor`` _hour and ``step`` an hour, or _day and a day) at or after it."""
    down = floor(moment)
    return down if down == _aware(moment) else floor(down + step)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
