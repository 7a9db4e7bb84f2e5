"""The dashboards' subcommands of ``ragpulse``: their flags only.

Each command's work is the ``run(args)`` of its module in :mod:`ragpulse_dashboards.commands`, imported when
the command runs, so ``ragpulse --help`` loads no report, page server or scheduler.
"""

from __future__ import annotations

from pathlib import Path

from ragpulse_core.cli import Subparsers, add_dsn, parse_window, runs
from ragpulse_core.commands import add_collector_flags
from ragpulse_scorers.cli_arguments import add_scorer_flags


def register(subparsers: Subparsers) -> None:
    for add_command in (_alerts, _assembly, _evaluators, _report, _requests, _rules, _serve):
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
