"""What the model wrote before, pasted back into the next prompt (a refine chain's earlier answer, a running
summary), is never scored as a document, in any language and with any labels."""

from __future__ import annotations

import random

from drawn import EXAMPLES, drawn_in_a_script, sentence, word
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_assembly.learnt.written_back import closing_cue, written_back
from streams import Stream, StreamRequest, Verdict, run


def _noun(rng: random.Random, script: str) -> str:
    """A word of four letters or more: what the slot's label and the closing cue both name."""
    while len(found := word(rng, script)) < 4:
        pass
    return found


@st.composite
def refine_prompts(draw: st.DrawFn) -> tuple[Stream, tuple[str, ...]]:
    """A refine prompt in any script: instructions, the new documents under a label, the question, and the
    model's earlier answer under a label that names what the prompt's closing cue asks for (before or after
    the documents); each request's earlier answer is its own."""
    rng, script = drawn_in_a_script(draw)
    answer_first = draw(st.booleans())
    noun = _noun(rng, script)
    earlier_label, cue = f"{word(rng, script)} {noun}:", f"{word(rng, script)} {noun}:"
    context_label, asking = f"{word(rng, script)}:", f"{word(rng, script)}:"
    instruction = " ".join(sentence(rng, script) for _ in range(3))
    joiner = draw(st.sampled_from(["\n\n", "\n\n---\n\n", "\n\n=====\n\n"]))
    pool = [f"{sentence(rng, script)} {sentence(rng, script)}" for _ in range(10)]
    requests, earlier_answers = [], []
    for _ in range(24):
        chosen = tuple(rng.sample(pool, rng.randint(1, 4)))
        question = sentence(rng, script)[:-1] + "?"
        earlier = f"{sentence(rng, script)} {sentence(rng, script)}"
        earlier_answers.append(earlier)
        documents = f"{context_label}\n{joiner.join(chosen)}"
        parts = [f"{asking} {question}", f"{earlier_label} {earlier}", documents]
        if not answer_first:
            parts = [documents, f"{asking} {question}", f"{earlier_label} {earlier}"]
        text = f"{instruction}\n" + "\n".join(parts) + f"\n{cue} "
        requests.append(StreamRequest([("user", text)], chosen, question, sentence(rng, script)))
    return Stream(f"refine/{script}/{answer_first}", requests), tuple(earlier_answers)


@EXAMPLES
@given(refine_prompts())
def test_a_refine_prompt_never_scores_its_earlier_answer_as_a_document(
    case: tuple[Stream, tuple[str, ...]],
) -> None:
    stream, earlier = case

    for mode in ("learnt+rules", "learnt-only"):
        outcomes = run([stream], mode, families=("openai-v2-latest",))
        assert [o for o in outcomes if o.verdict is Verdict.WRONG] == [], mode
        assert not any(answer[:40] in o.detail for o in outcomes for answer in earlier), mode
        # Refusing them all would pass the lines above: the documents are read.
        assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) // 2, (mode, outcomes)


def test_a_running_summary_is_no_document_but_a_context_label_is() -> None:
    assert written_back("Current summary:", closing_cue("\n\nNew summary:"))
    assert written_back("Risposta originale:", closing_cue("Nuova risposta: "))
    assert written_back("原始回答：", closing_cue("\n新的回答："))
    assert written_back("We have provided an existing answer:", closing_cue("\nRefined Answer: "))
    # Labels of retrieved text, an instruction line before the documents, short words shared by chance.
    assert not written_back("Context:", closing_cue("\nAnswer:"))
    assert not written_back("已知信息：", closing_cue("\n回答："))
    assert not written_back("Use the context below to answer the question:", closing_cue("Answer:"))
    assert not written_back("Summary of the docs:", closing_cue("Answer of the bot:"))
    assert not written_back("Original answer:", closing_cue("Write your new answer in full sentences."))
    # A forged label or cue as long as a prompt is no label: bounded work, no signal.
    assert not written_back("answer " * 100_000 + ":", closing_cue("answer " * 100_000 + ":"))


@st.composite
def documents_named_by_the_cue(draw: st.DrawFn) -> Stream:
    """Documents under a label whose word the closing cue repeats ("Facts:" ... "Answer from the facts:"),
    before the question, in any script."""
    rng, script = drawn_in_a_script(draw)
    noun = _noun(rng, script)
    asking, cue = f"{word(rng, 'latin')}:", f"{word(rng, script)} {noun}:"
    instruction = " ".join(sentence(rng, script) for _ in range(2))
    pool = [f"{sentence(rng, script)} {sentence(rng, script)}" for _ in range(10)]
    requests = []
    for _ in range(24):
        chosen = tuple(rng.sample(pool, rng.randint(1, 4)))
        question = sentence(rng, script)[:-1] + "?"
        body = "\n\n---\n\n".join(chosen)
        text = f"{instruction}\n{noun}:\n{body}\n\n{asking} {question}\n{cue}"
        requests.append(StreamRequest([("user", text)], chosen, question, "An answer."))
    return Stream(f"named/{script}", requests)


@EXAMPLES
@given(documents_named_by_the_cue())
def test_documents_before_the_question_stay_documents_though_the_cue_names_them(stream: Stream) -> None:
    for mode in ("learnt+rules", "learnt-only"):
        outcomes = run([stream], mode, families=("openai-v2-latest",))

        assert [o for o in outcomes if o.verdict is Verdict.WRONG] == [], mode
        assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) // 2, (mode, outcomes)
