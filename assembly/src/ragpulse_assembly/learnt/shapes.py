"""What a slot's contents looked like across the window (one line or several, blanks or none, one message
or several): when a prompt's skeleton can be placed in more than one way, the placement whose slots look
like that is the reading."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ragpulse_assembly.learnt.tokens import MARK_OPEN

_BLANK_LINE: Final = re.compile(r"\n[^\S\n]*\n")


@dataclass(frozen=True)
class Shape:
    lines: bool = True
    """Some content spanned lines."""
    blanks: bool = True
    """Some content held blanks (words apart)."""
    messages: bool = False
    """Some content spanned message boundaries."""
    avoids: str = ""
    """The skeleton's next text, which no content held: the slot ends where it first occurs."""
    paragraphs: bool = True
    """Some content held a blank line."""

    def fits(self, content: str) -> bool:
        stripped = content.strip()
        if not self.messages and MARK_OPEN in content:
            return False
        if not self.paragraphs and _BLANK_LINE.search(stripped):
            return False
        if self.avoids and self.avoids in content:
            return False
        if not self.lines and "\n" in stripped:
            return False
        return self.blanks or not any(character.isspace() for character in stripped)

    def as_json(self) -> list[bool | str]:
        return [self.lines, self.blanks, self.messages, self.avoids, self.paragraphs]

    @classmethod
    def from_json(cls, value: object) -> Shape:
        if not isinstance(value, list) or len(value) != 5:
            raise ValueError(f"not a slot shape: {value!r}")
        return cls(bool(value[0]), bool(value[1]), bool(value[2]), str(value[3]), bool(value[4]))


def shape_of(contents: Sequence[str], following: str = "") -> Shape:
    """The shape of a slot's ``contents``; ``following``: the skeleton's text after the slot."""
    stripped = [content.strip() for content in contents]
    mark = following.strip()[:1]
    return Shape(
        lines=any("\n" in content for content in stripped),
        blanks=any(any(character.isspace() for character in content) for content in stripped),
        messages=any(MARK_OPEN in content for content in contents),
        avoids=mark
        if mark and not mark.isalnum() and not any(mark in content for content in contents)
        else "",
        paragraphs=any(_BLANK_LINE.search(content) for content in stripped),
    )
