"""Documents pasted into prompts, recovered exactly in every layout services use, with the user's own words
as the question; and prose with no pasted documents (instructions, numbered rules, headings) yields none."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.prompt_context import answer_of, read_prompt

S, U, A, T = Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.TOOL
WORDS = [
    "trash", "files", "folder", "guest", "link", "plan", "storage", "upload", "browser", "device", "offline",
    "owner", "workspace", "admin", "code", "version", "history", "backup", "account", "deletion", "grace",
    "period", "sync", "copy", "edit", "member", "app", "desktop", "limit", "block",
]  # fmt: skip
DSPY_SYSTEM = (
    "Your input fields are:\n1. `context` (list[str]):\n2. `question` (str):\nYour output fields are:\n"
    "1. `answer` (str):\n\n[[ ## context ## ]]\n{context}\n\n[[ ## question ## ]]\n{question}\n\n"
    "[[ ## answer ## ]]\n{answer}\n\n[[ ## completed ## ]]"
)
DSPY_RESPOND = (
    "Respond with the corresponding output fields, starting with the field `[[ ## answer ## ]]`, and then"
    " ending with the marker for `[[ ## completed ## ]]`."
)
HUB_RAG_PROMPT = (
    "You are an assistant for question-answering tasks. Use the following pieces of retrieved context to"
    " answer the question. If you don't know the answer, just say that you don't know."
)
INSTRUCTIONS = (
    "You are the help-centre assistant.",
    "Answer in one sentence.",
    "Be concise and polite.",
    "If you do not know, say so.",
    "Use only the documents given.",
    "Always cite your sources.",
)

sentences = st.builds(
    lambda words, end: " ".join([words[0].capitalize(), *words[1:]]) + end,
    st.lists(st.sampled_from(WORDS), min_size=3, max_size=12),
    st.sampled_from([".", " today.", " for 30 days."]),
)
documents = st.lists(
    st.lists(sentences, min_size=1, max_size=3).map(" ".join), min_size=1, max_size=5, unique=True
)
questions = st.builds(
    lambda words: "How does the " + " ".join(words) + " work?",
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=6),
)
instructions = st.lists(st.sampled_from(INSTRUCTIONS), min_size=0, max_size=3, unique=True).map(" ".join)

Layout = Callable[[list[str], str, str], list[Message]]


def _as_json(pasted: list[str]) -> str:
    return json.dumps([{"id": n, "text": text} for n, text in enumerate(pasted)])


def _preamble(text: str) -> str:
    return f"{text}\n\n" if text else ""


LAYOUTS: dict[str, Layout] = {
    "system context block, bare question": lambda d, q, i: [
        Message(S, f"{_preamble(i)}Context:\n" + "\n\n".join(d)),
        Message(U, q),
    ],
    "context block, then what to do with it": lambda d, q, i: [
        Message(S, "Context:\n" + "\n\n".join(d) + "\n\nIf the answer is not in the context above, say so."),
        Message(U, q),
    ],
    "documents as a JSON list": lambda d, q, i: [
        Message(S, _preamble(i) + "Documents:\n" + _as_json(d)),
        Message(U, q),
    ],
    "system context block, one document a line": lambda d, q, i: [
        Message(S, f"{_preamble(i)}Retrieved documents:\n" + "\n".join(d)),
        Message(U, q),
    ],
    "one user message, context then Question:": lambda d, q, i: [
        Message(U, f"{_preamble(i)}Context:\n" + "\n\n".join(d) + f"\n\nQuestion: {q}\nAnswer:"),
    ],
    "numbered [n] then Question:": lambda d, q, i: [
        Message(S, i or "Answer from the documents."),
        Message(U, "\n".join(f"[{n}] {doc}" for n, doc in enumerate(d, 1)) + f"\n\nQuestion: {q}"),
    ],
    "n. list under a header": lambda d, q, i: [
        Message(S, f"{_preamble(i)}Documents:\n" + "\n".join(f"{n}. {doc}" for n, doc in enumerate(d, 1))),
        Message(U, q),
    ],
    "Document n: labels": lambda d, q, i: [
        Message(S, f"{_preamble(i)}" + "\n\n".join(f"Document {n}: {doc}" for n, doc in enumerate(d, 1))),
        Message(U, q),
    ],
    "one system message per document": lambda d, q, i: [
        Message(S, i or "You are the help-centre assistant."),
        *(Message(S, f"Document {n}:\n{doc}") for n, doc in enumerate(d, 1)),
        Message(U, q),
    ],
    "one user message per doc tag": lambda d, q, i: [
        *(Message(U, f'<doc id="kb-{n}">{doc}</doc>') for n, doc in enumerate(d, 1)),
        Message(U, q),
    ],
    "doc tags and the question in one message": lambda d, q, i: [
        Message(S, i) if i else Message(S, "Be helpful."),
        Message(U, "\n".join(f"<document index='{n}'>\n{doc}\n</document>" for n, doc in enumerate(d, 1))
                   + f"\n{q}"),
    ],
    "question first, then --- delimited sources": lambda d, q, i: [
        Message(U, f"{q}\n\nUse these sources:\n---\n" + "\n---\n".join(d) + "\n---"),
    ],
    "DSPy ChatAdapter": lambda d, q, i: [
        Message(S, DSPY_SYSTEM),
        Message(U, "[[ ## context ## ]]\n" + "\n".join(f"[{n}] «{doc}»" for n, doc in enumerate(d, 1))
                   + f"\n\n[[ ## question ## ]]\n{q}\n\n{DSPY_RESPOND}"),
    ],
    "bullets under Sources:": lambda d, q, i: [
        Message(S, f"{_preamble(i)}Sources:\n" + "\n".join(f"- {doc}" for doc in d)),
        Message(U, q),
    ],
    "LangChain hub rag-prompt": lambda d, q, i: [
        Message(U, f"{HUB_RAG_PROMPT}\nQuestion: {q} \nContext: " + "\n\n".join(d) + " \nAnswer:"),
    ],
    "LlamaIndex fenced context": lambda d, q, i: [
        Message(U, "Context information is below.\n---------------------\n" + "\n\n".join(d)
                   + "\n---------------------\nGiven the context information and not prior knowledge, answer"
                   f" the query.\nQuery: {q}\nAnswer: "),
    ],
    "context tag container": lambda d, q, i: [
        Message(S, f"{_preamble(i)}<context>\n" + "\n\n".join(d) + "\n</context>"),
        Message(U, q),
    ],
    "a tool's search result": lambda d, q, i: [
        Message(S, i or "Search before you answer."),
        Message(U, q),
        Message(A, ""),
        Message(T, "\n".join(f"{n}. {doc}" for n, doc in enumerate(d, 1))),
    ],
    "earlier turns are history": lambda d, q, i: [
        Message(S, "Context:\n" + "\n\n".join(d)),
        Message(U, "Hello there."),
        Message(A, "Hello, how can I help?"),
        Message(U, q),
    ],
}  # fmt: skip


@given(st.sampled_from(sorted(LAYOUTS)), documents, questions, instructions)
def test_pasted_documents_and_the_question_are_recovered_exactly(
    layout: str, pasted: list[str], question: str, preamble: str
) -> None:
    reading = read_prompt(LAYOUTS[layout](pasted, question, preamble))

    assert reading.chunks == tuple(pasted)
    assert reading.question == question


def test_few_shot_demonstrations_before_the_last_answer_are_not_the_context() -> None:
    messages = [
        Message(S, "Answer from the context."),
        Message(U, "Context:\n[1] An old example document.\n\nQuestion: An old question?"),
        Message(A, "An old answer."),
        Message(U, "Context:\n[1] The document of this turn.\n\nQuestion: This turn's question?"),
    ]

    assert read_prompt(messages) == read_prompt(messages[-1:])
    assert read_prompt(messages).chunks == ("The document of this turn.",)


def test_a_known_question_is_never_taken_for_a_document() -> None:
    messages = [Message(U, "Context:\nThe trash keeps files for 30 days.\n\nHow long are files kept?")]

    assert read_prompt(messages).question == ""  # the last paragraph could be either
    assert read_prompt(messages, known_question="How long are files kept?").chunks == (
        "The trash keeps files for 30 days.",
    )


rules = st.lists(st.sampled_from(INSTRUCTIONS), min_size=1, max_size=4, unique=True)
headings = st.sampled_from(["Rules:", "Follow these rules about the sources:", "## Style", "Instructions:",
                            "Format your reply as follows:", "Things to remember:"])  # fmt: skip


@st.composite
def prose(draw: st.DrawFn) -> list[Message]:
    """System prompts with no pasted documents: instructions, headed and numbered or bulleted rules."""
    parts = [draw(instructions)]
    for _ in range(draw(st.integers(0, 3))):
        listed = draw(rules)
        style = draw(st.sampled_from(["numbered", "bullets", "plain"]))
        if style == "numbered":
            body = "\n".join(f"{n}. {rule}" for n, rule in enumerate(listed, 1))
        elif style == "bullets":
            body = "\n".join(f"- {rule}" for rule in listed)
        else:
            body = " ".join(listed)
        parts.append(f"{draw(headings)}\n{body}")
    return [Message(S, "\n\n".join(part for part in parts if part) or "Be helpful.")]


@given(prose(), questions)
def test_prose_without_pasted_documents_yields_no_documents(system: list[Message], question: str) -> None:
    reading = read_prompt([*system, Message(U, question)])

    assert reading.chunks == ()
    assert reading.question == question


@given(prose(), questions)
def test_a_user_message_with_instructions_and_no_documents_is_the_question_as_written(
    system: list[Message], question: str
) -> None:
    reading = read_prompt([*system, Message(U, f"Please answer briefly.\n\n{question}")])

    assert reading.chunks == ()
    assert reading.question == f"Please answer briefly.\n\n{question}"


def test_documents_without_a_question_label_leave_the_question_unknown_rather_than_guessed() -> None:
    messages = [Message(U, "Use these documents.\n\n[1] The trash keeps files.\n\nBe brief.\n\nThanks.")]

    assert read_prompt(messages).question == ""


def test_a_sectioned_answer_gives_its_answer_field() -> None:
    assert answer_of("[[ ## answer ## ]]\n30 days.\n\n[[ ## completed ## ]]") == "30 days."
    assert answer_of("[[ ## reasoning ## ]]\nThe doc says so.\n\n[[ ## answer ## ]]\n30 days.") == "30 days."
    assert answer_of("[[ ## summary ## ]]\nA.\n\n[[ ## reasoning ## ]]\nB.") is None
    assert answer_of("Plain answer.") == "Plain answer."


FAQ = [
    "Question: How do I restore a file?\nAnswer: Open its history panel and pick a version.",
    "Question: Can guests edit?\nAnswer: No, guests can only view.",
]


@given(questions, st.booleans())
def test_pasted_faq_entries_keep_their_own_question_and_answer_lines(
    question: str, in_user_message: bool
) -> None:
    context = "Context:\n" + "\n\n".join(FAQ)
    messages = (
        [Message(U, f"{context}\n\nQuestion: {question}\nAnswer:")]
        if in_user_message
        else [Message(S, context), Message(U, question)]
    )

    reading = read_prompt(messages)

    assert (reading.chunks, reading.question) == (tuple(FAQ), question)
