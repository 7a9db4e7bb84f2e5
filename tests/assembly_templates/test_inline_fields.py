"""Search tools write each result as one record on one line, the text first and its fields after it, each
labelled after a mark ("[snippet: …, title: …, link: https://…]", joined by ", "). The fields are the
template's, not the document's: a link's host ending in "." like a sentence ("https://www.example-news.")
made it look like text, and the document came out with its title and half its link. Drawn in several
scripts, with the field labels, marks and brackets of the draw: each document is its text alone."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, sentence, word
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone


@st.composite
def search_records(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    # Greek ends a question with ";": after a Greek title it would ask, not part fields.
    mark = draw(st.sampled_from((", ", " | ") if script == "greek" else (", ", "; ", " | ")))
    opening, closing = draw(st.sampled_from((("[", "]"), ("(", ")"), ("", ""))))
    text_label, title_label, link_label = (word(rng, "latin") for _ in range(3))
    # One site with sections on their own hosts: the links share all but the host's end, which ends with "."
    site, domain = word(rng, "latin"), rng.choice(("se", "com", "org"))
    instruction = sentence(rng, script)
    pool = []
    for _ in range(12):
        text = " ".join(sentence(rng, script) for _ in range(rng.randint(1, 3)))
        title = " ".join(word(rng, script) for _ in range(rng.randint(2, 5))).title()
        link = f"https://www.{site}{rng.choice(('-news.', '.', '-blog.'))}{domain}/{word(rng, 'latin')}"
        fields = f"{text_label}: {text}{mark}{title_label}: {title}{mark}{link_label}: {link}"
        written = f"{opening}{fields}{closing}"
        pool.append((text, written))
    requests = []
    for _ in range(24):
        asked = sentence(rng, script)[:-1] + "?"
        chosen = rng.sample(pool, rng.randint(1, 4))
        result = ", ".join(written for _, written in chosen)
        messages = [("system", instruction), ("user", f"{asked}\n\n{result}")]
        requests.append(StreamRequest(messages, tuple(text for text, _ in chosen), asked, "Ok."))
    return Stream(f"{script}/{mark!r}", requests)


@EXAMPLES
@given(search_records())
def test_labelled_fields_after_the_text_are_not_the_documents(stream: Stream) -> None:
    outcomes = read_alone(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) // 2
