"""A popular chunk (one retrieved in most requests) whose own text holds a rule line ("---", "* * *") between
two of its paragraphs, under a few-shot template whose example has a context of its own. Across requests the
rule always stands between the same two halves of that chunk, while the template's separator stands between
documents that come back in other company: the chunk's rule is never taken for the template's separator, and
the chunk is never cut in two nor taken for the template's text. Every request is read right or refused,
never on a wrong context; where the template's separator is a rule of another shape, most are read."""

from __future__ import annotations

import random

from both_readers import right_shares
from drawn import SCRIPTS, question, retrieved, sentence, shaped, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest

RULES = ("---", "***", "* * *", "====")
JOINERS = ("\n\n", "\n---\n", "\n\n***\n\n", "\n=====\n")


def popular_stream(seed: int, script: str, rule: str, joiner: str) -> Stream:
    """Twenty-four requests of one to five of thirty documents joined by ``joiner``, the popular one (its
    own ``rule`` between two sentences) in 70% of them; a few-shot example with its own context in the
    system message."""
    rng = random.Random(seed)
    popular = f"{sentence(rng, script)}\n{rule}\n{sentence(rng, script)}"
    pool = [shaped(rng, script, "prose", "ruled", "list", "label", rule=rule) for _ in range(29)]
    label = word(rng, script).title()
    example = f"{label}:\n{sentence(rng, script)}\n\nQ: {question(rng, script)}\nA: {sentence(rng, script)}"
    system = f"{sentence(rng, script)}\n\nExample:\n{example}\n"
    requests = []
    for _ in range(24):
        chosen = retrieved(rng, [popular, *pool], 5, 0.7)
        asked = question(rng, script)
        user = f"{label}:\n" + joiner.join(chosen) + f"\n\nQ: {asked}\nA:"
        requests.append(
            StreamRequest([("system", system), ("user", user)], tuple(chosen), asked, "An answer.")
        )
    return Stream(f"{script}/{rule!r}/{joiner!r}/{seed}", requests)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(sorted(SCRIPTS)),
    st.sampled_from(RULES),
    st.sampled_from(JOINERS),
)
def test_a_popular_chunks_own_rule_is_never_a_separator(
    seed: int, script: str, rule: str, joiner: str
) -> None:
    alone, both = right_shares(popular_stream(seed, script, rule, joiner))

    if rule not in joiner and joiner != "\n\n":
        # Refusing everything would pass the line above: where the template's rule differs from the
        # chunk's, most requests are read.
        assert alone >= 2 / 3 and both >= 2 / 3, (alone, both)
