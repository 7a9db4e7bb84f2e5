"""Made-up errors in supported sentences: the mistakes people's labels hold too few of to learn from.

Answers labelled sentence by sentence rarely change a number, flip a negation or swap a name, yet those are
what a generator gets wrong most often when it copies a context. From each sentence people marked supported,
up to three corrupted copies are made, each with one change, each labelled unsupported:

- a number the context states is changed (12 becomes 13, 1990 becomes 1991);
- a negation is added after the first auxiliary verb ("is" becomes "is not");
- a capitalised name the context mentions is replaced by a name from another answer's context.

A corrupted answer keeps its question's group, so cross-validation never trains on a copy of an answer it
then judges. Only the claim model learns from them; the answer calibration and threshold come from real
answers alone (:func:`ragpulse_judge.training.fit.train`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import replace

from ragpulse_judge.text import split_sentences
from ragpulse_judge.training.data import LabelledAnswer

_NUMBER = re.compile(r"(?<![\d.,])\d{1,4}(?![\d.,]\d)")
_AUXILIARY = re.compile(r"\b(is|are|was|were|can|will|has|have|does|do|did|should|could|would)\b(?! not\b)")
_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]{2,}\b")


def corrupted(answers: Sequence[LabelledAnswer]) -> list[LabelledAnswer]:
    """Corrupted copies of the supported sentences of ``answers`` (see the module docstring)."""
    names = sorted({name for answer in answers for chunk in answer.context for name in _NAME.findall(chunk)})
    made: list[LabelledAnswer] = []
    for answer in answers:
        for start, end in _supported_sentences(answer):
            sentence = answer.answer[start:end]
            for change in (_changed_number, _negated, _swapped_name):
                new = change(sentence, answer, names)
                if new is not None and new != sentence:
                    made.append(_with_sentence(answer, start, end, new))
    return made


def _supported_sentences(answer: LabelledAnswer) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    cursor = 0
    for sentence in split_sentences(answer.answer):
        start = answer.answer.find(sentence, cursor)
        if start < 0:
            continue
        end = cursor = start + len(sentence)
        known = answer.annotated is None or any(a[0] <= start and end <= a[1] for a in answer.annotated)
        if known and not any(s[0] < end and start < s[1] for s in answer.unsupported):
            ranges.append((start, end))
    return ranges


def _with_sentence(answer: LabelledAnswer, start: int, end: int, new: str) -> LabelledAnswer:
    shift = len(new) - (end - start)

    def moved(span: tuple[int, int]) -> tuple[int, int]:
        return (span[0] + shift, span[1] + shift) if span[0] >= end else span

    unsupported = (*(moved(s) for s in answer.unsupported), (start, start + len(new)))
    return replace(
        answer,
        answer=answer.answer[:start] + new + answer.answer[end:],
        hallucinated=True,
        unsupported=tuple(sorted(unsupported)),
        # Only the changed sentence teaches anything new: the rest of the copy is left unlabelled.
        annotated=((start, start + len(new)),),
        sentence_labels=True,
        synthetic=True,
    )


def _changed_number(sentence: str, answer: LabelledAnswer, names: list[str]) -> str | None:
    context = " ".join(answer.context)
    for match in _NUMBER.finditer(sentence):
        if re.search(rf"(?<![\d.]){match.group()}(?![\d])", context):
            value = int(match.group())
            changed = value + 1 + _pick(sentence, 9)
            return sentence[: match.start()] + str(changed) + sentence[match.end() :]
    return None


def _negated(sentence: str, answer: LabelledAnswer, names: list[str]) -> str | None:
    match = _AUXILIARY.search(sentence)
    if match is None or re.search(r"\b(?:not|never|no)\b|n't", sentence):
        return None
    return sentence[: match.end()] + " not" + sentence[match.end() :]


def _swapped_name(sentence: str, answer: LabelledAnswer, names: list[str]) -> str | None:
    context = " ".join(answer.context)
    present = [m for m in _NAME.finditer(sentence) if m.group() in context]
    if not present or not names:
        return None
    start = _pick(sentence, len(names))
    # The first name from a fixed place in the pool that this answer's context and question never use.
    for offset in range(min(len(names), 50)):
        name = names[(start + offset) % len(names)]
        if name not in context and name not in answer.question:
            match = present[0]
            return sentence[: match.start()] + name + sentence[match.end() :]
    return None


def _pick(seed: str, size: int) -> int:
    """A choice fixed by the text, so the same data corrupts the same way on every run."""
    return int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest()[:4], "big") % size
