"""The scorers' subcommands of ``ragpulse``: their flags only.

Each command's work is the ``run(args)`` of its module in :mod:`ragpulse_scorers.commands`, imported when the
command runs, so ``ragpulse --help`` loads no judge, HTTP client or scheduler.
"""

from __future__ import annotations

import argparse
from datetime import datetime, timedelta
from pathlib import Path

from ragpulse_core.cli import Subparsers, add_dsn, parse_window, runs
from ragpulse_core.times import utc_from_iso

from ragpulse_scorers.cli_arguments import add_scorer_flags, variant_list
from ragpulse_scorers.evaluation.datasets import Split

SUPPORT_JUDGE_NAMES = ("lexical", "learnt", "openai")
LABEL_VERDICTS = ("hallucinated", "grounded")


def register(subparsers: Subparsers) -> None:
    for add_command in (_eval, _export, _label, _labels, _pairwise, _score):
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


def _export(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write recorded requests as JSONL (--labelled: the set `ragpulse eval support --data` reads)",
        description="Write the requests people labelled (reviewer and imported labels; the latest of each "
        "request) to stdout, one JSON object a line, in the RAGTruth-style format `ragpulse eval support "
        "--data` reads. By default only the review queue's random share, the requests the report's figures "
        "count, so `eval` on the set reproduces them.",
    )
    add_dsn(parser)
    parser.add_argument(
        "--labelled", action="store_true", required=True, help="the labelled requests (the only export yet)"
    )
    parser.add_argument(
        "--since", type=parse_window, metavar="7d", help="requests this recent: 30m, 24h, 7d (default: all)"
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="every labelled request, also those the queue picked because the judges disagreed or were "
        "unsure (a harder set; its figures are not the report's)",
    )
    parser.set_defaults(func=runs("ragpulse_scorers.commands.export"))


def _label(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "label",
        help="label a recorded request hallucinated or grounded, as a reviewer",
        description="Label the request with TRACE_ID. An author's later label of the same request replaces "
        "the earlier one. A trace id several requests reused is refused with the list of them: name one with "
        "--span and --at.",
    )
    add_dsn(parser)
    parser.add_argument("trace_id", nargs="?", metavar="TRACE_ID", help="trace id of the request")
    parser.add_argument(
        "verdict", nargs="?", choices=LABEL_VERDICTS, metavar="hallucinated|grounded", help="the label"
    )
    parser.add_argument("--note", default="", help="why, in a few words")
    parser.add_argument("--author", help="who labels (default: the user running the command)")
    parser.add_argument("--span", metavar="SPAN_ID", help="span id of the request's root span")
    parser.add_argument(
        "--at", type=iso_time, metavar="TIME", help="the request's start time (ISO 8601, to the microsecond)"
    )
    parser.add_argument(
        "--next",
        action="store_true",
        help="print the review queue's next request of the last 24 h (and why it was offered) instead",
    )
    parser.add_argument("--service", metavar="NAME", help="with --next: only this service's requests")
    parser.set_defaults(func=runs("ragpulse_scorers.commands.label"))


def _labels(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("labels", help="import people's labels of recorded requests")
    actions = parser.add_subparsers(dest="labels_action", metavar="ACTION", required=True)
    importing = actions.add_parser(
        "import",
        help="import labels from a JSONL file",
        description="One JSON object a line: trace_id and label (hallucinated or grounded) required; "
        "span_id, request_time, author, sentences, note, score optional. Bad lines are reported with their "
        "numbers; the good ones are kept.",
    )
    add_dsn(importing)
    importing.add_argument("file", type=Path, metavar="FILE.jsonl", help="the labels")
    importing.add_argument("--author", help="author of lines that name none (default: the user running this)")
    importing.set_defaults(func=runs("ragpulse_scorers.commands.label", "run_import"))


def iso_time(text: str) -> datetime:
    """An ISO 8601 time; a time without a zone is UTC."""
    try:
        return utc_from_iso(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 time: {text!r}") from None


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
