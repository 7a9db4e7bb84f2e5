"""Replay a captured case into a collector: its OTLP/HTTP protobuf bodies, in arrival order (or every logs
payload first), to ``<url>/v1/<signal>``, with every timestamp moved by one offset so the newest lands at
"now" (tables have a TTL, and assembly reads a lookback window). Nothing else in a payload changes.

    python tests/foreign/replay.py tests/foreign/cases/openlit-system-context --url http://127.0.0.1:4318
    python tests/foreign/replay.py tests/foreign/cases/openai-v2-legacy-system-context --dump
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

CASES = Path(__file__).resolve().parent / "cases"
REQUESTS: dict[str, type[Message]] = {
    "traces": ExportTraceServiceRequest,
    "logs": ExportLogsServiceRequest,
    "metrics": ExportMetricsServiceRequest,
}
_TIME_FIELDS = ("start_time_unix_nano", "end_time_unix_nano", "time_unix_nano", "observed_time_unix_nano")


class ReplayError(RuntimeError):
    """The collector did not accept a payload (the message names it and the answer)."""


@dataclass(frozen=True)
class Payload:
    name: str
    """File name, e.g. ``003-logs.pb``."""
    signal: str
    body: bytes = field(repr=False)

    def message(self) -> Message:
        message = REQUESTS[self.signal]()
        message.ParseFromString(self.body)
        return message


@dataclass(frozen=True)
class Case:
    name: str
    expected: dict[str, Any] = field(repr=False)
    payloads: list[Payload] = field(repr=False)


def load(case: Path) -> Case:
    payloads = []
    for path in sorted((case / "payloads").glob("*.pb")):
        signal = path.stem.split("-", 1)[1]
        if signal not in REQUESTS:
            raise ValueError(f"{path}: unknown signal {signal!r}")
        payloads.append(Payload(path.name, signal, path.read_bytes()))
    return Case(case.name, json.loads((case / "expected.json").read_text()), payloads)


def all_cases() -> list[Case]:
    return [load(path) for path in sorted(CASES.iterdir()) if (path / "expected.json").exists()]


def _messages(message: Message) -> Iterator[Message]:
    """The message and every message nested in it, depth first."""
    yield message
    for descriptor, value in message.ListFields():
        if descriptor.message_type is None:
            continue
        if descriptor.is_repeated:
            for item in value:
                if isinstance(item, Message):
                    yield from _messages(item)
        elif isinstance(value, Message):
            yield from _messages(value)


def _times(message: Message) -> Iterator[tuple[Message, str]]:
    for node in _messages(message):
        for name in _TIME_FIELDS:
            if name in node.DESCRIPTOR.fields_by_name and getattr(node, name):
                yield node, name


def newest_time(payloads: Iterable[Payload]) -> int:
    return max((getattr(node, name) for p in payloads for node, name in _times(p.message())), default=0)


def shifted(payload: Payload, offset_ns: int) -> bytes:
    message = payload.message()
    for node, name in _times(message):
        setattr(node, name, getattr(node, name) + offset_ns)
    return message.SerializeToString()


def replay(case: Case, url: str, *, logs_first: bool = False, now_ns: int | None = None) -> None:
    """POST every payload of the case to ``url``; a non-2xx answer raises :class:`ReplayError`."""
    offset = (now_ns or time.time_ns()) - newest_time(case.payloads)
    order = sorted(case.payloads, key=lambda p: p.signal != "logs") if logs_first else case.payloads
    with httpx.Client(timeout=30) as client:
        for payload in order:
            response = client.post(
                f"{url.rstrip('/')}/v1/{payload.signal}",
                content=shifted(payload, offset),
                headers={"Content-Type": "application/x-protobuf"},
            )
            if not response.is_success:
                raise ReplayError(
                    f"{case.name}/{payload.name}: POST /v1/{payload.signal} answered {response.status_code}"
                    f" {response.text[:200]!r}"
                )


def dump(case: Case) -> str:
    """The case's payloads as OTLP JSON, one document per payload, for reading."""
    return "\n".join(
        f"# {p.name}\n" + json.dumps(MessageToDict(p.message()), indent=1, ensure_ascii=False)
        for p in case.payloads
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("case", type=Path, help="a directory under tests/foreign/cases")
    parser.add_argument("--url", default="http://127.0.0.1:4318", help="the collector's OTLP/HTTP base URL")
    parser.add_argument("--logs-first", action="store_true", help="send every logs payload before the rest")
    parser.add_argument("--dump", action="store_true", help="print the payloads as OTLP JSON instead")
    options = parser.parse_args()
    case = load(options.case)
    if options.dump:
        print(dump(case))
        return 0
    try:
        replay(case, options.url, logs_first=options.logs_first)
    except (ReplayError, httpx.HTTPError) as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"{case.name}: {len(case.payloads)} payloads sent to {options.url}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
