-- Every notification of a fired or resolved alert to each destination: delivered or not, after how many
-- attempts, and the last error (secrets masked). The report and the live page list the failed ones, so a
-- destination that is down is seen without reading the scorer's logs. One row per notification, written
-- once its retries are over.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_alert_deliveries (
    AlertId String CODEC(ZSTD(1)),
    Event LowCardinality(String) CODEC(ZSTD(1)),
    Destination LowCardinality(String) CODEC(ZSTD(1)),
    Kind LowCardinality(String) CODEC(ZSTD(1)),
    Rule LowCardinality(String) CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    Summary String CODEC(ZSTD(1)),
    Delivered Bool,
    Attempts UInt16 CODEC(ZSTD(1)),
    HttpStatus UInt16 CODEC(ZSTD(1)),
    LastError String CODEC(ZSTD(1)),
    FirstAttemptAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    LastAttemptAt DateTime64(6) CODEC(Delta, ZSTD(1))
) ENGINE = MergeTree()
PARTITION BY toYYYYMM(LastAttemptAt)
ORDER BY (LastAttemptAt, Destination, AlertId)
TTL toDateTime(LastAttemptAt) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192;
