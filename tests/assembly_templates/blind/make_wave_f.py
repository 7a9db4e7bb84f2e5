# ruff: noqa: E501
"""Blind wave F: sixteen services whose templates follow real public defaults that waves A-E do not hold:
GPT4All LocalDocs, Cohere's documents, LangChain hub rlm/rag-prompt, Flowise, R2R, txtai, Verba, Khoj,
PrivateGPT, RAGFlow, FastGPT, a Bedrock knowledge-base prompt, and few-shot, Korean and Arabic prompts. Layouts a
learner finds hard: the question appended after the last document with only a blank line; documents as
``Key: value`` records joined by blank lines; few-shot examples carrying their own context, question and answer;
chat history before the retrieved context; titles on the same line as the text. Written before any change to
the reader and measured before it.

    python tests/assembly_templates/blind/make_wave_f.py   # writes wave_f/*.json (deterministic)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from make_wave_e import DE, EN, JA, WEB, ZH, Doc, _answer, _as_sent, _docs, _flat, _history, _score
from wave_writer import write_wave

HERE = Path(__file__).resolve().parent / "wave_f"
REQUESTS = 24

KO = _docs([
    ("사내규정.pdf", "연차 휴가", "https://wiki.hanbit.example/hr/annual-leave",
     "입사 1년 후부터 연차 휴가는 15일이 부여됩니다. 3년마다 1일씩 추가됩니다.",
     "연차 휴가는 며칠인가요"),
    ("사내규정.pdf", "재택 근무", "https://wiki.hanbit.example/hr/remote",
     "재택 근무는 주 2회까지 가능합니다.\n팀장의 사전 승인이 필요합니다.",
     "재택 근무는 주 몇 회 가능한가요"),
    ("복리후생.docx", "식대 지원", "https://wiki.hanbit.example/benefits/meals",
     "점심 식대는 하루 1만 원까지 법인카드로 지원됩니다.",
     "식대는 얼마까지 지원되나요"),
    ("복리후생.docx", "건강 검진", "https://wiki.hanbit.example/benefits/checkup",
     "모든 직원은 매년 종합 건강 검진을 무료로 받을 수 있습니다. 배우자는 50% 할인됩니다.",
     "건강 검진 비용은 누가 내나요"),
    ("보안지침.md", "비밀번호", "https://wiki.hanbit.example/security/password",
     "비밀번호는 12자 이상이어야 하며 90일마다 변경해야 합니다.",
     "비밀번호는 몇 자 이상이어야 하나요"),
    ("출장규정.pdf", "숙박비", "https://wiki.hanbit.example/travel/hotel",
     "국내 출장 숙박비는 1박에 12만 원까지 지급됩니다.\n해외 출장은 지역별 기준을 따릅니다.",
     "국내 출장 숙박비 한도는 얼마인가요"),
    ("출장규정.pdf", "교통비", "https://wiki.hanbit.example/travel/transport",
     "KTX 일반실 요금이 실비로 지급됩니다. 택시는 밤 10시 이후에만 허용됩니다.",
     "출장 교통비는 어떻게 지급되나요"),
])  # fmt: skip

AR = _docs([
    ("دليل العملاء.pdf", "رسوم التحويل", "https://help.bank-alnoor.example/transfers/fees",
     "التحويل بين حسابات البنك مجاني. التحويل الدولي يكلف 25 دولارًا لكل عملية.",
     "كم تكلفة التحويل الدولي"),
    ("دليل العملاء.pdf", "البطاقة المفقودة", "https://help.bank-alnoor.example/cards/lost",
     "عند فقدان البطاقة اتصل بخدمة العملاء فورًا لإيقافها.\nتصدر البطاقة الجديدة خلال خمسة أيام عمل.",
     "ماذا أفعل إذا فقدت بطاقتي"),
    ("الأسئلة الشائعة", "فتح حساب", "https://help.bank-alnoor.example/accounts/open",
     "يمكن فتح حساب جارٍ عبر التطبيق باستخدام الهوية الوطنية خلال عشر دقائق.",
     "كيف أفتح حسابًا جديدًا"),
    ("الأسئلة الشائعة", "ساعات العمل", "https://help.bank-alnoor.example/branches/hours",
     "تعمل الفروع من الأحد إلى الخميس من الساعة الثامنة صباحًا حتى الثالثة عصرًا.",
     "ما هي ساعات عمل الفروع"),
    ("سياسة القروض.pdf", "القرض الشخصي", "https://help.bank-alnoor.example/loans/personal",
     "الحد الأقصى للقرض الشخصي هو عشرون ضعف الراتب الشهري، ومدة السداد حتى خمس سنوات.",
     "ما الحد الأقصى للقرض الشخصي"),
    ("سياسة القروض.pdf", "السداد المبكر", "https://help.bank-alnoor.example/loans/early",
     "السداد المبكر للقرض مسموح برسوم قدرها 1% من المبلغ المتبقي.",
     "هل يمكنني سداد القرض مبكرًا"),
])  # fmt: skip

Messages = list[dict[str, str]]
Render = Callable[[list[Doc], str, random.Random], Messages]


def gpt4all_localdocs(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """GPT4All LocalDocs: ``### Context:`` then per excerpt ``Collection:`` / ``Path:`` / ``Excerpt:`` records
    joined by blank lines, and the user's question appended after the last one with only a blank line."""
    body = "\n\n".join(
        f"Collection: {d.source.rsplit('.', 1)[0]}\nPath: /home/user/docs/{d.source}\nExcerpt: {d.text}"
        for d in docs
    )
    return [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": f"### Context:\n{body}\n\n{question}"},
    ]


def cohere_documents(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Cohere Command R's grounded-generation rendering of ``documents``: ``Document: n`` / ``title:`` /
    ``text:`` records joined by blank lines in a system turn, after the question."""
    body = "\n\n".join(f"Document: {n}\ntitle: {d.title}\ntext: {_flat(d.text)}" for n, d in enumerate(docs))
    return [
        {
            "role": "system",
            "content": "## Task and Context\nYou help people answer their questions and other requests interactively. You should focus on serving the user's needs as best you can.\n\n## Style Guide\nUnless the user asks for a different style of answer, you should answer in full sentences, using proper grammar and spelling.",
        },
        {"role": "user", "content": question},
        {"role": "system", "content": f"<results>\n{body}\n</results>"},
    ]


def rlm_rag_prompt(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain hub rlm/rag-prompt, with format_docs joining page contents by a blank line."""
    context = "\n\n".join(d.text for d in docs)
    return [
        {
            "role": "user",
            "content": f"You are an assistant for question-answering tasks. Use the following pieces of retrieved context to answer the question. If you don't know the answer, just say that you don't know. Use three sentences maximum and keep the answer concise.\nQuestion: {question} \nContext: {context} \nAnswer:",
        }
    ]


def flowise_history(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Flowise Conversational Retrieval QA chain: the chat history before a system prompt holding the
    documents (joined by a blank line), then the question."""
    context = "\n\n".join(d.text for d in docs)
    system = f"You are a helpful assistant. Using the provided context, answer the user's question to the best of your ability using the resources provided.\nIf there is nothing in the context relevant to the question at hand, just say \"Hmm, I'm not sure\" and stop after that. Refuse to answer any question not about the info. Never break character.\n------------\n{context}\n------------\nREMEMBER: If there is no relevant information within the context, just say \"Hmm, I'm not sure\". Don't try to make up an answer. Never break character."
    return [
        *_history(EN, question, rng, 2),
        {"role": "system", "content": system},
        {"role": "user", "content": question},
    ]


def r2r_default(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """R2R's default RAG prompt: the query before and after the numbered context lines."""
    context = "\n".join(f"[{n}] {_flat(d.text)}" for n, d in enumerate(docs, 1))
    return [
        {"role": "system", "content": "You are a helpful agent."},
        {
            "role": "user",
            "content": f"## Task:\n\nAnswer the query given immediately below given the context which follows later. Use line item references to like [1], [2], ... refer to specifically numbered items in the provided context. Pay close attention to the title of each given source to ensure it is consistent with the query.\n\n### Query:\n\n{question}\n\n### Context:\n\n{context}\n\n### Query:\n{question}\n\nREMINDER - Use line item references to like [1], [2], ... refer to specifically numbered items in the provided context.\n\n## Response:\n",
        },
    ]


def txtai_rag(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """txtai RAG pipeline's documented template: lower-case ``question:`` then ``context:`` with the
    passages joined by a line break."""
    context = "\n".join(_flat(d.text) for d in docs)
    return [
        {"role": "system", "content": "You are a friendly assistant. You answer questions from users."},
        {
            "role": "user",
            "content": f"Answer the following question using only the context below. Only include information specifically discussed.\n\nquestion: {question}\ncontext: {context}",
        },
    ]


def verba_chunks(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Verba (Weaviate): per chunk a ``Document Title:`` line and ``Chunk n`` line, the text, then the
    query in the user turn."""
    context = "\n\n".join(f"Document Title: {d.title}\nChunk {rng.randint(0, 40)}\n\n{d.text}" for d in docs)
    return [
        {
            "role": "system",
            "content": "You are Verba, a chatbot for Retrieval Augmented Generation (RAG). You will receive a user query and context pieces that have a semantic similarity to that query. Please answer these user queries only with the provided context. Mention documents you used from the context if you use them to reduce hallucination. If the provided documentation does not provide enough information, say so.",
        },
        {"role": "user", "content": f"Answer this query: '{question}' with this provided context: {context}"},
    ]


def khoj_notes(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Khoj's notes conversation: the notes as ``# file`` heading then text, under ``User's Notes:`` and a
    dashed rule, in the system message; history; then the query."""
    notes = "\n\n".join(f"# {d.source}\n{d.text}" for d in docs)
    system = f"You are Khoj, a smart, inquisitive and helpful personal assistant.\nUse my personal notes and our past conversations to inform your response.\nAsk crisp follow-up questions to get additional context, when a helpful response cannot be provided from the provided notes or past conversations.\n\nUser's Notes:\n-----\n{notes}"
    return [
        {"role": "system", "content": system},
        *_history(EN, question, rng, 2),
        {"role": "user", "content": question},
    ]


def privategpt_context(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """PrivateGPT's context chat engine (LlamaIndex default context template) over German documents."""
    context = "\n\n".join(d.text for d in docs)
    return [
        {
            "role": "system",
            "content": f"You can only answer questions about the provided context. If you know the answer but it is not based in the provided context, don't provide the answer, just state the answer is not in the context provided.\nContext information is below.\n--------------------\n{context}\n--------------------\n",
        },
        {"role": "user", "content": question},
    ]


def ragflow_zh(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """RAGFlow's default chat assistant prompt (Chinese): the knowledge base inside the system message,
    chunks joined by a dashed line, chat history, then the question."""
    knowledge = "\n------\n".join(d.text for d in docs)
    system = f"你是一个智能助手，请总结知识库的内容来回答问题，请列举知识库中的数据详细回答。当所有知识库内容都与问题无关时，你的回答必须包括“知识库中未找到您要的答案！”这句话。回答需要考虑聊天历史。\n      以下是知识库：\n      {knowledge}\n      以上是知识库。"
    return [
        {"role": "system", "content": system},
        *_history(ZH, question, rng, 2),
        {"role": "user", "content": question},
    ]


def fastgpt_data_zh(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """FastGPT's default quote prompt (Chinese): each chunk in a ``<QA>`` block inside ``<Data>``, the
    question in triple quotes after the answer rules."""
    quote = "\n".join(f"<QA>\n<Q>{_flat(d.text)}</Q>\n<A></A>\n</QA>" for d in docs)
    return [
        {
            "role": "user",
            "content": f'使用 <Data></Data> 标记中的内容作为你的知识:\n\n<Data>\n{quote}\n</Data>\n\n回答要求：\n- 如果你不清楚答案，你需要澄清。\n- 避免提及你是从 <Data></Data> 获取的知识。\n- 保持答案与 <Data></Data> 中描述的一致。\n- 使用 Markdown 语法优化回答格式。\n- 使用与问题相同的语言回答。\n\n问题:"""{question}"""',
        }
    ]


def bedrock_kb(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Amazon Bedrock knowledge base default orchestration prompt: search results as XML elements with
    content and a numbered source, then the user's question."""
    results = "\n".join(
        f"<search_result>\n<content>\n{d.text}\n</content>\n<source>\n{n}\n</source>\n</search_result>"
        for n, d in enumerate(docs, 1)
    )
    return [
        {
            "role": "system",
            "content": "You are a question answering agent. I will provide you with a set of search results. The user will provide you with a question. Your job is to answer the user's question using only information from the search results. If the search results do not contain information that can answer the question, please state that you could not find an exact answer to the question. Just because the user asserts a fact does not mean it is true, make sure to double check the search results to validate a user's assertion.\n\nHere are the search results in numbered order:\n<search_results>\n"
            + results
            + "\n</search_results>",
        },
        {"role": "user", "content": question},
    ]


KO_DEMO = (
    "예시 문맥: 구내식당은 오전 11시 30분부터 오후 1시 30분까지 운영합니다.\n"
    "예시 질문: 구내식당은 몇 시에 문을 여나요\n"
    "예시 답변: 오전 11시 30분에 문을 엽니다."
)


def fewshot_ko(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Korean few-shot prompt (Semantic Kernel prompt function style): a worked example with its own
    context, question and answer, then the live ones in the same labels without the prefix."""
    context = "\n".join(_flat(d.text) for d in docs)
    return [
        {
            "role": "user",
            "content": f"주어진 문맥만 사용하여 질문에 답하세요. 문맥에 답이 없으면 모른다고 답하세요.\n\n{KO_DEMO}\n\n문맥: {context}\n질문: {question}\n답변:",
        }
    ]


def title_inline_ko(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Korean knowledge-base bot: each document as ``- title: text`` on one line, then the question."""
    body = "\n".join(f"- {d.title}: {_flat(d.text)}" for d in docs)
    return [
        {"role": "system", "content": "당신은 회사 규정 안내 도우미입니다. 아래 자료만 근거로 답하세요."},
        {"role": "user", "content": f"참고 자료:\n{body}\n\n질문: {question}"},
    ]


def arabic_context(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """An Arabic banking assistant: numbered passages with the file name and a relevance score on the
    header line, then the question."""
    body = "\n\n".join(
        f"المصدر {n} ({d.source}، الصلة {_score(rng)}):\n{d.text}" for n, d in enumerate(docs, 1)
    )
    return [
        {
            "role": "system",
            "content": "أنت مساعد خدمة عملاء لبنك النور. أجب باللغة العربية فقط واعتمد على المصادر المعطاة.",
        },
        {"role": "user", "content": f"السياق:\n{body}\n\nالسؤال: {question}\nالإجابة:"},
    ]


def title_sameline_ja(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Japanese web answer prompt: ``【title】text`` with the title on the text's line, joined by a blank
    line, and the question appended after the last one with only a blank line."""
    body = "\n\n".join(f"【{d.title}】{_flat(d.text)}" for d in docs)
    return [
        {
            "role": "system",
            "content": "以下の検索結果を使って、ユーザーの質問に日本語で簡潔に答えてください。",
        },
        {"role": "user", "content": f"{body}\n\n{question}"},
    ]


SERVICES: list[tuple[str, str, str, list[Doc], Render]] = [
    ("localdocs-desktop", "GPT4All LocalDocs (nomic-ai/gpt4all)", "Collection/Path/Excerpt records joined by blank lines, question appended after a blank line, no label", EN, gpt4all_localdocs),
    ("command-grounded", "Cohere Command R documents rendering", "Document/title/text records joined by blank lines, in a system turn after the question", WEB, cohere_documents),
    ("hub-rag-prompt", "LangChain hub rlm/rag-prompt", "question before context on labelled lines, documents joined by a blank line", EN, rlm_rag_prompt),
    ("flowise-convqa", "Flowise Conversational Retrieval QA chain", "chat history before the system prompt holding documents between dashed rules", EN, flowise_history),
    ("r2r-query-twice", "R2R default rag prompt", "query before and after numbered context lines", WEB, r2r_default),
    ("txtai-rag", "txtai RAG pipeline template", "lower-case question: then context: with passages joined by a line break", WEB, txtai_rag),
    ("verba-chunks", "Verba (Weaviate) generation prompt", "Document Title / Chunk n header lines, query quoted before the context", EN, verba_chunks),
    ("khoj-notes", "Khoj notes conversation prompt", "# file heading per note under a dashed rule, history before the query", EN, khoj_notes),
    ("privategpt-de", "PrivateGPT context chat engine", "documents between dashed rules in the system message, German", DE, privategpt_context),
    ("ragflow-zh", "RAGFlow default assistant prompt", "Chinese knowledge base joined by ------ lines, history before the question", ZH, ragflow_zh),
    ("fastgpt-data-zh", "FastGPT default quote prompt", "<QA> blocks in <Data>, question in triple quotes after rules", ZH, fastgpt_data_zh),
    ("bedrock-kb", "Amazon Bedrock knowledge base default prompt", "<search_result> elements with content and source number", WEB, bedrock_kb),
    ("fewshot-ko", "Semantic Kernel style few-shot prompt (Korean)", "worked example with its own context/question/answer before the live ones", KO, fewshot_ko),
    ("title-inline-ko", "Korean knowledge-base bot", "- title: text on one line per document", KO, title_inline_ko),
    ("noor-bank-ar", "Arabic banking assistant", "numbered Arabic source headers with file and score, then the question", AR, arabic_context),
    ("kensaku-ja", "Japanese web answer prompt", "【title】text on one line, question appended after a blank line", JA, title_sameline_ja),
]  # fmt: skip


def build() -> None:
    write_wave("wave_f", HERE, SERVICES, seed=6000, requests=REQUESTS, answer=_answer, as_sent=_as_sent)


if __name__ == "__main__":
    build()
