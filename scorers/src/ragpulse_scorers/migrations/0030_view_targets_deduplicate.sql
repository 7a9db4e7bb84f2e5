-- A retried insert into otel_traces or ragpulse_scores that ClickHouse deduplicates still reaches the
-- materialized views below it, and each view's table drops the block only if it keeps a deduplication window
-- of its own: without one, a retry after a collector crash counted its steps' latencies twice.
ALTER TABLE ${db}.ragpulse_step_latency MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE ${db}.ragpulse_step_latency_hours MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE ${db}.ragpulse_trace_verdicts MODIFY SETTING non_replicated_deduplication_window = 10000;
