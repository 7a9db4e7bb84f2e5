"""What the writer had under way when the collector last stopped, so a request retried after a crash is
stored once.

ClickHouse drops a retried insert that carries the same deduplication token, but the writer merges the
requests it holds into one batch, and after a crash a sender's retry is merged with other requests: another
batch, another token. So before each batch is inserted (or spooled) the writer appends its token and its
requests' digests to this journal, and once the batch is stored it appends the token again. On the next
start the journal says, for every request of the recent batches:

- *settled*: its batch was written or durably spooled; a retry is acknowledged without writing it again;
- *uncertain*: its batch was under way (or failed after part of it was inserted); a retry's rows are looked
  up in the table and only those not there are written.

The journal is appended without fsync: it survives a killed process (the kernel has the bytes), not a
power loss, which chDB's own parts would not survive either. It keeps the most recent ``keep_digests``
requests and is rewritten (to a temporary file, then renamed) once it has twice that many.
"""

from __future__ import annotations

import logging
import os
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

logger = logging.getLogger(__name__)

_BEGIN = "B"
_SETTLED = "S"


@dataclass
class Recovered:
    """What a journal left by the last run says about the requests it holds."""

    settled: set[str] = field(default_factory=set)
    # Uncertain batches' tokens, each with its requests' digests.
    uncertain: dict[str, list[str]] = field(default_factory=dict)


class WriteJournal:
    def __init__(self, path: Path, keep_digests: int) -> None:
        self.path = path
        self.keep_digests = keep_digests
        self._batches: deque[tuple[str, list[str], bool]] = deque()
        self._digests = 0
        self._lines_digests = 0
        self._broken = False
        self.recovered = self._read()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._handle = open(path, "a", encoding="ascii")  # noqa: SIM115 - kept open for the process's life

    def _read(self) -> Recovered:
        begun: dict[str, list[str]] = {}
        settled: set[str] = set()
        try:
            text = self.path.read_text(encoding="ascii")
        except FileNotFoundError:
            return Recovered()
        except (OSError, ValueError) as exc:
            logger.warning("write journal %s is unreadable (%s); starting a new one", self.path, exc)
            return Recovered()
        for line in text.splitlines():
            kind, _, rest = line.partition(" ")
            token, _, listed = rest.partition(" ")
            if kind == _BEGIN and token:
                begun[token] = listed.split()
            elif kind == _SETTLED and token in begun:
                settled.add(token)
        recovered = Recovered()
        for token, digests in begun.items():
            if token in settled:
                recovered.settled.update(digests)
            self._batches.append((token, digests, token in settled))
            self._digests += len(digests)
        for token, digests in begun.items():
            # A request retried after a failed batch and written in a later one is settled.
            if token not in settled and (unsure := [d for d in digests if d not in recovered.settled]):
                recovered.uncertain[token] = unsure
        self._trim()
        return recovered

    def begin(self, token: str, digests: list[str]) -> None:
        """Before a batch is inserted or spooled."""
        self._batches.append((token, digests, False))
        self._digests += len(digests)
        self._append(f"{_BEGIN} {token} {' '.join(digests)}\n", len(digests))

    def settle(self, token: str) -> None:
        """Once the batch is written or durably spooled."""
        if self._batches and self._batches[-1][0] == token:
            begun_token, digests, _ = self._batches[-1]
            self._batches[-1] = (begun_token, digests, True)
        self._append(f"{_SETTLED} {token}\n", 0)

    def record_stored(self, digests: list[str]) -> None:
        """Requests of an uncertain batch whose rows were all found stored: settled from now on."""
        token = f"stored-{digests[0]}"
        self.begin(token, digests)
        self.settle(token)

    def close(self) -> None:
        self._handle.close()

    def _append(self, line: str, digests: int) -> None:
        if self._broken:
            return
        try:
            self._handle.write(line)
            self._handle.flush()
            self._lines_digests += digests
            if self._lines_digests > 2 * self.keep_digests:
                self._rewrite()
        except (OSError, ValueError) as exc:
            # A full disk must not stop writes; retries after a crash may then be written twice.
            logger.error(
                "cannot write the write journal %s (%s): a crash may now double a retry", self.path, exc
            )
            self._broken = True

    def _trim(self) -> None:
        while self._batches and self._digests - len(self._batches[0][1]) >= self.keep_digests:
            self._digests -= len(self._batches.popleft()[1])

    def _rewrite(self) -> None:
        self._trim()
        temporary = self.path.with_suffix(".tmp")
        with open(temporary, "w", encoding="ascii") as handle:
            for token, digests, settled in self._batches:
                handle.write(f"{_BEGIN} {token} {' '.join(digests)}\n")
                if settled:
                    handle.write(f"{_SETTLED} {token}\n")
        os.replace(temporary, self.path)
        self._handle.close()
        self._handle = open(self.path, "a", encoding="ascii")  # noqa: SIM115
        self._lines_digests = self._digests
