-- Directed sampling (see 0062): each request's counted verdict carries the weight its rates give it, 1 / the
-- largest inclusion probability among its hallucination verdicts: 1 where the free judge (all traffic) scored it,
-- 1 / p where only a directed LLM judge did. A verdict that outranks the counted one keeps the smaller of the two
-- weights (the free judge's verdict written first still says the request was certain to be here). Rows counted
-- before this version weigh 1. Stop scorers while this migrates: the view is replaced.
ALTER TABLE ${db}.ragpulse_request_verdicts
    ADD COLUMN IF NOT EXISTS Weight Float64 DEFAULT 1 CODEC(ZSTD(1));

DROP VIEW IF EXISTS ${db}.ragpulse_request_verdicts_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_request_verdicts_mv
TO ${db}.ragpulse_request_verdicts
AS SELECT RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, JudgeRank, Hallucinated, Sign,
          Weight
FROM (
    SELECT written.RequestTime AS RequestTime, written.TraceKey AS TraceKey, written.SpanId AS SpanId,
           written.ServiceName AS ServiceName, written.Pipeline AS Pipeline, written.Variant AS Variant,
           written.Judge AS Judge, written.JudgeRank AS JudgeRank, written.Hallucinated AS Hallucinated,
           toInt8(1) AS Sign,
           if(ifNull(counted.JudgeRank, 0) = 0, written.Weight, least(written.Weight, counted.Weight)) AS Weight
    FROM (
        SELECT RequestTime, cityHash64(TraceId) AS TraceKey, SpanId, any(ServiceName) AS ServiceName,
               any(Pipeline) AS Pipeline, any(Variant) AS Variant, argMax(Scorer, rank) AS Judge,
               max(rank) AS JudgeRank, toUInt8(argMax(Value, rank) >= 0.5) AS Hallucinated,
               1 / max(InclusionProbability) AS Weight
        FROM (
            SELECT RequestTime, TraceId, SpanId, ServiceName, Pipeline, Variant, Scorer, Value, InclusionProbability,
                   bitShiftLeft(toUInt64(multiIf(Scorer = 'support', 2, Scorer != 'lexical', 1, 0)), 56)
                   + toUInt64(toUnixTimestamp64Micro(ScoredAt)) AS rank
            FROM ${db}.ragpulse_scores
            WHERE Metric = 'hallucination' AND Error = '' AND Value IS NOT NULL
        )
        GROUP BY TraceKey, SpanId, RequestTime
    ) AS written
    LEFT JOIN (
        SELECT TraceKey, SpanId, RequestTime, JudgeRank, Weight
        FROM ${db}.ragpulse_request_verdicts
        WHERE (toStartOfHour(RequestTime), TraceKey, SpanId, RequestTime)
              IN (SELECT toStartOfHour(RequestTime), cityHash64(TraceId), SpanId, RequestTime
                  FROM ${db}.ragpulse_scores)
        GROUP BY TraceKey, SpanId, RequestTime, JudgeRank, Weight
        HAVING sum(Sign) > 0
    ) AS counted
    ON written.TraceKey = counted.TraceKey AND written.SpanId = counted.SpanId
       AND written.RequestTime = counted.RequestTime
    WHERE written.JudgeRank > ifNull(counted.JudgeRank, 0)
    UNION ALL
    SELECT RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, JudgeRank, Hallucinated,
           toInt8(-1) AS Sign, Weight
    FROM (
        SELECT RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, JudgeRank, Hallucinated,
               Weight
        FROM ${db}.ragpulse_request_verdicts
        WHERE (toStartOfHour(RequestTime), TraceKey, SpanId, RequestTime)
              IN (SELECT toStartOfHour(RequestTime), cityHash64(TraceId), SpanId, RequestTime
                  FROM ${db}.ragpulse_scores)
        GROUP BY RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, JudgeRank, Hallucinated,
                 Weight
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
