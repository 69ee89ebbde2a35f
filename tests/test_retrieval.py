"""Issue 34: stemmed search in each document's language, embeddings kept in the store (reused for
unchanged chunk texts), keyword/vector/hybrid search, contexts within a token budget with merged
neighbours, and the LangChain and LlamaIndex adapters' conventions. Real text files and PDFs, real
SQLite files and the real PostgreSQL (``db_url`` runs each test on both)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import text

from citeline.batch import IngestOptions, ingest_files
from citeline.cli import cli
from citeline.store import Store
from citeline.store import db as store_db
from citeline.store.records import ChunkInfo, passage_block

EN_TEXT = (
    "The Zürich café study. We recruited a total of ten participants for the laboratory study, and each "
    "participant was paid for the hour that the session lasted.\n\n"
    "Results. The readers who used the tool opened more citations than the others, and they said that the "
    "citations were useful for the work that they had to do in the study.\n"
)
FR_TEXT = (
    "Les médecins de l'hôpital de Genève travaillaient dans les services de nuit pendant que les patients "
    "étaient suivis par une équipe qui ne dormait pas. Le comité a publié le rapport pour les familles.\n"
)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def indexed_texts(db_url: str, folder: Path, files: dict[str, str]) -> Store:
    """A store of ``files`` (name: text), written into ``folder`` and ingested without a failure."""
    folder.mkdir()
    for name, content in files.items():
        (folder / name).write_text(content, encoding="utf-8")
    store = Store(db_url)
    assert ingest_files(store, [folder], IngestOptions(workers=1)).count("failed") == 0
    return store


@pytest.fixture
def texts(db_url: str, tmp_path: Path) -> Store:
    return indexed_texts(db_url, tmp_path / "docs", {"study_en.txt": EN_TEXT, "hopital_fr.txt": FR_TEXT})


# ----------------------------------------------------------------------------- 1. stemmed search


def test_each_document_is_stored_with_its_language(texts: Store) -> None:
    _, rows = texts.sql("SELECT d.uri, v.language FROM document_versions v JOIN documents d ON d.id = v.document_id")
    assert dict(rows) == {"study_en.txt": "en", "hopital_fr.txt": "fr"}


@pytest.mark.parametrize(
    ("query", "document"),
    [
        ("participant", "study_en.txt"),  # the text says "participants"
        ("recruit participants", "study_en.txt"),  # "recruited"
        ("citation used", "study_en.txt"),  # "citations", "used"
        ('"recruiting a total"', "study_en.txt"),  # a phrase, stemmed word by word
        ("médecin travailler", "hopital_fr.txt"),  # French: "médecins travaillaient"
        ("publiés", "hopital_fr.txt"),  # "publié"
    ],
)
def test_a_word_finds_its_other_forms_in_the_documents_language(texts: Store, query: str, document: str) -> None:
    hits = texts.search(query, k=3)
    assert hits, query
    assert hits[0].document == document
    # the snippet still shows the words as the text writes them
    assert hits[0].snippet.strip("…")[:20] in " ".join(hits[0].text.split())


def test_stemming_is_applied_to_the_query_not_only_to_the_index(texts: Store) -> None:
    """An unrelated word sharing no stem finds nothing (all words must occur, or some of them)."""
    assert texts.search("zzyzx participation", k=3)[0].document == "study_en.txt"  # participation -> particip
    assert texts.search("zzyzx", k=3) == []


def test_postgresql_reads_a_query_once_per_reading_and_ranks_a_bounded_set(
    texts: Store, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL's top n (issue 34, at 100,000 chunks): the query read in each configuration with
    each distinct reading once (repeats made the planner scan every row), and at most
    ``PG_RANKED_ROWS`` matches ranked, never fewer than ``k``."""
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's tsquery and top n")
    from citeline.store.search import keyword, pg_tsqueries, pg_tsquery

    configs = ["english", "french", "german", "simple"]
    with texts.engine.connect() as conn:
        each = {conn.scalar(text(f"SELECT CAST(to_tsquery('{c}', :q) AS text)"), {"q": "'médecins'"}) for c in configs}
        reading = pg_tsquery(conn, "'médecins'", configs)
        assert reading is not None
        assert sorted(b.strip("() ") for b in reading.split(" | ")) == sorted(each)  # each reading once
        assert len(each) < len(configs)  # two configurations read it alike: once in the query
        assert pg_tsquery(conn, "'the' & 'of'", ["english"]) is None  # stop words only
        # in one round trip; "the" is a stop word in English, a word in 'simple': read once
        assert pg_tsqueries(conn, ["'médecins'", "'the'"], configs) == [reading, "'the'"]
    both = "participants OR médecins"
    ranked = [(h.chunk_id, h.score) for h in texts.search(both, k=2)]
    assert {h.document for h in texts.search(both, k=2)} == {"study_en.txt", "hopital_fr.txt"}
    monkeypatch.setattr(keyword, "PG_RANKED_ROWS", 1)
    assert [(h.chunk_id, h.score) for h in texts.search(both, k=2)] == ranked  # k=2 still ranks two
    assert len(texts.search(both, k=1)) == 1


def test_the_migration_reindexes_an_existing_store_stemmed(texts: Store, db_url: str) -> None:
    texts.close()
    engine = store_db.make_engine(db_url)
    store_db.downgrade(engine, "0005")  # the unstemmed index of revision 0005
    sqlite = engine.dialect.name == "sqlite"
    probe = (
        "SELECT count(*) FROM chunk_search WHERE chunk_search MATCH 'particip'"
        if sqlite
        else "SELECT count(*) FROM chunks WHERE search @@ to_tsquery('simple', 'particip')"
    )
    with engine.connect() as conn:
        assert conn.scalar(text(probe)) == 0
    store_db.upgrade(engine)
    store_db.check(engine)
    with engine.connect() as conn:
        if sqlite:
            assert conn.scalar(text(probe)) == 1
        else:
            found = "SELECT count(*) FROM chunks WHERE search @@ to_tsquery('english', 'participant')"
            assert conn.scalar(text(found)) == 1
    engine.dispose()
    with Store(db_url) as store:
        assert store.search("participant", k=1)[0].document == "study_en.txt"
        assert store.search("médecin", k=1)[0].document == "hopital_fr.txt"


# ----------------------------------------------------------------------------- 2. embeddings

PAGE_TOPICS = [
    "Die Brücke über den Fluss wurde im Jahr {n} gebaut, und die Stadtverwaltung prüft sie jedes Frühjahr.",
    "The harbour authority recorded {n} ships in the winter season, most of them carrying grain and timber.",
    "Le musée a accueilli {n} visiteurs pendant l'été, surtout des familles venues de la région.",
    "The laboratory measured the water temperature {n} times a day during the experiment in the lake.",
]


def write_pdf(path: Path, changed_page: int | None = None) -> None:
    """A four-page PDF, each page its own paragraphs (non-ASCII text in Latin-1, which the PDF core
    fonts hold); ``changed_page`` gets other words."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for page, topic in enumerate(PAGE_TOPICS, start=1):
        pdf.add_page()
        for n in range(1, 9):
            sentence = topic.format(n=n * 100 + page)
            if page == changed_page:
                sentence = sentence.replace("the", "this").replace("die", "jene").replace("le", "ce")
            pdf.multi_cell(0, 6, sentence)
            pdf.ln(3)
    pdf.output(str(path))


def small_chunks(store: Store, folder: Path) -> None:
    from citeline.ingest.pipeline import PipelineSettings

    options = IngestOptions(workers=1, settings=PipelineSettings(chunk_target=400, chunk_overlap=150))
    summary = ingest_files(store, [folder], options)
    assert summary.count("failed") == 0


def test_reingesting_a_changed_page_embeds_only_the_chunks_whose_text_changed(db_url: str, tmp_path: Path) -> None:
    from citeline.store.embeddings import HashingEmbedder

    folder = tmp_path / "pdf"
    folder.mkdir()
    write_pdf(folder / "report.pdf")
    embedder = HashingEmbedder(64)
    with Store(db_url) as store:
        small_chunks(store, folder)
        first = store.embed(embedder)
        before = {c.text_sha256 for c in store.iter_chunks()}
        assert first.chunks >= 8
        assert first.embedded == len(before)
        assert first.reused == first.chunks - len(before)
        assert store.embed(embedder).embedded == 0  # nothing new

        write_pdf(folder / "report.pdf", changed_page=3)
        small_chunks(store, folder)
        current = list(store.iter_chunks())
        assert {c.version_no for c in current} == {2}
        new_texts = {c.text_sha256 for c in current} - before
        assert 0 < len(new_texts) < len(current) // 2  # the changed page's chunks, not the whole file
        assert len(store.needs_embedding(embedder.name)) == sum(c.text_sha256 in new_texts for c in current)
        second = store.embed(embedder)
        assert (second.embedded, second.chunks) == (len(new_texts), len(current))
        assert second.reused == len(current) - sum(c.text_sha256 in new_texts for c in current)
        assert store.needs_embedding(embedder.name) == []
        # another model's vectors are its own
        assert len(store.needs_embedding("another-model")) == len(current)


def test_vector_and_hybrid_search(texts: Store) -> None:
    from citeline.store import QueryError
    from citeline.store.embeddings import HashingEmbedder

    embedder = HashingEmbedder(128)
    texts.embed(embedder)
    # no keyword matches all words, but the vectors share "participants" and "laboratory"
    vector = texts.search("participants laboratory zzyzx", k=2, mode="vector", embedder=embedder)
    assert vector[0].document == "study_en.txt"
    assert vector[0].score > vector[1].score
    hybrid = texts.search("médecins hôpital", k=3, mode="hybrid", embedder=embedder)
    assert hybrid[0].document == "hopital_fr.txt"
    assert "médecins" in hybrid[0].snippet
    assert texts.search("médecins", k=3, mode="hybrid", embedder=embedder, document="study_*")[0].document == (
        "study_en.txt"
    )
    with pytest.raises(QueryError, match="needs an embedder"):
        texts.search("x", mode="vector")
    with pytest.raises(QueryError, match="gives 64 values, the stored vectors have 128"):
        texts.search("x", mode="vector", embedder=_renamed(HashingEmbedder(64)))


def _renamed(embedder: object) -> object:
    embedder.name = "citeline-test-hashing-128"  # type: ignore[attr-defined]
    return embedder


def test_embed_search_and_changes_commands(texts: Store, db_url: str) -> None:
    code, out, _ = run("--db", db_url, "changes", "--needs-embedding", "citeline-test-hashing-32")
    assert code == 0
    waiting = [json.loads(line) for line in out.splitlines()]
    assert {w["change"] for w in waiting} == {"needs_embedding"}
    assert len(waiting) >= 2
    code, out, _ = run("--db", db_url, "embed", "--embedder", "hashing:32")
    assert code == 0
    assert json.loads(out) == {
        "model": "citeline-test-hashing-32",
        "embedded": len(waiting),
        "reused": 0,
        "chunks": len(waiting),
    }
    assert run("--db", db_url, "changes", "--needs-embedding", "citeline-test-hashing-32")[1] == ""
    code, out, _ = run(
        "--db", db_url, "search", "médecin", "--mode", "hybrid", "--embedder", "hashing:32", "--format", "jsonl"
    )
    assert code == 0
    assert json.loads(out.splitlines()[0])["document"] == "hopital_fr.txt"
    code, _, err = run("--db", db_url, "search", "médecin", "--mode", "vector")
    assert (code, err.strip()) == (2, "Error: --mode vector needs --embedder (the one `citeline embed` used)")
    code, _, err = run("--db", db_url, "changes")
    assert (code, err.strip()) == (2, "Error: changes needs --since or --needs-embedding")
    code, _, err = run("--db", db_url, "embed", "--embedder", "no_such_module_zz:thing")
    assert code != 0
    assert err.startswith("Error: Embedder 'no_such_module_zz:thing': No module named")
    assert len(err.strip().splitlines()) == 1


# ----------------------------------------------------------------------------- 3. contexts that fit a prompt


@pytest.fixture
def report_pdf(db_url: str, tmp_path: Path) -> Store:
    folder = tmp_path / "pdf"
    folder.mkdir()
    write_pdf(folder / "report.pdf")
    store = Store(db_url)
    small_chunks(store, folder)
    return store


def overlapping_pair(store: Store) -> tuple[ChunkInfo, ChunkInfo]:
    chunks = list(store.iter_chunks())
    return next((a, b) for a, b in itertools.pairwise(chunks) if b.clean_start < a.clean_end)


def test_overlapping_neighbours_are_one_passage_under_one_marker(report_pdf: Store) -> None:
    a, b = overlapping_pair(report_pdf)
    shared = a.text[b.clean_start - a.clean_start :]
    assert len(shared) >= 10
    assert b.text.startswith(shared)
    ctx = report_pdf.create_context([b.chunk_id, a.chunk_id], merge=True)
    assert ctx.sources == (("S1", a.chunk_id), ("S1~2", b.chunk_id))  # in reading order, one marker
    assert ctx.prompt.count("[S1]") == 1
    assert "[S2]" not in ctx.prompt
    assert ctx.prompt.count(shared) == 1  # the shared text once
    assert a.text + b.text[len(shared) :] in ctx.prompt
    # without merging, both chunks and the shared text twice (what the issue found)
    plain = report_pdf.create_context([a.chunk_id, b.chunk_id])
    assert plain.prompt.count(shared) == 2
    assert "[S2]" in plain.prompt


def test_a_quote_from_a_merged_passage_resolves_to_exact_source_offsets(report_pdf: Store) -> None:
    from citeline import verify_answer
    from citeline.verify.fold import fold

    a, b = overlapping_pair(report_pdf)
    ctx = report_pdf.create_context([a.chunk_id, b.chunk_id], merge=True)
    tail = b.text[a.clean_end - b.clean_start :]  # only in the second chunk
    shared = b.text[: a.clean_end - b.clean_start]
    # the pages repeat one sentence with other numbers: each quote holds a number of its own
    within = " ".join(tail.split()[-14:])
    across = " ".join(a.text[: b.clean_start - a.clean_start].split()[-3:] + shared.split() + tail.split()[:9])
    assert within not in a.text
    assert across not in a.text
    assert across not in b.text
    quotes = [within, across]
    answer = {
        "answer": "The report says so [S1]. It says this too [S1].",
        "citations": [{"marker": "S1", "quote": q, "claim": "It says so."} for q in quotes],
    }
    report = verify_answer(report_pdf, answer, context_id=ctx.context_id)
    raw = report_pdf.raw_text(a.version_id)
    for quote, result in zip(quotes, report.citations, strict=True):
        assert result.status == "verified", (quote, result.reason)
        assert result.location is not None
        assert fold(raw[result.location.start : result.location.end]).text.split() == fold(quote).text.split()
        assert result.chunk_id in (a.chunk_id, b.chunk_id)


def test_max_tokens_keeps_the_passages_that_fit(report_pdf: Store) -> None:
    from citeline import QueryError
    from citeline.ingest.chunker import approx_tokens

    chunks = list(report_pdf.iter_chunks())
    far = [chunks[0], chunks[7], chunks[3]]  # no two neighbours: three passages, the middle one longest
    costs = [approx_tokens(passage_block(f"S{i}", [c])) for i, c in enumerate(far, start=1)]
    assert costs[1] > costs[2]
    fitted = report_pdf.create_context([c.chunk_id for c in far], merge=True, max_tokens=costs[0] + costs[2])
    # the second does not fit after the first; the third, smaller, still does
    assert fitted.sources == (("S1", far[0].chunk_id), ("S3", far[2].chunk_id))
    assert approx_tokens(fitted.prompt) - approx_tokens(fitted.prompt.split("\n", 1)[0]) <= costs[0] + costs[2] + 1
    with pytest.raises(QueryError, match=r"--max-tokens 3: no passage fits \(the first alone is \d+ tokens\)"):
        report_pdf.create_context([c.chunk_id for c in far], max_tokens=3)


def test_context_command_merges_and_budgets(report_pdf: Store, db_url: str) -> None:
    a, b = overlapping_pair(report_pdf)
    code, out, _ = run("--db", db_url, "context", a.chunk_id, b.chunk_id, "--format", "json")
    assert code == 0
    payload = json.loads(out)
    assert payload["sources"] == {"S1": a.chunk_id, "S1~2": b.chunk_id}
    assert payload["prompt"].count("[S1]") == 1
    code, out, _ = run("--db", db_url, "context", a.chunk_id, b.chunk_id, "--no-merge")
    assert code == 0
    assert "[S2]" in out
    code, _, err = run("--db", db_url, "context", a.chunk_id, "--max-tokens", "2")
    assert code == 2
    assert err.startswith("Error: --max-tokens 2: no passage fits (the first alone is ")
    code, _, err = run("--db", db_url, "context", a.chunk_id, "--markers", "Ü~1")
    assert code != 0
    assert "holds '~'" in err


def test_search_context_merges_and_budgets_as_the_context_command_does(report_pdf: Store, db_url: str) -> None:
    """``search --context`` makes its context through the same ``create_context`` as ``context``:
    the two neighbours a phrase of their shared text finds are one passage under one marker."""
    import re

    from citeline.ingest.chunker import approx_tokens

    a, b = overlapping_pair(report_pdf)
    shared = a.text[b.clean_start - a.clean_start :]
    phrase = " ".join(shared.split()[1:-1])  # whole words only: the overlap may start inside one
    assert len(phrase.split()) >= 2
    assert any(ord(ch) > 127 for ch in a.text + b.text)  # the fixture's German and French
    query = f'"{phrase}"'
    code, out, _ = run("--db", db_url, "search", query, "--k", "2", "--format", "jsonl")
    assert code == 0
    ranked = [json.loads(line)["chunk_id"] for line in out.splitlines()]
    assert set(ranked) == {a.chunk_id, b.chunk_id}

    code, out, _ = run("--db", db_url, "search", query, "--k", "2", "--context", "--format", "jsonl")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["chunk_id"] for line in lines] == ranked  # rank order, recorded markers
    assert {line["chunk_id"]: line["marker"] for line in lines} == {a.chunk_id: "S1", b.chunk_id: "S1~2"}
    assert report_pdf.context(lines[0]["context_id"]).sources == (("S1", a.chunk_id), ("S1~2", b.chunk_id))

    code, out, _ = run("--db", db_url, "search", query, "--k", "2", "--context")
    assert code == 0
    assert out.count("[S1]") == 1
    assert "[S2]" not in out
    assert out.count(shared) == 1  # the shared text once
    context_id = re.match(r"<!-- citeline context (ctx_[0-9a-f]+) -->", out)
    assert context_id is not None
    # the same prompt block `citeline context` prints for these chunks
    code, by_context, _ = run("--db", db_url, "context", b.chunk_id, a.chunk_id)
    assert code == 0
    assert out.split("\n", 1)[1] == by_context.split("\n", 1)[1]

    code, out, _ = run("--db", db_url, "search", query, "--k", "2", "--context", "--no-merge")
    assert code == 0
    assert "[S2]" in out
    assert out.count(shared) == 2

    first = {a.chunk_id: a, b.chunk_id: b}[ranked[0]]
    budget = approx_tokens(passage_block("S1", [first]))
    code, out, _ = run(
        "--db", db_url, "search", query, "--k", "2", "--context", "--no-merge", "--max-tokens", str(budget)
    )
    assert code == 0
    assert "[S1]" in out
    assert "[S2]" not in out  # the second hit does not fit
    assert first.text in out
    code, _, err = run("--db", db_url, "search", query, "--k", "2", "--context", "--max-tokens", "2")
    assert code == 2
    assert err.startswith("Error: --max-tokens 2: no passage fits (the first alone is ")
    code, _, err = run("--db", db_url, "search", query, "--max-tokens", "500")
    assert (code, err.strip()) == (2, "Error: --merge, --no-merge and --max-tokens make a context: add --context")


# ----------------------------------------------------------------------------- 4. adapters


def test_langchain_metadata_has_source_and_page_and_hybrid_mode(report_pdf: Store) -> None:
    from citeline.adapters.langchain import CitelineLoader, CitelineRetriever, record_context
    from citeline.store.embeddings import HashingEmbedder

    embedder = HashingEmbedder(64)
    report_pdf.embed(embedder)
    docs = CitelineRetriever(store=report_pdf, k=3, mode="hybrid", embedder=embedder).invoke("musée visiteurs été")
    assert docs[0].metadata["source"] == "report.pdf"
    assert docs[0].metadata["page"] == 3  # the museum's page
    assert docs[0].metadata["page"] == docs[0].metadata["pages"][0]
    assert "musée" in docs[0].page_content
    keyword = CitelineRetriever(store=report_pdf, k=3).invoke("musée visiteurs")
    assert all(d.metadata["page"] <= 3 <= d.metadata["pages"][1] for d in keyword)  # museum chunks start on 2 or 3
    loaded = list(CitelineLoader(report_pdf).lazy_load())
    assert [d.metadata["page"] for d in loaded] == [c.page_start for c in report_pdf.iter_chunks()]
    assert {d.metadata["source"] for d in loaded} == {"report.pdf"}
    ctx = record_context(report_pdf, docs, merge=True, max_tokens=10_000)
    assert ctx.sources[0][0] == "S1"


def test_llama_index_reader_loads_current_chunks_as_text_nodes(report_pdf: Store, tmp_path: Path) -> None:
    from llama_index.core.schema import TextNode

    from citeline.adapters.llama_index import CitelineReader, CitelineRetriever, record_context, verify
    from citeline.store.embeddings import HashingEmbedder

    nodes = CitelineReader(report_pdf).load_data()
    chunks = list(report_pdf.iter_chunks())
    assert all(isinstance(n, TextNode) for n in nodes)
    assert [n.id_ for n in nodes] == [c.chunk_id for c in chunks]
    assert [n.text for n in nodes] == [c.text for c in chunks]
    assert nodes[0].metadata["source"] == "report.pdf"
    assert nodes[0].metadata["page"] == 1
    assert nodes[0].metadata["score"] is None
    assert len(CitelineReader(report_pdf, document="report.pdf").load_data()) == len(chunks)
    # a node loaded by the reader can be injected and verified by its id
    ctx = record_context(report_pdf, nodes[:1])
    quote = " ".join(nodes[0].text.split()[:8])
    report = verify(report_pdf, f'Der Bericht sagt: "{quote}" [S1].', ctx)
    assert [c.status for c in report.citations] == ["verified"]
    embedder = HashingEmbedder(64)
    report_pdf.embed(embedder)
    hits = CitelineRetriever(report_pdf, k=2, mode="hybrid", embedder=embedder).retrieve("Brücke Fluss Frühjahr")
    assert hits[0].node.metadata["page"] == 1
    assert hits[0].score == hits[0].node.metadata["score"]


# ----------------------------------------------------------------------------- questions as people ask them


@pytest.mark.parametrize(
    ("question", "required"),
    [
        ("what is lymphoedema", ["lymphoedema"]),
        ("How many participants took part?", ["participants", "took", "part"]),  # "took" 5.5, "part" 5.8
        ("the of and", ["the", "of", "and"]),  # nothing left: all of them, as written
        ("Qu'est-ce que le lymphœdème ?", ["qu", "est", "ce", "que", "le", "lymphœdeme"]),  # read as English
    ],
)
def test_a_questions_function_words_are_not_required(question: str, required: list[str]) -> None:
    from citeline.store.search import _content, parse_query

    written = parse_query(question)
    kept = _content(written, written, "en")
    assert [w for clause in kept.must for t in clause for w in t.words] == required


def test_a_chinese_or_japanese_question_is_searched_by_its_character_pairs(db_url: str, tmp_path: Path) -> None:
    files = {
        "report_zh.txt": (
            "本报告提到的主要风险包括市场风险、信用风险和流动性风险。\n\n公司在二零一八年第一季度实现营业收入增长。\n"
        ),
        "notes_ja.txt": "開発者会議は毎月一回開かれます。\n",
    }
    with indexed_texts(db_url, tmp_path / "zh", files) as store:
        # neither question occurs as written: as one phrase, neither was found
        assert store.search("这份报告提到哪些风险", k=1)[0].document == "report_zh.txt"
        assert store.search("開発者会議はどのくらいの頻度で開かれる？", k=1)[0].document == "notes_ja.txt"
        assert store.search('"这份报告提到哪些风险"', k=1) == []  # quoted: still a phrase


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Does walking early mean a baby will be smarter?", "en"),  # one English function word: untold
        ("Widerstand gegen Veränderungen", "de"),
        ("combien d’opérateurs unaires", "fr"),
        ("Zürich Genève", None),  # names: no lexicon knows them better than another
    ],
)
def test_a_question_its_function_words_do_not_tell_is_read_in_the_language_that_knows_its_words(
    question: str, language: str | None
) -> None:
    """Most questions as people ask them are a few words with one function word or none, so their
    function words do not tell their language; stemmed in every language of the store, "areas"
    was also "ar" and "are" and "does" also "dos" (Catalan, French): the language whose lexicon
    knows the words best by ``LEXICON_MARGIN`` reads it, else every language still does."""
    from citeline.store.search import query_languages, stem_query
    from citeline.store.search.query import lexicon_language, parse_query

    store = ["ca", "de", "en", "fr", "ko", None]
    assert lexicon_language(question, store) == language
    # with the languages indexed unstemmed (no stemmer): the words as written
    assert query_languages(question, store) == ([language, "ko", None] if language else store)
    assert lexicon_language("Widerstand gegen Veränderungen", ["en", "fr"]) is None  # not a language of the store
    english = stem_query(parse_query("resting areas"), query_languages("resting areas", store))
    assert [t.words for clause in english.must for t in clause] == [("rest",), ("resting",), ("area",), ("areas",)]


def test_an_untold_question_finds_its_documents_language(texts: Store) -> None:
    assert texts.search("which participants were paid", k=1)[0].document == "study_en.txt"
    assert texts.search("médecins de nuit", k=1)[0].document == "hopital_fr.txt"


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("Leon's employer", [("leon",), ("employer",)]),  # a possessive
        ("l’opérateur unaire", [("operateur",), ("unaire",)]),  # an elided article, typographic apostrophe
        ("isn't it", [("isn",), ("it",)]),
        ("aujourd'hui", [("aujourd",), ("hui",)]),
        ("o'k", [("o", "k")]),  # only letters: whole, as before
        ('"l\'opérateur"', [("l", "operateur")]),  # quoted: the phrase as written
    ],
)
def test_a_word_joined_by_an_apostrophe_is_searched_without_its_one_letter_pieces(
    question: str, words: list[tuple[str, ...]]
) -> None:
    from citeline.store.search import parse_query

    assert [t.words for clause in parse_query(question).must for t in clause] == words
    assert parse_query("-l'hôpital x").must_not[0].words == ("l", "hopital")  # a negated word stays whole


def test_a_possessive_or_an_elision_finds_the_word_written_without_it(db_url: str, tmp_path: Path) -> None:
    files = {
        "olap_fr.txt": "Les opérateurs unaires du langage sont au nombre de trois, et chacun retourne une requête pour "
        "laquelle seuls les membres les plus fréquents de la dimension sont retenus dans le résultat.\n",
        "calcul_fr.txt": "L'opérande unaire de la méthode est décrite dans la section suivante, avec les exemples que "
        "nous avons donnés pour les requêtes et les résultats de la dimension étudiée.\n",
    }
    with indexed_texts(db_url, tmp_path / "docs", files) as store:
        # "l'opérateur" was the phrase "l operateur", which neither text holds
        assert store.search("l'opérateur unaire", k=1)[0].document == "olap_fr.txt"


def test_a_questions_function_words_do_not_rank_the_fallback(db_url: str, tmp_path: Path) -> None:
    """When no chunk holds all of a question's words, the chunks holding some of its content words
    follow; a chunk holding only its function words ("how", "many", "did") is not among them."""
    files = {
        "faq.txt": "How many did it take? What did it need? How did it work, and how many were there? "
        "How many of them did it help, and how did it do that?\n",
        "velo.txt": "The Zürich bicycle survey counted the riders on the bridge each morning of the week, and the "
        "counts were published with the weather of each day.\n",
        "cafe.txt": "The café near the station opened in the spring, and its owners said that the evening trade was "
        "slower than they had hoped in the first months.\n",
    }
    with indexed_texts(db_url, tmp_path / "docs", files) as store:
        hits = store.search("How many bicycle riders did the Zürich café count?", k=3)
        assert {h.document for h in hits} == {"velo.txt", "cafe.txt"}  # not faq.txt
        assert hits[0].document == "velo.txt"
