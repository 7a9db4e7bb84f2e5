"""Drawn templates: words and sentences in several scripts, documents holding lines that look like a
template's separator, and layouts (labels, separators, document framings, where the question goes)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from templates import Messages

SCRIPTS = {
    "latin": "abcdefghijklmnopqrstuvwxyz",
    "cyrillic": "абвгдежзиклмнопрстуфхцчшщэюя",
    "greek": "αβγδεζηθικλμνξοπρστυφχψω",
    "arabic": "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
    "cjk": "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年",
}
SEPARATORS = ("\n---\n", "\n\n***\n\n", " | ", "\n\n=====\n\n", "\n~~~\n", "\n\n")
LOOKALIKES = ("-----", "=====", "* * *", "#####", "~~~~~", "_____")
"""Lines a document's own text holds that look like a template's separator (never its exact one)."""


def word(rng: random.Random, script: str) -> str:
    return "".join(rng.choice(SCRIPTS[script]) for _ in range(rng.randint(3, 8)))


def sentence(rng: random.Random, script: str) -> str:
    joiner = "" if script == "cjk" else " "
    end = "。" if script == "cjk" else "."
    return joiner.join(word(rng, script) for _ in range(rng.randint(4, 10))) + end


def question(rng: random.Random, script: str) -> str:
    return sentence(rng, script)[:-1] + ("？" if script == "cjk" else "?")


FRAMINGS = ("plain", "numbered", "label-line", "element", "quoted", "record", "message")


@dataclass(frozen=True)
class Layout:
    script: str
    separator: str
    framing: str
    question_at: str
    words: tuple[str, ...]
    """Label words of this template (header, question label, record keys, element name)."""


def document(rng: random.Random, script: str, *separators: str) -> str:
    """One to three sentences, at times with a line that looks like a separator but is none of
    ``separators``."""
    lines = [sentence(rng, script) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.4:
        lookalike = rng.choice([line for line in LOOKALIKES if not any(line in sep for sep in separators)])
        lines.insert(rng.randint(1, len(lines)), lookalike)
    return "\n".join(lines)


def framed(layout: Layout, number: int, title: str, text: str) -> str:
    label, key, tag = layout.words[2], layout.words[3], layout.words[4]
    if layout.framing == "numbered":
        return f"[{number}] {text}"
    if layout.framing == "label-line":
        return f"{label} {number}:\n{text}"
    if layout.framing == "element":
        return f'<{tag} id="{number}">{text}</{tag}>'
    if layout.framing == "quoted":
        return f'"""\n{text}\n"""'
    if layout.framing == "record":
        return f"{key}: {title}\n{label}: {text}"
    return text


def prompt(layout: Layout, documents: list[tuple[str, str]], question: str, instruction: str) -> Messages:
    header, asking = layout.words[0], layout.words[1]
    if layout.framing == "message":
        return [("system", instruction), *[("system", text) for _, text in documents], ("user", question)]
    body = layout.separator.join(
        framed(layout, number, title, text) for number, (title, text) in enumerate(documents, 1)
    )
    block = f"{header}:\n{body}"
    if layout.question_at == "after":
        return [("user", f"{instruction}\n\n{block}\n\n{asking}: {question}")]
    if layout.question_at == "before":
        return [("user", f"{instruction}\n{asking}: {question}\n\n{block}\n\n{layout.words[5]}:")]
    return [("system", f"{instruction}\n\n{block}"), ("user", question)]


EXAMPLES = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Property tests over whole streams of drawn prompts: a dozen streams each, however slow."""


def drawn_in_a_script(draw: st.DrawFn) -> tuple[random.Random, str]:
    """A generator of words and sentences, and the script they are written in."""
    return random.Random(draw(st.integers(0, 2**32 - 1))), draw(st.sampled_from(sorted(SCRIPTS)))


def shaped(rng: random.Random, script: str, *shapes: str, rule: str = "---") -> str:
    """A document of one of ``shapes``, drawn: "prose" (one to three sentences), "paragraphs" (two, a blank
    line between), "list" (a sentence, or none, then bullets), "ruled" (``rule`` on a line between two
    sentences), "label" (a word and a colon before a sentence), "quoted" (a quote of its own, "> ", in its
    first lines)."""
    s = lambda: sentence(rng, script)  # noqa: E731
    made = {
        "prose": lambda: " ".join(s() for _ in range(rng.randint(1, 3))),
        "paragraphs": lambda: f"{s()}\n\n{s()}",
        "list": lambda: f"- {s()}\n- {s()}" if rng.random() < 0.5 else f"{s()}\n- {s()}\n- {s()}",
        "ruled": lambda: f"{s()}\n{rule}\n{s()}",
        "label": lambda: f"{word(rng, script).title()}: {s()}",
        "quoted": lambda: f"> {s()}\n{s()}" if rng.random() < 0.5 else f"{s()}\n> {s()}\n> {s()}",
    }
    return made[rng.choice(shapes)]()


def retrieved(rng: random.Random, pool: list[Any], most: int, popular: float) -> list[Any]:
    """One to ``most`` documents of ``pool`` in random order, ``pool[0]`` (a popular chunk) among them with
    probability ``popular``."""
    chosen = rng.sample(pool[1:], rng.randint(1, most))
    if rng.random() < popular:
        chosen[rng.randrange(len(chosen))] = pool[0]
    return list(dict.fromkeys(chosen))
