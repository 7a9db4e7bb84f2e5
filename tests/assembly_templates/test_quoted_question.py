"""A question the template writes between quotes of its own (three double quotes, 「…」, «…») after its
label: the structure rules read it with the quotes, the learnt template without; both read the same words,
so the request is scored on the template's reading, not refused as a disagreement."""

from __future__ import annotations

import random

from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict
from test_document_headers import _verdicts

LABELS = {"latin": "Question", "cyrillic": "Вопрос", "greek": "Ερώτηση", "arabic": "السؤال", "cjk": "问题"}
"""The question's label in each script, as people write it (the structure rules know it too)."""
QUOTES = (('"""', '"""'), ("「", "」"), ("«", "»"), ("'''", "'''"), ("“", "”"))


def quoted_stream(seed: int, script: str, quotes: tuple[str, str]) -> Stream:
    """Twenty requests whose documents sit in <doc> elements and whose question closes the prompt between
    ``quotes`` after a label."""
    rng = random.Random(seed)
    label, tag = LABELS[script], word(rng, "latin")
    instruction = sentence(rng, script)
    pool = [" ".join(sentence(rng, script) for _ in range(rng.randint(1, 2))) for _ in range(10)]
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(1, 4))
        asked = question(rng, script)
        body = "\n".join(f"<{tag}>\n{text}\n</{tag}>" for text in chosen)
        text = f"{instruction}\n\n<data>\n{body}\n</data>\n\n{label}:{quotes[0]}{asked}{quotes[1]}"
        requests.append(StreamRequest([("user", text)], tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/{quotes[0]}", requests)


@st.composite
def quoted_traffic(draw: st.DrawFn) -> Stream:
    return quoted_stream(
        draw(st.integers(0, 2**32 - 1)), draw(st.sampled_from(sorted(SCRIPTS))), draw(st.sampled_from(QUOTES))
    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(quoted_traffic())
def test_a_question_between_the_templates_quotes_is_read_alike(stream: Stream) -> None:
    both = _verdicts(stream, rules=True)

    assert [detail for verdict, detail in both if verdict is Verdict.WRONG] == []
    assert sum(verdict is Verdict.RIGHT for verdict, _ in both) >= len(both) * 3 // 4, both
