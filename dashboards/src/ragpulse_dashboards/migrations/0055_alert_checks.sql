-- What the last alert evaluation saw, per alert series, so a report can say why a rate shown above the
-- threshold has no alert (the check has not run yet, too few samples in the alert's window, an interval that
-- reaches the threshold) instead of guessing. Rule '' marks the evaluation itself, so "the check ran and
-- saw nothing for this series" is told apart from "no check has run". FINAL keeps each series' newest row.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_alert_checks (
    CheckedAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    Rule LowCardinality(String) CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    Value Float64 CODEC(ZSTD(1)),
    Lower Float64 CODEC(ZSTD(1)),
    Upper Float64 CODEC(ZSTD(1)),
    Samples UInt64 CODEC(ZSTD(1)),
    Threshold Float64 CODEC(ZSTD(1)),
    Fire Bool,
    IntervalS Float64 CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree(CheckedAt)
ORDER BY (Rule, ServiceName, Variant, Scorer)
TTL toDateTime(CheckedAt) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192;
