-- Where the change an alert fired on sits (ragpulse_dashboards.rootcause.cause): the slices that carry it, each
-- with its rate, interval, n and share of the change, or why none is named, as JSON; '' for rules that are not
-- about a change in answers, and for alerts recorded before this version.
ALTER TABLE ${db}.ragpulse_alerts ADD COLUMN IF NOT EXISTS Cause String DEFAULT '' CODEC(ZSTD(1));
