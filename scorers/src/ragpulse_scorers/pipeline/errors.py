"""Exceptions a scorer raises to tell the pipeline something other than "this request failed"."""

from __future__ import annotations


class OverBudget(Exception):
    """The scorer's spending budget is used up: the request is logged as over budget, not failed.

    The pipeline stops judging for that scorer until the next tick; the request stays a candidate and is
    scored once budget is available again. LLM clients subclass this for their own budget error.
    """


class JudgeUnreachable(Exception):
    """The judge's endpoint could not be reached: connection failures or timeouts, after the client's own
    retries. A few in a row open the scorer's circuit (see :mod:`ragpulse_scorers.pipeline.circuit`); LLM
    clients subclass this for their connection and timeout errors.
    """
