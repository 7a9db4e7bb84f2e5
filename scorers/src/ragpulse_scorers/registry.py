"""Scorer names to factories, imported only when used so an optional judge costs nothing until configured.

A factory is ``build(settings: ScorersSettings, store: Store) -> Scorer``. A name is a built-in one
(``lexical``, ``support``, ...), an evaluator of the config (``[evaluators.<kind>.<name>]``), or
``package.module:callable`` for a scorer that lives in another package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ragpulse_scorers.scorer import Scorer

if TYPE_CHECKING:
    from ragpulse_core.store import Store

    from ragpulse_scorers.settings import ScorersSettings

ScorerFactory = Callable[["ScorersSettings", "Store"], Scorer]

BUILTIN_SCORERS: dict[str, str] = {
    "lexical": "ragpulse_scorers.lexical.scorer:build",
    "support": "ragpulse_scorers.judges.support:build",
    "correctness": "ragpulse_scorers.judges.correctness:build",
    "variations": "ragpulse_scorers.judges.variations:build",
    "coverage": "ragpulse_scorers.judges.coverage:build",
    "retrieval": "ragpulse_scorers.judges.retrieval:build",
}


# The built-in scorers that ask an LLM judge, so cannot run without an endpoint.
LLM_JUDGED_SCORERS = frozenset({"support", "correctness", "variations", "coverage", "retrieval"})
ENDPOINT_HINT = "set OPENAI_BASE_URL (and OPENAI_API_KEY if it needs one), or base_url in [judge]"


class UnknownScorer(ValueError):
    """A scorer name that is neither built in nor a loadable ``module:callable``."""


class MissingJudgeEndpoint(ValueError):
    """An LLM judge was chosen and no endpoint is configured (nothing to call but the public API, keyless)."""


def is_llm_judged(name: str, settings: ScorersSettings) -> bool:
    """The scorer asks an LLM judge: a built-in LLM judge or an ``llm`` evaluator of the config."""
    return name in LLM_JUDGED_SCORERS or name in settings.evaluators.llm


def known_scorers() -> list[str]:
    return sorted(BUILTIN_SCORERS)


def load_factory(name: str) -> ScorerFactory:
    """The factory a scorer name stands for."""
    target = BUILTIN_SCORERS.get(name, name)
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        raise UnknownScorer(
            f"unknown scorer {name!r}; known scorers: {', '.join(known_scorers())},"
            " or package.module:callable for another package's scorer"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownScorer(f"scorer {name!r} cannot be loaded from {module_name}: {exc}") from exc
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise UnknownScorer(f"scorer {name!r}: {module_name} has no callable {attribute!r}")
    return factory  # type: ignore[no-any-return]


def build_scorer(name: str, settings: ScorersSettings, store: Store) -> Scorer:
    definition = settings.evaluators.definitions().get(name)
    if definition is not None:
        from ragpulse_scorers.evaluators.scorers import build_evaluator

        return build_evaluator(name, definition, settings, store)
    scorer = load_factory(name)(settings, store)
    if not isinstance(scorer, Scorer):
        raise UnknownScorer(f"scorer {name!r}: its factory returned {type(scorer).__name__}, not a Scorer")
    return scorer


def build_scorers(names: Iterable[str], settings: ScorersSettings, store: Store) -> list[Scorer]:
    """Each named scorer once, in order; two names building scorers with one ``name`` is an error."""
    scorers: list[Scorer] = []
    for name in dict.fromkeys(names):
        scorer = build_scorer(name, settings, store)
        if any(existing.name == scorer.name for existing in scorers):
            raise UnknownScorer(f"two configured scorers are both named {scorer.name!r}")
        scorers.append(scorer)
    return scorers


def check_scorers(names: Iterable[str], settings: ScorersSettings) -> None:
    """Before any side effect: every name loads, and the LLM-judged scorers among them have an endpoint."""
    chosen = list(dict.fromkeys(names))
    evaluators = settings.evaluators.definitions()
    for name in chosen:
        if name not in evaluators:
            load_factory(name)
    judged = [name for name in chosen if is_llm_judged(name, settings)]
    if judged and not settings.judge.configured:
        verb = "needs" if len(judged) == 1 else "need"
        raise MissingJudgeEndpoint(f"{', '.join(judged)} {verb} an LLM judge endpoint: {ENDPOINT_HINT}")
