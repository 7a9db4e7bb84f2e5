-- The requests no judge may score (content capture off, no context, no answer...), with their reason, in a
-- table of their own: "Requests not scored, and why" and the report's count of them read these few narrow
-- rows instead of picking one row per request out of every request of the window. Filled from
-- ragpulse_requests by a view (the rows its own view takes from root spans, and the rows assembly writes);
-- the same key as ragpulse_requests, so a request assembled twice is one row once parts merge.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_unscored_requests (
    Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Source LowCardinality(String) CODEC(ZSTD(1)),
    ContextSource LowCardinality(String) CODEC(ZSTD(1)),
    Unscorable LowCardinality(String) CODEC(ZSTD(1)),
    DurationMs Float64 CODEC(ZSTD(1)),
    Question String CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (ServiceName, Pipeline, Variant, toDateTime(Timestamp), TraceId, SpanId, Source)
TTL toDateTime(Timestamp) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_unscored_requests_mv
TO ${db}.ragpulse_unscored_requests
AS SELECT Timestamp, TraceId, SpanId, ServiceName, Pipeline, Variant, Source, ContextSource, Unscorable,
          DurationMs, Question
FROM ${db}.ragpulse_requests
WHERE Unscorable != '';

-- The requests already stored (a second run adds rows the table's merges fold away).
INSERT INTO ${db}.ragpulse_unscored_requests
SELECT Timestamp, TraceId, SpanId, ServiceName, Pipeline, Variant, Source, ContextSource, Unscorable,
       DurationMs, Question
FROM ${db}.ragpulse_requests
WHERE Unscorable != '';
