# ruff: noqa: E501, W291
"""Blind wave O: sixteen services after frameworks, products, vendor samples and model cards that no earlier
wave holds, written by a helper who had not read the reader, with 1-8 documents per request (templates marked
"from memory" were written from the public source as remembered, not copied):

- SillyTavern's chat-completion prompt (Polish role-play: world-info entries joined by single newlines in a
  system message of their own, a greeting and history turns, the question as an in-character line);
- an n8n AI Agent calling a Vector Store tool (Turkish: the documents as double-encoded JSON in a tool message);
- LlamaIndex's CitationQueryEngine (a worked example with its own 'Source n:' sources before the real ones);
- a LlamaIndex RouterQueryEngine routing between tree_summarize and the chat refine prompt (Italian; the refine
  prompt carries an earlier answer that is not context);
- LangChain's RetrievalQAWithSourcesChain (two few-shot examples with their own 'Content:/Source:' records
  between '=========' lines; one FAQ chunk in most requests);
- OpenAI's "Question answering using embeddings" cookbook ('Wikipedia article section:' in triple quotes);
- Anthropic's RAG cookbook prompt (Vietnamese: the query before the <documents>);
- Nextcloud's context_chat_backend prompt ('START OF CONTEXT:' / 'END OF CONTEXT!', Italian);
- Zhipu GLM-4's retrieval-tool prompt_template rendered client-side (Chinese, documents and question each in
  triple quotes);
- Microsoft Kernel Memory's answer-with-facts prompt (Arabic: '==== [File:…;Relevance:…%]:' headers);
- the .NET AI Chat Web App template (a Search tool answering with a JSON array of '<result filename
  page_number>' strings, XML citations in the answers, history);
- a Teams AI library bot with a data source ('<context source=…>' blocks after the system prompt, history);
- wandbot (HTML-comment delimiters, 'source:' / 'has_code:' header lines, documents split by '---');
- Qdrant's RAG tutorial (question before a newline-joined context), redeployed half-way with the context in the
  system message;
- Llama 3.1's built-in brave_search tool as a raw completion prompt (ipython turn holding the search JSON);
- Aider's /ask mode (repo map, the files 'added to the chat' in one user turn answered by 'Ok', then the ask).

Ground truth: every document is the text the retriever returned, never a title, path, score or source label
the template adds around it (no template here writes metadata inside the text); where the template escapes the
text (JSON, double JSON) the document is still the unescaped text. Measured once with main's readers before any
change.

First run with main's readers (``bench_templates.py --blind tests/assembly_templates/blind/wave_o``, each
request under openinference and openai-v2-latest, 48 readings a service): learnt+rules 460/768 right (59.9%),
70 wrong context, 238 unscored (readings_disagree 190, no_context 48); learnt-only 428 / 70 / 270; rules-only
162 / 302 / 304. Learnt+rules right / wrong / unscored: comune-nextcloud-context-chat-it 48/0/0,
hizli-n8n-agent-tr 48/0/0, olympics-cookbook-embeddings 48/0/0, saodi-zhipu-retrieval-zh 48/0/0,
halcyon-teams-ai 46/0/2, skiff-llamaindex-citation 46/0/2, trailgear-dotnet-aichatweb 46/0/2,
mawared-kernel-memory-ar 42/0/6, nganhang-anthropic-cookbook-vi 42/0/6, comune-llamaindex-router-it 26/22/0
(the refine prompt's earlier answer read as a document), skiff-qdrant-deploy 20/0/28, halcyon-qa-with-sources
0/48/0 (each record read with its 'Source:' line), karczma-sillytavern-pl 0/0/48, olympics-llama31-brave
0/0/48, skiff-wandbot 0/0/48 (readings_disagree), skiff-aider 0/0/48 (no_context).

    python tests/assembly_templates/blind/make_wave_o.py   # writes wave_o/*.json (deterministic)
"""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

from make_wave_k import Doc, _msg, _pool, _tool_call
from wave_writer import write_wave

HERE = Path(__file__).resolve().parent / "wave_o"
REQUESTS = 24

Messages = list[dict[str, Any]]


LORE_PL = _pool("pl", [
    ("wi/przelecz", "Wrzosowa Przełęcz",
     "Wrzosowa Przełęcz to jedyna droga przez Góry Sowie. Zimą jest zamknięta od listopada do marca, a przejścia strzeże garnizon z Grodu Sokolego.",
     "*Rozkładam mapę na stole.* Jak przejść przez góry zimą?"),
    ("wi/karczma", "Karczma Pod Złotym Kogutem",
     "Karczma „Pod Złotym Kogutem”\n- właścicielka: Jadwiga Mrok\n- nocleg: 3 srebrniki za noc\n- specjalność: pierogi z kaszą i grzybami\n\nW piwnicy karczmy odbywają się nielegalne walki.",
     "*Podchodzę do lady.* Ile kosztuje u was nocleg?"),
    ("wi/zakon", "Zakon Szarego Płomienia",
     "Zakon Szarego Płomienia to rycerze, którzy przysięgli chronić Gród Sokoli przed upiorami. Rozpoznać ich można po popielatych płaszczach. Wielkim mistrzem jest Bolesław Kruk.",
     "Powiedz mi, kto jest wielkim mistrzem Zakonu"),
    ("wi/waluta", "Waluta",
     "| Moneta | Wartość |\n|---|---|\n| złoty smok | 20 srebrników |\n| srebrnik | 12 miedziaków |\n| miedziak | najmniejsza moneta |",
     "Ile srebrników jest wart złoty smok?"),
    ("wi/upiory", "Upiory z Bagien Mglistych",
     "Upiory z Bagien Mglistych wychodzą tylko podczas nowiu. Nie znoszą srebra ani dźwięku dzwonów.\n\n***\n\nMiejscowi wieszają dzwonki nad drzwiami, żeby je odstraszyć.",
     "*Nerwowo zerkam na okno.* Czego boją się upiory?"),
    ("wi/ludmila", "Księżniczka Ludmiła",
     "Księżniczka Ludmiła zaginęła trzy lata temu w drodze do klasztoru w Białej Skale. Jej ojciec, książę Mieszko, obiecał za jej odnalezienie sto złotych smoków.",
     "Słyszałem coś o zaginionej księżniczce. Jaka jest nagroda"),
    ("wi/zmij", "Smok Żmij",
     "Żmij to stary smok śpiący pod Czarną Górą. Budzi się raz na sto lat; ostatnio widziano go przed dziewięćdziesięciu ośmiu laty.",
     "Kiedy obudzi się smok spod Czarnej Góry?"),
    ("wi/runy", "Magia runiczna",
     "Runy działają tylko wyryte w kamieniu lub kości.\n1. Runa ognia – rozpala ogień.\n2. Runa ciszy – tłumi kroki.\n3. Runa drogi – wskazuje północ.",
     "*Wyjmuję kamyk z wyrytym znakiem.* Która runa tłumi kroki?"),
])  # fmt: skip

SHOP_TR = _pool("tr", [
    ("sss/kargo", "Kargo",
     "Siparişler saat 14:00'e kadar verilirse aynı gün kargoya teslim edilir. 500 TL ve üzeri alışverişlerde kargo ücretsizdir; daha düşük tutarlı siparişlerde kargo ücreti 49,90 TL'dir.",
     "Kargo ücreti ne kadar?"),
    ("sss/iade", "İade",
     "Ürünü teslim aldıktan sonra 14 gün içinde iade edebilirsiniz.\n\nİade edilemeyen ürünler:\n- kulaklıklar (hijyen nedeniyle)\n- açılmış yazılım lisansları\n- kişiye özel üretilen ürünler",
     "kulaklık iade edilebilir mi"),
    ("sss/taksit", "Taksit seçenekleri",
     "| Kart | Taksit | Vade farkı |\n|---|---|---|\n| Bonus | 9 | yok |\n| Maximum | 6 | yok |\n| World | 12 | %4,5 |",
     "World kartla kaç taksit yapılıyor?"),
    ("sss/garanti", "Garanti",
     "Tüm elektronik ürünler 2 yıl resmi distribütör garantilidir. Garanti başvurusu için fatura ve ürünün seri numarası gerekir. Sıvı teması garanti kapsamı dışındadır.",
     "sıvı teması garantiye dahil mi"),
    ("sss/magaza", "Mağazadan teslim",
     "İstanbul Kadıköy ve Ankara Çankaya mağazalarımızdan siparişinizi ücretsiz teslim alabilirsiniz. Siparişiniz hazır olduğunda SMS ile bilgilendirilirsiniz ve ürün 7 gün boyunca saklanır.",
     "Mağazada sipariş ne kadar süre bekletiliyor?"),
    ("sss/puan", "HızlıPuan",
     "Her alışverişte tutarın %2'si kadar HızlıPuan kazanırsınız. 1 HızlıPuan 1 TL değerindedir ve puanlar 12 ay sonra silinir.\n---\nNot: Kampanyalı ürünlerde puan kazanılmaz.",
     "puanlar ne zaman siliniyor"),
    ("sss/fatura", "Kurumsal fatura",
     "Kurumsal fatura için sipariş sırasında \"Kurumsal\" seçeneğini işaretleyip vergi dairesi ve vergi numarasını girmeniz gerekir. Kesilen fatura sonradan kurumsal faturaya çevrilemez.",
     "bireysel fatura sonradan kurumsala çevrilir mi"),
    ("sss/servis", "Teknik servis",
     "Arızalı ürünü anlaşmalı kargo ile ücretsiz gönderebilirsiniz. Onarım süresi en fazla 20 iş günüdür; bu sürede onarılamayan ürün için değişim veya iade yapılır.",
     "Onarım en fazla kaç gün sürer?"),
])  # fmt: skip

COMUNE_IT = _pool("it", [
    ("anagrafe/cie", "Carta d'identità elettronica",
     "La carta d'identità elettronica si richiede su appuntamento all'Ufficio Anagrafe. Il costo è di 22,21 euro, da pagare con PagoPA o bancomat allo sportello. La carta arriva per posta entro sei giorni lavorativi.",
     "quanto costa la carta d'identità elettronica"),
    ("ambiente/raccolta", "Raccolta differenziata",
     "Calendario della raccolta porta a porta:\n\n| Giorno | Rifiuto |\n|---|---|\n| Lunedì | Organico |\n| Mercoledì | Plastica e metalli |\n| Venerdì | Carta e cartone |\n| Sabato | Indifferenziato |\n\nI bidoni vanno esposti dopo le 20 della sera prima.",
     "Che giorno si raccoglie la plastica?"),
    ("tributi/tari", "TARI 2025",
     "La TARI 2025 si paga in due rate: la prima entro il 16 luglio, la seconda entro il 2 dicembre. Chi vive da solo ha diritto a una riduzione del 30% sulla quota variabile.",
     "entro quando si paga la prima rata della TARI"),
    ("mobilita/ztl", "ZTL centro storico",
     "La Zona a Traffico Limitato del centro storico è attiva dal lunedì al sabato, dalle 7:30 alle 19:30. I residenti possono richiedere il permesso gratuito; per le auto elettriche dei non residenti il permesso costa 10 euro all'anno.",
     "Quando è attiva la ZTL?"),
    ("scuola/mensa", "Mensa scolastica",
     "Le iscrizioni alla mensa scolastica si fanno online dal 1° al 31 agosto.\n- Tariffa piena: 4,80 euro a pasto\n- ISEE sotto 10.000 euro: 2,00 euro a pasto\n- Dal terzo figlio: gratuita\n\nLe diete speciali richiedono un certificato medico.",
     "quanto costa un pasto della mensa con ISEE basso"),
    ("cultura/biblioteca", "Biblioteca civica",
     "La Biblioteca civica è aperta dal martedì al sabato, dalle 9 alle 19. Si possono prendere in prestito fino a cinque libri per trenta giorni, rinnovabili una volta.",
     "Quanti libri posso prendere in prestito?"),
    ("anagrafe/residenza", "Cambio di residenza",
     "Il cambio di residenza si dichiara entro 20 giorni dal trasloco, online sul portale ANPR o allo sportello. La Polizia Locale verifica la nuova dimora entro 45 giorni.\n________________\nAttenzione: senza la verifica la residenza non diventa definitiva.",
     "entro quanti giorni devo dichiarare il cambio di residenza"),
    ("stato-civile/matrimonio", "Matrimonio civile",
     "I matrimoni civili si celebrano nella Sala degli Specchi del Palazzo comunale. La sala costa 150 euro per i residenti e 600 euro per i non residenti; il sabato pomeriggio si aggiungono 100 euro.",
     "Quanto costa sposarsi in Comune per chi non è residente?"),
])  # fmt: skip

BANK_VI = _pool("vi", [
    ("faq/chuyen-tien", "Chuyển tiền",
     "Phí chuyển tiền liên ngân hàng qua ứng dụng là 0 đồng cho mọi giao dịch. Hạn mức chuyển tối đa là 500 triệu đồng mỗi ngày; muốn tăng hạn mức cần đến chi nhánh.",
     "chuyển tiền liên ngân hàng có mất phí không"),
    ("faq/lai-suat", "Lãi suất tiết kiệm",
     "| Kỳ hạn | Lãi suất/năm |\n|---|---|\n| 1 tháng | 3,2% |\n| 6 tháng | 4,5% |\n| 12 tháng | 5,1% |\n\nLãi suất áp dụng từ ngày 01/03/2025.",
     "Lãi suất kỳ hạn 12 tháng là bao nhiêu?"),
    ("faq/the-tin-dung", "Thẻ tín dụng Bạch Kim",
     "Thẻ tín dụng Bạch Kim được miễn phí thường niên năm đầu. Từ năm thứ hai, phí là 999.000 đồng, được miễn nếu chi tiêu trên 100 triệu đồng trong năm.",
     "phí thường niên thẻ Bạch Kim là bao nhiêu"),
    ("faq/mat-the", "Mất thẻ",
     "Khi mất thẻ, hãy khóa thẻ ngay trong ứng dụng:\n1. Chọn mục Thẻ.\n2. Chọn thẻ cần khóa.\n3. Bấm Khóa thẻ tạm thời.\n\nSau đó gọi tổng đài 1900 6868 để phát hành lại thẻ.",
     "Tôi bị mất thẻ thì phải làm gì?"),
    ("faq/ekyc", "Mở tài khoản trực tuyến",
     "Bạn có thể mở tài khoản trực tuyến bằng căn cước công dân gắn chip. Quá trình xác thực khuôn mặt mất khoảng 3 phút; người dưới 15 tuổi không mở được tài khoản trực tuyến.",
     "trẻ em 14 tuổi có mở tài khoản online được không"),
    ("faq/vay-nha", "Vay mua nhà",
     "Gói vay mua nhà cho phép vay tới 70% giá trị căn nhà, thời hạn tối đa 25 năm. Lãi suất cố định 6,9% trong 12 tháng đầu, sau đó thả nổi theo lãi suất cơ sở cộng 3,5%.",
     "vay mua nhà được tối đa bao nhiêu phần trăm giá trị"),
    ("faq/otp", "Mã OTP",
     "Ngân hàng không bao giờ gọi điện hay nhắn tin yêu cầu bạn cung cấp mã OTP.\n\n---\n\nNếu nghi ngờ lừa đảo, hãy gọi ngay 1900 6868 để khóa tài khoản.",
     "Ngân hàng có gọi điện hỏi mã OTP không?"),
    ("faq/gio-lam-viec", "Giờ làm việc",
     "Các chi nhánh làm việc từ thứ Hai đến thứ Sáu, 8:00–17:00, và sáng thứ Bảy 8:00–11:30. Chủ nhật và ngày lễ nghỉ.",
     "chi nhánh có làm việc sáng thứ Bảy không"),
])  # fmt: skip

HR_AR = _pool("ar", [
    ("لائحة_الإجازات.pdf", "الإجازة السنوية",
     "يستحق الموظف إجازة سنوية مدفوعة الأجر مدتها 21 يوماً، تزيد إلى 30 يوماً بعد خمس سنوات من الخدمة. ولا يجوز ترحيل أكثر من 10 أيام إلى السنة التالية.",
     "كم يوماً من الإجازة السنوية يمكن ترحيلها"),
    ("لائحة_الإجازات.pdf", "الإجازة المرضية",
     "الإجازة المرضية:\n- الأيام الثلاثون الأولى: بأجر كامل\n- الستون يوماً التالية: بثلاثة أرباع الأجر\n- بعد ذلك: بدون أجر\n\nيجب تقديم تقرير طبي معتمد خلال 48 ساعة.",
     "ما الأجر خلال الإجازة المرضية بعد أول ثلاثين يوماً؟"),
    ("دليل_الموظف.docx", "ساعات العمل",
     "ساعات العمل الرسمية من الأحد إلى الخميس، من الساعة 7:30 صباحاً حتى 3:30 مساءً. وفي شهر رمضان تُخفض ساعات العمل إلى خمس ساعات يومياً.",
     "كم ساعة العمل في رمضان"),
    ("سلم_الرواتب.xlsx", "بدل السكن",
     "| الدرجة | بدل السكن الشهري |\n|---|---|\n| الأولى | 3,000 ريال |\n| الثانية | 2,500 ريال |\n| الثالثة | 2,000 ريال |",
     "كم بدل السكن للدرجة الثانية؟"),
    ("لائحة_الإجازات.pdf", "إجازة الأمومة",
     "يحق للموظفة إجازة أمومة مدتها عشرة أسابيع بأجر كامل، ويمكن أن تبدأ قبل الموعد المتوقع للولادة بأربعة أسابيع كحد أقصى.",
     "كم مدة إجازة الأمومة"),
    ("دليل_الموظف.docx", "العمل الإضافي",
     "يُصرف بدل العمل الإضافي بنسبة 150% من أجر الساعة في أيام العمل، و200% في أيام العطل الرسمية، بشرط موافقة المدير المباشر مسبقاً.",
     "ما نسبة بدل العمل الإضافي في العطل الرسمية؟"),
    ("دليل_الموظف.docx", "التدريب",
     "لكل موظف 40 ساعة تدريبية في السنة على الأقل.\n====\nتُسجَّل الدورات عبر بوابة الموارد البشرية قبل أسبوعين من موعدها.",
     "متى يجب التسجيل في الدورات التدريبية"),
    ("دليل_الموظف.docx", "الاستقالة",
     "عند الاستقالة يجب إشعار جهة العمل كتابياً قبل 30 يوماً. ويُصرف للموظف مقابل رصيد إجازاته غير المستخدمة مع آخر راتب.",
     "كم يوماً قبل الاستقالة يجب إشعار جهة العمل؟"),
])  # fmt: skip

ROBOT_ZH = _pool("zh", [
    ("manual/charge", "充电与续航", "扫地机器人首次使用前请充电至少6小时。充满电后可连续清扫约150分钟，覆盖面积约200平方米。", "扫地机器人充满电能扫多久"),
    ("manual/filter", "滤网保养", "滤网建议每两周清洗一次，每三个月更换一次。\n\n注意：\n1. 清洗后需完全晾干再装回；\n2. 不可使用热水或洗涤剂。", "滤网多久更换一次？"),
    ("manual/lights", "指示灯说明", "| 指示灯 | 含义 |\n|---|---|\n| 蓝灯常亮 | 正在清扫 |\n| 红灯闪烁 | 电量不足 |\n| 橙灯常亮 | 尘盒已满 |", "红灯闪烁是什么意思"),
    ("manual/warranty", "保修政策", "本产品整机保修一年，电池保修六个月。人为损坏、进水及私自拆机不在保修范围内。", "电池保修多长时间"),
    ("manual/zones", "禁区与虚拟墙", "在App中可以设置禁区和虚拟墙。禁区最多可设置10个，虚拟墙最多可设置5条。\n——————\n提示：地图重建后，禁区需要重新设置。", "最多可以设置几个禁区？"),
    ("manual/mop", "拖地模式", "拖地模式下，水箱容量为300毫升，可拖地约120平方米。遇到地毯区域时会自动抬起拖布。", "水箱装满能拖多大面积"),
    ("manual/stuck", "机器人被困", "如果机器人被困，请将其抱到开阔处并按下启动键。频繁被困时，请检查地面上的电线、袜子等杂物。", "机器人经常被困怎么办"),
    ("manual/voice", "语音控制", "支持以下语音助手控制：小爱同学、天猫精灵和Siri快捷指令。说出“开始扫地”即可启动清扫。", "支持哪些语音助手？"),
])  # fmt: skip

DEV = _pool("en", [
    ("docs/quickstart.md", "Quickstart",
     "# Quickstart\n\nInstall the client with pip:\n\n```bash\npip install skiff-sdk\n```\n\nThen create a client with your API key:\n\n```python\nfrom skiff import Client\nclient = Client(api_key=\"sk-...\")\n```",
     "how do I install the SDK"),
    ("docs/retries.md", "Retries",
     "Requests that fail with 429 or 5xx are retried up to 3 times with exponential backoff. Pass `max_retries=0` to `Client` to turn retries off.\n\n---\n\nTimeouts are never retried.",
     "How do I turn retries off?"),
    ("src/skiff/pagination.py", "pagination.py",
     "def iter_pages(client, path, page_size=100):\n    \"\"\"Yield every item of a paginated endpoint.\"\"\"\n    cursor = None\n    while True:\n        page = client.get(path, params={\"cursor\": cursor, \"limit\": page_size})\n        yield from page[\"items\"]\n        cursor = page.get(\"next_cursor\")\n        if not cursor:\n            break",
     "what is the default page size in iter_pages"),
    ("docs/limits.md", "Limits",
     "| Plan | Requests per minute | Max payload |\n|---|---|---|\n| Free | 60 | 1 MB |\n| Team | 600 | 10 MB |\n| Enterprise | 6000 | 100 MB |",
     "What is the max payload on the Team plan?"),
    ("docs/webhooks.md", "Webhooks",
     "Webhooks are signed with HMAC-SHA256. The signature is in the `Skiff-Signature` header.\n\nTo verify a webhook:\n1. Read the raw request body.\n2. Compute the HMAC with your webhook secret.\n3. Compare it with the header in constant time.\n\nReject events older than five minutes.",
     "which header holds the webhook signature"),
    ("src/skiff/config.ts", "config.ts",
     "export interface SkiffConfig {\n  baseUrl?: string; // defaults to https://api.skiff.dev/v2\n  timeoutMs?: number; // defaults to 30000\n  userAgent?: string;\n}\n\nexport const DEFAULTS = {\n  baseUrl: \"https://api.skiff.dev/v2\",\n  timeoutMs: 30_000,\n};",
     "What is the default timeout in the TypeScript client?"),
    ("docs/changelog.md", "Changelog",
     "## 2.4.0\n\n- Added `client.batches.create()` for bulk uploads.\n- Dropped support for Python 3.8.\n\n## 2.3.1\n\n- Fixed a crash when a webhook body was empty.",
     "which Python version was dropped in 2.4.0"),
    ("docs/auth.md", "Authentication",
     "API keys start with `sk-` and belong to one project. Keys can be rotated from the dashboard; the old key keeps working for 24 hours after rotation so deployments can switch over.\n\n==========\n\nNever commit keys to source control.",
     "how long does an old API key keep working after rotation"),
])  # fmt: skip
# What a model answers for the documents that hold no prose sentence.
CODE_ANSWERS = {
    "src/skiff/pagination.py": "The default page size of `iter_pages` is 100.",
    "src/skiff/config.ts": "The TypeScript client times out after 30000 ms (30 s) by default.",
}

FAQ_HR = Doc("handbook/faq.md", "General FAQ",
             "General FAQ: for any question this handbook does not answer, contact the People team at people@halcyon.example or in the #ask-people Slack channel. The answers in this handbook apply to all full-time employees in every office.",
             "who do I contact when the handbook does not answer my question")  # fmt: skip
HR = [
    FAQ_HR,
    *_pool("en", [
        ("handbook/pto.md", "Paid time off",
         "Full-time employees accrue 1.75 days of paid time off per month (21 days a year). Up to five unused days carry over to the next year; the rest expire on 31 March.",
         "how many PTO days carry over"),
        ("handbook/sick.md", "Sick days",
         "Sick days are separate from PTO and unlimited for short illnesses.\n\nFor absences longer than three consecutive working days:\n- send a doctor's note to HR;\n- tell your manager the expected return date.",
         "Do I need a doctor's note when I'm sick?"),
        ("handbook/equipment.md", "Home office equipment",
         "| Item | Budget | Renewal |\n|---|---|---|\n| Laptop | provided | every 3 years |\n| Monitor | 300 USD | every 5 years |\n| Chair | 450 USD | every 5 years |",
         "What is the budget for a home office chair?"),
        ("handbook/travel.md", "Business travel",
         "Book flights through TravelDesk at least 14 days in advance. Economy class is the rule for flights under six hours; business class needs VP approval.\n---\nHotel limit: 220 USD per night in major cities.",
         "can I fly business class"),
        ("handbook/referrals.md", "Referral bonus",
         "A referral bonus of 2,000 USD is paid when the person you referred completes three months. Referrals of former employees and hiring managers' own hires do not qualify.",
         "when is the referral bonus paid"),
        ("handbook/reviews.md", "Performance reviews",
         "Performance reviews run twice a year, in January and July. Each review has a self-assessment, peer feedback from two colleagues and a meeting with your manager.",
         "How often are performance reviews?"),
        ("handbook/401k.md", "Retirement plan",
         "The company matches 100% of 401(k) contributions up to 4% of salary. The match vests immediately.",
         "how much does the company match on 401k contributions"),
    ]),
]  # fmt: skip

OLYMPICS = _pool("en", [
    ("Curling at the 2022 Winter Olympics", "Curling at the 2022 Winter Olympics",
     "The curling tournaments were held at the Beijing National Aquatics Centre, nicknamed the \"Ice Cube\". Sweden won the men's gold medal, and Great Britain's women won gold after beating Japan 10-3 in the final.",
     "Which country won the women's curling gold in 2022?"),
    ("2026 Winter Olympics", "2026 Winter Olympics",
     "The 2026 Winter Olympics are held in Milan and Cortina d'Ampezzo, Italy, from 6 to 22 February 2026. They are the first Winter Games officially co-hosted by two cities.",
     "when do the 2026 Winter Olympics start"),
    ("Ski mountaineering at the 2026 Winter Olympics", "Ski mountaineering at the 2026 Winter Olympics",
     "Ski mountaineering makes its Olympic debut in 2026 with three events:\n- men's sprint\n- women's sprint\n- mixed relay\n\nThe races are held in Bormio.",
     "what ski mountaineering events are in the 2026 Olympics"),
    ("2022 Winter Olympics medal table", "2022 Winter Olympics medal table",
     "| Rank | Nation | Gold | Total |\n|---|---|---|---|\n| 1 | Norway | 16 | 37 |\n| 2 | Germany | 12 | 27 |\n| 3 | China | 9 | 15 |",
     "How many gold medals did Norway win in 2022?"),
    ("Biathlon", "Biathlon",
     "Biathlon combines cross-country skiing and rifle shooting. Each missed target in a sprint costs a 150 m penalty loop; in the individual race, each miss adds one minute instead.",
     "what is the penalty for a missed shot in the biathlon individual race"),
    ("Eileen Gu", "Eileen Gu",
     "Eileen Gu won two gold medals and a silver in freestyle skiing at the 2022 Winter Olympics, competing for China. She was 18 years old at the time.",
     "How many gold medals did Eileen Gu win?"),
    ("Luge", "Luge",
     "Luge is the fastest sport on ice: sliders lie on their backs, feet first, and can reach 140 km/h. Races are timed to the thousandth of a second.",
     "how fast can luge sliders go"),
    ("2026 Winter Olympics torch relay", "2026 Winter Olympics torch relay",
     "The 2026 Olympic flame was lit in Olympia, Greece, on 26 November 2025 and travels through all 110 Italian provinces.\n\n***\n\nThe relay ends at the San Siro stadium for the opening ceremony.",
     "Where does the 2026 torch relay end?"),
])  # fmt: skip

MANUALS = _pool("en", [
    ("Example_GPS_Watch.pdf#3", "Example_GPS_Watch.pdf",
     "To pair the watch with your phone, open the companion app and hold the top button for five seconds until the screen shows a blue icon. Pairing times out after two minutes.",
     "how do I pair the watch with my phone"),
    ("Example_GPS_Watch.pdf#7", "Example_GPS_Watch.pdf",
     "Battery life:\n- smartwatch mode: up to 14 days\n- GPS mode: up to 30 hours\n- GPS with music: up to 8 hours\n\nCharge with the supplied magnetic cable only.",
     "How long does the battery last in GPS mode?"),
    ("Example_GPS_Watch.pdf#9", "Example_GPS_Watch.pdf",
     "| Depth | Rating |\n|---|---|\n| 50 m | swimming, snorkelling |\n| 100 m | not rated |\n\nDo not press the buttons underwater.",
     "can I go snorkelling with the watch"),
    ("Example_GPS_Watch.pdf#12", "Example_GPS_Watch.pdf",
     "To reset the watch to factory settings, go to Settings > System > Reset. All activities that have not been synced are deleted.",
     "What happens to unsynced activities when I reset the watch?"),
    ("Example_Emergency_Survival_Kit.pdf#2", "Example_Emergency_Survival_Kit.pdf",
     "The kit contains a thermal blanket, a whistle, 20 water purification tablets, a fire starter and a first-aid pouch. Each tablet treats one litre of water in 30 minutes.",
     "how long does a water purification tablet take"),
    ("Example_Emergency_Survival_Kit.pdf#4", "Example_Emergency_Survival_Kit.pdf",
     "Signalling for help:\n1. Three short blasts on the whistle, repeated every minute.\n2. At night, three flashes of the torch.\n3. Lay out the orange blanket in open ground.",
     "What is the whistle signal for help?"),
    ("Example_Emergency_Survival_Kit.pdf#5", "Example_Emergency_Survival_Kit.pdf",
     "The fire starter works when wet and gives about 3,000 strikes. Scrape the striker at a low angle toward the tinder.\n----\nNever use it inside a tent.",
     "does the fire starter work when wet"),
    ("Example_Emergency_Survival_Kit.pdf#6", "Example_Emergency_Survival_Kit.pdf",
     "Replace the first-aid pouch every five years; the plasters and antiseptic wipes expire. The thermal blanket has no expiry date.",
     "how often should I replace the first-aid pouch"),
])  # fmt: skip


ST_MAIN = "Write {{char}}'s next reply in a fictional chat between {{char}} and {{user}}. Write 1 reply only in internet RP style, italicize actions, and avoid quotation marks. Use markdown. Be proactive, creative, and drive the plot and conversation forward. Write at least 1 paragraph, up to 4. Always stay in character and avoid repetition."
ST_CHAR = "Jadwiga Mrok to karczmarka w Grodzie Sokolim, po pięćdziesiątce, z blizną na lewym policzku. Zna wszystkie plotki w okolicy, ale nie zdradza ich za darmo. Mówi krótko i z przekąsem, wobec stałych gości bywa serdeczna."
ST_SCENARIO = "{{user}} przybywa do Grodu Sokolego późnym wieczorem, w czasie jesiennej burzy, i szuka informacji przed dalszą podróżą."
ST_GREETING = "*Jadwiga odstawia wyczyszczony kufel i mierzy cię wzrokiem od stóp do głów.* No, no. Mokry jak szczur. Siadaj bliżej ognia, wędrowcze, i mów, czego ci trzeba."
ST_HISTORY = [
    (
        "*Otrzepuję płaszcz z deszczu i siadam przy ogniu.* Dziękuję. Długa droga za mną.",
        "*Stawia przed tobą miskę parującej zupy.* Wszyscy tu mają długą drogę za sobą. Jedz, potem pogadamy.",
    ),
    (
        "Dużo tu dziś ludzi.",
        "*Wzrusza ramionami.* Burza zagania wszystkich pod jeden dach. Uważaj na sakiewkę.",
    ),
]


def sillytavern_pl(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """SillyTavern's chat-completion prompt manager (from memory), macros left as the default preset writes
    them: the main prompt, the activated world-info entries joined by single newlines (world info format
    '{0}') as a system message of their own, the character description and scenario, '[Start a new Chat]',
    the greeting and 0-2 history turns, then the user's in-character line."""
    messages = [
        _msg("system", ST_MAIN),
        _msg("system", "\n".join(d.text for d in docs)),
        _msg("system", ST_CHAR),
        _msg("system", f"[Scenariusz: {ST_SCENARIO}]"),
        _msg("system", "[Start a new Chat]"),
        _msg("assistant", ST_GREETING),
    ]
    for user, char in ST_HISTORY[: rng.randint(0, 2)]:
        messages += [_msg("user", user), _msg("assistant", char)]
    return [*messages, _msg("user", question)]


def n8n_agent_tr(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """An n8n AI Agent node with a Vector Store node in retrieve-as-tool mode (from memory): the agent calls
    the tool with {"input": …}; the tool returns one {"type": "text", "text": JSON({pageContent, metadata})}
    per document, and the array is stringified again into the tool message, so each text is escaped twice."""
    call = _tool_call("magaza_bilgi_bankasi", {"input": question}, rng)
    items = []
    for d in docs:
        start = rng.randint(1, 40)
        metadata = {
            "source": "blob",
            "blobType": "text/plain",
            "loc": {"lines": {"from": start, "to": start + d.text.count("\n")}},
        }
        items.append(
            {
                "type": "text",
                "text": json.dumps(
                    {"pageContent": d.text, "metadata": metadata}, ensure_ascii=False, separators=(",", ":")
                ),
            }
        )
    tool = {
        "role": "tool",
        "tool_call_id": call["tool_calls"][0]["id"],
        "content": json.dumps(items, ensure_ascii=False, separators=(",", ":")),
    }
    system = "Sen HızlıTeknoloji'nin müşteri asistanısın. Soruları yalnızca magaza_bilgi_bankasi aracından gelen bilgilerle, kısa ve nazik bir şekilde Türkçe yanıtla."
    return [_msg("system", system), _msg("user", question), call, tool]


CITATION_QA = (
    "Please provide an answer based solely on the provided sources. When referencing information from a source, cite the appropriate source(s) using their corresponding numbers. "
    "Every answer should include at least one source citation. Only cite a source when you are explicitly referencing it. If none of the sources are helpful, you should indicate that. "
    "For example:\nSource 1:\nThe sky is red in the evening and blue in the morning.\nSource 2:\nWater is wet when the sky is red.\n"
    "User query: When is water wet?\nAnswer: Water will be wet when the sky is red [2], which occurs in the evening [1].\n"
    "Now it's your turn. Below are several numbered sources of information:\n------\n{context_str}\n------\nUser query: {query_str}\nAnswer: "
)


def llamaindex_citation(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LlamaIndex's CitationQueryEngine (from memory): each node rewritten as 'Source n:\\n{text}\\n', the
    nodes joined by blank lines into CITATION_QA_TEMPLATE, whose worked example has its own two sources; one
    user message."""
    context = "\n\n".join(f"Source {i}:\n{d.text}\n" for i, d in enumerate(docs, 1))
    return [_msg("user", CITATION_QA.replace("{context_str}", context).replace("{query_str}", question))]


TREE_SUMMARIZE = "Context information from multiple sources is below.\n---------------------\n{context_str}\n---------------------\nGiven the information from multiple sources and not prior knowledge, answer the query.\nQuery: {query_str}\nAnswer: "
QA_SYSTEM = "You are an expert Q&A system that is trusted around the world.\nAlways answer the query using the provided context information, and not prior knowledge.\nSome rules to follow:\n1. Never directly reference the given context in your answer.\n2. Avoid statements like 'Based on the context, ...' or 'The context information ...' or anything along those lines."
CHAT_REFINE = (
    "You are an expert Q&A system that strictly operates in two modes when refining existing answers:\n"
    "1. **Rewrite** an original answer using the new context.\n2. **Repeat** the original answer if the new context isn't useful.\n"
    "Never reference the original answer or context directly in your answer.\nWhen in doubt, just repeat the original answer.\n"
    "New Context: {context_msg}\nQuery: {query_str}\nOriginal Answer: {existing_answer}\nNew Answer: "
)
EARLIER_ANSWERS_IT = [
    "Le informazioni disponibili non permettono di rispondere con certezza.",
    "Secondo il sito del Comune, conviene rivolgersi allo Sportello del cittadino per i dettagli.",
    "Il servizio è gestito dall'Ufficio competente del Comune; orari e costi possono variare.",
]


def llamaindex_router_it(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A LlamaIndex RouterQueryEngine over two query engines (from memory): the summary tool answers with
    tree_summarize (QA system message, chunks joined by blank lines between dashed rules), the vector tool
    with compact-and-refine, whose refine call is CHAT_REFINE_PROMPT in one user message holding the new
    chunks and the earlier answer (model text, not context); an Italian town hall's documents."""
    context = "\n\n".join(d.text for d in docs)
    if rng.random() < 0.5:
        prompt = TREE_SUMMARIZE.replace("{context_str}", context).replace("{query_str}", question)
        return [_msg("system", QA_SYSTEM), _msg("user", prompt)]
    prompt = (
        CHAT_REFINE.replace("{context_msg}", context)
        .replace("{query_str}", question)
        .replace("{existing_answer}", rng.choice(EARLIER_ANSWERS_IT))
    )
    return [_msg("user", prompt)]


QA_WITH_SOURCES = """Given the following extracted parts of a long document and a question, create a final answer with references ("SOURCES"). 
If you don't know the answer, just say that you don't know. Don't try to make up an answer.
ALWAYS return a "SOURCES" part in your answer.

QUESTION: Which state/country's law governs the interpretation of the contract?
=========
Content: This Agreement is governed by English law and the parties submit to the exclusive jurisdiction of the English courts in  relation to any dispute (contractual or non-contractual) concerning this Agreement save that either party may apply to any court for an  injunction or other relief to protect its Intellectual Property Rights.
Source: 28-pl
Content: No Waiver. Failure or delay in exercising any right or remedy under this Agreement shall not constitute a waiver of such (or any other)  right or remedy.

11.7 Severability. The invalidity, illegality or unenforceability of any term (or part of a term) of this Agreement shall not affect the continuation  in force of the remainder of the term (if any) and this Agreement.

11.8 No Agency. Except as expressly stated otherwise, nothing in this Agreement shall create an agency, partnership or joint venture of any  kind between the parties.
Source: 30-pl
Content: (b) if Google believes, in good faith, that the Distributor has violated or caused Google to violate any Anti-Bribery Laws (as  defined in Clause 8.5) or that such a violation is reasonably likely to occur,
Source: 4-pl
=========
FINAL ANSWER: This Agreement is governed by English law.
SOURCES: 28-pl

QUESTION: What did the president say about Michael Jackson?
=========
Content: Madam Speaker, Madam Vice President, our First Lady and Second Gentleman. Members of Congress and the Cabinet. Justices of the Supreme Court. My fellow Americans.  

Last year COVID-19 kept us apart. This year we are finally together again. 

Tonight, we meet as Democrats Republicans and Independents. But most importantly as Americans.
Source: 0-pl
Content: And we won't stop. 

We have lost so much to COVID-19. Time with one another. And worst of all, so much loss of life. 

Let's use this moment to reset.
Source: 24-pl
Content: And a proud Ukrainian people, who have known 30 years  of independence, have repeatedly shown that they will not tolerate anyone who tries to take their country backwards.  

To all Americans, I will be honest with you, as I've always promised.
Source: 5-pl
=========
FINAL ANSWER: The president did not mention Michael Jackson.
SOURCES:

QUESTION: {question}
=========
{summaries}
=========
FINAL ANSWER:"""


def qa_with_sources(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's RetrievalQAWithSourcesChain, stuff chain (from memory, the examples shortened): two
    few-shot examples whose own 'Content:' / 'Source:' records sit between '=========' lines, then the
    question and this request's records, one user message. The handbook's general FAQ chunk matches most
    questions, so it is in about three requests of four (inserted where the retriever ranked it)."""
    if FAQ_HR not in docs and rng.random() < 0.75:
        docs.insert(rng.randint(0, len(docs)), FAQ_HR)
    summaries = "\n\n".join(f"Content: {d.text}\nSource: {d.source}" for d in docs)
    return [_msg("user", QA_WITH_SOURCES.replace("{question}", question).replace("{summaries}", summaries))]


def openai_cookbook_embeddings(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """OpenAI Cookbook "Question answering using embeddings-based search" (from memory): the introduction,
    then per section '\\n\\nWikipedia article section:\\n\"\"\"\\n…\\n\"\"\"', then '\\n\\nQuestion: …', with the
    cookbook's system message; the intro names the Winter Olympics."""
    message = 'Use the below articles on the Winter Olympics to answer the subsequent question. If the answer cannot be found in the articles, write "I could not find an answer."'
    for d in docs:
        message += f'\n\nWikipedia article section:\n"""\n{d.text}\n"""'
    message += f"\n\nQuestion: {question}"
    return [_msg("system", "You answer questions about the Winter Olympics."), _msg("user", message)]


def anthropic_cookbook_vi(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Anthropic's RAG cookbook answer_query_base prompt (from memory): the query first in <query> tags, then
    the chunks joined by blank lines in <documents>, one user message; a Vietnamese bank's FAQ."""
    context = "\n\n".join(d.text for d in docs)
    prompt = f"""
    You have been tasked with helping us to answer the following query: 
    <query>
    {question}
    </query>
    You have access to the following documents which are meant to provide context as you answer the query:
    <documents>
    {context}
    </documents>
    Please remain faithful to the underlying context, and only deviate from it if you are 100% sure that you know the answer already. 
    Answer the question now, and avoid providing preamble such as 'Here is the answer', etc
    """
    return [_msg("user", prompt)]


NEXTCLOUD = """You're an AI assistant named Nextcloud Assistant, good at finding relevant context from documents to answer questions provided by the user. Use the following documents as context to answer the question at the end. REMEMBER to excersice source critisicm as the documents are returned by a search provider that can return unrelated documents.

START OF CONTEXT: 
{context} 

END OF CONTEXT!

If you don't know the answer or are unsure, just say that you don't know, don't try to make up an answer. Don't mention the context in your answer but rather just answer the question directly. Detect the language of the question and make sure to use the same language that was used in the question to answer the question. Don't mention which language was used, but just answer the question directly in the same langauge.

Question: {question}

Let's think this step-by-step. Answer: """


def nextcloud_context_chat(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Nextcloud Assistant's context_chat_backend prompt (from memory): the chunks joined by blank lines
    between 'START OF CONTEXT:' and 'END OF CONTEXT!', the question near the end; one user message (the
    backend sends a completion prompt); an Italian town hall's Nextcloud."""
    context = "\n\n".join(d.text for d in docs)
    return [_msg("user", NEXTCLOUD.replace("{context}", context).replace("{question}", question))]


def zhipu_retrieval_zh(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Zhipu GLM-4's retrieval tool default prompt_template (from memory), rendered by the service itself
    for a self-hosted GLM-4: the chunks joined by blank lines and the question, each in triple quotes."""
    knowledge = "\n\n".join(d.text for d in docs)
    prompt = (
        f'从文档\n"""\n{knowledge}\n"""\n中找问题\n"""\n{question}\n"""\n'
        "的答案，找到答案就仅使用文档语句回答问题，找不到答案就用自身知识回答并且告诉用户该信息不是来自文档。\n不要复述问题，直接开始回答。"
    )
    return [_msg("system", "你是一个扫地机器人售后客服助手。"), _msg("user", prompt)]


KERNEL_MEMORY = """Facts:
{{$facts}}
======
Given only the facts above, provide a comprehensive/detailed answer.
You don't know where the knowledge comes from, just answer.
If you don't have sufficient information, reply with 'INFO NOT FOUND'.
Question: {{$input}}
Answer: """


def kernel_memory_ar(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Microsoft Kernel Memory's answer-with-facts prompt (from memory): per partition '==== [File:{name};
    Relevance:{r}%]:' then the text, one user message; an Arabic HR handbook."""
    facts = "".join(f"==== [File:{d.source};Relevance:{rng.uniform(55, 92):.1f}%]:\n{d.text}\n" for d in docs)
    return [_msg("user", KERNEL_MEMORY.replace("{{$facts}}", facts).replace("{{$input}}", question))]


DOTNET_SYSTEM = """You are an assistant who answers questions about information you retrieve.
Do not answer questions about anything else.
Use only simple markdown to format your responses.

Use the search tool to find relevant information. When you do this, end your
reply with citations in the special XML format:

<citation filename='string' page_number='number'>exact quote here</citation>

Always include the citation in your response if there are results.

The quote must be max 5 words, taken word-for-word from the search result, and is the basis for why the citation is relevant.
Don't refer to the presence of citations; just emit these tags right at the end, with no surrounding text."""
DOTNET_HISTORY = [
    (
        "what's in the survival kit box?",
        "The kit holds a thermal blanket, a whistle, water tablets, a fire starter and a first-aid pouch.\n\n<citation filename='Example_Emergency_Survival_Kit.pdf' page_number='2'>kit contains a thermal blanket</citation>",
    ),
]


def dotnet_aichatweb(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """The .NET AI Chat Web App template (dotnet new aichatweb, from memory): its system prompt, 0-1 history
    turns, the question, a call to the Search tool, and the tool result as a JSON array of '<result
    filename=… page_number=…>text</result>' strings (quotes and newlines JSON-escaped)."""
    messages = [_msg("system", DOTNET_SYSTEM)]
    for user, assistant in DOTNET_HISTORY[: rng.randint(0, 1)]:
        messages += [_msg("user", user), _msg("assistant", assistant)]
    call = _tool_call("Search", {"searchPhrase": question.rstrip("?"), "filenameFilter": None}, rng)
    results = [
        f'<result filename="{d.title}" page_number="{d.source.split("#")[1]}">{d.text}</result>' for d in docs
    ]
    tool = {
        "role": "tool",
        "tool_call_id": call["tool_calls"][0]["id"],
        "content": json.dumps(results, ensure_ascii=False),
    }
    return [*messages, _msg("user", question), call, tool]


TEAMS_PROMPT = "The following is a conversation with an AI assistant, its name is Halcyon Helper. Halcyon Helper is an expert in Halcyon's employee handbook and the Human is an employee with a question about company policies. Halcyon Helper should always answer in simple terms and point to the handbook page it used. If the handbook does not say, Halcyon Helper says so and suggests asking the People team."
TEAMS_HISTORY = [("hi there", "Hi! I'm Halcyon Helper. What would you like to know about our policies?")]


def teams_ai_datasource(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Teams AI library bot with a Vectra data source (from memory of the samples): the skprompt text, then
    the data source's output, one '<context source="…">\\ntext\\n</context>' block per chunk joined by blank
    lines, in the system message; conversation history, then the user's message."""
    contexts = "\n\n".join(
        f'<context source="https://halcyon.example/{d.source}">\n{d.text}\n</context>' for d in docs
    )
    messages = [_msg("system", f"{TEAMS_PROMPT}\n\n{contexts}")]
    for user, assistant in TEAMS_HISTORY[: rng.randint(0, 1)]:
        messages += [_msg("user", user), _msg("assistant", assistant)]
    return [*messages, _msg("user", question)]


WANDBOT_SYSTEM = """You are skiffbot, a developer assistant designed to guide users with tasks related to the Skiff SDK and API.
Your goal is to ensure accurate and helpful responses by strictly adhering to the provided context.

1. Understand the user's query and its intent.
2. Answer only from the context information provided between the context markers.
3. Include code snippets from the context where they help; do not invent APIs.
4. Cite the sources you used at the end of your answer as a markdown list of links.
5. If the context does not answer the query, say so and point the user to the support forum."""


def wandbot_style(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """wandbot's chat prompt (from memory), rebranded: the system prompt, then one user message with the
    chunks between '<!--start-context-information-->' markers, each with 'source:', 'source_type:' and
    'has_code:' header lines, a blank line and the text, chunks split by '---' lines; then the question block
    with the language and the query intents."""
    chunks = "\n\n---\n\n".join(
        f"source: https://docs.skiff.dev/{d.source}\nsource_type: {'code' if d.source.startswith('src/') else 'documentation'}\nhas_code: {'```' in d.text or d.source.startswith('src/')}\n\n{d.text}"
        for d in docs
    )
    intents = rng.choice(
        [
            "The user is asking how to use a feature of the SDK.",
            "The user is looking for a configuration value or limit.",
        ]
    )
    prompt = (
        f"<!--start-context-information-->\n\n{chunks}\n\n<!--end-context-information-->\n"
        f"<!--start-question-->\n\n**Question**: {question}\n**Langauge**: en\n**Query Intents**: \n- {intents}\n\n<!--end-question-->\n"
        "<!--final-answer-in-markdown-->\n"
    )
    return [_msg("system", WANDBOT_SYSTEM), _msg("user", prompt)]


def _qdrant_deploy() -> object:
    calls = itertools.count()

    def qdrant_deploy(docs: list[Doc], question: str, rng: random.Random) -> Messages:
        """Qdrant's "RAG with Qdrant and OpenAI" tutorial metaprompt (from memory): the question before the
        context, the documents joined by single newlines, one user message; redeployed half-way (the team's
        own revision) with the context in the system message, joined by blank lines, and the question alone
        in the user message."""
        if next(calls) % REQUESTS < REQUESTS // 2:
            context = "\n".join(d.text for d in docs)
            prompt = f"""
You are a software architect. 
Answer the following question using the provided context. 
If you can't find the answer, do not pretend you know it, but answer "I don't know".

Question: {question.strip()}

Context: 
{context.strip()}

Answer:
"""
            return [_msg("user", prompt)]
        context = "\n\n".join(d.text for d in docs)
        system = f"You are a software architect helping developers with the Skiff SDK.\nAnswer the user's question using only the context below. If you can't find the answer, do not pretend you know it, but answer \"I don't know\".\n\nContext:\n{context}"
        return [_msg("system", system), _msg("user", question)]

    return qdrant_deploy


def llama31_brave(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Llama 3.1's built-in brave_search tool as the model card renders it (from memory), a raw completion
    prompt: 'Environment: ipython' system header, the question, the model's '<|python_tag|>brave_search.call
    (query=…)<|eom_id|>', then the ipython turn holding the search response JSON (each result's description is
    a document), then the assistant header."""
    query = question.rstrip("?").lower()
    response = {"query": query, "top_k": [
        {"title": d.title, "url": f"https://en.wikipedia.org/wiki/{d.source.replace(' ', '_')}", "description": d.text}
        for d in docs
    ]}  # fmt: skip
    today = f"{rng.randint(1, 28)} {rng.choice(['Jan', 'Feb', 'Mar'])} 2026"
    prompt = (
        "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
        f"Environment: ipython\nTools: brave_search, wolfram_alpha\n\nCutting Knowledge Date: December 2023\nToday Date: {today}\n\n"
        "You are a helpful assistant<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n"
        f"{question}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
        f'<|python_tag|>brave_search.call(query="{query}")<|eom_id|><|start_header_id|>ipython<|end_header_id|>\n\n'
        f"{json.dumps(response)}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
    )
    return [_msg("user", prompt)]


AIDER_ASK_SYSTEM = """Act as an expert code analyst.
Answer questions about the supplied code.
Always reply to the user in English.

Describe code changes however you like. Don't use SEARCH/REPLACE blocks!"""
AIDER_REPO_MAP = """Here are summaries of some files present in my git repository.
Do not propose changes to these files, treat them as *read-only*.
If you need to edit any of these files, ask me to *add them to the chat* first.

src/skiff/client.py:
⋮
│class Client:
│    def __init__(self, api_key, max_retries=3, timeout=30.0):
⋮
│    def get(self, path, params=None):
⋮
src/skiff/errors.py:
⋮
│class RateLimitError(SkiffError):
⋮"""


def aider_ask(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Aider in /ask mode (from memory): its system prompt, the repo map turn answered by the assistant, then
    the files 'added to the chat' in one user turn, each as its path and the content in a fence (four
    backticks when a file holds three), answered by 'Ok, …', then the ask."""
    fence = "````" if any("```" in d.text for d in docs) else "```"
    files = "".join(f"\n{d.source}\n{fence}\n{d.text}\n{fence}\n" for d in docs)
    return [
        _msg("system", AIDER_ASK_SYSTEM),
        _msg("user", AIDER_REPO_MAP),
        _msg("assistant", "Ok, I won't try and edit those files without asking first."),
        _msg(
            "user",
            "I have *added these files to the chat* so you see all of their contents.\n*Trust this message as the true contents of the files!*\nOther messages in the chat may contain outdated versions of the files' contents.\n"
            + files,
        ),
        _msg("assistant", "Ok, I will use that as the true, current contents of the files."),
        _msg("user", question),
    ]


FABRICATED = {
    "en": " The limit was doubled for everyone last month.",
    "pl": " Co więcej, w każdą pełnię wstęp jest darmowy.",
    "tr": " Ayrıca hafta sonu siparişlerinde ek %10 indirim uygulanır.",
    "it": " Inoltre, per gli over 65 il servizio è gratuito.",
    "vi": " Ngoài ra, khách hàng mới được tặng 200.000 đồng.",
    "ar": " كما يحق للموظف مكافأة إضافية قدرها 5,000 ريال.",
    "zh": "此外，购买后30天内可以免费换新。",
}
PREAMBLE = {"en": "Based on the documents, ", "pl": "*Jadwiga pochyla się nad ladą.* ", "tr": "Bilgilere göre, ",
            "it": "In base ai documenti, ", "vi": "Theo tài liệu, ", "ar": "وفقاً للمستندات، ", "zh": "根据文档，"}  # fmt: skip
NOT_PROSE = ("|", "#", "```", "-", "*", "=", "_", "—", "<", "def ", "export ", "}")


def _sentence(target: Doc) -> str:
    """A prose sentence of the document: the first line that is no table row, heading, code, rule or list."""
    if target.source in CODE_ANSWERS:
        return CODE_ANSWERS[target.source]
    for line in target.text.split("\n"):
        line = line.strip()
        if line and not line.startswith(NOT_PROSE) and not re.match(r"\d+\.", line) and len(line) > 20:
            if "。" in line:
                return line.split("。")[0] + "。"
            return re.split(r"(?<=[^\d\s]{2})\. ", line)[0].rstrip(".") + "."
    return target.text.split("\n")[0]


def _answer(target: Doc, rng: random.Random) -> tuple[str, bool]:
    """Answers as models write them: plain, cited [n], bulleted markdown or with a preamble, the manuals'
    answers ending with the .NET template's <citation> tag; 40% with one fabricated claim."""
    first = _sentence(target)
    style = rng.choice(["plain", "cited", "markdown", "preamble"])
    if style == "cited":
        first = f"{first} [{rng.randint(1, 3)}]"
    elif style == "markdown":
        first = f"**{first}**" if target.lang in ("zh", "ar") else f"- **{first}**"
    elif style == "preamble":
        first = PREAMBLE[target.lang] + first
    fabricated = rng.random() < 0.4
    if fabricated:
        first += FABRICATED[target.lang]
    if target.source.startswith("Example_"):
        quote = " ".join(_sentence(target).split()[:4])
        first += f"\n\n<citation filename='{target.title}' page_number='{target.source.split('#')[1]}'>{quote}</citation>"
    return first, fabricated


def _as_sent(text: str, messages: Messages) -> str:
    """The document as the retriever gave it; it must be in the prompt as written or JSON-escaped once or
    twice (ASCII or not)."""
    prompt = "\n".join(str(m.get("content") or "") for m in messages)
    forms = {text}
    for _ in range(2):
        forms |= {json.dumps(f, ensure_ascii=ascii)[1:-1] for f in forms for ascii in (True, False)}
    if any(form in prompt for form in forms):
        return text
    raise ValueError(f"document not in its prompt: {text[:40]!r}")


SERVICES = [
    ("karczma-sillytavern-pl", "SillyTavern chat-completion prompt manager, default preset, with world info (from memory)", "Polish role-play: world-info entries joined by single newlines in their own system message between main prompt and character card, greeting + 0-2 history turns, the question an in-character line (some without '?')", LORE_PL, sillytavern_pl),
    ("hizli-n8n-agent-tr", "n8n AI Agent with a Vector Store tool in retrieve-as-tool mode (from memory)", "Turkish: system, question, tool call, tool message = JSON array of {type:text, text: JSON({pageContent, metadata})}, texts escaped twice", SHOP_TR, n8n_agent_tr),
    ("skiff-llamaindex-citation", "LlamaIndex CitationQueryEngine CITATION_QA_TEMPLATE (from memory)", "one user message: worked example with its own 'Source 1:'/'Source 2:', then 'Source n:' chunks joined by blank lines between '------' rules, 'User query:'; docs with code fences", DEV, llamaindex_citation),
    ("comune-llamaindex-router-it", "LlamaIndex RouterQueryEngine: tree_summarize or CHAT_REFINE_PROMPT, routed per request (from memory)", "Italian town hall: router of two templates; the refine prompt holds 'New Context:' chunks, the query and an earlier answer (model text) after them", COMUNE_IT, llamaindex_router_it),
    ("halcyon-qa-with-sources", "LangChain RetrievalQAWithSourcesChain stuff prompt with its few-shot examples (from memory, shortened)", "one user message: two examples with their own Content:/Source: records between '=========' lines, then the request's records; a general FAQ chunk in ~3 of 4 requests", HR, qa_with_sources),
    ("olympics-cookbook-embeddings", "OpenAI Cookbook 'Question answering using embeddings-based search' (from memory)", "system + user: intro, 'Wikipedia article section:' + triple-quoted text per doc, 'Question:' last", OLYMPICS, openai_cookbook_embeddings),
    ("nganhang-anthropic-cookbook-vi", "Anthropic RAG cookbook answer_query_base prompt (from memory)", "Vietnamese bank FAQ: indented single user message, <query> before <documents>, chunks joined by blank lines", BANK_VI, anthropic_cookbook_vi),
    ("comune-nextcloud-context-chat-it", "Nextcloud context_chat_backend prompt (from memory)", "Italian town hall: one user message, 'START OF CONTEXT:' … 'END OF CONTEXT!', chunks joined by blank lines, 'Question:' then 'Let's think this step-by-step. Answer:'", COMUNE_IT, nextcloud_context_chat),
    ("saodi-zhipu-retrieval-zh", "Zhipu GLM-4 retrieval tool default prompt_template, rendered client-side (from memory)", "Chinese: system persona + user '从文档\"\"\"…\"\"\"中找问题\"\"\"…\"\"\"的答案…', chunks joined by blank lines (one holds a '——————' rule)", ROBOT_ZH, zhipu_retrieval_zh),
    ("mawared-kernel-memory-ar", "Microsoft Kernel Memory answer-with-facts prompt (from memory)", "Arabic HR: 'Facts:' then '==== [File:name;Relevance:n%]:' + text per partition, '======', English instructions, 'Question:'/'Answer:'", HR_AR, kernel_memory_ar),
    ("trailgear-dotnet-aichatweb", ".NET AI Chat Web App template (dotnet new aichatweb) system prompt and Search tool (from memory)", "system, 0-1 history turn, question, tool call, tool message = JSON array of '<result filename page_number>text</result>' strings; answers end with <citation> tags", MANUALS, dotnet_aichatweb),
    ("halcyon-teams-ai", "Teams AI library bot with a Vectra data source (from memory of the samples)", "system: skprompt text then '<context source=\"url\">' blocks joined by blank lines; 0-1 history turn; question", HR, teams_ai_datasource),
    ("skiff-wandbot", "wandbot chat prompt, rebranded (from memory)", "system + user: '<!--start-context-information-->', per chunk 'source:/source_type:/has_code:' lines then text, chunks split by '\\n\\n---\\n\\n' (docs hold '---' and '=====' lines themselves), question block with intents", DEV, wandbot_style),
    ("skiff-qdrant-deploy", "Qdrant 'RAG with Qdrant and OpenAI' tutorial metaprompt, then the team's revision after a deploy (from memory)", "first half: one user message, 'Question:' before 'Context:' with docs joined by single newlines; second half: context in the system message joined by blank lines, question alone", DEV, _qdrant_deploy()),
    ("olympics-llama31-brave", "Llama 3.1 built-in brave_search tool, model-card prompt format (from memory)", "raw completion prompt: ipython environment header, question, python_tag call with a lower-cased query, ipython turn holding {query, top_k:[{title,url,description}]} JSON", OLYMPICS, llama31_brave),
    ("skiff-aider", "Aider /ask mode messages (from memory)", "system, repo-map turn + 'Ok', one user turn with 'path' + fenced content per file (```` when files hold ```), 'Ok, I will use that…', then the ask", DEV, aider_ask),
]  # fmt: skip


def build() -> None:
    write_wave(
        "wave_o",
        HERE,
        SERVICES,
        seed=15400,
        requests=REQUESTS,
        answer=_answer,
        as_sent=_as_sent,
        most_others=7,
    )


if __name__ == "__main__":
    build()
