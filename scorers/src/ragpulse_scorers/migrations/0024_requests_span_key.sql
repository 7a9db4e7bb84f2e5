-- A request is (TraceId, SpanId of its root span): a trace may hold several (a web request or batch job that
-- calls the decorated function twice, a chat session traced as one trace), and with the trace alone in the
-- sorting key two requests of one trace in the same second collapsed into one row. The table is rebuilt the
-- way 0010 rebuilt the scores: build beside, copy, swap atomically, drop the old. The materialized view writes
-- by table name, so after the swap it fills the new table; rows it wrote into the old one between the copy and
-- the swap are copied after the swap. Each step can run again after a crash (a half-filled copy is dropped
-- first; after the swap the copy is made from the already-moved table). Stop scorers while this runs.
DROP TABLE IF EXISTS ${db}.ragpulse_requests_0024;

CREATE TABLE ${db}.ragpulse_requests_0024 (
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
    Unscorable LowCardinality(String)
        DEFAULT multiIf(Question = '' AND Answer = '' AND Context IN ('', '[]'), 'no_content',
                        Answer = '', 'no_answer',
                        Context IN ('', '[]'), 'no_context',
                        Question = '', 'no_question',
                        '') CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1
) ENGINE = ReplacingMergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (ServiceName, Pipeline, Variant, toDateTime(Timestamp), TraceId, SpanId)
TTL toDateTime(Timestamp) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 10000;

INSERT INTO ${db}.ragpulse_requests_0024 (
    TraceId, SpanId, Timestamp, ServiceName, Pipeline, Variant, Question, Answer, Context, Variations, Retrievals,
    Reference, SessionId, UserId, DurationMs, StatusCode, SampleKey, Source, Model, InputTokens, OutputTokens,
    ContextSource, Unscorable
)
SELECT
    TraceId, SpanId, Timestamp, ServiceName, Pipeline, Variant, Question, Answer, Context, Variations, Retrievals,
    Reference, SessionId, UserId, DurationMs, StatusCode, SampleKey, Source, Model, InputTokens, OutputTokens,
    ContextSource, Unscorable
FROM ${db}.ragpulse_requests;

EXCHANGE TABLES ${db}.ragpulse_requests AND ${db}.ragpulse_requests_0024;

-- What the view wrote into the old table between the copy and the swap.
INSERT INTO ${db}.ragpulse_requests (
    TraceId, SpanId, Timestamp, ServiceName, Pipeline, Variant, Question, Answer, Context, Variations, Retrievals,
    Reference, SessionId, UserId, DurationMs, StatusCode, SampleKey, Source, Model, InputTokens, OutputTokens,
    ContextSource, Unscorable
)
SELECT
    TraceId, SpanId, Timestamp, ServiceName, Pipeline, Variant, Question, Answer, Context, Variations, Retrievals,
    Reference, SessionId, UserId, DurationMs, StatusCode, SampleKey, Source, Model, InputTokens, OutputTokens,
    ContextSource, Unscorable
FROM ${db}.ragpulse_requests_0024
WHERE (TraceId, SpanId, Source) NOT IN (SELECT TraceId, SpanId, Source FROM ${db}.ragpulse_requests);

DROP TABLE IF EXISTS ${db}.ragpulse_requests_0024;
