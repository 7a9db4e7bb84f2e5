"""Every chunk shape applications pass around normalizes to the same Chunk."""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse import Chunk, ChunkError, FusedChunk, to_chunk
from ragpulse.chunks import ranking_entries, text_id


@dataclass
class LangChainDocument:
    page_content: str
    metadata: dict[str, Any] = field(default_factory=dict)
    id: str | None = None


@dataclass
class TextNode:
    node_id: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)

    def get_content(self) -> str:
        return self.text


@dataclass
class NodeWithScore:
    node: TextNode
    score: float | None


@dataclass
class HaystackDocument:
    content: str
    id: str
    score: float | None = None
    meta: dict[str, Any] = field(default_factory=dict)


def test_string_gets_an_id_derived_from_its_text() -> None:
    chunk = to_chunk("Paris is the capital of France.", 0)
    assert chunk.text == "Paris is the capital of France."
    assert chunk.id == to_chunk("Paris is the capital of France.", 5).id
    assert chunk.id != to_chunk("Lyon is in France.", 0).id
    assert chunk.score is None


def test_dict_with_every_field() -> None:
    chunk = to_chunk({"id": 7, "text": "t", "score": "0.5", "metadata": {"lang": "en"}, "source": "a.md"}, 0)
    assert chunk == Chunk(id="7", text="t", score=0.5, source="a.md", metadata={"lang": "en"})


@pytest.mark.parametrize("key", ["text", "content", "page_content"])
def test_dict_text_keys(key: str) -> None:
    assert to_chunk({"id": "d1", key: "body"}, 0).text == "body"


def test_dict_id_and_source_fall_back_to_metadata() -> None:
    chunk = to_chunk({"content": "body", "metadata": {"id": "m1", "source": "wiki"}}, 0)
    assert (chunk.id, chunk.source) == ("m1", "wiki")


def test_dict_without_id_uses_the_text_hash() -> None:
    assert to_chunk({"text": "body", "score": 1}, 0).id == text_id("body")


def test_dict_with_only_an_id_is_a_chunk_without_text() -> None:
    assert to_chunk({"id": "d9", "score": 0.1}, 0) == Chunk(id="d9", text="", score=0.1)


def test_text_score_pair() -> None:
    chunk = to_chunk(("some text", 0.75), 0)
    assert (chunk.text, chunk.score, chunk.id) == ("some text", 0.75, text_id("some text"))


def test_document_score_pair_takes_the_pair_score() -> None:
    chunk = to_chunk((LangChainDocument("body", {"id": "lc1"}), 0.2), 0)
    assert (chunk.id, chunk.text, chunk.score) == ("lc1", "body", 0.2)


def test_langchain_document() -> None:
    document = LangChainDocument("body", {"source": "handbook.pdf", "page": 3}, id="doc-1")
    chunk = to_chunk(document, 0)
    assert (chunk.id, chunk.text, chunk.source, chunk.metadata["page"]) == (
        "doc-1",
        "body",
        "handbook.pdf",
        3,
    )


def test_langchain_document_without_id_uses_metadata_id() -> None:
    assert to_chunk(LangChainDocument("body", {"id": "meta-id"}), 0).id == "meta-id"


def test_llamaindex_node_with_score() -> None:
    chunk = to_chunk(NodeWithScore(TextNode("n1", "node text", {"file_name": "f.txt"}), 0.9), 0)
    assert chunk == Chunk(
        id="n1", text="node text", score=0.9, source="f.txt", metadata={"file_name": "f.txt"}
    )


def test_llamaindex_bare_node() -> None:
    assert to_chunk(TextNode("n2", "x"), 0).id == "n2"


def test_object_with_content_and_meta() -> None:
    chunk = to_chunk(HaystackDocument("hay", "h1", 0.3, {"source": "s"}), 0)
    assert (chunk.id, chunk.text, chunk.score, chunk.source) == ("h1", "hay", 0.3, "s")


def test_chunk_and_fused_chunk_pass_through() -> None:
    chunk = Chunk(id="c", text="t", score=1.0)
    assert to_chunk(chunk, 0) is chunk
    fused = FusedChunk(id="f", text="t", score=0.03, rank=1, source="s", metadata={}, chunk=chunk)
    assert to_chunk(fused, 0) == Chunk(id="f", text="t", score=0.03, source="s", metadata={})


@pytest.mark.parametrize("score", [math.nan, math.inf, -math.inf])
def test_non_finite_score_becomes_none(score: float) -> None:
    assert to_chunk({"id": "a", "text": "t", "score": score}, 0).score is None


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (42, "chunk 3: cannot read a int"),
        (None, "chunk 3: cannot read a NoneType"),
        ({"score": 1.0}, "no text"),
        ({"id": "a", "text": b"bytes"}, "text is bytes"),
        ({"id": "a", "text": "t", "score": "high"}, "not a number"),
        ({"id": "a", "text": "t", "score": True}, "bool"),
        ({"id": "a", "text": "t", "metadata": ["not", "a", "mapping"]}, "metadata is list"),
        (("a", 1.0, "extra"), "got 3 items"),
    ],
)
def test_unreadable_chunks_raise_chunk_error_naming_the_position(bad: object, message: str) -> None:
    with pytest.raises(ChunkError, match=message):
        to_chunk(bad, 3)


@given(st.text(), st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False)))
def test_a_text_reads_the_same_in_every_shape(text: str, score: float | None) -> None:
    shapes = [{"text": text, "score": score}, {"content": text, "score": score}, (text, score)]
    chunks = [to_chunk(shape, 0) for shape in shapes]
    assert all(chunk == Chunk(id=text_id(text), text=text, score=score) for chunk in chunks)


_CHUNK_VALUES = st.one_of(
    st.none(),
    st.text(max_size=8),
    st.floats(),
    st.integers(),
    st.booleans(),
    st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2),
)


@given(
    st.dictionaries(
        st.sampled_from(["id", "text", "content", "score", "metadata", "source"]), _CHUNK_VALUES, max_size=6
    )
)
def test_a_rankings_id_and_score_are_the_chunks_or_both_refuse(data: dict[str, Any]) -> None:
    refusals: list[BaseException | None] = []
    entries = ranking_entries(["first", data], lambda: refusals.append(sys.exc_info()[1]))
    assert entries[0] == (1, text_id("first"), None)
    try:
        chunk = to_chunk(data, 1)
    except ChunkError as refused:
        assert len(entries) == 1
        assert [str(error) for error in refusals] == [str(refused)]
        return
    assert not refusals
    ((rank, chunk_id, score),) = entries[1:]
    assert (rank, chunk_id) == (2, chunk.id)
    assert score == chunk.score or (score is None and chunk.score is None)
