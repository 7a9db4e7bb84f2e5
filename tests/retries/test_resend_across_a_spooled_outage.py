"""A re-send that reaches a restarted collector while what it first sent still waits in the spool (the store
was down, and still is): the spooled spans are not spooled again, and after the replay each span is stored
once."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from ragpulse_collector.server import CollectorServer
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store
from trials import SUPPORTED, export, new_ids, now_ns, request, spans_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "collector"))
from otlp_testing import FlakyStore, wait_until


def collector_over(store: Store, spool: Path) -> CollectorServer:
    settings = RagpulseSettings.load(
        None, collector={"host": "127.0.0.1", "port": 0, "spool_dir": spool, "store_retry_ms": 100}
    )
    server = CollectorServer(settings, store)
    server.start()
    return server


def test_a_superset_resent_while_the_first_send_is_still_spooled_is_stored_once(
    store: Store, chdb_dsn: str, tmp_path: Path
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.down.set()
    rng = random.Random(31)
    made = [request("spooled", *new_ids(rng), now_ns() + n * 9_000, SUPPORTED) for n in range(3)]
    first = [span for r in made[:2] for span in r.spans]
    everything = [span for r in made for span in r.spans]
    spool = tmp_path / "spool"

    before = collector_over(flaky, spool)
    assert export("http", f"{before.url}/v1/traces", [first]) == ["SUCCESS"]  # spooled
    before.stop()
    after = collector_over(flaky, spool)
    try:
        assert export("http", f"{after.url}/v1/traces", [everything]) == ["SUCCESS"]
        flaky.down.clear()
        assert wait_until(lambda: after.spool is not None and len(after.spool) == 0, timeout=30)
        assert after.flush()
    finally:
        after.stop()
    assert spans_of(store, "spooled") == sorted((s["trace_id"], s["span_id"], s["start"]) for s in everything)
