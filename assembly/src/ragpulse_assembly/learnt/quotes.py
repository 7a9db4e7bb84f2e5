"""Documents quoted line by line: a template that writes a mark before every line of each document ("> " of
a markdown or e-mail quote, "| ") writes it inside the documents' text too, where no separator is.

The loop's separator shows the mark: it ends with a line holding only the mark ("\\n\\n> "), after a line
that does not (the blank line or the rule between two quotes). Where every line of every document of the
window after its first opens with the mark, and some document has such a line, the mark is the template's:
each document is read with it taken off the start of each of its lines, one level only (a document's own
quote, "> > ", keeps its "> ").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ragpulse_assembly.learnt.tokens import DIGITS

_MOST_CHARS: Final = 4
"""Characters a line's quote mark has at most ("> ", "| ", ">> ")."""
_LISTING: Final = frozenset("-*+•‣▪#")
"""Marks that open a list's item or a heading: a document's own lines may open with them, so they are
never taken for a quote the template writes."""


def quote_mark(items: Iterable[str], separator: Sequence[str]) -> str:
    """The mark the template writes before every line of each document (``items``: the texts between the
    loop's ``separator``, generalised tokens), "" when it writes none."""
    breaks = [at for at, token in enumerate(separator) if token == "\n"]
    if len(breaks) < 2:
        return ""  # a loop of single lines ("\n- "): a list, whose items' own lines are not quoted
    mark = "".join(separator[breaks[-1] + 1 :])
    bare = mark.strip()
    before = "".join(separator[breaks[-2] + 1 : breaks[-1]])
    if (
        not bare
        or len(mark) > _MOST_CHARS
        or DIGITS in separator[breaks[-1] + 1 :]
        or any(character.isalnum() or character in _LISTING for character in bare)
        or before.startswith(bare)
    ):
        return ""
    inside = False
    for item in items:
        for line in item.rstrip().split("\n")[1:]:
            if not line.startswith(mark) and line.rstrip() != bare:
                return ""
            inside = True
    return mark if inside else ""


def opens_quote(opening: Sequence[str], mark: str) -> bool:
    """The skeleton's last line before the slot (``opening``: its tokens) is the quote ``mark``: documents
    that open with the mark again quote something of their own ("> > "), not a group's header line the
    skeleton wrote once."""
    begin = max((at + 1 for at, token in enumerate(opening) if token == "\n"), default=0)
    return bool(mark) and "".join(opening[begin:]) == mark


def unquoted(text: str, mark: str) -> str:
    """``text`` without ``mark`` at the start of each line after its first (its first line's mark is the
    separator's); a line that is the mark alone, its trailing blanks dropped, is a quoted blank line."""
    if not mark:
        return text
    bare = mark.rstrip()
    lines = text.split("\n")
    kept = [lines[0]]
    for line in lines[1:]:
        if line.startswith(mark):
            kept.append(line[len(mark) :])
        elif line.rstrip() == bare:
            kept.append("")
        else:
            kept.append(line)
    return "\n".join(kept)
