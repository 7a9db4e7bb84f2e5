"""What the live page's label form may say: one of two verdicts, the sentences marked, who, and a note.

A form that names no label, a sentence by anything but its number, or an empty name is refused with a reason
and nothing is written; the name and the note are kept as one printable line.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragpulse_core.printable import printable

LABELS = ("hallucinated", "grounded")
AUTHOR_LIMIT = 80
NOTE_LIMIT = 2000


@dataclass(frozen=True)
class LabelForm:
    label: str
    sentences: tuple[int, ...]
    author: str
    note: str

    @classmethod
    def parse(cls, *, label: str, sentences: list[str], author: str, note: str) -> LabelForm:
        """The form's fields checked; ValueError says what is wrong."""
        if label not in LABELS:
            raise ValueError(f"the label is one of {', '.join(LABELS)}")
        author = " ".join(printable(author).split())
        if not author or len(author) > AUTHOR_LIMIT:
            raise ValueError(f"say who labels: a name of 1 to {AUTHOR_LIMIT} characters")
        note = " ".join(printable(note).split())
        if len(note) > NOTE_LIMIT:
            raise ValueError(f"a note holds at most {NOTE_LIMIT} characters")
        if not all(value.isascii() and value.isdigit() for value in sentences):
            raise ValueError("sentences are named by their numbers")
        marked = tuple(sorted({int(value) for value in sentences}))
        if marked and label != "hallucinated":
            raise ValueError("sentences are marked only on a hallucinated answer")
        return cls(label, marked, author, note)
