"""Each evaluator kind judges a request as its definition says, and a hostile pattern, schema, document or
function ends in a clear error for that request instead of a stall."""

from __future__ import annotations

import textwrap
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from ragpulse_scorers.evaluators.scorers import Evaluator, EvaluatorFailed, build_evaluator
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.scorer import NotApplicable
from ragpulse_scorers.settings import ScorersSettings

# A hung call must end within its timeout plus the time to kill and reap its process; this bound only says
# that it ended, on a shared and noisy machine.
ENDED_WITHIN_S = 20.0


def build(kind: str, definition: dict[str, Any], name: str = "check") -> Evaluator:
    settings = ScorersSettings.model_validate({"evaluators": {kind: {name: definition}}})
    return build_evaluator(name, settings.evaluators.definitions()[name], settings, None)


def request(answer: str = "Paris is the capital of France [1].", **fields: Any) -> RagRequest:
    return RagRequest(
        trace_id="a" * 32, timestamp=datetime.now(UTC), question="Capital?", answer=answer, **fields
    )


def verdict(scores: list[Score]) -> tuple[float | None, str]:
    (passed,) = [score for score in scores if score.metric == "pass"]
    return passed.value, passed.explanation


def test_regex_passes_on_a_match_and_reject_turns_it_round() -> None:
    cites = build("regex", {"pattern": r"\[\d+\]"})
    assert verdict(cites.score(request())) == (1.0, "the answer matches /\\[\\d+\\]/ at 31: '[1]'")
    assert verdict(cites.score(request("No source here.")))[0] == 0.0
    boilerplate = build("regex", {"pattern": "(?i)as an ai", "reject": True})
    assert verdict(boilerplate.score(request("As an AI, I cannot say.")))[0] == 0.0
    assert verdict(boilerplate.score(request()))[0] == 1.0


def test_a_catastrophic_pattern_answers_at_once_on_re2() -> None:
    """Python's re takes exponential time on this pair; the evaluator answers as for any other text."""
    evil = build("regex", {"pattern": r"^(\w+-?)+-prod$"})
    assert verdict(evil.score(request("a" * 50_000 + "!")))[0] == 0.0


def test_a_pattern_re2_would_run_slowly_is_refused_and_a_huge_answer_fails_its_request() -> None:
    """RE2 falls back to a slow engine on a large count over a class: 465 µs a character, minutes a request"""
    with pytest.raises(ValueError, match=r"a repetition counts to at most 100 \(this one: 1000\)"):
        build("regex", {"pattern": r"(?i)(?:\w+\s*){1,1000}Z"})
    cites = build("regex", {"pattern": r"\[\d+\]"})
    with pytest.raises(EvaluatorFailed, match=r"the answer is 1,048,577 characters; .* at most 1,048,576"):
        cites.score(request("x" * (1 << 20) + "y"))
    # 150 contains tests read a 50 MB answer in 81 s, each lowering the whole answer's case again.
    tree = build("heuristic", {"rule": {"any": [{"contains": {"text": f"z{i}"}} for i in range(150)]}})
    with pytest.raises(EvaluatorFailed, match=r"the answer is 1,048,577 characters; a heuristic evaluator"):
        tree.score(request("x" * (1 << 20) + "y"))


def test_regex_reads_span_attributes_and_skips_a_request_without_them() -> None:
    route = build("regex", {"pattern": "^/v2/", "field": "span.http.route"})
    assert route.attributes == (("http.route",), ())
    assert verdict(route.score(request(span_attributes={"http.route": "/v2/ask"})))[0] == 1.0
    with pytest.raises(NotApplicable, match=r"no span\.http\.route"):
        route.score(request())


def test_heuristic_rule_tree_says_which_test_decided() -> None:
    substantive = build(
        "heuristic",
        {"rule": {"all": [
            {"not_empty": "answer"},
            {"min_words": {"field": "answer", "words": 4}},
            {"not": {"contains_any": {"field": "answer", "texts": ["I don't know", "as an AI"]}}},
        ]}},
    )  # fmt: skip
    assert verdict(substantive.score(request()))[0] == 1.0
    assert verdict(substantive.score(request("Too short."))) == (0.0, "false: answer has at least 4 words")
    passed, why = verdict(substantive.score(request("Well, as an AI I would rather not.")))
    assert passed == 0.0 and "(wanted false)" in why
    # A rule may ask for a field to be empty: a request without it is judged, not skipped.
    assert build("heuristic", {"rule": {"not": {"not_empty": "reference"}}}).requires == ()


def test_json_schema_validates_the_answer_and_says_where_it_fails() -> None:
    widget = build("json_schema", {"schema": {
        "type": "object", "required": ["title", "steps"],
        "properties": {"steps": {"type": "array", "items": {"type": "string"}, "maxItems": 3}},
    }})  # fmt: skip
    try:
        assert verdict(widget.score(request('{"title": "Reset", "steps": ["a", "b"]}')))[0] == 1.0
        assert verdict(widget.score(request('{"title": "Reset", "steps": ["a", 2]}'))) == (
            0.0, "the answer: 2 is not of type 'string' at $.steps[1]"
        )  # fmt: skip
        passed, why = verdict(widget.score(request("Here you go: {")))
        assert passed == 0.0 and why.startswith("the answer: not JSON")
        passed, why = verdict(widget.score(request("[" * 50_000 + "]" * 50_000)))
        assert passed == 0.0 and "nested deeper than 64 levels" in why
    finally:
        widget.close()


@pytest.mark.parametrize(
    ("schema", "document"),
    [
        # Python's re behind jsonschema's "pattern" backtracks exponentially on this pair.
        ({"properties": {"name": {"type": "string", "pattern": "^(a+)+$"}}}, '{"name": "' + "a" * 40 + '!"}'),
        # uniqueItems compares unhashable items pairwise.
        (
            {"type": "array", "uniqueItems": True},
            "[" + ",".join(f'{{"k": {i}}}' for i in range(30_000)) + "]",
        ),
    ],
    ids=["backtracking-pattern", "unique-items"],
)
def test_a_hostile_schema_or_document_fails_its_request_within_the_timeout(
    schema: dict[str, Any], document: str
) -> None:
    check = build("json_schema", {"schema": schema, "timeout_s": 1})
    try:
        started = time.monotonic()
        with pytest.raises(EvaluatorFailed, match=r"did not answer within 1 s: its process was stopped"):
            check.score(request(document))
        assert time.monotonic() - started < ENDED_WITHIN_S
        # The next request gets a new process and a verdict.
        assert (
            verdict(check.score(request('{"name": "aaa"}' if "properties" in schema else "[1, 2]")))[0] == 1.0
        )
    finally:
        check.close()


@pytest.fixture
def team_module(tmp_path: Path) -> Path:
    (tmp_path / "team_checks.py").write_text(
        textwrap.dedent("""
        import os, sys, time

        def tone(request):
            print("checking", request.trace_id)
            sys.stdout.write('{"ok": true, "result": {"pass": false}}\\n')
            os.write(1, b"straight to the file descriptor\\n")
            passed = "sorry" not in request.answer.lower()
            return {"pass": passed, "politeness": 0.75, "explanation": "house style"}

        def score(request):
            return len(request.answer) / 100

        def hangs(request):
            time.sleep(600)

        def raises(request):
            raise KeyError("customer_tier")

        def exits(request):
            os._exit(3)

        def hogs(request):
            return len(bytearray(4 * 1024 * 1024 * 1024))

        def not_a_number(request):
            return {"politeness": float("nan")}

        def odd(request):
            return object()

        def nothing(request):
            return None

        def forks(request):
            if os.fork() == 0:
                time.sleep(0.3)  # the copy finishes the call after the worker has answered it
            return len(request.answer)

        def huge(request):
            return {"length": 10 ** 400}
    """)
    )
    return tmp_path


def python_check(team_module: Path, function: str, **options: Any) -> Evaluator:
    return build("python", {"entry_point": f"team_checks:{function}", "path": [str(team_module)], **options})


def test_a_python_function_scores_and_what_it_prints_is_only_shown(team_module: Path) -> None:
    tone = python_check(team_module, "tone")
    try:
        trial = tone.trial(request("Sorry, no idea."))
        assert [(s.metric, s.value, s.explanation) for s in trial.scores] == [
            ("pass", 0.0, "house style"), ("politeness", 0.75, "house style"),
        ]  # fmt: skip
        assert trial.printed.startswith("checking " + "a" * 32)
        assert verdict(tone.score(request("Paris."))) == (1.0, "house style")
    finally:
        tone.close()
    score = python_check(team_module, "score", pass_at=0.2)
    try:
        assert [(s.metric, s.value) for s in score.score(request("x" * 30))] == [
            ("score", 0.3),
            ("pass", 1.0),
        ]
    finally:
        score.close()


@pytest.mark.parametrize(
    ("function", "options", "reason"),
    [
        ("hangs", {"timeout_s": 1}, r"team_checks:hangs did not answer within 1 s: its process was stopped"),
        ("raises", {}, r"KeyError: 'customer_tier' \(at team_checks.py:\d+\)"),
        ("exits", {}, r"team_checks:exits's process exited with code 3 during the call"),
        ("hogs", {"max_memory_mb": 256}, r"MemoryError"),
        ("not_a_number", {}, r"politeness = 'nan' is not a finite number"),
        ("odd", {}, r"returned object, which is not a number, a bool or a dict of them"),
        ("huge", {}, r"length = 1000.* is not a finite number"),
        ("missing", {}, r"cannot load team_checks:missing: AttributeError"),
    ],
)
def test_a_python_function_that_fails_fails_its_request_with_the_reason(
    team_module: Path, function: str, options: dict[str, Any], reason: str
) -> None:
    check = python_check(team_module, function, **options)
    try:
        started = time.monotonic()
        with pytest.raises(EvaluatorFailed, match=reason):
            check.score(request())
        assert time.monotonic() - started < ENDED_WITHIN_S
    finally:
        check.close()


def test_a_python_function_with_nothing_to_judge_skips_and_recovers_after_a_hang(team_module: Path) -> None:
    with pytest.raises(NotApplicable, match="returned None"):
        python_check(team_module, "nothing").score(request())
    settings = ScorersSettings.model_validate({"evaluators": {"python": {"flaky": {
        "entry_point": "team_checks:hangs", "path": [str(team_module)], "timeout_s": 1,
    }}}})  # fmt: skip
    flaky = build_evaluator("flaky", settings.evaluators.python["flaky"], settings, None)
    try:
        for _ in range(2):  # each call gets a fresh process after the last one was stopped
            with pytest.raises(EvaluatorFailed, match="did not answer within 1 s"):
                flaky.score(request())
    finally:
        flaky.close()


def test_a_function_that_forks_answers_each_call_once(team_module: Path) -> None:
    """The forked copy used to answer too: its answer to one call was read as the next call's."""
    forks = python_check(team_module, "forks")
    try:
        for answer in ("a" * 10, "b" * 20, "c" * 30):
            assert [(s.metric, s.value) for s in forks.score(request(answer))] == [("score", len(answer))]
            time.sleep(0.5)
    finally:
        forks.close()
