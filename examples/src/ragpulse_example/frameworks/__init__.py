"""The same small RAG-Fusion app written with LangChain and with LlamaIndex, on the fake models and
embeddings those libraries ship, so both run offline. Each runs decorated with ragpulse or traced only by
OpenInference's instrumentor (``run(question, tracer_provider=None, instrumentation=...)``); they need the
``[frameworks]`` extra.
"""
