"""``ragpulse.guard`` and ``@rag(guard=...)``: the free judge in the service's process, a verdict within a
bound, recorded on the request's span, and never an exception into the service."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
import ragpulse
from hypothesis import given
from hypothesis import strategies as st
from ragpulse import semconv
from ragpulse.settings import apply_settings
from span_capture import Spans

CONTEXT = [
    {
        "id": "returns",
        "text": "Returns are accepted within 30 days of delivery. Refunds go to the original card.",
    },
    {"id": "shipping", "text": "Standard shipping takes 3 to 5 business days."},
]
GROUNDED = "Returns are accepted within 30 days of delivery."
INVENTED = "Returns are accepted within 30 days of delivery. Shipping to Mars costs 400 dollars."
PYPROJECT = Path(__file__).resolve().parents[2] / "instrumentation" / "pyproject.toml"


@pytest.mark.parametrize("judge", ["rules", "learnt"])
def test_a_verdict_names_the_unsupported_claim_with_its_evidence_and_the_judge(judge: str) -> None:
    grounded = ragpulse.guard(GROUNDED, context=CONTEXT, question="Can I return it?", judge=judge)
    assert grounded.verdict == "supported" and grounded.supported is True
    assert grounded.claims[0].evidence == "Returns are accepted within 30 days of delivery."
    assert grounded.claims[0].chunk_id == "returns"

    invented = ragpulse.guard(INVENTED, context=CONTEXT, question="Can I return it?", judge=judge)
    assert invented.verdict == "unsupported" and invented.supported is False
    assert [claim.claim for claim in invented.unsupported] == ["Shipping to Mars costs 400 dollars."]
    assert invented.score is not None and invented.score < grounded.score  # type: ignore[operator]
    assert invented.judge == judge and invented.version
    assert len(invented.input_sha256) == 64 and invented.elapsed_ms > 0


def test_the_decorator_records_the_verdict_on_the_root_span_and_hands_it_to_the_service(spans: Spans) -> None:
    seen: list[ragpulse.GuardVerdict] = []

    def hold_back(verdict: ragpulse.GuardVerdict, answer: str) -> str:
        seen.append(verdict)
        return answer if verdict.supported else "Let me check that with a colleague."

    @ragpulse.generate
    def generate(question: str, chunks: list[dict[str, str]]) -> str:
        return INVENTED

    @ragpulse.rag(pipeline="shop", guard=ragpulse.Guard(on_verdict=hold_back))
    def answer(question: str) -> str:
        return generate(question, CONTEXT)

    assert answer("Can I return it?") == "Let me check that with a colleague."
    attributes = spans.one("rag shop").attributes or {}
    assert attributes[semconv.GUARD_VERDICT] == "unsupported"
    assert attributes[semconv.GUARD_SCORE] == seen[0].score
    assert attributes[semconv.GUARD_JUDGE] == "learnt"  # the default, as the scorers' free judge
    assert attributes[semconv.GUARD_VERSION] == seen[0].version
    assert attributes[semconv.GUARD_INPUT_SHA256] == seen[0].input_sha256
    assert json.loads(str(attributes[semconv.GUARD_UNSUPPORTED])) == [
        {"claim": "Shipping to Mars costs 400 dollars.", "chunk_id": "shipping",
         "evidence": "Standard shipping takes 3 to 5 business days.", "score": seen[0].unsupported[0].score}
    ]  # fmt: skip
    # The span still holds the answer the generator wrote: the verdict is about that one.
    assert attributes[semconv.OUTPUT_VALUE] == INVENTED


def test_guard_inside_a_request_records_on_its_span_and_a_streamed_answer_only_there(spans: Spans) -> None:
    @ragpulse.rag(pipeline="inside")
    def inside(question: str) -> str:
        ragpulse.guard(GROUNDED, context=CONTEXT, question=question)
        return GROUNDED

    @ragpulse.generate
    def generate(question: str, chunks: list[dict[str, str]]) -> str:
        return GROUNDED

    @ragpulse.rag(pipeline="streamed", guard=True)
    def streamed(question: str) -> Any:
        answer = generate(question, CONTEXT)
        yield from (answer[:20], answer[20:])

    inside("Can I return it?")
    assert "".join(streamed("Can I return it?")) == GROUNDED
    for name in ("rag inside", "rag streamed"):
        attributes = spans.one(name).attributes or {}
        assert attributes[semconv.GUARD_VERDICT] == "supported", name
        assert semconv.GUARD_UNSUPPORTED not in attributes


def test_without_content_capture_the_span_gets_the_verdict_but_no_text(spans: Spans) -> None:
    apply_settings(capture_content=False)

    @ragpulse.rag(pipeline="private", guard=True)
    def answer(question: str) -> dict[str, Any]:
        return {"answer": INVENTED, "context": CONTEXT}

    answer("Can I return it?")
    attributes = spans.one("rag private").attributes or {}
    assert attributes[semconv.GUARD_VERDICT] == "unsupported"
    assert semconv.GUARD_UNSUPPORTED not in attributes and semconv.OUTPUT_VALUE not in attributes


@pytest.mark.parametrize(
    ("answer", "context", "question", "reason"),
    [
        (None, CONTEXT, "q", "no answer"),
        (float("nan"), CONTEXT, "q", "the answer is float, not str"),
        (b"Returns are accepted.", CONTEXT, "q", "the answer is bytes, not str"),
        (GROUNDED, [b"bytes chunk"], "q", "context item 0 is bytes, not a chunk"),
        (GROUNDED, [float("nan")], "q", "context item 0 is float, not a chunk"),
        (GROUNDED, {"text": "a dict is not a list"}, "q", "the context is dict, not a list of chunks"),
        (GROUNDED, iter(["a generator"]), "q", "not a list of chunks"),
        (GROUNDED, [object()], "q", "not judgeable"),
        (GROUNDED, CONTEXT, 42, "the question is int, not str"),
        (GROUNDED, [], "q", "empty context"),
        ("   ", CONTEXT, "q", "no answer"),
        ("Die Rückgabe ist innerhalb von 30 Tagen möglich, aber nicht für die Ware im Angebot.", CONTEXT, "q",
         "the answer is in German and the context in English"),
    ],
)  # fmt: skip
def test_what_the_judge_cannot_read_is_unknown_with_the_reason(
    answer: Any, context: Any, question: Any, reason: str
) -> None:
    verdict = ragpulse.guard(answer, context=context, question=question)
    assert verdict.verdict == "unknown" and verdict.supported is None
    assert reason in verdict.reason
    assert verdict.claims == () and verdict.score is None


def test_bad_options_are_unknown_too() -> None:
    assert "no free judge named 'oracle'" in ragpulse.guard(GROUNDED, CONTEXT, judge="oracle").reason
    for timeout in (0, -1, float("nan"), float("inf")):
        assert "timeout_ms" in ragpulse.guard(GROUNDED, CONTEXT, timeout_ms=timeout).reason


def test_a_judge_error_is_unknown_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    import ragpulse_judge.guarded

    def broken(*args: object) -> None:
        raise RuntimeError("model file unreadable")

    monkeypatch.setattr(ragpulse_judge.guarded, "judge_within", broken)
    before = ragpulse.internal_error_count()
    verdict = ragpulse.guard(GROUNDED, context=CONTEXT)
    assert (verdict.verdict, verdict.reason) == ("unknown", "judge error: RuntimeError")
    assert ragpulse.internal_error_count() == before + 1


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("Returns are accepted. " * 50_000, CONTEXT),  # 1.1 MB answer
        (GROUNDED, ["Returns are accepted within 30 days of delivery."] * 10_000),
        ("Paris is big. " * 2_000, ["Paris is the capital and a big city. " * 500] * 20),
    ],
    ids=["1MB answer", "10k chunks", "many claims, long context"],
)
def test_huge_input_ends_in_time_and_leaves_no_thread_behind(answer: str, context: list[str]) -> None:
    ragpulse.guard(GROUNDED, context=CONTEXT)  # the judge is loaded once per process, outside the bound
    threads = set(threading.enumerate())
    started = time.perf_counter()
    verdict = ragpulse.guard(answer, context=context, timeout_ms=20)
    elapsed_ms = (time.perf_counter() - started) * 1000
    # The bound is cooperative: the judge stops at its next check. A loaded machine adds its own delay; a
    # judgement left to run would take seconds here.
    assert elapsed_ms < 1_000, verdict
    assert verdict.verdict in ("unknown", "supported", "unsupported")
    if verdict.verdict == "unknown":
        assert verdict.reason.startswith("time-out"), verdict.reason
    assert set(threading.enumerate()) - threads == set()


HOSTILE = [
    "Returns\u202e are accepted\u202c within 30 days.",  # right-to-left override
    "Re\u200bturns are acc\u200depted within 30 days.",  # zero-width characters
    "Returns are accepted \ud800 within 30 days.",  # a lone surrogate
    "ℜ𝔢𝔱𝔲𝔯𝔫𝔰 are accepted within 30 days.",  # look-alike letters
    "\x00\x01\x7f" * 100 + "e\u0301" * 500,  # control characters, stacked combining marks
    "(" * 5_000 + "a" * 5_000 + ")" * 5_000,  # what a backtracking pattern would choke on
]


@pytest.mark.parametrize("answer", HOSTILE)
def test_hostile_unicode_gets_a_verdict_or_a_reason(answer: str) -> None:
    verdict = ragpulse.guard(answer, context=[answer, *[c["text"] for c in CONTEXT]], question=answer)
    assert verdict.verdict in ("supported", "unsupported") or verdict.reason, verdict
    if verdict.score is not None:
        assert math.isfinite(verdict.score)


@given(
    answer=st.one_of(st.text(max_size=300), st.none(), st.binary(max_size=20), st.floats(), st.integers()),
    context=st.one_of(
        st.lists(st.one_of(st.text(max_size=200), st.binary(max_size=10), st.none()), max_size=5),
        st.text(max_size=50),
        st.none(),
    ),
    question=st.one_of(st.text(max_size=50), st.none(), st.integers()),
)
def test_the_guard_never_raises(answer: Any, context: Any, question: Any) -> None:
    verdict = ragpulse.guard(answer, context=context, question=question, timeout_ms=1_000)
    assert verdict.verdict in ("supported", "unsupported", "unknown")
    assert (verdict.verdict == "unknown") is bool(verdict.reason)


def test_without_the_extra_the_guard_says_so() -> None:
    """What a service that installed ``ragpulse`` without ``[guard]`` gets: the judge cannot be imported."""
    script = (
        "import sys\n"
        "sys.modules['ragpulse_judge'] = None  # as if the ragpulse-judge distribution were not installed\n"
        "import ragpulse\n"
        "v = ragpulse.guard('Returns are accepted.', context=['Returns are accepted within 30 days.'])\n"
        "print(v.verdict + ': ' + v.reason)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "unknown: extra not installed: pip install 'ragpulse[guard]'"


def test_the_guard_extra_installs_the_judge_and_the_core_stays_opentelemetry_only() -> None:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    assert project["optional-dependencies"]["guard"] == ["ragpulse-judge>=0.1"]
    assert all(requirement.startswith("opentelemetry-") for requirement in project["dependencies"])
