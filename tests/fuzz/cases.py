"""The fuzzing example: everything untrusted that one example sends, and the failing examples kept."""

from __future__ import annotations

from harness import Case
from hypothesis import strategies as st
from strategies import JUDGE_REPLIES, label_files, log_documents, rules, trace_documents

CASES = st.builds(
    Case,
    traces=st.lists(trace_documents(), max_size=3),
    logs=st.lists(log_documents(), max_size=2),
    labels=label_files(),
    rule=rules(),
    judge_reply=JUDGE_REPLIES,
)

FEEDBACK = (
    b'{"resourceSpans": [{"resource": {"attributes": [{"key": "service.name",'
    b' "value": {"stringValue": "svc"}}]},'
    b' "scopeSpans": [{"spans": [{"traceId": "' + b"ab" * 16 + b'", "spanId": "' + b"cd" * 8 + b'",'
    b' "name": "ragpulse.feedback", "startTimeUnixNano": "1", "attributes": ['
    b'{"key": "ragpulse.kind", "value": {"stringValue": "feedback"}},'
    b'{"key": "ragpulse.feedback.trace_id", "value": {"stringValue": "' + b"ef" * 16 + b'"}},'
    b'{"key": "ragpulse.feedback.request_time_us", "value": {"stringValue": "\\u00b2"}},'
    b'{"key": "ragpulse.feedback.score", "value": {"stringValue": "NaN"}}]}]}]}]}'
)
KEPT = [
    # Issue 37's own cases: the superscript feedback span, a rule prone to backtracking, a deep judge reply.
    Case([FEEDBACK], [], b'{"trace_id": "x", "label": "grounded", "score": 42}',
         {"name": "fuzz", "judges": ["lexical"], "match": {"service": {"regex": r"^(\w+-?)+-prod$"}}},
         "[" * 100_000),
    # Found by the fuzzer: a judge reply of 100,000 '[' stalled the tick past 120 s (a decode tried at every
    # bracket); the reply below stalled it on the cut-short-reply repair (a parse of every prefix).
    Case([], [], b"", {"name": "fuzz"}, '{"a":[' + "1," * 50_000 + "x," * 50_000),
    # Found by the fuzzer: a JSON number of more digits than Python converts answered 500 with a traceback.
    Case([b'{"resourceSpans": [], "x": ' + b"9" * 5000 + b"}"], [], b"", {"name": "fuzz"}, "{}"),
]  # fmt: skip
