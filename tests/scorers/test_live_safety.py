"""The live page under attack, item 6 of issue 27: redirects stay on the page's origin for any input (as a
browser's WHATWG URL parser reads them), malformed requests get a 400 and one log line that quotes nothing,
a flood of them cannot flood the log, wrong tokens are rate-limited per client, OTLP sent here is told
where the collector is, and the token appears in no log line whatever is sent."""

from __future__ import annotations

import http.client
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from live_testing import TOKEN, Answer, fetch, running_page
from pydantic import ValidationError
from ragpulse_core.preflight import check_collector_files
from ragpulse_core.settings import CollectorSettings, ConfigError, describe_invalid
from ragpulse_core.store import Store
from ragpulse_core.tokens import TokenError
from ragpulse_dashboards.live import LivePage, page_token
from ragpulse_dashboards.settings import DashboardsSettings
from report_data import insert_request
from whatwg_urls import Resolver

RAGPULSE = str(Path(sys.executable).with_name("ragpulse"))
# The README's promise: at most this many lines a minute about malformed requests.
FLOOD_LINES_PER_MINUTE = 5
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture(scope="module")
def browser_urls() -> Iterator[Resolver]:
    resolver = Resolver()
    yield resolver
    resolver.close()


@pytest.fixture(scope="module")
def served_store(empty_store: Callable[[], Store]) -> Store:
    """The module's data, written once: the tests only read it (``store`` would empty it per test)."""
    store = empty_store()
    insert_request(store, 1, variant="A", question="What is the launch code?")
    return store


@pytest.fixture(scope="module")
def page(served_store: Store) -> Iterator[LivePage]:
    """One page for the tests that only follow its redirects and answers, all with the right token (a page
    per test costs ~1 s)."""
    with running_page(served_store) as running:
        yield running


@pytest.fixture
def fresh_page(served_store: Store) -> Iterator[LivePage]:
    """A page of its own, for a test that counts the lines one page logs a minute."""
    with running_page(served_store) as running:
        yield running


def _port(page: LivePage) -> int:
    return urlsplit(page.url).port or 0


def _raw(page: LivePage, request: bytes, source: str = "127.0.0.1") -> bytes:
    with socket.create_connection(("127.0.0.1", _port(page)), timeout=10, source_address=(source, 0)) as link:
        link.sendall(request)
        return b"".join(iter(lambda: link.recv(65536), b""))


def _origin_of(page: LivePage) -> str:
    return page.url.rstrip("/")


# Families of off-site targets: scheme-relative, backslashes, tabs and newlines browsers drop, leading
# controls and spaces they strip, encoded slashes, userinfo, other schemes.
OFF_SITE = [
    "//evil.example/", "/\\evil.example/", "\\\\evil.example", "/\t/evil.example", "/\n/evil.example",
    "/\r\n/evil.example", " //evil.example", "\x00//evil.example", "\x1f/\\evil.example", "\t//evil.example",
    "/%2F/evil.example", "/%2f%2fevil.example", "%2F%2Fevil.example", "/%5Cevil.example", "/%09/evil.example",
    "///evil.example", "/\\/evil.example", "http://evil.example", "https:evil.example",
    "http:/\\evil.example", "//user:pass@evil.example", "/@evil.example", "//127.0.0.1@evil.example",
    "javascript:alert(1)",
    "\\/evil.example", "/.//evil.example", "/..//evil.example", "//%65vil.example", "／／evil.example",
]  # fmt: skip


@pytest.mark.parametrize("target", OFF_SITE)
def test_the_sign_in_form_never_leads_off_site(page: LivePage, browser_urls: Resolver, target: str) -> None:
    body = f"token={TOKEN}&next={quote(target, safe='')}".encode()
    answer = fetch(page.url, "/login", method="POST", headers=FORM, body=body)
    assert answer.status == 303
    assert browser_urls.origin(answer.headers["Location"], page.url) == _origin_of(page)


@pytest.mark.parametrize(
    "path",
    ["//evil.example/", "/\\evil.example/", "/%2F/evil.example/", "/%5C%5Cevil.example", "///evil.example",
     "/%09/evil.example", "/\\/evil.example"],
)  # fmt: skip
def test_a_token_in_the_url_never_leads_off_site(page: LivePage, browser_urls: Resolver, path: str) -> None:
    reply = _raw(
        page, f"GET {path}?token={TOKEN} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
    )
    head = reply.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    assert head.startswith("HTTP/1.1 303"), head
    location = next(
        line.split(":", 1)[1].strip() for line in head.split("\r\n") if line.startswith("Location")
    )
    assert browser_urls.origin(location, page.url) == _origin_of(page)


def test_a_sign_in_still_returns_to_the_view_it_came_from(page: LivePage) -> None:
    answer = fetch(page.url, f"/?service=svc%20b&token={TOKEN}")
    assert answer.headers["Location"] == "/?service=svc+b"
    body = f"token={TOKEN}&next={quote('/?service=svc b&hours=2')}".encode()
    form = fetch(page.url, "/login", method="POST", headers=FORM, body=body)
    assert form.headers["Location"] == "/?service=svc+b&hours=2"


def _log_text(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(caplog.text.splitlines() + [r.getMessage() for r in caplog.records])


MALFORMED = [
    f"GET /?token={TOKEN}&q=\u00e9t\u00e9 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode(),
    f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\x01\r\n\r\n".encode(),
    f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\x7f\r\n\r\n".encode(),
    f"GET /?token={TOKEN}&pad={'a' * 9000} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode(),
    f"GET /?token={TOKEN} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: {'b' * 9000}\r\n\r\n".encode(),
    f"G\x01T /?token={TOKEN} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode(),
    f"GET /?token={TOKEN} HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n".encode(),
    f"GET /?token={TOKEN}\x00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode(),
]


@pytest.mark.parametrize("request_bytes", MALFORMED)
def test_a_malformed_request_gets_400_and_one_line_that_quotes_nothing(
    fresh_page: LivePage, caplog: pytest.LogCaptureFixture, request_bytes: bytes
) -> None:
    caplog.set_level(logging.DEBUG)
    reply = _raw(fresh_page, request_bytes)
    assert reply.startswith((b"HTTP/1.0 400", b"HTTP/1.1 400")), reply[:80]
    lines = [record for record in caplog.records if record.name.startswith(("ragpulse", "aiohttp"))]
    assert len(lines) == 1, [record.getMessage() for record in lines]
    said = _log_text(caplog)
    assert "Traceback" not in said and TOKEN not in said and "\n" not in lines[0].getMessage()
    assert "malformed request from 127.0.0.1" in lines[0].getMessage()


def test_anyone_without_a_token_cannot_flood_the_log(
    fresh_page: LivePage, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    oversized = b"GET /" + b"x" * 10_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    for _ in range(300):
        assert _raw(fresh_page, oversized).startswith((b"HTTP/1.0 400", b"HTTP/1.1 400"))
    written = [line for line in caplog.text.splitlines() if line.strip()]
    assert 1 <= len(written) <= FLOOD_LINES_PER_MINUTE, written[:10]


def test_wrong_tokens_are_rate_limited_per_client(served_store: Store) -> None:
    with running_page(served_store, sign_in_attempts=3, sign_in_window_s=60) as page:
        guesses = [fetch(page.url, f"/?token=guess{n}") for n in range(3)]
        assert [answer.status for answer in guesses] == [401, 401, 401]
        for attempt in (
            lambda: fetch(page.url, "/?token=guess"),
            lambda: fetch(page.url, headers={"Authorization": "Bearer guess"}),
            lambda: fetch(page.url, "/login", method="POST", headers=FORM, body=b"token=guess"),
            lambda: fetch(page.url, f"/?token={TOKEN}"),  # the right one too: a late hit must say nothing
        ):
            blocked = attempt()
            assert blocked.status == 429 and 1 <= int(blocked.headers["Retry-After"]) <= 60
            assert "Set-Cookie" not in blocked.headers
        other_client = _raw(
            page,
            f"GET /?token={TOKEN} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode(),
            "127.0.0.2",
        )
        assert other_client.startswith(b"HTTP/1.1 303")
        assert fetch(page.url, "/healthz").status == 200


@pytest.mark.parametrize("path", ["/v1/traces", "/v1/logs", "/v1/metrics"])
def test_otlp_sent_to_the_page_is_told_the_collectors_port(page: LivePage, path: str) -> None:
    answer = fetch(
        page.url, path, method="POST", headers={"Content-Type": "application/x-protobuf"}, body=b"\x0a\x00"
    )
    assert answer.status == 404 and "WWW-Authenticate" not in answer.headers
    assert f"send OTLP to :4318{path}" in answer.body
    connection = http.client.HTTPConnection("127.0.0.1", _port(page), timeout=10)
    connection.request("POST", path, body=b"{}", headers={"Content-Type": "application/json"})
    assert f":4318{path}" in connection.getresponse().reason
    connection.close()


def test_the_token_is_never_logged_under_any_of_these_attacks(
    served_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """The README's promise: whatever is sent, no log line of the live server holds the token."""
    caplog.set_level(logging.DEBUG)
    with running_page(served_store, sign_in_attempts=3) as page:
        answers: list[Answer | bytes] = [_raw(page, request) for request in MALFORMED * 3]
        answers += [
            fetch(page.url, f"/?token={TOKEN}"),
            fetch(page.url, f"//evil.example/?token={TOKEN}"),
            fetch(
                page.url, "/login", method="POST", headers=FORM, body=f"token={TOKEN}&next=/%09/x".encode()
            ),
            fetch(page.url, headers={"Authorization": f"Bearer {TOKEN}"}),
            fetch(page.url, host=f"{TOKEN}.example", headers={"Authorization": f"Bearer {TOKEN}"}),
            fetch(
                page.url, "/v1/traces", method="POST", headers={"Authorization": f"Bearer {TOKEN}"}, body=b"x"
            ),
        ]
        answers += [fetch(page.url, f"/?token={TOKEN}x{n}") for n in range(5)]
        answers += [fetch(page.url, f"/?token={TOKEN}")]
    assert len(answers) == len(MALFORMED) * 3 + 12
    said = _log_text(caplog)
    assert said and TOKEN not in said and "Traceback" not in said


UNSENDABLE = ["abc\ndef", "abc\rdef", "abc\tdef", "abc\x00def", "abc\x7fdef", "abc\u2028def", "abc\u200bdef"]


@pytest.mark.parametrize("token", UNSENDABLE)
def test_a_token_no_client_can_send_is_refused_without_being_quoted(tmp_path: Path, token: str) -> None:
    with pytest.raises(ValidationError) as refused:
        DashboardsSettings.load(None, live={"read_token": token})
    said = describe_invalid(refused.value)
    assert "live.read_token has a control character" in said and "abc" not in said
    with pytest.raises(ValueError, match="control character"):
        DashboardsSettings.load(None, collector={"auth_token": token})
    written = tmp_path / "token"
    written.write_text(token + "\n", encoding="utf-8")
    with pytest.raises(TokenError, match=f"file {written} has a control character"):
        page_token(DashboardsSettings.load(None, live={"read_token_file": written}))
    with pytest.raises(ConfigError, match="has a control character"):
        check_collector_files(CollectorSettings(auth_token_file=written))


def test_serve_refuses_a_token_file_with_two_lines_in_one_line(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("first-half\nsecond-half\n")
    result = subprocess.run(
        [RAGPULSE, "serve", "--dsn", f"chdb://{tmp_path / 'db'}", "--port", "0", "--live-port", "0"],
        env={**_clean_environment(), "RAGPULSE_LIVE__READ_TOKEN_FILE": str(token_file)},
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    lines = (result.stdout + result.stderr).strip().splitlines()
    assert result.returncode != 0 and len(lines) == 1, lines
    assert "control character (U+000A) at position 11" in lines[0]
    assert "first-half" not in lines[0] and not (tmp_path / "db").exists()


def _clean_environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("RAGPULSE_", "OPENAI_", "OTEL_"))}
