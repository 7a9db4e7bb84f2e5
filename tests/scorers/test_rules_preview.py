"""``rules preview``: what each rule would judge from stored traffic, against the scheduler."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from pipeline_testing import SPAN_COLUMNS, RecordingScorer, root_span, trace_id
from ragpulse_core.store import Store
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import run_tick
from ragpulse_scorers.rules.preview import preview_rules, print_rules_preview
from ragpulse_scorers.settings import ScorersSettings
from rich.console import Console

RULES = """
[scorer]
scorers = ["lexical"]
sample_rate = 0.2
settle_delay_s = 30

[[rules]]
name = "shop"
match = { service = "shop" }
judges = ["lexical", "support"]

[[rules]]
name = "shop-support"
match = { service = "shop" }
judges = ["support"]
sample_rate = 0.1
priority = 1

[[rules]]
name = "variant-b"
match = { variant = { in = ["B"] }, pipeline = { regex = "^fus" } }
judges = ["coverage"]
sample_rate = 0.5
"""


def steady_traffic(store: Store, prefix: str, per_hour: int, newest: timedelta, hours: float) -> None:
    """``per_hour`` an hour for ``hours`` hours until ``newest`` ago, services and variants in turn."""
    count = int(per_hour * hours)
    step = timedelta(hours=hours) / count
    rows = [
        root_span(
            trace_id(prefix, i),
            age=newest + step * i,
            service=("shop", "other", "other")[i % 3],
            variant=("A", "B")[i % 2],
        )
        for i in range(count)
    ]
    store.insert("otel_traces", rows, SPAN_COLUMNS)


def load(tmp_path: Path, dsn: str, **scorer: object) -> ScorersSettings:
    path = tmp_path / "ragpulse.toml"
    path.write_text(RULES, encoding="utf-8")
    return ScorersSettings.load(path, store={"dsn": dsn}, scorer=scorer)


def test_preview_predicts_the_next_hours_judge_calls_within_20_percent(
    store: Store, chdb_dsn: str, tmp_path: Path
) -> None:
    steady_traffic(store, "past", 600, timedelta(hours=1), 24)
    an_hour_ago = datetime.now(UTC) - timedelta(hours=1)
    preview = preview_rules(store, load(tmp_path, chdb_dsn), timedelta(hours=24), an_hour_ago)
    predicted: dict[str, float] = {}
    for rule_preview in preview.rules:
        for judge, per_day in preview.calls_per_day(rule_preview).items():
            predicted[judge] = predicted.get(judge, 0.0) + per_day / 24

    # The next hour of the same traffic, then the scheduler on it alone.
    steady_traffic(store, "next", 600, timedelta(minutes=1), 58 / 60)
    judges = [RecordingScorer(name=name) for name in ("lexical", "support", "coverage")]
    settings = load(tmp_path, chdb_dsn, lookback_hours=1.0)
    while run_tick(settings, store, judges).total(Outcome.SCORED):
        pass
    done = {judge.name: len(judge.calls) * 60 / 58 for judge in judges}

    assert set(predicted) == set(done)
    for name, calls in done.items():
        assert abs(predicted[name] - calls) <= 0.2 * calls, (name, predicted[name], calls)
    assert abs(sum(predicted.values()) - sum(done.values())) <= 0.1 * sum(done.values())


def test_preview_shows_each_rule_with_examples(store: Store, chdb_dsn: str, tmp_path: Path) -> None:
    steady_traffic(store, "past", 60, timedelta(minutes=5), 23)  # 1,380 requests, all in the window
    preview = preview_rules(store, load(tmp_path, chdb_dsn), timedelta(hours=24))
    by_name = {p.rule.name: p for p in preview.rules}

    assert set(by_name) == {"shop", "shop-support", "variant-b", "default"}
    assert by_name["shop"].matched == by_name["shop-support"].matched == 460
    assert by_name["variant-b"].matched == 690
    assert by_name["default"].matched == 1380
    # support runs once per shop request: shop-support (priority 1) pays for its 10%, shop for the rest.
    support = by_name["shop"].calls["support"] + by_name["shop-support"].calls["support"]
    assert support == 460 and 0 < by_name["shop-support"].calls["support"] < 100
    assert all(len(p.examples) == 5 for p in preview.rules)

    console = Console(width=160, record=True)
    print_rules_preview(preview, console, "variant-b")
    printed = console.export_text()
    assert "variant-b" in printed and "coverage" in printed and "shop-support" not in printed
    assert "What is the capital of France?" in printed


def test_a_judge_model_without_a_price_costs_price_unknown_not_zero(
    store: Store, chdb_dsn: str, tmp_path: Path
) -> None:
    steady_traffic(store, "priced", 30, timedelta(minutes=5), 2)
    settings = load(tmp_path, chdb_dsn)
    for model, said in (("qwen2.5-1.5b-instruct", "price unknown (support)"), ("gpt-4o-mini", "$")):
        chosen = settings.model_copy(update={"judge": settings.judge.model_copy(update={"model": model})})
        console = Console(width=200, record=True)
        print_rules_preview(preview_rules(store, chosen, timedelta(hours=24)), console, "shop")
        row = next(line for line in console.export_text().splitlines() if line.startswith("│ shop "))
        assert said in row and ("$0.00" not in row or model == "gpt-4o-mini"), row
