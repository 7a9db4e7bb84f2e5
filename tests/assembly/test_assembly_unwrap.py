"""Questions and answers out of what instrumentors record: plain text, JSON dicts (nested, as Haystack's),
LangChain messages and results, GenAI message parts, Haystack ChatMessage reprs; and never a JSON object or a
repr passed on as if it were text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_assembly.unwrap import answer_text, question_text

QUESTION = "How tall is the Eiffel Tower?"
ANSWER = "330 metres."
HAYSTACK_REPLY = (
    "ChatMessage(_role=<ChatRole.ASSISTANT: 'assistant'>, _content=[TextContent(text='330 metres.')],"
    " _name=None, _meta={'model': 'gpt-4o-mini', 'index': 0})"
)


@pytest.mark.parametrize(
    "recorded",
    [
        QUESTION,
        json.dumps({"question": QUESTION}),
        json.dumps({"query": QUESTION, "k": 4}),
        json.dumps({"input": QUESTION, "chat_history": []}),
        json.dumps({"query_bundle": {"query_str": QUESTION, "embedding": None}}),
        json.dumps({"query_str": QUESTION}),
        json.dumps(QUESTION),
        json.dumps([{"role": "system", "content": "Be brief."}, {"role": "user", "content": QUESTION}]),
        json.dumps({"messages": [[{"type": "human", "data": {"content": QUESTION}}]]}),
        json.dumps(
            {
                "messages": [
                    [
                        {
                            "lc": 1,
                            "type": "constructor",
                            "id": ["langchain", "schema", "messages", "HumanMessage"],
                            "kwargs": {"content": QUESTION, "type": "human"},
                        }
                    ]
                ]
            }
        ),
        json.dumps([{"role": "user", "parts": [{"type": "text", "content": QUESTION}]}]),
        json.dumps(
            {"data": {"retriever": {"query": QUESTION, "top_k": 3}, "prompt_builder": {"question": QUESTION}}}
        ),
        json.dumps({"inputs": {"question": QUESTION}, "tags": [], "metadata": {"run": "x"}, "kwargs": {}}),
    ],
)
def test_the_question_is_found_in_every_input_shape(recorded: str) -> None:
    assert question_text(recorded) == QUESTION


@pytest.mark.parametrize(
    "recorded",
    [
        ANSWER,
        json.dumps({"answer": ANSWER, "sources": ["a"]}),
        json.dumps({"output": ANSWER}),
        json.dumps({"result": ANSWER, "source_documents": []}),
        json.dumps({"response": ANSWER, "source_nodes": []}),
        json.dumps({"generations": [[{"text": ANSWER, "type": "Generation"}]], "llm_output": None}),
        json.dumps({"type": "ai", "data": {"content": ANSWER, "usage_metadata": None}}),
        json.dumps([{"role": "user", "content": "q"}, {"role": "assistant", "content": ANSWER}]),
        json.dumps({"role": "assistant", "content": [{"type": "text", "text": ANSWER}]}),
        json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": ANSWER}]}]),
        json.dumps({"llm": {"replies": [HAYSTACK_REPLY]}}),
        json.dumps(
            {
                "retriever": {"documents": ["Document(id=1, content: 'x')"]},
                "llm": {"replies": [HAYSTACK_REPLY]},
            }
        ),
        json.dumps(
            {
                "llm": {
                    "replies": [
                        {"role": "assistant", "meta": {}, "name": None, "content": [{"text": ANSWER}]}
                    ]
                }
            }
        ),
        json.dumps(
            {"choices": [{"index": 0, "message": {"role": "assistant", "content": ANSWER}}], "model": "m"}
        ),
        HAYSTACK_REPLY,
        "AIMessage(content='330 metres.', additional_kwargs={}, response_metadata={})",
        json.dumps(
            {
                "answer_builder": {
                    "answers": [
                        {
                            "data": ANSWER,
                            "query": QUESTION,
                            "documents": [{"id": "d1", "content": "The tower is tall."}],
                        }
                    ]
                }
            }
        ),
        json.dumps(
            {"answer_builder": {"answers": [f"GeneratedAnswer(data='{ANSWER}', query='q', documents=[])"]}}
        ),
    ],
)
def test_the_answer_is_found_in_every_output_shape(recorded: str) -> None:
    assert answer_text(recorded) == ANSWER


@pytest.mark.parametrize("recorded", ["not json {", "[1, 2", "42", "null", "Paris, probably."])
def test_plain_text_comes_back_as_recorded(recorded: str) -> None:
    assert question_text(recorded) == recorded
    assert answer_text(recorded) == recorded


def test_nothing_recorded_is_empty() -> None:
    assert (question_text(""), answer_text("")) == ("", "")


@pytest.mark.parametrize(
    "recorded",
    [
        json.dumps({"unknown": 1}),
        json.dumps([1, 2]),
        "{}",
        json.dumps({"data": {"retriever": {"top_k": 3}}}),
        json.dumps(["one answer", "another answer"]),
        "ChatMessage(_role=<ChatRole.ASSISTANT: 'assistant'>, _content=[], _meta={})",
        "Document(id=abc, content: 'Paris is the capital of Fra...', meta: {})",
    ],
)
def test_a_recorded_value_with_no_text_of_known_shape_is_refused_not_passed_on(recorded: str) -> None:
    assert question_text(recorded) is None
    assert answer_text(recorded) is None


@pytest.mark.parametrize(
    "recorded",
    [
        json.dumps([{"page_content": "Passage 0.", "metadata": {}, "type": "Document"}]),
        json.dumps([{"node": {"text": "Passage 0."}, "score": 0.5}, {"node": {"text": "Passage 1."}}]),
    ],
)
def test_retrieved_documents_are_no_answer(recorded: str) -> None:
    assert answer_text(recorded) == ""


def test_the_text_of_documents_beside_the_answer_is_never_taken_for_it() -> None:
    recorded = {"retriever": {"documents": [{"id": "d1", "content": "The tower is 330 metres."}]}, "llm": {}}

    assert answer_text(json.dumps(recorded)) is None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_any_json_gives_text_or_a_refusal_and_never_raises(value: object) -> None:
    recorded = json.dumps(value)
    for found in (question_text(recorded), answer_text(recorded)):
        assert found is None or isinstance(found, str)
        if isinstance(value, dict | list) and found is not None:
            assert found != recorded


@given(st.text())
def test_any_text_gives_text_or_a_refusal_and_never_raises(recorded: str) -> None:
    for found in (question_text(recorded), answer_text(recorded)):
        assert found is None or isinstance(found, str)


def test_deeply_nested_json_does_not_recurse_without_end() -> None:
    recorded = "[" * 5000 + "]" * 5000
    assert question_text(recorded) is None
