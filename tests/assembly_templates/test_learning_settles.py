"""Learning a template ends on every window: rules that would reshape the slots for ever give no template."""

from __future__ import annotations

import logging

import pytest
from ragpulse_assembly.learnt import learning
from ragpulse_assembly.learnt.alignment import Piece
from ragpulse_assembly.learnt.tokens import flatten, tokenize
from ragpulse_assembly.model import Message, Role

DOCUMENTS = [f"Document {n} says the plan {n} costs {n * 7} euros a month." for n in range(12)]


def _window() -> list[str]:
    prompts = []
    for n in range(8):
        context = "\n\n".join(DOCUMENTS[n : n + 1 + n % 3])
        question = f"How much is plan {n} for {n + 2} people?"
        text = flatten([Message(Role.USER, f"Context:\n{context}\n\nQuestion: {question}")])
        assert text is not None
        prompts.append(text)
    return prompts


def test_a_window_learns_its_template() -> None:
    prompts = _window()
    template = learning.learn("svc", "genai", [tokenize(text) for text in prompts], [""] * len(prompts))

    assert template is not None and template.reads_documents


def test_rules_that_undo_each_other_end_learning_without_a_template(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls = 0

    def reshaping(pieces: list[Piece], *_: object) -> list[Piece]:
        """A rule that reports a change every time, and gives back what it was given."""
        nonlocal calls
        calls += 1
        if calls > 100:
            raise AssertionError("learning went round more than 100 times")
        return list(pieces)

    monkeypatch.setattr(learning, "_one_loop", reshaping)
    prompts = _window()

    with caplog.at_level(logging.WARNING, logger=learning.__name__):
        template = learning.learn("svc", "genai", [tokenize(text) for text in prompts], [""] * len(prompts))

    assert template is None
    assert calls <= 2  # stopped the first time it met a layout again
    assert "joined and cut again for ever" in caplog.text
