"""Who holds an embedded database: chDB opens a path in one process at a time.

A long-running command (``ragpulse serve``) leaves a small JSON note beside the chDB directory with its pid
and the URL of its live page, so another command that finds the path locked can read through the page, or say
where to look instead of quoting chDB's lock error. A read token made for the run is in the note too, which
only its owner can read (mode 0600): whoever can read the note can read the database files beside it anyway.

A note is only trusted to say where to read (and with which token) when the user running the command owns
it, no one else may write it, and its page is on this machine (a loopback address): a note planted beside a
shared database must not make a command send its read token to a URL of the planter's choosing.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import stat
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

logger = logging.getLogger(__name__)
_NOTE_BYTES = 64 * 1024


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
        # Opened once without following a link, and checked on what was opened: a note swapped between a
        # check and a read is not trusted.
        descriptor = os.open(note, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(descriptor, "rb") as opened:
            status = os.fstat(opened.fileno())
            if not stat.S_ISREG(status.st_mode):
                logger.warning("ignoring the holder note %s: it is not a regular file", note)
                return None
            untrusted = _untrusted(status)
            values = json.loads(opened.read(_NOTE_BYTES).decode("utf-8"))
        token = values.get("page_token")
        url = values.get("page_url")
        holder = Holder(
            int(values["pid"]),
            str(values["command"]),
            str(url) if url else None,
            str(token) if token else None,
        )
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        logger.debug("ignoring unreadable holder note %s: %s", note, exc)
        return None
    if untrusted is None and holder.page_url and not _loopback_page(holder.page_url):
        untrusted = "its page is not on this machine"
    if untrusted is not None:
        logger.warning("not reading through the holder note %s: %s", note, untrusted)
        return replace(holder, page_url=None, page_token=None)
    return holder


def _untrusted(status: os.stat_result) -> str | None:
    """Why a note of ``status`` may not say where to send a token, or None when it may."""
    if status.st_uid != os.geteuid():
        return f"it belongs to user {status.st_uid}, not to this user ({os.geteuid()})"
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "others may write it"
    return None


def _loopback_page(url: str) -> bool:
    """True when ``url`` is http(s) on this machine: ``localhost`` or a loopback address."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.username or parts.password:
        return False
    host = (parts.hostname or "").rstrip(".")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
