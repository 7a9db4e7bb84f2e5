"""A conversation transcript the template writes between the documents and the question, its last turn the
user's question asked again below ("USER: …" then "### Question"): the transcript is no document, and the
documents before it are read alone, exactly; never a wrong context."""

from __future__ import annotations

import random

from both_readers import right_shares
from drawn import SCRIPTS, SEPARATORS, question, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest


def transcript_stream(seed: int, script: str, separator: str, turns: int) -> Stream:
    """Twenty requests: instructions, one to four documents joined by ``separator``, a transcript of up to
    ``turns`` earlier exchanges ending with this turn's question, then the question under its label."""
    rng = random.Random(seed)
    header, history, asking, user, bot = (word(rng, script) for _ in range(5))
    instruction = sentence(rng, script)
    pool = [" ".join(sentence(rng, script) for _ in range(rng.randint(1, 3))) for _ in range(10)]
    greetings = [question(rng, script) for _ in range(3)]
    replies = [sentence(rng, script) for _ in range(3)]
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(1, 4))
        asked = question(rng, script)
        lines = []
        for _ in range(rng.randint(0, turns)):
            lines += [f"{user}: {rng.choice(greetings)}", f"{bot}: {rng.choice(replies)}"]
        lines.append(f"{user}: {asked}")
        text = (
            f"{instruction}\n\n### {header}\n{separator.join(chosen)}\n\n### {history}\n"
            + "\n".join(lines)
            + f"\n\n### {asking}\n{asked}"
        )
        requests.append(StreamRequest([("user", text)], tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/{separator!r}/turns={turns}", requests)


@st.composite
def transcript_traffic(draw: st.DrawFn) -> Stream:
    return transcript_stream(
        draw(st.integers(0, 2**32 - 1)),
        draw(st.sampled_from(sorted(SCRIPTS))),
        draw(st.sampled_from([s for s in SEPARATORS if "\n" in s])),
        draw(st.integers(1, 3)),
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transcript_traffic())
def test_a_transcript_ending_with_the_question_is_never_a_document(stream: Stream) -> None:
    alone, _ = right_shares(stream)

    assert alone >= 0.75


_FAQ = (
    "O reembolso de bilhetes não usados é feito em até 7 dias úteis, menos uma taxa de 5 euros.",
    "Cães pequenos viajam de graça numa caixa de transporte; cães grandes pagam meio bilhete.",
    "Objetos perdidos ficam guardados 30 dias na estação central.",
    "O passe jovem custa 25 euros por mês e vale para menores de 23 anos.",
    "Bicicletas dobráveis podem viajar em todos os comboios sem reserva.",
    "O wifi é gratuito nos comboios intercidades, com sessões de 60 minutos.",
)
_PERGUNTAS = (
    "Quanto custa o passe jovem?",
    "Posso levar o meu cão?",
    "Quanto tempo guardam objetos perdidos?",
    "Quando recebo o reembolso?",
    "Há wifi no comboio?",
    "Posso levar uma bicicleta dobrável?",
    "O passe jovem vale até que idade?",
)


def _portuguese(rng: random.Random, chosen: list[str], asked: str) -> str:
    turns = rng.choice(([], ["Cliente: olá", "Atendente: Olá! Em que posso ajudar?"]))
    documents = "\n\n".join(f"- {text}" for text in chosen)
    return (
        "Responda só com os documentos.\n\nDocumentos:\n"
        f"{documents}\n\nConversa até agora:\n"
        + "\n".join([*turns, f"Cliente: {asked}"])
        + f"\n\nPergunta atual: {asked}\nResposta:"
    )


def _rule_joined(rng: random.Random, chosen: list[str], asked: str) -> str:
    turns = rng.choice(([], ["[user] bom dia", "[bot] Bom dia, diga."], ["[user] oi", "[bot] Oi!"]))
    return (
        "<docs>\n"
        + "\n---\n".join(chosen)
        + "\n</docs>\n<chat>\n"
        + "\n".join([*turns, f"[user] {asked}"])
        + f"\n</chat>\nAnswer this: {asked}"
    )


def test_fresh_templates_with_a_transcript_are_read_right() -> None:
    """Two templates no wave holds (Portuguese documents as a list before a conversation, and documents
    between a rule before a tagged chat): every request read right by the learnt template alone, and never
    on a wrong context with the rules."""
    for number, render in enumerate((_portuguese, _rule_joined)):
        rng = random.Random(number)
        requests = []
        for _ in range(24):
            chosen = rng.sample(_FAQ, rng.randint(1, 4))
            asked = rng.choice(_PERGUNTAS)
            requests.append(
                StreamRequest([("user", render(rng, chosen, asked))], tuple(chosen), asked, "Uma resposta.")
            )
        stream = Stream(render.__name__, requests)
        alone, _ = right_shares(stream)
        assert alone == 1.0, render.__name__
