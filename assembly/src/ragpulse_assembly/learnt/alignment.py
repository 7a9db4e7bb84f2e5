"""Many texts of one template aligned: the token runs they all share in the same order are the skeleton, the
regions where they differ are gaps (the template's slots).

The method is wrapper induction's (RoadRunner, ExAlg) over prompts instead of pages: a token that occurs
exactly once in every text, in an order all texts agree on, and whose neighbours agree too (a label, a
marker, a rule; not one word of a document that happens to occur once everywhere), anchors the texts to one
another. Between two anchors the texts are either the same (skeleton) or not (a gap, aligned again inside
with the tokens unique there). A gap's edges that every text shares are moved into the skeleton (a counter
"[1] «", a fence), except words and a sentence's last mark: a document that starts with "The" in every
request of the window still starts with "The".
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ragpulse_assembly.learnt.tokens import (
    CLAUSE_MARKS,
    DIGITS,
    GREEK_QUESTION,
    QUESTION_MARKS,
    SENTENCE_END,
    Tokens,
    generalised,
    is_blank,
    is_marker,
    is_word,
)

_EDGE_SOLID: Final = 4
"""Tokens of structure around a first or last occurrence that make it an anchor."""
_LABEL_TOKENS: Final = 40
"""Tokens a name before an inline label's mark may have (a title, a file name, a counter)."""
_COLONS: Final = frozenset(":：")
_NOT_LABEL_ENDS: Final = SENTENCE_END | CLAUSE_MARKS | frozenset("'’\"()[]")
"""Marks that end clauses and quotes, never a title's label."""
_JOINERS: Final = frozenset("-_./@+")
"""Marks inside a name ("audit-log.md", "a_b"), unless a blank follows."""
_INVERTED_MARKS: Final = {"¿": QUESTION_MARKS, "¡": frozenset("!！")}
"""Marks that open a sentence (Spanish, Galician, Asturian), with the marks that close it: never a template's
own text before a value, however many values start with one."""
MAX_DEPTH: Final = 6
"""Nested alignments inside gaps: labels inside a region are found within a few levels."""
Range = tuple[int, int]


@dataclass(frozen=True)
class Constant:
    tokens: tuple[str, ...]

    @property
    def text(self) -> str:
        return "".join(self.tokens)


@dataclass(frozen=True)
class Gap:
    ranges: tuple[Range, ...]
    """Per text, the token range the gap covers."""


Piece = Constant | Gap


def align(texts: Sequence[Tokens], loops: bool = True) -> list[Piece]:
    """The skeleton and gaps of ``texts``, in order: constants and gaps alternate. ``loops``: a constant
    that recurs inside a gap beside it is a loop's separator, and the three are one gap (not inside one
    document, where a title's colon recurs in the text)."""
    pieces = _align(texts, tuple((0, len(text)) for text in texts), 0, loops)
    pieces = _absorb_edges(texts, _sentence_ends_returned(texts, _merged(pieces)))
    pieces = _absorb_edges(texts, _field_lines_split(texts, pieces))
    pieces = _sentence_opens_returned(texts, pieces)
    return _loops_joined(texts, pieces) if loops else pieces


def gap_texts(texts: Sequence[Tokens], gap: Gap) -> list[str]:
    return [text.span(start, end) for text, (start, end) in zip(texts, gap.ranges, strict=True)]


def _align(texts: Sequence[Tokens], ranges: tuple[Range, ...], depth: int, prompts: bool) -> list[Piece]:
    """``prompts``: the texts are whole prompts (a paragraph that ends a message may be the question)."""
    slices = [text.tokens[start:end] for text, (start, end) in zip(texts, ranges, strict=True)]
    if all(piece == slices[0] for piece in slices[1:]):
        return [Constant(slices[0])] if slices[0] else []
    if depth >= MAX_DEPTH:
        return [Gap(ranges)]
    anchors = (
        _anchors(texts, ranges, slices)
        or _run_of_messages(texts, ranges, slices)
        or _edge_anchor(texts, ranges, slices)
        or _inline_label(texts, ranges)
        or (_last_paragraph(texts, ranges) if prompts else _name_line(texts, ranges))
    )
    if not anchors:
        return [Gap(ranges)]
    pieces: list[Piece] = []
    previous = [start for start, _ in ranges]
    for token, positions in anchors:
        inner = tuple((before, at) for before, at in zip(previous, positions, strict=True))
        pieces.extend(_align(texts, inner, depth + 1, prompts))
        pieces.append(Constant((token,)))
        previous = [at + 1 for at in positions]
    tail = tuple((before, end) for before, (_, end) in zip(previous, ranges, strict=True))
    pieces.extend(_align(texts, tail, depth + 1, prompts))
    return pieces


def _anchors(
    texts: Sequence[Tokens], ranges: tuple[Range, ...], slices: list[tuple[str, ...]]
) -> list[tuple[str, list[int]]]:
    """Tokens unique in every slice, in an order every text agrees on, whose neighbours agree: each with its
    position in every text."""
    counts = [Counter(piece) for piece in slices]
    unique = {token for token, count in counts[0].items() if count == 1}
    for count in counts[1:]:
        unique = {token for token in unique if count.get(token) == 1}
    if not unique:
        return []
    positions: dict[str, list[int]] = {token: [] for token in unique}
    for piece, (start, _) in zip(slices, ranges, strict=True):
        for offset, token in enumerate(piece):
            if token in positions:
                positions[token].append(start + offset)
    ordered = sorted(unique, key=lambda token: positions[token][0])
    for member in range(1, len(texts)):
        ordered = _increasing(ordered, [positions[token][member] for token in ordered])
    return [(token, positions[token]) for token in ordered if _stable(texts, ranges, positions[token], token)]


def _in_every(slices: list[tuple[str, ...]]) -> set[str]:
    """The tokens every slice holds."""
    present = set(slices[0])
    for piece in slices[1:]:
        present &= set(piece)
    return present


def _run_of_messages(
    texts: Sequence[Tokens], ranges: tuple[Range, ...], slices: list[tuple[str, ...]]
) -> list[tuple[str, list[int]]]:
    """The first marker of a run of messages of one role that every slice holds, as many as each request
    made (an agent's parallel tool calls, one result each), and no other message inside the run: where the
    run begins is the template's, whatever follows. Markers are structure no text can forge, so they need
    no neighbours that agree; a role whose messages alternate with others' (a conversation's turns) is no
    run, and a marker inside a run (its first message before the slice) begins none."""
    present = _in_every(slices)
    for token in sorted(token for token in present if is_marker(token)):
        at = [start + piece.index(token) for piece, (start, _) in zip(slices, ranges, strict=True)]
        if all(
            token not in text.tokens[:position] and _one_run(piece, token)
            for text, piece, position in zip(texts, slices, at, strict=True)
        ):
            return [(token, at)]
    return []


def _one_run(piece: tuple[str, ...], token: str) -> bool:
    """``token``'s messages in ``piece`` follow one another with no other message between them."""
    roles = [held for held in piece if is_marker(held)]
    first = roles.index(token)
    return roles[first : first + roles.count(token)] == [token] * roles.count(token)


def _edge_anchor(
    texts: Sequence[Tokens], ranges: tuple[Range, ...], slices: list[tuple[str, ...]]
) -> list[tuple[str, list[int]]]:
    """A mark every slice holds, taken at its first or last occurrence where that occurrence sits in the
    same run of structure in every text ('\"\"\"\\n\\nQuestion: ' after the last document, though a document
    quotes "Question:" too): the run with the most structure wins."""
    present = _in_every(slices)
    best: tuple[int, str, list[int]] | None = None
    for token in sorted(present):
        if not _a_mark(token):
            continue  # a word may end a value that is alike in every text by chance ("….md")
        for last in (False, True):
            at = [
                start + (len(piece) - 1 - piece[::-1].index(token) if last else piece.index(token))
                for piece, (start, _) in zip(slices, ranges, strict=True)
            ]
            solid = _solid_run(texts, ranges, at)
            if solid >= _EDGE_SOLID and (best is None or solid > best[0]):
                best = (solid, token, at)
    return [] if best is None else [(best[1], best[2])]


def _solid_run(texts: Sequence[Tokens], ranges: tuple[Range, ...], at: list[int]) -> int:
    """Tokens other than blanks in the run around ``at`` that is the same in every text."""
    solid = 0
    for step in (-1, 0, 1):
        offset = step
        while True:
            here = [position + offset for position in at]
            if any(not start <= p < end for p, (start, end) in zip(here, ranges, strict=True)):
                break
            first = texts[0].tokens[here[0]]
            if any(text.tokens[p] != first for text, p in zip(texts, here, strict=True)):
                break
            solid += not is_blank(first) or first == "\n"
            if step == 0:
                break
            offset += step
    return solid


def _last_paragraph(texts: Sequence[Tokens], ranges: tuple[Range, ...]) -> list[tuple[str, list[int]]]:
    """A range that ends, in every prompt, with one line after a blank line (the question after the
    documents, "{context}\n\n{question}"): the blank line's last break is the anchor."""
    at = []
    for text, (start, end) in zip(texts, ranges, strict=True):
        breaks = [i for i in range(start, end) if text.tokens[i] == "\n"]
        if len(breaks) < 2:
            return []
        last = breaks[-1]
        blank = all(is_blank(text.tokens[i]) for i in range(breaks[-2], last))
        if not blank or last + 1 >= end or breaks[-2] == start:
            return []
        at.append(last)
    return [("\n", at)]


def _name_line(texts: Sequence[Tokens], ranges: tuple[Range, ...]) -> list[tuple[str, list[int]]]:
    """Inside one document's item: a range that opens, in every text, with a line that is one name of a
    file, a path or an id ("benefits-guide.pdf", "docs/faq.md", "KB-1042"), with the text on the lines
    after it, and the names are not all one: the line's break is the anchor, so the name is a field of the
    item's header, not the document's first words. A single word ("FAQ") or a line with blanks may be a
    document's own heading and anchors nothing."""
    shared = _shared_count(texts, ranges)
    at: list[int] = []
    names: set[tuple[str, ...]] = set()
    for text, (first, end) in zip(texts, ranges, strict=True):
        start = first + shared
        tokens = text.tokens
        found = next((i for i in range(start, min(end, start + _LABEL_TOKENS)) if tokens[i] == "\n"), None)
        if found is None or found == start or not any(not is_blank(t) for t in tokens[found:end]):
            return []
        name = tokens[start:found]
        if any(is_blank(part) for part in name) or name[-1][-1:] in SENTENCE_END:
            return []
        if not any(part in _JOINERS or part.isdigit() for part in name):
            return []
        names.add(name)
        at.append(found)
    return [("\n", at)] if len(names) > 1 else []


def _inline_label(texts: Sequence[Tokens], ranges: tuple[Range, ...]) -> list[tuple[str, list[int]]]:
    """A name that opens every text's range (after what they all start with), on its first line, and ends
    at the same mark followed by a blank ("audit-log.md: ...", "2. ...", "Magna Carta | ..."): the mark is
    the anchor, at its first such place. A name with blanks ends only at a mark no sentence ends with and
    holds no sentence's end itself: "It stays 30 days. After..." names nothing."""
    shared = _shared_count(texts, ranges)
    marks: set[str] = set()
    at: list[int] = []
    names: set[tuple[str, ...]] = set()
    for text, (first, end) in zip(texts, ranges, strict=True):
        start = first + shared
        found = _label_end(text.tokens, start, end)
        if found is None:
            return []
        marks.add(text.tokens[found])
        names.add(text.tokens[start:found])
        at.append(found)
    if len(marks) != 1 or len(names) == 1:
        return []
    return [(marks.pop(), at)]


def spaced_label_mark(tokens: Tokens) -> str:
    """The mark that ends a name opening ``tokens`` on its first line, as :func:`align` anchors an inline
    label, where it stands between blanks ("Magna Carta — ", "規程 | "); "" when none does. A mark glued to
    the word before it ("。", "%", ":") may end a sentence or a clause of a script written without blanks."""
    found = _label_end(tokens.tokens, 0, len(tokens))
    if found is None or found == 0 or found + 1 >= len(tokens):
        return ""
    spaced = is_blank(tokens.tokens[found - 1]) and tokens.tokens[found + 1] in (" ", "\u3000")
    return tokens.tokens[found] if spaced else ""


def _label_end(tokens: tuple[str, ...], start: int, end: int) -> int | None:
    for index in range(start + 1, min(end - 1, start + _LABEL_TOKENS)):
        token = tokens[index]
        if token == "\n":
            return None
        if not _a_mark(token):
            continue
        following = tokens[index + 1]
        if token in QUESTION_MARKS and following in _COLONS:
            continue  # a title that asks before its colon ("Why?: …"); the colon ends it
        name = tokens[start:index]
        asks = token in _COLONS and name[-1] in QUESTION_MARKS
        if not any(is_blank(part) for part in name):
            if is_blank(following) or token not in _JOINERS:
                return index  # "x.md: ", "2. ", 'secret">' (an attribute's value)
            continue
        if not is_blank(following) or following == "\n":
            continue  # "Preise (brutto):" over a list is the text's own line
        if any(
            part in SENTENCE_END and (at + 1 == len(name) or is_blank(name[at + 1]))
            for at, part in enumerate(name[:-1] if asks else name)
        ):
            return None  # a sentence's end, not a name's joiner ("guide.pdf", "3.13")
        if token not in _NOT_LABEL_ENDS:
            return index
    return None


def _a_mark(token: str) -> bool:
    return not (is_word(token) or token.isdigit() or is_blank(token) or is_marker(token))


def _shared_count(texts: Sequence[Tokens], ranges: tuple[Range, ...]) -> int:
    """How many tokens every range starts with alike."""
    shortest = min(end - start for start, end in ranges)
    count = 0
    while (
        count < shortest
        and len({text.tokens[start + count] for text, (start, _) in zip(texts, ranges, strict=True)}) == 1
    ):
        count += 1
    return count


def _increasing(items: list[str], keys: list[int]) -> list[str]:
    """The longest subsequence of ``items`` whose ``keys`` increase (patience sorting)."""
    tails: list[int] = []
    tail_index: list[int] = []
    parents = [-1] * len(items)
    for index, key in enumerate(keys):
        at = bisect_left(tails, key)
        if at == len(tails):
            tails.append(key)
            tail_index.append(index)
        else:
            tails[at] = key
            tail_index[at] = index
        parents[index] = tail_index[at - 1] if at else -1
    chain: list[str] = []
    index = tail_index[-1] if tail_index else -1
    while index >= 0:
        chain.append(items[index])
        index = parents[index]
    return chain[::-1]


def _stable(texts: Sequence[Tokens], ranges: tuple[Range, ...], at: list[int], token: str) -> bool:
    """The anchor's neighbourhood is the same in every text and holds two tokens that are not blanks: a
    label ("Question:"), a line of its own, a tag; a marker is an anchor by itself."""
    if is_marker(token):
        return True
    solid = 0 if is_blank(token) and token != "\n" else 1
    for step in (-1, 1):
        offset = step
        while solid < 2:
            here = [position + offset for position in at]
            if any(not start <= p < end for p, (start, end) in zip(here, ranges, strict=True)):
                break
            first = texts[0].tokens[here[0]]
            if any(text.tokens[p] != first for text, p in zip(texts, here, strict=True)):
                break
            if not is_blank(first) or first == "\n":
                solid += 1
            offset += step
    return solid >= 2


def _merged(pieces: list[Piece]) -> list[Piece]:
    """Adjacent constants joined, adjacent gaps joined."""
    merged: list[Piece] = []
    for piece in pieces:
        last = merged[-1] if merged else None
        if isinstance(piece, Constant) and isinstance(last, Constant):
            merged[-1] = Constant(last.tokens + piece.tokens)
        elif isinstance(piece, Gap) and isinstance(last, Gap):
            merged[-1] = Gap(tuple((a[0], b[1]) for a, b in zip(last.ranges, piece.ranges, strict=True)))
        else:
            merged.append(piece)
    return merged


_GREEK: Final = re.compile("[\u0370-\u03ff\u1f00-\u1fff]")
"""A Greek letter (Greek and Coptic, Greek Extended)."""
_SPACES_BEFORE_MARKS: Final = frozenset((" ", "\u00a0", "\u202f"))
"""The one space (plain, no-break, narrow no-break) some typographies write before a question mark."""


def _sentence_ends_returned(texts: Sequence[Tokens], pieces: list[Piece]) -> list[Piece]:
    """A sentence's last mark right after a gap that ends with a word is the gap's (every question ends
    with "?"), never the skeleton's, and so is a word that follows it with no blank; after a number it is a
    counter's ("2."). So is the mark after the one space French and other typographies write before "?"
    and "!" (that space too), and nothing after it; and the semicolon after Greek words, Greek's "?"."""
    result: list[Piece] = []
    for piece in pieces:
        last = result[-1] if result else None
        if isinstance(piece, Constant) and isinstance(last, Gap):
            ends = SENTENCE_END | {GREEK_QUESTION} if _ends_in_greek(texts, last) else SENTENCE_END
            count = _returned(piece.tokens, _ends_with_word(texts, last), _ends_spaced(texts, last), ends)
            if count:
                result[-1] = Gap(tuple((start, end + count) for start, end in last.ranges))
                piece = Constant(piece.tokens[count:])
            if not piece.tokens:
                continue
        result.append(piece)
    return _merged(result)


def _sentence_opens_returned(texts: Sequence[Tokens], pieces: list[Piece]) -> list[Piece]:
    """An inverted mark ("¿", "¡") that ends the skeleton right before a gap is the gap's, when every region
    holds a mark that closes it: every user asks in Spanish ("¿Cuándo…?"), and the alignment, which shares
    out what all texts hold, gave their opening mark to the skeleton."""
    result: list[Piece] = []
    for piece in pieces:
        last = result[-1] if result else None
        if not (isinstance(last, Constant) and isinstance(piece, Gap)):
            result.append(piece)
            continue
        closers = _INVERTED_MARKS.get(last.tokens[-1])
        if closers and _all_hold(texts, piece, closers):
            result.pop()
            if len(last.tokens) > 1:
                result.append(Constant(last.tokens[:-1]))
            piece = Gap(tuple((start - 1, end) for start, end in piece.ranges))
        result.append(piece)
    return result


def _all_hold(texts: Sequence[Tokens], gap: Gap, marks: frozenset[str]) -> bool:
    return all(
        any(token in marks for token in text.tokens[start:end])
        for text, (start, end) in zip(texts, gap.ranges, strict=True)
    )


def _returned(tokens: tuple[str, ...], after_word: bool, after_space: bool, ends: frozenset[str]) -> int:
    """How many of a constant's first ``tokens`` are the end of the value before it (``ends``: the marks
    that end its sentences)."""
    if not (after_word or after_space):
        return 0
    spaced = after_word and len(tokens) > 1 and tokens[0] in _SPACES_BEFORE_MARKS and tokens[1] in ends
    count = 1 if spaced else 0
    while count < len(tokens) and tokens[count] in ends:
        count += 1
    if spaced or not after_word:
        return count
    # A word that goes on right after them is the value's own end, alike by chance ("….md").
    while count < len(tokens) and (is_word(tokens[count]) or tokens[count].isdigit()):
        count += 1
    return count


def _ends_with_word(texts: Sequence[Tokens], gap: Gap) -> bool:
    return any(
        end > start and is_word(text.tokens[end - 1])
        for text, (start, end) in zip(texts, gap.ranges, strict=True)
    )


def _ends_in_greek(texts: Sequence[Tokens], gap: Gap) -> bool:
    """Every region ends with a word of Greek letters."""
    return all(
        end > start and is_word(text.tokens[end - 1]) and _GREEK.search(text.tokens[end - 1]) is not None
        for text, (start, end) in zip(texts, gap.ranges, strict=True)
    )


def _greek_asks(text: Tokens, start: int, at: int) -> bool:
    """Token ``at`` is a semicolon after a Greek word of the region from ``start``: Greek's question mark."""
    return text.tokens[at] == GREEK_QUESTION and at > start and _GREEK.search(text.tokens[at - 1]) is not None


def _ends_spaced(texts: Sequence[Tokens], gap: Gap) -> bool:
    """Every region ends with a word or a number and one space (the space before a "?")."""
    return all(
        end - start > 1
        and text.tokens[end - 1] in _SPACES_BEFORE_MARKS
        and (is_word(text.tokens[end - 2]) or text.tokens[end - 2].isdigit())
        for text, (start, end) in zip(texts, gap.ranges, strict=True)
    )


def _absorb_edges(texts: Sequence[Tokens], pieces: list[Piece]) -> list[Piece]:
    """Each gap's shared first and last tokens moved into the constants beside it."""
    result: list[Piece] = []
    carried: tuple[str, ...] = ()
    for index, piece in enumerate(pieces):
        if isinstance(piece, Constant):
            _append_constant(result, carried + piece.tokens)
            carried = ()
            continue
        following = pieces[index + 1] if index + 1 < len(pieces) else None
        labels = isinstance(following, Constant) and following.tokens[0] in _COLONS
        head = _shared_head(texts, piece.ranges)
        carried = _shared_tail(texts, piece.ranges, len(head), labels)
        if head:
            _append_constant(result, head)
        result.append(Gap(tuple((start + len(head), end - len(carried)) for start, end in piece.ranges)))
    if carried:
        _append_constant(result, carried)
    return result


def _append_constant(pieces: list[Piece], tokens: tuple[str, ...]) -> None:
    last = pieces[-1] if pieces else None
    if isinstance(last, Constant):
        pieces[-1] = Constant(last.tokens + tokens)
    else:
        pieces.append(Constant(tokens))


def _shared_head(texts: Sequence[Tokens], ranges: tuple[Range, ...]) -> tuple[str, ...]:
    shortest = min(end - start for start, end in ranges)
    head: list[str] = []
    for offset in range(shortest):
        token = texts[0].tokens[ranges[0][0] + offset]
        if any(text.tokens[start + offset] != token for text, (start, _) in zip(texts, ranges, strict=True)):
            break
        head.append(token)
    # The gap must not start inside a word group: "The " shared by every document stays theirs; nor inside
    # an escape: the backslash that opens every document's first escape ("\\u6d17") is the document's.
    while head and (
        is_word(head[-1])
        or (is_blank(head[-1]) and len(head) > 1 and is_word(head[-2]))
        or _opens_escape(head[-1])
        or head[-1] in _INVERTED_MARKS
    ):
        head.pop()
    return tuple(head)


def _opens_escape(token: str) -> bool:
    """A run of backslashes of odd length: it escapes the character after it."""
    return token.startswith("\\") and len(token) % 2 == 1 and token.strip("\\") == ""


def _shared_tail(
    texts: Sequence[Tokens], ranges: tuple[Range, ...], taken: int, labels: bool
) -> tuple[str, ...]:
    """``labels``: the skeleton after the gap opens with a colon. A last line of words every region ends
    with is then the label it closes ("…?\nResponse" before ":"), the template's; other words every region
    ends with are the values' own ("The End")."""
    shortest = min(end - start for start, end in ranges) - taken
    first, (start, end) = texts[0], ranges[0]
    tail: list[str] = []
    for offset in range(1, shortest + 1):
        token = first.tokens[end - offset]
        if (
            token in SENTENCE_END
            or _greek_asks(first, start, end - offset)
            or any(text.tokens[stop - offset] != token for text, (_, stop) in zip(texts, ranges, strict=True))
        ):
            break
        tail.append(token)
    tail.reverse()
    if labels and tail[:1] == ["\n"] and all(is_word(token) or token == " " for token in tail[1:]):
        return tuple(tail)
    while tail and (is_word(tail[0]) or (is_blank(tail[0]) and len(tail) > 1 and is_word(tail[1]))):
        tail.pop(0)
    return tuple(tail)


def _field_lines_split(texts: Sequence[Tokens], pieces: list[Piece]) -> list[Piece]:
    """A gap after a label on the same line ("file_name: ", a heading's "### ") whose first line every text
    ends with the same line break is the label's value, then the rest: "x.md" and "\n\n" and the text after
    it. Unless the label is a heading, the line is followed by the same mark everywhere (a fence), or it is
    a name (no blanks: a file, a number) and a blank line follows: a value that goes on ("text: Why...?\n\n
    Seasons are...") is one value."""
    result: list[Piece] = []
    headings = _headings(pieces)
    for index, piece in enumerate(pieces):
        before = pieces[index - 1] if index else None
        heading = headings[index]
        labelled = isinstance(before, Constant) and (heading or _ends_with_label(before))
        if not (isinstance(piece, Gap) and isinstance(before, Constant) and labelled):
            result.append(piece)
            continue
        breaks = [
            _first_break(text, start, end) for text, (start, end) in zip(texts, piece.ranges, strict=True)
        ]
        runs = {
            text.tokens[at:after] if at is not None and after is not None else None
            for text, (at, after) in zip(texts, breaks, strict=True)
        }
        run = runs.pop() if len(runs) == 1 else None
        following = {
            text.tokens[after] for text, (_, after) in zip(texts, breaks, strict=True) if after is not None
        }
        structure = len(following) == 1 and not is_word(next(iter(following)))
        names = all(
            at is not None and not any(is_blank(token) for token in text.tokens[start:at])
            for text, (start, _), (at, _) in zip(texts, piece.ranges, breaks, strict=True)
        )
        if run is None or not (heading or structure or (names and run.count("\n") > 1)):
            result.append(piece)
            continue
        # One run for every text: each text's line breaks where the run starts and ends.
        cuts = [(at, after) for at, after in breaks if at is not None and after is not None]
        result.append(Gap(tuple((start, at) for (start, _), (at, _) in zip(piece.ranges, cuts, strict=True))))
        result.append(Constant(run))
        result.append(
            Gap(tuple((after, end) for (_, end), (_, after) in zip(piece.ranges, cuts, strict=True)))
        )
    return result


def _ends_with_label(constant: Constant) -> bool:
    last = constant.tokens[-1]
    return (
        not is_marker(last)
        and last != "\n"
        and "\n" in constant.tokens
        and any(not is_blank(token) for token in constant.tokens[constant.tokens.index("\n") :])
        and constant.text.rstrip().endswith((":", "：", "="))
    )


def opens_heading(pieces: list[Piece], index: int) -> bool:
    """The gap at ``index`` sits on a markdown heading's line ("### ", "### [2] "), whose start is in a
    constant before it: a title, then the text on the lines after it."""
    for at in range(index - 1, -1, -1):
        heading = _line_start_heading(pieces[at])
        if heading is not None:
            return heading
    return False


def _headings(pieces: list[Piece]) -> list[bool]:
    """:func:`opens_heading` at every index, in one pass: asked at each piece of a line of thousands of
    markers, a look back to the line's start each time grows with their square."""
    found, heading = [], False
    for piece in pieces:
        found.append(heading)
        started = _line_start_heading(piece)
        heading = heading if started is None else started
    return found


def _line_start_heading(piece: Piece) -> bool | None:
    """Whether the line a constant ends on is a heading's, where the constant starts a line (None: it does
    not, or the piece is a gap)."""
    if isinstance(piece, Constant) and ("\n" in piece.tokens or is_marker(piece.tokens[0])):
        line = piece.text[max(piece.text.rfind("\n"), piece.text.rfind("\ue001")) + 1 :]
        return line.lstrip().startswith("#")
    return None


def _first_break(text: Tokens, start: int, end: int) -> tuple[int | None, int | None]:
    """Where the first line of a gap ends and the text after its line break starts (blanks and newlines
    between them), when the line is short and something follows."""
    tokens = text.tokens
    at = next((i for i in range(start, end) if tokens[i] == "\n"), None)
    if at is None or at == start or text.starts[at] - text.starts[start] > 200:
        return None, None
    after = at
    while after < end and is_blank(tokens[after]):
        after += 1
    return (at, after) if after < end else (None, None)


def _loops_joined(texts: Sequence[Tokens], pieces: list[Piece]) -> list[Piece]:
    """Gap, constant, gap joined into one gap where the constant recurs inside either gap's contents: a
    loop's separator ("»\n[2] «" when every text had two documents or more), not the skeleton."""
    occurrences = _Occurrences(texts)
    index = 1
    while index < len(pieces) - 1:
        first, middle, second = pieces[index - 1], pieces[index], pieces[index + 1]
        if not (isinstance(first, Gap) and isinstance(middle, Constant) and isinstance(second, Gap)):
            index += 1
            continue
        pattern = tuple(generalised(token) for token in middle.tokens)
        opening = pieces[index - 2] if index >= 2 else None
        numbered = isinstance(opening, Constant) and numbered_alike(opening, pattern)
        # A message marker that recurs after itself only, among messages of its role only, opens a run of
        # them (each request's tool results): the run begins there, and the text before it is another slot's.
        opens_run = (
            len(pattern) == 1
            and is_marker(pattern[0])
            and not occurrences.recur(first, pattern)
            and _markers_only(texts, second, pattern[0])
        )
        if not opens_run and (
            numbered or occurrences.recur(first, pattern) or occurrences.recur(second, pattern)
        ):
            ranges = tuple((a[0], b[1]) for a, b in zip(first.ranges, second.ranges, strict=True))
            pieces = [*pieces[: index - 1], Gap(ranges), *pieces[index + 2 :]]
            # Only the triple ending in the joined gap is new; those before it read as they did.
            index = max(1, index - 2)
        else:
            index += 1
    return pieces


def _markers_only(texts: Sequence[Tokens], gap: Gap, marker: str) -> bool:
    """Every message boundary inside ``gap`` is ``marker``'s: the gap holds messages of that role only."""
    return all(
        token == marker
        for text, (start, end) in zip(texts, gap.ranges, strict=True)
        for token in text.tokens[start:end]
        if is_marker(token)
    )


def numbered_alike(opening: Constant, pattern: tuple[str, ...]) -> bool:
    """``opening`` ends as ``pattern`` (generalised) does from a line break or its start on, numbers aside,
    with a number in it ("Document: 0\ntitle: " and "\n\nDocument: 1\ntitle: "): both open a document of one
    loop."""
    general = tuple(generalised(token) for token in opening.tokens)
    starts = [0] + [index for index, token in enumerate(pattern) if token == "\n"]
    for start in starts:
        tail = pattern[start:]
        if len(tail) > 2 and DIGITS in tail and general[-len(tail) :] == tail:
            return True
    return False


class _Occurrences:
    """Where each pattern occurs whole in each text, found once per pattern: asked of every gap while gaps
    are joined, a scan of the gap each time grows with the square of a prompt's markers."""

    def __init__(self, texts: Sequence[Tokens]) -> None:
        self._general = [[generalised(token) for token in text.tokens] for text in texts]
        self._whole: dict[tuple[str, ...], list[list[int]]] = {}

    def recur(self, gap: Gap, pattern: tuple[str, ...]) -> bool:
        """``pattern`` occurs in the gap as a whole, not as part of a longer run of marks ("\n\n" inside
        "\n\n---\n\n" is not the same separator); at the gap's edges nothing goes on past it."""
        width = len(pattern)
        whole = self._whole.get(pattern)
        if whole is None:
            whole = self._whole[pattern] = [self._found(general, pattern) for general in self._general]
        for general, inside, (start, end) in zip(self._general, whole, gap.ranges, strict=True):
            at = bisect_left(inside, start + 1)
            if at < len(inside) and inside[at] + width < end:
                return True
            for edge in (start, end - width):
                if start <= edge and edge + width <= end and tuple(general[edge : edge + width]) == pattern:
                    before = general[edge - 1] if edge > start else ""
                    after = general[edge + width] if edge + width < end else ""
                    if not (_goes_on(before, pattern[0]) or _goes_on(after, pattern[-1])):
                        return True
        return False

    @staticmethod
    def _found(general: list[str], pattern: tuple[str, ...]) -> list[int]:
        """Where ``pattern`` occurs with a neighbour on each side that does not carry its run on."""
        width = len(pattern)
        return [
            at
            for at in range(1, len(general) - width)
            if general[at] == pattern[0]
            and tuple(general[at : at + width]) == pattern
            and not (_goes_on(general[at - 1], pattern[0]) or _goes_on(general[at + width], pattern[-1]))
        ]


def _goes_on(neighbour: str, edge: str) -> bool:
    """A run of marks (or blanks) continues past the pattern's edge into ``neighbour``."""
    if not neighbour or neighbour in SENTENCE_END or is_word(neighbour) or neighbour == DIGITS:
        return False
    return not (is_word(edge) or edge == DIGITS)
