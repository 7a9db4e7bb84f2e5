"""``ragpulse evaluators test``: an evaluator run on stored requests, showing what it did. Writes nothing.

For each request: the rendered prompt and the judge's raw reply (``llm``), what the function printed
(``python``), the scores, or why it was skipped or failed, exactly as a tick would record it.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from ragpulse_core.printable import printable, shown
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragpulse_scorers.evaluators.scorers import Evaluator, Trial
from ragpulse_scorers.evaluators.stored import StoredRequest
from ragpulse_scorers.llm.errors import JudgeOutputInvalid
from ragpulse_scorers.metric_names import PASS
from ragpulse_scorers.models import RagRequest
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.scorer import NotApplicable

MAX_SHOWN_CHARS = 4000


@dataclass(frozen=True)
class TrialResult:
    stored: StoredRequest
    outcome: Outcome
    trial: Trial | None = None
    reason: str = ""
    reply: str = ""
    """A failed LLM judgment's last raw reply (what could not be used)."""


def run_trial(evaluator: Evaluator, stored: StoredRequest) -> TrialResult:
    """One request judged as a tick would judge it; never raises for what the request or evaluator does."""
    request = stored.request
    if request is None:
        return TrialResult(stored, Outcome.SKIPPED, reason=stored.problem)
    for name in evaluator.requires:
        if not getattr(request, name, None):
            return TrialResult(stored, Outcome.SKIPPED, reason=f"request has no {name}")
    try:
        trial = evaluator.trial(request)
    except NotApplicable as exc:
        return TrialResult(stored, Outcome.SKIPPED, reason=str(exc) or "not applicable")
    except JudgeOutputInvalid as exc:
        return TrialResult(stored, Outcome.FAILED, reason=f"{type(exc).__name__}: {exc}", reply=exc.reply)
    except Exception as exc:
        return TrialResult(stored, Outcome.FAILED, reason=f"{type(exc).__name__}: {exc}")
    return TrialResult(stored, Outcome.SCORED, trial)


def print_trials(evaluator: Evaluator, results: list[TrialResult], console: Console) -> None:
    console.print(
        f"[bold]{escape(evaluator.name)}[/bold] ({evaluator.kind}, version {evaluator.version}) on"
        f" {len(results)} stored request{'s' if len(results) != 1 else ''}; nothing is written",
        soft_wrap=True,
    )
    for result in results:
        _print_result(result, console)
    counts = Counter(result.outcome.value for result in results)
    verdicts = Counter(
        "passed" if score.value == 1.0 else "failed"
        for result in results
        if result.trial is not None
        for score in result.trial.scores
        if score.metric == PASS
    )
    said = [
        f"{counts[o.value]} {o.value}"
        for o in (Outcome.SCORED, Outcome.SKIPPED, Outcome.FAILED)
        if counts[o.value]
    ]
    if verdicts:
        said.append(f"verdicts: {verdicts['passed']} pass, {verdicts['failed']} fail")
    console.print(f"[bold]summary[/bold]: {', '.join(said) or 'no requests'}", soft_wrap=True)


def _print_result(result: TrialResult, console: Console) -> None:
    stored = result.stored
    console.rule(
        f"{stored.timestamp:%Y-%m-%d %H:%M:%S} · {shown(stored.trace_id)} · {shown(stored.service_name)}"
    )
    trial = result.trial
    if trial is not None and trial.prompt:
        console.print("[bold]prompt[/bold]")
        console.print(_clip(trial.prompt), markup=False, highlight=False, soft_wrap=True)
        console.print("[bold]raw reply[/bold]")
        console.print(_clip(trial.reply), markup=False, highlight=False, soft_wrap=True)
    if trial is not None and trial.printed:
        console.print("[bold]printed[/bold]")
        console.print(_clip(trial.printed), markup=False, highlight=False, soft_wrap=True)
    if result.outcome is Outcome.SKIPPED:
        console.print(f"[yellow]skipped[/yellow]: {escape(shown(result.reason))}")
        return
    if result.outcome is Outcome.FAILED:
        if result.reply:
            console.print("[bold]raw reply[/bold]")
            console.print(_clip(result.reply), markup=False, highlight=False, soft_wrap=True)
        console.print(f"[red]failed[/red]: {escape(shown(result.reason))}")
        return
    assert trial is not None
    for note in trial.notes:
        console.print(f"[dim]{escape(note)}[/dim]")
    table = Table(show_edge=False)
    for column in ("metric", "value", "label", "explanation"):
        table.add_column(column, overflow="fold")
    for score in trial.scores:
        value = "–" if score.value is None else f"{score.value:g}"
        table.add_row(
            escape(score.metric), value, escape(shown(score.label)), escape(shown(score.explanation))
        )
    console.print(table)


def _clip(text: str) -> str:
    """Traced text kept in its lines (a prompt reads as sent, and is printed unwrapped so it copies as sent),
    each made safe for a terminal; printed without markup, so it needs no escaping."""
    clipped = text if len(text) <= MAX_SHOWN_CHARS else text[: MAX_SHOWN_CHARS - 1] + "…"
    return "\n".join(printable(line) for line in clipped.split("\n"))


def stored_to_json(found: list[StoredRequest]) -> str:
    """The requests as JSON lines, read back by :func:`stored_from_json` (through ``ragpulse serve``)."""
    return "".join(
        json.dumps(
            {
                "trace_id": item.trace_id,
                "timestamp": item.timestamp.isoformat(),
                "service_name": item.service_name,
                "request": item.request.model_dump(mode="json") if item.request is not None else None,
                "problem": item.problem,
            },
            ensure_ascii=False,
        )
        + "\n"
        for item in found
    )


def stored_from_json(text: str) -> list[StoredRequest]:
    found = []
    for line in text.splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        request = RagRequest.model_validate(item["request"]) if item.get("request") is not None else None
        found.append(
            StoredRequest(
                str(item["trace_id"]),
                datetime.fromisoformat(item["timestamp"]),
                str(item["service_name"]),
                request,
                str(item.get("problem", "")),
            )
        )
    return found
