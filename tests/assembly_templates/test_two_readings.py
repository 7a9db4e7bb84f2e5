"""Two readings, one verdict: a learnt template reads alone, over the structure rules, only when it is sure
of what it read, and a template that found no slot for the user's words is not."""

from __future__ import annotations

from ragpulse_assembly.learnt.learner import Lookup, TemplateLearner
from ragpulse_assembly.learnt.template import TemplateReading
from ragpulse_assembly.readings import Readers
from ragpulse_assembly.settings import TemplateSettings
from streams import StreamRequest, Verdict, judge, read
from traffic import genai_span

DOCUMENT = "The night train leaves Vienna at 22:10 and reaches Venice at 08:35 the next morning."
PROMPT = (
    "You answer travellers. Rules:\n1. Use the passage.\n2. Be brief.\n\n"
    f"Passage:\n{DOCUMENT}\n\nTraveller asks: When does the night train reach Venice?"
)
QUESTION = "When does the night train reach Venice?"


class _OneReading(TemplateLearner):
    """A learnt template that read the prompt as ``reading``, whatever it is (the policy under test is the
    verdict drawn from the two readings, not the learning)."""

    def __init__(self, reading: TemplateReading) -> None:
        super().__init__(TemplateSettings())
        self.reading = reading

    def lookup(
        self, service: str, place: str, turn: object, recorded_question: str = "", asked: object = ()
    ) -> Lookup:
        return Lookup(self.reading, unlearnt=False)


def _read(question: str) -> tuple[Verdict, str]:
    reading = TemplateReading("v-test", (DOCUMENT,), question, weak=False, regions=(DOCUMENT,))
    request = StreamRequest([("user", PROMPT)], (DOCUMENT,), QUESTION, "At 08:35.")
    (found,) = read([genai_span(request.messages, request.answer)], Readers(_OneReading(reading), rules=True))
    return judge("trains", "genai", request, found).verdict, found.unscorable_detail if found else ""


def test_a_sure_template_reads_over_rules_that_took_its_instructions_for_documents() -> None:
    assert _read(QUESTION)[0] is Verdict.RIGHT


def test_a_template_that_found_no_question_does_not_read_alone_against_the_rules() -> None:
    verdict, why = _read("")

    assert verdict is Verdict.UNSCORED
    assert "learnt template v-test" in why and "structure rules" in why
