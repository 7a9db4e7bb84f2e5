"""LLM judges built on ``ragpulse_scorers.llm``: one module per scorer, each with ``build(settings, store)``."""
