# ruff: noqa: E501
"""Blind wave K: sixteen services after frameworks, products and vendor guides that no earlier wave nor the
corpus holds, written by a helper who had not read the reader: one message per document (Vectara's ordinal
turns), a pipe table (GraphRAG local search), fenced snippets under per-source headings (Qwen-Agent, Chinese),
XML file blocks after chat history (LibreChat), JSON references after the question (Agno), a double-encoded
tool result (Letta archival memory, Russian), '- [n]:' items after the question (Genkit, Japanese), bulleted
notes in a system message of their own (Cloudflare's RAG tutorial, Arabic), the question before a bare context
(AutoGen RetrieveChat), key: value records with an FAQ chunk in most requests (Elastic Playground), history and
rules of dashes (Upstash RAG Chat), the question in the history and again under a heading (Rasa Enterprise
Search), quoted citations (LM Studio rag-v1), a deploy half-way (Pinecone's Vercel starter, Spanish) and a
router of two templates (smolagents retriever tool / Hugging Face's advanced RAG cookbook). Documents carry
their own rules, numbering and headings. Measured once with main's readers before any change.

    python tests/assembly_templates/blind/make_wave_k.py   # writes wave_k/*.json (deterministic)
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from make_wave_j import _as_sent
from wave_writer import write_wave

HERE = Path(__file__).resolve().parent / "wave_k"
REQUESTS = 24

Messages = list[dict[str, Any]]


@dataclass(frozen=True)
class Doc:
    source: str
    title: str
    text: str
    question: str
    lang: str = "en"


def _msg(role: str, content: str) -> dict[str, Any]:
    """One chat message; tool turns add their own keys, so the dict is not str-only."""
    return {"role": role, "content": content}


def _tool_call(name: str, arguments: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """An assistant turn calling one function tool, as OpenAI-style chat APIs record it."""
    call = {"id": f"call_{rng.randrange(16**8):08x}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}  # fmt: skip
    return {"role": "assistant", "content": "", "tool_calls": [call]}


def _pool(lang: str, rows: list[tuple[str, str, str, str]]) -> list[Doc]:
    return [Doc(source, title, text, question, lang) for source, title, text, question in rows]


SAAS = _pool("en", [
    ("help/billing/invoices.md", "Invoices and receipts",
     "Invoices are issued on the first day of each billing cycle and emailed to the billing contact. Past invoices can be downloaded as PDF from Settings > Billing > History for up to seven years.\n\nIf your company needs a VAT number on the invoice, add it before the cycle closes; invoices that were already issued cannot be edited.",
     "can I add a VAT number to an invoice that was already issued"),
    ("help/security/sso.md", "Single sign-on (SAML)",
     "SAML single sign-on is available on the Business and Enterprise plans. To set it up:\n1. Open Settings > Security and choose Configure SSO.\n2. Paste the metadata URL from your identity provider.\n3. Test the connection with one account before enforcing SSO for everyone.\n\nOnce SSO is enforced, members can no longer sign in with a password.",
     "which plans include SAML single sign-on"),
    ("help/data/export.md", "Exporting workspace data",
     "Workspace owners can export all projects, comments and attachments as a ZIP archive. Exports are prepared in the background and the download link stays valid for 48 hours.\n---\nNote: exports larger than 20 GB are split into several parts, each with its own link.",
     "how long is the export download link valid"),
    ("help/account/seats.md", "Adding and removing seats",
     "Seats added in the middle of a cycle are charged pro rata from the day they are added. Removing a seat takes effect at the next renewal, so you keep paying for it until then.",
     "when does removing a seat take effect"),
    ("help/api/rate-limits.md", "API rate limits",
     "## Limits per token\n\nEach API token may make 600 requests per minute. Requests over the limit receive HTTP 429 with a Retry-After header giving the seconds to wait.\n\n## Bulk endpoints\n\nBulk endpoints count as ten requests each.",
     "what happens when I exceed the API rate limit"),
    ("help/integrations/slack.md", "Slack integration",
     "The Slack app posts task updates to a channel of your choice. Only workspace admins can install it, and each project can be linked to one channel at most. Mentions in Slack are not synced back as comments.",
     "can I link a project to more than one Slack channel"),
    ("help/security/2fa.md", "Two-factor authentication",
     "Two-factor authentication can be required for all members by an owner under Settings > Security. Members who have not enrolled are asked to set it up at their next sign-in and cannot open any project until they do.\n\nRecovery codes are shown once; store them in a password manager.",
     "what happens to members who have not set up two-factor authentication"),
    ("help/account/delete.md", "Deleting a workspace",
     "Deleting a workspace is permanent after a 14-day grace period. During the grace period an owner can restore it from the confirmation email. After 14 days all data, including backups, is erased within 30 days.",
     "can I restore a deleted workspace"),
    ("help/projects/templates.md", "Project templates",
     "# Project templates\n\nTemplates let you start a project with lists, custom fields and automations already in place. Any member with the Editor role can save a project as a template; only owners can publish a template to the whole workspace.\n\n## What is copied\n\n1. Lists and their order\n2. Custom fields and their default values\n3. Automations, switched off until you turn them on again\n\n## What is not copied\n\nTasks, comments, attachments and time entries are never copied, so a template never leaks data from the project it was made from. Guests of the original project are not invited to projects created from the template.\n\nTemplates count towards your plan's project limit only once they are used.",
     "are tasks copied when I create a project from a template"),
])  # fmt: skip

# A help-centre chunk that the retriever returns for nearly every question.
SAAS_FAQ = Doc("help/faq.md", "Frequently asked questions",
               "FAQ — Who do I contact? For billing questions write to billing@tasklane.io; for everything else use the in-app chat, which is staffed Monday to Friday, 8:00-18:00 CET. Status updates are posted at status.tasklane.io.",
               "who do I contact about billing")  # fmt: skip

CITY = _pool("en", [
    ("waste/bulky", "Bulky waste collection",
     "Bulky waste such as sofas and mattresses is collected on request. Book a pickup online at least five working days ahead; each household gets two free pickups a year, after that a pickup costs 25 dollars. Electronics are not taken and must go to the recycling centre on Harbor Road.",
     "how many free bulky waste pickups does a household get"),
    ("permits/street-party", "Street party permits",
     "A street party needs a road closure permit. Apply at least 6 weeks before the event and attach the signatures of at least half of the households on the street. The permit is free for events that end by 10 pm.",
     "how early do I need to apply for a street party permit"),
    ("parking/residents", "Residents' parking",
     "Residents' parking permits cost 60 dollars a year per vehicle. A second vehicle in the same household costs 120 dollars. Permits are digital and linked to the number plate; there is no sticker to display.",
     "how much does a second residents' parking permit cost"),
    ("library/cards", "Library cards",
     "Anyone who lives, works or studies in the city can get a library card for free. Bring photo ID and proof of address. Children under 12 need a parent or guardian to sign the form.\n\nLost cards are replaced for 3 dollars.",
     "how much does it cost to replace a lost library card"),
    ("water/leaks", "Reporting a water leak",
     "Leaks on the street or pavement should be reported to the 24-hour water line at 311. Leaks inside your property, after the meter, are the owner's responsibility and need a private plumber.",
     "who fixes a leak inside my property"),
    ("pools/hours", "Public pool opening hours",
     "Summer hours (June 1 – August 31):\n  Mon–Fri   6:30 am – 9:00 pm\n  Sat–Sun   8:00 am – 7:00 pm\nOutside summer the Eastside pool closes at 8 pm on weekdays and the outdoor lido is shut.",
     "when does the pool open on weekends in summer"),
    ("trees/pruning", "Street trees",
     "Street trees belong to the city. Residents may not prune or remove them, even if they overhang a driveway. Request pruning through the online form; the forestry team inspects within 20 working days.",
     "can I prune the street tree in front of my house"),
    ("tax/property-due", "Property tax due dates",
     "Property tax is billed twice a year. The first half is due on March 31 and the second half on September 30. Payments received late are charged 1.5 percent interest per month.",
     "when is the second half of property tax due"),
])  # fmt: skip

ES = _pool("es", [
    ("ayuda/tarjetas/bloqueo", "Bloqueo de tarjeta",
     "Si pierdes tu tarjeta o te la roban, bloquéala al momento desde la app en Tarjetas > Bloquear. El bloqueo es inmediato y gratuito. Una tarjeta nueva llega a tu domicilio en un plazo de 5 a 7 días hábiles.",
     "cuánto tarda en llegar una tarjeta nueva"),
    ("ayuda/transferencias/limites", "Límites de transferencia",
     "El límite diario para transferencias inmediatas es de 2.000 euros. Puedes ampliarlo hasta 10.000 euros desde la app confirmando con tu clave de firma; el nuevo límite se aplica a partir de las 24 horas.",
     "cuál es el límite diario de transferencias inmediatas"),
    ("ayuda/cuentas/comisiones", "Comisiones de la cuenta",
     "La Cuenta Clara no tiene comisión de mantenimiento si domicilias una nómina o ingresos de al menos 700 euros al mes. En caso contrario se cobran 4 euros al mes.\n\n1) Las retiradas en cajeros propios son gratuitas.\n2) En cajeros de otras entidades se cobra la comisión que fije esa entidad.",
     "cuánto cuesta el mantenimiento si no domicilio la nómina"),
    ("ayuda/hipotecas/amortizacion", "Amortización anticipada",
     "Puedes amortizar parte de tu hipoteca en cualquier momento. Para hipotecas a tipo variable la compensación es del 0,25 % del capital amortizado durante los tres primeros años y 0 % después.",
     "qué comisión tiene amortizar una hipoteca variable"),
    ("ayuda/seguridad/phishing", "Mensajes fraudulentos",
     "Nunca te pediremos claves ni códigos por SMS, correo o teléfono. Si recibes un mensaje sospechoso, no pulses ningún enlace y reenvíalo a seguridad@bancolumbre.es.",
     "qué hago si recibo un SMS sospechoso"),
    ("ayuda/bizum/alta", "Darse de alta en Bizum",
     "Para usar Bizum, actívalo en la app en Pagos > Bizum y vincula tu número de móvil. Puedes enviar hasta 1.000 euros al día y recibir un máximo de 60 operaciones al mes.",
     "cuánto dinero puedo enviar al día por Bizum"),
    ("ayuda/cuentas/menores", "Cuenta para menores",
     "La Cuenta Junior es para menores de 18 años y la abre un titular adulto. Incluye tarjeta de débito desde los 12 años con un límite de gasto que fija el adulto desde su app.",
     "desde qué edad tiene tarjeta la cuenta junior"),
])  # fmt: skip

ZH = _pool("zh", [
    ("docs/部署指南.md", "部署指南",
     "服务默认监听 8080 端口。生产环境请通过环境变量 APP_PORT 修改端口，不要直接改配置文件，因为配置文件会在每次发布时被镜像中的版本覆盖。容器编排平台上可以在部署清单的 env 字段里设置该变量。\n\n## 注意\n修改端口后需要同时更新负载均衡的健康检查地址，否则实例会被判定为不健康并被自动摘除。",
     "怎么修改服务端口"),
    ("docs/权限说明.md", "权限说明",
     "系统有三种角色：管理员、编辑和访客。角色在项目级别分配，同一个人在不同项目中可以有不同角色。\n1. 管理员可以管理成员、计费和集成设置。\n2. 编辑可以创建和修改文档，但不能删除项目，也不能邀请新成员。\n3. 访客只能查看被分享给他们的页面，不能评论。成员的角色变更会立即生效，并记录在项目的审计日志中，审计日志保留一年，管理员可以随时导出。",
     "编辑可以删除项目吗"),
    ("docs/备份.md", "数据备份",
     "数据库每天凌晨三点自动全量备份，每小时做一次增量备份，备份保留三十天。恢复操作在控制台的“备份与恢复”页面发起，可以恢复到三十天内任意一个整点。如需更长的保留期，请在控制台开启归档存储，归档按每GB每月0.1元计费，最长可保留三年。跨地域备份目前只在华东和华北两个区域提供，需要另外开通，开通后第二天生效。",
     "数据库备份保留多久"),
    ("docs/接口限流.md", "接口限流",
     "开放接口按应用限流，每个应用每秒最多 50 次请求，每天最多 200 万次。超过限制会返回 429 状态码，响应头 Retry-After 给出需要等待的秒数，建议客户端按指数退避重试。企业版客户可以提交工单申请提高限额，审批一般需要三个工作日。批量接口按每条记录单独计数，请优先使用分页查询，单页最多一百条。",
     "接口每秒最多多少次请求"),
    ("docs/日志.md", "日志查询",
     "控制台的日志查询默认展示最近七天的日志，支持按服务、实例、日志级别和关键字筛选，单次查询最多返回一万条。\n---\n超过七天的日志会转存到对象存储，保留一百八十天，可以通过导出功能下载，导出文件为 JSON Lines 格式，每行一条日志记录。导出任务在后台执行，完成后会通过站内信通知下载地址，地址二十四小时内有效。",
     "七天前的日志怎么查"),
    ("docs/升级.md", "版本升级",
     "从 2.x 升级到 3.0 之前必须先执行数据迁移脚本 migrate_v3.sh，脚本位于安装包的 tools 目录下。迁移期间服务只读，一般需要十到二十分钟，数据量超过五百GB时可能需要一小时以上。建议在业务低峰期操作，并提前做一次手动备份。如果迁移失败，可以用 rollback_v3.sh 回退到 2.x，回退不会丢失迁移前的数据。",
     "升级到3.0之前需要做什么"),
    ("docs/告警.md", "告警配置",
     "告警规则支持短信、邮件和企业微信三种通知方式，每条规则最多可以配置十个接收人。同一规则在十分钟内只会通知一次，避免告警风暴；告警恢复时会再发送一条恢复通知。静默时段可以在规则详情页设置，例如每天零点到早上七点只发邮件不发短信。短信通知每月前五百条免费，超出部分每条收费五分钱，在账单中单独列出，可在费用中心查看明细。",
     "告警多久通知一次"),
])  # fmt: skip

JA = _pool("ja", [
    ("shop/返品", "返品について",
     "商品到着後14日以内であれば、未使用品に限り返品を承ります。返品をご希望の場合は、マイページの注文履歴から「返品申請」を選び、理由を入力してください。返品送料はお客様のご負担となりますが、不良品や誤配送の場合は当店が負担いたします。セール品・食品は返品の対象外です。返金は商品到着を確認してから5営業日以内に、ご購入時のお支払い方法で行います。",
     "返品できる期間はいつまでですか"),
    ("shop/送料", "送料",
     "送料は全国一律660円です。1回のご注文金額が5,000円（税込）以上の場合は送料無料となります。複数の商品をまとめてご注文いただいた場合も、送料は1回分のみ頂戴します。\n※北海道・沖縄・離島は別途330円を頂戴します。\n※大型家具は送料が個別に計算されます。\n※お届け先を複数指定された場合は、お届け先ごとに送料がかかります。",
     "送料無料になるのはいくらからですか"),
    ("shop/ポイント", "ポイント制度",
     "お買い物100円（税抜）ごとに1ポイントが貯まります。ポイントは商品発送の翌日に付与され、マイページの「ポイント履歴」で確認できます。ポイントの有効期限は最終購入日から1年間で、期間内にお買い物をすると全ポイントの期限が延長されます。\n\n■ 使い方\n1ポイント＝1円として、次回以降のお買い物にご利用いただけます。",
     "ポイントの有効期限はいつですか"),
    ("shop/配送日", "お届け日時",
     "ご注文確定後、通常2〜3営業日で発送いたします。土日祝日は発送業務をお休みしております。お届け日時の指定は、注文日から5日後以降で承ります。時間帯は午前中、14〜16時、16〜18時、18〜20時、19〜21時からお選びいただけます。年末年始やセール期間中は、発送までに通常より日数がかかる場合がございます。",
     "配達日の指定はいつからできますか"),
    ("shop/ギフト", "ギフト包装",
     "ギフト包装は1点につき220円で承ります。のし紙とメッセージカードは無料です。包装をご希望の場合は、カート画面で「ギフト包装を希望する」にチェックを入れ、包装紙の色（赤・紺・生成り）をお選びください。ギフトでお送りする場合、納品書に金額は記載されません。複数の商品をまとめて一つに包装することも可能ですので、備考欄にご記入ください。",
     "ギフト包装の料金はいくらですか"),
    ("shop/支払い", "お支払い方法",
     "クレジットカード（VISA・Mastercard・JCB・AMEX）、コンビニ払い、代金引換、後払いがご利用いただけます。代金引換の手数料は330円です。コンビニ払いは注文から7日以内にお支払いください。期限を過ぎた場合、ご注文は自動的にキャンセルされます。後払いをご利用の場合、請求書は商品とは別に郵送され、発行から14日以内のお支払いとなります。",
     "代引き手数料はいくらですか"),
    ("shop/会員", "会員登録",
     "会員登録は無料です。登録すると購入履歴の確認、お届け先の保存、お気に入り登録ができ、新規登録時には500ポイントをプレゼントしています。メールマガジンの配信はいつでも停止できます。退会はマイページの「会員情報」からいつでも可能ですが、保有ポイントは失効します。退会後に同じメールアドレスで再登録することは可能ですが、購入履歴は引き継がれません。",
     "退会はどこからできますか"),
])  # fmt: skip

RU = _pool("ru", [
    ("memory/тарифы", "Тарифы",
     "Тариф «Домашний 300» даёт скорость до 300 Мбит/с и стоит 650 рублей в месяц. Тариф «Домашний 500» стоит 790 рублей. Роутер можно взять в аренду за 99 рублей в месяц или купить за 3 900 рублей; арендованный роутер заменяют бесплатно при поломке.",
     "сколько стоит аренда роутера"),
    ("memory/переезд", "Переезд",
     "При переезде договор можно перенести на новый адрес бесплатно, если дом подключён к сети. Заявку нужно подать не позднее чем за 5 рабочих дней до переезда: в личном кабинете, в чате или по телефону 8 800 100-20-30. Если дом не подключён, договор можно расторгнуть без штрафа.",
     "за сколько дней подавать заявку на переезд"),
    ("memory/блокировка", "Добровольная блокировка",
     "Добровольная блокировка доступна до 90 дней в году, например на время отпуска. Первые 30 дней бесплатно, далее — 3 рубля в сутки. Включить её можно в личном кабинете в разделе «Услуги», минимальный срок — 7 дней.",
     "сколько стоит добровольная блокировка"),
    ("memory/оплата", "Оплата",
     "Абонентская плата списывается 1-го числа каждого месяца. Если на балансе недостаточно средств, доступ в интернет приостанавливается на следующий день, а телевидение продолжает работать ещё 3 дня. Услуга «Обещанный платёж» даёт 5 дней доступа без оплаты.",
     "когда списывается абонентская плата"),
    ("memory/мастер", "Вызов мастера",
     "Выезд мастера по заявке о неисправности бесплатный. Настройка оборудования, купленного не у нас, стоит 500 рублей, прокладка кабеля по квартире — 30 рублей за метр. Мастер приезжает в течение 48 часов, в выходные — в течение 72 часов.",
     "сколько стоит настройка чужого оборудования"),
    ("memory/тв", "Телевидение",
     "Пакет «Базовый» включает 120 каналов, из них 20 в HD-качестве. Пакет «Кино» добавляет 25 каналов за 299 рублей в месяц и подключается сразу после оплаты. Смотреть ТВ можно одновременно на пяти устройствах: приставке, смартфоне, планшете или Smart TV.",
     "сколько каналов в базовом пакете"),
])  # fmt: skip

AR = _pool("ar", [
    ("clinic/مواعيد", "حجز المواعيد",
     "يمكن حجز المواعيد عبر التطبيق أو بالاتصال على الرقم 920012345 من الأحد إلى الخميس. يصل تذكير بالموعد برسالة نصية قبل يوم واحد. يجب إلغاء الموعد قبل 24 ساعة على الأقل، وإلا تُحتسب رسوم قدرها 50 ريالاً.",
     "ما رسوم إلغاء الموعد المتأخر"),
    ("clinic/ساعات", "ساعات العمل",
     "تعمل العيادات من الأحد إلى الخميس من الساعة 8 صباحاً حتى 10 مساءً، ويوم السبت من 9 صباحاً حتى 5 مساءً. قسم الطوارئ مفتوح على مدار الساعة طوال أيام الأسبوع، والصيدلية الرئيسية تعمل حتى منتصف الليل.",
     "متى تعمل العيادات"),
    ("clinic/تأمين", "التأمين الطبي",
     "نقبل معظم شركات التأمين المعتمدة في المملكة. يرجى إحضار بطاقة التأمين والهوية الوطنية عند كل زيارة. الموافقة المسبقة مطلوبة للأشعة المقطعية والرنين المغناطيسي والعمليات المجدولة، وتستغرق عادة من يوم إلى ثلاثة أيام عمل.",
     "هل تحتاج الأشعة المقطعية إلى موافقة مسبقة"),
    ("clinic/نتائج", "نتائج التحاليل",
     "تظهر نتائج التحاليل المخبرية في التطبيق خلال 48 ساعة، ويصل إشعار عند صدورها. أما نتائج الفحوصات الخاصة مثل الفحوص الجينية فقد تستغرق حتى سبعة أيام عمل. لا تُرسل النتائج عبر البريد الإلكتروني حفاظاً على الخصوصية.",
     "متى تظهر نتائج التحاليل"),
    ("clinic/وصفات", "تجديد الوصفات",
     "يمكن طلب تجديد الوصفة الطبية المزمنة من التطبيق دون زيارة، بشرط أن تكون آخر زيارة للطبيب خلال ستة أشهر. تُجهز الوصفة في الصيدلية خلال يوم عمل واحد، ويمكن توصيلها إلى المنزل مقابل 15 ريالاً.",
     "هل يمكن تجديد الوصفة دون زيارة"),
    ("clinic/زوار", "الزيارات",
     "أوقات زيارة المرضى المنومين من 4 عصراً حتى 8 مساءً، ويسمح بزائرين اثنين كحد أقصى لكل مريض في الوقت نفسه. يمنع دخول الأطفال دون 12 عاماً إلى العناية المركزة، ويُطلب من الزوار تعقيم اليدين عند الدخول.",
     "كم زائراً يسمح به لكل مريض"),
])  # fmt: skip

RAIL = _pool("en", [
    ("conditions/delay-repay", "Delay Repay",
     "If your train arrives 15 minutes or more late, you can claim Delay Repay. Delays of 15-29 minutes refund 25% of the single fare, 30-59 minutes 50%, and 60 minutes or more 100%. Claims must be made within 28 days.",
     "how much do I get back for a 40 minute delay"),
    ("conditions/bikes", "Bikes on trains",
     "Folding bikes can travel on all services at any time. Full-size bikes need a free reservation on intercity trains and are not allowed on peak commuter trains arriving in the city between 7:30 and 9:30.",
     "do I need a reservation for a full-size bike"),
    ("conditions/railcards", "Railcards",
     "A 16-25 Railcard costs 35 pounds a year and gives a third off most fares. It cannot be used on weekday journeys before 4:30 am.\n\n* * *\n\nMature students over 25 in full-time education can also apply.",
     "how much does the 16-25 railcard cost"),
    ("conditions/lost-property", "Lost property",
     "Items found on trains are kept at the main station for 30 days. Collecting an item costs 5 pounds; phones, wallets and ID documents are returned free of charge.",
     "how long is lost property kept"),
    ("conditions/refunds", "Refunds on unused tickets",
     "Unused Anytime and Off-Peak tickets can be refunded within 28 days, minus a 10 pound admin fee. Advance tickets cannot be refunded but can be changed before departure for a 10 pound fee plus any fare difference.",
     "can I get a refund on an advance ticket"),
    ("conditions/pets", "Dogs and pets",
     "Up to two dogs or small pets per passenger travel free. Dogs must be kept on a lead, and pets may not occupy seats. Larger animals need a basket or carrier.",
     "how many dogs can I bring on the train"),
    ("conditions/assistance", "Passenger assistance",
     "Passenger Assist can be booked up to 2 hours before travel through the app or by calling 0800 022 3720. Staff meet you at the entrance and help you board and leave the train.",
     "how late can I book passenger assistance"),
    ("conditions/strikes", "Travel during industrial action",
     "Strike days — what you need to know\n\nOn strike days only a reduced timetable runs, usually between 7:30 am and 6:30 pm, and the last trains leave much earlier than normal. Tickets dated for a strike day can be used the day before or up to two days after, on any train of the same route, without a reservation.\n\nIf you decide not to travel, you can claim a full refund with no admin fee, including for Advance tickets and season-ticket days lost. Season-ticket holders claim through the Delay Repay form and choose \"industrial action\" as the reason.\n\nReplacement buses do not take bicycles, and pets are only allowed if they fit in a carrier on your lap.",
     "can I get a refund if my train is cancelled because of a strike"),
    ("conditions/wifi", "On-board wifi",
     "Free wifi is available on all intercity trains. Each session is limited to 60 minutes and video streaming is blocked to keep the connection usable for everyone.",
     "is there a time limit on the train wifi"),
])  # fmt: skip


def supabase_doc_search(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Supabase's nextjs-openai-doc-search: doc sections joined by '---' lines, the question in triple
    quotes, one user message after a short system message."""
    sections = "\n---\n".join(d.text for d in docs)
    return [
        _msg("system", "You are a very enthusiastic Tasklane representative who loves to help people!"),
        _msg(
            "user",
            (
                "Given the following sections from the Tasklane documentation, answer the question using only that information, "
                "outputted in markdown format. If you are unsure and the answer is not explicitly written in the documentation, "
                'say "Sorry, I don\'t know how to help with that."\n\n'
                f'Context sections:\n{sections}\n\nQuestion: """\n{question}\n"""\n\n'
                "Answer as markdown (including related code snippets if available):"
            ),
        ),
    ]


ORDINALS = ["first", "second", "third", "fourth", "fifth"]


def vectara_ordinal_turns(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Vectara's chat summary prompt template: one user turn asking for the n-th search result and one
    assistant turn holding it per document, then the summary request quoting the query."""
    messages = [
        _msg(
            "system",
            "You are a search bot that takes search results and summarizes them as a coherent answer. Only use information provided in this chat.",
        )
    ]
    for word, d in zip(ORDINALS[: len(docs)], docs, strict=True):
        messages.append(_msg("user", f"Give me the {word} search result."))
        messages.append(_msg("assistant", d.text))
    messages.append(
        _msg(
            "user",
            f"Generate a summary for the query '{question}' based on the above results. Cite the results you use as [number].",
        )
    )
    return messages


def graphrag_local_table(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Microsoft GraphRAG's local-search system prompt (---Role--- / ---Goal--- / ---Data tables---) with the
    text units as a '-----Sources-----' pipe table, instructions translated by the service."""
    rows = "\n".join(f"{rng.randint(10, 99)}{n}|{d.text.replace(chr(10), ' ')}" for n, d in enumerate(docs))
    system = (
        "---Role---\n\nEres un asistente que responde preguntas sobre los datos de las tablas proporcionadas.\n\n"
        "---Goal---\n\nGenera una respuesta con la longitud y el formato indicados que responda a la pregunta del usuario, "
        "resumiendo la información de las tablas de datos. Si no sabes la respuesta, dilo. No inventes nada.\n"
        "Los puntos respaldados por datos deben citar sus fuentes así: [Data: Sources (ids)].\n\n"
        f"---Target response length and format---\n\nUn párrafo breve\n\n---Data tables---\n\n-----Sources-----\nid|text\n{rows}\n"
    )
    return [_msg("system", system), _msg("user", question)]


def qwen_agent_knowledge(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Qwen-Agent's Assistant with files: '# 知识库' appended to the system message, each snippet under
    '## 来自 {source} 的内容：' in a fenced block."""
    snippets = "\n\n".join(f"## 来自 {d.source} 的内容：\n\n```\n{d.text}\n```" for d in docs)
    return [
        _msg("system", f"你是运维平台的技术支持助手，请用简洁的中文回答。\n\n# 知识库\n\n{snippets}"),
        _msg("user", question),
    ]


HISTORY_EN = [
    ("hi there", "Hello! How can I help you with your trip today?"),
    ("I'm travelling next week", "Great — ask me anything about tickets, conditions or services on board."),
    ("thanks, one more thing", "Of course, go ahead."),
]


def librechat_file_context(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LibreChat's RAG API file context: the attached files' retrieved chunks as <file><filename>…<context>
    blocks in the system message, a few turns of chat history before the question."""
    files = "\n".join(
        f"<file>\n<filename>{d.source.split('/')[-1]}.pdf</filename>\n<context>{d.text}</context>\n</file>"
        for d in docs
    )
    messages = [
        _msg(
            "system",
            (
                "You are RailMate, the passenger help assistant.\n\n"
                "The user has attached files to the conversation. Use the context as your learned knowledge to better answer the user. "
                "In your response, follow these guidelines:\n- If you don't know, simply say that you don't know.\n"
                "- If you are unsure how to answer, ask for clarification.\n- Avoid mentioning that you obtained the information from the context.\n\n"
                f"<files>\n{files}\n</files>"
            ),
        )
    ]
    for user, assistant in HISTORY_EN[: rng.randint(0, 3)]:
        messages += [_msg("user", user), _msg("assistant", assistant)]
    messages.append(_msg("user", question))
    return messages


def agno_references(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """An Agno (phidata) agent with a knowledge base and add_references: the question first, then the
    documents as indented JSON in <references> tags, in one user message."""
    references = [
        {
            "name": d.title,
            "meta_data": {"chunk": rng.randint(1, 9), "url": f"https://city.example.gov/{d.source}"},
            "content": d.text,
        }
        for d in docs
    ]
    return [
        _msg(
            "system",
            "You are the City Services helper. Answer residents' questions from the knowledge base. Keep answers under 80 words.\n\n<instructions>\n- Only use the references.\n- Say if you are not sure.\n</instructions>",
        ),
        _msg(
            "user",
            f"{question}\n\nUse the following references from the knowledge base if it helps:\n<references>\n{json.dumps(references, indent=2, ensure_ascii=False)}\n</references>",
        ),
    ]


def letta_archival_search(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Letta (MemGPT) agent calling archival_memory_search: the tool message is the function return JSON,
    whose message string holds the results list (each 'timestamp: …, memory: …')."""
    results = [
        f"timestamp: 2025-0{rng.randint(1, 9)}-1{rng.randint(0, 9)} 10:{rng.randint(10, 59)}:00 AM UTC+0000, memory: {d.text}"
        for d in docs
    ]
    payload = {
        "status": "OK",
        "message": f"Showing {len(docs)} of {len(docs)} results (page 0/0): {json.dumps(results, ensure_ascii=False)}",
        "time": f"2025-10-0{rng.randint(1, 9)} 09:{rng.randint(10, 59)}:12 AM UTC+0000",
    }
    return [
        _msg(
            "system",
            "Ты — Лира, ассистент поддержки интернет-провайдера. Перед ответом ищи факты в архивной памяти с помощью archival_memory_search и отвечай только по найденному.",
        ),
        _msg("user", question),
        _tool_call("archival_memory_search", {"query": question, "page": 0, "request_heartbeat": True}, rng),
        _msg("tool", json.dumps(payload, ensure_ascii=False)),
    ]


def genkit_context_items(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Firebase Genkit's generate with docs: the augmentWithContext middleware appends 'Use the following
    information to complete your task:' and '- [n]: text' items after the prompt, in the user message."""
    items = "".join(f"- [{n}]: {d.text}\n" for n, d in enumerate(docs))
    return [
        _msg(
            "system",
            "あなたはオンラインショップ「こもれび堂」のカスタマーサポートです。与えられた情報だけを使って丁寧に答えてください。分からない場合は、分からないと答えてください。",
        ),
        _msg(
            "user", f"質問：{question}\n\nUse the following information to complete your task:\n\n{items}\n"
        ),
    ]


def cloudflare_notes(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Cloudflare's Workers AI RAG tutorial: a system message of its own with 'Context:' and one '- note' per
    document, a second system message with the instruction, then the question."""
    notes = "\n".join(f"- {d.text}" for d in docs)
    return [
        _msg("system", f"السياق:\n{notes}"),
        _msg(
            "system",
            "عند الإجابة عن السؤال، استخدم السياق المقدم إذا كان موجوداً وذا صلة. أجب باللغة العربية.",
        ),
        _msg("user", question),
    ]


def autogen_retrieve_qa(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """AutoGen's RetrieveUserProxyAgent default QA prompt: the question first, then 'Context is:' and the
    chunks, each followed by a single line break."""
    context = "".join(d.text + "\n" for d in docs)
    return [
        _msg("system", "You are a helpful AI assistant."),
        _msg(
            "user",
            (
                "You're a retrieve augmented chatbot. You answer user's questions based on your own knowledge and the context provided by the user.\n"
                "If you can't answer the question with or without the current context, you should reply exactly `UPDATE CONTEXT`.\n"
                "You must give as short an answer as possible.\n\n"
                f"User's question is: {question}\n\nContext is: {context}\n"
            ),
        ),
    ]


def elastic_playground(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Elastic's Playground RAG prompt: bulleted instructions then 'Context:' with each hit as key: value
    fields; the help centre's FAQ chunk comes back for most questions."""
    if SAAS_FAQ not in docs and len(docs) < 4 and rng.random() < 0.8:
        docs.insert(rng.randint(0, len(docs)), SAAS_FAQ)
    hits = "\n\n".join(
        f"position: {n}\ntitle: {d.title}\nurl: https://help.tasklane.io/{d.source}\nbody_content: {d.text}"
        for n, d in enumerate(docs, 1)
    )
    return [
        _msg(
            "system",
            (
                "Instructions:\n\n- You are an assistant for question-answering tasks.\n"
                "- Answer questions truthfully and factually using only the context presented.\n"
                "- If you don't know the answer, just say that you don't know, don't make up an answer.\n"
                "- You must always cite the document where the answer was extracted using inline academic citation style [], using the position.\n"
                "- Use markdown format for code examples.\n- You are correct, factual, precise, and reliable.\n\n"
                f"Context:\n{hits}\n"
            ),
        ),
        _msg("user", question),
    ]


HISTORY_CITY = [
    (
        "user: do you cover the north district too?",
        "assistant: Yes, all city services apply to every district.",
    ),
    ("user: ok thanks", "assistant: You're welcome! Anything else?"),
]


def upstash_rag_chat(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Upstash RAG Chat's default prompt: chat history and context between rules of dashes, the question at
    the end, all in one user message."""
    history = "\n".join(line for pair in HISTORY_CITY[: rng.randint(0, 2)] for line in pair)
    context = "\n".join(d.text for d in docs)
    return [
        _msg(
            "user",
            (
                "You are a friendly AI assistant augmented with an Upstash Vector Store.\n"
                "  To help you answer the questions, a context and/or chat history will be provided.\n"
                "  Answer the question at the end using only the information available in the context or chat history, either one is ok.\n\n"
                f"  -------------\n  Chat history:\n  {history}\n  -------------\n  Context:\n  {context}\n  -------------\n\n"
                f"  Question: {question}\n  Helpful answer:"
            ),
        )
    ]


def rasa_enterprise_search(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Rasa Pro's Enterprise Search Policy prompt: '### Relevant Documents' with a metadata line per document,
    '### Conversation History' ending with the user's question, and the question again under '### Question'."""
    documents = "\n".join(
        f"* {{'source': '{d.source}.html', 'title': '{d.title}'}}\n{d.text}\n" for d in docs
    )
    turns = ["USER: hi", "AI: Hi! I'm the rail assistant. How can I help?"][: rng.choice([0, 2])]
    history = "\n".join([*turns, f"USER: {question}"])
    return [
        _msg(
            "user",
            (
                "Given the following information, please provide an answer based on the provided documents and the context of the recent conversation.\n"
                "If the answer is not known or cannot be determined from the provided documents or context, please state that you do not know to the user.\n"
                f"### Relevant Documents\nUse the following documents to answer the question:\n{documents}\n"
                "Please note that there might be some documents that are not relevant to the question, you should ignore them.\n\n"
                f"### Conversation History\n{history}\n\n"
                "Based on the above sections, please formulate an answer to the question or request in the user's last message.\n\n"
                f"### Question\n{question}\n\nYour answer:"
            ),
        )
    ]


def lmstudio_citations(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LM Studio's rag-v1 plugin: each retrieved chunk as 'Citation n: "…"' in the user message, then the
    instruction and 'User Query:' with the question."""
    citations = "\n\n".join(f'Citation {n}: "{d.text}"' for n, d in enumerate(docs, 1))
    return [
        _msg("system", "你是一个本地部署的文档助手，只使用用户提供的文件内容回答。"),
        _msg(
            "user",
            (
                f"The following citations were found in the files provided by the user:\n\n{citations}\n\n"
                "Use the citations above to respond to the user query, only if they are relevant. "
                f"Otherwise, respond to the best of your ability without them.\n\nUser Query:\n\n{question}"
            ),
        ),
    ]


def _pinecone_deploy() -> object:
    calls = itertools.count()

    def pinecone_starter_deploy(docs: list[Doc], question: str, rng: random.Random) -> Messages:
        """A bank assistant built on Pinecone's Vercel starter (START CONTEXT BLOCK / END OF CONTEXT BLOCK in
        the system message), redeployed half-way with numbered rules and '§ Fuente n' labels in the user turn."""
        if next(calls) % REQUESTS < REQUESTS // 2:
            context = "\n".join(d.text for d in docs)
            system = (
                "El asistente de IA es una inteligencia artificial nueva, potente y parecida a un humano. Es experto, servicial, inteligente y elocuente.\n"
                f"START CONTEXT BLOCK\n{context}\nEND OF CONTEXT BLOCK\n"
                "El asistente tendrá en cuenta cualquier CONTEXT BLOCK de la conversación. Si el contexto no responde a la pregunta, dirá: "
                '"Lo siento, no sé la respuesta a esa pregunta". No inventará nada que no esté en el contexto.'
            )
            return [_msg("system", system), _msg("user", question)]
        sources = "\n\n".join(f"§ Fuente {n} — {d.title}\n{d.text}" for n, d in enumerate(docs, 1))
        return [
            _msg(
                "system",
                "Eres Lumi, el asistente del Banco Lumbre.\nReglas:\n1. Responde solo con las fuentes.\n2. Cita la fuente como (Fuente n).\n3. Si no está en las fuentes, deriva al cliente a una oficina.",
            ),
            _msg("user", f"{sources}\n\n¶ Pregunta del cliente: {question}"),
        ]

    return pinecone_starter_deploy


def smolagents_or_cookbook(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A rail help service routing per request: agentic questions go through a smolagents RetrieverTool
    ('===== Document n =====' in the tool result), the rest through Hugging Face's advanced RAG cookbook
    prompt ('Document n:::' under 'Extracted documents:')."""
    if rng.random() < 0.5:
        retrieved = "\nRetrieved documents:\n" + "".join(
            f"\n\n===== Document {n} =====\n{d.text}" for n, d in enumerate(docs)
        )
        return [
            _msg(
                "system",
                "You are an expert assistant who can solve any task using tool calls. You will be given a task to solve as best you can. To do so, you have been given access to the retriever tool.",
            ),
            _msg("user", f"New task:\n{question}"),
            _tool_call("retriever", {"query": question}, rng),
            _msg("tool", retrieved),
        ]
    context = "\nExtracted documents:\n" + "".join(f"Document {n}:::\n{d.text}\n" for n, d in enumerate(docs))
    return [
        _msg(
            "system",
            "Using the information contained in the context,\ngive a comprehensive answer to the question.\nRespond only to the question asked, response should be concise and relevant to the question.\nProvide the number of the source document when relevant.\nIf the answer cannot be deduced from the context, do not give an answer.",
        ),
        _msg(
            "user",
            f"Context:\n{context}\n---\nNow here is the question you need to answer.\n\nQuestion: {question}",
        ),
    ]


FABRICATED = {
    "en": " This also applies to accounts created before 2020.",
    "es": " Además, esto no se aplica los fines de semana.",
    "zh": "此规则同样适用于测试环境。",
    "ja": "なお、この規定は法人のお客様にも適用されます。",
    "ru": " Кроме того, для пенсионеров действует скидка 20%.",
    "ar": " كما يشمل ذلك المراجعين من خارج المدينة دون أي رسوم.",
}
PREAMBLE = {"en": "Based on the provided documents, ", "es": "Según la documentación, ", "zh": "根据参考资料，",
            "ja": "資料によると、", "ru": "Согласно документам, ", "ar": "بحسب المعلومات المتوفرة، "}  # fmt: skip


def _first_sentence(text: str) -> str:
    """The first sentence of a document's last paragraph that is prose (not a heading or list marker)."""
    body = next(p for p in reversed(text.split("\n\n")) if not p.lstrip().startswith(("#", "■", "*", "1)")))
    line = next(x for x in body.split("\n") if x.strip() and not x.startswith(("#", "-", "※")))
    for end in ("。", ". ", "؟ "):
        if end in line:
            return line.split(end)[0] + end.strip()
    return line


def _answer(target: Doc, rng: random.Random) -> tuple[str, bool]:
    """Answers as models write them: plain, cited [n] or (Source: x), markdown or with a preamble; 40% with
    one fabricated claim."""
    first = _first_sentence(target.text)
    style = rng.choice(["plain", "cited", "source", "markdown", "preamble"])
    if style == "cited":
        first = f"{first} [{rng.randint(1, 3)}]"
    elif style == "source":
        first = f"{first} (Source: {target.source})"
    elif style == "markdown":
        first = f"**{first}**" if target.lang in ("zh", "ja") else f"- **{first}**"
    elif style == "preamble":
        first = PREAMBLE[target.lang] + first
    if rng.random() < 0.4:
        return first + FABRICATED[target.lang], True
    return first, False


SERVICES = [
    ("tasklane-docsearch", "Supabase nextjs-openai-doc-search template (supabase-community)", "user message: 'Context sections:' joined by '\\n---\\n' lines, question in triple quotes, docs hold their own '---' and numbered steps", SAAS, supabase_doc_search),
    ("cityhall-vectara", "Vectara chat summary prompt template (vectara-summary-ext style JSON prompt)", "one user 'Give me the n-th search result.' + one assistant turn holding each document, then the summary request quoting the query", CITY, vectara_ordinal_turns),
    ("banco-graphrag-local", "Microsoft GraphRAG local search system prompt (Spanish translation)", "---Role---/---Goal---/---Data tables--- system message, '-----Sources-----' pipe table id|text, one flattened doc per row", ES, graphrag_local_table),
    ("yunwei-qwen-agent", "Qwen-Agent Assistant knowledge prompt (# 知识库 / ## 来自 {source} 的内容：)", "Chinese: per-source '##' heading then a ``` fenced chunk, appended to the system message", ZH, qwen_agent_knowledge),
    ("railmate-librechat", "LibreChat RAG API file context (createContextHandlers)", "system: guidelines list then <files><file><filename>…</filename><context>…</context></file>, 0-3 history turns before the question", RAIL, librechat_file_context),
    ("cityhall-agno", "Agno (phidata) Agent add_references knowledge prompt", "user message: question first, then <references> holding an indented JSON list of {name, meta_data, content}", CITY, agno_references),
    ("provaider-letta-ru", "Letta (MemGPT) archival_memory_search function return", "Russian: tool message JSON whose 'message' string embeds a JSON list of 'timestamp: …, memory: …' results (double-encoded)", RU, letta_archival_search),
    ("komorebi-genkit-ja", "Firebase Genkit augmentWithContext middleware (docs option)", "Japanese question first in user message, then 'Use the following information…' and '- [n]: text' items (multi-line docs)", JA, genkit_context_items),
    ("iyada-cloudflare-ar", "Cloudflare Workers AI RAG tutorial (notes as context system message)", "Arabic: first system message 'السياق:' with '- note' per document, second system message with the instruction, user question", AR, cloudflare_notes),
    ("railmate-autogen", "AutoGen RetrieveUserProxyAgent PROMPT_QA", "question first ('User's question is:'), then 'Context is:' with chunks each followed by one newline", RAIL, autogen_retrieve_qa),
    ("tasklane-elastic-playground", "Elastic Playground default RAG prompt", "system: bulleted instructions, 'Context:' then position/title/url/body_content key: value records; an FAQ chunk in most requests", SAAS, elastic_playground),
    ("cityhall-upstash", "Upstash RAG Chat SDK default prompt", "one user message: chat history and context between '-------------' rules (indented), chunks joined by newline, question last", CITY, upstash_rag_chat),
    ("railmate-rasa-search", "Rasa Pro Enterprise Search Policy default prompt", "### Relevant Documents with '* {metadata dict}' line per doc, ### Conversation History ending with the question, ### Question repeats it", RAIL, rasa_enterprise_search),
    ("wendang-lmstudio", "LM Studio rag-v1 plugin prompt", "Chinese docs as 'Citation n: \"…\"' quoted blocks in the user message, then 'User Query:' and the question", ZH, lmstudio_citations),
    ("banco-pinecone-deploy", "Pinecone Vercel starter (START/END CONTEXT BLOCK), redeployed half-way", "v1 Spanish system with context between START/END CONTEXT BLOCK; v2 numbered rules, user turn with '§ Fuente n — title' blocks and '¶ Pregunta'", ES, _pinecone_deploy()),
    ("railmate-hf-router", "smolagents RetrieverTool / Hugging Face advanced RAG cookbook, routed per request", "router: tool message '===== Document n =====' blocks, or user 'Extracted documents:' with 'Document n:::' blocks", RAIL, smolagents_or_cookbook),
]  # fmt: skip


def build() -> None:
    write_wave("wave_k", HERE, SERVICES, seed=10400, requests=REQUESTS, answer=_answer, as_sent=_as_sent)  # type: ignore[arg-type]


if __name__ == "__main__":
    build()
