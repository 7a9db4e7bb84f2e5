"""ragpulse scorers: sample recorded RAG requests, judge them, write scores back to ClickHouse.

The package root imports nothing, so registering the ``ragpulse`` subcommands stays light; the scorer
protocol is :mod:`ragpulse_scorers.scorer`, the request and score models :mod:`ragpulse_scorers.models`.
"""
