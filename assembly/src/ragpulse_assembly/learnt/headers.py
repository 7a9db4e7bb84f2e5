"""A document's header line told from its text: where a loop's item opens with a line the template writes
(constant literals with varying values: "Extrait n°2 — guide.pdf, p. 80", "Lenke: https://…/artikler/flytting",
"Updated: 2024-09-09"), the alignment of the window's items anchors on the line's constant start, and the
line's varying tail ("80", "flytting", "09-09") falls into the gap that holds the document's text.

That tail is the header's own last slot, not the document's first words, when in every item of the window it
is one name that ends its line, with the document's text on the lines after it, or one name that the same mark
between blanks (" » ") follows on the line. A name has no blanks and no sentence's end; in Chinese or
Japanese, where a line without blanks may be a document's own title, it also has a digit or a Latin part
("规定.pdf", "第3条"). Where the template wrote other values on the line before it, joined by a mark of its
own ("[2] guide.pdf — Dental", "【文書2】規程.pdf／休暇"), the last value may have blanks or be Chinese or
Japanese: a document's own first line does not follow a value and a joining mark in every item. Else a
header whose last value has blanks (a title) is not cut: from one template alone a title the header repeats
cannot be told from a document's own first line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ragpulse_assembly.learnt.alignment import Constant, Gap, Piece
from ragpulse_assembly.learnt.tokens import (
    QUESTION_MARKS,
    SENTENCE_END,
    Tokens,
    is_blank,
    is_marker,
    is_unspaced,
    is_word,
)

_CLOSERS: Final = frozenset(">)]}）】」』\"'»”’")
"""Marks that close a tag, a bracket or a quote."""
_TAIL_CHARS: Final = 120
"""Characters a header's last value has at most (a URL's path, an id, a date)."""


def header_tails_split(items: Sequence[Tokens], pieces: list[Piece]) -> tuple[list[Piece], list[Gap], bool]:
    """``pieces`` (the layout of ``items``) with each gap that starts on a header line and goes on past its
    end split in three: the line's tail, the line break, and the rest; the tails (metadata, never the
    document's text); and whether some header line's value cannot be told from the document's first line
    (a title that asks, "DOCUMENT 2: How do I reset it?", beside titles that do not, or a document's own
    first line that asks): the documents are then not read."""
    result: list[Piece] = []
    tails: list[Gap] = []
    unclear = False
    for index, piece in enumerate(pieces):
        fields = _header_fields(items, pieces, index) if isinstance(piece, Gap) else None
        above = fields is None and isinstance(piece, Gap) and index > 0 and _label_above(pieces[index - 1])
        if not isinstance(piece, Gap) or (fields is None and not above):
            result.append(piece)
            continue
        before = pieces[index - 1]
        labelled = _after_label(before)
        among = above or (bool(fields) and _joins_fields(before)) or labelled
        # A labelled line's value with a blank line under it is the document's own heading ("Excerpt:
        # Business travel\n\nBook all flights…"), as under a label's line: only a value with the text on
        # the very next line is the label's field.
        cuts = [
            _tail_end(item, start, end, among, above or labelled)
            for item, (start, end) in zip(items, piece.ranges, strict=True)
        ]
        breaks = [cut for cut in cuts if cut is not None]
        if len(breaks) == len(cuts):
            shared = _shared_blanks(items, breaks, piece)
        else:
            inline = _inline_ends(items, piece)
            if inline is None:
                unclear = (
                    unclear
                    or (among and _first_lines_ask(items, piece, cuts))
                    or _unspaced_titles(items, piece)
                    or _spaced_titles(items, piece)
                )
                result.append(piece)
                continue
            breaks, shared = inline
        tails.append(Gap(tuple((start, at) for (start, _), at in zip(piece.ranges, breaks, strict=True))))
        result.append(tails[-1])
        result.append(Constant(items[0].tokens[breaks[0] : breaks[0] + shared]))
        result.append(
            Gap(tuple((at + shared, end) for (_, end), at in zip(piece.ranges, breaks, strict=True)))
        )
    return result, tails, unclear


def _first_lines_ask(items: Sequence[Tokens], gap: Gap, cuts: list[int | None]) -> bool:
    """In every item the gap's first line (a header's value) has the text on the next line, and each line
    not cut as a value asks ("How do I reset it?"): a title the template writes or the document's own first
    question, which one template cannot tell apart."""
    for item, (start, end), cut in zip(items, gap.ranges, cuts, strict=True):
        if cut is not None:
            continue
        tokens = item.tokens
        at = next((i for i in range(start, end) if tokens[i] == "\n"), None)
        if at is None or at == start or item.starts[at] - item.starts[start] > _TAIL_CHARS:
            return False
        text = next((i for i in range(at, end) if not is_blank(tokens[i])), None)
        if text is None or tokens[at:text].count("\n") > 1:
            return False  # after a blank line: the document's own paragraph ("text: Why…?\n\nSeasons…")
        if item.span(start, at).rstrip()[-1:] not in QUESTION_MARKS:
            return False
    return True


def _first_lines(items: Sequence[Tokens], gap: Gap) -> list[tuple[Tokens, int, int, int]] | None:
    """Each item with the gap's range and where its first line ends (its line break), when in every item
    that line has text and at most a header value's characters; else None."""
    found = []
    for item, (start, end) in zip(items, gap.ranges, strict=True):
        at = next((i for i in range(start, end) if item.tokens[i] == "\n"), None)
        if at is None or at == start or item.starts[at] - item.starts[start] > _TAIL_CHARS:
            return None
        found.append((item, start, end, at))
    return found


def _unspaced_titles(items: Sequence[Tokens], gap: Gap) -> bool:
    """In every item the gap opens on the template's header line with one run of Chinese or Japanese (no
    blanks, no sentence's end, no digit nor Latin part), the text on the lines after it: a title the template
    writes or the document's own first line, which one template cannot tell apart (a wrong cut and a title
    kept in the document both misread it)."""
    lines = _first_lines(items, gap)
    if lines is None:
        return False
    for item, start, end, at in lines:
        tokens = item.tokens
        line = tokens[start:at]
        if _a_name(line) or not all(is_unspaced(token) or not is_word(token) for token in line):
            return False
        if line[-1][-1:] in SENTENCE_END or any(is_blank(token) for token in line):
            return False
        if all(is_blank(token) for token in tokens[at:end]):
            return False
    return True


def _spaced_titles(items: Sequence[Tokens], gap: Gap) -> bool:
    """In every item the gap opens on the template's header line with a short run of words (no sentence's
    end, no mark before the first word; some with blanks, or all would be cut as names), and the text goes
    on at once on the next, longer line ("[2] Padma Bridge\nThe Padma Bridge is…"): a title the template
    writes or the document's own heading, which one template cannot tell apart, so neither cutting it nor
    keeping it is sure. A hard-wrapped paragraph's first line is as long as the next; a line that opens with
    marks ("# …", "- …") is markup the document writes."""
    lines = _first_lines(items, gap)
    if lines is None:
        return False
    for item, start, end, at in lines:
        tokens = item.tokens
        if not is_word(tokens[start]) or tokens[at - 1][-1:] in SENTENCE_END:
            return False
        if at + 1 >= end or is_blank(tokens[at + 1]):
            return False  # a blank line under it: the document's own heading and paragraph
        following = next((i for i in range(at + 1, end) if tokens[i] == "\n"), end)
        if 2 * len(item.span(start, at)) > len(item.span(at + 1, following)):
            return False
    return True


def _header_fields(items: Sequence[Tokens], pieces: list[Piece], index: int) -> int | None:
    """How many varying values the line holds before the gap at ``index``, when the gap starts on a line the
    template opened with text of its own (from the line's start to the gap, constants with words or marks,
    and only one-line values between them); else None."""
    written = False
    fields = 0
    for earlier in reversed(pieces[:index]):
        if isinstance(earlier, Gap):
            if any(
                "\n" in item.span(start, end)
                for item, (start, end) in zip(items, earlier.ranges, strict=True)
            ):
                return None
            fields += 1
            continue
        tokens = earlier.tokens
        line_start = max(
            (at for at, token in enumerate(tokens) if token == "\n" or is_marker(token)), default=-1
        )
        written = written or any(not is_blank(token) for token in tokens[line_start + 1 :])
        if line_start >= 0:
            break
    return fields if written else None


def _joins_fields(before: Piece) -> bool:
    """The template's text just before a gap joins two values of one header (" — ", "／", " | ", ", "), not
    one that closes the header ('">', "]", "）"): after a closed tag or bracket comes the document itself,
    whose own first line may be its title ('<source name="secret">Secrets')."""
    marks = "".join(before.tokens).rstrip() if isinstance(before, Constant) else ""
    return bool(marks) and marks[-1] not in _CLOSERS


def _after_label(before: Piece) -> bool:
    """The template's text just before a gap ends its line's label with a colon ("DOCUMENT 2: ",
    "Titel：", "Source: "): what follows on that line is the label's value, a field of the document's
    header, whatever its words; a document's own text does not open on a line the template labelled and
    go on below it in every item."""
    if not isinstance(before, Constant):
        return False
    line = "".join(before.tokens).rsplit("\n", 1)[-1].rstrip()
    return line.endswith((":", "：")) and any(character.isalnum() for character in line)


def _label_above(before: Piece) -> bool:
    """The template's text just before a gap is a line of its own that ends with a label's colon
    ("Document 2:\n"): the gap's first line is the label's value, as on the label's own line."""
    if not isinstance(before, Constant) or not before.tokens or before.tokens[-1] != "\n":
        return False
    return _after_label(Constant(before.tokens[:-1]))


def _tail_end(item: Tokens, start: int, end: int, among_fields: bool, next_line: bool = False) -> int | None:
    """Where the gap's first line ends (its line break), when that line is one name with text on the lines
    after it; else None. ``among_fields``: the template wrote other varying values on the line before it.
    ``next_line``: the text must follow on the very next line (no blank line between)."""
    tokens = item.tokens
    at = next((i for i in range(start, end) if tokens[i] == "\n"), None)
    if at is None or at == start or item.starts[at] - item.starts[start] > _TAIL_CHARS:
        return None
    if not _a_name(tokens[start:at], among_fields):
        return None
    text = next((i for i in range(at, end) if not is_blank(tokens[i])), None)
    if text is None or (next_line and tokens[at:text].count("\n") > 1):
        return None
    return at


def _inline_ends(items: Sequence[Tokens], gap: Gap) -> tuple[list[int], int] | None:
    """Where the gap's first line opens, in every item, with one name and then the same run of marks
    between blanks (" » ", " | ", " — "): the header's last value and the mark that ends the header, with
    the document's text after it on the same line. The run's start in each item and its length."""
    ends: list[int] = []
    runs: set[tuple[str, ...]] = set()
    for item, (start, end) in zip(items, gap.ranges, strict=True):
        tokens = item.tokens
        at = next((i for i in range(start, end) if is_blank(tokens[i])), None)
        if at is None or at == start or item.starts[at] - item.starts[start] > _TAIL_CHARS:
            return None
        after = at + 1
        while after < end and not is_blank(tokens[after]) and not is_word(tokens[after]):
            after += 1
        if after + 1 >= end or tokens[after] != tokens[at] or tokens[at] == "\n" or after == at + 1:
            return None
        if not _a_name(tokens[start:at]):
            return None
        ends.append(at)
        runs.add(tokens[at : after + 1])
    values = {item.span(start, at) for item, (start, _), at in zip(items, gap.ranges, ends, strict=True)}
    if len(runs) != 1 or len(values) < 2:
        return None
    return ends, len(runs.pop())


def _a_name(tokens: tuple[str, ...], among_fields: bool = False) -> bool:
    """One value of a header: no sentence's end; no blanks, and in a script written without blanks (where a
    line without blanks may be a sentence or a document's own title) only with a part that makes it a name
    ("考勤管理规定.pdf", "第3条"). Blanks and any script are allowed when the template wrote other varying
    values on the line before it (``among_fields``: "[2] guide.pdf — Dental", "【文書2】規程.pdf／休暇"):
    a document's own first line does not follow a value and a mark the template writes in every item."""
    if not tokens or tokens[-1][-1:] in SENTENCE_END:
        return False
    if among_fields:
        return True
    if any(is_blank(token) for token in tokens):
        return False
    return not any(is_unspaced(token) for token in tokens) or any(
        token.isdigit() or (is_word(token) and not is_unspaced(token)) for token in tokens
    )


def _shared_blanks(items: Sequence[Tokens], breaks: list[int], gap: Gap) -> int:
    """How many blank tokens (the line break and blank lines) every item has after its tail."""
    count = 0
    while True:
        ahead = [
            item.tokens[at + count] if at + count < end else None
            for item, at, (_, end) in zip(items, breaks, gap.ranges, strict=True)
        ]
        first = ahead[0]
        if first is None or not is_blank(first) or any(token != first for token in ahead):
            return count
        count += 1
