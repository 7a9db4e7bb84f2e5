"""Traffic on which a property test once found a learnt template reading a wrong context, or refusing most
requests (tests/assembly_templates/found/: one service per file, in the blind waves' format). Each file is
kept as hypothesis drew it, so a rare draw that a random run found stays checked on every run."""

from __future__ import annotations

from pathlib import Path

from streams import Verdict, blind_streams, run

FOUND = Path(__file__).resolve().parent / "found"


def test_traffic_a_property_test_found_is_read_on_the_right_context_by_the_learnt_template() -> None:
    outcomes = run(blind_streams(FOUND), "learnt-only")

    assert [(o.service, o.detail) for o in outcomes if o.verdict is Verdict.WRONG] == []
    for service in {o.service for o in outcomes}:
        mine = [o for o in outcomes if o.service == service]
        assert sum(o.verdict is Verdict.RIGHT for o in mine) >= len(mine) * 3 // 4, (service, mine)


def test_with_the_default_readers_that_traffic_is_never_read_on_a_wrong_context() -> None:
    """The structure rules may read these made-up layouts otherwise than the learnt template: then the two
    readings disagree and the request is not scored, never scored on the wrong documents."""
    outcomes = run(blind_streams(FOUND), "learnt+rules")

    assert [(o.service, o.detail) for o in outcomes if o.verdict is Verdict.WRONG] == []
    reasons = {o.detail.split(" ")[0] for o in outcomes if o.verdict is Verdict.UNSCORED}
    assert reasons <= {"readings_disagree"}
