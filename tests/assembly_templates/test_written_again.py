"""Layouts that write retrieved text in a form no rule names, in several scripts: the documents' citation
keys listed again under the documents (a slot that only repeats what another holds is no documents slot), a
popular document every prompt holds (found first in some readings and later in others: retrieved, not the
template's words), and a list literal of quoted strings pasted inline (a Python list's repr, a JSON array),
whose strings, escapes undone, are the documents."""

from __future__ import annotations

import json
import random

import pytest
from both_readers import right_shares
from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.learnt.template import literal_strings
from streams import Stream, StreamRequest


def _pool(rng: random.Random, script: str, tables: bool = True) -> list[str]:
    """Documents with line breaks, a list and a table of their own."""
    pool = []
    for number in range(12):
        text = " ".join(sentence(rng, script) for _ in range(rng.randint(1, 3)))
        if number % 3 == 1:
            text += f"\n- {sentence(rng, script)}\n- {sentence(rng, script)}"
        elif number % 3 == 2 and tables:
            cells = f"| {word(rng, script)} | {rng.randint(1, 99)} |"
            text += f"\n{cells}\n|---|---|\n{cells}"
        pool.append(text)
    return pool


def keys_listed_again(rng: random.Random, script: str) -> Stream:
    """Each document after its citation key (its source and the pages the chunk came from), then the keys
    alone on a line of their own below. No document ends with a table: a table's last row after one
    document in the first prompts is taken for the loop's separator (a class of its own, not this one's)."""
    pool = _pool(rng, script, tables=False)
    sources = [f"{word(rng, script).title()}{rng.randint(1990, 2024)}" for _ in pool]
    instruction, heading, listed = sentence(rng, script), word(rng, script).title(), word(rng, script).title()
    requests = []
    for _ in range(24):
        chosen = rng.sample(range(len(pool)), rng.randint(1, 5))
        keys = {at: f"{sources[at]} {rng.randint(1, 9)}-{rng.randint(10, 19)}" for at in chosen}
        body = "\n\n".join(f"{keys[at]}:\n{pool[at]}" for at in chosen)
        asked = question(rng, script)
        again = ", ".join(keys.values())
        text = f"{instruction}\n\n{heading}:\n\n{body}\n\n{listed}: {again}\n\n----\n\nQ: {asked}\n\nA:"
        requests.append(
            StreamRequest([("user", text)], tuple(pool[at] for at in chosen), asked, "An answer.")
        )
    return Stream(f"{script}/keys", requests)


def popular_in_every_prompt(rng: random.Random, script: str) -> Stream:
    """A document the search returns for every question, ranked anywhere among the others."""
    pool = _pool(rng, script)
    popular, label, instruction = pool[0], word(rng, script).upper(), sentence(rng, script)
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool[1:], rng.randint(1, 4))
        chosen.insert(rng.randint(0, len(chosen)), popular)
        body = "\n\n".join(f"---\n{label}:\n{document}\n---" for document in chosen)
        asked = question(rng, script)
        messages = [("system", f"{instruction}\n\n{body}"), ("user", asked)]
        requests.append(StreamRequest(messages, tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/popular", requests)


def inline_literal(rng: random.Random, script: str, encode: str) -> Stream:
    """``query: …, context: [...]``: the documents as the repr of a Python list, or as a JSON array."""
    pool = _pool(rng, script)
    pool[1] = pool[1] + " \"quoted\" and 'quoted' \\ too"
    instruction = sentence(rng, script)
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 5))
        listed = repr(chosen) if encode == "python" else json.dumps(chosen, ensure_ascii=script == "latin")
        asked = question(rng, script)
        messages = [("system", instruction), ("user", f"query: {asked}, context: {listed}")]
        requests.append(StreamRequest(messages, tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/{encode}", requests)


@st.composite
def drawn(draw: st.DrawFn) -> tuple[random.Random, str]:
    return random.Random(draw(st.integers(0, 2**32 - 1))), draw(st.sampled_from(sorted(SCRIPTS)))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn())
def test_keys_listed_again_below_the_documents_are_no_document(drawn_seed: tuple[random.Random, str]) -> None:
    alone, _ = right_shares(keys_listed_again(*drawn_seed))

    assert alone >= 0.75, alone


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn())
def test_a_document_every_prompt_holds_is_read_as_a_document(seed_script: tuple[random.Random, str]) -> None:
    alone, both = right_shares(popular_in_every_prompt(*seed_script))

    assert alone >= 0.75, alone
    assert both >= 0.75, both


@pytest.mark.parametrize("encode", ["python", "json"])
@pytest.mark.parametrize("script", ["latin", "cyrillic", "cjk"])
def test_documents_pasted_as_a_list_literal_are_its_strings_unescaped(script: str, encode: str) -> None:
    alone, _ = right_shares(inline_literal(random.Random(7), script, encode))

    assert alone >= 0.75, alone


def marked_questions(rng: random.Random, script: str, in_tool: bool) -> Stream:
    """Every user opens the question with "¿" and ends it with "?" (Spanish), the user message the question
    alone: the skeleton takes the marks in, yet they are the user's."""
    pool = _pool(rng, script)
    instruction = sentence(rng, script)
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        asked = f"¿{question(rng, script)[:-1]}?"
        body = "\n\n".join(chosen)
        if in_tool:
            found = json.dumps([{"text": document} for document in chosen], ensure_ascii=False)
            messages = [("system", instruction), ("user", asked), ("tool", found)]
        else:
            messages = [("system", f"{instruction}\n\n<context>\n{body}\n</context>"), ("user", asked)]
        requests.append(StreamRequest(messages, tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/marked", requests)


def optional_sections(rng: random.Random, script: str) -> Stream:
    """Two sections the template writes only when they hold something, each opened by "===" and its name
    on the line ("===Tables", "===Additional Context"), the documents under them joined by blank lines."""
    tables, notes = _pool(rng, script)[:6], _pool(rng, script)[6:]
    names = [f"{word(rng, script).title()} {word(rng, script)}" for _ in range(2)]
    instruction, guideline = sentence(rng, script), sentence(rng, script)
    requests = []
    for _ in range(24):
        chosen = [rng.sample(tables, rng.randint(0, 3)), rng.sample(notes, rng.randint(0, 3))]
        if not any(chosen):
            chosen[1] = [notes[0]]
        sections = [
            f"==={name} \n" + "\n\n".join(part) for name, part in zip(names, chosen, strict=True) if part
        ]
        system = f"{instruction} \n" + "\n\n".join(sections) + f"\n\n===Guidelines \n1. {guideline}"
        asked = question(rng, script)
        requests.append(
            StreamRequest(
                [("system", system), ("user", asked)], (*chosen[0], *chosen[1]), asked, "An answer."
            )
        )
    return Stream(f"{script}/sections", requests)


def headed_with_own_lists(rng: random.Random, script: str) -> Stream:
    """Each document under a line that names it (its source and pages, other pages in other requests),
    joined by blank lines; some documents hold a bulleted list of their own, which is no separator."""
    pool = _pool(rng, script, tables=False)
    sources = [f"{word(rng, script).title()}{rng.randint(1990, 2024)}" for _ in pool]
    instruction, heading = sentence(rng, script), word(rng, script).title()
    requests = []
    for _ in range(24):
        chosen = rng.sample(range(len(pool)), rng.randint(1, 5))
        body = "\n\n".join(
            f"{sources[at]} {rng.randint(1, 9)}-{rng.randint(10, 19)}:\n{pool[at]}" for at in chosen
        )
        asked = question(rng, script)
        text = f"{instruction}\n\n{heading}:\n\n{body}\n\n----\n\nQ: {asked}\n\nA:"
        requests.append(
            StreamRequest([("user", text)], tuple(pool[at] for at in chosen), asked, "An answer.")
        )
    return Stream(f"{script}/headed", requests)


@pytest.mark.parametrize("in_tool", [False, True])
@pytest.mark.parametrize("script", ["latin", "cyrillic", "cjk"])
def test_the_question_keeps_the_marks_every_user_opened_it_with(script: str, in_tool: bool) -> None:
    alone, both = right_shares(marked_questions(random.Random(11), script, in_tool))

    assert alone >= 0.75, alone
    assert both >= 0.75, both


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn())
def test_a_sections_heading_is_never_read_as_a_document(drawn_seed: tuple[random.Random, str]) -> None:
    right_shares(optional_sections(*drawn_seed))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn())
def test_a_documents_own_bullets_are_never_the_loops_separator(drawn_seed: tuple[random.Random, str]) -> None:
    alone, _ = right_shares(headed_with_own_lists(*drawn_seed))

    assert alone >= 0.5, alone


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=40), min_size=1, max_size=6), st.booleans())
def test_a_list_literal_gives_back_the_strings_it_was_written_from(texts: list[str], as_json: bool) -> None:
    written = json.dumps(texts, ensure_ascii=False) if as_json else repr(texts)

    assert literal_strings("context: [", written[1:-1], "]") == texts


@pytest.mark.parametrize(
    "content", ["[" * 100_000, "'a', " * 50_000 + "{", "'a' + 'b'", "1, 2", "f('a')", "'a'] + ['b'"]
)
def test_what_is_no_list_of_quoted_strings_reads_as_none(content: str) -> None:
    assert literal_strings("context: [", content, "]") is None


def topic_and_question(rng: random.Random, script: str) -> Stream:
    """The user's turn holds the session's topic (one of three, a few words) above the question, and the
    assistant's search call writes the question again as its query: the question is the slot the search
    was made from, not the topic."""
    pool = _pool(rng, script)
    labels = [f"## {word(rng, script)}" for _ in range(2)]
    topics = [" ".join(word(rng, script) for _ in range(3)) for _ in range(3)]
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 3))
        asked = question(rng, script)[:-1]
        call = json.dumps(
            {"name": "search", "parameters": {"query": [asked, f"{asked} 2026"]}}, ensure_ascii=False
        )
        found = json.dumps({str(n): {"summ": text} for n, text in enumerate(chosen)}, ensure_ascii=False)
        messages = [
            ("system", "Answer the current question from the search results."),
            ("user", f"{labels[0]}\n{rng.choice(topics)}\n{labels[1]}\n{asked}\n"),
            ("assistant", f"<|action_start|>{call}<|action_end|>"),
            ("system", found),
        ]
        requests.append(StreamRequest(messages, tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/topic", requests)


@pytest.mark.parametrize("script", ["latin", "cjk", "arabic"])
def test_the_question_is_the_slot_the_search_was_made_from_not_the_topic_above_it(script: str) -> None:
    alone, both = right_shares(topic_and_question(random.Random(5), script))

    assert alone >= 0.75, alone
    assert both >= 0.75, both
