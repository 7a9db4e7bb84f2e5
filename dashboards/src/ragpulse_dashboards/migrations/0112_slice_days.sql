-- Long windows read days, not hours. A slice per hour is a row per hour of every document a request retrieved:
-- over a month of a service with thousands of documents, millions of rows. The same sums per day are what a
-- window of days reads for its whole days (its first and last, partial, days from the hourly sums), filled by a
-- view on ragpulse_slice_hours as its rows are written.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_slice_days (
    Day Date CODEC(Delta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Dimension LowCardinality(String) CODEC(ZSTD(1)),
    Value String CODEC(ZSTD(1)),
    Judged Int64 CODEC(ZSTD(1)),
    Hallucinated Int64 CODEC(ZSTD(1)),
    Weights Float64 CODEC(ZSTD(1)),
    WeightedHallucinated Float64 CODEC(ZSTD(1)),
    SquaredWeights Float64 CODEC(ZSTD(1)),
    SquaredWeightedHallucinated Float64 CODEC(ZSTD(1))
) ENGINE = SummingMergeTree()
PARTITION BY toYYYYMM(Day)
ORDER BY (Day, ServiceName, Pipeline, Variant, Dimension, Value)
TTL Day + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_slice_days_mv
TO ${db}.ragpulse_slice_days
AS SELECT toDate(Hour) AS Day, ServiceName, Pipeline, Variant, Dimension, Value, sum(Judged) AS Judged,
          sum(Hallucinated) AS Hallucinated, sum(Weights) AS Weights,
          sum(WeightedHallucinated) AS WeightedHallucinated, sum(SquaredWeights) AS SquaredWeights,
          sum(SquaredWeightedHallucinated) AS SquaredWeightedHallucinated
FROM ${db}.ragpulse_slice_hours
GROUP BY Day, ServiceName, Pipeline, Variant, Dimension, Value;

-- Each conversation's judged and unsupported answers per day, by the hash of its session id (SessionKey =
-- cityHash64(SessionId)): "conversations with at least one unsupported answer" over a month groups these rows
-- by a number, not every judged request by a string.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_session_days (
    Day Date CODEC(Delta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    SessionKey UInt64 CODEC(ZSTD(1)),
    Judged Int64 CODEC(ZSTD(1)),
    Unsupported Int64 CODEC(ZSTD(1))
) ENGINE = SummingMergeTree()
PARTITION BY toYYYYMM(Day)
ORDER BY (Day, ServiceName, Pipeline, Variant, SessionKey)
TTL Day + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_session_days_mv
TO ${db}.ragpulse_session_days
AS SELECT toDate(RequestTime) AS Day, ServiceName, Pipeline, Variant, cityHash64(SessionId) AS SessionKey,
          sum(Sign) AS Judged, sum(Sign * Hallucinated) AS Unsupported
FROM ${db}.ragpulse_request_facts
WHERE SessionId != ''
GROUP BY Day, ServiceName, Pipeline, Variant, SessionKey;

-- What the job wrote before these views existed, once (a table that has rows already got them here).
INSERT INTO ${db}.ragpulse_slice_days
SELECT toDate(Hour) AS Day, ServiceName, Pipeline, Variant, Dimension, Value, sum(Judged), sum(Hallucinated),
       sum(Weights), sum(WeightedHallucinated), sum(SquaredWeights), sum(SquaredWeightedHallucinated)
FROM ${db}.ragpulse_slice_hours
WHERE (SELECT count() FROM ${db}.ragpulse_slice_days) = 0
GROUP BY Day, ServiceName, Pipeline, Variant, Dimension, Value;

INSERT INTO ${db}.ragpulse_session_days
SELECT toDate(RequestTime) AS Day, ServiceName, Pipeline, Variant, cityHash64(SessionId) AS SessionKey,
       sum(Sign), sum(Sign * Hallucinated)
FROM ${db}.ragpulse_request_facts
WHERE SessionId != '' AND (SELECT count() FROM ${db}.ragpulse_session_days) = 0
GROUP BY Day, ServiceName, Pipeline, Variant, SessionKey;
