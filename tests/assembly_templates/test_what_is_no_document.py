"""Text a reading may take for a document that is none: the user's question written again in a tag, a link or
a rule line alone, a document read twice, a string's escapes, the words of a question asked twice taken for a
loop's separator. Each request comes out with its documents exactly, or refused: never scored on a wrong
context."""

from __future__ import annotations

from ragpulse_assembly.learnt.consistency import Evidence, Finding, check
from ragpulse_assembly.learnt.template import TemplateReading
from ragpulse_assembly.readings import _pieced
from streams import BLIND, Verdict, blind_streams, run

WAVE_M_ONCE_WRONG = ("northgate-localgpt-deploy", "northgate-lobechat")
"""Blind wave M's services whose first run scored requests on a wrong context: a question asked twice with
a quote taken for a documents loop (the deploy's second version), a rewritten query in a tag of its own read
as a document."""


def test_blind_wave_m_services_once_scored_wrong_are_read_right_or_refused() -> None:
    streams = [stream for stream in blind_streams(BLIND / "wave_m") if stream.service in WAVE_M_ONCE_WRONG]

    outcomes = run(streams, "learnt+rules")

    assert [o for o in outcomes if o.verdict is Verdict.WRONG] == []
    # Refusing them all would pass the line above: the deploy's two versions are read.
    deploy = [o for o in outcomes if o.service == WAVE_M_ONCE_WRONG[0]]
    assert all(o.verdict is Verdict.RIGHT for o in deploy), deploy


def test_a_rule_line_a_link_the_question_again_a_copy_or_a_repr_is_refused_as_a_document() -> None:
    question = "how long does a VPN session last"
    vpn = "The VPN disconnects after 12 hours."
    readings = {
        "a rule": (vpn, "---"),
        "tags alone": (vpn, "</FACTS> <NOTES>"),
        "a link": (vpn, "Source: https://intranet.example/vpn"),
        "a path": ("docs/vpn-setup.md", vpn),
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
