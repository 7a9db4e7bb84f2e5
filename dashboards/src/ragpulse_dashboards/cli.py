"""The dashboards' subcommands of ``ragpulse``: their flags only. Labelling (``label``, ``labels import``,
``export --labelled``) is here, beside the live page it goes through while ``ragpulse serve`` runs.

Each command's work is the ``run(args)`` of its module in :mod:`ragpulse_dashboards.commands`, imported when
the command runs, so ``ragpulse --help`` loads no report, page server or scheduler.
"""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path

from ragpulse_core.cli import Subparsers, add_dsn, parse_window, runs
from ragpulse_core.commands import add_collector_flags
from ragpulse_core.times import utc_from_iso
from ragpulse_scorers.cli_arguments import add_scorer_flags

LABEL_VERDICTS = ("hallucinated", "grounded")


def register(subparsers: Subparsers) -> None:
    for add_command in (
        _alerts,
        _assembly,
        _evaluators,
        _export,
        _label,
        _labels,
        _report,
        _requests,
        _rules,
        _serve,
    ):
        add_command(subparsers)


def _alerts(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("alerts", help="list built-in alerts (firing first)")
    add_dsn(parser)
    parser.add_argument("--all", action="store_true", help="also list resolved alerts")
    parser.add_argument("--evaluate", action="store_true", help="evaluate every alert rule now, then list")
    parser.set_defaults(func=runs("ragpulse_dashboards.commands.alerts"))


def _assembly(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "assembly",
        help="what request assembly makes of stored traces, and per-service mappings",
        description="Check what the rules and a service's [[assembly.mappings]] entry extract from stored "
        "traces.",
    )
    actions = parser.add_subparsers(dest="assembly_action", metavar="ACTION", required=True)
    preview = actions.add_parser(
        "preview",
        help="show what would be extracted from a service's recent traces, per field",
        description="Reads the newest traces of SERVICE (settled or not, assembled before or not), and shows "
        "for each the question, documents and answer that the rules and the service's mapping find, whether "
        "it would be scored and, if not, why. Writes nothing; reads through `ragpulse serve` when it holds "
        "the database.",
    )
    add_dsn(preview)
    preview.add_argument("--service", required=True, help="the service's name (service.name)")
    preview.add_argument("--last", type=int, default=20, metavar="N", help="the N newest traces (default 20)")
    preview.add_argument("--since", default="24h", help="look back to: 24h, 90m, 7d or an ISO timestamp")
    preview.set_defaults(func=runs("ragpulse_dashboards.commands.assembly"))
    templates = actions.add_parser(
        "templates",
        help="the prompt templates learnt from each service's traffic, and how to pin one",
        description="Lists the template versions learnt from each service's prompts (per place: the"
        " generating call's span name and message roles): the skeleton with its slots marked ({{question}},"
        " {{documents}}), when each was first and last seen, how many requests it read and how many of those"
        " could not be scored. --pin VERSION prints the [[assembly.mappings]] entry that reads the service's"
        " prompts with that version alone. Writes nothing; reads through `ragpulse serve` when it holds the"
        " database.",
    )
    add_dsn(templates)
    templates.add_argument("--service", help="only this service (default: every service)")
    templates.add_argument("--since", default="7d", help="versions read since: 7d, 24h or an ISO timestamp")
    templates.add_argument("--pin", metavar="VERSION", help="print the mapping that pins this version")
    templates.set_defaults(func=runs("ragpulse_dashboards.commands.assembly", "run_templates"))
    rerun = actions.add_parser(
        "rerun",
        help="assemble recent traces again after a mapping changed, superseding what was judged",
        description="Assembles the settled traces of other instrumentations started within --since again"
        " with today's rules and mappings. A request that comes out different replaces its row, what was"
        " judged on the old row stops counting at once, and every scorer judges it again at its next tick."
        " It writes: stop `ragpulse serve` first.",
    )
    add_dsn(rerun)
    rerun.add_argument("--since", type=parse_window, default="24h", help="look back this far: 90m, 24h, 7d")
    rerun.add_argument("--service", help="only this service (default: every service)")
    rerun.set_defaults(func=runs("ragpulse_dashboards.commands.assembly", "run_rerun"))


def _evaluators(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "evaluators",
        help="the config's own evaluators: list them, try one on stored requests",
        description="Evaluators are judges of your own ([evaluators.<kind>.<name>]: llm, regex, json_schema,"
        " heuristic, python). They run once a [[rules]] rule (or scorer.scorers) names them.",
    )
    actions = parser.add_subparsers(dest="evaluators_action", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list", help="every evaluator with its kind, version and the rules that run it"
    )
    listing.set_defaults(func=runs("ragpulse_dashboards.commands.evaluators", "run_list"))
    test = actions.add_parser(
        "test",
        help="run one evaluator on stored requests and show what it did (writes nothing)",
        description="Runs the evaluator NAME of this config on the request TRACE_ID or the newest N requests:"
        " for an llm evaluator the rendered prompt, the judge's raw reply and the scores; for a python one"
        " what it printed; why a request is skipped or fails, as a tick would record it. Nothing is written."
        " Reads through `ragpulse serve` when it holds the database; the evaluator runs here.",
    )
    test.add_argument("name", metavar="NAME", help="the evaluator")
    which = test.add_mutually_exclusive_group()
    which.add_argument("--request", metavar="TRACE_ID", help="the request with this trace id")
    which.add_argument("--last", type=int, default=20, metavar="N", help="the newest N requests (default 20)")
    add_dsn(test)
    test.add_argument(
        "--since", default="7d", help="look back to: 24h, 90m, 7d or an ISO timestamp (default 7d)"
    )
    test.add_argument("--service", help="only this service's requests")
    test.set_defaults(func=runs("ragpulse_dashboards.commands.evaluators", "run_test"))


def _rules(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "rules",
        help="what each [[rules]] rule would judge, from stored traffic",
        description="Check the config's [[rules]] on stored traffic before they run.",
    )
    actions = parser.add_subparsers(dest="rules_action", metavar="ACTION", required=True)
    preview = actions.add_parser(
        "preview",
        help="requests a day each rule matches, its judge calls and cost, and example requests",
        description="Applies the config's rules (and the default rule of scorer.scorers/sample_rate) to the "
        "requests stored within --since: per rule the requests a day it matches and includes, the judge "
        "calls a day it would pay for (a judge runs once per request) within its daily budgets, their cost, "
        "and five recent requests it includes. Writes nothing; reads through `ragpulse serve` when it holds "
        "the database.",
    )
    preview.add_argument("name", nargs="?", metavar="NAME", help="only this rule (default: every rule)")
    add_dsn(preview)
    preview.add_argument("--since", default="24h", help="look back to: 24h, 90m, 7d or an ISO timestamp")
    preview.set_defaults(func=runs("ragpulse_dashboards.commands.rules"))


def _report(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "report",
        help="print the quality report (and write it as HTML)",
        description="Hallucination rate per variant with 95% intervals, support, utilization and the other "
        "metrics, latency per step, the worst requests, judge spend and scoring lag.",
    )
    add_dsn(parser)
    parser.add_argument("--html", type=Path, help="also write a self-contained HTML report to this file")
    parser.add_argument("--since", default="24h", help="window start: 24h, 90m, 7d or an ISO timestamp")
    parser.add_argument("--service", help="only this service")
    parser.set_defaults(func=runs("ragpulse_dashboards.commands.report"))


def _requests(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "requests",
        help="list recent requests, and why those not scored are not",
        description="The newest requests of the window, one line each: where it came from (Source), where "
        "its context was found (ContextSource), and, for a request no judge may score, the reason (content "
        "capture off, no context, an unparseable value...), with what to change.",
    )
    add_dsn(parser)
    parser.add_argument("--unscored", action="store_true", help="only requests that cannot be scored")
    parser.add_argument("--since", default="24h", help="window start: 24h, 90m, 7d or an ISO timestamp")
    parser.add_argument("--service", help="only this service")
    parser.add_argument("--limit", type=int, default=50, metavar="N", help="at most N requests (default 50)")
    parser.set_defaults(func=runs("ragpulse_dashboards.commands.requests"))


def _serve(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the collector, the scorer and the live report page in one process",
        description="Receive OTLP traces, score them on a schedule and serve the live report (default"
        " http://127.0.0.1:4319/, live.port) until Ctrl-C. It takes the flags of `ragpulse collector` and"
        " `ragpulse score`, under the same names.",
    )
    add_dsn(parser)
    collector = parser.add_argument_group("collector (as `ragpulse collector`)")
    add_collector_flags(collector)
    scorer = parser.add_argument_group("scorer (as `ragpulse score`)")
    add_scorer_flags(scorer)
    live = parser.add_argument_group("live report page")
    live.add_argument("--live-port", type=int, help="live report page port (default: live.port, 4319)")
    live.add_argument("--no-live", action="store_true", help="do not serve the live report page")
    parser.set_defaults(func=runs("ragpulse_dashboards.commands.serve"))


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
    parser.set_defaults(func=runs("ragpulse_dashboards.commands.labels", "run_export"))


def _label(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "label",
        help="label a recorded request hallucinated or grounded, as a reviewer",
        description="Label the request with TRACE_ID, or any unique prefix of it (8 characters at least: the "
        "16 that `requests` and the report print will do). An author's later label of the same request "
        "replaces the earlier one. A trace id several requests reused is refused with the list of them: name "
        "one with --span and --at. While `ragpulse serve` holds the database, labels go through its live "
        "page.",
    )
    add_dsn(parser)
    parser.add_argument(
        "trace_id", nargs="?", metavar="TRACE_ID", help="trace id of the request, or a unique prefix of it"
    )
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
    parser.set_defaults(func=runs("ragpulse_dashboards.commands.labels", "run_label"))


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
    importing.set_defaults(func=runs("ragpulse_dashboards.commands.labels", "run_import"))


def iso_time(text: str) -> datetime:
    """An ISO 8601 time; a time without a zone is UTC."""
    try:
        return utc_from_iso(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 time: {text!r}") from None
