-- How likely the rules were to include a judged request for its scorer (the largest inclusion probability of
-- the rules that matched it: they all sample the same SampleKey buckets). Its inverse weighs the request in a
-- rate taken over traffic that rules sample at different rates. 1 for rows written before rules.
ALTER TABLE ${db}.ragpulse_scoring_log
    ADD COLUMN IF NOT EXISTS InclusionProbability Float64 DEFAULT 1 CODEC(ZSTD(1));
