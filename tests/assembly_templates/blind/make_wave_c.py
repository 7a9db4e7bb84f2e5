# ruff: noqa: E501
"""Blind wave C: twelve services whose templates put a header line with varying metadata (ids, scores, dates,
URLs, titles, pages, file paths) before each document, on its own line or on the body's first line, in six
languages; written before the reader learnt document headers and measured before any change.

    python tests/assembly_templates/blind/make_wave_c.py   # writes wave_c/*.json (deterministic)

Each service follows a real product's, framework's or vendor guide's way of pasting documents (named in
``source``); none of these templates is in the corpus. Documents come from a per-language pool, so a search's
documents recur across requests in other company and order, as real retrieval does; scores vary per request.
Some bodies start like a header themselves ("Updated 2024-03-02: ...", "Note: ..."): nothing may cut them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from wave_writer import write_wave

HERE = Path(__file__).resolve().parent / "wave_c"
REQUESTS = 16


@dataclass(frozen=True)
class Doc:
    title: str
    slug: str
    date: str
    page: int
    text: str
    question: str


def _docs(rows: list[tuple[str, str, str, str]]) -> list[Doc]:
    return [
        Doc(title, slug, f"2024-{(n * 5) % 12 + 1:02d}-{(n * 7) % 27 + 1:02d}", 3 + n * 11, text, question)
        for n, (title, slug, text, question) in enumerate(rows)
    ]


EN_HELP = _docs([
    ("Resetting your password", "reset-password",
     "Open Settings > Security and choose Reset password. A link valid for 30 minutes is sent to your email.",
     "how do I reset my password"),
    ("Exporting invoices", "export-invoices",
     "Invoices can be exported as PDF or CSV from Billing > History.\nExports cover at most 24 months.",
     "can I export invoices as csv"),
    ("Seat limits", "seat-limits",
     "The Team plan includes 10 seats. Extra seats cost 8 dollars per month each and are billed pro rata.",
     "how much does an extra seat cost"),
    ("Two-factor authentication", "two-factor",
     "Updated 2024-03-02: two-factor authentication is now mandatory for admins. Members can enable it under"
     " Security.", "is two-factor required for admins"),
    ("Deleting a workspace", "delete-workspace",
     "Only the owner can delete a workspace. Deleted workspaces are kept for 14 days and can be restored by"
     " support.", "can a deleted workspace be restored"),
    ("API rate limits", "rate-limits",
     "The API allows 600 requests per minute per token.\nRequests over the limit get HTTP 429 with a"
     " Retry-After header.", "what is the api rate limit"),
    ("Single sign-on", "sso",
     "Note: SSO with SAML is available on the Enterprise plan only. Okta, Azure AD and Google Workspace are"
     " supported.", "which plans have sso"),
    ("Data residency", "data-residency",
     "Workspaces created after May 2023 can choose EU or US hosting. The region cannot be changed later.",
     "can I move my workspace to the eu"),
    ("Guest access", "guests",
     "Guests can view and comment on shared pages but cannot create new ones. A guest counts as a free"
     " seat.", "do guests count as seats"),
    ("Offline mode", "offline",
     "The desktop app keeps the last 500 opened pages available offline.\nChanges sync when you reconnect.",
     "does the app work offline"),
])  # fmt: skip

EN_ENG = _docs([
    ("deploy runbook", "ops/runbooks/deploy.md",
     "Deploys run from the main branch only. Tag the release, then run make deploy ENV=prod from the bastion.",
     "how do I deploy to prod"),
    ("on-call rota", "ops/oncall/rota.md",
     "The on-call week starts Monday 10:00 UTC. Swaps must be entered in PagerDuty before Friday.",
     "when does the on-call week start"),
    ("database backups", "infra/db/backups.md",
     "Postgres is backed up every 6 hours to S3 and kept for 35 days.\nPoint-in-time recovery covers the last"
     " 7 days.", "how long are database backups kept"),
    ("feature flags", "platform/flags/README.md",
     "Flags live in LaunchDarkly. A flag older than 90 days is flagged for removal in the weekly report.",
     "where are feature flags managed"),
    ("incident severity", "ops/incidents/severity.md",
     "SEV1 means customers cannot log in or pay. SEV1 pages the incident commander immediately.",
     "what counts as sev1"),
    ("secrets", "security/secrets.md",
     "Secrets are stored in Vault under kv/apps/<service>. Never commit .env files; CI rejects them.",
     "where do secrets go"),
    ("logging retention", "infra/logging/retention.md",
     "Application logs are kept 30 days in Loki and 1 year in cold storage. Audit logs are kept 7 years.",
     "how long are logs kept"),
    ("code review", "eng/process/review.md",
     "Every change needs one approving review. Changes to billing need two, one from the payments team.",
     "how many reviews for billing changes"),
])  # fmt: skip

DE = _docs([
    ("Zählerstand melden", "zaehlerstand",
     "Den Zählerstand können Sie online im Kundenportal oder per Postkarte melden. Die Frist endet am"
     " 15. Januar.", "bis wann muss ich den Zählerstand melden"),
    ("Abschlag ändern", "abschlag",
     "Der monatliche Abschlag lässt sich im Portal unter Verträge anpassen.\nÄnderungen gelten ab dem"
     " übernächsten Monat.", "wie ändere ich meinen abschlag"),
    ("Umzug", "umzug",
     "Bitte teilen Sie uns Ihren Umzug mindestens zwei Wochen vorher mit. Die Schlussrechnung folgt binnen"
     " sechs Wochen.", "was muss ich beim umzug beachten"),
    ("Sonderkündigung", "kuendigung",
     "Bei einer Preiserhöhung haben Sie ein Sonderkündigungsrecht von zwei Wochen ab Zugang des Schreibens.",
     "kann ich bei preiserhöhung kündigen"),
    ("Störung melden", "stoerung",
     "Stromausfälle melden Sie rund um die Uhr unter 0800 123 456. Die Hotline ist kostenfrei.",
     "wo melde ich einen stromausfall"),
    ("Ökostrom", "oekostrom",
     "Unser Tarif Grün+ besteht zu 100 % aus Wasserkraft aus Norwegen.\nDer Aufpreis beträgt 1,2 Cent je"
     " kWh.", "woher kommt der ökostrom"),
    ("Ratenzahlung", "ratenzahlung",
     "Hinweis: Eine Ratenzahlung ist ab einem offenen Betrag von 200 Euro möglich. Beantragen Sie sie"
     " schriftlich.", "ist ratenzahlung möglich"),
    ("Wärmepumpentarif", "waermepumpe",
     "Für Wärmepumpen gibt es einen eigenen Tarif mit separatem Zähler. Der Arbeitspreis liegt 8 Cent unter"
     " dem Haushaltstarif.", "gibt es einen tarif für wärmepumpen"),
])  # fmt: skip

FR = _docs([
    ("guide_conges.pdf", "conges",
     "Les salariés bénéficient de 25 jours ouvrés de congés payés par an. Les congés se posent dans l'outil"
     " RH au moins deux semaines à l'avance.", "combien de jours de congés avons-nous"),
    ("teletravail.pdf", "teletravail",
     "Le télétravail est autorisé jusqu'à trois jours par semaine.\nUne indemnité de 2,50 euros par jour est"
     " versée.", "combien de jours de télétravail"),
    ("notes_de_frais.pdf", "frais",
     "Les notes de frais doivent être soumises avant le 5 du mois suivant. Les repas sont remboursés jusqu'à"
     " 20 euros.", "quel est le plafond pour un repas"),
    ("mutuelle.pdf", "mutuelle",
     "La mutuelle d'entreprise est obligatoire. L'employeur prend en charge 60 % de la cotisation.",
     "quelle part de la mutuelle est payée"),
    ("formation.pdf", "formation",
     "Chaque salarié dispose d'un budget formation de 1 500 euros par an. Les demandes passent par le"
     " manager.", "quel est le budget formation"),
    ("materiel_it.pdf", "materiel",
     "À noter : un ordinateur portable est remis le premier jour.\nLe renouvellement a lieu tous les trois"
     " ans.", "quand mon ordinateur est-il renouvelé"),
    ("astreintes.pdf", "astreintes",
     "Les astreintes du week-end sont indemnisées 150 euros. Une journée de repos compensateur est"
     " accordée.", "comment sont payées les astreintes"),
    ("demission.pdf", "demission",
     "Le préavis de démission est d'un mois pour les employés et de trois mois pour les cadres.",
     "quel est le préavis de démission"),
])  # fmt: skip

JA = _docs([
    ("経費精算の手順", "keihi",
     "経費精算は月末締めで、翌月5日までに申請してください。領収書の画像添付が必須です。",
     "経費精算の締め切りはいつですか"),
    ("リモートワーク規程", "remote",
     "在宅勤務は週3日まで認められます。\n業務開始時と終了時にチャットで報告してください。",
     "在宅勤務は週何日までですか"),
    ("有給休暇", "yukyu",
     "入社6か月後に10日の有給休暇が付与されます。取得は3営業日前までに申請します。",
     "有給休暇は何日もらえますか"),
    ("セキュリティ研修", "kenshu",
     "全社員は年1回のセキュリティ研修を受講する必要があります。未受講者はVPNが停止されます。",
     "セキュリティ研修は必須ですか"),
    ("健康診断", "kenshin",
     "注意：健康診断は毎年10月に実施します。\n再検査の費用は会社が負担します。",
     "健康診断はいつですか"),
    ("出張旅費", "shucchou",
     "国内出張の宿泊費上限は1泊12,000円です。新幹線は普通車指定席を利用してください。",
     "出張の宿泊費の上限はいくらですか"),
    ("副業規程", "fukugyou",
     "副業は事前に人事部へ届け出れば可能です。競合他社での業務は禁止されています。",
     "副業はできますか"),
    ("名刺の発注", "meishi",
     "名刺は社内ポータルから発注でき、約1週間で届きます。",
     "名刺はどうやって頼みますか"),
])  # fmt: skip

ZH = _docs([
    ("差旅报销管理办法", "chailv",
     "出差住宿标准为一线城市每晚600元，其他城市每晚400元。报销须在出差结束后30天内提交。",
     "出差住宿标准是多少"),
    ("年假管理规定", "nianjia",
     "员工工作满一年可享受5天年假。\n年假可跨年使用，但须在次年3月底前休完。",
     "年假可以跨年吗"),
    ("信息安全守则", "anquan",
     "禁止将公司文件上传至个人网盘。发现违规将按严重违纪处理。",
     "可以把文件传到个人网盘吗"),
    ("办公设备申领", "shebei",
     "新员工入职当天领取笔记本电脑。设备损坏须在24小时内报告IT部门。",
     "电脑坏了要多久内报告"),
    ("绩效考核制度", "jixiao",
     "绩效考核每半年进行一次，结果分为A、B、C、D四档。\n连续两次D档将进入改进计划。",
     "绩效考核多久一次"),
    ("加班管理办法", "jiaban",
     "注意：工作日加班需提前在OA系统申请。周末加班优先安排调休。",
     "加班需要申请吗"),
    ("培训补贴政策", "peixun",
     "员工参加与岗位相关的外部培训，公司报销80%的费用，每年上限8000元。",
     "培训费用能报销多少"),
    ("离职流程", "lizhi",
     "员工离职须提前30天书面通知。工作交接完成后办理离职手续。",
     "离职要提前多久通知"),
])  # fmt: skip

PT = _docs([
    ("Segunda via do boleto", "segunda-via-boleto",
     "A segunda via do boleto pode ser emitida no aplicativo em Faturas. O boleto vence em três dias úteis.",
     "como tiro a segunda via do boleto"),
    ("Portabilidade de número", "portabilidade",
     "A portabilidade é gratuita e concluída em até três dias úteis.\nSeu chip antigo funciona até a troca.",
     "quanto tempo demora a portabilidade"),
    ("Roaming internacional", "roaming",
     "O roaming internacional deve ser ativado antes da viagem. O pacote Mundo custa 49 reais por semana.",
     "quanto custa o roaming"),
    ("Cancelamento", "cancelamento",
     "O cancelamento pode ser feito pelo chat sem multa após 12 meses de fidelidade.",
     "tem multa para cancelar"),
    ("Bônus de internet", "bonus",
     "Atenção: o bônus de 5 GB vale por 30 dias e não é cumulativo. Ele é ativado no primeiro dia do mês.",
     "o bônus de internet acumula"),
    ("Troca de titularidade", "titularidade",
     "Para trocar o titular, os dois devem comparecer a uma loja com documento de identidade.",
     "como troco o titular da linha"),
    ("Débito automático", "debito-automatico",
     "O débito automático é cadastrado no app e começa na fatura seguinte.\nHá 5% de desconto na mensalidade.",
     "tem desconto no débito automático"),
    ("Chip eSIM", "esim",
     "O eSIM está disponível para iPhone XS ou mais novo e Galaxy S20 ou mais novo.",
     "meu celular aceita esim"),
])  # fmt: skip

NO = _docs([
    ("Bytte strømavtale", "bytte-avtale",
     "Du kan bytte strømavtale i appen under Min avtale. Byttet skjer fra første dag i neste måned.",
     "hvordan bytter jeg strømavtale"),
    ("Flytting", "flytting",
     "Meld flytting senest fem dager før du flytter.\nHusk å lese av måleren på flyttedagen.",
     "når må jeg melde flytting"),
    ("Faktura og betaling", "faktura",
     "Fakturaen kommer den 5. hver måned og forfaller den 20. Du kan velge eFaktura eller AvtaleGiro.",
     "når forfaller fakturaen"),
    ("Strømstøtte", "stromstotte",
     "Merk: strømstøtten trekkes automatisk fra fakturaen. Du trenger ikke søke.",
     "må jeg søke om strømstøtte"),
    ("Solcellepaneler", "solceller",
     "Vi kjøper overskuddsstrøm fra solcellepaneler til spotpris.\nOppgjøret kommer på neste faktura.",
     "kjøper dere strøm fra solceller"),
    ("Strømbrudd", "strombrudd",
     "Ved strømbrudd, sjekk først sikringsskapet. Meld brudd til nettselskapet på telefon 07050.",
     "hva gjør jeg ved strømbrudd"),
    ("Elbillading", "elbil",
     "Med Ladeavtalen får du 20 % rabatt på nattlading mellom klokken 23 og 06.",
     "er nattlading billigere"),
    ("Oppsigelse", "oppsigelse",
     "Avtalen kan sies opp når som helst uten gebyr. Oppsigelsen gjelder fra neste måned.",
     "koster det å si opp"),
])  # fmt: skip

ES = _docs([
    ("Envíos nacionales", "envios",
     "Los envíos nacionales tardan de 2 a 4 días hábiles. El envío es gratis a partir de 899 pesos.",
     "cuánto tarda un envío"),
    ("Devoluciones", "devoluciones",
     "Tienes 30 días para devolver un producto sin usar.\nEl reembolso llega en 5 a 10 días hábiles.",
     "cuántos días tengo para devolver"),
    ("Meses sin intereses", "msi",
     "Ofrecemos hasta 12 meses sin intereses con tarjetas de crédito participantes en compras desde 3,000"
     " pesos.", "hay meses sin intereses"),
    ("Factura electrónica", "factura",
     "Puedes generar tu factura CFDI en el portal durante el mismo mes de la compra.",
     "cómo pido factura"),
    ("Garantía", "garantia",
     "Importante: la garantía de electrónicos es de un año con el fabricante. Conserva tu ticket.",
     "cuánto dura la garantía"),
    ("Recoger en tienda", "recoger",
     "Elige recoger en tienda al pagar. Tu pedido está listo en 2 horas.\nTienes 7 días para recogerlo.",
     "cuánto tiempo tengo para recoger"),
    ("Cambio de dirección", "direccion",
     "La dirección de envío solo se puede cambiar antes de que el pedido salga del almacén.",
     "puedo cambiar la dirección de envío"),
    ("Pedido incompleto", "incompleto",
     "Si falta un artículo, repórtalo en las primeras 48 horas desde Mis pedidos.",
     "me llegó un pedido incompleto"),
])  # fmt: skip

Render = Callable[[list[Doc], str, random.Random], list[dict[str, str]]]


def _score(rng: random.Random) -> str:
    return f"{rng.uniform(0.41, 0.97):.3f}"


def haystack_meta(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "".join(
        f"Document[{n}] (source: https://help.orbitdesk.io/articles/{d.slug}, score: {_score(rng)}):"
        f" {d.text}\n"
        for n, d in enumerate(docs, 1)
    )
    return [{"role": "user", "content": "Given the following information, answer the question.\n\nContext:\n"
             f"{body}\nQuestion: {question}\nAnswer:"}]  # fmt: skip


def onyx(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    sources = ("Confluence", "Google Drive", "Slack", "Zendesk")
    body = "\n\n".join(
        f"DOCUMENT {n}: {d.title}\nSource: {sources[len(d.slug) % 4]} | Updated: {d.date}\n{d.text}"
        for n, d in enumerate(docs, 1)
    )
    system = (
        "You are a question answering system that is constantly learning and improving.\nYou can process and"
        " comprehend vast amounts of text and utilize this knowledge to provide grounded, accurate, and"
        " concise answers to diverse queries.\nYou always clearly communicate ANY UNCERTAINTY in your answer."
    )
    user = f"CONTEXT:\n{body}\n\nQUERY:\n{question}\n\nHint: Make the answer as concise as possible."
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def quellen_de(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n\n".join(
        f"Quelle [{n}] – {d.title}, Stand {d.date[8:]}.{d.date[5:7]}.{d.date[:4]}:\n{d.text}"
        for n, d in enumerate(docs, 1)
    )
    system = (
        "Du bist der Kundenservice-Assistent der Stadtwerke Auenfeld. Antworte freundlich und nur auf Basis"
        " der Quellen. Nenne die Quellennummer in eckigen Klammern."
    )
    user = f"Quellen:\n\n{body}\n\nFrage: {question}\nAntwort:"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def extraits_fr(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n\n".join(f"Extrait n°{n} — {d.title}, p. {d.page}\n{d.text}" for n, d in enumerate(docs, 1))
    system = (
        "Tu es l'assistant RH d'Atelier Lumière. Réponds en français, uniquement à partir des extraits"
        " fournis. Si la réponse ne s'y trouve pas, dis-le."
    )
    user = f"Extraits des documents internes :\n\n{body}\n\nQuestion de l'utilisateur : {question}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def kaisha_ja(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n\n".join(f"■ {d.title}（更新日：{d.date}／関連度 {_score(rng)}）\n{d.text}" for d in docs)
    user = (
        "あなたは社内ヘルプデスクのアシスタントです。以下の社内文書だけを根拠に、丁寧な日本語で回答してください。"
        f"\n\n## 社内文書\n{body}\n\n## 質問\n{question}"
    )
    return [{"role": "user", "content": user}]


def policy_zh(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n".join(
        f"文档{n}：《{d.title}》 发布日期：{d.date} 相似度：{_score(rng)}\n正文：{d.text}"
        for n, d in enumerate(docs, 1)
    )
    system = "你是公司的制度问答助手。请严格依据参考资料回答，资料中没有的内容请回答“资料中未提及”。"
    user = f"参考资料：\n{body}\n\n用户问题：{question}\n请用中文回答。"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def busca_pt(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n".join(
        f"[{n}] {d.title}\nURL: https://ajuda.portolan.com.br/artigos/{d.slug}\nPublicado em {d.date}\n"
        f"{d.text}\n"
        for n, d in enumerate(docs, 1)
    )
    system = (
        "Você é o assistente virtual da Portolan Telecom. Responda em português, de forma breve, citando os"
        " resultados como [n]."
    )
    user = f"Resultados da pesquisa:\n\n{body}\nPergunta: {question}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def code_files(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n".join(
        f"### {d.slug} (lines {d.page}-{d.page + len(d.text) // 40 + 3})\n{d.text}\n" for d in docs
    )
    system = (
        "You are Quillbox, an assistant for the platform team's internal wiki. Answer using the wiki excerpts"
        " in <context>. Mention the file path you used."
    )
    user = f"<context>\n{body}</context>\n\nUser question: {question}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def results_hex(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n\n".join(
        f"Result {n} [doc_id={rng.getrandbits(32):08x}; relevance={_score(rng)}] {d.text}"
        for n, d in enumerate(docs, 1)
    )
    system = "Answer the user's question from the search results below. Be brief and factual."
    return [
        {"role": "system", "content": f"{system}\n\n{body}"},
        {"role": "user", "content": question},
    ]


def artikler_no(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n\n***\n\n".join(
        f"Artikkel: {d.title}\nLenke: https://hjelp.nordlys.no/artikler/{d.slug}\n\n{d.text}" for d in docs
    )
    system = (
        "Du er kundeservice for Nordlys Energi. Svar kort på norsk, og bare ut fra artiklene under."
        f"\n\n{body}"
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": f"Spørsmål: {question}"}]


def documentos_es(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n".join(
        f"Documento {n} | {d.date} | https://copperline.mx/soporte/{d.slug}.html | {d.text}"
        for n, d in enumerate(docs, 1)
    )
    user = (
        "Eres el asistente de atención a clientes de Copperline. Contesta en español usando solo los"
        f" documentos.\n\nDocumentos:\n{body}\n\nPregunta del cliente: {question}\nRespuesta:"
    )
    return [{"role": "user", "content": user}]


def tickets(docs: list[Doc], question: str, rng: random.Random) -> list[dict[str, str]]:
    body = "\n\n".join(
        f"Ticket #{4000 + d.page} · {('solved', 'closed', 'pending')[d.page % 3]} · opened {d.date}\n{d.text}"
        for d in docs
    )
    system = (
        "You are Meridian's support copilot. Similar past tickets are below; use them to draft an answer."
        " Do not invent policies.\n\nSimilar tickets:\n\n"
        f"{body}"
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": question}]


SERVICES: list[tuple[str, str, str, list[Doc], Render]] = [
    ("orbitdesk-haystack", "Haystack 2 PromptBuilder RAG example with document meta (source URL, score) on"
     " the body's line", "header before the body on the same line: Document[n] (source: URL, score: S): text",
     EN_HELP, haystack_meta),
    ("workhub-onyx", "Onyx (Danswer) QA prompt: DOCUMENT, source, updated date",
     "two header lines before each body: 'DOCUMENT n: title' and 'Source: x | Updated: date'", EN_HELP, onyx),
    ("auenfeld-quellen-de", "German utility assistant, numbered sources with title and date",
     "header line 'Quelle [n] – Titel, Stand dd.mm.yyyy:' then the body", DE, quellen_de),
    ("atelier-rh-fr", "French HR assistant over PDF extracts with page numbers",
     "header line 'Extrait n°n — file.pdf, p. N' then the body", FR, extraits_fr),
    ("kaisha-helpdesk-ja", "Japanese internal helpdesk, markdown sections, per-document title, date, score",
     "header line '■ title（更新日：date／関連度 S）' then the body", JA, kaisha_ja),
    ("xinghe-policy-zh", "Chinese policy QA, per-document title, date, similarity, body after 正文：",
     "header line with 《title》, date and score, body on the next line after '正文：'", ZH, policy_zh),
    ("portolan-busca-pt", "Portuguese web-search answer prompt (Perplexity-like numbered results)",
     "three header lines: [n] title, URL with varying path, date; then the body", PT, busca_pt),
    ("quillbox-wiki", "Internal wiki assistant pasting file chunks with paths and line ranges",
     "markdown heading '### path (lines a-b)' then the body, inside <context>", EN_ENG, code_files),
    ("finder-results", "Search-results system prompt with hex doc ids and relevance on the body's line",
     "same-line header 'Result n [doc_id=hex; relevance=S] text', documents in the system message", EN_HELP,
     results_hex),
    ("nordlys-artikler-no", "Norwegian energy support, help-centre articles with link lines",
     "'Artikkel:' and 'Lenke:' lines with a varying URL path, a blank line, the body; joined by ***", NO,
     artikler_no),
    ("copperline-es", "Spanish store assistant, pipe-separated document rows",
     "one line per document: 'Documento n | date | URL | text'", ES, documentos_es),
    ("meridian-tickets", "Support copilot pasting similar past tickets",
     "header line 'Ticket #id · status · opened date' then the body (some bodies start 'Note:'/'Updated')",
     EN_HELP, tickets),
]  # fmt: skip


def _answer(target: Doc, rng: random.Random) -> tuple[str, bool]:
    first = target.text.split("\n")[0].split(". ")[0].rstrip(".") + "."
    if rng.random() < 0.4:
        return f"{first} It is also free for the first five years.", True
    return first, False


def build() -> None:
    write_wave("wave_c", HERE, SERVICES, seed=1000, requests=REQUESTS, answer=_answer)


if __name__ == "__main__":
    build()
