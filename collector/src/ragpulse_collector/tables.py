"""The tables the collector writes (``otel_traces``, ``otel_logs``), and rows for them kept column by column.

The writer concatenates the columns of many requests and inserts them column-oriented, which is what keeps
per-row Python work small. Timestamps stay integer nanoseconds so ``DateTime64(9)`` keeps the precision a
``datetime`` would lose.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

# DateTime64(9) is an Int64 of nanoseconds (up to 2262-04-11): a later uint64 time cannot be stored.
MAX_TIMESTAMP_NS = 2**63 - 1
NS_PER_DAY = 86_400 * 10**9
_NUMBER_BYTES = 8


@dataclass(frozen=True)
class Layout:
    """One table's columns as the collector inserts them.

    ``noun`` names its rows in metrics (``spans_written_total``) and messages; ``identity`` lists the columns
    whose values tell one request's rows from another's. The first column is always ``Timestamp``: both
    tables are partitioned by its day.
    """

    table: str
    noun: str
    column_types: dict[str, str]
    identity: tuple[str, ...]
    column_names: tuple[str, ...] = field(init=False)
    insert_types: dict[str, str] = field(init=False)
    identity_indices: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        names = tuple(self.column_types)
        object.__setattr__(self, "column_names", names)
        # LowCardinality is a storage encoding: sent as plain String, clickhouse-connect writes the column in
        # C instead of building a dictionary in Python (map keys included), and ClickHouse converts it on
        # insert (input_format_native_allow_types_conversion).
        object.__setattr__(
            self,
            "insert_types",
            {
                name: kind.replace("LowCardinality(String)", "String")
                for name, kind in self.column_types.items()
            },
        )
        object.__setattr__(self, "identity_indices", tuple(names.index(name) for name in self.identity))

    @property
    def described(self) -> str:
        """The noun for people: ``log records``."""
        return self.noun.replace("_", " ")


SPANS = Layout(
    table="otel_traces",
    noun="spans",
    column_types={
        "Timestamp": "DateTime64(9)",
        "TraceId": "String",
        "SpanId": "String",
        "ParentSpanId": "String",
        "TraceState": "String",
        "SpanName": "LowCardinality(String)",
        "SpanKind": "LowCardinality(String)",
        "ServiceName": "LowCardinality(String)",
        "ResourceAttributes": "Map(LowCardinality(String), String)",
        "ScopeName": "String",
        "ScopeVersion": "String",
        "SpanAttributes": "Map(LowCardinality(String), String)",
        "Duration": "UInt64",
        "StatusCode": "LowCardinality(String)",
        "StatusMessage": "String",
        "Events.Timestamp": "Array(DateTime64(9))",
        "Events.Name": "Array(LowCardinality(String))",
        "Events.Attributes": "Array(Map(LowCardinality(String), String))",
        "Links.TraceId": "Array(String)",
        "Links.SpanId": "Array(String)",
        "Links.TraceState": "Array(String)",
        "Links.Attributes": "Array(Map(LowCardinality(String), String))",
    },
    # A retried request carries the same spans however it is encoded; these few columns hash in a
    # fraction of the time the body would. The ids alone are not a span: services or replicas that seed
    # their id generator alike repeat them, even at the same nanosecond, and their spans differ in service,
    # name, parent or duration.
    identity=("TraceId", "SpanId", "Timestamp", "ServiceName", "SpanName", "ParentSpanId", "Duration"),
)

LOG_RECORDS = Layout(
    table="otel_logs",
    noun="log_records",
    # TimestampTime is left to its DEFAULT (toDateTime(Timestamp)), as the stock exporter leaves it.
    column_types={
        "Timestamp": "DateTime64(9)",
        "TraceId": "String",
        "SpanId": "String",
        "TraceFlags": "UInt8",
        "SeverityText": "LowCardinality(String)",
        "SeverityNumber": "UInt8",
        "ServiceName": "LowCardinality(String)",
        "Body": "String",
        "ResourceSchemaUrl": "LowCardinality(String)",
        "ResourceAttributes": "Map(LowCardinality(String), String)",
        "ScopeSchemaUrl": "LowCardinality(String)",
        "ScopeName": "String",
        "ScopeVersion": "LowCardinality(String)",
        "ScopeAttributes": "Map(LowCardinality(String), String)",
        "LogAttributes": "Map(LowCardinality(String), String)",
        "EventName": "String",
    },
    # Log records have no id of their own: several events of one span may share everything but their
    # content, so the content is part of what tells two requests apart.
    identity=("TraceId", "SpanId", "Timestamp", "EventName", "Body", "LogAttributes"),
)

LAYOUTS: dict[str, Layout] = {layout.table: layout for layout in (SPANS, LOG_RECORDS)}


@dataclass
class TableRows:
    """Rows of one table, one list per column in its layout's order."""

    layout: Layout
    columns: list[list[Any]]

    @classmethod
    def empty(cls, layout: Layout) -> TableRows:
        return cls(layout, [[] for _ in layout.column_names])

    @classmethod
    def joined(cls, parts: Sequence[TableRows]) -> TableRows:
        """The rows of ``parts`` (all of one table) in order, as one."""
        if len(parts) == 1:
            return parts[0]
        joined = cls.empty(parts[0].layout)
        for part in parts:
            for mine, theirs in zip(joined.columns, part.columns, strict=True):
                mine.extend(theirs)
        return joined

    def __len__(self) -> int:
        return len(self.columns[0])

    def identity(self) -> str:
        """What identifies these rows across retries: a digest of the layout's identity columns."""
        columns = self.columns
        key = self.layout.table + "\x1e".join(
            "\x1f".join(map(str, columns[index])) for index in self.layout.identity_indices
        )
        return hashlib.sha256(key.encode()).hexdigest()[:32]

    def stored_bytes(self) -> int:
        """About how many bytes these rows take once rendered (what the write queue and the insert hold):
        their strings' lengths, map keys and values included, and eight bytes a number.

        Every step is a C-level iteration (``map``, ``chain``), so this costs a few percent of the mapping.
        """
        total = 0
        for kind, column in zip(self.layout.column_types.values(), self.columns, strict=True):
            if kind.startswith("Array("):
                total += sum(map(len, column)) * _NUMBER_BYTES
                kind, column = kind[len("Array(") : -1], list(chain.from_iterable(column))
            if kind.startswith("Map("):
                total += sum(map(len, chain.from_iterable(column)))
                total += sum(map(len, chain.from_iterable(map(dict.values, column))))
            elif "String" in kind:
                total += sum(map(len, column))
            else:
                total += len(column) * _NUMBER_BYTES
        return total

    def column(self, name: str) -> list[Any]:
        return self.columns[self.layout.column_names.index(name)]

    def identity_keys(self) -> list[tuple[Any, ...]]:
        """Each row's identity columns, hashable: what tells a stored row of a request from a missing one."""
        columns = [self.columns[index] for index in self.layout.identity_indices]
        return [identity_key(values) for values in zip(*columns, strict=True)]

    def row_hashes(self) -> list[int]:
        """Each row's identity as a hash: what :class:`~ragpulse_collector.recent.RecentRows` keeps."""
        return list(map(hash, self.identity_keys()))

    def select(self, indices: Sequence[int]) -> TableRows:
        """The rows at ``indices``, in that order."""
        return TableRows(self.layout, [[column[index] for index in indices] for column in self.columns])

    def slice(self, start: int, stop: int) -> TableRows:
        return TableRows(self.layout, [column[start:stop] for column in self.columns])

    def by_partitions(self, max_partitions: int) -> list[TableRows]:
        """The rows in groups that each touch at most ``max_partitions`` days (the tables' partitions).

        ClickHouse refuses an insert block spread over more partitions than
        ``max_partitions_per_insert_block``; almost every batch covers one day, and is returned as it is.
        """
        days = [timestamp // NS_PER_DAY for timestamp in self.columns[0]]
        distinct = sorted(set(days))
        if len(distinct) <= max_partitions:
            return [self]
        group_of = {day: position // max_partitions for position, day in enumerate(distinct)}
        members: list[list[int]] = [[] for _ in range(len(distinct) // max_partitions + 1)]
        for index, day in enumerate(days):
            members[group_of[day]].append(index)
        return [self.select(indices) for indices in members if indices]

    def rows(self) -> list[dict[str, Any]]:
        """Row dictionaries: what the dead letters keep of a refused row, and what tests read."""
        names = self.layout.column_names
        return [dict(zip(names, values, strict=True)) for values in zip(*self.columns, strict=True)]


def identity_key(values: Iterable[Any]) -> tuple[Any, ...]:
    """Identity values as a hashable tuple (maps as their sorted items)."""
    return tuple(tuple(sorted(value.items())) if isinstance(value, dict) else value for value in values)


@dataclass(frozen=True)
class Mapped:
    """One export request's rows, and how many of its items the table could not hold, and why."""

    rows: TableRows
    rejected: int
    rejection_reason: str


def rejection_reason(counts: Iterable[tuple[int, str]]) -> str:
    """``"2 span(s) with a malformed id; 1 span(s) with ..."`` for the non-zero counts."""
    return "; ".join(f"{count} {what}" for count, what in counts if count)
