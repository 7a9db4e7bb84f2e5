"""A search query written from the question (lower-cased, its mark dropped, a word or two added) before the
results, each under a "Source [n]" line and a title, the results joined by a rule line, and the question asked
again after them. The query is the user's words again, never a document; a reading that runs a result on
over the rule and the next "Source" line the template writes between results is not the sure one. Every
request is read right or refused, never on a wrong context, and most are read. (A query that is the question
alone, lower-cased without its mark, is left out: the learnt template alone takes it for the question, on main
as here.)"""

from __future__ import annotations

import random

from both_readers import right_shares
from drawn import SCRIPTS, question, shaped, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest

RULES = ("----------", "==========", "* * *")


def query_stream(seed: int, script: str, rule: str, extra: int) -> Stream:
    """Twenty-four requests of one to four of twenty results under ``rule`` lines, the query holding
    ``extra`` words beyond the question's."""
    rng = random.Random(seed)
    pool = [
        (word(rng, script).title(), shaped(rng, script, "prose", "list", "ruled", rule="***"))
        for _ in range(20)
    ]
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        asked = question(rng, script)
        query = " ".join([asked.lower().rstrip("?？"), *(word(rng, script) for _ in range(extra))])
        results = f"\n\n{rule}\n\n".join(
            f"Source [{number}]\nTitle: {title}\n\n{text}" for number, (title, text) in enumerate(chosen, 1)
        )
        user = f"I searched for: {query}. Results:\n\n{results}\n\nAnswer the question: {asked}"
        requests.append(
            StreamRequest([("user", user)], tuple(text for _, text in chosen), asked, "An answer.")
        )
    return Stream(f"{script}/{rule!r}/{extra}/{seed}", requests)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)), st.sampled_from(RULES), st.integers(1, 2))
def test_a_query_written_from_the_question_is_never_a_document(
    seed: int, script: str, rule: str, extra: int
) -> None:
    alone, both = right_shares(query_stream(seed, script, rule, extra))

    # Refusing everything would pass the line above: most requests are read.
    assert alone >= 2 / 3 and both >= 2 / 3, (alone, both)
