"""Rules ([[rules]]): config, validation, and a tick that scores exactly what the rules say."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from pipeline_testing import (
    SPAN_COLUMNS,
    RecordingScorer,
    insert_requests,
    log_rows,
    root_span,
    scored_traces,
    trace_id,
)
from pydantic import ValidationError
from ragpulse_core.sampling import SAMPLE_BUCKETS
from ragpulse_core.store import Store
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import run_tick
from ragpulse_scorers.rules.book import rule_book
from ragpulse_scorers.settings import ScorersSettings

THREE_RULES = """
[scorer]
scorers = ["lexical"]
sample_rate = 0.2
settle_delay_s = 60
concurrency = 1

[[rules]]
name = "shop"
match = { service = "shop" }
judges = ["lexical", "support"]
sample_rate = 1.0

[[rules]]
name = "shop-support"
match = { service = "shop" }
judges = ["support"]
sample_rate = 0.1

[[rules]]
name = "variant-b"
match = { variant = "B" }
judges = ["coverage"]
sample_rate = 0.5
daily_budget_usd = 1.0
"""


def load(tmp_path: Path, text: str, dsn: str = "chdb:///unused") -> ScorersSettings:
    path = tmp_path / "ragpulse.toml"
    path.write_text(text, encoding="utf-8")
    return ScorersSettings.load(path, store={"dsn": dsn})


def sample_buckets(store: Store) -> dict[str, int]:
    rows = store.query(f"SELECT DISTINCT TraceId, SampleKey FROM {store.table('ragpulse_requests')}")
    return {trace: key % SAMPLE_BUCKETS for trace, key in rows}


def costing(usd: float) -> RecordingScorer:
    """A paid judge played by a function: each judgment costs ``usd``, split over two metrics."""

    def score(request: RagRequest) -> list[Score]:
        return [Score(metric=m, value=1.0, cost_usd=usd / 2) for m in ("a", "b")]

    return RecordingScorer(name="coverage", behaviour=score)


def test_a_config_without_rules_is_one_default_rule_of_scorer_scorers(tmp_path: Path) -> None:
    settings = load(tmp_path, '[scorer]\nscorers = ["lexical", "support"]\nsample_rate = 0.3\n')
    book = rule_book(settings)

    assert book.judges == ["lexical", "support"]
    for judge in ("lexical", "support"):
        (rule,) = book.rules_for(judge)
        assert (rule.name, rule.sample_rate) == ("default", 0.3)


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ('name = "x"\njudges = ["lexcial"]', "unknown judge 'lexcial'"),
        ('name = "x"\njudges = ["lexical"]\nmatch = { service = { regex = "(" } }', "bad regex '('"),
        (
            'name = "x"\njudges = ["lexical"]\nmatch = { service = { regex = \'^(\\w+)\\1$\' } }',
            "backreferences and lookaround need backtracking",
        ),
        ('name = "x"\njudges = ["lexical"]\nsample_rate = 1.5', "less than or equal to 1"),
        ('name = "x"\njudges = ["lexical"]\nmatch = { service = { equal = "a" } }', "equal"),
        ('name = "default"\njudges = ["lexical"]', "scorer.scorers and scorer.sample_rate"),
        ('name = "x"\njudges = []', "at least 1"),
    ],
)
def test_a_bad_rule_is_refused_naming_what_is_wrong(tmp_path: Path, rule: str, message: str) -> None:
    with pytest.raises(ValidationError, match="rules") as raised:
        load(tmp_path, f"[[rules]]\n{rule}\n")
    assert message in str(raised.value)


def test_two_rules_with_one_name_are_refused(tmp_path: Path) -> None:
    twice = '[[rules]]\nname = "x"\njudges = ["lexical"]\n'
    with pytest.raises(ValidationError, match="two rules are named 'x'"):
        load(tmp_path, twice + twice)


def test_three_rules_score_exactly_what_they_say(store: Store, chdb_dsn: str, tmp_path: Path) -> None:
    shop = insert_requests(store, 300, prefix="shop", service="shop", variants=("A",))
    other = insert_requests(store, 300, prefix="other", service="other", variants=("A", "B"))
    bucket = sample_buckets(store)
    other_b = set(other[1::2])
    lexical, support, coverage = (
        RecordingScorer(name="lexical"),
        RecordingScorer(name="support"),
        costing(0.3),
    )
    settings = load(tmp_path, THREE_RULES, chdb_dsn)

    report = run_tick(settings, store, [lexical, support, coverage])
    run_tick(settings, store, [lexical, support, coverage])  # what the per-tick limit (500) left
    again = run_tick(settings, store, [lexical, support, coverage])

    # lexical: every shop request (rule shop at 100%), and the default 20% of the rest.
    assert sorted(lexical.calls) == sorted([*shop, *(t for t in other if bucket[t] < 2000)])
    # support: the shop rule asks for all of shop, shop-support for 10%: each request judged once.
    assert Counter(support.calls) == Counter(shop)
    # coverage: half of variant B, until $1 is spent at $0.30 a judgment: four judgments.
    wanted = [t for t in other if t in other_b and bucket[t] < 5000]
    assert coverage.calls == wanted[:4]
    assert report.count("coverage", Outcome.OVER_BUDGET) == len(wanted) - 4
    assert again.counts["coverage"].total() == 0  # a spent rule's extra requests are final
    assert again.counts["lexical"].total() == again.counts["support"].total() == 0

    logged = {row["TraceId"]: row for row in log_rows(store, "coverage")}
    assert "rule variant-b: daily budget of $1.00 spent" in logged[wanted[4]]["Reason"]
    assert "no rule running coverage matches" in logged[shop[0]]["Reason"]
    paid = store.query(
        f"SELECT Rule, count(), round(sum(CostUSD), 6) FROM {store.table('ragpulse_scoring_log')}"
        " WHERE Outcome = 'scored' GROUP BY Rule ORDER BY Rule"
    )
    lexical_default = sum(1 for t in other if bucket[t] < 2000)
    assert paid == [("default", lexical_default, 0.0), ("shop", 600, 0.0), ("variant-b", 4, 1.2)]
    weights = store.query(
        "SELECT Scorer, Rule, groupUniqArray(InclusionProbability)"
        f" FROM {store.table('ragpulse_scoring_log')} WHERE Outcome = 'scored'"
        " GROUP BY Scorer, Rule ORDER BY Scorer, Rule"
    )
    assert weights == [
        ("coverage", "variant-b", [0.5]),
        ("lexical", "default", [0.2]),
        ("lexical", "shop", [1.0]),
        ("support", "shop", [1.0]),
    ]
    assert scored_traces(store, "coverage") == sorted(wanted[:4])


def test_priority_decides_which_rules_budget_pays(store: Store, chdb_dsn: str, tmp_path: Path) -> None:
    traces = insert_requests(store, 20)
    config = """
[scorer]
scorers = []
settle_delay_s = 60
concurrency = 1

[[rules]]
name = "low"
judges = ["coverage"]
daily_budget_calls = 100

[[rules]]
name = "high"
judges = ["coverage"]
priority = 5
daily_budget_calls = 3
"""
    coverage = costing(0.0)

    run_tick(load(tmp_path, config, chdb_dsn), store, [coverage])

    assert sorted(coverage.calls) == sorted(traces)
    paid = dict(
        store.query(
            f"SELECT Rule, count() FROM {store.table('ragpulse_scoring_log')}"
            " WHERE Outcome = 'scored' GROUP BY Rule"
        )
    )
    assert paid == {"high": 3, "low": 17}


def test_a_rule_on_a_span_attribute_reads_the_root_span(store: Store, chdb_dsn: str, tmp_path: Path) -> None:
    traces = [trace_id("tier", i) for i in range(6)]
    rows = [root_span(trace) for trace in traces]
    for row in rows[:2]:
        row[SPAN_COLUMNS.index("SpanAttributes")]["customer.tier"] = "gold"
    store.insert("otel_traces", rows, SPAN_COLUMNS)
    config = """
[scorer]
scorers = []
settle_delay_s = 60

[[rules]]
name = "gold"
judges = ["coverage"]
match = { span = { "customer.tier" = "gold" } }
"""
    coverage = costing(0.0)
    settings = load(tmp_path, config, chdb_dsn)

    run_tick(settings, store, [coverage])
    again = run_tick(settings, store, [coverage])

    assert sorted(coverage.calls) == sorted(traces[:2])
    assert again.counts["coverage"].total() == 0  # sampled out once, not read again
    changed = load(tmp_path, config.replace('"gold" }', '{ in = ["gold", "silver"] } }'), chdb_dsn)
    assert run_tick(changed, store, [coverage]).count("coverage", Outcome.SAMPLED_OUT) == 4
