"""The labelling commands as calls: what ``label``, ``label --next``, ``labels import`` and ``export
--labelled`` ask, as flags give it and as the live page's label API carries it (query parameters, and the
file as the body of an import), and the work each does on a store.

A command runs its call on the store it opens; while ``ragpulse serve`` holds the embedded database, it sends
the call to serve's live page, which runs the same work on its own store and sends back what it printed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import IO, ClassVar, Protocol, TextIO

from ragpulse_core.store import Store
from ragpulse_core.times import utc_from_iso
from ragpulse_scorers.commands.export import export_labelled
from ragpulse_scorers.commands.label import LabelOrder, import_file, label_request, show_next
from rich.console import Console

LABEL_API_PREFIX = "/api/v1/labels/"
WRITE_TOKEN_HEADER = "X-Ragpulse-Write-Token"
IMPORT_MAX_BYTES = 64 * 1024 * 1024
"""The largest file ``labels import`` sends through serve, and serve takes."""
_VERDICTS = ("hallucinated", "grounded")
_TEXT_LIMIT = 4096


class LabelCall(Protocol):
    name: ClassVar[str]
    writes: ClassVar[bool]
    """Whether the call stores labels: then serve takes it only with its write token, when it has one."""
    takes_file: ClassVar[bool]
    """Whether the call carries a file (the body of its post)."""

    def params(self) -> dict[str, str]: ...

    def perform(self, store: Store, console: Console, out: TextIO, body: IO[bytes] | None) -> int:
        """Do the work on ``store``: lines for people on ``console``, data (an export) on ``out``; the
        command's exit status."""
        ...


@dataclass(frozen=True)
class LabelOne:
    name: ClassVar[str] = "label"
    writes: ClassVar[bool] = True
    takes_file: ClassVar[bool] = False
    order: LabelOrder

    def params(self) -> dict[str, str]:
        order = self.order
        return {
            "trace": order.trace_id,
            "verdict": order.verdict,
            "author": order.author,
            "span": order.span_id or "",
            "at": order.at.isoformat() if order.at is not None else "",
            "note": order.note,
        }

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> LabelOne:
        verdict = params.get("verdict", "")
        if verdict not in _VERDICTS:
            raise ValueError(f"verdict is one of {', '.join(_VERDICTS)}")
        at = params.get("at", "")
        return cls(
            LabelOrder(
                trace_id=_text(params, "trace", required=True),
                verdict=verdict,
                author=_text(params, "author", required=True),
                span_id=_text(params, "span") or None,
                at=utc_from_iso(at) if at else None,
                note=_text(params, "note"),
            )
        )

    def perform(self, store: Store, console: Console, out: TextIO, body: IO[bytes] | None) -> int:
        return label_request(store, self.order, console)


@dataclass(frozen=True)
class NextToLabel:
    name: ClassVar[str] = "next"
    writes: ClassVar[bool] = False
    takes_file: ClassVar[bool] = False
    service: str | None
    command: str
    """How the user runs ragpulse, for the line that says how to label the request."""

    def params(self) -> dict[str, str]:
        return {"service": self.service or "", "command": self.command}

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> NextToLabel:
        return cls(_text(params, "service") or None, _text(params, "command") or "ragpulse")

    def perform(self, store: Store, console: Console, out: TextIO, body: IO[bytes] | None) -> int:
        return show_next(store, console, service=self.service, command=self.command)


@dataclass(frozen=True)
class ImportLabels:
    name: ClassVar[str] = "import"
    writes: ClassVar[bool] = True
    takes_file: ClassVar[bool] = True
    file_name: str
    """The file as the user named it, for the lines that point at its bad lines."""
    author: str

    def params(self) -> dict[str, str]:
        return {"file": self.file_name, "author": self.author}

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> ImportLabels:
        return cls(_text(params, "file", required=True), _text(params, "author", required=True))

    def perform(self, store: Store, console: Console, out: TextIO, body: IO[bytes] | None) -> int:
        if body is None:
            raise ValueError("an import carries its file as the body")
        return import_file(store, body, self.file_name, self.author, console)


@dataclass(frozen=True)
class ExportLabelled:
    name: ClassVar[str] = "export"
    writes: ClassVar[bool] = False
    takes_file: ClassVar[bool] = False
    since: timedelta | None
    everything: bool

    def params(self) -> dict[str, str]:
        since = "" if self.since is None else repr(self.since.total_seconds())
        return {"since_s": since, "all": str(int(self.everything))}

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> ExportLabelled:
        since = params.get("since_s", "")
        everything = params.get("all", "0")
        if everything not in ("0", "1"):
            raise ValueError("all is 0 or 1")
        try:
            seconds = float(since) if since else None
        except ValueError:
            raise ValueError("since_s is a number of seconds") from None
        if seconds is not None and not 0 < seconds < 1e10:
            raise ValueError("since_s lies above 0 and below 1e10")
        return cls(timedelta(seconds=seconds) if seconds is not None else None, everything == "1")

    def perform(self, store: Store, console: Console, out: TextIO, body: IO[bytes] | None) -> int:
        start = datetime.now(UTC) - self.since if self.since is not None else None
        return export_labelled(store, out, console, since=start, everything=self.everything)


CALLS: dict[str, type[LabelOne] | type[NextToLabel] | type[ImportLabels] | type[ExportLabelled]] = {
    call.name: call for call in (LabelOne, NextToLabel, ImportLabels, ExportLabelled)
}


def call_named(name: str, params: Mapping[str, str]) -> LabelCall:
    """The call a request names; ValueError (saying what is wrong) for anything else."""
    kind = CALLS.get(name)
    if kind is None:
        raise ValueError(f"no label call {name!r}: the label API takes {', '.join(CALLS)}")
    return kind.from_params(params)


def _text(params: Mapping[str, str], name: str, *, required: bool = False) -> str:
    value = params.get(name, "")
    if required and not value.strip():
        raise ValueError(f"{name} is required")
    if len(value) > _TEXT_LIMIT:
        raise ValueError(f"{name} is longer than {_TEXT_LIMIT} characters")
    return value
