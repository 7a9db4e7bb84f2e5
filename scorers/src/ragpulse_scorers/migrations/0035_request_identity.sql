-- A request is (TraceId, SpanId of its root span, its start time to the microsecond). The ids alone are not
-- enough: a service that seeds `random` (OpenTelemetry's default id generator draws from it), or several
-- replicas seeded alike, reuse the ids of earlier requests. A retried export repeats a request's ids *and* its
-- start time and still collapses into one row; a request that reuses ids starts at another time and is a new
-- request, kept, scored and counted apart. Microseconds, not nanoseconds: score and log rows carry the request
-- time as Python wrote it, and an assembled row's Timestamp went through Python too.
-- Each sorting key that names a request gains its start time, so the ReplacingMergeTrees no longer merge two
-- requests that share ids in the same second (requests) or hour (scores, verdicts). Score and log rows already
-- carry RequestTime: nothing is recomputed and no score is lost.
-- The requests also gain Failure: the exception type of a root span whose status is Error (the decorated
-- function raised). Such a request without an answer is unscorable as 'request_failed' instead of
-- 'no_answer'; one that recorded its answer before failing is judged as before.
-- Tables are rebuilt the way 0024 rebuilt them: build beside, copy, swap atomically, drop the old; each step
-- can run again after a crash. The views are dropped first and created again last: stop the collector and
-- the scorers while this runs.
DROP VIEW IF EXISTS ${db}.ragpulse_requests_mv;

DROP TABLE IF EXISTS ${db}.ragpulse_requests_0035;

CREATE TABLE ${db}.ragpulse_requests_0035 (
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Question String CODEC(ZSTD(1)),
    Answer String CODEC(ZSTD(1)),
    Context String CODEC(ZSTD(1)),
    Variations String CODEC(ZSTD(1)),
    Retrievals String CODEC(ZSTD(1)),
    Reference String CODEC(ZSTD(1)),
    SessionId String CODEC(ZSTD(1)),
    UserId String CODEC(ZSTD(1)),
    DurationMs Float64 CODEC(ZSTD(1)),
    StatusCode LowCardinality(String) CODEC(ZSTD(1)),
    SampleKey UInt64 CODEC(ZSTD(1)),
    Source LowCardinality(String) DEFAULT 'ragpulse' CODEC(ZSTD(1)),
    Model LowCardinality(String) DEFAULT '' CODEC(ZSTD(1)),
    InputTokens UInt32 DEFAULT 0 CODEC(ZSTD(1)),
    OutputTokens UInt32 DEFAULT 0 CODEC(ZSTD(1)),
    ContextSource LowCardinality(String)
        DEFAULT if(Context NOT IN ('', '[]'), 'ragpulse', '') CODEC(ZSTD(1)),
    Failure LowCardinality(String) DEFAULT '' CODEC(ZSTD(1)),
    Unscorable LowCardinality(String)
        DEFAULT multiIf(StatusCode = 'Error' AND Answer = '', 'request_failed',
                        Question = '' AND Answer = '' AND Context IN ('', '[]'), 'no_content',
                        Answer = '', 'no_answer',
                        Context IN ('', '[]'), 'no_context',
                        Question = '', 'no_question',
                        '') CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1
) ENGINE = ReplacingMergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (ServiceName, Pipeline, Variant, toDateTime(Timestamp), TraceId, SpanId, toUnixTimestamp64Micro(Timestamp))
TTL toDateTime(Timestamp) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 10000;

-- Rows stored before this version keep their code, except a failed request taken for one without an answer.
INSERT INTO ${db}.ragpulse_requests_0035 (
    TraceId, SpanId, Timestamp, ServiceName, Pipeline, Variant, Question, Answer, Context, Variations, Retrievals,
    Reference, SessionId, UserId, DurationMs, StatusCode, SampleKey, Source, Model, InputTokens, OutputTokens,
    ContextSource, Unscorable
)
SELECT
    TraceId, SpanId, Timestamp, ServiceName, Pipeline, Variant, Question, Answer, Context, Variations, Retrievals,
    Reference, SessionId, UserId, DurationMs, StatusCode, SampleKey, Source, Model, InputTokens, OutputTokens,
    ContextSource,
    if(StatusCode = 'Error' AND Unscorable IN ('no_answer', 'no_content'), 'request_failed', Unscorable)
FROM ${db}.ragpulse_requests;

EXCHANGE TABLES ${db}.ragpulse_requests AND ${db}.ragpulse_requests_0035;

DROP TABLE IF EXISTS ${db}.ragpulse_requests_0035;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_requests_mv
TO ${db}.ragpulse_requests
AS SELECT
    TraceId,
    SpanId,
    Timestamp,
    ServiceName,
    SpanAttributes['ragpulse.pipeline'] AS Pipeline,
    SpanAttributes['ragpulse.variant'] AS Variant,
    SpanAttributes['input.value'] AS Question,
    SpanAttributes['output.value'] AS Answer,
    SpanAttributes['ragpulse.context'] AS Context,
    SpanAttributes['ragpulse.variations'] AS Variations,
    SpanAttributes['ragpulse.retrievals'] AS Retrievals,
    SpanAttributes['ragpulse.reference'] AS Reference,
    SpanAttributes['session.id'] AS SessionId,
    SpanAttributes['user.id'] AS UserId,
    Duration / 1e6 AS DurationMs,
    StatusCode,
    cityHash64(TraceId) AS SampleKey,
    if(StatusCode != 'Error', '',
       if(has(Events.Name, 'exception'),
          Events.Attributes[indexOf(Events.Name, 'exception')]['exception.type'],
          splitByString(':', StatusMessage)[1])) AS Failure
FROM ${db}.otel_traces
WHERE SpanAttributes['ragpulse.kind'] = 'rag';

DROP VIEW IF EXISTS ${db}.ragpulse_trace_verdicts_mv;

DROP TABLE IF EXISTS ${db}.ragpulse_scores_0035;

CREATE TABLE ${db}.ragpulse_scores_0035 (
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    RequestTime DateTime64(9) CODEC(Delta, ZSTD(1)),
    ScoredAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    ScorerVersion LowCardinality(String) CODEC(ZSTD(1)),
    Metric LowCardinality(String) CODEC(ZSTD(1)),
    Value Nullable(Float64) CODEC(ZSTD(1)),
    Label LowCardinality(String) CODEC(ZSTD(1)),
    Explanation String CODEC(ZSTD(1)),
    Details String CODEC(ZSTD(1)),
    JudgeModel LowCardinality(String) CODEC(ZSTD(1)),
    InputTokens UInt32 CODEC(ZSTD(1)),
    OutputTokens UInt32 CODEC(ZSTD(1)),
    CostUSD Float64 CODEC(ZSTD(1)),
    LatencyMs Float64 CODEC(ZSTD(1)),
    Error String CODEC(ZSTD(1)),
    TraceKey UInt64 MATERIALIZED cityHash64(TraceId) CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1
) ENGINE = ReplacingMergeTree(ScoredAt)
PARTITION BY toDate(RequestTime)
ORDER BY (toStartOfHour(RequestTime), Metric, Scorer, ServiceName, Variant, TraceId, SpanId,
          toUnixTimestamp64Micro(RequestTime))
TTL toDateTime(RequestTime) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 10000;

INSERT INTO ${db}.ragpulse_scores_0035 (
    TraceId, SpanId, RequestTime, ScoredAt, ServiceName, Pipeline, Variant, Scorer, ScorerVersion, Metric, Value,
    Label, Explanation, Details, JudgeModel, InputTokens, OutputTokens, CostUSD, LatencyMs, Error
)
SELECT
    TraceId, SpanId, RequestTime, ScoredAt, ServiceName, Pipeline, Variant, Scorer, ScorerVersion, Metric, Value,
    Label, Explanation, Details, JudgeModel, InputTokens, OutputTokens, CostUSD, LatencyMs, Error
FROM ${db}.ragpulse_scores;

EXCHANGE TABLES ${db}.ragpulse_scores AND ${db}.ragpulse_scores_0035;

DROP TABLE IF EXISTS ${db}.ragpulse_scores_0035;

DROP TABLE IF EXISTS ${db}.ragpulse_trace_verdicts_0035;

CREATE TABLE ${db}.ragpulse_trace_verdicts_0035 (
    RequestTime DateTime64(9) CODEC(Delta, ZSTD(1)),
    ScoredAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    TraceKey UInt64 CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    Hallucination Nullable(Float64) CODEC(ZSTD(1)),
    Support Nullable(Float64) CODEC(ZSTD(1)),
    Unsupported Nullable(Float64) CODEC(ZSTD(1)),
    HasHallucination UInt8 CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree(ScoredAt)
PARTITION BY toDate(RequestTime)
ORDER BY (toStartOfHour(RequestTime), Scorer, TraceKey, SpanId, toUnixTimestamp64Micro(RequestTime))
TTL toDateTime(RequestTime) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 10000;

INSERT INTO ${db}.ragpulse_trace_verdicts_0035 (
    RequestTime, ScoredAt, TraceId, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Hallucination,
    Support, Unsupported, HasHallucination
)
SELECT
    RequestTime, ScoredAt, TraceId, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Hallucination,
    Support, Unsupported, HasHallucination
FROM ${db}.ragpulse_trace_verdicts;

EXCHANGE TABLES ${db}.ragpulse_trace_verdicts AND ${db}.ragpulse_trace_verdicts_0035;

DROP TABLE IF EXISTS ${db}.ragpulse_trace_verdicts_0035;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_trace_verdicts_mv
TO ${db}.ragpulse_trace_verdicts
AS SELECT
    RequestTime,
    max(ScoredAt) AS ScoredAt,
    TraceId,
    cityHash64(TraceId) AS TraceKey,
    SpanId,
    any(ServiceName) AS ServiceName,
    any(Pipeline) AS Pipeline,
    any(Variant) AS Variant,
    Scorer,
    maxIf(Value, Metric = 'hallucination') AS Hallucination,
    minIf(Value, Metric IN ('support', 'adherence')) AS Support,
    maxIf(Value, Metric = 'unsupported_sentences') AS Unsupported,
    toUInt8(countIf(Metric = 'hallucination') > 0) AS HasHallucination
FROM ${db}.ragpulse_scores
WHERE Error = '' AND Metric IN ('hallucination', 'support', 'adherence', 'unsupported_sentences')
GROUP BY TraceId, SpanId, RequestTime, Scorer;
