"""Scores sent as OTel ``gen_ai.evaluation.result`` events by the stock SDK and OTLP exporters, received by
ragpulse's own collector on another loopback port (OTLP/HTTP and OTLP/gRPC) and read back from its logs
table; an endpoint that cannot be reached changes nothing of scoring; the standard OTEL_* variables apply."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st
from opentelemetry.sdk._logs import ReadableLogRecord
from opentelemetry.sdk._logs.export import LogRecordExporter, LogRecordExportResult
from pipeline_testing import RecordingScorer, insert_requests, settings_for
from ragpulse_collector.server import CollectorServer
from ragpulse_core.cli import main
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store, StoreUnavailable
from ragpulse_scorers.export import installed
from ragpulse_scorers.export.events import evaluation_event
from ragpulse_scorers.export.sink import ScoreExport, otlp_exporter, start_export
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.scheduler import ScoringSchedule
from ragpulse_scorers.pipeline.tick import run_tick
from ragpulse_scorers.pipeline.writer import SCORE_COLUMNS
from ragpulse_scorers.settings import ExportSettings, ScorersSettings

EVENT = "gen_ai.evaluation.result"
GROUNDED_ANSWER = "Paris is the capital of France."
INVENTED_ANSWER = "Berlin hosts 4 million penguins and 12 volcanoes."


@pytest.fixture
def receiver(store: Store) -> Iterator[CollectorServer]:
    """ragpulse's collector, HTTP and gRPC on free loopback ports, writing into the test's store."""
    settings = RagpulseSettings.load(None, collector={"host": "127.0.0.1", "port": 0, "grpc_port": 0})
    server = CollectorServer(settings, store)
    server.start()
    yield server
    server.stop()


def _export_settings(dsn: str, **export: Any) -> ScorersSettings:
    return settings_for(dsn).model_copy(update={"export": ExportSettings(**export)})


def _events(store: Store) -> list[dict[str, Any]]:
    return store.query_dicts(
        f"SELECT TraceId, SpanId, Timestamp, ServiceName, SeverityText, Body, LogAttributes"
        f" FROM {store.table('otel_logs')} WHERE EventName = {{name:String}}",
        {"name": EVENT},
    )


def _scores(store: Store) -> list[dict[str, Any]]:
    return store.query_dicts(
        f"SELECT TraceId, SpanId, RequestTime, Scorer, Metric, Value, Label, Explanation, Error"
        f" FROM {store.table('ragpulse_scores')} FINAL"
    )


@pytest.mark.parametrize("protocol", ["http/protobuf", "grpc"])
def test_every_score_arrives_as_an_evaluation_event_on_its_request(
    protocol: str, receiver: CollectorServer, store: Store, chdb_dsn: str
) -> None:
    grounded = insert_requests(store, 2, prefix=f"grounded-{protocol}", answer=GROUNDED_ANSWER)
    invented = insert_requests(store, 1, prefix=f"invented-{protocol}", answer=INVENTED_ANSWER)
    endpoint = receiver.url if protocol == "http/protobuf" else f"http://127.0.0.1:{receiver.grpc_port}"
    settings = _export_settings(chdb_dsn, otlp_endpoint=endpoint, protocol=protocol, schedule_delay_s=0.1)
    export = start_export(settings.export)
    assert export is not None
    run_tick(settings, store, [LexicalScorer()])
    counts = export.shutdown()
    assert receiver.flush()

    scores = _scores(store)
    events = _events(store)
    assert counts.sent == len(scores) == len(events) > 0
    assert counts.failed == counts.dropped == 0
    by_key = {(e["TraceId"], e["LogAttributes"]["gen_ai.evaluation.name"]): e for e in events}
    for score in scores:
        event = by_key[(score["TraceId"], f"lexical.{score['Metric']}")]
        assert event["SpanId"] == score["SpanId"] == score["TraceId"][:16]  # the request's root span
        assert event["Timestamp"] == score["RequestTime"]
        assert event["ServiceName"] == "ragpulse-scorers"
        assert event["SeverityText"] == "INFO"
        attributes = event["LogAttributes"]
        assert float(attributes["gen_ai.evaluation.score.value"]) == pytest.approx(score["Value"])
        assert attributes["ragpulse.scorer"] == "lexical"
        assert attributes["ragpulse.evaluated_service"] == "svc"
        assert attributes["ragpulse.variant"] == "A"
        assert attributes.get("gen_ai.evaluation.explanation", "") == score["Explanation"]
        assert "error.type" not in attributes
    verdicts = {
        e["TraceId"]: e["LogAttributes"]["gen_ai.evaluation.score.label"]
        for e in events
        if e["LogAttributes"]["gen_ai.evaluation.name"] == "lexical.hallucination"
    }
    assert verdicts == {**dict.fromkeys(grounded, "grounded"), **dict.fromkeys(invented, "hallucinated")}
    # Ratios carry no invented verdict.
    assert not any(
        "gen_ai.evaluation.score.label" in e["LogAttributes"]
        for e in events
        if e["LogAttributes"]["gen_ai.evaluation.name"] == "lexical.support"
    )


def test_a_failed_judgment_is_an_event_with_its_error_type(
    receiver: CollectorServer, store: Store, chdb_dsn: str
) -> None:
    (failing,) = insert_requests(store, 1, prefix="failing")

    def refuse(request: RagRequest) -> list[Score]:
        raise TimeoutError("the judge took too long")

    settings = _export_settings(chdb_dsn, otlp_endpoint=receiver.url, schedule_delay_s=0.1)
    export = start_export(settings.export)
    assert export is not None
    run_tick(settings, store, [RecordingScorer(behaviour=refuse)])
    export.shutdown()
    assert receiver.flush()

    (event,) = _events(store)
    assert event["TraceId"] == failing
    assert event["LogAttributes"]["gen_ai.evaluation.name"] == "recording"
    assert event["LogAttributes"]["error.type"] == "TimeoutError"
    assert "the judge took too long" in event["LogAttributes"]["gen_ai.evaluation.explanation"]
    assert "gen_ai.evaluation.score.value" not in event["LogAttributes"]


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("protocol", ["http/protobuf", "grpc"])
def test_an_unreachable_endpoint_changes_nothing_of_scoring(
    protocol: str, store: Store, chdb_dsn: str, caplog: pytest.LogCaptureFixture
) -> None:
    traces = insert_requests(store, 3, prefix=f"unreachable-{protocol}")
    settings = _export_settings(
        chdb_dsn,
        otlp_endpoint=f"http://127.0.0.1:{_closed_port()}",
        protocol=protocol,
        timeout_s=1.0,
        schedule_delay_s=0.1,
        shutdown_timeout_s=2.0,
    )
    export = start_export(settings.export)
    assert export is not None
    started = time.monotonic()
    report = run_tick(settings, store, [RecordingScorer()])
    assert report.count("recording", Outcome.SCORED) == 3
    counts = export.shutdown()
    stopped_within = time.monotonic() - started

    assert sorted({score["TraceId"] for score in _scores(store)}) == sorted(traces)
    assert counts.queued == 6 and counts.sent == 0 and counts.failed + counts.dropped == 6
    assert any("score export to" in record.getMessage() for record in caplog.records)
    assert stopped_within < 30  # bounded by the export's timeouts, not by the exporter's 30 s default


class _StuckExporter(LogRecordExporter):
    """An endpoint that never answers: every export waits until the exporter is shut down."""

    def __init__(self) -> None:
        self.released = threading.Event()
        self.batches = 0

    def export(self, batch: Sequence[ReadableLogRecord]) -> LogRecordExportResult:
        self.batches += 1
        self.released.wait()
        return LogRecordExportResult.FAILURE

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        return False

    def shutdown(self) -> None:
        self.released.set()


def test_a_stuck_endpoint_and_a_full_queue_never_hold_scoring_up(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 5, prefix="full-queue")
    settings = _export_settings(chdb_dsn, otlp_endpoint="http://unused:4318", max_queue_size=2)
    stuck = _StuckExporter()
    export = ScoreExport(settings.export.model_copy(update={"shutdown_timeout_s": 1.0}), stuck)
    installed.install(export)
    report = run_tick(settings, store, [RecordingScorer()])
    assert not stuck.released.is_set()  # the tick finished while the export was stuck
    assert report.count("recording", Outcome.SCORED) == 5
    counts = export.shutdown()
    assert len(_scores(store)) == 10
    assert counts.queued == 10 and counts.sent == 0 and counts.failed + counts.dropped == 10
    assert counts.dropped >= 6  # a queue of 2 and a batch of 2 in flight: the rest were pushed out


def test_no_endpoint_no_export(store: Store, chdb_dsn: str) -> None:
    settings = settings_for(chdb_dsn)
    assert not settings.export.enabled
    assert start_export(settings.export) is None


def test_settings_follow_the_standard_otel_variables(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://elsewhere:4318")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "grpc")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Bearer%20s3cret,x-scope-orgid=team-a")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "2500")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip")
    config = tmp_path / "ragpulse.toml"
    config.write_text('[export]\notlp_endpoint = "http://tempo:4317"\n')
    export = ScorersSettings.load(config).export
    # The general endpoint alone never turns export on; the file's endpoint does.
    assert export.otlp_endpoint == "http://tempo:4317"
    assert export.protocol == "grpc"  # the logs-specific variable wins
    assert export.headers == {"authorization": "Bearer s3cret", "x-scope-orgid": "team-a"}
    assert export.timeout_s == 2.5  # milliseconds, as the specification says
    assert export.compression == "gzip"
    exporter = otlp_exporter(export)
    assert type(exporter).__module__.startswith("opentelemetry.exporter.otlp.proto.grpc")
    exporter.shutdown()  # type: ignore[no-untyped-call]

    monkeypatch.delenv("OTEL_EXPORTER_OTLP_LOGS_PROTOCOL")
    monkeypatch.setenv("RAGPULSE_EXPORT__OTLP_ENDPOINT", "http://tempo:4318")
    assert ScorersSettings.load(None).export.protocol == "http/protobuf"
    assert ScorersSettings.load(None).export.enabled
    monkeypatch.delenv("RAGPULSE_EXPORT__OTLP_ENDPOINT")
    assert not ScorersSettings.load(None).export.enabled


def test_an_unknown_protocol_is_a_settings_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
    with pytest.raises(Exception, match="http/json"):
        ScorersSettings.load(None, export={"otlp_endpoint": "http://tempo:4318"})


_ROW = st.fixed_dictionaries(
    {
        "TraceId": st.one_of(st.text(alphabet="0123456789abcdef", min_size=32, max_size=32), st.text()),
        "SpanId": st.one_of(st.text(alphabet="0123456789abcdef", min_size=16, max_size=16), st.text()),
        "RequestTime": st.datetimes(
            min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
        ),
        "ScoredAt": st.just(datetime.now(UTC)),
        "ServiceName": st.text(),
        "Pipeline": st.text(),
        "Variant": st.text(),
        "Scorer": st.sampled_from(["lexical", "support", "correctness"]),
        "ScorerVersion": st.text(max_size=5),
        "Metric": st.sampled_from(["hallucination", "adherence", "correctness", "support", "error", "x"]),
        "Value": st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True)),
        "Label": st.text(),
        "Explanation": st.text(),
        "Error": st.one_of(st.just(""), st.text()),
    }
)


@given(_ROW)
def test_every_row_maps_to_a_conventional_event_or_none(row: dict[str, Any]) -> None:
    event = evaluation_event(row)
    is_hex = all(c in "0123456789abcdef" for c in row["TraceId"])
    if len(row["TraceId"]) != 32 or not is_hex or int(row["TraceId"], 16) == 0:
        assert event is None
        return
    assert event is not None
    attributes = event.attributes
    assert set(attributes) >= {"gen_ai.evaluation.name", "ragpulse.scorer"}
    failed = row["Metric"] == "error" or bool(row["Error"])
    assert ("error.type" in attributes) == failed
    value = attributes.get("gen_ai.evaluation.score.value")
    assert value is None or (isinstance(value, float) and value == value and abs(value) != float("inf"))
    if failed:
        assert attributes["gen_ai.evaluation.name"] == row["Scorer"]
        assert value is None
    else:
        assert attributes["gen_ai.evaluation.name"] == f"{row['Scorer']}.{row['Metric']}"
        if value is None:
            assert attributes["gen_ai.evaluation.score.label"] == "undefined"
        elif row["Metric"] == "hallucination":
            verdict = "hallucinated" if value >= 0.5 else "grounded"
            assert attributes["gen_ai.evaluation.score.label"] == verdict
    assert event.timestamp_ns // 1000 == int(
        (row["RequestTime"] - datetime(1970, 1, 1, tzinfo=UTC)) / timedelta(microseconds=1)
    )


def test_export_publishes_nothing_after_shutdown() -> None:
    export = ScoreExport(ExportSettings(otlp_endpoint=f"http://127.0.0.1:{_closed_port()}", timeout_s=0.5))
    export.shutdown()
    row = [None] * len(SCORE_COLUMNS)
    export.publish(SCORE_COLUMNS, [row])
    assert export.counts().queued == 0


class _RecordingSink:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def publish(self, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        self.rows.extend(dict(zip(columns, row, strict=True)) for row in rows)


class _RefusingLogStore:
    """The store, except that it refuses the scoring log's insert (after the scores went in)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def insert(self, table: str, *args: Any, **kwargs: Any) -> None:
        if table == "ragpulse_scoring_log":
            raise StoreUnavailable("refused for the test")
        self._store.insert(table, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_only_what_the_database_accepted_is_exported(store: Store, chdb_dsn: str) -> None:
    """A write that fails part-way leaves its requests to be scored again: sending those scores now would
    send them twice."""
    sink = _RecordingSink()
    installed.install(sink)
    try:
        accepted = insert_requests(store, 1, prefix="accepted")
        run_tick(settings_for(chdb_dsn), store, [RecordingScorer()])
        insert_requests(store, 1, prefix="refused")
        failing = cast(Store, _RefusingLogStore(store))
        report = run_tick(settings_for(chdb_dsn), failing, [RecordingScorer()])
    finally:
        installed.uninstall(sink)
    assert report.errors  # the second tick's write failed...
    assert {row["TraceId"] for row in sink.rows} == set(accepted)  # ...and nothing of it was sent
    assert len(sink.rows) == 2


def test_a_stopping_schedule_sends_its_last_scores(
    receiver: CollectorServer, store: Store, chdb_dsn: str
) -> None:
    """``ragpulse score`` and ``serve`` stop their schedule on SIGTERM; what the last tick scored is sent
    before the stop returns, though the batching delay is far longer than the run."""
    traces = insert_requests(store, 3, prefix="schedule")
    settings = _export_settings(chdb_dsn, otlp_endpoint=receiver.url, schedule_delay_s=3600)
    settings.scorer.scorers = ["lexical"]
    schedule = ScoringSchedule(settings, store)
    schedule.start()
    deadline = time.monotonic() + 60
    while len({score["TraceId"] for score in _scores(store)}) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
    schedule.stop()
    assert receiver.flush()
    assert {event["TraceId"] for event in _events(store)} == set(traces)
    assert len(_events(store)) == len(_scores(store))


@pytest.mark.parametrize("endpoint", ["tempo:4317", "ftp://tempo:4318", "/v1/logs"])
def test_an_endpoint_without_an_http_scheme_is_a_settings_error(endpoint: str) -> None:
    with pytest.raises(Exception, match="http:// or https://"):
        ScorersSettings.load(None, export={"otlp_endpoint": endpoint})


def test_score_once_exports_with_the_endpoint_and_protocol_from_the_environment(
    receiver: CollectorServer, store: Store, chdb_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ragpulse score --once`` through the command line: RAGPULSE_EXPORT__OTLP_ENDPOINT turns export on,
    OTEL_EXPORTER_OTLP_PROTOCOL picks gRPC, and the command returns only after the events were sent."""
    traces = insert_requests(store, 2, prefix="command", answer=INVENTED_ANSWER)
    monkeypatch.setenv("RAGPULSE_EXPORT__OTLP_ENDPOINT", f"http://127.0.0.1:{receiver.grpc_port}")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")

    assert main(["score", "--once", "--dsn", chdb_dsn, "--scorer", "lexical"]) == 0
    assert receiver.flush()

    events = _events(store)
    assert len(events) == len(_scores(store)) > 0
    assert {e["TraceId"] for e in events} == set(traces)
    assert {
        e["LogAttributes"]["gen_ai.evaluation.score.label"]
        for e in events
        if e["LogAttributes"]["gen_ai.evaluation.name"] == "lexical.hallucination"
    } == {"hallucinated"}
