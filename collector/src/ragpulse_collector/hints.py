"""What to tell a sender that used a path, method or gRPC service the collector does not serve.

Most such requests come from an exporter pointed at the wrong URL, and the answer is often the only thing its
owner sees: it names the right path and, for the common mistake of a signal path in the base endpoint, the
environment variable to fix. Over HTTP the hint is in the reason phrase as well as the body, because stock
exporters log the status line and not the body.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from ragpulse_collector.signals import SIGNALS, Signal

HEALTH_PATH = "/healthz"
METRICS_PAGE_PATH = "/metrics"
SERVED = (
    ", ".join(f"POST {signal.path}" for signal in SIGNALS)
    + f" (OTLP/HTTP, protobuf or JSON); GET {HEALTH_PATH}; GET {METRICS_PAGE_PATH}"
)
# Words a wrong path may end in, and the path each most likely meant.
_MEANT_BY_WORD: dict[str, str] = {
    **{word: signal.path for signal in SIGNALS for word in (signal.name, signal.name.rstrip("s"))},
    "spans": "/v1/traces",
    "span": "/v1/traces",
    "events": "/v1/logs",
    "healthz": HEALTH_PATH,
    "health": HEALTH_PATH,
    "v1": " or ".join(signal.path for signal in SIGNALS),
}
_CLOSE_ENOUGH = 0.75


@dataclass(frozen=True)
class HttpAnswer:
    reason: str
    text: str


@dataclass(frozen=True)
class _Hint:
    """``short`` never quotes the request (it goes into the status line); ``detail`` may."""

    short: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.short} {self.detail}".strip()


def unknown_path(path: str) -> HttpAnswer:
    """A 404: what was probably meant, and every path served."""
    hint = _likely_meant(path)
    return HttpAnswer(
        _status_phrase(f"Not Found. {hint.short}" if hint.short else "Not Found"),
        f"404: no such path {path}. {str(hint) + ' ' if str(hint) else ''}This collector serves {SERVED}.\n",
    )


def wrong_method(method: str, path: str, allowed: set[str]) -> HttpAnswer:
    """A 405: which method the path takes, and why a browser or a GET probe gets this."""
    takes = " or ".join(sorted(allowed - {"HEAD"}))
    signal = _signal_at(path)
    why = f" OTLP exporters POST {signal.name} here; there is no page to GET." if signal else ""
    return HttpAnswer(
        _status_phrase(f"Method Not Allowed. {path} takes {takes}"),
        f"405: {path} takes {takes}, not {method}.{why}\n",
    )


def unknown_grpc_method(method: str) -> str:
    """The message of an UNIMPLEMENTED status: the methods served, and the closest one."""
    served = [signal.grpc_method for signal in SIGNALS]
    close = difflib.get_close_matches(method, served, n=1, cutoff=_CLOSE_ENOUGH)
    meant = f" Did you mean {close[0]}?" if close else ""
    return f"unknown method {method}.{meant} This collector serves {', '.join(served)} (OTLP/gRPC)."


def _signal_at(path: str) -> Signal | None:
    return next((signal for signal in SIGNALS if signal.path == path), None)


def _likely_meant(path: str) -> _Hint:
    lowered = path.lower().rstrip("/")
    for signal in SIGNALS:
        if lowered == signal.path:
            return _Hint(f"Did you mean {signal.path}?")
        if lowered.endswith(signal.path):
            return _prefixed(signal, lowered[: -len(signal.path)])
    words = [word for word in lowered.split("/") if word]
    close = difflib.get_close_matches(words[-1], _MEANT_BY_WORD, n=1, cutoff=_CLOSE_ENOUGH) if words else []
    return _Hint(f"Did you mean {_MEANT_BY_WORD[close[0]]}?" if close else "")


def _prefixed(signal: Signal, prefix: str) -> _Hint:
    """A signal path behind something else: most often a signal path already in the base endpoint."""
    variable = f"OTEL_EXPORTER_OTLP_{signal.name.upper()}_ENDPOINT"
    if any(prefix.endswith(other.path) for other in SIGNALS):
        return _Hint(
            f"Did you mean {signal.path}? The exporter's endpoint already ended in a signal path: "
            "OTEL_EXPORTER_OTLP_ENDPOINT takes the base URL (http://host:4318) and the SDK appends "
            f"{signal.path} to it, while {variable} takes the full URL (http://host:4318{signal.path}) as it "
            "is."
        )
    return _Hint(
        f"Did you mean {signal.path}? This collector serves it at the root.",
        f"Drop {prefix} from the endpoint.",
    )


def _status_phrase(text: str) -> str:
    """Printable ASCII only: a reason phrase must not carry a line break, and the request's path is the
    sender's to choose."""
    return "".join(char for char in text if " " <= char <= "~")
