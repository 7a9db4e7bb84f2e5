"""Scorer names to scorers: built-in names, ``module:callable`` for other packages, clear errors."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pipeline_testing import RecordingScorer
from ragpulse_core.store import Store
from ragpulse_scorers.registry import (
    BUILTIN_SCORERS,
    UnknownScorer,
    build_scorer,
    build_scorers,
    load_factory,
)
from ragpulse_scorers.settings import ScorersSettings

SETTINGS = ScorersSettings.load(store={"dsn": "chdb:///unused"})
NO_STORE = Store("http://127.0.0.1:9/unused")


def build_named(settings: ScorersSettings, store: Store) -> RecordingScorer:
    return RecordingScorer(name="third-party")


def build_not_a_scorer(settings: ScorersSettings, store: Store) -> object:
    return object()


NOT_CALLABLE = 42


def test_module_callable_name_builds_a_third_party_scorer() -> None:
    scorer = build_scorer(f"{__name__}:build_named", SETTINGS, NO_STORE)

    assert scorer.name == "third-party"


def test_unknown_name_lists_the_known_scorers() -> None:
    with pytest.raises(UnknownScorer) as raised:
        load_factory("halucination")

    message = str(raised.value)
    assert "halucination" in message
    assert all(name in message for name in BUILTIN_SCORERS)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("no_such_package.judges:build", "cannot be loaded"),
        (f"{__name__}:missing", "has no callable"),
        (f"{__name__}:NOT_CALLABLE", "has no callable"),
        (f"{__name__}:build_not_a_scorer", "not a Scorer"),
        (":build", "unknown scorer"),
    ],
)
def test_bad_names_and_factories_are_explained(name: str, expected: str) -> None:
    with pytest.raises(UnknownScorer, match=expected):
        build_scorer(name, SETTINGS, NO_STORE)


def test_two_scorers_with_one_name_are_refused_and_repeats_are_ignored() -> None:
    named = f"{__name__}:build_named"

    assert len(build_scorers([named, named], SETTINGS, NO_STORE)) == 1
    with pytest.raises(UnknownScorer, match="both named"):
        build_scorers([named, f"{__name__}:build_other_named_alike"], SETTINGS, NO_STORE)


def build_other_named_alike(settings: ScorersSettings, store: Store) -> RecordingScorer:
    return RecordingScorer(name="third-party", version="9")


def test_builtin_judges_are_not_imported_until_named() -> None:
    probe = (
        "import sys, ragpulse_scorers.registry, ragpulse_scorers.pipeline.scheduler;"
        "print(sorted(m for m in sys.modules"
        " if m.startswith(('ragpulse_scorers.judges', 'ragpulse_scorers.lexical'))))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)

    assert result.stdout.strip() == "[]"
