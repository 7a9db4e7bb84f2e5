"""Request assembly from OpenInference traces: traces per second with the structure rules alone and with
templates learnt from the traffic as well (ragpulse's default), and what reading only the attributes assembly
uses saves over reading whole attribute maps, each measured side by side on the same traces.

The table holds LlamaIndex-shaped RAG-Fusion traces (a fusion retriever over four searches, embedding spans
carrying 1536-dimension vectors, a query writer and an answering LLM) beside as many ragpulse-decorated
requests, which assembly must pass over.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ragpulse_assembly import dialects
from ragpulse_assembly.job import AssemblyWindow, _settled_traces, assemble_requests
from ragpulse_assembly.readings import RULES_ONLY, template_readers
from ragpulse_assembly.settings import TemplateSettings
from ragpulse_core.sampling import Shard
from ragpulse_core.schema import migrate
from ragpulse_core.store import Store
from rich.console import Console
from rich.table import Table

COLUMNS = [
    "Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName", "ScopeName",
    "SpanAttributes", "Duration", "StatusCode",
]  # fmt: skip
SCOPE = "openinference.instrumentation.llama_index"


def _documents(rng: random.Random, count: int) -> dict[str, str]:
    attributes = {}
    for n in range(count):
        identifier = rng.randrange(5000)
        attributes[f"retrieval.documents.{n}.document.id"] = f"node-{identifier}"
        text = f"Passage {identifier}. " + "lorem ipsum " * 40
        attributes[f"retrieval.documents.{n}.document.content"] = text
        attributes[f"retrieval.documents.{n}.document.score"] = str(rng.random())
    return attributes


def foreign_trace(rng: random.Random, start: datetime) -> list[list[Any]]:
    """One LlamaIndex query's spans: root, fusion retriever, query writer, 4 searches with their embedding
    calls, synthesis and the answering LLM (13 spans)."""
    trace = rng.randbytes(16).hex()
    rows: list[list[Any]] = []

    def span(name: str, parent: str, attributes: dict[str, str]) -> str:
        span_id = rng.randbytes(8).hex()
        rows.append(
            [
                start + timedelta(milliseconds=len(rows)),
                trace,
                span_id,
                parent,
                name,
                "Internal",
                "bench-li",
                SCOPE,
                attributes,
                40_000_000,
                "Ok",
            ]
        )
        return span_id

    question = f"question {rng.randrange(10**6)}?"
    queries = [question] + [f"variation {i} of {question}" for i in range(3)]
    root = span(
        "RetrieverQueryEngine.query",
        "",
        {"openinference.span.kind": "CHAIN", "input.value": question, "output.value": "An answer. " * 20},
    )
    fused = _documents(rng, 5)
    fusion = span(
        "QueryFusionRetriever.retrieve",
        root,
        {"openinference.span.kind": "RETRIEVER", "input.value": question, **fused},
    )
    span(
        "MockLLM.complete",
        fusion,
        {
            "openinference.span.kind": "LLM",
            "llm.prompts": json.dumps([question]),
            "output.value": "\n".join(queries[1:]),
        },
    )
    vector = json.dumps([rng.random() for _ in range(1536)])
    for query in queries:
        search = span(
            "VectorIndexRetriever.retrieve",
            fusion,
            {"openinference.span.kind": "RETRIEVER", "input.value": query, **_documents(rng, 5)},
        )
        span(
            "OpenAIEmbedding.get_query_embedding",
            search,
            {
                "openinference.span.kind": "EMBEDDING",
                "embedding.embeddings.0.embedding.text": query,
                "embedding.embeddings.0.embedding.vector": vector,
            },
        )
    synthesize = span("CompactAndRefine.synthesize", root, {"openinference.span.kind": "CHAIN"})
    context = "\n\n".join(v for k, v in fused.items() if k.endswith("content"))
    span(
        "OpenAI.complete",
        synthesize,
        {
            "openinference.span.kind": "LLM",
            "llm.model_name": "gpt-4o-mini",
            "llm.prompts": json.dumps([f"Context:\n{context}\nQuery: {question}"]),
            "output.value": "An answer. " * 20,
            "llm.token_count.prompt": "2900",
            "llm.token_count.completion": "120",
        },
    )
    return rows


def ragpulse_trace(rng: random.Random, start: datetime) -> list[list[Any]]:
    trace = rng.randbytes(16).hex()
    attributes = {"ragpulse.kind": "rag", "ragpulse.context": json.dumps([{"id": "d", "text": "t"}])}
    return [
        [
            start,
            trace,
            rng.randbytes(8).hex(),
            "",
            "rag fusion",
            "Internal",
            "bench",
            "ragpulse",
            attributes,
            40_000_000,
            "Ok",
        ]
    ]


def _timed_read(store: Store, traces: list[str], attributes: str) -> tuple[float, int]:
    started = time.perf_counter()
    rows = store.query(
        f"SELECT SpanId, {attributes} FROM {store.table('otel_traces')}"
        " WHERE has({t:Array(String)}, TraceId)",
        {"t": traces, "keys": dialects.ATTRIBUTE_KEYS, "prefixes": dialects.ATTRIBUTE_PREFIXES},
    )
    elapsed = time.perf_counter() - started
    return elapsed, sum(len(k) + len(v) for _, attrs in rows for k, v in attrs.items())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--traces", type=int, default=1000, help="foreign traces (and as many ragpulse ones)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each mode, interleaved")
    args = parser.parse_args(argv)
    console = Console()
    rng = random.Random(7)
    start = datetime.now(UTC) - timedelta(minutes=10)
    with tempfile.TemporaryDirectory() as directory:
        store = Store(f"chdb://{Path(directory) / 'db'}")
        migrate(store, ttl_days=30)
        foreign = [row for _ in range(args.traces) for row in foreign_trace(rng, start)]
        for offset in range(0, len(foreign), 20_000):
            store.insert("otel_traces", foreign[offset : offset + 20_000], COLUMNS)
        decorated = [row for _ in range(args.traces) for row in ragpulse_trace(rng, start)]
        store.insert("otel_traces", decorated, COLUMNS)

        sample = sorted({row[1] for row in foreign})[:200]
        filtered = (
            "mapFilter((key, value) -> has({keys:Array(String)}, key)"
            " OR arrayExists(p -> startsWith(key, p), {prefixes:Array(String)}), SpanAttributes)"
        )
        whole_s, whole_bytes = _timed_read(store, sample, "SpanAttributes")
        kept_s, kept_bytes = _timed_read(store, sample, filtered)

        now = datetime.now(UTC)
        window = AssemblyWindow(now - timedelta(hours=1), now, Shard(0, 1), batch_size=200, max_traces=10**9)
        started = time.perf_counter()
        candidates = len(_settled_traces(store, window, window.max_traces))
        finding = time.perf_counter() - started
        rates: dict[str, list[float]] = {"rules alone": [], "learning templates": []}
        learnt: set[str] = set()
        for _ in range(args.rounds):
            for mode in rates:
                for table in ("ragpulse_requests", "ragpulse_assembly_log", "ragpulse_templates"):
                    store.command(f"TRUNCATE TABLE {store.table(table)}")
                readers = RULES_ONLY if mode == "rules alone" else template_readers(TemplateSettings(), store)
                started = time.perf_counter()
                report = assemble_requests(store, replace(window, readers=readers))
                rates[mode].append(report.assembled / (time.perf_counter() - started))
                if readers.templates is not None:
                    learnt.update(row[0] for row in store.query(
                        f"SELECT DISTINCT TemplateVersion FROM {store.table('ragpulse_requests')}"
                    ))  # fmt: skip
        store.close()

    table = Table(title=f"{args.traces} OpenInference traces ({len(foreign)} spans) + {args.traces} ragpulse")
    for column in ("measure", "value"):
        table.add_column(column)
    rules, learning = (statistics.median(rates[mode]) for mode in rates)
    table.add_row("requests assembled", f"{report.assembled} of {args.traces} ({report.traces} traces read)")
    table.add_row("assembly rate, rules alone", f"{rules:,.0f} traces/s (median of {args.rounds})")
    table.add_row("assembly rate, learning templates", f"{learning:,.0f} traces/s (median of {args.rounds})")
    table.add_row(
        "learning / rules alone", f"{learning / rules:.2f} (versions read: {sorted(learnt - {''})})"
    )
    table.add_row("finding the settled traces (one query)", f"{finding:.3f} s for {candidates} candidates")
    table.add_row("attribute bytes, filtered / whole maps", f"{kept_bytes / whole_bytes:.3f}")
    table.add_row("read time, filtered / whole maps", f"{kept_s / whole_s:.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
