-- Rows the database refused (a value out of range, too many partitions, ...), kept with the reason and
-- the original row as JSON, so nothing accepted is lost silently and the rest of its batch is written.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_dead_letters (
    ReceivedAt DateTime64(3) DEFAULT now64(3) CODEC(Delta, ZSTD(1)),
    TargetTable LowCardinality(String),
    Reason String CODEC(ZSTD(1)),
    Payload String CODEC(ZSTD(3))
) ENGINE = MergeTree()
PARTITION BY toDate(ReceivedAt)
ORDER BY ReceivedAt
TTL toDateTime(ReceivedAt) + toIntervalDay(${ttl_days})
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 10000;
