"""Writes a generated blind wave: each service's requests drawn from its document pool and rendered by its
template, deterministic per service, as ``<dir>/<service>.json`` plus ``index.json`` (what
``bench_templates.py --blind`` reads)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

Messages = list[dict[str, str]]
# (service, source, layout notes, documents (.text, .question), render(documents, question, rng))
Service = tuple[str, str, str, Sequence[Any], Callable[..., Messages]]


def write_wave(
    name: str,
    directory: Path,
    services: Sequence[Service],
    *,
    seed: int,
    requests: int,
    answer: Callable[[Any, random.Random], tuple[str, bool]],
    as_sent: Callable[[str, Messages], str] = lambda text, messages: text,
    most_others: int = 3,
) -> None:
    """Each request: one target document the question was written for, 0 to ``most_others`` others from the
    pool (0-3 unless a wave asks for longer contexts), shuffled;
    the answer from ``answer`` (with whether it holds a planted claim); the documents as the prompt holds
    them (``as_sent``)."""
    directory.mkdir(exist_ok=True)
    index = []
    for number, (service, source, notes, pool, render) in enumerate(services):
        rng = random.Random(seed + number)
        rows = []
        for _ in range(requests):
            target = rng.choice(pool)
            most = min(most_others, len(pool) - 1)
            others = rng.sample([d for d in pool if d is not target], rng.randint(0, most))
            docs = [target, *others]
            rng.shuffle(docs)
            text, fabricated = answer(target, rng)
            messages = render(docs, target.question, rng)
            rows.append({
                "messages": messages,
                "documents": [as_sent(d.text, messages) for d in docs],
                "question": target.question,
                "answer": text,
                "hallucinated": fabricated,
            })  # fmt: skip
        data = {"service": service, "template": render.__name__, "source": source, "layout_notes": notes,
                "requests": rows}  # fmt: skip
        (directory / f"{service}.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        index.append({"service": service, "file": f"{service}.json", "requests": requests})
    (directory / "index.json").write_text(json.dumps({"set": name, "services": index}, indent=1) + "\n")


def write_long_wave(
    name: str,
    directory: Path,
    services: Sequence[Service],
    *,
    seed: int,
    answer: Callable[[Any, random.Random], tuple[str, bool]],
    as_sent: Callable[[str, Messages], str],
) -> None:
    """The later waves' shape (24 requests a service, up to eight documents each), written then verified."""
    write_wave(
        name, directory, services, seed=seed, requests=24, answer=answer, as_sent=as_sent, most_others=7
    )
    verify_wave(directory)


def prompt_text(messages: Messages) -> str:
    """Everything the model was sent: message contents and tool-call arguments."""
    parts = []
    for message in messages:
        parts.append(str(message.get("content") or ""))
        calls: Any = message.get("tool_calls", [])
        parts += [call["function"]["arguments"] for call in calls]
    return "\n".join(parts)


def spellings(text: str) -> list[str]:
    """The ways a template may write a document's text: as is, JSON-escaped (non-ASCII kept or escaped), or
    twice JSON-escaped (a JSON string inside a JSON string)."""
    once = json.dumps(text, ensure_ascii=False)[1:-1]
    return [text, once, json.dumps(text)[1:-1], json.dumps(once, ensure_ascii=False)[1:-1]]


def verify_wave(directory: Path) -> None:
    """Every recorded document and question is in its request's prompt in one of its ``spellings``, and no
    document is recorded twice: a 'wrong' reading is then the reader's, not the wave's."""
    for path in directory.glob("*.json"):
        if path.name == "index.json":
            continue
        for row in json.loads(path.read_text())["requests"]:
            prompt = prompt_text(row["messages"])
            assert len(set(row["documents"])) == len(row["documents"]), path.name
            for text in [*row["documents"], row["question"]]:
                assert any(s in prompt for s in spellings(text)), (path.name, text[:40])
