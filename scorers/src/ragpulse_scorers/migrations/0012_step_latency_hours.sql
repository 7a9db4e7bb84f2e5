-- Step latency per hour, service and step, as quantile states: a latency panel over weeks merges a few thousand
-- states instead of computing quantiles over millions of step rows (what still took ~600 ms at a million
-- requests). Filled by a view on ragpulse_step_latency, so every span that reaches that table counts here too.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_step_latency_hours (
    Hour DateTime CODEC(DoubleDelta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Step LowCardinality(String) CODEC(ZSTD(1)),
    Calls SimpleAggregateFunction(sum, UInt64),
    Errors SimpleAggregateFunction(sum, UInt64),
    Latency AggregateFunction(quantilesBFloat16(0.5, 0.95, 0.99), Float64)
) ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(Hour)
ORDER BY (Hour, ServiceName, Step)
TTL Hour + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_step_latency_hours_mv
TO ${db}.ragpulse_step_latency_hours
AS SELECT
    toStartOfHour(Timestamp) AS Hour,
    ServiceName,
    Step,
    count() AS Calls,
    sum(IsError) AS Errors,
    quantilesBFloat16State(0.5, 0.95, 0.99)(DurationMs) AS Latency
FROM ${db}.ragpulse_step_latency
GROUP BY Hour, ServiceName, Step;

-- The hours before the view's first (so running this again adds nothing; an hour the view had begun when this
-- ran keeps only the view's rows).
INSERT INTO ${db}.ragpulse_step_latency_hours
SELECT
    toStartOfHour(Timestamp) AS Hour,
    ServiceName,
    Step,
    count() AS Calls,
    sum(IsError) AS Errors,
    quantilesBFloat16State(0.5, 0.95, 0.99)(DurationMs) AS Latency
FROM ${db}.ragpulse_step_latency
WHERE toStartOfHour(Timestamp) < (
    SELECT if(count() = 0, toDateTime('2106-01-01 00:00:00'), min(Hour)) FROM ${db}.ragpulse_step_latency_hours
)
GROUP BY Hour, ServiceName, Step;
