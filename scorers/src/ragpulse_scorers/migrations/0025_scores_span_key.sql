-- Scores, verdicts and log rows name their request by (TraceId, SpanId of the request's root span), so the
-- requests of one trace are scored, replaced and shown apart. The new column joins the end of each sorting key
-- in the same ALTER (a column added without a default may). Rows stored before this version have an empty
-- SpanId: they stand for every request of their trace (a trace's requests were one before), so requests
-- already scored, skipped or failed are not judged again.
ALTER TABLE ${db}.ragpulse_scores
    ADD COLUMN IF NOT EXISTS SpanId String CODEC(ZSTD(1)) AFTER TraceId,
    MODIFY ORDER BY (toStartOfHour(RequestTime), Metric, Scorer, ServiceName, Variant, TraceId, SpanId);

ALTER TABLE ${db}.ragpulse_scoring_log
    ADD COLUMN IF NOT EXISTS SpanId String CODEC(ZSTD(1)) AFTER TraceId;

ALTER TABLE ${db}.ragpulse_trace_verdicts
    ADD COLUMN IF NOT EXISTS SpanId String CODEC(ZSTD(1)) AFTER TraceKey,
    MODIFY ORDER BY (toStartOfHour(RequestTime), Scorer, TraceKey, SpanId);

-- The view grouped a batch's rows by trace: one verdict for two requests. Scores written while it is
-- replaced get no verdict (stop scorers while this runs).
DROP VIEW IF EXISTS ${db}.ragpulse_trace_verdicts_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_trace_verdicts_mv
TO ${db}.ragpulse_trace_verdicts
AS SELECT
    any(RequestTime) AS RequestTime,
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
GROUP BY TraceId, SpanId, Scorer;
