-- Prompt templates learnt from each service's own traffic (ragpulse assembly templates): one version per
-- skeleton a place (a service and its generating call's span name) sent its prompts through. Definition is
-- what reads a prompt with it (constants, slots and their roles, the documents' loop), Skeleton how people read
-- it (slots marked {{question}}, {{documents}}). Every worker adds one row per version and batch it read
-- requests in, with the batch's counts: the merged row holds the first and last time a request was read, how
-- many were read and how many of those could not be scored. Readers group by the key (merges fold rows).
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_templates (
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Place LowCardinality(String) CODEC(ZSTD(1)),
    Version LowCardinality(String) CODEC(ZSTD(1)),
    LearntFrom SimpleAggregateFunction(max, UInt32) CODEC(ZSTD(1)),
    Skeleton SimpleAggregateFunction(any, String) CODEC(ZSTD(1)),
    Definition SimpleAggregateFunction(any, String) CODEC(ZSTD(1)),
    FirstSeen SimpleAggregateFunction(min, DateTime64(6)) CODEC(Delta, ZSTD(1)),
    LastSeen SimpleAggregateFunction(max, DateTime64(6)) CODEC(Delta, ZSTD(1)),
    Requests SimpleAggregateFunction(sum, UInt64) CODEC(ZSTD(1)),
    Refused SimpleAggregateFunction(sum, UInt64) CODEC(ZSTD(1))
) ENGINE = AggregatingMergeTree()
ORDER BY (ServiceName, Place, Version)
TTL toDateTime(LastSeen) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192;
