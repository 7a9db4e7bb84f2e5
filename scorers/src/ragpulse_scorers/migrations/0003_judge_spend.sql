-- One row per paid LLM judge call, so every scorer process sees today's spend against the daily budget
-- (score rows cannot tell it: several metrics share one call, and failed calls write no scores).
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_judge_spend (
    Day Date CODEC(Delta, ZSTD(1)),
    SpentAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    Model LowCardinality(String) CODEC(ZSTD(1)),
    PromptVersion LowCardinality(String) CODEC(ZSTD(1)),
    InputTokens UInt32 CODEC(ZSTD(1)),
    OutputTokens UInt32 CODEC(ZSTD(1)),
    CostUSD Float64 CODEC(ZSTD(1)),
    Worker LowCardinality(String) CODEC(ZSTD(1))
) ENGINE = MergeTree()
PARTITION BY Day
ORDER BY (Day, SpentAt)
TTL Day + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;
