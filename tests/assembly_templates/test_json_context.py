"""A context pasted as JSON after some prose ("Context:\\n[{"source": …, "text": …}]"): the learnt template
reads each document decoded, as the retriever gave it, or refuses; never with its quotes and line breaks
escaped (before, every such stream was read on a wrong context). A message of brackets nested past Python's
stack is refused, not a crash."""

from __future__ import annotations

import json
import random

from drawn import SCRIPTS, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict
from test_document_headers import _verdicts


def _document(rng: random.Random, script: str) -> str:
    """Text with what JSON escapes: line breaks, quotes, a backslash, a tab."""
    lines = [sentence(rng, script) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.5:
        lines[0] = f'"{lines[0]}"'
    if rng.random() < 0.3:
        lines[-1] = lines[-1].replace(" ", "\t", 1) + " C:\\docs"
    return "\n".join(lines)


@st.composite
def json_contexts(draw: st.DrawFn) -> Stream:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    in_system = draw(st.booleans())
    source_key, text_key = (word(rng, "latin") for _ in range(2))
    label = f"{word(rng, script).capitalize()}:"
    prose = f"{sentence(rng, script)}\n{sentence(rng, script)}\n{word(rng, script).capitalize()}:\n"
    pool = [(f"https://{word(rng, 'latin')}.example/{n}", _document(rng, script)) for n in range(12)]
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(1, 4))
        question = sentence(rng, script)[:-1] + "?"
        context = json.dumps(
            [{source_key: source, text_key: text} for source, text in chosen], ensure_ascii=False
        )
        if in_system:
            messages = [("system", prose + context), ("user", question)]
        else:
            messages = [("user", f"{prose}{context}\n\n{label} {question}")]
        requests.append(StreamRequest(messages, tuple(text for _, text in chosen), question, "An answer."))
    return Stream(f"{script}/{'system' if in_system else 'user'}", requests)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_contexts())
def test_documents_of_a_json_context_after_prose_are_read_decoded_or_refused(stream: Stream) -> None:
    """Where no loop splits the snippets (their fields repeat as often as the snippets do), the slot is one
    JSON run that does not decode as one string: refused, not read escaped."""
    alone = _verdicts(stream, rules=False)

    assert [detail for verdict, detail in alone if verdict is Verdict.WRONG] == []


def test_a_context_of_brackets_nested_past_the_stack_is_refused_not_a_crash() -> None:
    rng = random.Random(5)
    requests = []
    for n in range(12):
        nested = "[" * (20_000 + n) + "]" * (20_000 + n)
        question = sentence(rng, "latin")[:-1] + "?"
        document = sentence(rng, "latin")
        messages = [("user", f"Context:\n{nested}\n{document}\n\nQuestion: {question}")]
        requests.append(StreamRequest(messages, (document,), question, "An answer."))

    alone = _verdicts(Stream("nested", requests), rules=False)

    assert [detail for verdict, detail in alone if verdict is Verdict.WRONG] == []
