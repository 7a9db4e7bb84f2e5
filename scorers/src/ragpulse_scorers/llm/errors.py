"""Why a judgment could not be had. Every error is a :class:`JudgeError`, so a scorer can catch one type."""

from __future__ import annotations

from ragpulse_scorers.pipeline.errors import JudgeUnreachable, OverBudget
from ragpulse_scorers.scorer import NotApplicable


class JudgeError(Exception):
    """The judge gave no usable verdict; the request's score becomes an Error row."""


class JudgeTimeout(JudgeError, JudgeUnreachable):
    """Every attempt timed out."""


class JudgeUnavailable(JudgeError):
    """The endpoint kept failing (429, 5xx, connection errors) until retries ran out, or refused the call."""

    def __init__(self, message: str, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


class JudgeConnectionFailed(JudgeUnavailable, JudgeUnreachable):
    """Every attempt failed to connect (refused, reset, DNS): the endpoint is down or unreachable."""


class JudgeOutputInvalid(JudgeError):
    """The answer did not parse or validate, even after the repair rounds; ``reply`` is the last one."""

    def __init__(self, message: str, reply: str = "") -> None:
        super().__init__(message)
        self.reply = reply


class JudgeRejected(JudgeError, ValueError):
    """A verdict names things that were not in the input (sentence keys, sub-questions, chunk ids).

    Raised by a ``validate`` callback; the client treats it like unparseable output.
    """


class SteeringInData(JudgeError, NotApplicable):
    """The request's text speaks to the judge (an instruction to grade, the judge's own answer fields): a
    verdict could be the text's rather than the judge's, so none is asked for. The request is skipped with
    this reason, not scored."""


class PromptTooLarge(JudgeError, NotApplicable):
    """The request's text makes a prompt over ``judge.max_prompt_chars``: not sent, the request skipped with
    this reason."""


class BudgetExceeded(JudgeError, OverBudget):
    """Today's judge budget is spent; no request was sent. The scheduler logs the request as over budget."""
