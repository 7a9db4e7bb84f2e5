-- "Worst requests first" (the request explorer and the report) takes the 200 worst verdicts of a window. It read
-- a month of ragpulse_trace_verdicts FINAL and sorted it (0.3-1 s at a million requests). Now a reader takes the
-- first rows of ragpulse_worst_verdicts, which holds each request's counted verdict sorted worst first: the most
-- hallucinated, then the lowest support (a missing or NaN value last), then the newest request. ClickHouse reads
-- each part's first granules in that order and stops.
-- A re-score replaces the counted verdict: ragpulse_counted_verdicts (by hour and trace, where a write finds its
-- requests' counted verdicts) writes the replaced verdict again with Sign = -1 beside the new one, as
-- ragpulse_judge_pairs does, and its rows flow on into ragpulse_worst_verdicts. There the -1 row sorts next to
-- the row it cancels; readers sum Sign, so a request counts once before parts merge as after.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_counted_verdicts (
    RequestTime DateTime64(9) CODEC(Delta, ZSTD(1)),
    ScoredAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    TraceKey UInt64 CODEC(ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    Hallucination Nullable(Float64) CODEC(ZSTD(1)),
    Support Nullable(Float64) CODEC(ZSTD(1)),
    Unsupported Nullable(Float64) CODEC(ZSTD(1)),
    HasHallucination UInt8 CODEC(ZSTD(1)),
    Sign Int8 CODEC(ZSTD(1))
) ENGINE = CollapsingMergeTree(Sign)
PARTITION BY toDate(RequestTime)
ORDER BY (toStartOfHour(RequestTime), Scorer, TraceKey, SpanId, RequestTime, ScoredAt)
TTL toDateTime(RequestTime) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS ${db}.ragpulse_worst_verdicts (
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    HallucinationOrder Float64 CODEC(ZSTD(1)),
    SupportOrder Float64 CODEC(ZSTD(1)),
    RecencyOrder Int64 CODEC(ZSTD(1)),
    RequestTime DateTime64(9) CODEC(ZSTD(1)),
    ScoredAt DateTime64(6) CODEC(ZSTD(1)),
    TraceKey UInt64 CODEC(ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Hallucination Nullable(Float64) CODEC(ZSTD(1)),
    Support Nullable(Float64) CODEC(ZSTD(1)),
    Unsupported Nullable(Float64) CODEC(ZSTD(1)),
    HasHallucination UInt8 CODEC(ZSTD(1)),
    Sign Int8 CODEC(ZSTD(1))
) ENGINE = CollapsingMergeTree(Sign)
PARTITION BY toDate(RequestTime)
ORDER BY (Scorer, HallucinationOrder, SupportOrder, RecencyOrder, TraceKey, SpanId, ScoredAt)
TTL toDateTime(RequestTime) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 1024, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_worst_verdicts_mv
TO ${db}.ragpulse_worst_verdicts
AS SELECT
    Scorer,
    if(Hallucination IS NULL OR isNaN(Hallucination), inf, -assumeNotNull(Hallucination)) AS HallucinationOrder,
    if(Support IS NULL OR isNaN(Support), inf, assumeNotNull(Support)) AS SupportOrder,
    -toUnixTimestamp64Nano(RequestTime) AS RecencyOrder,
    RequestTime, ScoredAt, TraceKey, TraceId, SpanId, ServiceName, Pipeline, Variant, Hallucination, Support,
    Unsupported, HasHallucination, Sign
FROM ${db}.ragpulse_counted_verdicts;

-- In a view, ragpulse_scores stands for the rows being written. `newest`: the newest verdict per (scorer,
-- request) of the traces this write touches, from this write's own and the stored ones (the verdict view may run
-- before or after this one); `counted`: the verdicts counted now for those traces. A newest verdict not counted
-- yet is written, a counted one no longer newest is cancelled. A verdict is one (scorer, request, ScoredAt).
CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_counted_verdicts_mv
TO ${db}.ragpulse_counted_verdicts
AS WITH
    touched AS (
        SELECT DISTINCT toStartOfHour(RequestTime) AS Hour, cityHash64(TraceId) AS Trace
        FROM ${db}.ragpulse_scores
    ),
    newest AS (
        SELECT RequestTime, max(ScoredAt) AS Newest, TraceKey, any(TraceText) AS Text, SpanId,
               argMax(ServiceName, ScoredAt) AS Service, argMax(Pipeline, ScoredAt) AS Line, argMax(Variant, ScoredAt) AS Arm, Scorer,
               argMax(Hallucination, ScoredAt) AS Verdict, argMax(Support, ScoredAt) AS Supported,
               argMax(Unsupported, ScoredAt) AS Unsupports, argMax(HasHallucination, ScoredAt) AS Judged
        FROM (
            SELECT RequestTime, max(ScoredAt) AS ScoredAt, cityHash64(TraceId) AS TraceKey, TraceId AS TraceText,
                   SpanId, any(ServiceName) AS ServiceName, any(Pipeline) AS Pipeline, any(Variant) AS Variant, Scorer,
                   maxIf(Value, Metric = 'hallucination') AS Hallucination,
                   minIf(Value, Metric IN ('support', 'adherence')) AS Support,
                   maxIf(Value, Metric = 'unsupported_sentences') AS Unsupported,
                   toUInt8(countIf(Metric = 'hallucination') > 0) AS HasHallucination
            FROM ${db}.ragpulse_scores
            WHERE Error = '' AND Metric IN ('hallucination', 'support', 'adherence', 'unsupported_sentences')
            GROUP BY TraceId, SpanId, RequestTime, Scorer
            UNION ALL
            SELECT RequestTime, ScoredAt, TraceKey, TraceId, SpanId, ServiceName, Pipeline, Variant, Scorer,
                   Hallucination, Support, Unsupported, HasHallucination
            FROM ${db}.ragpulse_trace_verdicts
            WHERE (toStartOfHour(RequestTime), TraceKey) IN (SELECT Hour, Trace FROM touched)
        )
        GROUP BY Scorer, TraceKey, SpanId, RequestTime
    ),
    counted AS (
        SELECT RequestTime, ScoredAt, TraceKey, any(TraceId) AS Text, SpanId, any(ServiceName) AS Service,
               any(Pipeline) AS Line, any(Variant) AS Arm, Scorer, any(Hallucination) AS Verdict, any(Support) AS Supported,
               any(Unsupported) AS Unsupports, any(HasHallucination) AS Judged
        FROM ${db}.ragpulse_counted_verdicts
        WHERE (toStartOfHour(RequestTime), TraceKey) IN (SELECT Hour, Trace FROM touched)
        GROUP BY Scorer, TraceKey, SpanId, RequestTime, ScoredAt
        HAVING sum(Sign) > 0
    )
SELECT RequestTime, ScoredAt, TraceKey, any(Text) AS TraceId, SpanId, any(Service) AS ServiceName,
       any(Line) AS Pipeline, any(Arm) AS Variant, Scorer, any(Verdict) AS Hallucination, any(Supported) AS Support,
       any(Unsupports) AS Unsupported, any(Judged) AS HasHallucination, toInt8(sum(Change)) AS Sign
FROM (
    SELECT RequestTime, Newest AS ScoredAt, TraceKey, Text, SpanId, Service, Line, Arm, Scorer, Verdict, Supported,
           Unsupports, Judged, 1 AS Change
    FROM newest
    UNION ALL
    SELECT RequestTime, ScoredAt, TraceKey, Text, SpanId, Service, Line, Arm, Scorer, Verdict, Supported,
           Unsupports, Judged, -1 AS Change
    FROM counted
)
GROUP BY Scorer, TraceKey, SpanId, RequestTime, ScoredAt
HAVING Sign != 0;

-- The newest verdict of every request already judged, counted once (it flows on into ragpulse_worst_verdicts);
-- requests the view has counted since it was created are left out, so running this again adds nothing twice.
INSERT INTO ${db}.ragpulse_counted_verdicts
SELECT RequestTime, ScoredAt, TraceKey, TraceId, SpanId, ServiceName, Pipeline, Variant, Scorer, Hallucination,
       Support, Unsupported, HasHallucination, toInt8(1)
FROM ${db}.ragpulse_trace_verdicts FINAL
WHERE (Scorer, TraceKey) NOT IN (SELECT Scorer, TraceKey FROM ${db}.ragpulse_counted_verdicts);
