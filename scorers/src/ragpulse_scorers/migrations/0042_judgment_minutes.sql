-- What judging cost and how it went, per minute it was done (ScoredAt), scorer, service, pipeline and variant:
-- spend and tokens, judgments and failed judgments (one per request a scorer judged in one write: the Head
-- rows of ragpulse_score_values). The spend, judge-error and stall panels read these few rows instead of
-- every score of the window, and the sums carry Sign, so a judgment that was replaced counts no more.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_judgment_minutes (
    Minute DateTime CODEC(Delta, ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    CostUSD Float64 CODEC(ZSTD(1)),
    InputTokens Int64 CODEC(ZSTD(1)),
    OutputTokens Int64 CODEC(ZSTD(1)),
    Judgments Int64 CODEC(ZSTD(1)),
    Failures Int64 CODEC(ZSTD(1))
) ENGINE = SummingMergeTree()
PARTITION BY toDate(Minute)
ORDER BY (Minute, Scorer, ServiceName, Pipeline, Variant)
TTL Minute + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_judgment_minutes_mv
TO ${db}.ragpulse_judgment_minutes
AS SELECT
    toStartOfMinute(ScoredAt) AS Minute, Scorer, ServiceName, Pipeline, Variant,
    sum(Sign * CostUSD) AS CostUSD,
    sum(Sign * InputTokens) AS InputTokens,
    sum(Sign * OutputTokens) AS OutputTokens,
    sumIf(Sign, Head = 1) AS Judgments,
    sumIf(Sign, Head = 1 AND Failed = 1) AS Failures
FROM ${db}.ragpulse_score_values
GROUP BY Minute, Scorer, ServiceName, Pipeline, Variant;

-- The lag from request to judgment, per hour it was judged: how many judgments took each lag, the lag kept to
-- two significant digits (1% at most off), so p50 and p95 over any window read a few hundred buckets an hour.
-- LagMap is summed by its first column when parts merge, and a bucket whose count falls to 0 is dropped.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_scoring_lag_hours (
    Hour DateTime CODEC(Delta, ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    LagMap Nested(Seconds Float64, Judgments Int64)
) ENGINE = SummingMergeTree()
PARTITION BY toDate(Hour)
ORDER BY (Hour, Scorer, ServiceName, Pipeline, Variant)
TTL Hour + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_scoring_lag_hours_mv
TO ${db}.ragpulse_scoring_lag_hours
AS SELECT Hour, Scorer, ServiceName, Pipeline, Variant,
          groupArray(Seconds) AS `LagMap.Seconds`, groupArray(Judgments) AS `LagMap.Judgments`
FROM (
    SELECT toStartOfHour(ScoredAt) AS Hour, Scorer, ServiceName, Pipeline, Variant,
           round(lag, 1 - toInt32(floor(log10(greatest(abs(lag), 0.001))))) AS Seconds, sum(Sign) AS Judgments
    FROM (SELECT *, dateDiff('millisecond', RequestTime, ScoredAt) / 1000 AS lag FROM ${db}.ragpulse_score_values)
    WHERE Head = 1
    GROUP BY Hour, Scorer, ServiceName, Pipeline, Variant, Seconds
)
GROUP BY Hour, Scorer, ServiceName, Pipeline, Variant;

-- The judgments already stored, once (stop scorers while this runs).
INSERT INTO ${db}.ragpulse_judgment_minutes
SELECT
    toStartOfMinute(ScoredAt) AS Minute, Scorer, ServiceName, Pipeline, Variant,
    sum(Sign * CostUSD) AS CostUSD,
    sum(Sign * InputTokens) AS InputTokens,
    sum(Sign * OutputTokens) AS OutputTokens,
    sumIf(Sign, Head = 1) AS Judgments,
    sumIf(Sign, Head = 1 AND Failed = 1) AS Failures
FROM ${db}.ragpulse_score_values
WHERE (SELECT count() FROM ${db}.ragpulse_judgment_minutes) = 0
GROUP BY Minute, Scorer, ServiceName, Pipeline, Variant;

INSERT INTO ${db}.ragpulse_scoring_lag_hours
SELECT Hour, Scorer, ServiceName, Pipeline, Variant,
       groupArray(Seconds) AS `LagMap.Seconds`, groupArray(Judgments) AS `LagMap.Judgments`
FROM (
    SELECT toStartOfHour(ScoredAt) AS Hour, Scorer, ServiceName, Pipeline, Variant,
           round(lag, 1 - toInt32(floor(log10(greatest(abs(lag), 0.001))))) AS Seconds, sum(Sign) AS Judgments
    FROM (SELECT *, dateDiff('millisecond', RequestTime, ScoredAt) / 1000 AS lag FROM ${db}.ragpulse_score_values)
    WHERE Head = 1 AND (SELECT count() FROM ${db}.ragpulse_scoring_lag_hours) = 0
    GROUP BY Hour, Scorer, ServiceName, Pipeline, Variant, Seconds
    HAVING Judgments != 0
)
GROUP BY Hour, Scorer, ServiceName, Pipeline, Variant;
