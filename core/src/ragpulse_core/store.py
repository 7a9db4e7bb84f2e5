"""The Store: one small API over clickhouse-connect, whichever engine the DSN names.

``chdb:///abs/path`` opens embedded chDB (one process per path); ``http(s)://user:pass@host:8123/db``
talks to a ClickHouse server. The same SQL runs on both; values always travel by server-side binding
(``{name:Type}``).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import clickhouse_connect
from clickhouse_connect.driver.client import Client
from clickhouse_connect.driver.exceptions import DatabaseError, DataError, OperationalError

logger = logging.getLogger(__name__)

DEFAULT_DATABASE = "ragpulse"


class StoreUnavailable(Exception):
    """The database could not be reached or refused the operation; callers may retry later."""


class StoreRefused(StoreUnavailable):
    """The database, reached, refused the data itself: retrying the same rows fails the same way.

    A subclass so that callers which only retry keep working; the collector's writer tells the two apart
    and sets refused rows aside instead of retrying them forever.
    """


# ClickHouse error codes that blame the data rather than the server's state: TYPE_MISMATCH,
# CANNOT_PARSE_TEXT, ARGUMENT_OUT_OF_BOUND, CANNOT_CONVERT_TYPE, INCORRECT_DATA, TOO_LARGE_ARRAY_SIZE,
# TOO_LARGE_STRING_SIZE, SIZES_OF_ARRAYS_DONT_MATCH, VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE,
# CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN, DECIMAL_OVERFLOW. DataError is the client failing to encode a value.
_DATA_ERROR_CODES = frozenset({6, 27, 41, 53, 69, 70, 117, 128, 131, 190, 321, 349, 407})
# TOO_MANY_PARTS (252) blames the data only when it names the partitions of one insert block; merges
# falling behind share the code and clear up on their own.
_TOO_MANY_PARTS = 252
_ERROR_CODE = re.compile(r"Code: (\d+)\.")


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
    client; chDB (4.x) allows many handles to one path inside a process.
    """

    def __init__(self, dsn: str, database: str = DEFAULT_DATABASE) -> None:
        self.dsn = dsn
        self.database = database
        self.is_embedded = dsn.startswith("chdb:")
        self._local = threading.local()
        if self.is_embedded:
            Path(urlsplit(dsn).path).mkdir(parents=True, exist_ok=True)

    def table(self, name: str) -> str:
        return f"`{self.database}`.`{name}`"

    def _client(self) -> Client:
        client: Client | None = getattr(self._local, "client", None)
        if client is None:
            try:
                # chDB is in-process: HTTP session and timeout options mean nothing to it.
                http_options: dict[str, Any] = (
                    {}
                    if self.is_embedded
                    else {"autogenerate_session_id": False, "connect_timeout": 5, "send_receive_timeout": 60}
                )
                client = clickhouse_connect.get_client(dsn=self.dsn, **http_options)
            except Exception as exc:
                raise StoreUnavailable(f"cannot connect to {describe_dsn(self.dsn)}: {exc}") from exc
            self._local.client = client
        return client

    def _run(self, what: str, call: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, **kwargs)
        except StoreUnavailable:
            raise
        except Exception as exc:
            if _blames_the_data(exc):
                raise StoreRefused(f"{what} refused by {describe_dsn(self.dsn)}: {exc}") from exc
            # A broken connection poisons the thread's client: drop it so the next call reconnects.
            self._local.client = None
            raise StoreUnavailable(f"{what} failed on {describe_dsn(self.dsn)}: {exc}") from exc

    def command(
        self, sql: str, parameters: dict[str, Any] | None = None, *, use_database: bool = True
    ) -> Any:
        client = self._client()
        return self._run("command", client.command, sql, parameters=parameters, use_database=use_database)

    def query(self, sql: str, parameters: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        client = self._client()
        result = self._run("query", client.query, sql, parameters=parameters)
        return list(result.result_rows)

    def query_dicts(self, sql: str, parameters: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        client = self._client()
        result = self._run("query", client.query, sql, parameters=parameters)
        return [dict(zip(result.column_names, row, strict=True)) for row in result.result_rows]

    def insert(
        self,
        table: str,
        rows: Sequence[Sequence[Any]],
        column_names: Sequence[str],
        *,
        dedup_token: str | None = None,
    ) -> None:
        """Insert rows; a ``dedup_token`` makes a retried insert of the same batch a no-op."""
        if rows:
            self._insert(table, rows, dedup_token, column_names=list(column_names))

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
                column_names=list(column_types),
                column_type_names=list(column_types.values()),
                column_oriented=True,
            )

    def _insert(
        self, table: str, data: Sequence[Sequence[Any]], dedup_token: str | None, **layout: Any
    ) -> None:
        settings = {"insert_deduplication_token": dedup_token} if dedup_token else None
        client = self._client()
        self._run(
            f"insert into {table}",
            client.insert,
            table,
            data,
            database=self.database,
            settings=settings,
            **layout,
        )

    def ping(self) -> bool:
        try:
            self.command("SELECT 1", use_database=False)
        except StoreUnavailable:
            return False
        return True

    def close(self) -> None:
        client: Client | None = getattr(self._local, "client", None)
        if client is not None:
            client.close()
            self._local.client = None


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
