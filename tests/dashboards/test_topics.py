"""Question topics learnt without a model: the topics planted in the words come back, named by them, and the
same questions always give the same topics."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_core.store import Store
from ragpulse_dashboards.rootcause import topic_store
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.rootcause.topics import NO_TOPIC, fit_topics
from ragpulse_dashboards.settings import RootCauseSettings
from rootcause_data import StoredRequest, minutes_ago, write_requests
from rootcause_scenarios import TOPIC_WORDS, question_of


def asked(count: int, seed: int = 1, topics: tuple[str, ...] = tuple(TOPIC_WORDS)) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    return [(topic, question_of(topic, rng)) for topic in rng.choices(topics, k=count)]


def test_topics_planted_in_the_words_come_back_named_by_them() -> None:
    questions = asked(6000)
    model = fit_topics(list(Counter(text for _, text in questions).items()))

    assigned = model.assign(text for _, text in questions)
    by_topic: dict[str, Counter[int]] = {}
    for (planted, _), topic in zip(questions, assigned, strict=True):
        by_topic.setdefault(planted, Counter())[topic] += 1
    names = {topic.id: topic.name for topic in model.topics}
    assert len(model.topics) == len(TOPIC_WORDS)
    for planted, found in by_topic.items():
        topic, count = found.most_common(1)[0]
        assert count / sum(found.values()) > 0.97, (planted, found)
        # Named by the words its questions are written in.
        assert set(names[topic].split(" · ")) <= set(TOPIC_WORDS[planted]), (planted, names[topic])


def test_the_same_questions_in_any_order_give_the_same_topics() -> None:
    questions = [text for _, text in asked(3000)]
    shuffled = list(questions)
    random.Random(7).shuffle(shuffled)

    first = fit_topics(list(Counter(questions).items()))
    second = fit_topics(list(Counter(shuffled).items()))

    assert first == second
    assert first.assign(questions) == second.assign(questions)


def test_a_refit_on_more_traffic_keeps_the_ids_of_the_topics_it_finds_again() -> None:
    three = ("billing", "login", "sso")
    earlier = fit_topics(list(Counter(text for _, text in asked(3000, topics=three)).items()))
    grown = asked(3000, seed=2, topics=three) + asked(1500, seed=3, topics=("webhooks",))
    later = fit_topics(list(Counter(text for _, text in grown).items()), previous=earlier)

    before = {topic.name.split(" · ")[0]: topic.id for topic in earlier.topics}
    after = {topic.id: topic for topic in later.topics}
    for topic_id in before.values():
        assert topic_id in after
    kept = [text for planted, text in grown if planted in three]
    assert earlier.assign(kept) == later.assign(kept)
    # The new kind of question gets a new id.
    [new] = [topic for topic in later.topics if topic.id not in before.values()]
    assert "webhook" in new.name or "webhooks" in new.name


def test_a_question_like_no_topic_has_none() -> None:
    model = fit_topics(list(Counter(text for _, text in asked(2000)).items()))
    assert model.assign(["Qu'est-ce que la photosynthèse ?", "", "   "]) == [NO_TOPIC] * 3


@given(st.lists(st.text(max_size=300), max_size=40), st.lists(st.text(max_size=2000), max_size=20))
def test_fitting_and_assigning_any_text_gives_topic_ids(fitted: list[str], questions: list[str]) -> None:
    model = fit_topics([(text, 1) for text in fitted + [q for _, q in asked(30)]])
    ids = {topic.id for topic in model.topics} | {NO_TOPIC}
    assert set(model.assign(questions)) <= ids


def test_requests_get_the_topic_of_their_question_and_topics_are_learnt_from_traffic(store: Store) -> None:
    questions = asked(300)
    write_requests(
        store,
        [
            StoredRequest(minutes_ago(300 - i), i % 4 == 0, question=text)
            for i, (_, text) in enumerate(questions)
        ],
    )
    update = update_facts(store, RootCauseSettings(), now=minutes_ago(0) + timedelta(seconds=1))

    assert update.topics == len(TOPIC_WORDS)
    names = topic_store.topic_names(store)
    rows = store.query(
        f"SELECT Topic, count() FROM {store.table('ragpulse_request_facts')} GROUP BY Topic ORDER BY Topic"
    )
    assert {int(topic) for topic, _ in rows} == set(names)
    assert sum(int(n) for _, n in rows) == 300
