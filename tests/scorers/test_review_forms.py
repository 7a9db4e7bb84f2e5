"""The label form's guards on their own: the form key a browser must echo, the write session, where a post
may come from, and what a posted label may say."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_core.printable import printable
from ragpulse_dashboards.live.forms import WRITE_COOKIE, FormGuard, same_site_post
from ragpulse_dashboards.review.label_form import AUTHOR_LIMIT, NOTE_LIMIT, LabelForm


def test_a_form_key_matches_only_the_nonce_it_was_made_for() -> None:
    guard = FormGuard("read-token", None)
    nonce, other = FormGuard.new_nonce(), FormGuard.new_nonce()
    key = guard.field_for(nonce)
    assert guard.field_matches(nonce, key)
    assert not guard.field_matches(other, key)
    assert not guard.field_matches(nonce, "")
    assert not guard.field_matches(None, key)
    assert not guard.field_matches(nonce, key[:-1] + ("0" if key[-1] != "0" else "1"))


def test_another_pages_token_makes_other_form_keys() -> None:
    nonce = FormGuard.new_nonce()
    assert FormGuard("read-token", None).field_for(nonce) != FormGuard("another", None).field_for(nonce)
    assert FormGuard("read-token", None).field_for(nonce) != FormGuard("read-token", "write").field_for(nonce)


def test_without_a_write_token_every_reader_may_write() -> None:
    guard = FormGuard("read-token", None)
    assert not guard.needs_write_token and guard.may_write({})
    assert not guard.write_token_matches("read-token")


def test_with_a_write_token_only_its_session_may_write() -> None:
    guard = FormGuard("read-token", "write-token")
    assert guard.needs_write_token
    assert not guard.may_write({})
    assert not guard.may_write({WRITE_COOKIE: "write-token"})  # the cookie holds a keyed hash, not the token
    assert guard.may_write({WRITE_COOKIE: guard.write_cookie_value})
    assert guard.write_token_matches(" write-token ") and not guard.write_token_matches("read-token")


@pytest.mark.parametrize(
    ("headers", "same"),
    [
        ({"Origin": "http://localhost:4319"}, True),
        ({"Origin": "https://localhost:4319"}, True),  # a TLS proxy in front, same Host
        ({"Origin": "http://evil.example"}, False),
        ({"Origin": "http://localhost:4320"}, False),
        ({"Origin": "null"}, False),
        ({"Sec-Fetch-Site": "same-origin"}, True),
        ({"Sec-Fetch-Site": "cross-site"}, False),
        ({"Sec-Fetch-Site": "same-site"}, False),
        ({}, True),  # not a browser: the form key decides
    ],
)
def test_a_post_must_come_from_this_page(headers: dict[str, str], same: bool) -> None:
    assert same_site_post(headers, "localhost:4319") is same


def _parse(**fields: object) -> LabelForm:
    values: dict[str, object] = {"label": "hallucinated", "sentences": [], "author": "ana", "note": ""}
    values.update(fields)
    return LabelForm.parse(**values)  # type: ignore[arg-type]


def test_a_label_names_one_of_two_verdicts_and_who_gave_it() -> None:
    assert _parse(sentences=["2", "0", "2"]).sentences == (0, 2)
    assert _parse(label="grounded").label == "grounded"
    wrongs: list[dict[str, object]] = [
        {"label": "maybe"}, {"label": ""}, {"author": "  "}, {"author": "x" * (AUTHOR_LIMIT + 1)},
        {"sentences": ["-1"]}, {"sentences": ["one"]}, {"label": "grounded", "sentences": ["0"]},
    ]  # fmt: skip
    for wrong in wrongs:
        with pytest.raises(ValueError):
            _parse(**wrong)


@given(st.text(max_size=120), st.text(max_size=600))
def test_whatever_is_typed_a_stored_name_and_note_are_one_printable_line(author: str, note: str) -> None:
    shown_author = " ".join(printable(author).split())
    shown_note = " ".join(printable(note).split())
    acceptable = 0 < len(shown_author) <= AUTHOR_LIMIT and len(shown_note) <= NOTE_LIMIT
    try:
        form = _parse(author=author, note=note)
    except ValueError:
        assert not acceptable
        return
    assert acceptable and (form.author, form.note) == (shown_author, shown_note)
    for text in (form.author, form.note):
        assert "\n" not in text and "\x1b" not in text and text == text.strip()
