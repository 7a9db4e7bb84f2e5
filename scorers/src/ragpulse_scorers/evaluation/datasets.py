"""Loading human-labelled support data (RAGTruth-style and LFQA-style JSONL) and splitting it by question.

Two formats are recognised from the first row's keys:
- RAGTruth-style: ``question``, ``context`` (one string of "passage N:" parts), ``response``,
  ``hallucinated``.
- LFQA-style: ``question``, ``context`` ("[N] title" parts), ``answer``, ``sentences`` (each with ``sentence``
  and ``majority_label``), ``all_sentences_supported``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from ragpulse_judge.training.data import split_passages


class DatasetError(ValueError):
    """A data file that cannot be read as an evaluation set; the message names the file and line."""


class Split(StrEnum):
    """Which questions to use: the tuning half, the held-out half, or all of them."""

    TUNE = "tune"
    HOLDOUT = "holdout"
    ALL = "all"


@dataclass(frozen=True)
class SupportExample:
    """One response to judge; ``group`` is the question it answers (what the split is keyed on)."""

    id: str
    group: str
    question: str
    context: list[str]
    response: str
    hallucinated: bool


@dataclass(frozen=True)
class AnnotatedSentence:
    text: str
    supported: bool


@dataclass(frozen=True)
class SentenceExample:
    """A response whose sentences people labelled one by one (sentences with a tied vote are left out)."""

    response: SupportExample
    sentences: list[AnnotatedSentence]


@dataclass(frozen=True)
class SupportDataset:
    format: str
    examples: list[SupportExample]
    sentence_examples: list[SentenceExample] | None = None


def in_split(group: str, split: Split) -> bool:
    """Deterministic half of the questions: the first byte of the SHA-256 of the question key, even = tune."""
    if split is Split.ALL:
        return True
    tune = hashlib.sha256(group.encode()).digest()[0] % 2 == 0
    return tune if split is Split.TUNE else not tune


def load_support_dataset(path: Path, split: Split = Split.ALL, limit: int | None = None) -> SupportDataset:
    rows = read_jsonl(path)
    first_line, first = rows[0]
    if "sentences" in first and "answer" in first:
        parse, data_format = _lfqa_example, "lfqa"
    elif "response" in first:
        parse, data_format = _ragtruth_example, "ragtruth"
    else:
        raise DatasetError(
            f"{path}:{first_line}: neither a 'response' (RAGTruth) nor 'answer' + 'sentences' (LFQA)"
        )
    parsed = []
    for line, row in rows:
        try:
            example = parse(row)
        except (KeyError, TypeError, ValueError) as exc:
            raise DatasetError(f"{path}:{line}: {_describe(exc)}") from exc
        if in_split(example.response.group, split):
            parsed.append(example)
    parsed = parsed[:limit] if limit is not None else parsed
    examples = [example.response for example in parsed]
    if data_format == "lfqa":
        return SupportDataset(data_format, examples, parsed)
    return SupportDataset(data_format, examples)


def read_jsonl(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSONL file with their line numbers; a problem names the file and line."""
    rows = []
    with path.open(encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{path}:{number}: invalid JSON ({exc.msg})") from exc
            if not isinstance(row, dict):
                raise DatasetError(f"{path}:{number}: expected a JSON object, got {type(row).__name__}")
            rows.append((number, row))
    if not rows:
        raise DatasetError(f"{path}: no rows")
    return rows


def _describe(exc: Exception) -> str:
    return f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)


def _text(row: dict[str, Any], key: str) -> str:
    value = row[key]
    if not isinstance(value, str):
        raise TypeError(f"field '{key}' must be a string, got {type(value).__name__}")
    return value


def _flag(row: dict[str, Any], key: str) -> bool:
    value = row[key]
    if value not in (0, 1, True, False):
        raise ValueError(f"field '{key}' must be 0/1 or a boolean, got {value!r}")
    return bool(value)


def _ragtruth_example(row: dict[str, Any]) -> SentenceExample:
    question = _text(row, "question")
    example = SupportExample(
        id=str(row.get("id", "")),
        group=str(row.get("source_id", question)),
        question=question,
        context=split_passages(_text(row, "context")),
        response=_text(row, "response"),
        hallucinated=_flag(row, "hallucinated"),
    )
    return SentenceExample(example, [])


def _lfqa_example(row: dict[str, Any]) -> SentenceExample:
    question = _text(row, "question")
    sentences = row["sentences"]
    if not isinstance(sentences, list):
        raise TypeError("field 'sentences' must be a list")
    annotated = [
        AnnotatedSentence(_text(s, "sentence"), s["majority_label"] == "supported")
        for s in sentences
        if s["majority_label"] in ("supported", "partially", "not_supported")
    ]
    example = SupportExample(
        id=str(row.get("id", "")),
        group=str(row.get("question_id", question)),
        question=question,
        context=split_passages(_text(row, "context")),
        response=_text(row, "answer"),
        hallucinated=not _flag(row, "all_sentences_supported"),
    )
    return SentenceExample(example, annotated)
