-- The online agreement between the free judge and each LLM judge, one counted row per request both judged: the
-- free judge's verdict and the LLM judge's (the newest of each, as ragpulse_trace_verdicts FINAL gives them),
-- with the LLM judge's weight (1 / its inclusion probability). The agreement panel sums a month of these narrow
-- rows instead of joining a month of verdicts FINAL (375-397 ms at a million requests).
-- A write that brings a newer verdict for either side writes the counted pair again with Sign = -1 beside the
-- new pair; readers sum Sign, so each request counts once before parts merge as after. The free judge is
-- 'lexical', as the panel names it.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_judge_pairs (
    RequestTime DateTime64(9) CODEC(Delta, ZSTD(1)),
    TraceKey UInt64 CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Judge LowCardinality(String) CODEC(ZSTD(1)),
    FreeScoredAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    JudgeScoredAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    FreeHallucinated UInt8 CODEC(ZSTD(1)),
    JudgeHallucinated UInt8 CODEC(ZSTD(1)),
    Weight Float64 CODEC(ZSTD(1)),
    Sign Int8 CODEC(ZSTD(1))
) ENGINE = CollapsingMergeTree(Sign)
PARTITION BY toDate(RequestTime)
ORDER BY (toStartOfHour(RequestTime), ServiceName, Variant, Judge, TraceKey, SpanId, RequestTime, FreeScoredAt,
          JudgeScoredAt)
TTL toDateTime(RequestTime) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

-- In a view, ragpulse_scores stands for the rows being written (every mention of it); ClickHouse takes the first
-- table the query reads for the view's source, so this write's own verdicts come first in `verdicts`.
-- `verdicts`: the newest verdict per (judge, request) of the requests this write touches, from this write's own
-- and the stored ones (the verdict view may run before or after this one); `pairs`: the free judge's paired with
-- each LLM judge's; `counted`: the pairs counted now for those requests. A pair not counted yet is written, a
-- counted one no longer paired is cancelled.
CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_judge_pairs_mv
TO ${db}.ragpulse_judge_pairs
AS WITH
    touched AS (
        SELECT DISTINCT toStartOfHour(RequestTime) AS Hour, cityHash64(TraceId) AS TraceKey
        FROM ${db}.ragpulse_scores
    ),
    verdicts AS (
        SELECT Scorer AS Judge, TraceKey AS Trace, SpanId AS Span, RequestTime AS Requested,
               argMax(ServiceName, ScoredAt) AS Service, argMax(Pipeline, ScoredAt) AS Line,
               argMax(Variant, ScoredAt) AS Arm, max(ScoredAt) AS Newest,
               argMax(Hallucination, ScoredAt) AS Verdict,
               argMax(HasHallucination, ScoredAt) AS Judged,
               argMax(InclusionProbability, ScoredAt) AS Chance
        FROM (
            SELECT Scorer, cityHash64(TraceId) AS TraceKey, SpanId,
                   RequestTime, any(ServiceName) AS ServiceName, any(Pipeline) AS Pipeline,
                   any(Variant) AS Variant, max(ScoredAt) AS ScoredAt,
                   maxIf(Value, Metric = 'hallucination') AS Hallucination,
                   toUInt8(countIf(Metric = 'hallucination') > 0) AS HasHallucination,
                   max(InclusionProbability) AS InclusionProbability
            FROM ${db}.ragpulse_scores
            WHERE Error = '' AND Metric IN ('hallucination', 'support', 'adherence', 'unsupported_sentences')
            GROUP BY TraceId, SpanId, RequestTime, Scorer
            UNION ALL
            SELECT Scorer, TraceKey, SpanId, RequestTime, ServiceName,
                   Pipeline, Variant, ScoredAt, Hallucination, HasHallucination, InclusionProbability
            FROM ${db}.ragpulse_trace_verdicts
            WHERE (toStartOfHour(RequestTime), TraceKey) IN (SELECT Hour, TraceKey FROM touched)
        )
        GROUP BY Scorer, TraceKey, SpanId, RequestTime
        -- A stored verdict's Hallucination is Nullable: a verdict without its value pairs with nothing.
        HAVING Judged = 1 AND Verdict IS NOT NULL
    ),
    pairs AS (
        SELECT free.Requested AS RequestTime, free.Trace AS TraceKey, free.Span AS SpanId,
               free.Service AS ServiceName, free.Line AS Pipeline, free.Arm AS Variant,
               llm.Judge AS Judge, free.Newest AS FreeScoredAt, llm.Newest AS JudgeScoredAt,
               toUInt8(free.Verdict >= 0.5) AS FreeHallucinated,
               toUInt8(llm.Verdict >= 0.5) AS JudgeHallucinated,
               1 / llm.Chance AS Weight
        FROM (SELECT * FROM verdicts WHERE Judge = 'lexical') AS free
        INNER JOIN (SELECT * FROM verdicts WHERE Judge != 'lexical') AS llm
        ON free.Trace = llm.Trace AND free.Span = llm.Span AND free.Requested = llm.Requested
    ),
    counted AS (
        SELECT RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, FreeScoredAt, JudgeScoredAt,
               FreeHallucinated, JudgeHallucinated, Weight
        FROM ${db}.ragpulse_judge_pairs
        WHERE (toStartOfHour(RequestTime), TraceKey) IN (SELECT Hour, TraceKey FROM touched)
        GROUP BY RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, FreeScoredAt,
                 JudgeScoredAt, FreeHallucinated, JudgeHallucinated, Weight
        HAVING sum(Sign) > 0
    )
SELECT RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, FreeScoredAt, JudgeScoredAt,
       FreeHallucinated, JudgeHallucinated, Weight, toInt8(sum(Change)) AS Sign
FROM (
    SELECT *, 1 AS Change FROM pairs
    UNION ALL
    SELECT *, -1 AS Change FROM counted
)
GROUP BY RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, FreeScoredAt, JudgeScoredAt,
         FreeHallucinated, JudgeHallucinated, Weight
HAVING Sign != 0;

-- The pairs already stored, as the view would have counted them; requests it has counted since it was created are
-- left out, so running this again adds nothing twice.
INSERT INTO ${db}.ragpulse_judge_pairs
SELECT free.RequestTime, free.TraceKey, free.SpanId, free.ServiceName, free.Pipeline, free.Variant, llm.Scorer,
       free.ScoredAt, llm.ScoredAt, toUInt8(free.Hallucination >= 0.5), toUInt8(llm.Hallucination >= 0.5),
       1 / llm.InclusionProbability, toInt8(1)
FROM (
    SELECT * FROM ${db}.ragpulse_trace_verdicts FINAL
    WHERE Scorer = 'lexical' AND HasHallucination = 1 AND Hallucination IS NOT NULL
      AND TraceKey NOT IN (SELECT TraceKey FROM ${db}.ragpulse_judge_pairs)
) AS free
INNER JOIN (
    SELECT * FROM ${db}.ragpulse_trace_verdicts FINAL
    WHERE Scorer != 'lexical' AND HasHallucination = 1 AND Hallucination IS NOT NULL
) AS llm
ON free.TraceKey = llm.TraceKey AND free.SpanId = llm.SpanId AND free.RequestTime = llm.RequestTime;
