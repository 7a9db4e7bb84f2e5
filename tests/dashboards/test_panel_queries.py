"""Every panel's SQL, expanded the way the ClickHouse plugin expands it, runs against chDB loaded with demo
data and returns the columns its panel needs."""

from __future__ import annotations

import json
import math
import statistics
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from demo_data import EVALUATOR, EVALUATOR_PASS_RATE, SERVICE, STEPS, VARIANTS, Demo
from grafana_macros import ALL, TimeRange, Variable, expand_dashboard_query
from ragpulse_core.store import Store
from ragpulse_dashboards.report.queries import judge_agreement
from ragpulse_scorers.labels.figures import judge_figures
from ragpulse_scorers.stats import wilson_interval

DASHBOARDS = Path(__file__).resolve().parents[2] / "dashboards" / "grafana" / "json"
TRACE_COLUMNS = {"traceID", "spanID", "parentSpanID", "serviceName", "operationName", "startTime", "duration",
                 "tags", "serviceTags", "statusCode"}  # fmt: skip


def load(name: str) -> dict[str, Any]:
    board: dict[str, Any] = json.loads((DASHBOARDS / name).read_text())
    return board


def panels() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted(DASHBOARDS.glob("*.json")):
        for panel in json.loads(path.read_text())["panels"]:
            if panel["type"] not in ("row", "text"):
                found.append((f"{path.stem}:{panel['title']}", panel))
    return found


PANELS = panels()


def variables(demo: Demo, *, everything: bool) -> dict[str, Variable]:
    """Dashboard variables: every multi-value one on All, or on one concrete value."""
    chosen: dict[str, Variable] = {
        "judge": Variable("lexical"),
        "variant_a": Variable("A"),
        "variant_b": Variable("B"),
        "metric": Variable("support"),
        "evaluator_metric": Variable("pass"),
        "trace_id": Variable(demo.hallucinated_trace),
    }
    for board in DASHBOARDS.glob("*.json"):
        for variable in json.loads(board.read_text())["templating"]["list"]:
            if variable["type"] == "constant":
                chosen[variable["name"]] = Variable(variable["query"])
    if everything:
        chosen |= {
            "service": Variable(ALL, (SERVICE,), multi=True),
            "pipeline": Variable(ALL, ("fusion",), multi=True),
            "variant": Variable(ALL, tuple(VARIANTS), multi=True),
            "source": Variable(ALL, ("genai", "openinference", "openllmetry", "ragpulse"), multi=True),
            "context_source": Variable(ALL, ("none", "prompt", "ragpulse"), multi=True),
            "evaluator": Variable(ALL, (EVALUATOR,), multi=True),
        }
    else:
        chosen |= {
            "service": Variable([SERVICE], multi=True),
            "pipeline": Variable(["fusion"], multi=True),
            "variant": Variable(["B"], multi=True),
            "source": Variable(["genai"], multi=True),
            "context_source": Variable(["none"], multi=True),
            "evaluator": Variable([EVALUATOR], multi=True),
        }
    return chosen


def time_range(demo: Demo) -> TimeRange:
    return TimeRange(demo.now - timedelta(hours=6), demo.now + timedelta(minutes=1), interval_s=300)


def run(store: Store, sql: str, demo: Demo, *, everything: bool = True) -> list[dict[str, Any]]:
    return store.query_dicts(
        expand_dashboard_query(sql, variables(demo, everything=everything), time_range(demo))
    )


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def override_names(panel: dict[str, Any]) -> list[str]:
    return [
        o["matcher"]["options"] for o in panel["fieldConfig"]["overrides"] if o["matcher"]["id"] == "byName"
    ]


@pytest.mark.parametrize("everything", [True, False], ids=["all", "one-value"])
@pytest.mark.parametrize(("name", "panel"), PANELS, ids=[name for name, _ in PANELS])
def test_panel_query_returns_what_the_panel_draws(
    demo_store: tuple[Store, Demo], name: str, panel: dict[str, Any], everything: bool
) -> None:
    store, demo = demo_store
    (target,) = panel["targets"]
    rows = run(store, target["rawSql"], demo, everything=everything)

    assert rows, f"{name} returned no rows for the demo data"
    columns = list(rows[0])
    if target["format"] == 0:
        assert columns[0] == "time" and isinstance(rows[0]["time"], datetime), columns
        assert any(is_number(rows[0][c]) for c in columns[1:]), columns
        times = [row["time"] for row in rows]
        assert times == sorted(times), "time series must come ordered by time"
    elif target["format"] == 1:
        assert any(is_number(v) for v in rows[0].values()), columns
    else:
        assert target["format"] == 3
        assert set(columns) >= TRACE_COLUMNS
    for field in override_names(panel):
        assert field in columns, f"{name}: override names {field!r}, query gives {columns}"
    if panel.get("options", {}).get("xField"):
        assert panel["options"]["xField"] in columns


def panel(dashboard: str, title: str) -> dict[str, Any]:
    return next(p for p in load(dashboard)["panels"] if p["title"] == title)


def test_hallucination_table_matches_the_seeded_rates_with_wilson_bounds(
    demo_store: tuple[Store, Demo],
) -> None:
    store, demo = demo_store
    rows = run(store, panel("overview.json", "Hallucination rate per variant")["targets"][0]["rawSql"], demo)
    assert [row["Variant"] for row in rows] == list(VARIANTS)
    for row in rows:
        assert row["scored"] == 60
        assert row["rate"] == pytest.approx(VARIANTS[row["Variant"]])
        assert 0 < row["lower"] < row["rate"] < row["upper"] < 1


def test_evaluator_panels_show_the_evaluators_pass_rate_per_variant(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    rows = run(store, panel("overview.json", "Evaluator pass rate per variant")["targets"][0]["rawSql"], demo)
    assert [(row["evaluator"], row["Variant"]) for row in rows] == [(EVALUATOR, v) for v in VARIANTS]
    for row in rows:
        assert row["judged"] == 60 and row["passed"] == 45
        assert row["rate"] == pytest.approx(EVALUATOR_PASS_RATE)
        assert (row["lower"], row["upper"]) == pytest.approx(wilson_interval(45, 60), abs=1e-4)
    metric_sql = panel("overview.json", "Evaluator metric: $evaluator_metric")["targets"][0]["rawSql"]
    series = run(store, metric_sql, demo)
    assert {row["metric"] for row in series} == {EVALUATOR}
    assert all(0.0 <= row["mean"] <= 1.0 for row in series)
    choices = next(v for v in load("overview.json")["templating"]["list"] if v["name"] == "evaluator")
    assert [row["Scorer"] for row in run(store, choices["query"]["rawSql"], demo)] == [EVALUATOR]


def test_band_series_carry_rate_bounds_and_sample_count(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    sql = panel("overview.json", "Hallucination rate per variant (95% Wilson interval)")["targets"][0][
        "rawSql"
    ]
    rows = run(store, sql, demo)
    assert {"time", "Variant", "rate", "lower", "upper", "n"} == set(rows[0])
    assert sum(row["n"] for row in rows) == 120
    assert all(row["lower"] <= row["rate"] <= row["upper"] for row in rows)


def test_step_latency_names_every_step(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    rows = run(store, panel("overview.json", "Latency per step")["targets"][0]["rawSql"], demo)
    assert {row["step"] for row in rows} == {*STEPS, "total"}
    assert rows[0]["step"] == "total"  # slowest first: the whole request outlasts each step
    assert next(row for row in rows if row["step"] == "retrieve")["calls"] == 3 * 120


def test_variant_comparison_puts_a_and_b_side_by_side(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    rows = run(store, panel("variant-comparison.json", "Every metric: A vs B")["targets"][0]["rawSql"], demo)
    lexical = next(row for row in rows if row["Scorer"] == "lexical" and row["Metric"] == "hallucination")
    assert (lexical["a_n"], lexical["b_n"]) == (60, 60)
    assert lexical["diff"] == pytest.approx(VARIANTS["B"] - VARIANTS["A"])
    assert {"coverage_core", "mrr5_relevant", "completeness"} <= {row["Metric"] for row in rows}
    assert all(not math.isnan(row["low"]) and row["low"] <= row["diff"] <= row["high"] for row in rows)


def test_online_agreement_panel_agrees_with_the_report(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    title = "Can the free judge be trusted here? Online agreement"
    rows = run(store, panel("variant-comparison.json", title)["targets"][0]["rawSql"], demo)
    assert rows and {row["Variant"] for row in rows} <= {"A", "B"}
    since = {"since_ms": int((demo.now - timedelta(hours=6)).timestamp() * 1000), "service": ""}
    expected = {
        (row.variant, f"lexical vs {row.reference}"): row for row in judge_agreement(store, since, "lexical")
    }
    for row in rows:
        reference = expected[(row["Variant"], row["Judges"])]
        assert row["shared"] == reference.n
        for name, figure in (
            ("balanced_accuracy", reference.balanced_accuracy),
            ("kappa", reference.kappa),
        ):
            if figure.value is None:
                assert row[name] is None
            else:
                assert row[name] == pytest.approx(figure.value)
                low, high = {
                    "balanced_accuracy": ("ba_low", "ba_high"),
                    "kappa": ("kappa_low", "kappa_high"),
                }[name]
                # The panel's z is 1.96, the report's 1.959964: the bounds agree to 1e-4.
                assert (row[low], row[high]) == (
                    pytest.approx(figure.low, abs=1e-4), pytest.approx(figure.high, abs=1e-4)
                )


def test_judges_against_reviewers_panel_agrees_with_the_report(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    rows = run(store, panel("overview.json", "Judges against reviewer labels")["targets"][0]["rawSql"], demo)
    expected = {
        (row.judge, row.service, row.variant): row
        for row in judge_figures(store, since=demo.now - timedelta(hours=6))
    }
    assert {(row["Judge"], row["ServiceName"], row["Variant"]) for row in rows} == set(expected)
    assert {row["Judge"] for row in rows} == {"lexical", "support"}
    for row in rows:
        figures = expected[(row["Judge"], row["ServiceName"], row["Variant"])]
        assert (row["n"], row["hallucinated"], row["grounded"]) == (
            figures.confusion.n, figures.confusion.positives, figures.confusion.negatives,
        )  # fmt: skip
        shown = figures.agreement
        for column, figure in (
            ("sensitivity", shown.sensitivity), ("specificity", shown.specificity),
            ("balanced_accuracy", shown.balanced_accuracy), ("kappa", shown.kappa),
        ):  # fmt: skip
            assert row[column] == (None if figure.value is None else pytest.approx(figure.value)), column
        for low, high, figure in (
            ("ba_low", "ba_high", shown.balanced_accuracy), ("kappa_low", "kappa_high", shown.kappa),
        ):  # fmt: skip
            expected_bounds = (None, None) if figure.value is None else (
                pytest.approx(figure.low, abs=1e-4), pytest.approx(figure.high, abs=1e-4)
            )  # fmt: skip
            assert (row[low], row[high]) == expected_bounds, low
    lexical = [row for row in rows if row["Judge"] == "lexical"]
    assert lexical and any(row["balanced_accuracy"] < 1 for row in lexical)  # the seeded disagreements show


def test_rate_difference_has_newcombe_interval_and_a_verdict_in_points(
    demo_store: tuple[Store, Demo],
) -> None:
    store, demo = demo_store
    rows = run(store, panel("variant-comparison.json", "Every metric: A vs B")["targets"][0]["rawSql"], demo)
    lexical = next(row for row in rows if row["Scorer"] == "lexical" and row["Metric"] == "hallucination")
    a_low, a_high = wilson_interval(6, 60)
    b_low, b_high = wilson_interval(18, 60)
    diff = 0.3 - 0.1
    low = diff - math.sqrt((0.3 - b_low) ** 2 + (a_high - 0.1) ** 2)
    high = diff + math.sqrt((b_high - 0.3) ** 2 + (0.1 - a_low) ** 2)
    assert (lexical["low"], lexical["high"]) == (pytest.approx(low, abs=1e-3), pytest.approx(high, abs=1e-3))
    assert lexical["verdict"] == f"B higher by 20.0 points [{low * 100:.1f}, {high * 100:.1f}]"


def test_mean_difference_without_evidence_says_so_with_its_n(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    rows = run(store, panel("variant-comparison.json", "Every metric: A vs B")["targets"][0]["rawSql"], demo)
    for row in rows:
        if row["low"] <= 0 <= row["high"] and min(row["a_n"], row["b_n"]) >= 2:
            assert row["verdict"] == f"no detectable difference at n = {row['a_n']} / {row['b_n']}"
        elif min(row["a_n"], row["b_n"]) >= 2:
            assert row["verdict"].startswith("B higher by " if row["diff"] > 0 else "B lower by ")


def test_mean_difference_uses_welch_interval(demo_store: tuple[Store, Demo]) -> None:
    """Known samples through the panel's SQL: its interval is Welch's, as ClickHouse's welchTTest gives it."""
    store, demo = demo_store
    samples = {"A": [0.2, 0.4, 0.5, 0.7, 0.3, 0.6], "B": [0.6, 0.9, 0.8, 0.7, 0.95, 0.85, 0.75]}
    values = ", ".join(f"('{variant}', {value})" for variant, group in samples.items() for value in group)
    inline = (
        "(SELECT now() AS RequestTime, 'lexical' AS Scorer, 'support' AS Metric, toUInt8(0) AS Failed,"
        " toInt8(1) AS Sign, toFloat64(1) AS Weight, v.1 AS Variant, toNullable(v.2) AS Value,"
        " 'svc' AS ServiceName, 'p' AS Pipeline"
        f" FROM (SELECT arrayJoin([{values}]) AS v))"
    )
    sql = panel("variant-comparison.json", "Every metric: A vs B")["targets"][0]["rawSql"]
    no_hours = (
        "(SELECT now() AS Hour, '' AS Metric, '' AS Scorer, '' AS ServiceName, '' AS Pipeline, '' AS Variant,"
        " toInt64(0) AS Scores, toInt64(0) AS Positives, 0.0 AS ValueSum, 0.0 AS ValueSquares,"
        " toInt64(0) AS NotBinary, 0.0 AS Weights, 0.0 AS WeightedPositives, 0.0 AS SquaredWeights,"
        " 0.0 AS SquaredWeightedPositives, 0.0 AS WeightedValueSum, 0.0 AS WeightedValueSquares WHERE 0)"
    )
    sql = sql.replace("ragpulse.ragpulse_score_values", inline).replace(
        "ragpulse.ragpulse_score_hours", no_hours
    )
    (row,) = run(store, sql, demo)
    # welchTTest's interval is for group 0 minus group 1: with A as group 1, that is B - A.
    ((low, high),) = store.query(
        "SELECT tupleElement(r, 3), tupleElement(r, 4)"
        f" FROM (SELECT welchTTest(0.95)(Value, toUInt8(Variant = 'A')) AS r FROM {inline})"
    )
    assert row["diff"] == pytest.approx(statistics.mean(samples["B"]) - statistics.mean(samples["A"]))
    assert (row["low"], row["high"]) == (pytest.approx(low, rel=0.02), pytest.approx(high, rel=0.02))
    assert row["verdict"].startswith("B higher by 0.3")


def test_requests_not_scored_are_listed_with_their_reason_and_filtered_by_source(
    demo_store: tuple[Store, Demo],
) -> None:
    store, demo = demo_store
    sql = panel("request-explorer.json", "Requests not scored, and why")["targets"][0]["rawSql"]

    every = run(store, sql, demo)
    genai_only = run(store, sql, demo, everything=False)

    assert [row["not_scored_because"] for row in every] == ["no_content", "no_context", "unparseable"]
    assert [(row["source"], row["context_from"]) for row in genai_only] == [("genai", "none")]


def test_worst_requests_come_first_with_question_and_answer(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    rows = run(store, panel("request-explorer.json", "Worst requests first")["targets"][0]["rawSql"], demo)
    hallucinated = sum(sum(flags) for flags in demo.lexical.values())
    assert [row["hallucination"] for row in rows[:hallucinated]] == [1.0] * hallucinated
    assert rows[hallucinated]["hallucination"] == 0.0
    assert "1850" in rows[0]["answer"] and rows[0]["question"].startswith("Are Python lists")


def test_sentence_verdicts_of_the_selected_request_from_both_judges(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    rows = run(store, panel("request-explorer.json", "Sentence-level verdicts")["targets"][0]["rawSql"], demo)
    sentences = range(1, demo.hallucinated_sentences + 1)
    assert [(row["scorer"], row["sentence_index"]) for row in rows] == [
        *(("lexical", i) for i in sentences),
        *(("support", i) for i in sentences),
    ]
    assert [row["verdict"] for row in rows] == ["supported", "unsupported"] * 2
    assert [row["sentence"] for row in rows[:2]] == [row["sentence"] for row in rows[2:]]
    assert rows[1]["sentence"] == "They were invented in 1850."
    assert rows[0]["evidence"] == "Lists are mutable sequences. [doc1]"


def test_trace_link_opens_every_span_of_the_trace(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    worst = panel("request-explorer.json", "Worst requests first")
    (trace_override,) = [
        o for o in worst["fieldConfig"]["overrides"] if o["matcher"]["options"] == "trace_id"
    ]
    links = next(p["value"] for p in trace_override["properties"] if p["id"] == "links")
    explore = next(link for link in links if "internal" in link)
    assert explore["internal"]["datasourceUid"] == "ragpulse-clickhouse"
    assert explore["internal"]["query"]["format"] == 3
    sql = explore["internal"]["query"]["rawSql"].replace("${__value.raw}", demo.hallucinated_trace)
    spans = run(store, sql, demo)
    assert len(spans) == demo.spans_per_trace
    assert {span["operationName"] for span in spans} == {*STEPS, "rag fusion"}
    root = next(span for span in spans if span["parentSpanID"] == "")
    assert all(span["parentSpanID"] == root["spanID"] for span in spans if span is not root)
    tags = {tag["key"]: tag["value"] for tag in root["tags"]}
    assert tags["ragpulse.kind"] == "rag" and tags["ragpulse.variant"] in VARIANTS
    assert {tag["key"]: tag["value"] for tag in root["serviceTags"]} == {"service.name": SERVICE}


def test_variable_queries_list_the_seeded_values(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    expected = {
        "service": [SERVICE],
        "pipeline": ["fusion"],
        "variant": list(VARIANTS),
        "variant_a": list(VARIANTS),
        "judge": ["lexical", "support"],
    }
    for path in sorted(DASHBOARDS.glob("*.json")):
        for variable in json.loads(path.read_text())["templating"]["list"]:
            if variable["type"] != "query":
                continue
            rows = run(store, variable["query"]["rawSql"], demo)
            values = [next(iter(row.values())) for row in rows]
            if variable["name"] in expected:
                assert values == expected[variable["name"]], (path.name, variable["name"])
            assert values, (path.name, variable["name"])


STATS = [(name, panel) for name, panel in PANELS if panel["type"] == "stat"]


@pytest.mark.parametrize(("name", "stat"), STATS, ids=[name for name, _ in STATS])
def test_stats_read_no_data_on_an_empty_window(
    demo_store: tuple[Store, Demo], name: str, stat: dict[str, Any]
) -> None:
    store, demo = demo_store
    empty = TimeRange(demo.now - timedelta(days=3), demo.now - timedelta(days=2), interval_s=300)
    sql = expand_dashboard_query(stat["targets"][0]["rawSql"], variables(demo, everything=True), empty)
    assert store.query_dicts(sql) == [], f"{name} must show No data, not a number, for an empty window"


def test_variant_comparison_opens_on_the_first_and_the_second_variant(demo_store: tuple[Store, Demo]) -> None:
    store, demo = demo_store
    board = load("variant-comparison.json")
    listed = {
        v["name"]: [next(iter(row.values())) for row in run(store, v["query"]["rawSql"], demo)]
        for v in board["templating"]["list"]
        if v["name"] in ("variant_a", "variant_b")
    }
    # Grafana opens each variable on the first entry of its list.
    assert (listed["variant_a"][0], listed["variant_b"][0]) == ("A", "B")
    assert sorted(listed["variant_b"]) == sorted(listed["variant_a"]) == list(VARIANTS)


def test_latency_over_weeks_reads_hourly_states_that_agree_with_the_step_rows(
    demo_store: tuple[Store, Demo],
) -> None:
    store, demo = demo_store
    sql = panel("overview.json", "Latency per step")["targets"][0]["rawSql"]
    chosen = variables(demo, everything=True)
    recent = time_range(demo)
    weeks = TimeRange(demo.now - timedelta(days=30), recent.end, interval_s=3600)
    from_rows = {row["step"]: row for row in store.query_dicts(expand_dashboard_query(sql, chosen, recent))}
    hourly_sql = expand_dashboard_query(sql, chosen, weeks)
    from_hours = {row["step"]: row for row in store.query_dicts(hourly_sql)}
    assert "ragpulse_step_latency_digests WHERE" in hourly_sql and "AND NOT (" in hourly_sql
    assert set(from_hours) == set(from_rows) == {*STEPS, "total"}
    for step, row in from_rows.items():
        assert (from_hours[step]["calls"], from_hours[step]["errors"]) == (row["calls"], row["errors"])
        assert from_hours[step]["p95_ms"] == pytest.approx(row["p95_ms"], rel=0.1)
    # A chosen variant needs the step rows: the hourly states know no variant.
    one_variant = expand_dashboard_query(sql, variables(demo, everything=False), weeks)
    rows = store.query_dicts(one_variant)
    assert next(row for row in rows if row["step"] == "total")["calls"] == 60
