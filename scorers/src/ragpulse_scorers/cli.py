"""The scorers' subcommands of ``ragpulse``: their flags only.

Each command's work is the ``run(args)`` of its module in :mod:`ragpulse_scorers.commands`, imported when the
command runs, so ``ragpulse --help`` loads no judge, HTTP client or scheduler. The labelling commands
(``label``, ``labels import``, ``export --labelled``) are the dashboards', which send them through a running
``ragpulse serve``; their work on a store is in :mod:`ragpulse_scorers.commands.label` and ``.export``.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from ragpulse_core.cli import Subparsers, add_dsn, parse_window, runs

from ragpulse_scorers.cli_arguments import add_scorer_flags, variant_list
from ragpulse_scorers.evaluation.datasets import Split

SUPPORT_JUDGE_NAMES = ("lexical", "learnt", "openai")


def register(subparsers: Subparsers) -> None:
    for add_command in (_eval, _pairwise, _score):
        add_command(subparsers)


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
    support.add_argument(
        "--judge", default="lexical", metavar="NAME",
        help=f"judge to measure: {', '.join(SUPPORT_JUDGE_NAMES)}, or an evaluator of the config that"
        " measures hallucination (default lexical)",
    )  # fmt: skip
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
    support.add_argument(
        "--folds",
        type=int,
        help="cross-validate the learnt free judge on --data instead: train it on the other folds' "
        "questions, judge each fold's answers (grouped k-fold by question), print out-of-fold figures beside "
        "the rules'",
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
    add_dsn(parser)
    parser.add_argument(
        "--variants", type=variant_list, metavar="A,B", help="variants to compare (default: all)"
    )
    parser.add_argument("--since", type=parse_window, default=timedelta(hours=24), metavar="24h",
                        help="look back this far: 90s, 30m, 24h, 7d (default 24h)")  # fmt: skip
    parser.add_argument("--limit", type=int, default=50, metavar="N", help="at most N questions (default 50)")
    parser.add_argument("--tournaments", type=int, default=10, help="Elo tournaments to average (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the tournaments' shuffles (default 0)")
    parser.set_defaults(func=runs("ragpulse_scorers.commands.pairwise"))


def _score(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score recorded requests",
        description="Score requests recorded in ragpulse_requests: one tick with --once, else every "
        "scorer.interval_s seconds until Ctrl-C.",
    )
    parser.add_argument("--once", action="store_true", help="run one tick, print what happened, exit")
    parser.add_argument(
        "--rule", metavar="NAME",
        help="backfill: apply this [[rules]] rule to past requests (--since), then exit; run again to resume",
    )  # fmt: skip
    parser.add_argument("--since", type=parse_window, default=timedelta(days=7), metavar="7d",
                        help="with --rule: look back this far: 30m, 24h, 7d (default 7d)")  # fmt: skip
    add_dsn(parser)
    add_scorer_flags(parser)
    parser.set_defaults(func=runs("ragpulse_scorers.commands.score"))
