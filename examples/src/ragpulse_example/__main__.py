"""``python -m ragpulse_example --endpoint URL --requests N --inject 0.2 --variants A,B --seed 1``."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from ragpulse_example.traffic import run_traffic


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ragpulse_example", description=__doc__)
    parser.add_argument(
        "--endpoint", default="http://127.0.0.1:4318", help="OTLP/HTTP base URL of the collector"
    )
    parser.add_argument("--requests", type=int, default=100, help="how many questions to send")
    parser.add_argument(
        "--inject", type=float, default=0.0, help="share of answers given an unsupported statement"
    )
    parser.add_argument(
        "--variants", default="A,B", help="comma-separated variants, sent in turn (A: RAG, B: RAG-Fusion)"
    )
    parser.add_argument("--seed", type=int, default=1, help="same seed, same traffic")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    variants = [name.strip() for name in args.variants.split(",") if name.strip()]
    try:
        summary = run_traffic(args.endpoint, args.requests, args.inject, variants, args.seed)
    except ValueError as exc:
        parser.error(str(exc))
    for name, tally in summary.by_variant.items():
        print(f"variant {name}: {tally.sent} sent, {tally.injected} injected, {tally.errors} failed")
    print(f"{summary.requests} requests in {summary.elapsed_s:.1f}s with model {summary.model}")
    return 1 if summary.errors == summary.requests and summary.requests else 0


if __name__ == "__main__":
    sys.exit(main())
