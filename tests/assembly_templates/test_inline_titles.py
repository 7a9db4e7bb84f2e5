"""Documents joined by blank lines, each opening with a title the template writes on the text's own line
("{title} — {text}"), some holding blank lines of their own, the question after the last one: the titles are
never read as part of the documents' text, a document is never cut at its own blank line, and the question is
never a document. And the other way round: a template that writes no title, whose documents open with a
name and the same mark of their own in most requests, never has a document joined to another. Every request
is read right or refused, never on a wrong context."""

from __future__ import annotations

import random

from both_readers import context_stream, right_shares
from drawn import SCRIPTS, question, retrieved, sentence, shaped, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest

MARKS = ("—", "|", "–", "::")


def titled_stream(seed: int, script: str, mark: str, labelled: bool) -> Stream:
    """Twenty-four requests of one to five of twenty titled documents joined by a blank line, one in most
    requests; the question after a blank line, under a label or not."""
    rng = random.Random(seed)
    pool = [
        (word(rng, script).title(), shaped(rng, script, "prose", "paragraphs", "list", "ruled"))
        for _ in range(20)
    ]
    instruction, label = sentence(rng, script), word(rng, script).title()
    requests = []
    for _ in range(24):
        chosen = retrieved(rng, pool, 5, 0.7)
        asked = question(rng, script)
        body = "\n\n".join(f"{title} {mark} {text}" for title, text in chosen)
        tail = f"{label}: {asked}" if labelled else asked
        requests.append(
            StreamRequest(
                [("system", instruction), ("user", f"{label}:\n{body}\n\n{tail}")],
                tuple(text for _, text in chosen),
                asked,
                "An answer.",
            )
        )
    return Stream(f"{script}/{mark}/{labelled}/{seed}", requests)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)), st.sampled_from(MARKS), st.booleans())
def test_titles_on_the_texts_line_are_never_read_as_text(
    seed: int, script: str, mark: str, labelled: bool
) -> None:
    right_shares(titled_stream(seed, script, mark, labelled))


def own_names_stream(seed: int, script: str) -> Stream:
    """A template that writes no title (documents joined by a blank line); most documents open with a name
    and " — " of their own, the others do not."""
    rng = random.Random(seed)
    pool = []
    for number in range(15):
        text = " ".join(sentence(rng, script) for _ in range(rng.randint(1, 2)))
        pool.append(f"{word(rng, script).title()} — {text}" if number % 8 else text)
    return context_stream(f"own-names/{script}/{seed}", pool, "\n\n", rng, script)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)))
def test_documents_opening_with_names_of_their_own_are_never_joined(seed: int, script: str) -> None:
    right_shares(own_names_stream(seed, script))
