# ruff: noqa: E501, W291
"""Blind wave V (the lead's private holdout at stop 56, committed at stop 57 as a development wave):
sixteen services after research prompts, evaluation prompts, agent tools and products that no earlier wave
holds, written by a helper who had not read the reader, with 1-8 documents per request. Every
template was written from memory of the public source (not copied, so wording may drift from the original):

- Chain-of-Note's reading-notes prompt (Spanish Wikipedia): 'Wikipedia Passage i: text' lines after the
  question, top five (the task text says five whatever the count);
- LangChain's stepback-qa-prompting template (Turkish web): two contexts on consecutive lines, each a
  DuckDuckGo run() output (snippets joined by single spaces);
- the OpenAI cookbook's search-API-and-re-ranking answer prompt (Italian news): TOP_RESULTS a Python-printed
  list of {title, description, url} dicts;
- the MCP Brave Search server (Indonesian web): 'Title/Description/URL' blocks with <strong> highlights;
- LangChain's DuckDuckGoSearchResults (Swedish web): '[snippet: …, title: …, link: …]' joined by ', ';
- Patronus AI's Lynx judge (English medicine leaflets): QUESTION, DOCUMENT (chunks joined by blank lines),
  the ANSWER under test, JSON verdict;
- RAGAS context precision (French HR policies), one context per call, ragas 0.1 then 0.2 after an upgrade;
- Gorilla's retriever-aware prompt: the request, 'Use this API documentation for reference: ' + API JSON;
- LangChain's PubmedQueryRun: 'Published/Title/Copyright Information/Summary::' blocks, structured abstracts;
- a LangChain ContextualCompressionRetriever pipeline (Ukrainian public services) routing two call kinds:
  LLMChainExtractor (one document between '>>>' lines) and the stuff chain's chat prompt;
- Codex CLI's AGENTS.md instructions (Portuguese monorepo): the user's file, '--- project-doc ---', the
  project's files root to cwd, in '<user_instructions>', then '<environment_context>';
- aws-samples Bedrock Claude Chat (Japanese company rules): '<search_result><content>…</content><source>n
  </source></search_result>' in the system prompt, history;
- Semantic Kernel's Bing WebSearchEnginePlugin (Hungarian web): the function result a JSON array of snippets;
- TruLens context relevance (Arabic government services): 'QUESTION: … CONTEXT: … RELEVANCE: ', one chunk;
- LangChain's map_rerank prompt (Persian university rules): three worked examples with their own contexts,
  then the one document between '---------' rules;
- Self-RAG's inference format: '[Retrieval]<paragraph>title\\ntext</paragraph>', one passage per call.

Ground truth: every document is the text the retriever (or search engine, or file reader) returned, as it
stands in the prompt, never a title, URL, date, label, rule or source id the template adds around it; where the
template escapes it (JSON, RAGAS' quoted values, the JSON array) the document is the unescaped text. Few-shot
examples' contexts (RAGAS, map_rerank) are demonstrations, not documents; Lynx's ANSWER is the answer under
test, not a document; Gorilla's document is the whole API entry as JSON. Codex sends the AGENTS.md files on
the path from the repository root to the working directory, so the documents are that chain (and the user's
file when they have one), not what a search drew.

First run with main's readers (``bench_templates.py --blind <dir>/wave_v``, each request under openinference
and openai-v2-latest, 48 readings a service): learnt+rules 116/768 right (15.1%), 140 wrong context, 512
unscored (readings_disagree 228, no_context 96, context_not_separable 94, unparseable 82, no_question 12);
learnt-only 116 / 92 / 560; rules-only 114 / 220 / 434. Learnt+rules right / wrong / unscored: kereso-sk-bing-hu,
minato-bedrock-chat-ja 48/0/0; tsnap-compression-router-uk 16/0/32; rehber-step-back-tr 4/0/44;
enciclopedia-chain-of-note-es, khadamat-trulens-relevance-ar 0/48/0; resa-duckduckgo-results-sv 0/44/4; every
other service 0/0/48 (apihub-gorilla, trivia-self-rag no_context; pharma-lynx-judge unparseable;
rh-ragas-precision-fr unparseable 34, context_not_separable 14; daneshgah-map-rerank-fa context_not_separable;
cari-brave-mcp-id, clinic-pubmed-tool, notizie-cookbook-rerank-it, feira-codex-agents-md-pt readings_disagree).

    python tests/assembly_templates/blind/make_wave_v.py   # writes wave_v/*.json (deterministic)
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from make_wave_q import _msg
from make_wave_s import halves
from make_wave_u import Answer, Doc, _pool, _tool_call, answers, as_sent, first_sentence, keep
from wave_writer import write_long_wave

HERE = Path(__file__).resolve().parent / "wave_v"

Messages = list[dict[str, Any]]


def target_of(docs: list[Doc], question: str) -> Doc:
    return next(d for d in docs if d.question == question)


# --- pools -------------------------------------------------------------------------------------------------

ES_WIKI = _pool("es", [
    ("es/Alhambra", "Alhambra",
     "La Alhambra es un complejo monumental sobre una colina que domina la ciudad de Granada, en Andalucía. Fue construida principalmente por la dinastía nazarí entre los siglos XIII y XIV como ciudad palatina y fortaleza. Tras la conquista cristiana de 1492, Carlos V mandó levantar en su interior un palacio renacentista. En 1984 fue declarada Patrimonio de la Humanidad por la UNESCO y es uno de los monumentos más visitados de España, con más de dos millones de visitantes al año.",
     "¿Qué dinastía construyó principalmente la Alhambra?"),
    ("es/Sagrada_Familia", "Templo Expiatorio de la Sagrada Familia",
     "El Templo Expiatorio de la Sagrada Familia es una basílica católica de Barcelona diseñada por el arquitecto Antoni Gaudí. Las obras comenzaron en 1882 y Gaudí trabajó en ella hasta su muerte en 1926, cuando solo se había completado una pequeña parte. Fue consagrada como basílica por el papa Benedicto XVI en 2010. La torre de Jesucristo, la más alta, alcanzará 172,5 metros.",
     "¿Qué altura tendrá la torre de Jesucristo de la Sagrada Familia?"),
    ("es/Camino_de_Santiago", "Camino de Santiago",
     "El Camino de Santiago es una red de rutas de peregrinación que conducen a la tumba del apóstol Santiago el Mayor en la catedral de Santiago de Compostela, en Galicia. La ruta más transitada es el Camino Francés, que parte de Saint-Jean-Pied-de-Port y recorre unos 780 kilómetros. Para obtener la Compostela, el peregrino debe recorrer al menos los últimos 100 kilómetros a pie o 200 kilómetros en bicicleta.",
     "¿Cuántos kilómetros hay que caminar como mínimo para obtener la Compostela?"),
    ("es/Don_Quijote", "Don Quijote de la Mancha",
     "Don Quijote de la Mancha es una novela escrita por Miguel de Cervantes Saavedra. La primera parte se publicó en 1605 con el título El ingenioso hidalgo don Quijote de la Mancha, y la segunda en 1615. Es considerada una de las obras más destacadas de la literatura española y universal, y una de las más traducidas de la historia.",
     "¿En qué año se publicó la segunda parte del Quijote?"),
    ("es/Machu_Picchu", "Machu Picchu",
     "Machu Picchu es una antigua ciudadela inca ubicada a 2430 metros sobre el nivel del mar, en la provincia de Urubamba, Cusco, Perú. Se cree que fue construida a mediados del siglo XV por orden del inca Pachacútec. Fue dada a conocer internacionalmente en 1911 por el explorador estadounidense Hiram Bingham. Desde 2024, el ingreso se organiza por circuitos y horarios con aforo limitado.",
     "¿A qué altitud se encuentra Machu Picchu?"),
    ("es/Canal_de_Panamá", "Canal de Panamá",
     "El canal de Panamá es una vía de navegación interoceánica de unos 82 kilómetros que une el mar Caribe con el océano Pacífico. Fue inaugurado el 15 de agosto de 1914 y pasó a control panameño el 31 de diciembre de 1999. En 2016 se inauguró la ampliación con un tercer juego de esclusas, que permite el paso de buques neopanamax.",
     "¿Cuándo pasó el canal de Panamá a control panameño?"),
    ("es/Frida_Kahlo", "Frida Kahlo",
     "Frida Kahlo (1907-1954) fue una pintora mexicana conocida por sus autorretratos, en los que abordó el dolor físico, la identidad y la cultura popular mexicana. A los 18 años sufrió un grave accidente de autobús que le dejó secuelas de por vida. Su casa natal en Coyoacán, conocida como la Casa Azul, es hoy el Museo Frida Kahlo.",
     "¿Cómo se llama la casa natal de Frida Kahlo?"),
])  # fmt: skip

TR_SNIPPETS = _pool("tr", [
    ("tr/galata", "Galata Kulesi",
     "Galata Kulesi, İstanbul'un Beyoğlu ilçesinde bulunan ve 1348 yılında Cenevizliler tarafından inşa edilen taş bir kuledir. Kulenin yüksekliği zeminden 62,59 metredir ve 2020'deki restorasyonun ardından müze olarak hizmet vermektedir.",
     "Galata Kulesi kaç metre yüksekliğinde?"),
    ("tr/kapadokya", "Kapadokya balon turları",
     "Kapadokya'da sıcak hava balonu uçuşları hava koşullarına bağlı olarak genellikle gün doğumunda yapılır. Sivil Havacılık Genel Müdürlüğü, bölgede aynı anda uçabilecek balon sayısını günlük en fazla 150 ile sınırlamaktadır.",
     "Kapadokya'da günde en fazla kaç balon uçabilir?"),
    ("tr/efes", "Efes Antik Kenti",
     "Efes Antik Kenti, İzmir'in Selçuk ilçesi sınırlarında yer alır ve 2015 yılında UNESCO Dünya Mirası Listesi'ne alınmıştır. Kentteki Celsus Kütüphanesi, MS 117 civarında Roma senatörü Celsus adına oğlu tarafından yaptırılmıştır.",
     "Efes hangi yıl UNESCO Dünya Mirası Listesi'ne alındı?"),
    ("tr/marmaray", "Marmaray",
     "Marmaray, İstanbul Boğazı'nın altından geçen demiryolu tüneliyle Avrupa ve Asya yakalarını birleştiren banliyö hattıdır. 29 Ekim 2013'te hizmete açılan projenin Boğaz geçişi yaklaşık 1,4 kilometre uzunluğunda batırılmış tüp tünelden oluşur.",
     "Marmaray ne zaman hizmete açıldı?"),
    ("tr/ayasofya", "Ayasofya",
     "Ayasofya, 537 yılında Bizans İmparatoru I. Justinianus döneminde bazilika olarak inşa edilmiştir. 1453'te camiye dönüştürülmüş, 1934'te müze olmuş ve 2020 yılında yeniden camiye çevrilmiştir. Kubbesinin çapı yaklaşık 31 metredir.",
     "Ayasofya hangi yıl müze oldu?"),
    ("tr/pamukkale", "Pamukkale travertenleri",
     "Pamukkale travertenleri, Denizli'de kalsiyum karbonat içeren termal suların yüzyıllar boyunca çökelmesiyle oluşmuş beyaz teraslardır. Travertenleri korumak için ziyaretçilerin teraslarda ayakkabıyla yürümesine izin verilmez.",
     "Pamukkale travertenlerinde ayakkabıyla yürünebilir mi?"),
    ("tr/van-golu", "Van Gölü",
     "Van Gölü, yaklaşık 3.713 kilometrekarelik yüzölçümüyle Türkiye'nin en büyük gölüdür. Sodalı suyu nedeniyle gölde yalnızca inci kefali adı verilen balık türü yaşayabilmektedir; bu balık üremek için tatlı su akarsularına göç eder.",
     "Van Gölü'nde hangi balık yaşar?"),
    ("tr/turk-kahvesi", "Türk kahvesi",
     "Türk kahvesi kültürü ve geleneği, 2013 yılında UNESCO İnsanlığın Somut Olmayan Kültürel Mirası Temsili Listesi'ne alınmıştır. Kahve, cezvede ince öğütülmüş kahve ve soğuk suyla kısık ateşte pişirilir ve genellikle yanında bir bardak suyla sunulur.",
     "Türk kahvesi UNESCO listesine ne zaman alındı?"),
])  # fmt: skip

IT_NEWS = _pool("it", [
    ("https://www.example-notizie.it/economia/bce-tassi-dicembre", "La Bce lascia i tassi invariati al 2%",
     "Il Consiglio direttivo della Banca centrale europea ha deciso di mantenere il tasso sui depositi al 2% per la quarta riunione consecutiva. La presidente Lagarde ha spiegato che l'inflazione dell'area euro è vicina all'obiettivo e che le prossime decisioni dipenderanno dai dati.",
     "A quanto è il tasso sui depositi della Bce?"),
    ("https://www.example-notizie.it/cronaca/venezia-ticket-accesso-2026", "Venezia, il ticket d'accesso torna in primavera",
     "Il contributo d'accesso per i visitatori giornalieri di Venezia sarà richiesto in 60 giornate tra aprile e luglio 2026, dalle 8:30 alle 16. La tariffa base resta di 5 euro, che salgono a 10 euro per chi prenota meno di quattro giorni prima.",
     "Quanto costa il ticket d'accesso a Venezia se si prenota all'ultimo momento?"),
    ("https://www.example-notizie.it/sport/giro-italia-2027-partenza", "Il Giro d'Italia 2027 partirà da Napoli",
     "Gli organizzatori hanno annunciato che la 110ª edizione del Giro d'Italia partirà da Napoli sabato 8 maggio 2027 con una cronometro individuale di 9 chilometri sul lungomare. L'arrivo finale è previsto a Roma il 30 maggio.",
     "Da quale città partirà il Giro d'Italia 2027?"),
    ("https://www.example-notizie.it/tecnologia/spid-cie-accesso-inps", "Inps, dal 2026 accesso solo con Spid, Cie o Cns",
     "Dal primo gennaio 2026 non sarà più possibile accedere ai servizi online dell'Inps con il Pin rilasciato dall'istituto. I cittadini dovranno usare Spid di livello 2, la Carta d'identità elettronica o la Carta nazionale dei servizi; per i minori è prevista una procedura di delega.",
     "Con quali credenziali si accede all'Inps dal 2026?"),
    ("https://www.example-notizie.it/cultura/uffizi-orari-serali", "Uffizi aperti la sera il martedì",
     "Le Gallerie degli Uffizi di Firenze resteranno aperte fino alle 22 ogni martedì da giugno a settembre, con ultimo ingresso alle 21. Il biglietto serale costa 12 euro; l'ingresso resta gratuito per i minori di 18 anni.",
     "Fino a che ora sono aperti gli Uffizi il martedì sera?"),
    ("https://www.example-notizie.it/ambiente/etna-eruzione-aeroporto", "Etna, nube di cenere: chiuso un settore dell'aeroporto di Catania",
     "Una nuova fase eruttiva dell'Etna ha prodotto una nube di cenere alta fino a 6 chilometri. L'Ingv ha emesso il codice rosso per l'aviazione e la Sac ha chiuso il settore B dello spazio aereo di Catania fino alle 18; alcuni voli sono stati dirottati su Palermo.",
     "Dove sono stati dirottati i voli durante l'eruzione dell'Etna?"),
    ("https://www.example-notizie.it/trasporti/frecciarossa-milano-parigi", "Torna il Frecciarossa Milano-Parigi",
     "Dopo la frana in Maurienne, il Frecciarossa diretto Milano-Parigi riprenderà il servizio con due corse giornaliere per senso di marcia. Il viaggio dura circa 7 ore e 10 minuti con fermate a Torino, Chambéry e Lione.",
     "Quanto dura il viaggio in Frecciarossa da Milano a Parigi?"),
])  # fmt: skip

ID_WEB = _pool("id", [
    ("https://www.example.go.id/paspor-elektronik", "Cara Membuat Paspor Elektronik 2026",
     "Biaya pembuatan <strong>paspor elektronik</strong> masa berlaku 10 tahun adalah Rp650.000. Pemohon wajib membawa e-KTP, kartu keluarga, dan akta kelahiran asli. Pendaftaran antrean dilakukan melalui aplikasi M-Paspor.",
     "berapa biaya paspor elektronik 10 tahun"),
    ("https://www.example-wisata.id/borobudur-tiket", "Tiket Naik Candi Borobudur",
     "Kuota pengunjung yang boleh <strong>naik ke struktur Candi Borobudur</strong> dibatasi 1.200 orang per hari dan wajib memakai sandal khusus upanat. Tiket naik untuk wisatawan dewasa domestik Rp120.000, sudah termasuk pemandu.",
     "berapa kuota naik candi borobudur per hari"),
    ("https://www.example-berita.id/mrt-jakarta-fase-2", "MRT Jakarta Fase 2A",
     "Pembangunan <strong>MRT Jakarta Fase 2A</strong> dari Bundaran HI ke Kota sepanjang 5,8 km ditargetkan beroperasi penuh pada 2029. Jalur ini memiliki tujuh stasiun bawah tanah, termasuk Stasiun Monas dan Stasiun Glodok.",
     "kapan MRT fase 2A beroperasi"),
    ("https://www.example.go.id/bpjs-kesehatan-iuran", "Iuran BPJS Kesehatan Kelas 3",
     "Iuran <strong>BPJS Kesehatan kelas 3</strong> untuk peserta mandiri sebesar Rp42.000 per bulan, dengan Rp7.000 di antaranya dibantu pemerintah sehingga peserta membayar Rp35.000. Pembayaran paling lambat tanggal 10 setiap bulan.",
     "berapa iuran BPJS kelas 3 yang dibayar peserta"),
    ("https://www.example-kuliner.id/rendang", "Rendang, Masakan Khas Minangkabau",
     "<strong>Rendang</strong> dimasak dengan santan dan bumbu rempah selama empat hingga delapan jam hingga kering dan berwarna cokelat gelap. Proses memasak yang lama inilah yang membuat rendang bisa bertahan hingga berminggu-minggu tanpa lemari es.",
     "berapa lama memasak rendang"),
    ("https://www.example-berita.id/ikn-upacara", "IKN Nusantara",
     "Ibu Kota Nusantara (<strong>IKN</strong>) di Kalimantan Timur memiliki luas wilayah daratan sekitar 252.660 hektare. Pemindahan aparatur sipil negara dilakukan bertahap, dimulai dari kementerian koordinator.",
     "berapa luas wilayah IKN"),
    ("https://www.example-wisata.id/komodo-tarif", "Tarif Masuk Taman Nasional Komodo",
     "Wisatawan mancanegara yang berkunjung ke <strong>Taman Nasional Komodo</strong> dikenai tarif masuk Rp150.000 pada hari kerja dan Rp225.000 pada hari libur. Setiap rombongan wajib didampingi naturalis atau ranger setempat.",
     "tarif masuk taman nasional komodo hari libur"),
])  # fmt: skip

SV_WEB = _pool("sv", [
    ("https://www.example-resor.se/kungsleden", "Kungsleden – Sveriges mest kända vandringsled",
     "Kungsleden sträcker sig cirka 440 kilometer mellan Abisko i norr och Hemavan i söder. Den mest vandrade delen är sträckan Abisko–Nikkaluokta, som tar fem till sju dagar och passerar Kebnekaise fjällstation.",
     "hur lång är kungsleden"),
    ("https://www.example.se/skatt/rut-avdrag", "RUT-avdrag 2026",
     "RUT-avdraget är 50 procent av arbetskostnaden och får vara högst 75 000 kronor per person och år. Avdraget gäller bland annat städning, trädgårdsarbete och flytthjälp, men inte materialkostnader eller resekostnader.",
     "hur mycket får rut-avdraget vara per år"),
    ("https://www.example-nyheter.se/sl-biljettpriser", "SL höjer priset på 30-dagarsbiljetten",
     "Från den 1 januari kostar SL:s 30-dagarsbiljett 1 060 kronor för vuxna och 690 kronor för ungdomar och pensionärer. Enkelbiljetten höjs samtidigt till 43 kronor.",
     "vad kostar sl 30-dagarsbiljett"),
    ("https://www.example-resor.se/ishotellet-jukkasjarvi", "Ishotellet i Jukkasjärvi",
     "Ishotellet i Jukkasjärvi byggs upp på nytt varje vinter av is från Torne älv. Temperaturen i de kalla rummen ligger kring minus fem grader, och gästerna sover i sovsäckar på renskinn.",
     "vilken temperatur är det på ishotellet"),
    ("https://www.example.se/allemansratten", "Allemansrätten",
     "Enligt allemansrätten får du tälta en eller två nätter på samma plats i naturen, om det inte är nära ett bostadshus eller på mark som används för jordbruk. Du får plocka bär och svamp men inte skada växande träd.",
     "hur många nätter får man tälta enligt allemansrätten"),
    ("https://www.example-nyheter.se/vasaloppet-rekord", "Nytt deltagarrekord i Vasaloppet",
     "Vasaloppet går 90 kilometer från Berga by i Sälen till Mora. I år deltog över 16 000 åkare i huvudloppet, och segrartiden på herrsidan blev 3 timmar och 28 minuter.",
     "hur långt är vasaloppet"),
    ("https://www.example.se/fika", "Fika – en svensk tradition",
     "Fika är en svensk tradition där man tar en paus med kaffe och något sött, till exempel kanelbulle eller kladdkaka. Kanelbullens dag firas den 4 oktober sedan 1999.",
     "när är kanelbullens dag"),
])  # fmt: skip

EN_MED = _pool("en", [
    ("med/metformin", "Metformin leaflet",
     "Metformin is used to treat type 2 diabetes. Take it with or just after a meal to reduce stomach side effects such as nausea and diarrhoea. The usual starting dose is 500 mg once or twice a day, increased slowly over several weeks. Stop taking metformin and contact a doctor straight away if you have severe vomiting, deep or fast breathing, or feel very cold, as these can be signs of lactic acidosis.",
     "When should metformin be taken?"),
    ("med/amoxicillin", "Amoxicillin leaflet",
     "Amoxicillin is a penicillin antibiotic. Adults usually take 500 mg three times a day. Space the doses evenly through the day and keep taking the medicine until the course is finished, even if you feel better. Do not take amoxicillin if you have ever had an allergic reaction to penicillin; a rash, wheezing or swelling of the lips or face needs urgent medical help.",
     "How often do adults usually take amoxicillin?"),
    ("med/ibuprofen", "Ibuprofen leaflet",
     "Ibuprofen tablets should be taken with food or milk. Adults can take 200 to 400 mg up to three times a day, leaving at least 4 hours between doses, and should not take more than 1,200 mg in 24 hours without medical advice. Do not take ibuprofen if you have had a stomach ulcer, or in the last three months of pregnancy.",
     "What is the maximum daily dose of ibuprofen without medical advice?"),
    ("med/atorvastatin", "Atorvastatin leaflet",
     "Atorvastatin lowers cholesterol. It can be taken at any time of day, with or without food, but try to take it at the same time every day. Avoid drinking large amounts of grapefruit juice, more than one or two small glasses a day, as it can increase the level of atorvastatin in the blood. Tell your doctor about unexplained muscle pain or weakness.",
     "Can grapefruit juice be taken with atorvastatin?"),
    ("med/levothyroxine", "Levothyroxine leaflet",
     "Levothyroxine replaces thyroid hormone. Take it once a day in the morning, on an empty stomach, at least 30 minutes before breakfast or a caffeinated drink. Iron and calcium supplements can stop it working properly, so take them at least 4 hours apart. It may take several weeks before you feel better.",
     "How long before breakfast should levothyroxine be taken?"),
    ("med/warfarin", "Warfarin leaflet",
     "Warfarin is an anticoagulant. You will need regular blood tests (INR) to check that your dose is right; the target INR for most people is between 2 and 3. Keep the amount of vitamin K in your diet steady, because foods such as spinach, kale and broccoli can change how warfarin works. Always carry your anticoagulant alert card.\n\nPossible side effects\nThe most common side effect is bleeding. Get medical help straight away if you:\n- have a nosebleed that lasts longer than 10 minutes;\n- find blood in your urine or poo, or your poo is black;\n- cough up or vomit blood;\n- have a severe headache, especially after a fall or a bump to the head.\n\nMinor bruising and bleeding gums when brushing your teeth are common and usually not a reason to stop the medicine, but mention them at your next INR check. Do not start or stop any other medicines, including herbal remedies such as St John's wort, without asking your pharmacist, because many medicines interact with warfarin.",
     "What is the usual target INR for warfarin?"),
    ("med/omeprazole", "Omeprazole leaflet",
     "Omeprazole reduces the amount of acid the stomach makes. Take it once a day, usually in the morning, and swallow the capsules whole with water. If you buy omeprazole without a prescription, do not take it for more than 14 days; see a doctor if your symptoms have not improved.",
     "For how long can non-prescription omeprazole be taken?"),
])  # fmt: skip

FR_RH = _pool("fr", [
    ("fr/teletravail", "Accord télétravail",
     "Les salariés en CDI ayant au moins trois mois d'ancienneté peuvent télétravailler jusqu'à deux jours par semaine, en accord avec leur manager. Les jours de télétravail sont fixes et déclarés dans l'outil RH. Une indemnité forfaitaire de 2,70 € par jour télétravaillé est versée avec le salaire, dans la limite de 59,40 € par mois.",
     "Combien de jours de télétravail par semaine sont autorisés ?"),
    ("fr/conges", "Congés payés",
     "Chaque salarié acquiert 2,5 jours ouvrables de congés payés par mois de travail effectif, soit 30 jours ouvrables par an. La période de prise des congés va du 1er mai au 30 avril. Au moins 12 jours ouvrables continus doivent être pris entre le 1er mai et le 31 octobre.",
     "Combien de jours de congés payés acquiert-on par mois ?"),
    ("fr/tickets-restaurant", "Titres-restaurant",
     "L'entreprise attribue un titre-restaurant par jour travaillé d'au moins six heures comprenant une pause déjeuner, y compris les jours de télétravail. La valeur faciale est de 11 €, dont 60 % pris en charge par l'employeur. Les titres sont crédités sur la carte le 5 de chaque mois.",
     "Les jours de télétravail donnent-ils droit à un titre-restaurant ?"),
    ("fr/mutuelle", "Mutuelle d'entreprise",
     "L'adhésion à la mutuelle d'entreprise est obligatoire pour tous les salariés. La cotisation est prise en charge à 60 % par l'employeur pour le salarié seul. Un salarié déjà couvert par la mutuelle obligatoire de son conjoint peut demander une dispense, sur justificatif, chaque année au 1er janvier.",
     "Peut-on être dispensé de la mutuelle d'entreprise ?"),
    ("fr/rtt", "Jours de RTT",
     "Les cadres au forfait jours bénéficient de 11 jours de RTT par an pour l'année 2026. Les RTT doivent être posés avant le 31 décembre ; les jours non pris sont perdus, sauf s'ils sont versés sur le compte épargne-temps dans la limite de 5 jours.",
     "Combien de jours de RTT ont les cadres au forfait en 2026 ?"),
    ("fr/notes-de-frais", "Notes de frais",
     "Les notes de frais sont saisies dans l'application Spendesk dans les 30 jours suivant la dépense, avec le justificatif photographié. Les repas d'affaires sont remboursés jusqu'à 35 € par personne à Paris et 28 € en région. Les frais kilométriques suivent le barème fiscal en vigueur.",
     "Quel est le plafond de remboursement d'un repas d'affaires à Paris ?"),
    ("fr/formation", "Plan de formation",
     "Chaque salarié dispose d'un entretien professionnel tous les deux ans pour faire le point sur ses souhaits de formation. Les demandes de formation hors plan doivent être déposées avant le 15 octobre pour l'année suivante. Le salarié peut mobiliser son compte personnel de formation (CPF) avec un abondement de l'entreprise jusqu'à 500 €.",
     "Avant quelle date faut-il déposer une demande de formation hors plan ?"),
])  # fmt: skip


def _api(
    domain: str,
    framework: str,
    functionality: str,
    api_name: str,
    api_call: str,
    arguments: str,
    env: str,
    code: str,
    description: str,
) -> str:
    return json.dumps({"domain": domain, "framework": framework, "functionality": functionality, "api_name": api_name,
                       "api_call": api_call, "api_arguments": arguments, "python_environment_requirements": env,
                       "example_code": code, "description": description})  # fmt: skip


EN_APIS = _pool("en", [
    ("gorilla/hf-sentiment", "distilbert sentiment",
     _api("Natural Language Processing Text Classification", "Hugging Face Transformers", "Sentiment Analysis", "distilbert-base-uncased-finetuned-sst-2-english", "pipeline('sentiment-analysis', model='distilbert-base-uncased-finetuned-sst-2-english')", "text", "transformers", "from transformers import pipeline\nclassifier = pipeline('sentiment-analysis', model='distilbert-base-uncased-finetuned-sst-2-english')\nclassifier('I love this movie!')", "A DistilBERT model fine-tuned on SST-2 that classifies English text as POSITIVE or NEGATIVE."),
     "I need to tell whether customer reviews are positive or negative. Which API should I use?",
     "Use the distilbert-base-uncased-finetuned-sst-2-english sentiment-analysis pipeline from Hugging Face Transformers."),
    ("gorilla/hf-whisper", "whisper small",
     _api("Audio Automatic Speech Recognition", "Hugging Face Transformers", "Speech to text", "openai/whisper-small", "WhisperForConditionalGeneration.from_pretrained('openai/whisper-small')", "audio, sampling_rate", "transformers, datasets", "from transformers import WhisperProcessor, WhisperForConditionalGeneration\nprocessor = WhisperProcessor.from_pretrained('openai/whisper-small')\nmodel = WhisperForConditionalGeneration.from_pretrained('openai/whisper-small')", "Whisper is a pre-trained model for automatic speech recognition and speech translation, trained on 680k hours of labelled data."),
     "Transcribe recorded interviews into text. Which API can do it?",
     "Use openai/whisper-small via WhisperForConditionalGeneration for speech recognition."),
    ("gorilla/torch-resnet", "resnet50",
     _api("Classification", "PyTorch", "Image Recognition", "resnet50", "torch.hub.load('pytorch/vision', 'resnet50', pretrained=True)", "pretrained", "torch, torchvision", "import torch\nmodel = torch.hub.load('pytorch/vision', 'resnet50', pretrained=True)\nmodel.eval()", "ResNet-50 is a 50-layer residual network trained on ImageNet, reaching 76.1% top-1 accuracy."),
     "Find an API that classifies photos of animals into ImageNet classes.",
     "Load ResNet-50 from torch hub: torch.hub.load('pytorch/vision', 'resnet50', pretrained=True)."),
    ("gorilla/hf-translation", "opus-mt en-de",
     _api("Natural Language Processing Translation", "Hugging Face Transformers", "Translation", "Helsinki-NLP/opus-mt-en-de", "pipeline('translation_en_to_de', model='Helsinki-NLP/opus-mt-en-de')", "text", "transformers, sentencepiece", "from transformers import pipeline\ntranslator = pipeline('translation_en_to_de', model='Helsinki-NLP/opus-mt-en-de')\ntranslator('How old are you?')", "A MarianMT model trained on OPUS data that translates English text into German."),
     "Translate our English product manual into German automatically.",
     "Use the Helsinki-NLP/opus-mt-en-de translation pipeline."),
    ("gorilla/hf-summarization", "bart large cnn",
     _api("Natural Language Processing Summarization", "Hugging Face Transformers", "Text Summarization", "facebook/bart-large-cnn", "pipeline('summarization', model='facebook/bart-large-cnn')", "text, max_length, min_length, do_sample", "transformers", "from transformers import pipeline\nsummarizer = pipeline('summarization', model='facebook/bart-large-cnn')\nsummarizer(article, max_length=130, min_length=30, do_sample=False)", "BART large fine-tuned on CNN/Daily Mail for abstractive summarization of news articles."),
     "Summarize long news articles into a few sentences.",
     "Use the facebook/bart-large-cnn summarization pipeline."),
    ("gorilla/hf-detr", "detr resnet50",
     _api("Computer Vision Object Detection", "Hugging Face Transformers", "Object Detection", "facebook/detr-resnet-50", "DetrForObjectDetection.from_pretrained('facebook/detr-resnet-50')", "images, return_tensors", "transformers, timm", "from transformers import DetrImageProcessor, DetrForObjectDetection\nprocessor = DetrImageProcessor.from_pretrained('facebook/detr-resnet-50')\nmodel = DetrForObjectDetection.from_pretrained('facebook/detr-resnet-50')", "DETR is an end-to-end object detection model with a ResNet-50 backbone, trained on COCO 2017, reaching 42.0 AP."),
     "Detect cars and pedestrians in street camera images.",
     "Use DetrForObjectDetection with facebook/detr-resnet-50."),
    ("gorilla/hf-sbert", "all-MiniLM-L6-v2",
     _api("Natural Language Processing Sentence Similarity", "Hugging Face Transformers", "Sentence Embeddings", "sentence-transformers/all-MiniLM-L6-v2", "SentenceTransformer('sentence-transformers/all-MiniLM-L6-v2')", "sentences", "sentence-transformers", "from sentence_transformers import SentenceTransformer\nmodel = SentenceTransformer('sentence-transformers/all-MiniLM-L6-v2')\nembeddings = model.encode(['This is an example sentence'])", "Maps sentences and paragraphs to a 384-dimensional dense vector space for clustering or semantic search."),
     "Compute embeddings to find similar support tickets.",
     "Use SentenceTransformer('sentence-transformers/all-MiniLM-L6-v2') to embed the tickets."),
])  # fmt: skip

EN_PUBMED = _pool("en", [
    ("pubmed/38001|2024-03-12|Copyright © 2024 The Authors.", "Effect of a 12-week walking programme on HbA1c in adults with type 2 diabetes: a randomized controlled trial",
     "BACKGROUND: Physical activity is recommended for glycaemic control, but adherence to structured exercise is low.\nMETHODS: We randomly assigned 412 adults with type 2 diabetes to a 12-week programme of 30 minutes of brisk walking on at least five days a week or to usual care.\nRESULTS: HbA1c fell by 0.5 percentage points in the walking group and by 0.1 points in the usual-care group (difference, -0.4; 95% CI, -0.6 to -0.2). Adherence was 71%.\nCONCLUSIONS: A simple walking programme modestly improved glycaemic control.",
     "How much did HbA1c fall in the walking group?"),
    ("pubmed/38112|2023-11-02|", "Vitamin D supplementation and fracture risk in older women",
     "BACKGROUND: The role of vitamin D supplementation in preventing fractures in community-dwelling older adults is uncertain.\nMETHODS: In this trial, 5,100 women aged 70 years or older received 2,000 IU of vitamin D3 daily or placebo for a median of 4.1 years.\nRESULTS: Total fractures occurred in 9.8% of the vitamin D group and 10.1% of the placebo group (hazard ratio, 0.97; 95% CI, 0.83 to 1.13).\nCONCLUSIONS: Vitamin D3 supplementation did not significantly lower the risk of fractures.",
     "Did vitamin D lower the fracture risk in older women?"),
    ("pubmed/38230|2024-06-21|Copyright © 2024 Elsevier Inc. All rights reserved.", "Screen time before bed and sleep duration in adolescents: a cohort study",
     "OBJECTIVE: To assess the association between evening screen use and sleep in adolescents.\nDESIGN: Prospective cohort of 2,870 students aged 13 to 16 years followed for two years.\nRESULTS: Each additional hour of screen use in the hour before bed was associated with 24 fewer minutes of sleep on school nights. The association was stronger for social media than for video watching.\nCONCLUSION: Limiting screen use before bed may help adolescents sleep longer.",
     "How much sleep was lost per hour of screen use before bed?"),
    ("pubmed/38301|2024-01-30|", "Intermittent fasting versus daily calorie restriction for weight loss",
     "BACKGROUND: Time-restricted eating is popular, but its effect compared with calorie restriction is unclear.\nMETHODS: 139 adults with obesity were assigned to eating only between 8 a.m. and 4 p.m. with calorie restriction, or to calorie restriction alone, for 12 months.\nRESULTS: Mean weight loss was 8.0 kg with time-restricted eating and 6.3 kg with daily calorie restriction; the difference was not significant.\nCONCLUSIONS: Adding time restriction did not yield more weight loss than calorie restriction alone.",
     "Did time-restricted eating lead to more weight loss than calorie restriction?"),
    ("pubmed/38422|2024-09-05|Copyright © 2024 American Medical Association.", "Effectiveness of a nurse-led telephone follow-up after heart failure discharge",
     "IMPORTANCE: Readmission after hospitalization for heart failure is common.\nOBJECTIVE: To determine whether structured nurse telephone calls reduce readmissions.\nDESIGN, SETTING, AND PARTICIPANTS: Randomized clinical trial in 14 hospitals including 1,030 patients.\nMAIN OUTCOMES AND MEASURES: All-cause readmission at 30 days.\nRESULTS: Readmission occurred in 17.9% with telephone follow-up and 22.4% with usual care.\nCONCLUSIONS AND RELEVANCE: Nurse-led calls reduced 30-day readmissions.",
     "What was the 30-day readmission rate with nurse telephone follow-up?"),
    ("pubmed/38519|2025-02-14|", "Cognitive behavioural therapy for insomnia delivered by smartphone app",
     "BACKGROUND: Access to cognitive behavioural therapy for insomnia (CBT-I) is limited.\nMETHODS: 620 adults with chronic insomnia were randomized to a 6-week app-based CBT-I programme or to sleep hygiene education.\nRESULTS: Insomnia Severity Index scores improved by 7.1 points with the app and 2.9 points with education at 6 weeks; benefits persisted at 6 months.\nCONCLUSIONS: App-delivered CBT-I was effective for chronic insomnia.",
     "How much did the Insomnia Severity Index improve with the app?"),
])  # fmt: skip

UK_DOCS = _pool("uk", [
    ("uk/pasport", "ID-картка",
     "Оформити ID-картку можна в будь-якому ЦНАП або підрозділі Державної міграційної служби незалежно від місця реєстрації. Вартість оформлення у строк до 20 робочих днів становить 279 гривень, у строк до 10 робочих днів — 411 гривень. Для оформлення потрібні свідоцтво про народження (для першого оформлення) або попередній паспорт і довідка про реєстрацію місця проживання.",
     "Скільки коштує оформлення ID-картки за 10 днів?"),
    ("uk/reiestratsiia", "Реєстрація місця проживання",
     "Задекларувати або зареєструвати місце проживання можна онлайн у застосунку Дія або в ЦНАП. Адміністративний збір за реєстрацію в ЦНАП становить 0,085 прожиткового мінімуму, якщо звернення протягом 30 днів після зняття з реєстрації, і 0,255 прожиткового мінімуму — якщо пізніше. Онлайн-послуга в Дії безоплатна.",
     "Чи платна реєстрація місця проживання через Дію?"),
    ("uk/subsydiia", "Житлова субсидія",
     "Житлова субсидія призначається на опалювальний період з 1 жовтня по 30 квітня та на неопалювальний з 1 травня по 30 вересня. Заяву можна подати через Пенсійний фонд, ЦНАП або Дію. Якщо заяву подано протягом першого місяця періоду, субсидію призначають з початку періоду.",
     "З якого числа починається опалювальний період для субсидії?"),
    ("uk/dytyna", "Послуга «єМалятко»",
     "Комплексна послуга «єМалятко» дозволяє однією заявою оформити свідоцтво про народження дитини, реєстрацію місця проживання, допомогу при народженні та внесення до реєстру платників податків. Заяву подають у пологовому будинку або онлайн у Дії протягом місяця після народження.",
     "Що можна оформити через послугу єМалятко?"),
    ("uk/vodiiske", "Обмін посвідчення водія",
     "Обміняти посвідчення водія у зв'язку із закінченням строку дії можна в сервісному центрі МВС або онлайн через Дію з доставкою поштою. Вартість послуги — 233 гривні плюс вартість бланка. Медична довідка потрібна, якщо попередня видана понад два роки тому.",
     "Коли для обміну посвідчення водія потрібна нова медична довідка?"),
    ("uk/fop", "Реєстрація ФОП",
     "Зареєструватися фізичною особою-підприємцем можна онлайн у Дії за 10 хвилин. Під час реєстрації можна одразу обрати спрощену систему оподаткування. Єдиний соціальний внесок для ФОП сплачується щоквартально не пізніше 20 числа місяця, що настає за кварталом.",
     "До якого числа ФОП сплачує ЄСВ?"),
    ("uk/pensiia", "Призначення пенсії",
     "Заяву на призначення пенсії за віком можна подати за місяць до досягнення пенсійного віку через вебпортал Пенсійного фонду, у сервісному центрі або в ЦНАП. У 2026 році для виходу на пенсію в 60 років потрібно мати щонайменше 33 роки страхового стажу.",
     "Скільки стажу потрібно для пенсії у 60 років у 2026 році?"),
])  # fmt: skip

PT_AGENTS = _pool("pt", [
    ("~/.codex/AGENTS.md", "global",
     "# Preferências pessoais\n\n- Responda sempre em português do Brasil.\n- Antes de rodar comandos que apagam arquivos, pergunte.\n- Prefiro commits pequenos, com mensagem no imperativo (\"Corrige\", \"Adiciona\").\n- Uso fish como shell; não gere scripts que dependam de bashismos sem avisar.",
     "Como devo escrever as mensagens de commit?", "Commits pequenos, com mensagem no imperativo, como \"Corrige\" ou \"Adiciona\"."),
    ("AGENTS.md", "raiz",
     "# Guia do repositório feira-digital\n\nMonorepo com `api/` (Python 3.12, FastAPI), `web/` (Next.js 15) e `infra/` (Terraform).\n\n## Verificações obrigatórias\n\n```bash\nmake lint\nmake test\n```\n\nNenhum PR é aceito com `make test` falhando. Não edite arquivos gerados em `api/app/gen/`; rode `make gen` para regenerá-los a partir do `openapi.yaml`.\n\n## Estrutura\n\n| Pasta | O que tem | Dono |\n|---|---|---|\n| `api/` | backend FastAPI, filas Celery | time Núcleo |\n| `api/pagamentos/` | integração Pix | time Pagamentos |\n| `web/` | loja e painel do lojista | time Vitrine |\n| `infra/` | Terraform, AWS | time Plataforma |\n\n## Convenções\n\n- Branches: `tipo/descricao-curta` (ex.: `fix/frete-gratis`).\n- PRs pequenos: acima de 400 linhas alteradas, divida.\n- Toda mudança visível ao lojista precisa de nota em `CHANGELOG.md`.",
     "Posso editar os arquivos em api/app/gen?", "Não: os arquivos em `api/app/gen/` são gerados; rode `make gen` para regenerá-los a partir do `openapi.yaml`."),
    ("api/AGENTS.md", "api",
     "# api/\n\n- Use `uv` para dependências: `uv add pacote`, nunca `pip install`.\n- Testes com pytest: `uv run pytest -q`. Testes que tocam o banco usam a fixture `db` e rodam dentro de uma transação revertida no final.\n- Migrações Alembic ficam em `api/migrations/`; gere com `uv run alembic revision --autogenerate -m \"descricao\"` e revise o arquivo antes de commitar.",
     "Como adiciono uma dependência na api?", "Use `uv add pacote`, nunca `pip install`."),
    ("api/pagamentos/AGENTS.md", "pagamentos",
     "# api/pagamentos/\n\nCódigo sensível: integra com o PSP via Pix.\n\n- Valores monetários são sempre inteiros em centavos (`int`), nunca `float` ou `Decimal` em trânsito.\n- Toda chamada ao PSP precisa de `idempotency_key`.\n- Os testes deste diretório usam o simulador em `tests/fakes/psp.py`; não chame o sandbox real no CI.",
     "Em que unidade os valores de pagamento são guardados?", "Valores monetários são sempre inteiros em centavos (`int`), nunca `float`."),
    ("web/AGENTS.md", "web",
     "# web/\n\n- Gerenciador de pacotes: pnpm (`pnpm i`, `pnpm dev`).\n- Componentes novos vão em `web/components/` com teste em Vitest ao lado (`Botao.test.tsx`).\n- Textos da interface ficam em `web/messages/pt-BR.json`; não escreva strings visíveis direto no JSX.\n- Rode `pnpm typecheck` antes de abrir PR.",
     "Onde ficam os textos da interface do web?", "Os textos ficam em `web/messages/pt-BR.json`, não direto no JSX."),
    ("infra/AGENTS.md", "infra",
     "# infra/\n\nNunca rode `terraform apply` localmente. O fluxo é:\n\n1. `terraform fmt` e `terraform validate`.\n2. Abra o PR; o CI roda `terraform plan` e comenta o resultado.\n3. Depois do merge, o apply roda no pipeline com aprovação manual do time de plataforma.\n\nSegredos ficam no AWS Secrets Manager, nunca em `.tfvars`.",
     "Posso rodar terraform apply na minha máquina?", "Não: nunca rode `terraform apply` localmente; o apply roda no pipeline depois do merge."),
])  # fmt: skip

JA_MANUAL = _pool("ja", [
    ("ja/kinmu", "就業規則 第3章",
     "第15条（始業・終業時刻）\n始業時刻は午前9時、終業時刻は午後6時とし、正午から午後1時までを休憩時間とする。\nフレックスタイム制の適用者は、コアタイムを午前11時から午後3時までとし、清算期間は1か月とする。\n第16条（遅刻・早退）\n遅刻、早退または私用外出をする場合は、事前に所属長に届け出て承認を受けなければならない。やむを得ない事情で事前に届け出ることができないときは、事後速やかに届け出ること。",
     "フレックスタイム制のコアタイムは何時から何時までですか"),
    ("ja/yukyu", "就業規則 第5章",
     "第28条（年次有給休暇）\n入社日から6か月間継続勤務し、所定労働日の8割以上出勤した従業員には10日の年次有給休暇を付与する。\n年次有給休暇は半日単位で取得することができる。取得する場合は、原則として3営業日前までに勤怠システムで申請すること。\n前年度に取得しなかった年次有給休暇は、翌年度に限り繰り越すことができる。また、年5日の取得が法律で義務付けられているため、取得日数が不足する従業員には会社が時季を指定する。",
     "有給休暇は何日前までに申請する必要がありますか"),
    ("ja/ryohi", "旅費規程",
     "第6条（宿泊費）\n国内出張の宿泊費は、1泊につき東京23区・大阪市内は12,000円、その他の地域は10,000円を上限として実費を支給する。\n上限を超える場合は、事前に部門長の承認を得ること。領収書の原本は経費精算システムに画像で添付し、原本は1年間保管する。\n第7条（日当）\n日帰り出張で片道100 km以上の場合は日当2,000円、宿泊を伴う出張は1日につき3,000円を支給する。海外出張の日当は別表2による。",
     "大阪出張の宿泊費の上限はいくらですか"),
    ("ja/telework", "テレワーク規程",
     "第4条（テレワークの実施）\nテレワークは週3日を上限とし、実施日の前営業日までに上長へ申請する。\n自宅以外の場所（カフェ、コワーキングスペース等）で業務を行う場合は、画面の覗き見防止フィルターを使用し、公衆Wi-Fiには会社支給のVPNを経由して接続すること。\n第5条（通信費）\nテレワークを月8日以上実施した従業員には、通信費・光熱費の補助として月額3,000円を支給する。",
     "テレワークは週に何日まで可能ですか"),
    ("ja/ikuji", "育児・介護休業規程",
     "第3条（育児休業）\n従業員は、子が1歳に達するまでの間、育児休業を取得することができる。保育所に入所できない等の事情がある場合は、最長で子が2歳に達するまで延長できる。\n産後パパ育休（出生時育児休業）は、子の出生後8週間以内に4週間まで、2回に分割して取得できる。\n育児休業の申出は、原則として休業開始予定日の1か月前までに、所定の申出書により人事部に行うこと。",
     "育児休業は最長でいつまで延長できますか"),
    ("ja/keihi", "経費精算ガイド",
     "経費精算は、支出した月の翌月10日までに経費精算システムで申請してください。\n・交通費：ICカードの利用履歴を添付すれば領収書は不要です。\n・会議費：1人あたり5,000円以下の飲食は会議費、超える場合は交際費として申請します。\n・申請が承認されると、翌月25日の給与と合わせて振り込まれます。",
     "経費精算の申請期限はいつですか"),
    ("ja/anpi", "安否確認マニュアル",
     "震度5強以上の地震が発生した場合、安否確認システムから自動でメールが送信されます。受信したら、勤務中かどうかにかかわらず、2時間以内に自身と家族の安否を回答してください。\n回答がない従業員には、所属部門の安否確認担当者が電話で連絡します。\n電話がつながらない場合は、緊急連絡先として登録されている家族に連絡することがあります。登録内容に変更があった場合は、人事システムで速やかに更新してください。",
     "安否確認のメールには何時間以内に回答する必要がありますか"),
])  # fmt: skip

HU_WEB = _pool("hu", [
    ("https://www.example.hu/balaton", "Balaton",
     "A Balaton Közép-Európa legnagyobb tava, felülete mintegy 594 négyzetkilométer, átlagos mélysége mindössze 3,2 méter. A tó vize nyáron gyorsan felmelegszik, júliusban gyakran eléri a 25 fokot is.",
     "Mekkora a Balaton átlagos mélysége?"),
    ("https://www.example.hu/orszaghaz", "Az Országház",
     "Az Országház Steindl Imre tervei alapján épült 1885 és 1904 között a Duna partján. Az épület 268 méter hosszú, kupolája 96 méter magas. A Szent Korona 2000 óta a kupolacsarnokban látható.",
     "Milyen magas az Országház kupolája?"),
    ("https://www.example.hu/rubik-kocka", "A Rubik-kocka története",
     "A bűvös kockát Rubik Ernő építész és tervező alkotta meg 1974-ben, szabadalmát 1975-ben jelentették be. A kocka 43 trillió különböző állásba forgatható, a gyorsasági világcsúcs négy másodperc alatti.",
     "Mikor alkotta meg Rubik Ernő a bűvös kockát?"),
    ("https://www.example.hu/tokaji-aszu", "Tokaji aszú",
     "A tokaji aszú a Tokaji borvidék nemesen rothadt, töppedt szőlőszemeiből készül. A puttonyszám régen a borhoz adott aszúszemek mennyiségét jelölte; ma az aszú legalább 120 gramm cukrot tartalmaz literenként.",
     "Mennyi cukrot tartalmaz literenként a tokaji aszú?"),
    ("https://www.example.hu/lanchid", "Széchenyi lánchíd",
     "A Széchenyi lánchíd volt az első állandó híd Pest és Buda között, 1849-ben adták át. A hidat a második világháborúban felrobbantották, 1949-ben, száz évvel az eredeti átadás után nyitották meg újra. A legutóbbi felújítás 2023-ban fejeződött be.",
     "Mikor nyitották meg újra a Lánchidat a háború után?"),
    ("https://www.example.hu/hortobagy", "Hortobágyi Nemzeti Park",
     "A Hortobágyi Nemzeti Park 1973-ban jött létre, Magyarország első nemzeti parkjaként. 1999-ben a pásztorkodás hagyományaival együtt felkerült az UNESCO világörökségi listájára. Itt él többek között a szürke marha és a racka juh.",
     "Mikor jött létre a Hortobágyi Nemzeti Park?"),
    ("https://www.example.hu/forint", "A forint",
     "A forintot 1946. augusztus 1-jén vezették be a pengő helyett, a hiperinfláció megfékezésére. A legnagyobb címletű bankjegy jelenleg a 20 000 forintos, a legkisebb érme az 5 forintos.",
     "Mikor vezették be a forintot?"),
])  # fmt: skip

AR_DOCS = _pool("ar", [
    ("ar/iqama", "تجديد الإقامة",
     "يمكن لصاحب العمل تجديد إقامة العامل إلكترونياً عبر منصة أبشر أعمال قبل انتهائها بمدة أقصاها 90 يوماً. يشترط لإتمام التجديد سداد رسوم رخصة العمل والإقامة، ووجود تأمين طبي ساري المفعول. وفي حال التأخر عن التجديد تفرض غرامة قدرها 500 ريال في المرة الأولى.",
     "كم تبلغ غرامة التأخر في تجديد الإقامة لأول مرة؟"),
    ("ar/rukhsa", "تجديد رخصة القيادة",
     "تجدد رخصة القيادة الخاصة لمدة 10 سنوات برسوم قدرها 400 ريال. يتطلب التجديد إجراء فحص طبي معتمد يرتبط إلكترونياً بالنظام، وسداد المخالفات المرورية المستحقة إن وجدت. يمكن إصدار الرخصة وتوصيلها عبر البريد.",
     "ما مدة صلاحية رخصة القيادة الخاصة بعد التجديد؟"),
    ("ar/jawaz", "إصدار جواز السفر",
     "يصدر جواز السفر للمواطنين البالغين لمدة 5 سنوات برسوم 300 ريال أو لمدة 10 سنوات برسوم 600 ريال. يمكن التقديم عبر أبشر أفراد، ويستلم الجواز من مكتب الجوازات المختار أو عبر خدمة التوصيل. يجب ألا يقل عمر الصورة الشخصية عن ستة أشهر.",
     "كم رسوم جواز السفر لمدة عشر سنوات؟"),
    ("ar/sijil", "السجل التجاري",
     "يمكن إصدار السجل التجاري إلكترونياً عبر منصة المركز السعودي للأعمال خلال دقائق. تبلغ رسوم الإصدار 200 ريال سنوياً، إضافة إلى رسوم الاشتراك في الغرفة التجارية. يجب تأكيد بيانات السجل سنوياً، وإلا يعد السجل موقوفاً.",
     "كم رسوم إصدار السجل التجاري؟"),
    ("ar/zawaj", "توثيق عقد الزواج",
     "يوثق عقد الزواج إلكترونياً عبر منصة ناجز بواسطة مأذون مرخص. يشترط حضور الزوجين أو وكيليهما والشاهدين، وإجراء فحص ما قبل الزواج قبل العقد بمدة لا تتجاوز ثلاثة أشهر. تصدر وثيقة العقد إلكترونياً فور التوثيق.",
     "ما المدة المسموحة بين فحص ما قبل الزواج والعقد؟"),
    ("ar/mukhalafat", "الاعتراض على المخالفات المرورية",
     "يحق لمالك المركبة الاعتراض على المخالفة المرورية خلال 30 يوماً من تاريخ تسجيلها عبر منصة أبشر. تدرس اللجنة الاعتراض خلال 15 يوم عمل، ويستمر احتساب المخالفة أثناء الدراسة. يمنح تخفيض 25% على بعض المخالفات عند السداد خلال 30 يوماً.",
     "ما مهلة الاعتراض على المخالفة المرورية؟"),
    ("ar/hawiya", "بطاقة الهوية الوطنية",
     "يجب على المواطن استخراج بطاقة الهوية الوطنية عند بلوغه 15 عاماً، ويمكن للإناث والذكور استخراجها اختيارياً من سن 10 أعوام. تجدد البطاقة كل 10 سنوات، وتفرض غرامة 100 ريال عند التأخر في التجديد.",
     "في أي عمر يجب استخراج الهوية الوطنية؟"),
])  # fmt: skip

FA_DOCS = _pool("fa", [
    ("fa/hazf", "آیین‌نامه آموزشی ماده ۱۲",
     "دانشجو می‌تواند در هر نیم‌سال تحصیلی حداکثر یک درس نظری را پس از پایان مهلت حذف و اضافه، تا پنج هفته پیش از شروع امتحانات پایان نیم‌سال، به صورت اضطراری حذف کند؛ مشروط بر اینکه تعداد واحدهای باقی‌مانده او از ۱۲ واحد کمتر نشود. حذف اضطراری درس‌های عملی و آزمایشگاهی مجاز نیست.",
     "حذف اضطراری تا چه زمانی امکان‌پذیر است؟"),
    ("fa/moadel", "آیین‌نامه آموزشی ماده ۲۳",
     "دانشجویی که میانگین نمرات او در یک نیم‌سال کمتر از ۱۲ باشد، مشروط محسوب می‌شود و در نیم‌سال بعد حداکثر می‌تواند ۱۴ واحد اخذ کند. دانشجویی که سه نیم‌سال متوالی یا چهار نیم‌سال متناوب مشروط شود، از ادامه تحصیل محروم می‌شود.",
     "دانشجوی مشروط حداکثر چند واحد می‌تواند بردارد؟"),
    ("fa/khabgah", "شیوه‌نامه خوابگاه",
     "اولویت واگذاری خوابگاه با دانشجویان ورودی جدید و دانشجویان ساکن شهرهای دورتر از ۱۵۰ کیلومتر است. ثبت‌نام از طریق سامانه سماد و در بازه اعلام‌شده در شهریورماه انجام می‌شود. ساعت ورود به خوابگاه دختران ساعت ۲۲ است.",
     "اولویت واگذاری خوابگاه با چه کسانی است؟"),
    ("fa/mehman", "شیوه‌نامه دانشجوی مهمان",
     "دانشجو پس از گذراندن دست‌کم یک نیم‌سال تحصیلی می‌تواند با موافقت دانشگاه مبدأ و مقصد به صورت مهمان در دانشگاه دیگری تحصیل کند. مجموع واحدهایی که به صورت مهمان گذرانده می‌شود نباید از ۴۰ درصد کل واحدهای دوره بیشتر باشد.",
     "حداکثر چند درصد واحدها را می‌توان به صورت مهمان گذراند؟"),
    ("fa/kaarvarzi", "شیوه‌نامه کارورزی",
     "دانشجویان کارشناسی پس از گذراندن ۹۰ واحد می‌توانند درس کارورزی را اخذ کنند. مدت کارورزی ۲۴۰ ساعت است و باید در یکی از سازمان‌های مورد تأیید گروه آموزشی گذرانده شود. گزارش نهایی حداکثر یک ماه پس از پایان دوره به استاد راهنما تحویل داده می‌شود.",
     "مدت کارورزی چند ساعت است؟"),
    ("fa/shahriye", "شهریه دوره شبانه",
     "شهریه دوره‌های شبانه شامل شهریه ثابت و متغیر است. شهریه ثابت در ابتدای هر نیم‌سال و شهریه متغیر بر اساس تعداد واحدهای اخذشده پرداخت می‌شود. دانشجویان رتبه اول تا سوم هر رشته در هر نیم‌سال از ۵۰ درصد شهریه متغیر نیم‌سال بعد معاف می‌شوند.",
     "دانشجویان رتبه برتر چه تخفیفی در شهریه دارند؟"),
    ("fa/enseraf", "انصراف از تحصیل",
     "دانشجو می‌تواند درخواست انصراف از تحصیل خود را شخصاً به اداره آموزش تسلیم کند. دانشجو فقط یک بار و حداکثر تا یک ماه پس از تاریخ ارائه درخواست، فرصت دارد برای بازگشت از انصراف اقدام کند. پس از این مدت، حکم انصراف صادر می‌شود.",
     "چقدر فرصت برای بازگشت از انصراف وجود دارد؟"),
])  # fmt: skip

EN_WIKI2 = _pool("en", [
    ("wiki/Great_Barrier_Reef", "Great Barrier Reef",
     "The Great Barrier Reef is the world's largest coral reef system, composed of over 2,900 individual reefs and 900 islands stretching for over 2,300 kilometres over an area of approximately 344,400 square kilometres. The reef is located in the Coral Sea, off the coast of Queensland, Australia, and was selected as a World Heritage Site in 1981.",
     "When was the Great Barrier Reef made a World Heritage Site?"),
    ("wiki/Marie_Curie", "Marie Curie",
     "Marie Salomea Skłodowska-Curie (1867–1934) was a Polish and naturalised-French physicist and chemist who conducted pioneering research on radioactivity. She was the first woman to win a Nobel Prize, the first person to win a Nobel Prize twice, and the only person to win a Nobel Prize in two scientific fields: physics in 1903 and chemistry in 1911.",
     "In which fields did Marie Curie win Nobel Prizes?"),
    ("wiki/Panama_Canal", "Panama Canal",
     "The Panama Canal is an artificial 82-kilometre waterway in Panama that connects the Atlantic Ocean with the Pacific Ocean. Ships are lifted 26 metres above sea level to Gatun Lake by locks at each end. The canal opened on 15 August 1914, and an expanded set of locks began commercial operation in June 2016.",
     "How high are ships lifted in the Panama Canal?"),
    ("wiki/Voyager_1", "Voyager 1",
     "Voyager 1 is a space probe launched by NASA on September 5, 1977, as part of the Voyager program to study the outer Solar System and the interstellar space beyond the Sun's heliosphere. On August 25, 2012, it became the first spacecraft to cross the heliopause and enter interstellar space.",
     "When did Voyager 1 enter interstellar space?"),
    ("wiki/Mount_Kilimanjaro", "Mount Kilimanjaro",
     "Mount Kilimanjaro is a dormant volcano in Tanzania. It has three volcanic cones: Kibo, Mawenzi, and Shira. It is the highest mountain in Africa and the highest single free-standing mountain above sea level in the world, at 5,895 metres above sea level.",
     "How tall is Mount Kilimanjaro?"),
    ("wiki/Penicillin", "Penicillin",
     "Penicillins are a group of antibiotics originally obtained from Penicillium moulds. Alexander Fleming discovered the antibacterial effect of penicillin in 1928 at St Mary's Hospital in London. Mass production began during the Second World War, after Howard Florey and Ernst Chain developed methods to purify it.",
     "Who discovered penicillin and when?"),
    ("wiki/Trans-Siberian_Railway", "Trans-Siberian Railway",
     "The Trans-Siberian Railway is a network of railways connecting European Russia to the Russian Far East. The main route runs from Moscow to Vladivostok, a distance of 9,289 kilometres, making it the longest railway line in the world. Construction began in 1891 and the line was completed in 1916.",
     "How long is the Trans-Siberian main route?"),
])  # fmt: skip

# --- templates ---------------------------------------------------------------------------------------------

CHAIN_OF_NOTE = """Task Description:
1. Read the given question and five Wikipedia passages to gather relevant information.
2. Write reading notes summarizing the key points from these passages.
3. Discuss the relevance of the given question and Wikipedia passages.
4. If some passages are relevant to the given question, provide a brief answer based on the passages.
5. If no passage is relevant, directly provide answer without considering the passages.

Question: {question}

{passages}"""


def chain_of_note_es(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Chain-of-Note's reading-notes prompt (Yu et al., 2023; from memory): the five-step task description
    (which says five passages whatever the count), the question, then 'Wikipedia Passage i: text' lines.
    Spanish Wikipedia, top five."""
    keep(docs, question, 5)
    passages = "\n".join(f"Wikipedia Passage {i}: {d.text}" for i, d in enumerate(docs, 1))
    return [_msg("user", CHAIN_OF_NOTE.replace("{question}", question).replace("{passages}", passages))]


STEP_BACK = """You are an expert of world knowledge. I am going to ask you a question. Your response should be comprehensive and not contradicted with the following context if they are relevant. Otherwise, ignore them if they are not relevant.

{normal_context}
{step_back_context}

Original Question: {question}
Answer:"""


def step_back_tr(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's stepback-qa-prompting template (from memory): two searches, one for the question and one for
    the generated step-back question, each a DuckDuckGo wrapper's run() output, i.e. the result snippets joined
    by single spaces; the two contexts on consecutive lines, then 'Original Question:' and 'Answer:'. Turkish
    web snippets; the snippets of the question's own search come first."""
    target = target_of(docs, question)
    others = [d for d in docs if d is not target]
    split = rng.randint(0, len(others))
    normal, step_back = [target, *others[:split]], others[split:]
    docs[:] = normal + step_back
    prompt = (
        STEP_BACK.replace("{normal_context}", " ".join(d.text for d in normal))
        .replace("{step_back_context}", " ".join(d.text for d in step_back))
        .replace("{question}", question)
    )
    return [_msg("user", prompt)]


def cookbook_news_it(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """The OpenAI cookbook's 'Question answering using a search API and re-ranking' (from memory): the top five
    re-ranked news articles as a list of {title, description, url} dicts written into the f-string as Python
    prints a list (repr: single quotes, or double quotes around a string holding an apostrophe), then
    USER_QUESTION and the instruction to cite urls as markdown links. Italian news (NewsAPI descriptions)."""
    keep(docs, question, 5)
    results = [{"title": d.title, "description": d.text, "url": d.source} for d in docs]
    prompt = (
        "Generate an answer to the user's question based on the given search results.\n"
        f"TOP_RESULTS: {results}\nUSER_QUESTION: {question}\n\n"
        "Include as much information as possible in the answer. Reference the relevant search result urls as markdown links."
    )
    return [_msg("user", prompt)]


ID_AGENT_SYSTEM = "Kamu adalah asisten yang membantu menjawab pertanyaan dengan mencari di web. Gunakan alat brave_web_search bila perlu dan sertakan tautan sumber."


def brave_mcp_id(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """The MCP Brave Search server's brave_web_search (from memory of modelcontextprotocol/servers): the tool
    result is each web result as 'Title: …\\nDescription: …\\nURL: …' joined by blank lines, descriptions
    with the <strong> highlights Brave's API returns. An Indonesian assistant using it through an agent."""
    call = _tool_call("brave_web_search", {"query": question, "count": rng.choice([5, 10])}, rng)
    result = "\n\n".join(f"Title: {d.title}\nDescription: {d.text}\nURL: {d.source}" for d in docs)
    return [_msg("system", ID_AGENT_SYSTEM), _msg("user", question), call,
            _msg("tool", result, tool_call_id=call["tool_calls"][0]["id"])]  # fmt: skip


SV_HISTORY = [
    (
        "Hej! Kan du hjälpa mig planera en resa i Sverige?",
        "Absolut! Vad är du intresserad av – natur, städer eller kultur?",
    )
]


def duckduckgo_results_sv(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's DuckDuckGoSearchResults tool (from memory): each result a bracketed 'snippet: …, title: …,
    link: …' list, the results joined by ', '; a ReAct-free tool-calling agent with a Swedish system prompt and
    sometimes an earlier exchange."""
    call = _tool_call("duckduckgo_results_json", {"query": question}, rng)
    result = ", ".join(f"[snippet: {d.text}, title: {d.title}, link: {d.source}]" for d in docs)
    history = [m for u, a in SV_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))]
    return [_msg("system", "Du är en hjälpsam assistent. Svara på svenska och ange källor."), *history,
            _msg("user", question), call, _msg("tool", result, tool_call_id=call["tool_calls"][0]["id"])]  # fmt: skip


LYNX = """Given the following QUESTION, DOCUMENT and ANSWER you must analyze the provided answer and determine whether it is faithful to the contents of the DOCUMENT. The ANSWER must not offer new information beyond the context provided in the DOCUMENT. The ANSWER also must not contradict information provided in the DOCUMENT. Output your final verdict by strictly following this format: "PASS" if the answer is faithful to the DOCUMENT and "FAIL" if the answer is not faithful to the DOCUMENT. Show your reasoning.

--
QUESTION (THIS DOES NOT COUNT AS BACKGROUND INFORMATION):
{question}

--
DOCUMENT:
{context}

--
ANSWER:
{answer}

--

Your output should be in JSON FORMAT with the keys "REASONING" and "SCORE":
{"REASONING": <your reasoning as bullet points>, "SCORE": <your final score>}"""
LYNX_FABRICATED = " It should also be avoided by anyone over 65."


def lynx_med(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Patronus AI's Lynx hallucination judge (from memory of the model card's prompt), run over a medicines
    chatbot's turns: the question, the retrieved leaflet chunks joined by blank lines as the DOCUMENT, the
    chatbot's answer under test (sometimes with an invented claim), and the JSON output instruction."""
    target = target_of(docs, question)
    answer = first_sentence(target) + (LYNX_FABRICATED if rng.random() < 0.4 else "")
    prompt = (
        LYNX.replace("{question}", question)
        .replace("{context}", "\n\n".join(d.text for d in docs))
        .replace("{answer}", answer)
    )
    return [_msg("user", prompt)]


RAGAS_INSTRUCTION = 'Given question, answer and context verify if the context was useful in arriving at the given answer. Give verdict as "1" if useful and "0" if not with json output.'
RAGAS_EXAMPLE = {
    "question": "What can you tell me about Albert Einstein?",
    "context": "Albert Einstein (14 March 1879 - 18 April 1955) was a German-born theoretical physicist, widely held to be one of the greatest and most influential scientists of all time. Best known for developing the theory of relativity, he also made important contributions to quantum mechanics.",
    "answer": "Albert Einstein, born on 14 March 1879, was a German-born theoretical physicist, best known for developing the theory of relativity.",
}
RAGAS_VERDICT = {
    "reason": "The context was useful in clarifying Einstein's birth date and his contributions to physics, which are stated in the answer.",
    "verdict": 1,
}
RAGAS_SCHEMA = '{"properties": {"reason": {"description": "Reason for verification", "title": "Reason", "type": "string"}, "verdict": {"description": "Binary (0/1) verdict of verification", "title": "Verdict", "type": "integer"}}, "required": ["reason", "verdict"], "title": "Verification", "type": "object"}'


def _ragas(docs: list[Doc], question: str, rng: random.Random, v02: bool) -> Messages:
    """RAGAS context precision (from memory), one call per retrieved context with the reference answer: first
    ragas 0.1's prompt, 'question: "…"' / 'context: "…"' / 'answer: "…"' values JSON-quoted under 'Your
    actual task:' after one example; redeployed half-way with ragas 0.2, whose PydanticPrompt writes the
    instruction, the output schema, '--------EXAMPLES-----------' and the input as indented JSON after 'Now
    perform the same with the following input'. A French HR assistant's evaluation runs."""
    keep(docs, question, 1)
    (doc,) = docs
    reference = first_sentence(doc)
    data = {"question": question, "context": doc.text, "answer": reference}
    if v02:
        prompt = (
            f"{RAGAS_INSTRUCTION}\nPlease return the output in a JSON format that complies with the following schema as specified in JSON Schema:\n"
            f"{RAGAS_SCHEMA}Do not use single quotes in your response but double quotes,properly escaped with a backslash.\n\n"
            f"--------EXAMPLES-----------\nExample 1\nInput: {json.dumps(RAGAS_EXAMPLE, indent=4)}\nOutput: {json.dumps(RAGAS_VERDICT, indent=4)}\n"
            "-----------------------------\n\nNow perform the same with the following input\n"
            f"input: {json.dumps(data, indent=4, ensure_ascii=False)}\nOutput: "
        )
    else:
        example = "\n".join(f"{k}: {json.dumps(v)}" for k, v in RAGAS_EXAMPLE.items())
        actual = "\n".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items())
        prompt = (
            f"{RAGAS_INSTRUCTION}\n\nThe output should be a well-formatted JSON instance that conforms to the JSON schema below.\n\n"
            f"Here is the output JSON schema:\n```\n{RAGAS_SCHEMA}\n```\n\nDo not return any preamble or explanations, return only a pure JSON string surrounded by triple backticks (```).\n\n"
            f"Examples:\n\n{example}\nverification: ```{json.dumps(RAGAS_VERDICT)}```\n\nYour actual task:\n\n{actual}\nverification: \n"
        )
    return [_msg("user", prompt)]


ragas_context_precision_fr = halves(_ragas)


def gorilla_api(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Gorilla's retriever-aware inference (from memory of the gorilla repository): the user's request, then
    'Use this API documentation for reference: ' and the top retrieved API entry as its JSON; one API per
    request. The model answers in Gorilla's <<<domain>>> / <<<api_call>>> … format."""
    keep(docs, question, 1)
    return [_msg("user", f"{question}\nUse this API documentation for reference: {docs[0].text}")]


def pubmed_tool(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's PubmedQueryRun in a tool-calling agent (from memory of PubMedAPIWrapper.run): at most three
    articles, each 'Published: …\\nTitle: …\\nCopyright Information: …\\nSummary::\\n<abstract>', joined by
    blank lines; structured abstracts keep their section lines."""
    keep(docs, question, 3)
    target = target_of(docs, question)
    call = _tool_call("pub_med", {"query": " ".join(target.title.split()[:6])}, rng)
    entries = []
    for d in docs:
        _, published, copyright_ = d.source.split("|")
        entries.append(
            f"Published: {published}\nTitle: {d.title}\nCopyright Information: {copyright_}\nSummary::\n{d.text}"
        )
    return [_msg("system", "You are a biomedical research assistant. Search PubMed before answering and cite the studies you use."),
            _msg("user", question), call,
            _msg("tool", "\n\n".join(entries), tool_call_id=call["tool_calls"][0]["id"])]  # fmt: skip


EXTRACTOR = """Given the following question and context, extract any part of the context *AS IS* that is relevant to answer the question. If none of the context is relevant return NO_OUTPUT. 

Remember, *DO NOT* edit the extracted parts of the context.

> Question: {question}
> Context:
>>>
{context}
>>>
Extracted relevant parts:"""
STUFF_SYSTEM = "Use the following pieces of context to answer the user's question. \nIf you don't know the answer, just say that you don't know, don't try to make up an answer.\n----------------\n{context}"


def compression_router_uk(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A LangChain ContextualCompressionRetriever + RetrievalQA pipeline (from memory of LLMChainExtractor's
    and the stuff chain's chat prompts): the service sends two kinds of calls, routed per request. The
    extractor's, one document each: the question and the document between '>>>' lines. The answer call: the
    kept documents joined by blank lines in the system message under a '----------------' rule, the question
    as the user turn. Ukrainian public services (ЦНАП, Дія)."""
    if rng.random() < 0.5:
        keep(docs, question, 1)
        return [_msg("user", EXTRACTOR.replace("{question}", question).replace("{context}", docs[0].text))]
    keep(docs, question, 4)
    return [
        _msg("system", STUFF_SYSTEM.replace("{context}", "\n\n".join(d.text for d in docs))),
        _msg("user", question),
    ]


CODEX_SYSTEM = "You are Codex, based on GPT-5. You are running as a coding agent in the Codex CLI on a user's computer.\n\n## General\n\n- When searching for text or files, prefer using `rg` or `rg --files` respectively because `rg` is much faster than alternatives like `grep`.\n- Default to ASCII when editing or creating files."
PT_TASKS = ["Oi! Vou trabalhar nesse repo hoje.", "Bom dia, vamos começar."]


def codex_agents_md_pt(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Codex CLI's AGENTS.md instructions (from memory of codex-rs): the user's ~/.codex/AGENTS.md (when they
    have one) and the project's AGENTS.md files from the repository root down to the working directory, the
    project files joined by blank lines and set after the user's file with the '--- project-doc ---'
    separator, all in '<user_instructions>'; then '<environment_context>' and the user's message. A Brazilian
    monorepo; the working directory follows the file the question is about."""
    target = target_of(docs, question)
    from_pool = {d.source: d for d in PT_AGENTS}
    cwd = (
        target.source.rsplit("/", 1)[0] if "/" in target.source and not target.source.startswith("~") else ""
    )
    if not cwd and target.source.startswith("~"):
        cwd = rng.choice(["", "api", "web", "infra", "api/pagamentos"])
    chain = ["AGENTS.md"] + [
        f"{'/'.join(cwd.split('/')[: i + 1])}/AGENTS.md" for i in range(len(cwd.split("/")) if cwd else 0)
    ]
    project = [from_pool[s] for s in chain]
    user_doc = (
        from_pool["~/.codex/AGENTS.md"] if target.source.startswith("~") or rng.random() < 0.5 else None
    )
    docs[:] = ([user_doc] if user_doc else []) + project
    project_text = "\n\n".join(d.text for d in project)
    instructions = f"{user_doc.text}\n\n--- project-doc ---\n\n{project_text}" if user_doc else project_text
    root = "/Users/camila/code/feira-digital"
    env = (
        f"<environment_context>\n  <cwd>{root}{'/' + cwd if cwd else ''}</cwd>\n  <approval_policy>on-request</approval_policy>\n"
        "  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>fish</shell>\n</environment_context>"
    )
    history: Messages = []
    if rng.random() < 0.3:
        history = [
            _msg("user", rng.choice(PT_TASKS)),
            _msg("assistant", "Beleza! O que você quer fazer primeiro?"),
        ]
    return [_msg("system", CODEX_SYSTEM), _msg("user", f"<user_instructions>\n\n{instructions}\n\n</user_instructions>"),
            _msg("user", env), *history, _msg("user", question)]  # fmt: skip


BEDROCK_CHAT_RAG = """To answer the user's question, you are given a set of search results. Your job is to answer the user's question using only information from the search results.
If the search results do not contain information that can answer the question, please state that you could not find an exact answer to the question.
Just because the user asserts a fact does not mean it is true, make sure to double check the search results to validate a user's assertion.

Here are the search results in numbered order:
<search_results>
{context}
</search_results>

Do NOT directly quote the <search_results> in your answer. Your job is to answer the user's question as concisely as possible.

If you reference information from a search result within your answer, you must include a citation to source where the information was found.
Each result has a corresponding source ID that you should reference.

Note that <sources> may contain multiple <source> if you include information from multiple results in your answer.

Do NOT outputs sources at the end of your answer.

Followings are examples of how to reference sources in your answer. Note that the source ID is embedded in the answer in the format [^<source_id>].

<GOOD-example>
first answer [^3]. second answer [^1][^2].
</GOOD-example>"""
JA_BOT_INSTRUCTION = (
    "あなたは株式会社ミナトの社内規程に詳しいアシスタントです。丁寧な日本語で回答してください。"
)
JA_HISTORY = [
    (
        "出張の精算について聞きたいです。",
        "はい、出張旅費や経費精算についてお答えします。どのような点でしょうか？[^1]",
    )
]


def bedrock_claude_chat_ja(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """aws-samples/bedrock-chat (Bedrock Claude Chat) with a knowledge-enabled bot (from memory of its
    build_rag_prompt): the bot's own instruction, then the RAG system prompt with each retrieved chunk as
    '<search_result>\\n<content>\\n…\\n</content>\\n<source>\\nrank\\n</source>\\n</search_result>' inside
    <search_results>, the citation rules; earlier turns, the question. A Japanese company's regulations."""
    context = "\n".join(
        f"<search_result>\n<content>\n{d.text}\n</content>\n<source>\n{i}\n</source>\n</search_result>"
        for i, d in enumerate(docs, 1)
    )
    system = f"{JA_BOT_INSTRUCTION}\n\n{BEDROCK_CHAT_RAG.replace('{context}', context)}"
    history = [m for u, a in JA_HISTORY[: rng.randint(0, 1)] for m in (_msg("user", u), _msg("assistant", a))]
    return [_msg("system", system), *history, _msg("user", question)]


HU_AGENT_SYSTEM = "Te egy segítőkész asszisztens vagy. Ha friss vagy pontos adatra van szükség, használd a WebSearch bővítményt, és magyarul válaszolj."


def sk_bing_plugin_hu(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Semantic Kernel's WebSearchEnginePlugin over the Bing connector with automatic function calling (from
    memory): the model calls 'WebSearch-Search' with the query and count, and the function result is the
    snippets as a JSON array of strings (System.Text.Json with relaxed escaping, so accented letters stay as
    they are). A Hungarian assistant."""
    call = _tool_call("WebSearch-Search", {"query": question, "count": len(docs)}, rng)
    result = json.dumps([d.text for d in docs], ensure_ascii=False, separators=(",", ":"))
    return [_msg("system", HU_AGENT_SYSTEM), _msg("user", question), call,
            _msg("tool", result, tool_call_id=call["tool_calls"][0]["id"])]  # fmt: skip


TRULENS_SYSTEM = """You are a RELEVANCE grader; providing the relevance of the given CONTEXT to the given QUESTION.
Respond only as a number from 0 to 3, where 0 is the lowest score according to the criteria and 3 is the highest possible score.

A few additional scoring guidelines:

- Long CONTEXTS should score equally well as short CONTEXTS.

- RELEVANCE score should increase as the CONTEXTS provides more RELEVANT context to the QUESTION.

- RELEVANCE score should increase as the CONTEXTS provides RELEVANT context to more parts of the QUESTION.

- CONTEXT that is RELEVANT to some of the QUESTION should score of 1.

- CONTEXT that is RELEVANT to most of the QUESTION should get a score of 2.

- CONTEXT that is RELEVANT to the entire QUESTION should get a score of 3, which is the full mark.

- CONTEXT must be relevant and helpful for answering the entire QUESTION to get a score of 3.

Never elaborate."""


def trulens_context_relevance_ar(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """TruLens' context relevance feedback (from memory of its v1 prompts): the grader system prompt, and a
    user turn 'QUESTION: …\\n\\nCONTEXT: …\\n\\nRELEVANCE: ' with one retrieved chunk per call. Evaluating
    an Arabic government-services assistant."""
    keep(docs, question, 1)
    return [
        _msg("system", TRULENS_SYSTEM),
        _msg("user", f"QUESTION: {question}\n\nCONTEXT: {docs[0].text}\n\nRELEVANCE: "),
    ]


MAP_RERANK = """Use the following pieces of context to answer the question at the end. If you don't know the answer, just say that you don't know, don't try to make up an answer.

In addition to giving an answer, also return a score of how fully it answered the user's question. This should be in the following format:

Question: [question here]
Helpful Answer: [answer here]
Score: [score between 0 and 100]

How to determine the score:
- Higher is a better answer
- Better responds fully to the asked question, with sufficient level of detail
- If you do not know the answer based on the context, that should be a score of 0
- Don't be overconfident!

Example #1

Context:
---------
Apples are red
---------
Question: what color are apples?
Helpful Answer: red
Score: 100

Example #2

Context:
---------
it was night and the witness forgot his glasses. he was not sure if it was a sports car or an suv
---------
Question: what type was the car?
Helpful Answer: a sports car or an suv
Score: 60

Example #3

Context:
---------
Pears are either red or orange
---------
Question: what color are apples?
Helpful Answer: This document does not answer the question
Score: 0

Begin!

Context:
---------
{context}
---------
Question: {question}
Helpful Answer:"""


def map_rerank_fa(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain's map_rerank QA chain (from memory of its prompt): one call per retrieved document, three
    worked examples with their own contexts between '---------' rules, then 'Begin!' and the document the
    same way, 'Question:', 'Helpful Answer:'. A Persian university's regulations."""
    keep(docs, question, 1)
    return [_msg("user", MAP_RERANK.replace("{context}", docs[0].text).replace("{question}", question))]


def self_rag(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Self-RAG's inference format (from memory of the selfrag repository): '### Instruction:\\n…\\n\\n###
    Response:\\n' then '[Retrieval]<paragraph>title\\ntext</paragraph>'; one evidence passage per call, the
    model continuing with its reflection tokens."""
    keep(docs, question, 1)
    d = docs[0]
    return [
        _msg(
            "user",
            f"### Instruction:\n{question}\n\n### Response:\n[Retrieval]<paragraph>{d.title}\n{d.text}</paragraph>",
        )
    ]


def _gorilla(target: Doc, rng: random.Random) -> tuple[str, bool]:
    api = json.loads(target.text)
    return (
        f"<<<domain>>>: {api['domain']}\n<<<api_call>>>: {api['api_call']}\n<<<api_provider>>>: {api['framework']}\n"
        f"<<<explanation>>>: {target.answer}\n<<<code>>>: {api['example_code']}"
    ), False


def _lynx(target: Doc, rng: random.Random) -> tuple[str, bool]:
    verdict = rng.choice(["PASS", "PASS", "FAIL"])
    reasons = [
        "The question asks about the medicine's use.",
        f"The DOCUMENT states: {first_sentence(target)}",
    ]
    return json.dumps({"REASONING": reasons, "SCORE": verdict}), False


def _ragas_verdict(target: Doc, rng: random.Random) -> tuple[str, bool]:
    verdict = json.dumps(
        {"reason": "Le contexte contient l'information utilisée dans la réponse.", "verdict": 1},
        ensure_ascii=False,
    )
    return (f"```{verdict}```" if rng.random() < 0.5 else verdict), False


def _relevance(target: Doc, rng: random.Random) -> tuple[str, bool]:
    return rng.choice(["3", "3", "2"]), False


def _map_rerank(target: Doc, rng: random.Random) -> tuple[str, bool]:
    return f"{first_sentence(target)}\nScore: {rng.choice([100, 90, 80])}", False


def _self_rag(target: Doc, rng: random.Random) -> tuple[str, bool]:
    planted = rng.random() < 0.3
    if planted:
        return (
            f"[Relevant]{first_sentence(target)} It was renamed in 1990.[Partially supported][Utility:4]",
            True,
        )
    return f"[Relevant]{first_sentence(target)}[Fully supported][Utility:5]", False


def _footnoted(target: Doc, rng: random.Random) -> tuple[str, bool]:
    planted = rng.random() < 0.4
    tail = "なお、役員は対象外です。" if planted else ""
    return f"{first_sentence(target)}[^{rng.randint(1, 3)}]{tail}", planted


def _extracted(target: Doc, rng: random.Random) -> tuple[str, bool]:
    planted = rng.random() < 0.3
    return first_sentence(target) + (" Послуга також доступна в посольствах." if planted else ""), planted


FABRICATED = {
    "en": " The dose should be doubled for children.", "es": " Además, la entrada es gratuita los lunes.",
    "tr": " Ayrıca pazartesi günleri girişler ücretsizdir.", "it": " Inoltre, l'ingresso è gratuito per gli over 65.",
    "id": " Selain itu, lansia mendapat potongan 50 persen.", "sv": " Dessutom är det gratis för pensionärer på måndagar.",
    "fr": " Par ailleurs, ce droit est doublé pour les cadres.", "pt": " Além disso, todo PR precisa de três aprovações.",
    "ja": " なお、役員は対象外です。", "hu": " Ráadásul hétfőnként ingyenes a belépés.",
    "ar": " كما يمكن تقديم الطلب عبر السفارات.", "fa": " همچنین دانشجویان شاهد از این قانون معاف هستند.",
    "uk": " Послуга також доступна в посольствах.",
}  # fmt: skip
PREAMBLE = {
    "en": "According to the sources, ", "es": "Según los pasajes, ", "tr": "Arama sonuçlarına göre, ",
    "it": "Secondo le notizie, ", "id": "Menurut hasil pencarian, ", "sv": "Enligt sökresultaten ",
    "fr": "D'après la politique RH, ", "pt": "Pelo AGENTS.md, ", "ja": "規程によると、", "hu": "A találatok szerint ",
    "ar": "وفقاً للمعلومات، ", "fa": "طبق آیین‌نامه، ", "uk": "Відповідно до документів, ",
}  # fmt: skip
STYLES: dict[str, Answer] = {
    "gorilla/": _gorilla, "med/": _lynx, "fr/": _ragas_verdict, "ar/": _relevance, "fa/": _map_rerank,
    "wiki/": _self_rag, "ja/": _footnoted, "uk/": _extracted,
}  # fmt: skip

SERVICES = [
    ("enciclopedia-chain-of-note-es", "Chain-of-Note reading-notes prompt (Yu et al. 2023, from memory)", "Spanish Wikipedia: one user message, five-step task description, 'Question:', 'Wikipedia Passage i: text' lines (top 5)", ES_WIKI, chain_of_note_es),
    ("rehber-step-back-tr", "LangChain stepback-qa-prompting template (from memory)", "Turkish web snippets: one user message, two contexts on consecutive lines, each a search's snippets joined by single spaces, 'Original Question:', 'Answer:'", TR_SNIPPETS, step_back_tr),
    ("notizie-cookbook-rerank-it", "OpenAI cookbook 'Question answering using a search API and re-ranking' final prompt (from memory)", "Italian news: one user message, TOP_RESULTS as a Python-printed list of {title, description, url} dicts, USER_QUESTION (top 5)", IT_NEWS, cookbook_news_it),
    ("cari-brave-mcp-id", "MCP Brave Search server brave_web_search result (from memory)", "Indonesian web: system, question, tool call, tool message 'Title/Description/URL' blocks joined by blank lines, <strong> highlights in descriptions", ID_WEB, brave_mcp_id),
    ("resa-duckduckgo-results-sv", "LangChain DuckDuckGoSearchResults tool (from memory)", "Swedish web: system, optional history, question, tool call, tool message '[snippet: …, title: …, link: …]' joined by ', '", SV_WEB, duckduckgo_results_sv),
    ("pharma-lynx-judge", "Patronus AI Lynx hallucination judge prompt (from memory)", "English medicine leaflets: one user message, QUESTION, DOCUMENT (chunks joined by blank lines), ANSWER under test, JSON output instruction", EN_MED, lynx_med),
    ("rh-ragas-precision-fr", "RAGAS context precision, 0.1 then 0.2 after an upgrade (from memory)", "French HR policies: one context per call; first half JSON-quoted 'question/context/answer:' values after an example; second half PydanticPrompt with schema, examples and indented JSON input", FR_RH, ragas_context_precision_fr),
    ("apihub-gorilla", "Gorilla retriever-aware inference prompt (from memory)", "API docs: one user message, the request then 'Use this API documentation for reference: ' + one API entry as JSON", EN_APIS, gorilla_api),
    ("clinic-pubmed-tool", "LangChain PubmedQueryRun tool in a tool-calling agent (from memory)", "PubMed abstracts: system, question, pub_med call, tool message 'Published/Title/Copyright Information/Summary::' blocks joined by blank lines (top 3)", EN_PUBMED, pubmed_tool),
    ("tsnap-compression-router-uk", "LangChain LLMChainExtractor + RetrievalQA stuff chat prompt, two call kinds routed per request (from memory)", "Ukrainian public services: extractor calls (question, one document between '>>>' lines) or answer calls (system with documents joined by blank lines under a rule, question)", UK_DOCS, compression_router_uk),
    ("feira-codex-agents-md-pt", "Codex CLI AGENTS.md user instructions (from memory)", "Portuguese monorepo: system, user '<user_instructions>' with the user's AGENTS.md, '--- project-doc ---', project AGENTS.md files root to cwd joined by blank lines; '<environment_context>'; optional history; the message", PT_AGENTS, codex_agents_md_pt),
    ("minato-bedrock-chat-ja", "aws-samples Bedrock Claude Chat RAG system prompt (from memory)", "Japanese company rules: system = bot instruction + RAG prompt with '<search_result><content>…</content><source>n</source></search_result>' blocks; 0-1 history exchange; question", JA_MANUAL, bedrock_claude_chat_ja),
    ("kereso-sk-bing-hu", "Semantic Kernel WebSearchEnginePlugin (Bing) with auto function calling (from memory)", "Hungarian web: system, question, 'WebSearch-Search' call, tool message a JSON array of snippet strings", HU_WEB, sk_bing_plugin_hu),
    ("khadamat-trulens-relevance-ar", "TruLens context relevance feedback prompt (from memory)", "Arabic government services: grader system prompt, user 'QUESTION: …\\n\\nCONTEXT: …\\n\\nRELEVANCE: ', one chunk per call", AR_DOCS, trulens_context_relevance_ar),
    ("daneshgah-map-rerank-fa", "LangChain map_rerank QA prompt (from memory)", "Persian university rules: one user message per document, three worked examples with their own '---------' contexts, 'Begin!', the document the same way", FA_DOCS, map_rerank_fa),
    ("trivia-self-rag", "Self-RAG inference format (from memory)", "English encyclopedia: one user message, '### Instruction:', '### Response:', '[Retrieval]<paragraph>title\\ntext</paragraph>', one passage per call", EN_WIKI2, self_rag),
]  # fmt: skip


def build() -> None:
    write_long_wave(
        "wave_v", HERE, SERVICES, seed=23900, answer=answers(PREAMBLE, FABRICATED, STYLES), as_sent=as_sent
    )


if __name__ == "__main__":
    build()
