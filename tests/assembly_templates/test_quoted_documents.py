"""Documents quoted line by line: a template that writes "> " (or "| ") before every line of each document, as
a markdown or e-mail quote does, writes it inside the documents' own text too. Each document is read without
the template's mark on any of its lines, and a document's own quote ("> " of its own, so "> > " in the prompt)
keeps its one level. A template that quotes nothing leaves a document's own "> " lines alone. Every request is
read right or refused, never on a wrong context."""

from __future__ import annotations

import random

from both_readers import context_stream, right_shares
from drawn import SCRIPTS, question, retrieved, sentence, shaped, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.learnt.quotes import unquoted
from streams import Stream, StreamRequest

MARKS = ("> ", "| ", ">> ", "│ ")
JOINERS = ("\n\n", "\n\n---\n\n", "\n\n* * *\n\n", "\n\n\n")


def quoted_stream(seed: int, script: str, mark: str, joiner: str) -> Stream:
    """Twenty-four requests of one to four of twelve documents, each quoted with ``mark`` on every line,
    joined by ``joiner``, between an instruction and the labelled question; one document in most
    requests."""
    rng = random.Random(seed)
    pool = [shaped(rng, script, "prose", "paragraphs", "list", "ruled", "quoted") for _ in range(12)]
    instruction = sentence(rng, script)
    label = word(rng, script).title()
    requests = []
    for _ in range(24):
        chosen = retrieved(rng, pool, 4, 0.6)
        asked = question(rng, script)
        body = joiner.join(mark + text.replace("\n", "\n" + mark) for text in chosen)
        requests.append(
            StreamRequest(
                [("user", f"{instruction}\n\n{body}\n\n**{label}:** {asked}")],
                tuple(chosen),
                asked,
                "An answer.",
            )
        )
    return Stream(f"{script}/{mark!r}/{joiner!r}/{seed}", requests)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(sorted(SCRIPTS)),
    st.sampled_from(MARKS),
    st.sampled_from(JOINERS),
)
def test_quoted_documents_are_read_without_the_templates_marks(
    seed: int, script: str, mark: str, joiner: str
) -> None:
    alone, both = right_shares(quoted_stream(seed, script, mark, joiner))

    # Refusing everything would pass the line above: most requests are read.
    assert alone >= 2 / 3 and both >= 2 / 3, (alone, both)


def own_quotes_stream(seed: int, script: str) -> Stream:
    """A template that quotes nothing ("\\n\\n---\\n\\n" between documents), whose documents open with a
    quote of their own ("> " on their first lines) more often than not."""
    rng = random.Random(seed)
    pool = []
    for number in range(10):
        lines = [sentence(rng, script) for _ in range(rng.randint(1, 3))]
        if number % 3:
            lines = [f"> {line}" for line in lines[:-1]] + lines[-1:] if len(lines) > 1 else [f"> {lines[0]}"]
        pool.append("\n".join(lines))
    return context_stream(f"own-quotes/{script}/{seed}", pool, "\n\n---\n\n", rng, script)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)))
def test_a_documents_own_quote_is_kept_where_the_template_quotes_nothing(seed: int, script: str) -> None:
    alone, both = right_shares(own_quotes_stream(seed, script))

    assert alone >= 2 / 3 and both >= 2 / 3, (alone, both)


@given(st.text(alphabet=st.sampled_from("ab >|\n-"), max_size=60), st.sampled_from(MARKS))
def test_a_quoted_text_is_unquoted_to_itself(text: str, mark: str) -> None:
    # The first line's mark is the separator's, so only the lines after it are quoted here.
    assert unquoted(text.replace("\n", "\n" + mark), mark) == text
