"""A field that repeats what the user wrote in the request is never a document: generated tool results (JSON
with the retrieved documents in a list and a search intent listing the conversation's questions, encoded as
a JSON string of its own or as a list), in several scripts, with random keys, after one to three turns of
conversation; every request read with the learnt templates alone gives the documents and the question
exactly, or is refused."""

from __future__ import annotations

import json
import random

from drawn import SCRIPTS, document, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest, Verdict, read_alone
from templates import Messages


@st.composite
def traffic(draw: st.DrawFn) -> Stream:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    encoded = draw(st.booleans())
    intent_first = draw(st.booleans())
    keys = [word(rng, "latin") for _ in range(3)]
    instruction = " ".join(sentence(rng, script) for _ in range(rng.randint(1, 3)))
    pool = [document(rng, script) for _ in range(14)]
    requests = []
    for _ in range(20):
        asked = [question(rng, script) for _ in range(rng.randint(2, 4))]
        documents = rng.sample(pool, rng.randint(1, 8))
        intent = json.dumps(asked, ensure_ascii=False) if encoded else asked
        fields = [(keys[0], intent), (keys[1], [{keys[2]: text} for text in documents])]
        result = json.dumps(dict(fields[::-1] if not intent_first else fields), ensure_ascii=False)
        messages: Messages = [("system", instruction)]
        for earlier in asked[:-1]:
            messages += [("user", earlier), ("assistant", sentence(rng, script))]
        messages += [("user", asked[-1]), ("tool_call", word(rng, "latin")), ("tool", result)]
        requests.append(StreamRequest(messages, tuple(documents), asked[-1], "An answer."))
    return Stream(f"{script}/encoded={encoded}/intent_first={intent_first}", requests)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(traffic())
def test_a_field_quoting_the_users_earlier_questions_is_never_a_document(stream: Stream) -> None:
    outcomes = read_alone(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) * 3 // 4, outcomes
