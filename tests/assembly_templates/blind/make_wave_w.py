# ruff: noqa: E501
"""Blind wave W: sixteen services after products, framework prompts, research prompts, agent tools and an
evaluation prompt that no earlier wave holds, written by a helper who had not read the reader, with 1-8
documents per request. Every template was written from memory of the public source (not copied, so wording
may drift from the original):

- LlamaIndex's CondensePlusContextChatEngine (Finnish house rules): nodes as 'page_label: n' / 'file_name: …'
  lines, a blank line and the text, joined by blank lines in the system prompt, history;
- azure-search-openai-demo routing its chat and ask approaches (English benefits handbook): '<question>\\n\\n
  Sources:' and one '<page>.pdf: content' line per document (line breaks made spaces), the ask approach after
  a worked example with its own info1.txt-info4.pdf sources;
- Cherry Studio's knowledge-base reference prompt (Chinese 3D printer support): the question first, then a
  fenced JSON array of {id, content, sourceUrl, type};
- LightRAG's naive mode (Thai social security): history lines and chunks joined by '\\n--New Chunk--\\n' in the
  system prompt, the query as the user turn;
- DocsGPT redeployed half-way from its default to its strict chat_combine prompt (Spanish e-invoicing library
  docs): chunks joined by single line breaks at the end of the system prompt, history;
- Elastic's chatbot-rag-app (English HR handbook): '---\\nNAME: t\\nPASSAGE:\\ntext\\n---' blocks after a worked
  example, 'Question:' / 'Response:' history lines;
- Langflow's Vector Store RAG starter (Indonesian seller centre): chunks joined by one line break above '---';
- Cline's read_file tool results (Korean FastAPI repository): one user turn per file, '[read_file for …]
  Result:' and '<environment_details>' around it, the question in '<task>';
- a fetch tool through Jina Reader (French public-service pages): 'Title/URL Source/Published Time/Markdown
  Content:' tool messages, one page per call;
- PaperQA2's evidence summary (battery papers): one chunk per call between '------------' rules after its
  citation;
- IRCoT's reader (Slovenian geography, multi-hop): demonstrations with their own 'Wikipedia Title:' paragraphs;
- DeepEval's contextual relevancy (German transit FAQ): one node per call after a worked example's context;
- Hugging Face chat-ui's web search (Arabic): 'Title: t' results between '=====================' rules
  after the model's search query, 'So my question is:';
- NVIDIA's RAG blueprint (Czech electricity prices): 'Context: ' and chunks with markdown tables in the system
  prompt, history;
- a LangChain dynamic few-shot classifier (Turkish tickets): three similar labelled examples per request as
  turns, no documents (the truthful reading is 'no context');
- LangChain's local-deep-researcher summarizer (Japanese web results): 'Source: / URL: / Most relevant content
  from source:' blocks between '===' lines inside '<Search Results>'.

Ground truth: every document is the text the retriever (or file reader, fetch tool, search) returned, as it
stands in the prompt, never a title, page label, file name, path, URL, date, citation, NAME or score the
template adds around it; a chunk's own heading line is part of it. Where the template rewrites the text the
document is the rewritten text (azure-search-openai-demo's line breaks made spaces); where it escapes it
(Cherry Studio's JSON) the unescaped text. Few-shot examples (azure ask, IRCoT, DeepEval) and the Turkish
classifier's selected examples are demonstrations, not documents.

First run with main's readers (``bench_templates.py --blind tests/assembly_templates/blind/wave_w``, each
request under openinference and openai-v2-latest, 48 readings a service): learnt+rules 194/768 right (25.3%),
245 wrong context, 329 unscored (readings_disagree 169, no_context 96, unparseable 48, context_not_separable
16; the Turkish classifier's 48 no_context are its truthful reading); learnt-only 194 / 197 / 377; rules-only
64 / 230 / 474. Learnt+rules right / wrong / unscored: atsusa-local-deep-researcher-ja,
proud-nvidia-rag-blueprint-cs, toko-langflow-vector-rag-id, tuoyin-cherry-studio-zh 48/0/0; prakan-lightrag-naive-th
2/0/46; demarches-jina-reader-fr 0/5/43; bahth-hf-chat-websearch-ar, facturala-docsgpt-es,
harrowgate-elastic-chatbot-rag, jumun-cline-read-file-ko, labnotes-paperqa2-evidence 0/48/0;
harrowgate-azure-search-demo, kotisivu-condense-plus-context-fi (readings_disagree), takt-deepeval-relevancy-de
(unparseable), trivia-ircot-reader and destek-dynamic-fewshot-tr (no_context) 0/0/48.

    python tests/assembly_templates/blind/make_wave_w.py   # writes wave_w/*.json (deterministic)
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from make_wave_q import _msg
from make_wave_s import halves
from make_wave_u import Answer, Doc, _pool, _tool_call, answers, collapsed, first_sentence, keep
from wave_writer import prompt_text, spellings, write_long_wave

HERE = Path(__file__).resolve().parent / "wave_w"

Messages = list[dict[str, Any]]


def nonewlines(text: str) -> str:
    """azure-search-openai-demo's nonewlines: every line break a space, nothing else touched."""
    return text.replace("\n", " ").replace("\r", " ")


def as_sent(text: str, messages: Messages) -> str:
    """The document as the prompt holds it: the retriever's text as written or escaped, or as the template
    rewrote it (line breaks made spaces, whitespace collapsed)."""
    prompt = prompt_text(messages)
    for form in (text, nonewlines(text), collapsed(text)):
        if any(s in prompt for s in spellings(form)):
            return form
    raise ValueError(f"document not in its prompt: {text[:40]!r}")


# --- pools -------------------------------------------------------------------------------------------------

FI_TALO = _pool("fi", [
    ("Jarjestyssaannot_2024.pdf", "Saunavuorot",
     "Saunavuorot\n\nTaloyhtiön yhteissaunan vakiovuorot jaetaan isännöitsijän toimistosta. Vakiovuoron hinta on 18 euroa kuukaudessa ja se laskutetaan vastikkeen yhteydessä. Yleiset saunavuorot ovat lauantaisin klo 16–18 (naiset) ja 18–20 (miehet).\n\nSaunassa ei saa käyttää omia tuoksuja tai kiukaan löylyvesiin sekoitettavia aineita.",
     "Paljonko saunan vakiovuoro maksaa kuukaudessa?"),
    ("Jarjestyssaannot_2024.pdf", "Pesutupa",
     "Pesutupa\n\nPesutuvan voi varata enintään kolmeksi tunniksi kerrallaan varauslistasta porraskäytävän ilmoitustaululla. Koneet tulee pyyhkiä ja nukkasihdit puhdistaa käytön jälkeen. Kuivaushuoneessa pyykit saavat olla enintään 24 tuntia.",
     "Kuinka pitkäksi aikaa pesutuvan voi varata?"),
    ("Muutostyoohje.pdf", "Muutostöistä ilmoittaminen",
     "Muutostöistä ilmoittaminen\n\nOsakkaan on ilmoitettava kirjallisesti taloyhtiölle ennen kuin hän aloittaa huoneistossaan muutostyön, joka voi vaikuttaa rakenteisiin, vesi- tai sähköjärjestelmiin tai ilmanvaihtoon. Tällaisia ovat esimerkiksi:\n- kylpyhuoneremontti\n- keittiön putkiliitäntöjen siirto\n- kantavien seinien puhkaisu\n\nIlmoitus tehdään vähintään kolme viikkoa ennen töiden aloittamista. Hallitus voi asettaa töille ehtoja, kuten valvojan käytön.",
     "Kuinka paljon ennen kylpyhuoneremonttia siitä pitää ilmoittaa?"),
    ("Jarjestyssaannot_2024.pdf", "Pysäköinti",
     "Pysäköinti\n\nPiha-alueella pysäköinti on sallittu vain merkityillä, vuokratuilla autopaikoilla. Lämpötolppapaikan vuokra on 25 euroa kuukaudessa. Vieraspysäköinti on sallittu enintään 4 tuntia vieraspaikoilla, ja pysäköintikiekon käyttö on pakollista.",
     "Kuinka kauan vieraspaikalla saa pysäköidä?"),
    ("Jarjestyssaannot_2024.pdf", "Parvekkeet ja grillaus",
     "Parvekkeet ja grillaus\n\nParvekkeella saa grillata vain sähkögrillillä. Hiili- ja kaasugrillien käyttö parvekkeilla on kielletty paloturvallisuuden vuoksi. Mattojen ja vuodevaatteiden tuuletus parvekkeella on sallittu, mutta niiden tamppaaminen parvekkeen kaiteen yli on kielletty.",
     "Saako parvekkeella käyttää kaasugrilliä?"),
    ("Jarjestyssaannot_2024.pdf", "Lemmikit",
     "Lemmikit\n\nLemmikkieläimiä ei saa päästää vapaaksi piha-alueelle eikä leikkipaikalle. Koirat on pidettävä kytkettyinä taloyhtiön alueella. Lemmikin aiheuttamista vahingoista vastaa omistaja.",
     "Saako koiran päästää irti taloyhtiön pihalla?"),
    ("Jatehuolto_ohje.pdf", "Jätehuolto",
     "Jätehuolto\n\nJätekatoksessa on astiat sekajätteelle, biojätteelle, kartongille, lasille ja metallille. Muovipakkausten keräysastia tyhjennetään joka toinen tiistai. Suuria esineitä, kuten huonekaluja, ei saa jättää jätekatokseen; ne tulee viedä Sortti-asemalle.",
     "Kuinka usein muovipakkausastia tyhjennetään?"),
])  # fmt: skip

EN_HANDBOOK = _pool("en", [
    ("Benefit_Options-2.pdf", "Deductibles",
     "Deductibles\nThe Harrowgate Standard plan has an in-network deductible of $750 per person and $1,500 per family. The Harrowgate Plus plan has an in-network deductible of $300 per person and $600 per family.\nOut-of-network care is covered only under Harrowgate Plus, with a separate deductible of $1,200 per person.",
     "What is the in-network deductible for one person on the Standard plan?"),
    ("Employee_Handbook-14.pdf", "Parental leave",
     "Parental leave\nEmployees who have completed 6 months of service are eligible for 16 weeks of fully paid parental leave after the birth or adoption of a child. Leave may be taken in up to two blocks within 12 months of the birth or placement.\nNotify your manager and People Operations at least 8 weeks before the expected start date where possible.",
     "How many weeks of paid parental leave do employees get?"),
    ("Employee_Handbook-9.pdf", "Remote work",
     "Remote work\nEmployees may work remotely up to three days per week with their manager's approval. Remote work from outside the country of employment is limited to 20 working days per calendar year and requires approval from People Operations at least two weeks in advance, because of tax and immigration rules.",
     "How many days a year can I work remotely from another country?"),
    ("Travel_Policy-3.pdf", "Travel expenses",
     "Meals and incidentals\nWhile travelling on company business, employees are reimbursed for meals up to a daily limit of $75 in the US and €65 in Europe. Alcohol is not reimbursable unless pre-approved for a client event.\nReceipts are required for any single expense over $25. Submit claims in Expensify within 30 days of returning.",
     "What is the daily meal limit when travelling in Europe?"),
    ("Employee_Handbook-21.pdf", "Learning budget",
     "Learning and development\nEvery employee has an annual learning budget of $1,500 for courses, conferences, books and certifications related to their role. Unused budget does not carry over to the next year. Courses over $500 need manager approval before booking.",
     "Does unused learning budget carry over to next year?"),
    ("Employee_Handbook-17.pdf", "Performance reviews",
     "Performance reviews\nReviews take place twice a year, in March and September. Each review combines a self-assessment, feedback from at least two peers and the manager's assessment. Salary adjustments are decided in the March cycle only.",
     "When are salary adjustments decided?"),
    ("Benefit_Options-5.pdf", "Dental and vision",
     "Dental and vision\nBoth plans include preventive dental care (two cleanings per year) at no cost. Harrowgate Plus also covers 50% of major dental work, such as crowns and bridges, up to $2,000 per year. Vision cover includes one eye exam per year and $200 towards glasses or contact lenses every 24 months.",
     "Does the Plus plan cover crowns?"),
    ("Employee_Handbook-11.pdf", "Paid time off",
     "Paid time off\nFull-time employees accrue 25 days of paid time off per year. Up to 5 unused days may be carried over into the first quarter of the following year; days carried over and not used by March 31 are forfeited.",
     "How many unused PTO days can be carried over?"),
])  # fmt: skip

ZH_PRINTER = _pool("zh", [
    ("kb/热床调平.md", "热床调平",
     "## 热床自动调平\n\n每次更换打印板或移动打印机后，建议重新执行自动调平：在屏幕上选择「设置」→「校准」→「热床调平」。调平过程约需 6 分钟，期间请勿触碰热床。\n\n如果首层出现局部过薄或刮花，可在切片软件中开启「首层检查」。",
     "自动调平大概需要多长时间？"),
    ("kb/更换喷嘴.md", "更换喷嘴",
     "## 更换喷嘴\n\n1. 将喷嘴加热到 250 °C，以便残留耗材软化。\n2. 断电后用附带的六角扳手拧下两颗固定螺丝。\n3. 取下旧喷嘴，装上新喷嘴并拧紧螺丝。\n\n注意：0.2 mm 喷嘴不适合打印含碳纤维的耗材，否则容易堵塞。",
     "更换喷嘴前要加热到多少度？"),
    ("kb/耗材受潮.md", "耗材受潮",
     "耗材受潮会导致打印时出现拉丝、气泡和表面粗糙。PETG、TPU 和 PA 类耗材尤其容易吸湿。受潮的耗材可以放入烘干机在 65 °C 下烘干 8 小时（PA 类建议 80 °C、12 小时）。开封后的耗材请与干燥剂一起密封保存。",
     "受潮的 PETG 怎么烘干？"),
    ("kb/固件升级.md", "固件升级",
     "固件可通过手机 App 或打印机屏幕在线升级。升级前请确保打印机未在打印中，并且电量稳定。升级过程中不要断电，否则可能导致主板变砖，需要使用 SD 卡离线恢复。当前稳定版本为 01.08.02.00。",
     "固件升级时断电会怎样？"),
    ("kb/错误码.md", "常见错误码",
     "| 错误码 | 含义 | 处理方法 |\n|---|---|---|\n| 0300-0100 | 热床加热失败 | 检查热床连接线是否松动 |\n| 0300-0300 | 喷嘴温度异常 | 更换热敏电阻 |\n| 0700-2000 | 耗材断料 | 重新装载耗材后继续打印 |\n| 0C00-0300 | 首层检查发现异物 | 清理打印板后重试 |",
     "错误码 0700-2000 是什么意思？"),
    ("kb/打印PETG.md", "打印 PETG",
     "打印 PETG 的推荐参数：喷嘴温度 240–260 °C，热床温度 70 °C，关闭或降低部件冷却风扇至 30%。PETG 与光面 PEI 板粘附过强，容易撕下板面涂层，请先涂一层胶水作为隔离层。",
     "打印 PETG 热床温度设多少？"),
    ("kb/保修政策.md", "保修政策",
     "整机自签收之日起保修 12 个月，热端组件、打印板等易损件保修 3 个月。因自行改装、使用非官方配件或人为损坏导致的故障不在保修范围内。申请保修请提供订单号和故障视频。",
     "打印板保修多久？"),
])  # fmt: skip

TH_SSO = _pool("th", [
    ("sso/คลอดบุตร", "สิทธิคลอดบุตร",
     "ผู้ประกันตนมาตรา 33 ที่จ่ายเงินสมทบครบ 5 เดือนภายใน 15 เดือนก่อนคลอด มีสิทธิได้รับค่าคลอดบุตรแบบเหมาจ่าย 15,000 บาทต่อครั้ง และเงินสงเคราะห์การหยุดงานเพื่อการคลอดบุตรร้อยละ 50 ของค่าจ้างเฉลี่ยเป็นเวลา 90 วัน",
     "ค่าคลอดบุตรเหมาจ่ายได้เท่าไร"),
    ("sso/ว่างงาน", "กรณีว่างงาน",
     "กรณีถูกเลิกจ้าง ผู้ประกันตนจะได้รับเงินทดแทนร้อยละ 50 ของค่าจ้าง ไม่เกิน 180 วันต่อปี กรณีลาออกเองได้รับร้อยละ 30 ไม่เกิน 90 วัน ทั้งนี้ต้องขึ้นทะเบียนว่างงานที่สำนักงานจัดหางานภายใน 30 วันนับจากวันที่ออกจากงาน",
     "ลาออกเองได้เงินทดแทนกี่วัน"),
    ("sso/ทันตกรรม", "สิทธิทันตกรรม",
     "ผู้ประกันตนสามารถใช้สิทธิทำฟัน ได้แก่ ขูดหินปูน อุดฟัน ถอนฟัน และผ่าฟันคุด ได้ไม่เกิน 900 บาทต่อปี โดยไม่ต้องสำรองจ่ายที่สถานพยาบาลที่ทำข้อตกลงกับสำนักงานประกันสังคม",
     "ทำฟันได้ปีละกี่บาท"),
    ("sso/ชราภาพ", "กรณีชราภาพ",
     "เมื่ออายุครบ 55 ปีบริบูรณ์และสิ้นสุดความเป็นผู้ประกันตน หากจ่ายเงินสมทบครบ 180 เดือนขึ้นไปจะได้รับเงินบำนาญชราภาพรายเดือน หากจ่ายไม่ถึง 180 เดือนจะได้รับเงินบำเหน็จชราภาพเป็นเงินก้อนครั้งเดียว",
     "ต้องจ่ายเงินสมทบกี่เดือนถึงจะได้บำนาญ"),
    ("sso/เจ็บป่วย", "กรณีเจ็บป่วย",
     "ผู้ประกันตนที่จ่ายเงินสมทบครบ 3 เดือนภายใน 15 เดือนก่อนรับบริการ มีสิทธิรับการรักษาพยาบาลที่โรงพยาบาลตามบัตรรับรองสิทธิโดยไม่เสียค่าใช้จ่าย หากแพทย์สั่งให้หยุดงาน จะได้รับเงินทดแทนการขาดรายได้ร้อยละ 50 ของค่าจ้าง",
     "ต้องจ่ายสมทบกี่เดือนจึงจะใช้สิทธิรักษาพยาบาลได้"),
    ("sso/สงเคราะห์บุตร", "สงเคราะห์บุตร",
     "ผู้ประกันตนได้รับเงินสงเคราะห์บุตรเดือนละ 800 บาทต่อบุตรหนึ่งคน ตั้งแต่แรกเกิดจนบุตรอายุครบ 6 ปีบริบูรณ์ ครั้งละไม่เกิน 3 คน โดยต้องจ่ายเงินสมทบมาแล้วไม่น้อยกว่า 12 เดือนภายใน 36 เดือน",
     "เงินสงเคราะห์บุตรได้เดือนละเท่าไร"),
    ("sso/ทุพพลภาพ", "กรณีทุพพลภาพ",
     "ผู้ประกันตนที่ทุพพลภาพได้รับเงินทดแทนการขาดรายได้ร้อยละ 50 ของค่าจ้างตลอดชีวิต และค่ารักษาพยาบาลตามที่จ่ายจริง ผู้ทุพพลภาพต้องเข้ารับการประเมินโดยคณะกรรมการการแพทย์",
     "ผู้ทุพพลภาพได้รับเงินทดแทนกี่เปอร์เซ็นต์"),
])  # fmt: skip

ES_FACTURA = _pool("es", [
    ("docs/instalacion.md", "Instalación",
     "# Instalación\n\nfacturala requiere Python 3.10 o superior. Instálala desde PyPI:\n\n```bash\npip install facturala[firma]\n```\n\nEl extra `firma` instala las dependencias criptográficas (`xmlsec`, `cryptography`) necesarias para firmar con XAdES.",
     "¿Qué extra hay que instalar para poder firmar facturas?"),
    ("docs/firmar.md", "Firmar una factura",
     "# Firmar una factura\n\n```python\nfrom facturala import Factura, firmar\n\nfactura = Factura.desde_json(\"factura.json\")\nxml = firmar(factura, certificado=\"empresa.p12\", clave=os.environ[\"P12_CLAVE\"])\n```\n\nLa firma usa la política de firma de Facturae 3.1. Nunca guardes la contraseña del certificado en el código: léela de una variable de entorno.",
     "¿Qué política de firma usa facturala?"),
    ("docs/face.md", "Envío a FACe",
     "# Envío a FACe\n\nPara enviar facturas a las Administraciones Públicas necesitas el código DIR3 de la oficina contable, el órgano gestor y la unidad tramitadora. `facturala.face.enviar()` devuelve el número de registro; guárdalo, porque es el único justificante de la presentación.\n\nEl entorno de pruebas es `https://se-face-webservice.redsara.es`.",
     "¿Qué códigos DIR3 necesito para enviar a FACe?"),
    ("docs/errores.md", "Errores frecuentes",
     "# Errores frecuentes\n\n- `ErrorCertificado: caducado` — el certificado ha expirado; renuévalo en la FNMT.\n- `ErrorEsquema: TaxRate` — el tipo impositivo debe escribirse con dos decimales (`21.00`).\n- `ErrorFACe 402` — la unidad tramitadora no corresponde al órgano gestor.",
     "¿Qué significa ErrorFACe 402?"),
    ("docs/configuracion.md", "Configuración",
     "# Configuración\n\nLa configuración se lee de `facturala.toml` en el directorio actual:\n\n| Clave | Por defecto | Descripción |\n|---|---|---|\n| `serie` | `A` | serie de facturación |\n| `decimales` | `2` | decimales en importes |\n| `zona_horaria` | `Europe/Madrid` | zona de las fechas de expedición |",
     "¿Cuál es la serie de facturación por defecto?"),
    ("docs/cli.md", "Línea de comandos",
     "# Línea de comandos\n\n`facturala validar factura.xml` comprueba el XML contra el esquema XSD de Facturae 3.2.2 sin enviarlo. `facturala convertir factura.json --salida factura.xsig` genera el fichero firmado. Añade `--verbose` para ver cada paso.",
     "¿Cómo valido un XML sin enviarlo?"),
    ("docs/rectificativas.md", "Facturas rectificativas",
     "# Facturas rectificativas\n\nUna factura rectificativa debe indicar el número y la serie de la factura que corrige y el motivo con su código (por ejemplo `01` para el número de factura o `80` para la base imponible). En facturala se crea con `Factura.rectificar(original, motivo=\"80\")`.",
     "¿Qué código de motivo se usa para corregir la base imponible?"),
])  # fmt: skip

ID_SELLER = _pool("id", [
    ("pusat-edukasi/biaya-layanan", "Biaya layanan",
     "Biaya layanan dikenakan pada setiap pesanan yang selesai. Untuk Penjual Star, biaya layanan sebesar 4% dari harga produk, maksimal Rp10.000 per produk. Penjual Mall dikenakan biaya 6,5%. Biaya dipotong otomatis saat dana diteruskan ke saldo penjual.",
     "Berapa biaya layanan untuk Penjual Star?"),
    ("pusat-edukasi/pengembalian", "Pengembalian barang",
     "Pembeli dapat mengajukan pengembalian barang dalam 3 hari setelah pesanan diterima.\nAlasan yang diterima:\n- barang rusak atau cacat\n- barang tidak sesuai deskripsi\n- barang tidak lengkap\nPenjual wajib merespons pengajuan dalam 2 x 24 jam; jika tidak, pengembalian disetujui otomatis.",
     "Berapa lama penjual harus merespons pengajuan pengembalian?"),
    ("pusat-edukasi/pencairan-dana", "Pencairan dana",
     "Saldo penjual dapat dicairkan ke rekening bank yang sudah diverifikasi. Pencairan diproses pada hari kerja dan masuk dalam 1-2 hari kerja. Pencairan gratis 5 kali per bulan; selanjutnya dikenakan biaya Rp2.500 per transaksi.",
     "Berapa kali pencairan dana gratis setiap bulan?"),
    ("pusat-edukasi/pengiriman", "Batas waktu pengiriman",
     "Penjual wajib mengirim pesanan sebelum batas waktu pengiriman, yaitu 2 hari kerja sejak pesanan dibayar. Untuk produk pre-order, batas waktu mengikuti masa pre-order yang diatur di halaman produk, maksimal 15 hari.",
     "Berapa batas waktu pengiriman untuk pesanan biasa?"),
    ("pusat-edukasi/poin-penalti", "Poin penalti",
     "Poin penalti diberikan jika penjual terlambat mengirim, membatalkan pesanan, atau melanggar kebijakan listing.\nKeterlambatan pengiriman: 1 poin per 5 pesanan\nPembatalan oleh penjual: 1 poin per 5 pesanan\nJika mencapai 3 poin, toko tidak bisa ikut promosi selama 7 hari.",
     "Apa akibatnya jika toko mencapai 3 poin penalti?"),
    ("pusat-edukasi/voucher-toko", "Voucher toko",
     "Voucher toko dapat dibuat dari menu Promosi. Penjual menentukan nilai diskon, minimum belanja, kuota, dan periode voucher. Periode voucher maksimal 3 bulan. Biaya diskon ditanggung sepenuhnya oleh penjual.",
     "Berapa lama periode voucher toko paling lama?"),
    ("pusat-edukasi/verifikasi", "Verifikasi toko",
     "Untuk menjadi Penjual Star, toko harus memiliki minimal 50 pesanan selesai dalam 30 hari terakhir, penilaian toko minimal 4,6, dan tingkat respons chat minimal 80%. Status diperbarui setiap hari Senin.",
     "Apa syarat menjadi Penjual Star?"),
    ("pusat-edukasi/ulasan", "Ulasan pembeli",
     "Penjual dapat membalas ulasan pembeli satu kali untuk setiap ulasan. Ulasan tidak dapat dihapus oleh penjual, tetapi ulasan yang mengandung kata kasar atau informasi pribadi dapat dilaporkan untuk ditinjau dalam 3 hari kerja.",
     "Bisakah penjual menghapus ulasan buruk?"),
])  # fmt: skip

KO_REPO = _pool("ko", [
    ("README.md", "README",
     "# 주문 API\n\nFastAPI 기반의 주문 처리 서비스입니다.\n\n## 로컬 실행\n\n```bash\ndocker compose up -d db redis\nuv run uvicorn app.main:app --reload --port 8080\n```\n\n테스트는 `uv run pytest`로 실행합니다. 테스트 DB는 매번 새로 만들어집니다.",
     "로컬에서 서버는 몇 번 포트로 뜨나요?"),
    ("app/config.py", "config.py",
     "from pydantic_settings import BaseSettings\n\n\nclass Settings(BaseSettings):\n    database_url: str = \"postgresql+asyncpg://order:order@localhost:5432/order\"\n    redis_url: str = \"redis://localhost:6379/0\"\n    # 결제 대기 주문은 이 시간(분)이 지나면 자동 취소된다\n    payment_timeout_minutes: int = 30\n    toss_secret_key: str = \"\"\n\n    model_config = {\"env_prefix\": \"ORDER_\"}\n\n\nsettings = Settings()",
     "결제 대기 주문은 몇 분 뒤에 자동 취소되나요?"),
    ("app/routers/orders.py", "orders.py",
     "from fastapi import APIRouter, Depends, HTTPException\n\nfrom app.deps import current_user\nfrom app.services import orders as service\n\nrouter = APIRouter(prefix=\"/orders\", tags=[\"orders\"])\n\n\n@router.post(\"/{order_id}/cancel\")\nasync def cancel(order_id: int, user=Depends(current_user)):\n    # 배송이 시작된 주문은 취소할 수 없고 반품 절차로 안내한다\n    order = await service.get(order_id, user.id)\n    if order.status in (\"SHIPPING\", \"DELIVERED\"):\n        raise HTTPException(409, \"배송이 시작된 주문은 취소할 수 없습니다\")\n    return await service.cancel(order)",
     "배송 중인 주문을 취소하면 어떤 응답이 오나요?"),
    ("app/services/payment.py", "payment.py",
     "import httpx\n\nfrom app.config import settings\n\nTOSS_CONFIRM_URL = \"https://api.tosspayments.com/v1/payments/confirm\"\n\n\nasync def confirm(payment_key: str, order_id: str, amount: int) -> dict:\n    \"\"\"토스페이먼츠 결제 승인. 금액이 주문 금액과 다르면 승인하지 않는다.\"\"\"\n    async with httpx.AsyncClient(timeout=10) as client:\n        r = await client.post(\n            TOSS_CONFIRM_URL,\n            auth=(settings.toss_secret_key, \"\"),\n            json={\"paymentKey\": payment_key, \"orderId\": order_id, \"amount\": amount},\n        )\n    r.raise_for_status()\n    return r.json()",
     "결제 승인 요청의 타임아웃은 몇 초인가요?"),
    ("docker-compose.yml", "docker-compose.yml",
     "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: order\n      POSTGRES_PASSWORD: order\n    ports: [\"5432:5432\"]\n  redis:\n    image: redis:7-alpine\n    ports: [\"6379:6379\"]\n  # 로컬 메일 확인용 (http://localhost:8025)\n  mailpit:\n    image: axllent/mailpit\n    ports: [\"8025:8025\", \"1025:1025\"]",
     "로컬 메일은 어디서 확인하나요?"),
    ("docs/배포.md", "배포.md",
     "# 배포\n\n`main` 브랜치에 머지되면 GitHub Actions가 이미지를 빌드해 ECR에 올리고 스테이징에 자동 배포한다. 운영 배포는 릴리스 태그(`v*`)를 만들면 시작되며, 팀장 승인 후 진행된다.\n\n금요일 오후 4시 이후에는 운영 배포를 하지 않는다.",
     "운영 배포는 어떻게 시작되나요?"),
])  # fmt: skip

FR_WEB = _pool("fr", [
    ("https://www.service-public.fr/particuliers/vosdroits/F1342", "Passeport : renouvellement",
     "# Passeport : renouvellement\n\nVérifié le 02 octobre 2026 - Direction de l'information légale et administrative\n\nLe passeport d'un majeur est valable **10 ans**. Pour le renouveler, vous devez faire une pré-demande en ligne, puis vous rendre dans une mairie équipée d'un dispositif de recueil.\n\n## Coût\n\n- Majeur : 86 € en timbre fiscal\n- Mineur de 15 ans et plus : 42 €\n- Mineur de moins de 15 ans : 17 €\n\nLe délai de fabrication varie selon la période ; il est plus long avant l'été.",
     "Combien coûte un passeport pour un adulte ?"),
    ("https://www.sncf-connect.com/aide/garantie-g30", "Garantie G30",
     "# Garantie G30 : votre train est en retard\n\nSi votre TGV INOUI ou Intercités arrive avec plus de 30 minutes de retard, vous êtes indemnisé :\n\n| Retard | Compensation |\n|---|---|\n| 30 à 59 min | 25 % du prix du billet |\n| 1 h à 1 h 59 | 50 % |\n| 2 h et plus | 75 % |\n\nLa demande se fait en ligne dans les 60 jours suivant le voyage.",
     "Quelle compensation pour 45 minutes de retard en TGV ?"),
    ("https://www.economie.gouv.fr/particuliers/cheque-energie", "Chèque énergie",
     "# Chèque énergie\n\nPublié le 14 mars 2026\n\nLe chèque énergie est envoyé automatiquement chaque année aux ménages dont le revenu fiscal de référence par unité de consommation est inférieur à 11 000 €. Son montant varie de 48 € à 277 €. Il peut payer une facture d'électricité, de gaz, de fioul ou de bois, ou certains travaux de rénovation.\n\nIl est valable jusqu'au 31 mars de l'année suivante.",
     "Jusqu'à quand le chèque énergie est-il valable ?"),
    ("https://www.francerenov.gouv.fr/aides/maprimerenov", "MaPrimeRénov'",
     "# MaPrimeRénov'\n\nMaPrimeRénov' finance les travaux de rénovation énergétique des logements construits depuis au moins 15 ans. Le montant dépend des revenus du ménage et du gain énergétique.\n\n> Les travaux doivent être réalisés par une entreprise labellisée RGE.\n\nLa demande doit être déposée **avant** de signer le devis.",
     "Faut-il demander MaPrimeRénov' avant de signer le devis ?"),
    ("https://www.certificat-air.gouv.fr/faq", "Crit'Air : questions fréquentes",
     "# Vignette Crit'Air\n\nLa vignette Crit'Air coûte 3,76 € frais d'envoi compris et n'est à commander que sur le site officiel. Elle est obligatoire pour circuler dans les zones à faibles émissions (ZFE) lors des restrictions. L'amende en cas d'absence est de 68 € pour une voiture.",
     "Quel est le prix de la vignette Crit'Air ?"),
    ("https://www.service-public.fr/particuliers/vosdroits/F36828", "Bonus vélo",
     "# Aide à l'achat d'un vélo\n\nMis à jour le 1er février 2026\n\nL'aide de l'État pour l'achat d'un vélo à assistance électrique est réservée aux personnes dont le revenu fiscal de référence par part est inférieur ou égal à 15 400 €. Elle ne peut pas dépasser 40 % du prix d'achat.\n\nLe vélo ne doit pas être revendu dans l'année qui suit.",
     "Quel plafond de revenu pour le bonus vélo électrique ?"),
])  # fmt: skip

EN_PAPERS = _pool("en", [
    ("paperqa/li2025", "Li X, Okafor C, Brandt M. Calendar ageing of high-nickel NMC cells. J Power Sources. 2025;612:234-251.",
     "Cells stored at 45 °C and 100% state of charge lost 18.4% of their capacity after 12 months, compared with 6.1% for cells stored at 25 °C and 50% state of charge. Capacity fade followed a square-root dependence on time (R² = 0.97), consistent with SEI growth limited by solvent diffusion. Impedance rose faster than capacity fell: the charge-transfer resistance doubled within the first 6 months at 45 °C.",
     "How much capacity do NMC cells lose when stored at 45 °C and full charge?"),
    ("paperqa/moreau2024", "Moreau A, Tanaka H. Hard-carbon anodes for sodium-ion batteries: a review. Adv Energy Mater. 2024;14(9):2303110.",
     "Hard carbons derived from biomass typically deliver reversible capacities of 280-330 mAh g⁻¹ in sodium half-cells. The first-cycle coulombic efficiency remains the main weakness, usually between 75% and 88%, because sodium is consumed in forming the SEI and trapped in closed pores. Pre-sodiation raised the initial efficiency to above 95% in several studies, though at added process cost.",
     "What is the typical first-cycle coulombic efficiency of hard-carbon anodes?"),
    ("paperqa/okoye2025", "Okoye B, et al. Moisture-induced degradation of formamidinium perovskite films. Nat Energy. 2025;10:411-420.",
     "Unencapsulated FAPbI3 films exposed to 60% relative humidity transformed to the photoinactive δ-phase within 40 hours. Adding 5 mol% methylammonium chloride delayed the transition to more than 300 hours. Devices encapsulated with a glass-glass edge seal retained 92% of initial efficiency after 1,000 h of damp-heat testing (85 °C, 85% RH).",
     "How long did unencapsulated FAPbI3 films take to degrade at 60% humidity?"),
    ("paperqa/singh2024", "Singh R, Alvarez P. Lithium dendrite penetration in garnet solid electrolytes. Joule. 2024;8(3):777-795.",
     "In Li7La3Zr2O12 (LLZO) pellets, dendrites penetrated along grain boundaries at critical current densities as low as 0.4 mA cm⁻². Applying a stack pressure of 7 MPa and an interlayer of 20 nm aluminium oxide raised the critical current density to 1.6 mA cm⁻². The authors note that pressures above 10 MPa are impractical in commercial packs.",
     "What critical current density did LLZO reach with an alumina interlayer?"),
    ("paperqa/fischer2025", "Fischer L, Ndlovu S. Fast charging and lithium plating in graphite anodes. Electrochim Acta. 2025;499:144612.",
     "Lithium plating was detected by differential voltage analysis in all cells charged at 3C below 15 °C. At 25 °C, plating appeared only above 80% state of charge. A charging protocol that tapered the current from 3C to 1C at 60% state of charge avoided detectable plating while adding only 4 minutes to the 10-80% charge time.",
     "At what temperature does 3C charging cause lithium plating?"),
    ("paperqa/haddad2024", "Haddad N, et al. Recycling yields of direct cathode regeneration. ACS Sustain Chem Eng. 2024;12:5120-5131.",
     "Direct regeneration of spent LiFePO4 cathodes by hydrothermal relithiation recovered a specific capacity of 158 mAh g⁻¹, close to the 160 mAh g⁻¹ of pristine material. Compared with hydrometallurgical recycling, the process used 61% less energy and avoided the use of strong acids.",
     "How much energy did direct regeneration save compared with hydrometallurgy?"),
    ("paperqa/petrov2025", "Petrov D, Kim J. Thermal runaway propagation in LFP modules. Fire Technol. 2025;61:98-117.",
     "In modules of 16 prismatic LFP cells, thermal runaway triggered by nail penetration propagated to adjacent cells in 3 of 10 tests. Inserting 2 mm aerogel sheets between cells prevented propagation in all tests. Peak cell surface temperatures reached 410 °C, considerably lower than the 700 °C and above reported for NMC modules.",
     "Did aerogel sheets stop thermal runaway propagation in LFP modules?"),
])  # fmt: skip

EN_SLOVENIA = _pool("en", [
    ("wiki/Lake Bled", "Lake Bled",
     "Lake Bled is a lake in the Julian Alps of the Upper Carniolan region of northwestern Slovenia, where it adjoins the town of Bled. The lake is 2,120 m long and 1,380 m wide. It surrounds Bled Island, the only natural island in Slovenia, on which stands the Pilgrimage Church of the Assumption of Mary.",
     "What stands on the only natural island in the lake next to the town of Bled?"),
    ("wiki/Bled Castle", "Bled Castle",
     "Bled Castle is a medieval castle built on a precipice above Lake Bled. According to written sources, it was first mentioned in 1011 in a deed of donation by Emperor Henry II to the Bishops of Brixen. It is the oldest castle in Slovenia.",
     "Which emperor's deed first mentioned the oldest castle in Slovenia?"),
    ("wiki/Jože Plečnik", "Jože Plečnik",
     "Jože Plečnik (1872-1957) was a Slovene architect who had a major impact on the modern architecture of Vienna, Prague and of Ljubljana, most notably by designing the iconic Triple Bridge and the Slovenian National and University Library building. He also renovated Prague Castle in the 1920s.",
     "Which castle was renovated by the architect of the Triple Bridge?"),
    ("wiki/Triple Bridge", "Triple Bridge",
     "The Triple Bridge is a group of three bridges across the Ljubljanica River, connecting the historical medieval town of Ljubljana on one bank with the modern city on the other. The two side footbridges were added between 1929 and 1932 to the design of Jože Plečnik.",
     "Which river does the Triple Bridge cross?"),
    ("wiki/Triglav", "Triglav",
     "Triglav, with an elevation of 2,864 metres, is the highest mountain in Slovenia and the highest peak of the Julian Alps. The mountain is the pre-eminent symbol of the Slovene nation and appears on the coat of arms and flag of Slovenia. Triglav National Park, established in 1924, is named after it.",
     "In what year was the national park named after Slovenia's highest mountain established?"),
    ("wiki/Ljubljanica", "Ljubljanica",
     "The Ljubljanica is a river in Slovenia. It flows through the capital Ljubljana and joins the Sava River east of the city. Because it sinks underground and reappears several times along its course, it is known as the river of seven names.",
     "Why is the Ljubljanica called the river of seven names?"),
    ("wiki/National and University Library of Slovenia", "National and University Library of Slovenia",
     "The National and University Library of Slovenia is the national library of Slovenia and the library of the University of Ljubljana. Its building, designed by Jože Plečnik, was completed in 1941. The facade combines brick and stone blocks in an irregular pattern.",
     "When was Plečnik's library building in Ljubljana completed?"),
    ("wiki/Vintgar Gorge", "Vintgar Gorge",
     "Vintgar Gorge is a 1.6 km long gorge in northwestern Slovenia, 4 km northwest of Bled. It was carved by the Radovna River. The gorge was discovered in 1891 by the photographer Benedikt Lergetporer and the cartographer Jakob Žumer and opened to visitors in 1893.",
     "Who discovered the gorge near Bled together with Jakob Žumer?"),
])  # fmt: skip

DE_OEPNV = _pool("de", [
    ("faq/deutschlandticket-preis", "Preis",
     "Das Deutschlandticket kostet seit dem 1. Januar 2026 monatlich 63 Euro. Es gilt bundesweit in allen Bussen, Straßenbahnen, U- und S-Bahnen sowie in den Nahverkehrszügen der 2. Klasse. Fernzüge wie ICE, IC und EC sind ausgeschlossen.",
     "Gilt das Deutschlandticket im ICE?"),
    ("faq/deutschlandticket-kuendigung", "Kündigung",
     "Das Deutschlandticket ist ein Abonnement und monatlich kündbar. Die Kündigung muss bis zum 10. eines Monats eingehen, damit sie zum Monatsende wirksam wird. Eine spätere Kündigung wirkt erst zum Ende des Folgemonats.",
     "Bis wann muss ich das Deutschlandticket kündigen?"),
    ("faq/fahrradmitnahme", "Fahrradmitnahme",
     "Die Mitnahme von Fahrrädern ist im Deutschlandticket nicht enthalten. Ob und zu welchem Preis ein Fahrrad mitgenommen werden darf, regelt jeder Verkehrsverbund selbst. Im Verbundgebiet der Stadtwerke ist die Mitnahme werktags ab 9 Uhr und am Wochenende ganztägig kostenlos.",
     "Darf ich mein Fahrrad morgens um 8 Uhr kostenlos mitnehmen?"),
    ("faq/kinder", "Kinder",
     "Kinder unter 6 Jahren fahren kostenlos. Ältere Kinder brauchen ein eigenes Ticket; eine Mitnahmeregelung für Kinder gibt es beim Deutschlandticket bundesweit nicht. Einzelne Verbünde erlauben aber die kostenlose Mitnahme eigener Kinder unter 15 Jahren.",
     "Ab welchem Alter brauchen Kinder ein eigenes Ticket?"),
    ("faq/jobticket", "Jobticket",
     "Arbeitgeber können das Deutschlandticket als Jobticket anbieten. Wenn sie mindestens 25 Prozent des Preises übernehmen, gewähren die Verkehrsunternehmen zusätzlich 5 Prozent Rabatt. Der Zuschuss des Arbeitgebers ist für Beschäftigte steuerfrei.",
     "Wie viel Rabatt gibt es beim Jobticket?"),
    ("faq/semesterticket", "Semesterticket",
     "Studierende mit einem Semesterticket können es gegen Zahlung der Differenz zum Deutschlandticket-Preis auf ein Deutschlandticket upgraden. Das Upgrade gilt jeweils für einen Monat und kann im Kundenportal gebucht werden.",
     "Kann ich mein Semesterticket upgraden?"),
    ("faq/verlust", "Verlust des Tickets",
     "Ist das Deutschlandticket als Chipkarte verloren gegangen, stellen wir gegen eine Gebühr von 10 Euro eine Ersatzkarte aus. Das Handyticket kann nach dem Gerätewechsel in der App erneut geladen werden; dafür fällt keine Gebühr an.",
     "Was kostet eine Ersatzkarte bei Verlust?"),
])  # fmt: skip

AR_WEB = _pool("ar", [
    ("https://www.riyadhmetro.sa/ar/tickets", "تذاكر مترو الرياض",
     "تبدأ أسعار تذاكر مترو الرياض من 4 ريالات لرحلة مدتها ساعتان، ويمكن شراء تذكرة يومية بسعر 10 ريالات أو تذكرة لمدة 7 أيام بسعر 40 ريالاً. تتوفر الدرجة الأولى بأسعار أعلى. ويمكن الدفع ببطاقة درب أو بالبطاقات البنكية اللاتلامسية مباشرة عند البوابات.",
     "كم سعر التذكرة اليومية في مترو الرياض؟"),
    ("https://www.riyadhmetro.sa/ar/lines", "خطوط مترو الرياض",
     "يتكون مترو الرياض من ستة خطوط بطول إجمالي يبلغ 176 كيلومتراً و85 محطة. الخط الأزرق هو الأطول ويمتد على طريق العليا والبطحاء، بينما يربط الخط الأصفر مطار الملك خالد الدولي بمركز الملك عبدالله المالي.",
     "أي خط في مترو الرياض يصل إلى المطار؟"),
    ("https://www.spa.gov.sa/news/umrah-visa", "تأشيرة العمرة",
     "أعلنت وزارة الحج والعمرة أن تأشيرة العمرة الإلكترونية أصبحت صالحة لمدة 90 يوماً بدلاً من 30 يوماً، ويمكن لحاملها التنقل بين مدن المملكة خلال فترة صلاحيتها. ويجب حجز موعد أداء العمرة عبر تطبيق نسك قبل الوصول إلى المسجد الحرام.",
     "كم مدة صلاحية تأشيرة العمرة الآن؟"),
    ("https://www.alarabiya.net/aswaq/2026/riyadh-season", "موسم الرياض",
     "انطلق موسم الرياض في نسخته الجديدة بمشاركة أكثر من 14 منطقة ترفيهية، من بينها بوليفارد وورلد وونتر وندرلاند. وتُباع التذاكر حصرياً عبر منصة ويبوك، وتختلف أسعارها بحسب المنطقة والفعالية.",
     "من أين تُشترى تذاكر موسم الرياض؟"),
    ("https://www.mot.gov.sa/ar/taxi-rules", "أنظمة سيارات الأجرة",
     "تُلزم الهيئة العامة للنقل سيارات الأجرة العامة بتشغيل العداد في جميع الرحلات داخل المدن، وتبلغ التعرفة الافتتاحية 10 ريالات. ويحق للراكب رفض دفع الأجرة إذا لم يُشغَّل العداد، مع إمكانية تقديم بلاغ عبر الرقم 19929.",
     "ما رقم تقديم بلاغ عن سيارة أجرة؟"),
    ("https://www.sdaia.gov.sa/ar/tawakkalna", "تطبيق توكلنا",
     "يتيح تطبيق توكلنا الوصول إلى أكثر من 500 خدمة حكومية، منها عرض الهوية الرقمية ورخصة القيادة واستمارة المركبة. وتُعد الهوية الرقمية في التطبيق بديلاً رسمياً عن الهوية الوطنية في معظم الجهات داخل المملكة.",
     "هل تُقبل الهوية الرقمية في توكلنا بديلاً عن الهوية الوطنية؟"),
    ("https://www.riyadhmetro.sa/ar/hours", "مواعيد تشغيل المترو",
     "يعمل مترو الرياض يومياً من الساعة السادسة صباحاً حتى منتصف الليل، ويبدأ التشغيل يوم الجمعة من الساعة العاشرة صباحاً. وتصل القطارات كل أربع دقائق تقريباً في أوقات الذروة.",
     "متى يبدأ تشغيل مترو الرياض يوم الجمعة؟"),
])  # fmt: skip

CS_ENERGIE = _pool("cs", [
    ("cenik/distribucni-sazby", "Distribuční sazby",
     "Distribuční sazby pro domácnosti\n\n| Sazba | Nízký tarif | Typické použití |\n|---|---|---|\n| D01d | ne | malá spotřeba, byt bez elektrického vytápění |\n| D02d | ne | běžná domácnost |\n| D25d | 8 hodin denně | akumulační ohřev vody |\n| D57d | 20 hodin denně | tepelné čerpadlo |\n\nO přidělení sazby rozhoduje distributor podle spotřebičů v odběrném místě.",
     "Kolik hodin nízkého tarifu má sazba D25d?"),
    ("podminky/zalohy", "Zálohy",
     "Výši záloh stanovujeme podle spotřeby za posledních 12 měsíců. Zálohy můžete sami upravit v zákaznickém portálu, a to nejvýše o 30 % dolů oproti našemu návrhu. Vyúčtování posíláme jednou ročně, přeplatek vracíme do 15 dnů.",
     "Do kdy vracíte přeplatek z vyúčtování?"),
    ("podminky/zmena-dodavatele", "Změna dodavatele",
     "Změna dodavatele je zdarma a trvá nejvýše 5 pracovních dnů od podání žádosti. Smlouvu s dosavadním dodavatelem za vás vypovíme na základě plné moci. Smlouvu uzavřenou na dálku můžete do 14 dnů bez udání důvodu odvolat.",
     "Jak dlouho trvá změna dodavatele?"),
    ("podminky/vypoved", "Výpověď smlouvy",
     "Smlouvu na dobu neurčitou můžete vypovědět kdykoli s výpovědní dobou 1 měsíc, která začíná prvním dnem měsíce následujícího po doručení výpovědi. Smlouvu na dobu určitou lze vypovědět bez sankce pouze při změně ceny nebo stěhování.",
     "Jaká je výpovědní doba u smlouvy na dobu neurčitou?"),
    ("cenik/fotovoltaika", "Výkup přetoků z fotovoltaiky",
     "Přetoky z domácí fotovoltaiky vykupujeme za cenu odvozenou od spotové ceny na denním trhu OTE, sníženou o 450 Kč/MWh. Vyúčtování přetoků probíhá měsíčně. Podmínkou je smlouva o připojení výrobny a osazený čtyřkvadrantní elektroměr.",
     "Jak se počítá výkupní cena přetoků?"),
    ("podminky/reklamace", "Reklamace vyúčtování",
     "Reklamaci vyúčtování je nutné podat písemně nebo přes portál do 60 dnů od doručení faktury. Na reklamaci odpovíme do 15 dnů. Podání reklamace neodkládá splatnost faktury, pokud se nedohodneme jinak.",
     "Do kdy musím reklamovat vyúčtování?"),
    ("cenik/jistic", "Cena za jistič",
     "Stálý měsíční plat za jistič závisí na jeho velikosti a sazbě:\n\n| Jistič | D02d | D25d |\n|---|---|---|\n| 3×20 A | 198 Kč | 242 Kč |\n| 3×25 A | 248 Kč | 303 Kč |\n| 3×32 A | 317 Kč | 388 Kč |\n\nCeny jsou uvedeny včetně DPH.",
     "Kolik stojí měsíčně jistič 3×25 A v sazbě D02d?"),
])  # fmt: skip

JA_WEB = _pool("ja", [
    ("https://www.jma.go.jp/jma/kishou/know/yougo_hp/kion.html", "気象庁｜気温に関する用語",
     "猛暑日は日最高気温が35℃以上の日、真夏日は30℃以上の日、夏日は25℃以上の日をいう。また、夜間の最低気温が25℃以上のことを熱帯夜という。なお、日最高気温が40℃以上の日について気象庁は正式な名称を定めていない。",
     "真夏日と猛暑日の違いは何ですか"),
    ("https://www.wbgt.env.go.jp/alert.php", "熱中症警戒アラート（環境省）",
     "熱中症警戒アラートは、暑さ指数（WBGT）が33以上になると予測された場合に、前日の17時頃と当日の5時頃に都道府県ごとに発表される。2024年からは、WBGTが35以上と予測された場合に、より上位の熱中症特別警戒アラートが発表される。",
     "熱中症警戒アラートはWBGTがいくつ以上で出ますか"),
    ("https://www.nikkei.com/article/DGXZQOUA0812W0Y6A800C2000000/", "東京都心、年間の猛暑日が過去最多に",
     "東京都心で今年の猛暑日が合計27日となり、統計を取り始めた1875年以降で最多となった。これまでの最多は2023年の22日だった。気象庁は、太平洋高気圧の張り出しが例年より強かったことが要因とみている。",
     "東京都心の猛暑日の年間最多記録は何日ですか"),
    ("https://www.mhlw.go.jp/stf/seisakunitsuite/bunya/kenkou_iryou/kenkou/nettyuu/", "熱中症予防のために（厚生労働省）",
     "熱中症を防ぐには、のどが渇く前にこまめに水分を補給し、大量に汗をかいたときは塩分も補給することが大切です。エアコンは室温28℃を目安に使用し、扇風機を併用すると効果的です。高齢者は暑さを感じにくいため、周囲の声かけが重要です。",
     "エアコンの室温は何度を目安にすればいいですか"),
    ("https://www.fdma.go.jp/disaster/heatstroke/post3.html", "熱中症による救急搬送状況（総務省消防庁）",
     "5月から9月までの全国の熱中症による救急搬送人員は累計9万7,578人で、調査開始以来最多となった。年齢区分別では満65歳以上の高齢者が最も多く、全体の57.4%を占めた。発生場所は住居が最も多かった。",
     "熱中症で救急搬送された人のうち高齢者の割合は"),
    ("https://ja.wikipedia.org/wiki/ヒートアイランド", "ヒートアイランド - Wikipedia",
     "ヒートアイランドとは、都市部の気温が郊外に比べて高くなる現象である。主な原因は、アスファルトやコンクリートによる地表面の被覆、建物や自動車からの人工排熱、緑地の減少などである。東京ではこの100年で年平均気温が約3℃上昇しており、そのうち約2℃がヒートアイランドの影響と推定されている。",
     "東京の気温上昇のうちヒートアイランドの影響はどれくらいですか"),
])  # fmt: skip

TR_INTENTS = _pool("tr", [
    ("fewshot/iade", "iade", "iade_talebi", "Aldığım ayakkabı küçük geldi, nasıl iade edebilirim?"),
    ("fewshot/kargo", "kargo", "kargo_takibi", "Siparişim üç gündür 'dağıtımda' görünüyor ama hâlâ gelmedi"),
    ("fewshot/fatura", "fatura", "fatura_talebi", "Şirketim adına fatura kesilmesini istiyorum, vergi numaramı nereye yazacağım?"),
    ("fewshot/odeme", "odeme", "odeme_sorunu", "Kartımdan iki kez çekim yapılmış, bir tanesini geri alabilir miyim?"),
    ("fewshot/hesap", "hesap", "hesap_islemleri", "E-posta adresimi değiştirmek istiyorum ama doğrulama kodu gelmiyor"),
    ("fewshot/urun", "urun", "urun_bilgisi", "Bu kahve makinesi 220 volt ile çalışıyor mu, garantisi kaç yıl?"),
    ("fewshot/iptal", "iptal", "siparis_iptali", "Siparişi yanlışlıkla verdim, kargoya verilmeden iptal edebilir miyim?"),
    ("fewshot/kampanya", "kampanya", "kampanya_sorusu", "Sepette yüzde 20 indirim kodu çalışmıyor, son kullanma tarihi geçmiş mi?"),
])  # fmt: skip

FEWSHOT_EXAMPLES = [
    ("Paketim hasarlı geldi, içindeki bardaklar kırık. Ne yapmalıyım?", "iade_talebi"),
    ("Kargom hangi şubede bekliyor, takip numarası çalışmıyor", "kargo_takibi"),
    ("Geçen ayki siparişimin faturasını e-posta ile alabilir miyim?", "fatura_talebi"),
    ("Ödeme sayfasında 3D Secure ekranı açılmıyor", "odeme_sorunu"),
    ("Şifremi unuttum, sıfırlama e-postası gelmedi", "hesap_islemleri"),
    ("Bu telefonun kutusundan şarj adaptörü çıkıyor mu?", "urun_bilgisi"),
    ("Dün verdiğim siparişi iptal etmek istiyorum", "siparis_iptali"),
    ("Öğrenci indirimi hangi ürünlerde geçerli?", "kampanya_sorusu"),
    ("Yanlış beden geldi, değişim yapabilir miyim?", "iade_talebi"),
    ("Kapıda ödeme seçeneği neden görünmüyor?", "odeme_sorunu"),
    ("Hesabımı tamamen silmek istiyorum", "hesap_islemleri"),
    ("Kargo firması adresimi bulamamış, tekrar gönderilecek mi?", "kargo_takibi"),
]


# --- templates ---------------------------------------------------------------------------------------------

CONDENSE_PLUS_CONTEXT = """The following is a friendly conversation between a user and an AI assistant.
The assistant is talkative and provides lots of specific details from its context.
If the assistant does not know the answer to a question, it truthfully says it
does not know.

Here are the relevant documents for the context:

{context_str}

Instruction: Based on the above documents, provide a detailed answer for the user question below.
Answer "don't know" if not present in the document."""
FI_HISTORY = [
    (
        "Milloin taloyhtiön kevättalkoot pidetään?",
        "En löydä asiakirjoista tietoa kevättalkoiden ajankohdasta. Kannattaa tarkistaa asia ilmoitustaululta tai isännöitsijältä.",
    ),
    (
        "Entä kuka on isännöitsijä?",
        "Asiakirjoissa ei mainita isännöitsijän nimeä, mutta saunavuorot jaetaan isännöitsijän toimistosta.",
    ),
]


def condense_plus_context_fi(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LlamaIndex's CondensePlusContextChatEngine (from memory of its default context prompt): each node as
    get_content(metadata_mode=LLM), its 'page_label: n' and 'file_name: …' lines, a blank line and the text,
    nodes joined by blank lines, in the system message; chat history, the user's message. Since the first
    turn is sent as asked, and with history the engine retrieves with the condensed question but sends the
    user's own. A Finnish housing company's house rules."""
    keep(docs, question, rng.randint(2, 5))
    nodes = []
    for d in docs:
        page = 1 + sum(map(ord, d.title)) % 9
        nodes.append(f"page_label: {page}\nfile_name: {d.source}\n\n{d.text}")
    system = CONDENSE_PLUS_CONTEXT.replace("{context_str}", "\n\n".join(nodes))
    history = [m for u, a in FI_HISTORY[: rng.randint(0, 2)] for m in (_msg("user", u), _msg("assistant", a))]
    return [_msg("system", system), *history, _msg("user", question)]


AZURE_CHAT_SYSTEM = """Assistant helps the company employees with their healthcare plan questions, and questions about the employee handbook. Be brief in your answers.
Answer ONLY with the facts listed in the list of sources below. If there isn't enough information below, say you don't know. Do not generate answers that don't use the sources below. If asking a clarifying question to the user would help, ask the question.
For tabular information return it as an html table. Do not return markdown format. If the question is not in English, answer in the language used in the question.
Each source has a name followed by colon and the actual information, always include the source name for each fact you use in the response. Use square brackets to reference the source, for example [info1.txt]. Don't combine sources, list each source separately, for example [info1.txt][info2.pdf].
"""
AZURE_ASK_SYSTEM = "You are an intelligent assistant helping Harrowgate employees with their healthcare plan questions and employee handbook questions. Use 'you' to refer to the individual asking the questions even if they ask with 'I'. Answer the following question using only the data provided in the sources below. For tabular information return it as an html table. Do not return markdown format. Each source has a name followed by colon and the actual information, always include the source name for each fact you use in the response. If you cannot answer using the sources below, say you don't know. Use below example to answer"
AZURE_ASK_EXAMPLE_Q = """
'What is the deductible for the employee plan for a visit to Overlake in Bellevue?'

Sources:
info1.txt: deductibles depend on whether you are in-network or out-of-network. In-network deductibles are $500 for employee and $1000 for family. Out-of-network deductibles are $1000 for employee and $2000 for family.
info2.pdf: Overlake is in-network for the employee plan.
info3.pdf: Overlake is the name of the area that includes a park and ride near Bellevue.
info4.pdf: In-network institutions include Overlake, Swedish and others in the region
"""
AZURE_ASK_EXAMPLE_A = "In-network deductibles are $500 for employee and $1000 for family [info1.txt] and Overlake is in-network for the employee plan [info2.pdf][info4.pdf]."
AZURE_HISTORY = [
    (
        "Which health plans can I choose from?",
        "You can choose between Harrowgate Standard and Harrowgate Plus [Benefit_Options-1.pdf].\n\n<<Which plan covers out-of-network care?>>",
    ),
]


def azure_search_demo_router(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """azure-search-openai-demo (from memory of its two approaches, rebranded): the chat tab's
    ChatReadRetrieveRead (system prompt, history, then the user turn '<question>\\n\\nSources:\\n' with one
    '<sourcepage>: <content>' line per document) and the ask tab's RetrieveThenRead (its own system prompt,
    a worked example with its own info1.txt-info4.pdf sources and answer, then the question and sources).
    Both run nonewlines() over the content, so every document's line breaks are spaces in the prompt. An
    English employee-benefits assistant; the frontend sends either kind."""
    keep(docs, question, rng.randint(1, 5))
    sources = "\n".join(f"{d.source}: {nonewlines(d.text)}" for d in docs)
    if rng.random() < 0.5:
        history = [
            m for u, a in AZURE_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))
        ]
        return [
            _msg("system", AZURE_CHAT_SYSTEM),
            *history,
            _msg("user", f"{question}\n\nSources:\n{sources}"),
        ]
    return [
        _msg("system", AZURE_ASK_SYSTEM),
        _msg("user", AZURE_ASK_EXAMPLE_Q),
        _msg("assistant", AZURE_ASK_EXAMPLE_A),
        _msg("user", f"{question}\nSources:\n{sources}"),
    ]


CHERRY_REFERENCE = """请根据参考资料回答问题

## 标注规则：
- 请在适当的情况下在句子末尾引用上下文。
- 请按照引用编号[number]的格式在答案中对应部分引用上下文。
- 如果一句话源自多个上下文，请列出所有相关的引用编号，例如[1][2]，切记不要将引用集中在最后返回引用编号，而是在答案对应部分列出。

## 我的问题是：

{question}

## 参考资料：

```json
{references}
```

请使用与用户问题相同的语言进行回答。
"""


def cherry_studio_zh(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Cherry Studio's knowledge-base reference prompt (from memory): the user's message replaced by the
    citation rules, the question under '## 我的问题是：', then the references as a fenced JSON array of
    {id, content, sourceUrl, type} (indent 2, Chinese kept), the answer-language line. A 3D printer maker's
    support knowledge base; a short system prompt set by the user in half the conversations."""
    refs = [
        {"id": i, "content": d.text, "sourceUrl": f"file:///D:/知识库/{d.source}", "type": "file"}
        for i, d in enumerate(docs, 1)
    ]
    user = CHERRY_REFERENCE.replace("{question}", question).replace(
        "{references}", json.dumps(refs, ensure_ascii=False, indent=2)
    )
    system = [_msg("system", "你是拓印科技的售后客服助手，回答要简洁、友好。")] if rng.random() < 0.5 else []
    return [*system, _msg("user", user)]


LIGHTRAG_NAIVE = """---Role---

You are a helpful assistant responding to user query about Document Chunks provided below.

---Goal---

Generate a concise response based on Document Chunks and follow Response Rules, considering both the conversation history and the current query. Summarize all information in the provided Document Chunks, and incorporating general knowledge relevant to the Document Chunks. Do not include information not provided by Document Chunks.

When handling content with timestamps:
1. Each piece of content has a "created_at" timestamp indicating when we acquired this knowledge
2. When encountering conflicting information, consider both the content and the timestamp
3. Don't automatically prefer the most recent content - use judgment based on the context

---Conversation History---
{history}

---Document Chunks---
{content_data}

---Response Rules---

- Target format and length: Multiple Paragraphs
- Use markdown formatting with appropriate section headings
- Please respond in the same language as the user's question.
- Ensure the response maintains continuity with the conversation history.
- If you don't know the answer, just say so.
- Do not include information not provided by the Document Chunks."""
TH_HISTORY = [
    (
        "ประกันสังคมมาตรา 33 คืออะไร",
        "มาตรา 33 คือผู้ประกันตนที่เป็นลูกจ้างในสถานประกอบการ ซึ่งนายจ้างและลูกจ้างจ่ายเงินสมทบร่วมกัน",
    ),
    ("แล้วมาตรา 39 ล่ะ", "มาตรา 39 คือผู้ที่เคยเป็นผู้ประกันตนมาตรา 33 แล้วลาออก และสมัครจ่ายเงินสมทบต่อเอง"),
]


def lightrag_naive_th(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LightRAG's naive mode (from memory of naive_rag_response): the system prompt holds the conversation
    history as 'user: …' / 'assistant: …' lines and the chunks joined by '\\n--New Chunk--\\n'; the query is
    the user turn. A Thai social-security information service (Thai has no sentence full stops)."""
    turns = TH_HISTORY[: rng.randint(0, 2)]
    history = "\n".join(f"user: {u}\nassistant: {a}" for u, a in turns)
    system = LIGHTRAG_NAIVE.replace("{history}", history).replace(
        "{content_data}", "\n--New Chunk--\n".join(d.text for d in docs)
    )
    return [_msg("system", system), _msg("user", question)]


DOCSGPT_DEFAULT = """You are a helpful AI assistant, DocsGPT. You are here to help people with their questions about the documentation of facturala.
When using code examples, use the following format:
```(language)
(code)
```
Be friendly, concise and helpful. If you don't know the answer, say that you don't know.
----------------
{summaries}"""
DOCSGPT_STRICT = """You are an AI Assistant, DocsGPT, adept at offering document assistance.
Your expertise lies in providing answers on top of provided context.
You can leverage the chat history if needed.
Answer the question based on the context below.
Keep the answer concise. If the answer can't be found in the context, respond with "No encuentro esa información en la documentación".
----------------
Context:
{summaries}
----------------
Answer in the same language as the question."""
ES_HISTORY = [
    (
        "¿facturala funciona con Facturae 3.2.2?",
        "Sí. El comando `facturala validar` comprueba el XML contra el esquema XSD de Facturae 3.2.2.",
    ),
]


def _docsgpt(docs: list[Doc], question: str, rng: random.Random, strict: bool) -> Messages:
    """DocsGPT (from memory of its chat_combine prompts), redeployed half-way: the retrieved chunks joined by
    single line breaks into '{summaries}' at the end of the system prompt, chat history as turns, the
    question; first the default prompt, then after an update the 'strict' prompt with 'Context:' and a closing
    line after the chunks. A Spanish open-source e-invoicing library's docs (markdown, code, a table)."""
    keep(docs, question, rng.randint(1, 4))
    system = (DOCSGPT_STRICT if strict else DOCSGPT_DEFAULT).replace(
        "{summaries}", "\n".join(d.text for d in docs)
    )
    history = [m for u, a in ES_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))]
    return [_msg("system", system), *history, _msg("user", question)]


docsgpt_es = halves(_docsgpt)

ELASTIC_RAG = """Use the following passages and chat history to answer the user's question. Each passage has a NAME which is the title of the document. After your answer, leave a blank line and then give the source name of the passages you answered from. Put them in a comma separated list, prefixed with SOURCES:.

Example:

Question: What is the meaning of life?
Response:
The meaning of life is 42.

SOURCES: Hitchhiker's Guide to the Galaxy

If you don't know the answer, just say that you don't know, don't try to make up an answer.

----

{passages}----
Chat history:
{history}Question: {question}
Response:"""
EN_ELASTIC_HISTORY = [
    (
        "Do we have a learning budget?",
        "Yes, every employee has an annual learning budget.\n\nSOURCES: Learning and development",
    )
]


def elastic_chatbot_rag(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Elastic's chatbot-rag-app (from memory of its rag_prompt.txt Jinja template): an example block, then
    each passage as '---\\nNAME: title\\nPASSAGE:\\ntext\\n---' followed by a blank line, '----', the chat
    history as 'Question:' / 'Response:' lines and the question; one user message. An English workplace
    search over an HR handbook."""
    keep(docs, question, rng.randint(2, 6))
    passages = "".join(f"---\nNAME: {d.title}\nPASSAGE:\n{d.text}\n---\n\n" for d in docs)
    turns = EN_ELASTIC_HISTORY[: rng.randint(0, 1)]
    history = "".join(f"Question: {u}\nResponse: {a}\n" for u, a in turns)
    return [
        _msg(
            "user",
            ELASTIC_RAG.replace("{passages}", passages)
            .replace("{history}", history)
            .replace("{question}", question),
        )
    ]


LANGFLOW_RAG = """{context}

---

Given the context above, answer the question as best as possible.

Question: {question}

Answer: """


def langflow_vector_rag_id(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Langflow's Vector Store RAG starter flow (from memory): the Parser component renders each search result
    with '{text}' and joins them with its default separator, one line break; the Prompt component's template
    puts them above a '---' rule, the question after. One user message (the OpenAI component's system message
    left empty). An Indonesian marketplace seller centre; chunks with their own line breaks."""
    keep(docs, question, rng.randint(1, 8))
    return [
        _msg(
            "user",
            LANGFLOW_RAG.replace("{context}", "\n".join(d.text for d in docs)).replace(
                "{question}", question
            ),
        )
    ]


CLINE_SYSTEM = """You are Cline, a highly skilled software engineer with extensive knowledge in many programming languages, frameworks, design patterns, and best practices.

====

TOOL USE

You have access to a set of tools that are executed upon the user's approval. You can use one tool per message, and will receive the result of that tool use in the user's response. You use tools step-by-step to accomplish a given task, with each tool use informed by the result of the previous tool use.

# Tool Use Formatting

Tool use is formatted using XML-style tags. The tool name is enclosed in opening and closing tags, and each parameter is similarly enclosed within its own set of tags.

## read_file
Description: Request to read the contents of a file at the specified path. Use this when you need to examine the contents of an existing file you do not know the contents of.
Parameters:
- path: (required) The path of the file to read (relative to the current working directory /home/minji/order-api)
Usage:
<read_file>
<path>File path here</path>
</read_file>

## attempt_completion
Description: After each tool use, the user will respond with the result of that tool use. Once you can confirm that the task is complete, use this tool to present the result of your work to the user.

====

RULES

- Your current working directory is: /home/minji/order-api
- Do not ask for more information than necessary. Use the tools provided to accomplish the user's request efficiently."""


def _environment(visible: str, minute: int) -> str:
    return (
        "<environment_details>\n# VSCode Visible Files\n" + visible + "\n\n# VSCode Open Tabs\n" + visible
        + f"\n\n# Current Time\n2026. 11. 27. 오후 3:{minute:02d}:11 (Asia/Seoul, UTC+9:00)\n\n# Current Mode\nACT MODE\n</environment_details>"
    )  # fmt: skip


def cline_read_file_ko(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Cline's agent loop (from memory of its system prompt and tool results, shortened): the task in
    '<task>' with '<environment_details>', then per file an assistant turn '<read_file><path>…</path>
    </read_file>' and a user turn '[read_file for 'path'] Result:' with the file's text, then the environment
    details again. Every file the agent read is a document, one per turn. A Korean team's FastAPI service."""
    keep(docs, question, rng.randint(1, 4))
    minute = rng.randint(0, 50)
    messages = [
        _msg("system", CLINE_SYSTEM),
        _msg("user", f"<task>\n{question}\n</task>\n\n{_environment(docs[0].source, minute)}"),
    ]
    for i, d in enumerate(docs):
        messages.append(
            _msg(
                "assistant",
                f"{'파일을 확인해 보겠습니다.' if i == 0 else '관련 파일도 읽어 보겠습니다.'}\n\n<read_file>\n<path>{d.source}</path>\n</read_file>",
            )
        )
        messages.append(
            _msg(
                "user",
                f"[read_file for '{d.source}'] Result:\n\n{d.text}\n\n{_environment(d.source, minute + i + 1)}",
            )
        )
    return messages


FETCH_SYSTEM = "Tu es un assistant qui répond aux questions des usagers sur les démarches administratives françaises. Utilise l'outil fetch_url pour lire les pages officielles, puis réponds en citant la page."


def jina_reader_fr(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A tool-calling agent whose fetch tool goes through Jina Reader (r.jina.ai) (from memory of its output):
    each page as 'Title: …', 'URL Source: …', 'Published Time: …' (when the page has one) and 'Markdown
    Content:' then the page as markdown, one tool message per fetched page, one to three pages. French
    public-service pages."""
    keep(docs, question, rng.randint(1, 3))
    messages = [_msg("system", FETCH_SYSTEM), _msg("user", question)]
    for d in docs:
        messages.append(_tool_call("fetch_url", {"url": f"https://r.jina.ai/{d.source}"}, rng))
        published = (
            f"Published Time: 2026-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d}T09:{rng.randint(10, 59)}:00+01:00\n\n"
            if rng.random() < 0.6
            else ""
        )
        body = f"Title: {d.title}\n\nURL Source: {d.source}\n\n{published}Markdown Content:\n{d.text}"
        messages.append(_msg("tool", body, tool_call_id=messages[-1]["tool_calls"][0]["id"]))
    return messages


PAPERQA_SUMMARY = """Summarize the excerpt below to help answer a question.

Excerpt from {citation}

------------

{text}

------------

Question: {question}

Do not directly answer the question, instead summarize to give evidence to help answer the question. Stay detailed; report specific numbers, equations, or direct quotes (marked with quotation marks). Reply "Not applicable" if the excerpt is irrelevant. At the end of your response, provide an integer score from 1-10 on a newline indicating relevance to question. Do not explain your score.

Relevant Information Summary (about 100 words):"""
PAPERQA_SYSTEM = "Answer in a direct and concise tone. Your audience is an expert, so be highly specific. If there are ambiguous terms or acronyms, first define them."


def paperqa_evidence(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """PaperQA2's evidence-gathering step (from memory of its summary prompt): one call per retrieved chunk,
    the chunk's citation after 'Excerpt from', the chunk between '------------' rules, the question, the
    summary instruction. Battery and photovoltaic materials papers."""
    keep(docs, question, 1)
    d = docs[0]
    user = (
        PAPERQA_SUMMARY.replace("{citation}", d.title)
        .replace("{text}", d.text)
        .replace("{question}", question)
    )
    return [_msg("system", PAPERQA_SYSTEM), _msg("user", user)]


IRCOT_DEMOS = """Wikipedia Title: Kurram Garhi
Kurram Garhi is a small village located near the city of Bannu, which is the part of Khyber Pakhtunkhwa province of Pakistan. Its population is approximately 35000.

Wikipedia Title: Trojkrsti
Trojkrsti is a village in Municipality of Prilep, Republic of Macedonia.

Q: Are both Kurram Garhi and Trojkrsti located in the same country?
A: Kurram Garhi is located in the country of Pakistan. Trojkrsti is located in the country of Republic of Macedonia. Thus, they are not in the same country. So the answer is: no.


Wikipedia Title: Dennis Donnelly
Dennis Donnelly is an American television director, producer, and writer, best known for directing episodes of The A-Team, Hart to Hart and Dallas.

Wikipedia Title: The Secret Invasion
The Secret Invasion is a 1964 war film directed by Roger Corman.

Q: Who was born first, the director of The Secret Invasion or Dennis Donnelly?
A: The Secret Invasion was directed by Roger Corman, born on April 5, 1926. Dennis Donnelly was born in 1938. Thus, Roger Corman was born first. So the answer is: Roger Corman.


"""


def ircot_reader(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """IRCoT's chain-of-thought reader (from memory of the paper's prompts): demonstrations, each its own
    'Wikipedia Title: t' paragraphs then 'Q:' and a reasoning 'A:', then the test paragraphs the same way
    and 'Q: … A:'. One completion-style user message. Slovenian geography, multi-hop questions."""
    keep(docs, question, rng.randint(2, 8))
    paragraphs = "\n\n".join(f"Wikipedia Title: {d.title}\n{d.text}" for d in docs)
    return [
        _msg(
            "user",
            f"{IRCOT_DEMOS}{paragraphs}\n\nQ: Answer the following question by reasoning step-by-step. {question}\nA:",
        )
    ]


DEEPEVAL_RELEVANCY = """Based on the input and context, please generate a JSON object to indicate whether each statement found in the context is relevant to the provided input. The JSON will be a list of 'verdicts', with 2 mandatory fields: 'verdict' and 'statement', and 1 optional field: 'reason'.
You should first extract statements found in the context, which are high level information found in the context, before deciding on a verdict and optionally a reason for each statement.
The 'verdict' key should STRICTLY be either 'yes' or 'no', and states whether the statement is relevant to the input.
Provide a 'reason' ONLY IF verdict is no. You MUST quote the irrelevant parts of the statement to back up your reason.

**
IMPORTANT: Please make sure to only return in JSON format.
Example Context: "Einstein won the Nobel Prize for his discovery of the photoelectric effect. He won the Nobel Prize in 1968. There was a cat."
Example Input: "What were some of Einstein's achievements?"

Example:
{
    "verdicts": [
        {
            "verdict": "yes",
            "statement": "Einstein won the Nobel Prize for his discovery of the photoelectric effect in 1968",
        },
        {
            "verdict": "no",
            "statement": "There was a cat.",
            "reason": "The retrieval context contained the information 'There was a cat' when it has nothing to do with Einstein's achievements."
        }
    ]
}
**

Input:
{input}

Context:
{context}

JSON:
"""


def deepeval_contextual_relevancy_de(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """DeepEval's contextual relevancy metric (from memory of its verdicts template): one call per retrieval-context node, the user's input
    and the node after the instructions and a worked example with its own context. A German transit
    operator's CI run over its FAQ bot's traces."""
    keep(docs, question, 1)
    return [_msg("user", DEEPEVAL_RELEVANCY.replace("{input}", question).replace("{context}", docs[0].text))]


HF_SYSTEM = "أنت مساعد بحث يجيب باللغة العربية الفصحى ويستشهد بالمصادر."
AR_QUERIES = {
    "كم سعر التذكرة اليومية في مترو الرياض؟": "سعر التذكرة اليومية مترو الرياض",
    "أي خط في مترو الرياض يصل إلى المطار؟": "خط مترو الرياض المطار",
    "كم مدة صلاحية تأشيرة العمرة الآن؟": "مدة صلاحية تأشيرة العمرة",
    "من أين تُشترى تذاكر موسم الرياض؟": "شراء تذاكر موسم الرياض",
    "ما رقم تقديم بلاغ عن سيارة أجرة؟": "رقم بلاغ سيارات الأجرة الهيئة العامة للنقل",
    "هل تُقبل الهوية الرقمية في توكلنا بديلاً عن الهوية الوطنية؟": "الهوية الرقمية توكلنا بديل الهوية الوطنية",
    "متى يبدأ تشغيل مترو الرياض يوم الجمعة؟": "مواعيد تشغيل مترو الرياض الجمعة",
}
AR_HISTORY = [("ما هو مترو الرياض؟", "مترو الرياض شبكة نقل عام حضرية في العاصمة السعودية افتُتحت على مراحل.")]


def hf_chat_ui_websearch_ar(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Hugging Face chat-ui's web search (from memory of its prompt, wording may drift): the last user message
    rewritten as 'I searched the web using the query: …. Today is … and here are the results:' then
    '=====================' rules around the results (each 'Title: …' line, a blank line, the page's text),
    and 'So my question is: …'; the search query the model wrote shares words with the question. Earlier
    turns stay as they were asked. Arabic web pages."""
    keep(docs, question, rng.randint(1, 5))
    results = "\n\n".join(f"Title: {d.title}\n\n{d.text}" for d in docs)
    when = f"{['Monday', 'Tuesday', 'Thursday', 'Saturday'][rng.randrange(4)]}, November {rng.randint(2, 28)}, 2026"
    user = (
        f"I searched the web using the query: {AR_QUERIES[question]}. Today is {when} and here are the results:\n"
        f"=====================\n{results}\n=====================\nSo my question is: {question}"
    )
    history = [m for u, a in AR_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))]
    return [_msg("system", HF_SYSTEM), *history, _msg("user", user)]


NVIDIA_RAG = """You are a helpful AI assistant named Envie.
You will reply to questions only based on the context that you are provided.
If something is out of context, you will refrain from replying and politely decline to respond to the user.

Context: {context}"""
CS_HISTORY = [
    (
        "Dobrý den, jakou sazbu potřebuji pro tepelné čerpadlo?",
        "Pro tepelné čerpadlo se používá sazba D57d s 20 hodinami nízkého tarifu denně.",
    ),
    ("A kdo mi ji přidělí?", "O přidělení sazby rozhoduje distributor podle spotřebičů v odběrném místě."),
]


def nvidia_rag_blueprint_cs(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """NVIDIA's RAG blueprint (from memory of its prompt.yaml rag_template): 'Context: ' then the reranked
    chunks joined by blank lines at the end of the system prompt, chat history, the question. The chunks
    come from PDF price lists through the ingestion pipeline, tables as markdown. A Czech electricity
    supplier's customer assistant."""
    keep(docs, question, rng.randint(1, 4))
    system = NVIDIA_RAG.replace("{context}", "\n\n".join(d.text for d in docs))
    history = [m for u, a in CS_HISTORY[: rng.randint(0, 2)] for m in (_msg("user", u), _msg("assistant", a))]
    return [_msg("system", system), *history, _msg("user", question)]


FEWSHOT_SYSTEM = "Sen bir e-ticaret destek asistanısın. Müşteri mesajını şu kategorilerden yalnızca birine ata ve sadece kategori adını yaz: iade_talebi, kargo_takibi, fatura_talebi, odeme_sorunu, hesap_islemleri, urun_bilgisi, siparis_iptali, kampanya_sorusu."


def dynamic_fewshot_tr(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's FewShotChatMessagePromptTemplate with a SemanticSimilarityExampleSelector (from memory of
    the how-to guide): the system instruction, the k=3 most similar labelled examples as human / ai turns
    (a different three for every message), then the customer's message. The examples are demonstrations
    drawn from a vector store, not documents: nothing in the prompt is context, so the truthful reading is
    'no context'. A Turkish shop's ticket classifier."""
    examples = rng.sample(FEWSHOT_EXAMPLES, 3)
    docs[:] = []
    turns = [m for text, label in examples for m in (_msg("user", text), _msg("assistant", label))]
    return [_msg("system", FEWSHOT_SYSTEM), *turns, _msg("user", question)]


LDR_SUMMARIZER = """<GOAL>
Generate a high-quality summary of the provided context.
</GOAL>

<REQUIREMENTS>
When creating a NEW summary:
1. Highlight the most relevant information related to the user topic from the search results
2. Ensure a coherent flow of information

When EXTENDING an existing summary:
1. Read the existing summary and new search results carefully.
2. Compare the new information with the existing summary.
3. For each piece of new information: add it where it is relevant, skip it if it is not.
</REQUIREMENTS>

<FORMATTING>
- Start directly with the updated summary, without preamble or titles. Do not use XML tags in the output.
</FORMATTING>"""


def local_deep_researcher_ja(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's local-deep-researcher (ollama-deep-researcher) summarizer (from memory of its prompts and
    deduplicate_and_format_sources): the summarizer instructions as the system message; the user turn
    '<User Input> \\n {topic} \\n <User Input>' then '<Search Results> \\n Sources:' with each result as
    'Source: title\\n===\\nURL: url\\n===\\nMost relevant content from source: content\\n===' (the
    search's snippets, no full pages). Japanese web results on heat and heatstroke."""
    keep(docs, question, rng.randint(1, 4))
    sources = "Sources:\n\n" + "\n".join(
        f"Source: {d.title}\n===\nURL: {d.source}\n===\nMost relevant content from source: {d.text}\n==="
        for d in docs
    )
    user = f"<User Input> \n {question} \n <User Input>\n\n<Search Results> \n {sources} \n <Search Results>"
    return [_msg("system", LDR_SUMMARIZER), _msg("user", user)]


# --- answers -----------------------------------------------------------------------------------------------


def intent_label(target: Doc, rng: random.Random) -> tuple[str, bool]:
    return target.text, False


def paperqa_summary(target: Doc, rng: random.Random) -> tuple[str, bool]:
    planted = rng.random() < 0.4
    tail = " The authors also report a 40% cost reduction at pilot scale." if planted else ""
    return (
        f'The excerpt reports that "{first_sentence(target).rstrip(".")}".{tail}\n\n{rng.randint(6, 10)}',
        planted,
    )


def deepeval_verdicts(target: Doc, rng: random.Random) -> tuple[str, bool]:
    verdicts = {"verdicts": [{"verdict": "yes", "statement": first_sentence(target)}]}
    return json.dumps(verdicts, ensure_ascii=False, indent=4), False


FABRICATED = {
    "fi": " Lisäksi sauna on maksuton sunnuntaisin.", "en": " The limit was raised by 20% for employees hired after 2025.",
    "zh": "另外，首次购买可享受两年免费保修。", "th": " นอกจากนี้ยังได้รับเงินเพิ่มอีก 2,000 บาทในปีแรก",
    "es": " Además, facturala envía las facturas a FACe automáticamente cada noche.", "id": " Selain itu, penjual baru mendapat gratis ongkir selama 6 bulan.",
    "ko": " 또한 이 설정은 운영 환경에서 매일 자정에 초기화됩니다.", "fr": " Par ailleurs, la démarche est gratuite pour les moins de 26 ans.",
    "de": " Außerdem gilt das Ticket am Wochenende auch in der 1. Klasse.", "ar": " كما أن الخدمة مجانية للطلاب طوال العام.",
    "cs": " Navíc první tři měsíce neplatíte žádné poplatky.", "tr": "", "ja": "なお、この基準は2027年から見直される予定です。",
}  # fmt: skip
PREAMBLE = {
    "fi": "Asiakirjojen mukaan ", "en": "According to the sources, ", "zh": "根据参考资料，", "th": "จากข้อมูลที่ได้รับ ",
    "es": "Según la documentación, ", "id": "Berdasarkan informasi tersebut, ", "ko": "코드를 보면, ",
    "fr": "D'après la page consultée, ", "de": "Laut FAQ: ", "ar": "وفقاً لنتائج البحث، ", "cs": "Podle ceníku: ", "tr": "", "ja": "検索結果によると、",
}  # fmt: skip
STYLES: dict[str, Answer] = {"fewshot/": intent_label, "paperqa/": paperqa_summary, "faq/": deepeval_verdicts}

SERVICES = [
    ("kotisivu-condense-plus-context-fi", "LlamaIndex CondensePlusContextChatEngine default context prompt (from memory)", "Finnish house rules: system prompt with nodes as 'page_label: n\\nfile_name: …\\n\\ntext' joined by blank lines, 0-2 history exchanges, the question (2-5 documents)", FI_TALO, condense_plus_context_fi),
    ("harrowgate-azure-search-demo", "azure-search-openai-demo chat and ask approaches, routed per request (from memory)", "English benefits handbook: chat: system, history, user 'question\\n\\nSources:\\n' + 'page.pdf: content' lines; ask: its own system, a worked example with its own info1.txt sources, then the question and sources; content line breaks made spaces (1-5 documents)", EN_HANDBOOK, azure_search_demo_router),
    ("tuoyin-cherry-studio-zh", "Cherry Studio knowledge-base reference prompt (from memory)", "Chinese 3D printer support: user message with citation rules, the question first, then a ```json array of {id, content, sourceUrl, type}; optional system prompt (1-4 documents)", ZH_PRINTER, cherry_studio_zh),
    ("prakan-lightrag-naive-th", "LightRAG naive mode response prompt (from memory)", "Thai social security: system prompt with conversation history lines and chunks joined by '\\n--New Chunk--\\n', the query as the user turn (1-4 documents)", TH_SSO, lightrag_naive_th),
    ("facturala-docsgpt-es", "DocsGPT chat_combine default then strict prompt after a redeploy (from memory)", "Spanish e-invoicing library docs: system prompt ending in the chunks joined by single line breaks ('Context:' and a closing line in the strict version), history, question (1-4 documents)", ES_FACTURA, docsgpt_es),
    ("harrowgate-elastic-chatbot-rag", "Elastic chatbot-rag-app rag_prompt.txt (from memory)", "English HR handbook: one user message, example block, '---\\nNAME: t\\nPASSAGE:\\ntext\\n---' per passage, '----', 'Question:/Response:' history lines, question (2-6 documents)", EN_HANDBOOK, elastic_chatbot_rag),
    ("toko-langflow-vector-rag-id", "Langflow Vector Store RAG starter flow (from memory)", "Indonesian seller centre: one user message, chunks joined by single line breaks (Parser default), '---', instruction, 'Question:', 'Answer:' (1-8 documents)", ID_SELLER, langflow_vector_rag_id),
    ("jumun-cline-read-file-ko", "Cline agent read_file tool results (from memory, system prompt shortened)", "Korean FastAPI repository: system, '<task>' with environment details, then per file an assistant '<read_file>' turn and a user '[read_file for …] Result:' turn (1-4 documents, one per turn)", KO_REPO, cline_read_file_ko),
    ("demarches-jina-reader-fr", "Tool-calling agent fetching pages through Jina Reader r.jina.ai (from memory of its output)", "French public-service pages: system, question, per page a fetch_url call and a tool message 'Title/URL Source/Published Time/Markdown Content:' (1-3 documents)", FR_WEB, jina_reader_fr),
    ("labnotes-paperqa2-evidence", "PaperQA2 evidence summary prompt (from memory)", "Battery materials papers: system, user 'Excerpt from <citation>', the chunk between '------------' rules, the question, instructions; one chunk per call", EN_PAPERS, paperqa_evidence),
    ("trivia-ircot-reader", "IRCoT chain-of-thought reader prompt (from memory)", "Slovenian geography: one completion-style user message, two demonstrations with their own 'Wikipedia Title:' paragraphs, then the test paragraphs and 'Q: … A:' (2-8 documents)", EN_SLOVENIA, ircot_reader),
    ("takt-deepeval-relevancy-de", "DeepEval contextual relevancy verdicts template (from memory)", "German transit FAQ: one user message, instructions, a worked example with its own context, 'Input:', 'Context:' (one node per call), 'JSON:'", DE_OEPNV, deepeval_contextual_relevancy_de),
    ("bahth-hf-chat-websearch-ar", "Hugging Face chat-ui web search prompt (from memory)", "Arabic web: system, 0-1 history exchange, user 'I searched the web using the query: …' + results 'Title: t\\n\\ntext' between '=====================' rules + 'So my question is:' (1-5 documents)", AR_WEB, hf_chat_ui_websearch_ar),
    ("proud-nvidia-rag-blueprint-cs", "NVIDIA RAG blueprint rag_template (from memory)", "Czech electricity supplier: system prompt ending 'Context: ' + chunks joined by blank lines (markdown tables), 0-2 history exchanges, question (1-4 documents)", CS_ENERGIE, nvidia_rag_blueprint_cs),
    ("destek-dynamic-fewshot-tr", "LangChain FewShotChatMessagePromptTemplate with SemanticSimilarityExampleSelector (from memory)", "Turkish ticket classifier: system, three similar labelled examples as user/assistant turns (varying per request), the customer's message; no documents: the truthful reading is 'no context'", TR_INTENTS, dynamic_fewshot_tr),
    ("atsusa-local-deep-researcher-ja", "LangChain local-deep-researcher summarizer prompt and source formatting (from memory)", "Japanese web results: summarizer system prompt, user '<User Input> \\n topic \\n <User Input>' + '<Search Results>' with 'Source: t\\n===\\nURL: u\\n===\\nMost relevant content from source: …\\n===' blocks (1-4 documents)", JA_WEB, local_deep_researcher_ja),
]  # fmt: skip


def build() -> None:
    write_long_wave(
        "wave_w", HERE, SERVICES, seed=23300, answer=answers(PREAMBLE, FABRICATED, STYLES), as_sent=as_sent
    )


if __name__ == "__main__":
    build()
