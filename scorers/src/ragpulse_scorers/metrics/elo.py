"""Elo tournaments over pairwise verdicts, as RAGElo runs them (seed 003; reference/evals.md §2), done right.

RAGElo plays every judged game once per tournament in a shuffled order, from fresh ratings (start 1000, K=32),
and reports the mean and standard deviation of each player's final rating over N tournaments. Its master
branch has the expected-score sign reversed and truncates ratings to ``int`` after every update; here ratings
are floats, the expected score of A is 1 / (1 + 10^((R_B − R_A)/400)), and the shuffle uses a seeded RNG so
the same games and seed always give the same leaderboard.

Verdicts name positions: "A" (the first answer shown is better), "B" (the second), "C" (a tie). Each pair is
judged in both orders; :func:`reconcile` keeps a winner only when both orders agree on it, any disagreement
being a tie (RAGElo master), which cancels the judge's position bias.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import fmean, pstdev
from typing import Literal

Verdict = Literal["A", "B", "C"]

DEFAULT_K = 32.0
DEFAULT_INITIAL_RATING = 1000.0
DEFAULT_TOURNAMENTS = 10
SCORE_OF_VERDICT: dict[Verdict, float] = {"A": 1.0, "B": 0.0, "C": 0.5}


@dataclass(frozen=True)
class Game:
    """One reconciled comparison: ``score_a`` is 1 when ``player_a`` won, 0 when it lost, 0.5 for a tie."""

    player_a: str
    player_b: str
    score_a: float

    def __post_init__(self) -> None:
        if self.score_a not in (0.0, 0.5, 1.0):
            raise ValueError(f"score_a must be 0, 0.5 or 1, got {self.score_a}")
        if self.player_a == self.player_b:
            raise ValueError(f"a player cannot play itself ({self.player_a!r})")


@dataclass(frozen=True)
class Standing:
    player: str
    mean: float
    sd: float
    games: int
    wins: int
    ties: int
    losses: int


def swap_verdict(verdict: Verdict) -> Verdict:
    """The same verdict seen from the other order of presentation."""
    swapped: dict[Verdict, Verdict] = {"A": "B", "B": "A", "C": "C"}
    return swapped[verdict]


def reconcile(forward: Verdict, swapped: Verdict) -> Verdict:
    """One verdict from both orders; ``swapped`` was given with the answers shown the other way round.

    Returns the verdict in the forward order: the winner both orders agree on, otherwise "C" (a tie).
    """
    normalized = swap_verdict(swapped)
    return forward if forward == normalized else "C"


def expected_score(rating_a: float, rating_b: float) -> float:
    """A's expected score against B: 1 / (1 + 10^((R_B − R_A)/400))."""
    return 1.0 / (1.0 + math.pow(10.0, (rating_b - rating_a) / 400.0))


def update(rating_a: float, rating_b: float, score_a: float, k: float = DEFAULT_K) -> tuple[float, float]:
    """Both ratings after one game; the points A gains are the points B loses."""
    change = k * (score_a - expected_score(rating_a, rating_b))
    return rating_a + change, rating_b - change


def play_tournament(
    games: Sequence[Game],
    rng: random.Random,
    k: float = DEFAULT_K,
    initial_rating: float = DEFAULT_INITIAL_RATING,
) -> dict[str, float]:
    """Final ratings after playing every game once, in an order shuffled by ``rng``, from fresh ratings."""
    order = list(games)
    rng.shuffle(order)
    ratings: dict[str, float] = {}
    for game in order:
        ratings[game.player_a], ratings[game.player_b] = update(
            ratings.get(game.player_a, initial_rating),
            ratings.get(game.player_b, initial_rating),
            game.score_a,
            k,
        )
    return ratings


def elo_leaderboard(
    games: Iterable[Game],
    tournaments: int = DEFAULT_TOURNAMENTS,
    seed: int = 0,
    k: float = DEFAULT_K,
    initial_rating: float = DEFAULT_INITIAL_RATING,
) -> list[Standing]:
    """Mean ± population sd of each player's rating over ``tournaments`` shuffled tournaments, best first."""
    if tournaments < 1:
        raise ValueError(f"tournaments must be at least 1, got {tournaments}")
    played = list(games)
    rng = random.Random(seed)
    finals: dict[str, list[float]] = {}
    for _ in range(tournaments):
        for player, rating in play_tournament(played, rng, k, initial_rating).items():
            finals.setdefault(player, []).append(rating)
    standings = [_standing(player, ratings, played) for player, ratings in finals.items()]
    return sorted(standings, key=lambda standing: (-standing.mean, standing.player))


def _standing(player: str, ratings: list[float], games: Sequence[Game]) -> Standing:
    wins = ties = losses = 0
    for game in games:
        if player not in (game.player_a, game.player_b):
            continue
        score = game.score_a if game.player_a == player else 1.0 - game.score_a
        wins += score == 1.0
        ties += score == 0.5
        losses += score == 0.0
    return Standing(player, fmean(ratings), pstdev(ratings), wins + ties + losses, wins, ties, losses)
