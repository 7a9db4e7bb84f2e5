"""Prompts that hold two lists in one message, each in its own tags under its own heading (a memory's
facts, then its entities), in several scripts: each list is a slot of its own, its closing tag and the next
list's heading never a document's text (before, every such request was refused). Half the facts open with
the user's name, the others name the user further on: the name is the facts' own text, never cut off as a
title, and a date range the template writes after each fact is no part of it."""

from __future__ import annotations

import random

from both_readers import right_shares
from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest


@st.composite
def two_lists(draw: st.DrawFn) -> Stream:
    return drawn_lists(random.Random(draw(st.integers(0, 2**32 - 1))), draw(st.sampled_from(sorted(SCRIPTS))))


def drawn_lists(rng: random.Random, script: str) -> Stream:
    first, second = (word(rng, script).upper() for _ in range(2))
    name = f"{word(rng, script).title()} {word(rng, script).title()}"
    facts = [f"{name} {sentence(rng, script)}" for _ in range(6)]
    facts += [f"{word(rng, script).title()} {name} {sentence(rng, script)}" for _ in range(6)]
    entities = [sentence(rng, script) for _ in range(10)]
    instruction = sentence(rng, script)
    headings = [f"# {word(rng, script)} {word(rng, script)}" for _ in range(2)]
    requests = []
    for _ in range(24):
        chosen = rng.sample(facts, rng.randint(1, 4))
        named = rng.sample(entities, rng.randint(1, 3))
        dated = [f"  - {fact} ({rng.randint(2020, 2025)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)} - present)"
                 for fact in chosen]  # fmt: skip
        listed = [f"  - {entity}" for entity in named]
        system = (
            f"{instruction}\n\n{headings[0]}\n<{first}>\n" + "\n".join(dated)
            + f"\n</{first}>\n\n{headings[1]}\n<{second}>\n" + "\n".join(listed) + f"\n</{second}>"
        )  # fmt: skip
        asked = question(rng, script)
        requests.append(
            StreamRequest([("system", system), ("user", asked)], (*chosen, *named), asked, "An answer.")
        )
    return Stream(f"{script}/{first}/{second}", requests)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_lists())
def test_two_tagged_lists_in_one_message_are_read_as_two_slots_or_refused(stream: Stream) -> None:
    alone, both = right_shares(stream)

    # Each of its reads is all or nothing: a list read as one slot with the other would hold the closing
    # tag and the heading in a document, and be refused whole.
    assert alone in (0.0, 1.0) or alone >= 0.75, alone
    assert both in (0.0, 1.0) or both >= 0.75, both


def test_facts_that_open_with_the_same_name_keep_it_and_lose_their_date_range() -> None:
    """Latin, Cyrillic, Greek and Chinese: the facts and the entities of most requests are read exactly."""
    shares = [right_shares(drawn_lists(random.Random(seed), script)) for seed in range(3)
              for script in ("latin", "cyrillic", "greek", "cjk")]  # fmt: skip

    assert sum(both for _, both in shares) >= len(shares) * 0.9, shares
    assert sum(alone for alone, _ in shares) >= len(shares) * 0.9, shares


def test_a_bare_word_before_every_document_stays_the_templates_label() -> None:
    """The contrast: a word the template writes before each document ("Passage …", no mark after it) is
    its label, not the documents' shared first word, when no document of the window goes without it."""
    for seed, script in ((0, "latin"), (1, "cyrillic"), (2, "cjk")):
        rng = random.Random(seed)
        label, instruction = word(rng, script).title(), sentence(rng, script)
        pool = [" ".join(sentence(rng, script) for _ in range(rng.randint(1, 3))) for _ in range(12)]
        requests = []
        for _ in range(24):
            chosen, asked = rng.sample(pool, rng.randint(1, 4)), question(rng, script)
            body = "\n\n".join(f"{label} {document}" for document in chosen)
            messages = [("user", f"{instruction}\n\n{body}\n\nQ: {asked}\nA:")]
            requests.append(StreamRequest(messages, tuple(chosen), asked, "An answer."))

        assert right_shares(Stream(f"{script}/{label}", requests)) == (1.0, 1.0)
