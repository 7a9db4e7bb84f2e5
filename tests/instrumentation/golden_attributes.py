"""Requests traced by the decorators, and every attribute their spans carry, byte for byte.

``golden_attributes.json`` holds what these requests recorded before the decorator path was made faster;
``test_golden_attributes.py`` checks they still record exactly that (the JSON attributes compared as strings,
not parsed, so a change of separator, escaping or number format shows). Regenerate it, only when a change of
what is recorded is meant, with ``.venv/bin/python tests/instrumentation/golden_attributes.py``.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ragpulse
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse.settings import apply_settings

GOLDEN = Path(__file__).with_name("golden_attributes.json")
TEXT = "Reciprocal rank fusion merges rankings from several query variations. "


@dataclass
class Document:
    """A LangChain ``Document`` by duck typing."""

    page_content: str
    metadata: dict[str, Any]


@dataclass
class Passage:
    text: str
    score: Any
    id: Any = None


def _ranking(query: str) -> list[Any]:
    """A ranking of every shape a retriever returns: plain dicts first (the fast path), then the others."""
    return [
        {"id": f"{query}-a", "text": f"{query} {TEXT * 3}", "score": 0.8125, "source": "kb.md"},
        {"id": f"{query}-b", "text": 'Ünïcödé ✓ 漢字 "quoted" \\ back\nline\t', "score": 1e-05},
        {"id": f"{query}-c", "text": "no score"},
        {"id": f"{query}-d", "text": "int score", "score": 3},
        {"id": f"{query}-e", "text": "nan score", "score": math.nan},
        {"id": f"{query}-f", "text": "inf score", "score": -math.inf},
        {"id": f"{query}-g", "text": "bool score", "score": True},
        {"id": 17, "text": "int id", "score": 0.1 + 0.2},
        {"text": "no id, hashed", "score": 2.5e-300},
        {"id": f"{query}-h", "content": "content key", "metadata": {"source": "meta.md"}, "score": "0.5"},
        {"id": f"{query}-i", "text": "with metadata", "metadata": {"url": "https://example.test/x"}},
        ragpulse.Chunk(id=f"{query}-j", text="a Chunk", score=0.25, source="chunk.md"),
        Document(
            page_content="a document", metadata={"id": f"{query}-k", "score": 0.5, "file_name": "d.pdf"}
        ),
        (f"{query} tuple text", 0.75),
        f"{query} plain string",
        Passage(text="an object", score=0.125, id=f"{query}-l"),
        object(),
        {"id": f"{query}-m", "text": 5},
    ]


@ragpulse.variations
def make_variations(question: str) -> list[Any]:
    return [question, f"{question} (rephrased)", 42]


@ragpulse.retrieve
def search(query: str, top_k: int = 20) -> list[Any]:
    return _ranking(query)[:top_k]


@ragpulse.retrieve(capture_text=True)
def search_with_text(query: str) -> list[Any]:
    return _ranking(query)[:4]


@ragpulse.fuse
def fuse(rankings: list[list[Any]], k: int = 60) -> list[ragpulse.FusedChunk]:
    return ragpulse.rrf([[item for item in ranking if _reads(item)] for ranking in rankings], k=k, top_n=8)


def _reads(item: Any) -> bool:
    try:
        ragpulse.to_chunk(item)
    except ragpulse.ChunkError:
        return False
    return True


@ragpulse.generate(model="golden-model")
def write(question: str, chunks: list[Any]) -> str:
    return f"{question}: {len(chunks)} chunks. " + TEXT * 4


@ragpulse.generate
def stream_answer(question: str, context: list[Any], model: str = "stream-model") -> Iterator[str]:
    yield from ("It ", "sums ", "ranks ✓.")


@ragpulse.rag(pipeline="fusion", variant="G")
def fusion_request(question: str) -> str:
    rankings = [search(query) for query in make_variations(question)]
    rankings.append(search_with_text(question))
    return write(question, fuse(rankings, k=30))


@ragpulse.rag(pipeline="streamed")
def streamed_request(question: str) -> str:
    return "".join(stream_answer(question, search(question)[:5]))


@ragpulse.rag
def chain_request(inputs: dict[str, Any]) -> dict[str, Any]:
    return {"answer": "from the chain", "context": _ranking(inputs["question"])[:6]}


@ragpulse.retrieve
async def search_async(query: str) -> list[Any]:
    return _ranking(query)[:3]


@ragpulse.generate
async def stream_async(question: str, docs: list[Any]) -> AsyncIterator[str]:
    for piece in ("async ", "answer"):
        yield piece


@ragpulse.rag(pipeline="async")
async def async_request(question: str) -> str:
    chunks = await search_async(question)
    return "".join([piece async for piece in stream_async(question, chunks)])


def _run_async() -> str:
    return asyncio.run(async_request("async question"))


Scenario = tuple[str, dict[str, Any], Callable[[], object]]

SCENARIOS: list[Scenario] = [
    ("fusion", {}, lambda: fusion_request("What does RRF do?")),
    ("fusion, content off", {"capture_content": False}, lambda: fusion_request("What does RRF do?")),
    ("fusion, 60 characters", {"max_text_chars": 60}, lambda: fusion_request("What does RRF do?")),
    ("fusion, redacted", {"redact": lambda text: text.replace("a", "*")}, lambda: fusion_request("Q a")),
    ("streamed", {}, lambda: streamed_request("Stream it?")),
    ("chain", {}, lambda: chain_request({"question": "chain question"})),
    ("async", {}, _run_async),
]


def _value(value: Any) -> Any:
    """An attribute value as JSON keeps it, its type named: 1 and 1.0 and True must not compare equal."""
    if isinstance(value, tuple):
        return [_value(item) for item in value]
    return [type(value).__name__, value if not isinstance(value, float) else repr(value)]


def _span_record(span: ReadableSpan) -> dict[str, Any]:
    return {
        "name": span.name,
        "attributes": {key: _value(value) for key, value in (span.attributes or {}).items()},
    }


def record(exporter: InMemorySpanExporter) -> dict[str, list[dict[str, Any]]]:
    """Each scenario's spans, in the order they ended, with their attributes in the order they were set."""
    recorded: dict[str, list[dict[str, Any]]] = {}
    for name, settings, run in SCENARIOS:
        exporter.clear()
        apply_settings(**settings)
        try:
            run()
        finally:
            apply_settings()
        recorded[name] = [_span_record(span) for span in exporter.get_finished_spans()]
    exporter.clear()
    return recorded


def main() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    with ragpulse.use_tracer_provider(provider):
        recorded = record(exporter)
    GOLDEN.write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
