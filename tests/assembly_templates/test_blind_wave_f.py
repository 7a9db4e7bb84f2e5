"""Blind wave F (sixteen services after real defaults no earlier wave holds), read by the default readers."""

from __future__ import annotations

from streams import BLIND, Verdict, blind_streams, run


def test_blind_wave_f_is_read_on_the_right_context_or_not_scored() -> None:
    """No request of wave F is scored on a wrong context; the ones left unscored are ``<QA>`` blocks inside
    ``<Data>``, where the two readings disagree. The question GPT4All's LocalDocs appends after the last
    record with only a blank line and no label is read as the question (before: not scored, no question)."""
    outcomes = run(blind_streams(BLIND / "wave_f"), "learnt+rules")

    assert [o for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) * 94 // 100
    localdocs = [o for o in outcomes if o.service == "localdocs-desktop"]
    assert localdocs and all(o.verdict is Verdict.RIGHT for o in localdocs)
