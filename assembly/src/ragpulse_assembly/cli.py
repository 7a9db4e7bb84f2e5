"""The assembly's subcommands of ``ragpulse``: their flags only (the work is in
:mod:`ragpulse_assembly.commands`, imported when a command runs)."""

from __future__ import annotations

from ragpulse_core.cli import Subparsers, add_dsn, parse_window, runs


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "assembly",
        help="what request assembly makes of stored traces, and per-service mappings",
        description="Check what the rules and a service's [[assembly.mappings]] entry extract from stored "
        "traces, and assemble recent traces again after a mapping changed.",
    )
    actions = parser.add_subparsers(dest="assembly_action", metavar="ACTION", required=True)
    preview = actions.add_parser(
        "preview",
        help="show what would be extracted from a service's recent traces, per field",
        description="Reads the newest traces of SERVICE (settled or not, assembled before or not), and shows "
        "for each the question, documents and answer that the rules and the service's mapping find, whether "
        "it would be scored and, if not, why. Writes nothing.",
    )
    add_dsn(preview)
    preview.add_argument("--service", required=True, help="the service's name (service.name)")
    preview.add_argument("--last", type=int, default=20, metavar="N", help="the N newest traces (default 20)")
    preview.add_argument(
        "--since", type=parse_window, default="24h", help="look back this far: 90m, 24h, 7d (default 24h)"
    )
    preview.set_defaults(func=runs("ragpulse_assembly.commands", "run_preview"))
