-- Directed sampling (see 0062): means of non-binary metrics are weighted like rates, Σw·v / Σw, and their Welch
-- intervals need the weighted spread Σw·v² beside the weighted sum. Hours summed before this version read it
-- as their Σv², right for every weight-1 row (all rows before 0062, and every free scorer's); hours holding
-- directed rows are corrected below.
ALTER TABLE ${db}.ragpulse_score_hours
    ADD COLUMN IF NOT EXISTS WeightedValueSquares Float64 DEFAULT ValueSquares CODEC(ZSTD(1));

-- The view is replaced to carry it: scores written while this runs reach no hour (stop scorers).
DROP VIEW IF EXISTS ${db}.ragpulse_score_hours_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_score_hours_mv
TO ${db}.ragpulse_score_hours
AS SELECT
    toStartOfHour(RequestTime) AS Hour, Metric, Scorer, ServiceName, Pipeline, Variant,
    sum(Sign) AS Scores,
    sumIf(Sign, Value >= 0.5) AS Positives,
    sum(Sign * assumeNotNull(Value)) AS ValueSum,
    sum(Sign * assumeNotNull(Value) * assumeNotNull(Value)) AS ValueSquares,
    sumIf(Sign, Value NOT IN (0, 1)) AS NotBinary,
    sum(Sign * Weight) AS Weights,
    sumIf(Sign * Weight, Value >= 0.5) AS WeightedPositives,
    sum(Sign * Weight * assumeNotNull(Value)) AS WeightedValueSum,
    sum(Sign * Weight * Weight) AS SquaredWeights,
    sumIf(Sign * Weight * Weight, Value >= 0.5) AS SquaredWeightedPositives,
    sum(Sign * Weight * assumeNotNull(Value) * assumeNotNull(Value)) AS WeightedValueSquares
FROM ${db}.ragpulse_score_values
WHERE Failed = 0 AND Value IS NOT NULL
GROUP BY Hour, Metric, Scorer, ServiceName, Pipeline, Variant;

-- Hours summed from 0062 on may hold directed rows (weight above 1), for which Σv² is not Σw·v²: each such hour
-- gets a row adding the difference between the sum its value rows give and the sum it reads (SummingMergeTree
-- adds them up; every other column of that row is 0). Run again, the difference is 0 and nothing is added.
INSERT INTO ${db}.ragpulse_score_hours (Hour, Metric, Scorer, ServiceName, Pipeline, Variant, WeightedValueSquares)
SELECT truth.Hour, truth.Metric, truth.Scorer, truth.ServiceName, truth.Pipeline, truth.Variant,
       truth.squares - stored.squares
FROM (
    SELECT toStartOfHour(RequestTime) AS Hour, Metric, Scorer, ServiceName, Pipeline, Variant,
           sum(Sign * Weight * assumeNotNull(Value) * assumeNotNull(Value)) AS squares
    FROM ${db}.ragpulse_score_values
    WHERE Failed = 0 AND Value IS NOT NULL
    GROUP BY Hour, Metric, Scorer, ServiceName, Pipeline, Variant
    HAVING countIf(Weight != 1) > 0
) AS truth
INNER JOIN (
    SELECT Hour, Metric, Scorer, ServiceName, Pipeline, Variant, sum(WeightedValueSquares) AS squares
    FROM ${db}.ragpulse_score_hours
    GROUP BY Hour, Metric, Scorer, ServiceName, Pipeline, Variant
) AS stored
ON truth.Hour = stored.Hour AND truth.Metric = stored.Metric AND truth.Scorer = stored.Scorer
   AND truth.ServiceName = stored.ServiceName AND truth.Pipeline = stored.Pipeline
   AND truth.Variant = stored.Variant
WHERE truth.squares != stored.squares;
