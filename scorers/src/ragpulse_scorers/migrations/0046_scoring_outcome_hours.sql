-- How many scoring-log rows each outcome has, per hour of the request, service and scorer: the report's and the
-- live page's outcome counts read whole hours from these few rows and only the window's first, partial hour from
-- the log itself, instead of every log row of the window. Filled by a view on the log; reassembly, which
-- removes a request's log rows, subtracts them here first. A retried log insert that the log drops as a
-- duplicate is dropped here too (the deduplication window; the view's blocks are told apart by the log's).
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_scoring_outcome_hours (
    Hour DateTime CODEC(Delta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    Outcome LowCardinality(String) CODEC(ZSTD(1)),
    Rows Int64 CODEC(ZSTD(1))
) ENGINE = SummingMergeTree()
PARTITION BY toDate(Hour)
ORDER BY (Hour, ServiceName, Scorer, Outcome)
TTL Hour + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_scoring_outcome_hours_mv
TO ${db}.ragpulse_scoring_outcome_hours
AS SELECT toStartOfHour(RequestTime) AS Hour, ServiceName, Scorer, Outcome, toInt64(count()) AS Rows
FROM ${db}.ragpulse_scoring_log
GROUP BY Hour, ServiceName, Scorer, Outcome;

-- The log rows already stored, once: a table that has rows already got them here (stop scorers while this
-- runs).
INSERT INTO ${db}.ragpulse_scoring_outcome_hours
SELECT toStartOfHour(RequestTime) AS Hour, ServiceName, Scorer, Outcome, toInt64(count()) AS Rows
FROM ${db}.ragpulse_scoring_log
WHERE (SELECT count() FROM ${db}.ragpulse_scoring_outcome_hours) = 0
GROUP BY Hour, ServiceName, Scorer, Outcome;
