"""The blind trial (:mod:`held_out_trial`) sent as a service sends it: the ``openai`` client calls the
loopback server of :mod:`live` under a real instrumentation (OpenInference, openai-v2 with the current GenAI
conventions, OpenLLMetry), the finished span becomes a stored span, and ragpulse assembles the request.
OpenLIT does not install beside ragpulse's pins: its spans are built as the captured OpenLIT case
(tests/foreign/cases/openlit-*) shows it writes them, for trials whose messages are plain text."""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from http.server import ThreadingHTTPServer
from typing import Any

from held_out_trial import ChatMessage, Trial
from live import _SETTINGS, _handler, _instrumentor, _Reply, _stored
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse_assembly.model import TraceSpan
from ragpulse_assembly.rules import AssembledRequest, assemble
from traffic import START

FAMILIES = ("openinference", "openai-v2-latest", "openllmetry", "openlit-built")
ANSWER = "Monthly plans cannot be refunded, but you can cancel at any time."
Sender = Callable[[list[ChatMessage]], TraceSpan | None]


class Verdict(StrEnum):
    EXACT = "exact"
    REFUSED = "refused"
    WRONG = "WRONG"
    NOT_SENT = "not sent"
    """The family cannot carry the trial's messages (OpenLIT built spans: text messages only)."""


@dataclass(frozen=True)
class Outcome:
    trial: str
    family: str
    verdict: Verdict
    detail: str = ""


@contextmanager
def openai_methods_restored() -> Iterator[None]:
    """OpenLLMetry's ``uninstrument()`` leaves its wrappers on the client's methods: put them back."""
    import openai.resources.chat.completions as chat

    classes = [chat.Completions, chat.AsyncCompletions]
    saved = [(cls, name, value) for cls in classes for name, value in vars(cls).items() if callable(value)]
    try:
        yield
    finally:
        for cls, name, value in saved:
            setattr(cls, name, value)


@contextmanager
def sender(family: str) -> Iterator[Sender]:
    if family == "openlit-built":
        yield _openlit_span
        return
    from openai import OpenAI

    reply = _Reply()
    reply.text = ANSWER
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(reply))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    saved = {key: os.environ.get(key) for key in (*_SETTINGS, "TRACELOOP_TRACE_CONTENT")}
    os.environ.update(_SETTINGS, TRACELOOP_TRACE_CONTENT="true")
    client = OpenAI(base_url=f"http://127.0.0.1:{server.server_address[1]}/v1", api_key="test", max_retries=0)

    def send(messages: list[ChatMessage]) -> TraceSpan:
        exporter.clear()
        client.chat.completions.create(model="gpt-4o-mini", messages=messages)  # type: ignore[arg-type]
        (span,) = exporter.get_finished_spans()
        return _stored(span)

    with openai_methods_restored():
        instrumentor = _openllmetry() if family == "openllmetry" else _instrumentor(family)
        instrumentor.instrument(tracer_provider=provider)
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


def _openllmetry() -> Any:
    from opentelemetry.instrumentation.openai import OpenAIInstrumentor

    return OpenAIInstrumentor()


def _openlit_span(messages: list[ChatMessage]) -> TraceSpan | None:
    if any(not isinstance(m.get("content"), str) or m["role"] not in ("system", "user", "assistant")
           for m in messages):  # fmt: skip
        return None
    inputs = [{"role": m["role"], "parts": [{"type": "text", "content": m["content"]}]} for m in messages]
    system = [{"type": "text", "content": m["content"]} for m in messages if m["role"] == "system"]
    outputs = [{"role": "assistant", "parts": [{"type": "text", "content": ANSWER}], "finish_reason": "stop"}]
    attributes = {
        "telemetry.sdk.name": "openlit",
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.response.model": "gpt-4o-mini",
        "gen_ai.input.messages": json.dumps(inputs),
        "gen_ai.output.messages": json.dumps(outputs),
        "gen_ai.usage.input_tokens": "121",
        "gen_ai.usage.output_tokens": "13",
    }
    if system:
        attributes["gen_ai.system_instructions"] = json.dumps(system)
    scope = "openlit.instrumentation.openai"
    return TraceSpan(
        "00000000000000c1", "", "chat gpt-4o-mini", "svc", scope, START, 900_000_000, "Ok", attributes
    )


def judge(trial: Trial, family: str, request: AssembledRequest | None) -> Outcome:
    """Exact, refused with a reason, or WRONG, against what the service really sent."""

    def outcome(verdict: Verdict, detail: str = "") -> Outcome:
        return Outcome(trial.name, family, verdict, detail)

    if request is None:
        return outcome(Verdict.WRONG, "no request assembled")
    if request.unscorable:
        if trial.refusal and request.unscorable != trial.refusal:
            return outcome(Verdict.WRONG, f"refused as {request.unscorable}, not {trial.refusal}")
        if trial.refusal or trial.refusable:
            return outcome(Verdict.REFUSED, request.unscorable)
        return outcome(Verdict.WRONG, f"refused ({request.unscorable}) though the documents are plain")
    if trial.refusal:
        return outcome(Verdict.WRONG, f"scored with context {request.context[:200]!r}")
    chunks = tuple(_flat(str(chunk["text"])) for chunk in json.loads(request.context))
    expected = [tuple(_flat(doc) for doc in docs) for docs in (trial.docs, *trial.alternatives)]
    expected += [tuple(_flat(_untitled(doc)) for doc in docs) for docs in (trial.docs, *trial.alternatives)]
    if chunks not in expected:
        return outcome(Verdict.WRONG, f"documents {chunks!r}")
    if _flat(request.question) != _flat(trial.question):
        return outcome(Verdict.WRONG, f"question {request.question!r}")
    if _flat(request.answer) != ANSWER:
        return outcome(Verdict.WRONG, f"answer {request.answer!r}")
    return outcome(Verdict.EXACT)


def _untitled(doc: str) -> str:
    """A document without the markdown heading that opens it: ragpulse reads such a line as the title a
    framework printed before the text (metadata), a stated loss rather than a wrong document."""
    first, _, rest = doc.partition("\n")
    return rest if re.match(r"#{1,6}\s", first) and rest.strip() else doc


def _flat(text: str) -> str:
    return " ".join(text.split())


def run(trials: tuple[Trial, ...], families: tuple[str, ...] = FAMILIES) -> list[Outcome]:
    outcomes = []
    for family in families:
        with sender(family) as send:
            for n, trial in enumerate(trials):
                span = send(trial.messages)
                if span is None:
                    outcomes.append(Outcome(trial.name, family, Verdict.NOT_SENT))
                    continue
                outcomes.append(judge(trial, family, assemble(f"{n:032x}", [span])))
    return outcomes


def _counts() -> None:
    """Print each wave's outcomes per template family (``python tests/assembly_templates/trial_live.py``;
    ``-v`` adds every WRONG with what came out)."""
    import sys
    from collections import Counter

    from held_out_trial import SECOND_WAVE, THIRD_WAVE, TRIALS

    for wave, trials in (("wave 1", TRIALS), ("wave 2", SECOND_WAVE), ("wave 3", THIRD_WAVE)):
        outcomes = run(trials)
        family = {trial.name: trial.family for trial in trials}
        counts = Counter((family[o.trial], o.verdict.value) for o in outcomes)
        print(f"{wave}: {len(trials)} templates x {len(FAMILIES)} instrumentations")
        for name in dict.fromkeys(family.values()):
            print(
                f"  {name:17}", {v.value: counts[(name, v.value)] for v in Verdict if counts[(name, v.value)]}
            )
        print("  total", dict(Counter(o.verdict.value for o in outcomes)))
        if "-v" in sys.argv:
            for o in outcomes:
                if o.verdict is Verdict.WRONG:
                    print("  WRONG", o.family, o.trial, o.detail[:200])


if __name__ == "__main__":
    _counts()
