"""``ragpulse assembly templates``: the template versions learnt from each service's prompts, as people read
them (skeleton with its slots marked, when each was first and last seen, how many requests it read and how
many of those could not be scored), and the mapping that pins one."""

from __future__ import annotations

from datetime import datetime

from ragpulse_core.patterns import glob_literal
from ragpulse_core.printable import printable, shown
from ragpulse_core.store import Store
from ragpulse_core.toml_text import toml_string
from rich.console import Console
from rich.markup import escape

from ragpulse_assembly.learnt.storage import StoredTemplate, stored_templates


def list_templates(store: Store, since: datetime, service: str | None, out: Console, pin: str = "") -> int:
    """Print the versions read since ``since``; with ``pin``, the mapping that pins that version. Returns an
    exit status (1: the version to pin is not stored)."""
    found = stored_templates(store, since, service)
    if pin:
        chosen = [stored for stored in found if stored.template.version == pin]
        if not chosen:
            out.print(
                f"No template version {shown(pin)!r} among those read since {since:%Y-%m-%d %H:%M} UTC."
            )
            return 1
        return _print_pin(chosen[0], out)
    if not found:
        whose = f" of service {shown(service)!r}" if service else ""
        out.print(f"No templates learnt{whose} since {since:%Y-%m-%d %H:%M} UTC.")
        return 0
    for stored in found:
        _print_version(stored, out)
    return 0


def _print_version(stored: StoredTemplate, out: Console) -> None:
    template = stored.template
    refused = f", {stored.refused} not scored" if stored.refused else ""
    out.print(
        f"[bold]{shown(template.service)}[/bold] · {shown(template.place)} · version"
        f" [bold]{template.version}[/bold]"
    )
    out.print(
        f"  learnt from {template.learnt_from} prompts; first seen {stored.first_seen:%Y-%m-%d %H:%M},"
        f" last seen {stored.last_seen:%Y-%m-%d %H:%M} UTC; read {stored.requests} requests{refused}"
    )
    slots = ", ".join(
        f"{slot.role.value}{' after ' + repr(printable(slot.label)) if slot.label else ''}"
        + (" (several documents, split by recurrence)" if slot.undivided else "")
        for slot in template.slots
    )
    out.print(f"  slots: {escape(slots)}")
    for line in template.skeleton().splitlines():
        out.print("  │ " + shown(line), soft_wrap=True, highlight=False)
    out.print()


def _print_pin(stored: StoredTemplate, out: Console) -> int:
    template = stored.template
    try:
        service = toml_string(glob_literal(template.service))
    except ValueError as error:
        out.print(f"Service {shown(template.service)!r} cannot be named in a config file: {error}.")
        return 1
    out.print(
        f"To read {shown(template.service)!r}'s prompts with version {template.version} alone (no structure"
        " rules, no learning), add to the config file, then `ragpulse assembly rerun --since 24h`:\n"
    )
    # Printed as written: the service name is the traffic's, and its brackets are not markup.
    out.print(
        f"[[assembly.mappings]]\nservice = {service}\ntemplate = {toml_string(template.version)}",
        markup=False,
        highlight=False,
    )
    return 0
