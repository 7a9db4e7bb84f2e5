-- LLM judge answers by a hash of (model, prompt version, prompt, schema): the same judgment is never paid twice.
-- Response is the validated JSON; the tokens are what the original call cost, for the record.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_judge_cache (
    Key String CODEC(ZSTD(1)),
    Model LowCardinality(String) CODEC(ZSTD(1)),
    PromptVersion LowCardinality(String) CODEC(ZSTD(1)),
    Response String CODEC(ZSTD(3)),
    InputTokens UInt32 CODEC(ZSTD(1)),
    OutputTokens UInt32 CODEC(ZSTD(1)),
    CreatedAt DateTime64(6) CODEC(Delta, ZSTD(1))
) ENGINE = ReplacingMergeTree(CreatedAt)
ORDER BY Key
TTL toDateTime(CreatedAt) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192;
