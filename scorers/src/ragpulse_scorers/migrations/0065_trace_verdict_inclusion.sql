-- Directed sampling (see 0062): the online agreement between the free judge and an LLM judge weighs each shared
-- request by 1 / the chance the LLM judge had of judging it, so each verdict carries that chance
-- (InclusionProbability, 1 for the free judge and every undirected judgment). Verdicts counted before this
-- version read 1; those of directed judgments (written from 0062 on) are corrected below. Stop scorers while
-- this migrates: the view is replaced.
ALTER TABLE ${db}.ragpulse_trace_verdicts
    ADD COLUMN IF NOT EXISTS InclusionProbability Float64 DEFAULT 1 CODEC(ZSTD(1));

DROP VIEW IF EXISTS ${db}.ragpulse_trace_verdicts_mv;

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
    toUInt8(countIf(Metric = 'hallucination') > 0) AS HasHallucination,
    max(InclusionProbability) AS InclusionProbability
FROM ${db}.ragpulse_scores
WHERE Error = '' AND Metric IN ('hallucination', 'support', 'adherence', 'unsupported_sentences')
GROUP BY TraceId, SpanId, RequestTime, Scorer;

-- A verdict of a directed judgment counted before the view carried its chance: written again with it, at the
-- same version (ScoredAt), which replaces it (of equal versions the last inserted is kept). Run again, the
-- verdicts already carry it and nothing is written.
INSERT INTO ${db}.ragpulse_trace_verdicts (RequestTime, ScoredAt, TraceId, TraceKey, SpanId, ServiceName, Pipeline,
    Variant, Scorer, Hallucination, Support, Unsupported, HasHallucination, InclusionProbability)
SELECT v.RequestTime, v.ScoredAt, v.TraceId, v.TraceKey, v.SpanId, v.ServiceName, v.Pipeline, v.Variant, v.Scorer,
       v.Hallucination, v.Support, v.Unsupported, v.HasHallucination, s.probability
FROM (
    SELECT RequestTime, ScoredAt, TraceId, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Hallucination,
           Support, Unsupported, HasHallucination, InclusionProbability
    FROM ${db}.ragpulse_trace_verdicts FINAL
) AS v
INNER JOIN (
    SELECT TraceId, SpanId, RequestTime, Scorer, ScoredAt, max(InclusionProbability) AS probability
    FROM ${db}.ragpulse_scores
    WHERE Error = '' AND InclusionProbability < 1
      AND Metric IN ('hallucination', 'support', 'adherence', 'unsupported_sentences')
    GROUP BY TraceId, SpanId, RequestTime, Scorer, ScoredAt
) AS s
ON v.TraceId = s.TraceId AND v.SpanId = s.SpanId AND v.RequestTime = s.RequestTime AND v.Scorer = s.Scorer
   AND v.ScoredAt = s.ScoredAt
WHERE v.InclusionProbability != s.probability;
