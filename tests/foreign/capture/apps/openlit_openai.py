"""The service after ``openlit.init()``, as OpenLIT's quickstart has it (OTLP endpoint from the environment).
Its pricing table would be fetched from the internet: a local empty one keeps the run on loopback."""

from __future__ import annotations

import json
import os
import tempfile

import openlit
from openai import OpenAI
from service import answer, case_arguments, record

if __name__ == "__main__":
    args = case_arguments()
    pricing = os.path.join(tempfile.mkdtemp(), "pricing.json")
    with open(pricing, "w") as file:
        json.dump({"chat": {}, "embeddings": {}, "images": {}, "audio": {}}, file)
    openlit.init(
        application_name="helpdesk",
        environment="production",
        otlp_endpoint=os.environ["OTEL_EXPORTER_OTLP_ENDPOINT"],
        pricing_json=pricing,
        collect_gpu_stats=False,
    )
    reply, articles = answer(OpenAI(), args["question"], args["shape"], args.get("stream", False))
    record(args["question"], [a.text for a in articles], reply)
