"""LLM judges built on ``ragpulse_scorers.llm``: a module per scorer, each with ``build(settings, store)``."""
