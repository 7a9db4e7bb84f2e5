-- What an alert episode was judged by and compared with. JudgedBy: the judges whose verdicts the rate counted
-- (a hallucination-rate or support-drop series counts each request by its best judge, so its key names no
-- scorer and its payloads carried "scorer": ""). BaselineRate, BaselineSamples: the baseline a support-drop
-- episode fired against (its lower bound is the Threshold), kept so that an evaluation whose own baseline is
-- too small (a store younger than the window, as after the demo) judges recovery against it instead of
-- against nothing.
ALTER TABLE ${db}.ragpulse_alerts
    ADD COLUMN IF NOT EXISTS JudgedBy LowCardinality(String) DEFAULT '' CODEC(ZSTD(1));

ALTER TABLE ${db}.ragpulse_alerts
    ADD COLUMN IF NOT EXISTS BaselineRate Float64 DEFAULT nan CODEC(ZSTD(1));

ALTER TABLE ${db}.ragpulse_alerts
    ADD COLUMN IF NOT EXISTS BaselineSamples UInt64 DEFAULT 0 CODEC(ZSTD(1));
