"""A label every document opens with on its own line, whose value the template fills per request (a row id,
a timestamp, a score): the skeleton cannot hold the value, so the first document opened with it while the
others lost it at the separator. The learnt template reads every document without its label, or refuses;
never a wrong context."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from both_readers import right_shares
from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest

Label = Callable[[random.Random, str], str]
LABELS: tuple[Label, ...] = (
    lambda rng, key: f"{rng.randint(100, 999)}|",
    lambda rng, key: f"{key}: 2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}, ",
    lambda rng, key: f"({key} {rng.randint(10, 99)}) ",
    lambda rng, key: f"{key}={rng.randint(1, 9)}.{rng.randint(10, 99)}; ",
)
"""A label's value drawn afresh for every document of every request, after a key word or none."""


def labelled_stream(seed: int, script: str, label: Label, in_json: bool) -> Stream:
    """Twenty requests of one to four documents, each row opening with ``label``, on lines of a system
    message or as the strings of a tool's JSON result."""
    rng = random.Random(seed)
    header, asking, key = word(rng, script), word(rng, script), word(rng, "latin")
    instruction = sentence(rng, script)
    pool = [sentence(rng, script) + " " + sentence(rng, script) for _ in range(10)]
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(1, 4))
        asked = question(rng, script)
        rows = [label(rng, key) + text for text in chosen]
        if in_json:
            messages = [
                ("system", instruction),
                ("user", asked),
                ("tool_call", "search"),
                ("tool", json.dumps({"status": "OK", "results": rows}, ensure_ascii=False)),
            ]
        else:
            body = "\n".join(rows)
            messages = [("system", f"{instruction}\n\n{header}\n{body}"), ("user", f"{asking}: {asked}")]
        requests.append(StreamRequest(messages, tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/{label(random.Random(0), key)!r}/json={in_json}", requests)


@st.composite
def labelled_traffic(draw: st.DrawFn) -> Stream:
    return labelled_stream(
        draw(st.integers(0, 2**32 - 1)),
        draw(st.sampled_from(sorted(SCRIPTS))),
        draw(st.sampled_from(LABELS)),
        draw(st.booleans()),
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(labelled_traffic())
def test_a_label_whose_value_varies_is_never_read_as_the_first_documents_text(stream: Stream) -> None:
    alone, _ = right_shares(stream)

    # Refusing everything would pass: the learnt template reads most of its traffic.
    assert alone >= 0.75


_PASSAGES = (
    "Die Rückgabe ist 30 Tage lang kostenlos. Der Artikel muss unbenutzt und in der Originalverpackung sein.",
    "Expressversand kostet 9,90 Euro und kommt am nächsten Werktag, wenn du bis 14 Uhr bestellst.",
    "Gutscheine gelten drei Jahre ab dem Kauf und lassen sich nicht bar auszahlen.",
    "Die Garantie beträgt zwei Jahre. Für Akkus gilt sie nur ein Jahr.",
    "Bestellungen ab 50 Euro werden ohne Versandkosten geliefert.",
    "Ratenzahlung ist ab 200 Euro Warenwert in 3, 6 oder 12 Monatsraten möglich.",
)
_ASKED = (
    "Wie lange gilt ein Gutschein?",
    "Was kostet der Expressversand?",
    "Wie lange ist die Garantie?",
    "Kann ich in Raten zahlen?",
    "Ab wann ist der Versand kostenlos?",
    "Wie schicke ich einen Artikel zurück?",
    "Gilt die Garantie auch für den Akku?",
    "Kann ich einen Gutschein auszahlen lassen?",
)


def _fresh(render: Callable[[random.Random, list[str], str], list[tuple[str, str]]], seed: int) -> Stream:
    rng = random.Random(seed)
    requests = []
    for _ in range(24):
        chosen = rng.sample(_PASSAGES, rng.randint(1, 4))
        asked = rng.choice(_ASKED)
        requests.append(StreamRequest(render(rng, chosen, asked), tuple(chosen), asked, "Eine Antwort."))
    return Stream(f"fresh-{seed}", requests)


def _ticket_rows(rng: random.Random, chosen: list[str], asked: str) -> list[tuple[str, str]]:
    rows = "\n".join(f"TCK-{rng.randint(1000, 9999)} » {text}" for text in chosen)
    return [("system", f"Du bist der Kundendienst.\n\nGelöste Tickets:\n{rows}"), ("user", asked)]


def _hashed_rows(rng: random.Random, chosen: list[str], asked: str) -> list[tuple[str, str]]:
    rows = "\n".join(f"#{rng.randint(1000, 9999)}·{text}" for text in chosen)
    return [("user", f"{asked}\n\nAuszüge:\n{rows}")]


def _json_ids(rng: random.Random, chosen: list[str], asked: str) -> list[tuple[str, str]]:
    rows = [f"{rng.randint(100, 999)}) {text}" for text in chosen]
    found = json.dumps({"status": "OK", "results": rows}, ensure_ascii=False)
    return [
        ("system", "Du bist der Kundendienst."),
        ("user", asked),
        ("tool_call", "search"),
        ("tool", found),
    ]


def _scored_lines(rng: random.Random, chosen: list[str], asked: str) -> list[tuple[str, str]]:
    lines = "\n".join(f"({rng.randint(50, 99)}%) {text}" for text in chosen)
    return [("user", f"Frage: {asked}\n\nTreffer nach Relevanz:\n{lines}\n\nAntworte kurz.")]


def test_fresh_templates_with_a_varying_label_are_read_right() -> None:
    """Templates no wave holds, in German: ticket ids after a worded label, bare ids on lines after the
    question, relevance scores, every request read without the label by the learnt template alone and with
    the rules; ids in a tool's JSON list read right by the learnt template alone, and never on a wrong
    context with the rules (which keep the ids: the readings disagree)."""
    for number, render in enumerate((_ticket_rows, _hashed_rows, _scored_lines, _json_ids)):
        stream = _fresh(render, number)
        alone, both = right_shares(stream)
        assert alone == 1.0, render.__name__
        assert both == 1.0 or render is _json_ids, render.__name__
