"""What the on-call engineer reads off the dashboards and alerts, checked in the JSON and YAML: every judged
number has a unit and thresholds (the alert's own threshold where an alert judges it), empty windows read
"No data", the variant comparison opens on two variants, and every alert links, absolutely, to its panel."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from ragpulse_dashboards.settings import AlertSettings

ROOT = Path(__file__).resolve().parents[2]
GRAFANA = ROOT / "dashboards/grafana"
BOARDS = {path.name: json.loads(path.read_text()) for path in sorted((GRAFANA / "json").glob("*.json"))}
RULES_FILE = GRAFANA / "provisioning/alerting/rules.yml"
RULES = {
    rule["uid"]: rule for group in yaml.safe_load(RULES_FILE.read_text())["groups"] for rule in group["rules"]
}
PANELS = [(f"{name}:{panel['title']}", panel) for name, board in BOARDS.items() for panel in board["panels"]]
SQL = [(name, target["rawSql"]) for name, panel in PANELS for target in panel.get("targets", [])] + [
    (uid, step["model"]["rawSql"])
    for uid, rule in RULES.items()
    for step in rule["data"]
    if "rawSql" in step["model"]
]
STATS = [(name, panel) for name, panel in PANELS if panel["type"] == "stat"]
RATE_SERIES = [
    (name, panel)
    for name, panel in PANELS
    if panel["type"] == "timeseries"
    and panel["fieldConfig"]["defaults"].get("unit") == "percentunit"
    and re.search(r"rate|error|scored", panel["title"], re.IGNORECASE)
]


def panel(board: str, title: str, kind: str | None = None) -> dict[str, Any]:
    return next(p for p in BOARDS[board]["panels"] if p["title"] == title and kind in (None, p["type"]))


def steps(thresholds: dict[str, Any]) -> list[tuple[str, float | None]]:
    return [(step["color"], step["value"]) for step in thresholds["steps"]]


def red_from(thresholds: dict[str, Any]) -> float | None:
    return next(value for color, value in steps(thresholds) if color == "red")


def rule_threshold(uid: str) -> float:
    condition = next(step for step in RULES[uid]["data"] if step["refId"] == "C")
    value: float = condition["model"]["conditions"][0]["evaluator"]["params"][0]
    return value


@pytest.mark.parametrize(("name", "stat"), STATS, ids=[name for name, _ in STATS])
def test_every_stat_has_a_unit_and_thresholds_on_its_own_scale(name: str, stat: dict[str, Any]) -> None:
    defaults = stat["fieldConfig"]["defaults"]
    assert defaults.get("unit"), name
    assert steps(defaults["thresholds"]), name
    if defaults["unit"] == "percentunit":
        # Grafana's default (red at 80) would keep a rate green up to 8000%.
        assert all(value is None or 0 < value <= 1 for _, value in steps(defaults["thresholds"])), name


@pytest.mark.parametrize(("name", "series"), RATE_SERIES, ids=[name for name, _ in RATE_SERIES])
def test_rate_time_series_draw_their_threshold_line(name: str, series: dict[str, Any]) -> None:
    defaults = series["fieldConfig"]["defaults"]
    assert defaults["custom"]["thresholdsStyle"]["mode"] in ("line", "line+area", "dashed"), name
    assert len(steps(defaults["thresholds"])) >= 2, name


@pytest.mark.parametrize(("name", "sql"), SQL, ids=[name for name, _ in SQL])
def test_no_query_makes_an_empty_window_healthy_and_final_merges_within_days(name: str, sql: str) -> None:
    assert not re.search(r"greatest\(\s*(count|uniq\w*)\(", sql), name
    if re.search(r"\bFINAL\b", sql):
        assert sql.endswith(" SETTINGS do_not_merge_across_partitions_select_final = 1"), name


def test_hallucination_threshold_is_the_alerts_everywhere() -> None:
    threshold = AlertSettings().hallucination_threshold
    assert rule_threshold("ragpulse_hallucination_rate") == threshold
    assert "20%" in RULES["ragpulse_hallucination_rate"]["title"] and threshold == 0.2
    judged = [
        panel("overview.json", "Hallucination rate")["fieldConfig"]["defaults"]["thresholds"],
        panel("overview.json", "Hallucination rate per variant (95% Wilson interval)")["fieldConfig"][
            "defaults"
        ]["thresholds"],
        panel("variant-comparison.json", "Hallucination rate over time: A vs B")["fieldConfig"]["defaults"][
            "thresholds"
        ],
        panel("variant-comparison.json", "Hallucination rate: A vs B")["fieldConfig"]["defaults"][
            "thresholds"
        ],
    ]
    table = panel("overview.json", "Hallucination rate per variant")
    judged += [
        prop["value"]
        for override in table["fieldConfig"]["overrides"]
        for prop in override["properties"]
        if prop["id"] == "thresholds"
    ]
    assert [red_from(thresholds) for thresholds in judged] == [threshold] * len(judged)


def test_judge_error_threshold_is_the_alerts() -> None:
    threshold = AlertSettings().judge_error_threshold
    assert rule_threshold("ragpulse_judge_errors") == threshold
    errors = panel("overview.json", "Judge errors")["fieldConfig"]["defaults"]["thresholds"]
    assert red_from(errors) == threshold


def test_variant_comparison_lists_variants_in_two_orders_without_grafana_sorting_them() -> None:
    variables = {v["name"]: v for v in BOARDS["variant-comparison.json"]["templating"]["list"]}
    a, b = variables["variant_a"], variables["variant_b"]
    assert a["query"]["rawSql"] != b["query"]["rawSql"]
    assert a["sort"] == 0 and b["sort"] == 0  # Grafana's sort would undo the order the queries give
    assert not a.get("current") and not b.get("current")  # so each opens on its list's first entry


def test_variant_comparison_columns_have_friendly_names_and_the_metric_panel_a_unit() -> None:
    shown = {}
    for title in ("Every metric: A vs B", "Traffic and latency: A vs B", "Hallucination rate: A vs B"):
        for override in panel("variant-comparison.json", title)["fieldConfig"]["overrides"]:
            shown[override["matcher"]["options"]] = next(
                p["value"] for p in override["properties"] if p["id"] == "displayName"
            )
    assert "a_ci95" not in shown
    assert (shown["a_n"], shown["b_mean"], shown["diff"], shown["low"]) == (
        "n A",
        "mean B",
        "B − A",
        "B − A, 95% low",
    )
    assert (shown["verdict"], shown["error_rate"], shown["p95_ms"]) == (
        "Verdict",
        "Error rate",
        "Latency p95",
    )
    assert panel("variant-comparison.json", "${metric} over time: A vs B")["fieldConfig"]["defaults"]["unit"]


@pytest.mark.parametrize(
    ("board", "title"),
    [
        ("overview.json", "Hallucination rate per variant (95% Wilson interval)"),
        ("variant-comparison.json", "Hallucination rate over time: A vs B"),
    ],
)
def test_wilson_bounds_take_their_variants_colour_and_stay_out_of_the_legend(board: str, title: str) -> None:
    config = panel(board, title)["fieldConfig"]
    # Rate and bounds of one variant share its display name, so colour-by-name gives them one colour.
    assert config["defaults"]["displayName"] == "${__field.labels.Variant}"
    assert config["defaults"]["color"]["mode"] == "palette-classic-by-name"
    (bounds,) = [o for o in config["overrides"] if "lower" in o["matcher"]["options"]]
    assert re.match(bounds["matcher"]["options"], "upper A") and re.match(
        bounds["matcher"]["options"], "lower B"
    )
    hide = next(p["value"] for p in bounds["properties"] if p["id"] == "custom.hideFrom")
    assert hide["legend"] is True and hide["viz"] is False


def test_judge_spend_follows_the_dashboard_interval() -> None:
    sql = panel("overview.json", "Judge spend", "timeseries")["targets"][0]["rawSql"]
    assert "$__timeInterval(Minute)" in sql and "toStartOfDay" not in sql


@pytest.mark.parametrize("uid", sorted(RULES))
def test_alerts_link_absolutely_to_the_panel_that_explains_them(uid: str) -> None:
    annotations = RULES[uid]["annotations"]
    url = annotations["dashboardUrl"].replace("\n", "")
    assert url.startswith("{{ externalURL }}d/"), url
    assert annotations["runbook_url"].startswith("{{ externalURL }}")
    board = next(b for b in BOARDS.values() if b["uid"] == annotations["__dashboardUid__"])
    panel_id = int(annotations["__panelId__"])
    assert any(p["id"] == panel_id for p in board["panels"])
    assert f"/d/{board['uid']}/" in url.replace("{{ externalURL }}", "/")
    assert parse_qs(urlsplit(url.replace("{{ externalURL }}", "http://g/")).query)["viewPanel"] == [
        str(panel_id)
    ]
    runbook = parse_qs(urlsplit(annotations["runbook_url"].replace("{{ externalURL }}", "http://g/")).query)
    runbook_panel = next(
        p for p in BOARDS["overview.json"]["panels"] if p["id"] == int(runbook["viewPanel"][0])
    )
    assert RULES[uid]["title"] in runbook_panel["options"]["content"]


def test_hallucination_alert_says_what_its_link_opens() -> None:
    annotations = RULES["ragpulse_hallucination_rate"]["annotations"]
    linked = next(p for p in BOARDS["overview.json"]["panels"] if p["id"] == int(annotations["__panelId__"]))
    assert linked["title"].startswith("Hallucination rate")
    assert "Overview's hallucination panel" in annotations["description"]
    assert "ragpulse-requests" in annotations["requestExplorerUrl"]


def test_hallucination_alerts_page_once_per_service_and_variant() -> None:
    for uid in ("ragpulse_hallucination_rate", "ragpulse_support_drop"):
        sql = RULES[uid]["data"][0]["model"]["rawSql"]
        outer = sql.split("FROM (")[0]
        assert "Scorer" not in outer, uid
        # One counted best-judge verdict per request (migration 0045), whichever judges scored it.
        assert "FROM ragpulse.ragpulse_request_verdicts" in sql and "(Sign" in sql


def test_grafana_knows_its_own_address_for_absolute_links() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert compose["services"]["grafana"]["environment"]["GF_SERVER_ROOT_URL"].endswith("/}")
