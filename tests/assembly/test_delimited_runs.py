"""Passages fenced by identical rule lines after text that names documents: each rule line's run found from
positions indexed once and the fewest lines that name documents (a prompt of thousands of rules once took
minutes), the same runs a look at every line's rest and prefix finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_assembly.prompt_context import _DELIMITER, _Delimiters, _refers_to_documents

LINES = ["---", "===", "  ---  ", "text", "Use the", "following sources:", "the context", "", "Question: x?"]


def _scanned(lines: list[str], index: int, asked_at: int) -> int | None:
    if not _DELIMITER.match(lines[index]):
        return None
    same = [i for i in range(index, len(lines)) if lines[i].strip() == lines[index].strip()]
    if len(same) < 2 or index < asked_at < same[-1]:
        return None
    return same[-1] + 1 if _refers_to_documents("\n".join(lines[:index])) else None


@settings(max_examples=300)
@given(st.lists(st.sampled_from(LINES), max_size=30), st.integers(-1, 30))
def test_each_rule_lines_run_is_the_one_a_look_at_every_line_finds(lines: list[str], asked_at: int) -> None:
    delimiters = _Delimiters(lines)

    assert [delimiters.run(i, asked_at) for i in range(len(lines))] == [
        _scanned(lines, i, asked_at) for i in range(len(lines))
    ]
