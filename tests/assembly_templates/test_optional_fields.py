"""A search whose results the template writes with fields before each page ("Title: …", a link,
"Published: …" for the pages that have a date, then "Content:" and the page): the date field stands in
only some results, so the alignment kept the link and the date in one value that is one line in some
results and several in others, took it for text, and read every page with the template's link, date and
content label. Drawn in several scripts, labels of their own, pages between rules in the system message:
the learnt template never reads them wrong (it refuses: where the page begins is not told)."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, sentence, shaped, word
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone


@st.composite
def pages_with_optional_fields(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    title, link, dated, content = (
        f"{word(rng, script).title()} {word(rng, script).title()}" for _ in range(4)
    )
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    pages = [
        (sentence(rng, script)[:-1], f"{word(rng, 'latin')}.org/{word(rng, 'latin')}",
         f"# {word(rng, script).title()} {word(rng, script)}\n\n{shaped(rng, script, 'prose')}",
         sentence(rng, script)[:-1] + "?",
         f"{dated}: 2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}\n\n" if rng.random() < 0.6 else "")
        for _ in range(10)
    ]  # fmt: skip
    requests = []
    for _ in range(24):
        # The page asked about first, others the search also found after it.
        chosen = rng.sample(pages, rng.randint(1, 3))
        asked = chosen[0][3]
        pasted = "\n\n=====\n\n".join(
            f"{title}: {name}\n\n{link}: {url}\n\n{date}{content}:\n{text}"
            for name, url, text, _, date in chosen
        )
        messages = [("system", f"{instruction}\n\n{pasted}"), ("user", asked)]
        requests.append(StreamRequest(messages, tuple(text for _, _, text, _, _ in chosen), asked, "Ok."))
    return Stream(f"{script}/{title}", requests)


@EXAMPLES
@given(pages_with_optional_fields())
def test_a_field_some_pages_have_is_never_read_into_a_page(stream: Stream) -> None:
    outcomes = read_alone(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
