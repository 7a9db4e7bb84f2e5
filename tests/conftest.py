"""Fixtures shared by every test directory.

chDB opens one data path per process for the life of the process, so the whole test session shares one
migrated database and each test starts from empty tables.
"""

from __future__ import annotations

import sys

# Before the imports of the parts below. A shell with PYTHONDONTWRITEBYTECODE (this machine's, and so CI's)
# would have every pytest process compile the parts' ~350 modules and rewrite the ~600 test modules' asserts
# again (about 4 s of CPU per xdist worker for the test modules alone), and every subprocess the suite starts
# (serve, score, the collector, the demo) compile the parts at its start. The suite's own processes write
# those caches once; the subprocesses' environment is unchanged, and they read the caches as a user's shell
# reads what an earlier import left.
sys.dont_write_bytecode = False

import os
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from browser_testing import Chromium, find_chromium, install_chromium
from hypothesis import settings
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse_collector.server import CollectorServer
from ragpulse_core.schema import migrate
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"

# Speed lives in benchmarks/: a per-example deadline would be a timed assertion on a shared, noisy machine.
# Property tests draw the same examples on every run, so a commit passes or fails by what it changed, not by
# the seed it drew. `make explore` draws fresh random examples, run after run; a failure found there is kept
# as a fixture or an @example (tests/assembly_templates/found/) before it is fixed.
settings.register_profile("ragpulse", deadline=None, derandomize=True)
settings.register_profile("explore", deadline=None, derandomize=False)
settings.load_profile(os.environ.get("RAGPULSE_HYPOTHESIS_PROFILE", "ragpulse"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files holding a test marked slow run first (each file keeps its order): with one worker per core, a
    minute-long test handed out last keeps the whole run waiting for it alone."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)


@pytest.fixture(scope="session")
def chdb_dsn(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"chdb://{tmp_path_factory.mktemp('chdb') / 'db'}"


@pytest.fixture(scope="session")
def migrated_store(chdb_dsn: str) -> Iterator[Store]:
    store = Store(chdb_dsn)
    migrate(store, ttl_days=30)
    yield store
    store.close()


@pytest.fixture(scope="session")
def migrated_copy(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Path]:
    """Puts a migrated chDB database at a path, for the commands a test runs on a database of their own
    (serve, score, a killed worker). It is migrated once per test process, by a process of its own (this one
    holds the session's database), and copied: chDB keeps a closed database as plain files whose tables are
    linked by relative symlinks, kept as links. A copy costs milliseconds; a fresh migration of every table
    about 7 s on the shared machine. Starting from an empty path stays covered by the tests of migrate and of
    the demo."""
    template = tmp_path_factory.mktemp("migrated") / "db"
    script = (
        "import sys\nfrom ragpulse_core.schema import migrate\nfrom ragpulse_core.store import Store\n"
        "store = Store(sys.argv[1])\nmigrate(store, ttl_days=30)\nstore.close()\n"
    )
    subprocess.run([sys.executable, "-c", script, f"chdb://{template}"], check=True, timeout=300)

    def copy_to(database: Path) -> Path:
        shutil.copytree(template, database, symlinks=True)
        return database

    return copy_to


@pytest.fixture(scope="session")
def empty_store(migrated_store: Store) -> Callable[[], Store]:
    """Empties the session's store and gives it back: for a module's fixture that writes its data once and
    serves it to every test of the module, where the function-scoped ``store`` would empty it per test."""

    def emptied() -> Store:
        # Only tables holding rows are truncated: most tests write to a few of the 36 tables, and a TRUNCATE
        # of an empty one costs a chDB round trip all the same.
        tables = migrated_store.query(
            "SELECT name FROM system.tables WHERE database = {db:String}"
            " AND engine NOT IN ('MaterializedView', 'View') AND name != 'ragpulse_schema_migrations'"
            " AND (total_rows IS NULL OR total_rows > 0)",
            {"db": migrated_store.database},
        )
        for (name,) in tables:
            migrated_store.command(f"TRUNCATE TABLE {migrated_store.table(name)}")
        return migrated_store

    return emptied


@pytest.fixture
def store(empty_store: Callable[[], Store]) -> Store:
    """A migrated Store whose tables are all empty."""
    return empty_store()


@pytest.fixture
def collector(store: Store) -> Iterator[CollectorServer]:
    """A collector on a free loopback port over the session's store."""
    server = CollectorServer(RagpulseSettings.load(None, collector={"host": "127.0.0.1", "port": 0}), store)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A loopback port another socket listens on."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield int(listener.getsockname()[1])


@pytest.fixture(scope="session")
def span_exporter() -> InMemorySpanExporter:
    """Every span finished in this process, on its one SDK TracerProvider (OpenTelemetry sets it once)."""
    exporter = InMemorySpanExporter()
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return exporter


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The human-labelled data in ../shared/data (skips when the checkout has no shared/ beside it)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"{SHARED_DATA} not present")
    return SHARED_DATA


@pytest.fixture(scope="session")
def chromium() -> Chromium:
    """Debian's headless chromium, installed here when missing and allowed (CI or root); else a skip."""
    binary = find_chromium()
    if binary is None:
        binary, reason = install_chromium()
        if binary is None:
            pytest.skip(reason)
    return Chromium(binary)
