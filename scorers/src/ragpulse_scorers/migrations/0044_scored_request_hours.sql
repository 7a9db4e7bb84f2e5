-- Which requests were scored (a value, not only an error), per hour of the request, service, pipeline and
-- variant, as uniq states: the "scored share" panels and the report's scored counts merge 720 small states over
-- 30 days instead of hashing every score of the window. A set is not changed by a request counted twice, so a
-- re-score needs nothing taken back. uniq is exact but for rare hash collisions up to 65,536 requests a state,
-- and within about 2% beyond (the panels used it before).
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_scored_request_hours (
    Hour DateTime CODEC(Delta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Requests AggregateFunction(uniq, UInt64, String, DateTime64(9))
) ENGINE = AggregatingMergeTree()
PARTITION BY toDate(Hour)
ORDER BY (Hour, ServiceName, Pipeline, Variant)
TTL Hour + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_scored_request_hours_mv
TO ${db}.ragpulse_scored_request_hours
AS SELECT toStartOfHour(RequestTime) AS Hour, ServiceName, Pipeline, Variant, uniqState(TraceKey, SpanId, RequestTime) AS Requests
FROM ${db}.ragpulse_score_values
WHERE Sign = 1 AND Failed = 0
GROUP BY Hour, ServiceName, Pipeline, Variant;

-- The requests already scored (adding them again would change no set).
INSERT INTO ${db}.ragpulse_scored_request_hours
SELECT toStartOfHour(RequestTime) AS Hour, ServiceName, Pipeline, Variant, uniqState(TraceKey, SpanId, RequestTime) AS Requests
FROM ${db}.ragpulse_score_values
WHERE Sign = 1 AND Failed = 0
GROUP BY Hour, ServiceName, Pipeline, Variant;
