"""``ragpulse label`` and ``ragpulse labels import`` against a real chDB store."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_scorers.labels.lines import BadLine, parse_line
from ragpulse_scorers.labels.store import RequestRef, read_labels

REQUEST_COLUMNS = [
    "TraceId", "SpanId", "Timestamp", "ServiceName", "Pipeline", "Variant", "Question", "Answer",
]  # fmt: skip


def add_request(
    store: Store, trace_id: str, at: datetime, span_id: str = "root1", answer: str = "30 days."
) -> RequestRef:
    store.insert(
        store.table("ragpulse_requests"),
        [[trace_id, span_id, at, "shop", "faq", "B", "Return window?", answer]],
        REQUEST_COLUMNS,
    )
    return RequestRef(trace_id, span_id, at, "shop", "faq", "B")


def test_label_writes_a_reviewer_label_and_the_latest_wins(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    request = add_request(store, uuid.uuid4().hex, datetime.now(UTC).replace(microsecond=5))
    command = ["label", request.trace_id, "hallucinated", "--dsn", chdb_dsn, "--author", "ann"]
    assert main([*command, "--note", "invented a fee"]) == 0
    assert main(["label", request.trace_id, "grounded", "--dsn", chdb_dsn, "--author", "ann"]) == 0
    labels = read_labels(store, source="reviewer")
    assert [(label.label, label.author, label.request) for label in labels] == [("grounded", "ann", request)]
    assert "grounded" in capsys.readouterr().out


def test_label_refuses_an_unknown_or_reused_trace_id(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = uuid.uuid4().hex
    now = datetime.now(UTC)
    assert main(["label", trace, "grounded", "--dsn", chdb_dsn]) == 1
    assert "no stored request" in capsys.readouterr().out
    add_request(store, trace, now - timedelta(hours=2))
    add_request(store, trace, now)
    assert main(["label", trace, "grounded", "--dsn", chdb_dsn]) == 1
    assert "names 2 requests" in capsys.readouterr().out
    assert read_labels(store) == []
    older = (now - timedelta(hours=2)).isoformat()
    assert main(["label", trace, "grounded", "--dsn", chdb_dsn, "--at", older]) == 0
    assert [label.request_time for label in read_labels(store)] == [now - timedelta(hours=2)]


def test_the_sixteen_characters_requests_prints_name_the_request(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    request = add_request(store, uuid.uuid4().hex, datetime.now(UTC))
    shown = request.trace_id[:16].upper()
    assert main(["label", shown, "grounded", "--dsn", chdb_dsn, "--author", "ann"]) == 0
    assert f"labelled {request.trace_id}" in capsys.readouterr().out
    assert [label.trace_id for label in read_labels(store)] == [request.trace_id]


def test_a_prefix_several_traces_share_lists_them_and_a_short_one_asks_for_more(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    now = datetime.now(UTC)
    shared = uuid.uuid4().hex[:12]
    first, second = (add_request(store, shared + uuid.uuid4().hex[:20], now) for _ in range(2))
    assert main(["label", shared[:10], "grounded", "--dsn", chdb_dsn]) == 1
    said = " ".join(capsys.readouterr().out.split())
    assert f"trace id prefix {shared[:10]} names 2 traces" in said
    assert first.trace_id in said and second.trace_id in said and "(shop, " in said
    assert main(["label", shared[:7], "grounded", "--dsn", chdb_dsn]) == 1
    assert "at least 8 characters" in capsys.readouterr().out
    assert main(["label", first.trace_id[:20], "grounded", "--dsn", chdb_dsn]) == 0
    assert [label.trace_id for label in read_labels(store)] == [first.trace_id]


def test_import_keeps_good_lines_and_reports_bad_ones_by_number(
    store: Store, chdb_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    now = datetime.now(UTC)
    first = add_request(store, uuid.uuid4().hex, now, answer="30 days. Fees apply.")
    second = add_request(store, uuid.uuid4().hex, now)
    lines = [
        json.dumps({"trace_id": first.trace_id, "label": "hallucinated", "sentences": [1], "author": "bo"}),
        "{not json",
        json.dumps({"trace_id": second.trace_id, "label": "maybe"}),
        "",
        json.dumps({"trace_id": uuid.uuid4().hex, "label": "grounded"}),
        json.dumps({"trace_id": second.trace_id, "label": "grounded", "note": "checked", "score": 0.75}),
        json.dumps({"trace_id": second.trace_id, "label": "grounded", "score": 42}),
        json.dumps({"trace_id": second.trace_id, "label": "hallucinated", "sentences": [99]}),
    ]
    path = tmp_path / "labels.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["labels", "import", str(path), "--dsn", chdb_dsn, "--author", "team"]) == 1
    out = capsys.readouterr().out
    assert "labels.jsonl:2:" in out and "labels.jsonl:3:" in out and "labels.jsonl:5:" in out
    assert "labels.jsonl:7: score must lie between 0 and 1, got 42" in out
    assert "labels.jsonl:8: the answer has 1 sentences; no sentence 99" in out
    assert "labels.jsonl:6:" not in out and "imported 2 labels from 8 lines; 5 lines refused" in out
    stored = {label.trace_id: label for label in read_labels(store, source="import")}
    assert stored[first.trace_id].sentences == (1,) and stored[first.trace_id].author == "bo"
    assert stored[second.trace_id].author == "team" and stored[second.trace_id].score == 0.75


def test_import_takes_a_prefix_as_label_does(
    store: Store, chdb_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    now = datetime.now(UTC)
    alone = add_request(store, uuid.uuid4().hex, now)
    shared = "cafe0123" + uuid.uuid4().hex[8:]
    add_request(store, shared, now)
    add_request(store, shared[:12] + uuid.uuid4().hex[12:], now)
    lines = [
        json.dumps({"trace_id": alone.trace_id[:16].upper(), "label": "hallucinated"}),
        json.dumps({"trace_id": shared[:10], "label": "grounded"}),
        json.dumps({"trace_id": alone.trace_id[:5], "label": "grounded"}),
    ]
    path = tmp_path / "labels.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["labels", "import", str(path), "--dsn", chdb_dsn]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert f"labels.jsonl:2: trace id prefix {shared[:10]} names 2 traces" in out and shared in out
    assert "labels.jsonl:3: no stored request has trace id" in out and "at least 8 characters" in out
    assert "imported 1 labels from 3 lines; 2 lines refused" in out
    assert [label.trace_id for label in read_labels(store, source="import")] == [alone.trace_id]


@given(st.text())
def test_a_line_is_a_label_or_a_bad_line(text: str) -> None:
    try:
        line = parse_line(text)
    except BadLine as exc:
        assert str(exc)
    else:
        assert line.trace_id and line.label in ("hallucinated", "grounded")


@given(
    st.dictionaries(
        st.sampled_from(["trace_id", "label", "span_id", "author", "note", "sentences", "score", "notes"]),
        st.one_of(st.none(), st.integers(-3, 70000), st.text(max_size=5), st.lists(st.integers(-1, 3))),
    )
)
def test_objects_with_wrong_fields_are_bad_lines_not_crashes(value: dict[str, object]) -> None:
    try:
        line = parse_line(json.dumps(value))
    except BadLine:
        return
    assert "notes" not in value and value["label"] in ("hallucinated", "grounded")
    assert list(line.sentences) == value.get("sentences", [])
