"""A bounded, crash-safe on-disk queue of write batches, for while ClickHouse is unreachable.

Each batch is one file named by a sequence number, written to a temporary name, fsync'd and renamed, so a
crash leaves either the whole batch or nothing. A batch keeps the dedup token it was first written with: when
a crash falls between a successful insert and the file's removal, the replay's insert is a no-op in ClickHouse
(``insert_deduplication_token`` within ``non_replicated_deduplication_window``) instead of a duplicate.

A batch names its table (format 2); batches of format 1, written before the collector took logs, are spans.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from ragpulse_core.store import write_probe

from ragpulse_collector.tables import LAYOUTS, SPANS, TableRows

logger = logging.getLogger(__name__)

_SUFFIX = ".batch"
_FORMAT_VERSION = 2
_SEQUENCE_DIGITS = 16
# The writer keeps its journal here too (ragpulse_collector.journal).
JOURNAL_SUFFIX = ".journal"
# Removed at start like any leftover of a write that crashed.
_PROBE_SUFFIX = ".tmp"


class SpoolFull(Exception):
    """The spool has no room for another batch."""


@dataclass(frozen=True)
class SpooledBatch:
    path: Path
    token: str
    rows: TableRows


class Spool:
    """Batches in arrival order under ``directory``, at most ``max_bytes`` in all."""

    def __init__(self, directory: Path, max_bytes: int) -> None:
        self.directory = directory
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        directory.mkdir(parents=True, exist_ok=True)
        for leftover in filter(Path.is_file, directory.glob("*.tmp")):
            # A write that crashed before its rename was never acknowledged: its sender retries it.
            leftover.unlink()
        self._files = sorted(path for path in directory.glob(f"*{_SUFFIX}") if _is_batch_file(path))
        for stray in sorted(set(directory.iterdir()) - set(self._files)):
            if stray.suffix not in (".corrupt", JOURNAL_SUFFIX):
                logger.warning("ignoring %s in the spool directory: not a spooled batch", stray)
        self._bytes = sum(path.stat().st_size for path in self._files)
        self._next_sequence = int(self._files[-1].stem) + 1 if self._files else 0
        if self._files:
            logger.warning("spool %s holds %d batch(es) to replay", directory, len(self._files))

    def __len__(self) -> int:
        with self._lock:
            return len(self._files)

    @property
    def size_bytes(self) -> int:
        with self._lock:
            return self._bytes

    def append(self, token: str, rows: TableRows) -> None:
        """Store a batch durably; :class:`SpoolFull` when it does not fit, ``OSError`` on disk errors."""
        layout = rows.layout
        payload = json.dumps(
            {
                "version": _FORMAT_VERSION,
                "table": layout.table,
                "token": token,
                "columns": dict(zip(layout.column_names, rows.columns, strict=True)),
            },
            separators=(",", ":"),
        ).encode()
        with self._lock:
            if self._bytes + len(payload) > self.max_bytes:
                raise SpoolFull(
                    f"spool {self.directory} is full ({self._bytes} of {self.max_bytes} bytes used)"
                )
            path = self.directory / f"{self._next_sequence:0{_SEQUENCE_DIGITS}d}{_SUFFIX}"
            temporary = path.with_suffix(".tmp")
            try:
                with open(temporary, "wb") as handle:
                    handle.write(payload)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(temporary, path)
            except OSError:
                # A full disk leaves half a batch behind: give its space back now, not at the next start.
                temporary.unlink(missing_ok=True)
                raise
            _fsync_directory(self.directory)
            self._next_sequence += 1
            self._files.append(path)
            self._bytes += len(payload)

    def has_room(self, size: int) -> bool:
        """Whether a batch of ``size`` bytes would fit now: under ``max_bytes``, and a probe file of that size
        is written, fsync'd and removed without error (a full disk or a file-size limit refuses it)."""
        with self._lock:
            if self._bytes + size > self.max_bytes:
                return False
        return write_probe(self.directory / f"probe{_PROBE_SUFFIX}", size)

    def newest_token(self) -> str | None:
        """The dedup token of the batch spooled last; None when there is none or it cannot be read."""
        with self._lock:
            if not self._files:
                return None
            path = self._files[-1]
        try:
            return str(json.loads(path.read_bytes())["token"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def oldest(self) -> SpooledBatch | None:
        """The first batch still to replay; unreadable files are set aside (``.corrupt``) and skipped."""
        while True:
            with self._lock:
                if not self._files:
                    return None
                path = self._files[0]
            try:
                document = json.loads(path.read_bytes())
                layout = LAYOUTS[document.get("table", SPANS.table)]
                columns = [document["columns"][name] for name in layout.column_names]
                return SpooledBatch(path, str(document["token"]), TableRows(layout, columns))
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
                logger.error("spooled batch %s is unreadable (%s); moved aside as .corrupt", path, exc)
                self._forget(path, path.with_suffix(".corrupt"))

    def newest_rows(self, limit: int) -> list[TableRows]:
        """The rows of the newest batches, up to about ``limit`` rows; unreadable ones are left to
        :meth:`oldest` to set aside."""
        with self._lock:
            paths = list(reversed(self._files))
        found: list[TableRows] = []
        total = 0
        for path in paths:
            if total >= limit:
                break
            try:
                document = json.loads(path.read_bytes())
                layout = LAYOUTS[document.get("table", SPANS.table)]
                rows = TableRows(layout, [document["columns"][name] for name in layout.column_names])
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                continue
            found.append(rows)
            total += len(rows)
        return found

    def remove(self, batch: SpooledBatch) -> None:
        self._forget(batch.path, None)

    def _forget(self, path: Path, rename_to: Path | None) -> None:
        with self._lock:
            size = path.stat().st_size if path.exists() else 0
            if rename_to is None:
                path.unlink(missing_ok=True)
            else:
                os.replace(path, rename_to)
            _fsync_directory(self.directory)
            self._files.remove(path)
            self._bytes -= size


def _is_batch_file(path: Path) -> bool:
    return path.is_file() and len(path.stem) == _SEQUENCE_DIGITS and path.stem.isdigit()


def _fsync_directory(directory: Path) -> None:
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
