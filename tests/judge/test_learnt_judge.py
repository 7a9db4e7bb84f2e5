"""The learnt free judge as a service calls it: ``judge(answer, context=..., question=...)``."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_judge import ModelError, Verdict, judge
from ragpulse_judge.learnt import MAX_ANSWER_CHARS, LearntJudge
from ragpulse_judge.model import load_model

CONTEXT = [
    "The Eiffel Tower is 330 metres tall. It was built in 1889 for the World Fair in Paris.",
    "Gustave Eiffel's company designed and built the tower. It is repainted every seven years.",
]
QUESTION = "How tall is the Eiffel Tower?"


def test_an_answer_the_context_states_is_supported() -> None:
    verdict = judge("The Eiffel Tower is 330 metres tall. It was built in 1889.", CONTEXT, QUESTION)
    assert not verdict.hallucinated and verdict.probability < 0.5
    assert all(claim.supported for claim in verdict.claims)
    assert verdict.claims[0].evidence == "The Eiffel Tower is 330 metres tall."


def test_one_false_clause_makes_its_sentence_unsupported_and_is_shown_as_the_evidence() -> None:
    verdict = judge(
        "The tower was built in 1889 for the World Fair, and it was painted red by Picasso in 1950.",
        CONTEXT,
        QUESTION,
    )
    assert verdict.hallucinated
    (unsupported,) = verdict.unsupported
    assert unsupported.text == "and it was painted red by Picasso in 1950."
    assert unsupported.sentence.startswith("The tower was built in 1889")
    assert "picasso" in unsupported.reason and "1950" in unsupported.reason
    assert [claim.supported for claim in verdict.claims] == [True, False]


@pytest.mark.parametrize(
    "answer",
    [
        "The Eiffel Tower is 530 metres tall.",
        "The Eiffel Tower is not 330 metres tall.",
        "It is repainted every year by Picasso.",
    ],
)
def test_a_changed_number_a_flipped_negation_or_a_new_name_is_caught(answer: str) -> None:
    assert judge(answer, CONTEXT, QUESTION).hallucinated


def test_sentences_that_claim_nothing_are_not_judged() -> None:
    verdict = judge("Based on the provided context: the passages do not say. Do you want more?", CONTEXT)
    assert not verdict.hallucinated
    assert {claim.supported for claim in verdict.claims} == {None}


def test_probabilities_are_calibrated_numbers_and_the_verdict_names_its_model() -> None:
    verdict = judge("The Eiffel Tower is 330 metres tall. Tickets cost 90 euros.", CONTEXT, QUESTION)
    assert isinstance(verdict, Verdict) and verdict.version == load_model().version
    assert 0.0 <= verdict.probability <= 1.0
    assert all(0.0 <= claim.probability <= 1.0 for claim in verdict.claims if claim.probability is not None)
    # The verdict is the probability against the model's threshold, so the two never disagree.
    assert verdict.hallucinated == (verdict.probability >= load_model().threshold)


def test_context_as_one_string_is_refused_with_the_reason() -> None:
    with pytest.raises(TypeError, match="sequence of strings"):
        judge("An answer.", "one long string", QUESTION)  # type: ignore[arg-type]


def test_a_huge_answer_is_read_to_a_bound() -> None:
    answer = "The Eiffel Tower is 330 metres tall. " * 20_000
    started = time.perf_counter()
    verdict = judge(answer, CONTEXT * 2_000, QUESTION)
    assert time.perf_counter() - started < 60  # a bound on work, not a speed goal: read a prefix, not all
    assert sum(len(claim.text) for claim in verdict.claims) <= MAX_ANSWER_CHARS


@given(
    answer=st.text(alphabet=st.characters(codec="utf-8"), max_size=400),
    context=st.lists(st.text(alphabet=st.characters(codec="utf-8"), max_size=300), max_size=4),
)
def test_any_unicode_gets_a_verdict_with_probabilities_in_range(answer: str, context: list[str]) -> None:
    verdict = judge(answer, context)
    assert 0.0 <= verdict.probability <= 1.0
    assert verdict.hallucinated == any(claim.supported is False for claim in verdict.claims)


def test_a_model_file_that_does_not_fit_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text("not json")
    with pytest.raises(ModelError, match="invalid JSON"):
        load_model(path)
    shipped = load_model().as_dict()
    for change, reason in (
        ({"features": ["coverage"]}, "features are not the ones"),
        ({"weights": [math.nan] * len(shipped["weights"])}, "finite"),
        ({"threshold": 1.5}, "threshold"),
        ({"bias": "high"}, "malformed"),
    ):
        path.write_text(json.dumps({**shipped, **change}))
        with pytest.raises(ModelError, match=reason):
            LearntJudge(load_model(path))


def test_a_claim_is_judged_in_the_light_of_its_answer() -> None:
    # The same supported sentence is less certain beside one that strays from the context in many words than
    # beside one the context states.
    supported = "The Eiffel Tower is 330 metres tall."
    straying = judge(
        f"{supported} Its elevators carry seven million tourists yearly through rain, snow and summer heat.",
        CONTEXT,
        QUESTION,
    )
    faithful = judge(f"{supported} It was built in 1889 for the World Fair in Paris.", CONTEXT, QUESTION)
    assert straying.claims[0].supported and faithful.claims[0].supported
    assert straying.claims[0].probability > faithful.claims[0].probability
    assert straying.hallucinated and not faithful.hallucinated
