"""The lexical judge on crafted claims: what it calls supported, what not, and why."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_judge.text import split_sentences
from ragpulse_judge.tokens import normalise_number, sentence_features
from ragpulse_scorers.evaluation.datasets import SupportExample
from ragpulse_scorers.evaluation.lexical_tuning import grid_search
from ragpulse_scorers.lexical import LexicalJudge

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


# Context sentences whose negation sits next to other clauses and sentences sharing their words: where the
# negation rule once compared the wrong clause or the wrong sentence and flagged a verbatim copy.
NEGATED_CONTEXT = [
    'The operators "in" and "not in" test for membership. '
    "Return the lowest index in the string where substring sub is found. Return -1 if sub is not found.",
    "This can either replace an existing key value pair, or insert a new key value pair if no key exists. "
    "A raw string cannot end in an odd number of backslashes. "
    "The default argument values are stored in the function object, not in the code object.",
    "The tab character isn't copied. Every tab character in the copy becomes spaces.",
]


def test_a_verbatim_copy_of_a_sentence_with_a_negation_is_supported() -> None:
    sentences = [s for chunk in NEGATED_CONTEXT for s in split_sentences(chunk)]
    assert len(sentences) == 8
    for sentence in sentences:
        verdict = LexicalJudge().judge_support("What do strings do?", NEGATED_CONTEXT, sentence)
        assert not verdict.hallucinated, (sentence, verdict.sentences[0].evidence)
        assert verdict.sentences[0].evidence == sentence


def test_a_flipped_negation_is_unsupported_whichever_way_it_flips() -> None:
    for context, flipped in (
        ("A raw string cannot end in an odd number of backslashes.",
         "A raw string can end in an odd number of backslashes."),
        ("Return -1 if sub is not found.", "Return -1 if sub is found."),
        ("The tab character isn't copied.", "The tab character is copied."),
        ("The default values are stored in the function object.",
         "The default values are not stored in the function object."),
        ("Python checks the types of arguments at run time, but it does not convert them to strings.",
         "Python checks the types of arguments at run time, but it converts them to strings."),
    ):  # fmt: skip
        analysis = LexicalJudge().analyse("What happens?", [context], flipped)
        assert analysis.hallucinated, flipped
        assert "negation flipped" in analysis.claims[0].reason
        assert not LexicalJudge().judge_support("What happens?", [context], context).hallucinated


_SUBJECTS = ("the key", "a raw string", "the operator", "the code object", "the tab character", "the value")
_VERBS = ("is copied", "is found", "can end", "test membership", "is stored", "contains the value")
_NEGATED_VERBS = ("is not copied", "is never found", "cannot end", "isn't stored", "contains no value",
                  "does not test membership")  # fmt: skip
_TAILS = ("", " in the function object", " in an odd number", " for the key", " in the string")
_JOINS = (", and ", ", but ", "; ", " while ", " or ", ", not ")


@st.composite
def context_sentence(draw: st.DrawFn) -> str:
    clauses = [
        draw(st.sampled_from(_SUBJECTS)) + " " + draw(st.sampled_from(_VERBS + _NEGATED_VERBS))
        + draw(st.sampled_from(_TAILS))
        for _ in range(draw(st.integers(1, 3)))
    ]  # fmt: skip
    text = clauses[0]
    for clause in clauses[1:]:
        text += draw(st.sampled_from(_JOINS)) + clause
    return text[0].upper() + text[1:] + "."


@settings(max_examples=200)
@given(st.lists(context_sentence(), min_size=1, max_size=8), st.data())
def test_an_answer_copied_verbatim_from_the_context_is_never_hallucinated(
    sentences: list[str], data: st.DataObject
) -> None:
    middle = len(sentences) // 2
    context = [" ".join(sentences[:middle]), " ".join(sentences[middle:])]
    copied = data.draw(st.lists(st.sampled_from(sentences), min_size=1, max_size=4))
    verdict = LexicalJudge().judge_support("What does the code do?", context, " ".join(copied))
    assert not verdict.hallucinated, [(s.sentence, s.evidence) for s in verdict.sentences if not s.supported]
