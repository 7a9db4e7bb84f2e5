"""Requests assembled from traces other instrumentations wrote, in two layers (DESIGN.md "Requests from any
trace"): ``dialects`` read each family's keys into the common span model (``model``); ``rules`` turn one
trace's spans into a request row (pure, no I/O), with ``context`` choosing its context, ``prompt_context``
reading documents pasted into prompts and ``guard`` refusing serialized values; ``job`` finds settled traces
in ``otel_traces`` (and their GenAI events in ``otel_logs``) and writes the rows.
"""
