"""Hypothesis strategies for what reaches ragpulse from outside: OTLP/JSON spans and log records (feedback
spans among them), labels files, rules and judge replies. Values are drawn from what breaks parsers: odd
unicode and control characters, numbers past every range, NaN, nesting, wrong types, and sizes."""

from __future__ import annotations

import json
import time
from typing import Any

from hypothesis import strategies as st

HEX = "0123456789abcdef"

ODD_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "²", "٣", "NaN", "-inf", "1e309", "9" * 5000, "\x1b]0;owned\x07", "a\nb\r\nc", "\u2028", "\ud800",
            "\u202e", "\U000e0041", "\x00", "{}", "[]", "[[[[[[", '{"a":' * 200, "<script>", "'; DROP",
            "${jndi:x}", "%s%n", "a" * 70_000, "0" * 32, "ab" * 16, "cd" * 8,
        ]
    ),
)  # fmt: skip
TRACE_IDS = st.one_of(st.text(HEX, min_size=32, max_size=32), ODD_TEXT)
SPAN_IDS = st.one_of(st.text(HEX, min_size=16, max_size=16), ODD_TEXT)


def any_value(depth: int = 3) -> st.SearchStrategy[dict[str, Any]]:
    """An OTLP/JSON AnyValue, nested up to ``depth`` levels."""
    scalars = st.one_of(
        ODD_TEXT.map(lambda text: {"stringValue": text}),
        st.one_of(st.integers(-(2**70), 2**70).map(str), st.sampled_from(["9" * 5000, "x", "1.5"])).map(
            lambda number: {"intValue": number}
        ),
        st.one_of(st.floats().map(lambda x: x if x == x and abs(x) != float("inf") else "NaN"), ODD_TEXT).map(
            lambda number: {"doubleValue": number}
        ),
        st.sampled_from([True, False, "yes", 3]).map(lambda flag: {"boolValue": flag}),
        st.text(max_size=12).map(lambda text: {"bytesValue": text}),
        st.just({}),
    )
    if depth == 0:
        return scalars
    inner = any_value(depth - 1)
    return st.one_of(
        scalars,
        st.lists(inner, max_size=3).map(lambda values: {"arrayValue": {"values": values}}),
        st.lists(st.tuples(ODD_TEXT, inner), max_size=3).map(
            lambda pairs: {"kvlistValue": {"values": [{"key": k, "value": v} for k, v in pairs]}}
        ),
    )


ATTRIBUTE_KEYS = st.sampled_from(
    [
        "ragpulse.kind", "ragpulse.feedback.trace_id", "ragpulse.feedback.span_id",
        "ragpulse.feedback.request_time_us", "ragpulse.feedback.score", "ragpulse.feedback.comment",
        "input.value", "output.value", "ragpulse.context", "ragpulse.variant", "ragpulse.pipeline",
        "openinference.span.kind", "llm.input_messages.0.message.content",
        "llm.output_messages.0.message.content", "retrieval.documents.0.document.content",
        "gen_ai.operation.name", "gen_ai.prompt", "gen_ai.completion", "user.id", "session.id",
        "service.name",
    ]
)  # fmt: skip
KIND_VALUES = st.sampled_from(["rag", "feedback", "FEEDBACK", "", "rag\x00", "LLM", "RETRIEVER", "CHAIN"])


@st.composite
def attributes(draw: st.DrawFn) -> list[dict[str, Any]]:
    pairs = draw(st.lists(st.tuples(ATTRIBUTE_KEYS, any_value(2)), max_size=8))
    found = [{"key": key, "value": value} for key, value in pairs]
    if draw(st.booleans()):
        found.append({"key": "ragpulse.kind", "value": {"stringValue": draw(KIND_VALUES)}})
    return found


@st.composite
def spans(draw: st.DrawFn) -> dict[str, Any]:
    start = draw(
        st.one_of(
            st.integers(0, 3_600 * 10**9).map(lambda age: str(time.time_ns() - age)),
            st.sampled_from(["0", "-1", str(2**64), "9" * 40, "x", "1" * 4400]),
        )
    )
    return {
        "traceId": draw(TRACE_IDS),
        "spanId": draw(SPAN_IDS),
        "parentSpanId": draw(st.one_of(st.just(""), SPAN_IDS)),
        "name": draw(ODD_TEXT),
        "kind": draw(st.one_of(st.integers(-2, 9), st.just("SPAN_KIND_SERVER"))),
        "startTimeUnixNano": start,
        "endTimeUnixNano": draw(st.one_of(st.just(start), st.integers(0, 2**64).map(str))),
        "attributes": draw(attributes()),
        "events": draw(
            st.lists(st.fixed_dictionaries({"name": ODD_TEXT, "attributes": attributes()}), max_size=2)
        ),
        "status": draw(st.one_of(st.just({}), st.fixed_dictionaries({"code": st.integers(-1, 5)}))),
    }


def resource(service: st.SearchStrategy[str]) -> st.SearchStrategy[dict[str, Any]]:
    return service.map(lambda name: {"attributes": [{"key": "service.name", "value": {"stringValue": name}}]})


SERVICES = st.one_of(st.sampled_from(["svc", "fuzz-svc", "other"]), ODD_TEXT)


@st.composite
def trace_documents(draw: st.DrawFn) -> bytes:
    """An OTLP/JSON ``ExportTraceServiceRequest``, or something that only looks like one."""
    document = {
        "resourceSpans": [
            {
                "resource": draw(resource(SERVICES)),
                "scopeSpans": [{"spans": draw(st.lists(spans(), max_size=6))}],
            }
            for _ in range(draw(st.integers(1, 2)))
        ]
    }
    text = json.dumps(document, ensure_ascii=draw(st.booleans()))
    return draw(
        st.one_of(
            st.just(text),
            st.just(text[: len(text) // 2]),
            st.just('{"resourceSpans": ' + "[" * 3000 + "]" * 3000 + "}"),
        )
    ).encode("utf-8", "surrogatepass")


@st.composite
def log_documents(draw: st.DrawFn) -> bytes:
    """An OTLP/JSON ``ExportLogsServiceRequest`` of GenAI-like events with odd bodies and ids."""
    records = [
        {
            "timeUnixNano": str(time.time_ns()),
            "traceId": draw(TRACE_IDS),
            "spanId": draw(SPAN_IDS),
            "eventName": draw(st.sampled_from(["gen_ai.user.message", "gen_ai.choice", "", "x"])),
            "body": draw(any_value(3)),
            "attributes": draw(attributes()),
        }
        for _ in range(draw(st.integers(0, 4)))
    ]
    document = {
        "resourceLogs": [{"resource": draw(resource(SERVICES)), "scopeLogs": [{"logRecords": records}]}]
    }
    return json.dumps(document).encode("utf-8", "surrogatepass")


LABEL_KEYS = ["trace_id", "label", "span_id", "request_time", "author", "sentences", "note", "score", "extra"]
LABEL_VALUES = st.one_of(
    ODD_TEXT,
    st.integers(-(2**80), 2**80),
    st.floats(),
    st.booleans(),
    st.none(),
    st.lists(st.integers(-5, 100), max_size=5),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@st.composite
def label_files(draw: st.DrawFn) -> bytes:
    """A labels file: JSON lines with odd values, garbage, invalid bytes, U+2028, long and nested lines."""
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        keys = draw(
            st.lists(
                st.sampled_from(LABEL_KEYS),
                max_size=6,
            )
        )  # fmt: skip
        line = json.dumps({key: draw(LABEL_VALUES) for key in keys}).encode("utf-8", "surrogatepass")
        lines.append(
            draw(
                st.sampled_from(
                    [
                        line,
                        b"\xff" + line,
                        line.replace(b"\\u2028", "\u2028".encode()),
                        b"[" * 50_000,
                        b"",
                        b"\r",
                    ]
                )
            )
        )
    return b"\n".join(lines)


CONDITIONS = st.one_of(
    ODD_TEXT,
    st.lists(ODD_TEXT, max_size=3),
    st.fixed_dictionaries(
        {"regex": st.sampled_from([r"^(\w+-?)+-prod$", r"(a|aa)+$", r"(?=x)", r"\1", "[", "."])}
    ),
)


@st.composite
def rules(draw: st.DrawFn) -> dict[str, Any]:
    """A ``[[rules]]`` table, usable or not."""
    match = draw(st.dictionaries(st.sampled_from(["service", "variant", "pipeline"]), CONDITIONS, max_size=2))
    return {
        "name": draw(st.one_of(st.just("fuzz"), ODD_TEXT)),
        "judges": draw(
            st.lists(st.sampled_from(["lexical", "support"]), min_size=1, max_size=2, unique=True)
        ),
        "match": match,
        "sample_rate": draw(st.one_of(st.floats(0, 1), st.floats())),
    }


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


JUDGE_REPLIES = st.one_of(
    ODD_TEXT,
    st.sampled_from(
        [
            "",
            _deep(100_000),
            '{"sentence_support_information": ' + _deep(5000) + "}",
            '```json\n{"overall_supported": true}\n```',
            '{"overall_supported": "yes", "sentence_support_information": [{"sentence_key": "zz9"}]}',
            '{"relevance_explanation": 1, "all_relevant_sentence_keys": ["0a"] , "overall_supported": true,'
            ' "overall_supported_explanation": "", "sentence_support_information": [],'
            ' "all_utilized_sentence_keys": [' + ",".join(['"0a"'] * 20_000) + "]}",
            '{"overall_supported": true, "x": ' + "9" * 5000 + "}",
            "I cannot answer that.",
            '{"a":[' + "1," * 50_000 + "x," * 50_000,
            "{a" * 100_000,
        ]
    ),
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), ODD_TEXT),
        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(ODD_TEXT, inner, max_size=3)),
        max_leaves=10,
    ).map(json.dumps),
)
