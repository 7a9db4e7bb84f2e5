"""Requests assembled from traces other instrumentations wrote (OpenInference, the GenAI conventions).

``rules`` turns one trace's spans into a request row (pure, no I/O); ``job`` finds settled traces in
``otel_traces`` and writes their rows to ``ragpulse_requests``.
"""
