"""The collector's own counters and gauges, rendered in the Prometheus text exposition format."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

from ragpulse_collector.tables import LAYOUTS, Layout

PREFIX = "ragpulse_collector_"

# Per table: what happened to its rows, from arrival to the store.
_ROW_COUNTERS: dict[str, str] = {
    "received_total": "{What} in accepted OTLP requests",
    "rejected_total": "{What} refused through partial_success (malformed ids, times out of range)",
    "dead_lettered_total": "{What} the store refused, kept in ragpulse_dead_letters",
    "written_total": "{What} inserted into {table}",
    "spooled_total": "{What} written to the on-disk spool while the store was unreachable",
    "replayed_total": "Spooled {what} inserted after the store came back",
    "found_stored_total": "{What} of retries after a restart found already stored, not written again",
    "resent_total": "{What} sent again (a re-send holding a subset or superset of a stored request),"
    " not written again",
}
COUNTERS: dict[str, str] = {
    **{
        f"{layout.noun}_{name}": help_text.format(
            What=layout.described.capitalize(), what=layout.described, table=layout.table
        )
        for layout in LAYOUTS.values()
        for name, help_text in _ROW_COUNTERS.items()
    },
    "metric_data_points_dropped_total": (
        "Metric data points received, validated and dropped (ragpulse stores none)"
    ),
    "requests_deduplicated_total": "Retried requests acknowledged without writing their rows again",
    "requests_withdrawn_total": "Requests taken back out of the write queue after their ack timed out",
    "batches_written_total": "Insert batches that reached the store",
    "write_errors_total": "Failed insert attempts",
}


class CollectorMetrics:
    """Thread-safe counters, plus gauges read at scrape time from callbacks."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counters: Counter[str] = Counter()
        self._responses: Counter[int] = Counter()
        self._gauges: dict[str, tuple[str, Callable[[], float]]] = {}

    def add(self, name: str, amount: int = 1) -> None:
        if name not in COUNTERS:
            raise KeyError(f"unknown counter {name}")
        with self._lock:
            self._counters[name] += amount

    def add_rows(self, layout: Layout, event: str, amount: int) -> None:
        """Count ``amount`` of a table's rows under ``event`` (``written_total``...)."""
        self.add(f"{layout.noun}_{event}", amount)

    def count_response(self, status: int) -> None:
        with self._lock:
            self._responses[status] += 1

    def gauge(self, name: str, help_text: str, read: Callable[[], float]) -> None:
        self._gauges[name] = (help_text, read)

    def value(self, name: str) -> int:
        with self._lock:
            return self._counters[name]

    def render(self) -> str:
        with self._lock:
            counters = dict(self._counters)
            responses = dict(self._responses)
        lines: list[str] = []
        for name, help_text in COUNTERS.items():
            lines += [
                f"# HELP {PREFIX}{name} {help_text}",
                f"# TYPE {PREFIX}{name} counter",
                f"{PREFIX}{name} {counters.get(name, 0)}",
            ]
        lines += [
            f"# HELP {PREFIX}http_responses_total OTLP responses by HTTP status code (gRPC ones mapped)",
            f"# TYPE {PREFIX}http_responses_total counter",
        ]
        lines += [
            f'{PREFIX}http_responses_total{{code="{code}"}} {count}'
            for code, count in sorted(responses.items())
        ]
        for name, (help_text, read) in self._gauges.items():
            lines += [
                f"# HELP {PREFIX}{name} {help_text}",
                f"# TYPE {PREFIX}{name} gauge",
                f"{PREFIX}{name} {read():g}",
            ]
        return "\n".join(lines) + "\n"
