"""Labelled answers to learn from and to measure on, read from three layouts.

- RAGTruth as published (``response.jsonl``, ``source_info.jsonl`` of ParticleMedia/RAGTruth): only rows
  whose ``split`` is ``train`` are read, and a source whose question or passages also appear in an
  ``exclude`` file (the evaluation set) is dropped, so nothing measured later was learnt from. Its labels
  are character spans.
- RAGTruth-style evaluation rows (``question``, ``context``, ``response``, ``hallucinated``, ``spans``), as
  ``ragpulse eval`` and ``export --labelled`` write them.
- LFQA-style rows (``question``, ``context``, ``answer``, ``sentences`` with a ``majority_label`` each):
  labels per sentence, so a sentence's clauses share it.

The group of an answer is its source question: cross-validation keeps a question's answers in one fold.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_PASSAGE_START = re.compile(r"(?:^|\n)\s*(?:passage\s+\d+\s*:|\[\d+\]\s)", re.IGNORECASE)
_PASSAGE_LABEL = re.compile(r"^\s*passage\s+\d+\s*:\s*", re.IGNORECASE)


class TrainingDataError(ValueError):
    """A file that cannot be read as labelled answers; the message names the file and line."""


@dataclass(frozen=True)
class LabelledAnswer:
    """One answer with what people said of it.

    ``unsupported`` holds the character ranges of the answer people marked. ``sentence_labels`` is True when
    those ranges are whole sentences (LFQA): any clause of such a sentence may be the false one. ``annotated``
    holds the ranges people looked at, or None when they read the whole answer.
    """

    group: str
    task: str
    question: str
    context: list[str]
    answer: str
    hallucinated: bool
    unsupported: tuple[tuple[int, int], ...]
    sentence_labels: bool = False
    annotated: tuple[tuple[int, int], ...] | None = None
    synthetic: bool = False
    """Made from a real answer by :mod:`ragpulse_judge.training.augment`, not written by a generator."""


def split_passages(context: str) -> list[str]:
    """The passages of a "passage N:" / "[N] title" context string; one passage when it has no markers."""
    starts = [match.start() for match in _PASSAGE_START.finditer(context)]
    if not starts or (starts[0] > 0 and context[: starts[0]].strip()):
        starts.insert(0, 0)
    bounds = [*starts, len(context)]
    passages = (_PASSAGE_LABEL.sub("", context[a:b]).strip() for a, b in itertools.pairwise(bounds))
    return [passage for passage in passages if passage]


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise TrainingDataError(f"{path}:{number}: invalid JSON ({exc.msg})") from exc
            if not isinstance(row, dict):
                raise TrainingDataError(f"{path}:{number}: expected a JSON object")
            yield number, row


def load_ragtruth_release(directory: Path, exclude: Path | None = None) -> list[LabelledAnswer]:
    """The train split of RAGTruth's release, less every source the ``exclude`` evaluation file shares."""
    excluded_questions, excluded_passages = _evaluation_sources(exclude) if exclude else (set(), set())
    sources: dict[str, dict[str, Any]] = {}
    for number, row in read_jsonl(directory / "source_info.jsonl"):
        try:
            sources[str(row["source_id"])] = row
        except KeyError as exc:
            raise TrainingDataError(
                f"{directory / 'source_info.jsonl'}:{number}: missing field {exc}"
            ) from exc
    answers: list[LabelledAnswer] = []
    for number, row in read_jsonl(directory / "response.jsonl"):
        if row.get("split") != "train":
            continue
        try:
            source = sources[str(row["source_id"])]
            question, context = _release_source(source)
            answer = str(row["response"])
            spans = tuple((int(label["start"]), int(label["end"])) for label in row.get("labels") or [])
        except (KeyError, TypeError, ValueError) as exc:
            raise TrainingDataError(f"{directory / 'response.jsonl'}:{number}: {exc!r}") from exc
        if _normalised(question) in excluded_questions or any(
            _normalised(passage) in excluded_passages for passage in context
        ):
            continue
        answers.append(
            LabelledAnswer(
                group=str(row["source_id"]),
                task=str(source.get("task_type", "")),
                question=question,
                context=context,
                answer=answer,
                hallucinated=bool(spans),
                unsupported=spans,
            )
        )
    return answers


def load_labelled_file(path: Path) -> list[LabelledAnswer]:
    """RAGTruth-style evaluation rows or LFQA-style rows, told apart by their keys."""
    answers: list[LabelledAnswer] = []
    for number, row in read_jsonl(path):
        try:
            answers.append(_lfqa_answer(row) if "sentences" in row else _evaluation_answer(row))
        except (KeyError, TypeError, ValueError) as exc:
            raise TrainingDataError(f"{path}:{number}: {exc!r}") from exc
    if not answers:
        raise TrainingDataError(f"{path}: no rows")
    return answers


def _release_source(source: dict[str, Any]) -> tuple[str, list[str]]:
    """RAGTruth's ``source_info``: a question with passages (QA), an article (Summary), or JSON (Data2txt)."""
    info = source["source_info"]
    task = source.get("task_type")
    if task == "QA" and isinstance(info, dict):
        return str(info.get("question", "")), split_passages(str(info.get("passages", "")))
    if isinstance(info, dict):
        return "", [_structured_text(info)]
    return "", split_passages(str(info))


def _structured_text(value: Any, prefix: str = "") -> str:
    """Structured data as "key: value" lines, the way a generator reading it would see its facts."""
    if isinstance(value, dict):
        return "\n".join(_structured_text(item, f"{prefix}{key} ") for key, item in value.items())
    if isinstance(value, list):
        return "\n".join(_structured_text(item, prefix) for item in value)
    return f"{prefix.strip()}: {value}" if prefix else str(value)


def _evaluation_sources(path: Path) -> tuple[set[str], set[str]]:
    questions: set[str] = set()
    passages: set[str] = set()
    for _, row in read_jsonl(path):
        questions.add(_normalised(str(row.get("question", ""))))
        passages.update(_normalised(p) for p in split_passages(str(row.get("context", ""))))
    questions.discard("")
    passages.discard("")
    return questions, passages


def _normalised(text: str) -> str:
    return " ".join(text.lower().split())


def _evaluation_answer(row: dict[str, Any]) -> LabelledAnswer:
    answer = str(row["response"])
    spans = tuple((int(span["start"]), int(span["end"])) for span in row.get("spans") or [])
    return LabelledAnswer(
        group=str(row.get("source_id", row["question"])),
        task=str(row.get("task", "QA")),
        question=str(row["question"]),
        context=split_passages(str(row["context"])),
        answer=answer,
        hallucinated=bool(row["hallucinated"]),
        unsupported=spans,
    )


def _lfqa_answer(row: dict[str, Any]) -> LabelledAnswer:
    answer = str(row["answer"])
    unsupported: list[tuple[int, int]] = []
    annotated: list[tuple[int, int]] = []
    cursor = 0
    for sentence in row["sentences"]:
        text = str(sentence["sentence"]).strip()
        label = sentence["majority_label"]
        start = answer.find(text, cursor)
        if start < 0 or label not in ("supported", "partially", "not_supported"):
            continue
        cursor = start + len(text)
        annotated.append((start, cursor))
        if label != "supported":
            unsupported.append((start, cursor))
    return LabelledAnswer(
        group=str(row.get("question_id", row["question"])),
        task="LFQA",
        question=str(row["question"]),
        context=split_passages(str(row["context"])),
        answer=answer,
        hallucinated=not bool(row["all_sentences_supported"]),
        unsupported=tuple(unsupported),
        sentence_labels=True,
        annotated=tuple(annotated),
    )
