"""Which language a text is written in, as far as the lexical judge needs to know: enough to refuse a pair.

The lexical judge compares words, so an answer in German against English documents shares none of their
words however faithful it is: every sentence would read as unsupported. Rather than a wrong score, the pair
is refused. A text's language is named only when it is clear: by script (Chinese and Japanese characters,
Cyrillic, Greek, Arabic, Hebrew, Hangul) or, for Latin script, by its commonest function words, where one
language must count at least three and twice as many as any other. Anything less clear is ``None``.
"""

from __future__ import annotations

import re
from collections import Counter

from ragpulse_judge.deadline import check_deadline

_SCRIPTS = {
    "Chinese or Japanese": re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]"),
    "Korean": re.compile("[\uac00-\ud7af]"),
    "Cyrillic-script": re.compile("[\u0400-\u04ff]"),
    "Greek": re.compile("[\u0370-\u03ff]"),
    "Arabic-script": re.compile("[\u0600-\u06ff]"),
    "Hebrew": re.compile("[\u0590-\u05ff]"),
}
_FUNCTION_WORDS = {
    "English": "the and is are of to for with that this it be was were has have not from by which",
    "German": "der die das und ist sind nicht mit von zu den dem des ein eine einer für auf werden wird auch"
    " sich kann können wurde nach oder aber wenn",
    "French": "le la les et est sont des une du pour dans avec pas sur ne au aux qui que ce cette il elle"
    " sous être peut peuvent été leur leurs vous nous",
    "Spanish": "el la los las y es son del una para con por que se su al como pero más este esta",
    "Portuguese": "o a os as e é são do da dos das uma para com não em no na que se ao",
    "Italian": "il lo la gli le e è sono del della di una per con non che si nel alla anche",
    "Dutch": "de het een en is zijn van voor met niet op dat wordt worden ook bij",
}
# Each function word with the languages it belongs to: one lookup per word of the text.
_LANGUAGES_OF: dict[str, list[str]] = {}
for _language, _words in _FUNCTION_WORDS.items():
    for _word in frozenset(_words.split()):
        _LANGUAGES_OF.setdefault(_word, []).append(_language)
_WORD = re.compile(r"[^\W\d_]+")
_MIN_FUNCTION_WORDS = 3
_SCRIPT_SHARE = 0.3


def language_of(text: str) -> str | None:
    """The language ``text`` is clearly written in, or None when that is not clear."""
    letters = sum(map(str.isalpha, text))
    if not letters:
        return None
    for name, script in _SCRIPTS.items():
        check_deadline()
        if len(script.findall(text)) >= _SCRIPT_SHARE * letters:
            return name
    check_deadline()
    counts: Counter[str] = Counter()
    for word, times in Counter(_WORD.findall(text.lower())).items():
        for language in _LANGUAGES_OF.get(word, ()):
            counts[language] += times
    ranked = counts.most_common(2)
    if not ranked or ranked[0][1] < _MIN_FUNCTION_WORDS:
        return None
    if len(ranked) > 1 and ranked[0][1] < 2 * ranked[1][1]:
        return None
    return ranked[0][0]


def language_mismatch(answer: str, context: list[str]) -> str | None:
    """Why the answer cannot be compared word for word with the context, or None when it can."""
    answer_language = language_of(answer)
    context_language = language_of("\n".join(context))
    if answer_language and context_language and answer_language != context_language:
        return (
            f"the answer is in {answer_language} and the context in {context_language}: the lexical judge "
            "compares words and cannot judge across languages"
        )
    return None
