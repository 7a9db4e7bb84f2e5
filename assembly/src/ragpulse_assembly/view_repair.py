"""Request rows the view never wrote: ragpulse root spans stored in ``otel_traces`` without their
``ragpulse_requests`` row.

ClickHouse writes an insert's block to ``otel_traces`` and then to each view's table, not atomically: a
collector killed between the two leaves spans stored and acknowledged as such after its restart (the write
journal and the recent rows find them in the table and write them once), while the request row that the view
``ragpulse_requests_mv`` would have made is missing, and the request is never scored or counted. The view's
own query, read from ``system.tables``, makes the missing rows again, so this step cannot drift from the view;
``ragpulse_requests`` is a ReplacingMergeTree, so a row made twice (a view that did write, seen late) folds.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Final

from ragpulse_core.sampling import SAMPLE_BUCKETS, Shard
from ragpulse_core.store import Store

logger = logging.getLogger(__name__)

VIEW: Final = "ragpulse_requests_mv"


def restore_missing_request_rows(store: Store, oldest: datetime, settled: datetime, shard: Shard) -> int:
    """Write the request rows of this shard's root spans that started between ``oldest`` and ``settled`` and
    have none; returns how many."""
    found = store.query(
        "SELECT as_select FROM system.tables WHERE database = {db:String} AND name = {view:String}",
        {"db": store.database, "view": VIEW},
    )
    columns = [
        name
        for (name,) in store.query(
            "SELECT name FROM system.columns WHERE database = {db:String} AND table = {view:String}"
            " ORDER BY position",
            {"db": store.database, "view": VIEW},
        )
    ]
    if not found or not columns:
        return 0
    listed = ", ".join(f"`{name}`" for name in columns)
    requests = store.table("ragpulse_requests")
    missing = f"""
        SELECT {listed} FROM ({found[0][0]}) AS roots
        WHERE Timestamp >= {{oldest:DateTime64(6)}} AND Timestamp <= {{settled:DateTime64(6)}}
          AND intDiv(SampleKey, {SAMPLE_BUCKETS}) % {{shards:UInt64}} = {{shard:UInt64}}
          AND (TraceId, SpanId, toUnixTimestamp64Micro(Timestamp)) NOT IN (
              SELECT TraceId, SpanId, toUnixTimestamp64Micro(Timestamp) FROM {requests}
              WHERE Timestamp >= {{oldest:DateTime64(6)}}
          )
    """
    parameters = {"oldest": oldest, "settled": settled, "shards": shard.count, "shard": shard.index}
    (count,) = store.query(f"SELECT count() FROM ({missing})", parameters)[0]
    if count:
        store.command(f"INSERT INTO {requests} ({listed}) {missing}", parameters)
        logger.warning(
            "%d request row(s) missing beside their stored root spans (a collector stopped mid-write) were"
            " made again",
            count,
        )
    return int(count)
