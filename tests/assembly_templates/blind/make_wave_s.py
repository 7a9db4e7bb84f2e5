# ruff: noqa: E501, W291
"""Blind wave S: sixteen services after research prompts, products, coding agents and vendor samples that no
earlier wave holds, written by a helper who had not read the reader, with 1-8 documents per request. Every
template was written from memory of the public source (not copied, so wording may drift from the original):

- 'Lost in the Middle' (Liu et al.) multi-document QA prompt (Greek encyclopaedia): 'Document [n](Title: t)
  text' one per line; a router in the service: past three passages the repository's query-aware variant,
  which also states the question before the documents;
- FreshPrompt (FreshLLMs): demonstrations with their own evidence, then source/date/title/snippet/highlight
  records oldest first, 'question:' and the 'As of today …' answer prefix;
- ChatGPT's browser tool, 2023-24 (Vietnamese): a search call answered by '# 【i†title†domain】' result lines;
- Bing Chat (Sydney), 2023 (Turkish): one '[role](#kind)' conversation document, the search results a JSON
  object in a ```json fence, the search query the question lowercased;
- Claude Code's CLAUDE.md memory (Ukrainian): 'Contents of <path> (<kind>):' blocks inside a
  '<system-reminder>' user turn, the user's global file in every request, the question in its own turn;
- OpenHands' knowledge microagents: the task first, then '<EXTRA_INFO>' blocks with a keyword-match preamble,
  an optional '<RUNTIME_INFORMATION>' block; microagents with code fences and numbered steps;
- ChatGPT's saved memories (Hebrew): '# Model Set Context' with 'n. [date]. memory' items after the tools and
  an optional '# User Bio';
- Jan's retrieval template (Persian): 'CONTEXT: ' between '----------------' rules, chunks joined by blank
  lines, history before;
- LLPhant's QuestionAnswering (PHP, Czech): every chunk followed by a single space, pasted before the system
  template's closing period;
- the MongoDB Chatbot Framework's RAG user prompt, rebranded: chunks joined by '\n---\n', three newlines,
  'User query:', history before; the product's intro chunk in most requests;
- VS Code Copilot Chat's attachments (Portuguese repository docs): each file fenced (a fence longer than any
  backtick run inside) in an '<attachment>' tag, then '<context>', '<reminderInstructions>', '<userRequest>';
- Azure OpenAI On Your Data as the sample chat app records a turn (Arabic): a tool message with a JSON object
  of citations and an 'intent' that is itself a JSON-encoded list;
- RAGTruth's QA prompt (Indonesian): the question first, then 'passage n:text' items;
- DB-GPT's knowledge chat, redeployed half-way from the Chinese to the English template: the chunks and the
  question in the system message, history, the question again;
- Morphic's search tool (Thai): compact JSON {results: [{title, url, content}], query, images, …};
- Page Assist's web search prompt (Korean): '<result source=… id=…>' lines in <search-results>, history.

Ground truth: every document is the text the retriever (or memory store, or file reader) returned, exactly as
it stands in the prompt, never a title, path, URL, date, score, trigger word, fence or label the template adds
around it. Where the template escapes the text (JSON, a JSON string inside JSON) the document is the unescaped
text. FreshPrompt's demonstrations carry their own evidence: those are few-shot examples, not context; its
'highlight:' lines repeat a phrase of the snippet the search engine bolded and are metadata, not documents.
One QuarryDB chunk (encryption) holds a '---' line of its own, the very separator the MongoDB template joins
chunks with: the ground truth keeps it whole, as the retriever returned it.

First run with main's readers (``bench_templates.py --blind tests/assembly_templates/blind/wave_s``, each
request under openinference and openai-v2-latest, 48 readings a service): learnt+rules 402/768 right (52.3%),
108 wrong context, 258 unscored (readings_disagree 240, context_not_separable 16, no_context 2); learnt-only
402 / 76 / 290; rules-only 202 / 268 / 298. Learnt+rules right / wrong / unscored: forushgah-jan-retrieval-fa,
geomsaek-page-assist-ko, khonha-morphic-th, nusantara-ragtruth-id, timkiem-chatgpt-browser-vi,
waha-azure-on-your-data-ar, yunwei-dbgpt-knowledge, zikaron-chatgpt-memory-he 48/0/0 each;
quarry-mongodb-chatbot 18/30/0 (every wrong reading is the encryption chunk split at its own '---' line);
loja-copilot-attachments-pt 0/42/6 (the closing fence read into each document); kvytok-claude-code-uk 0/30/18
(the 'Contents of <path> (<kind>):' line read into each document; 16
context_not_separable); knihovna-llphant-cs 0/4/44 (space-joined chunks read as one or split at their own
list lines); arkheio-lost-in-the-middle-el 0/2/46 (the query-aware variant's leading 'Question:' read as a
rewritten query; two readings keep 'Document [n](Title: …)'); arama-bing-sydney-tr 0/0/48 (the search query
read as the question written again); newsdesk-freshprompt 0/0/48 (no documents found, the demonstration's
question taken); quarry-openhands-microagents 0/0/48 (readings_disagree: no separator found between the
'<EXTRA_INFO>' blocks).

Ground truth: every document is the text the retriever (or memory store, or file reader) returned, exactly as
it stands in the prompt, never a title, path, URL, date, score, trigger word, fence or label the template adds
around it. Where the template escapes the text (JSON, a JSON string inside JSON) the document is the unescaped
text. FreshPrompt's demonstrations carry their own evidence: those are few-shot examples, not context; its
'highlight:' lines repeat a phrase of the snippet the search engine bolded and are metadata, not documents.

    python tests/assembly_templates/blind/make_wave_s.py   # writes wave_s/*.json (deterministic)
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from make_wave_k import Doc, _pool, _tool_call
from make_wave_q import _msg, _sentence
from wave_writer import prompt_text, spellings, verify_wave, write_wave

HERE = Path(__file__).resolve().parent / "wave_s"
REQUESTS = 24

Messages = list[dict[str, Any]]
Answer = Callable[[Doc, random.Random], tuple[str, bool]]


def answers(preamble: dict[str, str], fabricated: dict[str, str]) -> Answer:
    """Answers as models write them, per language: a sentence of the target document, plain, cited [n],
    bold or after a preamble; 40% with one fabricated claim appended."""

    def answer(target: Doc, rng: random.Random) -> tuple[str, bool]:
        first = _sentence(target)
        planted = rng.random() < 0.4
        style = rng.choice(["plain", "cited", "markdown", "preamble"])
        if style == "cited":
            first = f"{first} [{rng.randint(1, 3)}]"
        elif style == "markdown":
            first = f"**{first}**"
        elif style == "preamble":
            first = preamble[target.lang] + first
        if planted:
            first += fabricated[target.lang]
        return first, planted

    return answer


def as_sent(text: str, messages: Messages) -> str:
    """The document as the prompt holds it: the retriever's text, found as written or escaped."""
    prompt = prompt_text(messages)
    if any(s in prompt for s in spellings(text)):
        return text
    raise ValueError(f"document not in its prompt: {text[:40]!r}")


def halves(render: Callable[[list[Doc], str, random.Random, bool], Messages]) -> Callable[..., Messages]:
    """A service redeployed half-way: ``render`` gets whether the request comes after the deploy."""
    calls = itertools.count()

    def deployed(docs: list[Doc], question: str, rng: random.Random) -> Messages:
        return render(docs, question, rng, next(calls) % REQUESTS >= REQUESTS // 2)

    deployed.__name__ = render.__name__
    return deployed


# --- pools -------------------------------------------------------------------------------------------------

GREEK_WIKI = _pool("el", [
    ("wiki/Μετέωρα", "Μετέωρα",
     "Τα Μετέωρα είναι σύμπλεγμα γιγάντιων βράχων κοντά στην Καλαμπάκα της Θεσσαλίας. Στις κορυφές τους χτίστηκαν από τον 14ο αιώνα μοναστήρια, από τα οποία σήμερα λειτουργούν έξι. Το 1988 τα Μετέωρα ανακηρύχθηκαν Μνημείο Παγκόσμιας Κληρονομιάς της UNESCO.",
     "πόσα μοναστήρια των Μετεώρων λειτουργούν σήμερα"),
    ("wiki/Διώρυγα_της_Κορίνθου", "Διώρυγα της Κορίνθου",
     "Η Διώρυγα της Κορίνθου συνδέει τον Κορινθιακό με τον Σαρωνικό κόλπο. Έχει μήκος 6,4 χιλιόμετρα και πλάτος στη στάθμη της θάλασσας μόλις 24,6 μέτρα, γι' αυτό τα μεγάλα σύγχρονα πλοία δεν μπορούν να τη διασχίσουν. Τα εγκαίνιά της έγιναν το 1893.",
     "πόσο μήκος έχει η Διώρυγα της Κορίνθου"),
    ("wiki/Όλυμπος", "Όλυμπος",
     "Ο Όλυμπος είναι το ψηλότερο βουνό της Ελλάδας, με ψηλότερη κορυφή τον Μύτικα (2.918 μ.). Η πρώτη καταγεγραμμένη ανάβαση στον Μύτικα έγινε στις 2 Αυγούστου 1913 από τους Φρεντερίκ Μπουασονά, Ντανιέλ Μποντ-Μπουασονά και τον οδηγό Χρήστο Κάκαλο.",
     "ποιος ήταν ο οδηγός στην πρώτη ανάβαση του Μύτικα"),
    ("wiki/Μηχανισμός_των_Αντικυθήρων", "Μηχανισμός των Αντικυθήρων",
     "Ο Μηχανισμός των Αντικυθήρων είναι αρχαίος αναλογικός υπολογιστής που βρέθηκε το 1901 σε ναυάγιο κοντά στα Αντικύθηρα. Χρονολογείται γύρω στο 100 π.Χ. και χρησιμοποιούνταν για την πρόβλεψη αστρονομικών θέσεων και εκλείψεων. Φυλάσσεται στο Εθνικό Αρχαιολογικό Μουσείο της Αθήνας.",
     "πού φυλάσσεται ο Μηχανισμός των Αντικυθήρων"),
    ("wiki/Σαντορίνη", "Σαντορίνη",
     "Η Σαντορίνη είναι ηφαιστειογενές νησί των Κυκλάδων. Η μινωική έκρηξη, γύρω στο 1600 π.Χ., δημιούργησε την καλντέρα και έθαψε τον οικισμό του Ακρωτηρίου κάτω από στρώματα ηφαιστειακής τέφρας, διατηρώντας τοιχογραφίες και πολυώροφα κτίρια.",
     "ποιον οικισμό έθαψε η μινωική έκρηξη"),
    ("wiki/Νίκος_Καζαντζάκης", "Νίκος Καζαντζάκης",
     "Ο Νίκος Καζαντζάκης (1883–1957) γεννήθηκε στο Ηράκλειο της Κρήτης. Το μυθιστόρημά του «Βίος και Πολιτεία του Αλέξη Ζορμπά» εκδόθηκε το 1946 και μεταφέρθηκε στον κινηματογράφο το 1964 από τον Μιχάλη Κακογιάννη.",
     "πότε εκδόθηκε ο Αλέξης Ζορμπάς"),
    ("wiki/Γέφυρα_Ρίου-Αντιρρίου", "Γέφυρα Ρίου-Αντιρρίου",
     "Η Γέφυρα Ρίου-Αντιρρίου, επίσημα «Χαρίλαος Τρικούπης», είναι καλωδιωτή γέφυρα μήκους 2.880 μέτρων πάνω από τον Κορινθιακό κόλπο. Δόθηκε στην κυκλοφορία τον Αύγουστο του 2004, λίγο πριν από τους Ολυμπιακούς Αγώνες της Αθήνας.",
     "πότε δόθηκε στην κυκλοφορία η γέφυρα Ρίου-Αντιρρίου"),
    ("wiki/Φέτα", "Φέτα",
     "Η φέτα είναι προϊόν Προστατευόμενης Ονομασίας Προέλευσης από το 2002. Παρασκευάζεται από πρόβειο γάλα ή από μείγμα πρόβειου με έως 30% κατσικίσιο γάλα και ωριμάζει σε άλμη τουλάχιστον δύο μήνες.",
     "πόσο κατσικίσιο γάλα επιτρέπεται στη φέτα"),
])  # fmt: skip

FRESH_NEWS = _pool("en", [
    ("reuters.example.com|2026-02-11", "Norway's wealth fund posts record year",
     "Norway's sovereign wealth fund returned 13.2% in 2025, its manager said on Wednesday, lifting the fund's value to 19,800 billion crowns ($1.86 trillion). Equities returned 17.1%, while unlisted real estate lost 1.4%.",
     "What was the return of Norway's sovereign wealth fund in 2025?"),
    ("apnews.example.com|2026-09-03", "Lisbon opens longest tram line in decades",
     "Lisbon opened its new Line 16 tram on Tuesday, a 14-kilometre route linking Alcântara to Oeiras. Trams run every 8 minutes at peak hours, and the city says the line will carry 40,000 passengers a day.",
     "How long is Lisbon's new Line 16 tram route?"),
    ("bbc.example.co.uk|2026-06-20", "Thames Barrier closed a record 16 times",
     "The Thames Barrier was closed 16 times during the 2025-26 flood season, the most since it opened in 1982. The Environment Agency said the closures protected 1.4 million people living in the tidal floodplain.",
     "How many times was the Thames Barrier closed in the 2025-26 season?"),
    ("nikkei.example.com|2026-10-15", "Osaka metro to go fully cashless",
     "Osaka Metro will stop selling paper tickets at vending machines from April 2027. Riders can pay with IC cards, QR codes or contactless bank cards at every gate; paper tickets will remain available at staffed windows until March 2028.",
     "When will Osaka Metro stop selling paper tickets at vending machines?"),
    ("theverge.example.com|2026-11-02", "Valve confirms Steam Deck 2 release window",
     "Valve said the Steam Deck 2 will ship in the second half of 2027. The company declined to give a price but said the new model would keep the same 7.4-inch screen size as the OLED version.",
     "When will the Steam Deck 2 ship?"),
    ("npr.example.org|2026-07-29", "Yellowstone's Old Faithful erupts less often",
     "Old Faithful now erupts on average every 94 minutes, up from 66 minutes in the 1950s, according to the US Geological Survey. Scientists link the longer intervals to drier years reducing the groundwater that feeds the geyser.",
     "How often does Old Faithful erupt on average now?"),
    ("dw.example.com|2026-05-08", "Germany's Deutschlandticket price rises again",
     "The price of the Deutschlandticket will rise to €63 a month from January 2027, transport ministers agreed on Thursday. The ticket, launched in May 2023 at €49, is valid on all local and regional transport across Germany.",
     "How much will the Deutschlandticket cost from January 2027?"),
    ("abc.example.net.au|2026-08-17", "Great Barrier Reef sees sixth mass bleaching",
     "Aerial surveys found bleaching on 73% of the 1,080 reefs inspected, making 2026 the sixth mass bleaching event since 2016. Marine scientists said recovery depends on how long water temperatures stay above the summer maximum.",
     "What share of surveyed reefs showed bleaching in 2026?"),
])  # fmt: skip

VI_WEB = _pool("vi", [
    ("https://dulich.example.vn/ha-long/ve-tham-quan", "Giá vé tham quan vịnh Hạ Long 2026",
     "Từ ngày 1/1/2026, giá vé tham quan vịnh Hạ Long tuyến 1 (hang Sửng Sốt, hồ Mê Cung, đảo Ti Tốp) là 290.000 đồng/người. Trẻ em dưới 1,3 m được miễn vé.",
     "Giá vé vịnh Hạ Long tuyến 1 là bao nhiêu?"),
    ("https://giaothong.example.vn/metro-so-1", "Metro số 1 Bến Thành – Suối Tiên",
     "Tuyến metro số 1 dài 19,7 km với 14 nhà ga, trong đó 3 ga ngầm. Giá vé lượt từ 7.000 đến 20.000 đồng tùy quãng đường; vé tháng cho học sinh, sinh viên là 150.000 đồng.",
     "Vé tháng metro số 1 cho sinh viên giá bao nhiêu?"),
    ("https://baohiem.example.vn/bhyt-hoc-sinh", "BHYT học sinh, sinh viên năm học mới",
     "Mức đóng bảo hiểm y tế học sinh, sinh viên năm học 2026-2027 là 4,5% mức lương cơ sở, trong đó ngân sách nhà nước hỗ trợ 30%.\nHọc sinh đóng theo năm hoặc theo hai đợt.",
     "Nhà nước hỗ trợ bao nhiêu phần trăm BHYT học sinh?"),
    ("https://thoitiet.example.vn/mua-bao-mien-trung", "Mùa bão miền Trung",
     "Mùa mưa bão ở miền Trung thường kéo dài từ tháng 9 đến tháng 12, tập trung nhiều nhất vào tháng 10 và tháng 11. Du khách nên theo dõi dự báo trước khi đặt tour biển đảo trong giai đoạn này.",
     "Mùa bão ở miền Trung kéo dài từ tháng mấy?"),
    ("https://hanhchinh.example.vn/ho-chieu", "Làm hộ chiếu online",
     "Công dân có thể nộp hồ sơ cấp hộ chiếu phổ thông qua Cổng dịch vụ công quốc gia. Lệ phí là 200.000 đồng, thời gian trả kết quả là 8 ngày làm việc kể từ khi nhận đủ hồ sơ hợp lệ.",
     "Làm hộ chiếu online mất bao lâu?"),
    ("https://amthuc.example.vn/pho-ha-noi", "Phở Hà Nội được công nhận di sản",
     "Nghề phở Hà Nội được đưa vào Danh mục di sản văn hóa phi vật thể quốc gia từ tháng 12/2024. Hà Nội tổ chức Festival Phở hằng năm vào cuối tháng 3.",
     "Festival Phở Hà Nội tổ chức vào khi nào?"),
    ("https://giaoduc.example.vn/thi-tot-nghiep", "Lịch thi tốt nghiệp THPT",
     "Kỳ thi tốt nghiệp THPT năm 2026 diễn ra trong hai ngày 11 và 12/6. Thí sinh thi 4 môn: Toán, Ngữ văn và 2 môn tự chọn.\nKết quả được công bố vào ngày 16/7.",
     "Khi nào công bố điểm thi tốt nghiệp THPT 2026?"),
    ("https://xe.example.vn/dang-kiem", "Chu kỳ đăng kiểm ô tô",
     "Ô tô con dưới 9 chỗ không kinh doanh vận tải được miễn đăng kiểm lần đầu nếu sản xuất chưa quá 2 năm. Chu kỳ đầu là 36 tháng, sau đó 24 tháng; xe trên 20 năm kiểm định 6 tháng một lần.",
     "Chu kỳ đăng kiểm đầu tiên của ô tô con mới là bao lâu?"),
])  # fmt: skip

TR_WEB = _pool("tr", [
    ("https://www.ulasim.example.tr/marmaray", "Marmaray sefer saatleri",
     "Marmaray hattında seferler 06:00 ile 24:00 arasında yapılıyor. Yoğun saatlerde tren aralığı 4 dakika, diğer saatlerde 8 dakika. Gebze–Halkalı arası yolculuk yaklaşık 108 dakika sürüyor.",
     "Gebze Halkalı Marmaray kaç dakika sürüyor?"),
    ("https://www.saglik.example.tr/mhrs", "MHRS randevu nasıl alınır",
     "Hastane randevuları MHRS üzerinden, 182 numaralı çağrı merkezinden veya e-Nabız uygulamasından alınabilir. Randevuya gelmeyen hasta 15 gün boyunca aynı bölüm için yeni randevu alamaz.",
     "MHRS randevusuna gitmezsem ne olur?"),
    ("https://www.pasaport.example.tr/harc", "Pasaport harçları 2026",
     "2026 yılı pasaport harçları:\n- 1 yıla kadar: 1.250 TL\n- 5 yıl: 4.380 TL\n- 10 yıl ve üzeri: 6.200 TL\nBunlara ayrıca defter bedeli eklenir.",
     "10 yıllık pasaport harcı ne kadar?"),
    ("https://www.kapadokya.example.tr/balon", "Kapadokya balon turları",
     "Kapadokya'da balon uçuşları gün doğumunda yapılır ve yaklaşık bir saat sürer. Rüzgar hızı saatte 15 kilometreyi aştığında Sivil Havacılık Genel Müdürlüğü uçuşlara izin vermez; iptal edilen turların ücreti iade edilir.",
     "Balon turu iptal olursa para iade ediliyor mu?"),
    ("https://www.egitim.example.tr/yks", "YKS başvuru tarihleri",
     "2026 YKS başvuruları 5-27 Şubat tarihleri arasında alındı. Sınav 20-21 Haziran'da yapılacak; sonuçlar 17 Temmuz'da açıklanacak.",
     "YKS sonuçları ne zaman açıklanacak?"),
    ("https://www.enerji.example.tr/elektrik-tarife", "Elektrik tarifesi değişti",
     "Meskenlerde yıllık 5.000 kWh üzerindeki tüketim için daha yüksek kademe fiyatı uygulanıyor. Düşük kademede kWh fiyatı 2,07 TL, yüksek kademede 3,14 TL.",
     "Yüksek kademede elektrik kWh fiyatı ne kadar?"),
    ("https://www.muze.example.tr/muzekart", "Müzekart fiyatları",
     "Yerli ziyaretçiler için yıllık Müzekart 600 TL, öğretmen Müzekartı 250 TL. 65 yaş üstü Türk vatandaşları ve 18 yaş altı çocuklar müzelere ücretsiz girer.",
     "Öğretmen Müzekartı ne kadar?"),
    ("https://www.vapur.example.tr/adalar", "Adalar vapuru kış tarifesi",
     "Kış tarifesinde Kabataş'tan Büyükada'ya ilk vapur 06:50'de, son vapur 21:30'da kalkıyor. Hafta sonu ek seferler yapılıyor.\nİstanbulkart ile ücret 45 TL.",
     "Kabataş'tan Büyükada'ya son vapur kaçta?"),
])  # fmt: skip

UK_CLAUDE_GLOBAL = Doc(
    "/home/oksana/.claude/CLAUDE.md", "global",
    "# Мої загальні вподобання\n\n- Відповідай українською, код і коментарі в коді — англійською.\n- Перед будь-якими змінами в git спершу покажи `git status`.\n- Я користуюся `uv`, а не `pip`.",
    "якою мовою писати коментарі в коді", "uk",
)  # fmt: skip
UK_CLAUDE = [UK_CLAUDE_GLOBAL, *_pool("uk", [
    ("/home/oksana/src/kvytok/CLAUDE.md", "project",
     "# Квиток — сервіс продажу квитків\n\n## Команди\n- `make dev` — запуск локально (порт 8040)\n- `make test` — тести, потрібен запущений Postgres\n\n## Правила\nНе змінюй міграції, які вже потрапили в `main`; створюй нову міграцію.",
     "на якому порту запускається сервіс локально"),
    ("/home/oksana/src/kvytok/api/CLAUDE.md", "api",
     "# API\n\nУсі ендпоінти версіонуються префіксом `/v2`. Помилки повертаємо у форматі RFC 7807 (`application/problem+json`).\n\nЛіміт: 120 запитів на хвилину на токен.",
     "у якому форматі API повертає помилки"),
    ("/home/oksana/src/kvytok/payments/CLAUDE.md", "payments",
     "# Платежі\n\nПлатіжний шлюз — LiqPay. Тестові картки лежать у `payments/fixtures/cards.json`.\nПовернення коштів можливе лише протягом 14 днів після оплати; після цього — тільки вручну через бухгалтерію.",
     "скільки днів можна робити повернення коштів"),
    ("/home/oksana/src/kvytok/CLAUDE.local.md", "local",
     "Мій локальний Postgres слухає на 5433, а не на 5432.\nБаза: `kvytok_dev`, користувач `oksana`.",
     "на якому порту мій локальний Postgres"),
    ("/home/oksana/src/kvytok/web/CLAUDE.md", "web",
     "# Фронтенд\n\n```bash\npnpm install\npnpm dev\n```\n\nКомпоненти пишемо на React 19 з TypeScript strict. Стилі — лише Tailwind, без CSS-модулів.",
     "чи можна використовувати CSS-модулі у фронтенді"),
    ("/home/oksana/src/kvytok/docs/CLAUDE.md", "docs",
     "Документацію пишемо в `docs/` у форматі MkDocs. Кожна нова фіча потребує сторінки в розділі «Як це працює» до мерджу.",
     "що потрібно для нової фічі в документації"),
    ("/home/oksana/src/kvytok/infra/CLAUDE.md", "infra",
     "# Інфраструктура\n\n| Середовище | Кластер | Гілка |\n|---|---|---|\n| staging | k8s-fra-1 | `develop` |\n| prod | k8s-fra-2 | `main` |\n\nДеплой у prod — лише у вівторок і четвер до 16:00.",
     "коли можна деплоїти в prod"),
])]  # fmt: skip

QUARRY_FAQ = Doc(
    "docs/intro.md", "What is QuarryDB",
    "QuarryDB is a document database with a SQL layer. Every collection is stored as compressed JSON pages, and every query can be written either in QQL or in standard SQL.",
    "what is quarrydb",
)  # fmt: skip
QUARRY = _pool("en", [
    ("docs/indexes/ttl.md", "TTL indexes",
     "## TTL indexes\n\nA TTL index removes documents a fixed number of seconds after the time in the indexed field:\n\n```js\ndb.sessions.createIndex({ lastSeen: 1 }, { expireAfterSeconds: 3600 })\n```\n\nThe background task that deletes expired documents runs every 60 seconds, so documents may outlive their expiry by up to a minute.",
     "how often does the ttl cleanup run"),
    ("docs/limits.md", "Limits",
     "- Maximum document size: 16 MB\n- Maximum nesting depth: 100 levels\n- Maximum indexes per collection: 64\n\nDocuments larger than 16 MB should be split, or stored with the file store API.",
     "what is the maximum document size"),
    ("docs/transactions.md", "Transactions",
     "Multi-document transactions are supported on replica sets and sharded clusters. A transaction that runs longer than 60 seconds is aborted; raise `transactionLifetimeLimitSeconds` to allow more.\n\nWrites outside a transaction never see a transaction's uncommitted changes.",
     "how long can a transaction run before it is aborted"),
    ("docs/backup.md", "Backups",
     "Managed clusters take a snapshot every 6 hours and keep it for 7 days. Continuous backup adds point-in-time restore with a one-minute granularity for the last 72 hours.",
     "how long are snapshots kept"),
    ("docs/drivers/python.md", "Python driver",
     "Install the driver with `pip install quarrydb`. The client keeps a connection pool of 100 connections by default:\n\n```python\nfrom quarrydb import Client\nclient = Client(\"quarry://localhost:7017\", max_pool_size=50)\n```",
     "what is the default connection pool size of the python driver"),
    ("docs/security/encryption.md", "Encryption",
     "Data is encrypted at rest with AES-256. Field-level encryption keeps chosen fields encrypted on the client, so the server never sees them in plain text.\n---\nKeys can be kept in a cloud KMS or in a local key file for development.",
     "does the server see fields with field-level encryption"),
    ("docs/sql/joins.md", "Joins in SQL",
     "The SQL layer supports inner and left joins between collections. Joins on fields without an index are limited to 100,000 documents on the inner side; add an index to lift the limit.",
     "are joins on unindexed fields limited"),
    ("docs/ops/upgrade.md", "Upgrading",
     "Upgrade one minor version at a time:\n1. Upgrade the secondaries one by one.\n2. Step down the primary.\n3. Upgrade the former primary.\n\nSkipping a minor version is not supported.",
     "can I skip a minor version when upgrading"),
])  # fmt: skip

OH_TRIGGERS = {"docs/indexes/ttl.md": "ttl", "docs/limits.md": "limit", "docs/transactions.md": "transaction",
               "docs/backup.md": "backup", "docs/drivers/python.md": "python", "docs/security/encryption.md": "encrypt",
               "docs/sql/joins.md": "join", "docs/ops/upgrade.md": "upgrade", "docs/intro.md": "quarrydb"}  # fmt: skip

HE_MEMORY = _pool("he", [
    ("2026-01-14", "", "המשתמש גר בחיפה, בשכונת כרמליה.", "איפה אני גר?"),
    ("2026-02-03", "", "רופאת השיניים של המשתמש היא ד\"ר מירב אלון, והטלפון של המרפאה הוא 04-8123456.", "מה הטלפון של רופאת השיניים שלי?"),
    ("2026-03-22", "", "המשתמש אלרגי לאגוזי לוז ולבוטנים.\nהוא מעדיף מתכונים צמחוניים.", "לאילו אגוזים אני אלרגי?"),
    ("2026-04-09", "", "לבת של המשתמש, נועה, יש יום הולדת ב-17 ביולי. היא אוהבת רכיבה על סוסים.", "מתי יום ההולדת של נועה?"),
    ("2026-05-30", "", "המשתמש עובד כמהנדס נתונים בחברת ביטוח ומשתמש בעיקר ב-Python וב-dbt.", "באיזו טכנולוגיה אני עובד בעיקר?"),
    ("2026-07-11", "", "המשתמש מתכנן טיול לאיסלנד בספטמבר 2027 עם בן הזוג שלו, לשבועיים.", "מתי אני טס לאיסלנד?"),
    ("2026-08-25", "", "מספר הלקוח של המשתמש בחברת החשמל הוא 300451277.", "מה מספר הלקוח שלי בחברת החשמל?"),
    ("2026-10-02", "", "המשתמש רץ חצי מרתון בזמן של שעה ו-52 דקות ורוצה לרדת מתחת לשעה ו-45.", "מה היעד שלי בחצי מרתון?"),
])  # fmt: skip

FA_DOCS = _pool("fa", [
    ("rahnama/ersal.md", "ارسال سفارش",
     "سفارش‌های تهران ظرف ۲۴ ساعت و سفارش‌های شهرستان ظرف ۳ تا ۵ روز کاری ارسال می‌شوند.\nارسال برای خریدهای بالای ۵۰۰ هزار تومان رایگان است.",
     "ارسال برای چه مبلغی رایگان است؟"),
    ("rahnama/marjoo.md", "مرجوعی کالا",
     "کالا را تا ۷ روز پس از تحویل می‌توانید مرجوع کنید، به شرطی که پلمپ آن باز نشده باشد. هزینه ارسال مرجوعی با فروشگاه است.",
     "تا چند روز می‌توانم کالا را مرجوع کنم؟"),
    ("rahnama/garanti.md", "گارانتی",
     "همه گوشی‌ها ۱۸ ماه گارانتی شرکتی دارند.\n- آسیب فیزیکی و ضربه شامل گارانتی نمی‌شود.\n- تعویض باتری فقط در ۶ ماه اول رایگان است.",
     "تعویض باتری تا کی رایگان است؟"),
    ("rahnama/aghsat.md", "خرید اقساطی",
     "خرید اقساطی برای سفارش‌های بالای ۱۰ میلیون تومان ممکن است. پیش‌پرداخت ۳۰ درصد و باقی مبلغ در ۶ یا ۱۲ قسط ماهانه پرداخت می‌شود.",
     "پیش‌پرداخت خرید اقساطی چند درصد است؟"),
    ("rahnama/tahvil.md", "تحویل حضوری",
     "تحویل حضوری از شعبه ونک، شنبه تا چهارشنبه از ساعت ۱۰ تا ۱۹ انجام می‌شود. همراه داشتن کارت ملی الزامی است.",
     "ساعت تحویل حضوری شعبه ونک چیست؟"),
    ("rahnama/takhfif.md", "کد تخفیف",
     "هر کد تخفیف فقط یک بار قابل استفاده است و با سایر تخفیف‌ها جمع نمی‌شود. کدهای تخفیف روی کالاهای شگفت‌انگیز اعمال نمی‌شوند.",
     "آیا کد تخفیف روی کالای شگفت‌انگیز اعمال می‌شود؟"),
    ("rahnama/poshtibani.md", "پشتیبانی",
     "پشتیبانی تلفنی هر روز از ساعت ۸ تا ۲۲ پاسخگوست: ۰۲۱-۹۱۰۰۰۰۰۰\n\nدر روزهای تعطیل رسمی فقط پشتیبانی آنلاین فعال است.",
     "پشتیبانی تلفنی تا چه ساعتی پاسخ می‌دهد؟"),
    ("rahnama/hesab.md", "حساب کاربری",
     "برای حذف حساب کاربری باید از بخش «تنظیمات» درخواست بدهید. حذف حساب پس از ۳۰ روز قطعی می‌شود و سوابق خرید قابل بازیابی نیست.",
     "حذف حساب کاربری چند روز طول می‌کشد؟"),
])  # fmt: skip

CS_DOCS = _pool("cs", [
    ("knihovna/vypujcky", "Výpůjčky",
     "Čtenář si může najednou vypůjčit nejvýše 15 knih. Výpůjční lhůta je 30 dní a lze ji dvakrát prodloužit, pokud knihu nemá nikdo rezervovanou.",
     "kolik knih si můžu půjčit najednou"),
    ("knihovna/poplatky", "Poplatky",
     "Roční registrace stojí 120 Kč, pro studenty a seniory 60 Kč.\nZa každý den prodlení se účtuje 5 Kč za knihu.",
     "kolik stojí registrace pro studenty"),
    ("knihovna/oteviraci-doba", "Otevírací doba",
     "Ústřední knihovna je otevřena v pondělí až pátek od 9 do 20 hodin a v sobotu od 9 do 13 hodin. V červenci a srpnu je v sobotu zavřeno.",
     "je knihovna v srpnu v sobotu otevřená"),
    ("knihovna/e-knihy", "E-knihy",
     "Registrovaní čtenáři si mohou půjčovat e-knihy přes portál eReading. Najednou lze mít vypůjčené 3 e-knihy, každou na 31 dní; po uplynutí lhůty se kniha sama vrátí.",
     "na jak dlouho se půjčuje e-kniha"),
    ("knihovna/studovna", "Studovna",
     "Místa ve studovně se rezervují online nejvýše 7 dní předem.\n- Rezervace propadne po 15 minutách, pokud nepřijdete.\n- Jídlo ve studovně není povoleno.",
     "kdy propadne rezervace místa ve studovně"),
    ("knihovna/tisk", "Tisk a kopírování",
     "Černobílý tisk A4 stojí 3 Kč za stranu, barevný 10 Kč. Platit lze jen čtenářskou kartou s nabitým kreditem.",
     "kolik stojí barevný tisk"),
    ("knihovna/ztrata", "Ztráta knihy",
     "Ztracenou knihu je nutné nahradit stejným titulem, nebo zaplatit její cenu a manipulační poplatek 100 Kč.",
     "co dělat když ztratím knihu"),
    ("knihovna/deti", "Oddělení pro děti",
     "Děti do 15 let mají registraci zdarma, potřebují však souhlas zákonného zástupce. Každou středu v 16 hodin probíhá čtení pro nejmenší.",
     "platí děti registraci"),
])  # fmt: skip

PT_REPO = _pool("pt", [
    ("docs/CONTRIBUTING.md", "CONTRIBUTING.md",
     "# Como contribuir\n\n1. Abra uma issue antes de começar qualquer mudança grande.\n2. Crie um branch a partir de `develop`.\n3. Rode `npm run lint` antes de abrir o PR.\n\nPRs sem testes não serão revisados.",
     "de qual branch devo criar o meu branch"),
    ("docs/deploy.md", "deploy.md",
     "# Deploy\n\nO deploy para produção acontece automaticamente quando uma tag `v*` é criada.\n\n```bash\ngit tag v2.4.0\ngit push origin v2.4.0\n```\n\nO rollback é feito reaplicando a tag anterior no pipeline.",
     "como faço deploy para produção"),
    ("docs/arquitetura.md", "arquitetura.md",
     "## Arquitetura\n\nO sistema é dividido em três serviços: `pedidos`, `estoque` e `notificacoes`. Eles se comunicam por filas no RabbitMQ; nenhum serviço acessa o banco de outro.",
     "como os serviços se comunicam"),
    ("docs/ambiente.md", "ambiente.md",
     "Variáveis de ambiente obrigatórias:\n\n| Nome | Exemplo |\n|---|---|\n| `DATABASE_URL` | `postgres://localhost/loja` |\n| `RABBIT_URL` | `amqp://localhost` |\n| `PIX_CHAVE` | `loja@exemplo.com.br` |",
     "quais variáveis de ambiente são obrigatórias"),
    ("docs/testes.md", "testes.md",
     "Os testes de integração precisam do Docker rodando. Use `npm run test:int`; a suíte sobe um Postgres e um RabbitMQ descartáveis e leva cerca de 4 minutos.",
     "quanto tempo levam os testes de integração"),
    ("docs/pix.md", "pix.md",
     "O pagamento por Pix expira em 30 minutos. Depois disso o pedido volta para o status `aguardando_pagamento` e o estoque reservado é liberado.",
     "em quanto tempo o pix expira"),
    ("docs/estilo.md", "estilo.md",
     "Usamos TypeScript estrito e o Prettier com largura de 100 colunas.\n\n```ts\n// bom\nconst total = itens.reduce((s, i) => s + i.preco, 0)\n```\n\nNomes de variáveis em português, nomes de bibliotecas em inglês.",
     "qual a largura de linha do prettier"),
    ("docs/seguranca.md", "seguranca.md",
     "Segredos nunca vão para o repositório. Em desenvolvimento use o arquivo `.env.local` (já no `.gitignore`); em produção, o Vault.",
     "onde guardar segredos em desenvolvimento"),
])  # fmt: skip

AR_HR = _pool("ar", [
    ("hr/leave-policy.pdf", "سياسة الإجازات",
     "يستحق الموظف إجازة سنوية مدفوعة الأجر مدتها 30 يوماً بعد إتمام سنة من الخدمة. ويجوز ترحيل 10 أيام كحد أقصى إلى السنة التالية.",
     "كم يوماً يمكن ترحيله من الإجازة السنوية؟"),
    ("hr/sick-leave.pdf", "الإجازة المرضية",
     "تُمنح الإجازة المرضية بناءً على تقرير طبي معتمد:\n- أول 15 يوماً بأجر كامل\n- الـ 30 يوماً التالية بنصف الأجر\n- ما زاد على ذلك بدون أجر",
     "كم يوماً من الإجازة المرضية بأجر كامل؟"),
    ("hr/remote-work.pdf", "العمل عن بُعد",
     "يحق للموظف العمل عن بُعد يومين في الأسبوع بعد موافقة مديره المباشر. لا يُسمح بالعمل عن بُعد خلال فترة التجربة.",
     "هل يسمح بالعمل عن بعد خلال فترة التجربة؟"),
    ("hr/probation.pdf", "فترة التجربة",
     "مدة فترة التجربة 90 يوماً، ويجوز تمديدها مرة واحدة لمدة 90 يوماً أخرى باتفاق مكتوب بين الطرفين.",
     "كم مدة فترة التجربة؟"),
    ("hr/travel.pdf", "بدل السفر",
     "بدل السفر اليومي داخل الدولة 400 درهم، وخارجها 800 درهم. تُحجز تذاكر الطيران عن طريق قسم المشتريات فقط.",
     "كم بدل السفر اليومي خارج الدولة؟"),
    ("hr/maternity.pdf", "إجازة الأمومة",
     "تستحق الموظفة إجازة أمومة مدتها 60 يوماً: 45 يوماً بأجر كامل و15 يوماً بنصف الأجر. ويستحق الأب إجازة والدية مدتها 5 أيام عمل.",
     "كم مدة إجازة الأمومة؟"),
    ("hr/training.pdf", "التدريب",
     "تتحمل الشركة تكاليف شهادة مهنية واحدة سنوياً حتى 10,000 درهم، بشرط أن يبقى الموظف في الخدمة سنة بعد الحصول عليها.",
     "ما الحد الأقصى لتكاليف الشهادة المهنية؟"),
    ("hr/working-hours.pdf", "ساعات العمل",
     "ساعات العمل من 8 صباحاً حتى 5 مساءً من الاثنين إلى الجمعة. وفي شهر رمضان تُخفض ساعات العمل ساعتين يومياً.",
     "كم ساعة تخفض ساعات العمل في رمضان؟"),
])  # fmt: skip

ID_PASSAGES = _pool("id", [
    ("p1", "", "Candi Borobudur dibangun pada abad ke-8 dan ke-9 pada masa Wangsa Syailendra. Candi ini memiliki 504 arca Buddha dan 2.672 panel relief, dan ditetapkan sebagai Situs Warisan Dunia UNESCO pada tahun 1991.", "berapa jumlah arca Buddha di Borobudur"),
    ("p2", "", "Kereta Cepat Jakarta–Bandung Whoosh mulai beroperasi pada Oktober 2023. Jarak 142 kilometer ditempuh sekitar 40 menit dengan kecepatan maksimum 350 km/jam.", "berapa lama perjalanan kereta cepat Jakarta Bandung"),
    ("p3", "", "Komodo hanya hidup di alam liar di beberapa pulau di Nusa Tenggara Timur, antara lain Pulau Komodo, Rinca dan Flores. Panjangnya bisa mencapai 3 meter dengan berat lebih dari 70 kilogram.", "berapa panjang komodo dewasa"),
    ("p4", "", "Danau Toba di Sumatera Utara adalah danau vulkanik terbesar di dunia, dengan panjang sekitar 100 kilometer. Di tengahnya terdapat Pulau Samosir.", "pulau apa yang ada di tengah Danau Toba"),
    ("p5", "", "Batik Indonesia diakui UNESCO sebagai Warisan Budaya Takbenda pada 2 Oktober 2009. Sejak itu tanggal 2 Oktober diperingati sebagai Hari Batik Nasional.", "kapan Hari Batik Nasional"),
    ("p6", "", "Gunung Rinjani di Lombok memiliki ketinggian 3.726 meter. Pendakian ditutup setiap tahun dari Januari sampai Maret karena musim hujan.", "kapan pendakian Rinjani ditutup"),
    ("p7", "", "Rendang berasal dari Sumatera Barat dan dimasak dengan santan serta bumbu selama berjam-jam hingga kering. Proses memasak rendang tradisional bisa memakan waktu 4 sampai 8 jam.", "berapa lama memasak rendang tradisional"),
    ("p8", "", "Ibu kota Nusantara terletak di Kalimantan Timur. Upacara peringatan kemerdekaan pertama di IKN digelar pada 17 Agustus 2024.", "di provinsi mana ibu kota Nusantara"),
])  # fmt: skip

ZH_OPS = _pool("zh", [
    ("运维手册/告警.md", "告警分级", "告警分为P0到P3四级：\nP0：核心交易不可用，5分钟内响应；\nP1：部分功能受损，15分钟内响应；\nP2、P3：工作时间内处理。", "P1告警要求多久响应"),
    ("运维手册/发布.md", "发布窗口", "生产环境发布窗口为每周二、周四的14:00至17:00。节假日前一天禁止发布，紧急修复需经值班经理审批。", "生产环境什么时候可以发布"),
    ("运维手册/备份.md", "数据库备份", "MySQL每天凌晨2点全量备份，每小时增量备份一次，备份保留30天。\n\n恢复演练每季度进行一次。", "数据库备份保留多久"),
    ("运维手册/账号.md", "账号权限", "生产环境堡垒机账号需通过OA申请，审批后24小时内开通。离职员工的账号在离职当天下午6点自动禁用。", "离职员工的堡垒机账号什么时候禁用"),
    ("运维手册/扩容.md", "自动扩容", "| 指标 | 阈值 | 动作 |\n|---|---|---|\n| CPU | 70% 持续5分钟 | 扩容2台 |\n| CPU | 30% 持续30分钟 | 缩容1台 |\n\n单个服务最多扩容到40台。", "CPU多高会触发扩容"),
    ("运维手册/日志.md", "日志查询", "应用日志统一接入日志平台，保留14天。查询超过7天的日志需要选择“归档”数据源，速度较慢。", "应用日志保留多少天"),
    ("运维手册/证书.md", "证书续期", "HTTPS证书由平台自动续期，到期前30天开始尝试。续期失败会产生P2告警，需要在3个工作日内处理。", "证书到期前多少天开始续期"),
    ("运维手册/值班.md", "值班安排", "值班为7×24小时，每周一上午10点交接。值班人员须在告警后10分钟内在群里确认，超时将电话升级到二线。", "值班几点交接"),
])  # fmt: skip

TH_WEB = _pool("th", [
    ("https://travel.example.co.th/visa-exemption", "ยกเว้นวีซ่า 60 วัน",
     "นักท่องเที่ยวจาก 93 ประเทศได้รับการยกเว้นวีซ่าเข้าประเทศไทยและพำนักได้ไม่เกิน 60 วัน และสามารถขอขยายเวลาได้อีก 30 วันที่สำนักงานตรวจคนเข้าเมือง",
     "ยกเว้นวีซ่าอยู่ได้กี่วัน"),
    ("https://news.example.co.th/bts-fare", "ค่าโดยสารรถไฟฟ้า 20 บาท",
     "รถไฟฟ้าสายสีแดงและสายสีม่วงเก็บค่าโดยสารสูงสุด 20 บาทตลอดสาย ผู้โดยสารต้องลงทะเบียนบัตรก่อนใช้สิทธิ์",
     "รถไฟฟ้าสายสีม่วงค่าโดยสารสูงสุดเท่าไร"),
    ("https://health.example.co.th/pm25", "ค่าฝุ่น PM2.5",
     "เมื่อค่า PM2.5 เกิน 75 ไมโครกรัมต่อลูกบาศก์เมตร ควรงดกิจกรรมกลางแจ้งและสวมหน้ากาก N95\nเด็กและผู้สูงอายุควรอยู่ในอาคาร",
     "ค่าฝุ่นเท่าไรควรงดกิจกรรมกลางแจ้ง"),
    ("https://festival.example.co.th/loy-krathong", "ลอยกระทง 2569",
     "เทศกาลลอยกระทงปี 2569 ตรงกับวันที่ 24 พฤศจิกายน กรุงเทพมหานครเปิดให้ลอยกระทงใน 30 สวนสาธารณะ และขอให้ใช้กระทงจากวัสดุธรรมชาติ",
     "ลอยกระทงปี 2569 ตรงกับวันไหน"),
    ("https://tax.example.co.th/easy-ereceipt", "Easy E-Receipt",
     "มาตรการ Easy E-Receipt ให้นำค่าซื้อสินค้าและบริการมาลดหย่อนภาษีได้สูงสุด 50,000 บาท โดยต้องมีใบกำกับภาษีอิเล็กทรอนิกส์",
     "Easy E-Receipt ลดหย่อนได้สูงสุดเท่าไร"),
    ("https://park.example.co.th/doi-inthanon", "ดอยอินทนนท์",
     "ค่าเข้าอุทยานแห่งชาติดอยอินทนนท์สำหรับคนไทยผู้ใหญ่ 50 บาท เด็ก 20 บาท ชาวต่างชาติผู้ใหญ่ 300 บาท อุทยานเปิดเวลา 05.30–18.30 น.",
     "ค่าเข้าดอยอินทนนท์สำหรับชาวต่างชาติเท่าไร"),
    ("https://bank.example.co.th/promptpay", "พร้อมเพย์",
     "การโอนเงินผ่านพร้อมเพย์ไม่มีค่าธรรมเนียมสำหรับบุคคลธรรมดา วงเงินโอนต่อครั้งขึ้นอยู่กับธนาคาร ส่วนใหญ่ไม่เกิน 2 ล้านบาทต่อวัน",
     "โอนพร้อมเพย์มีค่าธรรมเนียมไหม"),
    ("https://food.example.co.th/michelin-2027", "มิชลินไกด์ 2027",
     "มิชลินไกด์ประเทศไทยฉบับ 2027 มีร้านอาหารระดับดาว 38 ร้าน รวมถึงร้านสามดาว 1 ร้าน\n\nร้านสตรีทฟู้ดได้รางวัลบิบ กูร์มองด์ 150 ร้าน",
     "มิชลินไกด์ 2027 มีร้านระดับดาวกี่ร้าน"),
])  # fmt: skip

KO_WEB = _pool("ko", [
    ("https://news.example.kr/ktx-fare", "KTX 요금 인상",
     "코레일은 2027년 1월부터 KTX 운임을 평균 4.5% 인상한다고 밝혔다. 서울–부산 일반실 요금은 59,800원에서 62,500원으로 오른다.",
     "서울 부산 KTX 일반실 요금은 얼마로 오르나요"),
    ("https://gov.example.kr/minimum-wage", "2027년 최저임금",
     "2027년 최저임금은 시간당 10,900원으로 결정됐다. 주 40시간 기준 월 환산액은 2,278,100원이다.",
     "2027년 최저임금은 시간당 얼마인가요"),
    ("https://weather.example.kr/jangma", "장마 시작",
     "올해 장마는 제주에서 6월 19일, 중부지방에서 6월 25일 시작될 것으로 예상된다.\n평년보다 강수량이 많을 가능성이 높다.",
     "중부지방 장마는 언제 시작하나요"),
    ("https://travel.example.kr/jeju-fee", "제주 입도세 논의",
     "제주도는 환경보전분담금으로 관광객 1인당 숙박 시 1,500원을 부과하는 방안을 검토하고 있다. 렌터카는 하루 5,000원이 거론된다.",
     "제주 렌터카 환경보전분담금은 얼마로 거론되나요"),
    ("https://health.example.kr/flu-vaccine", "독감 예방접종",
     "만 65세 이상과 생후 6개월~13세 어린이는 독감 예방접종을 무료로 받을 수 있다. 접종 기간은 10월부터 다음 해 4월까지이다.",
     "독감 무료 접종 대상은 누구인가요"),
    ("https://tech.example.kr/k-pass", "K-패스 환급",
     "K-패스는 월 15회 이상 대중교통을 이용하면 요금의 20%를 환급해 준다. 청년은 30%, 저소득층은 53%까지 돌려받는다.",
     "K-패스 청년 환급률은 얼마인가요"),
    ("https://culture.example.kr/palace-hours", "고궁 야간 개방",
     "경복궁 야간 개방은 봄·가을 시즌에 화요일을 제외하고 19시부터 21시 30분까지 진행된다. 입장권은 인터넷 예매만 가능하다.",
     "경복궁 야간 개방 입장권은 어디서 사나요"),
    ("https://finance.example.kr/isa", "ISA 계좌 비과세",
     "ISA 계좌는 의무가입기간 3년이 지나면 수익 200만 원까지 비과세된다. 서민형은 400만 원까지 비과세 한도가 늘어난다.",
     "ISA 서민형 비과세 한도는 얼마인가요"),
])  # fmt: skip

# --- templates ---------------------------------------------------------------------------------------------

LITM_INSTRUCTION = "Write a high-quality answer for the given question using only the provided search results (some of which might be irrelevant)."


def lost_in_the_middle(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """The multi-document QA prompt of 'Lost in the Middle' (from memory of nelson-liu/lost-in-the-middle):
    one line per passage, 'Document [n](Title: t) text', then 'Question:' and 'Answer:'. A router: with more than
    three passages the team uses the repository's query-aware contextualization variant, which also states the
    question before the documents."""
    search = "\n".join(f"Document [{i}](Title: {d.title}) {d.text}" for i, d in enumerate(docs, 1))
    before = f"Question: {question}\n\n" if len(docs) > 3 else ""
    return [_msg("user", f"{LITM_INSTRUCTION}\n\n{before}{search}\n\nQuestion: {question}\nAnswer:")]


FRESH_DEMOS = [
    ("Who is the current CEO of Twitter/X?", [
        ("reuters.example.com", "2023-05-12", "Musk names Linda Yaccarino as Twitter CEO",
         "Elon Musk said on Friday he had hired NBCUniversal advertising chief Linda Yaccarino as Twitter's new chief executive, handing over the job he took on after buying the company in 2022.", "Linda Yaccarino"),
        ("theverge.example.com", "2025-07-09", "Linda Yaccarino steps down as X CEO",
         "Linda Yaccarino announced on Wednesday that she is stepping down as CEO of X after two years. No successor was named; Elon Musk remains executive chairman and CTO.", ""),
    ], "As of today, X has no named CEO: Linda Yaccarino stepped down in July 2025 and no successor was named."),
    ("How many countries use the euro?", [
        ("ec.example.europa.eu", "2026-01-01", "Bulgaria joins the euro area",
         "Bulgaria adopted the euro on 1 January 2026, becoming the 21st member of the euro area.", "21st member"),
    ], "21 countries use the euro, since Bulgaria joined on 1 January 2026."),
]  # fmt: skip
FRESH_DATES = {d.source: d.source.split("|")[1] for d in FRESH_NEWS}


def _fresh_evidence(source: str, date: str, title: str, snippet: str, highlight: str) -> str:
    return f"source: {source}\ndate: {date}\ntitle: {title}\nsnippet: {snippet}\nhighlight: {highlight}\n\n"


def freshprompt(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """FreshPrompt (from memory of the FreshLLMs paper and repository): demonstrations, each a 'query:' with
    its own evidences and a reasoned answer, then the request's evidences (source/date/title/snippet/highlight
    records, oldest first so the newest sits nearest the question), 'question:' and the answer prefix 'As of
    today …'; one completion string. The highlight is the phrase the search engine bolded, empty for most."""
    docs.sort(key=lambda d: FRESH_DATES[d.source])
    parts = []
    for demo_question, evidences, demo_answer in rng.sample(FRESH_DEMOS, rng.randint(1, 2)):
        parts.append(f"query: {demo_question}\n\n" + "".join(_fresh_evidence(*e) for e in evidences)
                     + f"question: {demo_question}\nanswer: {demo_answer}\n\n")  # fmt: skip
    evidence = ""
    for d in docs:
        words = d.text.split()
        highlight = " ".join(words[3:7]) if rng.random() < 0.3 else ""
        evidence += _fresh_evidence(d.source.split("|")[0], FRESH_DATES[d.source], d.title, d.text, highlight)
    today = "November 29, 2026"
    parts.append(
        f"query: {question}\n\n{evidence}question: {question}\n"
        f"answer: As of today {today}, the most up-to-date and relevant answer to this question is"
    )
    return [_msg("user", "".join(parts))]


CHATGPT_BROWSER_SYSTEM = """You are ChatGPT, a large language model trained by OpenAI, based on the GPT-4 architecture.
Knowledge cutoff: 2023-04
Current date: 2026-11-29

# Tools

## browser

You have the tool `browser` with these functions:
`search(query: str, recency_days: int)` Issues a query to a search engine and displays the results.
`click(id: str)` Opens the webpage with the given id, displaying it. The ID within the displayed results maps to a URL.
`back()` Returns to the previous page and displays it.
`scroll(amt: int)` Scrolls up or down in the open webpage by the given amount.
`open_url(url: str)` Opens the given URL and displays it.
`quote_lines(start: int, end: int)` Stores a text span from an open webpage. Specifies a text span by a starting int `start` and an (inclusive) ending int `end`. To quote a single line, use `start` = `end`.
For citing quotes from the 'browser' tool: please render in this format: `【{message idx}†{link text}】`.
For long citations: please render in this format: `[link text](message idx)`.
Otherwise do not render links."""


def chatgpt_browser_vi(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """ChatGPT's browser tool, 2023-24 (from memory of the published system prompt): the system prompt with
    the tool's functions, the question, the model's search call, the tool's result page: one '# 【i†title†domain】'
    line per result with its snippet on the next line(s)."""
    call = _tool_call("search", {"query": question.rstrip("?"), "recency_days": rng.choice([30, 365])}, rng)
    page = "\n".join(f"# 【{i}†{d.title}†{d.source.split('/')[2]}】\n{d.text}" for i, d in enumerate(docs))
    tool = _msg("tool", page, tool_call_id=call["tool_calls"][0]["id"], name="browser")
    return [_msg("system", CHATGPT_BROWSER_SYSTEM), _msg("user", question), call, tool]


SYDNEY_INSTRUCTIONS = """[system](#instructions)
## You are the chat mode of Microsoft Bing search:
- You identify as Microsoft Bing search to users, **not** an assistant.
- You should introduce yourself with "This is Bing", but only at the beginning of a conversation.
- You can understand and communicate fluently in the user's language of choice such as English, 中文, 日本語, Español, Français or Deutsch.

## On your ability to gather and present information:
- You should always perform web searches when the user is seeking information or whenever search results could be potentially helpful, regardless of your internal knowledge or information.
- You can and should perform up to **3** searches in a single conversation turn.
- You should always reference factual statements to the search results.
"""


def sydney_tr(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Bing Chat's 2023 prompt as leaked (from memory): the whole conversation is one document of
    '[role](#kind)' headed blocks: instructions, context (time and place), the user's message, the search
    query, the search results as a JSON object in a ```json fence, then '[assistant](#message)' for the
    model to continue. Turkish users in Istanbul; sometimes an earlier exchange."""
    results = {"web_search_results": [
        {"index": str(i), "title": d.title, "snippet": d.text, "url": d.source} for i, d in enumerate(docs, 1)
    ]}  # fmt: skip
    earlier = ""
    if rng.random() < 0.3:
        earlier = "[user](#message)\nMerhaba!\n[assistant](#message)\nMerhaba, bu Bing. Size nasıl yardımcı olabilirim? 😊\n"
    query = re.sub(r"[?!.]", "", question).lower()
    prompt = (
        f"{SYDNEY_INSTRUCTIONS}\n[system](#context)\n- New conversation with user B.\n"
        f"- Time at the start of this conversation is Sun, 29 Nov 2026 {rng.randint(8, 22):02d}:{rng.randint(0, 59):02d}:11 GMT+03:00. The user is located in İstanbul, Türkiye.\n"
        "- User's language might be different from the language commonly spoken in their location.\n"
        f"{earlier}[user](#message)\n{question}\n[assistant](#search_query)\n{query}\n"
        f"[assistant](#search_results)\n```json\n{json.dumps(results, ensure_ascii=False)}\n```\n[assistant](#message)\n"
    )
    return [_msg("user", prompt)]


CLAUDE_CODE_SYSTEM = "You are Claude Code, Anthropic's official CLI for Claude.\nYou are an interactive CLI tool that helps users with software engineering tasks. Use the instructions below and the tools available to you to assist the user."
CLAUDE_KINDS = {"global": "user's private global instructions for all projects",
                "local": "user's private project instructions, not checked in"}  # fmt: skip


def claude_code_memory_uk(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Claude Code's memory files (from memory of its system reminder): a user turn wrapping
    '<system-reminder>' with '# claudeMd', the instruction line, then each CLAUDE.md as 'Contents of <path>
    (<kind>):\\n\\n<text>' joined by blank lines, the closing reminder; the question in the next user turn.
    The user's global file is in every request (added when the search did not bring it), then the project's
    files from the root down."""
    if UK_CLAUDE_GLOBAL not in docs:
        docs.insert(0, UK_CLAUDE_GLOBAL)
    docs.sort(key=lambda d: (d.title != "global", d.source.count("/"), d.source))
    files = "\n\n".join(
        f"Contents of {d.source} ({CLAUDE_KINDS.get(d.title, 'project instructions, checked into the codebase')}):\n\n{d.text}"
        for d in docs
    )
    reminder = (
        "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\n"
        "Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.\n\n"
        f"{files}\n\n      IMPORTANT: this context may or may not be relevant to your tasks. You should not respond to this context unless it is highly relevant to your task.\n</system-reminder>"
    )
    return [_msg("system", CLAUDE_CODE_SYSTEM), _msg("user", reminder), _msg("user", question)]


OPENHANDS_SYSTEM = """You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.

<ROLE>
Your primary role is to assist users by executing commands, modifying code, and solving technical problems effectively. You should be thorough, methodical, and prioritize quality over speed.
* If the user asks a question, like "why is X happening", don't try to fix the problem. Just give an answer to the question.
</ROLE>"""


def openhands_microagents(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """OpenHands' knowledge microagents (from memory of the recall observation): the system prompt, the user's
    task, then one user turn holding optional '<RUNTIME_INFORMATION>' and, per triggered microagent,
    '<EXTRA_INFO>' with the keyword-match preamble, a blank line and the microagent's markdown; the blocks
    joined by blank lines. The task comes before the knowledge."""
    blocks = []
    if rng.random() < 0.5:
        port = rng.randint(50000, 59999)
        blocks.append(
            f"<RUNTIME_INFORMATION>\nThe user has access to the following hosts for accessing a web application,\neach of which has a corresponding port:\n* http://localhost:{port} (port {port})\n\nToday's date is 2026-11-29 (UTC).\n</RUNTIME_INFORMATION>"
        )
    for d in docs:
        blocks.append(
            "<EXTRA_INFO>\n"
            f'The following information has been included based on a keyword match for "{OH_TRIGGERS[d.source]}".\n'
            "It may or may not be relevant to the user's request.\n\n"
            f"{d.text}\n</EXTRA_INFO>"
        )
    return [_msg("system", OPENHANDS_SYSTEM), _msg("user", question), _msg("user", "\n\n".join(blocks))]


CHATGPT_MEMORY_SYSTEM = """You are ChatGPT, a large language model trained by OpenAI.
Knowledge cutoff: 2024-06
Current date: 2026-11-29

Image input capabilities: Enabled
Personality: v2

# Tools

## bio

The `bio` tool allows you to persist information across conversations. Address your message `to=bio` and write whatever information you want to remember. The information will appear in the model set context below in future conversations."""
HE_BIO = '# User Bio\n\nThe user provided the following information about themselves. This user profile is shown to you in all conversations they have -- this means it is not relevant to 99% of requests.\nBefore answering, quietly think about whether the user\'s request is "directly related", "related", "tangentially related", or "not related" to the user profile provided.\nUser profile:\n```\nקוראים לי אורי. אני אבא לשתי בנות.\n```'


def chatgpt_memory_he(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """ChatGPT's saved memories (from memory of the system prompt): after the tools, an optional '# User Bio'
    (custom instructions, fenced), then '# Model Set Context' with each memory as 'n. [date]. text' and a
    blank line between; the user's question (Hebrew). The memories are stored in date order."""
    docs.sort(key=lambda d: d.source)
    memories = "\n\n".join(f"{i}. [{d.source}]. {d.text}" for i, d in enumerate(docs, 1))
    bio = f"\n\n{HE_BIO}" if rng.random() < 0.5 else ""
    system = f"{CHATGPT_MEMORY_SYSTEM}{bio}\n\n# Model Set Context\n\n{memories}"
    history = (
        [_msg("user", "שלום"), _msg("assistant", "היי אורי! במה אפשר לעזור?")] if rng.random() < 0.3 else []
    )
    return [_msg("system", system), *history, _msg("user", question)]


JAN_TEMPLATE = """Use the following pieces of context to answer the question at the end. If you don't know the answer, just say that you don't know, don't try to make up an answer.
----------------
CONTEXT: {CONTEXT}
----------------
QUESTION: {QUESTION}
----------------
Helpful Answer:"""
FA_HISTORY = [
    ("سلام، فایل راهنمای فروشگاه را بارگذاری کردم.", "سلام! فایل را دریافت کردم. سؤالتان را بپرسید.")
]


def jan_retrieval_fa(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Jan's retrieval tool (from memory of its default retrieval_template): the thread's instructions as
    system, earlier turns, and the last user turn replaced by the template with the chunks joined by blank
    lines (LangChain's formatDocumentsAsString) after 'CONTEXT: '; a Persian shop guide attached to the thread."""
    prompt = JAN_TEMPLATE.replace("{CONTEXT}", "\n\n".join(d.text for d in docs)).replace(
        "{QUESTION}", question
    )
    history = [m for u, a in FA_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))]
    return [_msg("system", "You are a helpful assistant."), *history, _msg("user", prompt)]


def llphant_cs(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LLPhant's QuestionAnswering (from memory of the PHP source): each retrieved document's content followed
    by a single space, pasted into the system template's '{context}' before its closing period; the question
    as the user message. A Czech city library."""
    context = "".join(f"{d.text} " for d in docs)
    system = f"Use the following pieces of context to answer the question of the user. If you don't know the answer, just say that you don't know, don't try to make up an answer.\n\n{context}."
    return [_msg("system", system), _msg("user", question)]


MONGO_SYSTEM = """You are expert QuarryDB documentation chatbot.
You enthusiastically answer user questions about QuarryDB products and services.
Your personality is friendly and helpful, like a professor or tech lead.
You were created by QuarryDB.
Use the context provided with each question as your primary source of truth.
NEVER lie or improvise incorrect answers.
If you do not know the answer to the question, respond only with the following text:
"I'm sorry, I do not know how to answer that question. Please try to rephrase your query."
Format your responses using Markdown. DO NOT mention that your response is formatted in Markdown."""
QUARRY_HISTORY = [
    ("how do I connect from node", "Use the Node.js driver: `npm install quarrydb`, then create a `Client` with your connection string."),
    ("thanks, and from python?", "Install the Python driver with `pip install quarrydb` and pass the same connection string to `Client`."),
]  # fmt: skip


def mongodb_chatbot(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """The MongoDB Chatbot Framework's RAG user prompt (from memory of makeRagGenerateUserPrompt): the system
    prompt, earlier turns, and the user turn 'Using the following information, answer the user query.' with
    the chunks joined by '\\n---\\n' under 'Information:', three newlines, 'User query: …'. The product intro
    chunk comes back for most questions."""
    if QUARRY_FAQ not in docs and len(docs) < 8 and rng.random() < 0.75:
        docs.insert(rng.randint(0, len(docs)), QUARRY_FAQ)
    information = "\n---\n".join(d.text for d in docs)
    prompt = (
        'Using the following information, answer the user query.\nDifferent pieces of information are separated by "---".\n\n'
        f"Information:\n{information}\n\n\nUser query: {question}"
    )
    history = [
        m for u, a in QUARRY_HISTORY[: rng.randint(0, 2)] for m in (_msg("user", u), _msg("assistant", a))
    ]
    return [_msg("system", MONGO_SYSTEM), *history, _msg("user", prompt)]


COPILOT_SYSTEM = """You are an AI programming assistant.
When asked for your name, you must respond with "GitHub Copilot".
Follow the user's requirements carefully & to the letter.
Keep your answers short and impersonal.
Use Markdown formatting in your answers."""


def _fence(text: str) -> str:
    """Backticks one longer than the longest run inside the text, at least three."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def copilot_attachments_pt(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """VS Code Copilot Chat's attachments (from memory of its prompt): the user turn opens with
    '<attachments>', each file an '<attachment id=… filePath=…>' holding the file in a fence (longer than any
    run of backticks inside), then '<context>' with the date, '<reminderInstructions>', and the question in
    '<userRequest>'. A Brazilian shop's repository docs."""
    attachments = "\n".join(
        f'<attachment id="{d.title}" filePath="/home/dev/loja/{d.source}">\n{_fence(d.text)}markdown\n{d.text}\n{_fence(d.text)}\n</attachment>'
        for d in docs
    )
    user = (
        f"<attachments>\n{attachments}\n</attachments>\n<context>\nThe current date is November 29, 2026.\n</context>\n"
        "<reminderInstructions>\nWhen using the insert_edit_into_file tool, avoid repeating existing code.\n</reminderInstructions>\n"
        f"<userRequest>\n{question}\n</userRequest>"
    )
    return [_msg("system", COPILOT_SYSTEM), _msg("user", user)]


AZURE_SYSTEM = (
    "أنت مساعد الموارد البشرية في شركة الواحة. أجب فقط من المستندات المسترجعة واذكر المصدر بصيغة [doc1]."
)


def azure_on_your_data_ar(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Azure OpenAI 'on your data' as the sample chat app records a turn (from memory of sample-app-aoai-
    chatGPT): system, the question, and the tool message the service returned: a JSON object whose
    'citations' hold content/title/url/filepath/chunk_id/metadata per chunk, and whose 'intent' is itself a
    JSON-encoded list of the rephrased queries. Arabic HR policies."""
    intent = json.dumps([question.rstrip("؟"), f"سياسة {docs[0].title}"], ensure_ascii=False)
    citations = [{
        "content": d.text, "id": None, "title": d.title, "filepath": d.source.split("/")[-1],
        "url": f"https://wahaahr.blob.core.windows.net/docs/{d.source}",
        "metadata": {"chunking": f"orignal document size={len(d.text) * 3}. Scores={rng.uniform(2, 9):.4f} and None.Org Highlight count={rng.randint(3, 40)}."},
        "chunk_id": str(rng.randint(0, 6)),
    } for d in docs]  # fmt: skip
    tool = json.dumps({"citations": citations, "intent": intent}, ensure_ascii=False)
    return [
        _msg("system", AZURE_SYSTEM),
        _msg("user", question),
        _msg("tool", tool, tool_call_id=f"call_{rng.randrange(16**6):06x}"),
    ]


def ragtruth_id(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """RAGTruth's question-answering prompt (from memory of the dataset's prompts): the question first, the
    passage count, 'passage n:' items separated by blank lines, the fallback sentence and 'output:'."""
    passages = "\n\n".join(f"passage {i}:{d.text}" for i, d in enumerate(docs, 1))
    prompt = (
        f"Briefly answer the following question:\n{question}\n"
        f"Bear in mind that your response should be strictly based on the following {len(docs)} passages:\n{passages}\n"
        'In case the passages do not contain the necessary information to answer the question, please reply with: "Unable to answer based on given passages."\noutput:'
    )
    return [_msg("user", prompt)]


DBGPT_ZH = """ 基于以下给出的已知信息, 准守规范约束，专业、简要回答用户的问题.
规范约束:
 1.如果已知信息包含的图片、链接、表格、代码块等特殊markdown标签格式的信息，确保在答案中包含原文这些图片、链接、表格和代码标签，不要丢弃不要修改，如:图片格式：![image.png](xxx), 链接格式:[xxx](xxx), 表格格式:|xxx|xxx|xxx|, 代码格式:```xxx```.
 2.如果无法从提供的内容中获取答案, 请说: "知识库中提供的内容不足以回答此问题" 禁止胡乱编造.
 3.回答的时候最好按照1.2.3.点进行总结, 并以markdwon格式显示.
 已知内容: 
 {context}
 问题:
 {question},请使用和用户相同的语言进行回答.
"""
DBGPT_EN = """ Based on the known information below, provide users with professional and concise answers to their questions.
constraints:
 1.Ensure to include original markdown formatting elements such as images, links, tables, or code blocks without alteration in the response if they are present in the provided information.
 For example, image format should be ![image.png](xxx), link format [xxx](xxx), table format should be represented with |xxx|xxx|xxx|, and code format with xxx.
 2.If the information available in the knowledge base is insufficient to answer the question, state clearly: "The content provided in the knowledge base is not enough to answer this question," and avoid making up answers.
 3.When responding, it is best to summarize the points in the order of 1, 2, 3, And displayed in markdwon format.
 known information: 
 {context}
 question:
 {question},when answering, use the same language as the "user".
"""
ZH_OPS_HISTORY = [("你好", "你好！我是运维知识库助手，请问有什么可以帮您？")]


def _dbgpt(docs: list[Doc], question: str, rng: random.Random, english: bool) -> Messages:
    """DB-GPT's knowledge chat (from memory of chat_knowledge's prompt): a system message holding the scene
    template with the chunks joined by '\\n' and the question, the chat history, the question again as the
    user turn. Redeployed half-way with the language setting switched to English (the English template, the
    same Chinese runbook)."""
    template = DBGPT_EN if english else DBGPT_ZH
    system = template.replace("{context}", "\n".join(d.text for d in docs)).replace("{question}", question)
    history = [
        m for u, a in ZH_OPS_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))
    ]
    return [_msg("system", system), *history, _msg("user", question)]


dbgpt_knowledge = halves(_dbgpt)

MORPHIC_SYSTEM = """As a professional search expert, you possess the ability to search for any information on the web.
For each user query, utilize the search results to their fullest potential to provide additional information and assistance in your response.
If there are any images relevant to your answer, be sure to include them as well.
Aim to directly address the user's question, augmenting your response with insights gleaned from the search results.
Whenever quoting or referencing information from a specific URL, always explicitly cite the source URL using the [[number]](url) format. Multiple citations can be included as needed, e.g., [[number]](url), [[number]](url).
The number must always match the order of the search results.
Please match the language of the response to the user's language. Current date and time: 2026-11-29 10:12:45"""


def morphic_th(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Morphic's researcher (from memory): system prompt, the question, the model's 'search' tool call, and
    the tool result JSON.stringify'd: {results: [{title, url, content}], query, images, number_of_results}."""
    args = {
        "query": question,
        "max_results": 10,
        "search_depth": "basic",
        "include_domains": [],
        "exclude_domains": [],
    }
    call = _tool_call("search", args, rng)
    result = {"results": [{"title": d.title, "url": d.source, "content": d.text} for d in docs],
              "query": question, "images": [], "number_of_results": len(docs)}  # fmt: skip
    tool = _msg(
        "tool",
        json.dumps(result, ensure_ascii=False, separators=(",", ":")),
        tool_call_id=call["tool_calls"][0]["id"],
    )
    return [_msg("system", MORPHIC_SYSTEM), _msg("user", question), call, tool]


PAGE_ASSIST = """You are an AI model who is expert at searching the web and answering user's queries.

Generate a response that is informative and relevant to the user's query based on provided search results. the current date and time are {current_date_time}.

`search-results` block provides knowledge from the web search results. You can use this information to generate a meaningful response.

<search-results>
 {search_results}
</search-results>"""
KO_HISTORY = [("오늘 뉴스 좀 찾아줘", "네, 어떤 주제의 뉴스를 찾아드릴까요?")]


def page_assist_ko(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Page Assist's web search prompt (from memory of the extension's defaults): the results as
    '<result source="url" id="i">content</result>' lines inside <search-results> in the system message, the
    date, earlier turns, the question. Korean news."""
    results = "\n".join(f'<result source="{d.source}" id="{i}">{d.text}</result>' for i, d in enumerate(docs))
    system = PAGE_ASSIST.replace(
        "{current_date_time}", f"2026. 11. 29. 오후 {rng.randint(1, 11)}:{rng.randint(10, 59)}:03"
    ).replace("{search_results}", results)
    history = [m for u, a in KO_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))]
    return [_msg("system", system), *history, _msg("user", question)]


FABRICATED = {
    "en": " The figure was revised upward a week later.", "el": " Επιπλέον, η είσοδος είναι δωρεάν για όλους τους φοιτητές.",
    "vi": " Ngoài ra, người trên 60 tuổi được giảm 50%.", "tr": " Ayrıca öğrencilere yüzde 50 indirim uygulanıyor.",
    "uk": " Крім того, у п'ятницю деплой заборонено з 12:00.", "he": " בנוסף, הוא ביקש להזכיר לו את זה כל שבוע.",
    "fa": " همچنین دانشجویان ۱۰ درصد تخفیف دارند.", "cs": " Navíc senioři nad 70 let neplatí nic.",
    "pt": " Além disso, o PR precisa de duas aprovações.", "ar": " كما يحصل الموظف على يوم إضافي في عيد ميلاده.",
    "id": " Selain itu, pengunjung asing wajib membawa paspor.", "zh": "另外，周五下午也禁止发布。",
    "th": " นอกจากนี้ ผู้สูงอายุได้รับส่วนลดครึ่งราคา", "ko": " 또한 65세 이상은 무료입니다.",
}  # fmt: skip
PREAMBLE = {
    "en": "According to the search results, ", "el": "Σύμφωνα με τα αποτελέσματα, ", "vi": "Theo kết quả tìm kiếm, ",
    "tr": "Arama sonuçlarına göre, ", "uk": "Згідно з CLAUDE.md: ", "he": "לפי מה שאני זוכר: ",
    "fa": "بر اساس راهنما، ", "cs": "Podle dostupných informací: ", "pt": "De acordo com a documentação, ",
    "ar": "وفقاً للسياسة، ", "id": "Berdasarkan bacaan, ", "zh": "根据已知信息，", "th": "จากผลการค้นหา ",
    "ko": "검색 결과에 따르면, ",
}  # fmt: skip

SERVICES = [
    ("arkheio-lost-in-the-middle-el", "Lost in the Middle multi-document QA prompt, with its query-aware variant routed by context size (from memory)", "Greek encyclopaedia: one completion string, 'Document [n](Title: t) text' lines, 'Question:'/'Answer:'; more than three passages: the question also before the documents", GREEK_WIKI, lost_in_the_middle),
    ("newsdesk-freshprompt", "FreshPrompt, FreshLLMs (from memory)", "one completion string: 1-2 demonstrations with their own evidence records, then source/date/title/snippet/highlight records oldest first, 'question:', 'answer: As of today …'", FRESH_NEWS, freshprompt),
    ("timkiem-chatgpt-browser-vi", "ChatGPT browser tool, 2023-24 system prompt (from memory)", "Vietnamese web: system (tools), question, search call, tool message '# 【i†title†domain】' line + snippet per result", VI_WEB, chatgpt_browser_vi),
    ("arama-bing-sydney-tr", "Bing Chat (Sydney) 2023 conversation document (from memory)", "Turkish web: one string of '[role](#kind)' blocks; '[assistant](#search_results)' holds a ```json {web_search_results: [{index,title,snippet,url}]}; sometimes an earlier exchange", TR_WEB, sydney_tr),
    ("kvytok-claude-code-uk", "Claude Code CLAUDE.md memory system reminder (from memory)", "Ukrainian project: system, user '<system-reminder>' with 'Contents of <path> (<kind>):' blocks (the global file always first), question in its own user turn", UK_CLAUDE, claude_code_memory_uk),
    ("quarry-openhands-microagents", "OpenHands knowledge microagents recall observation (from memory)", "system, the task, then one user turn: optional <RUNTIME_INFORMATION>, '<EXTRA_INFO>' per microagent with a keyword-match preamble; docs with code fences and lists", QUARRY, openhands_microagents),
    ("zikaron-chatgpt-memory-he", "ChatGPT saved memories in the system prompt (from memory)", "Hebrew: system (tools, optional '# User Bio', '# Model Set Context' with 'n. [date]. memory' items separated by blank lines), optional history, question", HE_MEMORY, chatgpt_memory_he),
    ("forushgah-jan-retrieval-fa", "Jan retrieval tool default template (from memory)", "Persian shop guide: system, 0-1 history exchange, last user turn = template with chunks joined by blank lines after 'CONTEXT: ', '----------------' rules", FA_DOCS, jan_retrieval_fa),
    ("knihovna-llphant-cs", "LLPhant QuestionAnswering (PHP) (from memory)", "Czech library: system = instruction + chunks each followed by a single space + '.'; question as the user message", CS_DOCS, llphant_cs),
    ("quarry-mongodb-chatbot", "MongoDB Chatbot Framework RAG user prompt (from memory), rebranded", "system persona, 0-2 history exchanges, user 'Information:' chunks joined by '\\n---\\n', 'User query:'; the intro chunk in ~3 of 4 requests", QUARRY, mongodb_chatbot),
    ("loja-copilot-attachments-pt", "VS Code GitHub Copilot Chat attachments (from memory)", "Portuguese repo docs: system, one user turn: <attachments> with fenced file content per <attachment>, <context>, <reminderInstructions>, <userRequest>", PT_REPO, copilot_attachments_pt),
    ("waha-azure-on-your-data-ar", "Azure OpenAI On Your Data citations as the sample chat app records them (from memory)", "Arabic HR: system, question, tool message JSON {citations: [{content,id,title,filepath,url,metadata,chunk_id}], intent: JSON-encoded list}", AR_HR, azure_on_your_data_ar),
    ("nusantara-ragtruth-id", "RAGTruth question-answering prompt (from memory)", "Indonesian passages: one string, the question first, 'passage n:text' items separated by blank lines, fallback sentence, 'output:'", ID_PASSAGES, ragtruth_id),
    ("yunwei-dbgpt-knowledge", "DB-GPT chat knowledge prompt, Chinese then English after a redeploy (from memory)", "Chinese runbook: system = scene template with chunks joined by '\\n' and the question; 0-1 history exchange; the question again as user turn; second half the English template", ZH_OPS, dbgpt_knowledge),
    ("khonha-morphic-th", "Morphic researcher search tool (from memory)", "Thai web: system, question, search tool call, tool message compact JSON {results: [{title,url,content}], query, images, number_of_results}", TH_WEB, morphic_th),
    ("geomsaek-page-assist-ko", "Page Assist web search prompt (from memory)", "Korean news: system with '<result source=… id=…>content</result>' lines inside <search-results>, 0-1 history exchange, question", KO_WEB, page_assist_ko),
]  # fmt: skip


def build() -> None:
    write_wave(
        "wave_s",
        HERE,
        SERVICES,
        seed=19300,
        requests=REQUESTS,
        answer=answers(PREAMBLE, FABRICATED),
        as_sent=as_sent,
        most_others=7,
    )
    verify_wave(HERE)


if __name__ == "__main__":
    build()
