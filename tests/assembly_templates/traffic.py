"""Requests made from RAG templates as two instrumentations record them, assembled and judged as ragpulse
does, and classified against what was really sent.

The spans carry the attributes the instrumentations write for an OpenAI chat call: OpenInference's
``llm.input_messages.N.message.*`` (openinference-instrumentation-openai) and the current GenAI conventions'
``gen_ai.input.messages``/``gen_ai.output.messages`` JSON (opentelemetry-instrumentation-openai-v2 with
``OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental``), tool calls included.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from ragpulse_assembly.model import TraceSpan
from ragpulse_assembly.reasons import explain
from ragpulse_assembly.rules import AssembledRequest, assemble
from ragpulse_judge.rules import LexicalJudge
from templates import Doc, Messages, Template

START = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
FAMILIES = ("openinference", "openai-v2-latest")
STYLES = ("plain", "cited", "markdown", "preamble")
FABRICATED = (
    "The warranty also covers accidental damage caused by saltwater for twelve years.",
    "Members additionally receive a free helicopter transfer from the nearest airport.",
    "This rule was introduced by the Norwegian parliament in 1874 after a public vote.",
    "Every request is reviewed personally by the chief financial officer within one hour.",
)


@dataclass(frozen=True)
class Topic:
    question: str
    docs: tuple[Doc, ...]


TOPICS = (
    Topic(
        "How long are deleted files kept in the trash?",
        (
            Doc(
                "Deleted files stay in the trash for 30 days. After 30 days they are removed for good.",
                "trash.md",
            ),
            Doc(
                "Only the owner of a file can restore it from the trash. Shared folders keep their own"
                " trash.",
                "restore.md",
            ),
            Doc(
                "Admins can empty the trash of any workspace member. Emptying the trash cannot be undone.",
                "admin-guide.pdf",
            ),
        ),
    ),
    Topic(
        "Which plans include offline access?",
        (
            Doc(
                "Offline access is included in the Business and Enterprise plans. The Free plan syncs online"
                " only.",
                "plans.html",
            ),
            Doc(
                "The desktop app stores offline copies in an encrypted folder. Offline copies sync when the"
                " device reconnects.",
                "desktop-app.md",
            ),
            Doc(
                "Mobile devices can mark up to 200 files for offline use. Larger folders must be synced from"
                " the desktop app.",
                "mobile.md",
            ),
        ),
    ),
    Topic(
        "What is the upload limit for a single file?",
        (
            Doc(
                "A single upload can be at most 250 GB through the browser. The desktop app has no size"
                " limit.",
                "limits.md",
            ),
            Doc(
                "Uploads pause when the connection drops and resume automatically. Partial uploads are kept"
                " for 24 hours.",
                "uploads.md",
            ),
        ),
    ),
    Topic(
        "How do guests access a shared folder?",
        (
            Doc(
                "Guests open a shared folder through an invitation link. The link expires after 14 days.",
                "sharing.md",
            ),
            Doc(
                "Guests can view and comment but cannot delete files. A guest needs no paid plan.",
                "guests.md",
            ),
            Doc("Folder owners can revoke a guest link at any time from the sharing panel.", "owners.md"),
            Doc("Guest activity appears in the audit log of the workspace for 90 days.", "audit-log.md"),
        ),
    ),
)


def first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s+", text.strip())[0]


def answer(topic: Topic, template: Template, style: str, faithful: bool, seed: int) -> str:
    """An answer from the first two documents' first sentences, in ``style``; an unfaithful one adds one
    fabricated claim."""
    claims = [(n, first_sentence(doc.text)) for n, doc in enumerate(topic.docs[:2], 1)]
    if not faithful:
        claims.insert(1, (0, FABRICATED[seed % len(FABRICATED)]))
    if style == "cited":
        cited = [
            text[:-1] + f" {template.marker(n, topic.docs[n - 1])}." if n else text for n, text in claims
        ]
        return " ".join(cited)
    if style == "markdown":
        items = "\n".join(f"- **{text.split()[0]}** {' '.join(text.split()[1:])}" for _, text in claims)
        return "## Answer\n\n" + items
    if style == "preamble":
        body = " ".join(text for _, text in claims)
        return "Based on the provided context, here is what I found. " + body
    return " ".join(text for _, text in claims)


def _openai_messages(messages: Messages) -> list[dict[str, object]]:
    sent: list[dict[str, object]] = []
    for role, text in messages:
        if role == "tool_call":
            sent.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": "call_1", "type": "function", "function": {"name": text, "arguments": "{}"}}
                    ],
                }
            )
        elif role == "tool":
            sent.append({"role": "tool", "tool_call_id": "call_1", "content": text})
        else:
            sent.append({"role": role, "content": text})
    return sent


def openinference_span(messages: Messages, reply: str) -> TraceSpan:
    attributes: dict[str, str] = {
        "openinference.span.kind": "LLM",
        "llm.model_name": "gpt-4o-mini-2024-07-18",
        "llm.provider": "openai",
        "llm.system": "openai",
        "input.mime_type": "application/json",
        "input.value": json.dumps({"messages": _openai_messages(messages), "model": "gpt-4o-mini"}),
        "output.mime_type": "application/json",
        "output.value": json.dumps({"choices": [{"message": {"role": "assistant", "content": reply}}]}),
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": reply,
    }
    for n, (role, text) in enumerate(messages):
        prefix = f"llm.input_messages.{n}.message."
        if role == "tool_call":
            attributes[prefix + "role"] = "assistant"
            attributes[prefix + "tool_calls.0.tool_call.id"] = "call_1"
            attributes[prefix + "tool_calls.0.tool_call.function.name"] = text
            attributes[prefix + "tool_calls.0.tool_call.function.arguments"] = "{}"
        else:
            attributes[prefix + "role"] = role
            attributes[prefix + "content"] = text
            if role == "tool":
                attributes[prefix + "tool_call_id"] = "call_1"
    return TraceSpan(
        "00000000000000a1",
        "",
        "ChatCompletion",
        "svc",
        "openinference.instrumentation.openai",
        START,
        900_000_000,
        "Ok",
        attributes,
    )


def genai_span(messages: Messages, reply: str) -> TraceSpan:
    inputs: list[dict[str, object]] = []
    for role, text in messages:
        if role == "tool_call":
            inputs.append(
                {
                    "role": "assistant",
                    "parts": [{"type": "tool_call", "id": "call_1", "name": text, "arguments": {}}],
                }
            )
        elif role == "tool":
            inputs.append(
                {"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_1", "response": text}]}
            )
        else:
            inputs.append({"role": role, "parts": [{"type": "text", "content": text}]})
    outputs = [{"role": "assistant", "parts": [{"type": "text", "content": reply}], "finish_reason": "stop"}]
    attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
        "gen_ai.input.messages": json.dumps(inputs, ensure_ascii=False),
        "gen_ai.output.messages": json.dumps(outputs, ensure_ascii=False),
    }
    return TraceSpan(
        "00000000000000b1",
        "",
        "chat gpt-4o-mini",
        "svc",
        "opentelemetry.instrumentation.openai_v2",
        START,
        900_000_000,
        "Ok",
        attributes,
    )


class Outcome(StrEnum):
    CORRECT = "correct"
    WRONG_CONTEXT = "wrong context"
    WRONG_VERDICT = "wrong verdict"
    WRONG_VERDICT_MARKERS = "wrong verdict (citation markers)"
    UNSCORED = "unscored"


@dataclass(frozen=True)
class Result:
    template: str
    family: str
    style: str
    faithful: bool
    outcome: Outcome
    reason: str = ""
    """Why a request was not scored, and its fix, as ragpulse shows it."""
    detail: str = ""


_MARKERS = re.compile(r"\s*(?:\[(?:doc|ID:)?\d+\]|【[^】]*】|\([\w.-]+\.\w+\)|\[[\w.-]+\.\w+\])")


def run(templates: list[Template], live: bool = False) -> list[Result]:
    """Every template under both families, in every style, faithful and not. ``live``: through the real
    instrumentations (:mod:`live`) rather than spans built as they write them."""
    judge = LexicalJudge()
    results: list[Result] = []
    for family in FAMILIES:
        with _sender(family, live) as send:
            for t_index, template in enumerate(templates):
                for style in STYLES:
                    for faithful in (True, False):
                        seed = t_index + len(results)
                        topic = TOPICS[(t_index + STYLES.index(style)) % len(TOPICS)]
                        reply = answer(topic, template, style, faithful, seed)
                        span = send(template.build(list(topic.docs), topic.question), reply)
                        request = assemble(f"{t_index:04x}{len(results):028x}", [span])
                        results.append(
                            _classify(template, family, style, faithful, topic, reply, request, judge)
                        )
    return results


@contextmanager
def _sender(family: str, live: bool) -> Iterator[Callable[[Messages, str], TraceSpan]]:
    if live:
        from live import instrumented

        with instrumented(family) as send:
            yield send
    else:
        yield openinference_span if family == "openinference" else genai_span


def _classify(
    template: Template, family: str, style: str, faithful: bool, topic: Topic, reply: str,
    request: AssembledRequest | None, judge: LexicalJudge,
) -> Result:  # fmt: skip
    def result(outcome: Outcome, reason: str = "", detail: str = "") -> Result:
        return Result(template.name, family, style, faithful, outcome, reason, detail)

    if request is None:
        return result(Outcome.UNSCORED, "no request assembled")
    if request.unscorable:
        explanation = explain(request.unscorable)
        shown = f"{explanation.label}: {explanation.hint}" if explanation else request.unscorable
        return result(Outcome.UNSCORED, shown)
    chunks = [str(chunk["text"]) for chunk in json.loads(request.context)]
    expected = [" ".join(doc.text.split()) for doc in topic.docs]
    if [" ".join(c.split()) for c in chunks] != expected:
        return result(Outcome.WRONG_CONTEXT, detail=f"got {chunks!r}")
    if " ".join(request.question.split()) != topic.question:
        return result(Outcome.WRONG_CONTEXT, detail=f"question {request.question!r}")
    if judge.judge_support(request.question, chunks, request.answer).hallucinated != (not faithful):
        unmarked = _MARKERS.sub("", request.answer)
        if judge.judge_support(request.question, chunks, unmarked).hallucinated == (not faithful):
            return result(Outcome.WRONG_VERDICT_MARKERS)
        return result(Outcome.WRONG_VERDICT, detail=request.answer)
    return result(Outcome.CORRECT)
