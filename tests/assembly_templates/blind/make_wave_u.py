# ruff: noqa: E501
"""Blind wave U: sixteen services after research prompts, agent tools, vendor labs and products that no earlier
wave holds, written by a helper who had not read the reader, with 1-8 documents per request. Every
template was written from memory of the public source (not copied, so wording may drift from the original):

- RankGPT's listwise reranking (Dutch bike shop search): one user turn '[i] passage' per product page, each
  acknowledged by the assistant, the passage split into words and joined by single spaces;
- LangChain's FlareChain (Brazilian tax FAQ): one completion prompt, chunks joined by blank lines after
  '>>> CONTEXT: ', '>>> USER INPUT:', '>>> RESPONSE:' with the answer generated so far;
- Haystack 1.x PromptHub's 'deepset/question-answering-with-references' (UK home insurance wording):
  '\\nDocument[i]: content' joined by '\\n', its str_replace turning the content's line breaks into spaces and
  its square brackets into round ones;
- the MCP filesystem server's read_multiple_files in an agent (Polish repository): '<path>:\\n<content>\\n'
  joined by '\\n---\\n', markdown, YAML and JSON files, sometimes an ENOENT entry and a search_files call first;
- LangChain's WikipediaQueryRun (Japanese Wikipedia) and ArxivQueryRun (hard-wrapped abstracts) as tool
  messages of a tool-calling agent: 'Page:/Summary:' and 'Published/Title/Authors/Summary' blocks, top three;
- hwchase17/chat-your-data's QA prompt (French climate plan): the question first, chunks between '=========';
- the Azure Cosmos DB 'Cosmic Works' copilot lab (Spanish bike catalogue): each product record as
  json.dumps(indent=4) and a blank line appended to the system prompt, history;
- Pinecone's generative QA example (Hindi lecture transcripts), redeployed half-way from the completion prompt
  to the 'Q&A bot' chat version, chunks joined by '\\n\\n---\\n\\n' in both;
- Aleph Alpha's intelligence layer retriever QA in German: '### Instruction:' / '### Input:' / '### Response:';
- RAFT's inference format (Russian IT knowledge base): '<DOCUMENT>text</DOCUMENT>' lines, the question after;
- NAVER BERGEN's multilingual RAG prompt (Korean Wikipedia): 'Background:', 'Document i:' lines,
  'Question:\\ …';
- NoMIRACL's relevance prompt (Bengali Wikipedia): '[i] title\\ntext' blocks between QUESTION and OUTPUT;
- Meta CRAG's KDD Cup baseline: '# References ' and '- chunk' lines, 'Current Time:', 'Question:';
- Cursor's attached files (Chinese Go service): '<file_contents>' fences 'path=…, lines=1-N' in
  '<additional_data>', an optional '<current_file>' block, '<user_query>', history;
- a LongBench harness routing per language: the hotpotqa prompt ('Passage i:\\ntitle\\ntext') or the dureader
  prompt ('文章i\\n标题：…').

Ground truth: every document is the text the retriever (or file reader, or tool) returned, as it stands in
the prompt, never a title, path, URL, date, author list, label, fence or error entry the template adds around
it. Where the template rewrites the text the document is the rewritten text the prompt holds: RankGPT's
passages with their whitespace collapsed, Haystack 1's with line breaks made spaces and brackets made round.
Cosmic Works' documents are whole product records as json.dumps writes them (indented, non-ASCII escaped).
Cursor's '<current_file>' line is editor state, not a document.

First run with main's readers (``bench_templates.py --blind tests/assembly_templates/blind/wave_u``, each
request under openinference and openai-v2-latest, 48 readings a service): learnt+rules 382/768 right (49.7%),
153 wrong context, 233 unscored (readings_disagree 187, no_context 32, unparseable 12, context_not_separable
2); learnt-only 382 / 124 / 262; rules-only 110 / 382 / 276. Learnt+rules right / wrong / unscored:
eval-crag-baseline, harbourside-haystack1-refs, jisik-bergen-ko, kaksha-pinecone-genqa-hi,
kasse-aleph-alpha-qa-de, receita-flare-pt, tabi-wikipedia-tool-ja 48/0/0 each; servis-raft-ru 46/0/2;
jibon-nomiracl-bn 0/48/0; valcourt-chat-your-data-fr 0/38/10; winkel-rankgpt-nl 0/36/12 (unparseable);
bench-longbench-router 0/16/32 (no_context); kolejka-mcp-filesystem-pl 0/13/35; papers-arxiv-tool 0/2/46;
cosmo-cosmic-works-es and dingdan-cursor-attachments-zh 0/0/48 (readings_disagree).

    python tests/assembly_templates/blind/make_wave_u.py   # writes wave_u/*.json (deterministic)
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from make_wave_q import _msg, _sentence
from make_wave_s import answers as wave_s_answers
from make_wave_s import halves
from wave_writer import prompt_text, spellings, write_long_wave

HERE = Path(__file__).resolve().parent / "wave_u"

Messages = list[dict[str, Any]]


@dataclass(frozen=True)
class Doc:
    """A retrieved text; ``answer`` is the sentence a model quotes from it when its first prose line is not
    one (JSON records, code, transcripts)."""

    source: str
    title: str
    text: str
    question: str
    lang: str = "en"
    answer: str = ""


def _pool(lang: str, rows: list[tuple[str, ...]]) -> list[Doc]:
    return [Doc(*row[:4], lang, *row[4:]) for row in rows]  # type: ignore[arg-type]


def _tool_call(name: str, arguments: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """An assistant turn calling one function tool, as OpenAI-style chat APIs record it."""
    call = {"id": f"call_{rng.randrange(16**12):012x}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}  # fmt: skip
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def keep(docs: list[Doc], question: str, most: int) -> None:
    """Trim the retrieved list in place to a template's top-k, the document the question was written for kept."""
    target = next(d for d in docs if d.question == question)
    others = [d for d in docs if d is not target][: most - 1]
    docs[:] = [d for d in docs if d is target or d in others]


def collapsed(text: str) -> str:
    """Whitespace runs made one space, as a template that splits a passage into words and joins them writes it."""
    return " ".join(text.split())


def haystack_replaced(text: str) -> str:
    """Haystack 1's str_replace on document content: line breaks to spaces, square brackets to round ones."""
    return text.replace("\n", " ").replace("[", "(").replace("]", ")")


def as_sent(text: str, messages: Messages) -> str:
    """The document as the prompt holds it: the retriever's text as written or escaped, or as the template
    rewrote it (whitespace collapsed, brackets replaced)."""
    prompt = prompt_text(messages)
    for form in (text, collapsed(text), haystack_replaced(text)):
        if any(s in prompt for s in spellings(form)):
            return form
    raise ValueError(f"document not in its prompt: {text[:40]!r}")


def first_sentence(target: Doc) -> str:
    """The sentence an answer quotes: the document's own, else the first prose sentence past its heading
    lines (lines without sentence punctuation)."""
    if target.answer:
        return target.answer
    prose = "\n".join(line for line in target.text.split("\n") if re.search(r"[.。!?।]", line))
    return _sentence(replace(target, text=prose or target.text))  # type: ignore[arg-type]


Answer = Callable[[Doc, random.Random], tuple[str, bool]]


def answers(preamble: dict[str, str], fabricated: dict[str, str], styles: dict[str, Answer]) -> Answer:
    """Wave S's answers (a sentence of the target document, plain, cited, bold or after a preamble, 40% with a
    fabricated claim) quoting ``first_sentence``; services whose output is no prose answer (a ranking, a
    verdict) answer in their own style, found by the source's prefix."""
    prose = wave_s_answers(preamble, fabricated)

    def answer(target: Doc, rng: random.Random) -> tuple[str, bool]:
        for prefix, style in styles.items():
            if target.source.startswith(prefix):
                return style(target, rng)
        return prose(replace(target, text=first_sentence(target)), rng)  # type: ignore[arg-type]

    return answer


def ranking(target: Doc, rng: random.Random) -> tuple[str, bool]:
    ids = list(range(1, rng.randint(2, 6)))
    rng.shuffle(ids)
    return " > ".join(f"[{i}]" for i in ids), False


def nomiracl_verdict(target: Doc, rng: random.Random) -> tuple[str, bool]:
    return ("Yes, answer is present" if rng.random() < 0.85 else "I don't know"), False


def raft_answer(target: Doc, rng: random.Random) -> tuple[str, bool]:
    quote = first_sentence(target)
    planted = rng.random() < 0.3
    tail = " Кроме того, заявку можно подать по телефону 1234." if planted else ""
    return (
        f"##Reason: В документе сказано: ##begin_quote## {quote} ##end_quote## Значит, ответ следует прямо из "
        f"этого фрагмента.{tail} <ANSWER>: {quote}"
    ), planted


# --- pools -------------------------------------------------------------------------------------------------

NL_SHOP = _pool("nl", [
    ("nl/ortlieb-back-roller", "Ortlieb Back-Roller Classic",
     "Ortlieb Back-Roller Classic – set van 2 fietstassen\n\nInhoud: 2 × 20 liter\nMateriaal: PVC-gecoat polyesterweefsel, volledig waterdicht (IP64)\nSluiting: rolsluiting met gesp en schouderriem\nBevestiging: QL2.1-systeem, past op bagagedragerbuizen van 8 tot 16 mm\n\nDe klassieker onder de fietstassen: geschikt voor woon-werkverkeer én meerdaagse tochten. Let op: de tassen worden per paar verkocht.",
     "waterdichte fietstas 20 liter woon-werk"),
    ("nl/thule-yepp-maxi", "Thule Yepp 2 Maxi",
     "Thule Yepp 2 Maxi fietsstoeltje (achter)\n\n- Voor kinderen van 9 maanden tot 6 jaar, maximaal 22 kg\n- Montage op de bagagedrager (Thule Yepp 2 Maxi Rack Mount) of op het frame met de aparte framebeugel\n- Vijfpuntsgordel met kindveilige magnetische sluiting\n- Voetsteunen in 6 standen verstelbaar\n\nGoedgekeurd volgens EN 14344. Niet geschikt voor bagagedragers met een draagvermogen onder 27 kg.",
     "fietsstoeltje achter tot 22 kg"),
    ("nl/bosch-powerpack-500", "Bosch PowerPack 500",
     "Bosch PowerPack 500 Frame – accu voor e-bikes met Bosch Active Line, Performance Line en Cargo Line (Smart System uitgezonderd).\n\nCapaciteit: 500 Wh (36 V, 13,4 Ah)\nGewicht: ca. 2,6 kg\nLaadtijd: ca. 4,5 uur met de 4A Charger\n\nDe accu wordt zonder lader geleverd. Bewaar de accu bij langere stilstand bij 30 tot 60% lading en tussen 0 en 20 °C.",
     "accu e-bike 500 Wh bosch frame"),
    ("nl/bumm-iq-x", "Busch & Müller IQ-X",
     "Busch & Müller Lumotec IQ-X koplamp voor naafdynamo\n\nLichtopbrengst: 100 lux, StVZO-goedgekeurd\nStandlicht: ja, ca. 4 minuten na stilstand\nSchakelaar: Senso-automaat (licht gaat vanzelf aan bij schemering)\nAansluiting: 6 V naafdynamo, met kabel van 45 cm\n\nNiet bedoeld voor e-bikes met 12 V-lichtaansluiting; kies daarvoor de IQ-XS E.",
     "fietslamp koplamp naafdynamo 100 lux"),
    ("nl/axa-defender", "AXA Defender ringslot",
     "AXA Defender ringslot – ART 2 sterren\n\nHet Defender ringslot voldoet aan de ART-eisen voor 2 sterren en wordt door vrijwel alle Nederlandse fietsverzekeraars geaccepteerd. Het slot heeft een gehard stalen beugel van 8,5 mm en kan worden uitgebreid met een insteekketting.\n\nLeveringsomvang: slot, 2 sleutels (één met lampje), montagemateriaal.\nSleutelnummer: noteer het nummer voor het bijbestellen van sleutels.",
     "ringslot ART 2 sterren verzekering"),
    ("nl/agu-regenpak", "AGU Rain Suit Essential",
     "AGU Rain Suit Essential – regenjas en regenbroek\n\n- Waterkolom: 10.000 mm\n- Ademend vermogen: 8.000 g/m²/24u\n- Getapete naden, reflecterende details voor en achter\n- Broek met ritsen aan de enkels, ook over schoenen aan te trekken\n\nHet pak wordt geleverd in een opbergzakje. Wassen op 30 °C, niet in de droger.",
     "regenpak fiets ademend"),
    ("nl/schwalbe-marathon-plus", "Schwalbe Marathon Plus",
     "Schwalbe Marathon Plus 28 x 1.40 (37-622) buitenband\n\nDankzij de 5 mm dikke SmartGuard-laag is de Marathon Plus vrijwel lekvrij: glas en punaises dringen niet door tot de binnenband. De band is geschikt voor e-bikes tot 50 km/u (ECE-R75).\n\nBandenspanning: 4,0 – 6,0 bar\nGewicht: 970 gram\nMontage: de band zit strak; gebruik bandenlichters en begin tegenover het ventiel.",
     "anti-lek band 28 inch"),
    ("nl/sp-connect", "SP Connect Bike Bundle II",
     "SP Connect Bike Bundle II – telefoonhouder voor het stuur\n\nDe bundel bevat een telefoonhoesje, de stuurmount voor stuurdiameters van 22 tot 35 mm en een universele adapter voor telefoons zonder SP-hoesje. Je klikt de telefoon met een kwartslag vast.\n\nLet op: bij gebruik op een motor of scooter raden we de Anti Vibration Module aan; trillingen kunnen de camera van je telefoon beschadigen.",
     "telefoonhouder stuur fiets"),
])  # fmt: skip

PT_IRPF = _pool("pt", [
    ("pt/obrigatoriedade", "Quem deve declarar",
     "Está obrigado a declarar o IRPF 2026 o contribuinte que, em 2025, recebeu rendimentos tributáveis acima de R$ 33.888,00, como salários, aposentadorias e aluguéis. Também deve declarar quem recebeu rendimentos isentos ou tributados exclusivamente na fonte acima de R$ 200.000,00, ou quem tinha, em 31 de dezembro, bens e direitos de valor total superior a R$ 800.000,00.",
     "Quem é obrigado a declarar o imposto de renda em 2026?"),
    ("pt/prazo-multa", "Prazo e multa por atraso",
     "O prazo de entrega da declaração vai de 17 de março a 29 de maio de 2026. Quem entregar depois paga multa de 1% ao mês-calendário sobre o imposto devido, limitada a 20%, com valor mínimo de R$ 165,74. A multa é emitida junto com o recibo de entrega e pode ser paga com desconto de 50% se quitada em até 30 dias.",
     "Qual é a multa mínima por entregar a declaração com atraso?"),
    ("pt/dependentes", "Dependentes",
     "Cada dependente permite deduzir R$ 2.275,08 da base de cálculo. Podem ser dependentes, entre outros:\n- filhos ou enteados até 21 anos, ou até 24 anos se cursando ensino superior;\n- cônjuge ou companheiro com quem o contribuinte tenha filho ou viva há mais de 5 anos;\n- pais, avós e bisavós que tenham recebido rendimentos de até R$ 27.110,40 em 2025.\nO mesmo dependente não pode constar em duas declarações.",
     "Até que idade o filho universitário pode ser dependente?"),
    ("pt/despesas-medicas", "Despesas médicas",
     "As despesas médicas não têm limite de dedução. Entram consultas, exames, internações, planos de saúde e tratamentos odontológicos do titular e dos dependentes. É preciso guardar os recibos com nome, CPF ou CNPJ de quem prestou o serviço por cinco anos. Remédios comprados em farmácia só podem ser deduzidos se constarem da conta hospitalar.",
     "Existe limite para deduzir despesas médicas?"),
    ("pt/restituicao", "Restituição",
     "A restituição é paga em cinco lotes, de maio a setembro. Têm prioridade, nesta ordem: idosos acima de 80 anos, idosos entre 60 e 79 anos, pessoas com deficiência ou doença grave, professores cuja maior fonte de renda seja o magistério, e contribuintes que usaram a declaração pré-preenchida e optaram por receber via Pix.",
     "Quem tem prioridade para receber a restituição?"),
    ("pt/pre-preenchida", "Declaração pré-preenchida",
     "A declaração pré-preenchida traz dados de empregadores, bancos, planos de saúde e imobiliárias já informados à Receita. Para usá-la é necessária uma conta gov.br nível prata ou ouro. O contribuinte continua responsável por conferir e corrigir todas as informações antes de enviar.",
     "Que nível de conta gov.br é exigido para a declaração pré-preenchida?"),
    ("pt/educacao", "Despesas com educação",
     "Gastos com educação formal podem ser deduzidos até o limite anual de R$ 3.561,50 por pessoa (titular ou dependente). Valem mensalidades de ensino infantil, fundamental, médio, superior, pós-graduação e cursos técnicos. Não entram cursos de idiomas, material escolar, uniforme nem transporte.",
     "Curso de inglês pode ser deduzido como educação?"),
    ("pt/ganho-capital", "Ganho de capital na venda de imóvel",
     "Ganho de capital na venda de imóvel\n\nO lucro obtido na venda de um imóvel é tributado como ganho de capital, com alíquota de 15% sobre a parcela de até R$ 5 milhões. O imposto deve ser calculado no programa GCAP e pago até o último dia útil do mês seguinte ao da venda; ele não é apurado na declaração anual, mas os dados do GCAP são importados para ela.\n\nHá isenção nos seguintes casos:\n- venda do único imóvel, por valor de até R$ 440.000,00, desde que o contribuinte não tenha feito outra venda de imóvel nos últimos cinco anos;\n- venda de imóvel residencial cujo valor seja aplicado, em até 180 dias, na compra de outro imóvel residencial no país;\n- imóveis adquiridos até 1969.\n\nPara imóveis adquiridos entre 1969 e 1988, aplica-se um percentual de redução sobre o ganho, conforme o ano de aquisição. Benfeitorias comprovadas por notas fiscais podem ser somadas ao custo de aquisição.",
     "Em quanto tempo devo reaplicar o dinheiro da venda para ter isenção?"),
])  # fmt: skip

EN_POLICY = _pool("en", [
    ("en/escape-of-water", "Section 1: escape of water",
     "Escape of water\nWe will pay for loss or damage caused by water escaping from a fixed water installation [see Definitions: 'fixed water installation'], washing machine, dishwasher or fish tank.\nWe will not pay for:\n- the first £350 of every claim (the escape of water excess);\n- damage caused by water escaping from a shower tray or seal that has worn out over time;\n- loss or damage while your home is unoccupied [see General Conditions 4].",
     "What is the excess for an escape of water claim?"),
    ("en/unoccupancy", "General Conditions 4: unoccupancy",
     "4. Unoccupancy\nIf your home is going to be unoccupied for more than 60 days in a row, you must tell us before the 61st day. While your home is unoccupied we will not cover escape of water, theft or attempted theft, or malicious damage, unless the water and heating system is drained down and the home is inspected at least once every 7 days.",
     "How long can my home be unoccupied before I must tell the insurer?"),
    ("en/accidental-damage", "Optional cover: accidental damage",
     "Accidental damage (optional, shown on your schedule if chosen)\nWe will pay for sudden, unexpected physical damage to your buildings or contents that is not caused deliberately. Examples: spilling paint on a fitted carpet, putting a foot through a ceiling while in the loft. We will not pay for damage caused by pets chewing, scratching or fouling, nor for damage to items in use outside the home [see Section 3 for personal possessions].",
     "Does accidental damage cover damage caused by my dog?"),
    ("en/personal-possessions", "Section 3: personal possessions",
     "Personal possessions away from home\nIf shown on your schedule, we will cover personal possessions lost, stolen or damaged anywhere in the UK, and for up to 60 days a year elsewhere in the world.\nLimits:\n- £2,000 in total for any one claim;\n- £1,500 for any single item, unless the item is specified on your schedule;\n- £300 for cash and bank notes.",
     "What is the single item limit for personal possessions?"),
    ("en/alternative-accommodation", "Section 1: alternative accommodation",
     "Alternative accommodation\nIf your home cannot be lived in following damage covered by this policy, we will pay the reasonable cost of comparable alternative accommodation for you, your family and your pets, up to £25,000 or 20% of the buildings sum insured, whichever is lower. We will only pay until your home can be lived in again.",
     "How much will the policy pay for alternative accommodation?"),
    ("en/cancellation", "General Conditions 7: cancelling your policy",
     "7. Cancelling your policy\nYou can cancel within 14 days of receiving your documents (the cooling-off period) and we will refund your premium in full, provided you have not made a claim. After the cooling-off period you can cancel at any time and we will refund the premium for the unused period, less an administration fee of £25.",
     "Is there a fee for cancelling after the cooling-off period?"),
    ("en/subsidence", "Section 1: subsidence, heave and landslip",
     "Subsidence, heave or landslip\nWe will pay for damage to your buildings caused by subsidence or heave of the site on which they stand, or by landslip.\nWe will not pay for:\n- the first £1,000 of every claim;\n- damage to patios, paths, drives and fences unless your home is damaged at the same time;\n- damage caused by the settlement or shrinkage of new structures within 10 years of construction.",
     "What excess applies to a subsidence claim?"),
    ("en/definitions", "Definitions",
     "Definitions\nWherever the following words or phrases appear in this policy in bold, they have the meanings given below.\n\nBuildings: the home, its permanent fixtures and fittings, swimming pools, tennis courts, drives, patios and terraces, walls, gates and fences, and fixed fuel tanks, all at the address shown on your schedule.\n\nContents: household goods and personal property within the home which belong to you or for which you are legally responsible. Contents does not include motor vehicles, caravans, trailers or watercraft, or any living creature.\n\nFixed water installation: any fixed water or heating system, including pipes, tanks, radiators, boilers and toilets, but not guttering, drains or sewers.\n\nUnoccupied: not lived in by you or your family for more than 60 days in a row. Your home is lived in when you or your family sleep there regularly.\n\nValuables: jewellery, watches, furs, pictures, and articles of gold, silver or other precious metals.",
     "When is a home considered unoccupied under the policy?"),
])  # fmt: skip

PL_REPO = _pool("pl", [
    ("docs/wdrozenie.md", "wdrozenie",
     "# Wdrożenie na produkcję\n\nWdrażamy tylko z gałęzi `main`, po zielonym pipeline.\n\n1. Utwórz tag w formacie `vRRRR.MM.DD-N`, np. `v2026.11.27-1`.\n2. Pipeline zbuduje obraz i wypchnie go do rejestru `registry.kolejka.internal`.\n3. Zatwierdź etap `deploy-prod` w GitLabie (wymagane dwie osoby z grupy `release`).\n\n```bash\ngit tag v2026.11.27-1 && git push origin --tags\n```\n\nW piątki po 14:00 nie wdrażamy, chyba że to hotfix uzgodniony z dyżurnym.",
     "Ile osób musi zatwierdzić wdrożenie na produkcję?"),
    ("docs/konfiguracja.md", "konfiguracja",
     "# Konfiguracja\n\nUsługa czyta konfigurację ze zmiennych środowiskowych:\n\n| Zmienna | Domyślnie | Opis |\n|---|---|---|\n| `KOLEJKA_WORKERS` | `4` | liczba procesów roboczych |\n| `KOLEJKA_VISIBILITY_TIMEOUT` | `30s` | czas, po którym niepotwierdzona wiadomość wraca do kolejki |\n| `KOLEJKA_MAX_RETRIES` | `5` | po tylu próbach wiadomość trafia do DLQ |\n\nWartości z pliku `config/produkcja.yaml` mają pierwszeństwo przed domyślnymi, ale nie przed zmiennymi środowiskowymi.",
     "Po ilu próbach wiadomość trafia do DLQ?"),
    ("config/produkcja.yaml", "produkcja.yaml",
     "# Konfiguracja produkcyjna – zmiany tylko przez merge request!\nworkers: 12\nvisibility_timeout: 45s\nmax_retries: 8\ndlq:\n  nazwa: kolejka-dlq\n  retencja: 14d   # po 14 dniach wiadomości z DLQ są usuwane\nmetryki:\n  port: 9464\n  prefiks: kolejka_",
     "Jak długo wiadomości są przechowywane w DLQ na produkcji?",
     "W pliku config/produkcja.yaml retencja DLQ to 14 dni – po tym czasie wiadomości są usuwane."),
    ("package.json", "package.json",
     "{\n  \"name\": \"kolejka-panel\",\n  \"version\": \"3.4.0\",\n  \"private\": true,\n  \"scripts\": {\n    \"dev\": \"vite --port 5174\",\n    \"build\": \"tsc -b && vite build\",\n    \"test\": \"vitest run\",\n    \"lint\": \"eslint . --max-warnings 0\"\n  },\n  \"engines\": {\n    \"node\": \">=20.11\"\n  }\n}",
     "Na jakim porcie startuje panel w trybie dev?",
     "Skrypt `dev` uruchamia Vite na porcie 5174."),
    ("docs/testy.md", "testy",
     "# Testy\n\nTesty jednostkowe uruchamiasz poleceniem `make test`. Testy integracyjne potrzebują lokalnego RabbitMQ:\n\n```bash\ndocker compose -f docker-compose.test.yml up -d\nmake test-integracyjne\n```\n\nTesty integracyjne nie są uruchamiane w pipeline dla gałęzi roboczych – tylko dla merge requestów do `main`. Pokrycie poniżej 80% blokuje merge.",
     "Jakie pokrycie testami blokuje merge?"),
    ("CHANGELOG.md", "CHANGELOG",
     "# Zmiany\n\n## 3.4.0 – 2026-11-20\n- Nowy widok DLQ w panelu z możliwością ponownego wysłania wiadomości.\n- `KOLEJKA_MAX_RETRIES` domyślnie 5 (wcześniej 3).\n\n## 3.3.2 – 2026-10-30\n- Poprawka: procesy robocze nie kończyły się przy SIGTERM, jeśli kolejka była pusta.",
     "Od której wersji domyślna liczba prób to 5?",
     "W wersji 3.4.0 z 20 listopada 2026 domyślne `KOLEJKA_MAX_RETRIES` zmieniono z 3 na 5."),
    ("docs/dyzury.md", "dyzury",
     "# Dyżury\n\nDyżur trwa tydzień, od poniedziałku 9:00 do następnego poniedziałku 9:00. Grafik jest w PagerDuty (usługa `kolejka-prod`).\n\nAlert P1 wymaga potwierdzenia w ciągu 10 minut. Jeśli dyżurny nie potwierdzi, alert eskaluje do lidera zespołu, a po kolejnych 15 minutach do kierownika działu.\n\nPo każdym incydencie P1 piszemy post-mortem w ciągu 3 dni roboczych.",
     "W jakim czasie trzeba potwierdzić alert P1?"),
])  # fmt: skip

JA_WIKI = _pool("ja", [
    ("ja/富士山", "富士山",
     "富士山（ふじさん）は、静岡県と山梨県にまたがる活火山である。標高3776.12 mで、日本最高峰の独立峰である。\n最後の噴火は1707年（宝永4年）の宝永大噴火で、それ以降は噴火していない。\n2013年6月に「富士山－信仰の対象と芸術の源泉」として世界文化遺産に登録された。\n山頂部には富士山本宮浅間大社の奥宮があり、夏季（7月上旬から9月上旬）の開山期間には毎年20万人前後が登山する。",
     "富士山が最後に噴火したのはいつですか"),
    ("ja/東京スカイツリー", "東京スカイツリー",
     "東京スカイツリーは、東京都墨田区押上にある電波塔である。高さは634 mで、2011年に「世界一高いタワー」としてギネス世界記録に認定された。\n2012年5月22日に開業し、地上350 mに天望デッキ、450 mに天望回廊がある。事業主体は東武鉄道の子会社である東武タワースカイツリーである。\n建設は2008年7月に着工し、2012年2月に竣工した。外観のデザインには日本刀の「反り」や寺院建築の「むくり」が取り入れられている。",
     "東京スカイツリーの天望回廊は地上何メートルにありますか"),
    ("ja/姫路城", "姫路城",
     "姫路城は、兵庫県姫路市にある日本の城である。江戸時代初期に建てられた天守が現存し、国宝に指定されている。白漆喰で塗られた外観から「白鷺城（はくろじょう、しらさぎじょう）」とも呼ばれる。\n1993年12月、法隆寺地域の仏教建造物とともに日本で初めて世界文化遺産に登録された。\n2009年から2015年にかけて「平成の大修理」が行われ、大天守の屋根瓦や漆喰が全面的に補修された。",
     "姫路城はなぜ白鷺城と呼ばれるのですか"),
    ("ja/東海道新幹線", "東海道新幹線",
     "東海道新幹線は、東京駅から新大阪駅までを結ぶ東海旅客鉄道（JR東海）の高速鉄道路線である。1964年10月1日、東京オリンピックの開会直前に開業した。\n営業キロは552.6 kmで、最速の「のぞみ」は東京－新大阪間を約2時間21分で結ぶ。\n開業当初の最高速度は210 km/hであったが、現在は285 km/hで運転されている。1日あたりの利用者は約40万人にのぼる。",
     "東海道新幹線が開業したのはいつですか"),
    ("ja/琵琶湖", "琵琶湖",
     "琵琶湖は、滋賀県にある日本最大の湖である。面積は約669 km²で、滋賀県の面積の約6分の1を占める。\n約400万年前に形成されたとされ、世界でも有数の古代湖である。京阪神地域の約1450万人の水源となっており、「近畿の水がめ」と呼ばれる。\n最大水深は約104 mで、湖に流れ込む河川は約120本あるのに対し、自然に流れ出る河川は瀬田川のみである。",
     "琵琶湖の面積はどれくらいですか"),
    ("ja/鹿苑寺", "鹿苑寺",
     "鹿苑寺（ろくおんじ）は、京都市北区にある臨済宗相国寺派の寺院である。舎利殿「金閣」が特に有名なため、一般に金閣寺と呼ばれる。\n室町幕府3代将軍足利義満が山荘北山殿として造営した。現在の金閣は1950年の放火で焼失した後、1955年に再建されたものである。\n1994年には「古都京都の文化財」の一部として世界文化遺産に登録された。",
     "現在の金閣はいつ再建されましたか"),
    ("ja/屋久島", "屋久島",
     "屋久島は、鹿児島県の大隅諸島に属する島である。面積は約504 km²。樹齢数千年とされる屋久杉の自生林で知られ、縄文杉は樹齢2000年から7200年と推定されている。\n1993年、白神山地とともに日本で初めて世界自然遺産に登録された。\n年間降水量は平地で約4,500 mm、山間部では8,000 mmを超えるとされ、「月のうち35日は雨」と言われるほど雨が多い。",
     "屋久島が世界自然遺産に登録されたのは何年ですか"),
])  # fmt: skip

EN_ARXIV = _pool("en", [
    ("arxiv/1706.03762|2023-08-02|Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, Lukasz Kaiser, Illia Polosukhin", "Attention Is All You Need",
     "The dominant sequence transduction models are based on complex recurrent or\nconvolutional neural networks in an encoder-decoder configuration. We propose a\nnew simple network architecture, the Transformer, based solely on attention\nmechanisms, dispensing with recurrence and convolutions entirely. Experiments on\ntwo machine translation tasks show these models to be superior in quality while\nbeing more parallelizable and requiring significantly less time to train. Our\nmodel achieves 28.4 BLEU on the WMT 2014 English-to-German translation task.",
     "What BLEU score did the Transformer reach on WMT 2014 English-to-German?"),
    ("arxiv/2004.04906|2020-09-30|Vladimir Karpukhin, Barlas Oğuz, Sewon Min, Patrick Lewis, Ledell Wu, Sergey Edunov, Danqi Chen, Wen-tau Yih", "Dense Passage Retrieval for Open-Domain Question Answering",
     "Open-domain question answering relies on efficient passage retrieval to select\ncandidate contexts, where traditional sparse vector space models, such as TF-IDF\nor BM25, are the de facto method. In this work, we show that retrieval can be\npractically implemented using dense representations alone, where embeddings are\nlearned from a small number of questions and passages by a simple dual-encoder\nframework. When evaluated on a wide range of open-domain QA datasets, our dense\nretriever outperforms a strong Lucene-BM25 system largely by 9%-19% absolute in\nterms of top-20 passage retrieval accuracy.",
     "By how much does dense passage retrieval beat BM25 in top-20 accuracy?"),
    ("arxiv/2005.11401|2021-04-12|Patrick Lewis, Ethan Perez, Aleksandra Piktus, Fabio Petroni, Vladimir Karpukhin, Naman Goyal, Heinrich Küttler, Mike Lewis, Wen-tau Yih, Tim Rocktäschel, Sebastian Riedel, Douwe Kiela", "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
     "Large pre-trained language models have been shown to store factual knowledge in\ntheir parameters. However, their ability to access and precisely manipulate\nknowledge is still limited. We explore a general-purpose fine-tuning recipe for\nretrieval-augmented generation (RAG), models which combine pre-trained\nparametric and non-parametric memory, where the non-parametric memory is a dense\nvector index of Wikipedia accessed with a pre-trained neural retriever. We\ncompare two RAG formulations, one which conditions on the same retrieved\npassages across the whole generated sequence, and another which can use\ndifferent passages per token.",
     "What is the non-parametric memory in the RAG paper?"),
    ("arxiv/2004.12832|2020-06-04|Omar Khattab, Matei Zaharia", "ColBERT: Efficient and Effective Passage Search via Contextualized Late Interaction over BERT",
     "Recent progress in Natural Language Understanding is driving fast-paced advances\nin Information Retrieval, largely owed to fine-tuning deep language models for\ndocument ranking. We present ColBERT, a novel ranking model that adapts deep LMs\nfor efficient retrieval. ColBERT introduces a late interaction architecture that\nindependently encodes the query and the document using BERT and then employs a\ncheap yet powerful interaction step that models their fine-grained similarity.\nColBERT is competitive with existing BERT-based models while executing two\norders-of-magnitude faster and requiring four orders-of-magnitude fewer FLOPs\nper query.",
     "How much faster is ColBERT than existing BERT-based rankers?"),
    ("arxiv/2106.09685|2021-10-16|Edward J. Hu, Yelong Shen, Phillip Wallis, Zeyuan Allen-Zhu, Yuanzhi Li, Shean Wang, Lu Wang, Weizhu Chen", "LoRA: Low-Rank Adaptation of Large Language Models",
     "As we pre-train larger models, full fine-tuning, which retrains all model\nparameters, becomes less feasible. We propose Low-Rank Adaptation, or LoRA,\nwhich freezes the pre-trained model weights and injects trainable rank\ndecomposition matrices into each layer of the Transformer architecture. Compared\nto GPT-3 175B fine-tuned with Adam, LoRA can reduce the number of trainable\nparameters by 10,000 times and the GPU memory requirement by 3 times, while\nperforming on-par or better than fine-tuning in model quality.",
     "By what factor does LoRA reduce trainable parameters compared with full fine-tuning of GPT-3?"),
    ("arxiv/2212.10496|2022-12-20|Luyu Gao, Xueguang Ma, Jimmy Lin, Jamie Callan", "Precise Zero-Shot Dense Retrieval without Relevance Labels",
     "While dense retrieval has been shown effective and efficient across tasks and\nlanguages, it remains difficult to create effective fully zero-shot dense\nretrieval systems when no relevance label is available. We propose Hypothetical\nDocument Embeddings (HyDE): an instruction-following language model is asked to\ngenerate a hypothetical document that captures relevance patterns, and an\nunsupervised contrastively learned encoder then encodes it into an embedding\nvector, which is used to find similar real documents in the corpus.",
     "How does HyDE use a language model for zero-shot retrieval?"),
    ("arxiv/2310.11511|2023-10-17|Akari Asai, Zeqiu Wu, Yizhong Wang, Avirup Sil, Hannaneh Hajishirzi", "Self-RAG: Learning to Retrieve, Generate, and Critique through Self-Reflection",
     "Despite their remarkable capabilities, large language models often produce\nresponses containing factual inaccuracies due to their sole reliance on the\nparametric knowledge they encapsulate. We introduce a new framework called\nSelf-Reflective Retrieval-Augmented Generation (Self-RAG) that trains a single\narbitrary LM that adaptively retrieves passages on-demand, and generates and\nreflects on retrieved passages and its own generations using special tokens,\ncalled reflection tokens.",
     "What are reflection tokens in Self-RAG?"),
])  # fmt: skip

FR_CLIMAT = _pool("fr", [
    ("fr/p12", "Plan Climat 2026-2032, p. 12",
     "1.2 Objectifs chiffrés\nLa Métropole de Valcourt s'engage à réduire de 55 % ses émissions de gaz à effet de serre d'ici 2032 par rapport à 2015, et à atteindre la neutralité carbone en 2050. Les émissions du territoire s'élevaient à 6,1 millions de tonnes équivalent CO2 en 2015, dont 31 % liées aux transports et 27 % au bâtiment.",
     "De combien la Métropole veut-elle réduire ses émissions d'ici 2032 ?"),
    ("fr/p18", "Plan Climat 2026-2032, p. 18",
     "2.1 Rénovation des logements\nL'objectif est de rénover 12 000 logements par an au niveau BBC (bâtiment basse consommation) à partir de 2027. La plateforme Valcourt Rénov' accompagne gratuitement les ménages : visite d'un conseiller, plan de travaux, aide au montage des dossiers MaPrimeRénov'. Les copropriétés de plus de 50 lots bénéficient d'un audit énergétique financé à 80 %.",
     "Combien de logements la Métropole veut-elle rénover chaque année ?"),
    ("fr/p24", "Plan Climat 2026-2032, p. 24",
     "3.1 Mobilités\n- Extension du tramway T4 jusqu'à Saint-Aubin (mise en service prévue en 2029).\n- 250 km d'aménagements cyclables supplémentaires d'ici 2030, dont 60 km de voies express vélo.\n- Zone à faibles émissions (ZFE) : interdiction des véhicules Crit'Air 3 dans le périmètre intra-rocade à partir du 1er janvier 2028.",
     "À partir de quand les véhicules Crit'Air 3 seront-ils interdits dans la ZFE ?"),
    ("fr/p31", "Plan Climat 2026-2032, p. 31",
     "4.2 Énergies renouvelables\nLa production locale d'énergies renouvelables doit passer de 1,2 TWh en 2024 à 2,5 TWh en 2032. Le réseau de chaleur urbain, alimenté à 68 % par la biomasse et la récupération de chaleur de l'incinérateur, sera étendu de 40 km pour raccorder 20 000 logements supplémentaires.",
     "Quelle part du réseau de chaleur provient de la biomasse et de l'incinérateur ?"),
    ("fr/p37", "Plan Climat 2026-2032, p. 37",
     "5.1 Adaptation aux vagues de chaleur\nLe plan prévoit la plantation de 300 000 arbres d'ici 2032 et la désimperméabilisation de 120 cours d'école transformées en « cours oasis ». Lors des épisodes caniculaires, 45 lieux rafraîchis (médiathèques, piscines, salles municipales) sont ouverts au public avec des horaires étendus jusqu'à 22 h.",
     "Combien d'arbres doivent être plantés d'ici 2032 ?"),
    ("fr/p44", "Plan Climat 2026-2032, p. 44",
     "6. Financement\nLe coût total du plan est estimé à 2,3 milliards d'euros sur sept ans, dont 840 millions portés directement par la Métropole. Le reste provient de l'État (fonds vert), de la Région, de l'Union européenne (FEDER) et de partenaires privés. Un budget vert annexé au budget primitif permet de suivre chaque année les dépenses favorables au climat.",
     "Quel est le coût total estimé du Plan Climat ?"),
    ("fr/p49", "Plan Climat 2026-2032, p. 49",
     "7. Gouvernance et suivi\nUn comité de suivi réunissant élus, associations et citoyens tirés au sort se réunit deux fois par an. Un bilan public des indicateurs est publié chaque mois de juin sur le site de la Métropole. Une révision à mi-parcours est prévue en 2029.",
     "Quand la révision à mi-parcours du plan est-elle prévue ?"),
    ("fr/p52", "Plan Climat 2026-2032, annexe 2",
     "Annexe 2 – Tableau de bord des indicateurs\n\n| Indicateur | Valeur 2024 | Cible 2032 |\n|---|---|---|\n| Émissions de GES (MtCO2e) | 4,9 | 2,7 |\n| Part modale du vélo | 4 % | 12 % |\n| Logements rénovés BBC (cumul) | 18 400 | 90 000 |\n| Production d'énergies renouvelables (TWh) | 1,2 | 2,5 |\n| Surface de canopée urbaine | 21 % | 27 % |\n\nLes valeurs 2024 sont issues de l'inventaire régional de l'observatoire de l'énergie et du climat, publié avec deux ans de décalage. La part modale du vélo est mesurée par l'enquête ménages-déplacements réalisée tous les cinq ans ; entre deux enquêtes, elle est estimée à partir des 85 compteurs automatiques installés sur le réseau cyclable. Un indicateur qui s'écarte de plus de 10 % de sa trajectoire deux années de suite déclenche une revue spécifique par le comité de suivi.",
     "Quelle est la cible de part modale du vélo en 2032 ?"),
])  # fmt: skip


def _product(
    pid: str, category: str, sku: str, name: str, description: str, price: float, tags: list[str]
) -> str:
    record = {"id": pid, "categoryId": f"cat-{category[:4].lower()}", "categoryName": category, "sku": sku,
              "name": name, "description": description, "price": price,
              "tags": [{"id": f"tag-{i}", "name": t} for i, t in enumerate(tags, 1)]}  # fmt: skip
    return json.dumps(record, indent=4, default=str)


ES_BICIS = _pool("es", [
    ("es/p1", "Bicicleta de montaña Sendero 29",
     _product("B1-0291", "Bicicletas, Montaña", "BK-M29S-44", "Bicicleta de montaña Sendero 29", "Cuadro de aluminio 6061, horquilla de suspensión de 120 mm y transmisión 1x12. Ruedas de 29 pulgadas. Disponible en tallas S, M y L.", 1249.0, ["Montaña", "Aluminio", "29 pulgadas"]),
     "¿Qué recorrido tiene la horquilla de la Sendero 29?",
     "La Sendero 29 lleva una horquilla de suspensión de 120 mm y transmisión 1x12."),
    ("es/p2", "Casco Urbano Luz",
     _product("H3-1108", "Accesorios, Cascos", "HL-URB-M", "Casco Urbano Luz", "Casco urbano con luz trasera LED recargable por USB-C y visera desmontable. Peso: 340 g. Homologado EN 1078.", 69.9, ["Cascos", "Ciudad", "Luz LED"]),
     "¿El casco urbano tiene luz?",
     "Sí, el Casco Urbano Luz tiene una luz trasera LED recargable por USB-C."),
    ("es/p3", "Bicicleta eléctrica Ciudad E+",
     _product("B2-0530", "Bicicletas, Eléctricas", "BK-ECE-500", "Bicicleta eléctrica Ciudad E+", "Motor central de 250 W y batería de 500 Wh integrada en el cuadro, con autonomía de hasta 110 km. Cambio interno de 5 velocidades y portabultos de serie.", 2390.0, ["Eléctrica", "Ciudad", "Autonomía"]),
     "¿Cuánta autonomía tiene la Ciudad E+?",
     "La Ciudad E+ ofrece hasta 110 km de autonomía con su batería de 500 Wh."),
    ("es/p4", "Culotte Ruta Pro",
     _product("C7-2210", "Ropa, Culottes", "CL-RP-L", "Culotte Ruta Pro", "Culotte con tirantes y badana de alta densidad para salidas de más de cuatro horas. Tejido con protección UV 50+. Lavar a 30 °C.", 89.0, ["Ropa", "Carretera"]),
     "¿Para salidas de cuántas horas está pensado el culotte Ruta Pro?",
     "El culotte Ruta Pro está pensado para salidas de más de cuatro horas."),
    ("es/p5", "Portabicicletas de bola Viaje 3",
     _product("A4-0072", "Accesorios, Portabicicletas", "RK-V3-13P", "Portabicicletas de bola Viaje 3", "Portabicicletas para enganche de bola con capacidad para 3 bicicletas y 60 kg en total. Plegable e inclinable para abrir el maletero. Incluye placa de matrícula y conexión de 13 polos.", 459.0, ["Portabicicletas", "Coche"]),
     "¿Cuántas bicicletas caben en el portabicicletas Viaje 3?",
     "El Viaje 3 lleva 3 bicicletas, hasta 60 kg en total."),
    ("es/p6", "Bomba de pie Presión 11",
     _product("A5-0310", "Accesorios, Bombas", "PM-P11", "Bomba de pie Presión 11", "Bomba de pie con manómetro analógico hasta 11 bar (160 psi). Cabezal doble para válvulas Presta y Schrader.", 34.5, ["Bombas", "Taller"]),
     "¿La bomba Presión 11 sirve para válvulas Presta?",
     "Sí, su cabezal doble sirve para válvulas Presta y Schrader, hasta 11 bar."),
    ("es/p7", "Bicicleta infantil Peque 16",
     _product("B5-0116", "Bicicletas, Infantiles", "BK-PQ16", "Bicicleta infantil Peque 16", "Bicicleta para niños de 4 a 6 años (105-120 cm) con ruedines desmontables, freno contrapedal y cubrecadena completo. Peso: 7,9 kg.", 219.0, ["Infantil", "16 pulgadas"]),
     "¿Para qué edad es la Peque 16?",
     "La Peque 16 es para niños de 4 a 6 años, de 105 a 120 cm."),
])  # fmt: skip

HI_LECTURES = _pool("hi", [
    ("hi/lec03-0412", "Lecture 3: Gradient Descent",
     "तो अब हम gradient descent की बात करते हैं देखिए हमारा goal है loss function को minimize करना तो हम हर step पर weights को gradient की opposite direction में थोड़ा सा move करते हैं और कितना move करेंगे वो decide करता है learning rate अगर learning rate बहुत बड़ा रखा तो loss कम होने की बजाय oscillate करेगा और diverge भी कर सकता है इसलिए शुरुआत में हम 0.01 या 0.001 जैसी value से start करते हैं",
     "learning rate बहुत बड़ा रखने पर क्या होता है",
     "अगर learning rate बहुत बड़ा रखा तो loss कम होने की बजाय oscillate करेगा और diverge भी कर सकता है।"),
    ("hi/lec03-0958", "Lecture 3: Gradient Descent",
     "अब stochastic gradient descent में फर्क ये है कि हम पूरे dataset पर gradient नहीं निकालते बल्कि एक mini batch लेते हैं मान लीजिए 32 या 64 examples का तो हर update बहुत fast होता है लेकिन थोड़ा noisy होता है और ये noise actually कई बार अच्छा है क्योंकि ये local minima से बाहर निकलने में help करता है",
     "mini batch gradient descent में noise क्यों फायदेमंद है",
     "Mini batch के gradient का noise local minima से बाहर निकलने में help करता है।"),
    ("hi/lec05-0230", "Lecture 5: Overfitting",
     "overfitting का मतलब है कि model training data को रट लेता है training accuracy 99 percent आ रही है लेकिन validation accuracy 70 percent पर अटकी है तो ये साफ sign है overfitting का इसको कम करने के तीन common तरीके हैं ज्यादा data लाना regularization जैसे L2 या dropout लगाना और early stopping यानी जब validation loss बढ़ने लगे तो training रोक देना",
     "overfitting कम करने के तीन तरीके कौन से हैं",
     "Overfitting कम करने के तीन तरीके हैं: ज्यादा data, regularization (L2 या dropout) और early stopping।"),
    ("hi/lec05-1105", "Lecture 5: Overfitting",
     "dropout में training के time हर layer के कुछ neurons को randomly बंद कर देते हैं जैसे dropout rate 0.5 है तो हर step पर आधे neurons zero हो जाएंगे इससे network किसी एक neuron पर depend नहीं कर पाता और ध्यान रखिए inference के time dropout off होता है सारे neurons use होते हैं",
     "inference के समय dropout का क्या होता है",
     "Inference के time dropout off होता है और सारे neurons use होते हैं।"),
    ("hi/lec07-0145", "Lecture 7: CNN",
     "convolutional neural network में filter image के ऊपर slide करता है मान लीजिए 3 by 3 का filter है stride 1 है और padding नहीं है तो 32 by 32 की image से output 30 by 30 का आएगा formula याद रखिए output size बराबर input minus filter plus 2 times padding divided by stride plus 1",
     "32x32 image पर 3x3 filter से output size क्या होगा",
     "3 by 3 filter, stride 1 और बिना padding के 32 by 32 image से output 30 by 30 का आएगा।"),
    ("hi/lec07-0820", "Lecture 7: CNN",
     "pooling layer का काम है feature map का size कम करना max pooling में 2 by 2 window में से सबसे बड़ी value ले लेते हैं तो width और height आधी हो जाती है pooling में कोई learnable parameter नहीं होता ये बात exam में बहुत बार पूछी जाती है",
     "क्या pooling layer में learnable parameters होते हैं",
     "Pooling layer में कोई learnable parameter नहीं होता।"),
    ("hi/lec09-0310", "Lecture 9: Transformers",
     "transformer में attention का idea simple है हर word बाकी सारे words को देखता है और decide करता है किस पर कितना ध्यान देना है इसके लिए query key और value तीन vectors बनते हैं query और key का dot product निकालते हैं उसे root d से divide करते हैं फिर softmax लगाते हैं और उन weights से values का weighted sum लेते हैं",
     "attention में dot product को किससे divide करते हैं",
     "Query और key के dot product को root d से divide करके softmax लगाते हैं।"),
])  # fmt: skip

DE_KASSE = _pool("de", [
    ("de/krankengeld", "Krankengeld",
     "Krankengeld\nSind Sie länger als sechs Wochen arbeitsunfähig, zahlt die Kasse ab der siebten Woche Krankengeld. Es beträgt 70 Prozent Ihres Bruttoarbeitsentgelts, höchstens aber 90 Prozent des Nettoarbeitsentgelts. Wegen derselben Krankheit wird Krankengeld für höchstens 78 Wochen innerhalb von drei Jahren gezahlt.\nDie Arbeitsunfähigkeitsbescheinigung übermittelt Ihre Arztpraxis elektronisch (eAU).",
     "Wie hoch ist das Krankengeld?"),
    ("de/zahnreinigung", "Professionelle Zahnreinigung",
     "Professionelle Zahnreinigung\nWir beteiligen uns zweimal im Kalenderjahr mit bis zu 40 Euro je Behandlung an einer professionellen Zahnreinigung. Reichen Sie dazu die Rechnung Ihrer Zahnarztpraxis über die App „Meine Kasse“ ein. Die Erstattung erfolgt innerhalb von 14 Tagen auf Ihr hinterlegtes Konto.",
     "Wie viel zahlt die Kasse für die Zahnreinigung?"),
    ("de/familienversicherung", "Familienversicherung",
     "Familienversicherung\nEhepartner und Kinder sind beitragsfrei mitversichert, wenn ihr regelmäßiges Gesamteinkommen 535 Euro im Monat nicht übersteigt (bei Minijobs 556 Euro). Kinder sind bis zum 18. Geburtstag versichert, bis zum 23., wenn sie nicht erwerbstätig sind, und bis zum 25., solange sie in Schul- oder Berufsausbildung sind oder studieren.",
     "Bis zu welchem Alter sind studierende Kinder familienversichert?"),
    ("de/bonusprogramm", "Bonusprogramm",
     "Bonusprogramm „Gesund+“\nFür gesundheitsbewusstes Verhalten sammeln Sie Punkte, zum Beispiel:\n- Check-up ab 35 Jahren: 300 Punkte\n- Mitgliedschaft im Sportverein: 200 Punkte\n- Vollständiger Impfschutz nach STIKO: 150 Punkte\nJe 100 Punkte erhalten Sie 10 Euro, höchstens 150 Euro im Jahr. Punkte verfallen am 31. März des Folgejahres.",
     "Wann verfallen die Bonuspunkte?"),
    ("de/reiseimpfungen", "Reiseimpfungen",
     "Reiseimpfungen\nDie Kosten für Reiseschutzimpfungen, etwa gegen Gelbfieber, Tollwut oder Japanische Enzephalitis, erstatten wir zu 100 Prozent, wenn die Impfung von einer Ärztin oder einem Arzt durchgeführt wurde. Reichen Sie Rechnung und Rezept innerhalb von sechs Monaten ein. Malaria-Prophylaxe ist keine Impfung und wird nicht erstattet.",
     "Wird die Malaria-Prophylaxe erstattet?"),
    ("de/haushaltshilfe", "Haushaltshilfe",
     "Haushaltshilfe\nKönnen Sie wegen einer Krankenhausbehandlung oder nach einer ambulanten Operation Ihren Haushalt nicht weiterführen, übernehmen wir die Kosten für eine Haushaltshilfe. Voraussetzung ist, dass im Haushalt ein Kind unter zwölf Jahren lebt oder eine ärztliche Bescheinigung vorliegt. Die Zuzahlung beträgt 10 Prozent der Kosten, mindestens 5 und höchstens 10 Euro pro Tag.",
     "Wie hoch ist die Zuzahlung für eine Haushaltshilfe?"),
    ("de/kuendigung", "Kassenwechsel",
     "Kassenwechsel\nSie können Ihre Krankenkasse nach zwölf Monaten Mitgliedschaft wechseln. Die Kündigungsfrist beträgt zwei volle Kalendermonate zum Monatsende. Erhöht die Kasse ihren Zusatzbeitrag, haben Sie ein Sonderkündigungsrecht bis zum Ende des Monats, in dem der höhere Beitrag erstmals erhoben wird.",
     "Wie lange ist die Kündigungsfrist beim Kassenwechsel?"),
    ("de/hilfsmittel", "Hilfsmittel",
     "Hilfsmittel\nHilfsmittel wie Hörgeräte, Rollstühle, Einlagen oder Kompressionsstrümpfe übernehmen wir, wenn eine ärztliche Verordnung vorliegt und das Hilfsmittel im Hilfsmittelverzeichnis gelistet ist. Sie erhalten das Hilfsmittel über einen unserer Vertragspartner; eine Liste finden Sie in der App unter „Leistungen > Hilfsmittel“.\n\n| Hilfsmittel | Zuzahlung | Hinweis |\n|---|---|---|\n| Hörgeräte | 10 Euro je Gerät | Festbetrag 685 Euro je Ohr, Mehrkosten trägt der Versicherte |\n| Einlagen | 10 % des Preises, mind. 5 Euro | höchstens zwei Paar pro Jahr |\n| Kompressionsstrümpfe | 10 % des Preises, mind. 5 Euro | zwei Paar zur Erstausstattung |\n| Rollstuhl | keine (Leihgabe) | Rückgabe nach Ende der Nutzung |\n\nVerbrauchshilfsmittel wie Inkontinenzprodukte sind mit 10 Prozent je Packung, höchstens 10 Euro im Monat, zuzuzahlen. Kinder und Jugendliche unter 18 Jahren sind von allen Zuzahlungen befreit. Wer die Belastungsgrenze von 2 Prozent des Bruttoeinkommens (1 Prozent bei chronisch Kranken) erreicht, kann sich für den Rest des Jahres befreien lassen.",
     "Wie hoch ist die Zuzahlung für Hörgeräte?"),
])  # fmt: skip

RU_ITKB = _pool("ru", [
    ("ru/vpn", "VPN",
     "Подключение к VPN\n1. Установите клиент FortiClient из Центра программ.\n2. В поле «Сервер» укажите vpn.severstroy.ru, порт 10443.\n3. Логин — ваша доменная учётная запись без @severstroy.ru.\nПри первом входе потребуется подтверждение через приложение Яндекс Ключ. Если подключение обрывается каждые 15 минут, обновите клиент до версии 7.2 или выше.",
     "Какой порт указывать при подключении к VPN?"),
    ("ru/parol", "Смена пароля",
     "Пароль доменной учётной записи действует 90 дней. За 14 дней до окончания срока Outlook начинает показывать напоминание. Новый пароль должен содержать не менее 12 символов, включать заглавные и строчные буквы и цифры и не совпадать с пятью предыдущими. Сменить пароль можно на портале passwd.severstroy.ru или нажав Ctrl+Alt+Del на рабочем компьютере.",
     "Сколько дней действует пароль доменной учётной записи?"),
    ("ru/1c-dostup", "Доступ к 1С",
     "Доступ к базе 1С:Бухгалтерия выдаётся по заявке в Service Desk с согласованием руководителя отдела и главного бухгалтера. Срок выполнения заявки — 2 рабочих дня. Для работы вне офиса база доступна только через VPN. Права на проведение документов выдаются отдельно и только сотрудникам бухгалтерии.",
     "Кто согласует заявку на доступ к 1С?"),
    ("ru/printer", "Печать",
     "Сетевые принтеры подключаются автоматически при входе в домен. Для печати на цветном принтере 3-го этажа (PRN-3-COLOR) нужно состоять в группе «Цветная печать»; запрос подаёт руководитель. Если задание зависло в очереди, не отправляйте его повторно, а перезапустите службу печати или позвоните по внутреннему номеру 5555.",
     "Как получить доступ к цветному принтеру на 3-м этаже?"),
    ("ru/noutbuk", "Выдача ноутбуков",
     "Ноутбуки выдаются новым сотрудникам в первый рабочий день на стойке ИТ (3-й этаж, каб. 312) с 9:00 до 11:00. При увольнении ноутбук сдаётся туда же вместе с зарядным устройством; без отметки ИТ обходной лист не подписывается. Замена батареи производится, если её ёмкость упала ниже 60%.",
     "Где новые сотрудники получают ноутбук?"),
    ("ru/pochta", "Почта",
     "Размер почтового ящика ограничен 50 ГБ. Вложения больше 25 МБ отправлять нельзя — используйте файловый обмен disk.severstroy.ru, ссылки живут 30 дней. Письма из папки «Удалённые» автоматически очищаются через 60 дней. Для общего ящика отдела создайте заявку в Service Desk с перечнем сотрудников.",
     "Какой максимальный размер вложения в письме?"),
    ("ru/otpusk", "Удалённый доступ в отпуске",
     "Во время отпуска доступ к корпоративным системам не блокируется. Однако по политике безопасности при входе из-за рубежа VPN требует дополнительного подтверждения, а доступ из некоторых стран заблокирован полностью. Перед поездкой сообщите в ИТ страну и даты пребывания через форму «Зарубежная поездка» не позднее чем за 3 рабочих дня.",
     "За сколько дней нужно сообщить в ИТ о зарубежной поездке?"),
    ("ru/incident", "Порядок действий при инциденте",
     "Порядок действий при подозрении на заражение компьютера\n\n1. Немедленно отключите компьютер от сети: выньте сетевой кабель и выключите Wi-Fi. Компьютер не выключайте — это может уничтожить следы для расследования.\n2. Позвоните на линию информационной безопасности по номеру 7777 (круглосуточно). Письмо не заменяет звонок.\n3. Не пытайтесь самостоятельно удалить вирус и не запускайте сторонние антивирусы.\n4. Запишите, что вы делали в последние 30 минут: какие письма открывали, какие файлы скачивали, какие сайты посещали.\n\nПризнаки заражения: файлы получили незнакомое расширение, на рабочем столе появился файл с требованием выкупа, антивирус сообщает об угрозе, которую не может удалить, компьютер резко замедлился без видимой причины.\n\nЗа своевременное сообщение об инциденте сотрудник не несёт ответственности, даже если заражение произошло по его вине. Скрытие инцидента является нарушением политики безопасности.",
     "Нужно ли выключать компьютер при подозрении на вирус?"),
])  # fmt: skip

KO_WIKI = _pool("ko", [
    ("ko/경복궁", "경복궁",
     "경복궁은 서울특별시 종로구에 있는 조선 왕조의 법궁이다. 1395년(태조 4년)에 창건되었으며, 임진왜란 때 불에 타 270여 년 동안 폐허로 남아 있다가 1867년 흥선대원군의 주도로 중건되었다. 근정전은 국보로 지정되어 있다. 일제강점기에 많은 전각이 헐렸으며, 1990년부터 복원 사업이 진행되어 흥례문과 광화문 등이 다시 지어졌다. 경회루는 연회를 베풀던 누각으로 역시 국보로 지정되어 있다.",
     "경복궁은 언제 중건되었나?"),
    ("ko/한글", "한글",
     "한글은 조선의 제4대 임금 세종이 1443년에 창제하고 1446년에 훈민정음이라는 이름으로 반포한 문자이다. 창제 당시에는 자음 17자와 모음 11자, 모두 28자였으나 현재는 24자를 사용한다. 대한민국에서는 10월 9일을 한글날로 기념한다. 한글은 소리를 나타내는 표음 문자이며, 자음은 발음 기관의 모양을, 모음은 하늘·땅·사람을 본떠 만들었다고 훈민정음 해례본에 설명되어 있다. 훈민정음 해례본은 1997년 유네스코 세계기록유산에 등재되었다.",
     "훈민정음은 몇 년에 반포되었나?"),
    ("ko/제주도", "제주도",
     "제주도는 대한민국에서 가장 큰 섬으로, 면적은 약 1,833㎢이다. 섬 중앙에 높이 1,947m의 한라산이 있으며, 한라산은 남한에서 가장 높은 산이다. 2007년 '제주 화산섬과 용암 동굴'이 유네스코 세계자연유산으로 등재되었다. 제주도는 2006년 제주특별자치도로 출범하였으며, 행정구역은 제주시와 서귀포시 두 개의 행정시로 이루어져 있다.",
     "한라산의 높이는 얼마인가?"),
    ("ko/KTX", "한국고속철도",
     "한국고속철도(KTX)는 2004년 4월 1일 경부선과 호남선에서 개통되었다. 최고 운행 속도는 시속 305km이며, 서울역에서 부산역까지 최단 2시간 15분 정도 걸린다. 차량은 프랑스 TGV 기술을 도입하여 제작되었다. 2010년에는 국내 기술로 개발한 KTX-산천이 운행을 시작하였고, 2021년에는 동력분산식 고속열차인 KTX-이음이 중앙선에 투입되었다.",
     "KTX는 언제 개통되었나?"),
    ("ko/김치", "김치",
     "김치는 배추나 무 등의 채소를 소금에 절인 뒤 고춧가루, 마늘, 젓갈 등의 양념을 버무려 발효시킨 한국의 전통 음식이다. 2013년 '김장, 김치를 담그고 나누는 문화'가 유네스코 인류무형문화유산으로 등재되었다. 지역과 계절에 따라 배추김치, 깍두기, 총각김치, 동치미 등 수백 가지의 종류가 있으며, 김장은 보통 11월 말에서 12월 초 사이에 한다.",
     "김장 문화가 유네스코에 등재된 해는?"),
    ("ko/부산", "부산광역시",
     "부산광역시는 대한민국 남동부에 있는 광역시로, 인구는 약 330만 명이다. 부산항은 국내 최대의 무역항이며 컨테이너 물동량 기준 세계 7위 안팎의 항구이다. 매년 10월에는 부산국제영화제가 열린다. 해운대해수욕장과 광안리해수욕장이 유명하며, 광안대교는 길이 7.42km의 복층 현수교로 2003년에 개통되었다.",
     "부산국제영화제는 매년 언제 열리나?"),
    ("ko/세종대왕", "세종",
     "세종(1397년~1450년)은 조선의 제4대 국왕으로 재위 기간은 1418년부터 1450년까지이다. 집현전을 설치하여 학문을 장려하였고, 장영실 등을 등용하여 측우기와 해시계(앙부일구) 등 과학 기구를 만들게 하였다. 1443년에는 훈민정음을 창제하였고, 4군 6진을 개척하여 북방 영토를 넓혔다. 만 원권 지폐에 세종의 초상이 실려 있다.",
     "세종의 재위 기간은?"),
])  # fmt: skip

BN_WIKI = _pool("bn", [
    ("bn/রবীন্দ্রনাথ", "রবীন্দ্রনাথ ঠাকুর",
     "রবীন্দ্রনাথ ঠাকুর (১৮৬১–১৯৪১) ছিলেন অগ্রণী বাঙালি কবি, ঔপন্যাসিক, সংগীতস্রষ্টা ও দার্শনিক। ১৯১৩ সালে গীতাঞ্জলি কাব্যগ্রন্থের ইংরেজি অনুবাদের জন্য তিনি প্রথম এশীয় হিসেবে সাহিত্যে নোবেল পুরস্কার লাভ করেন। ভারত ও বাংলাদেশের জাতীয় সংগীত তাঁরই রচনা।",
     "রবীন্দ্রনাথ ঠাকুর কোন বছর নোবেল পুরস্কার পান?"),
    ("bn/পদ্মা_সেতু", "পদ্মা সেতু",
     "পদ্মা সেতু বাংলাদেশের পদ্মা নদীর উপর নির্মিত একটি বহুমুখী সড়ক ও রেল সেতু। এর দৈর্ঘ্য ৬.১৫ কিলোমিটার। সেতুটি ২০২২ সালের ২৫ জুন উদ্বোধন করা হয় এবং এটি মুন্সীগঞ্জের মাওয়ার সঙ্গে শরীয়তপুরের জাজিরাকে যুক্ত করেছে।",
     "পদ্মা সেতুর দৈর্ঘ্য কত?"),
    ("bn/সুন্দরবন", "সুন্দরবন",
     "সুন্দরবন বিশ্বের বৃহত্তম ম্যানগ্রোভ বন, যা বাংলাদেশ ও ভারতের পশ্চিমবঙ্গ রাজ্যে বিস্তৃত। বনের প্রায় ৬০ শতাংশ বাংলাদেশে অবস্থিত। এটি রয়েল বেঙ্গল বাঘের আবাসস্থল হিসেবে পরিচিত এবং ১৯৯৭ সালে ইউনেস্কো বিশ্ব ঐতিহ্যবাহী স্থান হিসেবে স্বীকৃতি পায়।",
     "সুন্দরবনের কত শতাংশ বাংলাদেশে অবস্থিত?"),
    ("bn/ভাষা_আন্দোলন", "ভাষা আন্দোলন",
     "ভাষা আন্দোলন ছিল তৎকালীন পূর্ব পাকিস্তানে বাংলাকে রাষ্ট্রভাষা করার দাবিতে গড়ে ওঠা আন্দোলন। ১৯৫২ সালের ২১ ফেব্রুয়ারি ঢাকায় ছাত্রদের মিছিলে পুলিশের গুলিতে কয়েকজন নিহত হন। ১৯৯৯ সালে ইউনেস্কো ২১ ফেব্রুয়ারিকে আন্তর্জাতিক মাতৃভাষা দিবস ঘোষণা করে।",
     "কোন বছর ২১ ফেব্রুয়ারি আন্তর্জাতিক মাতৃভাষা দিবস ঘোষিত হয়?"),
    ("bn/কলকাতা", "কলকাতা",
     "কলকাতা ভারতের পশ্চিমবঙ্গ রাজ্যের রাজধানী এবং হুগলি নদীর পূর্ব তীরে অবস্থিত। ১৭৭২ থেকে ১৯১১ সাল পর্যন্ত এটি ব্রিটিশ ভারতের রাজধানী ছিল। শহরের হাওড়া ব্রিজ ১৯৪৩ সালে চালু হয়। কলকাতাকে ভারতের সাংস্কৃতিক রাজধানী বলা হয় এবং এখানেই ১৯৮৪ সালে ভারতের প্রথম মেট্রো রেল চালু হয়।",
     "কলকাতা কত সাল পর্যন্ত ব্রিটিশ ভারতের রাজধানী ছিল?"),
    ("bn/ঢাকা_মেট্রো", "ঢাকা মেট্রো রেল",
     "ঢাকা মেট্রো রেলের প্রথম লাইন এমআরটি লাইন-৬ উত্তরা থেকে মতিঝিল পর্যন্ত বিস্তৃত। এর উত্তরা–আগারগাঁও অংশ ২০২২ সালের ২৮ ডিসেম্বর চালু হয়। এটি বাংলাদেশের প্রথম মেট্রো রেল। পুরো লাইনের দৈর্ঘ্য প্রায় ২০.১ কিলোমিটার এবং এতে ১৬টি স্টেশন রয়েছে। ট্রেনগুলো ঘণ্টায় সর্বোচ্চ ১০০ কিলোমিটার গতিতে চলতে পারে।",
     "ঢাকা মেট্রো রেলের প্রথম অংশ কবে চালু হয়?"),
])  # fmt: skip

EN_CRAG = _pool("en", [
    ("crag/finance-1", "finance",
     "Costco Wholesale Corporation reported net sales of $269.9 billion for the 52-week fiscal year ended August 31, 2025, an increase of 8.1 percent from the prior year, and the company said it operated 914 warehouses worldwide at year end, including 627 in the United States and Puerto Rico.",
     "How many warehouses did Costco operate at the end of fiscal 2025?"),
    ("crag/finance-2", "finance",
     "The board of directors of Microsoft declared a quarterly dividend of $0.91 per share, a 10 percent increase over the previous quarterly dividend, payable on December 11 to shareholders of record on November 20, with the ex-dividend date falling on the same day as the record date.",
     "What quarterly dividend per share did Microsoft declare?"),
    ("crag/music-1", "music",
     "Taylor Swift's The Eras Tour concluded on December 8, 2024 in Vancouver after 149 shows across five continents, and it became the first tour in history to gross more than $2 billion, according to figures reported by Pollstar, surpassing the previous record held by Elton John's Farewell Yellow Brick Road tour.",
     "Where did The Eras Tour end?"),
    ("crag/music-2", "music",
     "At the 67th Annual Grammy Awards, held on February 2, 2025 at the Crypto.com Arena in Los Angeles, Beyoncé won Album of the Year for Cowboy Carter, her first win in that category after four previous nominations, and the album also won Best Country Album.",
     "Which album won Album of the Year at the 67th Grammy Awards?"),
    ("crag/sports-1", "sports",
     "The Florida Panthers defeated the Edmonton Oilers in six games to win the 2025 Stanley Cup Final, their second consecutive championship, with Sam Bennett awarded the Conn Smythe Trophy as the most valuable player of the playoffs after scoring 15 goals.",
     "Who won the Conn Smythe Trophy in 2025?"),
    ("crag/sports-2", "sports",
     "Novak Djokovic won the men's singles gold medal at the Paris 2024 Olympics, beating Carlos Alcaraz 7-6, 7-6 in the final at Roland Garros, completing a career Golden Slam at the age of 37 and becoming the oldest Olympic champion in men's singles tennis.",
     "Who did Djokovic beat in the Paris 2024 Olympic final?"),
    ("crag/movie-1", "movie",
     "Oppenheimer, directed by Christopher Nolan, won seven Academy Awards at the 96th Oscars ceremony in March 2024, including Best Picture, Best Director, Best Actor for Cillian Murphy and Best Supporting Actor for Robert Downey Jr., and it grossed about $975 million worldwide.",
     "How many Academy Awards did Oppenheimer win?"),
])  # fmt: skip

ZH_CODE = _pool("zh", [
    ("internal/config/config.go", "config.go",
     "package config\n\nimport (\n\t\"os\"\n\t\"strconv\"\n\t\"time\"\n)\n\n// Config 服务配置，全部来自环境变量\ntype Config struct {\n\tAddr        string        // 监听地址，默认 :8080\n\tDBURL       string        // PostgreSQL 连接串\n\tReadTimeout time.Duration // 读超时，默认 5 秒\n\tMaxConns    int           // 连接池上限，默认 20\n}\n\nfunc Load() Config {\n\tc := Config{Addr: \":8080\", ReadTimeout: 5 * time.Second, MaxConns: 20}\n\tif v := os.Getenv(\"ORDER_MAX_CONNS\"); v != \"\" {\n\t\tc.MaxConns, _ = strconv.Atoi(v)\n\t}\n\tc.DBURL = os.Getenv(\"ORDER_DB_URL\")\n\treturn c\n}",
     "连接池上限默认是多少，用哪个环境变量改？",
     "连接池上限默认是 20，可以通过环境变量 `ORDER_MAX_CONNS` 修改。"),
    ("internal/retry/retry.go", "retry.go",
     "package retry\n\nimport (\n\t\"context\"\n\t\"time\"\n)\n\n// Do 按指数退避重试 fn，最多 attempts 次。\n// 第一次等待 base，之后每次翻倍，上限 maxWait。\nfunc Do(ctx context.Context, attempts int, base, maxWait time.Duration, fn func() error) error {\n\tvar err error\n\twait := base\n\tfor i := 0; i < attempts; i++ {\n\t\tif err = fn(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\tselect {\n\t\tcase <-ctx.Done():\n\t\t\treturn ctx.Err()\n\t\tcase <-time.After(wait):\n\t\t}\n\t\twait = min(wait*2, maxWait)\n\t}\n\treturn err\n}",
     "retry.Do 的等待时间是怎么增长的？",
     "retry.Do 第一次等待 base，之后每次翻倍，最多到 maxWait。"),
    ("README.md", "README.md",
     "# order-service\n\n订单服务，负责下单、取消和查询订单。\n\n## 本地运行\n\n```bash\ndocker compose up -d postgres\nmake migrate\ngo run ./cmd/server\n```\n\n## 约定\n\n- 所有接口返回 JSON，错误统一为 `{\"code\": ..., \"message\": ...}`。\n- 金额一律用“分”为单位的整数，不要用 float。\n- 新增接口必须在 `api/openapi.yaml` 里先写好定义。",
     "金额应该用什么单位存？"),
    ("internal/handler/cancel.go", "cancel.go",
     "package handler\n\n// CancelOrder 取消订单。\n// 只有状态为 PENDING 或 PAID 的订单可以取消；\n// 已发货（SHIPPED）的订单返回 409，需要走退货流程。\n// 已支付订单取消后会异步发起退款，退款结果通过 MQ 通知。\nfunc (h *Handler) CancelOrder(w http.ResponseWriter, r *http.Request) {\n\tid := chi.URLParam(r, \"id\")\n\torder, err := h.store.Get(r.Context(), id)\n\tif err != nil {\n\t\twriteError(w, http.StatusNotFound, \"订单不存在\")\n\t\treturn\n\t}\n\tif order.Status == StatusShipped {\n\t\twriteError(w, http.StatusConflict, \"订单已发货，请申请退货\")\n\t\treturn\n\t}\n\t// ...\n}",
     "已发货的订单调用取消接口会返回什么？",
     "已发货（SHIPPED）的订单取消时返回 409，需要走退货流程。"),
    ("Makefile", "Makefile",
     "GO ?= go\n\n.PHONY: test lint migrate\n\n# 单元测试，带竞态检测\ntest:\n\t$(GO) test -race ./...\n\n# golangci-lint，配置在 .golangci.yml\nlint:\n\tgolangci-lint run --timeout 3m\n\n# 数据库迁移，需要先设置 ORDER_DB_URL\nmigrate:\n\tmigrate -path db/migrations -database \"$(ORDER_DB_URL)\" up",
     "make migrate 之前需要设置什么？",
     "运行 `make migrate` 之前需要先设置环境变量 `ORDER_DB_URL`。"),
    ("docker-compose.yml", "docker-compose.yml",
     "services:\n  postgres:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: order\n      POSTGRES_PASSWORD: order\n      POSTGRES_DB: order\n    ports:\n      - \"5433:5432\"   # 本机 5432 常被占用，映射到 5433\n  nats:\n    image: nats:2.10\n    ports:\n      - \"4222:4222\"",
     "本地 postgres 映射到哪个端口？",
     "docker-compose 里 postgres 映射到本机的 5433 端口，因为 5432 常被占用。"),
])  # fmt: skip

EN_HOTPOT = _pool("en", [
    ("lb-en/Arthur's Magazine", "Arthur's Magazine",
     "Arthur's Magazine (1844–1846) was an American literary periodical published in Philadelphia in the 19th century. Edited by Timothy Shay Arthur, it featured work by Edgar A. Poe, J.H. Ingraham, Sarah Josepha Hale, Thomas G. Spear, and others. In May 1846 it was merged into Godey's Lady's Book.",
     "Which magazine was Arthur's Magazine merged into?"),
    ("lb-en/First for Women", "First for Women",
     "First for Women is a woman's magazine published by Bauer Media Group in the USA. The magazine was started in 1989. It is based in Englewood Cliffs, New Jersey. In 2011 the circulation of the magazine was 1,310,696 copies.",
     "In which year was First for Women started?"),
    ("lb-en/Oberoi family", "Oberoi family",
     "The Oberoi family is an Indian family that is famous for its involvement in hotels, namely through The Oberoi Group. The Oberoi Group is a hotel company with its head office in Delhi. Founded in 1934, the company owns and operates 30 luxury hotels and two river cruise ships in six countries.",
     "Where is the head office of The Oberoi Group?"),
    ("lb-en/Allie Goertz", "Allie Goertz",
     "Allison Beth \"Allie\" Goertz (born March 2, 1991) is an American musician. Goertz is known for her satirical songs based on various pop culture topics. Her videos are posted on YouTube under the name of Cossbysweater. She co-hosts the podcast Everything's Coming Up Simpsons.",
     "Under which name does Allie Goertz post her videos?"),
    ("lb-en/Adriana Trigiani", "Adriana Trigiani",
     "Adriana Trigiani is an Italian American best-selling author of sixteen books, television writer, film director, and entrepreneur based in Greenwich Village, New York City. Trigiani has published a novel a year since 2000. Her debut novel, Big Stone Gap, was adapted into a film that she directed in 2014.",
     "Which of Adriana Trigiani's novels did she adapt into a film?"),
    ("lb-en/Laleli Mosque", "Laleli Mosque",
     "The Laleli Mosque (Turkish: Laleli Camii, or Tulip Mosque) is an 18th-century Ottoman imperial mosque located in Laleli, Fatih, Istanbul, Turkey. It was commissioned by Sultan Mustafa III and built between 1759 and 1763.",
     "Which sultan commissioned the Laleli Mosque?"),
])  # fmt: skip

ZH_DU = _pool("zh", [
    ("lb-zh/社保转移", "社保关系怎么转移",
     "跨省换工作后，养老保险关系可以通过国家社会保险公共服务平台或“掌上12333”App在线申请转移。只需向新参保地社保经办机构提出申请，新参保地会与原参保地联系办理，一般在45个工作日内完成。转移后缴费年限累计计算，不会清零。转移时需要提供本人社会保障卡或身份证，部分地区已实现参保缴费凭证的线上自动获取。",
     "跨省换工作后养老保险转移一般多久办完"),
    ("lb-zh/护照办理", "护照办理流程",
     "自2019年起，内地居民可在全国任一出入境管理窗口申请普通护照，无需回户籍所在地。携带居民身份证即可现场采集照片和指纹，审批时间一般为7个工作日。护照有效期：未满16周岁的为5年，16周岁以上的为10年。首次申领护照的费用为每本120元，急需出境的可以申请加急办理，但需要提供相关证明材料。",
     "16周岁以上的护照有效期是几年"),
    ("lb-zh/公积金提取", "住房公积金提取",
     "租房提取住房公积金，需职工本人及配偶在缴存地无自有住房。提取额度按当地规定执行，例如北京每人每月最高可提取1500元（多子女家庭可按实际房租提取）。可在住房公积金App或手机银行线上办理，一般3个工作日到账。提取时需要如实填写租房地址，部分城市还要求提供租赁合同备案信息。",
     "北京租房提取公积金每月最多多少"),
    ("lb-zh/驾照换证", "驾驶证到期换证",
     "机动车驾驶证有效期分为6年、10年和长期。有效期满前90日内可申请换证，可以在“交管12123”App上申请，选择邮寄或到车管所领取。超过有效期一年以上未换证的，驾驶证会被注销，但在注销后两年内可以恢复驾驶资格，需要重新考科目一。换证时还需要提交身体条件证明，可以在指定医院体检后由医院直接上传到系统。",
     "驾驶证到期前多久可以申请换证"),
    ("lb-zh/个税汇算", "个人所得税年度汇算",
     "个人所得税综合所得年度汇算办理时间为每年3月1日至6月30日。纳税人可以通过个人所得税App自行办理，也可以委托单位办理。年度综合所得收入不超过12万元且需要补税的，或者补税金额不超过400元的，可以免于办理汇算。汇算期间，纳税人可以对全年的专项附加扣除进行补充填报，例如子女教育、赡养老人和住房贷款利息等。",
     "个税年度汇算什么时候办理"),
    ("lb-zh/医保异地", "医保异地就医备案",
     "跨省异地就医前，参保人可通过国家医保服务平台App办理备案。异地长期居住人员备案后在备案地就医可直接结算；临时外出就医人员备案有效期一般为6个月。未备案的，部分地区也可直接结算，但报销比例会降低。备案后如需变更或取消，同样可以在App上办理，部分统筹地区对变更次数有限制。",
     "临时外出就医备案有效期多长"),
])  # fmt: skip

# --- templates ---------------------------------------------------------------------------------------------

RANKGPT_SYSTEM = (
    "You are RankGPT, an intelligent assistant that can rank passages based on their relevancy to the query."
)


def rankgpt_nl(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """RankGPT's listwise reranking (from memory of the rank_gpt repository): the system persona, the task with
    the passage count, the assistant's 'Okay, please provide the passages.', then one user turn '[i] passage'
    per passage, each acknowledged by the assistant, and the closing instruction restating the query. Every
    passage is split into words and joined by single spaces, so its line breaks are gone. A Dutch bike shop's
    search reranks product pages for the shopper's query."""
    n = len(docs)
    messages = [
        _msg("system", RANKGPT_SYSTEM),
        _msg("user", f"I will provide you with {n} passages, each indicated by number identifier []. \nRank the passages based on their relevance to query: {question}."),
        _msg("assistant", "Okay, please provide the passages."),
    ]  # fmt: skip
    for i, d in enumerate(docs, 1):
        messages += [
            _msg("user", f"[{i}] {collapsed(d.text)}"),
            _msg("assistant", f"Received passage [{i}]."),
        ]
    messages.append(_msg("user", (
        f"Search Query: {question}. \nRank the {n} passages above based on their relevance to the search query. "
        "The passages should be listed in descending order using identifiers. The most relevant passages should be "
        "listed first. The output format should be [] > [], e.g., [1] > [2]. Only respond with the ranking results, "
        "do not say any word or explain."
    )))  # fmt: skip
    return messages


FLARE_TEMPLATE = """Respond to the user message using any relevant context. If context is provided, you should ground your answer in that context. Once you're done responding return FINISHED.

>>> CONTEXT: {context}
>>> USER INPUT: {user_input}
>>> RESPONSE: {response}"""
PT_PARTIAL = [
    "",
    "",
    "De acordo com as regras da Receita Federal,",
    "Boa pergunta! Em resumo:",
    "Segundo o manual do IRPF 2026,",
]


def flare_pt(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's FlareChain (from memory of its prompt): one completion prompt, the retrieved chunks joined by
    blank lines after '>>> CONTEXT: ', the user input, and '>>> RESPONSE: ' followed by the answer generated so
    far (empty on the first round, a started sentence when FLARE retrieves again mid-answer). Brazilian income
    tax FAQ."""
    prompt = (
        FLARE_TEMPLATE.replace("{context}", "\n\n".join(d.text for d in docs))
        .replace("{user_input}", question)
        .replace("{response}", rng.choice(PT_PARTIAL))
    )
    return [_msg("user", prompt)]


HAYSTACK_REFS = "Create a concise and informative answer (no more than 50 words) for a given question based solely on the given documents. You must only use information from the given documents. Use an unbiased and journalistic tone. Do not repeat text. Cite the documents using Document[number] notation. If multiple documents contain the answer, cite those documents like ‘as stated in Document[number], Document[number], etc.’. If the documents do not contain the answer to the question, say that ‘answering is not possible given the available information.’"


def haystack1_references(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Haystack 1.x PromptHub's 'deepset/question-answering-with-references' (from memory): the instruction,
    then join(documents, delimiter=new_line, pattern=new_line+'Document[$idx]: $content', str_replace={new_line:
    ' ', '[': '(', ']': ')'}), ' \\n Question: …; Answer: '. The str_replace rewrites every document: its line
    breaks become spaces and its square brackets round ones, and that is how it stands in the prompt. A UK home
    insurer's policy wording."""
    joined = "\n".join(f"\nDocument[{i}]: {haystack_replaced(d.text)}" for i, d in enumerate(docs, 1))
    return [_msg("user", f"{HAYSTACK_REFS}\n{joined} \n Question: {question}; Answer: ")]


MCP_AGENT_SYSTEM = "Jesteś asystentem zespołu Kolejka. Masz dostęp do repozytorium przez narzędzia serwera MCP filesystem (katalog /home/ola/kolejka). Czytaj pliki, zanim odpowiesz, i odpowiadaj po polsku."


def mcp_filesystem_pl(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """The MCP filesystem server's read_multiple_files (from memory of modelcontextprotocol/servers): the agent
    calls it with paths, and the tool result is each file as '<path>:\\n<content>\\n' joined by '\\n---\\n' (an
    unreadable path gives '<path>: Error - …' instead). Sometimes a search_files call and its listing first. A
    Polish team's repository."""
    root = "/home/ola/kolejka/"
    paths = [root + d.source for d in docs]
    messages = [_msg("system", MCP_AGENT_SYSTEM), _msg("user", question)]
    if rng.random() < 0.4:
        call = _tool_call(
            "search_files", {"path": root, "pattern": rng.choice(["docs", "*.md", "config"])}, rng
        )
        messages += [call, _msg("tool", "\n".join(paths), tool_call_id=call["tool_calls"][0]["id"])]
    parts = [f"{root + d.source}:\n{d.text}\n\n" for d in docs]
    if rng.random() < 0.2:
        missing = root + "docs/architektura.md"
        paths.insert(rng.randint(0, len(paths)), missing)
        parts.insert(
            paths.index(missing), f"{missing}: Error - ENOENT: no such file or directory, open '{missing}'"
        )
    call = _tool_call("read_multiple_files", {"paths": paths}, rng)
    messages += [call, _msg("tool", "\n---\n".join(parts), tool_call_id=call["tool_calls"][0]["id"])]
    return messages


JA_HISTORY = [("こんにちは。旅行の下調べを手伝ってください。", "はい、喜んで！どちらへ行かれる予定ですか？")]


def wikipedia_tool_ja(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's WikipediaQueryRun in a tool-calling agent (from memory of WikipediaAPIWrapper): at most three
    pages, each 'Page: <title>\\nSummary: <summary>', joined by blank lines, as the tool message; the agent's
    default 'You are a helpful assistant' system prompt, optional history. Japanese Wikipedia (lang='ja')."""
    keep(docs, question, 3)
    history = [m for u, a in JA_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))]
    target = next(d for d in docs if d.question == question)
    call = _tool_call("wikipedia", {"query": target.title}, rng)
    result = "\n\n".join(f"Page: {d.title}\nSummary: {d.text}" for d in docs)
    return [_msg("system", "You are a helpful assistant"), *history, _msg("user", question), call,
            _msg("tool", result, tool_call_id=call["tool_calls"][0]["id"])]  # fmt: skip


def arxiv_tool(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's ArxivQueryRun in a tool-calling agent (from memory of ArxivAPIWrapper.run): at most three
    results, each 'Published: <date>\\nTitle: …\\nAuthors: …\\nSummary: <abstract>' (the abstract as arXiv
    serves it, hard-wrapped), joined by blank lines."""
    keep(docs, question, 3)
    target = next(d for d in docs if d.question == question)
    call = _tool_call("arxiv", {"query": target.title.split(":")[0]}, rng)
    entries = []
    for d in docs:
        _, published, authors = d.source.split("|")
        entries.append(f"Published: {published}\nTitle: {d.title}\nAuthors: {authors}\nSummary: {d.text}")
    return [_msg("system", "You are a helpful research assistant. Use the arxiv tool to look up papers."),
            _msg("user", question), call,
            _msg("tool", "\n\n".join(entries), tool_call_id=call["tool_calls"][0]["id"])]  # fmt: skip


CHAT_YOUR_DATA = """You are an AI assistant for answering questions about the Valcourt metropolitan Climate Plan 2026-2032.
You are given the following extracted parts of a long document and a question. Provide a conversational answer.
If you don't know the answer, just say "Hmm, I'm not sure." Don't try to make up an answer.
If the question is not about the Climate Plan, politely inform them that you are tuned to only answer questions about the Climate Plan.
Question: {question}
=========
{context}
=========
Answer in Markdown:"""


def chat_your_data_fr(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """hwchase17/chat-your-data's QA prompt (from memory), rebranded: the question before the context, the
    chunks joined by blank lines between two '=========' rules, 'Answer in Markdown:'; the condensed question
    only (the chain rewrites follow-ups before this call). A French metropolitan climate plan."""
    prompt = CHAT_YOUR_DATA.replace("{question}", question).replace(
        "{context}", "\n\n".join(d.text for d in docs)
    )
    return [_msg("user", prompt)]


COSMIC_SYSTEM = """You are a helpful, fun and friendly sales assistant for Cosmic Works, a bicycle and bicycle accessories store. Your name is Cosmo.
You are designed to answer questions about the products that Cosmic Works sells.

Only answer questions related to the information provided in the list of products below that are represented in JSON format.

If you are asked a question that is not in the list, respond with "I don't know."

List of products:
"""
ES_HISTORY = [
    (
        "Hola Cosmo, busco algo para ir al trabajo en bici.",
        "¡Hola! 🚲 Tenemos varias opciones para ciudad. ¿Prefieres eléctrica o convencional?",
    )
]


def cosmic_works_es(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """The Azure Cosmos DB 'Cosmic Works' copilot lab (from memory of its rag_with_vector_search): each product
    document found by vector search (contentVector removed) written as json.dumps(indent=4) followed by a
    blank line, appended to the system prompt; the question as the user message, sometimes after an earlier
    exchange. A Spanish bike shop's catalogue; ASCII-escaped JSON as json.dumps writes it."""
    product_list = "".join(d.text + "\n\n" for d in docs)
    history = [m for u, a in ES_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))]
    return [_msg("system", COSMIC_SYSTEM + product_list), *history, _msg("user", question)]


PINECONE_CHAT_SYSTEM = 'You are Q&A bot. A highly intelligent system that answers user questions based on the information provided by the user above each question. If the information can not be found in the information provided by the user you truthfully say "I don\'t know".'


def _pinecone_genqa(docs: list[Doc], question: str, rng: random.Random, chat: bool) -> Messages:
    """Pinecone's generative QA example (from memory of the OpenAI cookbook / pinecone examples notebook):
    first the completion prompt 'Answer the question based on the context below.\\n\\nContext:\\n' with the
    transcript chunks joined by '\\n\\n---\\n\\n', '\\n\\nQuestion: …\\nAnswer:'; redeployed half-way to the
    chat version: the 'Q&A bot' system prompt, and the chunks joined the same way, '\\n\\n-----\\n\\n' and the
    question as the user turn. Hindi lecture transcripts (YouTube captions, unpunctuated, English terms)."""
    contexts = "\n\n---\n\n".join(d.text for d in docs)
    if chat:
        return [_msg("system", PINECONE_CHAT_SYSTEM), _msg("user", f"{contexts}\n\n-----\n\n{question}")]
    return [
        _msg(
            "user",
            f"Answer the question based on the context below.\n\nContext:\n{contexts}\n\nQuestion: {question}\nAnswer:",
        )
    ]


pinecone_genqa_hi = halves(_pinecone_genqa)

ALEPH_DE = 'Beantworte die Frage anhand des Textes. Wenn sich die Frage nicht mit dem Text beantworten lässt, antworte "Die Frage kann anhand des Textes nicht beantwortet werden."'


def aleph_alpha_qa_de(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Aleph Alpha's intelligence layer, retriever-based QA with the language set to German (from memory):
    the retrieved chunks merged into one text joined by blank lines, the luminous instruction format
    '### Instruction:' (question, then the German instruction), '### Input:' (the text), '### Response:'.
    A German statutory health insurer's member handbook."""
    text = "\n\n".join(d.text for d in docs)
    return [_msg("user", f"### Instruction:\n{question}\n{ALEPH_DE}\n\n### Input:\n{text}\n\n### Response:")]


RAFT_SYSTEM = (
    "You are a helpful question answerer who can provide an answer given a question and relevant context."
)


def raft_ru(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A RAFT-fine-tuned model served for a domain (from memory of gorilla/raft's data format and eval script):
    each document (oracle and distractors alike) as '<DOCUMENT>text</DOCUMENT>\\n', the question right after
    the last one, and the eval script's system prompt. A Russian company's IT knowledge base; the model
    answers with ##Reason, ##begin_quote## … ##end_quote## and <ANSWER>."""
    body = "".join(f"<DOCUMENT>{d.text}</DOCUMENT>\n" for d in docs) + question
    return [_msg("system", RAFT_SYSTEM), _msg("user", body)]


BERGEN_SYSTEM = "You are a helpful assistant. Your task is to extract relevant information from provided documents and to answer to questions as briefly as possible. Please answer in Korean."


def bergen_ko(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """NAVER's BERGEN benchmarking library, its default RAG prompt in the multilingual setup (from memory):
    the system prompt asking for brief answers in the user's language, the user turn 'Background:\\n'
    with 'Document i: text' lines, a blank line and 'Question:\\ …' (the stray backslash of the config kept).
    Korean Wikipedia passages."""
    background = "\n".join(f"Document {i}: {d.text}" for i, d in enumerate(docs, 1))
    return [
        _msg("system", BERGEN_SYSTEM),
        _msg("user", f"Background:\n{background}\n\nQuestion:\\ {question}"),
    ]


NOMIRACL = """I will give you a question and several contexts containing information about the question. Read the contexts carefully. If any of the contexts answers the question, respond as either "Yes, answer is present" or "I don't know". Here is the question and contexts:

QUESTION:
{question}

CONTEXTS:
{contexts}

OUTPUT:
"""


def nomiracl_bn(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """NoMIRACL's relevance-assessment prompt (from memory of the dataset's vanilla prompt): the question, then
    each passage as '[i] <title>\\n<text>' separated by blank lines, 'OUTPUT:'. Bengali Wikipedia."""
    contexts = "\n\n".join(f"[{i}] {d.title}\n{d.text}" for i, d in enumerate(docs, 1))
    return [_msg("user", NOMIRACL.replace("{question}", question).replace("{contexts}", contexts))]


CRAG_SYSTEM = "You are provided with a question and various references. Your task is to answer the question succinctly, using the fewest words possible. If the references do not contain the necessary information to answer the question, respond with 'I don't know'. There is no need to explain the reasoning behind your answers."


def crag_baseline(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Meta's CRAG (KDD Cup 2024) RAG baseline (from memory of rag_baseline.py): the system prompt, then a user
    turn '# References \\n' with each retrieved sentence chunk as '- chunk' on its own line, '------',
    'Using only the references listed above, answer the following question: ', 'Current Time:' and
    'Question:'."""
    references = "# References \n" + "".join(f"- {d.text.strip()}\n" for d in docs)
    when = f"11/{rng.randint(1, 28):02d}/2026, {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} PT"
    user = (
        f"{references}\n------\n\nUsing only the references listed above, answer the following question: \n"
        f"Current Time: {when}\nQuestion: {question}\n"
    )
    return [_msg("system", CRAG_SYSTEM), _msg("user", user)]


CURSOR_SYSTEM = """You are a powerful agentic AI coding assistant. You operate exclusively in Cursor, the world's best IDE.

You are pair programming with a USER to solve their coding task. Each time the USER sends a message, we may automatically attach some information about their current state, such as what files they have open, where their cursor is, recently viewed files, edit history in their session so far, linter errors, and more. This information may or may not be relevant to the coding task, it is up for you to decide.

Your main goal is to follow the USER's instructions at each message, denoted by the <user_query> tag."""
ZH_CODE_HISTORY = [
    (
        "帮我看一下这个服务怎么在本地跑起来",
        "先用 `docker compose up -d postgres` 启动数据库，再执行 `make migrate`，最后 `go run ./cmd/server`。",
    )
]


def cursor_attached_zh(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Cursor's chat/agent turn (from memory of its published system prompt): the user turn opens with
    '<additional_data>' and its 'Below are some potentially helpful…' line, an optional '<current_file>' block,
    then '<attached_files>' with each file in '<file_contents>' as a fence whose info string is
    'path=…, lines=1-N'; the question in '<user_query>'. A Chinese team's Go order service."""
    blocks = []
    for d in docs:
        lines = d.text.count("\n") + 1
        blocks.append(
            f"<file_contents>\n```path={d.source}, lines=1-{lines}\n{d.text}\n```\n</file_contents>"
        )
    current = ""
    if rng.random() < 0.4:
        d = rng.choice(docs)
        line = rng.randint(1, d.text.count("\n") + 1)
        content = d.text.split("\n")[line - 1].strip()
        current = (
            f"<current_file>\nPath: {d.source}\nLine: {line}\nLine Content: `{content}`\n</current_file>\n"
        )
    user = (
        "<additional_data>\nBelow are some potentially helpful/relevant pieces of information for figuring out to respond\n"
        f"{current}<attached_files>\n" + "\n".join(blocks) + "\n</attached_files>\n</additional_data>\n\n"
        f"<user_query>\n{question}\n</user_query>"
    )
    history = [
        m for u, a in ZH_CODE_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))
    ]
    return [_msg("system", CURSOR_SYSTEM), *history, _msg("user", user)]


LONGBENCH_EN = "Answer the question based on the given passages. Only give me the answer and do not output any other words.\n\nThe following are given passages.\n{context}\n\nAnswer the question based on the given passages. Only give me the answer and do not output any other words.\n\nQuestion: {input}\nAnswer:"
LONGBENCH_ZH = "请基于给定的文章回答下述问题。\n\n文章：{context}\n\n请基于上述文章回答下面的问题。\n\n问题：{input}\n回答："


def longbench_router(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A LongBench evaluation harness (from memory of its dataset2prompt) routing per dataset: English
    multi-hop questions get the hotpotqa prompt, 'Passage i:\\n<title>\\n<text>' lines; Chinese ones the
    dureader prompt, '文章i\\n标题：<title>\\n<text>' separated by blank lines. Each request retrieves from its own
    language's passages only. One completion prompt."""
    target = next(d for d in docs if d.question == question)
    docs[:] = [d for d in docs if d.lang == target.lang]
    if target.lang == "zh":
        context = "\n\n".join(f"文章{i}\n标题：{d.title}\n{d.text}" for i, d in enumerate(docs, 1))
        return [_msg("user", LONGBENCH_ZH.replace("{context}", context).replace("{input}", question))]
    context = "\n".join(f"Passage {i}:\n{d.title}\n{d.text}" for i, d in enumerate(docs, 1))
    return [_msg("user", LONGBENCH_EN.replace("{context}", context).replace("{input}", question))]


FABRICATED = {
    "en": " The limit was doubled for claims made after 2025.", "nl": " Bovendien krijg je er gratis een tweede exemplaar bij.",
    "pt": " Além disso, aposentados acima de 65 anos estão isentos de multa.", "pl": " Dodatkowo w weekendy wdrożenia są całkowicie zabronione.",
    "ja": " なお、入場は毎週月曜日が無料です。", "fr": " Par ailleurs, les transports en commun y seront gratuits le week-end.",
    "es": " Además, incluye dos años de mantenimiento gratuito.", "hi": " और ये बात 2017 के paper में पहली बार prove हुई थी।",
    "de": " Zusätzlich gibt es einen Zuschuss von 50 Euro für Brillen.", "ru": " Кроме того, по пятницам доступ открыт только до 15:00.",
    "ko": " 또한 매주 월요일은 무료로 개방된다.", "bn": " এছাড়া এটি প্রতি সোমবার বন্ধ থাকে।", "zh": "另外，该接口每分钟最多调用 100 次。",
}  # fmt: skip
PREAMBLE = {
    "en": "Based on the documents, ", "nl": "Volgens de productinformatie: ", "pt": "Segundo a Receita Federal, ",
    "pl": "Według dokumentacji: ", "ja": "Wikipediaによると、", "fr": "D'après le Plan Climat, ", "es": "¡Claro! ",
    "hi": "Lecture के अनुसार, ", "de": "Laut Mitgliederhandbuch: ", "ru": "Согласно базе знаний, ",
    "ko": "문서에 따르면, ", "bn": "প্রদত্ত তথ্য অনুযায়ী, ", "zh": "根据代码，",
}  # fmt: skip
STYLES: dict[str, Answer] = {"nl/": ranking, "bn/": nomiracl_verdict, "ru/": raft_answer}

SERVICES = [
    ("winkel-rankgpt-nl", "RankGPT listwise reranking prompt (from memory)", "Dutch bike shop search: system persona, task turn, one user turn '[i] passage' per product page (whitespace collapsed) each acknowledged by the assistant, closing instruction with the query again", NL_SHOP, rankgpt_nl),
    ("receita-flare-pt", "LangChain FlareChain prompt (from memory)", "Brazilian tax FAQ: one completion prompt, chunks joined by blank lines after '>>> CONTEXT: ', '>>> USER INPUT:', '>>> RESPONSE:' with the answer so far", PT_IRPF, flare_pt),
    ("harbourside-haystack1-refs", "Haystack 1.x PromptHub deepset/question-answering-with-references (from memory)", "UK home insurance wording: one user message, '\\nDocument[i]: content' joined by '\\n' with line breaks and square brackets replaced in the content, ' \\n Question: …; Answer: '", EN_POLICY, haystack1_references),
    ("kolejka-mcp-filesystem-pl", "MCP filesystem server read_multiple_files in an agent (from memory)", "Polish repository: system, question, optional search_files call, read_multiple_files call, tool result '<path>:\\n<content>\\n' joined by '\\n---\\n' (markdown, YAML, JSON; sometimes an ENOENT error entry)", PL_REPO, mcp_filesystem_pl),
    ("tabi-wikipedia-tool-ja", "LangChain WikipediaQueryRun tool in a tool-calling agent (from memory)", "Japanese Wikipedia: system, optional history, question, wikipedia call, tool message 'Page: t\\nSummary: s' blocks joined by blank lines (top 3)", JA_WIKI, wikipedia_tool_ja),
    ("papers-arxiv-tool", "LangChain ArxivQueryRun tool in a tool-calling agent (from memory)", "arXiv abstracts: system, question, arxiv call, tool message 'Published/Title/Authors/Summary' blocks joined by blank lines, abstracts hard-wrapped (top 3)", EN_ARXIV, arxiv_tool),
    ("valcourt-chat-your-data-fr", "hwchase17/chat-your-data QA prompt, rebranded (from memory)", "French climate plan: one user message, the question first, chunks joined by blank lines between '=========' rules, 'Answer in Markdown:'", FR_CLIMAT, chat_your_data_fr),
    ("cosmo-cosmic-works-es", "Azure Cosmos DB Cosmic Works copilot lab RAG (from memory)", "Spanish bike catalogue: system prompt + each product as json.dumps(indent=4) and a blank line; 0-1 history exchange; question", ES_BICIS, cosmic_works_es),
    ("kaksha-pinecone-genqa-hi", "Pinecone generative QA example, completion then chat version after a redeploy (from memory)", "Hindi lecture transcripts: first half one completion prompt with chunks joined by '\\n\\n---\\n\\n'; second half 'Q&A bot' system + user chunks, '-----' rule, question", HI_LECTURES, pinecone_genqa_hi),
    ("kasse-aleph-alpha-qa-de", "Aleph Alpha intelligence layer retriever QA, German (from memory)", "German health insurer handbook: one completion prompt, '### Instruction:' question + German instruction, '### Input:' chunks joined by blank lines, '### Response:'", DE_KASSE, aleph_alpha_qa_de),
    ("servis-raft-ru", "RAFT (gorilla/raft) document format at inference (from memory)", "Russian IT knowledge base: system, user '<DOCUMENT>text</DOCUMENT>\\n' per document then the question; CoT answers with ##begin_quote##", RU_ITKB, raft_ru),
    ("jisik-bergen-ko", "NAVER BERGEN default RAG prompt, multilingual setup (from memory)", "Korean Wikipedia: system (answer briefly, in Korean), user 'Background:\\n' + 'Document i: text' lines + 'Question:\\\\ …'", KO_WIKI, bergen_ko),
    ("jibon-nomiracl-bn", "NoMIRACL relevance assessment prompt (from memory)", "Bengali Wikipedia: one user message, QUESTION, CONTEXTS '[i] title\\ntext' separated by blank lines, OUTPUT:; answers 'Yes, answer is present' / 'I don't know'", BN_WIKI, nomiracl_bn),
    ("eval-crag-baseline", "Meta CRAG KDD Cup 2024 RAG baseline (from memory)", "English web sentence chunks: system, user '# References ' + '- chunk' lines, '------', instruction, 'Current Time:', 'Question:'", EN_CRAG, crag_baseline),
    ("dingdan-cursor-attachments-zh", "Cursor chat attached files (from memory of its system prompt)", "Chinese Go service: system, 0-1 history exchange, user <additional_data> with optional <current_file> and <file_contents> fences 'path=…, lines=1-N', <user_query>", ZH_CODE, cursor_attached_zh),
    ("bench-longbench-router", "LongBench hotpotqa / dureader prompts, routed by the question's language (from memory)", "English: 'Passage i:\\ntitle\\ntext' lines in the hotpotqa prompt; Chinese: '文章i\\n标题：…' blocks in the dureader prompt; one completion prompt each", EN_HOTPOT + ZH_DU, longbench_router),
]  # fmt: skip


def build() -> None:
    write_long_wave(
        "wave_u", HERE, SERVICES, seed=21700, answer=answers(PREAMBLE, FABRICATED, STYLES), as_sent=as_sent
    )


if __name__ == "__main__":
    build()
