# ruff: noqa: E501
"""Blind wave X (the lead's private holdout of stop 57, committed as a development wave at stop 58):
sixteen services after products, agent frameworks, agent tools, research prompts and an evaluation suite
that no earlier wave (A-W) holds, written by a helper who had not read the reader, with 1-8 documents per
request. Every template was written from memory of the public source (not copied, so wording may drift
from the original):

- Mem0's README chat example (Hebrew): the user's memories as '- memory' lines after 'User Memories:' in the
  system prompt, the question as the user turn;
- Obsidian Copilot's vault QA (German notes), redeployed half-way after a plugin update: first 'NOTE TITLE:
  [[…]]' / 'METADATA:' / 'NOTE BLOCK CONTENT:' blocks, then '<retrieved_document>' XML blocks;
- Continue's @codebase context items (Japanese Next.js repository): each file a fence whose info string is
  'path (start-end)' before the question in one user turn, history;
- the Microsoft Learn MCP server's microsoft_docs_search (Portuguese): a JSON array of {title, content,
  contentUrl} in a tool message;
- Weaviate's generative search with a grouped task (Spanish recipes): the task, ': ' and the objects'
  properties as one JSON array;
- Arize Phoenix evals in a CI job routing two call kinds: the RAG relevancy template (one reference per call)
  and the Q&A correctness template (the references joined, an answer under test); Italian;
- RA-DIT's 'Background:' prompt (Russian encyclopedia): one retrieved passage per call, run in parallel;
- Search-R1's inference prompt: the documents inside '<information>' blocks of the assistant's own partial
  trajectory (prefill), one or two search rounds;
- neo4j-graphrag's GraphRAG with a VectorRetriever (Polish): each item the str() of a neo4j Record,
  '<Record node={…} score=…>', lines joined under 'Context:';
- CrewAI knowledge sources (Hindi): 'Additional Information: ' and the snippets joined by line breaks
  appended to the task prompt;
- a LangChain tool-calling agent with create_retriever_tool (Vietnamese): two retriever calls in one
  assistant turn, each tool message the documents joined by blank lines, history;
- STORM's AnswerQuestion (DSPy): '[i]: snippet' lines under 'Gathered information:' after the format block;
- the MCP fetch server (Swedish public agencies): 'Contents of <url>:' and the page as markdown;
- Mastra's createVectorQueryTool (Korean): a JSON tool result whose relevantContext and sources both hold
  every chunk's text;
- LangChain's ConversationChain with ConversationSummaryMemory (Greek): the running summary in 'Current
  conversation:' — memory, not retrieved text, so the truthful reading is 'no context';
- LangChain's XML agent (hwchase17/xml-agent-convo, Ukrainian): the retriever's output inside
  '<observation>' in the scratchpad of one completion-style prompt, an example observation in the
  instructions.

Ground truth: every document is the text the retriever (or memory store, search tool, file reader) returned,
as it stands in the prompt, never a title, path, URL, score, line range, id or metadata the template adds
around it; where the template escapes it (JSON, a Python repr) the document is the unescaped text. Mastra's
second copy of each chunk in 'sources' is the same document, counted once, in relevantContext's order.
Phoenix's answer under test and the XML agent's example observation are no documents; the Greek service's
summary is the conversation's own memory, so its requests hold none.

First run with main's readers (``bench_templates.py --blind tests/assembly_templates/blind/wave_x``, each request under
openinference and openai-v2-latest, 48 readings a service): learnt+rules 336/768 right (43.8%), 120 wrong
context, 312 unscored (readings_disagree 156, no_context 66, unparseable 48, context_not_separable 42; the
Greek service's 48 no_context are its truthful reading); learnt-only 288 / 120 / 360; rules-only 144 / 48 /
576. Learnt+rules right / wrong / unscored: gmina-neo4j-graphrag-pl, nuvem-mslearn-mcp-pt,
poshta-xml-agent-uk, rail-crewai-knowledge-hi, wiki-storm-answer-question, zikaron-mem0-memories-he,
znanie-ra-dit-ru 48/0/0; myndighet-mcp-fetch-sv 0/24/24; cocina-weaviate-grouped-es,
notizen-obsidian-copilot-de 0/48/0; banca-phoenix-evals-router-it (context_not_separable, no_context),
jeonse-mastra-vector-query-ko (unparseable), trivia-search-r1, vidien-retriever-tool-vi,
yoyaku-continue-codebase-ja (readings_disagree), voithos-summary-memory-el (no_context) 0/0/48.

    python tests/assembly_templates/blind/make_wave_x.py   # writes wave_x/*.json (deterministic)
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from make_wave_q import _msg
from make_wave_s import halves
from make_wave_u import Answer, Doc, _pool, _tool_call, answers, first_sentence, keep
from make_wave_w import as_sent
from wave_writer import write_long_wave

HERE = Path(__file__).resolve().parent / "wave_x"

Messages = list[dict[str, Any]]


# --- pools -------------------------------------------------------------------------------------------------

HE_MEMORIES = _pool("he", [
    ("mem/dog", "dog", "לכלב של המשתמש קוראים ביסלי והוא בן שלוש", "איך קוראים לכלב שלי?"),
    ("mem/diet", "diet", "המשתמש צמחוני ולא אוכל דגים", "תמליץ לי על מנה לארוחת ערב, אתה זוכר מה אני לא אוכל?"),
    ("mem/city", "city", "המשתמש גר בחיפה, בשכונת כרמל צרפתי", "באיזו שכונה אמרתי לך שאני גר?"),
    ("mem/work", "work", "המשתמש עובד כמהנדס תוכנה בחברת סייבר בהרצליה", "איפה אני עובד?"),
    ("mem/birthday", "birthday", "יום ההולדת של אשתו של המשתמש, נועה, הוא ב-14 במרץ", "מתי יום ההולדת של נועה?"),
    ("mem/allergy", "allergy", "לבת של המשתמש יש אלרגיה לבוטנים", "למה צריך להיזהר כשקונים לבת שלי חטיפים?"),
    ("mem/running", "running", "המשתמש מתאמן לחצי מרתון תל אביב ורץ שלוש פעמים בשבוע", "לאיזה מרוץ אני מתאמן?"),
    ("mem/car", "car", "המשתמש נוהג בקיה נירו חשמלית משנת 2022", "איזה רכב יש לי?"),
])  # fmt: skip

DE_NOTES = _pool("de", [
    ("Projekte/Balkonkraftwerk.md", "Balkonkraftwerk",
     "# Balkonkraftwerk\n\n#projekt #energie\n\n- Module: 2 × 430 Wp, Wechselrichter auf 800 W gedrosselt\n- Anmeldung im Marktstammdatenregister erledigt am 12.04.\n- [ ] Vermieter schriftlich informieren\n\nErtrag im ersten Sommer: ca. 610 kWh. Siehe auch [[Stromzähler]].",
     "Wie viel Ertrag hatte das Balkonkraftwerk im ersten Sommer?"),
    ("Haushalt/Stromzähler.md", "Stromzähler",
     "# Stromzähler\n\nZählernummer: 1ESY1160123456\nAblesung jeweils am 1. des Monats, Werte in [[Zählerstände 2026]].\n\nDer alte Ferraris-Zähler lief rückwärts; seit dem Tausch durch den Netzbetreiber am 03.06. ist ein Zweirichtungszähler eingebaut.",
     "Wann wurde der Zweirichtungszähler eingebaut?"),
    ("Rezepte/Sauerteig.md", "Sauerteig",
     "# Sauerteig auffrischen\n\n1. 50 g Anstellgut mit 100 g Roggenmehl 1150 und 100 g Wasser (40 °C) verrühren.\n2. 12–16 Stunden bei Raumtemperatur reifen lassen.\n3. 50 g als neues Anstellgut abnehmen und im Kühlschrank lagern.\n\nHält im Kühlschrank etwa zwei Wochen ohne Füttern.",
     "Wie lange hält das Anstellgut im Kühlschrank ohne Füttern?"),
    ("Arbeit/Onboarding Notizen.md", "Onboarding Notizen",
     "# Onboarding Notizen\n\nVPN: GlobalProtect, Portal `vpn.firma.example`\nZeiterfassung bis Freitag 12 Uhr in Personio eintragen.\nAnsprechpartnerin IT: Frau Demir, Durchwahl 214.\n\n> Urlaub mindestens drei Wochen vorher beantragen.",
     "Bis wann muss die Zeiterfassung eingetragen sein?"),
    ("Reisen/Lissabon 2026.md", "Lissabon 2026",
     "# Lissabon 2026\n\nFlug: TP 579 ab Frankfurt, 18.09., 09:40\nUnterkunft: Alfama, Rua dos Remédios\n\n## Ideen\n- Tram 28 früh morgens nehmen, später überfüllt\n- Sintra als Tagesausflug (Zug ab Rossio, ca. 40 Minuten)\n- Pastéis de Belém: Schlange ist vormittags kürzer",
     "Wie lange fährt der Zug nach Sintra?"),
    ("Haushalt/Heizung.md", "Heizung",
     "# Heizung\n\nGastherme Vaillant ecoTEC, Baujahr 2014. Wartung jährlich im Oktober durch Firma Brandt (Tel. 0621 445566).\nWasserdruck soll zwischen 1,5 und 2,0 bar liegen; bei unter 1,0 bar nachfüllen.\n\nLetzte Wartung: [[2025-10-14]], Abgaswerte ok.",
     "Welcher Wasserdruck ist bei der Heizung richtig?"),
    ("Lesen/Bücher 2026.md", "Bücher 2026",
     "# Bücher 2026\n\n| Titel | Autor | Bewertung |\n|---|---|---|\n| Der Halbbart | Charles Lewinsky | ★★★★ |\n| Die Wand | Marlen Haushofer | ★★★★★ |\n| Kairos | Jenny Erpenbeck | ★★★ |\n\nNächstes: Tschick (von Mara empfohlen).",
     "Welches Buch hat Mara empfohlen?"),
])  # fmt: skip

JA_CODE = _pool("ja", [
    ("src/lib/db.ts", "db.ts",
     "import { Pool } from \"pg\";\n\n// 接続数の上限。Vercel の関数ごとにプールが作られるので小さめにする\nconst MAX_CONNECTIONS = 5;\n\nexport const pool = new Pool({\n  connectionString: process.env.DATABASE_URL,\n  max: MAX_CONNECTIONS,\n  idleTimeoutMillis: 10_000,\n});",
     "DBプールの最大接続数はいくつ？"),
    ("src/app/api/reservations/route.ts", "route.ts",
     "import { NextResponse } from \"next/server\";\nimport { createReservation } from \"@/lib/reservations\";\n\n// 予約は来店日の30日前から受け付ける\nexport async function POST(req: Request) {\n  const body = await req.json();\n  if (!body.date || !body.partySize) {\n    return NextResponse.json({ error: \"date と partySize は必須です\" }, { status: 400 });\n  }\n  const reservation = await createReservation(body);\n  return NextResponse.json(reservation, { status: 201 });\n}",
     "予約APIで partySize がないとどうなる？"),
    ("src/lib/reservations.ts", "reservations.ts",
     "import { pool } from \"./db\";\n\nconst MAX_PARTY_SIZE = 8; // 9名以上は電話予約のみ\n\nexport async function createReservation(input: { date: string; partySize: number }) {\n  if (input.partySize > MAX_PARTY_SIZE) {\n    throw new Error(\"9名以上のご予約はお電話でお願いします\");\n  }\n  const { rows } = await pool.query(\n    \"insert into reservations (date, party_size) values ($1, $2) returning *\",\n    [input.date, input.partySize],\n  );\n  return rows[0];\n}",
     "ネット予約できる最大人数は？"),
    ("docs/運用.md", "運用.md",
     "# 運用メモ\n\n- 本番デプロイは `main` へのマージで Vercel が自動実行する。\n- DB マイグレーションは `pnpm db:migrate` を手動で実行する（自動では走らない）。\n- 障害時はまず Slack の #ops-alert を確認すること。",
     "マイグレーションは自動で実行される？"),
    ("README.md", "README.md",
     "# 予約システム\n\n飲食店向けの予約管理アプリです。Next.js 15 と PostgreSQL で動いています。\n\n## 開発\n\n```bash\npnpm install\ncp .env.example .env.local\npnpm dev\n```\n\nローカルでは http://localhost:3000 で起動します。",
     "ローカル環境は何番ポートで起動する？"),
    ("src/lib/mail.ts", "mail.ts",
     "import { Resend } from \"resend\";\n\nconst resend = new Resend(process.env.RESEND_API_KEY);\n\n// 予約確認メールは来店前日の18時にも再送する\nexport async function sendConfirmation(to: string, html: string) {\n  await resend.emails.send({ from: \"予約係 <yoyaku@example.jp>\", to, subject: \"ご予約の確認\", html });\n}",
     "確認メールはいつ再送される？"),
])  # fmt: skip

PT_LEARN = _pool("pt", [
    ("https://learn.microsoft.com/pt-br/azure/storage/blobs/access-tiers-overview", "Camadas de acesso para dados de blob",
     "A camada de acesso Fria é otimizada para armazenar dados acessados com pouca frequência e armazenados por pelo menos 30 dias. A camada Esporádica exige pelo menos 90 dias e a camada de Arquivos, pelo menos 180 dias. Se um blob for excluído ou movido antes desse período, será cobrada uma taxa de exclusão antecipada.",
     "Qual é o período mínimo de armazenamento na camada de Arquivos?"),
    ("https://learn.microsoft.com/pt-br/azure/app-service/overview-hosting-plans", "Planos do Serviço de Aplicativo do Azure",
     "Os aplicativos executados no mesmo plano do Serviço de Aplicativo compartilham as mesmas instâncias de VM. O nível Gratuito e o Compartilhado não oferecem escala horizontal nem domínios personalizados com TLS. Para usar slots de implantação, é necessário o nível Standard ou superior.",
     "Qual nível é necessário para usar slots de implantação?"),
    ("https://learn.microsoft.com/pt-br/azure/key-vault/general/soft-delete-overview", "Visão geral da exclusão temporária do Key Vault",
     "Quando a exclusão temporária está habilitada, os cofres e objetos excluídos ficam recuperáveis durante o período de retenção, que pode ser configurado entre 7 e 90 dias. O padrão é 90 dias. Com a proteção contra limpeza ativada, nem mesmo um administrador pode limpar o objeto antes do fim do período.",
     "Qual é o período de retenção padrão da exclusão temporária?"),
    ("https://learn.microsoft.com/pt-br/azure/azure-functions/functions-scale", "Opções de hospedagem do Azure Functions",
     "No plano de Consumo, o tempo limite padrão de uma execução de função é de 5 minutos, e o máximo é de 10 minutos. No plano Premium e no plano Dedicado, o padrão é 30 minutos e a execução pode ser ilimitada. Funções disparadas por HTTP precisam responder em até 230 segundos, independentemente do plano.",
     "Qual é o tempo limite máximo no plano de Consumo?"),
    ("https://learn.microsoft.com/pt-br/azure/cosmos-db/request-units", "Unidades de Solicitação no Azure Cosmos DB",
     "O custo de ler um único item de 1 KB pelo seu ID e chave de partição é de 1 RU. Gravações custam mais, em geral cerca de 5 RUs para um item de 1 KB, dependendo da política de indexação. Consultas têm custo variável conforme o número de itens lidos e a complexidade.",
     "Quantas RUs custa ler um item de 1 KB?"),
    ("https://learn.microsoft.com/pt-br/entra/identity/authentication/concept-mfa-howitworks", "Como funciona a autenticação multifator do Microsoft Entra",
     "Os métodos de autenticação disponíveis incluem o aplicativo Microsoft Authenticator, chaves de segurança FIDO2, tokens OATH e SMS. A Microsoft recomenda métodos resistentes a phishing, como chaves FIDO2 e o Authenticator com correspondência de números, em vez de SMS.",
     "Quais métodos de MFA a Microsoft recomenda?"),
])  # fmt: skip

ES_RECETAS = _pool("es", [
    ("recetas/salmorejo", "Salmorejo cordobés",
     "Tritura 1 kg de tomates maduros con 200 g de pan del día anterior, 1 diente de ajo y sal. Añade poco a poco 150 ml de aceite de oliva virgen extra hasta que emulsione. Sirve muy frío con huevo duro picado y taquitos de jamón.",
     "¿Cuánto aceite lleva el salmorejo?"),
    ("recetas/tortilla", "Tortilla de patatas",
     "Pocha 800 g de patatas en láminas y 1 cebolla en abundante aceite a fuego medio durante 25 minutos. Escúrrelas y mézclalas con 6 huevos batidos; deja reposar 10 minutos. Cuaja en sartén 3 minutos por cada lado si la quieres jugosa.",
     "¿Cuánto reposa la mezcla de la tortilla antes de cuajarla?"),
    ("recetas/paella", "Paella valenciana",
     "Sofríe el pollo y el conejo troceados, añade garrofó y judía verde, luego tomate rallado y pimentón. Incorpora agua (el triple que de arroz), azafrán y sal. Cuando hierva, reparte 400 g de arroz bomba y no lo remuevas más. Cocina 18 minutos y deja reposar 5.",
     "¿Cuánto tiempo se cocina el arroz de la paella?"),
    ("recetas/gazpacho", "Gazpacho andaluz",
     "Tritura 1 kg de tomate, 1 pimiento verde, medio pepino, 1 diente de ajo, 50 g de pan, 80 ml de aceite de oliva y 30 ml de vinagre de Jerez. Cuela y enfría al menos 2 horas. A diferencia del salmorejo, se sirve más líquido y puede beberse en vaso.",
     "¿Qué vinagre se usa en el gazpacho?"),
    ("recetas/croquetas", "Croquetas de jamón",
     "Haz una bechamel espesa con 100 g de mantequilla, 100 g de harina y 1 litro de leche entera; añade 150 g de jamón picado. Deja enfriar la masa en la nevera toda la noche. Forma las croquetas, pásalas por huevo y pan rallado y fríelas en aceite a 180 °C.",
     "¿A qué temperatura se fríen las croquetas?"),
    ("recetas/crema-catalana", "Crema catalana",
     "Infusiona 1 litro de leche con piel de limón y una rama de canela. Mezcla 8 yemas con 200 g de azúcar y 40 g de maicena, añade la leche colada y cuece sin dejar de remover hasta que espese. Reparte en cazuelitas, enfría y carameliza el azúcar con un quemador justo antes de servir.",
     "¿Cuántas yemas lleva la crema catalana?"),
    ("recetas/fabada", "Fabada asturiana",
     "Deja las fabes en remojo 12 horas. Ponlas en una olla con el compango (chorizo, morcilla, lacón y tocino) cubiertas de agua fría. Cuece a fuego muy suave unas 3 horas, asustando las fabes con un chorrito de agua fría cuando hiervan para que no se rompan.",
     "¿Cuántas horas están las fabes en remojo?"),
    ("recetas/pisto", "Pisto manchego",
     "Sofríe por separado cebolla, pimiento verde, pimiento rojo y calabacín en dados. Júntalos con 500 g de tomate triturado y cocina a fuego lento 30 minutos. Se sirve tradicionalmente con un huevo frito encima.",
     "¿Con qué se sirve tradicionalmente el pisto?"),
])  # fmt: skip

IT_BANCA = _pool("it", [
    ("faq/bonifico-istantaneo", "Bonifico istantaneo",
     "Il bonifico istantaneo viene accreditato al beneficiario entro 10 secondi, 24 ore su 24, tutti i giorni dell'anno. Dal 2025 il costo non può superare quello di un bonifico ordinario. L'importo massimo per singola operazione dall'app è di 15.000 euro.",
     "Qual è l'importo massimo di un bonifico istantaneo dall'app?"),
    ("faq/carta-bloccata", "Blocco della carta",
     "In caso di furto o smarrimento blocca subito la carta dall'app, sezione Carte, oppure chiama il numero verde 800 123 456, attivo 24 ore su 24. Per le operazioni non riconosciute devi presentare denuncia entro 13 mesi dalla data dell'addebito.",
     "Entro quanto tempo devo denunciare un'operazione non riconosciuta?"),
    ("faq/conto-giovani", "Conto Giovani",
     "Il Conto Giovani è gratuito fino al compimento dei 30 anni: nessun canone mensile, carta di debito inclusa e prelievi gratuiti presso tutti gli sportelli in Italia. Al compimento dei 30 anni il conto passa automaticamente al Conto Base, con canone di 3 euro al mese.",
     "Cosa succede al Conto Giovani a 30 anni?"),
    ("faq/f24", "Pagamento F24",
     "Puoi pagare il modello F24 dall'app fino alle 22:00 del giorno di scadenza. Le deleghe con saldo zero si inviano comunque dall'app. La quietanza è disponibile in Archivio documenti il giorno lavorativo successivo.",
     "Fino a che ora posso pagare un F24 il giorno della scadenza?"),
    ("faq/mutuo-surroga", "Surroga del mutuo",
     "La surroga del mutuo è gratuita: non sono dovute spese di istruttoria, perizia o notaio a carico del cliente. La pratica si conclude di norma in 30-45 giorni dalla presentazione della documentazione completa.",
     "Quanto costa la surroga del mutuo?"),
    ("faq/limiti-prelievo", "Limiti di prelievo",
     "Il limite giornaliero di prelievo con carta di debito è di 1.000 euro, quello mensile di 5.000 euro. Puoi aumentarli temporaneamente dall'app fino a 2.500 euro al giorno per un massimo di 7 giorni.",
     "Qual è il limite mensile di prelievo?"),
])  # fmt: skip

RU_WIKI = _pool("ru", [
    ("wiki/Байкал", "Байкал",
     "Байкал — озеро тектонического происхождения в южной части Восточной Сибири, самое глубокое озеро на планете: его наибольшая глубина составляет 1642 метра. В Байкал впадает более 300 рек, а вытекает только одна — Ангара.",
     "Какая река вытекает из Байкала?"),
    ("wiki/Транссибирская_магистраль", "Транссибирская магистраль",
     "Транссибирская магистраль — железная дорога от Москвы до Владивостока протяжённостью 9288,2 км, самая длинная в мире. Строительство велось с 1891 по 1916 год. Участок вдоль южного берега Байкала называют Кругобайкальской железной дорогой.",
     "Какова длина Транссибирской магистрали?"),
    ("wiki/Эрмитаж", "Эрмитаж",
     "Государственный Эрмитаж — музей изобразительного и декоративно-прикладного искусства в Санкт-Петербурге. Основан в 1764 году Екатериной II. Основная экспозиция размещается в шести зданиях, главное из которых — Зимний дворец.",
     "Кто основал Эрмитаж?"),
    ("wiki/Куршская_коса", "Куршская коса",
     "Куршская коса — узкая песчаная полоса длиной 98 км, отделяющая Куршский залив от Балтийского моря. Южная часть косы принадлежит России, северная — Литве. Здесь находятся одни из самых высоких подвижных дюн в Европе, до 68 метров.",
     "Какой длины Куршская коса?"),
    ("wiki/Эльбрус", "Эльбрус",
     "Эльбрус — стратовулкан на Кавказе, высшая точка России и Европы: высота западной вершины 5642 м. Первое восхождение на восточную вершину совершил в 1829 году проводник Килар Хаширов.",
     "Кто первым поднялся на восточную вершину Эльбруса?"),
    ("wiki/Кижи", "Кижи",
     "Кижи — остров в Онежском озере, известный архитектурным ансамблем Кижского погоста. Двадцатидвухглавая Преображенская церковь построена в 1714 году, по преданию, без единого гвоздя. Ансамбль включён в список Всемирного наследия ЮНЕСКО в 1990 году.",
     "Сколько глав у Преображенской церкви в Кижах?"),
])  # fmt: skip

EN_WIKI = _pool("en", [
    ("r1/Gdańsk Shipyard", "Gdańsk Shipyard",
     "The Gdańsk Shipyard is a large Polish shipyard located in the city of Gdańsk. It gained international fame when Solidarity was founded there in September 1980. The shipyard was previously named the Lenin Shipyard.",
     "In which city was the trade union co-founded by Lech Wałęsa founded?"),
    ("r1/Solidarity (Polish trade union)", "Solidarity (Polish trade union)",
     "Solidarity is a Polish trade union founded in August 1980 at the Lenin Shipyard in Gdańsk. Its leader Lech Wałęsa later became President of Poland. It was the first independent trade union in a Warsaw Pact country.",
     "Who led the first independent trade union in a Warsaw Pact country?"),
    ("r1/Lech Wałęsa", "Lech Wałęsa",
     "Lech Wałęsa (born 29 September 1943) is a Polish statesman and former electrician who co-founded and headed Solidarity. He won the Nobel Peace Prize in 1983 and served as President of Poland from 1990 to 1995.",
     "In what year did the first leader of Solidarity win the Nobel Peace Prize?"),
    ("r1/Westerplatte", "Westerplatte",
     "Westerplatte is a peninsula in Gdańsk, located on the Baltic coast at the mouth of the Dead Vistula. It is best known as the site of the Battle of Westerplatte, the first clash between Polish and German forces during the invasion of Poland in 1939.",
     "What river mouth is Westerplatte located at?"),
    ("r1/Gdańsk Lech Wałęsa Airport", "Gdańsk Lech Wałęsa Airport",
     "Gdańsk Lech Wałęsa Airport is an international airport located 12 km west of Gdańsk. It was named after Lech Wałęsa in 2004. It is the third busiest airport in Poland.",
     "In what year was Gdańsk's airport named after the former president?"),
    ("r1/European Solidarity Centre", "European Solidarity Centre",
     "The European Solidarity Centre is a museum and library in Gdańsk devoted to the history of Solidarity and other opposition movements. Its building, opened in 2014, was designed by the architects of the FORT studio and clad in rusted steel evoking ship hulls.",
     "What material clads the museum devoted to Solidarity's history?"),
    ("r1/Neptune's Fountain", "Neptune's Fountain",
     "Neptune's Fountain is a historic fountain in the centre of Gdańsk's Long Market, built between 1612 and 1615. The bronze statue of Neptune was cast in 1615 by Gert Benning.",
     "Who cast the bronze statue on Gdańsk's Long Market fountain?"),
])  # fmt: skip

PL_URZAD = _pool("pl", [
    ("bip/odpady", "Opłata za odpady",
     "Stawka opłaty za gospodarowanie odpadami komunalnymi wynosi 36 zł miesięcznie od osoby. Właściciele domów jednorodzinnych kompostujący bioodpady w przydomowym kompostowniku otrzymują zwolnienie w wysokości 4 zł od osoby. Opłatę wnosi się do 15 dnia każdego miesiąca.",
     "Ile wynosi zwolnienie za kompostownik?"),
    ("bip/dowod-osobisty", "Dowód osobisty",
     "Wniosek o dowód osobisty można złożyć w dowolnym urzędzie gminy lub przez internet z profilem zaufanym. Dowód jest wydawany bezpłatnie. Czas oczekiwania wynosi do 30 dni, a o możliwości odbioru urząd informuje SMS-em lub e-mailem.",
     "Ile kosztuje wydanie dowodu osobistego?"),
    ("bip/parking", "Strefa płatnego parkowania",
     "Strefa płatnego parkowania obowiązuje w dni robocze od 8:00 do 18:00. Pierwsza godzina kosztuje 4 zł, druga 4,80 zł, trzecia 5,70 zł. Mieszkańcy strefy mogą wykupić abonament za 30 zł rocznie na jeden samochód.",
     "Ile kosztuje abonament mieszkańca w strefie?"),
    ("bip/becikowe", "Becikowe",
     "Jednorazowa zapomoga z tytułu urodzenia dziecka wynosi 1000 zł. Przysługuje, jeśli dochód na osobę w rodzinie nie przekracza 1922 zł netto. Wniosek trzeba złożyć w ciągu 12 miesięcy od dnia urodzenia dziecka.",
     "W jakim terminie trzeba złożyć wniosek o becikowe?"),
    ("bip/wycinka", "Wycinka drzew",
     "Zgłoszenia zamiaru usunięcia drzewa na prywatnej posesji wymaga drzewo, którego obwód pnia na wysokości 5 cm przekracza 80 cm dla topoli, wierzby i klonu srebrzystego oraz 65 cm dla kasztanowca, robinii i platanu. Urząd ma 14 dni na oględziny.",
     "Kiedy wycinka topoli wymaga zgłoszenia?"),
    ("bip/psy", "Opłata za psa",
     "Gmina nie pobiera opłaty od posiadania psów. Obowiązkowe jest natomiast coroczne szczepienie psa przeciwko wściekliźnie, a od 2026 roku również zaczipowanie i rejestracja w Krajowym Rejestrze Zwierząt Towarzyszących.",
     "Czy trzeba płacić podatek od psa?"),
])  # fmt: skip

HI_RAIL = _pool("hi", [
    ("kb/tatkal", "तत्काल टिकट",
     "तत्काल टिकट की बुकिंग यात्रा से एक दिन पहले खुलती है: एसी श्रेणियों के लिए सुबह 10 बजे और स्लीपर के लिए सुबह 11 बजे। कन्फर्म तत्काल टिकट रद्द करने पर कोई रिफंड नहीं मिलता।",
     "स्लीपर की तत्काल बुकिंग कितने बजे खुलती है?"),
    ("kb/refund", "टिकट रद्द करने पर रिफंड",
     "कन्फर्म टिकट को ट्रेन छूटने से 48 घंटे पहले रद्द करने पर एसी प्रथम श्रेणी के लिए 240 रुपये और स्लीपर के लिए 120 रुपये प्रति यात्री कटते हैं। 48 से 12 घंटे के बीच किराए का 25 प्रतिशत कटता है।",
     "स्लीपर टिकट 48 घंटे पहले रद्द करने पर कितना कटता है?"),
    ("kb/senior", "वरिष्ठ नागरिक",
     "वरिष्ठ नागरिकों को लोअर बर्थ देने में प्राथमिकता दी जाती है: 60 वर्ष या अधिक आयु के पुरुष और 45 वर्ष या अधिक आयु की महिलाएं इसके पात्र हैं। किराए में छूट फिलहाल बंद है।",
     "लोअर बर्थ की प्राथमिकता किस उम्र की महिलाओं को मिलती है?"),
    ("kb/luggage", "सामान की सीमा",
     "स्लीपर श्रेणी में प्रति यात्री 40 किलो और एसी 2-टियर में 50 किलो सामान मुफ्त ले जाया जा सकता है। इससे अधिक सामान पार्सल कार्यालय में बुक कराना होगा, अन्यथा डेढ़ गुना शुल्क लगता है।",
     "एसी 2-टियर में कितना सामान मुफ्त है?"),
    ("kb/pnr", "पीएनआर स्थिति",
     "चार्ट ट्रेन छूटने से लगभग 4 घंटे पहले तैयार होता है। चार्ट बनने के बाद भी वेटिंग रहने वाले ई-टिकट अपने आप रद्द हो जाते हैं और पैसा उसी खाते में लौट आता है।",
     "चार्ट बनने के बाद वेटिंग ई-टिकट का क्या होता है?"),
    ("kb/meal", "भोजन",
     "राजधानी, शताब्दी और वंदे भारत ट्रेनों में भोजन का शुल्क किराए में शामिल होता है, लेकिन बुकिंग के समय भोजन न लेने का विकल्प चुना जा सकता है। अन्य ट्रेनों में ई-कैटरिंग से सीट पर खाना मंगवाया जा सकता है।",
     "क्या वंदे भारत में भोजन किराए में शामिल है?"),
])  # fmt: skip

VI_VIDIEN = _pool("vi", [
    ("dieu-khoan/han-muc", "Hạn mức giao dịch",
     "Tài khoản ví đã định danh có hạn mức chuyển tiền 100 triệu đồng mỗi tháng. Tài khoản chưa liên kết ngân hàng chỉ được nạp và thanh toán, không được chuyển tiền cho người khác.",
     "Hạn mức chuyển tiền mỗi tháng của ví đã định danh là bao nhiêu?"),
    ("dieu-khoan/hoan-tien", "Hoàn tiền",
     "Giao dịch thanh toán bị lỗi sẽ được hoàn về ví trong vòng 7 ngày làm việc. Nếu thanh toán bằng thẻ tín dụng, thời gian hoàn tiền phụ thuộc ngân hàng phát hành thẻ, thường từ 7 đến 30 ngày.",
     "Giao dịch lỗi được hoàn tiền trong bao lâu?"),
    ("dieu-khoan/dinh-danh", "Định danh tài khoản",
     "Để định danh, người dùng chụp hai mặt căn cước công dân và quay video khuôn mặt trong ứng dụng. Từ năm 2024, tài khoản chưa định danh bằng sinh trắc học sẽ không thể chuyển tiền trên 10 triệu đồng.",
     "Cần gì để định danh tài khoản ví?"),
    ("dieu-khoan/phi", "Biểu phí",
     "Nạp tiền từ ngân hàng liên kết miễn phí. Rút tiền về ngân hàng miễn phí 5 lần đầu mỗi tháng, từ lần thứ 6 thu 3.300 đồng mỗi giao dịch. Chuyển tiền giữa hai ví miễn phí.",
     "Rút tiền về ngân hàng mất phí không?"),
    ("dieu-khoan/khoa-vi", "Khóa ví",
     "Nếu mất điện thoại, hãy gọi tổng đài 1900 5454 41 để khóa ví tạm thời. Ví sẽ được mở lại sau khi người dùng xác minh danh tính qua cuộc gọi video với nhân viên chăm sóc khách hàng.",
     "Mất điện thoại thì khóa ví bằng cách nào?"),
    ("dieu-khoan/tra-sau", "Ví trả sau",
     "Dịch vụ Ví Trả Sau cho phép chi tiêu trước, thanh toán vào ngày 5 tháng sau, hạn mức từ 1 đến 5 triệu đồng. Trả chậm sẽ bị tính phí phạt 4% trên số tiền chậm trả, tối đa 200.000 đồng.",
     "Phí phạt trả chậm của Ví Trả Sau là bao nhiêu?"),
])  # fmt: skip

EN_SEEDVAULT = _pool("en", [
    ("storm/croptrust", "Crop Trust: Svalbard Global Seed Vault",
     "The Svalbard Global Seed Vault, opened in 2008, is a secure backup facility for the world's crop diversity. It has the capacity to store 4.5 million seed samples. Depositors retain ownership of their seeds, and only the depositing genebank can withdraw them.",
     "Who owns the seeds stored in the Svalbard Global Seed Vault?"),
    ("storm/regjeringen", "Norwegian Ministry of Agriculture: The Seed Vault",
     "The Svalbard Global Seed Vault is owned by the Norwegian state and run in partnership with the Crop Trust and the Nordic Genetic Resource Center (NordGen). Norway pays for the building and its operation; depositing seeds is free of charge.",
     "Who pays for running the Svalbard Global Seed Vault?"),
    ("storm/guardian2017", "The Guardian (2017): Arctic stronghold of world's seeds flooded",
     "In 2017, meltwater entered the entrance tunnel of the Svalbard Global Seed Vault after unusually high temperatures. No seeds were damaged, as the water did not reach the vault chambers. The incident led to a waterproofing project completed in 2019.",
     "Were any seeds damaged when the Seed Vault's tunnel flooded in 2017?"),
    ("storm/icarda", "ICARDA withdrawal (2015)",
     "In 2015 the International Center for Agricultural Research in the Dry Areas (ICARDA) made the first withdrawal from the Svalbard Global Seed Vault, to rebuild collections lost when its genebank near Aleppo could no longer be used during the Syrian civil war. The seeds were regrown in Morocco and Lebanon.",
     "Which organisation made the first withdrawal from the Seed Vault?"),
    ("storm/britannica", "Britannica: Svalbard Global Seed Vault",
     "The vault is dug about 120 metres into a sandstone mountain on Spitsbergen near Longyearbyen. The permafrost and a cooling system keep the seeds at −18 °C. The site was chosen because it lies above sea level even if the ice caps melt completely.",
     "At what temperature are seeds kept in the Seed Vault?"),
    ("storm/nordgen", "NordGen: Depositing seeds",
     "Seeds are sent to the vault in sealed, three-ply foil packages packed in boxes. Only duplicates of samples already conserved in a genebank are accepted. Deposits usually take place during a few opening days a year, typically in February, May and October.",
     "In which months are seed deposits usually made?"),
    ("storm/nature2020", "Nature (2020): Milestone deposit",
     "In February 2020 the vault received more than 60,000 new samples from 36 depositors, the largest number of depositors at a single opening, bringing the total to over one million samples.",
     "How many depositors took part in the February 2020 opening?"),
    ("storm/artwork", "Public Art Norway: Perpetual Repercussion",
     "The vault's entrance carries the artwork Perpetual Repercussion by Dyveke Sanne, made of mirrors, prisms and fibre-optic cables that reflect Arctic light in summer and glow greenish-blue during the polar night.",
     "Who created the artwork on the Seed Vault's entrance?"),
])  # fmt: skip

SV_MYNDIGHET = _pool("sv", [
    ("https://www.forsakringskassan.se/privatperson/foralder/vard-av-barn-vab", "Vård av barn (vab)",
     "# Vård av barn (vab)\n\nDu kan få tillfällig föräldrapenning när du behöver avstå från arbete för att ta hand om ditt sjuka barn.\n\n## Så mycket kan du få\n\nErsättningen är knappt 80 procent av din lön, upp till en viss gräns. Du kan få vab i högst 120 dagar per barn och år.\n\n## Anmäl vab\n\nAnmäl första dagen till Försäkringskassan och till din arbetsgivare. Från och med den åttonde dagen behöver du ett läkarintyg.",
     "Från vilken dag behövs läkarintyg vid vab?"),
    ("https://www.skatteverket.se/privat/fastigheterochbostad/rotochrutarbete", "Rot- och rutavdrag",
     "# Rot- och rutavdrag\n\nRutavdraget är 50 procent av arbetskostnaden och rotavdraget 30 procent. Tillsammans får avdragen vara högst 75 000 kronor per person och år, varav rotavdraget högst 50 000 kronor.\n\nAvdraget görs direkt på fakturan av företaget som utför arbetet.",
     "Hur många procent är rotavdraget?"),
    ("https://www.transportstyrelsen.se/sv/vagtrafik/korkort/", "Förnya körkort",
     "# Förnya körkortet\n\nKörkortet gäller i tio år och måste förnyas innan det går ut. Du förnyar det genom att beställa ett nytt körkort på Transportstyrelsens webbplats och ta ett nytt foto hos en trafikskola eller på ett fotoställe. Avgiften är 250 kronor.",
     "Vad kostar det att förnya körkortet?"),
    ("https://www.csn.se/bidrag-och-lan/studiemedel.html", "Studiemedel",
     "# Studiemedel\n\nStudiemedel består av bidrag och lån. Om du studerar på heltid kan du få ungefär 3 600 kronor i bidrag och 8 900 kronor i lån per fyra veckor.\n\nFribeloppet bestämmer hur mycket du får tjäna innan studiemedlet minskas.",
     "Hur mycket bidrag får man per fyra veckor vid heltidsstudier?"),
    ("https://www.polisen.se/tjanster-tillstand/pass-och-nationellt-id-kort/", "Pass och nationellt id-kort",
     "# Ansöka om pass\n\nDu ansöker om pass genom att boka tid i ett passexpedition. Ett pass kostar 400 kronor och gäller i fem år. Handläggningstiden är normalt upp till två veckor; under sommaren kan det ta längre tid.",
     "Hur länge gäller ett svenskt pass?"),
    ("https://www.1177.se/Stockholm/sa-fungerar-varden/kostnader-och-ersattningar/hogkostnadsskydd/", "Högkostnadsskydd",
     "# Högkostnadsskydd för besök i vården\n\nDu betalar högst 1 450 kronor för vårdbesök under en tolvmånadersperiod. När du har nått gränsen får du ett frikort och besöken blir avgiftsfria under resten av perioden.\n\nFör läkemedel gäller ett separat högkostnadsskydd.",
     "Hur mycket betalar man högst för vårdbesök under ett år?"),
])  # fmt: skip

KO_LEASE = _pool("ko", [
    ("guide/전세보증보험", "전세보증금 반환보증",
     "전세보증금 반환보증은 임대인이 계약 종료 후 보증금을 돌려주지 않을 때 보증기관이 대신 지급하는 상품이다. 수도권은 보증금 7억 원, 그 외 지역은 5억 원 이하인 주택만 가입할 수 있다. 계약 기간의 절반이 지나기 전에 신청해야 한다.",
     "전세보증보험은 언제까지 가입해야 하나요?"),
    ("guide/확정일자", "전입신고와 확정일자",
     "임차인은 잔금을 치르는 당일 전입신고와 확정일자를 함께 받는 것이 좋다. 대항력은 전입신고 다음 날 0시부터 생기므로, 같은 날 임대인이 담보대출을 받으면 은행이 우선순위에서 앞설 수 있다.",
     "대항력은 언제부터 생기나요?"),
    ("guide/등기부등본", "등기부등본 확인",
     "계약 전 등기부등본의 갑구에서 소유자와 압류·가압류 여부를, 을구에서 근저당 설정 금액을 확인해야 한다. 근저당 금액과 전세보증금의 합이 집값의 70%를 넘으면 위험 신호로 본다.",
     "등기부등본 을구에서는 무엇을 확인하나요?"),
    ("guide/계약갱신", "계약갱신요구권",
     "임차인은 계약 만료 6개월 전부터 2개월 전까지 한 번 계약갱신을 요구할 수 있으며, 갱신 시 임대료 인상률은 5%를 넘을 수 없다. 임대인이 실거주하려는 경우에는 갱신을 거절할 수 있다.",
     "계약 갱신 시 임대료는 최대 몇 퍼센트까지 올릴 수 있나요?"),
    ("guide/중개수수료", "중개보수",
     "주택 임대차의 중개보수 상한은 보증금 1억 원 이상 6억 원 미만일 때 0.3%, 6억 원 이상 12억 원 미만일 때 0.4%이다. 중개보수는 계약이 성립된 때 지급하며, 상한을 넘는 금액은 요구할 수 없다.",
     "보증금 3억 원 전세의 중개보수 상한은 몇 퍼센트인가요?"),
    ("guide/임차권등기", "임차권등기명령",
     "계약이 끝났는데도 보증금을 돌려받지 못한 채 이사해야 한다면 임차권등기명령을 신청해야 대항력과 우선변제권을 유지할 수 있다. 등기가 완료된 것을 확인한 뒤에 전출해야 한다.",
     "보증금을 못 받고 이사할 때 무엇을 신청해야 하나요?"),
])  # fmt: skip

EL_SUMMARIES = _pool("el", [
    ("summary/ferry", "ferry", "Ο χρήστης σχεδιάζει ταξίδι στη Νάξο τον Ιούλιο με τα δύο παιδιά του. Ρώτησε για πλοία από τον Πειραιά και το AI ανέφερε ότι τα ταχύπλοα κάνουν περίπου τέσσερις ώρες. Ο χρήστης προτιμά συμβατικό πλοίο λόγω ναυτίας του μικρού του γιου.",
     "Ποια μέρα της εβδομάδας έχει λιγότερο κόσμο στο λιμάνι;"),
    ("summary/tax", "tax", "Ο χρήστης είναι ελεύθερος επαγγελματίας γραφίστας στη Θεσσαλονίκη και ρώτησε για την προθεσμία της φορολογικής δήλωσης. Το AI εξήγησε ότι η πλατφόρμα ανοίγει συνήθως τον Μάρτιο. Ο χρήστης ανέφερε ότι φέτος άλλαξε λογιστή.",
     "Τι έγγραφα να ζητήσω από τον καινούργιο λογιστή;"),
    ("summary/recipe", "recipe", "Ο χρήστης ετοιμάζει τραπέζι για το Πάσχα για δώδεκα άτομα. Συζήτησαν για αρνί στον φούρνο και το AI πρότεινε ψήσιμο στους 160 βαθμούς για τέσσερις ώρες. Ένας καλεσμένος είναι χορτοφάγος.",
     "Τι κυρίως πιάτο να φτιάξω για τον χορτοφάγο καλεσμένο;"),
    ("summary/running", "running", "Ο χρήστης ξεκίνησε τρέξιμο πριν από δύο μήνες και τρέχει τρεις φορές την εβδομάδα πέντε χιλιόμετρα. Θέλει να τρέξει τον Αυθεντικό Μαραθώνιο της Αθήνας τον Νοέμβριο. Το AI πρότεινε σταδιακή αύξηση της απόστασης κατά δέκα τοις εκατό την εβδομάδα.",
     "Πόσα χιλιόμετρα να τρέξω την επόμενη Κυριακή;"),
    ("summary/laptop", "laptop", "Ο χρήστης ψάχνει φορητό υπολογιστή για φοιτητή πληροφορικής με προϋπολογισμό έως 900 ευρώ. Το AI σύγκρινε δύο μοντέλα με 16 GB μνήμη. Ο χρήστης θέλει καλή μπαταρία γιατί δουλεύει σε βιβλιοθήκες.",
     "Αξίζει να πάρω μοντέλο με οθόνη OLED;"),
    ("summary/plants", "plants", "Ο χρήστης έχει μπαλκόνι με νότιο προσανατολισμό στην Αθήνα και θέλει φυτά που αντέχουν τη ζέστη. Το AI πρότεινε λεβάντα, δεντρολίβανο και μπουκαμβίλια. Ο χρήστης ποτίζει μόνο το Σαββατοκύριακο.",
     "Η μπουκαμβίλια θέλει λίπασμα το καλοκαίρι;"),
])  # fmt: skip

UK_POSHTA = _pool("uk", [
    ("kb/zberigannia", "Зберігання посилок",
     "Посилка безкоштовно зберігається у відділенні 7 днів, у поштоматі — 3 дні. Після цього нараховується плата за зберігання: 20 грн за кожну добу у відділенні. Через 14 днів посилка повертається відправнику.",
     "Скільки днів посилка безкоштовно зберігається в поштоматі?"),
    ("kb/nakladenyi-platizh", "Післяплата",
     "Комісія за післяплату становить 20 грн плюс 2% від суми. Гроші надходять відправнику на картку протягом кількох хвилин після отримання посилки. Отримувач може оглянути вміст до оплати.",
     "Яка комісія за післяплату?"),
    ("kb/gabaryty", "Габарити для поштомату",
     "У поштомат приймаються відправлення вагою до 20 кг і розміром до 40 × 30 × 60 см. Великогабаритні вантажі відправляються лише через вантажні відділення.",
     "Яка максимальна вага посилки для поштомату?"),
    ("kb/mizhnarodna", "Міжнародна доставка",
     "Доставка до країн ЄС триває від 5 до 10 робочих днів. Для відправлень вартістю понад 150 євро отримувач сплачує митні платежі. До відправлення додається митна декларація, яку можна заповнити в застосунку.",
     "Скільки триває доставка до країн ЄС?"),
    ("kb/povernennia", "Повернення",
     "Безкоштовне повернення протягом 14 днів доступне для інтернет-магазинів, підключених до сервісу «Легке повернення». В інших випадках повернення оплачує відправник за тарифами звичайної доставки.",
     "Хто оплачує повернення, якщо магазин не підключений до сервісу?"),
    ("kb/strakhuvannia", "Оголошена вартість",
     "Кожне відправлення застраховане на оголошену вартість: до 500 грн — безкоштовно, понад 500 грн — 0,5% від суми. У разі втрати компенсується оголошена вартість і вартість доставки.",
     "Скільки коштує страхування посилки вартістю 2000 грн?"),
    ("kb/adresna", "Адресна доставка",
     "Кур'єрська доставка за адресою коштує від 35 грн додатково до тарифу. Кур'єр чекає отримувача не більше 10 хвилин; якщо отримувача немає, посилку повертають у відділення.",
     "Скільки часу кур'єр чекає на отримувача?"),
    ("kb/dokumenty", "Отримання за документом",
     "Отримати посилку можна за кодом із застосунку або за паспортом. Отримати посилку за іншу людину можна лише за довіреністю або якщо відправник вказав вас як довірену особу.",
     "Чи можна отримати посилку за іншу людину?"),
])  # fmt: skip


# --- templates ---------------------------------------------------------------------------------------------


def mem0_memories_he(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Mem0's chat example (from memory of its README): the memories search returns for the message,
    '- memory' lines after 'User Memories:' at the end of the system prompt, the user's message as the user
    turn. Memories are one-line facts the store wrote, in Hebrew; one to eight per request."""
    memories = "\n".join(f"- {d.text}" for d in docs)
    return [
        _msg(
            "system",
            f"You are a helpful AI. Answer the question based on query and memories.\nUser Memories:\n{memories}",
        ),
        _msg("user", question),
    ]


OBSIDIAN_SYSTEM = "You are Obsidian Copilot, a helpful assistant that integrates AI to Obsidian note-taking. Always answer in the language of the question."


def _obsidian(docs: list[Doc], question: str, rng: random.Random, v2: bool) -> Messages:
    """Obsidian Copilot's vault QA (from memory, wording may drift), redeployed half-way by a plugin update:
    first each retrieved note chunk as 'NOTE TITLE: [[title]]', 'METADATA:' with a JSON object (path,
    modified time) and 'NOTE BLOCK CONTENT:' blocks joined by blank lines after 'Answer the question … based
    only on the following context:'; then '<retrieved_document>' blocks with <title>, <path>, <modified>
    and <content> tags after '# Context'. A German personal vault (markdown, tasks, tables, wiki links)."""
    keep(docs, question, rng.randint(1, 5))
    stamps = [
        f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}T{rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}"
        for _ in docs
    ]
    if v2:
        blocks = "\n\n".join(
            f"<retrieved_document>\n<title>{d.title}</title>\n<path>{d.source}</path>\n<modified>{m}</modified>\n<content>\n{d.text}\n</content>\n</retrieved_document>"
            for d, m in zip(docs, stamps, strict=True)
        )
        context = f"# Context\n\n{blocks}\n\nAnswer the user's question using only the context above. Cite notes as [[title]]."
    else:
        blocks = "\n\n".join(
            f"NOTE TITLE: [[{d.title}]]\n\nMETADATA:{json.dumps({'path': d.source, 'mtime': m}, ensure_ascii=False)}\n\nNOTE BLOCK CONTENT:\n\n{d.text}"
            for d, m in zip(docs, stamps, strict=True)
        )
        context = (
            f"Answer the question with as detailed as possible based only on the following context:\n{blocks}"
        )
    return [_msg("system", f"{OBSIDIAN_SYSTEM}\n\n{context}"), _msg("user", question)]


obsidian_copilot_de = halves(_obsidian)

JA_HISTORY = [
    ("このリポジトリは何のアプリ？", "飲食店向けの予約管理アプリで、Next.js と PostgreSQL で動いています。")
]


def continue_codebase_ja(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Continue's chat with @codebase (from memory of how it renders context items): the retrieved snippets
    as fences whose info string is 'path (start-end)' joined by blank lines, then the user's typed text with
    the '@codebase' mention, in one user turn; earlier turns before. A Japanese restaurant-booking
    Next.js repository."""
    keep(docs, question, rng.randint(1, 5))
    items = []
    for d in docs:
        end = d.text.count("\n") + 1
        items.append(f"```{d.source} (1-{end})\n{d.text}\n```")
    user = "\n\n".join(items) + f"\n\n@codebase {question}"
    history = [m for u, a in JA_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))]
    system = "Always include the language and file name in the info string when you write code blocks."
    return [_msg("system", system), *history, _msg("user", user)]


LEARN_SYSTEM = "Você é um assistente de nuvem. Use a ferramenta microsoft_docs_search para consultar a documentação oficial antes de responder e cite os links."


def ms_learn_mcp_pt(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """The Microsoft Learn MCP server's microsoft_docs_search in an agent (from memory): the tool result a
    JSON array of {title, content, contentUrl}, indented, non-ASCII kept. Brazilian Portuguese Azure docs."""
    keep(docs, question, rng.randint(1, 5))
    results = [{"title": d.title, "content": d.text, "contentUrl": d.source} for d in docs]
    call = _tool_call("microsoft_docs_search", {"query": question}, rng)
    tool = _msg(
        "tool", json.dumps(results, ensure_ascii=False, indent=2), tool_call_id=call["tool_calls"][0]["id"]
    )
    return [_msg("system", LEARN_SYSTEM), _msg("user", question), call, tool]


def weaviate_grouped_es(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Weaviate's generative search with a grouped task (from memory of the generative-openai module): the
    task the app wrote around the user's question, ': ' and the returned objects' properties as one JSON
    array, one user message. A Spanish recipe site; properties titulo and contenido, JSON-escaped."""
    props = [{"titulo": d.title, "contenido": d.text} for d in docs]
    task = f"Responde a la pregunta del usuario usando solo estas recetas. Pregunta: {question}"
    return [_msg("user", f"{task}: {json.dumps(props, ensure_ascii=False)}")]


PHOENIX_RELEVANCY = """You are comparing a reference text to a question and trying to determine if the reference text contains information relevant to answering the question. Here is the data:
    [BEGIN DATA]
    ************
    [Question]: {input}
    ************
    [Reference text]: {reference}
    ************
    [END DATA]
Compare the Question above to the Reference text. You must determine whether the Reference text
contains information that can answer the Question. Please focus on whether the very specific
question can be answered by the information in the Reference text.
Your response must be single word, either "relevant" or "unrelated",
and should not contain any text or characters aside from that word.
"unrelated" means that the reference text does not contain an answer to the Question.
"relevant" means the reference text contains an answer to the Question."""
PHOENIX_QA = """You are given a question, an answer and reference text. You must determine whether the
given answer correctly answers the question based on the reference text. Here is the data:
    [BEGIN DATA]
    ************
    [Question]: {input}
    ************
    [Reference]: {reference}
    ************
    [Answer]: {output}
    [END DATA]
Your response must be a single word, either "correct" or "incorrect",
and should not contain any other text or characters.
"correct" means that the question is correctly and fully answered by the answer.
"incorrect" means that the question is not correctly or only partially answered by the
answer."""


def phoenix_evals_router_it(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Arize Phoenix evals run over an Italian bank's FAQ bot traces (from memory of its RAG relevancy and
    Q&A correctness templates): a relevancy call per retrieved document, or a correctness call with the
    documents joined by blank lines as the reference and the bot's recorded answer under test."""
    target = next(d for d in docs if d.question == question)
    if rng.random() < 0.5:
        keep(docs, question, 1)
        return [
            _msg("user", PHOENIX_RELEVANCY.replace("{input}", question).replace("{reference}", docs[0].text))
        ]
    keep(docs, question, rng.randint(2, 4))
    output = first_sentence(target)
    return [
        _msg(
            "user",
            PHOENIX_QA.replace("{input}", question)
            .replace("{reference}", "\n\n".join(d.text for d in docs))
            .replace("{output}", output),
        )
    ]


def ra_dit_ru(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """RA-DIT's retrieval-augmented prompt (from memory of the paper): each retrieved chunk is prepended to
    the instruction in a call of its own, 'Background: <chunk>\\n\\n' then the task, the answers later
    ensembled over chunks; one passage per call. Russian encyclopedia passages."""
    keep(docs, question, 1)
    return [_msg("user", f"Background: {docs[0].text}\n\nQuestion: {question}\nAnswer:")]


SEARCH_R1 = "Answer the given question. You must conduct reasoning inside <think> and </think> first every time you get new information. After reasoning, if you find you lack some knowledge, you can call a search engine by <search> query </search> and it will return the top searched results between <information> and </information>. You can search as many times as your want. If you find no further external knowledge needed, you can directly provide the answer inside <answer> and </answer>, without detailed illustrations. For example, <answer> Beijing </answer>. Question: {question}\n"


def search_r1(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Search-R1's rollout served through a chat API (from memory of its inference script): the instruction
    and question as the user turn; the assistant turn is the model's trajectory so far, sent back as a
    prefill: '<think>…</think>', '<search> query </search>', then '<information>Doc i(Title: "t") text\\n…
    </information>' appended by the search step; a second round when more than three documents came back.
    Polish history on English Wikipedia, multi-hop questions."""
    keep(docs, question, rng.randint(1, 6))
    rounds = [docs[:3], docs[3:]] if len(docs) > 3 else [docs]
    trajectory = "<think> I need to find the relevant facts first. </think>\n"
    for i, group in enumerate(rounds):
        query = question.rstrip("?") if i == 0 else group[0].title
        info = "".join(f'Doc {j}(Title: "{d.title}") {d.text}\n' for j, d in enumerate(group, 1))
        trajectory += f"<search> {query} </search>\n\n<information>{info}</information>\n\n"
        if i == 0 and len(rounds) > 1:
            trajectory += "<think> I still need more information about a related entity. </think>\n"
    return [_msg("user", SEARCH_R1.replace("{question}", question)), _msg("assistant", trajectory)]


def neo4j_graphrag_pl(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """neo4j-graphrag's GraphRAG with a VectorRetriever and no result formatter (from memory): each item's
    content is str() of the neo4j Record, '<Record node={…properties…} score=…>' (the text a Python repr),
    items joined by line breaks under 'Context:', then 'Examples:' (empty), 'Question:' and 'Answer:'; the
    system instruction of RagTemplate. A Polish town hall's public information bulletin."""
    keep(docs, question, rng.randint(1, 5))
    records = []
    for i, d in enumerate(docs):
        node = {"id": f"{d.source}#{i}", "text": d.text}
        records.append(f"<Record node={node!r} score={rng.uniform(0.78, 0.95):.4f}>")
    user = f"Context:\n{chr(10).join(records)}\n\nExamples:\n\n\nQuestion:\n{question}\n\nAnswer:\n"
    return [_msg("system", "Answer the user question using the provided context."), _msg("user", user)]


CREW_SYSTEM = """You are रेलवे सहायता विशेषज्ञ. तुम वर्षों से यात्रियों के टिकट, रिफंड और नियमों से जुड़े सवाल हल करते आए हो।
Your personal goal is: यात्रियों के सवालों के सटीक जवाब देना
To give my best complete final answer to the task respond using the exact following format:

Thought: I now can give a great answer
Final Answer: Your final answer must be the great and the most complete as possible, it must be outcome described.

I MUST use these formats, my job depends on it!"""


def crewai_knowledge_hi(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A CrewAI agent with knowledge sources (from memory of its prompts): role, backstory and goal in the
    system message; the task prompt holds the passenger's question, the expected output and, appended,
    'Additional Information: ' with the knowledge snippets joined by line breaks, then 'Begin!'. Indian
    railway rules in Hindi."""
    keep(docs, question, rng.randint(1, 4))
    knowledge = "\n".join(d.text for d in docs)
    user = (
        f"\nCurrent Task: यात्री का सवाल: {question}\n\nThis is the expected criteria for your final answer: "
        "हिंदी में छोटा और सटीक जवाब\nyou MUST return the actual complete content as the final answer, not a summary."
        f"Additional Information: {knowledge}\n\nBegin! This is VERY important to you, use the tools available and "
        "give your best Final Answer, your job depends on it!\n\nThought:"
    )
    return [_msg("system", CREW_SYSTEM), _msg("user", user)]


VI_SYSTEM = "Bạn là trợ lý chăm sóc khách hàng của ví điện tử. Hãy dùng công cụ tra_cuu_dieu_khoan để tìm điều khoản trước khi trả lời."
VI_HISTORY = [
    ("Chào bạn, mình mới mở ví tuần trước.", "Chào bạn! Mình có thể giúp gì cho bạn về ví điện tử?")
]


def retriever_tool_parallel_vi(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A LangChain tool-calling agent with create_retriever_tool (from memory): the model calls the retriever
    twice in one assistant turn with two rephrasings; each tool message is that search's documents joined by
    blank lines (the tool's default document separator). A Vietnamese e-wallet's terms; history."""
    keep(docs, question, rng.randint(2, 6))
    half = (len(docs) + 1) // 2
    groups = [docs[:half], docs[half:]]
    calls = []
    for query in (question, question.split(" ", 2)[-1]):
        calls.append({"id": f"call_{rng.randrange(16**12):012x}", "type": "function",
                      "function": {"name": "tra_cuu_dieu_khoan", "arguments": json.dumps({"query": query}, ensure_ascii=False)}})  # fmt: skip
    turn = {"role": "assistant", "content": None, "tool_calls": calls}
    tools = [
        _msg("tool", "\n\n".join(d.text for d in group), tool_call_id=call["id"])
        for call, group in zip(calls, groups, strict=True)
    ]
    history = [m for u, a in VI_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))]
    return [_msg("system", VI_SYSTEM), *history, _msg("user", question), turn, *tools]


STORM_ANSWER = """You are an expert who can use information effectively. You are chatting with a Wikipedia writer who wants to write a Wikipedia page on topic you know. You have gathered the related information and will now use the information to form a response.
Make your response as informative as possible, ensuring that every sentence is supported by the gathered information. If the [gathered information] is not directly related to the [topic] or [question], provide the most relevant answer based on the available information. If no appropriate answer can be formulated, respond with, "I cannot answer this question based on the available information," and explain any limitations or gaps.

---

Follow the following format.

Topic you are discussing about: ${topic}

Question you want to answer: ${question}

Gathered information: ${info}

Now give your response. (Try to use as many different sources as possible and add do not hallucinate.): ${answer}

---

Topic you are discussing about: Svalbard Global Seed Vault

Question you want to answer: {question}

Gathered information: {info}

Now give your response. (Try to use as many different sources as possible and add do not hallucinate.):"""


def storm_answer_question(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """STORM's AnswerQuestion module (from memory of its DSPy signature): the format block with its
    '${…}' placeholders, then the topic, the writer's question and the snippets as '[i]: snippet' lines
    under 'Gathered information:'; one user message. Search snippets on the Svalbard Global Seed Vault,
    which repeat the vault's name."""
    info = "\n".join(f"[{i}]: {d.text}" for i, d in enumerate(docs, 1))
    return [_msg("user", STORM_ANSWER.replace("{question}", question).replace("{info}", info))]


SV_SYSTEM = "Du är en hjälpsam assistent som svarar på frågor om svenska myndigheters regler. Hämta sidan med fetch-verktyget och svara kort på svenska."


def mcp_fetch_sv(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """The MCP fetch server in a chat client (from memory of its output): each fetch call's result
    'Contents of <url>:' and the page converted to markdown; one page per call, sometimes a second fetch
    after the first. Swedish public agencies' pages."""
    keep(docs, question, rng.randint(1, 2))
    messages = [_msg("system", SV_SYSTEM), _msg("user", question)]
    for d in docs:
        call = _tool_call("fetch", {"url": d.source, "max_length": 5000}, rng)
        messages += [
            call,
            _msg("tool", f"Contents of {d.source}:\n{d.text}", tool_call_id=call["tool_calls"][0]["id"]),
        ]
    return messages


KO_SYSTEM = (
    "당신은 주택 임대차 상담 에이전트입니다. vectorQueryTool로 가이드를 검색한 뒤 근거를 들어 답하세요."
)


def mastra_vector_query_ko(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Mastra agent with createVectorQueryTool (from memory): the tool result JSON
    {relevantContext: [chunk texts], sources: [{id, score, metadata: {text, source}}]}, so every chunk's
    text stands twice; one document each, in relevantContext's order. A Korean rental-housing guide."""
    keep(docs, question, rng.randint(1, 5))
    result = {
        "relevantContext": [d.text for d in docs],
        "sources": [{"id": f"{d.source}-{rng.randrange(1000)}", "score": round(rng.uniform(0.7, 0.93), 4),
                     "metadata": {"text": d.text, "source": d.source}} for d in docs],
    }  # fmt: skip
    call = _tool_call("vectorQueryTool", {"queryText": question, "topK": 5}, rng)
    tool = _msg("tool", json.dumps(result, ensure_ascii=False), tool_call_id=call["tool_calls"][0]["id"])
    return [_msg("system", KO_SYSTEM), _msg("user", question), call, tool]


CONVERSATION_CHAIN = """The following is a friendly conversation between a human and an AI. The AI is talkative and provides lots of specific details from its context. If the AI does not know the answer to a question, it truthfully says it does not know.

Current conversation:
{history}
Human: {input}
AI:"""


def summary_memory_el(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's ConversationChain with ConversationSummaryMemory (from memory of its default prompt): the
    running summary of the conversation so far in 'Current conversation:', then 'Human:' and 'AI:'. The
    summary is the chain's own memory, rewritten every turn, not retrieved text: the request holds no
    documents, and the truthful reading is 'no context'. A Greek personal assistant."""
    target = next(d for d in docs if d.question == question)
    docs[:] = []
    return [_msg("user", CONVERSATION_CHAIN.replace("{history}", target.text).replace("{input}", question))]


XML_AGENT = """You are a helpful assistant. Help the user answer any questions.

You have access to the following tools:

poshta_kb: Шукає відповіді в базі знань служби доставки. Повертає релевантні фрагменти.

In order to use a tool, you can use <tool></tool> and <tool_input></tool_input> tags. You will then get back a response in the form <observation></observation>
For example, if you have a tool called 'search' that could run a google search, in order to search for the weather in SF you would respond:

<tool>search</tool><tool_input>weather in SF</tool_input>
<observation>64 degrees</observation>

When you are done, respond with a final answer between <final_answer></final_answer>. For example:

<final_answer>The weather in SF is 64 degrees</final_answer>

Begin!

Previous Conversation:
{chat_history}

Question: {input}
{agent_scratchpad}"""
UK_HISTORY = [("Привіт! Я відправляю посилку вперше.", "Вітаю! Підкажу все про відправлення та отримання.")]


def xml_agent_uk(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's XML agent with the hub prompt hwchase17/xml-agent-convo (from memory): one completion-style
    user message, the tool description, the instructions with their own example observation, the previous
    conversation as 'Human:' / 'AI:' lines, the question, and the scratchpad with the retriever's output
    (documents joined by blank lines) inside '<observation>'. A Ukrainian delivery service's knowledge base."""
    keep(docs, question, rng.randint(1, 5))
    history = "\n".join(f"Human: {u}\nAI: {a}" for u, a in UK_HISTORY[: rng.randint(0, 1)])
    observation = "\n\n".join(d.text for d in docs)
    scratch = (
        f"<tool>poshta_kb</tool><tool_input>{question}</tool_input><observation>{observation}</observation>"
    )
    return [
        _msg(
            "user",
            XML_AGENT.replace("{chat_history}", history)
            .replace("{input}", question)
            .replace("{agent_scratchpad}", scratch),
        )
    ]


# --- answers -----------------------------------------------------------------------------------------------


def phoenix_label(target: Doc, rng: random.Random) -> tuple[str, bool]:
    return rng.choice(["relevant", "correct", "relevant", "incorrect"]), False


def search_r1_answer(target: Doc, rng: random.Random) -> tuple[str, bool]:
    planted = rng.random() < 0.4
    claim = " It was also the largest shipyard in Europe until 2010." if planted else ""
    return (
        f"<think> The documents say: {first_sentence(target)}{claim} </think>\n<answer> {target.title} </answer>",
        planted,
    )


def chat_reply_el(target: Doc, rng: random.Random) -> tuple[str, bool]:
    return "Καλή ερώτηση! Με βάση όσα μου είπες, θα πρότεινα να το δούμε βήμα βήμα.", False


FABRICATED = {
    "he": " בנוסף, הוא אלרגי לגלוטן.", "de": " Außerdem wurde das im Jahr 2019 geändert.", "ja": "なお、この設定は毎週月曜日にリセットされます。",
    "pt": " Além disso, esse recurso é gratuito nos primeiros 12 meses.", "es": " Además, se puede congelar hasta seis meses.",
    "it": " Inoltre, il servizio è gratuito per i clienti over 65.", "ru": " Кроме того, это место посещают около миллиона туристов в год.",
    "en": " It was later moved to a larger site in 2021.", "pl": " Dodatkowo seniorzy powyżej 70 lat są zwolnieni z opłaty.",
    "hi": " इसके अलावा, छात्रों को 50 प्रतिशत छूट मिलती है।", "vi": " Ngoài ra, người dùng mới được miễn phí trọn đời.",
    "sv": " Dessutom är tjänsten avgiftsfri för studenter.", "ko": " 또한 2027년부터는 이 제도가 폐지될 예정이다.", "uk": " Крім того, для пенсіонерів послуга безкоштовна.",
    "el": "",
}  # fmt: skip
PREAMBLE = {
    "he": "לפי מה שאני זוכר עליך, ", "de": "Laut deinen Notizen: ", "ja": "コードを見ると、", "pt": "De acordo com a documentação, ",
    "es": "Según las recetas, ", "it": "", "ru": "", "en": "According to the gathered information, ", "pl": "Zgodnie z informacjami urzędu: ",
    "hi": "Thought: I now can give a great answer\nFinal Answer: ", "vi": "Theo điều khoản, ", "sv": "Enligt myndighetens sida: ",
    "ko": "가이드에 따르면, ", "uk": "Згідно з базою знань, ", "el": "",
}  # fmt: skip
STYLES: dict[str, Answer] = {"faq/": phoenix_label, "r1/": search_r1_answer, "summary/": chat_reply_el}

SERVICES = [
    ("zikaron-mem0-memories-he", "Mem0 README chat example with memory search (from memory)", "Hebrew user memories: system prompt ending 'User Memories:' + '- memory' lines, the question as the user turn (1-8 documents)", HE_MEMORIES, mem0_memories_he),
    ("notizen-obsidian-copilot-de", "Obsidian Copilot vault QA, context format changed by a plugin update half-way (from memory)", "German personal vault: system prompt; first 'NOTE TITLE: [[t]]' / 'METADATA:{json}' / 'NOTE BLOCK CONTENT:' blocks, then '<retrieved_document>' XML blocks after '# Context'; the question (1-5 documents)", DE_NOTES, obsidian_copilot_de),
    ("yoyaku-continue-codebase-ja", "Continue chat with @codebase context items (from memory)", "Japanese Next.js repository: system, 0-1 history exchange, user turn with fences '```path (1-N)' joined by blank lines then '@codebase question' (1-5 documents)", JA_CODE, continue_codebase_ja),
    ("nuvem-mslearn-mcp-pt", "Microsoft Learn MCP server microsoft_docs_search (from memory)", "Portuguese Azure docs: system, question, tool call, tool message a JSON array of {title, content, contentUrl} (1-5 documents)", PT_LEARN, ms_learn_mcp_pt),
    ("cocina-weaviate-grouped-es", "Weaviate generative search grouped task (from memory)", "Spanish recipes: one user message, the task with the question, ': ' and a JSON array of {titulo, contenido} (1-8 documents)", ES_RECETAS, weaviate_grouped_es),
    ("banca-phoenix-evals-router-it", "Arize Phoenix RAG relevancy and Q&A correctness eval templates, routed per call (from memory)", "Italian bank FAQ: relevancy calls '[Question]' / '[Reference text]' with one document, or correctness calls with the documents joined by blank lines as '[Reference]' and an '[Answer]' under test (1 or 2-4 documents)", IT_BANCA, phoenix_evals_router_it),
    ("znanie-ra-dit-ru", "RA-DIT retrieval-augmented instruction prompt (from memory)", "Russian encyclopedia: one user message 'Background: <passage>\\n\\nQuestion: …\\nAnswer:', one passage per call", RU_WIKI, ra_dit_ru),
    ("trivia-search-r1", "Search-R1 inference prompt with the trajectory sent back as an assistant prefill (from memory)", "English Wikipedia: user instruction + question; assistant prefill with <think>, <search> and '<information>Doc i(Title: \"t\") text' lines, one or two rounds (1-6 documents)", EN_WIKI, search_r1),
    ("gmina-neo4j-graphrag-pl", "neo4j-graphrag GraphRAG RagTemplate with a VectorRetriever's default items (from memory)", "Polish town hall bulletin: system instruction, user 'Context:' with one '<Record node={...} score=…>' line per item (text as a Python repr), 'Examples:', 'Question:', 'Answer:' (1-5 documents)", PL_URZAD, neo4j_graphrag_pl),
    ("rail-crewai-knowledge-hi", "CrewAI agent with knowledge sources (from memory)", "Hindi railway rules: system with role/backstory/goal/format, user task prompt with the question, expected output, 'Additional Information: ' + snippets joined by line breaks, 'Begin!' (1-4 documents)", HI_RAIL, crewai_knowledge_hi),
    ("vidien-retriever-tool-vi", "LangChain create_retriever_tool in a tool-calling agent, two parallel calls (from memory)", "Vietnamese e-wallet terms: system, 0-1 history exchange, question, one assistant turn with two retriever calls, two tool messages each with documents joined by blank lines (2-6 documents)", VI_VIDIEN, retriever_tool_parallel_vi),
    ("wiki-storm-answer-question", "STORM AnswerQuestion DSPy prompt (from memory)", "English web snippets on one topic: one user message, instructions, format block with ${…} placeholders, 'Gathered information:' '[i]: snippet' lines (1-8 documents)", EN_SEEDVAULT, storm_answer_question),
    ("myndighet-mcp-fetch-sv", "MCP fetch server tool results in a chat client (from memory)", "Swedish agency pages: system, question, per page a fetch call and a tool message 'Contents of <url>:\\n' + markdown (1-2 documents, one per call)", SV_MYNDIGHET, mcp_fetch_sv),
    ("jeonse-mastra-vector-query-ko", "Mastra createVectorQueryTool result in an agent (from memory)", "Korean rental-housing guide: system, question, tool call, tool message JSON {relevantContext: [...], sources: [{id, score, metadata: {text, source}}]} (1-5 documents, each text twice)", KO_LEASE, mastra_vector_query_ko),
    ("voithos-summary-memory-el", "LangChain ConversationChain with ConversationSummaryMemory (from memory)", "Greek assistant: one user message, the default conversation prompt with a running summary in 'Current conversation:', 'Human:', 'AI:'; no documents: the truthful reading is 'no context'", EL_SUMMARIES, summary_memory_el),
    ("poshta-xml-agent-uk", "LangChain XML agent, hub prompt hwchase17/xml-agent-convo (from memory)", "Ukrainian delivery knowledge base: one user message, tools, instructions with an example observation, previous conversation, question, scratchpad '<tool>…<observation>docs joined by blank lines</observation>' (1-5 documents)", UK_POSHTA, xml_agent_uk),
]  # fmt: skip


def build() -> None:
    write_long_wave(
        "wave_x", HERE, SERVICES, seed=24100, answer=answers(PREAMBLE, FABRICATED, STYLES), as_sent=as_sent
    )


if __name__ == "__main__":
    build()
