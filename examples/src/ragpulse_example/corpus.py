"""The corpus: Python's reference documentation (``pydoc_data.topics``) cut into ~800-character passages."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pydoc_data.topics import topics

PASSAGE_CHARS = 800
SOURCE = "pydoc_data.topics"

# reST underlines ("*****", "=====") carry no words and would glue headings to the next paragraph.
_UNDERLINE = re.compile(r"^\s*([*=\-+~^])\1{2,}\s*$")
_WHITESPACE = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"(])")


@dataclass(frozen=True)
class Passage:
    """One retrievable chunk; ``id`` is ``pydoc:<topic>#<n>`` and stays stable across runs and Pythons."""

    id: str
    topic: str
    text: str


def paragraphs(text: str) -> list[str]:
    """Blank-line separated paragraphs with underlines dropped and whitespace collapsed to single spaces."""
    kept_lines = [line for line in text.splitlines() if not _UNDERLINE.match(line)]
    blocks = re.split(r"\n\s*\n", "\n".join(kept_lines))
    return [collapsed for block in blocks if (collapsed := _WHITESPACE.sub(" ", block).strip())]


def pieces(paragraph: str, max_chars: int) -> list[str]:
    """A paragraph longer than ``max_chars`` split at sentence ends (a single huge sentence stays whole)."""
    if len(paragraph) <= max_chars:
        return [paragraph]
    result: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(paragraph):
        if current and len(current) + len(sentence) + 1 > max_chars:
            result.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        result.append(current)
    return result


def chunk_topic(topic: str, text: str, max_chars: int = PASSAGE_CHARS) -> list[Passage]:
    """Paragraphs packed into passages of at most ``max_chars``; long paragraphs are cut at sentence ends."""
    passages: list[Passage] = []
    current: list[str] = []
    size = 0
    for paragraph in (piece for block in paragraphs(text) for piece in pieces(block, max_chars)):
        if current and size + len(paragraph) + 2 > max_chars:
            passages.append(Passage(f"pydoc:{topic}#{len(passages)}", topic, "\n\n".join(current)))
            current, size = [], 0
        current.append(paragraph)
        size += len(paragraph) + 2
    if current:
        passages.append(Passage(f"pydoc:{topic}#{len(passages)}", topic, "\n\n".join(current)))
    return passages


@lru_cache(maxsize=1)
def load_passages() -> tuple[Passage, ...]:
    """Every topic's passages, topics in sorted order so ids and order do not depend on dict order.

    Some topics repeat another's text word for word (``specialnames`` holds all of ``attribute-access``,
    ``compound`` all of ``if``): a text is kept once, under the narrowest topic that has it (the one of fewest
    passages), or a fused ranking would give the generator the same chunk twice under two ids.
    """
    chunked = {topic: chunk_topic(topic, topics[topic]) for topic in sorted(topics)}
    narrowest: dict[str, Passage] = {}
    for _, passages in sorted(chunked.items(), key=lambda item: (len(item[1]), item[0])):
        for passage in passages:
            narrowest.setdefault(passage.text, passage)
    kept = set(narrowest.values())
    return tuple(passage for passages in chunked.values() for passage in passages if passage in kept)
