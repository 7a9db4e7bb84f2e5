"""Citation markers: the references to sources that answers put beside their claims, never part of a claim.

Families rather than examples: a marker is a bracket, a parenthesis, a superscript or a 【】 pair that holds
only references to sources (numbers and ranges, ``doc``/``source``/``passage`` and kin with a number, file
names, URLs, ``†`` locators), a footnote reference ``[^x]``, or an editorial mark (``[sic]``,
``[citation needed]``). Brackets holding anything else (``[text](url)`` link text, ``[optional]``) are
content.
A bracketed number glued to code (``rows[0].name``, ``self.items[2]``) is an index, not a marker.
"""

from __future__ import annotations

import re

_EXTENSIONS = (
    r"(?:md|markdown|mdx|txt|pdf|docx?|pptx?|xlsx?|csv|tsv|jsonl?|html?|xml|rst|rtf|odt|epub|tex|ya?ml|ipynb)"
)
FILE = rf"[\w\-.()'’ ]{{0,80}}?[\w\-)]\.{_EXTENSIONS}(?:#[\w\-=.]*)?\b"
URL = r"(?:https?://|www\.)[^\s\])>】,;]+"
_REF_WORD = (
    r"(?:doc(?:ument)?s?|sources?|src|passages?|contexts?|refs?|references?|citations?|chunks?|snippets?"
    r"|excerpts?|(?:search\s+)?results?|web(?:page)?s?|articles?|footnotes?|notes?|fn|files?|attachments?"
    r"|nodes?|evidence|pp?\.?|pages?|ids?)"
)
_NUMBERS = r"\d{1,4}[a-z]?(?:\s*(?:[-–&]|and)\s*\d{1,4}[a-z]?)*"
# One way to read each space and separator ("source: 2" is a word, ":" and a number in _IDS): no
# ambiguity for the regex engine to backtrack through on a marker that does not close.
_NAMED = rf"{_REF_WORD}\s*(?:[#_\-]\s*)?{_NUMBERS}"
# One reference in a marker: a named or bare number, a file, a URL, or a reference word alone ("[source]").
_ID = rf"(?:{_NAMED}|{_NUMBERS}|{FILE}|{URL}|{_REF_WORD}(?=\s*[\]】),;:|†]))"
_IDS = rf"{_ID}(?:\s*[:,;|]\s*{_ID})*(?:\s*†[^\]】\n]*)?"
_MARKER = rf"\[\s*\^?\s*(?:{_IDS})\s*\]"
_BRACKET = re.compile(rf"[ \t]*{_MARKER}", re.IGNORECASE)
_FOOTNOTE_REF = re.compile(r"[ \t]*\[\^[^\]\s]{1,40}\]")
_EDITORIAL = re.compile(
    r"[ \t]*\[(?:citation needed|sic|emphasis (?:added|mine|in original)|clarification needed|dubious"
    r"|verification needed|better source needed|full citation needed|page needed|dead link|original research"
    r"|who\??|when\??|which\??|by whom\??|according to whom\??)\]",
    re.IGNORECASE,
)
_LENTICULAR = re.compile(r"[ \t]*【([^】\n]{0,200})】")
_PANDOC = re.compile(r"[ \t]*\^(?:\[[^\]\n]*\]|\d{1,4}(?:[,\-–]\d{1,4})*)\^?")
# A parenthesis of references must name them ("(source 2)", "(doc1)", "(file.md)"): "(1)" and "(2019)" stay.
_LEAD_IN = (
    r"(?:(?:see(?:\s+also)?|cf\.?|from|via|per|in|according\s+to|(?:as\s+)?(?:mentioned|stated|noted|described"
    r"|shown|cited|found|discussed|explained|given|reported)\s+in)\s+(?:the\s+)?)"
)
_NAMED_ID = rf"(?:{_NAMED}|{FILE}|{URL}|{_MARKER})"
_PAREN = re.compile(
    rf"[ \t]*\(\s*{_LEAD_IN}?{_NAMED_ID}"
    rf"(?:\s*(?:[,;]|and)\s*(?:{_ID}|{_MARKER}))*\s*\)",
    re.IGNORECASE,
)
# A bare "(1)" or "(2, 3)" is a marker where a marker sits: after a word and before the end of the sentence
# or line ("... a full refund (1)."). Elsewhere it stays: "(1) Open the app" numbers a step, "f(1)" is code,
# "(2019)" has four digits.
_PAREN_NUMBER = re.compile(
    r"(?<=[^\W_]|[\"'”’*_])[ \t]+\(\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\)(?=[.!?,;:]|[ \t]*$)",
    re.MULTILINE,
)
_PAREN_LABELLED = re.compile(
    r"[ \t]*\(\s*(?:sources?|refs?|references?|citations?|cited\s+(?:from|in)|retrieved\s+from)\s*:"
    r"[^()\n]{1,150}\)",
    re.IGNORECASE,
)
_SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹"
# Alone, after punctuation or after a word of three letters or more: "m²" and "mc²" are a unit and a power,
# "year²" and "year.²" a note.
_SUPERSCRIPTS = re.compile(
    rf"(?:(?<=[.,;:!?)\]\"'”’`*_~\x00\x01])|(?<![^\s])|(?<=[^\W\d_]{{3}}))"
    rf"[{_SUPERSCRIPT}]+(?:[,⁻\-][{_SUPERSCRIPT}]+)*(?![^\W\d_])"
)
_ANY_SUPERSCRIPT = re.compile(f"[{_SUPERSCRIPT}]")
_SUP_TAG = re.compile(r"[ \t]*<sup>([^<]*)</sup>", re.IGNORECASE)
_CODE_AFTER = re.compile(r"[\[(=]|\.[^\W\d]")
_BARE_NUMBER = re.compile(r"\[\s*\d+\s*\]")
CUT = "\x01"
_CUT_BETWEEN_WORDS = re.compile(r"(?<=\w)\x01+(?=\w)")


def strip_citations(text: str) -> str:
    """``text`` without its citation markers (see the module docstring for what counts as one)."""
    # Each pattern runs only where its opening character occurs: most sentences hold none.
    if "【" in text:
        text = _LENTICULAR.sub(_lenticular, text)
    if "^" in text:
        text = _PANDOC.sub(CUT, text)
    if "[" in text:
        text = _EDITORIAL.sub(CUT, _FOOTNOTE_REF.sub(CUT, text))
    if "(" in text:
        text = _PAREN_NUMBER.sub(CUT, _PAREN.sub(CUT, _PAREN_LABELLED.sub(CUT, text)))
    if "[" in text:
        text = _BRACKET.sub(lambda match: _unless_index(match, text), text)
    if _ANY_SUPERSCRIPT.search(text):
        text = _SUPERSCRIPTS.sub(CUT, text)
    if "<" in text:
        text = _SUP_TAG.sub(_sup, text)
    return close_cuts(text) if CUT in text else text


def close_cuts(text: str) -> str:
    """Where something was cut between two words, a space keeps them apart ("a[1]b" is "a b", not "ab")."""
    return _CUT_BETWEEN_WORDS.sub(" ", text).replace(CUT, "")


def is_reference(text: str) -> bool:
    """``text`` holds nothing but references: markers, files, URLs, "Document 3"."""
    rest = re.sub(rf"{FILE}|{URL}|{_NAMED}", " ", strip_citations(text), flags=re.IGNORECASE)
    return not re.search(r"[^\W_]", rest)


def names_a_source(text: str) -> bool:
    """``text`` points at a source somewhere: a marker, a file name or a URL."""
    return strip_citations(text) != text or bool(re.search(rf"{FILE}|{URL}", text, re.IGNORECASE))


def _lenticular(match: re.Match[str]) -> str:
    inner = match.group(1)
    if "†" in inner or re.fullmatch(rf"\s*(?:{_IDS})\s*", inner, re.IGNORECASE):
        return CUT
    return " " + inner


def _unless_index(match: re.Match[str], text: str) -> str:
    """A bare ``[n]`` glued to code stays: ``rows[0].name``, ``self.items[2]``, ``snake_case[1]``."""
    start, end = match.span()
    marker = match.group()
    if start == 0 or not _BARE_NUMBER.fullmatch(marker) or not re.match(r"[\w)\]]", text[start - 1]):
        return CUT
    identifier = re.search(r"[\w.]*$", text[:start])
    name = identifier.group() if identifier else ""
    # "_job_[1]" is an emphasised word before a marker, not code: the underscores wrap the word.
    emphasised = re.fullmatch(r"(_{1,2})[^\W_][\w]*?[^\W_]?\1", name) is not None
    glued_code = not emphasised and ("_" in name or "." in name.strip("."))
    return marker if glued_code or _CODE_AFTER.match(text, end) else CUT


def _sup(match: re.Match[str]) -> str:
    inner = match.group(1)
    return CUT if is_reference(f"[{inner}]") or not inner.strip() else "^" + inner
