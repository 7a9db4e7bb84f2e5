-- One conversation's turns, and the turns and verdicts of the conversations the live page lists, are a few
-- requests of a month: a bloom filter on the session id lets those reads skip the granules without them instead
-- of reading every session id of the window. Built for the rows already stored too.
ALTER TABLE ${db}.ragpulse_requests ADD INDEX IF NOT EXISTS idx_session_id SessionId TYPE bloom_filter(0.01) GRANULARITY 1;
ALTER TABLE ${db}.ragpulse_requests MATERIALIZE INDEX idx_session_id;
ALTER TABLE ${db}.ragpulse_request_facts ADD INDEX IF NOT EXISTS idx_session_id SessionId TYPE bloom_filter(0.01) GRANULARITY 1;
ALTER TABLE ${db}.ragpulse_request_facts MATERIALIZE INDEX idx_session_id;
