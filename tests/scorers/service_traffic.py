"""Traffic from one instrumented service over real OTLP/HTTP, for pages that must keep services apart.

    python service_traffic.py SERVICE ENDPOINT A:30:3,B:30:15,-:20:10

sends, for each ``variant:requests:hallucinated`` (``-``: no variant label), that many answers to the
collector at ENDPOINT, the first ``hallucinated`` of them with a sentence the context does not back.
"""

from __future__ import annotations

import sys

import ragpulse

CHUNK = "Refunds reach the original card within five working days of the return being received."
PLANTED = "Every refund also earns 300 loyalty points under the 2019 Platinum scheme in Lisbon."


@ragpulse.retrieve
def search(query: str) -> list[dict[str, object]]:
    return [{"id": "kb-7", "text": CHUNK, "score": 0.9}]


@ragpulse.generate(model="stand-in")
def write(question: str, chunks: list[str], planted: bool) -> str:
    return f"{chunks[0]} {PLANTED}" if planted else chunks[0]


def send(variant: str | None, requests: int, hallucinated: int) -> None:
    @ragpulse.rag(pipeline="qa", variant=variant)
    def answer(question: str, planted: bool) -> str:
        chunks = [str(chunk["text"]) for chunk in search(question)]
        return write(question, chunks, planted)

    for index in range(requests):
        answer(f"How long does refund {index} take?", index < hallucinated)


def main(service: str, endpoint: str, plan: str) -> None:
    # Batched, as a service exports by default: one synchronous export per span made each request wait for
    # the collector's write (over a minute for 110 requests on a loaded machine); shutdown flushes them all.
    provider = ragpulse.configure(service_name=service, endpoint=endpoint)
    for part in plan.split(","):
        variant, requests, hallucinated = part.split(":")
        send(None if variant == "-" else variant, int(requests), int(hallucinated))
    if provider is not None:
        provider.shutdown()


if __name__ == "__main__":
    main(*sys.argv[1:4])
