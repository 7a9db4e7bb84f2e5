"""The process an isolated evaluator function runs in (``python -m ragpulse_scorers.evaluators.worker``).

It speaks one JSON object a line: the first line it reads says what to load; then each line in is one call
(``{"call": N, "argument": ...}``) and each line out its reply, naming the call it answers. A process the
function forked never replies: a forked copy finishing the same call would otherwise answer it twice, and
its second answer would be read as the next call's. Replies go out on a copy of the original stdout; the
function's own prints (and anything written to file descriptors 1 and 2) go elsewhere, so nothing the
function prints can be taken for a reply. The address-space bound is set before the function's module is
imported.
"""

from __future__ import annotations

import importlib
import io
import json
import math
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

MAX_OUTPUT_CHARS = 2000
WATCH_INTERVAL_S = 1.0


class _Captured(io.TextIOBase):
    """What the function prints, kept up to :data:`MAX_OUTPUT_CHARS` per call."""

    def __init__(self) -> None:
        self.text = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        room = MAX_OUTPUT_CHARS - len(self.text)
        if room > 0:
            self.text += str(text)[:room]
        return len(text)

    def take(self) -> str:
        text, self.text = self.text, ""
        return text


def _limit_memory(megabytes: int) -> None:
    try:
        import resource
    except ImportError:  # not a POSIX system: the timeout still bounds the call
        return
    limit = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _load(spec: dict[str, Any]) -> Callable[[Any], Any]:
    for directory in reversed(spec.get("path", [])):
        sys.path.insert(0, directory)
    module_name, _, attribute = spec["entry"].partition(":")
    function = getattr(importlib.import_module(module_name), attribute)
    if "setup" in spec:
        function = function(spec["setup"])
    if not callable(function):
        raise TypeError(f"{spec['entry']} is not callable")
    return function  # type: ignore[no-any-return]


def _as_json(value: Any) -> Any:
    """The result as JSON values; TypeError for what JSON cannot carry (NaN is checked by the caller)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        return {str(key): _as_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_json(item) for item in value]
    raise TypeError(f"returned {type(value).__name__}, which is not a number, a bool or a dict of them")


def _reply(channel: io.BufferedWriter, message: dict[str, Any]) -> None:
    channel.write(json.dumps(message, allow_nan=False).encode() + b"\n")
    channel.flush()


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value


def main() -> None:
    channel = os.fdopen(os.dup(1), "wb")
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    captured = _Captured()
    sys.stdout = sys.stderr = captured
    spec = json.loads(sys.stdin.readline())
    _die_with(int(spec["parent"]))
    _limit_memory(int(spec["memory_mb"]))
    try:
        function = _load(spec)
        convert = _request_model() if spec.get("request") else None
    except (Exception, SystemExit) as exc:
        _reply(channel, {"ok": False, "error": f"cannot load {spec['entry']}: {_error(exc)}"})
        return
    _reply(channel, {"ok": True})
    worker = os.getpid()
    for line in sys.stdin:
        message = json.loads(line)
        call, argument = message["call"], message["argument"]
        try:
            result = _as_json(function(convert(argument) if convert else argument))
            reply = {"ok": True, "call": call, "result": _finite(result), "output": captured.take()}
        except (Exception, SystemExit) as exc:  # one call's failure, sys.exit included, is that call's reply
            reply = {"ok": False, "call": call, "error": _error(exc), "output": captured.take()}
        if os.getpid() != worker:
            os._exit(0)
        _reply(channel, reply)


def _die_with(parent: int) -> None:
    """End when the scheduler is gone, even mid-call: a hung call never reads the closed pipe that tells an
    idle worker to stop. (PR_SET_PDEATHSIG would follow the thread that started the worker, not the
    process.)"""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_INTERVAL_S)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _error(exc: BaseException) -> str:
    where = traceback.extract_tb(exc.__traceback__)
    last = f" (at {os.path.basename(where[-1].filename)}:{where[-1].lineno})" if where else ""
    return f"{type(exc).__name__}: {exc}{last}"


def _request_model() -> Callable[[Any], Any]:
    from ragpulse_scorers.models import RagRequest

    return RagRequest.model_validate


if __name__ == "__main__":
    main()
