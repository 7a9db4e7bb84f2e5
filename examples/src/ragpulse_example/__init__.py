"""An instrumented RAG-Fusion service over Python's own reference documentation: the demo's traffic.

The corpus is ``pydoc_data.topics`` (shipped with every Python), so the service runs offline everywhere.
With ``OPENAI_BASE_URL`` or ``OPENAI_API_KEY`` set it asks that model for query variations and answers;
otherwise it uses deterministic stand-ins that say so (model name ``extractive-standin``).
The traffic generator is :func:`ragpulse_example.traffic.run_traffic`; ``python -m ragpulse_example`` runs it.
"""
