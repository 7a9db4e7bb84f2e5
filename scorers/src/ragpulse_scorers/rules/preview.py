"""``ragpulse rules preview``: what each rule would judge, from stored traffic, read-only.

Requests of the window are counted per (service, pipeline, variant, the attributes the rules read, sample
bucket): every request of such a group meets the same rules the same way, so the groups go through the
scheduler's own decision (:class:`RuleBook`) with their counts as weights. A judge runs once per request:
its call is counted for the rule that would pay for it. Calls per day are capped by each rule's daily budgets
(in judgments, and in dollars at the cost of a call). The cost of a call is what the judge's scores cost in
the last week; a paid judge without history is estimated from the requests' text length at the judge
model's price.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from pydantic import TypeAdapter
from ragpulse_core.printable import excerpt, shown
from ragpulse_core.sampling import SAMPLE_BUCKETS
from ragpulse_core.store import Store
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragpulse_scorers.llm.pricing import cost_usd, known_price
from ragpulse_scorers.pipeline.candidates import Candidate
from ragpulse_scorers.registry import is_llm_judged
from ragpulse_scorers.rules.book import RuleBook
from ragpulse_scorers.rules.matching import matches
from ragpulse_scorers.rules.model import Rule, check_rules
from ragpulse_scorers.settings import ScorersSettings

EXAMPLES = 5
CHARS_PER_TOKEN = 4
# A judge's instructions and its answer beside the request's text: the estimate for a judge without history.
PROMPT_TOKENS = 500
ANSWER_TOKENS = 300
COST_HISTORY = timedelta(days=7)

SettingsT = TypeVar("SettingsT", bound=ScorersSettings)


@dataclass(frozen=True)
class CallCost:
    usd: float
    measured: bool
    """From the judge's scores of the last week; else estimated from text length and price."""
    priced: bool = True
    """False for an LLM judge whose model has no known price: ``usd`` then counts its calls as free."""


@dataclass
class RulePreview:
    rule: Rule
    matched: int = 0
    included: int = 0
    calls: dict[str, float] = field(default_factory=dict)
    """Judgments per judge this rule would pay for over the window (before its budgets)."""
    examples: list[tuple[str, str, str, str, str]] = field(default_factory=list)
    """(time, trace id, service, variant, question) of recent requests the rule includes."""


@dataclass
class Preview:
    days: float
    rules: list[RulePreview]
    costs: dict[str, CallCost]

    def per_day(self, count: float) -> float:
        return count / self.days

    def calls_per_day(self, preview: RulePreview) -> dict[str, float]:
        """Judgments a day per judge, capped by the rule's daily budgets (shared out over its judges)."""
        calls = {judge: self.per_day(n) for judge, n in preview.calls.items()}
        total = sum(calls.values())
        if total <= 0:
            return calls
        cap = total
        rule = preview.rule
        if rule.daily_budget_calls is not None:
            cap = min(cap, float(rule.daily_budget_calls))
        day_cost = sum(calls[judge] * self.costs[judge].usd for judge in calls)
        if rule.daily_budget_usd is not None and day_cost > rule.daily_budget_usd:
            cap = min(cap, total * rule.daily_budget_usd / day_cost)
        return {judge: n * cap / total for judge, n in calls.items()}

    def cost_per_day(self, preview: RulePreview) -> float:
        return sum(n * self.costs[judge].usd for judge, n in self.calls_per_day(preview).items())

    def cost_text(self, preview: RulePreview) -> str:
        """The cost a day in dollars, or "price unknown" where a judge it pays for has no known price."""
        calls = self.calls_per_day(preview)
        dollars = f"${self.cost_per_day(preview):,.2f}"
        unpriced = [judge for judge, n in calls.items() if n > 0 and not self.costs[judge].priced]
        if not unpriced:
            return dollars
        unknown = f"price unknown ({', '.join(unpriced)})"
        return unknown if self.cost_per_day(preview) == 0 else f"{dollars} + {unknown}"


def rules_document(settings: ScorersSettings) -> str:
    """The rules of ``settings`` as JSON: what a preview read through ``ragpulse serve`` applies, so a rule
    is previewed from the caller's config before the running process knows it."""
    return json.dumps(
        {
            "rules": [rule.model_dump(mode="json", by_alias=True) for rule in settings.rules],
            "scorers": settings.scorer.scorers,
            "sample_rate": settings.scorer.sample_rate,
        }
    )


def with_rules(settings: SettingsT, document: str) -> SettingsT:
    """``settings`` with the rules of a :func:`rules_document`; ValueError when they are not valid."""
    try:
        given = json.loads(document)
        rules = TypeAdapter(list[Rule]).validate_python(given["rules"])
        scorer = settings.scorer.model_validate(
            {**settings.scorer.model_dump(), "scorers": given["scorers"], "sample_rate": given["sample_rate"]}
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"rules to preview are not valid: {exc}") from None
    check_rules(rules, settings.evaluators.names())
    return settings.model_copy(update={"rules": rules, "scorer": scorer})


def preview_rules(
    store: Store, settings: ScorersSettings, since: timedelta, now: datetime | None = None
) -> Preview:
    now = now or datetime.now(UTC)
    book = RuleBook(settings.rules, settings.scorer.scorers, settings.scorer.sample_rate)
    shown_rules = [rule for rule in settings.rules] + [
        rule for judge in book.judges for rule in book.rules_for(judge) if rule.name == "default"
    ][:1]
    default = shown_rules[-1] if len(shown_rules) > len(settings.rules) else None
    if default is not None:
        default = default.model_copy(update={"judges": [j for j in book.judges if _default_runs(book, j)]})
        shown_rules[-1] = default
    previews = {rule.name: RulePreview(rule) for rule in shown_rules}
    span_keys = sorted({key for rule in shown_rules for key in rule.match.span})
    resource_keys = sorted({key for rule in shown_rules for key in rule.match.resource})
    latest: dict[str, list[tuple[datetime, str]]] = defaultdict(list)
    for group in _groups(store, now - since, now, span_keys, resource_keys):
        candidate, count, judgeable, newest, example = group
        for preview in previews.values():
            if matches(preview.rule.match, candidate):
                preview.matched += count
        included: set[str] = set()
        for judge in book.judges:
            wanted = book.wanted(judge, candidate)
            if not wanted.rules:
                continue
            payer = previews[wanted.rules[0].name]
            payer.calls[judge] = payer.calls.get(judge, 0.0) + judgeable
            included.update(rule.name for rule in wanted.rules)
        for name in included:
            previews[name].included += count
            latest[name].append((newest, example))
    _add_examples(store, previews, latest, now - since)
    days = max(since.total_seconds() / 86400.0, 1e-9)
    return Preview(days, list(previews.values()), _call_costs(store, settings, book.judges, now - since, now))


def _default_runs(book: RuleBook, judge: str) -> bool:
    return any(rule.name == "default" for rule in book.rules_for(judge))


def _groups(
    store: Store, oldest: datetime, newest: datetime, span_keys: list[str], resource_keys: list[str]
) -> list[tuple[Candidate, int, int, datetime, str]]:
    requests = store.table("ragpulse_requests")
    attributes = ""
    columns = "[] AS span_values, [] AS resource_values"
    if span_keys or resource_keys:
        # Absent attributes read as NULL, so a filter tells them from empty values.
        attributes = f"""
        LEFT JOIN (
            SELECT TraceId, SpanId,
                   arrayMap(k -> if(mapContains(SpanAttributes, k), SpanAttributes[k], NULL),
                            {{span_keys:Array(String)}}) AS span_values,
                   arrayMap(k -> if(mapContains(ResourceAttributes, k), ResourceAttributes[k], NULL),
                            {{resource_keys:Array(String)}}) AS resource_values
            FROM {store.table("otel_traces")}
            WHERE Timestamp >= {{oldest:DateTime64(6)}} AND Timestamp <= {{newest:DateTime64(6)}}
            LIMIT 1 BY TraceId, SpanId
        ) AS a ON r.TraceId = a.TraceId AND r.SpanId = a.SpanId"""
        columns = "a.span_values AS span_values, a.resource_values AS resource_values"
    rows = store.query(
        f"""
        SELECT r.ServiceName, r.Pipeline, r.Variant, {columns}, r.SampleKey % {SAMPLE_BUCKETS} AS bucket,
               count() AS n, countIf(r.Unscorable = '') AS judgeable, max(r.Timestamp) AS newest,
               argMax(r.TraceId, r.Timestamp) AS example
        FROM (
            SELECT TraceId, SpanId, Timestamp, ServiceName, Pipeline, Variant, SampleKey, Unscorable
            FROM {requests}
            WHERE Timestamp >= {{oldest:DateTime64(6)}} AND Timestamp <= {{newest:DateTime64(6)}}
            LIMIT 1 BY TraceId, SpanId, Timestamp
        ) AS r{attributes}
        GROUP BY r.ServiceName, r.Pipeline, r.Variant, span_values, resource_values, bucket
        """,
        {"oldest": oldest, "newest": newest, "span_keys": span_keys, "resource_keys": resource_keys},
    )
    groups = []
    for (
        service,
        pipeline,
        variant,
        span_values,
        resource_values,
        bucket,
        n,
        judgeable,
        latest,
        example,
    ) in rows:
        candidate = Candidate(
            trace_id=example,
            span_id="",
            timestamp=latest,
            service_name=service,
            variant=variant,
            in_sample=True,
            failures=0,
            logged_deferrals=frozenset(),
            position=(0, "", ""),
            pipeline=pipeline,
            sample_bucket=int(bucket),
            span_attributes=_present(span_keys, span_values or []),
            resource_attributes=_present(resource_keys, resource_values or []),
        )
        groups.append((candidate, int(n), int(judgeable), latest, example))
    return groups


def _present(keys: list[str], values: list[str | None]) -> dict[str, str]:
    return {key: value for key, value in zip(keys, values, strict=False) if value is not None}


def _add_examples(
    store: Store,
    previews: dict[str, RulePreview],
    latest: dict[str, list[tuple[datetime, str]]],
    oldest: datetime,
) -> None:
    chosen = {
        name: [trace for _, trace in sorted(found, reverse=True)[:EXAMPLES]] for name, found in latest.items()
    }
    traces = sorted({trace for found in chosen.values() for trace in found})
    if not traces:
        return
    rows = store.query(
        f"SELECT TraceId, max(Timestamp), any(ServiceName), any(Variant), argMax(Question, Timestamp)"
        f" FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {oldest:DateTime64(6)} AND has({traces:Array(String)}, TraceId)"
        " GROUP BY TraceId",
        {"oldest": oldest, "traces": traces},
    )
    found = {row[0]: row for row in rows}
    for name, chosen_traces in chosen.items():
        previews[name].examples = [
            (f"{found[t][1]:%Y-%m-%d %H:%M}", t, found[t][2], found[t][3], found[t][4])
            for t in chosen_traces
            if t in found
        ]


def _call_costs(
    store: Store, settings: ScorersSettings, judges: list[str], oldest: datetime, now: datetime
) -> dict[str, CallCost]:
    rows = store.query(
        f"SELECT Scorer, sum(CostUSD) / uniqExact(TraceId, SpanId, RequestTime)"
        f" FROM {store.table('ragpulse_scores')}"
        " WHERE ScoredAt >= {since:DateTime64(6)} AND Metric != 'error' GROUP BY Scorer",
        {"since": now - COST_HISTORY},
    )
    measured = {scorer: float(cost) for scorer, cost in rows}
    text = store.query(
        f"SELECT avg(length(Question) + length(Context) + length(Answer))"
        f" FROM {store.table('ragpulse_requests')} WHERE Timestamp >= {{oldest:DateTime64(6)}}",
        {"oldest": oldest},
    )
    text_chars = float(text[0][0] or 0.0) if text else 0.0
    text_chars = text_chars if math.isfinite(text_chars) else 0.0  # no request in the window
    price = known_price(settings.judge.model, settings.judge.prices)
    tokens = PROMPT_TOKENS + int(text_chars / CHARS_PER_TOKEN)
    estimate = cost_usd(price, tokens, ANSWER_TOKENS) if price is not None else 0.0
    costs = {}
    for judge in judges:
        priced = price is not None or not is_llm_judged(judge, settings)
        if judge in measured:
            costs[judge] = CallCost(measured[judge], True, priced)
        else:
            costs[judge] = CallCost(estimate if is_llm_judged(judge, settings) else 0.0, False, priced)
    return costs


def print_rules_preview(preview: Preview, console: Console, name: str | None = None) -> None:
    """The rules' table, then each rule's example requests."""
    table = Table(title=f"rules over the last {preview.days * 24:g} h of stored traffic, per day")
    for column in ("rule", "priority", "matches/day", "included/day", "judge calls/day", "cost/day"):
        table.add_column(column, justify="left" if column in ("rule", "judge calls/day") else "right")
    chosen = [p for p in preview.rules if name is None or p.rule.name == name]
    for rule_preview in chosen:
        calls = preview.calls_per_day(rule_preview)
        said = ", ".join(f"{judge} {n:,.0f}" for judge, n in calls.items()) or "none"
        rule = rule_preview.rule
        table.add_row(
            escape(rule.name),
            str(rule.priority),
            f"{preview.per_day(rule_preview.matched):,.0f}",
            f"{preview.per_day(rule_preview.included):,.0f}",
            escape(said),
            escape(preview.cost_text(rule_preview)),
        )
    console.print(table)
    estimated = [judge for judge, cost in preview.costs.items() if not cost.measured and cost.usd > 0]
    if estimated:
        console.print(
            f"cost of {', '.join(estimated)} estimated from the requests' text length and the judge's price"
            " (no scores in the last 7 days)"
        )
    for rule_preview in chosen:
        if not rule_preview.examples:
            console.print(f"[bold]{escape(rule_preview.rule.name)}[/bold]: no stored request matches")
            continue
        examples = Table(title=f"{rule_preview.rule.name}: recent requests it includes", title_justify="left")
        for column in ("time", "trace", "service", "variant", "question"):
            examples.add_column(column)
        for at, trace, service, variant, question in rule_preview.examples:
            examples.add_row(
                at, trace[:16], escape(shown(service)), escape(shown(variant)), escape(excerpt(question, 60))
            )
        console.print(examples)
