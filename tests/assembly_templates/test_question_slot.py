"""The user's question found in templates that hide it: a question line laid out as the documents' lines
(the alignment takes it for the loop's first document), the question after the documents behind a label, and
few-shot examples before the real ones. The learnt template reads the right question or says why it cannot."""

from __future__ import annotations

import random

from drawn import SCRIPTS, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.learnt.learner import TemplateLearner
from ragpulse_assembly.readings import Readers
from ragpulse_assembly.settings import TemplateSettings
from streams import BLIND, Outcome, Stream, StreamRequest, Verdict, blind_streams, judge, read, run
from traffic import genai_span

QUOTES = (("'", "'"), ('"', '"'), ("«", "»"), ("「", "」"))


def _outcomes(stream: Stream, rules: bool) -> list[Outcome]:
    chosen = Readers(TemplateLearner(TemplateSettings(rules=rules)), rules=rules)
    spans = [genai_span(request.messages, request.answer) for request in stream.requests]
    return [
        judge(stream.service, "genai", request, found)
        for request, found in zip(stream.requests, read(spans, chosen), strict=True)
    ]


@st.composite
def question_shaped_like_documents(draw: st.DrawFn) -> tuple[Stream, bool]:
    """``LABEL: 'question'`` then one ``OTHER: 'document'`` line per document (or the same label on every
    line), in any script, with documents retrieved for the question (they share its words) or not."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    retrieved = draw(st.booleans())
    opening, closing = draw(st.sampled_from(QUOTES))
    asking = word(rng, script).upper()
    label = asking if draw(st.booleans()) else word(rng, script).upper()
    instruction, answer_cue = sentence(rng, script), word(rng, script)
    pool = [sentence(rng, script) + " " + sentence(rng, script) for _ in range(12)]
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(1, 4))
        words = chosen[0].rstrip(".。").split() if script != "cjk" else [chosen[0][:5], chosen[0][7:11]]
        asked = rng.sample(words, min(3, len(words))) if retrieved else [word(rng, script) for _ in range(4)]
        question = " ".join(asked)
        lines = "\n".join(f"{label}: {opening}{text}{closing}" for text in chosen)
        text = f"{instruction}\n\n{asking}: {opening}{question}{closing}\n{lines}\n\n{answer_cue}:"
        requests.append(StreamRequest([("user", text)], tuple(chosen), question, "An answer."))
    return Stream(f"{script}/{label == asking}/retrieved={retrieved}", requests), retrieved


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(question_shaped_like_documents())
def test_a_question_line_shaped_like_the_documents_lines_is_the_question(case: tuple[Stream, bool]) -> None:
    stream, retrieved = case
    alone = _outcomes(stream, rules=False)
    both = _outcomes(stream, rules=True)

    assert [o.detail for o in alone + both if o.verdict is Verdict.WRONG] == []
    if retrieved and not stream.service.startswith("cjk"):
        # The documents share the question's words: its line is cut from the loop and read as the question.
        # (Generated CJK text draws every document from the same 30 characters: each shares the others' as
        # much as the question's, so nothing tells them apart and it is refused, as below.)
        assert sum(o.verdict is Verdict.RIGHT for o in alone) >= len(alone) * 3 // 4, alone
    else:
        # Nothing tells the question from a document: no score, and the reason says the question is missing.
        unscored = [o.detail for o in alone if o.verdict is Verdict.UNSCORED]
        assert all(detail.startswith("no_question") for detail in unscored), unscored


def test_a_document_first_in_every_prompt_is_never_taken_for_the_question() -> None:
    """A loop of documents with no question line, whose documents share one another's words (one topic):
    the first of them is a document that comes back in other places in other requests, never the question.
    Not scored, and the reason says no question was found."""
    rng = random.Random(7)
    vocabulary = [word(rng, "latin") for _ in range(15)]
    pool = [" ".join(rng.choices(vocabulary, k=rng.randint(6, 14))) + "." for _ in range(10)]
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(2, 4))
        lines = "\n".join(f"PASSAGE: '{text}'" for text in chosen)
        requests.append(
            StreamRequest(
                [("user", f"Summarise these passages.\n\n{lines}\n\nSUMMARY:")],
                tuple(chosen),
                "",
                "A summary.",
            )
        )

    outcomes = _outcomes(Stream("no question line", requests), rules=False)

    assert [o.detail.split(" ")[0] for o in outcomes] == ["no_question"] * len(outcomes), outcomes[0].detail


def test_blind_wave_d_is_read_on_the_right_context_or_not_scored() -> None:
    """Eleven services that hide their question (a QUESTION line shaped like the PASSAGE lines, the question
    after the documents behind a label, documents inlined in the system message, labelled records then a
    heading, few-shot examples; six languages) under both instrumentations, default readers."""
    outcomes = run(blind_streams(BLIND / "wave_d"), "learnt+rules")

    assert [o for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) * 95 // 100
