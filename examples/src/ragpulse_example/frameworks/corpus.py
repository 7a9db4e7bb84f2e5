"""What both framework apps retrieve from, the questions they are asked, and the fake models' canned output.

The fake models answer from a table, not from the prompt: a canned answer is one sentence of a passage, so
it is grounded exactly when its passage is among the retrieved ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

PASSAGES: Final = {
    "eiffel": "The Eiffel Tower stands in Paris. It was completed in 1889 for the World's Fair.",
    "eiffel-height": "The Eiffel Tower is 330 metres tall including its antennas.",
    "colosseum": "The Colosseum is an amphitheatre in Rome. It could hold about 50,000 people.",
    "liberty": "The Statue of Liberty stands on Liberty Island in New York Harbor. France gave it in 1886.",
    "big-ben": "Big Ben is the nickname of the great bell of the clock at Westminster in London.",
    "sagrada": "The Sagrada Familia is a basilica in Barcelona designed by Antoni Gaudi.",
    "acropolis": "The Acropolis of Athens is an ancient citadel above the city. The Parthenon stands on it.",
    "opera": "The Sydney Opera House opened in 1973 on Bennelong Point in Sydney Harbour.",
}


@dataclass(frozen=True)
class Question:
    text: str
    answer: str
    """What the fake chat model replies: a sentence of the passage that answers the question."""
    variations: tuple[str, ...]
    """What the fake query writer replies: three rewrites of the question."""


QUESTIONS: Final = (
    Question(
        "When was the Eiffel Tower completed?",
        "It was completed in 1889 for the World's Fair.",
        ("Eiffel Tower completion year", "history of the Eiffel Tower", "When was the tower in Paris built?"),
    ),
    Question(
        "How many people could the Colosseum hold?",
        "It could hold about 50,000 people.",
        ("Colosseum capacity", "size of the amphitheatre in Rome", "Colosseum spectators"),
    ),
    Question(
        "Who designed the Sagrada Familia?",
        "The Sagrada Familia is a basilica in Barcelona designed by Antoni Gaudi.",
        ("Sagrada Familia architect", "basilica in Barcelona designer", "Antoni Gaudi works"),
    ),
)

FALLBACK_ANSWER: Final = "The documents do not say."
CHAT_MODEL_NAME: Final = "fake-chat-model"


def question_named(text: str) -> Question:
    """The canned question, or one whose variations are the question's words and whose answer says so."""
    for question in QUESTIONS:
        if question.text == text:
            return question
    words = text.rstrip("?").split()
    return Question(text, FALLBACK_ANSWER, (" ".join(words[:3]), " ".join(words[-3:]), text.lower()))
