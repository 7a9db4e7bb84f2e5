"""A full stop after every question of a window, each ending with a word: the template's ("Search Query:
{query}. ", RankGPT's prompt) or the users' own ("Summarize the report."), which one template cannot tell
apart. Neither is read with a wrong question: no template is learnt. Queries that end with their own full
stop only now and then are read, with it."""

from __future__ import annotations

import random

from drawn import SCRIPTS, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict
from test_document_headers import _verdicts


def _stream(rng: random.Random, script: str, twice: bool, stop: str, own: float) -> Stream:
    """Twenty requests: documents numbered in the user message, then the query after a label and ``stop``
    (the template's mark, or none); ``own``: the share of queries that end with a full stop of their own;
    ``twice``: the query written in the instruction too."""
    joiner = "" if script == "cjk" else " "
    full_stop = "。" if script == "cjk" else "."
    pool = [joiner.join(sentence(rng, script) for _ in range(rng.randint(1, 3))) for _ in range(12)]
    label, rank = word(rng, script).title(), sentence(rng, script)
    requests = []
    for _ in range(20):
        query = joiner.join(word(rng, script) for _ in range(rng.randint(2, 6)))
        if rng.random() < own:
            query += full_stop
        chosen = rng.sample(pool, rng.randint(1, 4))
        listed = "\n".join(f"[{n}] {text}" for n, text in enumerate(chosen, 1))
        head = f"{rank[:-1]}: {query}{stop}\n\n" if twice else ""
        user = f"{head}{listed}\n\n{label}: {query}{stop} \n{rank}"
        requests.append(StreamRequest([("user", user)], tuple(chosen), query, "[1] > [2]"))
    return Stream(f"{script}/twice={twice}/{stop!r}/{own}", requests)


@st.composite
def stopped_traffic(draw: st.DrawFn) -> Stream:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    written = draw(st.booleans())
    stop = ("。" if script == "cjk" else ".") if written else ""
    return _stream(rng, script, draw(st.booleans()), stop, 0.0 if written else 1.0)


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stopped_traffic())
def test_a_full_stop_after_every_question_never_reads_a_wrong_question(stream: Stream) -> None:
    for rules in (False, True):
        verdicts = _verdicts(stream, rules)

        assert [detail for verdict, detail in verdicts if verdict is Verdict.WRONG] == [], stream.service


def test_a_query_that_ends_with_its_own_full_stop_now_and_then_keeps_it() -> None:
    for seed, script in enumerate(sorted(SCRIPTS)):
        stream = _stream(random.Random(seed), script, seed % 2 == 0, "", 0.5)

        verdicts = [verdict for verdict, _ in _verdicts(stream, rules=False)]

        assert Verdict.WRONG not in verdicts, script
        assert verdicts.count(Verdict.RIGHT) >= 15, (script, verdicts)
