"""A grader's prompt (a faithfulness or hallucination judge run inside the service: Lynx, RAGAS, TruLens,
Phoenix) holds the answer under judgement beside the documents, under a label of its own ("ANSWER:",
"[Response]"). The answer often copies a document's sentence, and its slot was taken for a second documents
slot: the answer was judged against itself. So was a correctness grader's reference answer ("GROUND TRUTH:",
"[Reference answer]:"), which no retriever returned. A slot labelled as an answer is never documents. Drawn
in several scripts, with the labels and layouts of the draw."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, question, sentence, shaped
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone, run


@st.composite
def graded_answers(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    labels = ("ANSWER", "RESPONSE", "Generated answer", "[Model output]", "Antwort", "Ответ", "回答")
    label = draw(st.sampled_from(labels))
    verdict = draw(st.sampled_from(("Reply PASS or FAIL.", 'Return JSON: {"score": 0 or 1}')))
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    pool = [shaped(rng, script, "prose") for _ in range(12)]
    requests = []
    for _ in range(24):
        asked = question(rng, script)
        chosen = tuple(rng.sample(pool, rng.randint(1, 3)))
        graded = sentence(rng, script) if rng.random() < 0.5 else chosen[0].split(".")[0] + "."
        documents = "\n\n".join(chosen)
        graded_part = f"{label}:\n{graded}\n\n{verdict}"
        body = f"{instruction}\n\nQUESTION: {asked}\n\nDOCUMENT:\n{documents}\n\n{graded_part}"
        requests.append(StreamRequest([("user", body)], chosen, asked, "PASS"))
    return Stream(f"{script}/{label}", requests)


@EXAMPLES
@given(graded_answers())
def test_an_answer_under_judgement_is_no_document(stream: Stream) -> None:
    outcomes = read_alone(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) // 2


@st.composite
def graded_against_a_reference(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    asking, reference, answering = draw(
        st.sampled_from(
            (
                ("[Question]", "[Reference answer]", "[Answer]"),
                ("QUESTION", "GROUND TRUTH", "STUDENT ANSWER"),
                ("Question", "Expected output", "Actual output"),
            )
        )
    )
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    requests = []
    for _ in range(24):
        asked = question(rng, script)
        expected, graded = sentence(rng, script), sentence(rng, script)
        body = f"{instruction}\n{asking}: {asked}\n{reference}: {expected}\n{answering}: {graded}\n\nCorrect?"
        requests.append(StreamRequest([("user", body)], (), asked, "yes"))
    return Stream(f"{script}/{reference}", requests)


@EXAMPLES
@given(graded_against_a_reference())
def test_a_reference_answer_is_no_document(stream: Stream) -> None:
    outcomes = run([stream], "learnt+rules")

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
