"""Two things a template writes that look like the user's words or a document's header: a line that takes one
of a few values in every request (a query intent, a mode) beside the question, and the rule line the template
writes before each document's header lines, which the documents' own text also holds between paragraphs.
The question and every document are read exactly, or the request is refused; never a wrong context."""

from __future__ import annotations

import json

from drawn import EXAMPLES, drawn_in_a_script, sentence, word
from hypothesis import given
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, run


def _checked(stream: Stream) -> None:
    for mode in ("learnt+rules", "learnt-only"):
        outcomes = run([stream], mode, families=("openai-v2-latest",))
        assert [o for o in outcomes if o.verdict is Verdict.WRONG] == [], mode
        # Refusing them all would pass the line above: the documents and the question are read.
        assert sum(o.verdict is Verdict.RIGHT for o in outcomes) * 2 >= len(outcomes), (mode, outcomes)


@st.composite
def question_beside_a_variant(draw: st.DrawFn) -> Stream:
    """Documents between markers, then the question under a label and, after it, a line that is one of two
    sentences (the query's intent as a classifier wrote it), in any script; questions at times without a
    question mark."""
    rng, script = drawn_in_a_script(draw)
    asking, intent, marker = (word(rng, script).title() for _ in range(3))
    variants = [sentence(rng, script) for _ in range(2)]
    pool = [f"{sentence(rng, script)} {sentence(rng, script)}" for _ in range(10)]
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    requests = []
    for _ in range(24):
        chosen = tuple(rng.sample(pool, rng.randint(1, 4)))
        question = sentence(rng, script)[:-1] + rng.choice(["?", ""])
        body = "\n\n---\n\n".join(chosen)
        text = (
            f"<!--{marker}-->\n\n{body}\n\n<!--/{marker}-->\n\n**{asking}**: {question}\n"
            f"**{intent}**:\n- {rng.choice(variants)}\n"
        )
        requests.append(
            StreamRequest([("system", instruction), ("user", text)], chosen, question, "An answer.")
        )
    return Stream(f"variant/{script}", requests)


@EXAMPLES
@given(question_beside_a_variant())
def test_a_line_of_two_values_beside_the_question_is_never_taken_for_it(stream: Stream) -> None:
    _checked(stream)


@st.composite
def documents_with_their_own_rules(draw: st.DrawFn) -> Stream:
    """Each document after a rule line and header lines ('---', 'KEY: https://…/name', 'OTHER: value'), a
    blank line and its text; some texts hold the same rule line between paragraphs of their own."""
    rng, script = drawn_in_a_script(draw)
    rule = draw(st.sampled_from(["---", "***", "====="]))
    key, other, asking = (word(rng, "latin") for _ in range(3))
    site = f"https://{word(rng, 'latin')}.example/"

    def text() -> str:
        paragraphs = [sentence(rng, script) for _ in range(rng.randint(1, 3))]
        return f"\n\n{rule}\n\n".join(paragraphs)

    pool = [(word(rng, "latin"), rng.choice(["a", "b"]), text()) for _ in range(10)]
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        question = sentence(rng, script)[:-1] + "?"
        body = f"\n\n{rule}\n\n".join(
            f"{key}: {site}{name}\n{other}: {kind}\n\n{t}" for name, kind, t in chosen
        )
        prompt = f"{instruction}\n\n{body}\n\n{asking}: {question}"
        requests.append(
            StreamRequest([("user", prompt)], tuple(t for *_, t in chosen), question, "An answer.")
        )
    return Stream(f"rules/{script}/{rule}", requests)


@EXAMPLES
@given(documents_with_their_own_rules())
def test_a_documents_own_rule_line_is_no_header_of_another_document(stream: Stream) -> None:
    _checked(stream)


@st.composite
def role_play_turns(draw: st.DrawFn) -> Stream:
    """A role-play chat: a main prompt, the lore entries retrieved for the turn (one line each) in a system
    message of their own, the character card, a greeting, earlier turns at times, then the user's line,
    which often opens with an action between asterisks ("*walks in.* Where…")."""
    rng, script = drawn_in_a_script(draw)
    main, card, greeting = (" ".join(sentence(rng, script) for _ in range(3)) for _ in range(3))
    lore = [f"{sentence(rng, script)} {sentence(rng, script)}" for _ in range(10)]
    actions = [f"*{sentence(rng, script)}*" for _ in range(3)]
    history = [(sentence(rng, script), sentence(rng, script)) for _ in range(2)]
    requests = []
    for _ in range(24):
        chosen = tuple(rng.sample(lore, rng.randint(1, 4)))
        line = sentence(rng, script)[:-1] + "?"
        said = f"{rng.choice(actions)} {line}" if rng.random() < 0.6 else line
        turns = [
            m for user, char in history[: rng.randint(0, 2)] for m in (("user", user), ("assistant", char))
        ]
        messages = [
            ("system", main),
            ("system", "\n".join(chosen)),
            ("system", card),
            ("assistant", greeting),
            *turns,
            ("user", said),
        ]
        requests.append(StreamRequest(messages, chosen, said, sentence(rng, script)))
    return Stream(f"role-play/{script}", requests)


@EXAMPLES
@given(role_play_turns())
def test_the_users_line_with_actions_is_the_question_not_the_lore_message(stream: Stream) -> None:
    _checked(stream)


@st.composite
def search_tool_turns(draw: st.DrawFn) -> Stream:
    """A raw completion prompt with header tokens: today's date in the system header, the user's question,
    the model's search call with the question lower-cased and its mark dropped, then the tool's JSON
    results, each a title, a link and the description that is the document."""
    rng, script = drawn_in_a_script(draw)
    pool = [
        (word(rng, script).title(), f"{sentence(rng, script)} {sentence(rng, script)}") for _ in range(10)
    ]
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        question = sentence(rng, script)[:-1].capitalize() + rng.choice(["?", ""])
        query = question.rstrip("?").lower()
        results = [
            {"title": title, "url": f"https://w.example/{title}", "description": text}
            for title, text in chosen
        ]
        prompt = (
            f"<|start|>system<|end|>\n\nToday: {rng.randint(1, 28)} {rng.choice(['Jan', 'Feb', 'Mar'])}\n"
            f"You are helpful<|eot|><|start|>user<|end|>\n\n{question}<|eot|><|start|>assistant<|end|>\n\n"
            f'search.call(query="{query}")<|eom|><|start|>tool<|end|>\n\n'
            f"{json.dumps({'query': query, 'top_k': results}, ensure_ascii=False)}"
            "<|eot|><|start|>assistant<|end|>\n\n"
        )
        documents = tuple(text for _, text in chosen)
        requests.append(StreamRequest([("user", prompt)], documents, question, "An answer."))
    return Stream(f"search-tool/{script}", requests)


@EXAMPLES
@given(search_tool_turns())
def test_the_users_question_is_read_before_the_search_query_written_from_it(stream: Stream) -> None:
    _checked(stream)
