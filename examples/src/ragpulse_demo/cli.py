"""The ``ragpulse demo`` command's flags; its work is :mod:`ragpulse_demo.command`, imported when it runs."""

from __future__ import annotations

import argparse
from pathlib import Path

from ragpulse_core.cli import Subparsers, runs

from ragpulse_demo.flags import check_flags

# The demo's default story: B plants more statements than A, then its retrieval degrades half-way through.
DEMO_INJECT = "A=0.05,B=0.1"
DEMO_DRIFT = "B=0.5"
# The demo's traffic takes this long: at one bucket a second, its time charts get about 20 buckets.
DEMO_DURATION_S = 20.0


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="run collector, scorer and the example service locally, then report",
        description="The whole product on one machine in well under a minute: embedded chDB under --dir, the "
        "collector on a free local port, the scoring scheduler, and the example RAG-Fusion service sending "
        "real OTLP/HTTP traffic with planted unsupported statements and, from the drift point on, degraded "
        "retrieval for one variant; then one alert evaluation and the report in the terminal and as HTML, "
        "led by how B differs from A and the alert that fired for it.",
    )
    parser.add_argument("--requests", type=int, default=200, help="questions the example service answers")
    parser.add_argument(
        "--duration",
        type=float,
        default=DEMO_DURATION_S,
        help="seconds the requests are spread over, so the report's time charts show the drift as it"
        f" happens (default {DEMO_DURATION_S:g}; 0 sends them as fast as the service answers)",
    )
    parser.add_argument(
        "--inject",
        default=DEMO_INJECT,
        help="share of answers given an unsupported statement: 0.2 for every variant, or per variant "
        f"(default {DEMO_INJECT})",
    )
    parser.add_argument(
        "--drift",
        default=DEMO_DRIFT,
        help="from --drift-at on, the share of each variant's requests whose retrieval returns unrelated "
        f"chunks; none for no drift (default {DEMO_DRIFT})",
    )
    parser.add_argument(
        "--drift-at", type=float, default=0.5, help="where in the run the drift starts, 0 to 1 (default 0.5)"
    )
    parser.add_argument(
        "--dir", type=Path, default=Path(".ragpulse"), help="where the embedded database lives"
    )
    parser.add_argument("--html", type=Path, help="HTML report file (default: DIR/report.html)")
    parser.add_argument("--variants", default="A,B", help="example variants: A plain RAG, B RAG-Fusion")
    parser.add_argument("--seed", type=int, default=1, help="same seed, same traffic")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds to wait for scoring")
    parser.set_defaults(func=_checked_then_run)


def _checked_then_run(args: argparse.Namespace) -> int:
    check_flags(args)
    return runs("ragpulse_demo.command")(args)
