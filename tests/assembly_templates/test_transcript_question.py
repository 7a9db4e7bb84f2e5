"""A completion prompt that writes the conversation so far after the documents as one transcript ("User:
hi\\nAssistant: Hello!\\nUser: how long…\\nAssistant:"), with earlier turns in some requests and none in
others: the question is the last turn's words after the label the template writes before it, never the
transcript (before, every request with earlier turns was scored with the whole transcript as its
question)."""

from __future__ import annotations

import random
import time

from both_readers import right_shares
from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.learnt.learner import TemplateLearner
from ragpulse_assembly.learnt.template import read
from ragpulse_assembly.learnt.tokens import flatten
from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.settings import TemplateSettings
from streams import Stream, StreamRequest


def drawn_transcripts(rng: random.Random, script: str) -> Stream:
    user, bot = word(rng, script).title(), word(rng, script).title()
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    pool = [" ".join(sentence(rng, script) for _ in range(rng.randint(1, 3))) for _ in range(12)]
    greetings = [(sentence(rng, script), sentence(rng, script)) for _ in range(3)]
    requests = []
    for _ in range(24):
        chosen, asked = rng.sample(pool, rng.randint(1, 4)), question(rng, script)
        earlier = rng.sample(greetings, rng.choice((0, 0, 0, 1, 2)))
        turns = "".join(f"{user}: {said}\n{bot}: {answered}\n" for said, answered in earlier)
        body = "\n---\n".join(chosen)
        prompt = f"{instruction}\n\n```markdown\n{body}\n```\n\n{turns}{user}: {asked}\n{bot}:"
        requests.append(StreamRequest([("user", prompt)], tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/{user}/{bot}", requests)


@st.composite
def transcripts(draw: st.DrawFn) -> Stream:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    return drawn_transcripts(rng, draw(st.sampled_from(sorted(SCRIPTS))))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transcripts())
def test_the_question_of_a_transcript_is_its_last_turn_or_refused(stream: Stream) -> None:
    right_shares(stream)


def test_the_learnt_template_reads_the_last_turn_of_a_transcript() -> None:
    """A drawn stream whose template found the question slot (the latest turn ends the prompt) and whose
    earlier turns land in it: every request is read exactly, by the template alone and with the rules
    (before, the ten requests with earlier turns were scored with the transcript as their question)."""
    stream = drawn_transcripts(random.Random(1), "greek")

    assert right_shares(stream) == (1.0, 1.0)


def test_a_transcript_of_many_turns_is_cut_in_linear_time() -> None:
    """A forged question slot of 50,000 labelled lines (each "Label: 1…1" with a long number) is read in
    well under a second once the template is learnt: the label is looked for at line starts only."""
    stream = drawn_transcripts(random.Random(1), "greek")
    learner = TemplateLearner(TemplateSettings())
    for request in stream.requests:
        learner.lookup(stream.service, "call", [Message(Role.USER, request.messages[0][1])])
    (learnt,) = learner.templates(stream.service, "call")
    user = stream.service.split("/")[1]
    prompt = stream.requests[0].messages[0][1]
    padded = prompt.replace(f"{user}: ", f"{user}: " + f"\n{user}: {'1' * 40}" * 50_000, 1)
    text = flatten([Message(Role.USER, padded)])
    assert text is not None

    started = time.perf_counter()
    read(learnt, text)

    assert time.perf_counter() - started < 2.0
