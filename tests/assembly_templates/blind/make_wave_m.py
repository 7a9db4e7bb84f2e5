# ruff: noqa: E501, W291, W293
"""Blind wave M: sixteen services after frameworks, products, model cards and vendor samples that no earlier
wave nor the corpus holds, written by a helper who had not read the reader, with 1-8 documents per request:
Lepton's search_with_lepton ('[[citation:x]]' contexts), DeepSeek-R1's model-card search template (Chinese,
'[webpage X begin]…[webpage X end]'), chat-langchain (<doc id='i'> in a <context> block, with history),
Milvus's "Build RAG with Milvus" (<context>/<question> tags), Databricks dbdemos (history, context and
question in one message), Snowflake's Cortex Search quickstart (a completion prompt holding the search
response as ASCII-escaped JSON, Japanese), NeMo Guardrails' general completion prompt (relevant chunks in a
```markdown fence after a sample conversation), GPT-Researcher routed between its research and resource
report prompts, Zep's FACTS/ENTITIES memory context (German), LobeChat's knowledge-base XML with a rewritten
query, LocalGPT redeployed half-way from a Llama-2 [INST] prompt to a Llama-3 header prompt, Sourcegraph
Cody's file context as user/assistant 'Ok.' pairs, Langchain.rb's ask (Spanish, chunks between '---'),
amazon-kendra-langchain-extensions' Claude prompt (Kendra 'Document Title/Excerpt' records), LangChain's
ReAct docstore few-shot completion (worked examples with their own observations) and Azure AI Search's RAG
quickstart ('name:description:tags' lines, French). Templates marked "from memory" were written from the
public source as remembered, not copied. Measured once with main's readers before any change.

First run with main's readers (``bench_templates.py --blind tests/assembly_templates/blind/wave_m``, learnt+rules,
each request under openinference and openai-v2-latest, 48 readings a service): 132/768 right (17.2%), 162
wrong context, 474 unscored (readings_disagree 350, no_context 72, no_question 52). Right / wrong / unscored:
scout-lepton-search 48/0/0, northgate-localgpt-deploy 24/22/2, tiendaverde-langchainrb-es 24/24/0,
northgate-lobechat 20/28/0, northgate-nemo-guardrails 12/8/28, devdocs-chat-langchain 4/0/44,
scout-gpt-researcher 0/32/16, sejours-azure-search-fr 0/48/0, auental-zep-de 0/0/48, devdocs-cody 0/0/48,
devdocs-milvus-rag 0/0/48, gearshop-cortex-ja 0/0/48, lakehouse-dbdemos 0/0/48, northgate-kendra-claude 0/0/48,
sousuo-deepseek-zh 0/0/48, trivia-react-docstore 0/0/48.

    python tests/assembly_templates/blind/make_wave_m.py   # writes wave_m/*.json (deterministic)
"""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

from make_wave_k import Doc, _msg, _pool
from wave_writer import write_wave

HERE = Path(__file__).resolve().parent / "wave_m"
REQUESTS = 24

Messages = list[dict[str, Any]]


WEB = _pool("en", [
    ("https://www.outdoorgearlab.example/reviews/tents/best-backpacking-tent", "The Best Backpacking Tents of 2025",
     "We pitched 21 tents over three seasons. The Zephyr UL2 won our top award: it weighs 1.1 kg packed, pitches in under three minutes and stayed dry through a 40 mm overnight storm. Its only weakness is a single vestibule, so two people share one door.",
     "which backpacking tent won the top award and how much does it weigh"),
    ("https://www.energy.example.gov/heat-pumps/cold-climate", "Do heat pumps work in cold climates?",
     "Modern cold-climate heat pumps keep heating efficiently down to about -15 °C, and many still deliver heat at -25 °C at lower efficiency.\n\nKey points:\n- Look for an HSPF2 rating of 8.1 or higher.\n- A backup resistance heater is only needed in the coldest regions.\n- Defrost cycles are normal and last 5-10 minutes.",
     "do heat pumps still work at -20 degrees"),
    ("https://travel.example.com/japan/jr-pass-price-2025", "JR Pass price increase explained",
     "The 7-day Japan Rail Pass now costs 50,000 yen for an ordinary car, up from 29,650 yen before October 2023. The pass still covers most Shinkansen lines, but riding the Nozomi and Mizuho trains needs an extra supplement ticket.",
     "how much is the 7 day JR pass now"),
    ("https://www.sleepfoundation.example/naps", "How long should a nap be?",
     "A nap of 10 to 20 minutes improves alertness without the grogginess that follows deeper sleep. Naps of around 90 minutes allow a full sleep cycle. Napping after 3 pm can make it harder to fall asleep at night.",
     "how long should a power nap be"),
    ("https://www.techradar.example/news/usb-c-eu-rule", "EU USB-C rule now in force",
     "Since 28 December 2024, new phones, tablets, cameras, headphones and handheld consoles sold in the EU must charge over USB-C. Laptops follow on 28 April 2026. Devices too small for a USB-C port, such as smartwatches, are exempt.",
     "when do laptops have to use USB-C in the EU"),
    ("https://www.foodsafety.example.org/leftovers", "Leftovers and food safety",
     "| Food | Fridge | Freezer |\n|---|---|---|\n| Cooked rice | 1 day | 1 month |\n| Soup and stew | 3-4 days | 2-3 months |\n| Cooked chicken | 3-4 days | 4 months |\n\nCool leftovers within two hours and reheat them until steaming hot all the way through.",
     "how long can cooked rice stay in the fridge"),
    ("https://www.runnersworld.example/training/marathon-taper", "How to taper before a marathon",
     "Most plans taper for three weeks, cutting weekly mileage to about 80%, 60% and then 40% of peak. Keep some race-pace running in the taper so your legs stay sharp, and do not try new shoes or gels in the last week.",
     "how many weeks should a marathon taper last"),
    ("https://www.photography.example/guides/rule-of-thirds", "The rule of thirds, explained",
     "The rule of thirds divides the frame with two horizontal and two vertical lines. Placing the subject where lines cross usually looks more balanced than centring it. The guide puts it plainly: \"rules are a starting point, not a law\" - symmetrical scenes often look better centred.",
     'what does the guide mean by "rules are a starting point, not a law"'),
])  # fmt: skip

ZH_WEB = _pool("zh", [
    ("https://www.example.com.cn/news/2025/gaokao", "2025年高考报名人数公布",
     "教育部公布，2025年全国高考报名人数为1335万人，比去年减少7万人。这是近八年来报名人数首次下降。各地考试时间为6月7日至10日，具体安排以各省招生考试机构公布为准。",
     "2025年高考报名人数是多少"),
    ("https://auto.example.cn/ev/charging", "新能源汽车冬季续航",
     "冬季气温低于零度时，纯电动汽车续航普遍下降20%至30%。\n\n建议：\n1. 出发前预热电池和座舱；\n2. 尽量停在地下车库；\n3. 电量保持在20%以上再充电。",
     "冬天电动车续航会下降多少"),
    ("https://health.example.cn/article/sleep", "成年人每天睡多久合适",
     "研究建议成年人每晚睡眠7到9小时。长期睡眠少于6小时与高血压、肥胖风险增加有关。午睡以20到30分钟为宜，超过1小时反而可能让人更疲惫。",
     "成年人每天应该睡几个小时"),
    ("https://travel.example.cn/visa/free-transit", "240小时过境免签政策",
     "自2024年12月17日起，符合条件的54个国家人员可从指定口岸过境中国，停留时间由144小时延长至240小时。停留区域从原来的19个省份扩大到24个省份。需要持有前往第三国的联程客票。",
     "过境免签可以停留多少小时"),
    ("https://finance.example.cn/deposit-rate", "银行存款利率下调",
     "多家国有大行宣布下调人民币存款利率：\n| 期限 | 调整后利率 |\n|---|---|\n| 活期 | 0.05% |\n| 一年定期 | 0.95% |\n| 三年定期 | 1.25% |\n新利率自5月20日起执行。",
     "一年定期存款利率现在是多少"),
    ("https://tech.example.cn/phone/battery", "手机电池保养常见误区",
     "“新手机要充满12小时激活电池”的说法早已过时，锂电池没有记忆效应。日常使用中，电量保持在20%到80%之间最有利于延长寿命。边充边玩大型游戏会导致发热，加速电池老化。",
     "新手机需要充满12小时吗"),
    ("https://edu.example.cn/policy/double-reduction", "义务教育阶段作业管理规定",
     "文件要求：小学一、二年级不布置书面家庭作业；三至六年级书面作业平均完成时间不超过60分钟；初中不超过90分钟。学校要建立作业公示制度。",
     "初中书面作业时间不超过多少分钟"),
    ("https://weather.example.cn/typhoon", "台风预警信号等级",
     "台风预警信号分为蓝色、黄色、橙色、红色四级。红色预警表示6小时内可能或者已经受热带气旋影响，平均风力达12级以上。收到红色预警时，应停止集会、停课、停业。",
     "台风红色预警是什么意思"),
])  # fmt: skip

DEV = _pool("en", [
    ("docs/how_to/streaming.md", "How to stream runnables",
     "# Streaming\n\nAll runnables implement `.stream()` and `.astream()`. Streaming yields the output in chunks as soon as they are produced:\n\n```python\nfor chunk in chain.stream({\"topic\": \"parrots\"}):\n    print(chunk, end=\"|\", flush=True)\n```\n\nIf a step in the chain does not support streaming, the output is only available when that step finishes.",
     "how do I stream the output of a chain"),
    ("docs/concepts/retrievers.md", "Retrievers",
     "A retriever takes a string query and returns a list of documents. Vector stores can be turned into retrievers with `as_retriever()`; pass `search_kwargs={\"k\": 4}` to change how many documents come back. The default `search_type` is \"similarity\"; use \"mmr\" for more diverse results.",
     "how do I change the number of documents a retriever returns"),
    ("docs/milvus/manage-collections.md", "Manage collections",
     "## Load and release\n\nA collection must be loaded into memory before you search or query it. Call `client.load_collection(\"docs\")` to load it and `client.release_collection(\"docs\")` to free the memory. Loading a large collection can take several minutes.",
     "do I need to load a collection before searching"),
    ("docs/milvus/index-types.md", "Index types",
     "| Index | Best for | Memory |\n|---|---|---|\n| FLAT | small datasets, exact results | high |\n| IVF_FLAT | balanced speed and recall | medium |\n| HNSW | low-latency search | high |\n| DISKANN | datasets larger than memory | low |\n\nHNSW takes `M` (max links per node) and `efConstruction` as build parameters.",
     "which index type should I use for datasets larger than memory"),
    ("src/config/retry.ts", "retry.ts",
     "export const DEFAULT_RETRY = {\n  attempts: 3,\n  backoffMs: 250,\n  // doubles after each failure, capped at 4 s\n  maxBackoffMs: 4000,\n};\n\nexport function shouldRetry(status: number): boolean {\n  return status === 429 || status >= 500;\n}",
     "which HTTP status codes are retried by default"),
    ("docs/databricks/volumes.md", "Unity Catalog volumes",
     "Volumes store non-tabular files such as PDFs, images and CSVs under Unity Catalog governance. Paths look like `/Volumes/<catalog>/<schema>/<volume>/<file>`. Managed volumes delete their files when the volume is dropped; external volumes leave the files in cloud storage.",
     "what happens to files when a managed volume is dropped"),
    ("docs/databricks/serverless.md", "Serverless compute for notebooks",
     "Serverless compute starts in seconds and is billed per second of use. It supports Python and SQL but not R or Scala notebooks.\n\nNote: init scripts and custom Spark configurations are not supported on serverless compute.",
     "can I use init scripts on serverless compute"),
    ("docs/how_to/caching.md", "How to cache LLM responses",
     "Set a global cache with `set_llm_cache(InMemoryCache())`. A cached call with the same prompt and parameters returns instantly and costs nothing. For a cache that survives restarts use `SQLiteCache(database_path=\".langchain.db\")`.",
     'what does `SQLiteCache(database_path=".langchain.db")` do'),
])  # fmt: skip

SAAS = _pool("en", [
    ("kb/vpn-setup", "Connecting to the VPN",
     "Install the Northgate Connect client from the Software Center. Sign in with your work email; the first connection asks for an MFA push.\n\nThe VPN disconnects after 12 hours and you must sign in again. Split tunnelling is off, so all traffic goes through the office.",
     "how long does a VPN session last"),
    ("kb/expenses", "Expense claims",
     "Submit expense claims within 60 days of purchase with a photo of the receipt. Claims over 500 euros need approval from your cost-centre manager.\n\n| Item | Daily limit |\n|---|---|\n| Meals (domestic) | 45 euros |\n| Meals (abroad) | 70 euros |\n| Taxi | no limit, receipt required |",
     "what is the daily meal limit abroad"),
    ("kb/parental-leave", "Parental leave",
     "Employees with at least six months of service get 16 weeks of fully paid parental leave. Leave can be split into up to three blocks within two years of the birth or adoption. Tell HR at least eight weeks before the first block starts.",
     "how many weeks of paid parental leave do we get"),
    ("kb/laptop-refresh", "Laptop refresh policy",
     "Laptops are replaced every four years, or earlier if IT confirms a hardware fault.\n1. Open a ticket in the IT portal under Hardware > Refresh.\n2. Back up local files to your drive.\n3. Return the old laptop within ten working days of receiving the new one.",
     "how often are laptops replaced"),
    ("kb/remote-work", "Working from abroad",
     "You may work from another country for up to 20 working days per calendar year. Requests need approval from your manager and from HR, because longer stays can create tax obligations for the company. Sanctioned countries are never allowed.",
     "how many days can I work from abroad"),
    ("kb/badge", "Office badges",
     "A lost badge must be reported to reception the same day so it can be blocked. Replacement badges cost 15 euros, deducted from the next payslip. Visitors get a paper pass and must be escorted at all times.",
     "how much does a replacement badge cost"),
    ("kb/training-budget", "Training budget",
     "Every employee has a training budget of 1,200 euros per year for courses, conferences and books. Unused budget does not carry over. Certifications that your role requires are paid from the team budget instead.",
     "does unused training budget carry over"),
    ("kb/password-policy", "Password rules",
     "Passwords must be at least 14 characters. They no longer expire every 90 days; you only change them after a suspected compromise. The policy says \"never reuse a work password anywhere else\" - the password manager can generate one for you.",
     'what does "never reuse a work password anywhere else" apply to'),
])  # fmt: skip

JA = _pool("ja", [
    ("manuals/bike_xr500.pdf", "XR500 取扱説明書",
     "タイヤの空気圧は、ロードタイヤで6.0〜7.5bar、グラベルタイヤで2.5〜3.5barを目安にしてください。空気圧はタイヤ側面にも記載されています。乗車前に毎回確認することをおすすめします。",
     "ロードタイヤの空気圧はどのくらいですか"),
    ("manuals/bike_xr500.pdf", "XR500 取扱説明書",
     "■ バッテリーの充電\n付属の充電器で約4時間で満充電になります。\n充電は0〜35℃の室内で行ってください。\n長期間使わない場合は、50〜70%の残量で保管し、3か月ごとに充電してください。",
     "バッテリーの充電にはどのくらい時間がかかりますか"),
    ("manuals/ski_boots_alpine.pdf", "アルペンブーツ 取扱説明書",
     "フレックス値は130です。上級者向けの硬さで、初心者には110以下のモデルをおすすめします。インナーは熱成形に対応しており、購入店で一度だけ無料で成形できます。",
     "インナーの熱成形は無料ですか"),
    ("manuals/ski_boots_alpine.pdf", "アルペンブーツ 取扱説明書",
     "保管時はバックルを軽く締め、シェルの変形を防いでください。直射日光の当たる場所や車内での保管は避けてください。\n\n※ 保証期間は購入日から1年間です。",
     "ブーツの保証期間は何年ですか"),
    ("manuals/bike_xr500.pdf", "XR500 取扱説明書",
     "ディスプレイに「E-07」と表示された場合は、モーターが過熱しています。10分ほど停止して冷ましてから再度電源を入れてください。表示が消えない場合は販売店にご相談ください。",
     "E-07と表示されたらどうすればいいですか"),
    ("manuals/snow_jacket.pdf", "スノージャケット 取扱説明書",
     "洗濯はネットに入れ、30℃以下のぬるま湯で中性洗剤を使って洗ってください。柔軟剤は撥水性を損なうため使用しないでください。乾燥機の低温で10分ほど乾かすと撥水性が回復します。",
     "ジャケットに柔軟剤を使ってもいいですか"),
    ("manuals/helmet_mips.pdf", "ヘルメット 取扱説明書",
     "一度でも強い衝撃を受けたヘルメットは、外見に損傷がなくても交換してください。通常の使用でも3〜5年での交換を推奨します。サイズはダイヤルで52〜58cmに調整できます。",
     "ヘルメットは何年で交換すべきですか"),
    ("manuals/snow_jacket.pdf", "スノージャケット 取扱説明書",
     "| 部位 | 素材 |\n|---|---|\n| 表地 | ナイロン100% |\n| 裏地 | ポリエステル100% |\n| 中綿 | ポリエステル80%、ダウン20% |\n耐水圧は20,000mmです。",
     "ジャケットの耐水圧はいくつですか"),
])  # fmt: skip

DE_FACTS = _pool("de", [
    ("fact", "", "Frau Weber hat den Tarif Strom Basis mit einem monatlichen Abschlag von 86 Euro.", "wie hoch ist mein monatlicher Abschlag"),
    ("fact", "", "Frau Weber hat am 3. März einen Zählerstand von 24.518 kWh gemeldet.", "welchen Zählerstand habe ich zuletzt gemeldet"),
    ("fact", "", "Der Vertrag von Frau Weber verlängert sich automatisch am 1. Juli um zwölf Monate, wenn sie nicht bis zum 31. Mai kündigt.", "bis wann muss ich kündigen"),
    ("fact", "", "Frau Weber möchte Rechnungen nur noch per E-Mail erhalten.", "bekomme ich meine Rechnungen noch per Post"),
    ("fact", "", "Frau Weber hat im Januar einen Umzug in die Lindenstraße 12 angekündigt; der Einzug ist am 15. April.", "wann ist mein Einzug in die neue Wohnung"),
    ("entity", "Tarif Strom Basis", "Grundpreis 11,90 Euro im Monat, Arbeitspreis 32,4 Cent pro kWh, Preisgarantie bis Ende des Jahres.", "wie hoch ist der Arbeitspreis in meinem Tarif"),
    ("entity", "Smart Meter", "Digitaler Zähler, der ab 6.000 kWh Jahresverbrauch Pflicht ist; der Einbau ist für Kunden kostenlos.", "muss ich für den Smart Meter bezahlen"),
    ("fact", "", "Frau Weber hat im Februar eine Gutschrift von 112 Euro aus der Jahresabrechnung erhalten.", "wie hoch war meine Gutschrift"),
])  # fmt: skip

ES = _pool("es", [
    ("faq/envios", "Envíos", "Los pedidos peninsulares llegan en 24-48 horas laborables. A Baleares y Canarias el plazo es de 3 a 5 días y los gastos de envío son de 9,95 euros.", "cuánto tarda un envío a Canarias"),
    ("faq/devoluciones", "Devoluciones", "Tienes 30 días desde la entrega para devolver un producto sin usar.\n\n---\n\nExcepción: la ropa interior y los productos de higiene no admiten devolución por motivos sanitarios.", "puedo devolver ropa interior"),
    ("faq/tallas", "Guía de tallas", "| Talla | Pecho (cm) | Cintura (cm) |\n|---|---|---|\n| S | 88-92 | 74-78 |\n| M | 96-100 | 82-86 |\n| L | 104-108 | 90-94 |\nSi estás entre dos tallas, elige la mayor.", "qué talla tengo si mi pecho mide 98 cm"),
    ("faq/pago", "Formas de pago", "Aceptamos tarjeta, PayPal, Bizum y pago a plazos con Klarna en compras desde 60 euros. El contra reembolso no está disponible.", "se puede pagar contra reembolso"),
    ("faq/garantia", "Garantía", "Todos los productos tienen tres años de garantía legal. Para tramitarla, escribe a garantia@tiendaverde.es con el número de pedido y una foto del defecto.", "cuántos años de garantía tienen los productos"),
    ("faq/cupones", "Cupones", "Solo se puede usar un cupón por pedido. Los cupones no son acumulables con las rebajas y caducan a los 90 días de su emisión.", "puedo usar dos cupones en un pedido"),
    ("faq/tienda-fisica", "Recogida en tienda", "Puedes recoger tu pedido gratis en cualquiera de nuestras 14 tiendas. Te avisaremos por SMS cuando esté listo; lo guardamos durante 15 días.", "cuánto tiempo guardan el pedido en tienda"),
    ("faq/cambios", "Cambios de talla", "El primer cambio de talla es gratuito. Solicítalo en \"Mis pedidos\" > \"Cambiar talla\"; el mensajero recoge el artículo y entrega el nuevo el mismo día.", 'qué pasa cuando pulso "Cambiar talla"'),
])  # fmt: skip

FR = [
    Doc("hotels/1", "Hôtel du Vieux Port", "Hôtel de charme face au port, chambres avec balcon et petit-déjeuner provençal servi en terrasse. Parking privé payant à 18 euros la nuit.", "quel hôtel a un parking privé et combien coûte-t-il", "fr"),
    Doc("hotels/2", "Les Pins Spa & Resort", "Complexe avec piscine chauffée, spa et hammam. Le spa est réservé aux adultes ; les enfants ont accès à la piscine de 10 h à 18 h.", "les enfants peuvent-ils aller au spa", "fr"),
    Doc("hotels/3", "Auberge de la Forêt", "Auberge au bord de la forêt, idéale pour la randonnée. Les chiens sont acceptés avec un supplément de 10 euros par nuit. Restaurant fermé le lundi.", "les chiens sont-ils acceptés", "fr"),
    Doc("hotels/4", "City Loft Part-Dieu", "Appartements hôteliers à deux minutes de la gare, avec cuisine équipée. Arrivée autonome par boîte à clés à partir de 15 h ; pas de réception la nuit.", "à quelle heure peut-on arriver au City Loft", "fr"),
    Doc("hotels/5", "Château des Vignes", "Château du XVIIIe siècle au milieu des vignes, dégustation offerte à l'arrivée. Les vélos électriques se louent 35 euros la journée.", "combien coûte la location d'un vélo électrique", "fr"),
    Doc("hotels/6", "Hôtel Les Cimes", "Hôtel de montagne au pied des pistes, local à skis chauffé et navette gratuite vers la station toutes les 30 minutes. Fermé de mi-avril à mi-juin.", "l'hôtel Les Cimes est-il ouvert en mai", "fr"),
    Doc("hotels/7", "Ibis Budget Centre", "Chambres simples pour une à trois personnes, wifi gratuit. Le petit-déjeuner buffet coûte 8,50 euros et se sert de 6 h 30 à 10 h.", "jusqu'à quelle heure sert-on le petit-déjeuner", "fr"),
    Doc("hotels/8", "Maison d'hôtes La Source", "Cinq chambres dans une ferme rénovée, table d'hôtes le soir sur réservation. Paiement en espèces ou par virement uniquement.", "peut-on payer par carte à La Source", "fr"),
]  # fmt: skip
# The search index's Tags field of each hotel, printed by the template as a Python list.
FR_TAGS = {
    "hotels/1": "['vue sur mer', 'parking', 'terrasse']",
    "hotels/2": "['piscine', 'spa', 'famille']",
    "hotels/3": "['animaux acceptés', 'randonnée', 'restaurant']",
    "hotels/4": "['gare', 'cuisine', 'arrivée autonome']",
    "hotels/5": "['vignoble', 'vélo', 'luxe']",
    "hotels/6": "['ski', 'navette', 'montagne']",
    "hotels/7": "['wifi', 'petit budget', 'centre-ville']",
    "hotels/8": "['chambre d\\'hôtes', 'campagne', 'table d\\'hôtes']",
}  # fmt: skip

WIKI = _pool("en", [
    ("Lake Baikal", "Lake Baikal", "Lake Baikal is a rift lake in southern Siberia, Russia. It is the deepest lake in the world at 1,642 m and holds about 22-23% of the world's fresh surface water.", "what is the maximum depth of the lake that holds about a fifth of the world's fresh surface water"),
    ("Ada Lovelace", "Ada Lovelace", "Augusta Ada King, Countess of Lovelace (1815-1852), was an English mathematician known for her work on Charles Babbage's proposed Analytical Engine. Her notes include what is often called the first published computer program.", "who designed the machine that Ada Lovelace wrote the first program for"),
    ("Analytical Engine", "Analytical Engine", "The Analytical Engine was a proposed mechanical general-purpose computer designed by the English mathematician Charles Babbage. It was first described in 1837 but was never completed.", "in which year was the Analytical Engine first described"),
    ("Mount Kilimanjaro", "Mount Kilimanjaro", "Mount Kilimanjaro is a dormant volcano in Tanzania. Its highest peak, Uhuru Peak on Kibo, rises 5,895 m above sea level, making it the highest mountain in Africa.", "how high is the tallest mountain in Tanzania"),
    ("Great Barrier Reef", "Great Barrier Reef", "The Great Barrier Reef is the world's largest coral reef system, off the coast of Queensland, Australia. It stretches over 2,300 km and was made a World Heritage Site in 1981.", "when did the largest coral reef system become a World Heritage Site"),
    ("Rosalind Franklin", "Rosalind Franklin", "Rosalind Franklin (1920-1958) was a British chemist whose X-ray diffraction images of DNA, in particular Photo 51, were critical to the discovery of the DNA double helix.", "what was the name of Rosalind Franklin's famous X-ray photo"),
    ("Trans-Siberian Railway", "Trans-Siberian Railway", "The Trans-Siberian Railway connects Moscow with Vladivostok. At 9,289 km it is the longest railway line in the world, and a journey takes about seven days.", "how long does a trip on the world's longest railway take"),
    ("Marie Curie", "Marie Curie", "Marie Curie was the first woman to win a Nobel Prize and the only person to win Nobel Prizes in two scientific fields, physics (1903) and chemistry (1911).", "in which two fields did Marie Curie win Nobel Prizes"),
])  # fmt: skip


def lepton_search(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Lepton AI's search_with_lepton RAG query prompt (from memory): the contexts as '[[citation:x]] snippet'
    joined by blank lines inside the system message, the question alone in the user message."""
    contexts = "\n\n".join(f"[[citation:{i + 1}]] {d.text}" for i, d in enumerate(docs))
    system = (
        "You are a large language AI assistant built by Lepton AI. You are given a user question, and please write clean, concise and accurate answer to the question. "
        "You will be given a set of related contexts to the question, each starting with a reference number like [[citation:x]], where x is a number. "
        "Please use the context and cite the context at the end of each sentence if applicable.\n\n"
        "Your answer must be correct, accurate and written by an expert using an unbiased and professional tone. Please limit to 1024 tokens. "
        'Do not give any information that is not related to the question, and do not repeat. Say "information is missing on" followed by the related topic, if the given context do not provide sufficient information.\n\n'
        "Please cite the contexts with the reference numbers, in the format [citation:x]. If a sentence comes from multiple contexts, please list all applicable citations, like [citation:3][citation:5]. "
        "Other than code and specific names and citations, your answer must be written in the same language as the question.\n\n"
        f"Here are the set of contexts:\n\n{contexts}\n\n"
        "Remember, don't blindly repeat the contexts verbatim. And here is the user question:"
    )
    return [_msg("system", system), _msg("user", question)]


DEEPSEEK_RULES = (
    "在我给你的搜索结果中，每个结果都是[webpage X begin]...[webpage X end]格式的，X代表每篇文章的数字索引。请在适当的情况下在句子末尾引用上下文。"
    "请按照引用编号[citation:X]的格式在答案中对应部分引用上下文。如果一句话源自多个上下文，请列出所有相关的引用编号，例如[citation:3][citation:5]，切记不要将引用集中在最后返回引用编号，而是在答案对应部分列出。\n"
    "在回答时，请注意以下几点：\n- 今天是{date}。\n- 并非搜索结果的所有内容都与用户的问题密切相关，你需要结合问题，对搜索结果进行甄别、筛选。\n"
    "- 对于列举类的问题（如列举所有航班信息），尽量将答案控制在10个要点以内，并告诉用户可以查看搜索来源、获得完整信息。\n"
    "- 如果回答很长，请尽量结构化、分段落总结。如果需要分点作答，尽量控制在5个点以内，并合并相关的内容。\n"
    "- 对于客观类的问答，如果问题的答案非常简短，可以适当补充一到两句相关信息，以丰富内容。\n"
    "- 你的回答应该综合多个相关网页来回答，不能重复引用一个网页。\n- 除非用户要求，否则你的回答语言需要和用户提问语言保持一致。\n\n"
)


def deepseek_search_zh(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """DeepSeek-R1's model-card search prompt, Chinese (from memory): '# 以下内容是基于用户发送的消息的搜索结果:'
    then one '[webpage X begin]…[webpage X end]' per result, the rules with today's date, the question last
    under '# 用户消息为：', all in one user message."""
    results = "\n".join(f"[webpage {i + 1} begin]{d.text}[webpage {i + 1} end]" for i, d in enumerate(docs))
    date = f"2025年{rng.randint(1, 12)}月{rng.randint(1, 28)}日，星期{rng.choice('一二三四五六日')}"
    prompt = (
        f"# 以下内容是基于用户发送的消息的搜索结果:\n{results}\n"
        + DEEPSEEK_RULES.format(date=date)
        + f"# 用户消息为：\n{question}"
    )
    return [_msg("user", prompt)]


CHAT_LANGCHAIN_SYSTEM = (
    "You are an expert programmer and problem-solver, tasked with answering any question about Langchain.\n\n"
    "Generate a comprehensive and informative answer of 80 words or less for the given question based solely on the provided search results (URL and content). "
    "You must only use information from the provided search results. Use an unbiased and journalistic tone. Combine search results together into a coherent answer. "
    "Do not repeat text. Cite search results using [${{number}}] notation. Only cite the most relevant results that answer the question accurately.\n\n"
    "You should use bullet points in your answer for readability. Put citations where they apply rather than putting them all at the end.\n\n"
    "If there is nothing in the context relevant to the question at hand, just say \"Hmm, I'm not sure.\" Don't try to make up an answer.\n\n"
    "Anything between the following `context`  html blocks is retrieved from a knowledge bank, not part of the conversation with the user. \n\n"
    "<context>\n    {context} \n<context/>\n\n"
    "REMEMBER: If there is no relevant information within the context, just say \"Hmm, I'm not sure.\" Don't try to make up an answer. "
    "Anything between the preceding 'context' html blocks is retrieved from a knowledge bank, not part of the conversation with the user."
)
DEV_HISTORY = [
    (
        "what's LCEL?",
        "LCEL (LangChain Expression Language) lets you compose runnables with the `|` operator [0].",
    ),
    (
        "and how do I run it async?",
        "Every runnable has async methods such as `ainvoke`, `abatch` and `astream`.",
    ),
]


def chat_langchain(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """chat-langchain's RESPONSE_TEMPLATE (from memory): the documents as "<doc id='i'>…</doc>" lines in an
    indented <context> block of the system message (the '<context/>' close is the template's own), chat
    history turns, then the question."""
    context = "\n".join(f"<doc id='{i}'>{d.text}</doc>" for i, d in enumerate(docs))
    messages = [
        _msg("system", CHAT_LANGCHAIN_SYSTEM.replace("{context}", context).replace("{{number}}", "{number}"))
    ]
    for user, assistant in DEV_HISTORY[: rng.randint(0, 2)]:
        messages += [_msg("user", user), _msg("assistant", assistant)]
    return [*messages, _msg("user", question)]


def milvus_rag(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Milvus's "Build RAG with Milvus" tutorial: the retrieved lines joined by single newlines between
    <context> tags, then the question between <question> tags, after a 'Human:' system prompt."""
    context = "\n".join(d.text for d in docs)
    return [
        _msg(
            "system",
            "Human: You are an AI assistant. You are able to find answers to the questions from the contextual passage snippets provided.",
        ),
        _msg(
            "user",
            "Use the following pieces of information enclosed in <context> tags to provide an answer to the question enclosed in <question> tags.\n"
            f"<context>\n{context}\n</context>\n<question>\n{question}\n</question>\n",
        ),
    ]


def dbdemos_chatbot(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Databricks dbdemos llm-rag-chatbot prompt with history (from memory): 'Discussion:' history, 'Here's
    some context which might or might not help you answer:' with the chunks joined by blank lines, then the
    question, all in one user message."""
    turns = [
        "user: how do I create a volume?",
        "system: Use CREATE VOLUME catalog.schema.name in SQL or the Catalog Explorer.",
    ]
    history = "\n".join(turns[: rng.choice([0, 2])])
    context = "\n\n".join(d.text for d in docs)
    prompt = (
        "You are a trustful assistant for Databricks users. You are answering python, coding, SQL, data engineering, spark, data science, AI, ML, Datawarehouse, platform, API or infrastructure, Cloud administration question related to Databricks. "
        "If you do not know the answer to a question, you truthfully say you do not know. Read the discussion to get the context of the previous conversation. "
        'In the chat discussion, you are referred to as "system". The user is referred to as "user".\n\n'
        f"Discussion: {history}\n\n"
        f"Here's some context which might or might not help you answer: {context}\n\n"
        'Answer straight, do not repeat the question, do not start with something like: the answer to the question, do not add "AI" in front of your answer, do not say: here is the answer, do not mention the context or the question.\n\n'
        f"Based on this history and context, answer this question: {question}"
    )
    return [_msg("user", prompt)]


def snowflake_cortex_ja(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Snowflake's Cortex Search RAG quickstart (from memory): one completion prompt for COMPLETE with the
    indented instructions, the chat history as a Python list, and the search response as JSON (ASCII-escaped,
    so the Japanese chunks are \\u escapes) between <context> tags; the question between <question> tags."""
    response = {
        "results": [
            {
                "chunk": d.text,
                "relative_path": d.source.split("/")[-1],
                "category": "Bike" if "bike" in d.source or "helmet" in d.source else "Snow",
            }
            for d in docs
        ]
    }
    history = (
        []
        if rng.random() < 0.5
        else [
            {"role": "user", "content": "XR500について教えて"},
            {"role": "assistant", "content": "XR500は電動アシスト付きのロードバイクです。"},
        ]
    )
    prompt = f"""
           You are an expert chat assistance that extracs information from the CONTEXT provided
           between <context> and </context> tags.
           You offer a chat experience considering the information included in the CHAT HISTORY
           provided between <chat_history> and </chat_history> tags..
           When ansering the question contained between <question> and </question> tags
           be concise and do not hallucinate. 
           If you don´t have the information just say so.
           
           Do not mention the CONTEXT used in your answer.
           Do not mention the CHAT HISTORY used in your asnwer.

           Only anwer the question if you can extract it from the CONTEXT provideed.
           
           <chat_history>
           {history}
           </chat_history>
           <context>          
           {json.dumps(response)}
           </context>
           <question>  
           {question}
           </question>
           Answer: 
           """
    return [_msg("user", prompt)]


NEMO_GENERAL = (
    "Below is a conversation between a user and a bot called the Northgate Bot.\n"
    "The bot is designed to answer employee questions about Northgate.\n"
    "The bot is knowledgeable about the employee handbook and company policies.\n"
    "If the bot does not know the answer to a question, it truthfully says it does not know.\n\n"
    'user "Hi there. Can you help me with some questions I have about the company?"\n'
    "  express greeting and ask for assistance\n"
    "bot express greeting and confirm and offer assistance\n"
    '  "Hi there! I\'m here to help answer any questions you may have about Northgate. What would you like to know?"\n'
    'user "What\'s the company policy on paid time off?"\n'
    "  ask question about benefits\n"
    "bot respond to question about benefits\n"
    '  "Northgate provides eligible employees with up to two weeks of paid vacation time per year, as well as five paid sick days per year. Please refer to the employee handbook for more information."\n\n'
)


def nemo_guardrails_general(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """NeMo Guardrails' 'general' task prompt for completion models (from memory): general instructions, the
    sample conversation, '# This is some additional context:' with the relevant chunks joined by newlines in a
    ```markdown fence, the history as 'User:'/'Assistant:' lines, then 'Assistant:'."""
    chunks = "\n".join(d.text for d in docs)
    history = ["User: hi", "Assistant: Hello! How can I help you today?"][: rng.choice([0, 2])]
    lines = "\n".join([*history, f"User: {question}"])
    prompt = (
        f"{NEMO_GENERAL}# This is some additional context:\n```markdown\n{chunks}\n```\n\n{lines}\nAssistant:"
    )
    return [_msg("user", prompt)]


RESEARCHER_ROLE = "You are an AI critical thinker research assistant. Your sole purpose is to write well written, critically acclaimed, objective and structured reports on given text."


def _researcher_context(docs: list[Doc]) -> str:
    return "\n".join(f"Source: {d.source}\nTitle: {d.title}\nContent: {d.text}\n" for d in docs)


def gpt_researcher_router(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """GPT-Researcher (from memory), routed per request by report type: the research report prompt
    ('Information: "…"' around 'Source/Title/Content' blocks, '---', the query in quotes) or the resource
    report prompt (the same blocks bare, then 'Based on the above information, generate a bibliography
    recommendation report for the following question or topic: "…"')."""
    context = _researcher_context(docs)
    today = f"{rng.choice(['March', 'June', 'October'])} {rng.randint(1, 28):02d}, 2025"
    if rng.random() < 0.55:
        prompt = (
            f'Information: "{context}"\n---\n'
            f'Using the above information, answer the following query or task: "{question}" in a detailed report --\n'
            "The report should focus on the answer to the query, should be well structured, informative, \n"
            "in-depth, and comprehensive, with facts and numbers if available and at least 1000 words.\n"
            "You should strive to write the report as long as you can using all relevant and necessary information provided.\n\n"
            "Please follow all of the following guidelines in your report:\n"
            "- You MUST determine your own concrete and valid opinion based on the given information. Do NOT defer to general and meaningless conclusions.\n"
            "- You MUST write the report with markdown syntax and APA format.\n"
            "- Use in-text citation references in APA format and make it with markdown hyperlink placed at the end of the sentence or paragraph that references them like this: ([in-text citation](url)).\n"
            "- Don't forget to add a reference list at the end of the report in APA format and full url links without hyperlinks.\n\n"
            f"Please do your best, this is very important to my career.\nAssume that the current date is {today}.\n"
        )
    else:
        prompt = (
            f"{context}\n\n"
            f'Based on the above information, generate a bibliography recommendation report for the following question or topic: "{question}". '
            "The report should provide a detailed analysis of each recommended resource, explaining how each source can contribute to finding answers to the research question.\n"
            "Focus on the relevance, reliability, and significance of each source.\n"
            "Ensure that the report is well-structured, informative, in-depth, and follows Markdown syntax.\n"
            "Include relevant facts, figures, and numbers whenever available.\n"
            "The report should have a minimum length of 700 words.\n"
            "You MUST include all relevant source urls.Every url should be hyperlinked: [url website](url)\n"
        )
    return [_msg("system", RESEARCHER_ROLE), _msg("user", prompt)]


def zep_memory_de(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Zep's memory context string (from memory) in a German utility bot's system message: facts with their
    valid date ranges between <FACTS> tags, entity summaries between <ENTITIES> tags; facts come first, so
    the documents are reordered to the prompt's order."""
    docs.sort(key=lambda d: d.source == "entity")
    facts = "\n".join(
        f"  - {d.text} ({2025}-0{rng.randint(1, 9)}-{rng.randint(10, 28)} {rng.randint(8, 18):02d}:{rng.randint(10, 59)}:00 - present)"
        for d in docs
        if d.source == "fact"
    )
    entities = "\n".join(f"  - {d.title}: {d.text}" for d in docs if d.source == "entity")
    context = (
        "FACTS and ENTITIES represent relevant context to the current conversation.\n\n"
        "# These are the most relevant facts and their valid date ranges\n# format: FACT (Date range: from - to)\n"
        f"<FACTS>\n{facts}\n</FACTS>\n\n"
        "# These are the most relevant entities\n# ENTITY_NAME: entity summary\n"
        f"<ENTITIES>\n{entities}\n</ENTITIES>"
    )
    system = f"Du bist Lina, die Kundenassistentin der Stadtwerke Auental. Antworte kurz und freundlich auf Deutsch.\n\n{context}"
    return [_msg("system", system), _msg("user", question)]


def lobechat_knowledge(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LobeChat's knowledge-base QA prompt (from memory): an XML block replacing the user's message, chunks as
    <chunk fileId fileName similarity pageNumber> elements, the raw query and, for some requests, a rewritten
    query that paraphrases it."""
    chunks = "\n".join(
        f'  <chunk fileId="file_{rng.randrange(16**6):06x}" fileName="{d.source.split("/")[-1]}.md" similarity="{rng.uniform(0.45, 0.92):.3f}" pageNumber="{rng.randint(1, 4)}" >{d.text}</chunk>'
        for d in docs
    )
    rewrite = (
        f"\n  <rewrite_query>Northgate policy: {question.rstrip('?')}?</rewrite_query>"
        if rng.random() < 0.5
        else ""
    )
    content = (
        "<knowledge_base_qa_info>\n"
        "You are also a helpful assistant good answer questions related to Employee Handbook. And you'll be provided with a question and several passages that might be relevant. And currently your task is to provide answer based on the question and passages.\n"
        "<knowledge_base_anwser_instruction>\n- Note that passages might not be relevant to the question, please only use the passages that are relevant.\n"
        "- if there is no relevant passage, please answer using your knowledge.\n- Answer should use the same original language as the question and follow markdown syntax.\n"
        "</knowledge_base_anwser_instruction>\n<knowledge_bases>\n  <knowledge_bases_docstring>here are the knowledge base scope we retrieve chunks from:</knowledge_bases_docstring>\n"
        '  <knowledge id="kb_northgate" name="Employee Handbook" description="HR and IT policies" />\n</knowledge_bases>\n'
        f"<retrieved_chunks>\n  <retrieved_chunks_docstring>here are retrived chunks you can refer to:</retrieved_chunks_docstring>\n{chunks}\n</retrieved_chunks>\n"
        "<user_query>\n  <user_query_docstring>to make result better, we may rewrite user's question.If there is a rewrite query, it will be wrapper with `rewrite_query` tag.</user_query_docstring>\n"
        f"  <raw_query>{question}</raw_query>{rewrite}\n</user_query>\n</knowledge_base_qa_info>"
    )
    return [_msg("system", "You are Northgate's internal helpdesk assistant."), _msg("user", content)]


LOCALGPT_SYSTEM = (
    "You are a helpful assistant, you will use the provided context to answer user questions.\n"
    "Read the given context before answering questions and think step by step. If you can not answer a user question based on\n"
    "the provided context, inform the user. Do not use any other information for answering user. Provide a detailed answer to the question."
)


def _localgpt_deploy() -> object:
    calls = itertools.count()

    def localgpt_deploy(docs: list[Doc], question: str, rng: random.Random) -> Messages:
        """LocalGPT's prompt_template_utils (from memory), a completion string: Llama-2 '[INST]<<SYS>>…<</SYS>>'
        with 'Context:' (chunks joined by blank lines) and 'User:'; redeployed half-way on a Llama-3 model,
        the same words between '<|start_header_id|>' headers."""
        context = "\n\n".join(d.text for d in docs)
        if next(calls) % REQUESTS < REQUESTS // 2:
            prompt = f"[INST]<<SYS>>\n{LOCALGPT_SYSTEM}\n<</SYS>>\n\n\n            Context: {context}\n            User: {question}[/INST]"
        else:
            prompt = (
                f"<|begin_of_text|><|start_header_id|>system<|end_header_id|>{LOCALGPT_SYSTEM}<|eot_id|>"
                f"<|start_header_id|>user<|end_header_id|>Context: {context}\nUser: {question}<|eot_id|><|start_header_id|>assistant<|end_header_id|>"
            )
        return [_msg("user", prompt)]

    return localgpt_deploy


def cody_context(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Sourcegraph Cody's chat context (from memory): a preamble pair, then per file a user turn 'Use the
    following text from file `path`:' (or 'code snippet' for code) with the content in a fence, answered by
    'Ok.', then the question."""
    messages = [
        _msg(
            "user",
            "You are Cody, an AI coding assistant from Sourcegraph. If your answer contains fenced code blocks in Markdown, include the relevant full file path in the code block tag.",
        ),
        _msg("assistant", "I am Cody, an AI coding assistant from Sourcegraph."),
    ]
    for d in docs:
        kind, lang = ("code snippet", "typescript") if d.source.endswith(".ts") else ("text", "markdown")
        messages.append(
            _msg("user", f"Use the following {kind} from file `{d.source}`:\n```{lang}\n{d.text}\n```")
        )
        messages.append(_msg("assistant", "Ok."))
    return [*messages, _msg("user", question)]


def langchainrb_ask(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Langchain.rb's Vectorsearch#ask (from memory): 'Context:' with the contents joined by '\\n---\\n', the
    question and 'Answer:' between more '---' lines, as one user message; a Spanish shop's bot."""
    context = "\n---\n".join(d.text for d in docs)
    return [_msg("user", f"Context:\n{context}\n---\nQuestion: {question}\n---\nAnswer:")]


def kendra_claude(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """amazon-kendra-langchain-extensions' Claude chain (from memory): an indented Human/Assistant completion
    string, Kendra results as 'Document Title:' / 'Document Excerpt:' records joined by blank lines inside
    <documents> tags, the question after 'provide a detailed answer for,'."""
    context = "\n\n".join(f"Document Title: {d.title}\nDocument Excerpt: \n{d.text}\n" for d in docs)
    prompt = f"""

  Human: This is a friendly conversation between a human and an AI. 
  The AI is talkative and provides specific details from its context but limits it to 240 tokens.
  If the AI does not know the answer to a question, it truthfully says it 
  does not know.

  Assistant: OK, got it, I'll be a talkative truthful AI assistant.

  Human: Here are a few documents in <documents> tags:
  <documents>
  {context}
  </documents>
  Based on the above documents, provide a detailed answer for, {question} Answer "don't know" 
  if not present in the document. 

  Assistant:"""
    return [_msg("user", prompt)]


REACT_EXAMPLES = """Question: What is the elevation range for the area that the eastern sector of the Colorado orogeny extends into?
Thought: I need to search Colorado orogeny, find the area that the eastern sector of the Colorado orogeny extends into, then find the elevation range of the area.
Action: Search[Colorado orogeny]
Observation: The Colorado orogeny was an episode of mountain building (an orogeny) in Colorado and surrounding areas.
Thought: It does not mention the eastern sector. So I need to look up eastern sector.
Action: Lookup[eastern sector]
Observation: (Result 1 / 1) The eastern sector extends into the High Plains and is called the Central Plains orogeny.
Thought: The eastern sector of Colorado orogeny extends into the High Plains. So I need to search High Plains and find its elevation range.
Action: Search[High Plains]
Observation: High Plains refers to one of two distinct land regions
Thought: I need to instead search High Plains (United States).
Action: Search[High Plains (United States)]
Observation: The High Plains are a subregion of the Great Plains. From east to west, the High Plains rise in elevation from around 1,800 to 7,000 ft (550 to 2,130 m).[3]
Thought: High Plains rise in elevation from around 1,800 to 7,000 ft, so the answer is 1,800 to 7,000 ft.
Action: Finish[1,800 to 7,000 ft]

Question: Musician and satirist Allie Goertz wrote a song about the "The Simpsons" character Milhouse, who Matt Groening named after who?
Thought: The question simplifies to "The Simpsons" character Milhouse is named after who. I only need to search Milhouse and find who it is named after.
Action: Search[Milhouse]
Observation: Milhouse Mussolini Van Houten is a recurring character in the Fox animated television series The Simpsons voiced by Pamela Hayden and created by Matt Groening.
Thought: The paragraph does not tell who Milhouse is named after, maybe I can look up "named after".
Action: Lookup[named after]
Observation: (Result 1 / 1) Milhouse was named after U.S. president Richard Nixon, whose middle name was Milhous.
Thought: Milhouse was named after U.S. president Richard Nixon, so the answer is Richard Nixon.
Action: Finish[Richard Nixon]"""


def react_docstore(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's ReAct docstore agent (react-docstore few-shot prompt, examples from the ReAct paper as
    remembered): the worked examples with their own observations, then the live question and one
    Search[...] / Observation step per retrieved page, ending on 'Thought:'; a completion prompt."""
    steps = []
    for n, d in enumerate(docs, 1):
        thought = (
            f"I need to search {d.title} to answer the question."
            if n == 1
            else f"That is not enough yet. I should also search {d.title}."
        )
        steps.append(f"Thought {n}: {thought}\nAction {n}: Search[{d.title}]\nObservation {n}: {d.text}")
    prompt = f"{REACT_EXAMPLES}\n\nQuestion: {question}\n" + "\n".join(steps) + f"\nThought {len(docs) + 1}:"
    return [_msg("user", prompt)]


AZURE_SEARCH = """
You are a friendly assistant that recommends hotels based on activities and amenities.
Answer the query using only the sources provided below in a friendly and concise bulleted manner.
Answer ONLY with the facts listed in the list of sources below.
If there isn't enough information below, say you don't know.
Do not generate answers that don't use the sources below.
Query: {query}
Sources:\n{sources}
"""


def azure_search_quickstart(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Azure AI Search's "RAG with Azure OpenAI" quickstart (from memory): one user message, the query before
    the sources, one 'HotelName:Description:Tags' line per hit (the tags a Python list); French hotels."""
    sources = "\n".join(f"{d.title}:{d.text}:{FR_TAGS[d.source]}" for d in docs)
    return [_msg("user", AZURE_SEARCH.format(query=question, sources=sources))]


FABRICATED = {
    "en": " It is also free for anyone over 65.",
    "zh": "此外，该规定自明年起将在全国统一实施。",
    "ja": "なお、会員の方は送料が無料になります。",
    "de": " Außerdem gibt es für Neukunden einen Bonus von 50 Euro.",
    "es": " Además, los envíos son gratuitos los domingos.",
    "fr": " Le parking est par ailleurs gratuit le dimanche.",
}
PREAMBLE = {"en": "According to the sources, ", "zh": "根据搜索结果，", "ja": "資料によると、", "de": "Laut Ihren Unterlagen: ",
            "es": "Según nuestra información, ", "fr": "D'après les sources, "}  # fmt: skip


def _sentence(text: str) -> str:
    """A prose sentence of the document: the first line that is not a table row, heading, code or list."""
    for line in text.split("\n"):
        line = line.strip()
        if (
            line
            and not line.startswith(("|", "#", "```", "-", "■", "※", "export", "}", "1.", "2.", "3."))
            and len(line) > 20
        ):
            if "。" in line:
                return line.split("。")[0] + "。"
            return re.split(r"(?<=[^\d\s]{2})\. ", line)[0].rstrip(".") + "."
    return text.split("\n")[0]


def _answer(target: Doc, rng: random.Random) -> tuple[str, bool]:
    """Answers as models write them: plain, cited [n] or [citation:n], bulleted markdown or with a preamble;
    40% with one fabricated claim."""
    first = _sentence(target.text)
    style = rng.choice(["plain", "cited", "citation", "markdown", "preamble"])
    if style == "cited":
        first = f"{first} [{rng.randint(1, 3)}]"
    elif style == "citation":
        first = f"{first}[citation:{rng.randint(1, 4)}]"
    elif style == "markdown":
        first = f"**{first}**" if target.lang in ("zh", "ja") else f"- **{first}**"
    elif style == "preamble":
        first = PREAMBLE[target.lang] + first
    if rng.random() < 0.4:
        return first + FABRICATED[target.lang], True
    return first, False


def _as_sent(text: str, messages: Messages) -> str:
    """The document as the retriever gave it; it must be in the prompt as written or JSON-escaped."""
    prompt = "\n".join(m["content"] for m in messages)
    if (
        text in prompt
        or json.dumps(text)[1:-1] in prompt
        or json.dumps(text, ensure_ascii=False)[1:-1] in prompt
    ):
        return text
    raise ValueError(f"document not in its prompt: {text[:40]!r}")


SERVICES = [
    ("scout-lepton-search", "Lepton AI search_with_lepton RAG query prompt (from memory)", "system: instructions then '[[citation:x]] text' contexts joined by blank lines, question alone in the user turn", WEB, lepton_search),
    ("sousuo-deepseek-zh", "DeepSeek-R1 model card search_answer_zh_template (from memory)", "Chinese, one user message: '[webpage X begin]…[webpage X end]' per result on one line each, rules with the date, question under '# 用户消息为：'", ZH_WEB, deepseek_search_zh),
    ("devdocs-chat-langchain", "chat-langchain RESPONSE_TEMPLATE (from memory)", "system: <context> block with \"<doc id='i'>…</doc>\" lines, closed by '<context/>', 0-2 history turns, question last; docs hold fenced code", DEV, chat_langchain),
    ("devdocs-milvus-rag", "Milvus 'Build RAG with Milvus' tutorial prompt", "user: <context> lines joined by single newlines (multi-line chunks run together), <question> tags", DEV, milvus_rag),
    ("lakehouse-dbdemos", "Databricks dbdemos llm-rag-chatbot prompt with history (from memory)", "one user message: 'Discussion:' history, context after a colon on the same line, blank-line joined, question after 'answer this question:'", DEV, dbdemos_chatbot),
    ("gearshop-cortex-ja", "Snowflake Cortex Search RAG quickstart COMPLETE prompt (from memory)", "Japanese: indented completion prompt, chat history as a Python list, search response JSON with \\u escapes in <context>, <question>", JA, snowflake_cortex_ja),
    ("northgate-nemo-guardrails", "NeMo Guardrails general task prompt (completion) with relevant_chunks (from memory)", "completion: instructions, colang-style sample conversation, ```markdown fence holding chunks joined by newlines, User:/Assistant: history", SAAS, nemo_guardrails_general),
    ("scout-gpt-researcher", "GPT-Researcher research report / resource report prompts, routed per request (from memory)", "router: 'Information: \"…\"' around Source/Title/Content blocks then the quoted query, or bare blocks then the bibliography request", WEB, gpt_researcher_router),
    ("auental-zep-de", "Zep memory context string (FACTS/ENTITIES) in a system message (from memory)", "German: '  - fact (date range)' lines in <FACTS>, '  - name: summary' in <ENTITIES>, facts first", DE_FACTS, zep_memory_de),
    ("northgate-lobechat", "LobeChat knowledge base QA prompt (from memory)", "user message replaced by XML: <chunk fileId fileName similarity pageNumber >text</chunk>, <raw_query>, sometimes a paraphrasing <rewrite_query>", SAAS, lobechat_knowledge),
    ("northgate-localgpt-deploy", "LocalGPT prompt_template_utils, Llama-2 then Llama-3 format after a deploy (from memory)", "completion: [INST]<<SYS>> … indented 'Context:' / 'User:' then, half-way, Llama-3 header tokens; chunks joined by blank lines", SAAS, _localgpt_deploy()),
    ("devdocs-cody", "Sourcegraph Cody chat context messages (from memory)", "one user turn per file ('Use the following text from file `path`:' + fence) answered by 'Ok.', then the question", DEV, cody_context),
    ("tiendaverde-langchainrb-es", "Langchain.rb Vectorsearch#ask RAG prompt (from memory)", "Spanish docs, one user message: 'Context:' chunks joined by '---' lines (one doc holds its own '---'), Question/Answer between '---'", ES, langchainrb_ask),
    ("northgate-kendra-claude", "amazon-kendra-langchain-extensions Claude chat prompt (from memory)", "completion: indented Human/Assistant, <documents> with 'Document Title:'/'Document Excerpt:' records, question inline after 'for,'", SAAS, kendra_claude),
    ("trivia-react-docstore", "LangChain ReAct docstore few-shot prompt (ReAct paper examples, from memory)", "completion: two worked examples with their own Observations, then the question and one 'Observation n:' per page, ending 'Thought n:'", WIKI, react_docstore),
    ("sejours-azure-search-fr", "Azure AI Search RAG quickstart GROUNDED_PROMPT (from memory)", "French hotels, one user message: 'Query:' first, then 'Sources:' with 'Name:Description:[tags]' lines", FR, azure_search_quickstart),
]  # fmt: skip


def build() -> None:
    write_wave(
        "wave_m",
        HERE,
        SERVICES,
        seed=11300,
        requests=REQUESTS,
        answer=_answer,
        as_sent=_as_sent,
        most_others=7,
    )


if __name__ == "__main__":
    build()
