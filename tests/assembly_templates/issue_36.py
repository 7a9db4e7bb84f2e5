"""The layouts issue 36 named as misread or refused by the structure rules, written from its description
(each a layout a product or guide uses; no rule of the reader names any of them): the learnt templates must
read them from the traffic alone."""

from __future__ import annotations

from templates import Doc, Messages, Template


def one_line_separator(docs: list[Doc], question: str) -> Messages:
    instructions = (
        "Follow these rules:\n1. Answer only from the retrieved texts.\n"
        "2. Quote figures exactly as written.\n3. If the texts do not say, reply that you do not know.\n"
        "4. Keep the answer under 80 words."
    )
    joined = " ¦ ".join(doc.text for doc in docs)
    return [("system", instructions), ("user", f"Retrieved texts: {joined}\nQuestion: {question}")]


def blank_rule_blank(docs: list[Doc], question: str) -> Messages:
    contexts = "\n\n---\n\n".join(doc.text for doc in docs)
    return [("user", f"Answer using the contexts below.\n\n{contexts}\n\n{question}")]


def indented_records(docs: list[Doc], question: str) -> Messages:
    rule = "-" * 40
    records = "\n".join(
        f"{rule}\n  Name: {doc.title}\n  Value: {doc.text}\n  Link: https://kb.example.com/{doc.title}"
        for doc in docs
    )
    return [("system", f"Knowledge records:\n{records}\n{rule}"), ("user", question)]


def described_completion(docs: list[Doc], question: str) -> Messages:
    passages = "\n".join(f"[{n}] «{doc.text}»" for n, doc in enumerate(docs, 1))
    prompt = (
        "The passages below are written as [n] «text», one per line; the question follows them.\n"
        "Answer with the passage numbers you used.\n\n"
        f"Passages:\n{passages}\n\nQuestion: {question}\nAnswer:"
    )
    return [("user", prompt)]


def quoted_records(docs: list[Doc], question: str) -> Messages:
    records = "\n".join(
        f'"""\nSource: kb/{doc.title}\nTitle: {doc.title.split(".")[0]}\nContent: {doc.text}\n"""'
        for doc in docs
    )
    return [("user", f"Use the records below.\n{records}\n----------\nQuery: {question}")]


def chinese_known_information(docs: list[Doc], question: str) -> Messages:
    known = "\n".join(doc.text for doc in docs)
    prompt = (
        "<指令>根据已知信息，简洁和专业的来回答问题。如果无法从中得到答案，请说“根据已知信息无法回答该问题”。</指令>\n"
        f"<已知信息>{known}</已知信息>\n<问题>{question}</问题>"
    )
    return [("user", prompt)]


def passages_between_rules(docs: list[Doc], question: str) -> Messages:
    passages = "".join(f"---\n{doc.text}\n" for doc in docs)
    return [("user", f"Answer the question: {question}\nUse only these passages:\n{passages}")]


def only_document_messages(docs: list[Doc], question: str) -> Messages:
    return [*[("system", doc.text) for doc in docs], ("user", question)]


ISSUE_36: list[Template] = [
    Template("issue36-one-line-separator", "one-line-separator", "issue 36: texts joined on one line by a "
             "separator character under numbered instructions", one_line_separator),
    Template("issue36-blank-rule-blank", "blank-rule-blank", "issue 36: contexts joined by a blank line, a "
             "--- rule and a blank line, the question after them", blank_rule_blank),
    Template("issue36-indented-records", "indented-records", "issue 36: indented Name:/Value:/Link: records "
             "between dashed lines", indented_records),
    Template("issue36-described-completion", "described-completion", "issue 36: [n] «…» passages in a "
             "completion prompt that first describes its own format", described_completion),
    Template("issue36-quoted-records", "quoted-records", "issue 36: Source:/Title:/Content: records in "
             "triple quotes, the query after a rule", quoted_records),
    Template("issue36-chinese-known-information", "chinese-tags",
             "issue 36: <已知信息> tags (Langchain-Chatchat)", chinese_known_information),
    Template("issue36-passages-between-rules", "question-first-rules", "issue 36: 'Answer the question: …'"
             " then passages each after a --- line", passages_between_rules),
    Template("issue36-only-document-messages", "message-per-document", "issue 36: one system message per "
             "document, then the question, no instruction message", only_document_messages),
]  # fmt: skip
