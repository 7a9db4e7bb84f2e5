"""An agent loop that hands each tool result back as a user turn: the task in the first user turn, then per
file the model's turn naming the file and a user turn with the result, which names the file again (a result
line, the editor's open files). The learnt template reads the last user turn, where the file's name is the
only short value that varies, and took it for the question: the user asked nothing there, the model named
that file itself. Drawn in several scripts, with tags and labels of their own: never read wrong; and a chat
whose user repeats the model's words as the whole message is still read."""

from __future__ import annotations

from drawn import EXAMPLES, drawn_in_a_script, sentence, shaped, word
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone, read_both


def _name(rng_word: str, extension: str, folder: str) -> str:
    return f"{folder}/{rng_word}.{extension}"


@st.composite
def tool_results_as_user_turns(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    tool, env = word(rng, "latin"), word(rng, "latin")
    opened, current = word(rng, script).title(), word(rng, script).title()
    instruction = " ".join(sentence(rng, script) for _ in range(3))
    files = [
        (_name(word(rng, "latin"), rng.choice(("py", "md", "yml", "ts")), word(rng, "latin")),
         shaped(rng, script, "prose", "paragraphs"))
        for _ in range(10)
    ]  # fmt: skip
    calling = [sentence(rng, script) for _ in range(2)]
    requests = []
    for _ in range(24):
        task = sentence(rng, script)[:-1] + "?"
        read = rng.sample(files, rng.randint(1, 3))
        minute = rng.randint(10, 40)

        def environment(name: str, at: int) -> str:
            return f"<{env}>\n# {opened}\n{name}\n\n# {current}\n{at}:00\n</{env}>"

        messages = [
            ("system", instruction),
            ("user", f"<task>\n{task}\n</task>\n\n{environment(read[0][0], minute)}"),
        ]
        for at, (name, text) in enumerate(read):
            messages.append(("assistant", f"{calling[at > 0]}\n\n<{tool}>\n<path>{name}</path>\n</{tool}>"))
            messages.append(
                ("user", f"[{tool} for '{name}'] Result:\n\n{text}\n\n{environment(name, minute + at + 1)}")
            )
        requests.append(StreamRequest(messages, tuple(text for _, text in read), task, "Ok."))
    return Stream(f"{script}/{tool}", requests)


@EXAMPLES
@given(tool_results_as_user_turns())
def test_a_name_the_model_wrote_is_never_the_question(stream: Stream) -> None:
    for outcomes in (read_alone(stream), read_both(stream)):
        assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []


@st.composite
def repeated_words(draw: st.DrawFn) -> Stream:
    """A chat whose last user message is the whole question, at times a phrase of the model's last answer."""
    rng, script = drawn_in_a_script(draw)
    header = f"{word(rng, script).title()}:"
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    pool = [shaped(rng, script, "prose") for _ in range(12)]
    requests = []
    for _ in range(24):
        chosen = tuple(rng.sample(pool, rng.randint(1, 3)))
        answer = sentence(rng, script)
        asked = answer[:-1] + "?" if rng.random() < 0.5 else sentence(rng, script)[:-1] + "?"
        system = f"{instruction}\n\n{header}\n" + "\n\n---\n\n".join(chosen)
        messages = [
            ("system", system),
            ("user", sentence(rng, script)),
            ("assistant", answer),
            ("user", asked),
        ]
        requests.append(StreamRequest(messages, chosen, asked, "Ok."))
    return Stream(f"{script}/repeated", requests)


@EXAMPLES
@given(repeated_words())
def test_a_user_repeating_the_models_words_is_still_read(stream: Stream) -> None:
    outcomes = read_alone(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) // 2
