"""Worked examples above the documents, laid out as the documents are ("Wikipedia Title: …" paragraphs), each
going on with its own question and answer under the labels the template writes after the documents ("Q: Who
was born first…?\nA: … So the answer is: …" where the template writes "Q: Answer … {question}\nA:"): a
demonstration, not documents every request retrieved, though its lines differ from the template's own."""

from __future__ import annotations

import random

from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict
from test_titled_documents import verdicts


def _paragraph(rng: random.Random, script: str, label: str) -> tuple[str, str]:
    title = " ".join(word(rng, script) for _ in range(rng.randint(1, 3))).capitalize()
    text = " ".join(sentence(rng, script) for _ in range(rng.randint(1, 2)))
    return f"{label}: {title}\n{text}", text


def demonstrated_stream(seed: int, script: str, asking: str, answering: str) -> Stream:
    """Twenty-four requests of one to four of ten paragraphs after two worked examples, each with two
    paragraphs of its own, a question and an answer under the labels ``asking`` and ``answering``."""
    rng = random.Random(seed)
    label = f"{word(rng, 'latin').capitalize()} {word(rng, 'latin').capitalize()}"
    examples = []
    for _ in range(2):
        paragraphs = "\n\n".join(_paragraph(rng, script, label)[0] for _ in range(2))
        examples.append(
            f"{paragraphs}\n\n{asking}: {question(rng, script)}\n{answering}: {sentence(rng, script)}"
        )
    demonstrations = "\n\n\n".join(examples)
    instruction = sentence(rng, script)
    pool = [_paragraph(rng, script, label) for _ in range(10)]
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        asked = question(rng, script)
        body = "\n\n".join(item for item, _ in chosen)
        prompt = f"{demonstrations}\n\n\n{body}\n\n{asking}: {instruction} {asked}\n{answering}:"
        requests.append(
            StreamRequest([("user", prompt)], tuple(text for _, text in chosen), asked, "An answer.")
        )
    return Stream(f"{seed}/{script}/{asking}/{answering}", requests)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(sorted(set(SCRIPTS) - {"cjk"})),
    st.sampled_from((("Q", "A"), ("Question", "Answer"), ("Frage", "Antwort"))),
)
def test_worked_examples_laid_out_as_the_documents_are_a_demonstration(
    seed: int, script: str, labels: tuple[str, str]
) -> None:
    stream = demonstrated_stream(seed, script, *labels)
    for rules in (True, False):
        found = verdicts(stream, rules)

        assert [detail for verdict, detail in found if verdict is Verdict.WRONG] == []
        assert sum(verdict is Verdict.RIGHT for verdict, _ in found) >= len(found) * 2 // 3, rules


def test_a_document_every_request_retrieved_is_still_refused() -> None:
    # The attack: the same paragraph in every request right above the others, followed by lines that open
    # with no label the template writes after its documents: documents the skeleton absorbed, never read
    # short of one.
    rng = random.Random(5)
    pool = [_paragraph(rng, "latin", "Wiki Title") for _ in range(10)]
    pinned = _paragraph(rng, "latin", "Wiki Title")
    requests = []
    for _ in range(24):
        chosen = [pinned, *rng.sample(pool, rng.randint(1, 3))]
        asked = question(rng, "latin")
        body = "\n\n".join(item for item, _ in chosen)
        prompt = f"{body}\n\nQ: {asked}\nA:"
        requests.append(
            StreamRequest([("user", prompt)], tuple(text for _, text in chosen), asked, "An answer.")
        )
    found = verdicts(Stream("pinned", requests), True)

    assert [detail for verdict, detail in found if verdict is Verdict.WRONG] == []
