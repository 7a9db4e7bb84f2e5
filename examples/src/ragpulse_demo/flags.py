"""The demo's flags, checked before its work is imported: a mistake is said at once, not after the seconds
that loading the collector, the scorers and the reports takes."""

from __future__ import annotations

import argparse

from ragpulse_example.rates import parse_rates

MAX_DURATION_S = 3600.0


def demo_variants(args: argparse.Namespace) -> list[str]:
    return [name.strip() for name in args.variants.split(",") if name.strip()]


def check_flags(args: argparse.Namespace) -> None:
    """Raises ValueError naming the first flag out of its range or unreadable."""
    if args.requests < 1:
        raise ValueError("--requests must be at least 1")
    if not 0.0 <= args.duration <= MAX_DURATION_S:
        raise ValueError(f"--duration must lie in [0, {MAX_DURATION_S:g}] seconds, got {args.duration}")
    variants = demo_variants(args)
    parse_rates(args.inject, variants, "--inject")
    if not 0.0 <= args.drift_at <= 1.0:
        raise ValueError(f"--drift-at must lie in [0, 1], got {args.drift_at}")
    parse_rates(args.drift, variants, "--drift")
