"""The question set: fifty-odd questions a Python programmer asks, answerable from the language reference."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files


@dataclass(frozen=True)
class Question:
    id: str
    topic: str
    text: str


@lru_cache(maxsize=1)
def load_questions() -> tuple[Question, ...]:
    raw = json.loads(files("ragpulse_example").joinpath("data/questions.json").read_text(encoding="utf-8"))
    return tuple(Question(item["id"], item["topic"], item["question"]) for item in raw)
