"""``ragpulse label``, ``label --next``, ``labels import`` and ``export --labelled``: on the store, or through
the ``ragpulse serve`` that holds it.

While serve holds the embedded database, each command sends its call to serve's live page
(:mod:`ragpulse_dashboards.commands.label_calls`), which does the same work and sends back what it printed;
labels stored that way are authenticated as the page's own label form is (the read token, and the write token
when one is set). Where a call cannot go through serve, one line says what to do instead.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import IO

from ragpulse_core.cli import invoked_as
from ragpulse_core.store import Store
from ragpulse_core.store_access import open_for_reading, open_migrated_store
from ragpulse_core.tokens import TokenError
from ragpulse_scorers.commands.label import LabelOrder
from rich.console import Console
from rich.markup import escape

from ragpulse_dashboards.commands.label_calls import (
    IMPORT_MAX_BYTES,
    LABEL_API_PREFIX,
    WRITE_TOKEN_HEADER,
    ExportLabelled,
    ImportLabels,
    LabelCall,
    LabelOne,
    NextToLabel,
)
from ragpulse_dashboards.commands.serve_calls import Held, ServeCallFailed, call_serve, held_by_another
from ragpulse_dashboards.commands.serve_reads import terminal
from ragpulse_dashboards.live.access import write_token
from ragpulse_dashboards.review.html import QUEUE_PATH
from ragpulse_dashboards.settings import DashboardsSettings

console = Console()
errors = Console(stderr=True)
CALL_TIMEOUT_S = 60.0
IMPORT_TIMEOUT_S = 600.0


def run_label(args: argparse.Namespace) -> int:
    if args.next:
        if args.trace_id or args.verdict is not None:
            console.print(
                "[red]error:[/red] --next takes no trace id or label: it says which request to label"
            )
            return 2
        return _run(args, NextToLabel(args.service, invoked_as()), console)
    if args.service:
        console.print("[red]error:[/red] --service goes with --next: a trace id already names its service")
        return 2
    if not args.trace_id or args.verdict is None:
        console.print("[red]error:[/red] give a trace id and hallucinated or grounded (or --next)")
        return 2
    order = LabelOrder(
        trace_id=args.trace_id, verdict=args.verdict, author=args.author or getpass.getuser(),
        span_id=args.span, at=args.at, note=args.note,
    )  # fmt: skip
    return _run(args, LabelOne(order), console)


def run_import(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        stream = path.open("rb")
    except OSError as exc:
        console.print(
            f"[red]error:[/red] cannot read {escape(str(path))}: {escape(str(exc))}", soft_wrap=True
        )
        return 1
    with stream:
        return _run(args, ImportLabels(str(path), args.author or getpass.getuser()), console, stream)


def run_export(args: argparse.Namespace) -> int:
    return _run(args, ExportLabelled(args.since, args.all), errors)


def _run(args: argparse.Namespace, call: LabelCall, said: Console, body: IO[bytes] | None = None) -> int:
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    held = held_by_another(settings)
    if held is not None:
        return _through_serve(held, settings, call, said, body)
    store = _open(settings, call, said)
    if store is None:
        return 1
    try:
        return call.perform(store, said, sys.stdout, body)
    finally:
        store.close()


def _open(settings: DashboardsSettings, call: LabelCall, said: Console) -> Store | None:
    return open_migrated_store(settings) if call.writes else open_for_reading(settings, said)


def _through_serve(
    held: Held, settings: DashboardsSettings, call: LabelCall, said: Console, body: IO[bytes] | None
) -> int:
    page = held.holder.page_url
    if not page:
        return _failed(
            said,
            f"{held.describe()} and serves no live page, so this cannot go through it: stop it (Ctrl-C)"
            " and run this again, or restart it with its live page and label at its /review page",
        )
    review = f"{page.rstrip('/')}{QUEUE_PATH}"
    headers: dict[str, str] = {}
    if call.writes:
        try:
            token = write_token(settings)
        except TokenError as exc:
            return _failed(said, str(exc))
        if token is not None:
            headers[WRITE_TOKEN_HEADER] = token
    sent = _body(body)
    if body is not None and sent is None:
        return _failed(
            said,
            f"{held.describe()}; a file over {IMPORT_MAX_BYTES // 2**20} MiB is not sent through it: stop it"
            f" (Ctrl-C) and import again, or split the file (or label at {review})",
        )
    try:
        answer = call_serve(
            held, settings, f"{LABEL_API_PREFIX}{call.name}", {**call.params(), **terminal(said)},
            body=sent or b"", headers=headers,
            timeout_s=IMPORT_TIMEOUT_S if body is not None else CALL_TIMEOUT_S,
        )  # fmt: skip
    except ServeCallFailed as exc:
        hint = f" (or label at {review}; stopping serve lets this command open the store itself)"
        return _failed(said, f"{exc}{hint if call.writes else ''}")
    sys.stdout.write(str(answer.get("stdout", "")))
    sys.stdout.flush()
    said.file.write(str(answer.get("output", "")))
    said.file.flush()
    return int(answer.get("exit", 1))


def _body(stream: IO[bytes] | None) -> bytes | None:
    """The file to send, or None when it is over :data:`IMPORT_MAX_BYTES` (or there is none)."""
    if stream is None:
        return None
    data = stream.read(IMPORT_MAX_BYTES + 1)
    return data if len(data) <= IMPORT_MAX_BYTES else None


def _failed(said: Console, message: str) -> int:
    said.print(f"[red]error:[/red] {escape(message)}", soft_wrap=True)
    return 1
