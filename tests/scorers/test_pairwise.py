"""Pairwise judging in both orders, the ``pairwise_win`` scores it writes, and the Elo leaderboard."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from judge_testing import FakeOpenAI, answering, judge_settings
from ragpulse_core.cli import parse_window
from ragpulse_core.store import Store
from ragpulse_scorers.commands.pairwise import run as run_pairwise_command
from ragpulse_scorers.judges.pairwise import PairwiseJudge, pooled_documents
from ragpulse_scorers.judges.pairwise_run import play_pairwise, run_pairwise, write_pairwise_scores
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.metrics.elo import elo_leaderboard
from ragpulse_scorers.models import ContextChunk

REQUEST_COLUMNS = ("TraceId", "SpanId", "Timestamp", "ServiceName", "Pipeline", "Variant", "Question",
                   "Answer", "Context", "SampleKey")  # fmt: skip


def pairwise_judge(
    pick: Callable[[str, str], str], **settings: Any
) -> tuple[PairwiseJudge, list[dict[str, Any]]]:
    """A judge whose server answers ``pick(answer_a, answer_b)`` -> "A" / "B" / "C" (or raises)."""

    def verdict(body: dict[str, Any]) -> dict[str, Any]:
        prompt = body["messages"][1]["content"]
        a, b = (re.search(rf"<{tag}>\n(.*?)\n</{tag}>", prompt, re.DOTALL).group(1)  # type: ignore[union-attr]
                for tag in ("assistant_a_answer", "assistant_b_answer"))  # fmt: skip
        return {"answer_a_analysis": "a", "answer_b_analysis": "b", "comparison_reasoning": "fake",
                "winner": pick(a, b)}  # fmt: skip

    server = FakeOpenAI(answering(verdict, prompt_tokens=400, completion_tokens=100))
    client = JudgeClient(judge_settings(max_retries=0, **settings), http_client=server.http_client())
    return PairwiseJudge(client), server.requests


def prefers_good(a: str, b: str) -> str:
    if ("[good]" in a) == ("[good]" in b):
        return "C"
    return "A" if "[good]" in a else "B"


def add_requests(store: Store, rows: list[tuple[str, str, str, str, timedelta]]) -> None:
    """rows of (trace id, variant, question, answer, age)."""
    now = datetime.now(UTC)
    context = json.dumps([{"id": "doc-1", "text": "Shared evidence.", "rank": 1}])
    store.insert(
        "ragpulse_requests",
        [[trace, "span", now - age, "svc", "rag-fusion", variant, question, answer, context, i]
         for i, (trace, variant, question, answer, age) in enumerate(rows)],
        REQUEST_COLUMNS,
    )  # fmt: skip


def test_both_orders_agreeing_give_a_winner() -> None:
    judge, bodies = pairwise_judge(prefers_good)
    judgment = judge.judge_pair("q", "plain answer", "[good] answer", ["doc"])
    assert (judgment.forward, judgment.swapped, judgment.final) == ("B", "A", "B")
    assert len(bodies) == 2
    assert judgment.usage.input_tokens == 800


def test_a_judge_that_always_picks_the_first_answer_yields_a_tie() -> None:
    judge, _ = pairwise_judge(lambda a, b: "A")
    judgment = judge.judge_pair("q", "one", "two", [])
    assert (judgment.forward, judgment.swapped, judgment.final) == ("A", "A", "C")


def test_documents_of_both_answers_are_pooled_once() -> None:
    first = [ContextChunk(id="1", text="one"), ContextChunk(id="2", text="two")]
    second = [
        ContextChunk(id="2", text="two"),
        ContextChunk(id="3", text="three"),
        ContextChunk(id="4", text=""),
    ]
    assert pooled_documents(first, second) == ["one", "two", "three"]


def test_pairwise_run_scores_both_sides_and_ranks_the_better_variant_first(store: Store) -> None:
    add_requests(store, [
        ("r1", "rag", "q1", "plain", timedelta(minutes=5)),
        ("f1", "ragf", "q1", "[good] fused", timedelta(minutes=5)),
        ("r2", "rag", "q2", "plain", timedelta(minutes=4)),
        ("f2", "ragf", "q2", "[good] fused", timedelta(minutes=4)),
        ("r3", "rag", "q3", "[good] plain", timedelta(minutes=3)),
        ("f3", "ragf", "q3", "[good] fused", timedelta(minutes=3)),
        ("r4", "rag", "q4", "only one variant answered", timedelta(minutes=2)),
        ("r5", "rag", "q5", "too old", timedelta(hours=30)),
        ("f5", "ragf", "q5", "[good] too old", timedelta(hours=30)),
        ("x1", "other", "q1", "[good] not asked for", timedelta(minutes=5)),
    ])  # fmt: skip
    judge, bodies = pairwise_judge(prefers_good)
    run = play_pairwise(store, judge, ["rag", "ragf"], datetime.now(UTC) - timedelta(hours=24), limit=10)
    assert len(run.games) == 3 and not run.failures
    assert len(bodies) == 6  # three questions, each judged in both orders

    write_pairwise_scores(store, run.games)
    rows = store.query_dicts(
        "SELECT TraceId, Variant, Scorer, Metric, Value, Label, Details, InputTokens"
        f" FROM {store.table('ragpulse_scores')} ORDER BY TraceId"
    )
    by_trace = {row["TraceId"]: row for row in rows}
    assert set(by_trace) == {"r1", "f1", "r2", "f2", "r3", "f3"}
    assert {(r["Scorer"], r["Metric"]) for r in rows} == {("pairwise", "pairwise_win")}
    assert (by_trace["f1"]["Value"], by_trace["f1"]["Label"]) == (1.0, "win")
    assert (by_trace["r1"]["Value"], by_trace["r1"]["Label"]) == (0.0, "loss")
    assert (by_trace["r3"]["Value"], by_trace["f3"]["Value"]) == (0.5, 0.5)
    game = json.loads(by_trace["r1"]["Details"])["games"][0]
    assert (game["opponent_trace"], game["verdict_forward"], game["verdict_swapped"]) == ("f1", "B", "A")
    assert by_trace["r1"]["InputTokens"] + by_trace["f1"]["InputTokens"] == 800  # one pair's two calls

    board = elo_leaderboard([g.game for g in run.games], tournaments=10, seed=0)
    assert [s.player for s in board] == ["ragf", "rag"]
    assert board[0].mean > 1000 > board[1].mean
    assert (board[0].wins, board[0].ties, board[0].losses) == (2, 1, 0)


def test_a_trace_meeting_several_variants_gets_its_mean_result(store: Store) -> None:
    add_requests(store, [
        ("a", "alpha", "q", "[good] a", timedelta(minutes=1)),
        ("b", "beta", "q", "b", timedelta(minutes=1)),
        ("c", "gamma", "q", "[good] c", timedelta(minutes=1)),
    ])  # fmt: skip
    judge, _ = pairwise_judge(prefers_good)
    run = play_pairwise(store, judge, None, datetime.now(UTC) - timedelta(hours=1), limit=10)
    assert len(run.games) == 3  # alpha-beta, alpha-gamma, beta-gamma
    write_pairwise_scores(store, run.games)
    rows = {r["TraceId"]: r for r in store.query_dicts(
        f"SELECT TraceId, Value, Label, Details FROM {store.table('ragpulse_scores')}")}  # fmt: skip
    assert (rows["a"]["Value"], rows["a"]["Label"]) == (0.75, "1W 1T 0L")
    assert len(json.loads(rows["b"]["Details"])["games"]) == 2


def test_a_failing_pair_is_reported_and_the_others_still_played(store: Store) -> None:
    add_requests(store, [
        ("r1", "rag", "q1", "plain", timedelta(minutes=2)),
        ("f1", "ragf", "q1", "BROKEN", timedelta(minutes=2)),
        ("r2", "rag", "q2", "plain", timedelta(minutes=1)),
        ("f2", "ragf", "q2", "[good]", timedelta(minutes=1)),
    ])  # fmt: skip
    judge, _ = pairwise_judge(lambda a, b: "not a verdict" if "BROKEN" in a + b else prefers_good(a, b))
    run = play_pairwise(store, judge, ["rag", "ragf"], datetime.now(UTC) - timedelta(hours=1), limit=10)
    assert [g.question for g in run.games] == ["q2"]
    assert len(run.failures) == 1 and "q1" in run.failures[0]


def test_spent_budget_stops_the_run(store: Store) -> None:
    add_requests(store, [
        ("r1", "rag", "q1", "plain", timedelta(minutes=2)),
        ("f1", "ragf", "q1", "[good]", timedelta(minutes=2)),
    ])  # fmt: skip
    judge, bodies = pairwise_judge(prefers_good, daily_budget_tokens=1)
    run = play_pairwise(store, judge, ["rag", "ragf"], datetime.now(UTC) - timedelta(hours=1), limit=10)
    assert run.games == [] and "budget" in run.stopped
    assert len(bodies) == 1  # the second order was never sent


def test_limit_counts_questions_newest_first(store: Store) -> None:
    add_requests(store, [
        ("r1", "rag", "old", "x", timedelta(minutes=9)), ("f1", "ragf", "old", "y", timedelta(minutes=9)),
        ("r2", "rag", "new", "x", timedelta(minutes=1)), ("f2", "ragf", "new", "y", timedelta(minutes=1)),
    ])  # fmt: skip
    judge, _ = pairwise_judge(prefers_good)
    run = play_pairwise(store, judge, ["rag", "ragf"], datetime.now(UTC) - timedelta(hours=1), limit=1)
    assert [g.question for g in run.games] == ["new"]


def test_a_second_run_judges_and_writes_nothing_twice_and_every_scored_trace_is_logged(
    store: Store,
) -> None:
    add_requests(store, [
        ("r1", "rag", "q1", "plain", timedelta(minutes=3)),
        ("f1", "ragf", "q1", "[good] fused", timedelta(minutes=3)),
        ("r2", "rag", "q2", "plain", timedelta(minutes=2)),
        ("f2", "ragf", "q2", "BROKEN", timedelta(minutes=2)),
    ])  # fmt: skip
    judge, bodies = pairwise_judge(lambda a, b: "not a verdict" if "BROKEN" in a + b else prefers_good(a, b))
    since = datetime.now(UTC) - timedelta(hours=1)

    first = run_pairwise(store, judge, None, since, limit=10)
    calls = len(bodies)
    second = run_pairwise(store, judge, None, since, limit=10)

    assert len(first.games) == 1 and len(first.failed) == 1
    assert second.games == [] and len(second.failed) == 1  # q1 is done; the failed pair is tried again
    assert len(bodies) > calls
    scores = store.query(f"SELECT TraceId, count() FROM {store.table('ragpulse_scores')} GROUP BY TraceId")
    assert dict(scores) == {"r1": 1, "f1": 1}
    log = store.query_dicts(
        f"SELECT TraceId, Outcome, ScorerVersion FROM {store.table('ragpulse_scoring_log')}"
        " WHERE Scorer = 'pairwise' ORDER BY LoggedAt, TraceId"
    )
    assert sorted((row["TraceId"], row["Outcome"]) for row in log) == [
        ("f1", "scored"), ("f2", "failed"), ("f2", "failed"),
        ("r1", "scored"), ("r2", "failed"), ("r2", "failed"),
    ]  # fmt: skip
    assert {row["ScorerVersion"] for row in log} == {"1/pairwise-v2"}


def test_a_new_answer_is_played_against_the_others_and_judged_pairs_are_not_played_again(
    store: Store,
) -> None:
    add_requests(store, [
        ("r1", "rag", "q1", "plain", timedelta(minutes=3)),
        ("f1", "ragf", "q1", "[good] fused", timedelta(minutes=3)),
    ])  # fmt: skip
    judge, bodies = pairwise_judge(prefers_good)
    since = datetime.now(UTC) - timedelta(hours=1)
    run_pairwise(store, judge, None, since, limit=10)
    add_requests(store, [("h1", "hybrid", "q1", "[good] hybrid", timedelta(minutes=1))])
    calls = len(bodies)

    second = run_pairwise(store, judge, None, since, limit=10)

    played = {frozenset((game.first.trace_id, game.second.trace_id)) for game in second.games}
    assert played == {frozenset(("h1", "r1")), frozenset(("f1", "h1"))}
    assert len(bodies) - calls == 2 * len(played)  # both orders of each new pair, nothing more


def test_writing_the_same_games_twice_adds_no_row(store: Store) -> None:
    add_requests(store, [
        ("r1", "rag", "q1", "plain", timedelta(minutes=3)),
        ("f1", "ragf", "q1", "[good] fused", timedelta(minutes=3)),
    ])  # fmt: skip
    judge, _ = pairwise_judge(prefers_good)
    run = play_pairwise(store, judge, None, datetime.now(UTC) - timedelta(hours=1), limit=10)

    assert write_pairwise_scores(store, run.games) == 2
    assert write_pairwise_scores(store, run.games) == 0
    assert store.query(f"SELECT count() FROM {store.table('ragpulse_scores')}") == [(2,)]
    assert store.query(f"SELECT count() FROM {store.table('ragpulse_scoring_log')}") == [(2,)]


def test_command_without_a_judge_endpoint_exits_2(monkeypatch: pytest.MonkeyPatch, chdb_dsn: str) -> None:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    args = argparse.Namespace(config=None, dsn=chdb_dsn, variants=None, since=timedelta(hours=1), limit=5,
                              tournaments=10, seed=0)  # fmt: skip
    assert run_pairwise_command(args) == 2


@given(st.integers(1, 10_000), st.sampled_from([("s", 1), ("m", 60), ("h", 3600), ("d", 86400), ("", 3600)]))
def test_window_parses_number_and_unit(amount: int, unit: tuple[str, int]) -> None:
    assert parse_window(f"{amount}{unit[0]}") == timedelta(seconds=amount * unit[1])


@pytest.mark.parametrize("text", ["", "h", "0h", "-1h", "24 hours", "1w", "1.5.2h"])
def test_bad_windows_are_rejected(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        parse_window(text)
