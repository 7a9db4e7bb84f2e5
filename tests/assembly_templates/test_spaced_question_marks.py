"""French typography (and others) writes a space before "?" and "!": "Quelle part … de l'incinérateur ?". A
template that writes the question on its own line keeps both after it in every prompt, so the alignment
finds " ?" shared by all and could take it for the skeleton's; the question then comes out without its own
mark. Drawn in several scripts, with a plain, a no-break or a narrow no-break space, questions ending with a
word or a number: every request is read with its question whole."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, sentence, shaped, word
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone


@st.composite
def spaced_questions(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    space = draw(st.sampled_from((" ", "\u00a0", "\u202f")))
    mark = draw(st.sampled_from("?!"))
    rule = "=" * rng.randint(5, 12)
    label = f"{word(rng, script).title()}:"
    instruction = " ".join(sentence(rng, script) for _ in range(3))
    pool = [shaped(rng, script, "prose", "paragraphs") for _ in range(12)]
    requests = []
    for _ in range(24):
        words = sentence(rng, script)[:-1]
        asked = f"{words} {rng.randint(2000, 2040)}" if rng.random() < 0.3 else words
        asked += space + mark
        chosen = tuple(rng.sample(pool, rng.randint(1, 4)))
        prompt = f"{instruction}\n{label} {asked}\n{rule}\n" + "\n\n---\n\n".join(chosen) + f"\n{rule}\nOK:"
        requests.append(StreamRequest([("user", prompt)], chosen, asked, "Ok."))
    return Stream(f"{script}/{space!r}", requests)


@EXAMPLES
@given(spaced_questions())
def test_a_question_mark_written_after_a_space_stays_the_questions(stream: Stream) -> None:
    outcomes = read_alone(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) // 2
