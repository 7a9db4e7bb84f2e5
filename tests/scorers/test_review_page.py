"""The live page's review routes over HTTP: a request's view with every judge's verdicts, a label posted from
its form, and every post the form did not make refused with nothing stored (CSRF, another site, no session,
no write token when one is set, a label the request cannot have)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlencode, urlsplit

import pytest
from live_testing import Answer, fetch, running_page, signed_in_cookie
from ragpulse_core.store import Store
from ragpulse_dashboards.live import LivePage
from ragpulse_dashboards.review.html import request_link
from review_data import CONTEXT, Judged, judged_requests

WRITE_TOKEN = "label-w-5e1"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture
def judged(store: Store) -> list[Judged]:
    return judged_requests(
        store,
        [
            {"index": index, "lexical_bad": index % 2 == 0, "support": index / 10, "llm_bad": index % 3 == 0}
            for index in range(6)
        ],
    )


@pytest.fixture
def page(store: Store, judged: list[Judged]) -> Iterator[LivePage]:
    with running_page(store) as running:
        yield running


def _host(page: LivePage) -> str:
    return urlsplit(page.url).netloc


def _open(page: LivePage, cookie: str, request: Judged) -> tuple[Answer, str, str]:
    """The request view, the cookies the browser then holds, and the form key it shows."""
    link = request_link(request.id, "uniform", None)
    answer = fetch(page.url, link, headers={"Cookie": cookie})
    key = re.search(r"name='form_key' value='([0-9a-f]+)'", answer.body)
    return answer, _with_cookies(cookie, answer), key.group(1) if key else ""


def _with_cookies(cookie: str, answer: Answer) -> str:
    """``cookie`` plus whatever ``answer`` set, as the browser sends them next."""
    held = dict(part.split("=", 1) for part in cookie.split("; ") if part)
    for header in answer.headers.get_all("Set-Cookie") or []:
        name, value = header.split(";", 1)[0].split("=", 1)
        held[name] = value
    return "; ".join(f"{name}={value}" for name, value in held.items())


def _post(
    page: LivePage, cookies: str, fields: dict[str, str] | list[tuple[str, str]], **headers: str
) -> Answer:
    sent = {**FORM, "Cookie": cookies, "Origin": f"http://{_host(page)}", **headers}
    return fetch(
        page.url, "/review/label", method="POST", body=urlencode(fields).encode(),
        headers={name: value for name, value in sent.items() if value},
    )  # fmt: skip


def _fields(request: Judged, key: str, label: str = "hallucinated", **more: str) -> dict[str, str]:
    return {
        "form_key": key, "trace": request.id.trace_id, "span": request.id.span_id,
        "at": str(request.id.at_us), "label": label, "author": "Ana", "note": "price is wrong", **more,
    }  # fmt: skip


def _labels(store: Store) -> list[tuple[object, ...]]:
    return store.query(
        "SELECT TraceId, Label, Sentences, Author, Source, Note, ServiceName, Variant"
        f" FROM {store.table('ragpulse_labels')} FINAL ORDER BY LabelTime"
    )


def test_the_request_view_shows_the_request_and_every_judges_verdict(
    page: LivePage, judged: list[Judged]
) -> None:
    answer, _, key = _open(page, signed_in_cookie(page.url), judged[0])
    assert answer.status == 200 and key
    body = answer.body
    assert "Question 0: when does the museum open?" in body and CONTEXT in body
    sentences = re.findall(r"name='sentence' value='(\d)'> ([^<]+)</label>", body)
    assert sentences == [("0", "The museum opens at nine."), ("1", "Tickets cost twenty euros."),
                         ("2", "Parking is free on Sundays.")]  # fmt: skip
    assert body.count("unsupported per lexical") == 1
    assert body.index("unsupported per lexical") > body.index("Tickets cost twenty euros.")
    assert "<b>lexical</b>: hallucinated" in body and "<b>support</b>: hallucinated" in body
    assert "The price is wrong." in body  # the LLM judge's own words
    assert "Offered because drawn at random" in body
    cookie = answer.headers["Set-Cookie"].lower()
    assert "samesite=strict" in cookie and "httponly" in cookie
    assert answer.headers["Referrer-Policy"] == "same-origin"
    assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]


def test_a_label_from_the_form_is_stored_and_leads_to_the_next_request(
    page: LivePage, store: Store, judged: list[Judged]
) -> None:
    _, cookies, key = _open(page, signed_in_cookie(page.url), judged[0])
    fields = [*_fields(judged[0], key, service="forged").items(), ("sentence", "1"), ("sentence", "2")]
    answer = _post(page, cookies, fields)
    assert answer.status == 303 and answer.headers["Location"] == "/review/next?service=forged"
    stored = _labels(store)
    assert stored == [
        (judged[0].id.trace_id, "hallucinated", [1, 2], "Ana", "reviewer", "price is wrong", "museum", "A")
    ]
    assert "ragpulse_reviewer=Ana" in answer.headers["Set-Cookie"]
    cookies = _with_cookies(cookies, answer)
    nxt = fetch(page.url, "/review/next", headers={"Cookie": cookies})
    assert nxt.status == 303 and nxt.headers["Location"].startswith("/review/request?")
    assert judged[0].id.trace_id not in nxt.headers["Location"]
    again, _, _ = _open(page, cookies, judged[0])
    assert "Labels given" in again.body and "price is wrong" in again.body
    assert "value='Ana'" in again.body  # the name is remembered for the next form


@pytest.mark.parametrize(
    "forgery",
    ["no form key", "another browser's key", "another site", "an opaque origin", "a cross-site fetch",
     "no session"],
)  # fmt: skip
def test_a_post_the_form_did_not_make_stores_nothing(
    page: LivePage, store: Store, judged: list[Judged], forgery: str
) -> None:
    session = signed_in_cookie(page.url)
    _, cookies, key = _open(page, session, judged[0])
    _, _, other_key = _open(page, session, judged[1])
    fields = _fields(judged[0], key)
    headers: dict[str, str] = {}
    if forgery == "no form key":
        fields["form_key"] = ""
    elif forgery == "another browser's key":
        fields["form_key"] = other_key
    elif forgery == "another site":
        headers["Origin"] = "http://evil.example"
    elif forgery == "an opaque origin":
        headers["Origin"] = "null"
    elif forgery == "a cross-site fetch":
        headers["Origin"] = ""
        headers["Sec-Fetch-Site"] = "cross-site"
    else:
        cookies = cookies.split("; ", 1)[1]
    answer = _post(page, cookies, fields, **headers)
    assert answer.status == (401 if forgery == "no session" else 403)
    assert _labels(store) == []


def test_a_label_the_request_cannot_have_is_refused_with_a_reason(
    page: LivePage, store: Store, judged: list[Judged]
) -> None:
    _, cookies, key = _open(page, signed_in_cookie(page.url), judged[0])
    answer = _post(page, cookies, _fields(judged[0], key, label="maybe"))
    assert answer.status == 400 and "the label is one of hallucinated, grounded" in answer.body
    answer = _post(page, cookies, [*_fields(judged[0], key).items(), ("sentence", "3")])
    assert answer.status == 400 and "the answer has 3 sentences; no sentence 3" in answer.body
    answer = _post(page, cookies, _fields(judged[0], key, at="1"))
    assert answer.status == 404
    answer = _post(page, cookies, _fields(judged[0], key, note="x" * 70_000))
    assert answer.status == 413
    assert _labels(store) == []


def test_with_a_write_token_a_reader_signs_in_again_to_label(store: Store, judged: list[Judged]) -> None:
    with running_page(store, write_token=WRITE_TOKEN) as page:
        answer, cookies, key = _open(page, signed_in_cookie(page.url), judged[0])
        assert "Sign in to label" in answer.body and "<button type='submit' name='label'" not in answer.body
        assert _post(page, cookies, _fields(judged[0], key)).status == 403

        def sign_in(token: str) -> Answer:
            body = urlencode({"token": token, "next": request_link(judged[0].id, None, None)}).encode()
            return fetch(page.url, "/review/write-login", method="POST", body=body,
                         headers={**FORM, "Cookie": cookies})  # fmt: skip

        assert sign_in("guess").status == 401
        signed = sign_in(WRITE_TOKEN)
        assert signed.status == 303 and signed.headers["Location"].startswith("/review/request?")
        write = signed.headers["Set-Cookie"].split(";", 1)[0]
        assert WRITE_TOKEN not in write
        answer, _, key = _open(page, f"{cookies}; {write}", judged[0])
        assert "<button type='submit' name='label' value='grounded'>" in answer.body
        assert _post(page, f"{cookies}; {write}", _fields(judged[0], key, label="grounded")).status == 303
        assert [row[1] for row in _labels(store)] == ["grounded"]


def test_the_queue_lists_what_to_label_and_says_when_nothing_is_left(
    page: LivePage, store: Store, judged: list[Judged]
) -> None:
    session = signed_in_cookie(page.url)
    queue = fetch(page.url, "/review", headers={"Cookie": session})
    assert queue.status == 200 and queue.body.count(">review</a>") == len(judged)
    assert "drawn at random" in queue.body and "Label the next request" in queue.body
    for request in judged:
        _, cookies, key = _open(page, session, request)
        assert _post(page, cookies, _fields(request, key, label="grounded")).status == 303
    done = fetch(page.url, "/review/next", headers={"Cookie": session})
    assert done.status == 303 and done.headers["Location"] == "/review?saved=1"
    empty = fetch(page.url, done.headers["Location"], headers={"Cookie": session})
    assert "Nothing to review" in empty.body and "Reviewers labelled 6 requests here" in empty.body
