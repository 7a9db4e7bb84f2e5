-- Where each request's context was found, and why a request cannot be judged (empty when it can).
--   ContextSource: 'ragpulse' (the decorators' ragpulse.context), 'retriever' (retriever or reranker spans),
--                  'documents' (document attributes on another span), 'prompt' (documents pasted into the
--                  generating LLM's prompt), '' (none found).
--   Unscorable:    '' or a reason code (ragpulse_assembly.reasons), e.g. 'no_content' when content
--                  capture was off, 'no_context', 'no_answer', 'unparseable'.
-- Assembled rows set both; rows the materialized view writes from ragpulse root spans get them from these
-- defaults, computed from the row's own columns at insert (and at read for rows stored before this version).
ALTER TABLE ${db}.ragpulse_requests
    ADD COLUMN IF NOT EXISTS ContextSource LowCardinality(String)
        DEFAULT if(Context NOT IN ('', '[]'), 'ragpulse', '') CODEC(ZSTD(1));

ALTER TABLE ${db}.ragpulse_requests
    ADD COLUMN IF NOT EXISTS Unscorable LowCardinality(String)
        DEFAULT multiIf(Question = '' AND Answer = '' AND Context IN ('', '[]'), 'no_content',
                        Answer = '', 'no_answer',
                        Context IN ('', '[]'), 'no_context',
                        Question = '', 'no_question',
                        '') CODEC(ZSTD(1));
