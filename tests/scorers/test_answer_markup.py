"""Answers as models write them: citation markers, markdown, preambles and quotation marks change no verdict.

The lexical judge and the LLM judges' sentence keys read the prose; the markup around it is neither a claim
nor evidence. A number inside a marker is never a claimed number, and a marker never adds content words.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_judge.text import split_sentences, text_segments
from ragpulse_scorers.judges.keys import key_documents
from ragpulse_scorers.lexical import LexicalJudge
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import ContextChunk, RagRequest

# No document holds the numbers 1 to 9 or the words "doc", "file", "source": a marker that leaks into the
# claim shows as a missing number or an uncovered word.
CONTEXT = [
    "Automotive technicians in Alaska earn about $23.70 per hour or $49,400 per year. "
    "Technicians in aerospace manufacturing earn more than those in repair shops.",
    "Most shops pay technicians a flat rate for each repair job. "
    "Dealerships often add commission on parts sold to customers.",
]
QUESTION = "How are automotive technicians paid?"
FAITHFUL = [
    "Automotive technicians in Alaska earn about $23.70 per hour or $49,400 per year.",
    "Technicians in aerospace manufacturing earn more than those in repair shops.",
    "Most shops pay technicians a flat rate for each repair job.",
    "Dealerships often add commission on parts sold to customers.",
]
FABRICATED = [
    "Mechanics usually receive stock options and a company car after probation.",
    "Automotive technicians in Alaska earn about $91.20 per hour or $49,400 per year.",
    "Technicians at Boeing earn more than those in repair shops.",
]


def verdict(response: str) -> tuple[bool, list[str]]:
    found = LexicalJudge().judge_support(QUESTION, CONTEXT, response)
    return found.hallucinated, [sentence.sentence for sentence in found.sentences]


def scores(response: str) -> dict[str, float]:
    request = RagRequest(
        trace_id="t1",
        timestamp=dt.datetime.now(),
        question=QUESTION,
        answer=response,
        context=[ContextChunk(id=f"doc-{i}", text=text, rank=i + 1) for i, text in enumerate(CONTEXT)],
    )
    return {score.metric: score.value for score in LexicalScorer().score(request) if score.value is not None}


@pytest.mark.parametrize("answer", [f"[1] {FAITHFUL[0]}", f"{FAITHFUL[0][:-1]} [1].", f"{FAITHFUL[0]}[1]"])
def test_a_verbatim_copy_cited_as_1_is_grounded_and_uses_the_context(answer: str) -> None:
    found = scores(answer)
    assert found["hallucination"] == 0.0
    assert found["utilization"] > 0
    assert found["context_utilization"] > 0


MARKERS = [
    "[1]", "[2][3]", "[1, 3]", "[1-3]", "[^1]", "[^note-2]", "[doc1]", "[doc_2]", "[Document 3]", "[ID:0]",
    "[Source 2]",
    "[source: pay_guide.pdf]", "[pay_guide.pdf]", "[3:0†pay_guide.pdf]", "[1†source]", "【4:0†file.md】",
    "【1†source】", "【7】", "(Source: file.md)", "(Sources: a.md, b.pdf)", "(source 2)", "(see Document 2)",
    "(Passages 1 and 3)", "(doc1)", "(mentioned in passage 4)", "^[1]^", "^2^", "¹", "²³",
    "<sup>4</sup>", "<sup>[5]</sup>", "[https://example.com/pay]", "([6])",
]  # fmt: skip


@pytest.mark.parametrize("marker", MARKERS)
def test_a_citation_marker_is_neither_a_number_nor_content(marker: str) -> None:
    for answer in (f"{FAITHFUL[0][:-1]} {marker}.", f"{FAITHFUL[0]}{marker}", f"{FAITHFUL[2][:-1]}{marker}."):
        hallucinated, sentences = verdict(answer)
        assert not hallucinated, answer
        assert sentences == [answer.replace(marker, "").replace(" .", ".")], answer


@pytest.mark.parametrize("marker", ["[1]", "【4:0†file.md】", "[doc1]", "(Source: file.md)", "^[1]^"])
def test_a_fabricated_claim_with_a_marker_is_still_caught(marker: str) -> None:
    for claim in FABRICATED:
        assert verdict(f"{FAITHFUL[0]} {claim[:-1]} {marker}.")[0], claim


def test_content_in_brackets_is_read_as_content() -> None:
    code_context = [
        "Use rows[0].name to read the first name. The price was 5 [sic] dollars [citation needed]."
    ]
    judge = LexicalJudge()

    def hallucinated(answer: str) -> bool:
        return judge.judge_support("How do I read a name?", code_context, answer).hallucinated

    assert not hallucinated("Use rows[0].name to read the first name.")
    assert not hallucinated("Use `rows[0].name` to read the first name.")
    # An index glued to code is not a marker: rows[3] is a claim the context does not make.
    assert hallucinated("Use rows[3].name to read the first name.")
    assert hallucinated("Use `rows[3].name` to read the first name.")
    assert split_sentences("The price was 5 [sic] dollars [citation needed].") == ["The price was 5 dollars."]
    assert split_sentences("The [optional] flag and a [Warning] note.") == [
        "The [optional] flag and a [Warning] note."
    ]


def test_markdown_items_headings_and_emphasis_are_claims_without_their_markup() -> None:
    answer = (
        "## Technician pay\n\n"
        "Based on the provided context, here is what I found:\n\n"
        "- **Automotive technicians** in Alaska earn about *$23.70 per hour* or $49,400 per year\n"
        "- Most shops pay technicians a `flat rate` for each repair job\n"
        "  * Dealerships often add commission on parts sold to [customers](https://example.com/c)\n"
    )
    segments = text_segments(answer)
    assert [(s.text, s.label) for s in segments] == [
        ("Technician pay", True),
        ("Based on the provided context, here is what I found:", False),
        ("Automotive technicians in Alaska earn about $23.70 per hour or $49,400 per year", False),
        ("Most shops pay technicians a flat rate for each repair job", False),
        ("Dealerships often add commission on parts sold to customers", False),
    ]
    found = LexicalJudge().judge_support(QUESTION, CONTEXT, answer)
    assert not found.hallucinated
    reasons = LexicalJudge().analyse(QUESTION, CONTEXT, answer).claims
    assert [claim.is_claim for claim in reasons] == [False, False, True, True, True]


def test_a_bullet_list_without_full_stops_is_one_claim_per_item() -> None:
    answer = "Technicians are paid:\n- a flat rate for each repair job\n"
    answer += "- commission on parts sold\n- stock options"
    assert split_sentences(answer)[1:] == [
        "a flat rate for each repair job",
        "commission on parts sold",
        "stock options",
    ]
    found = LexicalJudge().judge_support(QUESTION, CONTEXT, answer)
    assert [s.supported for s in found.sentences] == [True, True, True, False]


def test_a_table_reads_as_one_claim_per_row_under_a_header_label() -> None:
    answer = (
        "| Where | Hourly pay | Source |\n|---|---:|---|\n"
        "| Technicians in Alaska | $23.70 | [1] |\n"
        "| Technicians in aerospace manufacturing | more | doc2.md |\n"
    )
    assert [(s.text, s.label) for s in text_segments(answer)] == [
        ("Where; Hourly pay; Source", True),
        ("Technicians in Alaska; $23.70", False),
        ("Technicians in aerospace manufacturing; more", False),
    ]
    assert not verdict(answer)[0]
    assert verdict(answer + "| Technicians in Texas | $95.00 | [1] |\n")[0]


def test_a_preamble_makes_no_claim_and_a_clause_that_states_something_stays() -> None:
    for preamble in (
        "Based on the provided context, here is the answer to your question:",
        "According to the documents:",
        "Here's a summary of what the search results show.",
        "Sure! Based on the retrieved passages, here are the key points.",
    ):
        found = LexicalJudge().analyse(QUESTION, CONTEXT, preamble)
        assert not any(claim.is_claim for claim in found.claims), preamble
    assert not verdict(f"According to the documents, {FAITHFUL[1][0].lower()}{FAITHFUL[1][1:]}")[0]
    assert not verdict(f"Based on the provided context: {FAITHFUL[3]}")[0]
    # "In 2019," and "According to Smith," state something: the year and the name must be in the context.
    assert verdict(f"In 2019, {FAITHFUL[2][0].lower()}{FAITHFUL[2][1:]}")[0]
    smith = LexicalJudge().analyse(
        QUESTION, CONTEXT, f"According to Smith, {FAITHFUL[2][0].lower()}{FAITHFUL[2][1:]}"
    )
    assert "names not in the context: smith" in smith.claims[0].reason


def test_quotation_marks_change_nothing() -> None:
    for answer in (f"“{FAITHFUL[0]}”", f'"{FAITHFUL[1]}"', f"The guide says: ‘{FAITHFUL[2]}’"):
        assert not verdict(answer)[0], answer
    assert split_sentences("He said “It works.” Then “It stops.”") == ["He said It works.", "Then It stops."]


def test_a_closing_list_of_sources_is_dropped_but_a_claim_under_it_is_not() -> None:
    listed = (
        f"{FAITHFUL[0]} [1]\n\n**Sources:**\n1. [pay_guide.pdf](https://example.com/pay.pdf)\n"
        "2. [2] Automotive pay report, chapter 4\n- https://example.com/shops\n"
    )
    assert split_sentences(listed) == [FAITHFUL[0]]
    assert split_sentences(f"{FAITHFUL[0]}\n\nReferences: [1], [2]") == [FAITHFUL[0]]
    assert split_sentences(f"{FAITHFUL[0]}\n\n[^1]: pay_guide.pdf, page 3") == [FAITHFUL[0]]
    hidden = f"{FAITHFUL[0]}\n\nSources:\n- [1] pay.md\n- {FABRICATED[0]}"
    assert verdict(hidden)[0]


def test_document_keys_are_sentences_and_items_without_markup() -> None:
    document = (
        "# Pay guide\n\nTechnicians earn $23.70 per hour [1].\n\n"
        "- flat rate for each job\n- **commission** on parts\n\n"
        "| State | Pay |\n|---|---|\n| Alaska | $23.70 |"
    )
    keyed = key_documents([document])
    assert [(k.key, k.text) for k in keyed] == [
        ("0a", "Pay guide"),
        ("0b", "Technicians earn $23.70 per hour."),
        ("0c", "flat rate for each job"),
        ("0d", "commission on parts"),
        ("0e", "State; Pay"),
        ("0f", "Alaska; $23.70"),
    ]


def test_a_markdown_context_is_evidence_item_by_item() -> None:
    context = ["## Pay\n\n- **Alaska**: about $23.70 per hour [1]\n- Texas: about $19.10 per hour [2]"]
    found = LexicalJudge().judge_support(
        "What is the pay?", context, "In Texas, pay is about $19.10 per hour."
    )
    assert not found.hallucinated
    assert found.sentences[0].evidence == "Texas: about $19.10 per hour"


def _number(n: int) -> st.SearchStrategy[str]:
    return st.sampled_from([str(n), f"{n}, {n + 1}", f"{n}-{n + 2}"])


_MARKER = st.integers(1, 12).flatmap(
    lambda n: st.one_of(
        _number(n).map(lambda s: f"[{s}]"),
        st.sampled_from(["doc", "Doc ", "Document ", "source ", "passage ", "^"]).map(lambda w: f"[{w}{n}]"),
        st.sampled_from(["file.md", "guide.pdf", "notes.txt", "source"]).map(
            lambda f: f"【{n}:{n % 3}†{f}】"
        ),
        st.sampled_from(["file.md", "a b.pdf", "source 3", "Document 2"]).map(lambda f: f"(Source: {f})"),
        st.just(f"^[{n}]^"),
        st.just("¹²³⁴⁵⁶⁷⁸⁹"[n % 9]),
    )
)


@st.composite
def marked_up(draw: st.DrawFn, sentences: list[str]) -> str:
    """``sentences`` wrapped in a random mix of markers, emphasis, bullets, headings and a preamble."""
    heading = draw(
        st.sampled_from(["", "## Answer\n\n", "**Summary**\n", "### Technician pay\n", "# Pay\n\n"])
    )
    preamble = draw(
        st.sampled_from(["", "Based on the provided context, ", "According to the documents:\n\n"])
    )
    bullet = draw(st.sampled_from(["", "- ", "* ", "1. ", "+ "]))
    lines = []
    for sentence in sentences:
        words = sentence[:-1].split(" ")
        if draw(st.booleans()):
            i = draw(st.integers(0, len(words) - 1))
            style = draw(st.sampled_from(["**{}**", "*{}*", "_{}_", "`{}`", "[{}](https://x.org/p)"]))
            words[i] = style.format(words[i])
        text = " ".join(words)
        marker = draw(_MARKER)
        end = draw(st.sampled_from(["{t} {m}.", "{t}.{m}", "{t}{m}.", "{t}. {m}"]))
        text = end.format(t=text, m=marker)
        if draw(st.booleans()):
            text = f"“{text}”"
        lines.append(bullet + text)
    body = "\n".join(lines) if bullet else " ".join(lines)
    if preamble.endswith(", ") and (bullet or body.startswith("“")):
        preamble = "Based on the provided context:\n"
    sources = draw(st.sampled_from(["", "\n\nSources:\n[1] file.md\n[2] https://example.com/pay"]))
    return heading + preamble + body + sources


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_markup_around_a_faithful_answer_changes_no_verdict(data: st.DataObject) -> None:
    sentences = data.draw(st.lists(st.sampled_from(FAITHFUL), min_size=1, max_size=4, unique=True))
    answer = data.draw(marked_up(sentences))
    plain = LexicalJudge().analyse(QUESTION, CONTEXT, " ".join(sentences))
    formatted = LexicalJudge().analyse(QUESTION, CONTEXT, answer)
    assert not formatted.hallucinated, answer
    assert [c.score for c in formatted.claims if c.is_claim] == [c.score for c in plain.claims], answer


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_fabricated_claim_in_a_marked_up_answer_is_caught(data: st.DataObject) -> None:
    sentences = data.draw(st.lists(st.sampled_from(FAITHFUL), min_size=0, max_size=3, unique=True))
    position = data.draw(st.integers(0, len(sentences)))
    sentences.insert(position, data.draw(st.sampled_from(FABRICATED)))
    answer = data.draw(marked_up(sentences))
    assert LexicalJudge().judge_support(QUESTION, CONTEXT, answer).hallucinated, answer
