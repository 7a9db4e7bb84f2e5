-- The requests no judge may score are named as ragpulse_requests names them since 0035: by their ids and
-- their start time to the microsecond. Keyed to the second, the requests of a service that seeds its id
-- generator (or of replicas seeded alike) reusing ids within one second merged into one row, and "Requests
-- not scored, and why" counted them once. The table is built anew and refilled from ragpulse_requests, its
-- source: the view is dropped first and created again before the refill, so rows written meanwhile are in
-- the refill or come through the view (the key folds the two). Each step can run again after a crash.
DROP VIEW IF EXISTS ${db}.ragpulse_unscored_requests_mv;

DROP TABLE IF EXISTS ${db}.ragpulse_unscored_requests_0071;

CREATE TABLE ${db}.ragpulse_unscored_requests_0071 (
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
ORDER BY (ServiceName, Pipeline, Variant, toDateTime(Timestamp), TraceId, SpanId, Source,
          toUnixTimestamp64Micro(Timestamp))
TTL toDateTime(Timestamp) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

EXCHANGE TABLES ${db}.ragpulse_unscored_requests AND ${db}.ragpulse_unscored_requests_0071;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_unscored_requests_mv
TO ${db}.ragpulse_unscored_requests
AS SELECT Timestamp, TraceId, SpanId, ServiceName, Pipeline, Variant, Source, ContextSource, Unscorable,
          DurationMs, Question
FROM ${db}.ragpulse_requests
WHERE Unscorable != '';

INSERT INTO ${db}.ragpulse_unscored_requests
SELECT Timestamp, TraceId, SpanId, ServiceName, Pipeline, Variant, Source, ContextSource, Unscorable,
       DurationMs, Question
FROM ${db}.ragpulse_requests
WHERE Unscorable != '';

DROP TABLE IF EXISTS ${db}.ragpulse_unscored_requests_0071;
