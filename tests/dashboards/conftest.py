"""Fixtures for the dashboard and alert-rule query tests."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from demo_data import Demo, seed, truncate
from ragpulse_core.store import Store
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.settings import RootCauseSettings


@pytest.fixture(scope="module")
def demo_store(migrated_store: Store) -> Iterator[tuple[Store, Demo]]:
    """The session database, emptied and seeded once for the module (the panels only read), with the
    root-cause job's facts of the judged requests."""
    truncate(migrated_store)
    demo = seed(migrated_store, datetime.now(UTC).replace(microsecond=0))
    update_facts(migrated_store, RootCauseSettings())
    yield migrated_store, demo
    truncate(migrated_store)
