"""Two loops of the template the learnt reader read wrong on every request of blind wave J: documents grouped
under a header line per file, several fragments in each group (a loop inside a loop), and documents each
opening with a label ("Content: ") after a numbered header line the skeleton ends with ("Result 1:\\n")
before the first one. The learnt template reads every document exactly, with no group header and no label,
or refuses; never a wrong context. The question quoted again after the results, in the documents' message
beside a labelled question, is one question, not the documents' tail. (On main before these changes, the
grouped draws and the echoed question beside a labelled one read wrong.)"""

from __future__ import annotations

import random

from drawn import SCRIPTS, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import BLIND, Stream, StreamRequest, Verdict, blind_streams, run
from test_document_headers import _verdicts

GROUP_LINES = ("## ", "File: ", "# 文件：", "Source file — ", "=== ")
"""What the template writes before each group's file name."""
FRAGMENT_LINES = ("### Lines {a}-{b}\n", "[chunk {a}]\n", "--- excerpt (p. {a}) ---\n", "片段 {a}:\n")
"""What the template writes before each fragment of a file."""


def _documents(rng: random.Random, script: str, count: int) -> list[str]:
    return ["\n".join(sentence(rng, script) for _ in range(rng.randint(1, 3))) for _ in range(count)]


@st.composite
def grouped_traffic(draw: st.DrawFn) -> Stream:
    return grouped_stream(
        random.Random(draw(st.integers(0, 2**32 - 1))),
        draw(st.sampled_from(sorted(SCRIPTS))),
        draw(st.sampled_from(GROUP_LINES)),
        draw(st.sampled_from(FRAGMENT_LINES)),
        draw(st.sampled_from(("\n", "\n\n"))),
    )


def grouped_stream(
    rng: random.Random, script: str, group_line: str, fragment_line: str, blank: str
) -> Stream:
    """20 requests of one to four fragments of twelve from four files, grouped under each file's line."""
    instruction, label = sentence(rng, script), word(rng, script)
    files = [f"{word(rng, 'latin')}/{word(rng, 'latin')}.{rng.choice(('md', 'py', 'pdf'))}" for _ in range(4)]
    pool = [(files[n % 4], rng.randint(1, 300), text) for n, text in enumerate(_documents(rng, script, 12))]
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(1, 4))
        order = list(dict.fromkeys(source for source, _, _ in chosen))
        chosen.sort(key=lambda item: order.index(item[0]))
        groups = []
        for source in order:
            fragments = "\n\n".join(
                fragment_line.format(a=start, b=start + 6) + text
                for file, start, text in chosen
                if file == source
            )
            groups.append(f"{group_line}{source}{blank}{fragments}")
        question = sentence(rng, script)[:-1] + "?"
        body = "\n\n".join(groups)
        text = f"{instruction}\n\n{body}\n\n{label}: {question}"
        requests.append(
            StreamRequest(
                [("system", instruction), ("user", text)],
                tuple(d for _, _, d in chosen),
                question,
                "An answer.",
            )
        )
    return Stream(f"{script}/{group_line!r}/{fragment_line!r}/{blank!r}", requests)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grouped_traffic())
def test_fragments_grouped_under_their_files_heading_are_read_without_it_or_refused(stream: Stream) -> None:
    alone = _verdicts(stream, rules=False)

    assert [detail for verdict, detail in alone if verdict is Verdict.WRONG] == []
    assert sum(verdict is Verdict.RIGHT for verdict, _ in alone) >= len(alone) // 2, alone


HEADINGS = ("{w} — «{v}» (v2)", "【{w}】{v}（2025 版）", "{w}: {v} (2025/26)", "《{w}》—— {v}")
"""A document's own first line: a heading with marks, brackets or CJK text, then a blank line. (A heading
that asks, "[w] v?! — v", is read wrong after "Content: ", on main as here: left, see docs/templates.md.)"""


@st.composite
def labelled_results(draw: st.DrawFn) -> Stream:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    script = draw(st.sampled_from(sorted(SCRIPTS)))
    counter, content, meta = (word(rng, "latin").capitalize() for _ in range(3))
    headed = draw(st.booleans())
    in_tool = draw(st.booleans())
    echoed = in_tool or draw(st.booleans())
    mark = draw(st.sampled_from(("?", "")))
    pool = []
    for n, text in enumerate(_documents(rng, script, 10)):
        heading = rng.choice(HEADINGS).format(w=word(rng, script), v=word(rng, script))
        pool.append((f"doc-{n}", f"{heading}\n\n{text}" if headed else text))
    requests = []
    for _ in range(20):
        chosen = rng.sample(pool, rng.randint(1, 4))
        results = "".join(
            f"{counter} {n}:\n{content}: {text}\n{meta}: {{'id': '{key}'}}\n"
            for n, (key, text) in enumerate(chosen, 1)
        )
        question = sentence(rng, script)[:-1] + mark
        tool = f"Found {len(chosen)} chunks:\nBEGIN of results.\n{results}END of results.\n"
        if echoed:  # as Llama Stack's knowledge_search does after its results
            tool += f'The results answer the query: "{question}". Use them only for it.\n'
        messages = (
            [("system", "Use the search tool."), ("user", question), ("tool_call", "search"), ("tool", tool)]
            if in_tool
            else [("system", "Use the results."), ("user", f"{tool}\nQuestion: {question}")]
        )
        requests.append(StreamRequest(messages, tuple(text for _, text in chosen), question, "An answer."))
    name = f"{script}/{counter}/{content}/headed={headed}/tool={in_tool}/echoed={echoed}/mark={mark!r}"
    return Stream(name, requests)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(labelled_results())
def test_the_first_document_loses_its_label_as_the_others_do(stream: Stream) -> None:
    alone = _verdicts(stream, rules=False)

    assert [detail for verdict, detail in alone if verdict is Verdict.WRONG] == []
    assert sum(verdict is Verdict.RIGHT for verdict, _ in alone) >= len(alone) * 3 // 4, alone


def test_blind_wave_j_is_read_on_the_right_context() -> None:
    """Blind wave J's services under both instrumentations with ragpulse's default readers."""
    outcomes = run(blind_streams(BLIND / "wave_j"), "learnt+rules")

    assert [o for o in outcomes if o.verdict is Verdict.WRONG] == []
    assert sum(o.verdict is Verdict.RIGHT for o in outcomes) >= len(outcomes) * 95 // 100
