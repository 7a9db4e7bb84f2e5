"""Labelled answers rewritten the way models format them, to measure a judge on formatting alone.

Each style wraps the same sentences in markup: a heading, a preamble, bullets or a numbered list or a table,
bold on a few words, a citation marker after each sentence pointing at the passage that shares most of its
words, and sometimes a closing list of sources. No word of the answer is changed, dropped or moved to
another sentence, so a claim labelled hallucinated in the plain answer is the same claim here, and the
response's label holds. The rewriting is deterministic: the same row gives the same text every run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from ragpulse_scorers.evaluation.datasets import SupportExample

# A sentence ends at . ! ? before a capital; simpler than the judges' splitter on purpose, as a model's
# formatting would not follow it either.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“(]?[A-Z0-9])")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")
_WORD = re.compile(r"[A-Za-z]{4,}")
_BOLD_MIN_LETTERS = 6


def answer_sentences(response: str) -> list[str]:
    """The response's sentences in order, list markers dropped, every word kept."""
    sentences: list[str] = []
    for line in response.splitlines():
        line = _LIST_MARKER.sub("", line).strip()
        sentences.extend(part.strip() for part in _SENTENCE_END.split(line) if part.strip())
    return sentences


def source_of(sentence: str, context: Sequence[str]) -> int:
    """1-based number of the passage sharing most words with ``sentence`` (the first on ties)."""
    words = {word.lower() for word in _WORD.findall(sentence)}
    overlaps = [len(words & {w.lower() for w in _WORD.findall(passage)}) for passage in context]
    return overlaps.index(max(overlaps)) + 1 if overlaps else 1


def _cite(sentence: str, marker: str) -> str:
    """The marker before the sentence's full stop, as most models place it ("... per year [1].")."""
    if sentence.endswith("."):
        return f"{sentence[:-1]} {marker}."
    return f"{sentence} {marker}"


def _bold(sentence: str, every: int, position: int) -> str:
    """Bold on the longest word of every ``every``-th sentence."""
    if position % every:
        return sentence
    words = [m for m in re.finditer(r"\b[A-Za-z]+\b", sentence) if len(m.group()) >= _BOLD_MIN_LETTERS]
    if not words:
        return sentence
    longest = max(words, key=lambda m: len(m.group()))
    return f"{sentence[: longest.start()]}**{longest.group()}**{sentence[longest.end() :]}"


def _heading(question: str) -> str:
    return question.strip().rstrip("?").capitalize()


def numeric_bullets(example: SupportExample) -> str:
    """## heading, a preamble line, one bullet per sentence with ``[n]``, bold words, a Sources list."""
    sentences = answer_sentences(example.response)
    cited = [source_of(s, example.context) for s in sentences]
    bullets = [
        f"- {_bold(_cite(s, f'[{n}]'), 2, i)}" for i, (s, n) in enumerate(zip(sentences, cited, strict=True))
    ]
    sources = [f"[{n}] passage_{n}.md" for n in sorted(set(cited))]
    return "\n".join(
        [f"## {_heading(example.question)}", "", "Based on the provided context, here is what I found:", "",
         *bullets, "", "Sources:", *sources]
    )  # fmt: skip


def _cited_lines(example: SupportExample, marker: Callable[[int, int], str], every: int) -> list[str]:
    """The response's lines as written (list items stay items), ``marker(source, i)`` after each sentence."""
    lines, position = [], 0
    for line in example.response.splitlines():
        item = _LIST_MARKER.match(line)
        parts = []
        for sentence in answer_sentences(line):
            cited = _cite(sentence, marker(source_of(sentence, example.context), position))
            parts.append(_bold(cited, every, position))
            position += 1
        lines.append((item.group() if item else "") + " ".join(parts))
    return lines


def openai_files(example: SupportExample) -> str:
    """Lines as written after an "According to the documents," opening, 【n:k†file.md】 after sentences."""
    lines = _cited_lines(example, lambda n, i: f"【{n + 3}:{i}†passage_{n}.md】", 3)
    return "\n".join(["According to the documents, here is the answer:", "", *lines])


def azure_doc(example: SupportExample) -> str:
    """A bold label, a numbered list with ``[docN]`` markers glued to the sentence, italic words."""
    sentences = answer_sentences(example.response)
    items = []
    for i, sentence in enumerate(sentences, 1):
        marker = f"[doc{source_of(sentence, example.context)}]"
        text = _bold(sentence, 2, i).replace("**", "*")
        items.append(f"{i}. {text}{marker}")
    return "**Answer:**\n\n" + "\n".join(items)


def footnotes(example: SupportExample) -> str:
    """### heading, lines as written in quotation marks, ``[^n]`` references and their definitions."""
    sentences = answer_sentences(example.response)
    cited = sorted({source_of(s, example.context) for s in sentences})
    lines = [_quoted(line) for line in _cited_lines(example, lambda n, i: f"[^{n}]", 4)]
    definitions = [f"[^{n}]: passage_{n}.md" for n in cited]
    return "\n".join(["### Summary", "", *lines, "", *definitions])


def _quoted(line: str) -> str:
    """The line in quotation marks, after its list marker if it has one."""
    item = _LIST_MARKER.match(line)
    start = item.end() if item else 0
    return f"{line[:start]}“{line[start:]}”" if line[start:].strip() else line


def table(example: SupportExample) -> str:
    """A preamble, then a table with one sentence a row and the source file in its own column."""
    rows = [
        f"| {_bold(s, 2, i)} | passage_{source_of(s, example.context)}.md |"
        for i, s in enumerate(answer_sentences(example.response))
    ]
    return "\n".join(["Based on the provided context:", "", "| Finding | Source |", "|---|---|", *rows])


def mixed_markers(example: SupportExample) -> str:
    """Bullets with `(Source: file.md)`, ``^[n]^``, ``[n, m]`` and superscripts in turn, and code spans on
    numbers, under a "References" heading listing the files."""
    sentences = answer_sentences(example.response)
    bullets = []
    for i, sentence in enumerate(sentences):
        n = source_of(sentence, example.context)
        # After a digit a superscript reads as a power ("2019¹" could be one), so writers tag the note there.
        superscript = f"<sup>{n}</sup>" if sentence[-1:].isdigit() else "¹²³⁴⁵⁶⁷⁸⁹"[min(n, 9) - 1]
        marker = (f"(Source: passage_{n}.md)", f"^[{n}]^", f"[{n}, {n + 1}]", superscript)[i % 4]
        sentence = re.sub(r"\$\d[\d,.]*\d", lambda m: f"`{m.group()}`", sentence)
        bullets.append(f"* {_cite(sentence, marker) if i % 4 != 3 else sentence + marker}")
    files = [f"- passage_{n}.md" for n in sorted({source_of(s, example.context) for s in sentences})]
    return "\n".join(["# Answer", "", *bullets, "", "## References", *files])


STYLES: dict[str, Callable[[SupportExample], str]] = {
    "[n] bullets": numeric_bullets,
    "【n:k†file】 paragraphs": openai_files,
    "[docN] numbered": azure_doc,
    "[^n] footnotes": footnotes,
    "table": table,
    "mixed markers": mixed_markers,
}


def formatted(examples: Sequence[SupportExample], style: str) -> list[SupportExample]:
    """``examples`` with their responses rewritten in ``style`` (one of :data:`STYLES`)."""
    rewrite = STYLES[style]
    return [replace(example, response=rewrite(example)) for example in examples]
