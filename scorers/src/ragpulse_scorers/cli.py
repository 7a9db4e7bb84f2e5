"""The scorers' subcommands of ``ragpulse``: their flags only.

Each command's work is the ``run(args)`` of its module in :mod:`ragpulse_scorers.commands`, imported when the
command runs, so ``ragpulse --help`` loads no judge, HTTP client or scheduler.
"""

from __future__ import annotations

import argparse
from datetime import timedelta
from pathlib import Path

from ragpulse_core.cli import Subparsers, runs
from ragpulse_core.commands import add_collector_flags

from ragpulse_scorers.cli_arguments import parse_window, variant_list
from ragpulse_scorers.evaluation.datasets import Split

SUPPORT_JUDGE_NAMES = ("lexical", "openai")
# The demo's default story: B plants more statements than A, then its retrieval degrades half-way through.
DEMO_INJECT = "A=0.05,B=0.1"
DEMO_DRIFT = "B=0.5"
# The demo's traffic takes this long: at one bucket a second, its time charts get about 20 buckets.
DEMO_DURATION_S = 20.0


def register(subparsers: Subparsers) -> None:
    for add_command in (_alerts, _demo, _eval, _pairwise, _report, _requests, _score, _serve):
        add_command(subparsers)


def _add_dsn(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dsn", help="store DSN (default: store.dsn from the config, ./.ragpulse/chdb)")


def _alerts(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("alerts", help="list built-in alerts (firing first)")
    _add_dsn(parser)
    parser.add_argument("--all", action="store_true", help="also list resolved alerts")
    parser.add_argument("--evaluate", action="store_true", help="evaluate every alert rule now, then list")
    parser.set_defaults(func=runs("ragpulse_scorers.commands.alerts"))


def _demo(subparsers: Subparsers) -> None:
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
    parser.set_defaults(func=runs("ragpulse_scorers.commands.demo"))


def _eval(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("eval", help="measure the judges against human-labelled data")
    tasks = parser.add_subparsers(dest="eval_task", metavar="TASK", required=True)
    support = tasks.add_parser(
        "support",
        help="response-level hallucination detection (RAGTruth-style or LFQA-style JSONL)",
        description="Judge every response of a labelled JSONL file and compare with the human labels.",
    )
    support.add_argument(
        "--data",
        type=Path,
        required=True,
        help="JSONL file (RAGTruth- or LFQA-style), or ragtruth_qa_dev (ships with ragpulse)",
    )
    support.add_argument("--judge", choices=SUPPORT_JUDGE_NAMES, default="lexical", help="judge to measure")
    support.add_argument(
        "--model", help="model of an LLM judge (default: judge.model, $RAGPULSE_JUDGE_MODEL)"
    )
    support.add_argument(
        "--split",
        type=Split,
        choices=list(Split),
        default=Split.ALL,
        help="questions to use: tune or holdout half (by a hash of the question id), or all",
    )
    support.add_argument("--limit", type=int, help="judge at most this many responses (the first ones)")
    support.add_argument(
        "--no-sentences", dest="sentences", action="store_false",
        help="LFQA-style data: judge whole responses only, not also each annotated sentence on its own",
    )  # fmt: skip
    support.add_argument(
        "--workers", type=int, default=1, help="responses judged at once (for network judges)"
    )
    support.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    support.set_defaults(func=runs("ragpulse_scorers.commands.eval_support"))
    for name, help_text, data_help, function_name in (
        ("subq-types", "sub-question typing (core / background / follow-up) vs annotators' majority",
         "JSONL like subq_types.jsonl", "run_types"),
        ("subq-coverage", "sub-question coverage of answers vs human judgments",
         "JSONL like subq_coverage.jsonl", "run_coverage"),
    ):  # fmt: skip
        parser = tasks.add_parser(name, help=help_text, description=help_text)
        parser.add_argument("--data", type=Path, required=True, help=data_help)
        parser.add_argument("--judge", choices=["openai"], default="openai", help="judge to measure")
        parser.add_argument("--model", help="judge model (default: judge.model, $RAGPULSE_JUDGE_MODEL)")
        parser.add_argument(
            "--limit", type=int, help="at most this many questions (types) or answers (coverage)"
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
        parser.set_defaults(func=runs("ragpulse_scorers.commands.eval_subq", function_name))


def _pairwise(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "pairwise",
        help="judge variants' answers head to head and rank the variants by Elo",
        description="Judge the answers two or more variants gave to the same questions, in both orders, "
        "write a pairwise_win score per judged trace and print the Elo leaderboard.",
    )
    _add_dsn(parser)
    parser.add_argument(
        "--variants", type=variant_list, metavar="A,B", help="variants to compare (default: all)"
    )
    parser.add_argument("--since", type=parse_window, default=timedelta(hours=24), metavar="24h",
                        help="look back this far: 90s, 30m, 24h, 7d (default 24h)")  # fmt: skip
    parser.add_argument("--limit", type=int, default=50, metavar="N", help="at most N questions (default 50)")
    parser.add_argument("--tournaments", type=int, default=10, help="Elo tournaments to average (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the tournaments' shuffles (default 0)")
    parser.set_defaults(func=runs("ragpulse_scorers.commands.pairwise"))


def _report(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "report",
        help="print the quality report (and write it as HTML)",
        description="Hallucination rate per variant with 95% intervals, support, utilization and the other "
        "metrics, latency per step, the worst requests, judge spend and scoring lag.",
    )
    _add_dsn(parser)
    parser.add_argument("--html", type=Path, help="also write a self-contained HTML report to this file")
    parser.add_argument("--since", default="24h", help="window start: 24h, 90m, 7d or an ISO timestamp")
    parser.add_argument("--service", help="only this service")
    parser.set_defaults(func=runs("ragpulse_scorers.commands.report"))


def _requests(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "requests",
        help="list recent requests, and why those not scored are not",
        description="The newest requests of the window, one line each: where it came from (Source), where "
        "its context was found (ContextSource), and, for a request no judge may score, the reason (content "
        "capture off, no context, an unparseable value...), with what to change.",
    )
    _add_dsn(parser)
    parser.add_argument("--unscored", action="store_true", help="only requests that cannot be scored")
    parser.add_argument("--since", default="24h", help="window start: 24h, 90m, 7d or an ISO timestamp")
    parser.add_argument("--service", help="only this service")
    parser.add_argument("--limit", type=int, default=50, metavar="N", help="at most N requests (default 50)")
    parser.set_defaults(func=runs("ragpulse_scorers.commands.requests"))


def _score(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score recorded requests",
        description="Score requests recorded in ragpulse_requests: one tick with --once, else every "
        "scorer.interval_s seconds until Ctrl-C.",
    )
    parser.add_argument("--once", action="store_true", help="run one tick, print what happened, exit")
    _add_dsn(parser)
    _add_scorer_flags(parser)
    parser.set_defaults(func=runs("ragpulse_scorers.commands.score"))


def _add_scorer_flags(parser: argparse._ActionsContainer) -> None:
    """The scheduler's flags, shared by ``score`` and ``serve``; ``scorer_flags`` reads them back."""
    parser.add_argument(
        "--scorer", dest="scorers", action="extend", nargs="+", metavar="NAME",
        help="scorers to run (default: scorer.scorers from the config, lexical)",
    )  # fmt: skip
    parser.add_argument("--sample-rate", type=float, help="share of requests scored, 0 to 1")
    parser.add_argument("--shard", metavar="i/N", help="this worker takes shard i of N")
    parser.add_argument(
        "--interval", type=float, metavar="SECONDS",
        help="seconds between ticks (default: scorer.interval_s, 10)",
    )  # fmt: skip


def _serve(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the collector, the scorer and the live report page in one process",
        description="Receive OTLP traces, score them on a schedule and serve the live report (default"
        " http://127.0.0.1:4319/, live.port) until Ctrl-C. It takes the flags of `ragpulse collector` and"
        " `ragpulse score`, under the same names.",
    )
    _add_dsn(parser)
    collector = parser.add_argument_group("collector (as `ragpulse collector`)")
    add_collector_flags(collector)
    scorer = parser.add_argument_group("scorer (as `ragpulse score`)")
    _add_scorer_flags(scorer)
    live = parser.add_argument_group("live report page")
    live.add_argument("--live-port", type=int, help="live report page port (default: live.port, 4319)")
    live.add_argument("--no-live", action="store_true", help="do not serve the live report page")
    parser.set_defaults(func=runs("ragpulse_scorers.commands.serve"))
