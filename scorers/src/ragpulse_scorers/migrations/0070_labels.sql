-- People's labels of requests: a reviewer's verdict, an end user's feedback, or lines imported from a file.
-- Kept apart from the judges' scores: the figures that measure a judge against people read both, and a label
-- must never pass for a score. A request is named as everywhere since 0035: (TraceId, SpanId of its root span,
-- its start time to the microsecond).
-- One row per (request, source, author): the latest label an author gave a request replaces the earlier one
-- once parts merge (readers use FINAL), so a reviewer can change their mind and a retried insert collapses.
-- Label is 'hallucinated' or 'grounded'; Sentences lists the indices of the sentences marked hallucinated (empty
-- when none were marked). Score is an end user's own score as sent (NULL for reviewers and most imports).
-- No TTL: labels are few (people write them one by one) and costly to get again, and a team's labelled set
-- is its own judge benchmark long after the requests it came from expired; deleting one is a deliberate
-- ALTER TABLE ... DELETE.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_labels (
    LabelTime DateTime64(6) CODEC(Delta, ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    RequestTime DateTime64(6) CODEC(Delta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Label LowCardinality(String) CODEC(ZSTD(1)),
    Sentences Array(UInt16) CODEC(ZSTD(1)),
    Author String CODEC(ZSTD(1)),
    Source LowCardinality(String) CODEC(ZSTD(1)),
    Score Nullable(Float64) CODEC(ZSTD(1)),
    Note String CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree(LabelTime)
ORDER BY (TraceId, SpanId, RequestTime, Source, Author)
SETTINGS index_granularity = 8192;
