"""An agent's parallel tool calls: one search per call, each result a message of the tool's own holding the
documents it found joined by the tool's separator, as many results as the model asked for. No separator
splits the run of results (a message boundary sits between some documents, the tool's separator between
the others), and openai-v2 records no message for the model's call, so the question and the first result
met with nothing of the template's between them. The run of results was one slot with the question, or a
slot read undivided: unscored, and now and then read wrong. Drawn in several scripts and separators: each
result is split on its own, and the model's own words between two results are never a document."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from drawn import EXAMPLES, SCRIPTS, drawn_in_a_script, question, sentence, shaped
from hypothesis import given
from hypothesis import strategies as st
from streams import FAMILIES, Stream, StreamRequest, Verdict, flat, read, readers, run, sender

SEPARATORS = ("\n\n", "\n", "\n---\n", "\n\n***\n\n", "\n\n=====\n\n")


def _results(rng: random.Random, pool: list[str], calls: int) -> list[list[str]]:
    """Each call's documents, one to three, none found by two calls of one request."""
    chosen = rng.sample(pool, calls * 3)
    return [chosen[call * 3 : call * 3 + rng.randint(1, 3)] for call in range(calls)]


@st.composite
def parallel_results(draw: st.DrawFn) -> Stream:
    rng, script = drawn_in_a_script(draw)
    separator = draw(st.sampled_from(SEPARATORS))
    # Documents with blank lines of their own are joined by a separator with marks: a tool that joins them
    # with a bare blank line gives a reader nothing to tell them by.
    shapes = ("prose",) if not separator.strip() else ("prose", "paragraphs", "list")
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    pool = [shaped(rng, script, *shapes) for _ in range(12)]
    requests = []
    for _ in range(24):
        asked = question(rng, script)
        results = _results(rng, pool, rng.randint(1, 3))
        messages = [("system", instruction), ("user", asked), ("tool_call", "search")]
        messages += [("tool", separator.join(found)) for found in results]
        documents = tuple(document for found in results for document in found)
        requests.append(StreamRequest(messages, documents, asked, sentence(rng, script)))
    return Stream(f"{script}/{separator!r}", requests)


@EXAMPLES
@given(parallel_results())
def test_each_result_of_parallel_calls_is_split_on_its_own(stream: Stream) -> None:
    outcomes = run([stream], "learnt+rules")

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    right = sum(o.verdict is Verdict.RIGHT for o in outcomes)
    assert right >= 0.9 * len(outcomes), [o.detail for o in outcomes if o.verdict is not Verdict.RIGHT]


@st.composite
def a_document_found_twice(draw: st.DrawFn) -> Stream:
    """Two searches of one request find the same document at times: each result holds it."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    instruction = sentence(rng, script)
    pool = [shaped(rng, script, "prose") for _ in range(6)]
    requests = []
    for _ in range(24):
        asked = question(rng, script)
        results = [rng.sample(pool, rng.randint(1, 3)) for _ in range(rng.randint(1, 3))]
        messages = [("system", instruction), ("user", asked), ("tool_call", "search")]
        messages += [("tool", "\n\n".join(found)) for found in results]
        documents = tuple(document for found in results for document in found)
        requests.append(StreamRequest(messages, documents, asked, sentence(rng, script)))
    return Stream(f"{script}/twice", requests)


@EXAMPLES
@given(a_document_found_twice())
def test_a_document_two_searches_found_is_never_misread(stream: Stream) -> None:
    outcomes = run([stream], "learnt+rules")

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []


@st.composite
def results_between_thoughts(draw: st.DrawFn) -> tuple[Stream, list[str]]:
    """A ReAct agent: the model writes a thought before each further call, between two results. Returns
    the stream and every thought."""
    rng, script = drawn_in_a_script(draw)
    instruction = sentence(rng, script)
    pool = [shaped(rng, script, "prose", "paragraphs", "list") for _ in range(20)]
    requests, thoughts = [], []
    for _ in range(24):
        asked = question(rng, script)
        messages = [("system", instruction), ("user", asked), ("tool_call", "search")]
        found = rng.sample(pool, rng.randint(1, 3))
        for number, document in enumerate(found):
            if number:
                thoughts.append(sentence(rng, script))
                messages += [("assistant", thoughts[-1]), ("tool_call", "search")]
            messages.append(("tool", document))
        requests.append(StreamRequest(messages, tuple(found), asked, sentence(rng, script)))
    return Stream(f"{script}/thoughts", requests), thoughts


@EXAMPLES
@given(results_between_thoughts())
def test_the_models_words_between_results_are_no_document(drawn: tuple[Stream, list[str]]) -> None:
    stream, thoughts = drawn
    for family in FAMILIES:
        with sender(family, False) as send:
            spans = [
                replace(send(r.messages, r.answer), service_name=stream.service) for r in stream.requests
            ]
            found = read(spans, readers("learnt+rules"))
        documents = [
            flat(str(chunk["text"]))
            for request in found
            if request
            for chunk in json.loads(request.context or "[]")
        ]

        assert [d for d in documents if any(flat(thought) in d for thought in thoughts)] == []
