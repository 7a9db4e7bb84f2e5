"""What a command checks before its first side effect: ports it will listen on, files it will read or write.

Settings validation catches values that are wrong anywhere; these checks catch values that are wrong on this
machine, now: a port another process holds, a token file that is missing. Run before the store is opened,
they keep a failing command from leaving a migrated database (or a spool directory) behind.
"""

from __future__ import annotations

import errno
import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ragpulse_core.settings import CollectorSettings, ConfigError
from ragpulse_core.tokens import unsendable


class PortUnavailable(ConfigError):
    """A port a command would listen on is taken, forbidden, or given twice."""


@dataclass(frozen=True)
class Listener:
    """A port a command will listen on, who listens there, the flag that changes it, and the setting the port
    came from as the user wrote it (the flag, a file key or an environment variable)."""

    what: str
    host: str
    port: int | None
    flag: str
    setting: str = ""

    @property
    def named(self) -> str:
        return self.setting or self.flag


def _as_flag(section: str, field: str, flag: str) -> str:
    return flag


def collector_listeners(
    collector: CollectorSettings, origin: Callable[[str, str, str], str] = _as_flag
) -> list[Listener]:
    """The collector's ports; ``origin`` (:meth:`RagpulseSettings.origin`) names where each was set."""
    return [
        Listener(
            "the collector", collector.host, collector.port, "--port", origin("collector", "port", "--port")
        ),
        Listener(
            "the collector's OTLP/gRPC receiver",
            collector.host,
            collector.grpc_port,
            "--grpc-port",
            origin("collector", "grpc_port", "--grpc-port"),
        ),
    ]


def check_listeners(listeners: Sequence[Listener]) -> None:
    """Raise :class:`PortUnavailable` unless every fixed port can be bound now (0 and None pick their own).

    A probe, not a reservation: another process may still take a port in between, and then the command's
    own bind fails with the same message.
    """
    fixed = [listener for listener in listeners if listener.port]
    seen: dict[int, Listener] = {}
    for listener in fixed:
        assert listener.port is not None
        earlier = seen.setdefault(listener.port, listener)
        if earlier is not listener:
            raise PortUnavailable(
                f"{earlier.named} and {listener.named} are both {listener.port}: give each its own port"
            )
    for listener in fixed:
        _probe(listener)


def _probe(listener: Listener) -> None:
    assert listener.port is not None
    address = f"{listener.host}:{listener.port}"
    try:
        family, kind, protocol, _, socket_address = socket.getaddrinfo(
            listener.host, listener.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise PortUnavailable(
            f"cannot resolve the host {listener.host!r} ({exc.strerror}):"
            " pass --host an address of this machine"
        ) from None
    with socket.socket(family, kind, protocol) as probe:
        # As the servers bind: a port whose last connections linger in TIME_WAIT is free to listen on.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(socket_address)
        except OSError as exc:
            raise PortUnavailable(_why_not(exc, listener, address)) from None


def _why_not(exc: OSError, listener: Listener, address: str) -> str:
    if exc.errno == errno.EADDRINUSE:
        instead = f" (or change {listener.setting})" if listener.named != listener.flag else ""
        what = f"{address} is already in use, so {listener.what} cannot listen there"
        return f"{what}: pass {listener.flag}{instead}"
    if exc.errno == errno.EACCES:
        return (
            f"{address} needs privileges this process lacks, so {listener.what} cannot listen there:"
            f" pass {listener.flag} with a port above 1023"
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"{listener.host} is not an address of this machine: pass --host (127.0.0.1 or 0.0.0.0)"
    return f"{listener.what} cannot listen on {address}: {exc.strerror or exc}"


def check_collector_files(collector: CollectorSettings) -> None:
    """The auth token file can be read and is not empty (a blank token is a settings error before this);
    the spool directory can be created or written."""
    if collector.auth_token is None and collector.auth_token_file is not None:
        _check_token_file(collector.auth_token_file)
    if collector.spool_dir is not None:
        _check_writable_directory(collector.spool_dir, "--spool-dir")


def _check_token_file(path: Path) -> None:
    try:
        token = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise ConfigError(
            f"auth token file {path} does not exist: create it, or pass --auth-token-file"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not text"
        raise ConfigError(f"cannot read the auth token file {path}: {reason}") from None
    if not token:
        raise ConfigError(f"auth token file {path} is empty: put the token in it")
    problem = unsendable(token)
    if problem:
        raise ConfigError(f"auth token file {path} {problem}: keep the token on one line")


def _check_writable_directory(path: Path, flag: str) -> None:
    """``path`` is a writable directory, or could be created as one (its nearest existing parent is)."""
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ConfigError(f"{flag} {path}: {existing} is a file, not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ConfigError(f"{flag} {path}: {existing} is not writable by this user")
