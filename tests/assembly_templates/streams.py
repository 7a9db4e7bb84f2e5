"""Traffic as a service sends it, one request after another, assembled as the scheduler assembles it with
templates learnt from that traffic: a request whose template is not learnt yet (or whose documents are not
told apart yet) is held, read again when a template is learnt, and read as it is once the stream ends (past
the wait); then compared with the documents and question really sent.

Streams come from the template corpus (each template rendered with documents drawn from a pool, one to four
per request, in varying order) and from the blind waves (tests/assembly_templates/blind/, written by a helper
who had not read the reader). Spans are built as OpenInference and openai-v2 (current GenAI conventions) write
them, or sent through the real instrumentations (``live``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from ragpulse_assembly.learnt.learner import TemplateLearner
from ragpulse_assembly.model import TraceSpan
from ragpulse_assembly.readings import RULES_ONLY, Readers
from ragpulse_assembly.rules import AssembledRequest, assemble
from ragpulse_assembly.settings import TemplateSettings
from templates import Doc, Messages, Template
from traffic import TOPICS, genai_span, openinference_span

FAMILIES = ("openinference", "openai-v2-latest")
MODES = ("rules-only", "learnt+rules", "learnt-only")
"""The structure rules alone (no learning), both readings (the default), the learnt templates alone."""
BLIND = Path(__file__).resolve().parent / "blind"
POOL = tuple(doc for topic in TOPICS for doc in topic.docs)
QUESTIONS = (
    *(topic.question for topic in TOPICS),
    "Can I get my money back after cancelling?",
    "Where do I change my password?",
    "Do guests need a paid plan?",
    "How many files can I keep offline on my phone?",
    "Is there a size limit in the desktop app?",
    "Who can empty the trash?",
)
Sender = Callable[[Messages, str], TraceSpan]


class Verdict(StrEnum):
    RIGHT = "right"
    WRONG = "wrong context"
    UNSCORED = "unscored"


@dataclass(frozen=True)
class StreamRequest:
    messages: Messages
    documents: tuple[str, ...]
    question: str
    answer: str


@dataclass(frozen=True)
class Stream:
    service: str
    requests: list[StreamRequest]


@dataclass(frozen=True)
class Outcome:
    service: str
    family: str
    verdict: Verdict
    detail: str = ""


def template_stream(template: Template, count: int = 24, seed: int = 7) -> Stream:
    """``count`` requests of ``template``, each with one to four documents of the pool in random order."""
    rng = random.Random(f"{seed}:{template.name}")
    requests = []
    for _ in range(count):
        docs: list[Doc] = rng.sample(POOL, rng.randint(1, 4))
        question = rng.choice(QUESTIONS)
        answer = " ".join(doc.text.split(". ")[0].rstrip(".") + "." for doc in docs[:2])
        requests.append(
            StreamRequest(template.build(docs, question), tuple(d.text for d in docs), question, answer)
        )
    return Stream(template.name, requests)


class BlindWaveError(ValueError):
    """A blind wave's directory or one of its files is not in the wave format."""


def blind_streams(directory: Path) -> list[Stream]:
    """A blind wave's services (``directory``/*.json but index.json: ``service`` and ``requests``, each
    with the OpenAI chat ``messages`` sent, the ``documents`` and ``question`` really in them, and the
    ``answer``), each request as the service sent it."""
    paths = sorted(path for path in directory.glob("*.json") if path.name != "index.json")
    if not paths:
        raise BlindWaveError(f"{directory}: no service files (*.json besides index.json)")
    streams = []
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            requests = [
                StreamRequest(
                    _messages(r["messages"]),
                    tuple(str(d) for d in r["documents"]),
                    str(r["question"]),
                    str(r.get("answer") or ""),
                )
                for r in data["requests"]
            ]
            streams.append(Stream(str(data["service"]), requests))
        except (ValueError, KeyError, TypeError, IndexError) as error:
            raise BlindWaveError(
                f"{path}: not a blind wave service file ({type(error).__name__}: {error})"
            ) from error
    return streams


def _messages(sent: list[dict[str, Any]]) -> Messages:
    """OpenAI chat messages as (role, text) pairs; an assistant turn that only calls tools is "tool_call"."""
    found: Messages = []
    for message in sent:
        calls = message.get("tool_calls") or []
        if message["role"] == "assistant" and calls:
            found.append(("tool_call", str(calls[0]["function"]["name"])))
        else:
            found.append((str(message["role"]), str(message.get("content") or "")))
    return found


def readers(mode: str) -> Readers:
    if mode == "rules-only":
        return RULES_ONLY
    settings = TemplateSettings(rules=mode != "learnt-only")
    return Readers(TemplateLearner(settings), settings.rules)


@contextmanager
def sender(family: str, live: bool) -> Iterator[Sender]:
    if live:
        from live import instrumented

        with instrumented(family) as send:
            yield send
    else:
        yield openinference_span if family == "openinference" else genai_span


def run(
    streams: list[Stream], mode: str, live: bool = False, families: tuple[str, ...] = FAMILIES
) -> list[Outcome]:
    """Every stream under every family, read by ``mode``'s readers (fresh for each stream and family)."""
    outcomes: list[Outcome] = []
    for family in families:
        with sender(family, live) as send:
            for stream in streams:
                spans = [
                    replace(send(request.messages, request.answer), service_name=stream.service)
                    for request in stream.requests
                ]
                found = read(spans, readers(mode))
                outcomes += [
                    judge(stream.service, family, request, request_found)
                    for request, request_found in zip(stream.requests, found, strict=True)
                ]
    return outcomes


def read(spans: list[TraceSpan], chosen: Readers) -> list[AssembledRequest | None]:
    """Each span's request in arrival order, held while pending and read again when a template is learnt;
    those still held at the end are past the wait and read as they are."""
    found: list[AssembledRequest | None] = [None] * len(spans)
    held: list[int] = []
    learner = chosen.templates
    for index, span in enumerate(spans):
        before = learner.learnt_count if learner is not None else 0
        request = assemble(f"{index:032x}", [span], chosen)
        if request is not None and request.pending:
            held.append(index)
        else:
            found[index] = request
        if learner is not None and learner.learnt_count > before:
            for waiting in list(held):
                again = assemble(f"{waiting:032x}", [spans[waiting]], chosen)
                if again is not None and not again.pending:
                    found[waiting] = again
                    held.remove(waiting)
    for waiting in held:
        found[waiting] = assemble(f"{waiting:032x}", [spans[waiting]], chosen)
    return found


def read_alone(stream: Stream) -> list[Outcome]:
    """Every request of ``stream`` read by the learnt templates alone (the layout rules off), as openai-v2
    records it and the scheduler reads it."""
    chosen = readers("learnt-only")
    spans = [genai_span(request.messages, request.answer) for request in stream.requests]
    return [
        judge(stream.service, "genai", request, found)
        for request, found in zip(stream.requests, read(spans, chosen), strict=True)
    ]


def read_both(stream: Stream) -> list[Outcome]:
    """Every request of ``stream`` read with both readings (the default), as openai-v2 records it."""
    spans = [genai_span(request.messages, request.answer) for request in stream.requests]
    return [
        judge(stream.service, "genai", request, found)
        for request, found in zip(stream.requests, read(spans, readers("learnt+rules")), strict=True)
    ]


def judge(service: str, family: str, request: StreamRequest, found: AssembledRequest | None) -> Outcome:
    """Right (every document and the question exactly), wrong context, or unscored with the reason."""
    if found is None:
        return Outcome(service, family, Verdict.UNSCORED, "no request")
    if found.unscorable:
        return Outcome(service, family, Verdict.UNSCORED, f"{found.unscorable} {found.unscorable_detail}")
    chunks = [flat(str(chunk["text"])) for chunk in json.loads(found.context)]
    if chunks != [flat(document) for document in request.documents]:
        return Outcome(service, family, Verdict.WRONG, f"documents {chunks!r}")
    if flat(found.question) != flat(request.question):
        return Outcome(service, family, Verdict.WRONG, f"question {found.question!r}")
    return Outcome(service, family, Verdict.RIGHT)


def flat(text: str) -> str:
    return " ".join(text.split())
