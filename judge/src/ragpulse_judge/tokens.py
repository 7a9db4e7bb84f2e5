"""Turning a sentence into the evidence the lexical judge compares: content stems, numbers, names, negation.

Everything here is plain regular expressions and set lookups so the judge can run on every request.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

_STOPWORDS = frozenset([
    "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are",
    "aren", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
    "can", "could", "did", "do", "does", "doing", "down", "during", "each", "either", "etc", "even", "ever",
    "every", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers",
    "herself", "him", "himself", "his", "how", "however", "i", "if", "in", "into", "is", "it", "its",
    "itself", "just", "let", "like", "may", "me", "might", "more", "most", "much", "must", "my", "myself",
    "now", "of", "off", "often", "on", "once", "only", "or", "other", "others", "our", "ours", "ourselves",
    "out", "over", "own", "per", "rather", "same", "she", "should", "since", "so", "some", "such", "than",
    "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they", "this",
    "those", "though", "through", "thus", "to", "too", "under", "until", "up", "upon", "us", "usually",
    "very", "via", "was", "we", "were", "what", "when", "where", "whether", "which", "while", "who", "whom",
    "whose", "why", "will", "with", "within", "would", "yet", "you", "your", "yours", "yourself",
    "yourselves", "one", "ones", "well", "way", "ways", "still", "already", "really", "quite", "generally",
    "typically", "include", "includes", "including", "many", "several", "various", "different", "certain",
    "specific", "especially", "overall", "example", "examples", "instance", "s", "t", "d", "ll", "m", "re",
    "ve", "additionally", "furthermore", "moreover", "therefore"
])  # fmt: skip
# Words a response uses to talk about the retrieved text rather than the world: never evidence of a claim.
_META_WORDS = frozenset([
    "passage", "passages", "context", "contexts", "provided", "provide", "provides", "document",
    "documents", "text", "source", "sources", "information", "info", "based", "according", "mention",
    "mentions", "mentioned", "state", "states", "stated", "answer", "question", "given", "note",
    "important", "says", "said", "described", "describes", "describe", "refer", "refers"
])  # fmt: skip
# Words a preamble frames an answer with ("Here is a summary of what the search results show:"): with the
# stopwords and meta words, all a clause that states nothing is made of (see lexical/preamble.py).
_FRAMING_WORDS = frozenset([
    "here", "below", "above", "following", "follows", "follow", "summary", "summarize", "summarise",
    "summarized", "summarised", "summarizing", "summarising", "sum", "overview", "key", "point", "points",
    "detail", "details", "explain", "explanation", "sure", "certainly", "course", "okay", "ok", "great",
    "glad", "happy", "help", "query", "search", "result", "results", "retrieved", "retrieval", "supplied",
    "available", "excerpt", "excerpts", "snippet", "snippets", "chunk", "chunks", "material", "materials",
    "knowledge", "base", "data", "file", "files", "reference", "references", "article", "articles",
    "documentation", "docs", "doc", "record", "records", "review", "reviewed", "reviewing", "read",
    "reading", "analysis", "analyzing", "analysing", "look", "looking", "short", "conclusion", "brief",
    "briefly", "response", "responses", "respond", "answers", "found", "find", "know", "tell", "say",
    "show", "shows", "shown", "indicate", "indicates", "indicated", "outlined", "noted", "explained",
    "suggest", "suggests", "regarding", "relevant", "questions", "asked", "ask", "asks", "best", "summed",
])  # fmt: skip
_NEGATIONS = frozenset(
    ["not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "cannot", "n't", "nt"]
)
_NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13",
    "fourteen": "14", "fifteen": "15", "sixteen": "16", "seventeen": "17", "eighteen": "18",
    "nineteen": "19", "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50", "sixty": "60",
    "seventy": "70", "eighty": "80", "ninety": "90",
    "hundred": "100", "thousand": "1000", "million": "1000000", "billion": "1000000000",
    "first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "half": "0.5", "twice": "2",
    "dozen": "12",
}  # fmt: skip
# "one" is both a number and a pronoun; only the other words count as numbers in a claim.
_CLAIM_NUMBER_WORDS = frozenset(_NUMBER_WORDS) - {"one", "first", "second", "half", "twice"}

# References to the context ("(passage 2)", "Document 1 says") and list markers are not numbers of a claim.
_REFERENCE = re.compile(
    r"\b(?:passages?|documents?|docs?|sources?|contexts?|chunks?|snippets?|excerpts?|paragraphs?|steps?"
    r"|methods?|options?)\s+\d+"
    r"(?:\s*(?:,|and|&|-)\s*\d+)*|^\s*(?:[-*•]|\(?\d{1,3}[.):]|\(?[a-z][.)])\s+",
    re.IGNORECASE,
)
# A URL is one token, the address it names: its pieces ("https", "com", "v2") are not words or numbers of
# the claim, and an address the context never gives stays a word the context lacks.
_URL = re.compile(r"(?:https?://|www\.)[^\s<>()\[\]\"']+", re.IGNORECASE)
_TOKEN = re.compile(rf"{_URL.pattern}|\$?\d[\d,]*(?:\.\d+)?%?|[^\W\d_]+(?:['’][^\W\d_]+)?", re.IGNORECASE)
_CAPITALISED = re.compile(r"\b[A-Z][a-zA-Z]+(?:[- ][A-Z][a-zA-Z]+)*")
_SUFFIXES = (
    "ational", "ization", "fulness", "ousness", "iveness", "ations", "ation", "ments", "ment", "ingly",
    "ness", "ings", "ing", "edly", "ies", "ied", "ers", "er", "ed", "es", "ly", "s",
)  # fmt: skip


# Cyrillic and Greek letters drawn like Latin ones. In a word that also holds Latin letters they are a
# disguise ("nоt" with a Cyrillic о hides a negation from a word list, not from a reader): read as Latin.
_LOOK_ALIKES = str.maketrans(
    "аеорсхуіјѕԁһԛԝВЕКМНОРСТХАЅІЈΑΒΕΖΗΙΚΜΝΟΡΤΥΧαεικνορτυχ",
    "aeopcxyijsdhqwBEKMHOPCTXASIJABEZHIKMNOPTYXaeiknoptux",
)
_LOOK_ALIKE_CHARACTERS = re.compile("[аеорсхуіјѕԁһԛԝВЕКМНОРСТХАЅІЈΑΒΕΖΗΙΚΜΝΟΡΤΥΧαεικνορτυχ]")
_MIXED_WORD = re.compile(r"[^\W\d_]+")
# Fullwidth ASCII ("３０ days") and Latin ligatures ("ﬁle"): the same characters to a reader. Superscripts
# stay apart ("m²" is not "m2").
_COMPATIBILITY_FORMS = re.compile("[\uff01-\uff5e\ufb00-\ufb06]+")


def as_read(text: str) -> str:
    """``text`` as a reader sees it: fullwidth forms and ligatures folded ("３０" is 30, "ﬁ" is "fi") and
    look-alike letters inside Latin words read as the Latin letters they imitate."""
    if text.isascii():
        return text
    text = _COMPATIBILITY_FORMS.sub(lambda forms: unicodedata.normalize("NFKC", forms.group()), text)
    if _LOOK_ALIKE_CHARACTERS.search(text):
        text = _MIXED_WORD.sub(_unmasked, text)
    return text


def _unmasked(word: re.Match[str]) -> str:
    text = word.group()
    if not re.search("[A-Za-z]", text) or not _LOOK_ALIKE_CHARACTERS.search(text):
        return text
    return text.translate(_LOOK_ALIKES)


def stem(word: str) -> str:
    """A crude suffix stripper: "payments"/"payment", "rates"/"rated" and "cover"/"covered" meet;
    "paid"/"pay" do not."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            root = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                return root + "y"
            # "cover" loses its "er" like "covers" does; "covered" and "covering" must meet it there too.
            if root.endswith("er") and len(root) >= 5 and suffix not in ("er", "ers"):
                return root[:-2]
            return root
    return word


def normalise_number(token: str) -> str:
    """1,000 / 1000 / $1000 / 1000.00 all become "1000"."""
    digits = token.lstrip("$").rstrip("%").replace(",", "")
    if "." in digits:
        digits = digits.rstrip("0").rstrip(".")
    return digits or "0"


@dataclass(frozen=True)
class SentenceFeatures:
    """What one sentence asserts, in comparable form."""

    content: frozenset[str]
    numbers: frozenset[str]
    names: frozenset[str]
    has_negation: bool
    sequence: tuple[str, ...] = ()
    """The content stems in the order they occur (the learnt judge compares word pairs)."""


def sentence_features(sentence: str, *, claim: bool = True) -> SentenceFeatures:
    """Features of an answer sentence; ``claim=False`` skips what only claims need (names, references)."""
    content: set[str] = set()
    sequence: list[str] = []
    numbers: set[str] = set()
    has_negation = False
    sentence = as_read(sentence)
    if claim:
        sentence = _REFERENCE.sub(" ", sentence)
    for raw in _TOKEN.findall(sentence):
        if _UNSPACED_SCRIPT.search(raw):
            pairs = _character_pairs(raw)
            content.update(pairs)
            sequence.extend(sorted(pairs))
            continue
        kind, value = _classify(raw)
        if kind == _CONTENT:
            content.add(value)
            sequence.append(value)
        elif kind == _NUMBER:
            numbers.add(value)
        elif kind == _NEGATION:
            has_negation = True
    return SentenceFeatures(
        content=frozenset(content),
        numbers=frozenset(numbers),
        names=frozenset(_names(sentence)) if claim else frozenset(),
        has_negation=has_negation,
        sequence=tuple(sequence),
    )


_CONTENT, _NUMBER, _NEGATION, _IGNORED = range(4)
# Chinese and Japanese write without spaces between words: a run of their characters is a phrase, not a
# word, and is compared by its overlapping character pairs (the usual unit for these scripts).
_UNSPACED = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_UNSPACED_SCRIPT = re.compile(f"[{_UNSPACED}]")
_SCRIPT_RUNS = re.compile(f"[{_UNSPACED}]+|[^{_UNSPACED}]+")


def _character_pairs(run: str) -> set[str]:
    pairs: set[str] = set()
    for piece in _SCRIPT_RUNS.findall(run):
        if not _UNSPACED_SCRIPT.match(piece):
            pairs.add(stem(piece.lower()))
        elif len(piece) == 1:
            pairs.add(piece)
        else:
            pairs.update(piece[i : i + 2] for i in range(len(piece) - 1))
    return pairs


@lru_cache(maxsize=65536)
def _classify(raw: str) -> tuple[int, str]:
    """What one token contributes; cached because the same words recur across sentences and requests."""
    if raw[0].isdigit() or raw[0] == "$":
        return _NUMBER, normalise_number(raw)
    word = raw.lower().replace("’", "'")
    if _URL.match(word):
        return _CONTENT, re.sub(r"^(?:https?://)?(?:www\.)?", "", word).rstrip("/.,;:!?")
    if word in _NEGATIONS or word.endswith("n't"):
        return _NEGATION, ""
    if word in _CLAIM_NUMBER_WORDS:
        return _NUMBER, _NUMBER_WORDS[word]
    if word in _STOPWORDS or word in _META_WORDS or len(word) < 2:
        return _IGNORED, ""
    return _CONTENT, stem(word.split("'")[0])


def is_framing_word(word: str) -> bool:
    """A word that says nothing about the world: a stopword, a word about the sources, or a preamble's."""
    word = word.lower().replace("’", "'")
    if word in _NEGATIONS or word.endswith("n't") or word[0].isdigit():
        return False
    word = word.split("'")[0]  # "here's", "what's"
    return word in _STOPWORDS or word in _META_WORDS or word in _FRAMING_WORDS


def number_vocabulary(text: str) -> frozenset[str]:
    """Every number a text states, digits or words (a context may say "three" where the answer says 3)."""
    text = as_read(text)
    found = {normalise_number(raw) for raw in _TOKEN.findall(text) if raw[0].isdigit() or raw[0] == "$"}
    found.update(_NUMBER_WORDS[word] for word in re.findall(r"[a-z]+", text.lower()) if word in _NUMBER_WORDS)
    return frozenset(found)


def _names(sentence: str) -> set[str]:
    """Stems of capitalised words that are not just the first word of the sentence or a list item."""
    names: set[str] = set()
    for match in _CAPITALISED.finditer(sentence):
        preceding = sentence[: match.start()].rstrip()
        if not preceding or preceding[-1] in ".:!?\"'(*-•0123456789":
            continue
        for word in re.split(r"[- ]", match.group().lower()):
            if word not in _STOPWORDS and word not in _META_WORDS:
                names.add(stem(word))
    return names
