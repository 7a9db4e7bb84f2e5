"""What a judge call costs: configured prices per model, else a small built-in table.

The built-in numbers are OpenAI's public list prices in USD per million tokens as last checked by hand; they
go stale. Set ``[judge.prices."MODEL"]`` (``input_per_million``, ``output_per_million``) to override them,
and for self-hosted models (vLLM, Ollama, llama.cpp) whose calls cost nothing per token.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from ragpulse_scorers.settings import PriceSettings

logger = logging.getLogger(__name__)

LIST_PRICES: Mapping[str, PriceSettings] = {
    name: PriceSettings(input_per_million=inp, output_per_million=out)
    for name, inp, out in (
        ("gpt-4o-mini", 0.15, 0.60),
        ("gpt-4o", 2.50, 10.00),
        ("gpt-4.1-nano", 0.10, 0.40),
        ("gpt-4.1-mini", 0.40, 1.60),
        ("gpt-4.1", 2.00, 8.00),
        ("gpt-4-turbo", 10.00, 30.00),
        ("gpt-3.5-turbo", 0.50, 1.50),
        ("gpt-5-nano", 0.05, 0.40),
        ("gpt-5-mini", 0.25, 2.00),
        ("gpt-5", 1.25, 10.00),
        ("o3-mini", 1.10, 4.40),
        ("o4-mini", 1.10, 4.40),
    )
}

_FREE = PriceSettings(input_per_million=0.0, output_per_million=0.0)
_warned_unpriced: set[str] = set()


def known_price(model: str, configured: Mapping[str, PriceSettings]) -> PriceSettings | None:
    """Configured price first, then the list price of the longest known prefix (``gpt-4o-2024-08-06`` is
    ``gpt-4o``); None for a model whose price nobody gave: what it costs is unknown, not $0."""
    if model in configured:
        return configured[model]
    for table in (configured, LIST_PRICES):
        prefixes = [name for name in table if model.startswith(name)]
        if prefixes:
            return table[max(prefixes, key=len)]
    return None


def price_for(model: str, configured: Mapping[str, PriceSettings], *, warn: bool = True) -> PriceSettings:
    """:func:`known_price`, else free for the accounts, with one warning unless ``warn`` is off (a model on
    this machine costs nothing per token), so a budget in dollars then never runs out. What people read says
    "price unknown" for such a model, never $0.00."""
    price = known_price(model, configured)
    if price is not None:
        return price
    if warn and model not in _warned_unpriced:
        _warned_unpriced.add(model)
        logger.warning("no price known for judge model %r: its calls count as free; set judge.prices", model)
    return _FREE


def cost_usd(price: PriceSettings, input_tokens: int, output_tokens: int) -> float:
    return (input_tokens * price.input_per_million + output_tokens * price.output_per_million) / 1_000_000
