"""Random document sets embedded in random containers, nested or not, are recovered exactly or refused with
the prompt marked not separable: never half-recovered (a document with markup or metadata left in it, one
missing, or an instruction taken for one)."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.prompt_context import read_prompt

S, U, T = Role.SYSTEM, Role.USER, Role.TOOL
WORDS = [
    "trash", "files", "folder", "guest", "link", "plan", "storage", "upload", "browser", "device", "offline",
    "owner", "workspace", "admin", "code", "version", "history", "backup", "account", "deletion", "grace",
    "period", "sync", "copy", "edit", "member", "app", "desktop", "limit", "block",
]  # fmt: skip
INSTRUCTIONS = [
    "You are the help-centre assistant.",
    'Cite sources by id, e.g. <source id="1">, and never invent one.',
    "Answer in one sentence and stay polite.",
    "If the answer is not in the documents, say you do not know.",
    "Respond in the language of the question.",
]
sentences = st.builds(
    lambda words, end: " ".join([words[0].capitalize(), *words[1:]]) + end,
    st.lists(st.sampled_from(WORDS), min_size=3, max_size=10),
    st.sampled_from([".", " today.", " for 30 days."]),
)
documents = st.lists(
    st.lists(sentences, min_size=1, max_size=3).map(" ".join), min_size=1, max_size=5, unique=True
)
questions = st.builds(
    lambda words: "How does the " + " ".join(words) + " work?",
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=5),
)
instructions = st.lists(st.sampled_from(INSTRUCTIONS), min_size=1, max_size=3, unique=True).map(" ".join)

Container = Callable[[list[str]], str]


def _n(docs: list[str]) -> list[tuple[int, str]]:
    return list(enumerate(docs, 1))


def _xml(outer: str, inner: str, metadata: bool) -> Container:
    def render(docs: list[str]) -> str:
        def one(n: int, doc: str) -> str:
            if metadata:
                return (
                    f'<{inner} index="{n}"><source>file-{n}.md</source>'
                    f"<document_content>{doc}</document_content></{inner}>"
                )
            return f'<{inner} id="{n}">{doc}</{inner}>'

        return f"<{outer}>\n" + "\n".join(one(n, d) for n, d in enumerate(docs, 1)) + f"\n</{outer}>"

    return render


CONTAINERS: dict[str, Container] = {
    "xml documents/document": _xml("documents", "document", metadata=True),
    "xml context/source": _xml("context", "source", metadata=False),
    "xml search_results/result": _xml("search_results", "result", metadata=False),
    "json list": lambda d: json.dumps([{"title": f"t{n}", "content": doc} for n, doc in enumerate(d)]),
    "fenced with labels": lambda d: "\n\n".join(f'Source: file-{n}.md\n"""\n{x}\n"""' for n, x in _n(d)),
    "code fences": lambda d: "Documents:\n" + "\n\n".join(f"```\n{doc}\n```" for doc in d),
    "dashes under a header": lambda d: "Context:\n---\n" + "\n---\n".join(d) + "\n---",
    "equals runs": lambda d: "Use only the passages below.\n=====\n" + "\n=====\n".join(d) + "\n=====",
    "brackets": lambda d: "\n".join(f"[{n}] {doc}" for n, doc in enumerate(d, 1)),
    "Document n:": lambda d: "\n\n".join(f"Document {n}: {doc}" for n, doc in enumerate(d, 1)),
    "numbered list under a header": lambda d: "Sources:\n" + "\n".join(f"{n}. {x}" for n, x in _n(d)),
    "bullets under a header": lambda d: "Retrieved documents:\n" + "\n".join(f"- {doc}" for doc in d),
    "markdown headings": lambda d: "## Sources\n\n" + "\n\n".join(f"### file-{n}.md\n{x}" for n, x in _n(d)),
    "llamaindex metadata lines": lambda d: (
        "Context information is below.\n---------------------\n"
        + "\n\n".join(f"page_label: {n}\nfile_name: file-{n}.pdf\n\n{doc}" for n, doc in enumerate(d, 1))
        + "\n---------------------\nGiven the context information and not prior knowledge, answer the query."
    ),
    "record tree": lambda d: "Here is the knowledge base:\n" + "\n".join(
        f"\nID: {n}\n├── Title: file-{n}.md\n└── Content:\n{doc}" for n, doc in enumerate(d)
    ) + "\nThe above is the knowledge base.",
    "a header in Spanish, closed": lambda d: (
        "Aquí está la base de conocimientos:\n"
        + "\n\n".join(d)
        + "\nLo anterior es la base de conocimientos."
    ),
    "a header in Chinese": lambda d: "以下是知识库：\n" + "\n\n".join(d),
    "after the instructions": lambda d: "Use the following pieces of context to answer.\n\n" + "\n\n".join(d),
}  # fmt: skip


def _placed(where: str, block: str, preamble: str, question: str, docs: list[str]) -> list[Message]:
    if where == "system, question alone":
        return [Message(S, f"{preamble}\n\n{block}"), Message(U, question)]
    if where == "user, question after":
        return [Message(U, f"{preamble}\n\n{block}\n\nQuestion: {question}\nAnswer:")]
    if where == "nested in a context tag":
        return [Message(S, f"{preamble}\n<context>\n{block}\n</context>"), Message(U, question)]
    if where == "one system message each":
        followed = [Message(S, f"{preamble} Use the documents that follow."), *(Message(S, d) for d in docs)]
        return [*followed, Message(U, question)]
    return [Message(S, preamble), Message(U, question), Message(T, block)]


PLACES = ["system, question alone", "user, question after", "nested in a context tag",
          "one system message each", "a tool's result"]  # fmt: skip


@settings(max_examples=300)
@given(st.sampled_from(sorted(CONTAINERS)), st.sampled_from(PLACES), documents, questions, instructions)
def test_documents_in_any_container_are_recovered_exactly_or_refused(
    container: str, where: str, docs: list[str], question: str, preamble: str
) -> None:
    messages = _placed(where, CONTAINERS[container](docs), preamble, question, docs)

    reading = read_prompt(messages)

    assert reading.chunks in (tuple(docs), ())
    if reading.chunks:
        assert reading.question == question
    else:
        assert reading.not_separable


THREE = [
    "Deleted files stay in the trash for 30 days.",
    "Only the owner of a file can restore it. Shared folders keep their own trash.",
    "Admins can empty the trash of any workspace member.",
]


def test_every_container_in_every_place_is_recovered_not_only_refused() -> None:
    """The exact-or-refused property would hold for a parser that refuses everything: each container in
    each place must give its documents."""
    question = "How long do deleted files stay in the trash?"
    missed = []
    for container, render in CONTAINERS.items():
        for where in PLACES:
            reading = read_prompt(_placed(where, render(THREE), INSTRUCTIONS[1], question, THREE))
            if (reading.chunks, reading.question) != (tuple(THREE), question):
                missed.append((container, where, reading))
    assert missed == []


def test_instructions_between_rules_or_in_several_system_messages_are_no_documents() -> None:
    ruled = [Message(S, "You give information about plans.\n---\nRules:\n- Be nice.\n- Be brief.\n---"),
             Message(U, "Which plan is cheapest?")]  # fmt: skip
    several = [
        Message(S, "You are a helpful assistant with information about plans."),
        Message(S, "Current date: 26 November 2026."),
        Message(S, "The user is on the Business plan and prefers short answers."),
        Message(U, "Which plan is cheapest?"),
    ]

    assert read_prompt(ruled).chunks == ()
    assert read_prompt(several).chunks == ()
