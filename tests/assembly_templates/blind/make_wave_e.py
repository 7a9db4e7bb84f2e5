# ruff: noqa: E501
"""Blind wave E: thirteen services whose templates follow real public defaults of the kinds the held-out wave
still misreads: few-shot prompts whose worked examples have the live documents' shape, header lines with
several varying fields, Chinese templates whose documents span several lines, records then the question under a
markdown heading, web-search results inlined in a system or tool message, and chat with history before the
current turn. Written before any change to the reader and measured before it.

    python tests/assembly_templates/blind/make_wave_e.py   # writes wave_e/*.json (deterministic)

Each service names the default it follows in ``source``. Documents come from per-language pools, so a search's
documents recur across requests in other company and order; scores, dates and history vary per request; two
chunks of one file carry the same source name, so a header's source repeats across some items but not all.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from wave_writer import write_wave

HERE = Path(__file__).resolve().parent / "wave_e"
REQUESTS = 32


@dataclass(frozen=True)
class Doc:
    source: str
    title: str
    url: str
    text: str
    question: str


def _docs(rows: list[tuple[str, str, str, str, str]]) -> list[Doc]:
    return [Doc(*row) for row in rows]


EN = _docs([
    ("benefits-guide.pdf", "Dental coverage", "https://intranet.northwind.example/benefits/dental",
     "Dental cover pays 80% of routine treatment after a 3-month waiting period.\nOrthodontics is covered for children under 18 only.",
     "what does dental cover pay for routine treatment"),
    ("benefits-guide.pdf", "Vision care", "https://intranet.northwind.example/benefits/vision",
     "Employees get one eye test every two years and 150 dollars towards glasses or contact lenses.",
     "how much do I get towards glasses"),
    ("remote-work-policy.docx", "Working from abroad", "https://intranet.northwind.example/remote/abroad",
     "Working from another country is allowed for up to 20 days a year. Longer stays need approval from HR and Legal.",
     "can I work from another country"),
    ("remote-work-policy.docx", "Home office allowance", "https://intranet.northwind.example/remote/allowance",
     "A one-off home office allowance of 400 dollars covers a desk, a chair or a monitor.\nReceipts are uploaded in Workday.",
     "what is the home office allowance"),
    ("it-handbook.md", "Password rotation", "https://intranet.northwind.example/it/passwords",
     "Passwords must be at least 14 characters. They no longer expire, but are reset at once after a suspected leak.",
     "how long must my password be"),
    ("it-handbook.md", "Software requests", "https://intranet.northwind.example/it/software",
     "Software not in the self-service catalogue is requested through a ServiceNow ticket and approved within five working days.",
     "how do I request new software"),
    ("parental-leave.pdf", "Parental leave", "https://intranet.northwind.example/people/parental-leave",
     "Primary carers get 26 weeks of paid leave and secondary carers 6 weeks.\nLeave can start up to two weeks before the due date.",
     "how much parental leave do primary carers get"),
    ("security-faq.md", "Reporting phishing", "https://intranet.northwind.example/security/phishing",
     "Forward suspicious emails with the Report Phish button in Outlook. Do not click links or open attachments first.",
     "how do I report a phishing email"),
    ("travel-policy.pdf", "Hotel limits", "https://intranet.northwind.example/travel/hotels",
     "Hotels are booked through Navan up to 220 dollars a night in large cities and 160 dollars elsewhere.",
     "what is the hotel limit in large cities"),
    ("travel-policy.pdf", "Per diem", "https://intranet.northwind.example/travel/per-diem",
     "The daily meal allowance is 75 dollars on travel days. Alcohol is never reimbursed.",
     "what is the daily meal allowance"),
])  # fmt: skip

WEB = _docs([
    ("nasa.gov", "Artemis II crew", "https://www.nasa.gov/artemis-ii-crew",
     "Artemis II will carry four astronauts around the Moon. The crew includes the first Canadian to fly to lunar distance.",
     "who is on the artemis ii crew"),
    ("wikipedia.org", "Great Barrier Reef", "https://en.wikipedia.org/wiki/Great_Barrier_Reef",
     "The Great Barrier Reef is the largest coral reef system in the world, stretching over 2,300 kilometres off Queensland.",
     "how long is the great barrier reef"),
    ("wikipedia.org", "Coral bleaching", "https://en.wikipedia.org/wiki/Coral_bleaching",
     "Coral bleaching happens when corals expel the algae living in their tissue, usually because the water is too warm.",
     "what causes coral bleaching"),
    ("who.int", "Measles fact sheet", "https://www.who.int/news-room/fact-sheets/detail/measles",
     "Measles is highly contagious. Two doses of the vaccine are about 97% effective at preventing infection.",
     "how effective is the measles vaccine"),
    ("python.org", "Python 3.13 release", "https://www.python.org/downloads/release/python-3130/",
     "Python 3.13 adds an experimental free-threaded build and a new interactive interpreter with colour tracebacks.",
     "what is new in python 3.13"),
    ("bbc.co.uk", "Tour de France route", "https://www.bbc.co.uk/sport/cycling/tour-route",
     "The 2025 Tour de France started in Lille and finished on the Champs-Élysées after 21 stages.",
     "where did the 2025 tour de france start"),
    ("metoffice.gov.uk", "UK heatwave record", "https://www.metoffice.gov.uk/weather/heat-record",
     "The UK's highest temperature, 40.3 °C, was recorded at Coningsby in Lincolnshire on 19 July 2022.",
     "what is the highest temperature recorded in the uk"),
    ("nature.com", "Honeybee navigation", "https://www.nature.com/articles/bee-navigation",
     "Honeybees use the position of the sun and polarised light to navigate.\nForagers tell others where food is with a waggle dance.",
     "how do honeybees navigate"),
    ("who.int", "Malaria vaccine", "https://www.who.int/news/malaria-vaccine",
     "The R21 malaria vaccine was recommended by WHO in 2023 for children in areas where malaria is common.",
     "which malaria vaccine did who recommend in 2023"),
])  # fmt: skip

DE = _docs([
    ("stadtwerke.de", "Fernwärme Tarife", "https://www.stadtwerke-aue.example/fernwaerme/tarife",
     "Der Grundpreis für Fernwärme beträgt 14,20 Euro im Monat. Der Arbeitspreis wird jährlich zum 1. Januar angepasst.",
     "wie hoch ist der grundpreis für fernwärme"),
    ("stadtwerke.de", "Hausanschluss", "https://www.stadtwerke-aue.example/hausanschluss",
     "Einen neuen Hausanschluss beantragen Sie online. Die Bearbeitung dauert etwa sechs Wochen.",
     "wie lange dauert ein neuer hausanschluss"),
    ("verbraucherzentrale.de", "Strompreisbremse", "https://www.verbraucherzentrale.example/strompreisbremse",
     "Die Strompreisbremse galt bis Ende 2023. Sie deckelte den Preis für 80 Prozent des Vorjahresverbrauchs.",
     "bis wann galt die strompreisbremse"),
    ("bundesnetzagentur.de", "Anbieterwechsel", "https://www.bundesnetzagentur.example/anbieterwechsel",
     "Ein Wechsel des Stromanbieters ist seit 2025 innerhalb von 24 Stunden möglich. Der neue Anbieter kündigt für Sie.",
     "wie schnell geht ein anbieterwechsel"),
    ("stadtwerke.de", "Ladekarte", "https://www.stadtwerke-aue.example/emobil/ladekarte",
     "Mit der Ladekarte laden Sie an allen 120 Säulen der Stadtwerke für 0,49 Euro je Kilowattstunde.",
     "was kostet das laden mit der ladekarte"),
    ("verbraucherzentrale.de", "Balkonkraftwerk", "https://www.verbraucherzentrale.example/balkonkraftwerk",
     "Balkonkraftwerke bis 800 Watt müssen nur im Marktstammdatenregister angemeldet werden.\nDer Netzbetreiber muss nicht zustimmen.",
     "muss ich ein balkonkraftwerk anmelden"),
    ("bafa.de", "Wärmepumpe Förderung", "https://www.bafa.example/waermepumpe",
     "Für den Einbau einer Wärmepumpe gibt es eine Grundförderung von 30 Prozent der Kosten.",
     "wie hoch ist die förderung für eine wärmepumpe"),
    ("stadtwerke.de", "Abschlagszahlung", "https://www.stadtwerke-aue.example/abschlag",
     "Der Abschlag wird monatlich am 15. abgebucht. Änderungen sind bis zum 5. des Monats möglich.",
     "wann wird der abschlag abgebucht"),
])  # fmt: skip

ES = _docs([
    ("Ayuda Aerolínea", "Equipaje de mano", "https://ayuda.vuelasur.example/equipaje/mano",
     "Cada pasajero puede llevar una maleta de mano de hasta 10 kg y un bolso pequeño bajo el asiento.",
     "cuánto peso puede tener la maleta de mano"),
    ("Ayuda Aerolínea", "Cambios de vuelo", "https://ayuda.vuelasur.example/reservas/cambios",
     "Los cambios de fecha cuestan 45 euros más la diferencia de tarifa.\nLas tarifas Flex permiten cambios gratis.",
     "cuánto cuesta cambiar la fecha del vuelo"),
    ("Blog de Viajes", "Facturación en línea", "https://blog.vuelasur.example/facturacion-online",
     "La facturación en línea abre 48 horas antes de la salida y cierra 2 horas antes.",
     "cuándo abre la facturación en línea"),
    ("Ayuda Aerolínea", "Mascotas en cabina", "https://ayuda.vuelasur.example/mascotas",
     "Perros y gatos de hasta 8 kg viajan en cabina dentro de un transportín. Hay que reservarlo con antelación.",
     "pueden viajar perros en cabina"),
    ("Condiciones Generales", "Retrasos y compensaciones", "https://legal.vuelasur.example/compensaciones",
     "Con un retraso de más de tres horas en la llegada, la compensación va de 250 a 600 euros según la distancia.",
     "qué compensación hay por un retraso de tres horas"),
    ("Blog de Viajes", "Asientos con más espacio", "https://blog.vuelasur.example/asientos-xl",
     "Los asientos XL de las filas 1 y 12 tienen 20 cm más para las piernas.\nCuestan desde 18 euros por trayecto.",
     "cuánto cuestan los asientos xl"),
    ("Condiciones Generales", "Equipaje perdido", "https://legal.vuelasur.example/equipaje-perdido",
     "El equipaje perdido se reclama en el mostrador del aeropuerto antes de salir de la zona de llegadas.",
     "dónde reclamo el equipaje perdido"),
    ("Ayuda Aerolínea", "Menores sin acompañante", "https://ayuda.vuelasur.example/menores",
     "Los menores de 5 a 12 años pueden viajar solos con el servicio de acompañamiento por 60 euros.",
     "pueden viajar solos los menores"),
])  # fmt: skip

ZH = _docs([
    ("员工手册.pdf", "年假", "",
     "员工入职满一年后享有5天带薪年假。\n工作满十年的员工年假增加到10天。\n年假可以分次使用。",
     "年假有几天"),
    ("员工手册.pdf", "病假", "",
     "病假需要提供医院证明。\n每年前10天病假工资按全额发放。",
     "病假工资怎么算"),
    ("报销制度.docx", "差旅报销", "",
     "出差住宿标准为一线城市每晚500元，其他城市每晚350元。\n报销需在出差结束后15天内提交。\n超标部分由个人承担。",
     "出差住宿标准是多少"),
    ("报销制度.docx", "餐费补贴", "",
     "出差期间每天餐费补贴100元。\n补贴随工资一起发放。",
     "出差餐费补贴多少"),
    ("考勤制度.pdf", "迟到", "",
     "上班时间为上午9点。\n每月迟到超过3次将影响绩效考核。",
     "几点上班"),
    ("考勤制度.pdf", "加班", "",
     "工作日加班按1.5倍工资计算。\n周末加班可以选择调休或按2倍工资计算。\n法定节假日加班按3倍工资计算。",
     "周末加班怎么算"),
    ("福利说明.pdf", "体检", "",
     "公司每年为员工安排一次免费体检。\n体检时间一般在每年10月。",
     "体检什么时候"),
    ("福利说明.pdf", "公积金", "",
     "公司按工资的12%为员工缴纳住房公积金。\n入职次月开始缴纳。",
     "公积金比例是多少"),
    ("IT规范.md", "电脑申领", "",
     "新员工入职当天可在IT服务台领取笔记本电脑。\n电脑使用满四年可申请更换。",
     "电脑多久可以更换"),
])  # fmt: skip

JA = _docs([
    ("就業規則.pdf", "有給休暇", "",
     "入社6か月後に10日間の有給休暇が付与されます。\n未使用分は翌年度まで繰り越せます。",
     "有給休暇は何日ありますか"),
    ("就業規則.pdf", "在宅勤務", "",
     "在宅勤務は週3日まで認められています。上長の承認が必要です。",
     "在宅勤務は週何日までですか"),
    ("経費精算ガイド.pdf", "交通費", "",
     "交通費は最も経済的な経路で精算します。\nタクシーは深夜0時以降のみ利用できます。",
     "タクシーは使えますか"),
    ("経費精算ガイド.pdf", "接待費", "",
     "接待費は1人あたり5,000円までです。事前に部長の承認を得てください。",
     "接待費の上限はいくらですか"),
    ("福利厚生.md", "健康診断", "",
     "健康診断は毎年春に実施します。35歳以上は人間ドックを選べます。",
     "健康診断はいつですか"),
    ("福利厚生.md", "資格取得支援", "",
     "業務に関係する資格の受験料は会社が全額負担します。\n合格すると報奨金3万円が支給されます。",
     "資格の受験料は会社が払いますか"),
    ("情報セキュリティ.pdf", "パスワード", "",
     "パスワードは12文字以上とし、英数字と記号を組み合わせてください。",
     "パスワードは何文字以上ですか"),
    ("情報セキュリティ.pdf", "USBメモリ", "",
     "私物のUSBメモリを業務用パソコンに接続することは禁止されています。",
     "USBメモリは使えますか"),
])  # fmt: skip

ZH_SHORT = ZH + _docs([
    ("行政通知.md", "门禁", "", "员工卡丢失后请在24小时内到前台挂失，补办费用为20元。", "员工卡丢了怎么办"),
    ("行政通知.md", "停车", "", "公司地下停车场每月停车费为300元，需提前在行政系统登记车牌。", "停车费多少钱"),
    ("行政通知.md", "食堂", "", "员工食堂午餐时间为11点半到13点半，每餐公司补贴15元。", "午餐补贴多少"),
    ("培训制度.pdf", "新人培训", "", "新员工入职第一周须参加为期三天的集中培训。", "新人培训几天"),
    ("培训制度.pdf", "外部培训", "", "参加外部培训需提前两周提交申请，费用超过5000元需签订服务协议。", "外部培训怎么申请"),
    ("离职须知.pdf", "离职", "", "员工主动离职需提前30天提交书面申请，试用期内提前3天即可。", "离职要提前多久"),
    ("离职须知.pdf", "交接", "", "离职前须完成工作交接并归还电脑和员工卡。", "离职要归还什么"),
    ("IT规范.md", "VPN", "", "在家办公需通过公司VPN访问内网，VPN账号与邮箱账号相同。", "在家怎么访问内网"),
])  # fmt: skip

Messages = list[dict[str, str]]
Render = Callable[[list[Doc], str, random.Random], Messages]


def _flat(text: str) -> str:
    return text.replace("\n", " ")


def _score(rng: random.Random) -> str:
    return f"{rng.uniform(0.42, 0.97):.2f}"


def _history(pool: list[Doc], question: str, rng: random.Random, most: int = 3) -> Messages:
    """Earlier turns of the conversation: questions about other documents with short answers."""
    turns: Messages = []
    for doc in rng.sample([d for d in pool if d.question != question], rng.randint(0, most)):
        turns.append({"role": "user", "content": doc.question})
        turns.append({"role": "assistant", "content": _first_sentence(doc.text)})
    return turns


def _first_sentence(text: str) -> str:
    first = text.split("\n")[0]
    for end in (". ", "。"):
        first = first.split(end)[0]
    return first.rstrip(".。") + ("。" if "。" in text else ".")


DSPY_DEMOS = (
    (
        [
            "The cafeteria opens at 7:30 and closes at 15:00 on weekdays.",
            "Printers accept badge release on every floor.",
        ],
        "when does the cafeteria open",
        "The cafeteria opens at 7:30 on weekdays [1].",
    ),
    (
        [
            "Bike racks are in the basement of building C.",
            "Showers are on level 1 next to the gym.",
            "Lockers are free for cyclists.",
        ],
        "where can I park my bike",
        "Bike racks are in the basement of building C [1].",
    ),
)


def _dspy_user(passages: list[str], question: str) -> str:
    context = "\n".join(f"[{n}] «{p}»" for n, p in enumerate(passages, 1))
    return f"[[ ## context ## ]]\n{context}\n\n[[ ## question ## ]]\n{question}\n\nRespond with the corresponding output fields, starting with the field `[[ ## answer ## ]]`, and then ending with the marker for `[[ ## completed ## ]]`."


def dspy_chat_adapter(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    messages: Messages = [
        {
            "role": "system",
            "content": "Your input fields are:\n1. `context` (list[str])\n2. `question` (str)\nYour output fields are:\n1. `answer` (str)\nAll interactions will be structured in the following way, with the appropriate values filled in.\n\n[[ ## context ## ]]\n{context}\n\n[[ ## question ## ]]\n{question}\n\n[[ ## answer ## ]]\n{answer}\n\n[[ ## completed ## ]]\nIn adhering to this structure, your objective is: \n        Answer questions with short factoid answers, citing the passages.",
        }
    ]
    for passages, q, a in DSPY_DEMOS:
        messages.append({"role": "user", "content": _dspy_user(passages, q)})
        messages.append({"role": "assistant", "content": f"[[ ## answer ## ]]\n{a}\n\n[[ ## completed ## ]]"})
    messages.append({"role": "user", "content": _dspy_user([d.text for d in docs], question)})
    return messages


ALCE_DEMO = (
    "Question: Who painted the ceiling of the Sistine Chapel?\n\n"
    "Document [1](Title: Sistine Chapel ceiling): The ceiling was painted by Michelangelo between 1508 and 1512.\n"
    "Document [2](Title: Pope Julius II): Julius II commissioned works from Michelangelo and Raphael.\n"
    "Document [3](Title: Raphael Rooms): Raphael painted the rooms of the Apostolic Palace.\n\n"
    "Answer: The ceiling of the Sistine Chapel was painted by Michelangelo between 1508 and 1512 [1][2]."
)


def alce_fewshot(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """ALCE (Gao et al. 2023, 'Enabling LLMs to generate text with citations') default prompt: instruction,
    one demonstration in the live shape, then the live documents as ``Document [n](Title: …): text``."""
    instruction = "Instruction: Write an accurate, engaging, and concise answer for the given question using only the provided search results (some of which might be irrelevant) and cite them properly. Use an unbiased and journalistic tone. Always cite for any factual claim. When citing several search results, use [1][2][3]. Cite at least one document and at most three documents in each sentence. If multiple documents support the sentence, only cite a minimum sufficient subset of the documents."
    live = "\n".join(f"Document [{n}](Title: {d.title}): {_flat(d.text)}" for n, d in enumerate(docs, 1))
    return [
        {
            "role": "user",
            "content": f"{instruction}\n\n\n{ALCE_DEMO}\n\n\n{instruction}\n\nQuestion: {question}\n\n{live}\n\nAnswer:",
        }
    ]


def haystack_scored(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Haystack PromptBuilder over documents with meta and score: a header line with the rank, the source
    file (two chunks of one file share it) and the score, then the content."""
    body = "\n".join(
        f"Document[{n}] (source: {d.source}, score: {_score(rng)}):\n{d.text}\n"
        for n, d in enumerate(docs, 1)
    )
    return [
        {
            "role": "user",
            "content": f"Given the following information, answer the question.\n\nContext:\n{body}\nQuestion: {question}\nAnswer:",
        }
    ]


def results_inline_de(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A search answer engine's results, one per line: rank, title, domain and relevance, then the snippet."""
    body = "\n".join(
        f"[{n}] {d.title} — {d.source} (Relevanz {_score(rng)}): {_flat(d.text)}"
        for n, d in enumerate(docs, 1)
    )
    return [
        {
            "role": "system",
            "content": "Du bist ein Suchassistent. Beantworte die Frage nur mit den Suchergebnissen und zitiere sie mit [n].",
        },
        {"role": "user", "content": f"Suchergebnisse:\n{body}\n\nFrage: {question}"},
    ]


def chatchat_zh(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Langchain-Chatchat's default knowledge-base prompt: the documents joined by a line break, each of
    several lines of its own."""
    context = "\n".join(d.text for d in docs)
    return [
        {
            "role": "user",
            "content": f"<指令>根据已知信息，简洁和专业的来回答问题。如果无法从中得到答案，请说 “根据已知信息无法回答该问题”，不允许在答案中添加编造成分，答案请使用中文。 </指令>\n<已知信息>{context}</已知信息>\n<问题>{question}</问题>\n",
        }
    ]


def dify_context_zh(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Dify's default chat-app prompt (Chinese): the context between <context> tags in the system message,
    chunks joined by a line break, then the conversation so far and the current question."""
    context = "\n".join(d.text for d in docs)
    system = f"使用以下上下文作为你学习的知识，在<context></context> XML标签内。\n<context>\n{context}\n</context>\n回答用户时：\n- 如果你不知道，就说你不知道。\n- 如果你在不确定的时候不知道，请寻求澄清。\n避免提及你是从上下文中获取的信息。\n并根据用户问题的语言进行回答。"
    return [
        {"role": "system", "content": system},
        *_history(ZH, question, rng),
        {"role": "user", "content": question},
    ]


def tavily_records(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A LangChain web-research prompt over Tavily results: Title / URL / Content records, then the question
    under a markdown heading on the next line."""
    body = "\n\n".join(f"Title: {d.title}\nURL: {d.url}\nContent: {_flat(d.text)}" for d in docs)
    return [
        {
            "role": "system",
            "content": "You are a research assistant. Answer using only the search results below and cite their URLs.",
        },
        {"role": "user", "content": f"Search results:\n\n{body}\n\n### Question:\n{question}\n### Answer:"},
    ]


def registros_es(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Spanish airline help assistant: Fuente / Título / Contenido records, then the question under a
    markdown heading."""
    body = "\n---\n".join(f"Fuente: {d.source}\nTítulo: {d.title}\nContenido: {d.text}" for d in docs)
    return [
        {
            "role": "user",
            "content": f"Eres el asistente de ayuda de VuelaSur. Responde solo con la información de los documentos.\n\n## Documentos\n{body}\n\n### Pregunta del cliente\n{question}",
        }
    ]


def perplexica_websearch(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Perplexica's web-search response prompt: numbered results inlined in the system message under
    <context>, the current date, then the chat history and the user's question."""
    context = "\n".join(f"{n}. {d.title} {_flat(d.text)}" for n, d in enumerate(docs, 1))
    date = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00.000Z"
    system = (
        "You are Perplexica, an AI model skilled in web search and crafting detailed, engaging, and well-structured answers. "
        "You excel at summarizing web pages and extracting relevant information to create professional, blog-style responses.\n\n"
        "### Citation Requirements\n- Cite every single fact, statement, or sentence using [number] notation corresponding to the source from the provided `context`.\n\n"
        f"<context>\n{context}\n</context>\n\nCurrent date & time in ISO format (UTC timezone) is: {date}."
    )
    return [
        {"role": "system", "content": system},
        *_history(WEB, question, rng, 2),
        {"role": "user", "content": question},
    ]


def openwebui_sources(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Open WebUI's default RAG template in the system message: sources as <source id name> tags inside
    <context>, the user's question as the user message."""
    context = "\n".join(f'<source id="{n}" name="{d.title}">{d.text}</source>' for n, d in enumerate(docs, 1))
    system = (
        "### Task:\nRespond to the user query using the provided context, incorporating inline citations in the format [id] "
        '**only when the <source> tag includes an explicit id attribute** (e.g., <source id="1">).\n\n'
        "### Guidelines:\n- If you don't know the answer, clearly state that.\n- Respond in the same language as the user's query.\n\n"
        f"### Output:\nProvide a clear and direct response to the user's query.\n\n<context>\n{context}\n</context>"
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": question}]


def tool_websearch(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """OpenAI function calling: the user asks, the assistant calls web_search, the tool's results come back
    as text (rank, title and URL on one line, then the snippet)."""
    results = "\n\n".join(f"[{n}] {d.title} ({d.url})\n{d.text}" for n, d in enumerate(docs, 1))
    return [
        {
            "role": "system",
            "content": "You are a helpful assistant with a web_search tool. Cite results as [n].",
        },
        {"role": "user", "content": question},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": f"call_{rng.randrange(16**8):08x}",
                    "type": "function",
                    "function": {"name": "web_search", "arguments": "{}"},
                }
            ],
        },  # type: ignore[dict-item]
        {"role": "tool", "content": results},
    ]


def langchain_history(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain create_retrieval_chain + create_stuff_documents_chain with the tutorial's QA system prompt
    and a MessagesPlaceholder for the chat history before the current input."""
    context = "\n\n".join(d.text for d in docs)
    system = (
        "You are an assistant for question-answering tasks. Use the following pieces of retrieved context to answer the question. "
        "If you don't know the answer, say that you don't know. Use three sentences maximum and keep the answer concise.\n\n"
        f"{context}"
    )
    return [
        {"role": "system", "content": system},
        *_history(EN, question, rng),
        {"role": "user", "content": question},
    ]


def llamaindex_condense_plus_ja(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LlamaIndex CondensePlusContextChatEngine's default context prompt with nodes in metadata mode
    (``file_path: …`` then a blank line and the text), Japanese documents, history before the question."""
    context = "\n\n".join(f"file_path: {d.source}\n\n{d.text}" for d in docs)
    system = (
        "The following is a friendly conversation between a user and an AI assistant.\n"
        "The assistant is talkative and provides lots of specific details from its context.\n"
        "If the assistant does not know the answer to a question, it truthfully says it does not know.\n\n"
        f"Here are the relevant documents for the context:\n\n{context}\n\n"
        "Instruction: Based on the above documents, provide a detailed answer for the user question below.\n"
        'Answer "don\'t know" if not present in the document.'
    )
    return [
        {"role": "system", "content": system},
        *_history(JA, question, rng),
        {"role": "user", "content": question},
    ]


def fewshot_records_ja(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Japanese few-shot prompt: one worked example in the live layout (【文書n】 with the file and section
    on the header line), then the live documents and question."""
    example = (
        "【文書1】社内報.pdf／食堂\n社員食堂は11時から14時まで営業しています。\n"
        "【文書2】社内報.pdf／売店\n売店は平日9時から18時まで営業しています。\n"
        "質問：食堂は何時からですか\n回答：11時からです【文書1】。"
    )
    body = "\n".join(f"【文書{n}】{d.source}／{d.title}\n{d.text}" for n, d in enumerate(docs, 1))
    return [
        {
            "role": "system",
            "content": "あなたは社内規程に詳しいアシスタントです。文書だけを根拠に回答し、根拠の文書番号を示してください。",
        },
        {
            "role": "user",
            "content": f"以下は回答例です。\n\n{example}\n\n以下の文書を参考に質問に答えてください。\n\n{body}\n質問：{question}\n回答：",
        },
    ]


def chatchat_mixed_zh(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Langchain-Chatchat's default prompt over a knowledge base of mostly one-line chunks with some of
    several lines, joined by a line break."""
    return chatchat_zh(docs, question, rng)


def sources_title_line(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Chainlit/LlamaIndex-style source list: rank, file and section title on one line, the chunk after."""
    body = "\n\n".join(f"[{n}] {d.source} — {d.title}\n{d.text}" for n, d in enumerate(docs, 1))
    return [{"role": "user", "content": f"Sources:\n{body}\n\nQuestion: {question}"}]


def pipes_one_line(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Results as one line each: rank, source, title and text between pipes (a CSV-like context dump)."""
    body = "\n".join(f"{n}. {d.source} | {d.title} | {_flat(d.text)}" for n, d in enumerate(docs, 1))
    return [{"role": "user", "content": f"Context:\n{body}\n\nQuestion: {question}"}]


def slash_title_cjk(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Chinese or Japanese knowledge-base prompt: rank, file / section on one line, the chunk after."""
    body = "\n\n".join(f"[{n}] {d.source} / {d.title}\n{d.text}" for n, d in enumerate(docs, 1))
    return [{"role": "user", "content": f"参考资料：\n{body}\n\n问题：{question}"}]


SERVICES: list[tuple[str, str, str, list[Doc], Render]] = [
    ("ferry-dspy-demos", "DSPy ChatAdapter with two labelled demos (dspy.Predict with demos), context as [n] «…»",
     "few-shot demos as earlier user/assistant turns in the live shape", EN, dspy_chat_adapter),
    ("scholar-alce", "ALCE citation prompt (Gao et al. 2023) with one demonstration",
     "few-shot: a demonstration with its own Document [n](Title: …) lines, the instruction repeated", WEB, alce_fewshot),
    ("northwind-haystack-scores", "Haystack PromptBuilder over documents with meta.source and score",
     "header line with rank, source file (repeats for chunks of one file) and score, content on the next lines", EN, haystack_scored),
    ("suchwerk-de", "Search answer engine, one result per line: [n] title — domain (Relevanz s): snippet",
     "rank, title, domain and score on the body's own line", DE, results_inline_de),
    ("chatchat-kb-zh", "Langchain-Chatchat knowledge-base chat default prompt (<已知信息>)",
     "Chinese documents of several lines joined by a single line break", ZH, chatchat_zh),
    ("dify-chat-zh", "Dify chat app default prompt (Chinese), context in the system message, with history",
     "Chinese documents of several lines joined by a line break, history before the question", ZH, dify_context_zh),
    ("tavily-research", "LangChain web research over Tavily results (Title/URL/Content), '### Question:' heading",
     "labelled-field records, the question on the line after a ### heading, then ### Answer:", WEB, tavily_records),
    ("vuelasur-registros-es", "Spanish airline assistant, Fuente/Título/Contenido records between ---, '### Pregunta' heading",
     "labelled-field records, the question under a ### heading on the next line", ES, registros_es),
    ("perplexica-web", "Perplexica web-search response prompt, results inlined in the system message with the date",
     "search results in the system message, a varying date, history, the question as the last user message", WEB, perplexica_websearch),
    ("openwebui-rag", "Open WebUI default RAG template (<source id name> inside <context>) in the system message",
     "sources in the system message, the question as the user message", EN, openwebui_sources),
    ("toolcall-websearch", "OpenAI function calling with a web_search tool returning text results",
     "results in the tool message after the user's question, rank/title/URL header line", WEB, tool_websearch),
    ("langchain-history-rag", "LangChain create_retrieval_chain tutorial prompt with MessagesPlaceholder('chat_history')",
     "documents joined by blank lines in the system message, 0-3 earlier turns, then the question", EN, langchain_history),
    ("llamaindex-condense-ja", "LlamaIndex CondensePlusContextChatEngine default context prompt, metadata mode",
     "file_path header then the text, Japanese, history before the question", JA, llamaindex_condense_plus_ja),
    ("kitei-fewshot-ja", "Japanese few-shot QA with 【文書n】 file／section header lines",
     "a worked example in the live layout before the live documents", JA, fewshot_records_ja),
    # Written after the first measurement, as probes of the classes the lead named (header lines with
    # several values, Chinese documents read as their lines); measured before the changes for them.
    ("chatchat-mixed-zh", "Langchain-Chatchat default prompt over mostly one-line chunks",
     "Chinese documents of one to three lines joined by a single line break", ZH_SHORT, chatchat_mixed_zh),
    ("sources-title-en", "Chainlit/LlamaIndex-style source list: [n] file — section title, chunk on the next lines",
     "rank, file (repeats across chunks of one file) and a title with blanks on one header line", EN, sources_title_line),
    ("quellen-titel-de", "The same source list in German",
     "rank, domain and a title with blanks on one header line", DE, sources_title_line),
    ("pipes-context", "One result per line: rank. source | title | text",
     "rank, source and title on the text's own line between pipes", EN, pipes_one_line),
    ("slash-title-zh", "Chinese knowledge base: [n] file / section, chunk on the next lines",
     "rank, file and a Chinese title on one header line", ZH, slash_title_cjk),
    ("slash-title-ja", "Japanese knowledge base: [n] file / section, chunk on the next lines",
     "rank, file and a Japanese title on one header line", JA, slash_title_cjk),
]  # fmt: skip


def _answer(target: Doc, rng: random.Random) -> tuple[str, bool]:
    first = _first_sentence(target.text)
    cite = rng.choice(["", " [1]", " (source 1)", ""])
    if rng.random() < 0.4:
        claim = "另外，该规定也适用于实习生。" if "。" in first else " This also applies to contractors."
        return f"{first}{cite}{claim}", True
    return f"{first}{cite}", False


def _as_sent(text: str, messages: Messages) -> str:
    """The document as the prompt holds it: templates that write one line per document flatten its breaks."""
    prompt = "\n".join(m["content"] for m in messages)
    for variant in (text, text.replace("\n", " ")):
        if variant in prompt:
            return variant
    raise ValueError(f"document not in its prompt: {text[:40]!r}")


def build() -> None:
    write_wave("wave_e", HERE, SERVICES, seed=5000, requests=REQUESTS, answer=_answer, as_sent=_as_sent)


if __name__ == "__main__":
    build()
