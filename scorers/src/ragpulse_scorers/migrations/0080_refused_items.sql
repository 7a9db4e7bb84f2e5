-- Items from outside that ragpulse refused, one row per (kind, item): a feedback span that names no usable
-- request or score, feedback sent by another service than the request's (quarantined: kept here, never a
-- label), a label line, a judge reply. The first refusal of an item is logged and recorded here; later ones
-- are only counted, so a span re-read every tick is logged once, after a restart too (the scheduler reads
-- back what is recorded). Detail keeps what the item said (capped), so quarantined feedback can be read.
-- The report and the live page count these per kind beside the scoring outcomes.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_refused (
    RefusedAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    Kind LowCardinality(String) CODEC(ZSTD(1)),
    Item String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Reason String CODEC(ZSTD(1)),
    Detail String CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree(RefusedAt)
ORDER BY (Kind, Item)
TTL toDateTime(RefusedAt) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192;
