-- Where a change sits: each judged request's verdict beside everything it can be sliced by, and hourly sums
-- per slice, so "which model version, document, topic or customer tier carries the rise" reads a few thousand
-- narrow rows instead of joining a month of requests, spans and verdicts.
--
-- The prompt template a request was built from (learnt from traffic by assembly; '' when not learnt). The
-- learnt-templates work adds the same column with the same statement, so either may run first.
ALTER TABLE ${db}.ragpulse_requests ADD COLUMN IF NOT EXISTS TemplateVersion LowCardinality(String) DEFAULT '';

-- One counted row per judged request (Sign = 1), written by the root-cause job (ragpulse_dashboards.rootcause)
-- from ragpulse_request_verdicts, the request row, its spans and its question's topic. When a better judge's
-- verdict replaces the counted one, the job writes the counted row again with Sign = -1 beside the new one, as
-- ragpulse_request_verdicts does: readers sum Sign and each request counts once before parts merge as after.
-- ModelVersion is the model the provider reports having run (gen_ai.response.model) when it differs from the
-- one asked for; Attributes holds the span or resource attributes the team names ([rootcause] attributes).
-- Topic 0: no topic (no topic model yet, or a question like none of the topics).
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_request_facts (
    RequestTime DateTime64(9) CODEC(Delta, ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    TraceKey UInt64 CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    SessionId String CODEC(ZSTD(1)),
    Judge LowCardinality(String) CODEC(ZSTD(1)),
    JudgeRank UInt64 CODEC(ZSTD(1)),
    Hallucinated UInt8 CODEC(ZSTD(1)),
    Weight Float64 CODEC(ZSTD(1)),
    Model LowCardinality(String) CODEC(ZSTD(1)),
    ModelVersion LowCardinality(String) CODEC(ZSTD(1)),
    TemplateVersion LowCardinality(String) CODEC(ZSTD(1)),
    Topic UInt32 CODEC(ZSTD(1)),
    Documents Array(String) CODEC(ZSTD(1)),
    Sources Array(LowCardinality(String)) CODEC(ZSTD(1)),
    Attributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    Sign Int8 CODEC(ZSTD(1))
) ENGINE = CollapsingMergeTree(Sign)
PARTITION BY toDate(RequestTime)
ORDER BY (toStartOfHour(RequestTime), ServiceName, Variant, TraceKey, SpanId, RequestTime)
TTL toDateTime(RequestTime) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

-- Judged and hallucinated requests per hour, service, pipeline, variant and slice (Dimension, Value), with the
-- weighted sums of directed sampling (Σw, Σw·y, Σw², Σw²·y). Dimension '' is the whole service, pipeline and
-- variant. A request with several documents or sources counts once in each of them.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_slice_hours (
    Hour DateTime CODEC(Delta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Dimension LowCardinality(String) CODEC(ZSTD(1)),
    Value String CODEC(ZSTD(1)),
    Judged Int64 CODEC(ZSTD(1)),
    Hallucinated Int64 CODEC(ZSTD(1)),
    Weights Float64 CODEC(ZSTD(1)),
    WeightedHallucinated Float64 CODEC(ZSTD(1)),
    SquaredWeights Float64 CODEC(ZSTD(1)),
    SquaredWeightedHallucinated Float64 CODEC(ZSTD(1))
) ENGINE = SummingMergeTree()
PARTITION BY toDate(Hour)
ORDER BY (Hour, ServiceName, Pipeline, Variant, Dimension, Value)
TTL Hour + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_slice_hours_mv
TO ${db}.ragpulse_slice_hours
AS SELECT toStartOfHour(RequestTime) AS Hour, ServiceName, Pipeline, Variant, slice.1 AS Dimension,
          slice.2 AS Value,
          sum(Sign) AS Judged, sum(Sign * y) AS Hallucinated, sum(Sign * w) AS Weights,
          sum(Sign * w * y) AS WeightedHallucinated, sum(Sign * w * w) AS SquaredWeights,
          sum(Sign * w * w * y) AS SquaredWeightedHallucinated
FROM (
    SELECT RequestTime, ServiceName, Pipeline, Variant, Sign, Hallucinated AS y, Weight AS w,
           arrayFilter(pair -> pair.1 = '' OR pair.2 != '', arrayConcat(
               [('', ''), ('pipeline', toString(Pipeline)), ('model', toString(Model)),
                ('model version', toString(ModelVersion)), ('template version', toString(TemplateVersion)),
                ('topic', toString(Topic))],
               arrayMap(document -> ('document', document), arrayDistinct(Documents)),
               arrayMap(source -> ('source', toString(source)), arrayDistinct(Sources)),
               arrayMap((name, value) -> (toString(name), value), mapKeys(Attributes), mapValues(Attributes))
           )) AS slices
    FROM ${db}.ragpulse_request_facts
)
ARRAY JOIN slices AS slice
GROUP BY Hour, ServiceName, Pipeline, Variant, Dimension, Value;

-- Question topics, learnt without a model from the questions' words (ragpulse_dashboards.rootcause.topics):
-- one row per topic of each fitted topic model, named by its top words. Terms and Weights are the topic's
-- centroid (its heaviest terms), Questions the distinct questions of the fit in it. The topic-0 row of each model
-- holds the terms a question is weighed by (Vocabulary, Idf) and every distinct question the fit read. A refit
-- keeps the ids of the topics it finds again.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_topics (
    ModelVersion DateTime64(6) CODEC(Delta, ZSTD(1)),
    Topic UInt32 CODEC(ZSTD(1)),
    Name String CODEC(ZSTD(1)),
    Terms Array(String) CODEC(ZSTD(1)),
    Weights Array(Float32) CODEC(ZSTD(1)),
    Questions UInt64 CODEC(ZSTD(1)),
    Vocabulary Array(String) CODEC(ZSTD(1)),
    Idf Array(Float32) CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree()
ORDER BY (ModelVersion, Topic)
SETTINGS index_granularity = 8192;

-- Each distinct question's topic under a topic model (QuestionKey = cityHash64(Question)): assigned once per
-- question and model, so a question asked a million times is read once.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_question_topics (
    ModelVersion DateTime64(6) CODEC(Delta, ZSTD(1)),
    QuestionKey UInt64 CODEC(ZSTD(1)),
    Topic UInt32 CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree()
ORDER BY (ModelVersion, QuestionKey)
SETTINGS index_granularity = 8192;
