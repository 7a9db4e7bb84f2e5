"""Templates learnt from traffic read documents they were never told about: generated templates in several
scripts, with random labels, separators and document framings, one to eight documents per request whose own
text holds lines that look like separators, the question inside or outside the documents' message, a
popular document in most requests; every request read with the learnt templates alone (the layout rules
switched off) gives every document and the question exactly, or is refused."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.learnt.learner import TemplateLearner
from ragpulse_assembly.readings import Readers
from ragpulse_assembly.settings import TemplateSettings
from streams import Stream, StreamRequest, Verdict, judge, read
from templates import Messages
from traffic import genai_span

SCRIPTS = {
    "latin": "abcdefghijklmnopqrstuvwxyz",
    "cyrillic": "абвгдежзиклмнопрстуфхцчшщэюя",
    "greek": "αβγδεζηθικλμνξοπρστυφχψω",
    "arabic": "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
    "cjk": "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年",
}
SEPARATORS = ("\n---\n", "\n\n***\n\n", " | ", "\n\n=====\n\n", "\n~~~\n", "\n\n")
FRAMINGS = ("plain", "numbered", "label-line", "element", "quoted", "record", "message")
LOOKALIKES = ("-----", "=====", "* * *", "#####", "~~~~~", "_____")
"""Lines a document's own text holds that look like a template's separator (never its exact one)."""


@dataclass(frozen=True)
class Layout:
    script: str
    separator: str
    framing: str
    question_at: str
    words: tuple[str, ...]
    """Label words of this template (header, question label, record keys, element name)."""


def _word(rng: random.Random, script: str) -> str:
    return "".join(rng.choice(SCRIPTS[script]) for _ in range(rng.randint(3, 8)))


def _sentence(rng: random.Random, script: str) -> str:
    joiner = "" if script == "cjk" else " "
    end = "。" if script == "cjk" else "."
    return joiner.join(_word(rng, script) for _ in range(rng.randint(4, 10))) + end


def _document(rng: random.Random, layout: Layout) -> str:
    lines = [_sentence(rng, layout.script) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.4:
        lookalike = rng.choice([line for line in LOOKALIKES if line not in layout.separator])
        lines.insert(rng.randint(1, len(lines)), lookalike)
    return "\n".join(lines)


def _framed(layout: Layout, number: int, title: str, text: str) -> str:
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


def _messages(layout: Layout, documents: list[tuple[str, str]], question: str, instruction: str) -> Messages:
    header, asking = layout.words[0], layout.words[1]
    if layout.framing == "message":
        return [("system", instruction), *[("system", text) for _, text in documents], ("user", question)]
    body = layout.separator.join(
        _framed(layout, number, title, text) for number, (title, text) in enumerate(documents, 1)
    )
    block = f"{header}:\n{body}"
    if layout.question_at == "after":
        return [("user", f"{instruction}\n\n{block}\n\n{asking}: {question}")]
    if layout.question_at == "before":
        return [("user", f"{instruction}\n{asking}: {question}\n\n{block}\n\n{layout.words[5]}:")]
    return [("system", f"{instruction}\n\n{block}"), ("user", question)]


@st.composite
def traffic(draw: st.DrawFn) -> Stream:
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    separator = draw(st.sampled_from(SEPARATORS))
    framing = draw(st.sampled_from(FRAMINGS))
    question_at = draw(st.sampled_from(("after", "before", "own message")))
    layout = Layout(script, separator, framing, question_at, tuple(_word(rng, script) for _ in range(6)))
    instruction = " ".join(_sentence(rng, script) for _ in range(rng.randint(1, 3)))
    if rng.random() < 0.5:
        instruction += "\n" + "\n".join(f"{n}. {_sentence(rng, script)}" for n in range(1, rng.randint(2, 5)))
    pool = [(_word(rng, script), _document(rng, layout)) for _ in range(14)]
    popular = pool[0]
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool[1:], rng.randint(0, 7))
        if rng.random() < 0.6:
            chosen.insert(rng.randint(0, len(chosen)), popular)
        chosen = chosen or [rng.choice(pool)]
        question = _sentence(rng, script)[:-1] + ("？" if script == "cjk" else "?")
        messages = _messages(layout, chosen, question, instruction)
        requests.append(StreamRequest(messages, tuple(text for _, text in chosen), question, "An answer."))
    return Stream(f"{script}/{framing}/{separator!r}/{question_at}", requests)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(traffic())
def test_a_learnt_template_gives_every_document_exactly_or_refuses(stream: Stream) -> None:
    chosen = Readers(TemplateLearner(TemplateSettings(rules=False)), rules=False)
    spans = [genai_span(request.messages, request.answer) for request in stream.requests]
    outcomes = [
        judge(stream.service, "genai", request, found)
        for request, found in zip(stream.requests, read(spans, chosen), strict=True)
    ]

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    # Refusing everything would pass the line above: most of the traffic of a learnt template is read.
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) * 3 // 4, outcomes
