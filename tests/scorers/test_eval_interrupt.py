"""Ctrl-C during ``ragpulse eval``: the items being judged finish, the rest are not tried, the figures of the
items judged are printed with their coverage (judged / all) and the run exits 130. A second Ctrl-C drops the
items being judged too."""

from __future__ import annotations

import argparse
import json
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from judge_testing import FakeOpenAI, answering, schema_name
from ragpulse_core.cli import main
from ragpulse_judge.rules import LexicalJudge
from ragpulse_judge.verdicts import SupportVerdict
from ragpulse_scorers.commands import eval_support
from ragpulse_scorers.commands.eval_subq import run_types
from ragpulse_scorers.evaluation.items import IsolatedJudging

CONTEXT = "passage 1:The museum is open on Mondays. Admission is $5.\n\npassage 2:Parking is free.\n\n"
RESPONSES = ["It is open on Mondays.", "Admission is $9.", "Admission is $5.", "Tours run hourly.",
             "Parking is free.", "It closes at 3 am."]  # fmt: skip


def labelled_file(tmp_path: Path) -> Path:
    rows = [
        {"source_id": index // 2, "question": f"Q{index // 2}?", "context": CONTEXT, "response": response,
         "hallucinated": int(index % 2 == 1)}
        for index, response in enumerate(RESPONSES)
    ]  # fmt: skip
    path = tmp_path / "labelled.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


class CtrlCOnCall:
    """The lexical judge, with Ctrl-C pressed during call ``on_call`` (SIGINT to the main thread, as a
    terminal sends it); given ``first_taken``, it presses again while that call runs, once the run has taken
    the first press (two presses before the main thread runs its handler would arrive as one)."""

    name = "lexical"

    def __init__(self, on_call: int, first_taken: threading.Event | None = None) -> None:
        self._judge = LexicalJudge()
        self._on_call = on_call
        self._first_taken = first_taken
        self._calls = 0
        self._lock = threading.Lock()

    def judge_support(self, question: str, context: list[str], response: str) -> SupportVerdict:
        with self._lock:
            self._calls += 1
            now = self._calls
        if now == self._on_call:
            press_ctrl_c()
            time.sleep(0.2)  # the main thread handles it while this item is still being judged
            if self._first_taken is not None:
                assert self._first_taken.wait(timeout=60), "the first Ctrl-C was never taken"
                press_ctrl_c()
                time.sleep(0.2)
        return self._judge.judge_support(question, context, response)


def press_ctrl_c() -> None:
    """SIGINT to the main thread, as a terminal delivers Ctrl-C: it interrupts a wait there."""
    signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_prints_the_figures_of_the_items_judged_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], workers: int
) -> None:
    monkeypatch.setattr(eval_support, "build_judge", lambda args: CtrlCOnCall(on_call=3))
    data = labelled_file(tmp_path)

    code = main(["eval", "support", "--data", str(data), "--workers", str(workers), "--json"])

    assert code == 130
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    judged = [item for item in result["items"] if "not_judged" not in item]
    assert result["coverage"]["total"] == len(RESPONSES)
    assert result["coverage"]["judged"] == len(judged) == result["n"]
    assert len(judged) == 3 if workers == 1 else 2 <= len(judged) < len(RESPONSES)
    assert "interrupted" in result["stopped"]
    assert all("interrupted" in item["not_judged"] for item in result["items"] if item not in judged)


def test_ctrl_c_in_the_table_view_says_how_many_were_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(eval_support, "build_judge", lambda args: CtrlCOnCall(on_call=5))

    assert main(["eval", "support", "--data", str(labelled_file(tmp_path))]) == 130

    captured = capsys.readouterr()
    assert f"5/{len(RESPONSES)}" in captured.out
    assert "stopped early" in captured.err and "interrupted (Ctrl-C)" in captured.err


def test_a_second_ctrl_c_drops_the_item_being_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first_taken = threading.Event()
    interrupt = IsolatedJudging.interrupt

    def taken(judging: IsolatedJudging) -> None:
        interrupt(judging)
        first_taken.set()

    monkeypatch.setattr(IsolatedJudging, "interrupt", taken)
    monkeypatch.setattr(eval_support, "build_judge", lambda args: CtrlCOnCall(3, first_taken))

    assert main(["eval", "support", "--data", str(labelled_file(tmp_path)), "--json"]) == 130

    result = json.loads(capsys.readouterr().out)
    assert result["coverage"] == {"judged": 2, "total": len(RESPONSES)}


def test_ctrl_c_during_sub_question_typing_keeps_the_questions_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://judge.test/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("RAGPULSE_JUDGE__MAX_RETRIES", "0")
    monkeypatch.setenv("RAGPULSE_JUDGE__REQUESTS_PER_MINUTE", "60000")
    rows = [
        {
            "question": f"Q{q}?",
            "sub_question": f"Sub {q}.{s}?",
            "annotator_types": ["core", "core", "background"],
        }
        for q in range(3)
        for s in range(2)
    ]
    data = tmp_path / "types.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    calls = []

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        calls.append(schema_name(body))
        if len(calls) == 2:
            press_ctrl_c()
        return {"sub_questions": [{"id": i, "reasoning": "r", "type": "core"} for i in (1, 2)]}

    namespace = argparse.Namespace(data=data, model="judge-model", limit=None, json=True, config=None)
    code = run_types(namespace, http_client=FakeOpenAI(answering(reply)).http_client())

    assert code == 130
    result = json.loads(capsys.readouterr().out)
    assert result["coverage"] == {"judged": 4, "total": 6}
    assert result["accuracy"] == 1.0 and result["interrupted"]
