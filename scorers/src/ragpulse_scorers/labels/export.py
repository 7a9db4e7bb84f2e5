"""``ragpulse export --labelled``: labelled requests as an evaluation set ``ragpulse eval support`` reads.

Each line is RAGTruth-style (``question``, ``context`` as "passage N:" parts, ``response``, ``hallucinated``)
so the loader needs nothing new, plus where it came from (``trace_id``, ``span_id``, ``request_time``,
``service``, ``pipeline``, ``variant``, ``label_source``, ``author``), which the loader ignores. The label is
the same one the report's reviewer figures use (the latest reviewer or imported label of the request), and by
default the set is the one those figures count (the review queue's random share), so ``eval`` on it measures a
judge against the same people on the same answers. ``everything`` adds every other labelled request: a harder
set, since the queue sends people where the judges err, whose figures are not the report's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from ragpulse_core.store import Store

from ragpulse_scorers.labels.figures import SOURCES, Reference
from ragpulse_scorers.review.queue import in_uniform_share_sql


def labelled_lines(store: Store, *, since: datetime | None = None, everything: bool = False) -> Iterator[str]:
    """One JSON line per labelled request that started at or after ``since`` and is still stored (labels
    outlive their requests' TTL; those are skipped), oldest request first."""
    parameters: dict[str, Any] = {
        "sources": [str(source) for source in SOURCES[Reference.REVIEWER]],
        "since": _naive_utc(since or datetime(1970, 1, 1, tzinfo=UTC)),
    }
    drawn = "" if everything else f" AND {in_uniform_share_sql()}"
    rows = store.query_dicts(
        "SELECT r.TraceId AS TraceId, r.SpanId AS SpanId, r.Timestamp AS Timestamp, r.ServiceName AS Service,"
        " r.Pipeline AS Pipeline, r.Variant AS Variant, r.Question AS Question, r.Context AS Context,"
        " r.Answer AS Answer, people.Given AS Label, people.GivenBy AS Source, people.Writer AS Author"
        " FROM (SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS Micros,"
        "       argMax(Label, LabelTime) AS Given, argMax(Source, LabelTime) AS GivenBy,"
        "       argMax(Author, LabelTime) AS Writer"
        f"       FROM {store.table('ragpulse_labels')} FINAL WHERE Source IN {{sources:Array(String)}}{drawn}"
        "       GROUP BY TraceId, SpanId, Micros) AS people"
        " INNER JOIN (SELECT DISTINCT TraceId, SpanId, Timestamp,"
        "       toUnixTimestamp64Micro(Timestamp) AS Micros, ServiceName, Pipeline, Variant, Question,"
        f"       Context, Answer FROM {store.table('ragpulse_requests')} FINAL"
        "       WHERE Timestamp >= {since:DateTime64(6)}) AS r"
        " ON r.TraceId = people.TraceId AND r.SpanId = people.SpanId AND r.Micros = people.Micros"
        " ORDER BY r.Timestamp, r.TraceId",
        parameters,
    )
    for row in rows:
        yield json.dumps(_line(row), ensure_ascii=False)


def _line(row: dict[str, Any]) -> dict[str, Any]:
    request_time = row["Timestamp"]
    return {
        "id": f"{row['TraceId']}/{row['SpanId']}",
        "question": row["Question"],
        "context": "\n".join(f"passage {n}: {text}" for n, text in enumerate(_texts(row["Context"]), 1)),
        "response": row["Answer"],
        "hallucinated": int(row["Label"] == "hallucinated"),
        "trace_id": row["TraceId"],
        "span_id": row["SpanId"],
        "request_time": (
            request_time if request_time.tzinfo else request_time.replace(tzinfo=UTC)
        ).isoformat(),
        "service": row["Service"],
        "pipeline": row["Pipeline"],
        "variant": row["Variant"],
        "label_source": row["Source"],
        "author": row["Author"],
    }


def _texts(context: str) -> list[str]:
    try:
        chunks = json.loads(context) if context else []
    except json.JSONDecodeError:
        return [context]
    if not isinstance(chunks, list):
        return [context]
    texts = (chunk.get("text", "") if isinstance(chunk, dict) else str(chunk) for chunk in chunks)
    return [text for text in texts if isinstance(text, str) and text.strip()]


def _naive_utc(moment: datetime) -> datetime:
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC).replace(tzinfo=None)
