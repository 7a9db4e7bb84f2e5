"""A grader's prompt (a faithfulness or hallucination judge run inside the service: Lynx, RAGAS, TruLens,
Phoenix) holds the answer under judgement beside the documents, under a label of its own ("ANSWER:",
"[Response]"). The answer often copies a document's sentence, and its slot was taken for a second documents
slot: the answer was judged against itself. A slot labelled as an answer is never documents. Drawn in
several scripts, with the labels and layouts of the draw."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, question, sentence, shaped
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone


@st.composite
def graded_answers(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    label = draw(st.sampled_from(("ANSWER", "Answer", "RESPONSE", "Generated answer", "[Model output]")))
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
