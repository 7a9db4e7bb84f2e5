-- One narrow row per pipeline step and per ragpulse request (its own span, as step 'total'), so latency panels
-- read four columns instead of every span's attribute map. The request's span is found by its name first
-- ("rag <pipeline>"; it need not be the trace's root, a web framework's span may sit above it), so the map is
-- read only for those spans, once, as they land. Step names are ragpulse.semconv's span names.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_step_latency (
    Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Step LowCardinality(String) CODEC(ZSTD(1)),
    DurationMs Float64 CODEC(ZSTD(1)),
    IsError UInt8 CODEC(ZSTD(1))
) ENGINE = MergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (toStartOfHour(Timestamp), ServiceName, Step)
TTL toDateTime(Timestamp) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_step_latency_mv
TO ${db}.ragpulse_step_latency
AS SELECT
    Timestamp,
    TraceId,
    ServiceName,
    if(SpanName IN ('variations', 'retrieve', 'fuse', 'generate'), SpanName, 'total') AS Step,
    Duration / 1e6 AS DurationMs,
    toUInt8(StatusCode IN ('Error', 'STATUS_CODE_ERROR')) AS IsError
FROM ${db}.otel_traces
WHERE (startsWith(SpanName, 'rag ') AND SpanAttributes['ragpulse.kind'] = 'rag')
   OR SpanName IN ('variations', 'retrieve', 'fuse', 'generate');

-- Spans already stored, except those of traces the view has filled since it was created (so running this
-- again adds nothing twice).
INSERT INTO ${db}.ragpulse_step_latency
SELECT
    Timestamp,
    TraceId,
    ServiceName,
    if(SpanName IN ('variations', 'retrieve', 'fuse', 'generate'), SpanName, 'total') AS Step,
    Duration / 1e6 AS DurationMs,
    toUInt8(StatusCode IN ('Error', 'STATUS_CODE_ERROR')) AS IsError
FROM ${db}.otel_traces
WHERE ((startsWith(SpanName, 'rag ') AND SpanAttributes['ragpulse.kind'] = 'rag')
   OR SpanName IN ('variations', 'retrieve', 'fuse', 'generate'))
  AND TraceId NOT IN (SELECT TraceId FROM ${db}.ragpulse_step_latency);
