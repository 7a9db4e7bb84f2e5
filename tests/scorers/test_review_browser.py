"""A reviewer labels 30 requests on the live page in Debian's headless chromium, the way a person does: sign
in, open the queue's next request, read it, tick the unsupported sentence, press a button, land on the next.
The review page then shows each judge against those labels with 95% intervals, and the free judge's rate
corrected for its measured errors with its interval, and the figures are the ones the labels imply."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from browser_testing import Chromium, DevTools
from live_testing import TOKEN, running_page
from ragpulse_core.store import Store
from ragpulse_dashboards.live import LivePage
from ragpulse_scorers.labels.agreement import Confusion
from ragpulse_scorers.labels.correction import enough
from ragpulse_scorers.review import in_uniform_share_sql
from review_data import judged_requests

REQUESTS = 160
LABELLED = 30


def _draws(seed: int = 29) -> list[tuple[bool, bool, bool | None]]:
    """Per request: whether it really is hallucinated (half are), the free judge's verdict (it catches four
    hallucinations in five and passes nine grounded answers in ten) and the LLM judge's (on every other
    request; it errs one time in twenty)."""
    draw = random.Random(seed)
    requests = []
    for index in range(REQUESTS):
        truth = draw.random() < 0.5
        lexical = draw.random() < (0.8 if truth else 0.1)
        llm = None if index % 2 else (truth if draw.random() < 0.95 else not truth)
        requests.append((truth, lexical, llm))
    return requests


DRAWS = _draws()


def _truth(index: int) -> bool:
    """Whether request ``index`` really is hallucinated (what the reviewer sees by reading it)."""
    return DRAWS[index][0]


def _judges(index: int) -> tuple[bool, bool | None]:
    return DRAWS[index][1], DRAWS[index][2]


@pytest.fixture
def page(store: Store) -> Iterator[LivePage]:
    judged_requests(store, [
        {"index": index, "lexical_bad": lexical, "support": 0.2 if lexical else 0.4 + (index % 50) / 100,
         "llm_bad": llm, "question": f"Q{index}: when does the museum open?"}
        for index, (lexical, llm) in enumerate(map(_judges, range(REQUESTS)))
    ])  # fmt: skip
    with running_page(store) as running:
        yield running


def _text(tab: DevTools) -> str:
    return " ".join(str(tab.evaluate("document.body.innerText")).split())


@pytest.mark.slow
def test_a_reviewer_labels_thirty_requests_and_the_page_measures_the_judges(
    page: LivePage, store: Store, chromium: Chromium
) -> None:
    tab = chromium.tab(1280, 900)
    labelled: list[int] = []
    try:
        tab.open(f"{page.url}?token={TOKEN}")
        tab.open(f"{page.url}review")
        assert "Review queue · all services" in _text(tab)
        tab.click("a.button")  # "Label the next request"
        tab.evaluate("document.querySelector('input[name=author]').value = 'Ana Reviewer'")
        for _ in range(LABELLED):
            assert tab.evaluate("location.pathname") == "/review/request"
            question = _text(tab).split("Question ", 1)[1]
            index = int(re.match(r"Q(\d+):", question).group(1))  # type: ignore[union-attr]
            assert index not in labelled, "a labelled request is never offered again"
            labelled.append(index)
            if _truth(index):
                tab.evaluate("document.querySelector('input[name=sentence][value=\"1\"]').checked = true")
                tab.click("button[value=hallucinated]")
            else:
                tab.click("button[value=grounded]")
        tab.open(f"{page.url}review")
        shown = _text(tab)
    finally:
        tab.close()

    stored = store.query(
        f"SELECT TraceId, Label, Sentences, Author, Source FROM {store.table('ragpulse_labels')} FINAL"
    )
    assert len(stored) == LABELLED
    assert {(author, source) for _, _, _, author, source in stored} == {("Ana Reviewer", "reviewer")}
    assert sorted(list(sentences) for _, label, sentences, _, _ in stored if label == "hallucinated") == [
        [1]
    ] * sum(_truth(index) for index in labelled)

    # The figures count the labels of requests the queue drew at random, and match what those labels say.
    drawn = {
        int(question.split(":")[0][1:])
        for (question,) in store.query(
            f"SELECT Question FROM {store.table('ragpulse_requests')} r WHERE {in_uniform_share_sql()}"
        )
    } & set(labelled)
    assert len(drawn) >= LABELLED // 3
    assert f"Reviewers labelled {LABELLED} requests here; {len(drawn)} of them were drawn at random" in shown
    bad = [index for index in drawn if _truth(index)]
    good = [index for index in drawn if not _truth(index)]
    caught = sum(_judges(index)[0] for index in bad) / len(bad)
    passed = sum(not _judges(index)[0] for index in good) / len(good)
    interval = r"\[-?[\d.]+, [\d.]+\]"
    lexical = re.search(
        rf"lexical museum · A {len(drawn)} ([\d.]+) {interval} ([\d.]+) {interval}"
        rf" ([\d.]+) {interval} (-?[\d.]+) {interval}",
        shown,
    )
    assert lexical, shown
    assert float(lexical.group(1)) == pytest.approx(caught, abs=0.006)
    assert float(lexical.group(2)) == pytest.approx(passed, abs=0.006)
    assert float(lexical.group(3)) == pytest.approx((caught + passed) / 2, abs=0.006)
    llm_labelled = sum(1 for index in drawn if _judges(index)[1] is not None)
    assert re.search(rf"support museum · A {llm_labelled} [\d.]+ {interval} [\d.]+ {interval}", shown)

    # The free judge's raw rate over every request it judged, corrected with its error rates: measured on
    # those reviewer labels once there are ten of each kind, else against the LLM judge where both judged.
    raw = sum(_judges(index)[0] for index in range(REQUESTS)) / REQUESTS
    reviewed = Confusion.of((_judges(index)[0], _truth(index)) for index in drawn)
    against_llm = Confusion.of(
        (lexical, llm) for lexical, llm in map(_judges, range(REQUESTS)) if llm is not None
    )
    chosen, source = (
        (reviewed, "reviewer labels on requests drawn at random")
        if enough(reviewed)
        else (against_llm, "agreement with the LLM judge support")
    )
    se = chosen.true_positives / chosen.positives
    sp = chosen.true_negatives / chosen.negatives
    corrected = re.search(
        rf"museum · A [\d.]+% \(\d+/{REQUESTS}\) ([\d.]+)% \[([\d.]+)%, ([\d.]+)%\] {source}", shown
    )
    assert corrected, shown
    expected = min(1.0, max(0.0, (raw + sp - 1) / (se + sp - 1)))
    value, low, high = (float(group) / 100 for group in corrected.groups())
    assert value == pytest.approx(expected, abs=0.0006) and low < value < high


@contextmanager
def _other_origin(body: str) -> Iterator[str]:
    """A page on another port of this host: same site (ports do not count), another origin."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_a_page_on_another_origin_cannot_label_through_a_signed_in_browser(
    page: LivePage, store: Store, chromium: Chromium
) -> None:
    target = store.query(f"SELECT TraceId, SpanId FROM {store.table('ragpulse_requests')} LIMIT 1")[0]
    tab = chromium.tab(1280, 900)
    try:
        tab.open(f"{page.url}?token={TOKEN}")
        tab.open(f"{page.url}review/next")  # the browser now holds the session and its form cookie
        own_key = tab.evaluate("document.querySelector('input[name=form_key]').value")
        for key in ("guessed", own_key):  # even a key copied from this browser's own form
            forged = (
                f"<form method='post' action='{page.url}review/label'>"
                f"<input name='form_key' value='{key}'><input name='trace' value='{target[0]}'>"
                f"<input name='span' value='{target[1]}'><input name='at' value='1'>"
                "<input name='label' value='grounded'><input name='author' value='mallory'>"
                "<button type='submit'>win a prize</button></form>"
            )
            with _other_origin(forged) as elsewhere:
                tab.open(elsewhere)
                tab.click("button")
                # Past the sign-in guard (the browser sent its cookies: same site), refused by origin.
                assert "The label was not taken The post was refused: it came from another site" in _text(tab)
    finally:
        tab.close()
    assert store.query(f"SELECT count() FROM {store.table('ragpulse_labels')}")[0][0] == 0
