"""Documents joined by blank lines, each opening with a title the template writes on the text's own line
("{title} — {text}"), some with blank lines of their own: the blanks split such a document in two, and its
second paragraph, which lacks the title, breaks the alignment that would learn the title's layout.

Where the window's pieces open with a name ended by one mark ("—", "|") in most of them, every request's first
one among them, and each piece without it that recurs always comes right after the same piece (one document's
second paragraph, wherever that document was retrieved), some of them having come back, the pieces without it
are the paragraphs of the document before: joined to it. A document with no title of its own would come back
in other company; then nothing is joined. While none came back, the window cannot tell which it is, and the
blanks are no separator yet. Two pieces that each open with a title are two documents, even where one always
came right after the other in the window (retrieved together).
"""

from __future__ import annotations

from typing import Final

from ragpulse_assembly.learnt.alignment import spaced_label_mark
from ragpulse_assembly.learnt.tokens import Tokens, tokenize

Items = list[list[tuple[str, Tokens]]]
"""Per region, each piece with the separator text before it ("" for the first)."""
_MOST: Final = 2 / 3
"""Share of the pieces that open with the mark, at least."""
_LEAST: Final = 3
"""Pieces that open with the mark, at least."""


def title_mark(items: Items) -> str | None:
    """The mark every document's title ends with (the pieces that lack it are paragraphs of the document
    before); "" when the pieces do not show one; None when they do but no piece without it came back in
    another request yet: a paragraph of the document before, or a document with no title of its own, which
    the window cannot tell."""
    marks = [[spaced_label_mark(item) for _, item in pieces] for pieces in items]
    flat = [mark for found in marks for mark in found]
    named = {mark for mark in flat if mark}
    if len(named) != 1:
        return ""
    mark = named.pop()
    opened = flat.count(mark)
    if opened < _LEAST or opened < len(flat) * _MOST:
        return ""
    if any(found[0] != mark for found in marks):
        return ""  # a request whose first piece has no title: the pieces without one are documents
    previous: dict[str, set[str]] = {}
    requests: dict[str, set[int]] = {}
    for number, (pieces, found) in enumerate(zip(items, marks, strict=True)):
        for at, (_, item) in enumerate(pieces):
            if not found[at]:
                previous.setdefault(_key(item), set()).add(_key(pieces[at - 1][1]))
                requests.setdefault(_key(item), set()).add(number)
    if any(len(before) > 1 for before in previous.values()):
        return ""
    return mark if not previous or any(len(seen) > 1 for seen in requests.values()) else None


def titled(item: str, mark: str) -> bool:
    """``item`` opens with a title ending in ``mark``: a document's start, whatever came before it."""
    return bool(mark) and spaced_label_mark(tokenize(item)) == mark


def joined(pieces: list[tuple[str, Tokens]], mark: str) -> list[tuple[str, Tokens]] | None:
    """``pieces`` with each one that does not open with a title ending in ``mark`` joined to the one
    before, the separator between them kept; None when the first lacks it."""
    found: list[tuple[str, Tokens]] = []
    for before, item in pieces:
        if spaced_label_mark(item) == mark:
            found.append((before, item))
        elif not found:
            return None
        else:
            head, last = found[-1]
            found[-1] = (head, tokenize(last.text + before + item.text))
    return found


def _key(item: Tokens) -> str:
    return " ".join(item.text.split())
