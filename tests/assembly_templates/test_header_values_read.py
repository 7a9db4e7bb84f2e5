"""A header line the template writes before each document ("Source: cli.md", then the text in a fence or on
the next line): the structure rules, reading a prompt of one document, take the header's value for a document
of its own, while the learnt template reads it as the header it is. Both readings hold the same documents
besides that value, so the request is scored on the template's reading, never refused nor wrong."""

from __future__ import annotations

import random

from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict
from test_document_headers import _verdicts

KEYS = {"latin": "Source", "cyrillic": "Источник", "greek": "Πηγή", "arabic": "المصدر", "cjk": "来源"}
"""The header's key in each script, as people write it."""
FRAMES = ("```\n{text}\n```", "{text}", '"""\n{text}\n"""')


def headed_stream(seed: int, script: str, frame: str) -> Stream:
    """Twenty requests of one to four documents, each after a "<key>: <file>" line and framed by ``frame``,
    in a system message; the question is the user's."""
    rng = random.Random(seed)
    key = KEYS[script]
    instruction = sentence(rng, script)
    pool = [
        (f"{word(rng, 'latin')}-{word(rng, 'latin')}.md", " ".join(sentence(rng, script) for _ in range(2)))
        for _ in range(10)
    ]
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(1, 4))
        blocks = "\n\n".join(f"{key}: {name}\n" + frame.format(text=text) for name, text in chosen)
        asked = question(rng, script)
        requests.append(
            StreamRequest(
                [("system", f"{instruction}\n\n{blocks}"), ("user", asked)],
                tuple(text for _, text in chosen),
                asked,
                "An answer.",
            )
        )
    return Stream(f"{script}/{frame!r}", requests)


@st.composite
def headed_traffic(draw: st.DrawFn) -> Stream:
    return headed_stream(
        draw(st.integers(0, 2**32 - 1)), draw(st.sampled_from(sorted(SCRIPTS))), draw(st.sampled_from(FRAMES))
    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(headed_traffic())
def test_a_header_value_the_rules_read_as_a_document_is_left_out(stream: Stream) -> None:
    both = _verdicts(stream, rules=True)

    assert [detail for verdict, detail in both if verdict is Verdict.WRONG] == []
    assert sum(verdict is Verdict.RIGHT for verdict, _ in both) >= len(both) * 9 // 10, both


def test_a_grid_of_header_layouts_is_read_whole() -> None:
    """Every script and frame, two seeds: each request scored on the right context (main refused those of one
    document where the rules took the file name for a document)."""
    for script in sorted(SCRIPTS):
        for frame in FRAMES:
            for seed in (1, 2):
                both = _verdicts(headed_stream(seed, script, frame), rules=True)
                assert all(verdict is Verdict.RIGHT for verdict, _ in both), (script, frame, seed, both)
