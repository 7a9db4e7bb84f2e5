"""From an alert to its cause: where a change sits (slices ranked by Adtributor's explanatory power and
surprise), question topics learnt without a model, and the per-request facts both read."""
