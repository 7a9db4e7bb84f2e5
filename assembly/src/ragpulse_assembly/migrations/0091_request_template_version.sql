-- Which learnt template read each request's prompt (empty when none did), so any figure can be split by
-- template version ("did the new prompt help?"); and what a reason code alone does not say, such as both
-- readings of a prompt that the learnt template and the structure rules read differently. Added the same
-- idempotent way wherever TemplateVersion is used as a dimension.
ALTER TABLE ${db}.ragpulse_requests
    ADD COLUMN IF NOT EXISTS TemplateVersion LowCardinality(String) DEFAULT '';

ALTER TABLE ${db}.ragpulse_requests
    ADD COLUMN IF NOT EXISTS UnscorableDetail String DEFAULT '' CODEC(ZSTD(1));
