"""The conversation so far under a label of its own ("Chat History:\nHuman: …\nAssistant: …"): LangChain's
condense-question prompt rewrites a follow-up into a standalone question from it, and many answer prompts
write it beside the documents. Its turns, one after another under a speaker's label, were learnt as a loop of
documents. Turns a user and a model wrote are never documents: drawn in several scripts, with and without
documents beside them, no turn is read as one."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, question, sentence, shaped
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, run


@st.composite
def history_under_a_label(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    heading = draw(st.sampled_from(("Chat History:", "Conversation:", "Chat history so far:", "HISTORY:")))
    user, model = draw(st.sampled_from((("Human", "Assistant"), ("User", "AI"), ("user", "assistant"))))
    with_documents = draw(st.booleans())
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    pool = [shaped(rng, script, "prose") for _ in range(12)]
    requests = []
    for _ in range(24):
        turns = "\n".join(
            f"{user if turn % 2 == 0 else model}: {sentence(rng, script)}"
            for turn in range(rng.randint(2, 6))
        )
        asked = question(rng, script)
        chosen = tuple(rng.sample(pool, rng.randint(1, 3))) if with_documents else ()
        context = "Context:\n" + "\n\n".join(chosen) + "\n\n" if chosen else ""
        body = f"{instruction}\n\n{context}{heading}\n{turns}\nFollow Up Input: {asked}\nStandalone question:"
        requests.append(StreamRequest([("user", body)], chosen, asked, asked))
    return Stream(f"{script}/{heading}", requests)


@EXAMPLES
@given(history_under_a_label())
def test_the_conversation_so_far_is_no_document(stream: Stream) -> None:
    outcomes = run([stream], "learnt+rules")

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
