"""A function run in a process of its own, with a hard timeout and a memory bound.

A team's evaluator may hang, raise, exhaust memory or print garbage; none of it may stall a tick or crash
the scheduler. The function lives in a worker process (:mod:`.worker`) that is started on first use, loads
the function once and answers one call at a time over a pipe. A call that does not answer in time has its
process killed (the whole process group, so a subprocess it started goes too); the next call starts a new
one. What the function prints never reaches the reply channel.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

MAX_REPLY_BYTES = 1 << 20
LOAD_TIMEOUT_S = 30.0
"""Loading the function (importing its module) may take this long, apart from each call's own timeout."""
_READ_CHUNK = 65536


class IsolatedCallFailed(Exception):
    """The call gave no usable reply: the function raised, timed out, or its process died. The message
    says which, for the scoring log."""


class IsolatedFunction:
    """``entry`` (``module:function``, or a factory called once with ``setup``) in a worker process."""

    def __init__(
        self,
        entry: str,
        *,
        timeout_s: float,
        memory_mb: int,
        path: Sequence[Path] = (),
        setup: Any = None,
        request: bool = False,
    ) -> None:
        """``request``: the worker turns each call's argument into a ``RagRequest`` before the call."""
        self._spec: dict[str, Any] = {
            "entry": entry,
            "memory_mb": memory_mb,
            "path": [str(Path(directory).resolve()) for directory in path],
            "request": request,
            "parent": os.getpid(),
        }
        if setup is not None:
            self._spec["setup"] = setup
        self._entry = entry
        self._timeout_s = timeout_s
        self._memory_mb = memory_mb
        self._process: subprocess.Popen[bytes] | None = None
        self._load_error: str | None = None
        self._calls = 0
        self._lock = threading.Lock()
        _LIVE.add(self)

    def call(self, argument: Any) -> tuple[Any, str]:
        """The function's result for ``argument`` (JSON values) and what it printed; raises
        :class:`IsolatedCallFailed` with the reason otherwise."""
        with self._lock:
            if self._load_error is not None:
                raise IsolatedCallFailed(self._load_error)
            process = self._process or self._start()
            self._calls += 1
            call = self._calls
            # ASCII escapes: a lone surrogate in traced text travels as \ud800 instead of failing to encode.
            message = json.dumps({"call": call, "argument": argument}, default=str).encode() + b"\n"
            try:
                assert process.stdin is not None
                process.stdin.write(message)
                process.stdin.flush()
            except (BrokenPipeError, OSError):
                raise IsolatedCallFailed(self._ended(process)) from None
            reply = self._reply(process, self._timeout_s, "answer")
            if reply.get("call") != call:
                # Something the function started wrote on the reply channel: no reply can be trusted to be
                # this call's.
                self._discard(process)
                raise IsolatedCallFailed(f"{self._entry}'s process answered out of turn: it was stopped")
            if not reply.get("ok"):
                raise IsolatedCallFailed(str(reply.get("error", "the call failed")))
            return reply.get("result"), str(reply.get("output", ""))

    def close(self) -> None:
        with self._lock:
            if self._process is not None:
                _kill(self._process)
                self._process = None

    def _start(self) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [sys.executable, "-m", "ragpulse_scorers.evaluators.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: a kill takes what it started too
        )
        assert process.stdin is not None
        process.stdin.write(json.dumps(self._spec).encode() + b"\n")
        process.stdin.flush()
        ready = self._reply(process, LOAD_TIMEOUT_S, "load")
        if not ready.get("ok"):
            self._load_error = str(ready.get("error", f"cannot load {self._entry}"))
            _kill(process)
            raise IsolatedCallFailed(self._load_error)
        self._process = process
        return process

    def _reply(self, process: subprocess.Popen[bytes], timeout_s: float, what: str) -> dict[str, Any]:
        """The next line the worker writes, parsed; kills the worker on a timeout, an end or garbage."""
        assert process.stdout is not None
        fd = process.stdout.fileno()
        deadline = time.monotonic() + timeout_s
        received = bytearray()
        while b"\n" not in received:
            remaining = deadline - time.monotonic()
            readable = select.select([fd], [], [], max(remaining, 0.0))[0] if remaining > 0 else []
            if not readable:
                self._discard(process)
                raise IsolatedCallFailed(
                    f"{self._entry} did not {what} within {timeout_s:g} s: its process was stopped"
                    " (a new one starts for the next request)"
                )
            chunk = os.read(fd, _READ_CHUNK)
            if not chunk:
                self._discard(process)
                raise IsolatedCallFailed(self._ended(process))
            received += chunk
            if len(received) > MAX_REPLY_BYTES:
                self._discard(process)
                raise IsolatedCallFailed(f"{self._entry} replied more than {MAX_REPLY_BYTES >> 20} MiB")
        line, _, rest = bytes(received).partition(b"\n")
        try:
            reply = json.loads(line)
        except ValueError:
            reply = None
        if rest or not isinstance(reply, dict):
            self._discard(process)
            raise IsolatedCallFailed(f"{self._entry}'s process sent an unreadable reply: it was stopped")
        return reply

    def _discard(self, process: subprocess.Popen[bytes]) -> None:
        _kill(process)
        if self._process is process:
            self._process = None

    def _ended(self, process: subprocess.Popen[bytes]) -> str:
        self._discard(process)
        code = process.returncode
        if code is not None and code < 0:
            name = signal.Signals(-code).name if -code in signal.Signals.__members__.values() else str(-code)
            how = f"was killed by {name}"
            if -code == signal.SIGKILL:
                how += f" (over its memory bound of {self._memory_mb} MiB?)"
        else:
            how = f"exited with code {code}"
        return f"{self._entry}'s process {how} during the call (a new one starts for the next request)"


_LIVE: weakref.WeakSet[IsolatedFunction] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for function in list(_LIVE):
        function.close()


def _kill(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            process.kill()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        logger.warning("evaluator process %d did not end after SIGKILL", process.pid)
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
