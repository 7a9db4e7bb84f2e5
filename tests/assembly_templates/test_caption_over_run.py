"""A template that writes one line over the passage it fences with rules ("Excerpt from <citation>", then
the passage between two rule lines), after a sentence announcing the passage: the structure rules ended
the announced block at the first rule and read the caption as a document of its own. A one-line document
the rules end there reads the same, so nothing in the layout tells which: the rules refuse. Drawn with
captions and passages in several scripts, rules of several marks, a question label after the passage."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, sentence, shaped, word
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, run

ANNOUNCING = (
    "Read the excerpt below and help answer a question.",
    "Use the passage below to answer.",
    "Fasse den folgenden Auszug zusammen.",
    "Résume l'extrait ci-dessous pour répondre.",
)


@st.composite
def captioned_passages(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    announcing = draw(st.sampled_from(ANNOUNCING))
    rule = draw(st.sampled_from(("------------", "=====", "***", "_____")))
    caption = draw(st.sampled_from(("Excerpt from", "Aus", "Source:", "")))
    label = f"{word(rng, script).title()}:"
    closing = " ".join(sentence(rng, script) for _ in range(2))
    cited = (f"{caption} {word(rng, script).title()} {sentence(rng, script)}".strip() for _ in range(12))
    pool = [
        (
            f"{citation} 20{rng.randint(10, 25)};{rng.randint(1, 99)}",
            shaped(rng, script, "prose", "paragraphs"),
        )
        for citation in cited
    ]
    requests = []
    for _ in range(24):
        cited, passage = rng.choice(pool)
        asked = sentence(rng, script)[:-1] + "?"
        body = f"{announcing}\n\n{cited}\n\n{rule}\n\n{passage}\n\n{rule}\n\n{label} {asked}\n\n{closing}"
        requests.append(StreamRequest([("user", body)], (passage,), asked, "Ok."))
    return Stream(f"{script}/{rule}", requests)


@EXAMPLES
@given(captioned_passages())
def test_a_caption_over_a_fenced_passage_is_never_a_document(stream: Stream) -> None:
    outcomes = run([stream], "rules-only", families=("openai-v2-latest",))

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
