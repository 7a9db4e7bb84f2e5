"""Markdown as blocks of plain text: each heading, list item, table row and paragraph a block of its own.

A block's text has its inline markup taken off (emphasis, code span backticks, links, HTML tags and comments,
citation markers, quotation marks). Characters a reader cannot see (zero-width spaces and joiners, soft
hyphens, direction marks) go first: "can\u200bnot" reads "cannot" on screen, so it must read so here too.
Fenced code is kept verbatim as one block. A trailing "Sources:" section and footnote definitions that only
list references are dropped: they point at sources and state nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragpulse_judge.prose.citations import (
    CUT,
    FILE,
    URL,
    close_cuts,
    is_reference,
    names_a_source,
    strip_citations,
)

_FENCE = re.compile(r"(`{3,}|~{3,})")
_RULE = re.compile(r"(?:[-*_=]\s*){3,}")
_QUOTE_PREFIX = re.compile(r"^(?:>\s?)+")
_HEADING = re.compile(r"#{1,6}\s+(.*?)(?:\s+#+)?")
_BOLD_LINE = re.compile(r"(\*\*|__)([^*_\n]+?)\1\s*:?")
_ITEM = re.compile(
    r"(?:(?:[-*+•‣◦▪●–]|\d{1,3}[.)]|[a-z][.)]|\(\d{1,3}\)|\([a-z]\)|[ivx]{1,4}[.)])\s+)+(?:\[[ xX]\]\s+)?(.*)"
)
_FOOTNOTE_DEFINITION = re.compile(r"\[\^?[\w\-]{1,40}\]:\s*(.*)")
_TABLE_SEPARATOR = re.compile(r"\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?")
_SOURCES_LABEL = re.compile(
    r"(?:sources?|references?|citations?|bibliography|works\s+cited|further\s+reading|learn\s+more"
    r"|read\s+more|documents?\s+(?:used|cited|referenced)|links?|footnotes?)\s*(?::\s*(.*)|)",
    re.IGNORECASE,
)
_MAX_REFERENCE_WORDS = 20
# A finite verb then more words up to a full stop: the entry says something, it does not just name a source.
_STATEMENT = re.compile(
    r"\b(?:is|are|was|were|has|have|had|can|cannot|could|will|would|does|do|did|must|should|may|might"
    r"|isn't|aren't|wasn't|doesn't|don't|won't|can't)\b[^.!?]*\w[^.!?]*[.!]?\s*$",
    re.IGNORECASE,
)
# A heading of a few words without a full stop or a number labels what follows; a longer one is a sentence.
_MAX_LABEL_WORDS = 8

# A span opens and closes at whole runs of backticks only, so a long run is tried once, not at each of its
# backticks (8,000 in a row took 2.5 s).
_CODE_SPAN = re.compile(r"(?<!`)(`++)(.{1,2000}?)(?<!`)\1(?!`)")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
# Lengths are bounded and a URL stops at a bracket, so that unclosed markup costs linear time, not quadratic.
_LINK = re.compile(r"\[([^\]\n]{0,500})\]\(\s*<?[^)\s>\[(]{0,2000}>?(?:\s+[\"'][^\"'\n]{0,300}[\"'])?\s*\)")
_REFERENCE_LINK = re.compile(r"\[([^\]\n]{1,500})\]\[[^\]\n]{0,100}\]")
_LINE_BREAK_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>\n]*)?/?>")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.{1,500}?)(?<=\S)\1")
_EMPHASIS = re.compile(
    r"(?<![\w*\\])\*(?=[^\s*])([^*\n]{1,500}?)(?<=[^\s*\\])\*(?![\w*])"
    r"|(?<![\w\\])_(?=\S)([^_\n]{1,500}?)(?<=\S)_(?!\w)"
)
_STRIKE = re.compile(r"~~(?=\S)(.{1,500}?)(?<=\S)~~")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")
_DOUBLE_QUOTES = re.compile(r"[\"“”„‟«»‹›「」『』]")
_SINGLE_QUOTE = re.compile(r"['‘’]")
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+([.,;:!?])")
_EMPTY_BRACKETS = re.compile(r"\(\s*[,;]?\s*\)|\[\s*\]")
# Unicode format characters that render as nothing (zero-width, soft hyphen, bidi controls, word joiner, BOM).
_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# Shown to nobody: an HTML comment is no part of what the answer says.
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
# HTML that starts a block of its own (a paragraph, a list item, a row, a heading): read as a line break.
_HTML_BLOCK = re.compile(
    r"</?(?:p|div|li|ul|ol|dl|dt|dd|table|thead|tbody|tfoot|tr|blockquote|section|article|header|footer|aside"
    r"|main|nav|figure|figcaption|details|summary|hr)\b[^<>\n]*>",
    re.IGNORECASE,
)
_HTML_HEADING = re.compile(r"<h([1-6])\b[^<>\n]*>(.*?)</h\1\s*>", re.IGNORECASE)
_HTML_CELL_END = re.compile(r"</t[dh]\s*>", re.IGNORECASE)
_PLACEHOLDER = "\x00{}\x00"
_PLACEHOLDERS = re.compile("\x00(\\d+)\x00")


@dataclass(frozen=True)
class Block:
    """One unit of the text; ``label`` for headings and table header rows, ``code`` for fenced code."""

    text: str
    label: bool = False
    code: bool = False
    raw: str = ""


def markdown_blocks(text: str) -> list[Block]:
    """The blocks of ``text``, in order, with their inline markup taken off."""
    text = _INVISIBLE.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    if "<!--" in text:
        text = _HTML_COMMENT.sub("", text)
    return _Reader().read(text)


def plain_inline(text: str) -> str:
    """One line of markdown as plain text; code spans keep their content verbatim."""
    spans: list[str] = []

    def hold(match: re.Match[str]) -> str:
        spans.append(match.group(2).strip())
        return _PLACEHOLDER.format(len(spans) - 1)

    original = text
    # Each pattern runs only where its opening character occurs: most sentences hold none.
    if "`" in text:
        text = _CODE_SPAN.sub(hold, text)
    if "<" in text:
        text = _LINE_BREAK_TAG.sub(" ", text)
    if "[" in text:
        text = _REFERENCE_LINK.sub(_link_text, _LINK.sub(_link_text, _IMAGE.sub(" ", text)))
    text = strip_citations(text)
    if "<" in text:
        text = _TAG.sub("", text)
    if "*" in text or "_" in text:
        for _ in range(2):
            text = _STRONG.sub(r"\2", text)
        text = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)
    if "~~" in text:
        text = _STRIKE.sub(r"\1", text)
    if "\\" in text:
        text = _ESCAPE.sub(r"\1", text)
    text = _DOUBLE_QUOTES.sub(CUT, text)
    if "'" in text or "‘" in text or "’" in text:
        text = _SINGLE_QUOTE.sub(_unless_apostrophe, text)
    if text != original:
        text = close_cuts(text)
        text = _SPACE_BEFORE_PUNCTUATION.sub(r"\1", _EMPTY_BRACKETS.sub("", text))
    text = " ".join(text.split())
    if "\x00" not in text:
        return text
    return _PLACEHOLDERS.sub(lambda m: spans[int(m.group(1))], text)


def _unless_apostrophe(quote: re.Match[str]) -> str:
    """A single quote between two letters is an apostrophe ("don't"); anywhere else it quotes."""
    text, start, end = quote.string, quote.start(), quote.end()
    inside_word = start > 0 and end < len(text) and text[start - 1].isalnum() and text[end].isalnum()
    return quote.group() if inside_word else CUT


def _link_text(link: re.Match[str]) -> str:
    """A link reads as its text; a link whose text is a marker (``[1](url)``, ``[doc2][2]``) is a marker."""
    text = link.group(1)
    return CUT if is_reference(f"[{text}]") else text


class _Reader:
    """Reads lines into blocks; a paragraph's lines are joined (a soft line break is not a sentence end)."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.footnotes: list[int] = []
        self.sources_from: int | None = None
        self.lines: list[str] = []
        self.raw: list[str] = []
        self.fence = ""
        self.code: list[str] = []
        self.row_open = False

    def read(self, text: str) -> list[Block]:
        for line in text.split("\n"):
            self._line(line)
        if self.fence:
            self.blocks.append(Block("\n".join(self.code), code=True))
        self._flush()
        return self._without_references()

    def _line(self, line: str) -> None:
        if not self.fence and "<" in line and (_HTML_BLOCK.search(line) or _HTML_HEADING.search(line)):
            for part in _html_lines(line):
                self._line(part)
            return
        stripped = line.strip()
        if self.fence:
            if stripped.startswith(self.fence):
                self.fence = ""
                self.blocks.append(Block("\n".join(self.code).strip("\n"), code=True))
            else:
                self.code.append(line)
            return
        fence = _FENCE.match(stripped)
        if fence:
            self._flush()
            self.fence, self.code = fence.group(1), []
            return
        stripped = _QUOTE_PREFIX.sub("", stripped).strip()
        if not stripped or _RULE.fullmatch(stripped):
            self._flush()
            return
        if _TABLE_SEPARATOR.fullmatch(stripped) and "-" in stripped and self._header_row():
            return
        if (self.row_open and "|" in stripped) or (stripped.startswith("|") and stripped.count("|") >= 2):
            self._flush()
            row = _row(stripped)
            self._add(row)
            self.row_open = True
            return
        self.row_open = False
        self._structure(stripped)

    def _structure(self, stripped: str) -> None:
        unheaded = re.sub(r"^#{1,6}\s+", "", stripped)
        if (
            self.sources_from is None
            and _SOURCES_LABEL.match(unheaded.lstrip("*_ "))
            and _SOURCES_LABEL.fullmatch(plain_inline(unheaded))
        ):
            self._flush()
            self.sources_from = len(self.blocks)
            self._start(unheaded, stripped)
            return
        heading = _HEADING.fullmatch(stripped) or _BOLD_LINE.fullmatch(stripped)
        if heading:
            self._flush()
            self._add(_heading(heading.group(heading.lastindex or 1)))
            return
        footnote = _FOOTNOTE_DEFINITION.fullmatch(stripped)
        if footnote:
            self._flush()
            self.footnotes.append(len(self.blocks))
            self._start(footnote.group(1), stripped)
            return
        item = _ITEM.fullmatch(stripped)
        if item or self.sources_from is not None:
            # In a list of sources every line is an entry of its own.
            self._flush()
            self._start(item.group(1) if item else stripped, stripped)
            return
        self.lines.append(stripped)
        self.raw.append(stripped)

    def _start(self, text: str, raw: str) -> None:
        self.lines, self.raw = [text], [raw]

    def _header_row(self) -> bool:
        """The line before a ``|---|`` separator is the header row of a table: a label, not a claim."""
        if self.lines and "|" in self.lines[-1]:
            header = self.lines.pop()
            self.raw.pop()
            self._flush()
            self._add(Block(_row(header).text, label=True))
        elif self.blocks and self.row_open:
            self.blocks[-1] = Block(self.blocks[-1].text, label=True)
        else:
            return False
        self.row_open = True
        return True

    def _flush(self) -> None:
        if self.lines:
            self._add(Block(plain_inline(" ".join(self.lines)), raw=" ".join(self.raw)))
            self.lines, self.raw = [], []

    def _add(self, block: Block) -> None:
        if block.text or block.raw:
            self.blocks.append(block)

    def _without_references(self) -> list[Block]:
        """Drops the trailing sources section if all of it lists references, and footnotes that do."""
        drop = {i for i in self.footnotes if _lists_a_reference(self.blocks[i])}
        if self.sources_from is not None:
            tail = range(self.sources_from, len(self.blocks))
            label = _SOURCES_LABEL.fullmatch(self.blocks[self.sources_from].text)
            rest = label.group(1) if label else ""
            raw_rest = self.blocks[self.sources_from].raw.partition(":")[2]
            label_lists = not rest or _lists_a_reference(Block(rest, raw=raw_rest or rest))
            if label_lists and all(_lists_a_reference(self.blocks[i]) for i in tail[1:]):
                drop.update(tail)
        return [block for i, block in enumerate(self.blocks) if i not in drop and block.text]


def _html_lines(line: str) -> list[str]:
    """A line of HTML as the markdown lines it renders as: blocks apart, headings kept, cells joined."""
    line = _HTML_HEADING.sub(lambda h: f"\n\n{'#' * int(h.group(1))} {h.group(2)}\n\n", line)
    line = _HTML_CELL_END.sub("; ", line)
    return [part.strip().rstrip(";") for part in _HTML_BLOCK.sub("\n\n", line).split("\n")]


def _lists_a_reference(block: Block) -> bool:
    """The entry names a source (a title with a file, a URL or a marker) and states nothing beside it.

    "returns.pdf: the X200 is waterproof" names a source and then makes a claim: a finite verb and a full
    stop make a statement of what follows the source, which a title ("Refund policy, returns.pdf") is not.
    """
    raw = block.raw or block.text
    if is_reference(raw):
        return True
    if len(block.text.split()) > _MAX_REFERENCE_WORDS or not names_a_source(raw):
        return False
    return not _STATEMENT.search(re.sub(rf"{FILE}|{URL}", " ", block.text, flags=re.IGNORECASE))


def _heading(text: str) -> Block:
    plain = plain_inline(text).rstrip(":").strip()
    label = len(plain.split()) <= _MAX_LABEL_WORDS and not re.search(r"\d|[.!?]$", plain)
    return Block(plain, label=label, raw=text)


def _row(line: str) -> Block:
    cells = [plain_inline(cell) for cell in line.strip().strip("|").split("|")]
    return Block("; ".join(cell for cell in cells if cell and not is_reference(cell)), raw=line)
