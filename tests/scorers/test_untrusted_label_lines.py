"""``labels import`` reads a stream, line by line, each line costing only itself (issue 37, case 6)."""

from __future__ import annotations

import io
import json
import tracemalloc
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_core.untrusted import Refused
from ragpulse_scorers.labels import importing
from ragpulse_scorers.labels.importing import ImportProgress, import_labels, json_lines
from ragpulse_scorers.labels.store import read_labels
from test_labels_cli import add_request


def line(trace: str, label: str = "grounded", **more: object) -> bytes:
    return json.dumps({"trace_id": trace, "label": label, **more}, ensure_ascii=False).encode() + b"\n"


def test_one_bad_line_costs_that_line_and_no_more(
    store: Store, chdb_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deep nesting aborted the import, a 25 MB line was echoed, U+2028 split a line, one invalid byte refused
    the whole file."""
    traces = [add_request(store, uuid.uuid4().hex, datetime.now(UTC)).trace_id for _ in range(4)]
    body = b"".join(
        [
            line(traces[0]),
            b"[" * 100_000 + b"]" * 100_000 + b"\n",
            line(traces[1], note="first\u2028second"),
            b'{"trace_id": "' + b"A" * (25 << 20) + b'", "label": "grounded"}\n',
            b'{"trace_id": "\xff\xfe", "label": "grounded"}\n',
            line(traces[2], note="caf\u00e9"),
            line(traces[3]),
        ]
    )
    path = tmp_path / "labels.jsonl"
    path.write_bytes(body)
    assert main(["labels", "import", str(path), "--dsn", chdb_dsn]) == 1
    out = capsys.readouterr().out
    assert "imported 4 labels from 7 lines; 3 lines refused" in out
    assert "labels.jsonl:2: not a label: nested too deeply" in out
    assert "labels.jsonl:4: line of" in out and "longer than" in out and "AAAAAAAA" not in out
    assert "labels.jsonl:5: not UTF-8" in out
    notes = {label.trace_id: label.note for label in read_labels(store, source="import")}
    assert notes[traces[1]] == "first\u2028second" and notes[traces[2]] == "caf\u00e9"


def test_a_huge_line_is_never_held_in_memory() -> None:
    stream = io.BytesIO(b"x" * (40 << 20) + b"\n" + b'{"a": 1}\n')
    tracemalloc.start()
    try:
        read = list(json_lines(stream))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [number for number, _ in read] == [1, 2] and isinstance(read[0][1], Refused)
    assert peak < 4 * importing.MAX_LINE_BYTES


def test_labels_are_written_batch_by_batch_with_progress(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing was written until the end (and one query per line: 165 lines/s)."""
    monkeypatch.setattr(importing, "BATCH_LINES", 10)
    traces = [add_request(store, uuid.uuid4().hex, datetime.now(UTC)).trace_id for _ in range(25)]
    stored_at_each_batch: list[tuple[int, int]] = []

    def on_batch(progress: ImportProgress) -> None:
        stored_at_each_batch.append((progress.written, len(read_labels(store, source="import"))))

    progress = import_labels(store, io.BytesIO(b"".join(line(t) for t in traces)), "team", on_batch)
    assert progress.written == 25 and progress.refused_total == 0
    assert stored_at_each_batch[:2] == [(10, 10), (20, 20)] and stored_at_each_batch[-1] == (25, 25)


LINE_PARTS = st.one_of(
    st.binary(max_size=30),
    st.sampled_from([b"\xe2\x80\xa8", b"\r", b"\r\n", b"\x00", b"[" * 3000, b'"', b"\\", b"\xff", b"{}"]),
    st.text(max_size=20).map(lambda text: text.encode("utf-8", "surrogatepass")),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(LINE_PARTS, max_size=4).map(b"".join), max_size=8))
@example([b'{"trace_id": "a\xe2\x80\xa8b", "label": "grounded"}', b"\xff"])
def test_line_numbers_count_newlines_only(lines: list[bytes]) -> None:
    clean = [part.replace(b"\n", b" ") for part in lines]
    read = list(json_lines(io.BytesIO(b"\n".join(clean))))
    expected = [number for number, text in enumerate(clean, 1) if text.removesuffix(b"\r").strip()]
    assert [number for number, _ in read] == expected
