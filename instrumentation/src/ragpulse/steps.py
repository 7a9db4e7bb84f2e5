"""What each decorator records: the root request and the RAG-Fusion steps."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from opentelemetry.util.types import AttributeValue

from ragpulse import semconv
from ragpulse.arguments import MISSING, ArgumentLocator, accepts_keyword, callable_name, first_of_type
from ragpulse.calls import Attributes, Call, StepRecorder
from ragpulse.chunks import Chunk, RankingEntry, ranking_entries, to_chunk
from ragpulse.guarding import Guard, judge_answer, record_verdict
from ragpulse.inputs import context_in, first_context, first_query, query_text
from ragpulse.internal import report_internal_error
from ragpulse.request import RequestState, Retrieval
from ragpulse.results import answer_text, response_model, stream_usage_attributes, usage_attributes

logger = logging.getLogger("ragpulse")

QUERY_INDEX_ARGUMENT = "query_index"
"""A retrieval's keyword for its position among the request's queries; consumed by the decorator when the
decorated function does not take it."""

FLAT_DOCUMENT_LIMIT = 32
"""Documents flattened into per-document attributes; the SDK keeps 128 attributes per span and drops the
oldest beyond, so long rankings are listed in full only in the JSON attributes."""

_RETRIEVAL_ID = tuple(semconv.retrieval_document(i, "id") for i in range(FLAT_DOCUMENT_LIMIT))
_RETRIEVAL_SCORE = tuple(semconv.retrieval_document(i, "score") for i in range(FLAT_DOCUMENT_LIMIT))
_RETRIEVAL_CONTENT = tuple(semconv.retrieval_document(i, "content") for i in range(FLAT_DOCUMENT_LIMIT))
_RERANKED_ID = tuple(semconv.reranker_output_document(i, "id") for i in range(FLAT_DOCUMENT_LIMIT))
_RERANKED_SCORE = tuple(semconv.reranker_output_document(i, "score") for i in range(FLAT_DOCUMENT_LIMIT))


# One encoder for every attribute: json.dumps with options builds a new JSONEncoder on each call. The values
# are lists and dicts this module builds from strings and numbers, never a container holding itself, so the
# circular-reference check (a dict entry per list and dict, a quarter of a ranking's encoding) is left out;
# a cycle in a user's Chunk field still fails the attribute (RecursionError instead of ValueError).
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode


def to_json(value: Any) -> str:
    return _ENCODE(value)


def ranked_chunks(items: Any, site: str) -> list[tuple[int, Chunk]]:
    """``(rank, chunk)`` for each item that normalizes; one that does not is counted and left out."""
    if isinstance(items, str):
        items = [items]
    elif not isinstance(items, list | tuple):
        logger.debug("ragpulse: %s got %s, not a list of chunks", site, type(items).__name__)
        return []
    ranked: list[tuple[int, Chunk]] = []
    for position, item in enumerate(items):
        try:
            ranked.append((position + 1, to_chunk(item, position)))
        except Exception:
            report_internal_error(f"{site} chunk")
    return ranked


def ranking(items: Any, site: str) -> list[RankingEntry]:
    """``(rank, id, score)`` for each item of a ranking, as :func:`ranked_chunks` reads them, without building
    the chunks when only their ids and scores are recorded."""
    if isinstance(items, str):
        items = [items]
    elif not isinstance(items, list | tuple):
        logger.debug("ragpulse: %s got %s, not a list of chunks", site, type(items).__name__)
        return []
    return ranking_entries(items, lambda: report_internal_error(f"{site} chunk"))


def _put(attributes: Attributes, name: str, value: AttributeValue | None) -> None:
    if value is not None:
        attributes[name] = value


class RagRecorder(StepRecorder):
    starts_request = True
    joins_text = True

    def __init__(
        self,
        function: Callable[..., Any],
        *,
        pipeline: str | None,
        variant: str | None,
        question_arg: str | None,
        name: str | None,
        guard: Guard | None,
    ) -> None:
        self.guard = guard
        self.pipeline = pipeline or callable_name(function)
        self.variant = variant
        self.span_name = name or f"{semconv.SPAN_RAG_PREFIX} {self.pipeline}"
        self.question = ArgumentLocator(function, (question_arg,)) if question_arg else None

    def begin(self, call: Call, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Attributes:
        attributes: Attributes = {
            semconv.SPAN_KIND: semconv.SpanKind.CHAIN,
            semconv.KIND: semconv.KIND_RAG,
            semconv.PIPELINE: self.pipeline,
        }
        _put(attributes, semconv.VARIANT, self.variant)
        if self.question is None:
            question = first_query(args, kwargs)
        else:
            question = query_text(self.question.find(args, kwargs))
        if question is not None:
            if call.state is not None:
                call.state.question = question
            _put(attributes, semconv.INPUT_VALUE, call.texts.content(semconv.INPUT_VALUE, question))
        call.data = first_context(args, kwargs)
        return attributes

    def end(self, call: Call, result: Any) -> Attributes:
        state = call.state
        if state is not None and state.context is None:
            # No @generate step reported what the model saw: a returned LlamaIndex Response's source_nodes,
            # a returned or given chain dict's {"context": ...} is the context.
            context = _context_of(result if call.source is None else call.source)
            if context is None:
                context = call.data
            if context is not None:
                state.context = ranked_chunks(context, self.span_name)
        attributes = self.end_failed(call)
        answer = answer_text(result)
        if answer is not None:
            _put(attributes, semconv.OUTPUT_VALUE, call.texts.content(semconv.OUTPUT_VALUE, answer))
        if self.guard is not None and state is not None:
            chunks = [chunk for _, chunk in state.context or ()]
            verdict = judge_answer(answer, chunks, state.question, self.guard.judge, self.guard.timeout_ms)
            state.guard_verdict = verdict
            record_verdict(attributes.update, verdict, call.texts)
        return attributes

    def returned(self, call: Call, result: Any) -> Any:
        verdict = None if call.state is None else call.state.guard_verdict
        if self.guard is None or self.guard.on_verdict is None or verdict is None:
            return result
        return self.guard.on_verdict(verdict, result)

    def end_failed(self, call: Call) -> Attributes:
        state = call.state
        attributes: Attributes = {}
        if state is None:
            return attributes
        if state.context is not None:
            attributes[semconv.CONTEXT] = _context_json(call, state.context)
        if state.variations is not None:
            texts = call.texts.contents_within_budget(semconv.VARIATIONS, state.variations)
            attributes[semconv.VARIATIONS] = to_json([] if texts is None else texts)
        if state.retrievals:
            attributes[semconv.RETRIEVALS] = _retrievals_json(call, state)
        return attributes


def _context_json(call: Call, context: list[tuple[int, Chunk]]) -> str:
    texts = call.texts.contents_within_budget(semconv.CONTEXT, [chunk.text for _, chunk in context])
    if texts is None:
        return to_json(
            [{"id": c.id, "score": c.score, "rank": rank, "source": c.source} for rank, c in context]
        )
    return to_json(
        [
            {"id": c.id, "text": text, "score": c.score, "rank": rank, "source": c.source}
            for (rank, c), text in zip(context, texts, strict=True)
        ]
    )


def _retrievals_json(call: Call, state: RequestState) -> str:
    retrievals = sorted(state.retrievals, key=lambda retrieval: retrieval.query_index)
    queries = call.texts.contents_within_budget(semconv.RETRIEVALS, [r.query for r in retrievals])
    if queries is None:
        return to_json([{"query_index": r.query_index, "documents": r.documents} for r in retrievals])
    return to_json(
        [
            {"query": query, "query_index": r.query_index, "documents": r.documents}
            for r, query in zip(retrievals, queries, strict=True)
        ]
    )


class VariationsRecorder(StepRecorder):
    def __init__(self, function: Callable[..., Any], *, name: str | None) -> None:
        self.span_name = name or semconv.SPAN_VARIATIONS

    def begin(self, call: Call, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Attributes:
        attributes: Attributes = {semconv.SPAN_KIND: semconv.SpanKind.CHAIN}
        question = first_query(args, kwargs)
        if question is not None:
            _put(attributes, semconv.INPUT_VALUE, call.texts.content(semconv.INPUT_VALUE, question))
        return attributes

    def end(self, call: Call, result: Any) -> Attributes:
        if not isinstance(result, list | tuple):
            logger.debug("ragpulse: variations returned %s, not a list", type(result).__name__)
            return {}
        variations = [item if isinstance(item, str) else str(item) for item in result]
        if call.state is not None:
            call.state.variations = variations
        texts = call.texts.contents_within_budget(semconv.OUTPUT_VALUE, variations)
        return {} if texts is None else {semconv.OUTPUT_VALUE: to_json(texts)}


class RetrieveRecorder(StepRecorder):
    def __init__(self, function: Callable[..., Any], *, name: str | None, capture_text: bool) -> None:
        self.span_name = name or semconv.SPAN_RETRIEVE
        self.capture_text = capture_text
        self.query_index = ArgumentLocator(function, (QUERY_INDEX_ARGUMENT,))
        if not accepts_keyword(function, QUERY_INDEX_ARGUMENT):
            self.consumed_kwargs = (QUERY_INDEX_ARGUMENT,)

    def begin(self, call: Call, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Attributes:
        query = first_query(args, kwargs) or ""
        explicit = self.query_index.find(args, kwargs)
        if explicit is MISSING:
            explicit = kwargs.get(QUERY_INDEX_ARGUMENT)
        if isinstance(explicit, int) and not isinstance(explicit, bool):
            query_index = explicit
        else:
            query_index = 0 if call.state is None else call.state.query_index(query)
        call.data = (query, query_index)
        attributes: Attributes = {
            semconv.SPAN_KIND: semconv.SpanKind.RETRIEVER,
            semconv.GEN_AI_OPERATION_NAME: semconv.GEN_AI_OPERATION_RETRIEVAL,
            semconv.QUERY_INDEX: query_index,
        }
        text = call.texts.content(semconv.INPUT_VALUE, query)
        if text is not None:
            attributes[semconv.INPUT_VALUE] = text
            attributes[semconv.GEN_AI_RETRIEVAL_QUERY_TEXT] = text
        return attributes

    def end(self, call: Call, result: Any) -> Attributes:
        attributes: Attributes = {}
        if self.capture_text and call.texts.settings.capture_content:
            chunks = ranked_chunks(result, self.span_name)
            ranked = [(rank, chunk.id, chunk.score) for rank, chunk in chunks]
            for slot, (_, chunk) in enumerate(chunks[:FLAT_DOCUMENT_LIMIT]):
                name = _RETRIEVAL_CONTENT[slot]
                _put(attributes, name, call.texts.content(name, chunk.text))
        else:
            ranked = ranking(result, self.span_name)
        for slot, (_, chunk_id, score) in enumerate(ranked[:FLAT_DOCUMENT_LIMIT]):
            attributes[_RETRIEVAL_ID[slot]] = chunk_id
            if score is not None:
                attributes[_RETRIEVAL_SCORE[slot]] = score
        if call.state is not None:
            query, query_index = call.data
            documents = [{"id": chunk_id, "score": score, "rank": rank} for rank, chunk_id, score in ranked]
            call.state.retrievals.append(Retrieval(query, query_index, documents))
        return attributes


class FuseRecorder(StepRecorder):
    def __init__(self, function: Callable[..., Any], *, name: str | None, method: str, k: int | None) -> None:
        self.span_name = name or semconv.SPAN_FUSE
        self.method = method
        self.k = k
        self.rankings = ArgumentLocator(function, ("rankings",))
        self.k_argument = ArgumentLocator(function, ("k",))

    def begin(self, call: Call, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Attributes:
        attributes: Attributes = {
            semconv.SPAN_KIND: semconv.SpanKind.RERANKER,
            semconv.FUSION_METHOD: self.method,
        }
        k = self.k if self.k is not None else self.k_argument.find(args, kwargs)
        if isinstance(k, int | float) and not isinstance(k, bool):
            attributes[semconv.FUSION_K] = k
        rankings = self.rankings.find(args, kwargs)
        if rankings is MISSING:
            rankings = first_of_type(args, kwargs, list)
        if isinstance(rankings, Sequence) and not isinstance(rankings, str):
            attributes[semconv.FUSION_INPUT_RANKINGS] = to_json(
                [
                    [{"id": chunk_id, "score": score} for _, chunk_id, score in ranking(each, self.span_name)]
                    for each in rankings
                ]
            )
        return attributes

    def end(self, call: Call, result: Any) -> Attributes:
        ranked = ranking(result, self.span_name)
        attributes: Attributes = {
            semconv.FUSION_OUTPUT_RANKING: to_json(
                [{"id": chunk_id, "score": score} for _, chunk_id, score in ranked]
            )
        }
        for slot, (_, chunk_id, score) in enumerate(ranked[:FLAT_DOCUMENT_LIMIT]):
            attributes[_RERANKED_ID[slot]] = chunk_id
            if score is not None:
                attributes[_RERANKED_SCORE[slot]] = score
        return attributes


class GenerateRecorder(StepRecorder):
    joins_text = True

    def __init__(self, function: Callable[..., Any], *, name: str | None, model: str | None) -> None:
        self.span_name = name or semconv.SPAN_GENERATE
        self.model = model
        self.chunks = ArgumentLocator(function, ("chunks", "context", "documents", "docs"))
        self.model_argument = ArgumentLocator(function, ("model",))

    def begin(self, call: Call, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Attributes:
        attributes: Attributes = {
            semconv.SPAN_KIND: semconv.SpanKind.LLM,
            semconv.GEN_AI_OPERATION_NAME: semconv.GEN_AI_OPERATION_CHAT,
        }
        model = self.model if self.model is not None else self.model_argument.find(args, kwargs)
        if isinstance(model, str):
            attributes[semconv.LLM_MODEL_NAME] = model
            attributes[semconv.GEN_AI_REQUEST_MODEL] = model
        chunks = self.chunks.find(args, kwargs)
        if chunks is MISSING:
            chunks = first_of_type(args, kwargs, list)
        if chunks is MISSING:
            chunks = first_context(args, kwargs)
            if chunks is None:
                chunks = MISSING
        context = [] if chunks is MISSING else ranked_chunks(chunks, self.span_name)
        if call.state is not None and chunks is not MISSING:
            call.state.context = context
        call.data = semconv.LLM_MODEL_NAME in attributes
        question = first_query(args, kwargs)
        prompt_chars = sum(len(chunk.text) for _, chunk in context)
        if question is not None:
            prompt_chars += len(question)
            _put(attributes, semconv.INPUT_VALUE, call.texts.content(semconv.INPUT_VALUE, question))
        attributes[semconv.PROMPT_CHARS] = prompt_chars
        return attributes

    def end(self, call: Call, result: Any) -> Attributes:
        items = call.source if isinstance(call.source, list) else None
        attributes = usage_attributes(result) if items is None else stream_usage_attributes(items)
        model = response_model(result) if items is None else _first_model(items)
        if model is not None:
            attributes[semconv.GEN_AI_RESPONSE_MODEL] = model
            if not call.data:
                attributes[semconv.LLM_MODEL_NAME] = model
                attributes[semconv.GEN_AI_REQUEST_MODEL] = model
        answer = answer_text(result)
        if answer is not None:
            _put(attributes, semconv.OUTPUT_VALUE, call.texts.content(semconv.OUTPUT_VALUE, answer))
        return attributes


def _first_model(items: list[Any]) -> str | None:
    return next((model for model in map(response_model, items) if model is not None), None)


def _context_of(result: Any) -> list[Any] | None:
    """The context a result carries; for a stream of items (a chain's dict chunks), the first that does."""
    if type(result) is list:
        return next((found for found in map(context_in, result) if found is not None), None)
    return context_in(result)
