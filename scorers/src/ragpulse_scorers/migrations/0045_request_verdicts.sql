-- Each request's hallucination verdict from the best judge that scored it (support over any other LLM judge over
-- lexical, the newest verdict of that judge), one counted row per request: the alert rules and the built-in
-- alert job sum Sign over a week of these narrow rows instead of grouping every hallucination score of the week
-- by request (what took the 7-day support-drop rule past a second at a million requests).
-- JudgeRank is the judge's rank in the top byte and the microsecond it judged below, as the rules compare them.
-- When a write brings a verdict that outranks the one counted, the view writes the counted row again with
-- Sign = -1 beside the new one with Sign = 1; a verdict that does not outrank it (a lexical re-score after
-- the support judge, a retried write) changes nothing. Readers sum Sign, so each request counts once before
-- parts merge as after. Error rows and rows without a value are no verdict, as every reader leaves them out.
-- Stop scorers while this migrates: a request scored between the view's creation and the copy below keeps
-- only what the view saw.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_request_verdicts (
    RequestTime DateTime64(9) CODEC(Delta, ZSTD(1)),
    TraceKey UInt64 CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Judge LowCardinality(String) CODEC(ZSTD(1)),
    JudgeRank UInt64 CODEC(ZSTD(1)),
    Hallucinated UInt8 CODEC(ZSTD(1)),
    Sign Int8 CODEC(ZSTD(1))
) ENGINE = CollapsingMergeTree(Sign)
PARTITION BY toDate(RequestTime)
ORDER BY (toStartOfHour(RequestTime), ServiceName, Variant, TraceKey, SpanId, RequestTime, JudgeRank)
TTL toDateTime(RequestTime) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

-- In a view, ragpulse_scores stands for the rows being written (every mention of it, the IN subquery's too).
-- `written`: the best verdict per request in this write; `counted`: the row counted now for those requests,
-- read by the hour of the request (the sorting key's first part).
CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_request_verdicts_mv
TO ${db}.ragpulse_request_verdicts
AS SELECT RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, JudgeRank, Hallucinated, Sign
FROM (
    SELECT written.RequestTime AS RequestTime, written.TraceKey AS TraceKey, written.SpanId AS SpanId,
           written.ServiceName AS ServiceName, written.Pipeline AS Pipeline, written.Variant AS Variant,
           written.Judge AS Judge, written.JudgeRank AS JudgeRank, written.Hallucinated AS Hallucinated,
           toInt8(1) AS Sign
    FROM (
        SELECT RequestTime, cityHash64(TraceId) AS TraceKey, SpanId, any(ServiceName) AS ServiceName,
               any(Pipeline) AS Pipeline, any(Variant) AS Variant, argMax(Scorer, rank) AS Judge,
               max(rank) AS JudgeRank, toUInt8(argMax(Value, rank) >= 0.5) AS Hallucinated
        FROM (
            SELECT RequestTime, TraceId, SpanId, ServiceName, Pipeline, Variant, Scorer, Value,
                   bitShiftLeft(toUInt64(multiIf(Scorer = 'support', 2, Scorer != 'lexical', 1, 0)), 56)
                   + toUInt64(toUnixTimestamp64Micro(ScoredAt)) AS rank
            FROM ${db}.ragpulse_scores
            WHERE Metric = 'hallucination' AND Error = '' AND Value IS NOT NULL
        )
        GROUP BY TraceKey, SpanId, RequestTime
    ) AS written
    LEFT JOIN (
        SELECT TraceKey, SpanId, RequestTime, JudgeRank
        FROM ${db}.ragpulse_request_verdicts
        WHERE (toStartOfHour(RequestTime), TraceKey, SpanId, RequestTime)
              IN (SELECT toStartOfHour(RequestTime), cityHash64(TraceId), SpanId, RequestTime
                  FROM ${db}.ragpulse_scores)
        GROUP BY TraceKey, SpanId, RequestTime, JudgeRank
        HAVING sum(Sign) > 0
    ) AS counted
    ON written.TraceKey = counted.TraceKey AND written.SpanId = counted.SpanId
       AND written.RequestTime = counted.RequestTime
    WHERE written.JudgeRank > ifNull(counted.JudgeRank, 0)
    UNION ALL
    SELECT RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, JudgeRank, Hallucinated,
           toInt8(-1) AS Sign
    FROM (
        SELECT RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, JudgeRank, Hallucinated
        FROM ${db}.ragpulse_request_verdicts
        WHERE (toStartOfHour(RequestTime), TraceKey, SpanId, RequestTime)
              IN (SELECT toStartOfHour(RequestTime), cityHash64(TraceId), SpanId, RequestTime
                  FROM ${db}.ragpulse_scores)
        GROUP BY RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, JudgeRank, Hallucinated
        HAVING sum(Sign) > 0
    ) AS counted
    INNER JOIN (
        SELECT RequestTime, cityHash64(TraceId) AS TraceKey, SpanId,
               max(bitShiftLeft(toUInt64(multiIf(Scorer = 'support', 2, Scorer != 'lexical', 1, 0)), 56)
                   + toUInt64(toUnixTimestamp64Micro(ScoredAt))) AS WrittenRank
        FROM ${db}.ragpulse_scores
        WHERE Metric = 'hallucination' AND Error = '' AND Value IS NOT NULL
        GROUP BY TraceKey, SpanId, RequestTime
    ) AS written
    ON written.TraceKey = counted.TraceKey AND written.SpanId = counted.SpanId
       AND written.RequestTime = counted.RequestTime
    WHERE written.WrittenRank > counted.JudgeRank
);

-- The verdicts already stored: each request's best judge's newest verdict, as the view would have counted it.
-- Requests the view has counted since it was created are left out, so running this again adds nothing twice.
INSERT INTO ${db}.ragpulse_request_verdicts
SELECT RequestTime, TraceKey, SpanId, any(ServiceName) AS ServiceName, any(Pipeline) AS Pipeline,
       any(Variant) AS Variant, argMax(Scorer, rank) AS Judge, max(rank) AS JudgeRank,
       toUInt8(argMax(Value, rank) >= 0.5) AS Hallucinated, toInt8(1) AS Sign
FROM (
    SELECT RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Value,
           bitShiftLeft(toUInt64(multiIf(Scorer = 'support', 2, Scorer != 'lexical', 1, 0)), 56)
           + toUInt64(toUnixTimestamp64Micro(ScoredAt)) AS rank
    FROM ${db}.ragpulse_scores
    WHERE Metric = 'hallucination' AND Error = '' AND Value IS NOT NULL
      AND (TraceKey, SpanId, RequestTime)
          NOT IN (SELECT TraceKey, SpanId, RequestTime FROM ${db}.ragpulse_request_verdicts)
)
GROUP BY TraceKey, SpanId, RequestTime;
