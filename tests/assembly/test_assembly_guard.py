"""The last check before a request is written as scorable: no serialized object and no whole prompt ever
reaches a judge, whichever dialect read it, and reprs that can be read exactly are turned into text."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from dialect_spans import raw
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_assembly import guard, rules, trace
from ragpulse_assembly.dialects import normalise
from ragpulse_assembly.model import Span, TraceSpan
from ragpulse_assembly.pyrepr import repr_text
from ragpulse_assembly.reasons import Unscorable

DOCUMENT = "Deleted files stay in the trash for 30 days before they are removed for good."
QUESTION = "How long do deleted files stay in the trash?"

SERIALIZED = [
    json.dumps({"answer": "30 days", "sources": []}),
    json.dumps([{"page_content": DOCUMENT, "metadata": {}}]),
    '{"data": {"retriever": {"query": "How long',  # cut short by a length limit
    "ChatMessage(_role=<ChatRole.ASSISTANT: 'assistant'>, _content=[TextContent(text='30 days')], _meta={})",
    "[ChatMessage(_role=<ChatRole.USER: 'user'>, _content=[TextContent(text='hi')])]",
    "Document(id=9f2, content: 'Deleted files stay in the trash for 30 days...', score: 1.2)",
    "AIMessage(content='30 days.', additional_kwargs={})",
    "page_content='Deleted files stay in the trash.' metadata={'source': 'x'}",
    json.dumps({"lc": 1, "type": "constructor", "id": ["langchain", "schema", "Document"], "kwargs": {}}),
    "[[ ## answer ## ]]\n30 days.\n\n[[ ## completed ## ]]",
]


@pytest.mark.parametrize("value", SERIALIZED)
@pytest.mark.parametrize("field", ["question", "answer", "chunk"])
def test_a_serialized_value_in_any_field_is_refused(value: str, field: str) -> None:
    values = {"question": QUESTION, "answer": "30 days.", "chunk": DOCUMENT} | {field: value}

    assert guard.problem(values["question"], values["answer"], [values["chunk"]])


def test_a_question_holding_a_chunk_is_a_whole_prompt() -> None:
    prompt = f"Answer from the context.\n\nContext:\n{DOCUMENT}\n\nQuestion: {QUESTION}"

    assert "whole prompt" in guard.problem(prompt, "30 days.", [DOCUMENT])
    assert guard.problem(QUESTION, "30 days.", [DOCUMENT]) == ""


def test_a_chunk_cut_out_of_a_printed_record_is_refused_and_a_quoted_record_is_not() -> None:
    """A loop that split a printed list of records at the wrong place gives texts running on into the next
    field's key; a document that shows a record whole (a code sample) keeps its brace before the keys."""
    for cut in (
        f"{DOCUMENT}', 'url': 'https://help.example/trash",
        f'{DOCUMENT}", "source_id": "kb-12',
    ):
        assert "cut out" in guard.problem(QUESTION, "30 days.", [cut])
    sample = "Settings are a dict: {'retention': 'thirty days', 'purge': 'nightly'} in the config file."

    assert guard.problem(QUESTION, "30 days.", [sample]) == ""


@given(
    st.sampled_from(("--", "==", "##", "**", "~~", ">>")),
    st.lists(st.sampled_from(("New", "Chunk", "Источник", "文档", "Quelle")), max_size=3),
)
def test_a_separator_line_read_as_a_chunk_is_refused(marks: str, words: list[str]) -> None:
    """A reader that kept the template's line between documents ("--New Chunk--", "=== Source ===", "-----")
    as a document of its own has the request refused; prose and a markdown heading with its text pass."""
    line = f"{marks} {' '.join(words)} {marks}" if words else marks * 3

    assert "separator line" in guard.problem(QUESTION, "30 days.", [DOCUMENT, line])
    assert guard.problem(QUESTION, "30 days.", [DOCUMENT, f"## Retention\n\n{DOCUMENT}"]) == ""


def test_a_chunk_opening_with_marks_and_a_long_run_of_letters_is_judged() -> None:
    """A paragraph of Chinese after a dash of two marks ("——") is a document, and is told from a separator
    line at once: tried word by word, four ways of cutting a run of thousands of letters would hold the
    assembly tick for hours."""
    chunk = "——" + "这是一个很长的段落" * 500

    assert guard.problem(QUESTION, "30 days.", [DOCUMENT, chunk]) == ""


def test_an_answer_may_quote_a_chunk_word_for_word() -> None:
    assert guard.problem(QUESTION, DOCUMENT, [DOCUMENT]) == ""


words = st.lists(st.sampled_from(["the", "trash", "keeps", "files", "for", "thirty", "days", "and", "then"]),
                 min_size=1, max_size=30).map(" ".join)  # fmt: skip


@given(words, words, st.lists(words, max_size=4))
def test_prose_passes(question: str, answer: str, chunks: list[str]) -> None:
    if any(len(chunk.split()) >= 6 and chunk in question for chunk in chunks):
        return
    assert guard.problem(question.capitalize() + "?", answer.capitalize() + ".", chunks) == ""


@pytest.mark.parametrize(
    ("recorded", "text"),
    [
        ("ChatMessage(_role=<ChatRole.ASSISTANT: 'assistant'>, _content=[TextContent(text=\"It's 30.\")])",
         "It's 30."),
        ("ChatMessage(_role=<ChatRole.ASSISTANT: 'assistant'>, _content=[TextContent(text='a\\nb'), "
         "TextContent(text='c')], _meta={})", "a\nb\nc"),
        ("AIMessage(content='30 days.', additional_kwargs={}, response_metadata={})", "30 days."),
        ("Document(id=None, metadata={'source': 'x'}, page_content='Trash keeps.')", "Trash keeps."),
    ],
)  # fmt: skip
def test_a_repr_python_wrote_is_read_exactly(recorded: str, text: str) -> None:
    assert repr_text(recorded) == text


@pytest.mark.parametrize(
    "recorded",
    [
        "Document(id=9f2, content: 'Deleted files stay in the trash...', score: 1.2)",  # cut, unquoted
        "ChatMessage(_role=<ChatRole.ASSISTANT: 'assistant'>, _content=[ToolCall(id='1')], _meta={})",
        "ChatMessage(_content=[TextContent(text='unterminated)])",
        "not a repr at all",
    ],
)
def test_a_repr_that_cannot_be_read_exactly_gives_nothing(recorded: str) -> None:
    assert repr_text(recorded) is None


def test_a_dialect_that_passes_a_repr_on_as_text_still_gets_the_request_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    llm = raw(
        {
            "gen_ai.operation.name": "chat",
            "gen_ai.input.messages": json.dumps(
                [{"role": "system", "parts": [{"type": "text", "content": f"Context:\n{DOCUMENT}"}]},
                 {"role": "user", "parts": [{"type": "text", "content": QUESTION}]}]
            ),
            "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [{"content": "x"}]}]),
        }
    )  # fmt: skip

    def buggy(span: TraceSpan) -> Span:
        return replace(normalise(span), output_text="ChatMessage(_content=[TextContent(text='30 days.')])")

    assert rules.assemble("t", [llm]).unscorable is Unscorable.SCORABLE  # type: ignore[union-attr]
    monkeypatch.setattr(trace, "normalise", buggy)
    refused = rules.assemble("t", [llm])

    assert refused is not None and refused.unscorable is Unscorable.UNPARSEABLE
