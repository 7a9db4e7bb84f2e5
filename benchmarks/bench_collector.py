"""Collector throughput: OTLP/HTTP protobuf into chDB, in spans per second (goal: at least 10,000).

As in production, the collector runs alone in this process and the senders are other processes: spawned
sender processes post protobuf batches of RAG-Fusion-shaped requests (8 spans each: a root carrying a
~10 KB context, variations, four retrieves with ten documents each, fuse, generate) over several keep-alive
connections; the clock stops when every post is acknowledged and every span is queryable in otel_traces.
Each sender encodes its bodies before the clock starts, so the senders measure the collector, not themselves.

Then the same measurement runs side by side, alternating in child processes, against the collector of
``BASELINE_REV`` (the last with the hand-written ``http.server`` receiver), and the ratio is printed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import ScopeSpans, Span
from ragpulse import semconv
from ragpulse_collector.server import TRACES_PATH, CollectorServer, tune_gc_for_collector
from ragpulse_core.schema import migrate
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store
from rich.console import Console
from rich.table import Table

SPANS_PER_REQUEST = 8
GOAL_SPANS_PER_S = 10_000
# The collector's last commit with the hand-written http.server receiver, which aiohttp replaced: compared
# only when the checkout has it (a shallow clone may not).
BASELINE_REV = "06a1953"
REPO = Path(__file__).resolve().parents[1]


def _value(raw: Any) -> AnyValue:
    if isinstance(raw, str):
        return AnyValue(string_value=raw)
    if isinstance(raw, bool):
        return AnyValue(bool_value=raw)
    if isinstance(raw, int):
        return AnyValue(int_value=raw)
    if isinstance(raw, float):
        return AnyValue(double_value=raw)
    return AnyValue(array_value=ArrayValue(values=[_value(item) for item in raw]))


def _attributes(values: dict[str, Any]) -> list[KeyValue]:
    return [KeyValue(key=key, value=_value(raw)) for key, raw in values.items()]


def _rag_fusion_request(scope: ScopeSpans, rng: random.Random, start_ns: int) -> None:
    """One RAG-Fusion request's 8 spans, appended to ``scope``."""
    trace_id = rng.randbytes(16)
    root_id = rng.randbytes(8)
    question = "How does reciprocal rank fusion combine rankings from several query variations?"
    variations = [f"{question} (variation {i})" for i in range(4)]
    retrievals: list[dict[str, Any]] = [
        {
            "query": variation,
            "query_index": index,
            "documents": [
                {"id": f"doc-{rng.randrange(10_000)}", "score": rng.random(), "rank": rank + 1}
                for rank in range(10)
            ],
        }
        for index, variation in enumerate(variations)
    ]
    context = [
        {
            "id": f"doc-{rng.randrange(10_000)}",
            "text": "lorem ipsum " * 80,
            "score": rng.random(),
            "rank": rank + 1,
            "source": "corpus",
        }
        for rank in range(10)
    ]

    def span(
        name: str, kind: str, offset_ms: int, attributes: dict[str, Any], parent: bytes = root_id
    ) -> None:
        scope.spans.append(
            Span(
                trace_id=trace_id,
                span_id=root_id if not parent else rng.randbytes(8),
                parent_span_id=parent,
                name=name,
                kind=Span.SPAN_KIND_INTERNAL,
                start_time_unix_nano=start_ns + offset_ms * 1_000_000,
                end_time_unix_nano=start_ns + (offset_ms + 40) * 1_000_000,
                attributes=_attributes({semconv.SPAN_KIND: kind, **attributes}),
            )
        )

    span(
        "rag fusion",
        semconv.SpanKind.CHAIN,
        0,
        {
            semconv.KIND: semconv.KIND_RAG,
            semconv.PIPELINE: "fusion",
            semconv.VARIANT: rng.choice("AB"),
            semconv.INPUT_VALUE: question,
            semconv.OUTPUT_VALUE: "Fusion sums 1/(k + rank) per document. " * 12,
            semconv.CONTEXT: json.dumps(context),
            semconv.VARIATIONS: json.dumps(variations),
            semconv.RETRIEVALS: json.dumps(retrievals),
            semconv.SESSION_ID: f"s-{rng.randrange(100)}",
        },
        parent=b"",
    )
    span(
        semconv.SPAN_VARIATIONS,
        semconv.SpanKind.CHAIN,
        1,
        {semconv.INPUT_VALUE: question, semconv.OUTPUT_VALUE: json.dumps(variations)},
    )
    for retrieval in retrievals:
        documents: dict[str, Any] = {
            semconv.INPUT_VALUE: retrieval["query"],
            semconv.QUERY_INDEX: retrieval["query_index"],
        }
        for index, document in enumerate(retrieval["documents"]):
            documents[semconv.retrieval_document(index, "id")] = document["id"]
            documents[semconv.retrieval_document(index, "score")] = document["score"]
        span(semconv.SPAN_RETRIEVE, semconv.SpanKind.RETRIEVER, 2, documents)
    span(
        semconv.SPAN_FUSE,
        semconv.SpanKind.RERANKER,
        3,
        {
            semconv.FUSION_METHOD: semconv.FUSION_METHOD_RRF,
            semconv.FUSION_K: 60,
            semconv.FUSION_OUTPUT_RANKING: json.dumps(
                [{"id": c["id"], "score": c["score"]} for c in context]
            ),
        },
    )
    span(
        semconv.SPAN_GENERATE,
        semconv.SpanKind.LLM,
        4,
        {
            semconv.LLM_MODEL_NAME: "stand-in",
            semconv.GEN_AI_REQUEST_MODEL: "stand-in",
            semconv.GEN_AI_USAGE_INPUT_TOKENS: 2900,
            semconv.GEN_AI_USAGE_OUTPUT_TOKENS: 120,
            semconv.PROMPT_CHARS: 11_500,
        },
    )


def build_bodies(posts: int, spans_per_post: int, seed: int = 7) -> list[bytes]:
    rng = random.Random(seed)
    start_ns = time.time_ns() - 60_000_000_000
    bodies = []
    for _ in range(posts):
        request = ExportTraceServiceRequest()
        resource_spans = request.resource_spans.add()
        resource_spans.resource.attributes.extend(
            _attributes({"service.name": "bench-rag", "host.name": "bench"})
        )
        scope = resource_spans.scope_spans.add()
        scope.scope.name, scope.scope.version = "ragpulse", "0.1.0"
        for _ in range(max(1, spans_per_post // SPANS_PER_REQUEST)):
            _rag_fusion_request(scope, rng, start_ns)
        bodies.append(request.SerializeToString())
    return bodies


def _post_share(
    url: str, bodies: list[bytes], latencies: list[float], retries: list[int], errors: list[str]
) -> None:
    """Post ``bodies`` one after another over one keep-alive connection, retrying 429/503."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=120)
    try:
        for body in bodies:
            while True:
                started = time.perf_counter()
                connection.request("POST", TRACES_PATH, body, {"Content-Type": "application/x-protobuf"})
                response = connection.getresponse()
                response.read()
                if response.status == 200:
                    latencies.append(time.perf_counter() - started)
                    break
                if response.status not in (429, 503):
                    raise RuntimeError(f"collector answered {response.status}")
                retries.append(response.status)
                time.sleep(float(response.getheader("Retry-After", "1")))
    except Exception as exc:  # reported to the parent, which fails the run
        errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        connection.close()


def _sender_process(
    url: str,
    posts: int,
    spans_per_post: int,
    seed: int,
    connections: int,
    ready: Any,
    go: Any,
    results: Any,
) -> None:
    """One load-generating process: encode its bodies, report ready, then post them when told to."""
    bodies = build_bodies(posts, spans_per_post, seed)
    latencies: list[float] = []
    retries: list[int] = []
    errors: list[str] = []
    shares = [bodies[index::connections] for index in range(connections)]
    threads = [
        threading.Thread(target=_post_share, args=(url, share, latencies, retries, errors))
        for share in shares
        if share
    ]
    ready.release()
    go.wait()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results.put(
        {
            "latencies": latencies,
            "retries": len(retries),
            "bytes": sum(len(body) for body in bodies),
            "errors": errors,
        }
    )


def run(
    posts: int = 80,
    spans_per_post: int = 512,
    clients: int = 8,
    dsn: str | None = None,
    processes: int = 2,
    tune_gc: bool = True,
) -> dict[str, float]:
    """Measure collector throughput; returns spans/s and the numbers behind it.

    The collector serves from this process, as it does in production, while ``processes`` spawned sender
    processes (``clients`` keep-alive connections in all) post pre-encoded bodies, so no sender competes
    for the collector's GIL. ``tune_gc`` applies the ``collector`` command's garbage-collector setting.
    """
    processes = max(1, min(processes, clients, posts))
    total_spans = posts * max(1, spans_per_post // SPANS_PER_REQUEST) * SPANS_PER_REQUEST
    workdir = Path(tempfile.mkdtemp(prefix="ragpulse-bench-"))
    settings = RagpulseSettings.load(
        None, store={"dsn": dsn or f"chdb://{workdir / 'chdb'}"}, collector={"port": 0}
    )
    store = Store(settings.store.dsn, settings.store.database)
    migrate(store, settings.store.ttl_days)
    table = store.table("otel_traces")
    already = int(store.query(f"SELECT count() FROM {table}")[0][0])
    server = CollectorServer(settings, store)
    if tune_gc:
        tune_gc_for_collector()
    server.start()
    context = multiprocessing.get_context("spawn")
    ready = context.Semaphore(0)
    go = context.Event()
    results = context.Queue()
    senders = [
        context.Process(
            target=_sender_process,
            args=(
                server.url,
                len(range(index, posts, processes)),
                spans_per_post,
                7 + index,
                len(range(index, clients, processes)),
                ready,
                go,
                results,
            ),
            daemon=True,
        )
        for index in range(processes)
    ]
    try:
        for sender in senders:
            sender.start()
        for _ in senders:
            if not ready.acquire(timeout=300):
                raise RuntimeError("a sender process did not get ready")
        started = time.perf_counter()
        go.set()
        reports = [results.get(timeout=600) for _ in senders]
        while int(store.query(f"SELECT count() FROM {table}")[0][0]) - already < total_spans:
            time.sleep(0.01)
        elapsed = time.perf_counter() - started
    finally:
        for sender in senders:
            sender.join(timeout=10)
            if sender.is_alive():
                sender.terminate()
        server.stop()
    errors = [error for report in reports for error in report["errors"]]
    if errors:
        raise RuntimeError(f"senders failed: {errors[:3]}")
    latencies = [latency for report in reports for latency in report["latencies"]]
    if len(latencies) != posts:
        raise RuntimeError(f"only {len(latencies)} of {posts} posts were acknowledged")
    return {
        "spans": float(total_spans),
        "seconds": elapsed,
        "spans_per_s": total_spans / elapsed,
        "mb_per_s": sum(report["bytes"] for report in reports) / elapsed / 1e6,
        "post_p50_ms": statistics.median(latencies) * 1000,
        "post_max_ms": max(latencies) * 1000,
        "retried_posts": float(sum(report["retries"] for report in reports)),
        "goal_ratio": total_spans / elapsed / GOAL_SPANS_PER_S,
    }


def _tree_at(rev: str, into: Path) -> Path | None:
    """The collector and benchmarks as they were at ``rev``, or None when this checkout lacks it."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, "collector/src", "benchmarks"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


# Run in a child with the tree's collector: a warm-up run takes the engine start and migrations, then the
# measured run. CPU seconds of the collector's process (senders are other processes) barely move with load
# from elsewhere on the machine, where wall-clock throughput does.
_CHILD = """
import json, sys, tempfile, time
import bench_collector as b
posts, spans_per_post, clients, processes = map(int, sys.argv[1:])
dsn = f"chdb://{tempfile.mkdtemp(prefix='ragpulse-bench-')}/chdb"
b.run(processes, spans_per_post, clients, dsn=dsn, processes=processes)
cpu = time.process_time()
result = b.run(posts, spans_per_post, clients, dsn=dsn, processes=processes)
result["cpu_ms_per_kspan"] = (time.process_time() - cpu) * 1e6 / result["spans"]
print("RESULT " + json.dumps(result))
"""


def _measure_in_child(tree: Path, posts: int, spans_per_post: int, clients: int, processes: int) -> Any:
    """:func:`run` of the ``bench_collector`` in ``tree``, with that tree's collector, in a fresh process."""
    path = os.pathsep.join(str(part) for part in (tree / "benchmarks", tree / "collector" / "src"))
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *(str(n) for n in (posts, spans_per_post, clients, processes))],
        env={**os.environ, "PYTHONPATH": path},
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    result = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")][-1]
    return json.loads(result.removeprefix("RESULT "))


def compare_with_baseline(
    rev: str, rounds: int, posts: int, spans_per_post: int, clients: int, processes: int
) -> Table | None:
    """This tree's collector against ``rev``'s, alternating ``rounds`` times: load hits both alike."""
    with tempfile.TemporaryDirectory(prefix="ragpulse-baseline-") as scratch:
        baseline = _tree_at(rev, Path(scratch))
        if baseline is None:
            return None
        measured: dict[str, list[Any]] = {"this tree": [], rev: []}
        for _ in range(rounds):
            for name, tree in (("this tree", REPO), (rev, baseline)):
                measured[name].append(_measure_in_child(tree, posts, spans_per_post, clients, processes))
    table = Table(title=f"collector side by side, alternating: this tree vs {rev} (http.server)")
    table.add_column("collector")
    table.add_column("spans / s per round", justify="right")
    table.add_column("median spans / s", justify="right")
    table.add_column("median CPU ms / 1000 spans", justify="right")
    medians: dict[str, tuple[float, float]] = {}
    for name, results in measured.items():
        rates = [result["spans_per_s"] for result in results]
        medians[name] = (
            statistics.median(rates),
            statistics.median(result["cpu_ms_per_kspan"] for result in results),
        )
        rounds_text = ", ".join(f"{rate:,.0f}" for rate in rates)
        table.add_row(name, rounds_text, f"{medians[name][0]:,.0f}", f"{medians[name][1]:.0f}")
    ours, theirs = medians["this tree"], medians[rev]
    table.add_row(
        "ratio (this tree / baseline)", "", f"{ours[0] / theirs[0]:.2f}", f"{ours[1] / theirs[1]:.2f}"
    )
    return table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--posts", type=int, default=80)
    parser.add_argument("--spans-per-post", type=int, default=512)
    parser.add_argument("--clients", type=int, default=8, help="keep-alive connections in all")
    parser.add_argument("--processes", type=int, default=2, help="sender processes sharing the connections")
    parser.add_argument(
        "--default-gc", action="store_true", help="keep CPython's GC thresholds (the collector raises them)"
    )
    parser.add_argument("--baseline", default=BASELINE_REV, help="git revision to compare with ('' for none)")
    parser.add_argument("--rounds", type=int, default=2, help="side-by-side rounds against the baseline")
    args = parser.parse_args(argv or [])
    result = run(
        args.posts, args.spans_per_post, args.clients, processes=args.processes, tune_gc=not args.default_gc
    )
    table = Table(
        title=f"collector throughput, OTLP/HTTP protobuf -> chDB ({os.cpu_count()} CPUs, "
        f"{args.processes} sender processes, {args.clients} connections)"
    )
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("spans written", f"{result['spans']:,.0f}")
    table.add_row("seconds until queryable", f"{result['seconds']:.2f}")
    table.add_row("spans / s", f"{result['spans_per_s']:,.0f}")
    table.add_row(f"ratio to goal ({GOAL_SPANS_PER_S:,} spans/s)", f"{result['goal_ratio']:.2f}")
    table.add_row("MB / s (protobuf)", f"{result['mb_per_s']:.1f}")
    table.add_row("post latency p50 / max (ms)", f"{result['post_p50_ms']:.0f} / {result['post_max_ms']:.0f}")
    table.add_row("posts retried after 429/503", f"{result['retried_posts']:.0f}")
    console = Console()
    console.print(table)
    if args.baseline:
        side_by_side = compare_with_baseline(
            args.baseline, args.rounds, args.posts, args.spans_per_post, args.clients, args.processes
        )
        console.print(side_by_side or f"baseline {args.baseline} is not in this checkout; not compared")


if __name__ == "__main__":
    main(sys.argv[1:])
