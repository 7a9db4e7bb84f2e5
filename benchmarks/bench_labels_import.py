"""``labels import``: lines per second of the streaming import (requests looked up and labels written per
batch of lines) against looking each line's request up on its own and writing at the end, as the import did
before, measured side by side on the same file and store.

    python benchmarks/bench_labels_import.py --lines 3000
"""

from __future__ import annotations

import argparse
import io
import json
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from ragpulse_core.schema import migrate
from ragpulse_core.store import Store
from ragpulse_scorers.labels.importing import import_labels
from ragpulse_scorers.labels.lines import parse_line
from ragpulse_scorers.labels.store import Label, Source, find_request, write_labels

COLUMNS = ["TraceId", "SpanId", "Timestamp", "ServiceName", "Pipeline", "Variant", "Question", "Answer"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"chdb://{Path(folder) / 'db'}")
        migrate(store, 30)
        traces = [uuid.uuid4().hex for _ in range(args.lines)]
        now = datetime.now(UTC).replace(tzinfo=None)
        rows = [[trace, "root1", now, "svc", "p", "A", "q?", "One. Two."] for trace in traces]
        store.insert("ragpulse_requests", rows, COLUMNS)
        body = b"".join(
            json.dumps({"trace_id": t, "label": "hallucinated", "sentences": [1]}).encode() + b"\n"
            for t in traces
        )
        started = time.perf_counter()
        streamed = import_labels(store, io.BytesIO(body), "bench").written
        streaming = time.perf_counter() - started
        started = time.perf_counter()
        one_by_one = _line_by_line(store, body)
        single = time.perf_counter() - started
        store.close()
    print(f"streaming, per batch: {streamed} labels, {args.lines / streaming:,.0f} lines/s")
    print(f"one line at a time:   {one_by_one} labels, {args.lines / single:,.0f} lines/s")
    print(f"ratio: {single / streaming:.1f}x (shared machine: compare the ratio, not the absolute figures)")


def _line_by_line(store: Store, body: bytes) -> int:
    labels = []
    for text in body.decode().splitlines():
        line = parse_line(text)
        request = find_request(store, line.trace_id, line.span_id, at=line.request_time)
        assert request is not None
        labels.append(
            Label.of(request, line.label, author="bench", source=Source.IMPORT, sentences=line.sentences)
        )
    return write_labels(store, labels)


if __name__ == "__main__":
    main()
