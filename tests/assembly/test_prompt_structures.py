"""Containers found by structure, whatever their names: cases a held-out trial of templates nobody had written
rules for brought up (Bedrock's search results, JSON Lines under a heading, a markdown table, a German
announcement, torn labels). Each gives its documents exactly, or is refused; never half."""

from __future__ import annotations

import json

import pytest
from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.prompt_context import read_prompt

QUESTION = "How long is the warranty on the X200 vacuum?"
DOCS = [
    "The X200 vacuum comes with a two-year limited warranty covering the motor and battery.",
    "Filters and brushes are consumables and are not covered by the warranty.",
    "Warranty claims must be filed through the support portal with the original receipt.",
]


def repeated_elements(tag: str, text_tag: str) -> list[tuple[Role, str]]:
    results = "".join(
        f"<{tag}>\n<{text_tag}>{doc}</{text_tag}>\n<url>https://kb.example/{n}</url>\n</{tag}>\n"
        for n, doc in enumerate(DOCS)
    )
    prompt = f"Answer from the results.\n<results>\n{results}</results>\n<question>{QUESTION}</question>"
    return [(Role.USER, prompt)]


CASES = {
    "repeated elements, a known text tag": repeated_elements("search_result", "content"),
    "repeated elements, no known names": repeated_elements("hit", "passage_text"),
    "JSON Lines under a heading": [
        (Role.SYSTEM, "## Documents\n" + "\n".join(json.dumps({"title": f"S{n}", "snippet": d}) for n, d in
                                                   enumerate(DOCS))),
        (Role.USER, QUESTION),
    ],
    "a markdown table with a text column": [
        (Role.SYSTEM, "Answer from the table only.\n\n| # | passage |\n|---|---|\n"
         + "\n".join(f"| {n} | {d} |" for n, d in enumerate(DOCS))),
        (Role.USER, QUESTION),
    ],
    "documents after a German announcement": [
        (Role.SYSTEM, "Beantworte die Frage nur anhand der folgenden Auszüge.\n\n" + "\n\n".join(DOCS)),
        (Role.USER, f"Frage: {QUESTION}"),
    ],
    "labels naming a source": [
        (Role.SYSTEM, "Context:\n\n" + "\n\n".join(f"[Source {n}: handbook section {n}]\n{d}"
                                                     for n, d in enumerate(DOCS, 1))),
        (Role.USER, QUESTION),
    ],
    "a list after a line pointing at 'these notes:'": [
        (Role.USER, f"{QUESTION}\n\nAnswer using only these notes:\n\n" + "\n".join(f"* {d}" for d in DOCS)),
    ],
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_documents_come_out_exactly_whatever_their_containers_are_called(name: str) -> None:
    reading = read_prompt([Message(role, text) for role, text in CASES[name]])

    assert list(reading.chunks) == DOCS
    assert reading.question.removeprefix("Frage: ") == QUESTION


def test_repeated_examples_in_the_instructions_are_no_documents() -> None:
    examples = "".join(f"<example>\nQ: q{n}\nA: a{n}\n</example>\n" for n in range(3))
    messages = [Message(Role.SYSTEM, f"Answer like these.\n<examples>\n{examples}</examples>"),
                Message(Role.USER, QUESTION)]  # fmt: skip

    assert read_prompt(messages).chunks == ()


@pytest.mark.parametrize("leftover", ["<search_result>\nThe X200 vacuum ...", "handbook section 1]"])
def test_a_chunk_with_a_leftover_tag_or_a_torn_label_refuses_the_reading(leftover: str) -> None:
    listed = f"Documents:\n1. {leftover}\n2. {DOCS[1]}"
    messages = [Message(Role.SYSTEM, listed), Message(Role.USER, QUESTION)]

    reading = read_prompt(messages)

    assert reading.chunks == () and reading.not_separable
