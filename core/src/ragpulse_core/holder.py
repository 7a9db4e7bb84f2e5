"""Who holds an embedded database: chDB opens a path in one process at a time.

A long-running command (``ragpulse serve``) leaves a small JSON note beside the chDB directory with its pid
and the URL of its live page, so another command that finds the path locked can read through the page, or say
where to look instead of quoting chDB's lock error. A read token made for the run is in the note too, which
only its owner can read (mode 0600): whoever can read the note can read the database files beside it anyway.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Holder:
    pid: int
    command: str
    page_url: str | None = None
    page_token: str | None = None

    def describe(self, path: Path) -> str:
        where = f"; its live report is at {self.page_url}" if self.page_url else ""
        return f"`{self.command}` (pid {self.pid}) holds the chDB database {path}{where}"


def holder_file(path: Path) -> Path:
    """``/data/chdb`` -> ``/data/chdb.holder.json``: beside the directory, never inside chDB's own files."""
    return path.with_name(f"{path.name}.holder.json")


def claim(path: Path, command: str, page_url: str | None, page_token: str | None = None) -> Path:
    """Record this process as the holder of ``path``; returns the note, for :func:`release`.
    ``page_token`` is a token made for this run (a configured one is not copied anywhere)."""
    note = holder_file(path)
    note.parent.mkdir(parents=True, exist_ok=True)
    temporary = note.with_suffix(f".{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as written:
        written.write(json.dumps(asdict(Holder(os.getpid(), command, page_url, page_token))))
    temporary.replace(note)
    return note


def release(note: Path) -> None:
    """Remove the note if it is still this process's."""
    holder = _read(note)
    if holder is not None and holder.pid == os.getpid():
        note.unlink(missing_ok=True)


def current_holder(path: Path) -> Holder | None:
    """Another live process that claimed ``path``; None when none did, or its note is stale."""
    holder = _read(holder_file(path))
    if holder is None or holder.pid == os.getpid() or not _alive(holder.pid):
        return None
    return holder


def _read(note: Path) -> Holder | None:
    try:
        values = json.loads(note.read_text(encoding="utf-8"))
        token = values.get("page_token")
        return Holder(
            int(values["pid"]), str(values["command"]), values.get("page_url"), str(token) if token else None
        )
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        logger.debug("ignoring unreadable holder note %s: %s", note, exc)
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
