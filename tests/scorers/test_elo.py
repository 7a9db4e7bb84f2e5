"""Elo as RAGElo means it: float ratings, the right expected-score sign, seeded shuffled tournaments."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.metrics.elo import (
    Game,
    Verdict,
    elo_leaderboard,
    expected_score,
    play_tournament,
    reconcile,
    update,
)


def test_equal_ratings_expect_half_and_a_win_moves_sixteen_points() -> None:
    assert expected_score(1000, 1000) == 0.5
    assert update(1000, 1000, 1.0) == (1016.0, 984.0)
    assert update(1000, 1000, 0.5) == (1000.0, 1000.0)


def test_the_stronger_player_is_expected_to_win() -> None:
    # Hand computed: 1 / (1 + 10^(-200/400)) = 1 / (1 + 0.316228) = 0.759747.
    assert expected_score(1200, 1000) == pytest.approx(0.759747, abs=1e-6)
    assert expected_score(1000, 1200) == pytest.approx(0.240253, abs=1e-6)


def test_upset_moves_more_than_expected_win() -> None:
    favourite_wins = update(1200, 1000, 1.0)
    upset = update(1200, 1000, 0.0)
    assert favourite_wins[0] == pytest.approx(1200 + 32 * 0.240253, abs=1e-4)
    assert upset[0] == pytest.approx(1200 - 32 * 0.759747, abs=1e-4)
    assert upset[1] - 1000 > favourite_wins[0] - 1200


def test_ratings_are_floats_not_truncated() -> None:
    rating_a, _ = update(1000, 1010, 1.0, k=1)
    assert rating_a == pytest.approx(1000 + (1 - expected_score(1000, 1010)))
    assert rating_a != int(rating_a)


def test_one_game_tournament_updates_both_players() -> None:
    ratings = play_tournament([Game("rag", "ragf", 0.0)], random.Random(0))
    assert ratings == {"rag": 984.0, "ragf": 1016.0}


def test_a_variant_winning_every_game_ends_above_1000_and_first() -> None:
    games = [Game("ragf", "rag", 1.0)] * 8 + [Game("bm25", "ragf", 0.0)] * 8 + [Game("rag", "bm25", 0.5)] * 4
    board = elo_leaderboard(games, tournaments=10, seed=1)
    assert board[0].player == "ragf"
    assert board[0].mean > 1000
    assert (board[0].wins, board[0].ties, board[0].losses, board[0].games) == (16, 0, 0, 16)
    assert all(standing.mean < 1000 for standing in board[1:])


def test_same_seed_same_leaderboard_and_order_matters_across_tournaments() -> None:
    games = [Game("a", "b", 1.0), Game("b", "c", 1.0), Game("c", "a", 1.0), Game("a", "c", 0.5)] * 3
    assert elo_leaderboard(games, seed=7) == elo_leaderboard(games, seed=7)
    board = elo_leaderboard(games, tournaments=20, seed=7)
    assert any(standing.sd > 0 for standing in board)  # shuffled orders give different final ratings


def test_ratings_are_zero_sum() -> None:
    games = [Game("a", "b", 1.0), Game("b", "c", 0.5), Game("c", "a", 0.0)]
    board = elo_leaderboard(games, tournaments=5, seed=3)
    assert sum(standing.mean for standing in board) == pytest.approx(3000)


@pytest.mark.parametrize(
    ("forward", "swapped", "final"),
    [
        ("A", "B", "A"),  # both orders prefer the first-listed answer's author
        ("B", "A", "B"),
        ("A", "A", "C"),  # the judge always picked the first position: position bias, a tie
        ("B", "B", "C"),
        ("A", "C", "C"),  # win one way, tie the other: disagreement
        ("C", "C", "C"),
    ],
)
def test_reconcile_keeps_only_winners_both_orders_agree_on(
    forward: Verdict, swapped: Verdict, final: Verdict
) -> None:
    assert reconcile(forward, swapped) == final


def test_bad_games_are_rejected() -> None:
    with pytest.raises(ValueError):
        Game("a", "b", 0.7)
    with pytest.raises(ValueError):
        Game("a", "a", 1.0)
    with pytest.raises(ValueError):
        elo_leaderboard([Game("a", "b", 1.0)], tournaments=0)


@given(
    st.lists(
        st.tuples(st.sampled_from("abcd"), st.sampled_from("abcd"), st.sampled_from([0.0, 0.5, 1.0])).filter(
            lambda g: g[0] != g[1]
        ),
        min_size=1,
        max_size=30,
    ),
    st.integers(0, 2**32),
)
def test_leaderboard_is_sorted_and_zero_sum(raw: list[tuple[str, str, float]], seed: int) -> None:
    board = elo_leaderboard([Game(*g) for g in raw], tournaments=3, seed=seed)
    assert [s.mean for s in board] == sorted((s.mean for s in board), reverse=True)
    assert sum(s.mean for s in board) == pytest.approx(1000 * len(board))
