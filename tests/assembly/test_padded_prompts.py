"""Prompts padded with long runs of blanks (a document's own whitespace, or text written to stall a reader)
are read in one pass: a line of 20,000 spaces around a table bar kept the structure rules' label and
table-rule patterns backtracking over every split of its blanks (more than a minute for one prompt)."""

from __future__ import annotations

from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.prompt_context import read_prompt

PAD = " " * 20_000


def test_a_line_of_blanks_around_a_bar_is_read_as_text() -> None:
    text = f"Context:\nThe VPN disconnects after 12 hours.\n{PAD}|{PAD}x\n\nQuestion: how long is a session?"

    reading = read_prompt([Message(Role.USER, text)])

    assert reading.question == "how long is a session?"
    assert "The VPN disconnects after 12 hours." in " ".join(reading.chunks)


def test_blank_lines_by_the_thousand_inside_a_tagged_document_are_read() -> None:
    blanks = " \n" * 20_000
    text = f"Context:\n<doc>\nThe VPN disconnects{blanks}after 12 hours.</doc>\n\nQuestion: how long?"

    reading = read_prompt([Message(Role.USER, text)])

    assert reading.question == "how long?"
    assert not reading.chunks or "after 12 hours." in reading.chunks[-1]
