-- Rules ([[rules]]) in the scoring log. Rule: the rule that selected a request for a judge and pays for it
-- (empty before rules, and for outcomes no rule decided). RuleSet: a digest of the scorer's rules when a
-- request was sampled out, so a request left out by one configuration is read again once the rules change,
-- and only then. CostUSD: what the judgment cost, so a rule's daily budget is read from the log by every
-- worker sharing the store.
ALTER TABLE ${db}.ragpulse_scoring_log
    ADD COLUMN IF NOT EXISTS Rule LowCardinality(String) DEFAULT '' CODEC(ZSTD(1));

ALTER TABLE ${db}.ragpulse_scoring_log
    ADD COLUMN IF NOT EXISTS RuleSet LowCardinality(String) DEFAULT '' CODEC(ZSTD(1));

ALTER TABLE ${db}.ragpulse_scoring_log
    ADD COLUMN IF NOT EXISTS CostUSD Float64 DEFAULT 0 CODEC(ZSTD(1));
