# ruff: noqa: E501
"""Blind wave D: services whose template puts the user's question where a reader may miss it or take it for a
document, in six languages, written before the question slot was reworked and measured before any change.

    python tests/assembly_templates/blind/make_wave_d.py   # writes wave_d/*.json (deterministic)

The layouts (each following a framework default, product or vendor guide, named in ``source``):
- the question line has the documents' shape (``QUESTION: '…'`` then ``PASSAGE: '…'`` lines; JSON-ish fields);
- the question after the documents in the same user message, behind a constant label;
- the documents inlined in the system message joined by an inline separator, the question the whole user message;
- records of several labelled fields per document, then the question under a markdown heading;
- few-shot: worked example question/answer pairs (with their own example documents) before the real ones.
Documents come from a per-language pool, so a search's documents recur across requests in other company and
order; the question shares words with the documents retrieved for it, as retrieval makes it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from wave_writer import write_wave

HERE = Path(__file__).resolve().parent / "wave_d"
REQUESTS = 16


@dataclass(frozen=True)
class Doc:
    name: str
    text: str
    question: str


def _docs(rows: list[tuple[str, str, str]]) -> list[Doc]:
    return [Doc(name, text, question) for name, text, question in rows]


EN = _docs([
    ("parking.md", "Staff parking is in garage B, levels 2 to 4. Permits are renewed every January at the front desk.",
     "where is staff parking"),
    ("expenses.md", "Expense claims are filed in Concur within 30 days of purchase.\nReceipts over 25 dollars must be attached.",
     "when must expense claims be filed"),
    ("laptops.md", "Laptops are replaced every four years. A broken laptop is swapped within two working days by IT.",
     "how often are laptops replaced"),
    ("travel.md", "Economy class is booked for flights under six hours. Longer flights may be booked in premium economy.",
     "which class can I book for long flights"),
    ("holidays.md", "Full-time staff get 27 days of annual leave plus public holidays. Up to 5 days carry over.",
     "how many days of annual leave do I get"),
    ("wifi.md", "The guest Wi-Fi network is Harbor-Guest; its password changes every Monday and is shown at reception.",
     "what is the guest wifi password"),
    ("training.md", "Each employee has a training budget of 1,200 dollars a year.\nConferences count towards the budget.",
     "what is the training budget"),
    ("badges.md", "Lost badges are reported to security on extension 4400. A replacement badge costs 15 dollars.",
     "what do I do if I lose my badge"),
])  # fmt: skip

ES = _docs([
    ("tarjeta", "La tarjeta de débito se bloquea desde la app en Tarjetas > Bloquear. El desbloqueo es inmediato.",
     "cómo bloqueo mi tarjeta de débito"),
    ("transferencias", "Las transferencias SPEI se reflejan en menos de un minuto.\nEl límite diario es de 50,000 pesos.",
     "cuál es el límite diario de transferencias"),
    ("cajeros", "Retirar en cajeros de la red propia no tiene comisión. En otros bancos cuesta 30 pesos por retiro.",
     "cuánto cuesta retirar en otros cajeros"),
    ("credito", "La tarjeta de crédito Oro pide ingresos mínimos de 15,000 pesos al mes. La anualidad es de 900 pesos.",
     "qué ingresos pide la tarjeta oro"),
    ("estado-cuenta", "El estado de cuenta se descarga en PDF desde la banca en línea.\nSe conservan los últimos 24 meses.",
     "cómo descargo mi estado de cuenta"),
    ("ahorro", "La cuenta de ahorro paga 8 por ciento anual sobre saldos desde 1,000 pesos. Los intereses se pagan cada mes.",
     "cuánto paga la cuenta de ahorro"),
    ("aclaraciones", "Una aclaración por cargo no reconocido se resuelve en un máximo de 45 días hábiles.",
     "cuánto tarda una aclaración"),
    ("nomina", "Al recibir la nómina en el banco, la cuenta no cobra comisión por manejo de cuenta.",
     "la cuenta de nómina cobra comisión"),
])  # fmt: skip

DE = _docs([
    ("Rücksendung", "Rücksendungen sind innerhalb von 30 Tagen kostenlos. Das Etikett steht im Kundenkonto bereit.",
     "wie lange kann ich kostenlos zurücksenden"),
    ("Lieferzeit", "Die Lieferzeit beträgt in Deutschland zwei bis drei Werktage.\nNach Österreich dauert es bis zu fünf Werktage.",
     "wie lange dauert die lieferung nach österreich"),
    ("Zahlungsarten", "Wir akzeptieren PayPal, Kreditkarte und Rechnung. Kauf auf Rechnung ist bis 500 Euro möglich.",
     "bis zu welchem betrag kann ich auf rechnung kaufen"),
    ("Garantie", "Auf alle Fahrräder gilt eine Garantie von fünf Jahren auf den Rahmen. Verschleißteile sind ausgenommen.",
     "wie lange gilt die garantie auf den rahmen"),
    ("Gutscheine", "Gutscheine sind drei Jahre gültig und können nicht bar ausgezahlt werden.",
     "wie lange sind gutscheine gültig"),
    ("Montage", "Die Endmontage übernimmt auf Wunsch unser Partner vor Ort.\nDer Service kostet 49 Euro.",
     "was kostet die montage"),
    ("Inspektion", "Die erste Inspektion nach 300 Kilometern ist im Kaufpreis enthalten. Termine vergibt die Werkstatt.",
     "ist die erste inspektion kostenlos"),
    ("Leasing", "Dienstradleasing bieten wir über JobRad und Bikeleasing an. Die Laufzeit beträgt 36 Monate.",
     "welche laufzeit hat das dienstradleasing"),
])  # fmt: skip

FR = _docs([
    ("abonnement", "L'abonnement mensuel coûte 39 euros et donne accès à toutes les salles du réseau.",
     "combien coûte l'abonnement mensuel"),
    ("resiliation", "La résiliation est possible à tout moment avec un préavis d'un mois.\nElle se fait depuis l'espace membre.",
     "comment résilier mon abonnement"),
    ("horaires", "Les salles sont ouvertes de 6 h à 23 h en semaine et de 8 h à 20 h le week-end.",
     "quels sont les horaires d'ouverture le week-end"),
    ("invites", "Chaque membre peut venir avec un invité deux fois par mois. L'invité doit présenter une pièce d'identité.",
     "puis-je venir avec un invité"),
    ("coaching", "Une séance de coaching individuel coûte 45 euros.\nLa première séance est offerte aux nouveaux membres.",
     "combien coûte une séance de coaching"),
    ("suspension", "L'abonnement peut être suspendu jusqu'à trois mois par an pour raison médicale.",
     "puis-je suspendre mon abonnement"),
    ("casiers", "Les casiers sont gratuits pendant la séance. Un casier à l'année coûte 60 euros.",
     "les casiers sont-ils payants"),
    ("parrainage", "Parrainer un ami offre un mois gratuit au parrain et au filleul.",
     "que gagne-t-on avec le parrainage"),
])  # fmt: skip

JA = _docs([
    ("返品", "商品到着後14日以内であれば返品できます。返送料はお客様のご負担です。",
     "返品は何日以内にできますか"),
    ("配送", "通常配送は注文から3日以内に発送します。\n離島への配送は追加で5日かかります。",
     "離島への配送は何日かかりますか"),
    ("ポイント", "購入金額の1%がポイントとして付与されます。ポイントの有効期限は1年です。",
     "ポイントの有効期限はいつまでですか"),
    ("支払い", "支払い方法はクレジットカード、コンビニ払い、代金引換に対応しています。",
     "代金引換は使えますか"),
    ("会員登録", "会員登録は無料です。\n登録すると誕生日月に500円クーポンが届きます。",
     "会員登録は無料ですか"),
    ("ギフト", "ギフト包装は1点につき300円で承ります。メッセージカードは無料です。",
     "ギフト包装はいくらですか"),
    ("サイズ交換", "サイズ交換は1回まで無料です。在庫がない場合は返金となります。",
     "サイズ交換は無料ですか"),
    ("領収書", "領収書はマイページの注文履歴からダウンロードできます。",
     "領収書はどこで発行できますか"),
])  # fmt: skip

ZH = _docs([
    ("退款", "订单签收后7天内可申请无理由退款，退款在3个工作日内原路返回。",
     "退款多久能到账"),
    ("发票", "电子发票在订单完成后24小时内发送到您的邮箱。\n如需纸质发票请联系客服。",
     "电子发票什么时候发送"),
    ("会员", "年度会员费为198元，会员购物全场免运费。",
     "年度会员费是多少"),
    ("积分", "每消费1元积1分，100积分可抵扣1元，积分有效期为两年。",
     "积分有效期多久"),
    ("配送", "同城订单当日达，其他地区一般2到4天送达。\n偏远地区可能延迟。",
     "其他地区多久送达"),
    ("保修", "家电类商品享受一年免费保修，人为损坏不在保修范围内。",
     "家电保修多久"),
    ("换货", "收到商品有质量问题的，15天内可免费换货。",
     "质量问题可以换货吗"),
    ("客服", "人工客服工作时间为每天9点到21点，其他时间请留言。",
     "人工客服几点上班"),
])  # fmt: skip

PT = _docs([
    ("consulta", "Consultas de rotina podem ser marcadas pelo aplicativo com até 30 dias de antecedência.",
     "como marco uma consulta de rotina"),
    ("reembolso", "O reembolso de consultas fora da rede é pago em até 30 dias.\nEnvie a nota fiscal pelo aplicativo.",
     "em quanto tempo sai o reembolso"),
    ("carencia", "A carência para exames simples é de 30 dias e para internações é de 180 dias.",
     "qual a carência para internação"),
    ("dependentes", "Filhos podem ser incluídos como dependentes até completarem 24 anos.",
     "até que idade filhos são dependentes"),
    ("telemedicina", "A telemedicina funciona 24 horas por dia.\nNão há coparticipação nas teleconsultas.",
     "a telemedicina tem coparticipação"),
    ("urgencia", "Em casos de urgência, qualquer hospital da rede atende sem autorização prévia.",
     "preciso de autorização na urgência"),
    ("carteirinha", "A carteirinha digital fica no aplicativo e vale como documento no atendimento.",
     "onde fica a carteirinha digital"),
    ("odonto", "O plano odontológico é contratado à parte e custa 39 reais por mês.",
     "quanto custa o plano odontológico"),
])  # fmt: skip

Render = Callable[[list[Doc], str, random.Random], list[dict[str, str]]]


def quoted(text: str) -> str:
    """A value as a Python repr-like single-quoted string on one line."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", " ") + "'"


def ledger_kv(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    lines = "\n".join(f"PASSAGE: {quoted(d.text)}" for d in docs)
    return [
        {
            "role": "system",
            "content": "You answer questions about company policy. Use only the passages given. If they do not answer the question, say you do not know.",
        },
        {"role": "user", "content": f"QUESTION: {quoted(question)}\n{lines}\n\nANSWER:"},
    ]


def campos_es(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    lines = "\n".join(f'fragmento: "{d.text.replace(chr(10), " ")}"' for d in docs)
    return [
        {
            "role": "user",
            "content": "Responde en español a la consulta del cliente usando únicamente los fragmentos.\n"
            f'consulta: "{question}"\n{lines}\nrespuesta:',
        }
    ]


def nachgestellt_de(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n\n---\n\n".join(d.text for d in docs)
    return [
        {
            "role": "system",
            "content": "Du bist der Kundenservice von Velohaus. Antworte kurz und freundlich auf Deutsch.",
        },
        {
            "role": "user",
            "content": f"Hier sind Auszüge aus unserer Wissensdatenbank:\n\n{body}\n\nBeantworte anhand dieser Auszüge die folgende Kundenfrage:\n{question}",
        },
    ]


def trailing_fr(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n".join(f"- {d.text.replace(chr(10), ' ')}" for d in docs)
    return [
        {
            "role": "user",
            "content": "Tu es l'assistant du réseau de salles FitCité. Sers-toi uniquement des informations ci-dessous.\n\n"
            f"Informations :\n{body}\n\nQuestion posée par le membre : {question}",
        }
    ]


def inline_system_en(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = " || ".join(d.text.replace("\n", " ") for d in docs)
    return [
        {
            "role": "system",
            "content": f"You are the Harbor office assistant. Answer from this context only: {body}",
        },
        {"role": "user", "content": question},
    ]


def inline_system_ja(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = " ／ ".join(d.text.replace("\n", "") for d in docs)
    return [
        {
            "role": "system",
            "content": f"あなたはオンラインショップのサポート担当です。次の情報だけを使って答えてください。情報：{body}",
        },
        {"role": "user", "content": question},
    ]


def records_md(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n\n".join(
        f"collection: {('handbook', 'it-kb', 'facilities')[len(d.name) % 3]}\npath: /policies/{d.name}\nexcerpt: {d.text}"
        for d in docs
    )
    return [
        {
            "role": "system",
            "content": "You are an internal knowledge assistant. Cite the path of every source you use.",
        },
        {"role": "user", "content": f"## Retrieved sources\n\n{body}\n\n## Question\n\n{question}"},
    ]


def registros_pt(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n\n".join(f"Base: manual-do-beneficiario\nArquivo: {d.name}.pdf\nTrecho: {d.text}" for d in docs)
    return [
        {
            "role": "user",
            "content": "Você é a assistente virtual do plano de saúde Vivamed. Responda em português.\n\n"
            f"### Documentos encontrados\n\n{body}\n\n### Pergunta do beneficiário\n\n{question}",
        }
    ]


FEW_EN = (
    (
        "Our cafeteria opens at 7:30 and closes at 15:00 on weekdays.",
        "when does the cafeteria open",
        "It opens at 7:30 on weekdays.",
    ),
    (
        "Printers on every floor accept badge release; colour printing needs manager approval.",
        "do I need approval for colour printing",
        "Yes, colour printing needs manager approval.",
    ),
)


def fewshot_en(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    examples = "\n\n".join(f"Context:\n{c}\n\nQuestion: {q}\nAnswer: {a}" for c, q, a in FEW_EN)
    body = "\n\n".join(d.text for d in docs)
    return [
        {
            "role": "system",
            "content": "Answer questions using only the context. Follow the format of the examples.",
        },
        {
            "role": "user",
            "content": f"{examples}\n\n---\n\nContext:\n{body}\n\nQuestion: {question}\nAnswer:",
        },
    ]


FEW_ZH = (
    ("门店营业时间为每天10点到22点。", "门店几点关门", "门店晚上10点关门。"),
    ("购物满99元包邮，不满99元收取运费8元。", "运费怎么收", "满99元包邮，否则运费8元。"),
)


def fewshot_zh(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    messages: list[dict[str, str]] = [
        {"role": "system", "content": "你是电商平台的客服助手，只根据【资料】回答问题。"}
    ]
    for context, q, a in FEW_ZH:
        messages.append({"role": "user", "content": f"【资料】\n{context}\n【问题】\n{q}"})
        messages.append({"role": "assistant", "content": a})
    body = "\n".join(f"{n}. {d.text.replace(chr(10), '')}" for n, d in enumerate(docs, 1))
    messages.append({"role": "user", "content": f"【资料】\n{body}\n【问题】\n{question}"})
    return messages


FEW_DE = (
    (
        "Die Filiale in Kiel hat samstags bis 14 Uhr geöffnet.",
        "wie lange hat die filiale in kiel samstags offen",
        "Bis 14 Uhr.",
    ),
)


def fewshot_quoted_de(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    example = "\n".join(f"FRAGE: {quoted(q)}\nTEXT: {quoted(c)}\nANTWORT: {a}" for c, q, a in FEW_DE)
    lines = "\n".join(f"TEXT: {quoted(d.text)}" for d in docs)
    return [
        {
            "role": "user",
            "content": "Beantworte die Frage nur mit den Texten. Beispiel:\n\n"
            f"{example}\n\nJetzt du:\n\nFRAGE: {quoted(question)}\n{lines}\nANTWORT:",
        }
    ]


SERVICES: list[tuple[str, str, str, list[Doc], Render]] = [
    ("ledger-policy-qa", "RAGAS/DSPy-style field prompt: QUESTION then PASSAGE lines, Python-quoted values",
     "question line with the documents' shape, before them", EN, ledger_kv),
    ("banco-campos-es", "Spanish bank assistant, 'consulta:' and 'fragmento:' lines with double-quoted values",
     "question line with the documents' shape, before them", ES, campos_es),
    ("velohaus-de", "German shop assistant, knowledge-base excerpts joined by ---, question after a label line",
     "question after the documents in the user message, behind a constant label line", DE, nachgestellt_de),
    ("fitcite-fr", "French gym assistant, bulleted information, question after 'Question posée par le membre :'",
     "question after the documents in the same user message, behind a constant label", FR, trailing_fr),
    ("harbor-inline-sys", "System prompt with inlined context joined by ' || ' (Vercel AI SDK RAG guide style)",
     "documents in the system message joined inline, the question the whole user message", EN, inline_system_en),
    ("mise-inline-ja", "Japanese shop support, context inlined in the system prompt joined by '／'",
     "documents in the system message joined inline, the question the whole user message", JA, inline_system_ja),
    ("atlas-records-md", "Internal knowledge assistant, collection/path/excerpt records, '## Question' heading",
     "records of labelled fields per document, the question under a markdown heading", EN, records_md),
    ("vivamed-registros-pt", "Portuguese health-plan assistant, Base/Arquivo/Trecho records, '### Pergunta' heading",
     "records of labelled fields per document, the question under a markdown heading", PT, registros_pt),
    ("harbor-fewshot", "LangChain FewShotPromptTemplate over a context/question/answer example prompt",
     "two worked examples with their own context before the real documents and question", EN, fewshot_en),
    ("shangcheng-fewshot-zh", "Chinese e-commerce assistant with few-shot example turns as messages",
     "example user/assistant turns with 【资料】/【问题】 before the real one", ZH, fewshot_zh),
    ("velohaus-fewshot-de", "German few-shot with FRAGE/TEXT lines, example first",
     "a worked example in the documents' own shape, then FRAGE and TEXT lines", DE, fewshot_quoted_de),
]  # fmt: skip


def _answer(target: Doc, rng: random.Random) -> tuple[str, bool]:
    first = target.text.split("\n")[0].split(". ")[0].split("。")[0].rstrip(".") + "."
    if rng.random() < 0.4:
        return f"{first} This also applies to all partner offices.", True
    return first, False


def build() -> None:
    write_wave("wave_d", HERE, SERVICES, seed=4000, requests=REQUESTS, answer=_answer, as_sent=_as_sent)


def _as_sent(text: str, messages: list[dict[str, str]]) -> str:
    """The document as the prompt holds it: templates that write one line per document flatten its line
    breaks (to a space, or to nothing in Japanese and Chinese)."""
    prompt = "\n".join(m["content"] for m in messages)
    for variant in (text, text.replace("\n", " "), text.replace("\n", "")):
        if variant in prompt:
            return variant
    raise ValueError(f"document not in its prompt: {text[:40]!r}")


if __name__ == "__main__":
    build()
