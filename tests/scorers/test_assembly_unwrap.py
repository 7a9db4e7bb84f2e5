"""Questions and answers out of what instrumentors record: plain text, JSON dicts, LangChain messages and
results, GenAI message parts."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.assembly.unwrap import answer_text, question_text, string_leaves

QUESTION = "How tall is the Eiffel Tower?"
ANSWER = "330 metres."


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
    ],
)
def test_the_answer_is_found_in_every_output_shape(recorded: str) -> None:
    assert answer_text(recorded) == ANSWER


@pytest.mark.parametrize(
    "recorded",
    ["", "not json {", "[1, 2", json.dumps({"unknown": 1}), json.dumps([1, 2]), "{}", "42", "null"],
)
def test_a_value_of_no_known_shape_comes_back_as_recorded(recorded: str) -> None:
    assert question_text(recorded) == recorded
    assert answer_text(recorded) == recorded


@pytest.mark.parametrize(
    "recorded",
    [
        json.dumps([{"page_content": "Passage 0.", "metadata": {}, "type": "Document"}]),
        json.dumps([{"node": {"text": "Passage 0."}, "score": 0.5}, {"node": {"text": "Passage 1."}}]),
    ],
)
def test_retrieved_documents_are_no_answer(recorded: str) -> None:
    assert answer_text(recorded) == ""


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_any_json_gives_text_and_never_raises(value: object) -> None:
    recorded = json.dumps(value)
    assert isinstance(question_text(recorded), str)
    assert isinstance(answer_text(recorded), str)


@given(st.text())
def test_any_text_gives_text_and_never_raises(recorded: str) -> None:
    assert isinstance(question_text(recorded), str)
    assert isinstance(answer_text(recorded), str)


@given(json_values)
def test_string_leaves_are_every_string_in_the_value(value: object) -> None:
    def strings(item: object) -> list[str]:
        if isinstance(item, str):
            return [item]
        if isinstance(item, dict):
            return [s for child in item.values() for s in strings(child)]
        if isinstance(item, list):
            return [s for child in item for s in strings(child)]
        return []

    assert string_leaves(json.dumps(value)) == (
        strings(value) if isinstance(value, dict | list | str) else [json.dumps(value)]
    )


def test_deeply_nested_json_does_not_recurse_without_end() -> None:
    recorded = "[" * 5000 + "]" * 5000
    assert question_text(recorded) == recorded
