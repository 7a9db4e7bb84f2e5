"""The Store: one small API over clickhouse-connect, whichever engine the DSN names.

``chdb:///abs/path`` opens embedded chDB (one process per path); ``http(s)://user:pass@host:8123/db``
talks to a ClickHouse server. The same SQL runs on both; values always travel by server-side binding
(``{name:Type}``).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import clickhouse_connect
from clickhouse_connect.driver.client import Client
from clickhouse_connect.driver.exceptions import DatabaseError, DataError, OperationalError

# Re-exported: callers import the errors from the store they use.
from ragpulse_core.bind_text import prerendered
from ragpulse_core.errors import InvalidDsn as InvalidDsn
from ragpulse_core.errors import StoreMissing as StoreMissing
from ragpulse_core.errors import StoreRefused as StoreRefused
from ragpulse_core.errors import StoreUnavailable as StoreUnavailable
from ragpulse_core.holder import current_holder

logger = logging.getLogger(__name__)

DEFAULT_DATABASE = "ragpulse"

# ClickHouse error codes that blame the data rather than the server's state: CANNOT_PARSE_TEXT,
# CANNOT_PARSE_INPUT_ASSERTION_FAILED, CANNOT_PARSE_DATETIME, TYPE_MISMATCH, ARGUMENT_OUT_OF_BOUND,
# CANNOT_CONVERT_TYPE, INCORRECT_DATA, TOO_LARGE_ARRAY_SIZE, TOO_LARGE_STRING_SIZE,
# SIZES_OF_ARRAYS_DONT_MATCH, VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE, CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN,
# DECIMAL_OVERFLOW. DataError is the client failing to encode a value.
_DATA_ERROR_CODES = frozenset({6, 27, 41, 53, 69, 70, 117, 128, 131, 190, 321, 349, 407})
# TOO_MANY_PARTS (252) blames the data only when it names the partitions of one insert block; merges
# falling behind share the code and clear up on their own.
_TOO_MANY_PARTS = 252
_ERROR_CODE = re.compile(r"Code: (\d+)\.")


DSN_SCHEMES = ("chdb", "http", "https")
# Embedded paths this process opened: chDB shares them between handles here, so their lock is ours.
_OPENED_HERE: set[Path] = set()


def validate_dsn(dsn: str) -> str:
    """``dsn`` unchanged when its scheme is one the Store opens; else an :class:`InvalidDsn` saying why."""
    parts = urlsplit(dsn)
    if parts.scheme not in DSN_SCHEMES:
        hint = f" (an embedded database there is chdb://{Path(dsn).resolve()})" if not parts.scheme else ""
        raise InvalidDsn(
            f"unsupported store DSN {describe_dsn(dsn)!r}{hint}: use chdb:///abs/path,"
            " http://user:pass@host:8123 or https://..."
        )
    if parts.scheme == "chdb" and not parts.path:
        raise InvalidDsn(f"store DSN {dsn!r} names no path: use chdb:///abs/path")
    if parts.scheme != "chdb" and not parts.hostname:
        raise InvalidDsn(f"store DSN {describe_dsn(dsn)!r} names no host")
    return dsn


def with_credentials(dsn: str, user: str | None, password: str | None) -> str:
    """``dsn`` with ``user`` and ``password`` percent-encoded into it, replacing any it had.

    A password such as ``p@ss/w:rd`` pasted into a URL would split it in the wrong places; given apart (as
    ``store.user``/``store.password``, e.g. from a compose file) it is encoded here.
    """
    parts = urlsplit(dsn)
    if parts.scheme not in ("http", "https"):
        raise InvalidDsn("store.user and store.password apply to http(s) DSNs only")
    name = user if user is not None else unquote(parts.username or "default")
    secret = password if password is not None else unquote(parts.password or "")
    userinfo = quote(name, safe="") + (f":{quote(secret, safe='')}" if secret else "")
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{userinfo}@{host}").geturl()


def embedded_path(dsn: str) -> Path | None:
    """The directory of a ``chdb://`` DSN; None for a server DSN."""
    parts = urlsplit(dsn)
    return Path(parts.path) if parts.scheme == "chdb" else None


def default_dsn(base_dir: Path | None = None) -> str:
    """The embedded default: chDB under ``./.ragpulse/chdb``."""
    return f"chdb://{((base_dir or Path.cwd()) / '.ragpulse' / 'chdb').resolve()}"


def describe_dsn(dsn: str) -> str:
    """The DSN without its password, for logs and error messages."""
    parts = urlsplit(dsn)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return parts._replace(netloc=netloc).geturl()
    return dsn


class Store:
    """Thread-safe access to the ragpulse tables.

    clickhouse-connect clients must not run concurrent queries in one session, so each thread gets its own
    client; chDB (4.x) allows many handles to one path inside a process. Every client this Store opened is
    known here with the thread it serves, so a failed one is closed before the next is opened (an outage
    retried every second must not pile up connections), the clients of threads that have ended are closed when
    another thread opens one (each scoring turn and each report reads on short-lived threads; an embedded
    client holds about half a MiB, which a long-running ``serve`` would otherwise keep for every tick), and
    :meth:`close` closes those of every thread.
    """

    def __init__(self, dsn: str, database: str = DEFAULT_DATABASE, *, read_only: bool = False) -> None:
        """Open ``dsn``; an embedded path is created unless ``read_only`` (then a missing one is an error)."""
        self.dsn = validate_dsn(dsn)
        self.database = database
        self.is_embedded = dsn.startswith("chdb:")
        self._local = threading.local()
        self._clients: dict[Client, threading.Thread] = {}
        self._clients_lock = threading.Lock()
        self._path = embedded_path(dsn)
        if self._path is not None:
            _prepare_embedded(self._path, create=not read_only)

    def table(self, name: str) -> str:
        return f"`{self.database}`.`{name}`"

    def _client(self) -> Client:
        client: Client | None = getattr(self._local, "client", None)
        if client is None or client not in self._clients:  # none yet, or closed by close()
            if self._path is not None and self._path not in _OPENED_HERE:
                with _opening(self._path):
                    # Checked before chDB tries, which would print its lock error to stderr and fail vaguely;
                    # two processes opening at once check one after the other, so one of them sees the lock.
                    # A thread of this process that waited here while another opened the path sees that
                    # process's own lock: it is not held elsewhere.
                    if self._path not in _OPENED_HERE and _locked_elsewhere(self._path):
                        raise StoreUnavailable(self._held_message())
                    client = self._connect()
                    _OPENED_HERE.add(self._path)
            else:
                client = self._connect()
            with self._clients_lock:
                self._clients[client] = threading.current_thread()
            self._local.client = client
            # After the new one opened: closing an embedded path's last client would shut chDB's engine down
            # only for this one to start it again.
            self._release_ended_threads()
        return client

    def _release_ended_threads(self) -> None:
        with self._clients_lock:
            ended = [client for client, thread in self._clients.items() if not thread.is_alive()]
        for client in ended:
            self._discard(client)

    def _connect(self) -> Client:
        try:
            # chDB is in-process: HTTP session and timeout options mean nothing to it.
            http_options: dict[str, Any] = (
                {}
                if self.is_embedded
                else {"autogenerate_session_id": False, "connect_timeout": 5, "send_receive_timeout": 60}
            )
            return clickhouse_connect.get_client(dsn=self.dsn, **http_options)
        except Exception as exc:
            raise StoreUnavailable(self._why_unreachable(exc)) from exc

    def _discard(self, client: Client) -> None:
        """Close ``client`` and forget it; a client that fails to close is gone all the same."""
        with self._clients_lock:
            self._clients.pop(client, None)
        try:
            client.close()
        except Exception as exc:  # closing a broken connection may fail again; nothing is left to release
            logger.debug("closing a failed store client: %s", exc)

    def _why_unreachable(self, exc: Exception) -> str:
        if self._path is not None and _is_lock_error(exc):
            return self._held_message()
        return f"cannot connect to {describe_dsn(self.dsn)}: {_root_cause(exc)}"

    def _held_message(self) -> str:
        assert self._path is not None
        holder = current_holder(self._path)
        if holder is not None:
            return holder.describe(self._path)
        return (
            f"another process holds the chDB database {self._path} (chDB opens a path in one process at a"
            " time): stop it, or point both at a ClickHouse server"
        )

    def _run(self, what: str, call: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, **kwargs)
        except StoreUnavailable:
            raise
        except Exception as exc:
            if _blames_the_data(exc):
                raise StoreRefused(f"{what} refused by {describe_dsn(self.dsn)}: {exc}") from exc
            # A broken connection poisons the thread's client: close it so the next call reconnects.
            client = getattr(self._local, "client", None)
            self._local.client = None
            if client is not None:
                self._discard(client)
            if self._path is not None and _is_lock_error(exc):
                raise StoreUnavailable(self._why_unreachable(exc)) from exc
            raise StoreUnavailable(f"{what} failed on {describe_dsn(self.dsn)}: {exc}") from exc

    def command(
        self, sql: str, parameters: dict[str, Any] | None = None, *, use_database: bool = True
    ) -> Any:
        client = self._client()
        parameters = prerendered(sql, parameters)
        return self._run("command", client.command, sql, parameters=parameters, use_database=use_database)

    def query(self, sql: str, parameters: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        client = self._client()
        result = self._run("query", client.query, sql, parameters=prerendered(sql, parameters))
        return list(result.result_rows)

    def query_dicts(self, sql: str, parameters: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        client = self._client()
        result = self._run("query", client.query, sql, parameters=prerendered(sql, parameters))
        return [dict(zip(result.column_names, row, strict=True)) for row in result.result_rows]

    def insert(
        self,
        table: str,
        rows: Sequence[Sequence[Any]],
        column_names: Sequence[str],
        *,
        dedup_token: str | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> None:
        """Insert rows; a ``dedup_token`` makes a retried insert of the same batch a no-op. ``settings``: the
        insert's own ClickHouse settings, which the views it feeds run with too."""
        if rows:
            self._insert(table, rows, dedup_token, settings, column_names=list(column_names))

    def insert_columns(
        self,
        table: str,
        columns: Sequence[Sequence[Any]],
        column_types: dict[str, str],
        *,
        dedup_token: str | None = None,
    ) -> None:
        """Insert column-oriented data (one sequence per column, in ``column_types`` order).

        Naming the types skips the per-insert DESCRIBE round trip; the collector's hot path uses this.
        """
        if columns and columns[0]:
            self._insert(
                table,
                columns,
                dedup_token,
                None,
                column_names=list(column_types),
                column_type_names=list(column_types.values()),
                column_oriented=True,
            )

    def _insert(
        self,
        table: str,
        data: Sequence[Sequence[Any]],
        dedup_token: str | None,
        own_settings: Mapping[str, Any] | None,
        **layout: Any,
    ) -> None:
        settings = dict(own_settings or {})
        if dedup_token:
            settings["insert_deduplication_token"] = dedup_token
        client = self._client()
        self._run(
            f"insert into {table}",
            client.insert,
            table,
            data,
            database=self.database,
            settings=settings or None,
            **layout,
        )

    def ping(self) -> bool:
        try:
            self.command("SELECT 1", use_database=False)
        except StoreUnavailable:
            return False
        return True

    def has_free_space(self, size: int) -> bool:
        """Whether the database could write ``size`` more bytes: for chDB, a probe file of that size beside
        its directory is written and removed (this process's disk and file-size limit are chDB's); for a
        server, every disk has that much free beyond what it keeps free. False when it cannot tell."""
        if self._path is not None:
            return write_probe(self._path.with_name(f"{self._path.name}.probe"), size)
        try:
            rows = self.query("SELECT min(free_space - keep_free_space) FROM system.disks")
        except (StoreUnavailable, StoreRefused):
            return False
        return bool(rows) and int(rows[0][0]) >= size

    def close(self) -> None:
        """Close the clients of every thread; a thread that uses the Store again opens a new one."""
        with self._clients_lock:
            clients = list(self._clients)
        for client in clients:
            self._discard(client)
        self._local.client = None


def _prepare_embedded(path: Path, *, create: bool) -> None:
    """Check (and unless reading only, create) an embedded database directory, naming what is wrong."""
    if path.exists() and not path.is_dir():
        raise InvalidDsn(f"the chDB path {path} is a file, not a database directory")
    holder = current_holder(path)
    if holder is not None:
        raise StoreUnavailable(holder.describe(path))
    if not create:
        if not path.is_dir():
            raise StoreMissing(f"no ragpulse database at {path} (this command creates none)")
        return
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidDsn(f"cannot create the chDB directory {path}: {exc.strerror or exc}") from exc
    if not os.access(path, os.W_OK | os.X_OK):
        raise InvalidDsn(f"cannot write to the chDB directory {path}: permission denied")


def write_probe(path: Path, size: int) -> bool:
    """Whether ``size`` bytes can be written (and fsync'd) at ``path`` now; the file is removed after."""
    try:
        with open(path, "wb") as handle:
            handle.write(bytes(size))
            handle.flush()
            os.fsync(handle.fileno())
    except OSError:
        return False
    finally:
        path.unlink(missing_ok=True)
    return True


def _root_cause(exc: Exception) -> str:
    """What the operating system said (``Connection refused``) when the driver wraps it in pool and retry
    messages; else the driver's first line."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, OSError) and cause.strerror:
            return cause.strerror
        cause = cause.__cause__ or cause.__context__
    return _first_line(exc)


def _first_line(exc: Exception) -> str:
    """Drivers put stack traces and server dumps after the first line; a person needs that line."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


@contextlib.contextmanager
def _opening(path: Path) -> Iterator[None]:
    """Hold an exclusive flock on the database directory itself while checking for and opening chDB there.

    chDB locks ``status`` inside the directory, never the directory, so this lock only orders openers.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:  # gone or unreadable: chDB's own attempt says why
        yield
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def _locked_elsewhere(path: Path) -> bool:
    """Another process runs chDB on ``path``: it holds an exclusive flock on the directory's status file."""
    try:
        descriptor = os.open(path / "status", os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    else:
        fcntl.flock(descriptor, fcntl.LOCK_UN)
        return False
    finally:
        os.close(descriptor)


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc).lower()
    return "cannot lock file" in text or "another server instance" in text


def _blames_the_data(exc: Exception) -> bool:
    """Whether ``exc`` is the database refusing these values rather than failing to take any."""
    if isinstance(exc, OperationalError):
        return False
    if isinstance(exc, DataError):
        return True
    if isinstance(exc, DatabaseError):
        match = _ERROR_CODE.search(str(exc))
        code = int(match.group(1)) if match else None
        if code == _TOO_MANY_PARTS:
            return "partitions for single INSERT block" in str(exc)
        return code in _DATA_ERROR_CODES
    return False
