"""Inside a documents slot, the template's loop: the text that repeats between its variable runs (the
separator, with its counter when it numbers the documents) and each document's own layout (a title before
the text, a fence around it), learnt from all the documents of the window at once.

The separator is looked for first where the template shows it: what ends the last document (the skeleton
after the slot) followed by what starts the first one (the skeleton before it), "»\\n[2] «" from "»" and
"[1] «". Else it is a run of marks every region repeats between its words (" | ", "\\n\\n---\\n\\n", a
message boundary). A separator of blanks only ("\\n\\n") is weak: a document's own blank lines look the same.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from ragpulse_assembly.learnt.alignment import Constant, Gap, Piece, align, gap_texts, opens_heading
from ragpulse_assembly.learnt.groups import group_closes, group_of, headed, header_again, reopened, ungrouped
from ragpulse_assembly.learnt.headed import joined, title_mark, titled
from ragpulse_assembly.learnt.headers import header_tails_split
from ragpulse_assembly.learnt.matching import match_pieces
from ragpulse_assembly.learnt.quotes import opens_quote, quote_mark, unquoted
from ragpulse_assembly.learnt.shapes import Shape, shape_of
from ragpulse_assembly.learnt.tokens import (
    DIGITS,
    QUESTION_MARKS,
    SENTENCE_END,
    Tokens,
    find_run,
    generalised,
    is_blank,
    is_marker,
    is_prose_mark,
    is_unspaced,
    is_word,
    numeral_value,
    tokenize,
)

_EDGE_TOKENS: Final = 24
"""How far into the skeleton beside a slot a separator's parts are looked for."""
_LINE_TOKENS: Final = 12
"""Tokens either side of a number on a line that numbers a document."""
_RIVALS: Final = 3
"""Separators that pass weighed against one another by how their documents recur."""
_BLIND_RIVALS: Final = 6
"""Separators weighed, blanks only past the first few, while the best counts nothing and none of its
documents recur across requests."""
_BETTER: Final = 0.1
"""Share of recurring documents by which a later separator must beat an earlier one."""
_NEIGHBOURHOOD: Final = 30
"""Characters either side of a separator's occurrence compared across occurrences."""
_EDGE_CHARS: Final = 40
"""Characters of a document's start or end that name it across requests."""
_MAX_ITEMS: Final = 400
"""Documents in one region beyond which a split is no reading (a separator that occurs in every line)."""
_LABEL_CHARS: Final = 60
"""Characters of words a separator's labels hold at most ("Relevant fragments as following:")."""
_SENTENCE_WORD: Final = 3
"""Letters of a word before a full stop from which it ends a sentence, not an abbreviation ("p. 12")."""
_ENUMERATOR_ENDS: Final = frozenset(".)、")
"""Marks after a list's number ("1.", "2)", "三、")."""
_FULL_STOPS: Final = frozenset(".。!！")
"""Marks that end a statement (a title ends with none, or asks)."""
_NUMBER_JOINERS: Final = frozenset(".,")
"""Marks between the digits of one number ("24.1", "1,5")."""
_LINE_MARKS: Final = 3
"""Marks a line of a list, a table or a quote opens with, at most ("- ", "| ", "> ", "## ")."""
_CODES: Final = sys.maxunicode + 1
"""Distinct tokens one character each can stand for."""
_FENCE: Final = re.compile(r"`{3,}|~{3,}")
"""A Markdown code fence's run of marks."""
_LABEL_ABOVE: Final = re.compile(
    r"(?:^|\n)[^\W\d_][^\n:：]{0,40}[:：][^\S\n]*\n(?P<heading>#{1,6}[^\S\n]+)?$"
)
"""A label the template writes on a line of its own, its value on the lines below ("PASSAGE:\n"); the
markdown heading mark every value opened with is the value's own ("Markdown Content:\n# ")."""
_FIELD_LINE: Final = re.compile(r"[^\W\d_]+(?:[ _-][^\W\d_]+){0,3}[:：][^\S\n]")
"""A line opening with a label of one to four words and a colon, then its value ("Published Time: ")."""
_INLINE_LABEL_END: Final = re.compile(r"(?:^|\n)[^\W\d_][^\n:：]{0,40}[:：][^\S\n]+$")
"""A label that ends the constant on its own line, its value after it on the same line ("\nTitle: ")."""
_TITLE_THEN_BLANK: Final = re.compile(r"[^\n]{0,120}[^\W_][^\S\n]*\n[^\S\n]*\n\s*\S")
"""A line of at most about 120 characters that ends with a letter or digit, a blank line, then more."""
_INLINE_LABEL: Final = re.compile(r"[,;|·]\s*[^\W\d_]+(?:[ _-][^\W\d_]+){0,3}\s*[:：=]")
"""A field the template labels after a mark on the text's own line (", title: ", "; url=")."""
Pattern = tuple[str, ...]


@dataclass(frozen=True)
class ItemLayout:
    """One document's layout inside the loop: its constants and gaps, and which gaps hold the text."""

    pieces: tuple[str | None, ...]
    """Constant texts and ``None`` for each gap, in order, the loop's sample separator first."""
    shapes: tuple[Shape, ...]
    text_from: int
    """The first gap (by gap index) of the document's text; gaps before it are metadata (a title)."""
    text_to: int
    """The last gap of the text; gaps after it are metadata (a link)."""
    unclear: bool = False
    """A header line's value cannot be told from the document's first line (a title that asks), or a field
    only some documents have stands where the text would begin: no reading of the documents is sure."""


@dataclass(frozen=True)
class Loop:
    separator: Pattern
    """The generalised tokens between two documents."""
    counters: tuple[int, ...]
    """Positions in the separator of the number that counts documents."""
    weak: bool
    """Blanks only: a document's own blank lines look the same."""
    sample: str
    """The separator's text as it first occurred: every document is read after it, so its layout may open
    with the separator's label ("### ", "Source: ") and never varies with a counter."""
    layout: ItemLayout | None
    """Each document's layout, when its documents have framing or metadata of their own."""
    closed: bool = False
    """The separator follows every document, the last one's too."""
    group: Pattern = ()
    """A loop of groups, each under a header line of its own ("## docs/cli.md"), the documents looped in
    each: the header line's generalised start with the blanks before it ("\\n\\n## docs/"), as the skeleton
    writes it before the first group. The header lines are no document's text."""
    padded: str = ""
    """What an occurrence of a line-framed separator with a blank line on each side is (a rule between two
    paragraphs, "\\n\\n---\\n\\n", where the template writes "\\n---\\n"): :data:`OWN` when the window showed
    it inside documents (the pieces it made always came together), :data:`JOINS` when it showed it between
    documents (one ending with a line break of its own), "" when the window never showed one."""
    quote: str = ""
    """The mark the template writes before every line of each document ("> "), taken off each line read
    (see :mod:`ragpulse_assembly.learnt.quotes`)."""
    titled: str = ""
    """The mark that ends the title every document opens with on its text's line ("—" of "{title} — "), in a
    loop of blanks: a piece without it is the paragraph of the document before (see
    :mod:`ragpulse_assembly.learnt.headed`)."""
    messages: bool = False
    """The slot spans several messages and the loop splits each on its own: no document crosses a message
    boundary (see :mod:`ragpulse_assembly.learnt.message_loops`)."""


OWN: Final = "own"
"""A separator occurrence between blank lines is a document's own text: no split there."""
JOINS: Final = "joins"
"""A separator occurrence between blank lines joins documents as the others do."""


def find_loop(regions: Sequence[Tokens], before: Pattern, after: Pattern) -> Loop | None:
    """The loop of a slot whose contents across the window are ``regions``, between the skeleton's
    ``before`` and ``after`` tokens; None when no separator repeats. Of the first few separators that
    pass, the one whose documents recur whole across requests the most: a line of dashes (or any run of
    marks) inside documents splits them in pieces, or joins several, that recur less than the documents
    do."""
    generals = [tuple(generalised(token) for token in region.tokens) for region in regions]
    best: tuple[float, Loop] | None = None
    opening = tuple(generalised(token) for token in before)
    candidates = _candidates(generals, before, after)
    for weighed, (share, loop) in enumerate(_loops(regions, generals, candidates, opening)):
        # Past the first few, only blanks are weighed, and only while the best counts nothing and none of
        # its documents recur (a document's own bullets split it in lines seen once): the template's blank
        # lines come last among candidates. One that counts its documents ("\n[2] ") is the template's.
        blind = best is not None and best[0] == 0 and not best[1].counters
        if weighed >= _RIVALS and not (blind and _blank(loop.separator) and weighed < _BLIND_RIVALS):
            break
        if best is None or share > best[0] + _BETTER:
            best = (share, loop)
    return best[1] if best is not None else None


def occurs(regions: Sequence[Tokens], separator: Pattern) -> bool:
    """The separator occurs in some region."""
    return any(
        find_run(tuple(generalised(token) for token in region.tokens), separator, 0) >= 0
        for region in regions
    )


def repeats(regions: Sequence[Tokens], before: Pattern, after: Pattern) -> bool:
    """Some separator the skeleton shows around the slot, or a run of marks with a line break, repeats in
    its contents: the slot holds several documents at times, split or not."""
    generals = [tuple(generalised(token) for token in region.tokens) for region in regions]
    return any(
        len(_occurrences(general, candidate)) > 0
        for candidate in _candidates(generals, before, after)
        if any(token == "\n" or is_marker(token) for token in candidate)
        for general in generals
    )


def _loops(
    regions: Sequence[Tokens], generals: list[Pattern], candidates: list[Pattern], opening: Pattern
) -> Iterator[tuple[float, Loop]]:
    """Each candidate that splits the regions as a loop does, with the share of its pieces that recur.
    ``opening``: the skeleton's generalised tokens before the slot."""
    for separator in candidates:
        widened = _widened(generals, separator, opening)
        counters = _counters(regions, generals, widened)
        valued = _value_trimmed(widened, counters)
        if not valued:
            continue  # a number and a blank, every document's first value: no separator is left
        if valued != widened:
            widened, counters = valued, _counters(regions, generals, valued)
        if _one_neighbour(regions, generals, widened) or _worded(widened) or _in_prose(widened):
            continue
        if not counters and _enumerates(widened):
            continue  # numbered lines whose numbers do not run on: a document's own list may be among them
        if _own_bullets(generals, widened, opening):
            continue
        split = _split_all(regions, generals, widened, counters)
        group: Pattern = ()
        if (
            split is None
            or not _bounds_agree(split[0])
            or headed(split[0], opening)
            or group_closes(split[0], opening)
        ):
            # Documents looped inside groups (fragments under their file's heading): the split at the
            # documents' separator leaves each group's header at the end of the document before it, and
            # the first group's value as a document of its own.
            group = group_of(regions, generals, widened, opening)
            split = _grouped_split(regions, generals, widened, counters, group) if group else None
            if split is None:
                continue
        items, closed = split
        padded = ""
        if not group:
            padded, items = _padding(regions, generals, widened, counters, split)
        blanks = all(is_blank(token) for token in widened)
        title = title_mark(items) if blanks and not group else ""
        if title is None:
            continue
        if title:
            items = [found for pieces in items if (found := joined(pieces, title)) is not None]
            if all(len(pieces) == 1 for pieces in items):
                continue  # every blank line a document's own: the separator splits nothing
        quote = quote_mark((item.text for pieces in items for _, item in pieces), widened)
        # Documents quoted line by line open with the quote mark again (their own lines, their own quotes).
        quoted = opens_quote(opening, quote)
        if (
            (not quoted and (reopened(items, opening) or _holds_opening(items, opening)))
            or _written_twice(items)
            or _within_documents(items, title)
        ):
            continue
        recurring, glued, distinct = _recurrence(items, title)
        if recurring >= 2 and glued * 2 >= recurring:
            continue  # the split cuts documents in two
        if blanks and glued:
            # Blanks between pieces of which some always came with the same next one: documents with line
            # breaks of their own, joined by the same blanks. No loop: the documents are told apart by how
            # their lines recur, never at every blank (a document read as several).
            continue
        pieces = [piece for found in items for piece in found]
        sample = next(before for before, _ in pieces if before)
        prefixed = [tokenize(sample + unquoted(item.text, quote)) for _, item in pieces]
        # Blanks alone may be a document's own blank lines, unless documents that recur across requests
        # came out whole in other company every time (none came glued to another: see above).
        weak = blanks and recurring < 3
        layout = _layout(prefixed)
        if layout is not None and any(_holds_header(layout, item.text, padded == OWN) for item in prefixed):
            continue  # several documents in each item, each under a header of its own: a loop inside
        loop = Loop(widened, counters, weak, sample, layout, closed, group, padded, quote, title)
        yield recurring / max(distinct, 1), loop


def _worded(separator: Pattern) -> bool:
    """The separator holds more words than a label has, a line that ends a sentence, or two list numbers: a
    document's line every occurrence shares (its own list recurring with it), grown into the separator, not
    the template's text between documents."""
    ends = any(
        is_word(token) and (len(token) >= _SENTENCE_WORD or is_unspaced(token)) and mark in SENTENCE_END
        for token, mark, following in zip(separator, separator[1:], separator[2:], strict=False)
        if following == "\n"
    )
    listed = sum(
        token == DIGITS
        and (_token(separator, at + 1) in _ENUMERATOR_ENDS or _token(separator, at - 1) == "(")
        and not _in_number(separator, at)
        for at, token in enumerate(separator)
    )
    # Two list numbers in one separator ("\n(4) (1) "): the next document opens with a list of its own. A
    # number's parts ("0.55)" of "(score 0.55)") are one value, no list's.
    return ends or listed > 1 or sum(len(token) for token in separator if is_word(token)) > _LABEL_CHARS


def _in_number(separator: Pattern, at: int) -> bool:
    """The digits at ``at`` are joined to other digits by a mark ("0.55", "1,5"): part of one number."""
    joined_after = _token(separator, at + 1) in _NUMBER_JOINERS and _token(separator, at + 2) == DIGITS
    joined_before = _token(separator, at - 1) in _NUMBER_JOINERS and _token(separator, at - 2) == DIGITS
    return joined_after or joined_before


def _token(pattern: Pattern, at: int) -> str:
    """The token at ``at``, "" outside the pattern."""
    return pattern[at] if 0 <= at < len(pattern) else ""


def _in_prose(separator: Pattern) -> bool:
    """Words between blanks on one line (" does "): a word the users' questions or the documents' sentences
    share, not a template's framing, which breaks the line or writes a mark or a number between items."""
    return (
        "\n" not in separator
        and any(is_word(token) for token in separator)
        and all(is_word(token) or is_blank(token) for token in separator)
    )


def _own_bullets(generals: list[Pattern], separator: Pattern, opening: Pattern) -> bool:
    """The separator opens a line with marks ("\n- ", "\n| ", "\n> ") that the first document does not
    open with (the skeleton before the slot does not end with them, nor does every region start with
    them): a list, a table or a quote the documents hold of their own, where a template that marks its
    documents so writes the marks before the first too."""
    line = separator[len(separator) - separator[::-1].index("\n") :] if "\n" in separator else ()
    marks = [token for token in line if not is_blank(token)]
    if not marks or len(marks) > _LINE_MARKS or any(is_word(t) or t == DIGITS or is_marker(t) for t in marks):
        return False
    opened = opening[len(opening) - len(line) :] == line
    return not opened and not all(general[: len(line)] == line for general in generals if general)


def _enumerates(separator: Pattern) -> bool:
    """The separator opens a line with a list's number ("\n(2) ", "\n3. ", "\n② ", "\n三、")."""
    for at, token in enumerate(separator):
        if token != "\n":
            continue
        rest = separator[at + 1 : at + 4]
        if rest[:1] == ("(",):
            rest = rest[1:]
        if rest[:1] == (DIGITS,) and (len(rest) == 1 or rest[1] in _ENUMERATOR_ENDS or is_blank(rest[1])):
            return True
    return False


def _holds_opening(items: list[list[tuple[str, Tokens]]], opening: Pattern) -> bool:
    """A piece holds, at the start of one of its lines, the whole line the skeleton writes before the slot
    ("  - " of "<FACTS>\n  - "), which opens the first document: the next document's start, where the
    separator did not split (a rule inside some documents taken for the template's)."""
    begin = max((at + 1 for at, token in enumerate(opening) if token == "\n"), default=0)
    line = ("\n", *opening[begin:])
    if begin == 0 or all(is_blank(token) for token in line):
        return False
    return any(
        find_run(tuple(generalised(token) for token in item.tokens), line, 0) >= 0
        for pieces in items
        for _, item in pieces
    )


def _written_twice(items: list[list[tuple[str, Tokens]]]) -> bool:
    """A piece comes twice in one region, and in other regions too: a line the template writes for every
    group ("Relevant fragments:" under each file's header), not a document (a search returns a document
    once)."""
    twice: set[str] = set()
    regions: dict[str, int] = {}
    for pieces in items:
        texts = Counter(" ".join(item.text.split()) for _, item in pieces)
        twice.update(text for text, count in texts.items() if count > 1)
        for text in texts:
            regions[text] = regions.get(text, 0) + 1
    return any(regions[text] > 1 for text in twice)


def first_separator(region: Tokens, loop: Loop) -> tuple[int, str] | None:
    """Where the separator first occurs in ``region`` (token index) and its text; None when it does not."""
    general = tuple(generalised(token) for token in region.tokens)
    at = find_run(general, loop.separator, 0) if general else -1
    return None if at < 0 else (at, region.span(at, at + len(loop.separator)))


def first_counter(region: Tokens, loop: Loop) -> tuple[int, str] | None:
    """Where the separator first occurs in ``region`` (token index) and its text, when its counters there
    are a loop's first (0 or 1): what comes before it is no document of the loop."""
    if not loop.counters:
        return None
    general = tuple(generalised(token) for token in region.tokens)
    if any(position < _closing(general, loop.separator) for position in loop.counters):
        return None  # the number closes a document ("<source>1</source>"): the first one ends there
    at = find_run(general, loop.separator, 0) if general else -1
    if at < 0 or any(region.tokens[at + i] not in ("0", "1") for i in loop.counters):
        return None
    return at, region.span(at, at + len(loop.separator))


def documents(region: Tokens, loop: Loop, opening: str = "") -> list[tuple[str, str]] | None:
    """The documents' texts in one region, each with its whole item (its header and footer lines too), or
    None when the region does not split (the separator's counter breaks its sequence, as a numbered list
    inside a document does; a piece is empty) or a piece does not have the documents' layout. ``opening``:
    the skeleton's text before the region (it may hold the first document's header)."""
    general = tuple(generalised(token) for token in region.tokens)
    if loop.group:
        inner = ungrouped(region, general, loop.separator, loop.group)
        if inner is None:
            return None
        region, general = inner, tuple(generalised(token) for token in inner.tokens)
    items = _split(region, general, loop.separator, loop.counters, loop.closed, loop.padded == OWN)
    if items is not None and loop.titled:
        items = joined(items, loop.titled)
    before = tuple(generalised(token) for token in tokenize(opening).tokens)
    if items is None or (reopened([items], before) and not opens_quote(before, loop.quote)):
        return None
    items[0] = ("", _header_rest_cut(items[0][1], loop.separator, opening))
    texts = []
    for _, item in items:
        if loop.layout is None:
            texts.append((unquoted(item.text, loop.quote), item.text))
            continue
        prefixed = loop.sample + unquoted(item.text, loop.quote)
        spans = match_pieces(prefixed, loop.layout.pieces, [shape.fits for shape in loop.layout.shapes])
        if spans is None:
            return None
        start, end = _text_span(prefixed, spans, loop.layout)
        if header_again(prefixed, start, end, loop.padded == OWN):
            return None
        texts.append((prefixed[start:end], item.text))
    return texts


def _header_rest_cut(first: Tokens, separator: Pattern, opening: str) -> Tokens:
    """The first document without the rest of its header: where the skeleton before the slot (``opening``)
    ends with the separator's header line up to a point ("Quelle 1 — p. ") or with all of it ("Result
    1:\\n"), and the first document opens with the separator's rest (a number, then the line break or a mark
    between blanks: "#\\n", "# » "; after a whole line, a label the template opens every document with:
    "Content: "), as every other item does."""
    general = tuple(generalised(token) for token in first.tokens)
    before = tuple(generalised(token) for token in tokenize(opening).tokens)
    for start in range(1, len(separator)):
        head, rest = separator[:start], separator[start:]
        whole = head[-1] == "\n"
        opened = head[:-1] if whole else head
        line = head[max((at + 1 for at, token in enumerate(opened) if token == "\n"), default=0) :]
        written = any(not is_blank(token) for token in line) and before[-len(line) :] == line
        marked = rest[-1] == "\n" or any(not is_blank(token) and token != DIGITS for token in rest)
        if general[: len(rest)] != rest or not marked:
            continue
        if written and is_blank(rest[-1]) and (whole or DIGITS in rest):
            return tokenize(first.span(len(rest), len(first)))
        # Never where the separator ends with a backslash: inside a JSON string's escape ("\\t"), whose
        # escaped character is glued to the text.
        if DIGITS in rest and separator[-1] != "\\" and _label_written(head, before):
            return tokenize(first.span(len(rest), len(first)))
    return first


def _label_written(head: Pattern, before: Pattern) -> bool:
    """The skeleton before the slot ends as the separator's part before the first document's rest does,
    from its last blank on (a bare line break; "\"" of "\", \""; "2025-" of "\", \"timestamp: 2025-"):
    the first document opens with the rest of a label every document opens with, whose value (an id, a
    date) varies, so the skeleton could not hold it."""
    blanks = [at for at, token in enumerate(head) if is_blank(token)]
    start = blanks[-1] + 1 if blanks and blanks[-1] + 1 < len(head) else (blanks[-1] if blanks else 0)
    return before[-(len(head) - start) :] == head[start:]


def _holds_header(layout: ItemLayout, prefixed: str, own_rules: bool) -> bool:
    """The item's document text holds a line of its own header again (see :func:`header_again`)."""
    spans = match_pieces(prefixed, layout.pieces, [shape.fits for shape in layout.shapes])
    return spans is not None and header_again(prefixed, *_text_span(prefixed, spans, layout), own_rules)


def _text_span(prefixed: str, spans: Sequence[tuple[int, int]], layout: ItemLayout) -> tuple[int, int]:
    """Where the document's text starts and ends in its item. A fence whose length varies (a Markdown
    fence longer than any run of backticks inside: "````" around a text quoting "```") is a value of the
    layout before the text; its closing line, the same run, ends the text's gap and is no part of it."""
    start, end = spans[layout.text_from][0], spans[layout.text_to][1]
    start -= _own_heading_mark(layout)
    for gap_start, gap_end in spans[: layout.text_from]:
        fence = prefixed[gap_start:gap_end].strip()
        if not _FENCE.fullmatch(fence):
            continue
        text = prefixed[start:end].rstrip()
        closing = text.rfind("\n")
        if closing >= 0 and text[closing + 1 :].strip() == fence:
            return start, start + len(text[:closing].rstrip())
    return start, end


def _own_heading_mark(layout: ItemLayout) -> int:
    """The length of the markdown heading mark that ends the label line's constant right before the text
    ("Markdown Content:\n# "): every document opened with its own heading, whose mark the skeleton took in;
    it is the text's, given back."""
    gaps = [at for at, piece in enumerate(layout.pieces) if piece is None]
    at = gaps[layout.text_from]
    before = layout.pieces[at - 1] if at else None
    found = _LABEL_ABOVE.search(before) if before is not None else None
    return len(found.group("heading")) if found is not None and found.group("heading") else 0


def _grouped_split(
    regions: Sequence[Tokens],
    generals: list[Pattern],
    separator: Pattern,
    counters: tuple[int, ...],
    group: Pattern,
) -> tuple[list[list[tuple[str, Tokens]]], bool] | None:
    """:func:`_split_all` of the regions without their groups' headers, when its bounds agree."""
    inner = [
        ungrouped(region, general, separator, group)
        for region, general in zip(regions, generals, strict=True)
    ]
    bare = [region for region in inner if region is not None]
    if len(bare) < len(inner):
        return None
    split = _split_all(
        bare, [tuple(generalised(t) for t in region.tokens) for region in bare], separator, counters
    )
    return split if split is not None and _bounds_agree(split[0]) else None


def _one_neighbour(regions: Sequence[Tokens], generals: list[Pattern], separator: Pattern) -> bool:
    """Every occurrence has the same text just before it, or just after it: the marks end (or open) one
    document that recurs ("… * * *" closing a popular document), they separate nothing. A run seen once in
    the whole window is no evidence of a loop either: a quote in one question asked twice is not one."""
    before: set[str] = set()
    after: set[str] = set()
    count = 0
    for region, general in zip(regions, generals, strict=True):
        for at in _occurrences(general, separator):
            count += 1
            start = region.starts[at]
            end = region.starts[at + len(separator)]
            before.add(region.text[max(0, start - _NEIGHBOURHOOD) : start])
            after.add(region.text[end : end + _NEIGHBOURHOOD])
    return count <= 1 or len(before) == 1 or len(after) == 1


def _within_documents(items: list[list[tuple[str, Tokens]]], title: str = "") -> bool:
    """The separator sits inside documents that recur whole, between the same two halves wherever they were
    retrieved (a popular chunk's own rule line, "…\n---\n…"; a title and its text, "{title} — {text}"),
    not between documents, which come back in other company and order, or last: every line seen before it
    in two requests or more is followed by one line alone (never by the slot's end), and either one such
    line came so in three requests or more, its follower preceded by it alone, or two such lines did. A
    line after it that opens with the documents' ``title`` mark starts a document of its own (two
    documents retrieved together)."""
    followers: dict[str, set[str]] = {}
    leaders: dict[str, set[str]] = {}
    requests: dict[str, set[int]] = {}
    for number, pieces in enumerate(items):
        lines = [_edge_lines(item.text) for _, item in pieces]
        for at, (first, last) in enumerate(lines):
            after = lines[at + 1][0] if at + 1 < len(lines) else _SLOT_EDGE
            followers.setdefault(last, set()).add(after)
            leaders.setdefault(first, set()).add(lines[at - 1][1] if at else _SLOT_EDGE)
            if after != _SLOT_EDGE:
                requests.setdefault(last, set()).add(number)
    recurring = [last for last, seen in requests.items() if len(seen) > 1]
    glued = [
        last
        for last in recurring
        if len(following := followers[last]) == 1
        and _SLOT_EDGE not in following
        and not titled(next(iter(following)), title)
    ]
    halves = any(
        len(requests[last]) >= _GLUED_REQUESTS and leaders.get(next(iter(followers[last]))) == {last}
        for last in glued
    )
    return len(glued) == len(recurring) and (halves or len(glued) >= 2)


_SLOT_EDGE: Final = "\ue003"
"""What stands before a slot's first piece and after its last, in :func:`_within_documents`."""
_GLUED_REQUESTS: Final = 3
"""Requests in which two pieces came together, and never apart, before they are taken for one document's
halves: two documents retrieved together now and then come apart soon."""


def _edge_lines(text: str) -> tuple[str, str]:
    """A piece's first and last lines with text (blanks collapsed)."""
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    return (lines[0], lines[-1]) if lines else ("", "")


def _counters(regions: Sequence[Tokens], generals: list[Pattern], separator: Pattern) -> tuple[int, ...]:
    """The separator's numbers that count its occurrences (up by one in every region): a score or a year
    varies but counts nothing."""
    positions = [i for i, token in enumerate(separator) if token == DIGITS]
    counting = []
    for position in positions:
        seen = False
        for region, general in zip(regions, generals, strict=True):
            values = [region.tokens[at + position] for at in _occurrences(general, separator)]
            if len(values) > 1:
                seen = True
                if not _consecutive(values):
                    break
        else:
            if seen:
                counting.append(position)
    return tuple(counting)


def _bounds_agree(items: list[list[tuple[str, Tokens]]]) -> bool:
    """Every region's first piece starts a document and its last piece ends one: where such a start or end
    recurs in another region, a piece must start or end there too, or the split misses documents' bounds
    (a bullet inside a document taken for the separator, documents joined by a bare line break)."""
    starts = {_edge(pieces[0][1].text, head=True) for pieces in items if len(pieces) > 1}
    ends = {_edge(pieces[-1][1].text, head=False) for pieces in items if len(pieces) > 1}
    starts.discard("")
    ends.discard("")
    for pieces in items:
        texts = [" ".join(item.text.split()) for _, item in pieces]
        for text in texts:
            if any(not text.startswith(start) and start in text for start in starts):
                return False
            if any(not text.endswith(end) and end in text for end in ends):
                return False
    return True


def _edge(text: str, head: bool) -> str:
    """A piece's first (or last) words, long enough to name one document."""
    flat = " ".join(text.split())
    if len(flat) < _EDGE_CHARS:
        return ""
    return flat[:_EDGE_CHARS] if head else flat[-_EDGE_CHARS:]


def _recurrence(items: list[list[tuple[str, Tokens]]], title: str = "") -> tuple[int, int, int]:
    """Pieces that recur in several requests, how many of those always come with the same piece after
    them, that one always with them before it (a title and its text, two paragraphs of one document:
    documents a search returns come in other company and order from one request to the next), and how many
    distinct pieces there are. A piece after them that opens with the documents' ``title`` mark is a
    document of its own (two documents retrieved together), never glued."""
    after: dict[str, set[str]] = {}
    before: dict[str, set[str]] = {}
    seen: dict[str, int] = {}
    for found in {tuple(item.text.strip() for _, item in pieces) for pieces in items}:
        for index, text in enumerate(found):
            seen[text] = seen.get(text, 0) + 1
            after.setdefault(text, set()).add(found[index + 1] if index + 1 < len(found) else "")
            before.setdefault(text, set()).add(found[index - 1] if index else "")
    recurring = [text for text, count in seen.items() if count > 1]
    glued = [
        text
        for text in recurring
        if len(after[text]) == 1
        and (follower := next(iter(after[text])))
        and before.get(follower) == {text}
        and not titled(follower, title)
    ]
    return len(recurring), len(glued), len(seen)


def _candidates(generals: list[Pattern], before: Pattern, after: Pattern) -> list[Pattern]:
    """Separators to try, most telling first: those the skeleton shows around the slot, longest first;
    then numbered lines; then runs of marks the regions repeat; those of blanks only last."""
    seen: set[Pattern] = set()
    shown: list[Pattern] = []
    head = [generalised(token) for token in after[:_EDGE_TOKENS]]
    tail = [generalised(token) for token in before[-_EDGE_TOKENS:]]
    occurs_in_some = _run_finder(generals)
    for end_part in range(len(head) + 1):
        for start_part in range(len(tail) + 1):
            candidate = _trimmed(tuple(head[:end_part] + tail[len(tail) - start_part :]))
            if candidate and candidate not in seen and occurs_in_some(candidate):
                seen.add(candidate)
                shown.append(candidate)
    shown.sort(key=len, reverse=True)
    numbered = [line for line in _numbered_lines(generals) if line not in seen]
    seen.update(numbered)
    runs: dict[Pattern, int] = {}
    for general in generals:
        for run in _mark_runs(general):
            runs[run] = runs.get(run, 0) + 1
    repeated = sorted(
        (run for run in runs if run not in seen),
        key=lambda run: (all(is_blank(token) for token in run), -runs[run], -len(run)),
    )
    ordered = shown + numbered + repeated
    # Blanks alone come last: a document's own blank lines look the same as the template's.
    return [c for c in ordered if not _blank(c)] + [c for c in ordered if _blank(c)]


def _run_finder(generals: list[Pattern]) -> Callable[[Pattern], bool]:
    """Whether a run of tokens occurs in one of ``generals``, asked of the hundreds of edge combinations:
    each distinct token written as one character of its own, a run occurs in a region exactly where its
    characters occur in the region's, which the string search finds without a Python step per token. Past
    as many distinct tokens as there are characters (a window of huge prompts of words never repeated), the
    token scan answers instead."""
    distinct = {token for general in generals for token in general}
    if len(distinct) > _CODES:
        return lambda pattern: any(find_run(general, pattern, 0) >= 0 for general in generals)
    codes = {token: chr(code) for code, token in enumerate(distinct)}
    texts = ["".join([codes[token] for token in general]) for general in generals]

    def occurs_in_some(pattern: Pattern) -> bool:
        if any(token not in codes for token in pattern):
            return False
        run = "".join([codes[token] for token in pattern])
        return any(run in text for text in texts)

    return occurs_in_some


def _blank(pattern: Pattern) -> bool:
    return all(is_blank(token) for token in pattern)


def _numbered_lines(generals: list[Pattern]) -> list[Pattern]:
    """Short lines with a number that one region holds twice or more ("Dokument 1:", "Dokument 2:"): a
    loop that numbers its documents on a line of their own."""
    found: dict[Pattern, int] = {}
    for general in generals:
        counted: dict[Pattern, int] = {}
        for index, token in enumerate(general):
            if token != DIGITS:
                continue
            start = index
            while start > 0 and general[start - 1] != "\n" and index - start < _LINE_TOKENS:
                start -= 1
            end = index
            while end < len(general) - 1 and general[end] != "\n" and end - index < _LINE_TOKENS:
                end += 1
            if start > 0 and general[start - 1] == "\n" and general[end] == "\n":
                line = general[start - 1 : end + 1]
                counted[line] = counted.get(line, 0) + 1
        for line, count in counted.items():
            if count > 1:
                found[line] = found.get(line, 0) + 1
    return sorted(found, key=lambda line: (-found[line], -len(line)))


def _mark_runs(general: Pattern) -> list[Pattern]:
    """Maximal runs of tokens that are neither words nor digits, between two words, holding a blank or a
    line break ("a_b", "2.4.0" join parts of one word): where a template may join documents."""
    runs: list[Pattern] = []
    start = None
    for index, token in enumerate(general):
        mark = not is_word(token) and token != DIGITS
        if mark and start is None:
            start = index
        elif not mark and start is not None:
            if start > 0 and any(is_blank(token) or is_marker(token) for token in general[start:index]):
                runs.append(general[start:index])
            start = None
    return [trimmed for run in runs if (trimmed := _trimmed(run))]


def _trimmed(run: Pattern) -> Pattern:
    """A candidate separator without a sentence's last mark at its start (that mark is the document's), and
    none at all when it is what stands between two words of prose (" ", ". ", ", ")."""
    while run and run[0] in SENTENCE_END:
        run = run[1:]
    text = "".join(run)
    if "\n" not in text and is_prose_mark(text.strip()):
        return ()
    return run


def _widened(generals: list[Pattern], separator: Pattern, opening: Pattern) -> Pattern:
    """The separator grown over the tokens every occurrence shares on its left (a closing tag, a fence: the
    end of every document but the last) and right (the start of every document but the first). Where the
    separator ends as the skeleton before the slot (``opening``) does, the growth on the right is the
    template's only as far as the first document opens with it too: a value alike after every separator of
    the window by chance (the second document's source, a file four chunks share) is no part of it."""
    places = [(g, at) for g in generals for at in _occurrences(g, separator)]
    if not places:
        return separator
    left: list[str] = []
    while True:
        offset = len(left) + 1
        tokens = {g[at - offset] if at - offset >= 0 else None for g, at in places}
        token = tokens.pop() if len(tokens) == 1 else None
        ends_sentence = token in SENTENCE_END and any(
            at - offset - 1 >= 0 and is_word(g[at - offset - 1]) for g, at in places
        )
        if token is None or ends_sentence:
            break
        left.insert(0, token)
    while left and is_word(left[0]):
        left.pop(0)  # the end of a value alike in every occurrence by chance (".md"), not the separator's
    right: list[str] = []
    while True:
        offset = len(separator) + len(right)
        tokens = {g[at + offset] if at + offset < len(g) else None for g, at in places}
        token = tokens.pop() if len(tokens) == 1 else None
        if token is None:
            break
        right.append(token)
    while right and (is_word(right[-1]) or (is_blank(right[-1]) and len(right) > 1 and is_word(right[-2]))):
        right.pop()
    if _opens_as_skeleton(separator, opening):
        return tuple(left) + separator + _first_opens_with(generals, tuple(right), opening)
    return tuple(left) + separator + tuple(right)


def _value_trimmed(separator: Pattern, counters: tuple[int, ...]) -> Pattern:
    """The separator without a number it ends with, then a blank, that counts nothing ("24.1 " of
    "DOCUMENT 2: 24.1 Billing"): every document's header opened with a number by chance (a section, a
    version, a score), the first value of its title, not the template's text."""
    end = len(separator)
    if end < 2 or not is_blank(separator[-1]) or separator[-1] == "\n" or separator[-2] != DIGITS:
        return separator
    at = end - 1
    while at > 0 and separator[at - 1] == DIGITS and at - 1 not in counters:
        at -= 1
        if at > 1 and separator[at - 1] in _NUMBER_JOINERS and separator[at - 2] == DIGITS:
            at -= 1
        else:
            break
    return separator if at == end - 1 else separator[:at]


def _opens_as_skeleton(separator: Pattern, opening: Pattern) -> bool:
    """The separator ends with text the skeleton writes just before the slot ("[1] " for "\\n\\n[2] "):
    the first document's opening is the skeleton's, so what every other document opens with beyond it must
    open the first one too."""
    width = min(len(separator), len(opening))
    while width and separator[-width:] != opening[-width:]:
        width -= 1
    return any(not is_blank(token) for token in separator[len(separator) - width :])


def _first_opens_with(generals: list[Pattern], right: Pattern, opening: Pattern) -> Pattern:
    """The longest start of ``right`` that every region's first document opens with, or that the skeleton
    before the slot ends with."""
    firsts = [general for general in generals if general]
    width = len(right)
    while width and not (
        opening[len(opening) - width :] == right[:width]
        or all(general[:width] == right[:width] for general in firsts)
    ):
        width -= 1
    return right[:width]


def _occurrences(general: Pattern, pattern: Pattern) -> list[int]:
    found: list[int] = []
    at = find_run(general, pattern, 0)
    while at >= 0 and len(found) <= _MAX_ITEMS:
        found.append(at)
        at = find_run(general, pattern, at + len(pattern))
    return found


def _split(
    region: Tokens,
    general: Pattern,
    separator: Pattern,
    counters: tuple[int, ...],
    closed: bool = False,
    own: bool = False,
) -> list[tuple[str, Tokens]] | None:
    """The region's pieces between separators, each with the separator text before it ("" for the first);
    the last piece without the start of a separator the skeleton did not take (a closing label whose number
    varies: "[END CONTEXT 2"). ``own``: an occurrence between blank lines is a document's text."""
    places = [at for at in _occurrences(general, separator) if not (own and _padded(general, at, separator))]
    if len(places) > _MAX_ITEMS:
        return None
    for position in counters:
        if not _consecutive([region.tokens[at + position] for at in places]):
            return None
    end = len(general) - _closing(general, separator)
    if closed:
        if not places or places[-1] + len(separator) != len(general):
            return None
        end = places.pop()  # the template writes the separator after every document, the last one's too
    pieces = []
    start = 0
    before = ""
    for at in [*places, end]:
        if not any(is_word(token) or token.isdigit() for token in region.tokens[start:at]):
            return None
        pieces.append((before, tokenize(region.span(start, at))))
        if at < end:
            before = region.span(at, at + len(separator))
        start = at + len(separator)
    return pieces


def _padding(
    regions: Sequence[Tokens],
    generals: list[Pattern],
    separator: Pattern,
    counters: tuple[int, ...],
    split: tuple[list[list[tuple[str, Tokens]]], bool],
) -> tuple[str, list[list[tuple[str, Tokens]]]]:
    """What the window's occurrences of the separator between blank lines are, and the split that
    follows. Where splitting only at the occurrences framed as the others are leaves fewer pieces that
    always come together, one after the other, and as many that recur but for those joined, they are a
    document's own rule between its paragraphs (:data:`OWN`): a search returns documents in other company
    and order, never two halves of one, and documents joined at a template's separator recur no more. Else
    they join documents as the others do (one ending with a line break of its own)."""
    if not any(
        _padded(general, at, separator) for general in generals for at in _occurrences(general, separator)
    ):
        return "", split[0]
    exact = _split_all(regions, generals, separator, counters, own=True)
    if exact is not None and exact[1] == split[1]:
        recurring, glued, _ = _recurrence(split[0])
        own_recurring, own_glued, _ = _recurrence(exact[0])
        if own_glued < glued and own_recurring >= recurring - glued:
            return OWN, exact[0]
    return JOINS, split[0]


def _padded(general: Pattern, at: int, separator: Pattern) -> bool:
    """The separator's occurrence at ``at`` frames a line of marks as the template does, but with a blank
    line on each side it breaks a line ("\\n\\n---\\n\\n" where the template writes "\\n---\\n"): a rule
    between two paragraphs. A document ending with a line break of its own leaves a blank line before the
    template's rule only."""
    if all(is_blank(token) for token in separator) or "\n" not in (separator[0], separator[-1]):
        return False
    if separator[0] == "\n":
        index = at - 1
        while index >= 0 and general[index] != "\n" and is_blank(general[index]):
            index -= 1
        if index < 0 or general[index] != "\n":
            return False
    if separator[-1] == "\n":
        index = at + len(separator)
        while index < len(general) and general[index] != "\n" and is_blank(general[index]):
            index += 1
        if index >= len(general) or general[index] != "\n":
            return False
    return True


def _closing(general: Pattern, separator: Pattern) -> int:
    """How many tokens the region ends with that open the separator, holding a mark: the last document's
    own closing label."""
    for width in range(min(len(separator) - 1, len(general)), 0, -1):
        if general[-width:] == separator[:width] and any(not is_blank(token) for token in separator[:width]):
            return width
    return 0


def _consecutive(values: list[str]) -> bool:
    """Counters that go up by one: a numbered list inside a document breaks them."""
    numbers = [numeral_value(value) for value in values]
    return all(a is not None and b == a + 1 for a, b in itertools.pairwise(numbers))


def _split_all(
    regions: Sequence[Tokens],
    generals: list[Pattern],
    separator: Pattern,
    counters: tuple[int, ...],
    own: bool = False,
) -> tuple[list[list[tuple[str, Tokens]]], bool] | None:
    """Every region's documents, when the separator splits every region and repeats in one at least; and
    whether every region ends with it (the template writes it after every document). ``own``: see
    :func:`_split`."""
    filled = [(region, general) for region, general in zip(regions, generals, strict=True) if region.tokens]
    closed = bool(filled) and all(general[-len(separator) :] == separator for _, general in filled)
    items: list[list[tuple[str, Tokens]]] = []
    repeats = False
    for region, general in filled:
        found = _split(region, general, separator, counters, closed, own)
        if found is None:
            return None
        repeats = repeats or len(found) > 1
        items.append(found)
    return (items, closed) if repeats else None


def _layout(items: list[Tokens]) -> ItemLayout | None:
    """The documents' own layout (a title line and a fence, metadata fields, or only the separator before
    them), learnt from every document of the window, each after its separator."""
    pieces, tails, unclear = header_tails_split(items, align(items, loops=False))
    gaps = [piece for piece in pieces if isinstance(piece, Gap)]
    if not gaps:
        return None
    # Characters, not tokens: a header's id ("6d0c62c3") has more tokens than a line of Chinese.
    lengths = [sum(len(text) for text in gap_texts(items, gap)) for gap in gaps]
    bodies = [index for index, gap in enumerate(gaps) if gap not in tails] or list(range(len(gaps)))
    text = max(bodies, key=lambda index: lengths[index])
    # A line that asks before the text is a title when the template writes something between it and the
    # text ("Title: How…?\nURL: …\n", "[2] How…? (link)\n"). With only a line break between them it is a
    # title the template writes ("## How do I…?", "DOCUMENT 2: How…?") or the document's own first question,
    # which one template cannot tell; after a blank line it is the document's own paragraph ("text: Why…?\n
    # \nSeasons are…"), as a template's title line is not.
    # After the text, a value the template labels, on a line of its own ("\nSource: ") or after a mark on
    # the text's line (", link: "), is a field it writes with the document, whatever the value ends with
    # ("401k." of "401k.md").
    apart = [
        _written_between(pieces, gap, gaps[text])
        if index < text
        else index > text and _labelled_field(_between(pieces, gaps[text], gap))
        for index, gap in enumerate(gaps)
    ]
    content = [
        index
        for index, gap in enumerate(gaps)
        if index == text
        or (index in bodies and not _metadata(items, gap, apart[index]))
        or _runs_on(pieces, gap, gaps[text])
        or (index < text and _under_label(pieces, gap) and not apart[index])
    ]
    # The template labels the text's field on a line of its own: the gaps before that label are its other
    # fields (a link that goes on with a date only some documents have), never the text.
    labelled = [index for index in content if index <= text and _under_label(pieces, gaps[index])]
    content = [index for index in content if not labelled or index >= labelled[0]]
    unclear = unclear or any(
        index < text
        and not apart[index]
        and _one_line(items, gap)
        and _asking(items, gap)
        and (opens_heading(pieces, pieces.index(gap)) or _between(pieces, gap, gaps[text]).count("\n") == 1)
        for index, gap in enumerate(gaps)
    )
    # A value the text would open with that goes on, in some documents only, with a line the same label
    # opens in all of them ("https://…\n\nPublished Time: …"): a field the template writes for some
    # documents only, where the alignment took the fields for text; where the text begins is not told.
    unclear = unclear or any(
        index < text and index in content and _optional_field(items, gap) for index, gap in enumerate(gaps)
    )
    unclear = unclear or any(
        index < text and index not in content and _own_heading(pieces, gap, gaps[text])
        for index, gap in enumerate(gaps)
    )
    unclear = unclear or (min(content) == 0 and _titled_value(items, pieces, gaps[0]))
    layout = tuple(piece.text if isinstance(piece, Constant) else None for piece in pieces)
    shapes = tuple(shape_of(gap_texts(items, gap), _following(pieces, gap)) for gap in gaps)
    return ItemLayout(layout, shapes, min(content), max(content), unclear)


def _runs_on(pieces: list[Piece], gap: Gap, text: Gap) -> bool:
    """The template writes only words and blanks between ``gap`` and the text's gap, on one line: the
    words every document of the window happened to share ("Alice " opening every fact about Alice), with
    the gap the words before them in another document ("The plan of "). That gap is the text's, no
    metadata: a template sets its fields apart with a line break or a mark."""
    if gap == text:
        return False
    first, second = sorted((pieces.index(gap), pieces.index(text)))
    tokens: list[str] = []
    for piece in pieces[first + 1 : second]:
        if isinstance(piece, Gap):
            return False  # another value between them: fields the template keeps apart
        tokens.extend(piece.tokens)
    return any(is_word(token) for token in tokens) and all(is_word(token) or token == " " for token in tokens)


def _own_heading(pieces: list[Piece], gap: Gap, text: Gap) -> bool:
    """``gap`` sits on a markdown heading's line that the separator opens, and the template sets the text
    apart from it by more line breaks than it sets one document from the one before ("\n# {heading}\n\n
    {text}" joined by one line break): a chunk split at its headings keeps each heading and the blank line
    under it, while a template that writes a title keeps it at least as close to its text as to the
    document before. Whether the heading is the template's or the chunk's own is not told."""
    first = pieces[0]
    if not isinstance(first, Constant) or not opens_heading(pieces, pieces.index(gap)):
        return False
    return _between(pieces, gap, text).count("\n") > first.text.count("\n")


def _titled_value(items: list[Tokens], pieces: list[Piece], gap: Gap) -> bool:
    """The item's first gap follows a label on the label's line ("Title: ", "Excerpt: ") and every value
    opens with a short line that neither ends a sentence nor asks, then a blank line and more: the label
    names a title the template writes above an unlabelled text, or the text, which opens with a heading of
    its own; one template cannot tell which."""
    at = pieces.index(gap)
    before = pieces[at - 1] if at else None
    if not isinstance(before, Constant) or _INLINE_LABEL_END.search(before.text) is None:
        return False
    values = gap_texts(items, gap)
    return all(_TITLE_THEN_BLANK.match(value) is not None for value in values)


def _under_label(pieces: list[Piece], gap: Gap) -> bool:
    """The template writes a label on a line of its own right above the gap ("PASSAGE:\n"): the field it
    names starts there, and a first line set apart from the rest by a bare line break (the chunk's own
    heading) is its text, not a title."""
    at = pieces.index(gap)
    before = pieces[at - 1] if at else None
    return isinstance(before, Constant) and _LABEL_ABOVE.search(before.text) is not None


def _following(pieces: list[Constant | Gap], gap: Gap) -> str:
    at = pieces.index(gap)
    after = pieces[at + 1] if at + 1 < len(pieces) else None
    return after.text if isinstance(after, Constant) else ""


def _metadata(items: list[Tokens], gap: Gap, apart: bool) -> bool:
    """A gap of short single-line values that are not questions nor sentences (a title, a file name, a link,
    a score), or that the template's own text keeps ``apart`` from the document's text."""
    return _one_line(items, gap) and (apart or not (_asking(items, gap) or _stating(items, gap)))


def _between(pieces: list[Piece], first: Gap, second: Gap) -> str:
    """The template's text between two gaps of an item's layout (other gaps count as nothing)."""
    start, end = pieces.index(first), pieces.index(second)
    return "".join(piece.text for piece in pieces[start + 1 : end] if isinstance(piece, Constant))


def _labelled_field(between: str) -> bool:
    """The template's text between the document's text and a later value opens a new line and labels it
    with a word ("\nSource: "), or labels a field after a mark on the same line ("…., title: ")."""
    line = between[between.rfind("\n") + 1 :] if "\n" in between else ""
    return any(character.isalpha() for character in line) or _INLINE_LABEL.search(between) is not None


def _written_between(pieces: list[Piece], first: Gap, second: Gap) -> bool:
    """The template writes more than blanks between two gaps, or another value."""
    start, end = pieces.index(first), pieces.index(second)
    return any(
        isinstance(piece, Gap) or any(not is_blank(token) for token in piece.tokens)
        for piece in pieces[start + 1 : end]
    )


def _optional_field(items: list[Tokens], gap: Gap) -> bool:
    """The gap's values are one line in some items and, in two or more others, go on with lines that each
    open with the same label ("Published Time: "): a field of the template's that only some items have."""
    values = [item.span(start, end).strip() for item, (start, end) in zip(items, gap.ranges, strict=True)]
    going_on = [value for value in values if "\n" in value]
    if len(going_on) < 2 or len(going_on) == len(values):
        return False
    labels: set[str] = set()
    for value in going_on:
        for line in value.splitlines()[1:]:
            if not line.strip():
                continue
            field = _FIELD_LINE.match(line.strip())
            if field is None:
                return False
            labels.add(field.group().rstrip())
    return len(labels) == 1


def _one_line(items: list[Tokens], gap: Gap) -> bool:
    """Every value of the gap is short and on one line."""
    values = [item.span(start, end) for item, (start, end) in zip(items, gap.ranges, strict=True)]
    return all(len(value) <= 300 and "\n" not in value.strip() for value in values)


def _stating(items: list[Tokens], gap: Gap) -> bool:
    """Most of the gap's values end a sentence with a full stop: the documents' first lines, not titles."""
    values = [item.span(start, end).rstrip() for item, (start, end) in zip(items, gap.ranges, strict=True)]
    stating = sum(value[-1:] in _FULL_STOPS and not value[-2:-1].isdigit() for value in values)
    return stating * 2 > len(values)


def _asking(items: list[Tokens], gap: Gap) -> bool:
    """Half of the gap's values or more end with a question mark."""
    values = [item.span(start, end) for item, (start, end) in zip(items, gap.ranges, strict=True)]
    asking = sum(value.rstrip()[-1:] in QUESTION_MARKS for value in values)
    return asking * 2 >= len(values)
