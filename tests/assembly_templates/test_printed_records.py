"""Search results pasted as Python prints a list of dicts (``f"RESULTS: {results}"``): each string quoted with
' or " as its own text needs, so the quotes around a field change from one request to the next and no JSON
parser reads the list. Each record's text is the one field whose values run to sentences (a headline runs to
several words too, but ends as no sentence does); the question follows under a label written as one
identifier ("ASKED_QUESTION:"). Drawn in several scripts, apostrophes and double quotes in the texts: the
rules read every prompt exactly (before: none, the list refused or the instructions after it read as a
document), and with the learnt template no request is read wrong."""

from __future__ import annotations

import random

from drawn import EXAMPLES, SCRIPTS, question, sentence, word
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.prompt_context import read_prompt
from streams import Stream, StreamRequest, Verdict, read_both


def _quoted(rng: random.Random, text: str) -> str:
    """The text with what makes Python switch quotes: an apostrophe, at times a double quote as well."""
    words = text.split(" ")
    at = rng.randrange(len(words) - 1)
    words[at] = f"{words[at]}'s" if rng.random() < 0.5 else words[at]
    if rng.random() < 0.2:
        words[0] = f'"{words[0]}"'
    return " ".join(words)


def _headline(rng: random.Random, script: str) -> str:
    return " ".join(word(rng, script).title() for _ in range(rng.randint(3, 8)))


def _records(rng: random.Random, script: str, keys: list[str], count: int) -> list[dict[str, str]]:
    return [
        {
            keys[0]: _headline(rng, script),
            keys[1]: _quoted(rng, " ".join(sentence(rng, script) for _ in range(rng.randint(2, 3)))),
            keys[2]: f"https://{word(rng, 'latin')}.example/{n}",
        }
        for n in range(count)
    ]


@st.composite
def printed_results(draw: st.DrawFn) -> Stream:
    """Scripts that space their words: a record's text is told from its headline by its words, and the
    rules leave records in unspaced scripts to the learnt template."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(set(SCRIPTS) - {"cjk"})))
    keys = [word(rng, "latin") for _ in range(3)]
    pool = _records(rng, script, keys, 10)
    label = f"{word(rng, 'latin').upper()}_{word(rng, 'latin').upper()}:"
    asking = f"{word(rng, 'latin').upper()}_QUESTION:"
    opening, closing = sentence(rng, script), sentence(rng, script)
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(1, 5))
        asked = question(rng, script)
        prompt = f"{opening}\n{label} {chosen}\n{asking} {asked}\n\n{closing}"
        texts = tuple(record[keys[1]] for record in chosen)
        requests.append(StreamRequest([("user", prompt)], texts, asked, "An answer."))
    return Stream(f"{script}/printed", requests)


@EXAMPLES
@given(printed_results())
def test_records_python_printed_are_read_by_their_text_field(stream: Stream) -> None:
    """The rules read each prompt alone, exactly; with the learnt template (which reads the records with
    their quotes, or a headline, where the alignment took the first record's keys for the skeleton) the
    request is read right or refused, never wrong (before: a quarter of requests were scored wrong)."""
    for request in stream.requests:
        reading = read_prompt([Message(Role.USER, request.messages[0][1])])

        assert reading.chunks == request.documents
        assert reading.question == request.question
    outcomes = read_both(stream)

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []


def test_records_with_two_fields_of_sentences_are_not_split_by_a_guess() -> None:
    """A question and its answer both end as sentences do: which one is the text is not told, and neither is
    read as the document alone."""
    records = [
        {"q": "How long does the warranty last for phones?", "a": "Phones are covered for two full years."},
        {
            "q": "Can a laptop's battery be replaced at home?",
            "a": "Only an authorised centre may replace it.",
        },
    ]
    prompt = f"Answer from the FAQ.\nFAQ: {records}\nUSER_QUESTION: Is my phone still covered?"

    reading = read_prompt([Message(Role.USER, prompt)])

    assert not any(chunk == records[0]["a"] for chunk in reading.chunks)


def test_a_list_inside_a_json_object_or_a_sentence_is_no_documents_list() -> None:
    """The records must be a line's whole value: a list inside a recorded object (its "examples" field) or
    running on in a sentence is someone else's structure."""
    inner = "{'text': \"It's one of the examples given to the model here.\"}"
    for prompt in (
        f'Config: {{"examples": [{inner}], "mode": "strict"}}\nQuestion: What is the mode?',
        f"We looked at [{inner}] and more before.\nQuestion: What is the mode?",
    ):
        reading = read_prompt([Message(Role.USER, prompt)])

        assert "It's one of the examples given to the model here." not in reading.chunks
