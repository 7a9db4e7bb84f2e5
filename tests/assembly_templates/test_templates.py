"""Every template family of the corpus (frameworks' and products' default RAG prompts, in their own words)
gives the documents and the question exactly, under OpenInference and the current GenAI conventions, and
the lexical judge's verdict on faithful and fabricated answers in every style, citation markers included,
holds."""

from __future__ import annotations

import pytest
from held_out import HELD_OUT, HELD_OUT_LAST, HELD_OUT_LATE
from held_out_lead import HELD_OUT_LEAD
from templates import TEMPLATES, Template
from traffic import FAMILIES, STYLES, Outcome, run

ALL = [*TEMPLATES, *HELD_OUT, *HELD_OUT_LATE, *HELD_OUT_LAST, *HELD_OUT_LEAD]


def test_the_corpus_holds_thirty_templates_or_more_each_with_its_source() -> None:
    assert len(ALL) >= 30
    assert len({template.name for template in ALL}) == len(ALL)
    assert all(template.source.strip() for template in ALL)


@pytest.mark.parametrize("template", ALL, ids=lambda t: f"{t.family}:{t.name}")
def test_a_template_gives_its_documents_and_question_exactly_and_right_verdicts(template: Template) -> None:
    results = run([template])

    assert len(results) == len(FAMILIES) * len(STYLES) * 2
    # Citation markers in answers turn no verdict either (the judges read answers as prose, item 4).
    assert [r for r in results if r.outcome is not Outcome.CORRECT] == []


def test_through_the_real_instrumentations_every_template_comes_out_the_same() -> None:
    """The spans the tests build match what openai-v2 (current conventions) and OpenInference emit: the same
    requests sent through the real instrumentations to a loopback server give the same outcomes."""
    built = run(ALL)
    live = run(ALL, live=True)

    assert [(r.template, r.family, r.style, r.outcome) for r in live] == [
        (r.template, r.family, r.style, r.outcome) for r in built
    ]
