"""``ragpulse.guard``: the free judge in the service's process, before the answer leaves.

The judge is the ``ragpulse-judge`` part (``pip install 'ragpulse[guard]'``), imported on first use so the
decorators keep depending on OpenTelemetry only. The guard never raises into the service: a missing extra, an
input the judge cannot read, a judge error or a time-out give an ``unknown`` verdict that says why.

The time bound is cooperative (see ``ragpulse_judge.deadline``): inputs are cut to the judge's caps and the
judge checks the clock between sentences, so the call returns about when the bound passes and leaves no
thread or process behind. Loading the judge (once per process) happens before the clock starts.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from ragpulse import semconv
from ragpulse.chunks import text_id, to_chunk
from ragpulse.internal import report_internal_error
from ragpulse.request import current_request
from ragpulse.text import TextRecorder

DEFAULT_TIMEOUT_MS = 50.0
EXTRA_NOT_INSTALLED = "extra not installed: pip install 'ragpulse[guard]'"
Outcome = Literal["supported", "unsupported", "unknown"]


@dataclass(frozen=True)
class GuardClaim:
    """One claim of the answer: a sentence, or one clause of it for the learnt judge."""

    claim: str
    sentence: str
    verdict: str
    """``supported``, ``unsupported`` or ``no claim`` (a question, a hedge, a heading...)."""
    score: float
    evidence: str
    """The context sentence that supports the claim best; empty when no context sentence shares its words."""
    chunk_id: str | None
    """The id of the chunk holding ``evidence`` (the application's, or ``h:`` + a hash of its text)."""
    reason: str


@dataclass(frozen=True)
class GuardVerdict:
    """The guard's verdict on one answer. ``verdict`` is ``unknown`` when it could not judge; ``reason`` says
    why, and every other field is empty."""

    verdict: Outcome
    reason: str = ""
    score: float | None = None
    """The support score of the weakest claim, 0 to 1 (None when unknown)."""
    claims: tuple[GuardClaim, ...] = ()
    judge: str = ""
    version: str = ""
    """The judge's version as the ``lexical`` scorer's scores carry it."""
    input_sha256: str = ""
    elapsed_ms: float = 0.0
    truncated: dict[str, int] = field(default_factory=dict)
    """``answer_chars`` / ``context_chars`` when the input was cut to the judge's caps before judging."""

    @property
    def supported(self) -> bool | None:
        """True when every claim is supported, False when one is not, None when unknown."""
        return None if self.verdict == "unknown" else self.verdict == "supported"

    @property
    def unsupported(self) -> list[GuardClaim]:
        return [claim for claim in self.claims if claim.verdict == "unsupported"]


@dataclass(frozen=True)
class Guard:
    """The ``guard`` option of ``@ragpulse.rag``: which judge, the time bound, and what to do with a verdict.

    ``on_verdict(verdict, result)`` is called with the verdict and the decorated function's return value, and
    what it returns is returned instead (hold back, rewrite, or flag the answer); what it raises reaches the
    caller. A streamed answer has left by the time it is judged: its verdict is recorded on the span only.
    """

    judge: Literal["rules", "learnt"] = "learnt"
    timeout_ms: float = DEFAULT_TIMEOUT_MS
    on_verdict: Callable[[GuardVerdict, Any], Any] | None = None


def guard(
    answer: object,
    context: object = (),
    question: object = "",
    *,
    judge: str = "learnt",
    timeout_ms: float = DEFAULT_TIMEOUT_MS,
) -> GuardVerdict:
    """Judge ``answer`` against the ``context`` chunks it was written from, within ``timeout_ms``.

    ``context`` takes what the decorators take: strings, dicts, LangChain Documents, LlamaIndex nodes. Inside
    a ``@ragpulse.rag`` request the verdict is also recorded on the request's span. Never raises.
    """
    verdict = judge_answer(answer, context, question, judge, timeout_ms)
    state = current_request.get()
    if state is not None:
        record_verdict(state.span.set_attributes, verdict, state.texts)
    return verdict


def judge_answer(
    answer: object, context: object, question: object, judge: str, timeout_ms: float
) -> GuardVerdict:
    """:func:`guard` without recording it on a span (the decorator records it with the request's end)."""
    started = time.perf_counter()
    try:
        return _judge(answer, context, question, judge, timeout_ms, started)
    except Exception as exc:
        report_internal_error("guard")
        return _unknown(f"judge error: {type(exc).__name__}", started)


def _judge(
    answer: object, context: object, question: object, judge: str, timeout_ms: float, started: float
) -> GuardVerdict:
    problem = _input_problem(answer, question, judge, timeout_ms)
    if problem:
        return _unknown(problem, started)
    try:
        from ragpulse_judge.deadline import DeadlineExceeded
        from ragpulse_judge.free import FreeJudgeName, shared_free_judge
        from ragpulse_judge.guarded import judge_within
        from ragpulse_judge.judged import NotJudgeable
    except ImportError:
        return _unknown(EXTRA_NOT_INSTALLED, started)
    name = cast(FreeJudgeName, judge)
    shared_free_judge(name)  # imported and loaded once per process, before the bound's clock starts
    deadline = time.perf_counter() + timeout_ms / 1000
    chunks = _context(context, deadline)
    if isinstance(chunks, str):
        return _unknown(chunks, started)
    try:
        judgement = judge_within(
            question if isinstance(question, str) else "",
            chunks.texts,
            cast(str, answer),
            name,
            deadline - time.perf_counter(),
        )
    except NotJudgeable as exc:
        return _unknown(f"not judgeable: {exc}", started)
    except DeadlineExceeded:
        return _unknown(f"time-out: no verdict within {timeout_ms:g} ms", started)
    claims = tuple(
        GuardClaim(
            claim=claim.claim,
            sentence=claim.sentence,
            verdict=claim.verdict,
            score=claim.score,
            evidence=claim.evidence,
            chunk_id=None if claim.chunk is None else chunks.chunk_id(claim.chunk),
            reason=claim.reason,
        )
        for claim in judgement.claims
    )
    return GuardVerdict(
        verdict="unsupported" if judgement.hallucinated else "supported",
        score=judgement.score,
        claims=claims,
        judge=judgement.judge,
        version=judgement.version,
        input_sha256=judgement.digest,
        elapsed_ms=_elapsed_ms(started),
        truncated=judgement.truncated,
    )


def _input_problem(answer: object, question: object, judge: str, timeout_ms: float) -> str:
    if answer is None:
        return "not judgeable: no answer"
    if not isinstance(answer, str):
        return f"not judgeable: the answer is {type(answer).__name__}, not str"
    if question is not None and not isinstance(question, str):
        return f"not judgeable: the question is {type(question).__name__}, not str"
    if judge not in ("rules", "learnt"):
        return f"no free judge named {str(judge)[:40]!r} (rules or learnt)"
    if not isinstance(timeout_ms, int | float) or not math.isfinite(timeout_ms) or timeout_ms <= 0:
        return f"timeout_ms must be a positive number of milliseconds, got {str(timeout_ms)[:40]}"
    return ""


@dataclass(frozen=True)
class _Context:
    texts: list[str]
    ids: list[str | None]
    """The application's chunk ids; None for a plain string, whose id is its text's hash, made when needed."""

    def chunk_id(self, position: int) -> str:
        return self.ids[position] or text_id(self.texts[position])


def _context(context: object, deadline: float) -> _Context | str:
    """The context's texts, or why it cannot be read (what the judge cannot read, it does not guess)."""
    if context is None:
        return _Context([], [])
    items: Sequence[object]
    if isinstance(context, str):
        items = [context]
    elif isinstance(context, list | tuple):
        items = context
    else:
        return f"not judgeable: the context is {type(context).__name__}, not a list of chunks"
    read = _Context([], [])
    for position, item in enumerate(items):
        if time.perf_counter() > deadline:
            return f"time-out: reading {len(items)} chunks took the whole bound"
        if type(item) is str:
            read.texts.append(item)
            read.ids.append(None)
            continue
        if isinstance(item, bytes | bytearray | int | float):
            return f"not judgeable: context item {position} is {type(item).__name__}, not a chunk"
        try:
            chunk = to_chunk(item, position)
        except Exception as exc:
            return f"not judgeable: {str(exc)[:200]}"
        if not isinstance(chunk.text, str):
            return f"not judgeable: context item {position} has no text"
        read.texts.append(chunk.text)
        read.ids.append(chunk.id)
    return read


def record_verdict(
    set_attributes: Callable[[dict[str, Any]], None], verdict: GuardVerdict, texts: TextRecorder
) -> None:
    """Set the verdict's ``ragpulse.guard.*`` attributes; the claims' text is content (capped, redacted)."""
    attributes: dict[str, Any] = {
        semconv.GUARD_VERDICT: verdict.verdict,
        semconv.GUARD_ELAPSED_MS: round(verdict.elapsed_ms, 3),
    }
    if verdict.verdict == "unknown":
        attributes[semconv.GUARD_REASON] = verdict.reason
    else:
        attributes[semconv.GUARD_SCORE] = verdict.score
        attributes[semconv.GUARD_JUDGE] = verdict.judge
        attributes[semconv.GUARD_VERSION] = verdict.version
        attributes[semconv.GUARD_INPUT_SHA256] = verdict.input_sha256
        unsupported = verdict.unsupported
        said = texts.contents_within_budget(
            semconv.GUARD_UNSUPPORTED,
            [text for claim in unsupported for text in (claim.claim, claim.evidence)],
        )
        if unsupported and said is not None:
            attributes[semconv.GUARD_UNSUPPORTED] = _json(
                [
                    {
                        "claim": said[2 * i],
                        "evidence": said[2 * i + 1],
                        "chunk_id": c.chunk_id,
                        "score": c.score,
                    }
                    for i, c in enumerate(unsupported)
                ]
            )
    try:
        set_attributes(attributes)
    except Exception:
        report_internal_error("guard record")


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _unknown(reason: str, started: float) -> GuardVerdict:
    return GuardVerdict(verdict="unknown", reason=reason, elapsed_ms=_elapsed_ms(started))


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
