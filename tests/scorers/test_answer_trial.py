"""Answers formatted the way assistants write them, read sentence by sentence the way a person reads them.

Each test is a family (a kind of marker, markup or script), shown with a few members; the verdicts asserted
are the ones a person gives reading the answer beside the documents.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_judge.prose.citations import strip_citations
from ragpulse_judge.rules import LexicalJudge
from ragpulse_judge.text import split_sentences
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import ContextChunk, RagRequest
from ragpulse_scorers.scorer import NotApplicable

QUESTION = "What is the refund policy for the X200 headphones?"
CONTEXT = [
    "The X200 headphones can be returned within 30 days of purchase for a full refund.",
    "Refunds are issued to the original payment method within 5 business days.",
    "Opened items incur a 10% restocking fee. The warranty lasts 2 years and excludes water damage.",
    "Full terms are published at https://example.com/refunds for every customer.",
]
RETURN = "You can return the X200 headphones within 30 days of purchase for a full refund"
PAYMENT = "Refunds go to the original payment method within 5 business days"
FALSE = "The X200 is waterproof to 50 meters"


def claims(answer: str) -> list[tuple[str, bool]]:
    """(sentence, supported) for every sentence the judge takes for a claim."""
    analysis = LexicalJudge().analyse(QUESTION, CONTEXT, answer)
    return [(claim.sentence, claim.supported) for claim in analysis.claims if claim.is_claim]


@pytest.mark.parametrize("marker", [" (1)", " (2, 4)", " (1-3)", " (12)"])
def test_a_bare_parenthesised_number_after_a_claim_is_a_marker(marker: str) -> None:
    answer = f"{RETURN}{marker}. {PAYMENT}{marker}."
    assert claims(answer) == [(f"{RETURN}.", True), (f"{PAYMENT}.", True)]


@pytest.mark.parametrize(
    "text",
    [
        "(1) Open the app and tap Refund.",
        "The value of f(1) is 3.",
        "It was founded (1998).",
        "Steps (1) and (2) run.",
    ],
)
def test_a_parenthesised_number_that_is_content_stays(text: str) -> None:
    assert strip_citations(text) == text


def test_html_paragraphs_list_items_rows_and_headings_are_units_of_their_own() -> None:
    answer = (
        f"<h2>Refund policy</h2><p>{RETURN}.</p><ul><li>{PAYMENT}</li><li>{FALSE}</li></ul>"
        "<table><tr><td>Restocking fee</td><td>10%</td></tr></table>"
    )
    assert split_sentences(answer) == [
        "Refund policy",
        f"{RETURN}.",
        PAYMENT,
        FALSE,
        "Restocking fee; 10%",
    ]
    assert claims(answer) == [
        (f"{RETURN}.", True),
        (PAYMENT, True),
        (FALSE, False),
        ("Restocking fee; 10%", True),
    ]


@pytest.mark.parametrize("lead", ["✅ ", "👉 ", "**", "“", "1️⃣ ", "¿"])
def test_a_sentence_opening_with_an_emoji_or_a_quote_is_still_a_sentence(lead: str) -> None:
    answer = f"{RETURN}! {lead}{FALSE}."
    sentences = split_sentences(answer)
    assert len(sentences) == 2, sentences
    assert [supported for _, supported in claims(answer)] == [True, False]


@pytest.mark.parametrize("capital", ["Über", "Élodie", "Ωmega", "Ärger"])
def test_a_sentence_may_start_with_any_capital_letter(capital: str) -> None:
    assert len(split_sentences(f"Das ist gut. {capital} kommt morgen.")) == 2


@pytest.mark.parametrize(
    "text",
    [
        "Dr. Smith of the U.S. office approved version 2.1 of the handbook.",
        "The X200 weighs 0.25 kg, e.g. less than a phone, and supports Bluetooth 5.3.",
        "It costs approx. 3.5 kg of shipping at $12.50 per item.",
        "See Fig. 3 and No. 7 in the Jan. issue, i.e. the latest.",
        "Version v2.1.3 fixed it... mostly.",
    ],
)
def test_abbreviations_decimals_and_versions_do_not_end_a_sentence(text: str) -> None:
    assert split_sentences(text) == [text]


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("X200耳机可在30天内退货。保修期为2年。", ["X200耳机可在30天内退货。", "保修期为2年。"]),
        (
            "返品は30日以内です！保証は2年ですか？はい。",
            ["返品は30日以内です！", "保証は2年ですか？", "はい。"],
        ),
        ("「返品は可能です。」次に進みます。", ["返品は可能です。", "次に進みます。"]),
    ],
)
def test_cjk_sentence_ends_need_no_space(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


def test_a_url_is_one_word_not_a_string_of_words_and_numbers() -> None:
    cited = f"{RETURN}, see https://example.com/refunds."
    assert claims(cited) == [(cited, True)]
    # The digits of an address are no numbers of the claim: "v2", "2024" and "30" state nothing here.
    linked = f"{RETURN} (details: https://example.com/v2/terms-2024?days=45)."
    assert claims(linked) == [(linked, True)]


@settings(max_examples=60, deadline=None)
@given(
    sentences=st.lists(
        st.sampled_from([RETURN, PAYMENT, "Opened items incur a 10% restocking fee", "Über alles gut"]),
        min_size=1,
        max_size=4,
    ),
    lead=st.sampled_from(["", "✅ ", "“", "👉 ", "(", "**"]),
    end=st.sampled_from([".", "!", "?", "。"]),
)
def test_each_sentence_is_found_once_whatever_opens_it(sentences: list[str], lead: str, end: str) -> None:
    text = " ".join(f"{lead}{sentence}{end}" for sentence in sentences)
    assert len(split_sentences(text)) == len(sentences)


@pytest.mark.parametrize(
    "pointer",
    [
        "See [the refund page](https://example.com/r) for details.",
        "For more information, visit https://example.com/help.",
        "Please refer to the customer handbook for further details.",
        "You can check out www.example.com/support for more info.",
    ],
)
def test_a_sentence_that_only_points_to_a_source_claims_nothing(pointer: str) -> None:
    assert claims(f"{RETURN}. {pointer}") == [(f"{RETURN}.", True)]


@pytest.mark.parametrize(
    "advice",
    [
        f"See the refund page for details, which say that {FALSE[0].lower()}{FALSE[1:]}.",
        "Visit the store on Sundays to get a 50% discount.",
    ],
)
def test_a_pointer_with_a_claim_in_it_is_judged(advice: str) -> None:
    assert claims(advice) == [(advice, False)]


@pytest.mark.parametrize(
    "sources",
    [
        "Sources:\n- returns.pdf\n- https://example.com/refunds\n[1] payments.md",
        "**References**\n1. Returns policy, returns.pdf\n2. Payments FAQ (https://example.com/faq)",
        "## Sources\n[^1]: returns.pdf, p. 2\n[^2]: [Refund terms](https://example.com/terms)",
    ],
)
def test_a_closing_list_of_sources_is_not_judged(sources: str) -> None:
    assert claims(f"{RETURN} [1].\n\n{sources}") == [(f"{RETURN}.", True)]


@pytest.mark.parametrize(
    "entry",
    [
        f"- returns.pdf: {FALSE[0].lower()}{FALSE[1:]}.",
        f"- {FALSE} (https://example.com/specs).",
        f"[2] specs.md - {FALSE[0].lower()}{FALSE[1:]}.",
    ],
)
def test_a_claim_hidden_in_the_list_of_sources_is_judged(entry: str) -> None:
    answer = f"{RETURN} [1].\n\nSources:\n- [1] returns.pdf\n{entry}"
    assert (f"{RETURN}.", True) in claims(answer)
    assert LexicalJudge().judge_support(QUESTION, CONTEXT, answer).hallucinated


CHINESE_QUESTION = "X200耳机的退货政策是什么？"
CHINESE_CONTEXT = ["X200耳机可在购买后30天内退货并获得全额退款。", "保修期为2年，不包括进水损坏。"]


@pytest.mark.parametrize(
    ("answer", "supported"),
    [
        ("X200耳机可在30天内退货。", True),
        ("保修期为2年。", True),
        ("X200耳机防水深度达50米。", False),
        ("X200耳机可在购买后90天内退货。", False),
    ],
)
def test_chinese_answers_are_judged_against_chinese_documents(answer: str, supported: bool) -> None:
    analysis = LexicalJudge().analyse(CHINESE_QUESTION, CHINESE_CONTEXT, answer)
    assert [claim.supported for claim in analysis.claims] == [supported]


def lexical_request(answer: str, chunks: list[str]) -> RagRequest:
    return RagRequest(
        trace_id="t1",
        timestamp=datetime.now(UTC),
        question=QUESTION,
        answer=answer,
        context=[ContextChunk(id=f"c{i}", text=text, rank=i) for i, text in enumerate(chunks, 1)],
    )


@pytest.mark.parametrize(
    "answer",
    [
        "Die X200 Kopfhörer können in 30 Tagen zurückgegeben werden. Die Garantie beträgt 2 Jahre.",
        "Les écouteurs X200 peuvent être retournés sous 30 jours. La garantie dure 2 ans.",
        "Los auriculares X200 se pueden devolver en 30 días y la garantía es de 2 años para el cliente.",
        "X200耳机可在30天内退货。保修期为2年。",
    ],
)
def test_an_answer_in_another_language_than_its_documents_is_not_scored_and_says_why(answer: str) -> None:
    with pytest.raises(NotApplicable, match="cannot judge across languages"):
        LexicalScorer().score(lexical_request(answer, CONTEXT))


@pytest.mark.parametrize(
    "answer",
    [
        f"{RETURN}. The Kundendienst calls it the Rückgaberecht.",
        "Refunds take 5 business days, c'est la vie.",
        "Das ist gut.",
    ],
)
def test_a_foreign_word_or_short_phrase_does_not_stop_scoring(answer: str) -> None:
    assert LexicalScorer().score(lexical_request(answer, CONTEXT))


@settings(max_examples=80, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(["refunds", "take", "five", "days", "Alaska", "X200", "returns"]), min_size=2
    ),
    numbers=st.lists(st.integers(min_value=1, max_value=999), min_size=1, max_size=3),
    end=st.sampled_from([".", "!", ",", ";", ""]),
)
def test_a_parenthesised_marker_before_punctuation_leaves_the_words_and_the_punctuation(
    words: list[str], numbers: list[int], end: str
) -> None:
    sentence = " ".join(words)
    marker = "(" + ", ".join(map(str, numbers)) + ")"
    assert strip_citations(f"{sentence} {marker}{end}") == f"{sentence}{end}"
    # At the start of a line it numbers an item: it stays.
    assert strip_citations(f"{marker} {sentence}{end}") == f"{marker} {sentence}{end}"


@pytest.mark.parametrize("emphasis", ["_{}_", "__{}__", "*{}*", "**{}**"])
def test_a_marker_glued_to_an_emphasised_word_is_a_marker(emphasis: str) -> None:
    answer = f"You can return the X200 headphones within 30 days for a full {emphasis.format('refund')}[1]."
    assert claims(answer) == [("You can return the X200 headphones within 30 days for a full refund.", True)]


def test_an_index_glued_to_code_stays() -> None:
    assert (
        strip_citations("Read self._items_[2] and my_var[1] first.")
        == "Read self._items_[2] and my_var[1] first."
    )
