"""Greek ends a question with a semicolon (";", or the Greek question mark it stands for), Ethiopic with
"፧", Armenian and Burmese and Khmer end a sentence with marks of their own. When every user of a service
writes so, every prompt holds the mark right where the question slot ends, and the alignment took it for the
template's: the question came out without its mark. Drawn with the slot before or after the documents: every
question is read whole, and a semicolon after Latin words stays the template's."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, sentence, shaped, word
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone

_ENDS = {"greek": (";", "\u037e"), "latin": ("፧", "։", "။", "។")}


@st.composite
def questions_ending_in_their_scripts_marks(draw: st.DrawFn) -> Stream:
    rng, _ = drawn_in_a_script(draw)
    script = draw(st.sampled_from(sorted(_ENDS)))
    mark = draw(st.sampled_from(_ENDS[script]))
    first = draw(st.booleans())
    label = f"{word(rng, script).title()}:"
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    pool = [shaped(rng, script, "prose", "paragraphs") for _ in range(12)]
    requests = []
    for _ in range(24):
        asked = sentence(rng, script)[:-1] + mark
        chosen = tuple(rng.sample(pool, rng.randint(1, 4)))
        documents = "Context:\n" + "\n\n---\n\n".join(chosen)
        body = f"{label} {asked}\n\n{documents}" if first else f"{documents}\n\n{label} {asked}\nAnswer:"
        requests.append(StreamRequest([("system", instruction), ("user", body)], chosen, asked, "Ok."))
    return Stream(f"{script}/{mark}", requests)


@EXAMPLES
@given(questions_ending_in_their_scripts_marks())
def test_a_question_keeps_the_mark_its_script_ends_it_with(stream: Stream) -> None:
    outcomes = read_alone(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) // 2


def test_a_semicolon_after_latin_words_is_the_templates() -> None:
    asked = [f"what does clause {n} of the lease say about pets" for n in range(24)]
    pool = [f"Clause {n} of the lease: tenants may keep one small pet with consent." for n in range(24)]
    requests = [
        StreamRequest(
            [("user", f"Question: {question}; answer from the context only.\n\nContext:\n{pool[n]}")],
            (pool[n],),
            question,
            "Ok.",
        )
        for n, question in enumerate(asked)
    ]

    outcomes = read_alone(Stream("latin/semicolon", requests))

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
