"""Documents joined by a rule line the template writes with no blank line around it ("\\n---\\n"), one of them
holding the same rule between two of its own paragraphs, blank lines around it ("\\n\\n---\\n\\n"), as
markdown writes a thematic break. The template's separator stands between any two documents; the document's
own rule only inside that document, whose two halves would always come together, one after the other. The
document is read whole, never cut in two; documents that end with a line break of their own before the
template's rule are still told apart. Every request is read right or refused, never on a wrong context."""

from __future__ import annotations

import random

from both_readers import right_shares
from drawn import SCRIPTS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest

RULES = ("---", "***", "* * *", "___", "———")


def _paragraph(rng: random.Random, script: str) -> str:
    return " ".join(sentence(rng, script) for _ in range(rng.randint(1, 3)))


def ruled_stream(seed: int, script: str, rule: str, trailing: bool) -> Stream:
    """Twenty-four requests of one to four of ten documents joined by ``rule`` on a line of its own, the
    question after them; one or two documents hold the rule between blank lines, and each is retrieved
    often. ``trailing``: some documents end with a line break of their own (before the template's rule)."""
    rng = random.Random(seed)
    pool = [_paragraph(rng, script) for _ in range(10)]
    ruled = rng.sample(range(10), rng.randint(1, 2))
    for index in ruled:
        pool[index] = f"{pool[index]}\n\n{rule}\n\n{_paragraph(rng, script)}"
    if trailing:
        for index in rng.sample([i for i in range(10) if i not in ruled], 2):
            pool[index] += "\n"
    label, asking = word(rng, script), word(rng, script)
    instruction = sentence(rng, script)
    requests = []
    for _ in range(24):
        picked = rng.sample(range(10), rng.randint(1, 4))
        if not set(ruled) & set(picked) and rng.random() < 0.5:
            picked.insert(rng.randint(0, len(picked)), rng.choice(ruled))
        chosen = [pool[i] for i in picked]
        asked = question(rng, script)
        text = (
            f"{label}:\n" + f"\n{rule}\n".join(chosen) + f"\n{rule}\n{asking}: {asked}\n{rule}\n{instruction}"
        )
        requests.append(
            StreamRequest([("user", text)], tuple(d.strip() for d in chosen), asked, "An answer.")
        )
    return Stream(f"{script}/{rule!r}/{seed}/trailing={trailing}", requests)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)), st.sampled_from(RULES), st.booleans())
def test_a_document_holding_the_rule_between_blank_lines_is_read_whole(
    seed: int, script: str, rule: str, trailing: bool
) -> None:
    stream = ruled_stream(seed, script, rule, trailing)
    alone, both = right_shares(stream)

    # Refusing everything would pass the line above: most requests are read.
    assert alone >= 2 / 3 and both >= 2 / 3, (alone, both)


def _fresh(messages: list[tuple[str, str]], documents: list[str], asked: str) -> StreamRequest:
    return StreamRequest(messages, tuple(documents), asked, "Eine Antwort.")


_ASKED = ("Wie lange gilt", "Was kostet", "Quanto custa", "Wer bezahlt", "Como funciona", "Wann endet")
_TOPICS = (
    "der Versand nach Tirol",
    "o plano anual",
    "die Reparatur meines Geräts",
    "a fatura de março",
    "mein Gutschein",
)


def fresh_streams() -> list[Stream]:
    """Two templates no wave holds: a German system prompt with "Auszüge:" and "\\n___\\n" between
    excerpts, the question in the user's message; a Portuguese one with "Trechos" between "* * *" lines."""
    rng = random.Random(36)
    german = [
        "Rückgaben sind 30 Tage lang möglich.\n\n___\n\nAusgenommen sind Hygieneartikel.",
        "Der Versand dauert zwei Werktage.",
        "Gutscheine gelten ein Jahr.",
        "Reparaturen übernimmt der Hersteller.",
        "Die Hotline ist werktags von 8 bis 18 Uhr erreichbar.",
        "Ratenzahlung ist ab 100 Euro möglich.",
    ]
    portuguese = [
        "O plano básico inclui 10 GB.\n\n* * *\n\nO plano plus inclui 100 GB.",
        "Faturas chegam por e-mail.",
        "O suporte responde em 24 horas.",
        "Cancelamentos valem no fim do ciclo.",
        "Há desconto anual de 15%.",
    ]
    streams = []
    for name, pool, build in (
        (
            "de",
            german,
            lambda docs, asked: [
                (
                    "system",
                    "Beantworte die Frage nur mit diesen Auszügen.\nAuszüge:\n" + "\n___\n".join(docs),
                ),
                ("user", asked),
            ],
        ),
        (
            "pt",
            portuguese,
            lambda docs, asked: [
                (
                    "user",
                    "Trechos\n* * *\n" + "\n* * *\n".join(docs) + f"\n* * *\nPergunta: {asked}\nResposta:",
                )
            ],
        ),
    ):
        requests = []
        for number in range(24):
            picked = rng.sample(pool, rng.randint(1, 3))
            if number % 2 == 0 and pool[0] not in picked:
                picked.insert(rng.randint(0, len(picked)), pool[0])
            asked = f"{rng.choice(_ASKED)} {rng.choice(_TOPICS)}?"
            requests.append(_fresh(build(picked, asked), picked, asked))
        streams.append(Stream(name, requests))
    return streams


def test_two_fresh_templates_read_their_ruled_documents_whole() -> None:
    for stream in fresh_streams():
        alone, both = right_shares(stream)
        assert alone >= 0.9 and both >= 0.9, (stream.service, alone, both)
