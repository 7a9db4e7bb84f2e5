"""A prompt that writes the chat history in the labels of its question ("Question: …\nResponse: …" for each
earlier turn, then "Question: {question}\nResponse:"): the answer's label is written more than once, so it
anchors nothing, and the question's gap reaches up to the colon. Every value then ends with the line break
and the label before the colon the template writes; that last line is the template's label, not the
question's end: the question came out as "…carried over?\nResponse". Drawn in several scripts, the answer's
label in the script's words: the skeleton after the question opens with the label's line. (Written in CJK,
whose label runs into no blank, the colon is no anchor either and the question is refused, not misread.)"""

from __future__ import annotations

import random

from drawn import EXAMPLES, SCRIPTS, question, sentence, word
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_assembly.learnt.alignment import Constant, Gap, align
from ragpulse_assembly.learnt.tokens import tokenize


@EXAMPLES
@given(st.data())
def test_the_answers_label_after_the_question_is_the_templates(data: st.DataObject) -> None:
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    script = data.draw(st.sampled_from(sorted(set(SCRIPTS) - {"cjk"})))
    asking = data.draw(st.sampled_from(("Question", "User", "Query")))
    answering = word(rng, script).title()
    instruction = " ".join(sentence(rng, script) for _ in range(3))
    texts = []
    for _ in range(12):
        turns = "".join(
            f"{asking}: {question(rng, script)}\n{answering}: {sentence(rng, script)}\n"
            for _ in range(rng.choice((0, 1, 2)))
        )
        texts.append(f"{instruction}\n{turns}{asking}: {question(rng, script)}\n{answering}:")

    pieces = align([tokenize(text) for text in texts])

    assert isinstance(pieces[-2], Gap)
    assert pieces[-1] == Constant(("\n", answering, ":"))
