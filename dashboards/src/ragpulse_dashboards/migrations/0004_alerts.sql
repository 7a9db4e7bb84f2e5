-- Built-in alerts (embedded mode, where there is no Grafana): one row per alert episode, per rule and
-- labels, from the evaluation that fired it until the one that resolved it. Every evaluation that changes or
-- refreshes an episode inserts a newer version (UpdatedAt), so `FINAL` reads the current state of each.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_alerts (
    AlertId String CODEC(ZSTD(1)),
    Rule LowCardinality(String) CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    State LowCardinality(String) CODEC(ZSTD(1)),
    FiredAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    ResolvedAt Nullable(DateTime64(6)) CODEC(ZSTD(1)),
    UpdatedAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    Value Float64 CODEC(ZSTD(1)),
    Lower Float64 CODEC(ZSTD(1)),
    Upper Float64 CODEC(ZSTD(1)),
    Samples UInt64 CODEC(ZSTD(1)),
    Threshold Float64 CODEC(ZSTD(1)),
    Summary String CODEC(ZSTD(1)),
    NotifyError String CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree(UpdatedAt)
PARTITION BY toYYYYMM(FiredAt)
ORDER BY (Rule, ServiceName, Variant, Scorer, AlertId)
TTL toDateTime(UpdatedAt) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192;
