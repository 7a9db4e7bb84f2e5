-- Directed sampling: an LLM judge's score row records the chance its request had of being judged
-- (InclusionProbability, 1 for every row written before and for every free scorer), so rates over judged
-- requests can weigh each by 1 / that chance and stay unbiased (Hájek). The tables the panels read carry the
-- weight (Weight in ragpulse_score_values) and the weighted sums beside the counts (ragpulse_score_hours);
-- rows stored before this version read as weight 1, so every figure over them is what it was.
ALTER TABLE ${db}.ragpulse_scores
    ADD COLUMN IF NOT EXISTS InclusionProbability Float64 DEFAULT 1 CODEC(ZSTD(1));

ALTER TABLE ${db}.ragpulse_score_values
    ADD COLUMN IF NOT EXISTS Weight Float64 DEFAULT 1 CODEC(ZSTD(1));

-- Σw, Σw·[v ≥ 0.5], Σw·v, Σw², Σw²·[v ≥ 0.5]: the Hájek rate and its effective sample size (stats.WeightedCount),
-- and the weighted mean. Hours summed before this version hold only weight-1 rows: their defaults are the counts.
ALTER TABLE ${db}.ragpulse_score_hours
    ADD COLUMN IF NOT EXISTS Weights Float64 DEFAULT toFloat64(Scores) CODEC(ZSTD(1)),
    ADD COLUMN IF NOT EXISTS WeightedPositives Float64 DEFAULT toFloat64(Positives) CODEC(ZSTD(1)),
    ADD COLUMN IF NOT EXISTS WeightedValueSum Float64 DEFAULT ValueSum CODEC(ZSTD(1)),
    ADD COLUMN IF NOT EXISTS SquaredWeights Float64 DEFAULT toFloat64(Scores) CODEC(ZSTD(1)),
    ADD COLUMN IF NOT EXISTS SquaredWeightedPositives Float64 DEFAULT toFloat64(Positives) CODEC(ZSTD(1));

-- The views are replaced to carry the weight: scores written while this runs reach neither (stop scorers).
DROP VIEW IF EXISTS ${db}.ragpulse_score_values_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_score_values_mv
TO ${db}.ragpulse_score_values
AS SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value, Failed,
          Head, CostUSD, InputTokens, OutputTokens, Sign, Weight
FROM (
    SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value,
           Failed, toUInt8(row_number() OVER (PARTITION BY TraceKey, SpanId, RequestTime, Scorer ORDER BY Metric) = 1) AS Head,
           CostUSD, InputTokens, OutputTokens, toInt8(1) AS Sign, Weight
    FROM (
        SELECT RequestTime, ScoredAt, cityHash64(TraceId) AS TraceKey, SpanId, ServiceName, Pipeline, Variant,
               Scorer, Metric, Value, toUInt8(Error != '') AS Failed, CostUSD, InputTokens, OutputTokens,
               1 / InclusionProbability AS Weight
        FROM ${db}.ragpulse_scores
        ORDER BY ScoredAt DESC
        LIMIT 1 BY TraceKey, SpanId, RequestTime, Scorer, Metric
    )
    UNION ALL
    SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value,
           Failed, Head, CostUSD, InputTokens, OutputTokens, toInt8(-1) AS Sign, Weight
    FROM (
        SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value,
               Failed, Head, CostUSD, InputTokens, OutputTokens, Weight, sum(Sign) AS counted
        FROM ${db}.ragpulse_score_values
        WHERE (toStartOfHour(RequestTime), TraceKey, SpanId, RequestTime, Scorer)
              IN (SELECT toStartOfHour(RequestTime), cityHash64(TraceId), SpanId, RequestTime, Scorer
                  FROM ${db}.ragpulse_scores)
        GROUP BY RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value,
                 Failed, Head, CostUSD, InputTokens, OutputTokens, Weight
    )
    WHERE counted > 0
);

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
    sumIf(Sign * Weight * Weight, Value >= 0.5) AS SquaredWeightedPositives
FROM ${db}.ragpulse_score_values
WHERE Failed = 0 AND Value IS NOT NULL
GROUP BY Hour, Metric, Scorer, ServiceName, Pipeline, Variant;
