"""The lexical judge on crafted claims: what it calls supported, what not, and why."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_scorers.evaluation.datasets import SupportExample
from ragpulse_scorers.lexical import LexicalJudge
from ragpulse_scorers.lexical.tokens import normalise_number, sentence_features
from ragpulse_scorers.lexical.tuning import grid_search

CONTEXT = [
    "Automotive technicians in Alaska earn about $23.70 per hour or $49,400 per year. "
    "Technicians in aerospace manufacturing earn more.",
    "The museum is open on Mondays. Admission is free for children under 12.",
]
QUESTION = "How much do automotive technicians earn?"


def judge(response: str) -> tuple[bool, list[str]]:
    verdict = LexicalJudge().judge_support(QUESTION, CONTEXT, response)
    return verdict.hallucinated, [s.evidence for s in verdict.sentences]


def test_a_claim_repeating_the_context_is_supported_with_its_evidence() -> None:
    hallucinated, evidence = judge("Technicians in Alaska earn about $23.70 per hour or $49,400 per year.")
    assert not hallucinated
    assert evidence == ["Automotive technicians in Alaska earn about $23.70 per hour or $49,400 per year."]


def test_a_changed_number_is_unsupported() -> None:
    hallucinated, _ = judge("Technicians in Alaska earn about $31.20 per hour or $49,400 per year.")
    assert hallucinated


def test_numbers_match_whatever_their_formatting() -> None:
    assert normalise_number("$49,400") == normalise_number("49400") == normalise_number("49400.00")
    assert not judge("Technicians in Alaska earn about 23.7 dollars per hour, or 49400 a year.")[0]


def test_a_flipped_negation_is_unsupported() -> None:
    hallucinated, _ = judge("The museum is not open on Mondays.")
    assert hallucinated
    assert not judge("The museum is open on Mondays.")[0]


def test_a_paraphrase_is_supported() -> None:
    assert not judge("Children younger than 12 get free admission to the museum.")[0]


def test_an_unknown_name_is_unsupported() -> None:
    assert judge("Technicians in aerospace manufacturing, such as Boeing, earn more.")[0]


def test_an_invented_claim_is_unsupported() -> None:
    assert judge("Mechanics usually receive stock options and a company car after probation.")[0]


def test_hedges_questions_and_remarks_about_the_context_make_no_claim() -> None:
    for response in (
        "I don't know.",
        "The context does not say how much mechanics earn in Texas.",
        "Unfortunately, the passages do not mention bonuses.",
        "Would you like to know more?",
        "Sure!",
    ):
        verdict = LexicalJudge().judge_support(QUESTION, CONTEXT, response)
        assert not verdict.hallucinated, response
        assert verdict.support_score == 1.0


def test_support_score_is_the_weakest_claim() -> None:
    verdict = LexicalJudge().judge_support(
        QUESTION, CONTEXT, "The museum is open on Mondays. Mechanics get a company car and stock options."
    )
    assert verdict.hallucinated
    assert verdict.support_score == min(s.score for s in verdict.sentences)
    assert [s.supported for s in verdict.sentences] == [True, False]


def test_utilization_counts_the_chunks_and_characters_drawn_on() -> None:
    analysis = LexicalJudge().analyse(QUESTION, CONTEXT, "The museum is open on Mondays.")
    assert analysis.chunk_utilization == 0.5
    used = len("The museum is open on Mondays.")
    total = sum(len(s.text) for s in analysis.index.sentences)
    assert analysis.character_utilization == used / total


def test_empty_response_and_empty_context() -> None:
    assert LexicalJudge().judge_support(QUESTION, CONTEXT, "").support_score == 1.0
    assert LexicalJudge().judge_support(QUESTION, [], "Mechanics earn $40 an hour.").hallucinated


def test_stopwords_and_references_are_not_content() -> None:
    features = sentence_features("According to passage 2, the rates are rising (Document 3).")
    assert features.content == {"rat", "ris"}
    assert features.numbers == set()


@settings(max_examples=50)
@given(st.text(max_size=300), st.lists(st.text(max_size=300), max_size=4))
def test_any_text_gets_a_verdict_with_scores_in_range(response: str, context: list[str]) -> None:
    verdict = LexicalJudge().judge_support("q?", context, response)
    assert 0.0 <= verdict.support_score <= 1.0
    assert all(0.0 <= s.score <= 1.0 for s in verdict.sentences)


def test_grid_search_finds_parameters_that_separate_labelled_responses() -> None:
    examples = [
        SupportExample(str(i), "g", QUESTION, CONTEXT, response, hallucinated)
        for i, (response, hallucinated) in enumerate(
            [
                ("Technicians in Alaska earn about $23.70 per hour.", False),
                ("The museum is open on Mondays.", False),
                ("Technicians in Alaska earn about $95 per hour.", True),
                ("Mechanics receive stock options and a company car.", True),
            ]
        )
    ]
    result = grid_search(examples)
    assert result.balanced_accuracy == 1.0
    assert [LexicalJudge(result.params).judge_support(QUESTION, CONTEXT, e.response).hallucinated
            for e in examples] == [False, False, True, True]  # fmt: skip
