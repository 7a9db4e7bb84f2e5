-- Directed sampling (see 0062): means of non-binary metrics are weighted like rates, Σw·v / Σw, and their Welch
-- intervals need the weighted spread, Σw·v², beside the weighted sum. Hours summed before this version hold
-- only weight-1 rows (or, before 0062, read as such): their Σw·v² is their Σv².
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
