"""A blind wave of services' traffic (tests/assembly_templates/blind/<wave>/<service>.json, written by a helper
who had not read the reader): each service's requests sent in order, as the service sent them, through a real
``openai`` client under OpenInference and openai-v2 (current GenAI conventions), assembled as the scheduler
assembles them (a request whose template is not learnt yet is held, read again once it is, and past the wait
read by the rules alone), and compared with the documents and question really sent.

    python tests/assembly_templates/blind_wave.py [DIRECTORY] [--rules-only | --learnt-only] [-v]
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

from live import _SETTINGS, _handler, _instrumentor, _Reply, _stored
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse_assembly.learnt.learner import TemplateLearner
from ragpulse_assembly.model import TraceSpan
from ragpulse_assembly.readings import RULES_ONLY, Readers
from ragpulse_assembly.rules import AssembledRequest, assemble
from ragpulse_assembly.settings import TemplateSettings

FAMILIES = ("openinference", "openai-v2-latest")
HERE = Path(__file__).resolve().parent
Sender = Callable[[list[dict[str, Any]], str], TraceSpan]


class Verdict(StrEnum):
    RIGHT = "right"
    WRONG = "wrong context"
    UNSCORED = "unscored"


@dataclass(frozen=True)
class BlindRequest:
    messages: list[dict[str, Any]]
    documents: tuple[str, ...]
    question: str
    answer: str


@dataclass(frozen=True)
class Service:
    name: str
    template: str
    requests: list[BlindRequest]


@dataclass(frozen=True)
class Outcome:
    service: str
    family: str
    verdict: Verdict
    detail: str = ""


def load(directory: Path) -> list[Service]:
    services = []
    for path in sorted(directory.glob("*.json")):
        if path.name == "index.json":
            continue
        data = json.loads(path.read_text())
        requests = [
            BlindRequest(r["messages"], tuple(r["documents"]), r["question"], r["answer"]) for r in data["requests"]
        ]
        services.append(Service(data["service"], data["template"], requests))
    return services


@contextmanager
def sender(family: str) -> Iterator[Sender]:
    from openai import OpenAI

    reply = _Reply()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(reply))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    saved = {key: os.environ.get(key) for key in _SETTINGS}
    os.environ.update(_SETTINGS)
    instrumentor = _instrumentor(family)
    instrumentor.instrument(tracer_provider=provider)
    client = OpenAI(base_url=f"http://127.0.0.1:{server.server_address[1]}/v1", api_key="test", max_retries=0)

    def send(messages: list[dict[str, Any]], answer: str) -> TraceSpan:
        reply.text = answer
        exporter.clear()
        client.chat.completions.create(model="gpt-4o-mini", messages=messages)  # type: ignore[arg-type]
        (span,) = exporter.get_finished_spans()
        return _stored(span)

    try:
        yield send
    finally:
        instrumentor.uninstrument()
        server.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def readers_for(mode: str) -> Readers:
    if mode == "rules-only":
        return RULES_ONLY
    settings = TemplateSettings(rules=mode != "learnt-only")
    return Readers(TemplateLearner(settings), settings.rules)


def run(services: list[Service], mode: str = "learnt+rules") -> list[Outcome]:
    outcomes: list[Outcome] = []
    for family in FAMILIES:
        with sender(family) as send:
            for service in services:
                spans = [send(request.messages, request.answer) for request in service.requests]
                spans = [_renamed(span, service.name) for span in spans]
                assembled = stream(spans, readers_for(mode))
                outcomes += [
                    judge(service.name, family, request, found)
                    for request, found in zip(service.requests, assembled, strict=True)
                ]
    return outcomes


def stream(spans: list[TraceSpan], readers: Readers) -> list[AssembledRequest | None]:
    """Each span's request in arrival order, held while its template is not learnt and read again once a
    template is; those still held at the end are past the wait and read as they are."""
    found: list[AssembledRequest | None] = [None] * len(spans)
    held: list[int] = []
    learner = readers.templates
    for index, span in enumerate(spans):
        before = learner.learnt_count if learner is not None else 0
        request = assemble(f"{index:032x}", [span], readers)
        if request is not None and request.pending:
            held.append(index)
        else:
            found[index] = request
        if learner is not None and learner.learnt_count > before:
            for waiting in list(held):
                again = assemble(f"{waiting:032x}", [spans[waiting]], readers)
                if again is not None and not again.pending:
                    found[waiting] = again
                    held.remove(waiting)
    for waiting in held:
        found[waiting] = assemble(f"{waiting:032x}", [spans[waiting]], readers)
    return found


def _renamed(span: TraceSpan, service: str) -> TraceSpan:
    from dataclasses import replace

    return replace(span, service_name=service)


def judge(service: str, family: str, request: BlindRequest, found: AssembledRequest | None) -> Outcome:
    if found is None:
        return Outcome(service, family, Verdict.UNSCORED, "no request")
    if found.unscorable:
        return Outcome(service, family, Verdict.UNSCORED, found.unscorable + " " + found.unscorable_detail[:3000])
    chunks = [_flat(str(chunk["text"])) for chunk in json.loads(found.context)]
    if chunks != [_flat(doc) for doc in request.documents]:
        return Outcome(service, family, Verdict.WRONG, f"documents {chunks!r}"[:600])
    if _flat(found.question) != _flat(request.question):
        return Outcome(service, family, Verdict.WRONG, f"question {found.question!r}"[:300])
    return Outcome(service, family, Verdict.RIGHT)


def _flat(text: str) -> str:
    return " ".join(text.split())


def main() -> None:
    arguments = [a for a in sys.argv[1:] if not a.startswith("-")]
    directory = Path(arguments[0]) if arguments else HERE / "blind" / "wave_a"
    mode = "rules-only" if "--rules-only" in sys.argv else "learnt-only" if "--learnt-only" in sys.argv else "learnt+rules"
    outcomes = run(load(directory), mode)
    print(f"{directory.name}, {mode}")
    per_service = Counter((o.service, o.family, o.verdict) for o in outcomes)
    for service in dict.fromkeys(o.service for o in outcomes):
        cells = []
        for family in FAMILIES:
            counts = {v: per_service[(service, family, v)] for v in Verdict}
            cells.append(f"{family}: " + "/".join(str(counts[v]) for v in Verdict))
        print(f"  {service:26} " + "   ".join(cells))
    totals = Counter(o.verdict for o in outcomes)
    print("  total (right/wrong context/unscored):", {v.value: totals[v] for v in Verdict}, f"of {len(outcomes)}")
    if "-v" in sys.argv:
        for o in outcomes:
            if o.verdict is not Verdict.RIGHT:
                print("  ", o.verdict.value, o.family, o.service, o.detail)


if __name__ == "__main__":
    main()
