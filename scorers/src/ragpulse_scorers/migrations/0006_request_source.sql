-- Where each request row came from: 'ragpulse' (a ragpulse root span, through the materialized view, which
-- selects no Source and so writes the default), 'openinference' or 'genai' (assembled by the scheduler from
-- another instrumentation's trace). Assembled rows also carry the generating model and its token usage.
ALTER TABLE ${db}.ragpulse_requests
    ADD COLUMN IF NOT EXISTS Source LowCardinality(String) DEFAULT 'ragpulse' CODEC(ZSTD(1));

ALTER TABLE ${db}.ragpulse_requests
    ADD COLUMN IF NOT EXISTS Model LowCardinality(String) DEFAULT '' CODEC(ZSTD(1));

ALTER TABLE ${db}.ragpulse_requests
    ADD COLUMN IF NOT EXISTS InputTokens UInt32 DEFAULT 0 CODEC(ZSTD(1));

ALTER TABLE ${db}.ragpulse_requests
    ADD COLUMN IF NOT EXISTS OutputTokens UInt32 DEFAULT 0 CODEC(ZSTD(1));
