"""The live page as an attacker tries it: a forged Host (DNS rebinding), no token, a wrong one, a forged
cookie, an open redirect after sign-in, framing; and the token written down nowhere."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import pytest
from live_testing import TOKEN, fetch, running_page, signed_in_cookie
from pydantic import ValidationError
from ragpulse_core.settings import ConfigError
from ragpulse_core.store import Store
from ragpulse_core.tokens import TokenError
from ragpulse_dashboards.live import LivePage, TokenSource, page_token
from ragpulse_dashboards.settings import DashboardsSettings
from report_data import insert_request, insert_scores

SECRET_QUESTION = "What is the launch code for project Bluebird?"


@pytest.fixture(scope="module")
def served_store(empty_store: Callable[[], Store]) -> Store:
    """The module's data, written once: the tests only read it (``store`` would empty it per test)."""
    store = empty_store()
    traced = insert_request(store, 1, variant="A", question=SECRET_QUESTION)
    insert_scores(store, traced, hallucinated=True, support=0.0)
    return store


@pytest.fixture(scope="module")
def page(served_store: Store) -> Iterator[LivePage]:
    """One page for the tests that only read it (a page per test costs its data and first render, ~2 s).
    The wrong tokens of all of them reach this one page: past the sign-in limit (its own tests are in
    test_live_safety) it would answer 429 instead of what each test checks."""
    with running_page(served_store, sign_in_attempts=1000) as running:
        yield running


def _port(page: LivePage) -> int:
    return urlsplit(page.url).port or 0


@pytest.mark.parametrize(
    "host",
    ["evil.example", "evil.example:{port}", "localhost.evil.example:{port}", "127.0.0.1.nip.io:{port}", "",
     "localhost:{port}:80", "[::1"],
)  # fmt: skip
def test_a_forged_host_is_refused_even_with_the_token(page: LivePage, host: str) -> None:
    answer = fetch(page.url, host=host.format(port=_port(page)), headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status == 421 and SECRET_QUESTION not in answer.body
    assert answer.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "host", ["localhost:{port}", "LOCALHOST.:{port}", "127.0.0.1:{port}", "[::1]:{port}"]
)
def test_loopback_names_and_addresses_are_served(page: LivePage, host: str) -> None:
    answer = fetch(page.url, host=host.format(port=_port(page)), headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status == 200 and SECRET_QUESTION in answer.body


def test_a_request_without_a_host_header_is_refused(page: LivePage) -> None:
    with socket.create_connection(("127.0.0.1", _port(page)), timeout=10) as connection:
        connection.sendall(f"GET / HTTP/1.0\r\nAuthorization: Bearer {TOKEN}\r\n\r\n".encode())
        reply = b"".join(iter(lambda: connection.recv(65536), b""))
    assert reply.startswith(b"HTTP/1.0 421") or reply.startswith(b"HTTP/1.1 421")


def test_an_allowed_name_can_be_added(served_store: Store) -> None:
    with running_page(served_store, allowed_hosts=["rag.internal"]) as page:
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        assert fetch(page.url, host=f"rag.internal:{_port(page)}", headers=bearer).status == 200
        assert fetch(page.url, host=f"localhost:{_port(page)}", headers=bearer).status == 421


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "Bearer "}, {"Authorization": f"Basic {TOKEN}"},
     {"Cookie": f"ragpulse_live={TOKEN}"}, {"Cookie": "ragpulse_live="}, {"Cookie": "ragpulse_live=00ff"}],
)  # fmt: skip
def test_without_the_token_the_page_shows_only_the_sign_in_form(
    page: LivePage, headers: dict[str, str]
) -> None:
    answer = fetch(page.url, headers=headers)
    assert answer.status == 401 and SECRET_QUESTION not in answer.body
    assert "<form class='signin' method='post' action='/login'>" in answer.body
    assert answer.headers["WWW-Authenticate"].startswith("Bearer")
    assert fetch(page.url, "/?service=svc", headers=headers).status == 401


def test_a_token_in_the_url_signs_in_and_leaves_the_address(page: LivePage) -> None:
    answer = fetch(page.url, f"/?service=svc&token={TOKEN}")
    assert answer.status == 303 and answer.headers["Location"] == "/?service=svc"
    cookie = answer.headers["Set-Cookie"]
    assert TOKEN not in cookie
    assert {"HttpOnly", "SameSite=Lax", "Path=/"} <= {part.strip() for part in cookie.split(";")}
    shown = fetch(page.url, "/?service=svc", headers={"Cookie": cookie.split(";", 1)[0]})
    assert shown.status == 200 and SECRET_QUESTION in shown.body

    assert "Secure" not in cookie  # plain HTTP on loopback: a Secure cookie would never come back
    behind_tls = fetch(page.url, f"/?token={TOKEN}", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in {part.strip() for part in behind_tls.headers["Set-Cookie"].split(";")}

    wrong = fetch(page.url, "/?service=svc&token=guess")
    assert wrong.status == 401 and "That token does not open this page." in wrong.body
    assert "Set-Cookie" not in wrong.headers and SECRET_QUESTION not in wrong.body


def test_the_sign_in_form_leads_back_to_the_view_and_never_off_site(page: LivePage) -> None:
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    signed = fetch(
        page.url,
        "/login",
        method="POST",
        headers=form,
        body=f"token={TOKEN}&next=%2F%3Fservice%3Dsvc".encode(),
    )
    assert signed.status == 303 and signed.headers["Location"] == "/?service=svc"
    for elsewhere in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        body = f"token={TOKEN}&next={elsewhere}".encode()
        location = fetch(page.url, "/login", method="POST", headers=form, body=body).headers["Location"]
        assert location.startswith("/") and not location.startswith(("//", "/\\"))  # test_live_safety: all
    refused = fetch(page.url, "/login", method="POST", headers=form, body=b"token=guess&next=/")
    assert refused.status == 401 and "Set-Cookie" not in refused.headers
    too_long = fetch(page.url, "/login", method="POST", headers=form, body=b"token=" + b"x" * 10_000)
    assert too_long.status == 413


def test_every_answer_carries_the_security_headers(page: LivePage) -> None:
    cookie = signed_in_cookie(page.url)
    answers = [
        fetch(page.url, headers={"Cookie": cookie}),
        fetch(page.url),
        fetch(page.url, host="evil.example"),
        fetch(page.url, "/nowhere", headers={"Cookie": cookie}),
        fetch(page.url, "/?service=nobody", headers={"Cookie": cookie}),
    ]
    assert [answer.status for answer in answers] == [200, 401, 421, 404, 404]
    for answer in answers:
        policy = answer.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in policy and "default-src 'none'" in policy
        assert "script-src" not in policy and "unsafe-inline" not in policy
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert answer.headers["Cache-Control"] == "no-store"


def test_the_token_is_written_down_nowhere(served_store: Store, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with running_page(served_store) as page:
        fetch(page.url, f"/?token={TOKEN}")
        fetch(page.url, f"/?token={TOKEN}x")
        fetch(page.url, headers={"Authorization": f"Bearer {TOKEN}"})
        fetch(page.url, host="evil.example", headers={"Authorization": f"Bearer {TOKEN}"})
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        fetch(page.url, "/login", method="POST", headers=form, body=f"token={TOKEN}".encode())
    assert caplog.records
    assert not [record for record in caplog.records if TOKEN in record.getMessage()]


def test_the_read_token_comes_from_the_read_setting_then_the_ingest_token_then_is_made(
    tmp_path: object,
) -> None:
    read = DashboardsSettings.load(None, live={"read_token": "r"}, collector={"auth_token": "i"})
    ingest = DashboardsSettings.load(None, collector={"auth_token": "i"})
    made = [page_token(DashboardsSettings.load(None)) for _ in range(2)]
    assert (page_token(read).value, page_token(read).source) == ("r", TokenSource.READ_TOKEN)
    assert (page_token(ingest).value, page_token(ingest).source) == ("i", TokenSource.INGEST_TOKEN)
    assert {token.source for token in made} == {TokenSource.GENERATED}
    assert made[0].value != made[1].value and len(made[0].value) >= 32


@pytest.mark.parametrize("blank", ["", "  ", "\n"])
def test_a_blank_read_token_is_an_error_not_an_open_page(monkeypatch: pytest.MonkeyPatch, blank: str) -> None:
    monkeypatch.setenv("RAGPULSE_LIVE__READ_TOKEN", blank)
    with pytest.raises(ValidationError, match=r"live\.read_token is empty"):
        DashboardsSettings.load(None)


def test_a_blank_read_token_file_is_an_error(tmp_path: object) -> None:
    from pathlib import Path

    blank = Path(str(tmp_path)) / "token"
    blank.write_text("\n")
    with pytest.raises(TokenError, match="is empty"):
        page_token(DashboardsSettings.load(None, live={"read_token_file": blank}))
    assert not isinstance(TokenError("x"), ConfigError)
