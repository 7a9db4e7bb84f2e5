"""An indented completion prompt whose instructions name its tags in a sentence ("the CONTEXT between
<context> and </context> tags"), with the search response pasted as JSON, its text \\u-escaped, on an
indented line inside the tags: the documents are read decoded, as the retriever gave them, or refused; the
tags the instructions name are no document ("and" was read as one on every request, a wrong context)."""

from __future__ import annotations

import json
import random
import time

from both_readers import right_shares
from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.containers import elements
from streams import Stream, StreamRequest

_INDENT = " " * 11


def drawn_search(rng: random.Random, script: str) -> Stream:
    text_key, path_key = word(rng, "latin"), word(rng, "latin")
    instruction = (
        f"{sentence(rng, script)} <context> and </context> {word(rng, script)}.\n"
        f"{_INDENT}{sentence(rng, script)} <question> {word(rng, script)} </question> {word(rng, script)}."
    )
    pool = [
        ("\n".join(sentence(rng, script) for _ in range(rng.randint(1, 3))), f"{word(rng, 'latin')}.pdf")
        for _ in range(12)
    ]
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        response = json.dumps({"results": [{text_key: text, path_key: path} for text, path in chosen]})
        asked = question(rng, script)
        prompt = (
            f"\n{_INDENT}{instruction}\n{_INDENT}<context>\n{_INDENT}{response}\n{_INDENT}</context>\n"
            f"{_INDENT}<question>\n{_INDENT}{asked}\n{_INDENT}</question>\n{_INDENT}Answer:"
        )
        requests.append(
            StreamRequest([("user", prompt)], tuple(text for text, _ in chosen), asked, "An answer.")
        )
    return Stream(f"{script}/{text_key}", requests)


@st.composite
def searches(draw: st.DrawFn) -> Stream:
    return drawn_search(
        random.Random(draw(st.integers(0, 2**32 - 1))), draw(st.sampled_from(sorted(SCRIPTS)))
    )


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(searches())
def test_escaped_json_in_tags_is_read_decoded_or_refused(stream: Stream) -> None:
    right_shares(stream)


def test_escaped_json_in_tags_is_read_exactly_by_the_rules_once_the_prose_names_no_document() -> None:
    """The learnt template alone refuses these (the escapes, not the text, are aligned); with the rules
    most requests are read exactly (in Chinese, where a file name is as long as a text, both refuse)."""
    shares = [right_shares(drawn_search(random.Random(seed), script)) for seed in range(2)
              for script in ("latin", "greek", "cyrillic")]  # fmt: skip

    assert all(both >= 0.6 for _, both in shares), shares


def test_many_tags_named_on_one_line_cost_little() -> None:
    """Each tag pair looks at a few characters around it for the sentence naming it, not the whole line."""
    line = "see <a> and </a> here " * 20_000

    started = time.perf_counter()
    found = elements(line)

    assert found == []
    assert time.perf_counter() - started < 2.0
