"""Requests assembled from traces other instrumentations wrote, in two layers (DESIGN.md "Requests from any
trace"): :mod:`~ragpulse_scorers.assembly.dialects` read each family's keys into the common span model
(:mod:`~ragpulse_scorers.assembly.model`); :mod:`~ragpulse_scorers.assembly.rules` turn one trace's spans into a
request row (pure, no I/O), with :mod:`~ragpulse_scorers.assembly.context` choosing its context,
:mod:`~ragpulse_scorers.assembly.prompt_context` reading documents pasted into prompts and
:mod:`~ragpulse_scorers.assembly.guard` refusing serialized values; :mod:`~ragpulse_scorers.assembly.job` finds
settled traces in ``otel_traces`` (and their GenAI events in ``otel_logs``) and writes the rows.
"""
