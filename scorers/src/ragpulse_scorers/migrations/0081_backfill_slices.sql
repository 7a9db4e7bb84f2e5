-- The slices of a backfill (`ragpulse score --rule NAME --since 7d`) that it finished: every request in them
-- decided, none waiting for a budget or a rate limit. Running the same backfill again starts after the
-- finished slices that cover its window's start, rather than reading each of them again. Keyed by a digest of
-- the rule and its judges' versions: a changed rule or judge walks the window anew.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_backfill_slices (
    Backfill String CODEC(ZSTD(1)),
    Rule String CODEC(ZSTD(1)),
    SliceStart DateTime64(6) CODEC(Delta, ZSTD(1)),
    SliceEnd DateTime64(6) CODEC(Delta, ZSTD(1)),
    FinishedAt DateTime64(6) CODEC(Delta, ZSTD(1))
) ENGINE = ReplacingMergeTree(FinishedAt)
ORDER BY (Backfill, SliceStart, SliceEnd)
TTL toDateTime(FinishedAt) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192;
