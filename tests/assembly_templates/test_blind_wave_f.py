"""Blind wave F (sixteen services after real defaults no earlier wave holds), read by the default readers."""

from __future__ import annotations

from streams import BLIND, Verdict, blind_streams, run


def test_blind_wave_f_is_read_on_the_right_context_or_not_scored() -> None:
    """No request of wave F is scored on a wrong context; the ones left unscored are the question appended
    after the last record with no label, and ``<QA>`` blocks inside ``<Data>`` where the readings disagree."""
    outcomes = run(blind_streams(BLIND / "wave_f"), "learnt+rules")

    assert [o for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) * 85 // 100
