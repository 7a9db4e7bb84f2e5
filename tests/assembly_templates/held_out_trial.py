"""A blind trial: prompt templates written before the prompt parser was read, each sent as a service sends it
(OpenAI chat messages: several system/user turns, prefilled assistant turns, tool calls and tool results,
content-part arrays), with documents of realistic text (paragraphs, blank lines, markdown, code, lists,
colons, quotes, brackets, other scripts). Each trial says what must come out: the documents exactly, or a
refusal; for a trial whose documents cannot be told apart by anyone reading the prompt (paragraphs joined by
the same blank line that joins documents), either is accepted but a wrong split never is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

ChatMessage = dict[str, Any]


@dataclass(frozen=True)
class Trial:
    name: str
    family: str
    question: str
    docs: tuple[str, ...]
    """The documents the service retrieved, in prompt order: what must come out exactly."""
    messages: list[ChatMessage] = field(repr=False)
    refusable: bool = True
    """A refusal with a stated reason is acceptable (never a wrong split)."""
    alternatives: tuple[tuple[str, ...], ...] = ()
    """Other document lists as good as ``docs`` (an empty document left out, duplicates kept once)."""
    refusal: str = ""
    """The only acceptable outcome is a refusal with this reason (e.g. ``no_context`` for no documents)."""


INSTALL = (
    "## Installing the CLI\n\nDownload the archive for your platform and unpack it:\n\n```bash\n"
    "tar -xzf tool-2.4.1-linux-amd64.tar.gz\nsudo mv tool /usr/local/bin/\n```\n\nThen check the version:"
    " `tool --version` should print `2.4.1`."
)
REFUNDS = (
    "Refund policy (updated March 2025):\n\n1. Annual plans can be refunded within 30 days of purchase.\n"
    "2. Monthly plans are not refundable, but you can cancel at any time.\n3. Refunds are paid to the"
    ' original payment method within 5-10 business days.\n\nNote: "store credit" is offered only when the'
    " original card has expired."
)
ERRORS = (
    'The API returns errors as JSON: {"error": {"code": 429, "message": "rate limited"}}. Clients should'
    " retry after the number of seconds in the [Retry-After] header.\n\nLimits per plan:\n- Free: 60"
    " requests/minute\n- Team: 600 requests/minute (burst [1.5x] for 10 s)"
)
EN_DOCS = (REFUNDS, INSTALL, ERRORS)
EN_QUESTION = "Can I get a refund on a monthly plan?"

GERMAN = (
    "Die Aufbewahrungsfrist für Rechnungen beträgt zehn Jahre (§ 147 AO).\n\nBelege, die älter sind,"
    ' dürfen vernichtet werden – außer wenn eine Prüfung läuft: dann gilt „Aufbewahrung bis zum Abschluss".'
)
GERMAN_2 = (
    "Elektronische Rechnungen müssen im Originalformat archiviert werden.\n\nEin Ausdruck allein genügt"
    " nicht; die XML-Datei (z. B. XRechnung) ist maßgeblich."
)
JAPANESE = "返品は商品到着後14日以内に受け付けます。\n\n未開封の商品に限り、送料は当社が負担します。"
JAPANESE_2 = (
    "開封済みの商品は返品できません。ただし、初期不良の場合は交換いたします。\n\n"
    "詳しくはサポート窓口（平日9時〜18時）へ。"
)
CHINESE = "会员可以在“账户设置”中随时取消订阅。\n\n取消后，当前计费周期结束前账户仍然有效。"
CHINESE_2 = "年度会员在购买后30天内可申请全额退款：\n1. 打开订单页面；\n2. 点击“申请退款”。"
ARABIC = (
    "يمكن إلغاء الاشتراك في أي وقت من صفحة الإعدادات.\n\nيبقى الحساب نشطًا حتى نهاية فترة الفوترة الحالية."
)
ARABIC_2 = "لا تُسترد رسوم الاشتراك الشهري، لكن يمكن الإلغاء في أي وقت."
FRENCH = (
    "Le remboursement d'un abonnement annuel est possible sous 30 jours.\n\nPassé ce délai : aucun"
    " remboursement, mais la résiliation reste possible « à tout moment »."
)
FRENCH_2 = "Les abonnements mensuels ne sont pas remboursables (voir l'article 4.2 des CGV)."
SPANISH = (
    "Los planes anuales se pueden reembolsar en un plazo de 30 días.\n\n¿Plan mensual? No es reembolsable."
)
SPANISH_2 = "El reembolso se abona en el método de pago original en 5-10 días hábiles."

ONE_PARAGRAPH = (
    "Annual plans can be refunded within 30 days: contact billing with your order number.",
    'Monthly plans are "not refundable" [see section 4.2], but they can be cancelled at any time.',
    "Refunds reach the original card in 5-10 business days (bank transfers: up to 14 days).",
)

SEPARATOR_INSIDE = (
    "Release notes 3.2\n\n---\n\nContext: this release drops support for Python 3.8.\n\n## Upgrading\n\n"
    "Run `pip install -U tool` and read the migration guide."
)
FAQ_WITH_QUESTION = (
    "FAQ\n\nQ: Can I get a refund on a monthly plan?\nA: No. Monthly plans are not refundable, but you can"
    " cancel before the next billing date."
)
CODE_WITH_ANGLES = 'if (a < b && c > d) {\n    return "<ok>";\n}\n\nThe check above guards the retry loop.'


def _user(text: str) -> ChatMessage:
    return {"role": "user", "content": text}


def _system(text: str) -> ChatMessage:
    return {"role": "system", "content": text}


def _assistant(text: str) -> ChatMessage:
    return {"role": "assistant", "content": text}


def _tool_turn(name: str, arguments: dict[str, Any], result: Any) -> list[ChatMessage]:
    call = {
        "id": "call_7",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }
    return [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_7", "content": result},
    ]


ANSWER_RULES = (
    "You are a support assistant. Answer only from the documents provided. If they do not contain the"
    " answer, say so. Keep answers short: 2-3 sentences."
)
TITLES = ("refunds.md", "install.md", "errors.md")


def _rule_delimited(rule: str) -> Callable[[tuple[str, ...], str], list[ChatMessage]]:
    def build(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
        body = f"\n{rule}\n".join(docs)
        return [_system(f"{ANSWER_RULES}\n\n{rule}\n{body}\n{rule}"), _user(question)]

    return build


def _markdown_sources(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    sections = "\n\n".join(f"### Source {n}\n\n{doc}" for n, doc in enumerate(docs, 1))
    return [_user(f"{ANSWER_RULES}\n\n## Sources\n\n{sections}\n\n## Question\n\n{question}")]


def _relevant_passages(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    passages = "\n\n".join(f"[{n}] {doc}" for n, doc in enumerate(docs, 1))
    return [
        _system(f"{ANSWER_RULES} Cite passages as [n].\n\nRelevant passages:\n\n{passages}"),
        _user(question),
    ]


def _document_n(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"Document {n}:\n{doc}" for n, doc in enumerate(docs, 1))
    return [_user(f"{ANSWER_RULES}\n\n{body}\n\nQuestion: {question}\nAnswer:")]


def _source_file_page(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(
        f"Source ({title}, p. {n + 2}):\n{doc}"
        for n, (title, doc) in enumerate(zip(TITLES, docs, strict=False))
    )
    return [_system(ANSWER_RULES), _user(f"Use these sources.\n\n{body}\n\nQuestion: {question}")]


def _lenticular(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n".join(f"【{n}】{doc}" for n, doc in enumerate(docs, 1))
    return [
        _system("请根据以下参考资料回答用户的问题，并用【n】标注来源。\n\n参考资料：\n" + body),
        _user(question),
    ]


def _double_angle(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"<<{n}>>\n{doc}" for n, doc in enumerate(docs, 1))
    return [_user(f"{ANSWER_RULES}\n\n{body}\n\nQ: {question}")]


def _blank_lines(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(docs)
    return [_user(f"{ANSWER_RULES}\n\nContext:\n\n{body}\n\nQuestion: {question}")]


def _anthropic_documents(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n".join(
        f'<document index="{n}">\n<source>{title}</source>\n<document_content>\n{doc}\n</document_content>\n'
        "</document>"
        for n, (title, doc) in enumerate(zip(TITLES, docs, strict=False), 1)
    )
    return [_user(f"<documents>\n{body}\n</documents>\n\n{ANSWER_RULES}\n\n{question}")]


def _context_doc_ids(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n".join(f'<doc id="kb-{n * 37}" score="0.{9 - n}">{doc}</doc>' for n, doc in enumerate(docs, 1))
    return [_system(f"{ANSWER_RULES}\n<context>\n{body}\n</context>"), _user(question)]


def _cdata(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n".join(f"  <document><![CDATA[{doc}]]></document>" for doc in docs)
    return [
        _system(ANSWER_RULES),
        _user(f"<knowledge>\n{body}\n</knowledge>\n<question>{question}</question>"),
    ]


def _json_page_content(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    records = [
        {"page_content": doc, "metadata": {"source": title, "page": n}}
        for n, (title, doc) in enumerate(zip(TITLES, docs, strict=False))
    ]
    block = json.dumps(records, indent=2, ensure_ascii=False)
    return [_system(f"{ANSWER_RULES}\n\nRetrieved documents (JSON):\n```json\n{block}\n```"), _user(question)]


def _json_minified_sentence(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    records = [{"id": f"d{n}", "text": doc, "score": round(0.9 - n / 10, 2)} for n, doc in enumerate(docs)]
    return [
        _user(
            f"The search returned {json.dumps(records, separators=(',', ':'))} - answer from it: {question}"
        )
    ]


def _json_snippets(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    results = {
        "query": question,
        "results": [
            {"title": title, "url": f"https://help.example.com/{title}", "snippet": doc}
            for title, doc in zip(TITLES, docs, strict=False)
        ],
    }
    return [_system(ANSWER_RULES), _user(json.dumps(results, indent=1)), _user(question)]


def _json_content_key(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    records = json.dumps(
        [{"content": doc, "source": title} for title, doc in zip(TITLES, docs, strict=False)]
    )
    return [_system(f"{ANSWER_RULES}\nContext: {records}"), _user(question)]


def _yaml_like(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    def block(doc: str) -> str:
        return "\n".join(f"      {line}" if line else "" for line in doc.split("\n"))

    items = "\n".join(
        f"  - source: {title}\n    content: |\n{block(doc)}" for title, doc in zip(TITLES, docs, strict=False)
    )
    return [_system(f"{ANSWER_RULES}\n\ndocuments:\n{items}"), _user(question)]


def _markdown_table(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    rows = "\n".join(
        f"| {n} | {title} | {doc} |" for n, (title, doc) in enumerate(zip(TITLES, docs, strict=False), 1)
    )
    table = "| # | Source | Passage |\n|---|--------|---------|\n" + rows
    return [_user(f"{ANSWER_RULES}\n\n{table}\n\nQuestion: {question}")]


def _fenced(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"Snippet {n}:\n```text\n{doc}\n```" for n, doc in enumerate(docs, 1))
    return [_system(f"{ANSWER_RULES}\n\n{body}"), _user(question)]


def _message_per_document(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    return [
        _system(ANSWER_RULES),
        *(
            _system(f"Document {n} ({title}):\n{doc}")
            for n, (title, doc) in enumerate(zip(TITLES, docs, strict=False), 1)
        ),
        _user(question),
    ]


def _acknowledged_turns(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    turns: list[ChatMessage] = [_system(ANSWER_RULES)]
    for doc in docs:
        turns += [_user(f"Here is a document:\n\n{doc}"), _assistant("Noted.")]
    return [*turns, _user(question)]


def _prefilled(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"[{n}] {doc}" for n, doc in enumerate(docs, 1))
    return [_user(f"Context:\n{body}\n\nQuestion: {question}"), _assistant("According to the context,")]


def _tool_json(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    result = json.dumps(
        {"documents": [{"title": t, "content": d} for t, d in zip(TITLES, docs, strict=False)]}
    )
    return [_system(ANSWER_RULES), _user(question), *_tool_turn("search_docs", {"query": question}, result)]


def _tool_text_numbered(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    result = "\n\n".join(f"Result {n}:\n{doc}" for n, doc in enumerate(docs, 1))
    return [_system(ANSWER_RULES), _user(question), *_tool_turn("kb_lookup", {"q": question, "k": 3}, result)]


def _tool_parts(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    parts = [{"type": "text", "text": doc} for doc in docs]
    return [_system(ANSWER_RULES), _user(question), *_tool_turn("retrieve", {"query": question}, parts)]


def _tool_escaped_unicode(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    result = json.dumps([{"snippet": doc, "lang": "de"} for doc in docs])
    return [_user(question), *_tool_turn("search", {"query": question}, result)]


def _content_parts(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    parts: list[dict[str, Any]] = [{"type": "text", "text": "Answer from these documents only."}]
    parts += [{"type": "text", "text": f"Document {n}:\n{doc}"} for n, doc in enumerate(docs, 1)]
    parts += [{"type": "image_url", "image_url": {"url": "https://help.example.com/screenshot.png"}}]
    parts += [{"type": "text", "text": f"Question: {question}"}]
    return [{"role": "user", "content": parts}]


def _content_parts_system(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    parts = [{"type": "text", "text": ANSWER_RULES}] + [
        {"type": "text", "text": f"<doc>{d}</doc>"} for d in docs
    ]
    return [
        {"role": "system", "content": parts},
        {"role": "user", "content": [{"type": "text", "text": question}]},
    ]


def _german(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"[{n}] {doc}" for n, doc in enumerate(docs, 1))
    rules = "Beantworte die Frage nur anhand der folgenden Dokumente. Wenn die Antwort fehlt, sag es."
    return [_user(f"{rules}\n\nKontext:\n{body}\n\nFrage: {question}\nAntwort:")]


def _french(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"Document {n} :\n{doc}" for n, doc in enumerate(docs, 1))
    rules = "Réponds uniquement à partir des documents ci-dessous. Si la réponse n'y est pas, dis-le."
    return [_system(f"{rules}\n\nDocuments :\n\n{body}"), _user(f"Question : {question}")]


def _spanish(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n---\n".join(docs)
    rules = "Responde solo con la información del contexto. Si no está, dilo."
    return [_user(f"{rules}\n\nContexto:\n---\n{body}\n---\n\nPregunta: {question}")]


def _chinese(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"【{n}】\n{doc}" for n, doc in enumerate(docs, 1))
    return [_user(f"请仅根据参考资料回答问题。\n\n参考资料：\n{body}\n\n问题：{question}")]


def _japanese(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"文書{n}：\n{doc}" for n, doc in enumerate(docs, 1))
    return [
        _system("以下の文書だけを参考にして、質問に日本語で答えてください。\n\n" + body),
        _user(f"質問：{question}"),
    ]


def _arabic(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"[{n}] {doc}" for n, doc in enumerate(docs, 1))
    return [_user(f"أجب عن السؤال باستخدام المستندات التالية فقط.\n\nالسياق:\n{body}\n\nالسؤال: {question}")]


def _question_between(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    first, *rest = docs
    tail = "\n\n".join(f"Document {n}:\n{doc}" for n, doc in enumerate(rest, 2))
    return [_user(f"Document 1:\n{first}\n\nQuestion: {question}\n\n{tail}")]


def _question_first_xml(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n".join(f"<passage>\n{doc}\n</passage>" for doc in docs)
    return [_user(f"<question>{question}</question>\n\n{ANSWER_RULES}\n\n<passages>\n{body}\n</passages>")]


def _empty_documents_tag(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    return [_user(f"{ANSWER_RULES}\n\n<documents>\n</documents>\n\nQuestion: {question}")]


def _empty_context_heading(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    return [_system(f"{ANSWER_RULES}\n\nContext:\n\n"), _user(question)]


def _empty_json_tool(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    return [_user(question), *_tool_turn("search_docs", {"query": question}, json.dumps({"documents": []}))]


def _numbered_xml(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n".join(f'<document index="{n}">\n{doc}\n</document>' for n, doc in enumerate(docs, 1))
    return [_system(f"{ANSWER_RULES}\n\n<documents>\n{body}\n</documents>"), _user(question)]


def _t(
    name: str,
    family: str,
    build: Callable[[tuple[str, ...], str], list[ChatMessage]],
    docs: tuple[str, ...] = EN_DOCS,
    question: str = EN_QUESTION,
    **expected: Any,
) -> Trial:
    return Trial(name, family, question, docs, build(docs, question), **expected)


EN_Q = EN_QUESTION
DE_Q = "Wie lange müssen Rechnungen aufbewahrt werden?"
JA_Q = "開封した商品は返品できますか？"
ZH_Q = "如何取消订阅？"
AR_Q = "هل يمكن استرداد رسوم الاشتراك الشهري؟"
FR_Q = "Un abonnement mensuel est-il remboursable ?"
ES_Q = "¿Se puede reembolsar un plan mensual?"

TRIALS: tuple[Trial, ...] = (
    *(
        _t(f"rule-{name}", "delimited", _rule_delimited(rule))
        for name, rule in (("dashes", "---"), ("stars", "***"), ("equals", "===="), ("underscores", "___"))
    ),
    _t("markdown-sources-headings", "headings", _markdown_sources),
    _t("relevant-passages-brackets", "numbered", _relevant_passages),
    _t("document-n-colon", "numbered", _document_n),
    _t("source-file-page", "numbered", _source_file_page),
    _t("lenticular-numbers-chinese", "numbered", _lenticular, (CHINESE, CHINESE_2), ZH_Q),
    _t("double-angle-numbers", "numbered", _double_angle),
    _t("blank-lines-one-paragraph", "blank-line", _blank_lines, ONE_PARAGRAPH, refusable=False),
    _t("blank-lines-paragraphs", "blank-line", _blank_lines),
    _t("anthropic-documents", "xml", _anthropic_documents, refusable=False),
    _t("context-doc-ids", "xml", _context_doc_ids),
    _t("cdata-documents", "xml", _cdata, (CODE_WITH_ANGLES, REFUNDS)),
    _t("numbered-document-tags", "xml", _numbered_xml, (INSTALL, SEPARATOR_INSIDE, REFUNDS)),
    _t("json-page-content-pretty", "json", _json_page_content),
    _t("json-minified-in-sentence", "json", _json_minified_sentence, (GERMAN, GERMAN_2), DE_Q),
    _t("json-search-snippets", "json", _json_snippets),
    _t("json-content-after-label", "json", _json_content_key),
    _t("yaml-block-scalars", "yaml", _yaml_like),
    _t("markdown-table-rows", "table", _markdown_table, ONE_PARAGRAPH),
    _t("fenced-snippets", "fenced", _fenced, (GERMAN, JAPANESE, ARABIC), DE_Q),
    _t("fenced-snippets-inner-fence", "fenced", _fenced),
    _t("system-message-per-document", "messages", _message_per_document),
    _t("acknowledged-user-turns", "messages", _acknowledged_turns),
    _t("assistant-prefilled", "messages", _prefilled),
    _t("tool-json-documents", "tools", _tool_json),
    _t("tool-text-numbered", "tools", _tool_text_numbered),
    _t("tool-content-parts", "tools", _tool_parts),
    _t("tool-escaped-unicode", "tools", _tool_escaped_unicode, (GERMAN, GERMAN_2), DE_Q),
    _t("user-content-parts-image", "multimodal", _content_parts),
    _t("system-content-parts-doc-tags", "multimodal", _content_parts_system, (JAPANESE, JAPANESE_2), JA_Q),
    _t("german-kontext", "language", _german, (GERMAN, GERMAN_2), DE_Q),
    _t("french-documents", "language", _french, (FRENCH, FRENCH_2), FR_Q),
    _t("spanish-contexto-rules", "language", _spanish, (SPANISH, SPANISH_2), ES_Q),
    _t("chinese-references", "language", _chinese, (CHINESE, CHINESE_2), ZH_Q),
    _t("japanese-documents", "language", _japanese, (JAPANESE, JAPANESE_2), JA_Q),
    _t("arabic-context-rtl", "language", _arabic, (ARABIC, ARABIC_2), AR_Q),
    _t("separator-inside-document", "hostile", _document_n, (INSTALL, SEPARATOR_INSIDE, REFUNDS)),
    _t("heading-inside-document-rules", "hostile", _rule_delimited("---"), (SEPARATOR_INSIDE, REFUNDS)),
    _t("question-between-documents", "hostile", _question_between),
    _t("question-first-passages", "hostile", _question_first_xml),
    _t("single-document", "hostile", _relevant_passages, (REFUNDS,)),
    _t("empty-documents-tag", "hostile", _empty_documents_tag, (), refusal="no_context"),
    _t("empty-context-heading", "hostile", _empty_context_heading, (), refusal="no_context"),
    _t("empty-tool-result", "hostile", _empty_json_tool, (), refusal="no_context"),
    _t(
        "empty-document-among-others",
        "hostile",
        _numbered_xml,
        (REFUNDS, "", ERRORS),
        alternatives=((REFUNDS, ERRORS),),
    ),
    _t(
        "duplicate-documents",
        "hostile",
        _document_n,
        (REFUNDS, ERRORS, REFUNDS),
        alternatives=((REFUNDS, ERRORS),),
    ),
    _t("document-holds-the-question", "hostile", _document_n, (FAQ_WITH_QUESTION, REFUNDS)),
    _t("document-holds-the-question-xml", "hostile", _anthropic_documents, (FAQ_WITH_QUESTION, INSTALL)),
)


# The second wave: written after the fixes for the first, before running them, to see whether they generalise.
ITALIAN = (
    "Le fatture si conservano per dieci anni.\n\nIn caso di verifica fiscale: conservare fino alla chiusura."
)
ITALIAN_2 = "Le ricevute digitali valgono come originali (art. 2220 c.c.)."
KOREAN = "월간 요금제는 환불되지 않습니다.\n\n다만 언제든지 해지할 수 있습니다."
KOREAN_2 = "연간 요금제는 구매 후 30일 이내에 환불할 수 있습니다."
RUSSIAN = (
    "Ежемесячные тарифы не возвращаются.\n\nОтменить подписку можно в любой момент: «Настройки» → «Оплата»."
)
RUSSIAN_2 = "Годовой тариф можно вернуть в течение 30 дней."
PORTUGUESE = "Planos mensais não são reembolsáveis.\n\nÉ possível cancelar a qualquer momento."
PORTUGUESE_2 = "Planos anuais: reembolso em até 30 dias."
CITING = (
    "Refunds for annual plans follow the policy in [2] of the billing terms.\n[2] of the terms says refunds"
    " go to the original card.\n\nThis page was last reviewed in May."
)
ASKING_INSIDE = (
    "Support macro 14\n\nQuestion: Can I pause my plan instead?\nAnswer: Yes, for up to three months.\n\nUse"
    " this macro when a customer asks about pausing."
)


def _records_with_content(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(
        f"Title: {title}\nURL: https://help.example.com/{title}\nContent: {doc}"
        for title, doc in zip(TITLES, docs, strict=False)
    )
    return [_system(f"Here are some documents that may help:\n\n{body}"), _user(question)]


def _headed_file_names(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"### Document: {title}\n\n{doc}" for title, doc in zip(TITLES, docs, strict=False))
    return [_user(f"{ANSWER_RULES}\n\n{body}\n\n### Question\n\n{question}")]


def _search_results_xml(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "".join(
        f"<result><title>{title}</title><snippet>{doc}</snippet></result>"
        for title, doc in zip(TITLES, docs, strict=False)
    )
    return [_system(f"{ANSWER_RULES}\n<search_results>{body}</search_results>"), _user(question)]


def _source_ids_user_query(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n".join(f'<source id="{n}">{doc}</source>' for n, doc in enumerate(docs, 1))
    return [_user(f"### Task:\nAnswer with citations.\n\n<context>\n{body}\n</context>\n\n<user_query>\n"
                  f"{question}\n</user_query>")]  # fmt: skip


def _json_lines_sources(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    lines = "\n".join(json.dumps({"source": t, "text": d}) for t, d in zip(TITLES, docs, strict=False))
    return [_system(f"{ANSWER_RULES}\n\nSources:\n{lines}"), _user(question)]


def _labelled_language(header: str, ask: str) -> Callable[[tuple[str, ...], str], list[ChatMessage]]:
    def build(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
        body = "\n\n".join(f"[{n}] {doc}" for n, doc in enumerate(docs, 1))
        return [_user(f"{header}\n\n{body}\n\n{ask} {question}")]

    return build


def _portuguese_rules(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n---\n".join(docs)
    return [
        _user(f"Use apenas os documentos abaixo.\n\nDocumentos:\n---\n{body}\n---\n\nPergunta: {question}")
    ]


def _double_encoded_tool(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    inner = json.dumps({"hits": [{"content": d, "score": 0.8} for d in docs]})
    return [_user(question), *_tool_turn("search", {"query": question}, json.dumps(inner))]


def _passage_scores(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"Passage #{n} (score 0.{90 - n}):\n{doc}" for n, doc in enumerate(docs, 1))
    return [_system(f"{ANSWER_RULES}\n\n{body}"), _user(question)]


def _question_then_context(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"[{n}] {doc}" for n, doc in enumerate(docs, 1))
    return [_user(f"Answer the question below using the context after it.\nQuestion: {question}\n\n"
                  f"Context:\n{body}")]  # fmt: skip


def _split_across_messages(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    first = "\n\n".join(f"Document {n}:\n{doc}" for n, doc in enumerate(docs[:2], 1))
    rest = "\n\n".join(f"Document {n}:\n{doc}" for n, doc in enumerate(docs[2:], 3))
    return [_system(f"{ANSWER_RULES}\n\n{first}"), _user(f"{rest}\n\nQuestion: {question}")]


def _setext_context(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n---\n\n".join(docs)
    return [_system(f"{ANSWER_RULES}\n\nContext\n=======\n\n{body}"), _user(question)]


def _json_with_empty(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    listed = json.dumps([{"content": d, "id": n} for n, d in enumerate(docs)], indent=2)
    return [_system(f"{ANSWER_RULES}\n\nDocuments:\n{listed}"), _user(question)]


def _langchain_repr(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    listed = ", ".join(f"Document(metadata={{'source': '{t}'}}, page_content={d!r})"
                       for t, d in zip(TITLES, docs, strict=False))  # fmt: skip
    return [_system(f"{ANSWER_RULES}\n\nContext: [{listed}]"), _user(question)]


SECOND_WAVE: tuple[Trial, ...] = (
    _t("records-title-url-content", "labelled-records", _records_with_content),
    _t("headed-file-names", "headings", _headed_file_names),
    _t("search-results-xml", "xml", _search_results_xml, (REFUNDS, CODE_WITH_ANGLES)),
    _t("source-ids-user-query", "xml", _source_ids_user_query),
    _t("json-lines-sources", "json", _json_lines_sources),
    _t("italian-contesto", "language", _labelled_language("Contesto:", "Domanda:"), (ITALIAN, ITALIAN_2),
       "Per quanto tempo si conservano le fatture?"),
    _t("korean-documents", "language", _labelled_language("참고 문서:", "질문:"), (KOREAN, KOREAN_2),
       "월간 요금제는 환불되나요?"),
    _t("russian-context", "language", _labelled_language("Контекст:", "Вопрос:"), (RUSSIAN, RUSSIAN_2),
       "Можно ли вернуть деньги за месячный тариф?"),
    _t("portuguese-rules", "language", _portuguese_rules, (PORTUGUESE, PORTUGUESE_2),
       "Planos mensais são reembolsáveis?"),
    _t("double-encoded-tool-json", "tools", _double_encoded_tool),
    _t("passage-number-score", "numbered", _passage_scores),
    _t("question-then-context", "hostile", _question_then_context),
    _t("documents-across-messages", "messages", _split_across_messages),
    _t("setext-context-rules", "delimited", _setext_context),
    _t("json-list-with-empty-content", "hostile", _json_with_empty, (REFUNDS, "", ERRORS),
       alternatives=((REFUNDS, ERRORS),)),
    _t("langchain-document-repr", "json", _langchain_repr),
    _t("document-cites-another-number", "hostile", _document_n, (CITING, REFUNDS, ERRORS)),
    _t("document-holds-a-question-label", "hostile", _relevant_passages, (ASKING_INSIDE, REFUNDS)),
)  # fmt: skip


# The third wave: written after the second wave's fixes, before running them.
def _list_numbered(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n".join(f"{n}. {doc}" for n, doc in enumerate(docs, 1))
    return [_user(f"{ANSWER_RULES}\n\nContext:\n{body}\n\nQuestion: {question}")]


def _bulleted(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n".join(f"- {doc}" for doc in docs)
    return [_system(f"{ANSWER_RULES}\n\nRelevant documents:\n{body}"), _user(question)]


def _llamaindex_metadata(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    nodes = "\n\n".join(
        f"file_path: /data/{title}\nfile_name: {title}\n\n{doc}"
        for title, doc in zip(TITLES, docs, strict=False)
    )
    rule = "---------------------"
    ask = "Given the context information and not prior knowledge, answer the query."
    ask += f"\nQuery: {question}\nAnswer: "
    return [_user(f"Context information is below.\n{rule}\n{nodes}\n{rule}\n{ask}")]


def _azure_doc_labels(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"[doc{n}]: {doc}" for n, doc in enumerate(docs, 1))
    return [_system(f"{ANSWER_RULES}\n\nRetrieved documents:\n\n{body}"), _user(question)]


def _history_then_docs(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"<doc>\n{doc}\n</doc>" for doc in docs)
    return [
        _system(ANSWER_RULES),
        _user("Hi, I have a billing question."),
        _assistant("Sure, what would you like to know?"),
        _user(f"Relevant documents:\n{body}\n\nMy question: {question}"),
    ]


def _german_sources(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"Quelle {n}:\n{doc}" for n, doc in enumerate(docs, 1))
    return [_system(f"Beantworte die Frage nur mit den Quellen unten.\n\n{body}"), _user(question)]


def _q_labels(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"<<{n}>>\n{doc}" for n, doc in enumerate(docs, 1))
    return [_user(f"{ANSWER_RULES}\n\n{body}\n\nQ: {question}\nA:")]


def _tool_markdown_results(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    result = "\n\n".join(f"### {n}. {title}\n{doc}" for n, (title, doc) in enumerate(zip(TITLES, docs,
                         strict=False), 1))  # fmt: skip
    return [_system(ANSWER_RULES), _user(question), *_tool_turn("search_kb", {"query": question}, result)]


def _empty_numbered(docs: tuple[str, ...], question: str) -> list[ChatMessage]:
    body = "\n\n".join(f"[{n}] {doc}" for n, doc in enumerate(docs, 1))
    return [_user(f"{ANSWER_RULES}\n\nSources:\n{body}\n\nQuestion: {question}")]


FAQ_Q_LABEL = "Q: Can I get a refund on a monthly plan?\nA: No, but you can cancel at any time."

THIRD_WAVE: tuple[Trial, ...] = (
    _t("list-numbered-documents-with-lists", "numbered", _list_numbered),
    _t("list-numbered-one-paragraph", "numbered", _list_numbered, ONE_PARAGRAPH),
    _t("bulleted-documents-with-bullets", "bulleted", _bulleted),
    _t("bulleted-one-paragraph", "bulleted", _bulleted, ONE_PARAGRAPH),
    _t("llamaindex-metadata-paragraphs", "blank-line", _llamaindex_metadata),
    _t("azure-doc-labels", "numbered", _azure_doc_labels),
    _t("history-then-documents", "messages", _history_then_docs),
    _t("german-quelle-labels", "language", _german_sources, (GERMAN, GERMAN_2), DE_Q),
    _t("q-and-a-labels", "hostile", _q_labels, (FAQ_Q_LABEL, REFUNDS)),
    _t("tool-markdown-results", "tools", _tool_markdown_results),
    _t("empty-numbered-source", "hostile", _empty_numbered, (REFUNDS, "", ERRORS),
       alternatives=((REFUNDS, ERRORS),)),
)  # fmt: skip

RECOVERED = frozenset(
    [
        "rule-dashes", "rule-stars", "rule-equals", "rule-underscores", "relevant-passages-brackets",
        "document-n-colon", "lenticular-numbers-chinese", "double-angle-numbers", "blank-lines-one-paragraph",
        "anthropic-documents", "context-doc-ids", "cdata-documents", "numbered-document-tags",
        "json-page-content-pretty", "json-search-snippets", "json-content-after-label", "markdown-table-rows",
        "fenced-snippets", "system-message-per-document", "assistant-prefilled", "tool-json-documents",
        "tool-text-numbered", "tool-escaped-unicode", "german-kontext", "french-documents",
        "spanish-contexto-rules", "chinese-references", "japanese-documents", "arabic-context-rtl",
        "separator-inside-document", "question-first-passages", "single-document",
        "empty-document-among-others", "duplicate-documents", "document-holds-the-question",
        "document-holds-the-question-xml",
        "search-results-xml", "source-ids-user-query", "json-lines-sources", "italian-contesto",
        "korean-documents", "russian-context", "portuguese-rules", "double-encoded-tool-json",
        "passage-number-score", "question-then-context", "setext-context-rules",
        "json-list-with-empty-content",
        "list-numbered-one-paragraph", "bulleted-one-paragraph", "azure-doc-labels", "history-then-documents",
        "german-quelle-labels", "tool-markdown-results", "empty-numbered-source",
        "langchain-document-repr", "document-cites-another-number", "document-holds-a-question-label",
    ]
)  # fmt: skip
"""The trials whose documents and question come out exactly under every instrumentation that carries them,
once the parser was fixed: what a change must not lose. The others are refused with a reason (the empty
ones as no_context), where a reader could not tell the documents apart either, or where the instrumentation
records a content-part array as one text."""
