"""RAG-Fusion traces shaped as OpenInference's LangChain and LlamaIndex instrumentors and the GenAI
conventions write them (reference/foreign-traces.md), built from a description of the request, so a test
knows the request each trace holds."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from ragpulse_assembly.model import TraceSpan

LANGCHAIN_SCOPE = "openinference.instrumentation.langchain"
LLAMA_INDEX_SCOPE = "openinference.instrumentation.llama_index"
GENAI_SCOPE = "opentelemetry.instrumentation.openai_v2"
SHAPES = ("langchain", "llamaindex", "genai")


@dataclass(frozen=True)
class FusionRequest:
    """What happened in one RAG-Fusion request; :meth:`spans` writes the trace an instrumentor would."""

    shape: str
    question: str
    answer: str
    corpus: dict[str, str]
    """Document id → text."""
    generated: list[str]
    """The queries the query-writing LLM wrote, in its order."""
    question_searched: bool
    rankings: dict[str, list[str]]
    """Query → the ids it retrieved, best first."""
    fused: list[str]
    """The ids handed to the answering LLM, in prompt order."""
    start_order: list[str] = field(default_factory=list)
    """The order in which the parallel searches started (any order: threads)."""
    extra_llm_calls: int = 0
    """LLM calls besides the query writer and the answer (a check over all retrieved documents)."""
    model: str = "gpt-test"
    tokens: tuple[int, int] = (120, 12)

    @property
    def queries(self) -> list[str]:
        return ([self.question] if self.question_searched else []) + self.generated

    def spans(self, start: datetime, service: str = "fusion-app") -> list[TraceSpan]:
        return _Writer(self, start, service).write()


class _Writer:
    def __init__(self, request: FusionRequest, start: datetime, service: str) -> None:
        self.request = request
        self.start = start
        self.service = service
        self.scope = {"langchain": LANGCHAIN_SCOPE, "llamaindex": LLAMA_INDEX_SCOPE}.get(
            request.shape, GENAI_SCOPE
        )
        self.spans: list[TraceSpan] = []
        self.clock = 0

    def span(self, name: str, parent: str, attributes: dict[str, Any], scope: str | None = None) -> str:
        self.clock += 1
        span_id = f"{len(self.spans) + 1:016x}"
        self.spans.append(
            TraceSpan(
                span_id=span_id,
                parent_span_id=parent,
                name=name,
                service_name=self.service,
                scope_name=self.scope if scope is None else scope,
                timestamp=self.start + timedelta(milliseconds=self.clock),
                duration_ns=1_000_000_000 if not parent else 500_000,
                status_code="Ok",
                attributes={key: str(value) for key, value in attributes.items()},
            )
        )
        return span_id

    def write(self) -> list[TraceSpan]:
        getattr(self, f"_{self.request.shape}")()
        return self.spans

    def _texts(self, ids: list[str]) -> list[str]:
        return [self.request.corpus[i] for i in ids]

    def _searches(self) -> list[str]:
        return self.request.start_order or self.request.queries

    def _prompt(self) -> str:
        context = "\n\n".join(self._texts(self.request.fused))
        return f"Answer from the context only.\n\nContext:\n{context}\n\nQuestion: {self.request.question}"

    def _checks(self, parent: str, kind: str) -> None:
        every = sorted({i for ids in self.request.rankings.values() for i in ids})
        for _ in range(self.request.extra_llm_calls):
            prompt = "Is any of this relevant?\n" + "\n".join(self._texts(every))
            if kind == "genai":
                self.span("chat check", parent, _genai_chat(prompt, "", "yes", self.request.model, (5, 1)))
            else:
                self.span("CheckLLM", parent, _oi_llm_prompts(prompt, "yes"))

    def _langchain(self) -> None:
        r = self.request
        root = self.span(
            "RunnableSequence",
            "",
            {
                "openinference.span.kind": "CHAIN",
                "input.value": json.dumps({"question": r.question}),
                "output.value": r.answer,
            },
        )
        parallel = self.span("RunnableParallel<context,question>", root, {"openinference.span.kind": "CHAIN"})
        retrieval = self.span("RunnableSequence", parallel, {"openinference.span.kind": "CHAIN"})
        if r.generated:
            writer_output = {"generations": [[{"text": "\n".join(r.generated), "type": "Generation"}]]}
            self.span(
                "FakeListLLM",
                retrieval,
                {
                    "openinference.span.kind": "LLM",
                    "llm.prompts": json.dumps([f"Human: Write search queries for: {r.question}"]),
                    "output.value": json.dumps(writer_output),
                },
            )
        each = self.span(
            "RunnableEach<VectorStoreRetriever>", retrieval, {"openinference.span.kind": "CHAIN"}
        )
        for query in self._searches():
            attributes: dict[str, Any] = {"openinference.span.kind": "RETRIEVER", "input.value": query}
            for n, text in enumerate(self._texts(r.rankings[query])):
                attributes[f"retrieval.documents.{n}.document.content"] = text
                attributes[f"retrieval.documents.{n}.document.metadata"] = json.dumps({"source": "wiki"})
            self.span("VectorStoreRetriever", each, attributes)
        fused = [{"page_content": text, "metadata": {}, "type": "Document"} for text in self._texts(r.fused)]
        self.span(
            "reciprocal_rank_fusion",
            retrieval,
            {"openinference.span.kind": "CHAIN", "output.value": json.dumps(fused)},
        )
        self._checks(root, "langchain")
        self.span(
            "FakeListChatModel",
            root,
            {
                "openinference.span.kind": "LLM",
                "llm.input_messages.0.message.role": "user",
                "llm.input_messages.0.message.content": self._prompt(),
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content": r.answer,
                "llm.model_name": r.model,
                "llm.token_count.prompt": r.tokens[0],
                "llm.token_count.completion": r.tokens[1],
                "output.value": r.answer,
            },
        )

    def _llamaindex(self) -> None:
        r = self.request
        root = self.span(
            "RetrieverQueryEngine.query",
            "",
            {"openinference.span.kind": "CHAIN", "input.value": r.question, "output.value": r.answer},
        )
        fusion = self.span(
            "QueryFusionRetriever.retrieve",
            root,
            {
                "openinference.span.kind": "RETRIEVER",
                "input.value": r.question,
                **_documents(r, r.fused, 0.05),
            },
        )
        if r.generated:
            self.span(
                "CannedLLM.complete", fusion, _oi_llm_prompts("Generate queries", "\n".join(r.generated))
            )
        for query in self._searches():
            search = self.span(
                "VectorIndexRetriever.retrieve",
                fusion,
                {
                    "openinference.span.kind": "RETRIEVER",
                    "input.value": query,
                    **_documents(r, r.rankings[query]),
                },
            )
            bundle = json.dumps({"query_bundle": {"query_str": query, "embedding": None}})
            inner = self.span(
                "VectorIndexRetriever._retrieve",
                search,
                {"openinference.span.kind": "RETRIEVER", "input.value": bundle},
            )
            self.span("MockEmbedding.get_query_embedding", inner, {"openinference.span.kind": "EMBEDDING"})
        synthesize = self.span(
            "CompactAndRefine.synthesize",
            root,
            {"openinference.span.kind": "CHAIN", "input.value": r.question, "output.value": r.answer},
        )
        self._checks(synthesize, "llamaindex")
        predict = self.span(
            "CannedLLM.predict",
            synthesize,
            {"openinference.span.kind": "LLM", "input.value": "{}", "output.value": r.answer},
        )
        complete = _oi_llm_prompts(self._prompt(), r.answer)
        complete |= {
            "llm.model_name": r.model,
            "llm.token_count.prompt": r.tokens[0],
            "llm.token_count.completion": r.tokens[1],
        }
        self.span("CannedLLM.complete", predict, complete)

    def _genai(self) -> None:
        r = self.request
        root = self.span(
            "POST /ask", "", {"http.route": "/ask"}, scope="opentelemetry.instrumentation.fastapi"
        )
        if r.generated:
            writer = _genai_chat(
                "", f"Write search queries for: {r.question}", "\n".join(r.generated), "mini", (9, 9)
            )
            self.span("chat mini", root, writer)
        for query in self._searches():
            found = [
                {"id": i, "score": 1.0 / rank, "content": r.corpus[i]}
                for rank, i in enumerate(r.rankings[query], 1)
            ]
            self.span(
                "retrieval docs",
                root,
                {
                    "gen_ai.operation.name": "retrieval",
                    "gen_ai.retrieval.query.text": query,
                    "gen_ai.retrieval.documents": json.dumps(found),
                },
            )
        self._checks(root, "genai")
        context = "Answer from this context:\n" + "\n\n".join(self._texts(r.fused))
        self.span(f"chat {r.model}", root, _genai_chat(context, r.question, r.answer, r.model, r.tokens))


def _documents(request: FusionRequest, ids: list[str], scale: float = 1.0) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    for n, i in enumerate(ids):
        attributes[f"retrieval.documents.{n}.document.id"] = i
        attributes[f"retrieval.documents.{n}.document.content"] = request.corpus[i]
        attributes[f"retrieval.documents.{n}.document.score"] = scale / (n + 1)
    return attributes


def _oi_llm_prompts(prompt: str, output: str) -> dict[str, Any]:
    return {"openinference.span.kind": "LLM", "llm.prompts": json.dumps([prompt]), "output.value": output}


def _genai_chat(system: str, user: str, output: str, model: str, tokens: tuple[int, int]) -> dict[str, Any]:
    messages = [{"role": "user", "parts": [{"type": "text", "content": user}]}] if user else []
    return {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": model,
        "gen_ai.system_instructions": json.dumps([{"type": "text", "content": system}]),
        "gen_ai.input.messages": json.dumps(messages),
        "gen_ai.output.messages": json.dumps(
            [{"role": "assistant", "parts": [{"type": "text", "content": output}], "finish_reason": "stop"}]
        ),
        "gen_ai.usage.input_tokens": tokens[0],
        "gen_ai.usage.output_tokens": tokens[1],
    }


def ragpulse_root(span: TraceSpan, recorded: dict[str, str]) -> TraceSpan:
    """``span`` as ragpulse's ``@rag`` decorator writes a root (pipeline ``lcel``, variant ``B``)."""
    attributes = {
        "openinference.span.kind": "CHAIN",
        "ragpulse.kind": "rag",
        "ragpulse.pipeline": "lcel",
        "ragpulse.variant": "B",
        **recorded,
    }
    return replace(span, scope_name="ragpulse", attributes=attributes)


SPAN_ROW_COLUMNS = [
    "Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName", "ScopeName",
    "SpanAttributes", "Duration", "StatusCode",
]  # fmt: skip


def span_rows(trace_id: str, spans: list[TraceSpan]) -> list[list[Any]]:
    """``otel_traces`` rows (:data:`SPAN_ROW_COLUMNS`) for spans as the collector would write them."""
    return [
        [
            span.timestamp,
            trace_id,
            span.span_id,
            span.parent_span_id,
            span.name,
            "Internal",
            span.service_name,
            span.scope_name,
            span.attributes,
            span.duration_ns,
            span.status_code,
        ]
        for span in spans
    ]
