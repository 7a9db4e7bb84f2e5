"""Loops inside loops: documents grouped under a header line per group (a file, a source), several in each
group ("## docs/cli.md" then "### Lines 3-9" per fragment). The group's header lines are headers, never a
document's text; a loop that reads one as a document, or keeps several documents under their own headers
in one, is not the template's loop."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ragpulse_assembly.learnt.tokens import (
    DIGITS,
    SENTENCE_END,
    Tokens,
    find_run,
    generalised,
    is_blank,
    is_word,
    tokenize,
)

Pattern = tuple[str, ...]
Items = list[list[tuple[str, Tokens]]]
"""Each region's pieces between separators, each with the separator text before it."""
_DIGIT_RUN: Final = re.compile(r"\d+")
_GROUP_VALUE_CHARS: Final = 200
"""Characters a group's header value has at most (a file's path)."""


def header_again(item: str, start: int, end: int, own_rules: bool = False) -> bool:
    """The document's text (``start`` to ``end`` of its item) holds a line of the item's header before it
    again, digits aside ("[chunk 113]" of "[chunk 26]"): the item holds several documents, each under a
    header of the same layout, items of a loop inside this loop's. ``own_rules``: a line of marks with a
    blank line on each side is the document's own rule between paragraphs (the loop learnt so), no header."""
    heads = [_line_shape(line) for line in item[:start].split("\n") if line.strip()]
    written = item[start:end].split("\n")
    lines = [
        line for at, line in enumerate(written) if line.strip() and not (own_rules and _ruled(written, at))
    ]
    if any(_whole_header_again(heads, lines, at) for at in range(len(lines))):
        return True
    # The header's start of the line the text opens on ("2. ", "② ", "Source 3: "), numbers aside, opens
    # a later line of the text: the next document's, numbered on.
    opening = item[item.rfind("\n", 0, start) + 1 : start]
    counted = _counted(opening)
    return any(character.isalnum() for character in opening) and any(
        _counted(line.lstrip()).startswith(counted) for line in lines[1:]
    )


def _whole_header_again(heads: list[str], lines: list[str], at: int) -> bool:
    """Line ``at`` of a document's text is a line of its header (``heads``, line shapes). A rule of marks
    only counts where the header writes more after it and the text goes on as the header does (the next
    line opens with the header's next line up to its label's colon): a document's own rule between
    paragraphs ("---") is no header of a second document, a rule then "source: …" is."""
    shape = _line_shape(lines[at])
    if shape not in heads:
        return False
    after = heads.index(shape) + 1
    if any(character.isalnum() for character in shape) or after == len(heads):
        return True
    following = heads[after]
    label = following[: following.find(":") + 1] or following
    return at + 1 < len(lines) and _line_shape(lines[at + 1]).startswith(label)


def _ruled(lines: list[str], at: int) -> bool:
    """Line ``at`` holds marks only, between two blank lines."""
    beside = [lines[index] if 0 <= index < len(lines) else "x" for index in (at - 1, at + 1)]
    return not any(character.isalnum() for character in lines[at]) and all(
        not line.strip() for line in beside
    )


def _counted(text: str) -> str:
    """The text with every number (a digit run, "②", "三") written as one mark."""
    return "".join(generalised(token) for token in tokenize(text).tokens)


def _line_shape(line: str) -> str:
    return _DIGIT_RUN.sub("#", line.strip())


def reopened(items: Items, opening: Pattern) -> bool:
    """Some documents after the first, not all, open with the line the skeleton writes just before the
    slot ("File: " of "File: deploy.md"): that line heads a group of documents, and the loop reads a
    group's header as a document of its own. (Every one opening so is a label each item repeats.)"""
    begin = max((at + 1 for at, token in enumerate(opening) if token == "\n"), default=0)
    line = opening[begin:]
    if all(is_blank(token) for token in line):
        return False
    later = [item for pieces in items for _, item in pieces[1:]]
    opened = sum(tuple(generalised(token) for token in item.tokens[: len(line)]) == line for item in later)
    return 0 < opened < len(later)


def _a_name(piece: Tokens) -> bool:
    """One value without blanks nor a sentence's end: a file's name or path, an id."""
    text = piece.text.strip()
    return (
        bool(text)
        and len(text) <= _GROUP_VALUE_CHARS
        and not any(c.isspace() for c in text)
        and text[-1] not in SENTENCE_END
    )


def group_closes(items: Items, opening: Pattern) -> bool:
    """Some document ends, after a blank line, with a line that opens as the skeleton's line before the
    slot does ("…\\n\\nFile: cli.md"): the next group's header."""
    begin = max((at + 1 for at, token in enumerate(opening) if token == "\n"), default=0)
    line = "".join(opening[begin:])
    if not line.strip():
        return False
    for pieces in items:
        for _, item in pieces:
            text = item.text.rstrip()
            last = text.rsplit("\n", 1)
            if len(last) == 2 and last[0].endswith("\n") and _DIGIT_RUN.sub(DIGITS, last[1]).startswith(line):
                return True
    return False


def headed(items: Items, opening: Pattern) -> bool:
    """Every region's first piece is one line's value after a line the skeleton opens before the slot
    ("File: " then "deploy.md"), some such value came first twice and none ever came after a separator:
    the header of the slot's only group, which a window without a second group does not show as one."""
    starts = [at + 1 for at, token in enumerate(opening) if token == "\n"]
    if not starts or all(is_blank(token) for token in opening[starts[-1] :]):
        return False
    firsts = [pieces[0][1] for pieces in items if pieces]
    if not all(_a_name(first) for first in firsts):
        return False
    later = {item.text.strip() for pieces in items for _, item in pieces[1:]}
    values = [first.text.strip() for first in firsts]
    return not later & set(values) and len(set(values)) < len(values)


def group_of(
    regions: Sequence[Tokens], generals: list[Pattern], separator: Pattern, opening: Pattern
) -> Pattern:
    """The line the skeleton ends with before the slot, with the blanks before it ("\\n\\n## docs/"), when
    the slot loops over groups of documents: every region opens with that line's value (the first group's
    header: "deploy.md") and the separator, and in some region the line comes again, after blanks, with a
    value and then the separator (the next group's header). Else ()."""
    starts = [at + 1 for at, token in enumerate(opening) if token == "\n"]
    if not starts or all(is_blank(token) for token in opening[starts[-1] :]):
        return ()
    begin = starts[-1]
    while begin > 0 and is_blank(opening[begin - 1]):
        begin -= 1
    group = opening[begin:]
    if not is_blank(group[0]) or not is_blank(separator[0]) or find_run(separator, group[1:], 0) >= 0:
        return ()  # a header line of its own after blanks, documents after blanks too, under another line
    again = False
    for region, general in zip(regions, generals, strict=True):
        if not general:
            continue
        cuts = _group_cuts(region, general, separator, group)
        if cuts is None:
            return ()
        again = again or len(cuts) > 1
    return group if again else ()


def _group_cuts(
    region: Tokens, general: Pattern, separator: Pattern, group: Pattern
) -> list[tuple[int, int]] | None:
    """The token spans of a region's group headers: its first group's value with the separator after it,
    then each later group's line and value up to the separator that follows; None when the region does not
    open with one line's value and the separator, or a group's line is not followed by them."""
    first = find_run(general, separator, 0)
    if first <= 0 or not _one_value(region, 0, first):
        return None
    cuts = [(0, first + len(separator))]
    at = find_run(general, group, cuts[0][1])
    while at >= 0:
        value = at + len(group)
        after = find_run(general, separator, value)
        if after <= value or not _one_value(region, value, after):
            return None
        cuts.append((at, after))
        at = find_run(general, group, after + len(separator))
    return cuts


def _one_value(region: Tokens, start: int, end: int) -> bool:
    """Tokens ``start`` to ``end`` are one short value on one line (a file name, a path, a title)."""
    tokens = region.tokens[start:end]
    short = region.starts[end] - region.starts[start] <= _GROUP_VALUE_CHARS
    return short and "\n" not in tokens and any(is_word(token) or token.isdigit() for token in tokens)


def ungrouped(region: Tokens, general: Pattern, separator: Pattern, group: Pattern) -> Tokens | None:
    """The region's documents and their separators without the groups' headers; None when it is not
    grouped so."""
    cuts = _group_cuts(region, general, separator, group)
    if cuts is None:
        return None
    ends = [end for _, end in cuts]
    starts = [start for start, _ in cuts[1:]] + [len(region.tokens)]
    return tokenize("".join(region.span(end, start) for end, start in zip(ends, starts, strict=True)))
