"""Templates whose documents, labels and questions are written in scripts with combining marks (the vowel
signs and viramas of Devanagari, Bengali and Tamil, Arabic's short vowels) and their own prose punctuation
("،", "।"). A word of those scripts is one token, not letters with "marks" between them that the learner
could take for the template's separators, and a prose comma between two words is never a document boundary:
every request is read on its documents and question exactly, or refused."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.learnt.tokens import tokenize
from streams import Stream, StreamRequest, Verdict, run

# (letters, combining marks, prose comma, sentence end, labels: context, question, instruction)
MARKED = {
    "devanagari": ("कखगचजतदनपबमयरलवसह", "ािीुूेैोौंँ्", ",", "।", ("संदर्भ:", "प्रश्न:", "संदर्भ का उपयोग करें।")),
    "bengali": ("কখগচজতদনপবমযরলসহ", "ািীুূেৈোৌং্", ",", "।", ("প্রসঙ্গ:", "প্রশ্ন:", "প্রসঙ্গ থেকে উত্তর দিন।")),
    "tamil": ("கசடதபறயரலவழளனமணந", "ாிீுூெேைொோ்", ",", ".", ("சூழல்:", "கேள்வி:", "சூழலைப் பயன்படுத்தவும்.")),
    "arabic": ("ابتثجحخدذرزسشصضطظعغفقكلمنهوي", "ًٌٍَُِّْ", "،", ".", ("السياق:", "السؤال:", "أجب من السياق.")),
}
JOINERS = {
    "bullets": lambda docs: "\n".join(f"- {doc}" for doc in docs),
    "blank lines": lambda docs: "\n\n".join(docs),
    "numbers": lambda docs: "\n".join(f"{n}. {doc}" for n, doc in enumerate(docs, 1)),
    "rules": lambda docs: "\n---\n".join(docs),
    "tags": lambda docs: "\n".join(f"<doc>{doc}</doc>" for doc in docs),
}


def _word(rng: random.Random, script: str) -> str:
    letters, marks = MARKED[script][0], MARKED[script][1]
    return "".join(
        rng.choice(letters) + (rng.choice(marks) if rng.random() < 0.6 else "")
        for _ in range(rng.randint(2, 5))
    )


def _clause(rng: random.Random, script: str) -> str:
    return " ".join(_word(rng, script) for _ in range(rng.randint(4, 9)))


def _document(rng: random.Random, script: str) -> str:
    comma, end = MARKED[script][2], MARKED[script][3]
    sentences = [
        f"{comma} ".join(_clause(rng, script) for _ in range(rng.randint(2, 3))) + end
        for _ in range(rng.randint(1, 3))
    ]
    return " ".join(sentences)


@st.composite
def marked_traffic(draw: st.DrawFn) -> Stream:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(MARKED)))
    joiner = draw(st.sampled_from(sorted(JOINERS)))
    place = draw(st.sampled_from(("user message", "after a label")))
    always_one = draw(st.booleans())
    context, asking, instruction = MARKED[script][4]
    pool = [_document(rng, script) for _ in range(8)]
    questions = [" ".join(_word(rng, script) for _ in range(rng.randint(3, 6))) for _ in range(10)]
    requests = []
    for _ in range(24):
        docs = rng.sample(pool, 1 if always_one else rng.randint(1, 4))
        question = rng.choice(questions)
        body = JOINERS[joiner](docs)
        if place == "user message":
            messages = [("system", f"{instruction}\n{context}\n{body}"), ("user", question)]
        else:
            messages = [("user", f"{instruction}\n\n{context}\n{body}\n\n{asking} {question}")]
        requests.append(StreamRequest(messages, tuple(docs), question, "An answer."))
    return Stream(f"{script}/{joiner}/{place}/one={always_one}", requests)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(marked_traffic())
def test_documents_in_scripts_with_combining_marks_are_read_whole_or_refused(stream: Stream) -> None:
    outcomes = run([stream], "learnt+rules", families=("openinference",))

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) * 3 // 4, outcomes


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(sorted(MARKED)), st.integers(0, 2**32 - 1))
def test_a_word_with_combining_marks_is_one_token(script: str, seed: int) -> None:
    word = _word(random.Random(seed), script)

    assert tokenize(f"{word} {word}").tokens == (word, " ", word)


def test_history_turns_between_the_documents_and_the_question_are_never_documents() -> None:
    """One message holds the instructions, the documents, sometimes earlier turns ("User: …",
    "Assistant: …") joined to them by the same blank lines, then the question after "User:": the turns are
    no documents."""
    rng = random.Random(7)
    pool = [_document(rng, "devanagari") for _ in range(8)]
    turns = ["User: नमस्ते\n\nAssistant: नमस्ते! मैं आपकी सहायता के लिए हूँ।", ""]
    requests = []
    for _ in range(24):
        docs = rng.sample(pool, rng.randint(1, 3))
        question = " ".join(_word(rng, "devanagari") for _ in range(4))
        history = rng.choice(turns)
        text = (
            "System: Answer from the context.\n\n" + "\n\n".join(docs) + (f"\n\n{history}" if history else "")
            + f"\n\nUser: Please answer the question. {question}\n\nAssistant:"
        )  # fmt: skip
        requests.append(StreamRequest([("user", text)], tuple(docs), question, "An answer."))

    outcomes = run([Stream("chat-transcript", requests)], "learnt+rules", families=("openinference",))

    assert [o.detail for o in outcomes if o.verdict is Verdict.WRONG] == []
