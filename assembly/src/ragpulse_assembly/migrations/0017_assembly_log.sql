-- Traces request assembly looked at and did not turn into a request (no retrieval and no generation once
-- read, or data it could not read), so the scheduler does not read them again every tick. Requests it did
-- assemble are in ragpulse_requests; the two together are everything assembly has decided.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_assembly_log (
    TraceId String CODEC(ZSTD(1)),
    Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)),
    LoggedAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    Outcome LowCardinality(String) CODEC(ZSTD(1)),
    Reason String CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1
) ENGINE = ReplacingMergeTree(LoggedAt)
PARTITION BY toDate(Timestamp)
ORDER BY (toDateTime(Timestamp), TraceId)
TTL toDateTime(Timestamp) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;
