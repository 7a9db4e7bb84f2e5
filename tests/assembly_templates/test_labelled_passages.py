"""Records whose text field is labelled on a line of its own ("NAME: …\nPASSAGE:\n…"), and whose chunks
open with their own heading line: the line right under the label is the passage's first, not a title the
template writes (the template wrote the name on the line above). It was taken for a title and dropped.
Drawn in several scripts, with the labels of the draw: each document is read with its first line."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, question, sentence, word
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone


@st.composite
def labelled_passages(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    name_label, text_label = (word(rng, "latin").upper() for _ in range(2))
    rule = draw(st.sampled_from(("---", "***", "====")))
    instruction = " ".join(sentence(rng, script) for _ in range(3))
    pool = []
    for _ in range(12):
        heading = " ".join(word(rng, script) for _ in range(rng.randint(1, 4))).title()
        text = f"{heading}\n" + " ".join(sentence(rng, script) for _ in range(rng.randint(2, 4)))
        name = heading if rng.random() < 0.6 else " ".join(word(rng, script) for _ in range(2)).title()
        pool.append((text, f"{rule}\n{name_label}: {name}\n{text_label}:\n{text}\n{rule}"))
    requests = []
    for _ in range(24):
        asked = question(rng, script)
        chosen = rng.sample(pool, rng.randint(1, 4))
        passages = "\n\n".join(written for _, written in chosen)
        body = f"{instruction}\n\n{passages}\n\nQuestion: {asked}"
        requests.append(StreamRequest([("user", body)], tuple(text for text, _ in chosen), asked, "Ok."))
    return Stream(f"{script}/{text_label}", requests)


@EXAMPLES
@given(labelled_passages())
def test_the_line_under_a_passages_label_is_its_text(stream: Stream) -> None:
    outcomes = read_alone(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) // 2
