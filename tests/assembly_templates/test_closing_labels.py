"""A prompt that ends with a label and nothing after it ("RELEVANCE: ", "Antwort:") names what the model
writes next; it is never a document, whatever the word. An evaluation prompt (a relevance or faithfulness
grader) ends so after its one context, and a service with few distinct prompts is read by the layout rules
alone, which knew only "Answer:" and its kin and read the cue as a second document. Drawn in several
scripts, the cue a word of the script: the layout rules read the one context and no cue."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, question, sentence, shaped, word
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, run


@st.composite
def graded_contexts(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    header = draw(st.sampled_from(("CONTEXT:", "Context:", "Documents:", "Retrieved context:")))
    cue = f"{word(rng, script).upper()}{draw(st.sampled_from((':', '：')))} "
    instruction = " ".join(sentence(rng, script) for _ in range(3))
    requests = []
    for _ in range(8):
        asked = question(rng, script)
        text = shaped(rng, script, "prose", "label")
        body = f"QUESTION: {asked}\n\n{header} {text}\n\n{cue}"
        requests.append(StreamRequest([("system", instruction), ("user", body)], (text,), asked, "2"))
    return Stream(f"{script}/{cue}", requests)


@EXAMPLES
@given(graded_contexts())
def test_a_closing_label_is_no_document(stream: Stream) -> None:
    outcomes = run([stream], "rules-only")

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert all(o.verdict is Verdict.RIGHT for o in outcomes)
