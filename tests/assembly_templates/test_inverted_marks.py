"""Spanish (and Galician, Asturian) opens a question with "¿" and an exclamation with "¡". When every user
of a service writes so, every prompt holds the mark right where the question slot starts, and the alignment,
which gives the skeleton what all prompts share, took it for the template's: the question came out as
"Cuándo pasó…?", a question nobody asked. Drawn in several scripts, the slot before or after the documents,
with a label or a tag before it: the question is read with its opening mark."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, sentence, shaped, word
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone


@st.composite
def inverted_questions(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    opening, closing = draw(st.sampled_from((("¿", "?"), ("¡", "!"))))
    before, after = draw(st.sampled_from(((f"{word(rng, script).title()}: ", ""), ("<q>", "</q>"), ("", ""))))
    first = draw(st.booleans())
    header = f"{word(rng, script).title()}:"
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    pool = [shaped(rng, script, "prose", "paragraphs") for _ in range(12)]
    requests = []
    for _ in range(24):
        asked = opening + sentence(rng, script)[:-1] + closing
        chosen = tuple(rng.sample(pool, rng.randint(1, 4)))
        documents = f"{header}\n" + "\n\n---\n\n".join(chosen)
        asking = f"{before}{asked}{after}"
        body = f"{asking}\n\n{documents}" if first else f"{documents}\n\n{asking}"
        requests.append(StreamRequest([("system", instruction), ("user", body)], chosen, asked, "Ok."))
    return Stream(f"{script}/{opening}", requests)


@EXAMPLES
@given(inverted_questions())
def test_a_question_opened_with_an_inverted_mark_keeps_it(stream: Stream) -> None:
    outcomes = read_alone(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) // 2
