"""Every case of the corpus: which app runs in which family environment, with which arguments and settings,
and the fields of its ground truth that do not come from the run (family, source, expected reason)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OTEL = ("opentelemetry-api", "opentelemetry-sdk", "opentelemetry-exporter-otlp-proto-http")
OPENINFERENCE = ("openinference-instrumentation", "openinference-semantic-conventions", *OTEL)


@dataclass(frozen=True)
class Case:
    name: str
    env_name: str
    """The family environment (``requirements/<env_name>.txt``)."""
    app: str
    """The script in ``apps/`` that runs the service."""
    family: str
    source: str
    context_source: str
    description: str
    packages: tuple[str, ...]
    """Distributions whose versions go into ``expected.json``."""
    args: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    unscorable: str = ""
    launcher: tuple[str, ...] = ()
    """A command from the venv's ``bin`` that wraps ``python app`` (zero-code instrumentation)."""
    hidden: tuple[str, ...] = ()
    """What the trace cannot know (question, context, answer): null or empty in the ground truth."""

    def truth_fields(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "packages": list(self.packages),
            "description": self.description,
            "source": self.source,
            "context_source": self.context_source,
            "unscorable": self.unscorable,
            "hidden": list(self.hidden),
        }


SHAPES = {
    "system-context": "docs in the system message under 'Context:', user message = the bare question",
    "user-numbered": "one user message: numbered docs, then 'Question: ...'",
    "doc-tags": "one user message per doc in <doc id=...> tags, then the bare question",
    "document-n": "one system message per doc headed 'Document N:', then the bare question",
    "dashes": "one user message: the question, then docs between '---' lines",
    "history": "docs in the system message under 'Context:', an earlier exchange, then the question",
}


def _plain(
    prefix: str,
    env_name: str,
    app: str,
    family: str,
    source: str,
    packages: tuple[str, ...],
    runs: list[tuple[str, str, bool]],
    what: str,
    context_source: str = "prompt",
    env: dict[str, str] | None = None,
    launcher: tuple[str, ...] = (),
    args: dict[str, Any] | None = None,
    suffix: str = "",
) -> list[Case]:
    """Cases of the plain openai service, one per (prompt shape, question, streamed)."""
    return [
        Case(
            name=f"{prefix}-{shape}{'-stream' if stream else ''}{suffix}",
            env_name=env_name,
            app=app,
            family=family,
            source=source,
            context_source=context_source,
            description=f"{what}; {SHAPES[shape]}{'; streamed' if stream else ''}",
            packages=packages,
            args={"shape": shape, "question": question, "stream": stream, **(args or {})},
            env=dict(env or {}),
            launcher=launcher,
        )
        for shape, question, stream in runs
    ]  # fmt: skip


OI_OPENAI = ("openai", "openinference-instrumentation-openai", *OPENINFERENCE)
OPENAI_V2 = ("openai", "opentelemetry-instrumentation-openai-v2", "opentelemetry-util-genai",
             "opentelemetry-distro", *OTEL)  # fmt: skip
NOTHING = ("question", "context", "answer")
LATEST = {"OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental"}
ZERO_CODE = {
    "OTEL_TRACES_EXPORTER": "otlp",
    "OTEL_METRICS_EXPORTER": "otlp",
    "OTEL_LOGS_EXPORTER": "otlp",
    "OTEL_PYTHON_LOGGING_AUTO_INSTRUMENTATION_ENABLED": "true",
}
OPENLLMETRY = ("openai", "opentelemetry-instrumentation-openai", "traceloop-sdk",
               "opentelemetry-semantic-conventions-ai", *OTEL)  # fmt: skip
OPENLIT = ("openai", "openlit", *OTEL)
HAYSTACK = ("haystack-ai", "openai")
DSPY = ("dspy", "litellm", "openai", "openinference-instrumentation-dspy", *OPENINFERENCE)

CASES: list[Case] = [
    # OpenInference's openai instrumentor: the ChatCompletion span is the whole trace.
    *_plain("openinference-openai", "openinference", "openinference_openai.py", "openinference-openai",
            "openinference", OI_OPENAI,
            [("system-context", "trash", False), ("user-numbered", "guests", False),
             ("doc-tags", "storage", False), ("user-numbered", "offline", True),
             ("history", "uploads", False)],
            "plain openai service under OpenInference's openai instrumentor"),
    *_plain("openinference-openai-manual", "openinference", "openinference_openai.py", "openinference-openai",
            "openinference", OI_OPENAI, [("system-context", "versions", False)],
            "plain openai service with its own OpenInference CHAIN root and RETRIEVER span (documents with "
            "text) around the instrumented client", context_source="retriever", args={"manual_spans": True}),
    # opentelemetry-instrumentation-openai-v2 under zero-code `opentelemetry-instrument`, all three signals.
    *_plain("openai-v2-span-only", "openai-v2", "plain_openai.py", "openai-v2", "genai", OPENAI_V2,
            [("system-context", "twostep", False), ("user-numbered", "uploads", False),
             ("document-n", "account", False), ("doc-tags", "trash", True), ("history", "guests", False)],
            "plain openai service under opentelemetry-instrument with openai-v2, latest GenAI semconv, "
            "content on spans (span_only)",
            env=ZERO_CODE | LATEST | {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_only"},
            launcher=("opentelemetry-instrument",)),
    *_plain("openai-v2-event-only", "openai-v2", "plain_openai.py", "openai-v2", "genai", OPENAI_V2,
            [("system-context", "guests", False), ("user-numbered", "storage", True)],
            "plain openai service under opentelemetry-instrument with openai-v2, latest GenAI semconv, "
            "content only in the gen_ai.client.inference.operation.details log event (event_only)",
            env=ZERO_CODE | LATEST | {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "event_only"},
            launcher=("opentelemetry-instrument",)),
    *_plain("openai-v2-span-and-event", "openai-v2", "plain_openai.py", "openai-v2", "genai", OPENAI_V2,
            [("document-n", "offline", False)],
            "plain openai service under opentelemetry-instrument with openai-v2, latest GenAI semconv, "
            "content on the span and in the log event (span_and_event)",
            env=ZERO_CODE | LATEST | {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_and_event"},
            launcher=("opentelemetry-instrument",)),
    Case("openai-v2-capture-off", "openai-v2", "plain_openai.py", "openai-v2", "genai", "",
         "plain openai service under opentelemetry-instrument with openai-v2, content capture unset (the "
         "default): no prompt or answer anywhere", OPENAI_V2,
         args={"shape": "system-context", "question": "versions"}, env=ZERO_CODE | LATEST,
         unscorable="no_content", launcher=("opentelemetry-instrument",), hidden=NOTHING),
    *_plain("openai-v2-legacy", "openai-v2-legacy", "plain_openai.py", "openai-v2", "genai", OPENAI_V2,
            [("system-context", "uploads", False), ("user-numbered", "account", False),
             ("dashes", "twostep", True)],
            "plain openai service under opentelemetry-instrument with openai-v2 and util-genai 0.4b0, legacy "
            "semconv (no opt-in), capture=true: content only in gen_ai.*.message / gen_ai.choice log events",
            env=ZERO_CODE | {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "true"},
            launcher=("opentelemetry-instrument",)),
    Case("openai-v2-legacy-capture-off", "openai-v2-legacy", "plain_openai.py", "openai-v2", "genai", "",
         "plain openai service under opentelemetry-instrument with openai-v2 and util-genai 0.4b0, legacy "
         "semconv, capture unset: no content anywhere", OPENAI_V2,
         args={"shape": "user-numbered", "question": "trash"}, env=ZERO_CODE, unscorable="no_content",
         launcher=("opentelemetry-instrument",), hidden=NOTHING),
    # opentelemetry-util-genai's TelemetryHandler in the app: workflow and retrieval spans around openai-v2.
    Case("genai-util-workflow-documents", "openai-v2", "genai_util_rag.py", "genai-util", "genai",
         "retriever",
         "TelemetryHandler workflow + retrieval span whose documents carry id, score and content; openai-v2 "
         "chat span inside; latest semconv, span_only", OPENAI_V2,
         args={"shape": "system-context", "question": "storage", "documents": "content"},
         env=LATEST | {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_only"}),
    Case("genai-util-workflow-ids", "openai-v2", "genai_util_rag.py", "genai-util", "genai", "prompt",
         "TelemetryHandler workflow + retrieval span whose documents carry only id and score (the spec's "
         "minimum); the texts exist only in the openai-v2 chat span's prompt", OPENAI_V2,
         args={"shape": "user-numbered", "question": "guests", "documents": "ids"},
         env=LATEST | {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_only"}),
    Case("genai-util-workflow-ids-untraced-llm", "openai-v2", "genai_util_rag.py", "genai-util", "genai", "",
         "TelemetryHandler workflow (question and answer as messages) + retrieval span with ids and scores "
         "only; the model call is not traced, so no document text exists anywhere in the trace", OPENAI_V2,
         args={"shape": "system-context", "question": "offline", "documents": "ids", "trace_llm": False},
         env=LATEST | {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_only"},
         unscorable="context_unavailable", hidden=("context",)),
    # OpenLLMetry (traceloop-sdk) current: @workflow/@task decorators around the openai instrumentor.
    *_plain("openllmetry-workflow", "openllmetry", "openllmetry_openai.py", "openllmetry", "openllmetry",
            OPENLLMETRY,
            [("system-context", "account", False), ("user-numbered", "versions", False),
             ("doc-tags", "uploads", False), ("system-context", "guests", True)],
            "traceloop-sdk: @workflow rag with @task retrieve (returns [{id, text, score}]) and @task "
            "generate around the openai instrumentor", context_source="documents"),
    *_plain("openllmetry-rewrite", "openllmetry", "openllmetry_openai.py", "openllmetry", "openllmetry",
            OPENLLMETRY, [("user-numbered", "offline", False)],
            "traceloop-sdk: @workflow rag with @task rewrite_query (a first LLM call turning the question "
            "into a search query), @task retrieve and @task generate", context_source="documents",
            args={"rewrite": True}),
    *_plain("openllmetry-events", "openllmetry", "openllmetry_openai.py", "openllmetry", "openllmetry",
            OPENLLMETRY, [("system-context", "trash", False)],
            "traceloop-sdk with use_attributes=False: prompts and completions as gen_ai.*.message / "
            "gen_ai.choice log events, not span attributes; @workflow/@task decorators",
            context_source="documents", args={"events": True}),
    *_plain("openllmetry-instrumentor", "openllmetry", "openllmetry_openai.py", "openllmetry", "openllmetry",
            OPENLLMETRY, [("user-numbered", "twostep", False)],
            "opentelemetry-instrumentation-openai alone (no traceloop-sdk): openai.chat is the whole trace",
            args={"decorators": False}),
    Case("openllmetry-langchain", "openllmetry", "openllmetry_langchain.py", "openllmetry", "openllmetry",
         "retriever",
         "traceloop-sdk with its LangChain instrumentor: LCEL retriever (keyword search) | format docs | "
         "ChatPromptTemplate (context in the system message) | ChatOpenAI | StrOutputParser",
         ("langchain-core", "langchain-openai", "opentelemetry-instrumentation-langchain", *OPENLLMETRY),
         args={"question": "storage"}),
    # OpenLLMetry 0.40.x: indexed gen_ai.prompt.N / gen_ai.completion.N attributes.
    *_plain("openllmetry-040-workflow", "openllmetry-0.40", "openllmetry_openai.py", "openllmetry-0.40",
            "openllmetry", OPENLLMETRY,
            [("system-context", "offline", False), ("user-numbered", "trash", False),
             ("dashes", "storage", True)],
            "traceloop-sdk 0.40: @workflow rag with @task retrieve and @task generate around the openai "
            "instrumentor", context_source="documents"),
    *_plain("openllmetry-040-instrumentor", "openllmetry-0.40", "openllmetry_openai.py", "openllmetry-0.40",
            "openllmetry", OPENLLMETRY, [("doc-tags", "guests", False)],
            "opentelemetry-instrumentation-openai 0.40 alone: the openai.chat span is the trace",
            args={"decorators": False}),
    # OpenLIT.
    *_plain("openlit", "openlit", "openlit_openai.py", "openlit", "openlit", OPENLIT,
            [("system-context", "versions", False), ("user-numbered", "twostep", False),
             ("document-n", "storage", False), ("doc-tags", "account", True)],
            "plain openai service after openlit.init()"),
    # Haystack pipelines: InMemoryBM25Retriever -> ChatPromptBuilder -> OpenAIChatGenerator.
    Case("openinference-haystack", "openinference", "haystack_rag.py", "openinference-haystack",
         "openinference", "retriever",
         "Haystack pipeline (BM25 retriever, ChatPromptBuilder, OpenAIChatGenerator) under OpenInference's "
         "Haystack instrumentor", ("openinference-instrumentation-haystack", *HAYSTACK, *OPENINFERENCE),
         args={"question": "trash", "tracer": "openinference"}),
    Case("openinference-haystack-include-outputs", "openinference", "haystack_rag.py",
         "openinference-haystack", "openinference", "retriever",
         "the same pipeline run with include_outputs_from={'retriever'} under OpenInference",
         ("openinference-instrumentation-haystack", *HAYSTACK, *OPENINFERENCE),
         args={"question": "uploads", "tracer": "openinference", "include_outputs": True}),
    Case("openinference-haystack-stream", "openinference", "haystack_rag.py", "openinference-haystack",
         "openinference", "retriever",
         "the same pipeline with a streaming_callback on the generator, under OpenInference",
         ("openinference-instrumentation-haystack", *HAYSTACK, *OPENINFERENCE),
         args={"question": "account", "tracer": "openinference", "stream": True}),
    Case("haystack-native-content", "openinference", "haystack_rag.py", "haystack-native", "haystack",
         "retriever",
         "the same pipeline traced by Haystack's own OpenTelemetry tracer, "
         "HAYSTACK_CONTENT_TRACING_ENABLED=true",
         ("opentelemetry-haystack", *HAYSTACK, *OTEL), args={"question": "guests", "tracer": "native"},
         env={"HAYSTACK_CONTENT_TRACING_ENABLED": "true"}),
    Case("haystack-native-include-outputs", "openinference", "haystack_rag.py", "haystack-native", "haystack",
         "retriever",
         "Haystack's own tracer with content tracing, pipeline run with include_outputs_from={'retriever'}",
         ("opentelemetry-haystack", *HAYSTACK, *OTEL),
         args={"question": "versions", "tracer": "native", "include_outputs": True},
         env={"HAYSTACK_CONTENT_TRACING_ENABLED": "true"}),
    Case("haystack-native-no-content", "openinference", "haystack_rag.py", "haystack-native", "haystack", "",
         "Haystack's own tracer with content tracing off (the default): component types and specs, and the "
         "pipeline's input data (a plain tag, so the question is there), but no documents and no answer",
         ("opentelemetry-haystack", *HAYSTACK, *OTEL), args={"question": "storage", "tracer": "native"},
         env={"HAYSTACK_CONTENT_TRACING_ENABLED": "false"}, unscorable="no_answer",
         hidden=("context", "answer")),
    # DSPy modules under OpenInference's DSPy instrumentor (ChatAdapter prompts through LiteLLM).
    Case("openinference-dspy-predict", "openinference", "dspy_rag.py", "openinference-dspy", "openinference",
         "documents",
         "DSPy RAG module: own search function, dspy.Predict('context, question -> answer'), ChatAdapter",
         DSPY, args={"question": "twostep", "module": "predict"}),
    Case("openinference-dspy-cot", "openinference", "dspy_rag.py", "openinference-dspy", "openinference",
         "documents",
         "DSPy RAG module: own search function, dspy.ChainOfThought('context, question -> response'), "
         "ChatAdapter (reasoning + response fields)",
         DSPY, args={"question": "uploads", "module": "cot"}),
]  # fmt: skip
