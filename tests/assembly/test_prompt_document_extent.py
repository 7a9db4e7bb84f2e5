"""Where a pasted document ends: documents of several paragraphs (lists, code blocks, a line ending on a
colon, a heading, a rule of their own), in numbered, delimited, blank-line and JSON-in-a-sentence layouts,
come out exactly or are refused as not separable; never cut, merged or split. An empty place for documents
is no context, not an inseparable one."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.prompt_context import read_prompt

S, U, T = Role.SYSTEM, Role.USER, Role.TOOL
QUESTION = "How long are invoices kept?"
RULES = "Answer only from the documents provided. If they do not hold the answer, say so."

WORDS = (
    "invoices are kept ten years the archive stores every receipt audits need originals refunds take five"
    " days plans renew monthly Rechnungen werden aufbewahrt 发票 保存 十年 領収書 «quoted» (brackets) [ref]"
    ' "said" 42 3.5% e-mail'
)
words = st.sampled_from(WORDS.split())
sentence = st.lists(words, min_size=3, max_size=12).map(lambda w: " ".join(w).capitalize() + ".")
lead_in = st.lists(words, min_size=2, max_size=6).map(lambda w: " ".join(w).capitalize() + ":")
code = st.sampled_from(["```python\nx = 1\n\ny = 2\n```", "```bash\ntar -xzf a.tgz\n```", "```js\nf();\n```"])
numbered_list = st.lists(sentence, min_size=1, max_size=3).map(
    lambda items: "\n".join(f"{n}. {item}" for n, item in enumerate(items, 1))
)
bullet_list = st.lists(sentence, min_size=1, max_size=3).map(lambda items: "\n".join(f"- {i}" for i in items))
paragraph = st.one_of(
    st.lists(sentence, min_size=1, max_size=3).map(" ".join),
    st.tuples(lead_in, st.one_of(code, numbered_list, bullet_list)).map("\n\n".join),
)
heading = st.sampled_from(["", "## Setup\n\n", "### Notes\n\n", "# Überblick\n\n"])
# A chunk opens with its section's heading, if it has one (splitters cut at headings): a document holding two
# headings of one rank between two rules reads as two headed documents, a limit the report states.
document = st.tuples(heading, st.lists(paragraph, min_size=1, max_size=3).map("\n\n".join)).map("".join)
documents = st.lists(document, min_size=1, max_size=4)
announced = st.one_of(
    st.lists(sentence, min_size=1, max_size=3).map(" ".join),
    st.tuples(lead_in, st.one_of(code, numbered_list)).map("\n\n".join),
)
"""A document whose paragraphs, if it has several, say they go on (a lead-in ending on a colon): at blank
lines only these can be told from one-paragraph documents (two plain paragraphs read as two documents,
whoever reads them)."""


def _flat(text: str) -> str:
    return " ".join(text.split())


def _untitled(doc: str) -> str:
    first, _, rest = doc.partition("\n")
    return rest if first.startswith("#") and rest.strip() else doc


def _readings(docs: list[str]) -> list[list[str]]:
    """The documents as they may come out: as written, without the heading that opens each (read as its
    title), and either with repeated documents given once."""
    readings = []
    for shown in (docs, [_untitled(doc) for doc in docs]):
        flat = [_flat(doc) for doc in shown]
        readings += [flat, list(dict.fromkeys(flat))]
    return readings


def exact_or_refused(messages: list[Message], docs: list[str]) -> None:
    reading = read_prompt(messages)
    if reading.not_separable:
        assert reading.chunks == ()
        return
    assert [_flat(chunk) for chunk in reading.chunks] in _readings(docs)
    assert reading.question in (QUESTION, "")


@settings(max_examples=150, deadline=None)
@given(documents, st.sampled_from(["Document {n}:\n", "[{n}] ", "【{n}】", "<<{n}>>\n", "Source {n}: "]),
       st.sampled_from([f"\n\nQuestion: {QUESTION}", f"\n\nQuestion: {QUESTION}\nAnswer:", ""]))  # fmt: skip
def test_numbered_documents_of_several_paragraphs_come_out_whole_or_not_at_all(
    docs: list[str], label: str, ending: str
) -> None:
    body = "\n\n".join(label.format(n=n) + doc for n, doc in enumerate(docs, 1))
    if ending:
        exact_or_refused([Message(U, f"{RULES}\n\n{body}{ending}")], docs)
    else:
        exact_or_refused([Message(S, f"{RULES}\n\n{body}"), Message(U, QUESTION)], docs)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(document, min_size=2, max_size=4), st.sampled_from(["---", "***", "=====", "___"]), st.booleans()
)
def test_documents_between_rules_come_out_whole_or_not_at_all(
    docs: list[str], rule: str, spaced: bool
) -> None:
    between = f"\n\n{rule}\n\n" if spaced else f"\n{rule}\n"
    system = f"{RULES}{between}{between.join(docs)}{between}"
    exact_or_refused([Message(S, system), Message(U, QUESTION)], docs)


@settings(max_examples=150, deadline=None)
@given(st.lists(announced, min_size=1, max_size=4))
def test_documents_at_blank_lines_come_out_whole_or_not_at_all(docs: list[str]) -> None:
    joined = "\n\n".join(docs)
    exact_or_refused([Message(U, f"Context:\n\n{joined}\n\nQuestion: {QUESTION}")], docs)


@settings(max_examples=100, deadline=None)
@given(documents, st.sampled_from(["text", "content", "page_content", "snippet"]), st.booleans())
def test_a_json_list_of_documents_inside_a_sentence_gives_its_documents(
    docs: list[str], key: str, ascii_only: bool
) -> None:
    listed = json.dumps([{key: doc, "id": n} for n, doc in enumerate(docs)], ensure_ascii=ascii_only)
    reading = read_prompt(
        [Message(U, f"The search returned {listed} - answer from it.\n\nQuestion: {QUESTION}")]
    )

    assert [_flat(c) for c in reading.chunks] in _readings(docs)
    assert reading.question == QUESTION


@given(st.sampled_from([
    "<documents>\n</documents>", "<context></context>", "Context:\n", "## Sources\n\n", "Relevant passages:",
]), st.booleans())  # fmt: skip
def test_an_empty_place_for_documents_is_no_context_not_an_inseparable_one(
    empty: str, in_system: bool
) -> None:
    messages = (
        [Message(S, f"{RULES}\n\n{empty}"), Message(U, QUESTION)]
        if in_system
        else [Message(U, f"{RULES}\n\n{empty}\n\nQuestion: {QUESTION}")]
    )
    reading = read_prompt(messages)

    assert (reading.chunks, reading.not_separable, reading.question) == ((), False, QUESTION)


def test_a_search_tool_that_found_nothing_is_no_context() -> None:
    reading = read_prompt([Message(U, QUESTION), Message(T, json.dumps({"documents": []}))])

    assert (reading.chunks, reading.not_separable) == ((), False)


def test_a_code_block_inside_a_document_is_part_of_it() -> None:
    doc = "Install it:\n\n```bash\npip install tool\n\ntool --version\n```\n\nThen restart."
    other = "Uninstall with pip uninstall tool."
    reading = read_prompt([Message(S, f"{RULES}\n\n---\n{doc}\n---\n{other}\n---"), Message(U, QUESTION)])

    assert reading.chunks == (doc, other)


def test_character_data_is_read_as_written() -> None:
    doc = 'if (a < b && c > d) {\n    return "<ok>";\n}'
    pasted = f"<documents><document><![CDATA[{doc}]]></document><document>Second.</document></documents>"
    reading = read_prompt([Message(U, f"{pasted}\n\nQuestion: {QUESTION}")])

    assert reading.chunks == (doc, "Second.")


@settings(max_examples=150, deadline=None)
@given(documents, st.sampled_from(["{n}. ", "({n}) ", "- ", "* "]), st.booleans())
def test_listed_or_bulleted_documents_holding_lists_come_out_whole_or_not_at_all(
    docs: list[str], label: str, spaced: bool
) -> None:
    body = ("\n\n" if spaced else "\n").join(label.format(n=n) + doc for n, doc in enumerate(docs, 1))
    exact_or_refused([Message(U, f"{RULES}\n\nContext:\n{body}\n\nQuestion: {QUESTION}")], docs)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.lists(sentence, min_size=1, max_size=2).map(" ".join), min_size=1, max_size=4),
    st.sampled_from(["[{n}] ", "{n}. ", "Document {n}: ", "- "]),
    st.sampled_from(["Be concise and polite.", "Reply in the user's language.", "Cite as [n]. Thanks!"]),
)
def test_words_after_the_last_document_of_a_block_are_never_taken_into_it(
    docs: list[str], label: str, words: str
) -> None:
    body = "\n".join(label.format(n=n) + doc for n, doc in enumerate(docs, 1))
    exact_or_refused([Message(U, f"Context:\n{body}\n\n{words}\n\nQuestion: {QUESTION}")], docs)


def test_instructions_about_the_documents_after_the_last_one_are_the_prompts() -> None:
    prompt = (
        "Context:\n[1] Refunds take 5 days.\n[2] Plans renew monthly.\n\nAnswer only from the sources above."
    )
    reading = read_prompt([Message(U, f"{prompt}\n\nQuestion: {QUESTION}")])

    assert reading.chunks == ("Refunds take 5 days.", "Plans renew monthly.")


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.lists(sentence, min_size=1, max_size=2).map(" ".join), min_size=1, max_size=4),
    st.sampled_from(["Be concise.", "Answer in English.", "Please keep it short.", "Do not make things up."]),
)
def test_a_sentence_to_the_model_after_documents_at_blank_lines_is_never_a_document(
    docs: list[str], words: str
) -> None:
    joined = "\n\n".join(docs)
    exact_or_refused([Message(U, f"Context:\n\n{joined}\n\n{words}\n\nQuestion: {QUESTION}")], docs)


@given(st.sampled_from(["Be concise.", "Answer in English.", "Please keep it short."]), st.booleans())
def test_a_sentence_to_the_model_beside_the_question_is_not_part_of_it(words: str, before: bool) -> None:
    asked = f"{words}\n{QUESTION}" if before else f"{QUESTION}\n{words}"
    reading = read_prompt(
        [Message(U, f"<context>\nRefunds take 5 days.\n\nPlans renew.\n</context>\n{asked}")]
    )

    assert (reading.chunks, reading.question) == (("Refunds take 5 days.", "Plans renew."), QUESTION)
