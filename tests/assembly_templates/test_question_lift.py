"""The question in a slot beside another short value that varies (today's date, a user's name) whose words
every document holds alike (the characters of a date in Chinese, "月", "日"; a language's common words), and
that never ends with a question mark. Which slot documents were retrieved for is told by how much more of its
words its own prompt's documents hold than other prompts' documents do. Every request is read right or
refused, never on a wrong context."""

from __future__ import annotations

import random

from both_readers import right_shares
from drawn import SCRIPTS, sentence, word
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streams import Stream, StreamRequest


def _word(rng: random.Random, script: str) -> str:
    """A word; in Chinese two to four of a few thousand characters (the drawn alphabet of thirty would put
    every character in every document)."""
    if script != "cjk":
        return word(rng, script)
    return "".join(chr(0x4E00 + rng.randrange(3000)) for _ in range(rng.randint(2, 4)))


def _joined(script: str, words: list[str]) -> str:
    return ("" if script == "cjk" else " ").join(words)


def lifted_stream(seed: int, script: str) -> Stream:
    """Twenty-four requests, each with two to four of eight documents between numbered begin and end marks,
    instructions holding a varying value made of the common words every document holds, and the question
    (words of one of its documents, and common words) under a heading after them."""
    rng = random.Random(seed)
    common = [_word(rng, script) for _ in range(5)]
    pool: list[str] = []
    own_words: dict[str, list[str]] = {}
    for _ in range(8):
        own = [_word(rng, script) for _ in range(6)]
        sentences = [rng.sample(own, 4) + rng.sample(common, 3) for _ in range(2)]
        for words in sentences:
            rng.shuffle(words)
        pool.append(" ".join(_joined(script, words) + "." for words in sentences))
        own_words[pool[-1]] = own
    instruction, rules, heading = sentence(rng, script), sentence(rng, script), word(rng, script)
    requests = []
    for _ in range(24):
        chosen = rng.sample(pool, rng.randint(2, 4))
        source = rng.choice(chosen)
        words = [w for w in own_words[source] if w not in common]
        asked = _joined(script, [*rng.sample(words, 3), rng.choice(common)])
        value = _joined(script, [*rng.sample(common, 2), str(rng.randint(1, 28))])
        body = "\n".join(f"[doc {n} begin]{doc}[doc {n} end]" for n, doc in enumerate(chosen, 1))
        text = f"{instruction}\n{body}\n{rules}\n- {value}\n\n# {heading}:\n{asked}"
        requests.append(StreamRequest([("user", text)], tuple(chosen), asked, "An answer."))
    return Stream(f"{script}/{seed}", requests)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SCRIPTS)))
def test_the_question_beside_a_value_of_common_words_is_found(seed: int, script: str) -> None:
    alone, both = right_shares(lifted_stream(seed, script))

    assert alone >= 2 / 3 and both >= 2 / 3, (alone, both)


_JAPANESE = (
    "返品は商品到着後14日以内に受け付けます。開封済みの食品は返品できません。",
    "送料は全国一律500円です。5000円以上のご注文で送料無料になります。",
    "ポイントは購入金額100円につき1ポイント付与され、有効期限は1年です。",
    "配達日時は注文確認画面で指定できます。午前中指定は一部地域を除きます。",
    "会員登録は無料です。登録後すぐにクーポンが届きます。",
    "ギフト包装は1点につき200円で承ります。のし紙も無料でお付けします。",
    "在庫切れの商品は入荷次第メールでお知らせします。予約注文も可能です。",
)
_ASKED = (
    "返品できる期間は何日以内",
    "送料が無料になる金額",
    "ポイントの有効期限",
    "午前中の配達指定はできる",
    "ギフト包装の料金",
    "在庫切れの商品の入荷連絡",
)


def test_a_fresh_japanese_template_with_the_date_finds_its_question() -> None:
    """A template no wave holds: results between 【資料n】 and 【/資料n】, today's date in the rules (its
    characters, 月 and 日, in many results too), the question under a heading, no question mark."""
    rng = random.Random(12)
    requests = []
    for _ in range(24):
        asked = rng.choice(_ASKED)
        source = _JAPANESE[_ASKED.index(asked) + (_ASKED.index(asked) >= 4)]
        chosen = [source, *rng.sample([d for d in _JAPANESE if d != source], rng.randint(1, 3))]
        rng.shuffle(chosen)
        body = "\n".join(f"【資料{n}】{doc}【/資料{n}】" for n, doc in enumerate(chosen, 1))
        date = f"2025年{rng.randint(1, 12)}月{rng.randint(1, 28)}日"
        text = (
            f"以下は検索結果です。\n{body}\n回答のルール：\n- 本日は{date}です。"
            f"\n- 資料にないことは答えないでください。\n\n## ユーザーの質問\n{asked}"
        )
        requests.append(StreamRequest([("user", text)], tuple(chosen), asked, "回答です。"))
    alone, both = right_shares(Stream("ja", requests))

    assert alone >= 0.9 and both >= 0.9, (alone, both)
