"""Documents whose first line may be a title the template writes or the document's own heading, which one
template cannot tell apart: a lone label, a short line, a blank line, then the text ("Title: Metro lines\n\n
The metro has six lines…", where "Excerpt: Business travel\n\nBook all flights…" is laid out alike), and
markdown chunks each under its own heading with a blank line, joined by a single line break ("# Install\n\n
pip install…\n# Configure\n\n…", where a template writing "# {title}" keeps its title as close to its text as
to the document before). Either reading is a wrong context half the time: refused, never read."""

from __future__ import annotations

import random
import re
import time

from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.learnt import loops
from streams import Stream, StreamRequest, Verdict
from test_titled_documents import verdicts


def _heading(rng: random.Random, script: str) -> str:
    joiner = "" if script == "cjk" else " "
    return joiner.join(word(rng, script) for _ in range(rng.randint(1, 4))).capitalize()


def _text(rng: random.Random, script: str) -> str:
    return " ".join(sentence(rng, script) for _ in range(rng.randint(1, 3)))


def labelled_stream(seed: int, script: str, rule: str) -> Stream:
    """Twenty-four requests of one to four of ten documents, each after one label on its heading's line and
    a blank line; the documents between ``rule`` lines, the question after them."""
    rng = random.Random(seed)
    label, asking = (word(rng, script).capitalize() for _ in range(2))
    intro = sentence(rng, script)
    pool = [(_heading(rng, script), _text(rng, script)) for _ in range(10)]
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        body = "\n\n".join(f"{label}: {title}\n\n{text}" for title, text in chosen)
        asked = question(rng, script)
        prompt = f"{intro}\n{rule}\n{body}\n{rule}\n{asking}: {asked}"
        # Whichever the truth, the heading is only a half of it; the text alone is the other half.
        documents = tuple(text for _, text in chosen)
        requests.append(StreamRequest([("user", prompt)], documents, asked, "An answer."))
    return Stream(f"{seed}/{script}/{rule!r}", requests)


def markdown_stream(seed: int, script: str, hashes: str) -> Stream:
    """Twenty-four requests of one to four of ten markdown chunks, each opening with its own heading and a
    blank line, joined by one line break at the end of the system message."""
    rng = random.Random(seed)
    pool = [f"{hashes} {_heading(rng, script)}\n\n{_text(rng, script)}" for _ in range(10)]
    system = f"{sentence(rng, script)}\n{sentence(rng, script)}\n----------------\n"
    drawn = [(rng.sample(pool, rng.randint(1, 4)), question(rng, script)) for _ in range(24)]
    return Stream(
        f"{seed}/{script}/{hashes}",
        [
            StreamRequest(
                [("system", system + "\n".join(chosen)), ("user", asked)], tuple(chosen), asked, "-"
            )
            for chosen, asked in drawn
        ],
    )


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(sorted(SCRIPTS)),
    st.sampled_from(("=====================", "------------", "***")),
    st.booleans(),
)
def test_a_lone_label_over_a_heading_and_a_blank_line_is_refused(
    seed: int, script: str, rule: str, rules: bool
) -> None:
    found = verdicts(labelled_stream(seed, script, rule), rules)

    assert [detail for verdict, detail in found if verdict is Verdict.WRONG] == []


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)), st.sampled_from(("#", "##", "###")))
def test_markdown_chunks_joined_by_one_line_break_are_never_read_without_their_headings(
    seed: int, script: str, hashes: str
) -> None:
    for rules in (True, False):
        found = verdicts(markdown_stream(seed, script, hashes), rules)

        assert [detail for verdict, detail in found if verdict is Verdict.WRONG] == [], rules


def test_a_title_the_template_writes_above_its_text_is_still_read() -> None:
    # The attack: "## {title}\n{text}" joined by blank lines (a title as close to its text as the documents
    # are to one another) looks like a heading joined tightly, and stays a title: read, without it.
    rng = random.Random(3)
    pool = [(_heading(rng, "latin"), _text(rng, "latin")) for _ in range(10)]
    instruction = sentence(rng, "latin")
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        asked = question(rng, "latin")
        body = "\n\n".join(f"## {title}\n{text}" for title, text in chosen)
        messages = [("system", f"{instruction}\n\n{body}"), ("user", asked)]
        requests.append(StreamRequest(messages, tuple(text for _, text in chosen), asked, "An answer."))
    found = verdicts(Stream("titles", requests), True)

    assert sum(verdict is Verdict.RIGHT for verdict, _ in found) >= len(found) * 2 // 3, found


def test_the_title_patterns_stay_linear_on_long_adversarial_input() -> None:
    patterns: list[re.Pattern[str]] = [loops._TITLE_THEN_BLANK, loops._INLINE_LABEL_END, loops._LABEL_ABOVE]
    for text in ("a" * 5000, " " * 5000 + "\n", "a:" * 2500 + "\n", "\n" + "# " * 2500, "a\n" * 2500 + " "):
        for pattern in patterns:
            started = time.perf_counter()
            pattern.match(text)
            pattern.search(text)
            assert time.perf_counter() - started < 0.5, (pattern.pattern, text[:20])
