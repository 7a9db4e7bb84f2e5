"""A prompt changed in a deploy is a new template version: generated services whose instruction text and
layout change from one request on (in several scripts, with random labels, separators and framings, one to
eight documents per request holding separator-like lines); and services whose template stays while a
document starts recurring in every request from one request on, which is no new version. Every request read
with the learnt templates alone gives the documents and the question exactly, or is refused."""

from __future__ import annotations

import random

from drawn import FRAMINGS, SCRIPTS, SEPARATORS, Layout, document, prompt, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.learnt.learner import TemplateLearner
from ragpulse_assembly.readings import Readers
from ragpulse_assembly.settings import TemplateSettings
from streams import Stream, StreamRequest, Verdict, judge, read
from traffic import genai_span

REQUESTS = 24
DOCUMENTS = 40
"""Documents a service retrieves from: any one recurs in a few requests of a window, not in most."""


def _layout(draw: st.DrawFn, rng: random.Random, script: str, question_at: str) -> Layout:
    separator = draw(st.sampled_from(SEPARATORS))
    framing = draw(st.sampled_from([framing for framing in FRAMINGS if framing != "message"]))
    return Layout(script, separator, framing, question_at, tuple(word(rng, script) for _ in range(6)))


def _instruction(rng: random.Random, script: str) -> str:
    instruction = " ".join(sentence(rng, script) for _ in range(rng.randint(1, 3)))
    if rng.random() < 0.5:
        instruction += "\n" + "\n".join(f"{n}. {sentence(rng, script)}" for n in range(1, rng.randint(2, 5)))
    return instruction


@st.composite
def deployed(draw: st.DrawFn) -> tuple[Stream, int]:
    """A service whose template changes at request ``k`` (returned with the stream)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    question_at = draw(st.sampled_from(("after", "before", "own message")))
    versions = [(_layout(draw, rng, script, question_at), _instruction(rng, script)) for _ in range(2)]
    deploy = draw(st.integers(1, 16))
    pool = [
        (word(rng, script), document(rng, script, *(layout.separator for layout, _ in versions)))
        for _ in range(DOCUMENTS)
    ]
    requests = []
    for number in range(REQUESTS):
        layout, instruction = versions[number >= deploy]
        chosen = rng.sample(pool, rng.randint(1, 8))
        asked = question(rng, script)
        messages = prompt(layout, chosen, asked, instruction)
        requests.append(StreamRequest(messages, tuple(text for _, text in chosen), asked, "An answer."))
    return Stream(f"{script}/{question_at}/deploy at {deploy}", requests), deploy


def _verdicts(stream: Stream) -> tuple[list[Verdict], list[str], set[str]]:
    chosen = Readers(TemplateLearner(TemplateSettings(rules=False)), rules=False)
    spans = [genai_span(request.messages, request.answer) for request in stream.requests]
    found = read(spans, chosen)
    outcomes = [judge(stream.service, "genai", r, f) for r, f in zip(stream.requests, found, strict=True)]
    versions = {request.template_version for request in found if request is not None} - {""}
    return [o.verdict for o in outcomes], [o.detail for o in outcomes if o.verdict is Verdict.WRONG], versions


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deployed())
def test_a_template_changed_in_a_deploy_is_learnt_as_a_version_of_its_own(case: tuple[Stream, int]) -> None:
    stream, deploy = case
    verdicts, wrong, versions = _verdicts(stream)

    assert wrong == []
    after = verdicts[deploy:]
    # The prompts before the deploy never make the new version's slots: it reads its own traffic.
    assert after.count(Verdict.RIGHT) >= len(after) * 3 // 4, verdicts
    if deploy >= TemplateSettings().min_prompts:
        assert len(versions) == 2


@st.composite
def recurring_from_some_request(draw: st.DrawFn) -> Stream:
    """One template; from some request on, one document (a new FAQ entry) is retrieved for every request."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    layout = _layout(draw, rng, script, draw(st.sampled_from(("after", "before", "own message"))))
    instruction = _instruction(rng, script)
    start = draw(st.integers(1, 16))
    pool = [(word(rng, script), document(rng, script, layout.separator)) for _ in range(DOCUMENTS)]
    requests = []
    for number in range(REQUESTS):
        chosen = rng.sample(pool[1:], rng.randint(1, 7))
        if number >= start:
            chosen.insert(rng.randint(0, len(chosen)), pool[0])
        asked = question(rng, script)
        messages = prompt(layout, chosen, asked, instruction)
        requests.append(StreamRequest(messages, tuple(text for _, text in chosen), asked, "An answer."))
    return Stream(f"{script}/{layout.framing}/recurring from {start}", requests)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(recurring_from_some_request())
def test_a_document_recurring_from_some_request_on_is_no_new_version(stream: Stream) -> None:
    verdicts, wrong, _ = _verdicts(stream)

    assert wrong == []
    assert verdicts.count(Verdict.RIGHT) >= len(verdicts) * 3 // 4, verdicts
