"""Text a reading may take for a document that is none: the user's question written again in a tag, a link or
a rule line alone, a document read twice, a string's escapes, the words of a question asked twice taken for a
loop's separator. Each request comes out with its documents exactly, or refused: never scored on a wrong
context."""

from __future__ import annotations

import random

from drawn import LOOKALIKES, SCRIPTS, sentence
from hypothesis import assume, given
from hypothesis import strategies as st
from ragpulse_assembly.learnt.consistency import Evidence, Finding, check
from ragpulse_assembly.learnt.template import TemplateReading
from ragpulse_assembly.model import normalized
from ragpulse_assembly.readings import _asked_in_documents, _pieced
from streams import BLIND, Verdict, blind_streams, run

WAVE_M_ONCE_WRONG = ("northgate-localgpt-deploy", "northgate-lobechat", "scout-gpt-researcher")
"""Blind wave M's services whose runs scored requests on a wrong context: a question asked twice with a
quote taken for a documents loop (the deploy's second version), a rewritten query in a tag of its own read
as a document, a template whose documents slot ran on over the question's label and words (a quote in one
question hid where the question ends) and whose question slot took the date the prompt ends with."""


def test_blind_wave_m_services_once_scored_wrong_are_read_right_or_refused() -> None:
    streams = [stream for stream in blind_streams(BLIND / "wave_m") if stream.service in WAVE_M_ONCE_WRONG]

    outcomes = run(streams, "learnt+rules")

    assert [o for o in outcomes if o.verdict is Verdict.WRONG] == []
    # Refusing them all would pass the line above: the deploy's two versions are read.
    deploy = [o for o in outcomes if o.service == WAVE_M_ONCE_WRONG[0]]
    assert all(o.verdict is Verdict.RIGHT for o in deploy), deploy


def test_a_rule_a_link_a_date_the_question_again_a_copy_or_a_repr_is_refused_as_a_document() -> None:
    question = "how long does a VPN session last"
    vpn = "The VPN disconnects after 12 hours."
    readings = {
        "a rule": (vpn, "---"),
        "tags alone": (vpn, "</FACTS> <NOTES>"),
        "a link": (vpn, "Source: https://intranet.example/vpn"),
        "a path": ("docs/vpn-setup.md", vpn),
        "a date after its label": ("Published: 2021-10-16", vpn),
        "a date on the first line": ("2021-10-16\nTitle: VPN guide\nThe VPN disconnects after 12 hours.",),
        "an id": (vpn, "4711 / 0.93"),
        "the question": (vpn, f"<rewrite>Policy: {question}?</rewrite>"),
        "a search query written from it": ("VPN session: how long does it last", vpn),
        "one read twice": (vpn, "MFA is required.", "The VPN  disconnects after 12 hours."),
        "a repr": ("Steps:\\n1. Open the client.\\n2. Sign in.", vpn),
    }

    for name, documents in readings.items():
        evidence = Evidence().place("svc", name)
        found = check(evidence, ["\n".join(documents) + f"\n{question}"], documents, question)
        assert found.finding is Finding.REFUSED, name


def test_documents_with_a_slash_a_label_or_the_questions_words_are_not_refused() -> None:
    documents = (
        "数据库每天凌晨三点自动全量备份，恢复操作在控制台的“备份/恢复”页面。",
        "Note: the VPN client lives in C:/Program Files/Northgate and updates itself.",
        "How long does a VPN session last? Twelve hours, then you sign in again with MFA.",
        "VPN session: twelve hours long, then sign in again.",
        "2024: 12 hours.",
        "## 2.3.1\n- The VPN client reconnects on its own.",
        "> Quoted in the handbook: sessions end at midnight.",
        "<b>MFA</b> is required when x < 5 and y > 3.",
    )
    evidence = Evidence().place("svc", "kept")

    found = check(evidence, ["\n\n".join(documents)], documents, "how long does a VPN session last")

    assert found.finding is not Finding.REFUSED, found.reason


def test_a_rules_question_pieced_from_the_template_and_a_document_names_no_other_question() -> None:
    learnt = TemplateReading(
        version="v1",
        chunks=("Primary carers get 26 weeks of paid leave.",),
        question="how much leave do carers get",
        weak=False,
        regions=("Primary carers get 26 weeks of paid leave. Secondary carers get 6 weeks.",),
        skeleton='Remember the information below. """ """ Answer from the context above.',
    )

    pieced = 'Remember the information below. """ Primary carers get 26 weeks of paid leave.'
    assert _pieced(pieced, learnt)
    assert not _pieced("Is my data encrypted?", learnt)
    # A forged question as long as a prompt (spaces, marks, sentence ends) is split in linear time and not
    # looked up piece by piece: it names no question the template's reading could rest on.
    assert not _pieced(" " * 200_000 + "!!" + ". a" * 50_000, learnt)


def test_marks_the_template_writes_before_each_document_are_refused_when_read_as_theirs() -> None:
    """A blockquote or bullet the template writes before every document, kept on all but the first (the
    text before the slot ends with it): never scored as the documents' text."""
    documents = ("The VPN disconnects after 12 hours.", "> MFA is required.\n> Use the app.", "> SSO is paid")
    prompt = "Quoted sources:\n\n> " + "\n\n".join(documents) + "\n\nQuestion: how long is a session?"

    found = check(Evidence().place("svc", "quotes"), [prompt], documents, "how long is a session?")

    assert found.finding is Finding.REFUSED and "«>»" in found.reason
    # The same documents under a template that writes no mark before the first are its own text.
    plain = prompt.replace("Quoted sources:\n\n> ", "Quoted sources:\n\n")
    found = check(Evidence().place("svc", "own"), [plain], documents, "how long?")
    assert found.finding is not Finding.REFUSED


def test_a_bulleted_list_of_documents_one_holding_bullets_of_its_own_is_refused() -> None:
    """Documents written as list items, one of them a list itself: which bullet starts the next document is
    a guess, whichever way the reading took it."""
    plain = ("The VPN disconnects after 12 hours.", "MFA is required.", "SSO is paid.")
    listed = ("The VPN disconnects after 12 hours.", "Steps:\n- Open the app.", "- Sign in.", "SSO is paid.")
    for documents, refused in ((plain, False), (listed, True)):
        prompt = "Facts:\n  - " + "\n  - ".join(documents) + "\n\nQuestion: how long is a session?"

        found = check(Evidence().place("svc", str(refused)), [prompt], documents, "how long is a session?")

        assert (found.finding is Finding.REFUSED) is refused, found.reason


def test_a_label_cut_off_at_its_number_is_refused_and_a_lists_short_items_are_not() -> None:
    """The template's "Document 2:" read as a document "Document" before each text (the loop split at the
    counter): refused; facts of a bulleted or numbered list, short and without a full stop, stay documents."""
    texts = ("The VPN disconnects after 12 hours.", "MFA is required for every session.")
    labelled = "\n\n".join(f"Document {number}:\n{text}" for number, text in enumerate(texts, 1))
    cut = ("Document", f"{texts[0]}\n\nDocument", texts[1])
    refused = check(Evidence().place("svc", "cut"), [labelled], cut, "how long does a session last")

    assert refused.finding is Finding.REFUSED and "label" in refused.reason
    facts = ("Is vegetarian but eats fish", "Prefers window seats", "Birthday is on 14 September")
    for name, listed in (("bullets", "- {}"), ("numbers", "{number}. {}")):
        prompt = "Facts:\n" + "\n".join(
            listed.format(fact, number=number) for number, fact in enumerate(facts, 1)
        )
        kept = check(Evidence().place("svc", name), [prompt], facts, "what do I eat")
        assert kept.finding is not Finding.REFUSED, (name, kept.reason)


@given(
    seed=st.integers(0, 10_000),
    script=st.sampled_from(sorted(SCRIPTS)),
    label=st.sampled_from(("Document [", "[", "", "Source ", "Документ ", "文档", "#")),
    after=st.sampled_from(("](Title: {}) ", "] ", ". ", ": ", ")\n", " — {}\n")),
    count=st.integers(2, 8),
    first=st.sampled_from((0, 1)),
)
def test_documents_that_each_open_with_a_label_and_their_own_place_are_refused(
    seed: int, script: str, label: str, after: str, count: int, first: int
) -> None:
    """Each document kept the label the template counts them with ("Document [2](Title: …) …"): refused,
    whatever the label's words and marks; the same documents without it are read."""
    rng = random.Random(seed)
    texts = tuple(f"{sentence(rng, script)} {sentence(rng, script)}" for _ in range(count))
    labelled = tuple(
        f"{label}{number}{after.format(sentence(rng, script)[:20])}{text}"
        for number, text in enumerate(texts, first)
    )
    question = "how long does a session last?"

    refused = check(Evidence().place("svc", "labelled"), ["\n".join(labelled)], labelled, question)
    kept = check(Evidence().place("svc", "plain"), ["\n\n".join(texts)], texts, question)

    assert refused.finding is Finding.REFUSED and "label" in refused.reason, refused.reason
    assert kept.finding is not Finding.REFUSED, kept.reason


def test_documents_opening_with_numbers_that_do_not_count_them_are_read() -> None:
    """Years, amounts and list items that do not run 1, 2, 3 down the reading are the documents' own."""
    for documents in (
        ("2019 was the first year of the plan.", "2020 brought remote work."),
        ("3 days of leave are granted.", "1 badge per employee."),
        ("Step 2: sign in.", "Step 2: open the app."),
    ):
        found = check(Evidence().place("svc", documents[0]), ["\n\n".join(documents)], documents, "when?")
        assert found.finding is not Finding.REFUSED, (documents, found.reason)


@given(seed=st.integers(0, 10_000), script=st.sampled_from(sorted(SCRIPTS)), overlap=st.integers(2, 3))
def test_a_rules_question_opening_with_the_last_documents_end_says_the_documents_ran_on(
    seed: int, script: str, overlap: int
) -> None:
    """The template's last document ends with what the rules read as the question's label and words, and
    the rules' question goes on past it: the documents slot ran on over them (whatever the words); a
    question of the rules' own, or the document's end alone, is no such sign."""
    rng = random.Random(seed)
    sentences = [sentence(rng, script) for _ in range(4)]
    asked = f"{sentence(rng, script)} {sentence(rng, script)}"
    tail = " ".join(sentences[-overlap:])
    learnt = TemplateReading(
        version="v1",
        chunks=(" ".join(sentences[:-overlap]) + " " + tail,),
        question="is June 07",
        weak=False,
    )

    assert _asked_in_documents(learnt, normalized(f"{tail} {asked}"))
    assert not _asked_in_documents(learnt, normalized(asked))
    # The rules' question that is the last document's end alone: the rules cut the document, not this.
    assert not _asked_in_documents(learnt, normalized(tail))
    # Text that repeats itself is looked up a bounded number of times, not once per character.
    repeated = TemplateReading(version="v1", chunks=("ab " * 100_000 + "end",), question="", weak=False)
    assert not _asked_in_documents(repeated, "ab " * 50_000 + "c")


@given(
    seed=st.integers(0, 10_000),
    script=st.sampled_from(sorted(SCRIPTS)),
    bullet=st.sampled_from(("  - ", "- ", "• ", "> ", "* ")),
    lookalike=st.sampled_from(LOOKALIKES),
    count=st.integers(1, 4),
)
def test_a_list_items_own_line_read_as_the_next_document_is_refused(
    seed: int, script: str, bullet: str, lookalike: str, count: int
) -> None:
    """Documents written as list items, the first holding a line of marks of its own ("* * *") and text
    after it: a reading that starts a document at that line (no bullet before it) is refused; the list read
    item by item is not."""
    assume(lookalike[0] != bullet.strip())  # a line opening with the bullet itself: a guess, refused anyway
    rng = random.Random(seed)
    own = f"{sentence(rng, script)}\n{lookalike}\n{sentence(rng, script)}"
    texts = (own, *(sentence(rng, script) for _ in range(count)))
    prompt = "Facts:\n" + "\n".join(bullet + text for text in texts) + "\n\nQuestion: what?"
    first, rest = own.split(f"\n{lookalike}\n")
    cut = (first, f"{lookalike}\n{rest}", *texts[1:])

    refused = check(Evidence().place("svc", "cut"), [prompt], cut, "what?")
    kept = check(Evidence().place("svc", "whole"), [prompt], texts, "what?")

    assert refused.finding is Finding.REFUSED and "marks" in refused.reason, refused.reason
    assert kept.finding is not Finding.REFUSED, kept.reason
