"""``python -m ragpulse_example --endpoint URL --requests N --inject A=0.05,B=0.2 --drift B=0.4``.

``--forever`` keeps sending batches of ``--requests`` (a new seed each batch, so questions vary), at most
``--rate`` requests per second, until stopped: steady traffic for a long-running stack.
"""

from __future__ import annotations

import argparse
import logging
import socket
import sys
from collections.abc import Sequence
from time import sleep
from urllib.parse import urlsplit

from opentelemetry import trace

from ragpulse_example.rates import parse_rates
from ragpulse_example.traffic import Drift, run_traffic


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ragpulse_example", description=__doc__)
    parser.add_argument(
        "--endpoint", default="http://127.0.0.1:4318", help="OTLP/HTTP base URL of the collector"
    )
    parser.add_argument("--requests", type=int, default=100, help="how many questions to send")
    parser.add_argument(
        "--inject",
        default="0",
        help="share of answers given an unsupported statement: 0.2 for every variant, or A=0.05,B=0.2",
    )
    parser.add_argument(
        "--drift",
        default="none",
        help="share of each variant's requests from --drift-at on whose retrieval degrades, e.g. B=0.4",
    )
    parser.add_argument(
        "--drift-at", type=float, default=0.5, help="where in the run the drift starts (0 to 1)"
    )
    parser.add_argument(
        "--variants", default="A,B", help="comma-separated variants, sent in turn (A: RAG, B: RAG-Fusion)"
    )
    parser.add_argument("--seed", type=int, default=1, help="same seed, same traffic")
    parser.add_argument("--forever", action="store_true", help="send batch after batch until stopped")
    parser.add_argument(
        "--rate", type=float, help="at most this many requests per second (default: as fast as answered)"
    )
    args = parser.parse_args(argv)
    if args.rate is not None and args.rate <= 0:
        parser.error("--rate must be above 0")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    variants = [name.strip() for name in args.variants.split(",") if name.strip()]
    seed = args.seed
    try:
        inject = parse_rates(args.inject, variants, "--inject")
        drift = Drift(args.drift_at, parse_rates(args.drift, variants, "--drift"))
        unreachable = _unreachable(args.endpoint)
        if unreachable:
            hint = "start `ragpulse serve` (or a collector) first, or pass --endpoint"
            parser.exit(1, f"error: nothing answers at {args.endpoint} ({unreachable}): {hint}\n")
        while True:
            summary = run_traffic(args.endpoint, args.requests, inject, variants, seed, drift=drift)
            for name, tally in summary.by_variant.items():
                print(
                    f"variant {name}: {tally.sent} sent, {tally.planted} planted, {tally.degraded} with"
                    f" degraded retrieval, {tally.errors} failed"
                )
            print(
                f"{summary.requests} requests in {summary.elapsed_s:.1f}s with model {summary.model}",
                flush=True,
            )
            if not args.forever:
                return 1 if summary.errors == summary.requests and summary.requests else 0
            if args.rate is not None:
                sleep(max(0.0, summary.requests / args.rate - summary.elapsed_s))
            seed += 1
    except ValueError as exc:
        parser.error(str(exc))
    except KeyboardInterrupt:
        return 0


def _unreachable(endpoint: str) -> str | None:
    """Why nothing listens at the endpoint, or None: checked first, since the exporter would only retry
    and log while every request still counts as sent. An application that set its own TracerProvider
    exports wherever that sends, so there is nothing to check."""
    if not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        return None
    parts = urlsplit(endpoint)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        with socket.create_connection((parts.hostname or "127.0.0.1", port), timeout=5):
            return None
    except OSError as exc:
        return exc.strerror or type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
