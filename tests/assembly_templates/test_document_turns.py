"""Documents given as conversation turns: each retrieved document in an earlier turn of its own (a user turn
answered by the same short assistant turn, or an assistant turn answering a user turn that asks for the next
result or quotes the question), the question last. The place's own traffic shows which side of each exchange
is the template's (the same text at each position in every request) and that the other side's texts come
back at other positions, as a search returns a document again. Chat history (earlier questions and their
answers, both varying; or one conversation growing, its turns staying where they were) is never read as
documents, even when its questions recur in other order. On main the documents' turns were not read at all
(the current turn alone holds the question)."""

from __future__ import annotations

import random

from both_readers import right_shares
from drawn import SCRIPTS, question, sentence, shaped, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest

ASKS = ("acknowledged", "ordinal", "quoted", "framed")
"""How a document's exchange is written: the document as a user turn answered by one short reply; as an
assistant turn answering a user turn that asks for result n; as an assistant turn answering a user turn that
quotes the question, the document alone or after lines the template writes (tags around a date and the
source's address)."""


def turns_stream(seed: int, script: str, asks: str) -> Stream:
    """Twenty-four requests of one to four of twenty documents, each in an exchange of its own."""
    rng = random.Random(seed)
    pool = [shaped(rng, script, "prose", "list") for _ in range(20)]
    instruction = sentence(rng, script)
    reply = word(rng, script).title() + "."
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        asked = question(rng, script)
        messages = [("system", instruction)]
        for number, text in enumerate(chosen, 1):
            if asks == "acknowledged":
                messages += [("user", text), ("assistant", reply)]
            elif asks == "ordinal":
                messages += [("user", f"{reply} {number}"), ("assistant", text)]
            elif asks == "quoted":
                messages += [("user", f"{reply} {asked}"), ("assistant", text)]
            else:
                day, source = (
                    f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                    f"https://{word(rng, 'latin')}.example/{number}",
                )
                framed = f"<{reply}>\n{day}\n</{reply}>\n\n<url>\n{source}\n</url>\n\n{text}"
                messages += [("user", f"{reply} {asked}"), ("assistant", framed)]
        requests.append(StreamRequest([*messages, ("user", asked)], tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/{asks}/{seed}", requests)


HISTORIES = ("drawn", "replayed", "templated", "canned")
"""Chat history before the question: exchanges drawn from a few in other order; one conversation growing;
earlier questions each asked with the documents retrieved for them, and answered; questions the service was
asked before, in other order, each answered by the same reply (a refusal)."""


def history_stream(seed: int, script: str, history: str) -> Stream:
    """Twenty-four requests of a chat service, earlier questions and answers before the question, the
    documents in the system message (or in the question's turn, for ``templated``)."""
    rng = random.Random(seed)
    pool = [shaped(rng, script, "prose") for _ in range(20)]
    asked_before = [(question(rng, script), sentence(rng, script)) for _ in range(6)]

    def context(chosen: list[str]) -> str:
        return "Context:\n\n" + "\n\n---\n\n".join(chosen)

    requests: list[StreamRequest] = []
    for number in range(24):
        chosen = rng.sample(pool, rng.randint(1, 4))
        asked = question(rng, script)
        if history == "replayed":
            earlier = asked_before[: 1 + number % 5]
        elif history == "canned":
            before = [request.question for request in requests]
            earlier = [(ask, "No.") for ask in rng.sample(before, min(len(before), rng.randint(1, 3)))]
        else:
            earlier = rng.sample(asked_before, rng.randint(1, 3))
        turns = []
        for ask, answer in earlier:
            if history == "templated":
                ask = f"{context(rng.sample(pool, rng.randint(1, 4)))}\n\nQuestion: {ask}"
            turns += [("user", ask), ("assistant", answer)]
        if history == "templated":
            messages = [*turns, ("user", f"{context(chosen)}\n\nQuestion: {asked}")]
        else:
            messages = [("system", context(chosen)), *turns, ("user", asked)]
        requests.append(StreamRequest(messages, tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/{history}/{seed}", requests)


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)), st.sampled_from(ASKS))
def test_documents_given_as_turns_are_read(seed: int, script: str, asks: str) -> None:
    alone, both = right_shares(turns_stream(seed, script, asks))

    # Refusing everything would pass right_shares' check: once the place is learnt, its requests are read.
    assert alone >= 1 / 2 and both >= 1 / 2, (alone, both)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)), st.sampled_from(HISTORIES))
def test_chat_history_is_never_read_as_documents(seed: int, script: str, history: str) -> None:
    alone, both = right_shares(history_stream(seed, script, history))

    # The documents of the system message are read; the earlier turns never joined them (right_shares fails
    # on any wrong context).
    assert both >= 1 / 2, (alone, both)
