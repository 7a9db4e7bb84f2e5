"""Grafana provisioning files: the structure Grafana and the ClickHouse plugin require (specs.md §4-5)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from grafana_macros import FRONTEND_ONLY_MACROS

ROOT = Path(__file__).resolve().parents[2] / "dashboards" / "grafana"
PROVISIONING = ROOT / "provisioning"
DATASOURCE_UID = "ragpulse-clickhouse"
PLUGIN = "grafana-clickhouse-datasource"
DASHBOARD_FILES = sorted((ROOT / "json").glob("*.json"))


def load_yaml(*parts: str) -> Any:
    return yaml.safe_load(PROVISIONING.joinpath(*parts).read_text())


def dashboards() -> list[dict[str, Any]]:
    return [json.loads(path.read_text()) for path in DASHBOARD_FILES]


def test_datasource_has_the_fixed_uid_and_the_otel_trace_settings() -> None:
    (source,) = load_yaml("datasources", "clickhouse.yml")["datasources"]
    assert source["uid"] == DATASOURCE_UID and source["type"] == PLUGIN
    data = source["jsonData"]
    assert (data["protocol"], data["port"], data["defaultDatabase"]) == ("http", 8123, "ragpulse")
    assert data["host"], "the backend rejects a data source without a host"
    expected = {"defaultDatabase": "ragpulse", "defaultTable": "otel_traces", "otelEnabled": True}
    assert data["traces"].items() >= expected.items()
    assert "password" in source["secureJsonData"]


def test_dashboard_provider_loads_the_json_folder() -> None:
    (provider,) = load_yaml("dashboards", "ragpulse.yml")["providers"]
    assert provider["type"] == "file"
    assert provider["options"]["path"] == "/var/lib/grafana/dashboards/ragpulse"


def test_four_dashboards_with_unique_uids_and_titles() -> None:
    boards = dashboards()
    assert sorted(board["uid"] for board in boards) == [
        "ragpulse-overview",
        "ragpulse-requests",
        "ragpulse-root-cause",
        "ragpulse-variants",
    ]
    assert len({board["title"] for board in boards}) == len(boards)
    assert all(len(board["uid"]) <= 40 for board in boards)


@pytest.mark.parametrize("path", DASHBOARD_FILES, ids=[p.stem for p in DASHBOARD_FILES])
def test_every_panel_queries_the_provisioned_datasource_with_raw_sql(path: Path) -> None:
    board = json.loads(path.read_text())
    panels = board["panels"]
    ids = [panel["id"] for panel in panels]
    assert len(ids) == len(set(ids)), "panel ids must be unique within a dashboard"
    variables = {variable["name"] for variable in board["templating"]["list"]}
    for panel in panels:
        assert panel["gridPos"]["x"] >= 0 and panel["gridPos"]["x"] + panel["gridPos"]["w"] <= 24
        if panel["type"] in ("row", "text"):  # layout and the alerts' runbook: no query
            continue
        assert panel["datasource"] == {"type": PLUGIN, "uid": DATASOURCE_UID}
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            assert target["datasource"]["uid"] == DATASOURCE_UID
            assert target["editorType"] == "sql" and target["refId"]
            assert target["format"] in (0, 1, 3), "TimeSeries=0, Table=1, Traces=3"
            assert target["rawSql"].lstrip().upper().startswith(("SELECT", "WITH"))
            if panel["type"] == "timeseries":
                assert target["format"] == 0
            if panel["type"] == "traces":
                assert target["format"] == 3
            used = set(re.findall(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)", target["rawSql"]))
            names = {a or b for a, b in used if not (a or b).startswith("__")}
            assert names <= variables, f"{panel['title']} uses undefined variables {names - variables}"


def test_variables_for_service_pipeline_variant_come_from_ragpulse_requests() -> None:
    for board in dashboards():
        by_name = {variable["name"]: variable for variable in board["templating"]["list"]}
        for name in ("service", "pipeline"):
            variable = by_name[name]
            assert variable["type"] == "query" and variable["datasource"]["uid"] == DATASOURCE_UID
            assert "ragpulse_requests" in variable["query"]["rawSql"]
            assert variable["multi"] and variable["includeAll"]
        assert "variant" in by_name or {"variant_a", "variant_b"} <= set(by_name)


def test_trace_links_target_the_provisioned_datasource() -> None:
    explorer = next(board for board in dashboards() if board["uid"] == "ragpulse-requests")
    links = [
        link
        for panel in explorer["panels"]
        for override in panel.get("fieldConfig", {}).get("overrides", [])
        for prop in override["properties"]
        if prop["id"] == "links"
        for link in prop["value"]
    ]
    internal = [link["internal"] for link in links if "internal" in link]
    assert internal and all(link["datasourceUid"] == DATASOURCE_UID for link in internal)
    assert any("var-trace_id=${__value.raw}" in link["url"] for link in links)


# -- alerting ---------------------------------------------------------------------------------------------

UID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
DURATION = re.compile(r"^(\d+(ms|s|m|h|d|w))+$")


def alert_rules() -> list[dict[str, Any]]:
    return [rule for group in load_yaml("alerting", "rules.yml")["groups"] for rule in group["rules"]]


def test_rule_groups_have_the_required_keys() -> None:
    document = load_yaml("alerting", "rules.yml")
    assert document["apiVersion"] == 1
    for group in document["groups"]:
        assert group["name"] and group["folder"] and DURATION.match(group["interval"])
        assert group.get("orgId", 1) == 1


def test_the_four_rules_exist_with_valid_uids() -> None:
    uids = [rule["uid"] for rule in alert_rules()]
    assert uids == ["ragpulse_hallucination_rate", "ragpulse_support_drop", "ragpulse_scoring_stalled",
                    "ragpulse_judge_errors"]  # fmt: skip
    assert all(UID.match(uid) for uid in uids) and len(set(uids)) == len(uids)


@pytest.mark.parametrize("rule", alert_rules(), ids=lambda rule: rule["uid"])
def test_rule_schema(rule: dict[str, Any]) -> None:
    assert rule["title"]
    assert rule["noDataState"] in ("NoData", "Alerting", "OK")
    assert rule["execErrState"] in ("Error", "Alerting", "OK")
    for key in ("for", "keepFiringFor"):
        if key in rule:
            assert DURATION.match(rule[key]), rule[key]
    refs = {item["refId"]: item for item in rule["data"]}
    assert rule["condition"] in refs
    for ref_id, item in refs.items():
        assert item["model"]["refId"] == ref_id
        if item["datasourceUid"] == "__expr__":
            model = item["model"]
            assert model["type"] in ("reduce", "threshold", "math")
            assert model["expression"] in refs and model["expression"] != ref_id
            if model["type"] == "threshold":
                (condition,) = model["conditions"]
                assert condition["evaluator"]["type"] in ("gt", "lt", "within_range", "outside_range")
                assert all(isinstance(p, int | float) for p in condition["evaluator"]["params"])
            continue
        assert item["datasourceUid"] == DATASOURCE_UID
        window = item["relativeTimeRange"]
        assert type(window["from"]) is int and type(window["to"]) is int, (
            "relativeTimeRange takes integer seconds"
        )
        assert window["from"] > window["to"] >= 0
        sql = item["model"]["rawSql"]
        assert item["model"]["format"] == 1 and item["model"]["editorType"] == "sql"
        for macro in FRONTEND_ONLY_MACROS:
            assert macro not in sql, f"{macro} is frontend-only"
        leftover = re.findall(r"\$\{?(?!__)\w+", sql)
        assert not leftover, f"dashboard variables do not exist in alert rules: {leftover}"
    condition = refs[rule["condition"]]["model"]
    assert condition["type"] == "threshold"
    assert refs[condition["expression"]]["model"]["type"] == "reduce"
    assert "team" in rule["labels"] and rule["annotations"]["summary"]


def test_contact_point_and_policy_fit_together() -> None:
    contact_points = load_yaml("alerting", "contact_points.yml")["contactPoints"]
    names = {point["name"] for point in contact_points}
    for point in contact_points:
        for receiver in point["receivers"]:
            assert UID.match(receiver["uid"]) and receiver["type"] and receiver["settings"]["url"]
    (policy,) = load_yaml("alerting", "policies.yml")["policies"]
    receivers = {policy["receiver"], *(route["receiver"] for route in policy.get("routes", []))}
    assert receivers <= names
    labels = {rule["labels"]["team"] for rule in alert_rules()}
    matched = {matcher[2] for route in policy["routes"] for matcher in route["object_matchers"]}
    assert labels <= matched
