"""The lexical judge: sentence-level support from word overlap, numbers, names and negation, with no model."""

from ragpulse_judge.rules import LexicalJudge, LexicalParams

__all__ = ["LexicalJudge", "LexicalParams"]
