"""Readings that one prompt cannot show wrong but a place's traffic does: a document holding the template's
own separator line, a heading above a fenced chunk, instructions and a chat transcript around the documents
in one message, JSON Lines in a fenced block, documents run together in one paragraph. Each request comes out
with its documents exactly, or refused: never a part of the context, nor the template's own text, as the
whole context."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from drawn import SCRIPTS, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.learnt.consistency import Evidence, Finding, check
from ragpulse_assembly.learnt.learner import TemplateLearner
from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.prompt_context import read_prompt
from ragpulse_assembly.readings import Readers
from ragpulse_assembly.settings import TemplateSettings
from streams import Stream, StreamRequest, Verdict, judge, read
from traffic import genai_span

RULES = ("---", "***", "* * *", "=====", "———", "___")
"""Separator lines a template writes between documents, and a document may hold too."""


def _verdicts(stream: Stream) -> list[tuple[Verdict, str]]:
    chosen = Readers(TemplateLearner(TemplateSettings()))
    spans = [genai_span(request.messages, request.answer) for request in stream.requests]
    return [
        (outcome.verdict, outcome.detail)
        for outcome in (
            judge(stream.service, "genai", request, found)
            for request, found in zip(stream.requests, read(spans, chosen), strict=True)
        )
    ]


def _wrong(verdicts: list[tuple[Verdict, str]]) -> list[str]:
    return [detail for verdict, detail in verdicts if verdict is Verdict.WRONG]


def _pool(rng: random.Random, script: str, size: int = 12) -> list[str]:
    return ["\n".join(sentence(rng, script) for _ in range(rng.randint(1, 3))) for _ in range(size)]


def _question(rng: random.Random, script: str) -> str:
    return sentence(rng, script)[:-1] + "?"


def _user_stream(
    script: str, rng: random.Random, pool: list[str], prompt: Callable[[list[int], str], str]
) -> Stream:
    """Twenty-four requests, each one user message ``prompt`` writes for one to four of ``pool``."""
    requests = []
    for _ in range(24):
        chosen = rng.sample(range(len(pool)), rng.randint(1, 4))
        question = _question(rng, script)
        text = prompt(chosen, question)
        requests.append(
            StreamRequest([("user", text)], tuple(pool[i] for i in chosen), question, "An answer.")
        )
    return Stream(script, requests)


@st.composite
def separator_inside_documents(draw: st.DrawFn) -> Stream:
    """Documents joined by a rule line, some of them holding the same rule line in their own text."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    rule = draw(st.sampled_from(RULES))
    blank = draw(st.sampled_from(("\n", "\n\n")))
    pool = _pool(rng, script)
    cut = rng.sample(range(len(pool)), draw(st.integers(1, 3)))
    for index in cut:
        pool[index] = f"{pool[index]}\n{rule}\n{sentence(rng, script)}"
    instruction, header, asking = sentence(rng, script), word(rng, script), word(rng, script)
    picks = [rng.sample(range(len(pool)), rng.randint(1, 4)) for _ in range(24)]
    for index in cut:
        # The search's pool recurs: a document is retrieved again and again (one seen once or twice is no
        # evidence, and is read as it is).
        for pick in rng.sample([pick for pick in picks if index not in pick], 3):
            pick.insert(rng.randint(0, len(pick)), index)
    requests = []
    for pick in picks:
        chosen = [pool[i] for i in pick]
        question = _question(rng, script)
        body = f"{blank}{rule}{blank}".join(chosen)
        text = f"{instruction}\n\n{header}:\n{body}\n\n{asking}: {question}"
        requests.append(StreamRequest([("user", text)], tuple(chosen), question, "An answer."))
    return Stream(f"{script}/{rule!r}", requests)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(separator_inside_documents())
def test_a_document_holding_the_separator_line_is_never_read_cut_in_two(stream: Stream) -> None:
    verdicts = _verdicts(stream)

    assert _wrong(verdicts) == []
    # Refusing every request would pass the line above: those without a cut document are read.
    assert sum(verdict is Verdict.RIGHT for verdict, _ in verdicts) >= len(verdicts) // 4, verdicts


def test_two_documents_seen_only_together_in_three_requests_are_refused_as_one_cut_in_two() -> None:
    evidence = Evidence().place("svc", "place")
    head, tail, other, more = "Exports are zipped.", "Note: big exports are split.", "SSO is paid.", "2FA."
    readings = [(head, tail, other), (other, head, tail), (more, head, tail)]

    found = [check(evidence, ["\n".join(reading)], reading).finding for reading in readings]

    assert found == [Finding.UNCONFIRMED, Finding.UNCONFIRMED, Finding.REFUSED]
    assert check(evidence, [f"{other}\n{more}"], (other, more)).finding is Finding.CONSISTENT


def test_a_refused_reading_of_the_place_never_shows_two_parts_of_one_document_apart() -> None:
    """A router's other template, not learnt yet, read wrong (its rule line read as a document) and refused:
    that it held the document's second part first says nothing of the place's documents."""
    evidence = Evidence().place("svc", "place")
    head, tail, other, more = "Exports are zipped.", "Note: big exports are split.", "SSO is paid.", "2FA."
    refused = (tail, "|---|---|", other)
    assert check(evidence, ["\n".join(refused)], refused).finding is Finding.REFUSED
    readings = [(head, tail, other), (other, head, tail), (more, head, tail)]

    found = [check(evidence, ["\n".join(reading)], reading).finding for reading in readings]

    assert found == [Finding.UNCONFIRMED, Finding.UNCONFIRMED, Finding.REFUSED]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)))
def test_a_reading_made_before_the_template_was_learnt_never_shows_two_parts_apart(
    seed: int, script: str
) -> None:
    """Prompts read by the structure rules while the template is not learnt yet (held, read again later)
    may cut a document elsewhere (its first part read last, its second dropped): that says nothing of the
    place's documents, and the settled readings that show the two parts only together refuse them."""
    rng = random.Random(seed)
    evidence = Evidence().place("svc", "place")
    head, tail, other, more = (" ".join(sentence(rng, script) for _ in range(2)) for _ in range(4))
    unsettled = (other, more, head)
    assert check(evidence, ["\n".join(unsettled)], unsettled, settled=False).finding is not Finding.REFUSED
    readings = [(head, tail, other), (other, head, tail), (more, head, tail)]

    found = [check(evidence, ["\n".join(reading)], reading).finding for reading in readings]

    assert Finding.CONSISTENT not in found
    assert found[-1] is Finding.REFUSED


@st.composite
def headed_fences(draw: st.DrawFn) -> Stream:
    """Each document in a fenced block under a heading naming its source, a blank line between them."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    colon = draw(st.sampled_from((":", "：", "")))
    hashes = draw(st.sampled_from(("## ", "### ", "")))
    if not hashes and not colon:
        colon = ":"
    before, after = word(rng, script), word(rng, script)
    pool = _pool(rng, script)
    sources = [f"docs/{word(rng, 'latin')}.md" for _ in pool]
    system = f"{sentence(rng, script)}\n\n# {word(rng, script)}"
    requests = []
    for _ in range(24):
        chosen = rng.sample(range(len(pool)), rng.randint(1, 4))
        blocks = [f"{hashes}{before} {sources[i]} {after}{colon}\n\n```\n{pool[i]}\n```" for i in chosen]
        question = _question(rng, script)
        messages = [("system", system + "\n\n" + "\n\n".join(blocks)), ("user", question)]
        requests.append(StreamRequest(messages, tuple(pool[i] for i in chosen), question, "An answer."))
    return Stream(f"{script}/{hashes!r}/{colon!r}", requests)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(headed_fences())
def test_a_heading_above_a_fenced_chunk_is_never_read_as_the_document(stream: Stream) -> None:
    verdicts = _verdicts(stream)

    assert _wrong(verdicts) == []
    assert sum(verdict is Verdict.RIGHT for verdict, _ in verdicts) >= len(verdicts) * 3 // 4, verdicts


def test_the_rules_read_a_single_fenced_chunk_under_a_heading_a_blank_line_above() -> None:
    prompt = (
        "你是助手。\n\n# 知识库\n\n## 来自 docs/备份.md 的内容：\n\n"
        "```\n数据库每天自动备份。\n---\n保留三十天。\n```"
    )
    messages = [Message(Role.SYSTEM, prompt), Message(Role.USER, "备份保留多久")]

    reading = read_prompt(messages)

    assert reading.chunks == ("数据库每天自动备份。\n---\n保留三十天。",)


@st.composite
def transcript_prompts(draw: st.DrawFn) -> Stream:
    """One user message: instructions, documents each under a metadata line, a chat transcript that varies,
    the question again under a heading."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    pool = _pool(rng, script)
    sources = [{"source": f"{word(rng, 'latin')}.html", "title": sentence(rng, script)} for _ in pool]
    rules = [sentence(rng, script) for _ in range(4)]
    greeting = [f"USER: {word(rng, script)}\nAI: {sentence(rng, script)}" for _ in range(3)]

    def prompt(chosen: list[int], question: str) -> str:
        docs = "\n\n".join(f"* {sources[i]!r}\n{pool[i]}" for i in chosen)
        return (
            f"{rules[0]}\n{rules[1]}\n### Relevant Documents\n{rules[2]}\n{docs}\n\n{rules[3]}"
            f"\n\n### Conversation History\n{rng.choice([*greeting, ''])}\nUSER: {question}"
            f"\n\n### Question\n{question}\n\nAnswer:"
        )

    return _user_stream(script, rng, pool, prompt)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transcript_prompts())
def test_instructions_and_a_transcript_around_the_documents_are_never_read_as_documents(
    stream: Stream,
) -> None:
    assert _wrong(_verdicts(stream)) == []


@st.composite
def fenced_json_lines(draw: st.DrawFn) -> Stream:
    """Documents as JSON Lines in a fenced json block (their text escaped), then a reference list."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    pool = _pool(rng, script)
    files = [f"{word(rng, 'latin')}.pdf" for _ in pool]
    instruction, heading, asking = sentence(rng, script), word(rng, script), word(rng, script)

    def prompt(chosen: list[int], question: str) -> str:
        lines = [
            json.dumps({"reference_id": str(n), "content": pool[i]}, ensure_ascii=False)
            for n, i in enumerate(chosen, 1)
        ]
        references = "\n".join(f"[{n}] {files[i]}" for n, i in enumerate(chosen, 1))
        return (
            f"{instruction}\n\n---{heading}---\n\n```json\n" + "\n".join(lines) + f"\n```\n\n"
            f"References:\n{references}\n\n{asking}: {question}"
        )

    return _user_stream(script, rng, pool, prompt)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fenced_json_lines())
def test_json_lines_documents_come_out_whole_and_the_reference_list_is_no_document(stream: Stream) -> None:
    assert _wrong(_verdicts(stream)) == []


@st.composite
def run_together(draw: st.DrawFn) -> Stream:
    """Documents joined by a single space into one paragraph: nothing a reader can split at."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    pool = [" ".join(sentence(rng, script) for _ in range(rng.randint(1, 3))) for _ in range(12)]
    instruction, header, asking = sentence(rng, script), word(rng, script), word(rng, script)
    # Each document is the search's only result once at least (a search returns one document at times).
    picks = [[index] for index in range(len(pool))]
    picks += [rng.sample(range(len(pool)), rng.randint(1, 4)) for _ in range(12)]
    rng.shuffle(picks)
    requests = []
    for pick in picks:
        chosen = [pool[i] for i in pick]
        question = _question(rng, script)
        text = f"{instruction}\n\n{header}:\n{' '.join(chosen)}\n\n{asking}: {question}"
        requests.append(StreamRequest([("user", text)], tuple(chosen), question, "An answer."))
    return Stream(script, requests)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(run_together())
def test_documents_run_together_in_one_paragraph_are_refused_not_read_in_part(stream: Stream) -> None:
    assert _wrong(_verdicts(stream)) == []


def test_a_reading_that_leaves_out_a_sentence_another_request_read_in_a_document_is_refused() -> None:
    evidence = Evidence().place("svc", "place")
    kept, lost = (
        "Refunds take five working days to reach the card.",
        "Gift cards never expire and can be reused.",
    )
    for number in range(8):
        check(evidence, [f"Context:\n{kept}\n\n{lost}\n\nQuestion: q{number}?"], (kept, lost), f"q{number}?")

    found = check(evidence, [f"Context:\n{kept} {lost}\n\nQuestion: again?"], (kept,), "again?")

    assert found.finding is Finding.REFUSED
    assert "Gift cards never expire" in found.reason


def test_a_document_seen_again_under_another_id_is_refused_as_read_with_its_label() -> None:
    evidence = Evidence().place("svc", "place")
    text = "You can repay part of a mortgage at any time. The fee is 0.25 percent in the first three years."
    other = "Bizum sends up to 1,000 euros a day."
    first = check(evidence, [f"|id|text|\n|820|{text}|\n|4|{other}|"], (f"820|{text}", other))

    again = check(evidence, [f"|id|text|\n|310|{text}|\n|7|{other}|"], (f"310|{text}", other))

    assert first.finding is not Finding.REFUSED
    assert again.finding is Finding.REFUSED
    assert "820|You can repay" in again.reason


def test_a_document_joining_the_ends_of_two_documents_other_requests_read_apart_is_refused() -> None:
    """Two documents read apart (a router's JSON template), then one prompt of the same place runs them
    together and a reader splits it where the second one's own paragraph breaks: the first piece holds
    the one's last sentence before the other's first, which no reading let stand ever showed."""
    evidence = Evidence().place("svc", "place")
    returns = "You have 30 days to send an item back. Returns at a pickup point are free."
    sizes = "Our clothes fit true to size. Between two sizes, take the larger one for coats."
    tip = "Tip: measure a garment that fits you well."
    for number in range(3):
        check(evidence, [f"docs: {returns}\n{sizes}\n\n{tip} q{number}"], (returns, f"{sizes}\n\n{tip}"))

    found = check(
        evidence, [f"Context: {returns} {sizes}\n\n{tip}\nQuestion: q"], (f"{returns} {sizes}", tip)
    )

    assert found.finding is Finding.REFUSED
    assert "the ends of two documents joined" in found.reason
    apart = check(evidence, [f"docs: {sizes}\n\n{tip}\n{returns}"], (f"{sizes}\n\n{tip}", returns))
    assert apart.finding is not Finding.REFUSED
