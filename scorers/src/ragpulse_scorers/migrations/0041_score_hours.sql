-- Per hour of the request, metric, scorer, service, pipeline and variant: the sums a panel or the report takes
-- over scores (how many, how many at or above 0.5, the sum and the sum of squares of the values, how many are
-- not 0 or 1), so a 30-day window reads 720 short rows per series instead of every score. Filled from
-- ragpulse_score_values, Sign included: a re-scored request's earlier values are subtracted where its newer
-- ones are added, so these sums count it once without FINAL. Error rows and rows without a value are left
-- out, as every reader of values leaves them out.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_score_hours (
    Hour DateTime CODEC(Delta, ZSTD(1)),
    Metric LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Scores Int64 CODEC(ZSTD(1)),
    Positives Int64 CODEC(ZSTD(1)),
    ValueSum Float64 CODEC(ZSTD(1)),
    ValueSquares Float64 CODEC(ZSTD(1)),
    NotBinary Int64 CODEC(ZSTD(1))
) ENGINE = SummingMergeTree()
PARTITION BY toDate(Hour)
ORDER BY (Hour, Metric, Scorer, ServiceName, Pipeline, Variant)
TTL Hour + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_score_hours_mv
TO ${db}.ragpulse_score_hours
AS SELECT
    toStartOfHour(RequestTime) AS Hour, Metric, Scorer, ServiceName, Pipeline, Variant,
    sum(Sign) AS Scores,
    sumIf(Sign, Value >= 0.5) AS Positives,
    sum(Sign * assumeNotNull(Value)) AS ValueSum,
    sum(Sign * assumeNotNull(Value) * assumeNotNull(Value)) AS ValueSquares,
    sumIf(Sign, Value NOT IN (0, 1)) AS NotBinary
FROM ${db}.ragpulse_score_values
WHERE Failed = 0 AND Value IS NOT NULL
GROUP BY Hour, Metric, Scorer, ServiceName, Pipeline, Variant;

-- The values already stored, once: a table that has rows already got them here (stop scorers while this runs).
INSERT INTO ${db}.ragpulse_score_hours (Hour, Metric, Scorer, ServiceName, Pipeline, Variant, Scores, Positives,
    ValueSum, ValueSquares, NotBinary)
SELECT
    toStartOfHour(RequestTime) AS Hour, Metric, Scorer, ServiceName, Pipeline, Variant,
    sum(Sign) AS Scores,
    sumIf(Sign, Value >= 0.5) AS Positives,
    sum(Sign * assumeNotNull(Value)) AS ValueSum,
    sum(Sign * assumeNotNull(Value) * assumeNotNull(Value)) AS ValueSquares,
    sumIf(Sign, Value NOT IN (0, 1)) AS NotBinary
FROM ${db}.ragpulse_score_values
WHERE Failed = 0 AND Value IS NOT NULL AND (SELECT count() FROM ${db}.ragpulse_score_hours) = 0
GROUP BY Hour, Metric, Scorer, ServiceName, Pipeline, Variant;
