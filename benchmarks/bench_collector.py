"""Collector throughput: OTLP/HTTP protobuf into chDB, in spans per second (goal: at least 15,000).

As in production, the collector runs alone in its process and the senders are other processes: spawned
sender processes post protobuf batches of RAG-Fusion requests over several keep-alive connections, and a
span counts once its post is acknowledged (a 200 is sent only once its rows are written); every span is
then checked to be queryable in otel_traces. Each sender encodes its bodies before the clock starts, so the
senders measure the collector, not themselves.

Two mixes (``--mix``): ``synthetic``, 8-span requests whose root carries a ~10 KB context of one repeated
phrase; ``content``, 9-span requests shaped as real services send them (chunks of 300-1,500 characters of
varied prose, 5-20 ids a retrieval, an answer of 3-10 sentences, ~2 KB a span). Each round runs in a fresh
child process; ``--baseline REV`` alternates this tree's collector with REV's on the same senders.

Two clients (``--client``): ``raw``, the pre-encoded bodies posted over ``http.client`` (the collector's cost
alone); ``stock``, the same spans handed as SDK ``ReadableSpan`` batches to the stock OTLP/HTTP protobuf
exporter (``OTLPSpanExporter.export``), which encodes each batch while the clock runs, as an outside benchmark
with a stock client does: on a 2-core machine the senders' encoding competes with the collector for the cores.

``--stages`` instead profiles where the collector's CPU goes, one stage at a time on one thread (no HTTP):
decoding the protobuf, mapping spans to columns, measuring them (stored size, identity digest, row hashes),
and inserting them into chDB 8 posts to an insert (the views on the span table and chDB's merges included).
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import ScopeSpans, Span
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext, TraceFlags
from ragpulse import semconv
from ragpulse_collector.server import TRACES_PATH, CollectorServer, tune_gc_for_collector
from ragpulse_core.schema import migrate
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store
from rich.console import Console
from rich.table import Table

SPANS_PER_REQUEST = 8
CONTENT_SPANS_PER_REQUEST = 9
CONTENT_VARIATIONS = 4
CONTENT_CONTEXT_CHUNKS = 4
GOAL_SPANS_PER_S = 15_000
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


def _span(
    trace_id: bytes,
    span_id: bytes,
    parent: bytes,
    name: str,
    kind: str,
    times: tuple[int, int],
    attributes: dict[str, Any],
) -> Span:
    """One internal span of a generated request, its ragpulse span kind among its attributes."""
    return Span(
        trace_id=trace_id,
        span_id=span_id,
        parent_span_id=parent,
        name=name,
        kind=Span.SPAN_KIND_INTERNAL,
        start_time_unix_nano=times[0],
        end_time_unix_nano=times[1],
        attributes=_attributes({semconv.SPAN_KIND: kind, **attributes}),
    )


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
        start = start_ns + offset_ms * 1_000_000
        span_id = root_id if not parent else rng.randbytes(8)
        times = (start, start + 40_000_000)
        scope.spans.append(_span(trace_id, span_id, parent, name, kind, times, attributes))

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


_WORDS = [
    "the",
    "service",
    "retrieves",
    "chunks",
    "from",
    "an",
    "index",
    "of",
    "product",
    "manuals",
    "and",
    "support",
    "articles",
    "then",
    "a",
    "model",
    "writes",
    "an",
    "answer",
    "grounded",
    "in",
    "what",
    "it",
    "read",
    "fusion",
    "merges",
    "rankings",
    "of",
    "several",
    "query",
    "variations",
    "so",
    "a",
    "document",
    "that",
    "several",
    "variations",
    "find",
    "rises",
    "to",
    "the",
    "top",
    "latency",
    "budget",
    "cache",
    "warm",
    "cold",
    "replica",
    "shard",
    "tokens",
    "embedding",
    "cosine",
    "similarity",
    "reranker",
    "threshold",
    "release",
    "2024",
    "version",
    "3.2",
    "customers",
    "region",
    "europe",
]


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 22))]
    return " ".join(words).capitalize() + rng.choice(".!?.")


def _text(rng: random.Random, low: int, high: int) -> str:
    """Prose of ``low`` to ``high`` characters, cut at the sentence that passes the drawn length."""
    wanted = rng.randint(low, high)
    sentences: list[str] = []
    size = 0
    while size < wanted:
        sentences.append(_sentence(rng))
        size += len(sentences[-1]) + 1
    return " ".join(sentences)[:high]


def _content_request(scope: ScopeSpans, rng: random.Random, start_ns: int) -> None:
    """One RAG-Fusion request as a real service sends it (9 spans): the question and 4 variations each
    retrieve 5-20 chunks of 300-1,500 characters (ids and scores on the retrieve spans, content only on
    the root), fusion keeps the best 4, and the answer has 3-10 sentences."""
    trace_id = rng.randbytes(16)
    root_id = rng.randbytes(8)
    question = _sentence(rng).rstrip(".!?") + "?"
    queries = [question, *(_sentence(rng) for _ in range(CONTENT_VARIATIONS))]
    rankings = [
        [
            {"id": f"kb-{rng.randrange(50_000)}#{rng.randrange(40)}", "score": round(rng.random(), 4)}
            for _ in range(rng.randint(5, 20))
        ]
        for _ in queries
    ]
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, document in enumerate(ranking):
            fused[document["id"]] = fused.get(document["id"], 0.0) + 1 / (60 + rank + 1)
    best = sorted(fused, key=fused.__getitem__, reverse=True)[:CONTENT_CONTEXT_CHUNKS]
    context = [
        {
            "id": chunk_id,
            "text": _text(rng, 300, 1500),
            "score": round(fused[chunk_id], 5),
            "rank": rank + 1,
            "source": f"manuals/{chunk_id.split('#')[0]}.md",
        }
        for rank, chunk_id in enumerate(best)
    ]
    answer = " ".join(_sentence(rng) for _ in range(rng.randint(3, 10)))
    offset = [0]

    def span(name: str, kind: str, attributes: dict[str, Any], root: bool = False) -> None:
        offset[0] += 1
        start = start_ns + offset[0] * 7_000_000
        span_id, parent = (root_id, b"") if root else (rng.randbytes(8), root_id)
        times = (start, start + rng.randint(2, 900) * 1_000_000)
        scope.spans.append(_span(trace_id, span_id, parent, name, kind, times, attributes))

    span(
        "rag fusion",
        semconv.SpanKind.CHAIN,
        {
            semconv.KIND: semconv.KIND_RAG,
            semconv.PIPELINE: "fusion",
            semconv.VARIANT: rng.choice("AB"),
            semconv.INPUT_VALUE: question,
            semconv.OUTPUT_VALUE: answer,
            semconv.CONTEXT: json.dumps(context),
            semconv.VARIATIONS: json.dumps(queries[1:]),
            semconv.RETRIEVALS: json.dumps(
                [
                    {
                        "query": query,
                        "query_index": index,
                        "documents": [
                            {**document, "rank": rank + 1} for rank, document in enumerate(ranking)
                        ],
                    }
                    for index, (query, ranking) in enumerate(zip(queries, rankings, strict=True))
                ]
            ),
            semconv.SESSION_ID: f"s-{rng.randrange(10_000)}",
        },
        root=True,
    )
    span(
        semconv.SPAN_VARIATIONS,
        semconv.SpanKind.CHAIN,
        {semconv.INPUT_VALUE: question, semconv.OUTPUT_VALUE: json.dumps(queries[1:])},
    )
    for index, (query, ranking) in enumerate(zip(queries, rankings, strict=True)):
        documents: dict[str, Any] = {semconv.INPUT_VALUE: query, semconv.QUERY_INDEX: index}
        for position, document in enumerate(ranking):
            documents[semconv.retrieval_document(position, "id")] = document["id"]
            documents[semconv.retrieval_document(position, "score")] = document["score"]
        span(semconv.SPAN_RETRIEVE, semconv.SpanKind.RETRIEVER, documents)
    span(
        semconv.SPAN_FUSE,
        semconv.SpanKind.RERANKER,
        {
            semconv.FUSION_METHOD: semconv.FUSION_METHOD_RRF,
            semconv.FUSION_K: 60,
            semconv.FUSION_OUTPUT_RANKING: json.dumps(
                [{"id": chunk_id, "score": round(fused[chunk_id], 5)} for chunk_id in best]
            ),
        },
    )
    prompt_chars = sum(len(chunk["text"]) for chunk in context) + len(question) + 400
    span(
        semconv.SPAN_GENERATE,
        semconv.SpanKind.LLM,
        {
            semconv.LLM_MODEL_NAME: "gpt-4o-mini",
            semconv.GEN_AI_REQUEST_MODEL: "gpt-4o-mini",
            semconv.GEN_AI_USAGE_INPUT_TOKENS: prompt_chars // 4,
            semconv.GEN_AI_USAGE_OUTPUT_TOKENS: len(answer) // 4,
            semconv.PROMPT_CHARS: prompt_chars,
        },
    )


@dataclass(frozen=True)
class Mix:
    """What the senders post: one request shape, and how many spans a request has."""

    name: str
    spans_per_request: int
    add_request: Callable[[ScopeSpans, random.Random, int], None]
    described: str


MIXES: dict[str, Mix] = {
    "synthetic": Mix(
        "synthetic",
        SPANS_PER_REQUEST,
        _rag_fusion_request,
        "8-span requests, one ~10 KB context of repeated words, ids only elsewhere",
    ),
    "content": Mix(
        "content",
        CONTENT_SPANS_PER_REQUEST,
        _content_request,
        "9-span RAG-Fusion requests with real-sized content: 5-20 chunks of 300-1,500 chars a retrieval,"
        " the fused 4 on the root, a 3-10 sentence answer",
    ),
}


CLIENTS: dict[str, str] = {
    "raw": "pre-encoded protobuf bodies posted over http.client (the collector's cost alone)",
    "stock": "the stock OTLPSpanExporter (OTLP/HTTP protobuf) exporting SDK spans, encoding while timed",
}


def requests_per_post(mix: Mix, spans_per_post: int) -> int:
    return max(1, spans_per_post // mix.spans_per_request)


def build_bodies(posts: int, spans_per_post: int, seed: int = 7, mix: str = "synthetic") -> list[bytes]:
    shape = MIXES[mix]
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
        for _ in range(requests_per_post(shape, spans_per_post)):
            shape.add_request(scope, rng, start_ns)
        bodies.append(request.SerializeToString())
    return bodies


def _plain(value: AnyValue) -> Any:
    """An OTLP attribute value as the SDK takes it (the generated requests use strings, ints, floats, bools
    and arrays of them)."""
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [_plain(item) for item in value.array_value.values]
    return getattr(value, str(kind))


def _context(trace_id: bytes, span_id: bytes) -> SpanContext:
    return SpanContext(
        int.from_bytes(trace_id, "big"), int.from_bytes(span_id, "big"), False, TraceFlags(TraceFlags.SAMPLED)
    )


def readable_spans(body: bytes) -> list[ReadableSpan]:
    """A built body's spans as the SDK hands them to an exporter: what the stock client encodes."""
    request = ExportTraceServiceRequest.FromString(body)
    spans = []
    for resource_spans in request.resource_spans:
        resource = Resource(
            {kv.key: _plain(kv.value) for kv in resource_spans.resource.attributes}, schema_url=""
        )
        for scope_spans in resource_spans.scope_spans:
            scope = InstrumentationScope(scope_spans.scope.name, scope_spans.scope.version)
            for span in scope_spans.spans:
                parent = span.parent_span_id
                spans.append(
                    ReadableSpan(
                        span.name,
                        _context(span.trace_id, span.span_id),
                        _context(span.trace_id, parent) if parent else None,
                        resource,
                        {kv.key: _plain(kv.value) for kv in span.attributes},
                        start_time=span.start_time_unix_nano,
                        end_time=span.end_time_unix_nano,
                        instrumentation_scope=scope,
                    )
                )
    return spans


def _export_share(
    url: str,
    batches: list[list[ReadableSpan]],
    latencies: list[float],
    acked_at: list[float],
    retries: list[int],
    errors: list[str],
) -> None:
    """Export ``batches`` one after another through one stock OTLP/HTTP exporter (one keep-alive session,
    its own retries of 429/503); a batch counts once ``export`` reports success (a 2xx)."""
    exporter = OTLPSpanExporter(endpoint=f"{url}{TRACES_PATH}", timeout=120)
    try:
        for batch in batches:
            started = time.perf_counter()
            if exporter.export(batch) is not SpanExportResult.SUCCESS:
                raise RuntimeError("the stock exporter reported a failed export")
            latencies.append(time.perf_counter() - started)
            acked_at.append(time.time())
    except Exception as exc:  # reported to the parent, which fails the run
        errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        exporter.shutdown()


def _post_share(
    url: str,
    bodies: list[bytes],
    latencies: list[float],
    acked_at: list[float],
    retries: list[int],
    errors: list[str],
) -> None:
    """Post ``bodies`` one after another over one keep-alive connection, retrying 429/503.

    A 200 means written (or spooled): the time of each is kept, so a span counts once acknowledged."""
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
                    acked_at.append(time.time())
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
    mix: str,
    client: str,
    ready: Any,
    go: Any,
    results: Any,
) -> None:
    """One load-generating process: build its bodies (or span batches), report ready, then send them when
    told to."""
    bodies = build_bodies(posts, spans_per_post, seed, mix)
    latencies: list[float] = []
    acked_at: list[float] = []
    retries: list[int] = []
    errors: list[str] = []
    payloads: list[Any] = bodies if client == "raw" else [readable_spans(body) for body in bodies]
    send = _post_share if client == "raw" else _export_share
    shares = [payloads[index::connections] for index in range(connections)]
    threads = [
        threading.Thread(target=send, args=(url, share, latencies, acked_at, retries, errors))
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
            "last_ack": max(acked_at, default=0.0),
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
    mix: str = "synthetic",
    client: str = "raw",
) -> dict[str, float]:
    """Measure collector throughput; returns spans/s and the numbers behind it.

    The collector serves from this process, as it does in production, while ``processes`` spawned sender
    processes (``clients`` keep-alive connections in all) post pre-encoded bodies, so no sender competes
    for the collector's GIL. ``tune_gc`` applies the ``collector`` command's garbage-collector setting.
    Spans count once acknowledged (a 200 is sent only once they are written); every one is then checked
    to be queryable.
    """
    processes = max(1, min(processes, clients, posts))
    shape = MIXES[mix]
    total_spans = posts * requests_per_post(shape, spans_per_post) * shape.spans_per_request
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
                mix,
                client,
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
        started = time.time()
        go.set()
        reports = [results.get(timeout=600) for _ in senders]
        elapsed = max(report["last_ack"] for report in reports) - started
        stored = int(store.query(f"SELECT count() FROM {table}")[0][0]) - already
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
    if stored != total_spans:
        raise RuntimeError(f"{total_spans} spans acknowledged but {stored} stored")
    sent_bytes = sum(report["bytes"] for report in reports)
    return {
        "spans": float(total_spans),
        "seconds": elapsed,
        "spans_per_s": total_spans / elapsed,
        "bytes_per_span": sent_bytes / total_spans,
        "mb_per_s": sent_bytes / elapsed / 1e6,
        "post_p50_ms": statistics.median(latencies) * 1000,
        "post_max_ms": max(latencies) * 1000,
        "retried_posts": float(sum(report["retries"] for report in reports)),
    }


POSTS_PER_INSERT = 8
STAGES = ("decode", "map", "measure", "insert")


def stages(mixes: list[str], posts: int, spans_per_post: int, rounds: int) -> Table:
    """CPU milliseconds per 1,000 spans of each stage of the collector's work, per mix (median of
    ``rounds``), measured one stage at a time on this thread into a fresh chDB."""
    # Imported here: a --baseline child runs an older collector, which :func:`run` alone must fit.
    from ragpulse_collector.mapping import map_spans
    from ragpulse_collector.otlp import PROTOBUF, decode_request
    from ragpulse_collector.signals import TRACES
    from ragpulse_collector.tables import SPANS, TableRows

    workdir = Path(tempfile.mkdtemp(prefix="ragpulse-bench-"))
    store = Store(f"chdb://{workdir / 'chdb'}")
    migrate(store, RagpulseSettings.load(None).store.ttl_days)
    tune_gc_for_collector()
    table = Table(title="collector CPU by stage, one thread, ms per 1,000 spans (median of rounds)")
    for column in ("mix", *STAGES, "total"):
        table.add_column(column, justify="left" if column == "mix" else "right")
    for mix in mixes:
        bodies = build_bodies(posts, spans_per_post, 11, mix)
        measured: dict[str, list[float]] = {stage: [] for stage in STAGES}
        for round_index in range(rounds + 1):
            times = [time.process_time()]
            requests = [decode_request(body, PROTOBUF, TRACES) for body in bodies]
            times.append(time.process_time())
            mapped = [map_spans(request).rows for request in requests]
            times.append(time.process_time())
            for rows in mapped:
                rows.stored_bytes()
                rows.identity()
                rows.row_hashes()
            times.append(time.process_time())
            for start in range(0, len(mapped), POSTS_PER_INSERT):
                batch = TableRows.joined(mapped[start : start + POSTS_PER_INSERT])
                token = f"{mix}-{round_index}-{start}"
                store.insert_columns(SPANS.table, batch.columns, SPANS.insert_types, dedup_token=token)
            times.append(time.process_time())
            spans = sum(len(rows) for rows in mapped)
            if round_index:  # the first round warms the engine up
                for stage, begun, ended in zip(STAGES, times, times[1:], strict=False):
                    measured[stage].append((ended - begun) * 1e6 / spans)
        medians = [statistics.median(measured[stage]) for stage in STAGES]
        table.add_row(mix, *(f"{value:.0f}" for value in medians), f"{sum(medians):.0f}")
    return table


def _tree_at(rev: str, into: Path) -> Path | None:
    """The collector and core as they were at ``rev``, or None when this checkout lacks it."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, "collector/src", "core/src"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


# Run in a child with a tree's collector and core (and this tree's senders): a warm-up run takes the engine
# start and migrations, then the measured run. CPU seconds of the collector's process (senders are other
# processes) barely move with load from elsewhere on the machine, where wall-clock throughput does.
_CHILD = """
import json, sys, tempfile, time
import bench_collector as b
mix, client = sys.argv[1:3]
posts, spans_per_post, clients, processes = map(int, sys.argv[3:])
dsn = f"chdb://{tempfile.mkdtemp(prefix='ragpulse-bench-')}/chdb"
b.run(processes, spans_per_post, clients, dsn=dsn, processes=processes, mix=mix, client=client)
cpu = time.process_time()
result = b.run(posts, spans_per_post, clients, dsn=dsn, processes=processes, mix=mix, client=client)
result["cpu_ms_per_kspan"] = (time.process_time() - cpu) * 1e6 / result["spans"]
print("RESULT " + json.dumps(result))
"""


Load = tuple[str, str]
"""What the senders send and how: a mix and a client."""


def _measure_in_child(
    tree: Path | None, load: Load, posts: int, spans_per_post: int, clients: int, processes: int
) -> Any:
    """:func:`run` with ``tree``'s collector and core (this tree's when None), in a fresh process."""
    parts = [REPO / "benchmarks"]
    if tree is not None:
        parts += [tree / "collector" / "src", tree / "core" / "src"]
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *load, *(str(n) for n in (posts, spans_per_post, clients, processes))],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(str(part) for part in parts)},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the {load} run failed:\n{done.stderr[-3000:]}")
    result = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")][-1]
    return json.loads(result.removeprefix("RESULT "))


def compare(
    rev: str | None,
    rounds: int,
    loads: list[Load],
    posts: int,
    spans_per_post: int,
    clients: int,
    processes: int,
) -> Table:
    """Each load (mix and client) with this tree's collector, and against ``rev``'s when given, alternating
    ``rounds`` times in child processes, so load from elsewhere on the machine hits each alike."""
    with tempfile.TemporaryDirectory(prefix="ragpulse-baseline-") as scratch:
        baseline = _tree_at(rev, Path(scratch)) if rev else None
        if rev and baseline is None:
            Console().print(f"baseline {rev} is not in this checkout; not compared")
        trees: dict[str, Path | None] = {"this tree": None}
        if baseline is not None:
            trees[str(rev)] = baseline
        measured: dict[tuple[Load, str], list[Any]] = {(load, name): [] for load in loads for name in trees}
        for _ in range(rounds):
            for load in loads:
                for name, tree in trees.items():
                    result = _measure_in_child(tree, load, posts, spans_per_post, clients, processes)
                    measured[load, name].append(result)
    title = f"collector, OTLP/HTTP protobuf -> chDB, {clients} connections from {processes} processes"
    if baseline is not None:
        title += f": this tree vs {rev}, alternating"
    table = Table(title=title)
    for column in ("mix", "client", "collector", "bytes / span", "spans / s per round", "median spans / s"):
        table.add_column(column, justify="left" if column in ("mix", "client", "collector") else "right")
    table.add_column("median CPU ms / 1000 spans", justify="right")
    table.add_column("post p50 ms", justify="right")
    for load in loads:
        medians: dict[str, tuple[float, float]] = {}
        for name in trees:
            results = measured[load, name]
            rates = [result["spans_per_s"] for result in results]
            medians[name] = (
                statistics.median(rates),
                statistics.median(result["cpu_ms_per_kspan"] for result in results),
            )
            table.add_row(
                *load,
                name,
                f"{results[0]['bytes_per_span']:,.0f}",
                ", ".join(f"{rate:,.0f}" for rate in rates),
                f"{medians[name][0]:,.0f}",
                f"{medians[name][1]:.0f}",
                f"{statistics.median(result['post_p50_ms'] for result in results):.0f}",
            )
        if baseline is not None:
            ours, theirs = medians["this tree"], medians[str(rev)]
            table.add_row(
                *load,
                "ratio (this tree / baseline)",
                "",
                "",
                f"{ours[0] / theirs[0]:.2f}",
                f"{ours[1] / theirs[1]:.2f}",
                "",
            )
    return table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mix", choices=[*MIXES, "both"], default="both", help="what the senders post")
    parser.add_argument(
        "--client", choices=[*CLIENTS, "both"], default="raw", help="how the senders send (see above)"
    )
    parser.add_argument("--posts", type=int, default=80)
    parser.add_argument("--spans-per-post", type=int, default=512, help="whole requests up to this many")
    parser.add_argument("--clients", type=int, default=8, help="keep-alive connections in all")
    parser.add_argument("--processes", type=int, default=2, help="sender processes sharing the connections")
    parser.add_argument(
        "--baseline",
        default="",
        help="git revision whose collector to compare with, alternating ('' for none)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each mix (and of the baseline)")
    parser.add_argument(
        "--stages", action="store_true", help="profile the collector's CPU stage by stage instead"
    )
    args = parser.parse_args(argv or [])
    mixes = list(MIXES) if args.mix == "both" else [args.mix]
    if args.stages:
        Console().print(stages(mixes, min(args.posts, 40), args.spans_per_post, args.rounds))
        return
    clients = list(CLIENTS) if args.client == "both" else [args.client]
    for mix in mixes:
        Console().print(f"{mix}: {MIXES[mix].described}")
    for client in clients:
        Console().print(f"{client} client: {CLIENTS[client]}")
    table = compare(
        args.baseline or None,
        args.rounds,
        [(mix, client) for mix in mixes for client in clients],
        args.posts,
        args.spans_per_post,
        args.clients,
        args.processes,
    )
    Console().print(table)
    Console().print(f"goal: {GOAL_SPANS_PER_S:,} spans/s with the content mix ({os.cpu_count()} CPUs here)")


if __name__ == "__main__":
    main(sys.argv[1:])
