"""Documents every request retrieved (memory files always loaded first, a pinned page) are constant text in
the learning window, so the skeleton holds them; read with that skeleton, a request gives its other documents
and misses these: a wrong context. Drawn in several scripts, the header line each file opens with laid out
by the template (its label words, the file's path, a kind in brackets), one or two files in every request
first, the question in a user turn of its own: every request is read right or refused, never wrong."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, sentence, shaped, word
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone


@st.composite
def memory_files(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    label = f"{word(rng, script).title()} {word(rng, script)}"
    root = f"/home/{word(rng, 'latin')}/src/{word(rng, 'latin')}"
    kinds = [word(rng, script) for _ in range(3)]
    files = [
        (f"{root}/{word(rng, 'latin')}/NOTES.md", rng.choice(kinds), shaped(rng, script, "prose", "list"))
        for _ in range(8)
    ]
    always = [(f"/home/{word(rng, 'latin')}/NOTES.md", kinds[0], shaped(rng, script, "prose", "list"))]
    always += [files.pop()] if draw(st.booleans()) else []
    opening, system, closing = (" ".join(sentence(rng, script) for _ in range(2)) for _ in range(3))
    requests = []
    for _ in range(24):
        chosen = always + sorted(rng.sample(files, rng.randint(1, 4)))
        joined = "\n\n".join(f"{label} {path} ({kind}):\n\n{text}" for path, kind, text in chosen)
        asked = f"{sentence(rng, script)[:-1]}?"
        messages = [("system", system), ("user", f"{opening}\n\n{joined}\n\n{closing}")]
        requests.append(
            StreamRequest([*messages, ("user", asked)], tuple(text for _, _, text in chosen), asked, "Ok.")
        )
    return Stream(f"{script}/{len(always)}", requests)


@EXAMPLES
@given(memory_files())
def test_documents_every_request_retrieved_are_never_left_out_of_a_reading(stream: Stream) -> None:
    outcomes = read_alone(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []


@st.composite
def demonstrations(draw: st.DrawFn) -> Stream:
    """IRCoT's reader: demonstrations with their own titled paragraphs, question and answer, laid out as the
    request's documents and standing above them in every prompt."""
    rng, script = drawn_in_a_script(draw)
    label, ask, cue = f"{word(rng, script).title()} {word(rng, script)}:", f"{word(rng, script)}:", "A:"
    instruction = sentence(rng, script)

    def paragraph() -> tuple[str, str]:
        return f"{label} {word(rng, script).title()}", " ".join(sentence(rng, script) for _ in range(2))

    shown = "".join(
        "\n\n".join(f"{title}\n{text}" for title, text in (paragraph() for _ in range(rng.randint(1, 2))))
        + f"\n\n{ask} {instruction}\n{sentence(rng, script)[:-1]}?\n{cue} {sentence(rng, script)}\n\n\n"
        for _ in range(2)
    )
    pool = [paragraph() for _ in range(12)]
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 3))
        asked = f"{sentence(rng, script)[:-1]}?"
        documents = "\n\n".join(f"{title}\n{text}" for title, text in chosen)
        prompt = f"{shown}{documents}\n\n{ask} {instruction}\n{asked}\n{cue}"
        requests.append(StreamRequest([("user", prompt)], tuple(text for _, text in chosen), asked, "Ok."))
    return Stream(f"{script}/demonstrations", requests)


@EXAMPLES
@given(demonstrations())
def test_demonstrations_laid_out_as_the_documents_are_no_documents_every_request_retrieved(
    stream: Stream,
) -> None:
    outcomes = read_alone(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    # Refusing the template would pass the line above: the demonstrations' own question sets them apart.
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) * 3 // 4, outcomes
