"""A slot that holds what the model wrote before, pasted back: never retrieved context.

A refine chain pastes its earlier answer back ("Original Answer: {existing_answer}" ... "New Answer: "), a
summary update its running summary ("Current summary: {summary}" ... "New summary:"). The template says so
itself, in any language: the slot's label and the cue the prompt ends with (the label after which the model
writes) name the same thing. A documents slot's label names what was retrieved ("Context:", "Sources:"),
which the model is not asked to write. Only short labels ending with a colon are compared, so an instruction
line before the documents ("Use the context below to answer the question.") never counts; and only slots
after the question's (an answer to it comes after it), so documents before it under a label the cue repeats
("Facts:" ... "Answer from the facts:") stay documents.
"""

from __future__ import annotations

import re
from typing import Final

from ragpulse_assembly.learnt.tokens import COMBINING, MARK_CLOSE

_LABEL: Final = 40
"""Characters a label line has at most ("We have provided an existing answer:")."""
_COLONS: Final = frozenset(":：")
_UNSPACED: Final = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_SPACED_WORD: Final = re.compile(f"(?:[^\\W\\d_{_UNSPACED}]|[{COMBINING}]){{4,}}")
"""A word of four letters or more in a script written with spaces ("answer", "risposta", "summary"):
shorter words ("of", "the", "di") are shared by labels that name different things."""
_UNSPACED_PAIR: Final = re.compile(f"(?=([{_UNSPACED}]{{2}}))")
"""Two characters of a script written without spaces ("回答", "要約"): a word there."""


def closing_cue(last: str) -> str:
    """The cue a prompt ends with (``last``: the skeleton's text after its last slot): its last line when it
    is a short label ending with a colon, else ""."""
    text = last[last.rfind(MARK_CLOSE) + 1 :]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines and _is_label(lines[-1]) else ""


def written_back(label: str, cue: str) -> bool:
    """The slot's ``label`` and the prompt's closing ``cue`` name the same thing: the slot holds an earlier
    version of what the model is asked to write now."""
    if not cue or not _is_label(label) or label == cue:
        return False
    return bool(_words(label) & _words(cue))


def _is_label(line: str) -> bool:
    return len(line) <= _LABEL and line[-1:] in _COLONS and any(character.isalpha() for character in line)


def _words(text: str) -> set[str]:
    lowered = text.lower()
    return set(_SPACED_WORD.findall(lowered)) | set(_UNSPACED_PAIR.findall(lowered))
