"""The LLM judge client: any OpenAI-compatible Chat Completions endpoint, retries, limits, budget, cache."""
