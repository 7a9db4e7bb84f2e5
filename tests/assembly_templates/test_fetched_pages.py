"""Pages a fetch tool returns, one per call: fields the tool writes ("Title: …", "URL Source: …", a date some
pages have), then a label on a line of its own and the page's text, which opens with its own markdown
heading ("Markdown Content:\n# Passport renewal\n\n…"). The label names the text's field: the fields before
it are no text, however many lines a field some pages lack adds; the heading mark every page opened with is
the page's own. Under OpenInference each call is an assistant turn before its result: a run of calls and
results is one place whatever its length, as one message per document is."""

from __future__ import annotations

import random

from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.readings import place
from streams import Stream, StreamRequest, Verdict, run


def page_stream(seed: int, script: str, hashes: str) -> Stream:
    """Twenty-four requests fetching one to three of eight pages, each in a tool message of its own."""
    rng = random.Random(seed)
    title, source, dated, content = (word(rng, "latin").capitalize() for _ in range(4))
    pool = []
    for number in range(8):
        heading = " ".join(word(rng, script) for _ in range(rng.randint(1, 3))).capitalize()
        paragraphs = "\n\n".join(sentence(rng, script) for _ in range(rng.randint(1, 3)))
        text = f"{hashes} {heading}\n\n{paragraphs}"
        fields = f"{title}: {word(rng, script)}\n\n{source}: https://{word(rng, 'latin')}.org/{number}\n\n"
        if number % 3 == 0:
            fields += f"{dated}: 2026-0{number % 9 + 1}-1{number % 10}T09:00:00+01:00\n\n"
        pool.append((f"{fields}{content}:\n{text}", text))
    instruction = sentence(rng, script)
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 3))
        asked = question(rng, script)
        messages = [("system", instruction), ("user", asked)]
        for page, _ in chosen:
            messages += [("tool_call", "fetch"), ("tool", page)]
        requests.append(StreamRequest(messages, tuple(text for _, text in chosen), asked, "An answer."))
    return Stream(f"{seed}/{script}/{hashes}", requests)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)), st.sampled_from(("#", "##")))
def test_a_fetched_page_is_read_from_its_labelled_field_with_its_own_heading(
    seed: int, script: str, hashes: str
) -> None:
    stream = page_stream(seed, script, hashes)
    for mode in ("learnt+rules", "learnt-only"):
        found = run([stream], mode)

        assert [outcome.detail for outcome in found if outcome.verdict is Verdict.WRONG] == []
        assert sum(outcome.verdict is Verdict.RIGHT for outcome in found) >= len(found) * 2 // 3, mode


def _messages(*roles: Role) -> list[Message]:
    return [Message(role, "x") for role in roles]


def test_a_run_of_tool_calls_is_one_place_and_a_conversation_is_not() -> None:
    system, user, assistant, tool = Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.TOOL
    once = place("chat", _messages(system, user, assistant, tool))

    assert place("chat", _messages(system, user, assistant, tool, assistant, tool, assistant, tool)) == once
    # The attack: turns of a conversation alternate too, and each length of history stays a place of its own;
    # so does a call whose result the model answered in words before the next question.
    talk = place("chat", _messages(system, user, assistant, user))
    assert place("chat", _messages(system, user, assistant, user, assistant, user)) != talk
    assert place("chat", _messages(system, user, assistant, tool, assistant, user)) != once
