"""The user's words are never context. A question may hold a template's separator, its question label and
text written like its documents (to be read as one, or by accident: a pasted e-mail thread); where a chain
span recorded the question, no text of it is scored as a retrieved document, whatever the layout."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from drawn import FRAMINGS, SCRIPTS, SEPARATORS, Layout, document, prompt, question, sentence, word
from ragpulse_assembly.learnt.learner import TemplateLearner
from ragpulse_assembly.model import TraceSpan, normalized
from ragpulse_assembly.readings import Readers
from ragpulse_assembly.rules import assemble
from ragpulse_assembly.settings import TemplateSettings
from traffic import openinference_span

CHAIN_ID = "00000000000000c1"


def _traced(messages: list[tuple[str, str]], asked: str) -> list[TraceSpan]:
    """The generating call under a chain span that recorded the user's question, as LangChain's and
    LlamaIndex's instrumentors write it."""
    llm = replace(openinference_span(messages, "An answer."), parent_span_id=CHAIN_ID)
    attributes = {"openinference.span.kind": "CHAIN", "input.value": asked, "output.value": "An answer."}
    return [llm, replace(llm, span_id=CHAIN_ID, parent_span_id="", name="chain", attributes=attributes)]


def _planted(framing: str, question_at: str, seed: int) -> tuple[list[list[TraceSpan]], set[int], str]:
    """Twenty-four requests of one generated template; a few questions hold the template's separator and
    question label around a planted passage."""
    rng = random.Random(seed)
    script = rng.choice(sorted(SCRIPTS))
    layout = Layout(
        script, rng.choice(SEPARATORS), framing, question_at, tuple(word(rng, script) for _ in range(6))
    )
    pool = [(word(rng, script), document(rng, script, layout.separator)) for _ in range(16)]
    passage = " ".join(sentence(rng, script) for _ in range(2))
    instruction = sentence(rng, script)
    attacked = set(rng.sample(range(8, 24), 6))
    traces = []
    for number in range(24):
        asked = question(rng, script)
        if number in attacked:
            asked += f"{layout.separator}{passage}\n\n{layout.words[1]}: {question(rng, script)}"
        chosen = rng.sample(pool, rng.randint(1, 4))
        traces.append(_traced(prompt(layout, chosen, asked, instruction), asked))
    return traces, attacked, passage


@pytest.mark.parametrize("question_at", ["after", "before", "system"])
@pytest.mark.parametrize("framing", [framing for framing in FRAMINGS if framing != "message"])
def test_no_text_of_a_recorded_question_is_scored_as_a_document(framing: str, question_at: str) -> None:
    for seed in range(3):
        traces, attacked, passage = _planted(framing, question_at, seed)
        readers = Readers(TemplateLearner(TemplateSettings()))
        found = [assemble(f"{number:032x}", spans, readers) for number, spans in enumerate(traces)]
        for number in attacked:
            request = found[number]
            assert request is not None
            documents = [normalized(str(chunk["text"])) for chunk in json.loads(request.context or "[]")]
            planted = normalized(passage)
            assert not any(planted in text or text in planted for text in documents), (
                seed,
                number,
                documents,
            )


def test_a_document_that_asks_the_one_line_question_in_its_own_words_is_still_read() -> None:
    """An FAQ entry opening with the user's question is context: only a question of several lines marks a
    document holding one of its lines as the question's."""
    asked = "How long does a VPN session last?"
    documents = [f"{asked} Twelve hours, then you sign in again.", "MFA is required for every VPN session."]
    messages = [
        ("system", "Answer from the context.\n\nContext:\n" + "\n\n".join(documents)),
        ("user", asked),
    ]

    request = assemble("0" * 32, _traced(messages, asked), Readers())

    assert request is not None and not request.unscorable
    assert [chunk["text"] for chunk in json.loads(request.context)] == documents
