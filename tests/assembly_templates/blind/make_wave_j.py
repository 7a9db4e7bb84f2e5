# ruff: noqa: E501
"""Blind wave J: seven services after products and frameworks no earlier wave nor the corpus holds, in the
layout classes issue 36's trials still read unscored or wrong: search results as JSON in a tool message beside
a field that repeats or paraphrases the question (Exa's search response, SerpAPI's Google response),
fragments grouped under a per-file heading (a nested loop), one document per line with nothing between them,
documents whose own first line is a heading with marks, brackets or Chinese text after a label line and
before a blank line (Llama Stack's knowledge_search tool result, a QAnything-style reference list), and a
template edited in a deploy half-way through the stream. Written before any change to the reader and
measured once with main's readers.

    python tests/assembly_templates/blind/make_wave_j.py   # writes wave_j/*.json (deterministic)
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

from make_wave_e import EN, ES, WEB, Doc, _docs, _first_sentence
from wave_writer import write_wave

HERE = Path(__file__).resolve().parent / "wave_j"
REQUESTS = 24

Messages = list[dict[str, str]]

# Chunks of a few documentation files: several fragments of one file come back in one request.
DEV = _docs([
    ("docs/deploy.md", "12-19", "",
     "Deployments run from the main branch only. A deploy starts when a release tag is pushed.\nRollbacks reuse the previous image and take about two minutes.",
     "how long does a rollback take"),
    ("docs/deploy.md", "40-44", "",
     "Staging is rebuilt every night at 02:00 UTC from the latest main.",
     "when is staging rebuilt"),
    ("docs/deploy.md", "71-78", "",
     "Secrets are read from Vault at start-up; a changed secret needs a restart of the service.",
     "do I need to restart after changing a secret"),
    ("docs/cli.md", "3-9", "",
     "Install the CLI with pipx install relayctl. It needs Python 3.10 or newer.",
     "how do I install the cli"),
    ("docs/cli.md", "55-61", "",
     "relayctl logs --follow streams a service's logs; add --since 1h to start an hour back.",
     "how do I stream the logs"),
    ("docs/cli.md", "88-90", "",
     "The --dry-run flag prints the plan and changes nothing.\nIt is on by default in CI.",
     "what does the dry run flag do"),
    ("docs/oncall.md", "1-6", "",
     "The on-call rotation changes every Monday at 10:00 local time.",
     "when does the on-call rotation change"),
    ("docs/oncall.md", "20-27", "",
     "A page that is not acknowledged within 15 minutes escalates to the secondary.",
     "when does a page escalate"),
    ("docs/limits.md", "8-12", "",
     "Each project may run at most 40 services and 400 GB of volumes.\nLarger quotas are requested in the #platform channel.",
     "how many services can a project run"),
    ("docs/limits.md", "30-33", "",
     "Builds time out after 45 minutes.",
     "how long can a build take"),
])  # fmt: skip

# Knowledge-base articles whose own text opens with a heading (marks, brackets, version), then a blank line.
HEADED_EN = _docs([
    ("kb-101", "", "",
     "Travel & Expenses — «Hotels» (v2)\n\nHotels are booked through the travel portal up to 190 euros a night.",
     "what is the hotel limit"),
    ("kb-102", "", "",
     "[Security] Lost laptop?! — first steps\n\nReport a lost laptop to the service desk within one hour; it is wiped remotely.",
     "what do I do if I lose my laptop"),
    ("kb-103", "", "",
     "Payroll: cut-off dates (2025/26)\n\nChanges to bank details must reach payroll by the 10th to count for that month.",
     "when must bank detail changes reach payroll"),
    ("kb-104", "", "",
     "«Bring your own device» — rules #3\n\nPrivate phones may read mail only with the company profile installed.\nThe profile can be removed at any time.",
     "can I read mail on my own phone"),
    ("kb-105", "", "",
     "Parking (HQ) — permits & fees\n\nA parking permit costs 35 euros a month and is deducted from salary.",
     "how much is a parking permit"),
    ("kb-106", "", "",
     "Sick leave ~ how to report it [HR-7]\n\nCall your manager before 9:00 on the first day; a doctor's note is needed from day four.",
     "when do I need a doctor's note"),
    ("kb-107", "", "",
     "Training budget: €1,500 / year (per person)\n\nUnused training budget does not carry over to the next year.",
     "does unused training budget carry over"),
    ("kb-108", "", "",
     "Office hours ⏰ — Berlin & Lisbon\n\nBoth offices are open from 7:00 to 20:00 on weekdays.",
     "when are the offices open"),
])  # fmt: skip

HEADED_ZH = _docs([
    ("制度-01", "", "",
     "【差旅】住宿标准（2025 版）\n\n一线城市住宿每晚不超过600元，其他城市不超过400元。",
     "一线城市住宿标准是多少"),
    ("制度-02", "", "",
     "《考勤管理办法》第三章：迟到\n\n每月迟到三次以上的，扣除当月全勤奖。",
     "迟到几次会扣全勤奖"),
    ("制度-03", "", "",
     "【福利】体检安排 — 年度\n\n公司每年安排一次免费体检，时间为每年九月。\n家属可自费参加。",
     "公司体检在什么时候"),
    ("制度-04", "", "",
     "IT 支持（VPN / 远程办公）\n\n远程办公需先在门户申请VPN账号，审批一般需要两个工作日。",
     "申请VPN要多久"),
    ("制度-05", "", "",
     "【报销】发票要求？\n\n报销须提供增值税电子普通发票，抬头为公司全称。",
     "报销需要什么发票"),
    ("制度-06", "", "",
     "加班与调休（试行）\n\n工作日加班可以按1:1调休，调休须在三个月内使用。",
     "调休要在多久内用完"),
    ("制度-07", "", "",
     "《信息安全守则》—— 密码\n\n密码至少12位，并且每180天必须更换一次。",
     "密码多久换一次"),
])  # fmt: skip


def _paraphrase(question: str, rng: random.Random) -> str:
    """What Exa's autoprompt writes for a query: the question turned into a description of a page."""
    lead = rng.choice(
        ["Here is a page about", "Here is a helpful article on", "An in-depth resource explaining"]
    )
    return f"{lead} {question}:"


def exa_search_tool(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """An OpenAI Agents SDK agent with an exa_search function tool: the tool message is Exa's /search
    response as JSON (autoprompt string, then results with title, url, published date and text)."""
    response = {
        "requestId": f"{rng.randrange(16**16):016x}",
        "autopromptString": _paraphrase(question, rng),
        "resolvedSearchType": "neural",
        "results": [
            {
                "id": d.url,
                "title": d.title,
                "url": d.url,
                "publishedDate": f"2025-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T00:00:00.000Z",
                "author": None,
                "text": d.text,
            }
            for d in docs
        ],
    }
    return [
        {
            "role": "system",
            "content": "You are a research assistant. Search with exa_search, then answer from the results only and cite them as [n].",
        },
        {"role": "user", "content": question},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": f"call_{rng.randrange(16**8):08x}",
                    "type": "function",
                    "function": {"name": "exa_search", "arguments": json.dumps({"query": question})},
                }
            ],
        },  # type: ignore[dict-item]
        {"role": "tool", "content": json.dumps(response, ensure_ascii=False)},
    ]


def serpapi_google_tool(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A function-calling agent over SerpAPI's Google engine: the tool message is the JSON response with the
    query echoed in search_parameters and the organic results (position, title, link, snippet)."""
    response = {
        "search_metadata": {"status": "Success", "total_time_taken": round(rng.uniform(0.6, 2.4), 2)},
        "search_parameters": {"engine": "google", "q": question, "hl": "es", "gl": "es"},
        "organic_results": [
            {"position": n, "title": d.title, "link": d.url, "source": d.source, "snippet": d.text}
            for n, d in enumerate(docs, 1)
        ],
    }
    return [
        {
            "role": "system",
            "content": "Eres un asistente de viajes. Usa la herramienta google_search y responde solo con sus resultados.",
        },
        {"role": "user", "content": question},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": f"call_{rng.randrange(16**8):08x}",
                    "type": "function",
                    "function": {
                        "name": "google_search",
                        "arguments": json.dumps({"q": question}, ensure_ascii=False),
                    },
                }
            ],
        },  # type: ignore[dict-item]
        {"role": "tool", "content": json.dumps(response, ensure_ascii=False, indent=rng.choice([None, 2]))},
    ]


def fragments_by_file(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A docs copilot in the way of IDE assistants' retrieval context: one '## path' heading per file, its
    fragments under it, each after a '### Lines a-b' heading (a loop of files, a loop of fragments in each)."""
    order = list(dict.fromkeys(d.source for d in docs))
    docs.sort(key=lambda d: order.index(d.source))
    files = []
    for source in order:
        fragments = "\n\n".join(f"### Lines {d.title}\n{d.text}" for d in docs if d.source == source)
        files.append(f"## {source}\n\n{fragments}")
    context = "\n\n".join(files)
    return [
        {
            "role": "system",
            "content": "You are the platform team's documentation assistant. Answer from the repository excerpts the user gives you; name the file you used.",
        },
        {"role": "user", "content": f"Repository excerpts:\n\n{context}\n\nQuestion: {question}"},
    ]


def one_per_line(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Ollama's RAG examples: the retrieved chunks joined by a single line break into the system prompt."""
    context = "\n".join(d.text.replace("\n", " ") for d in docs)
    return [
        {
            "role": "system",
            "content": f"Eres un asistente que responde preguntas sobre la aerolínea. Usa solo este contexto; si no está la respuesta, dilo.\nContexto:\n{context}",
        },
        {"role": "user", "content": question},
    ]


def llama_stack_knowledge_search(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Llama Stack agent with the builtin::rag knowledge_search tool: the tool message lists each chunk as
    'Result n:' / 'Content: …' / 'Metadata: …' and repeats the user's query after the results."""
    results = "".join(
        f"Result {n}:\nContent: {d.text}\nMetadata: {{'document_id': '{d.source}'}}\n"
        for n, d in enumerate(docs, 1)
    )
    tool = (
        f"knowledge_search tool found {len(docs)} chunks:\nBEGIN of knowledge_search tool results.\n{results}"
        f"END of knowledge_search tool results.\n"
        f'The above results were retrieved to help answer the user\'s query: "{question}". Use them as supporting information only in answering this query.\n'
    )
    return [
        {
            "role": "system",
            "content": "You are a helpful HR assistant. Use the knowledge_search tool to answer questions about company policies.",
        },
        {"role": "user", "content": question},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": f"call_{rng.randrange(16**8):08x}",
                    "type": "function",
                    "function": {"name": "knowledge_search", "arguments": json.dumps({"query": question})},
                }
            ],
        },  # type: ignore[dict-item]
        {"role": "tool", "content": tool},
    ]


def reference_list_zh(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A QAnything-style Chinese prompt: each chunk in <reference>[n] … </reference>, the question between
    '---' rules after the references."""
    references = "\n".join(f"<reference>[{n}]\n{d.text}\n</reference>" for n, d in enumerate(docs, 1))
    return [
        {"role": "system", "content": "你是一个乐于助人的企业知识库助手。"},
        {
            "role": "user",
            "content": f"参考信息：\n{references}\n---\n我的问题或指令：\n{question}\n---\n请根据上述参考信息回答我的问题或回复我的指令。前面的参考信息可能有用，也可能没用，你需要从我给出的参考信息中选出与我的问题最相关的那些，来为你的回答提供依据。",
        },
    ]


def _deployed() -> object:
    calls = itertools.count()

    def kb_agent_deploy(docs: list[Doc], question: str, rng: random.Random) -> Messages:
        """A no-code knowledge-base agent (Botpress-like) whose prompt is edited in a deploy half-way through
        the stream: new instructions, a renamed label and a rule between the excerpts."""
        if next(calls) % REQUESTS < REQUESTS // 2:
            system = (
                "You are Aria, the assistant of Northwind's people team. Answer only from the knowledge base below.\n\nKnowledge base:\n"
                + "\n\n".join(d.text for d in docs)
            )
        else:
            system = (
                "You are Aria, Northwind's people-team assistant. Answer only from the knowledge base excerpts below. If they do not cover the question, say you don't know and suggest contacting HR.\n\n"
                "Knowledge base excerpts:\n" + "\n\n---\n\n".join(d.text for d in docs)
            )
        return [{"role": "system", "content": system}, {"role": "user", "content": question}]

    return kb_agent_deploy


def _answer(target: Doc, rng: random.Random) -> tuple[str, bool]:
    """Answers as models write them: plain, cited, markdown or with a preamble; 40% with a fabricated claim."""
    first = _first_sentence(target.text.split("\n\n")[-1])
    chinese = "。" in first
    style = rng.choice(["plain", "cited", "markdown", "preamble"])
    if style == "cited":
        first = f"{first} [{rng.randint(1, 3)}]"
    elif style == "markdown":
        first = f"**{first}**" if chinese else f"- **Answer:** {first}"
    elif style == "preamble":
        first = ("根据参考信息，" if chinese else "Based on the provided documents, ") + first
    if rng.random() < 0.4:
        return first + (
            "此规定同样适用于外包人员。" if chinese else " This also applies to contractors and interns."
        ), True
    return first, False


def _as_sent(text: str, messages: Messages) -> str:
    """The document as the retriever gave it: flattened where the template writes one line per document."""
    prompt = "\n".join(m["content"] for m in messages)
    if text in prompt or json.dumps(text, ensure_ascii=False)[1:-1] in prompt:
        return text
    if text.replace("\n", " ") in prompt:
        return text.replace("\n", " ")
    raise ValueError(f"document not in its prompt: {text[:40]!r}")


SERVICES = [
    ("exa-research-agent", "OpenAI Agents SDK agent with an Exa search function tool (Exa /search response)", "JSON tool message: autopromptString paraphrasing the question, results with title/url/publishedDate/text", WEB, exa_search_tool),
    ("serpapi-viajes", "function-calling agent over SerpAPI's Google engine (Spanish)", "JSON tool message: search_parameters.q repeats the question, organic_results with title/link/snippet, indented or not", ES, serpapi_google_tool),
    ("repo-fragments", "IDE-style docs copilot, retrieval context grouped by file", "'## path' per file, '### Lines a-b' per fragment: a nested loop", DEV, fragments_by_file),
    ("contexto-por-linea", "Ollama RAG example, chunks joined by a single line break (Spanish)", "one document per line, nothing between them, in the system message", ES, one_per_line),
    ("llama-stack-rag", "Llama Stack agent with the builtin::rag knowledge_search tool", "'Result n:' / 'Content: {heading}\\n\\n{body}' / 'Metadata:' in a tool message, the query repeated after the results", HEADED_EN, llama_stack_knowledge_search),
    ("cankao-xinxi-zh", "QAnything-style Chinese reference list", "'<reference>[n]' line, then a chunk whose first line is a bracketed Chinese heading and a blank line", HEADED_ZH, reference_list_zh),
    ("kb-agent-deploy", "no-code knowledge-base agent whose prompt changes in a deploy half-way", "v1 'Knowledge base:' blank-line joined; v2 new instructions, 'Knowledge base excerpts:', '---' between", EN, _deployed()),
]  # fmt: skip


def build() -> None:
    write_wave("wave_j", HERE, SERVICES, seed=9700, requests=REQUESTS, answer=_answer, as_sent=_as_sent)  # type: ignore[arg-type]


if __name__ == "__main__":
    build()
