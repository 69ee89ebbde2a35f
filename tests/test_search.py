"""Full-text search, the change feed, ``citeline search`` / ``changes``, the serve search page and
the LangChain and LlamaIndex adapters: on real fixture PDFs, real SQLite files and the real
PostgreSQL server."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.batch import IngestOptions, ingest_files
from citeline.cli import cli
from citeline.store import Store
from citeline.store.search import (
    Query,
    Term,
    fold_text,
    parse_query,
    search_text,
    snippet,
    terms,
    to_fts5,
    to_tsquery,
)
from citeline.store.stemming import stemmer
from tests.conftest import CORPUS, PDF_FIXTURES, corpus_manifest
from tests.invariants import index_is_exact


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


#: a plain-text document in Chinese, Japanese and accented French, with a phrase no fixture holds
CJK_TEXT = (
    "交通运输部发布了新的规定，要求所有港口在明年之前完成数字化改造。\n\n"
    "東京都は新しい条例を発表しました。カタカナのテストも含みます。\n\n"
    "Le comité a approuvé la réforme hydrographique des ports fluviaux."
)


def build_corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("policy_handbook.pdf", "multilingual.pdf", "two_column_paper.pdf"):
        shutil.copy(PDF_FIXTURES / name, folder / name)
    (folder / "notes_cjk.txt").write_text(CJK_TEXT, encoding="utf-8")
    return folder


@pytest.fixture
def indexed(db_url: str, tmp_path: Path) -> tuple[Store, Path]:
    folder = build_corpus(tmp_path)
    store = Store(db_url)
    summary = ingest_files(store, [folder], IngestOptions(workers=1))
    assert summary.count("failed") == 0
    return store, folder


# ----------------------------------------------------------------------------- tokenizer and query language


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("Médecin, MÉDECIN médecin", ["medecin", "medecin", "medecin"]),
        ("Straße ﬁnal naïve", ["strasse", "final", "naive"]),
        ("交通量", ["交通", "通量"]),
        ("交", ["交"]),
        ("iPhone手机 2024年", ["iphone", "手机", "2024", "年"]),
        ("東京都は", ["東京", "京都", "都は"]),
        ("한국어 문장", ["한국어", "문장"]),  # Hangul is written with spaces: words
        ("snake_case e-mail", ["snake", "case", "e", "mail"]),
        ("", []),
    ],
)
def test_terms_literally(source: str, expected: list[str]) -> None:
    assert terms(source) == expected


@pytest.mark.parametrize(
    ("query", "must", "must_not"),
    [
        ("licence fee", [[("licence",)], [("fee",)]], []),
        ('"running headers" Zürich', [[("running", "headers")], [("zurich",)]], []),
        ("distrib*", [[("distrib", "*")]], []),
        ("a* b", [[("a",)], [("b",)]], []),  # a one-letter prefix is a word
        ("gpl OR mit", [[("gpl",), ("mit",)]], []),
        ("gpl -proprietary NOT closed", [[("gpl",)]], [("proprietary",), ("closed",)]),
        ('unbalanced "quote', [[("unbalanced",)], [("quote",)]], []),
        ("OR NOT AND", [], [("and",)]),  # a lone OR is dropped; nothing is asked for, so nothing found
        # punctuation is no syntax: a token of several words is a phrase of them (like "e-mail")
        ("(col:x) ^y NEAR(a b)", [[("col", "x")], [("y",)], [("near", "a")], [("b",)]], []),
        ("e-mail", [[("e", "mail")]], []),
        ("交通量", [[("交通", "通量")]], []),
        ("!!! *** ---", [], []),
    ],
)
def test_parse_query_literally(query: str, must: list[list[tuple[str, ...]]], must_not: list[tuple[str, ...]]) -> None:
    def shown(t: Term) -> tuple[str, ...]:
        return (*t.words, "*") if t.prefix else t.words

    parsed = parse_query(query)
    assert [[shown(t) for t in clause] for clause in parsed.must] == must
    assert [shown(t) for t in parsed.must_not] == must_not


def test_rendered_queries_literally() -> None:
    q = parse_query('"free software" licen* OR gnu -proprietary')
    assert to_fts5(q) == '("free software") AND ("licen"* OR "gnu") NOT ("proprietary")'
    assert to_tsquery(q) == "(('free' <-> 'software')) & (('licen':*) | ('gnu')) & !('proprietary')"
    assert to_tsquery(Query([[Term(("o'neil",))]])) == "(('o''neil'))"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=60))
def test_any_input_is_a_valid_query_on_sqlite(raw: str) -> None:
    """Whatever the user types, FTS5 accepts the rendered query (the reason terms are quoted)."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, content='', tokenize='unicode61 remove_diacritics 2')")
    conn.execute("INSERT INTO t(rowid, body) VALUES (1, ?)", (search_text("Zürich 交通量 fee licence " + raw),))
    query = parse_query(raw)
    if not query.empty:
        conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (to_fts5(query),)).fetchall()
        conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (to_fts5(query.any_of()),)).fetchall()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["alpha", "Zürich", "交通", "fee", "ß", "ﬁne", "—", "licence", "x"]), max_size=80),
    st.sampled_from(["zurich", "licence fee", "交通", "fine", "nothing"]),
)
def test_a_snippet_is_the_text_cut_at_word_boundaries(words: list[str], query: str) -> None:
    source = " ".join(words)
    shown = snippet(source, parse_query(query), width=40)
    inner = shown.removeprefix("…").removesuffix("…")
    assert inner in source
    # no "…" where nothing was left out; "…" only where something was
    if not shown.startswith("…"):
        assert source.startswith(inner)
    if not shown.endswith("…"):
        assert source.endswith(inner)
    if shown.startswith("…") or shown.endswith("…"):
        assert len(inner) < len(source)
    else:
        assert inner == source


def test_a_snippet_shows_where_the_query_words_gather() -> None:
    source = "Zürich " + "filler " * 40 + "the licence fee is due " + "filler " * 40
    assert "licence fee" in snippet(source, parse_query("licence fee Zürich"))


# ----------------------------------------------------------------------------- searching a store


def rare_words(store: Store) -> dict[str, str]:
    """Words (7+ letters) whose stem (the index stems English) is found in exactly one current
    chunk, with that chunk's id."""
    seen: dict[str, set[str]] = {}
    written: dict[str, str] = {}
    for c in store.iter_chunks():
        for word in dict.fromkeys(re.findall(r"[^\W\d_]+", c.text)):
            stem = stemmer("en")(fold_text(word))
            if len(word) >= 7:
                written.setdefault(stem, fold_text(word))
            seen.setdefault(stem, set()).add(c.chunk_id)
    return {written[s]: next(iter(ids)) for s, ids in seen.items() if len(ids) == 1 and s in written}


def test_the_chunk_holding_a_rare_phrase_ranks_first(indexed: tuple[Store, Path]) -> None:
    store, _ = indexed
    rare = rare_words(store)
    assert len(rare) >= 20
    checked = 0
    for word, chunk_id in list(rare.items())[:: max(1, len(rare) // 25)]:
        hits = store.search(f"{word} the", k=5)
        assert hits[0].chunk_id == chunk_id, word
        assert hits[0].score > (hits[1].score if len(hits) > 1 else float("-inf"))
        checked += 1
    assert checked >= 20


def test_phrase_prefix_or_and_not(indexed: tuple[Store, Path]) -> None:
    store, _ = indexed
    chunk = next(c for c in store.iter_chunks(document="policy_handbook.pdf") if len(c.text.split()) > 40)
    words = terms(chunk.text)[10:14]
    hits = store.search('"' + " ".join(words) + '"', k=3)
    assert chunk.chunk_id in [h.chunk_id for h in hits]
    assert all(" ".join(words) in search_text(h.text) for h in hits)  # overlapping chunks hold it too
    assert store.search('"' + " ".join(reversed(words)) + '" zzzqx', k=3) == []
    rare = rare_words(store)
    word, owner = next((w, c) for w, c in rare.items() if len(w) >= 9)
    assert owner in [h.chunk_id for h in store.search(word[:6] + "*", k=50)]
    assert store.search(word[:6], k=50) == [] or owner not in [h.chunk_id for h in store.search(word[:6], k=50)]
    other, other_owner = next((w, c) for w, c in rare.items() if c != owner)
    either = {h.chunk_id for h in store.search(f"{word} OR {other}", k=10)}
    assert {owner, other_owner} <= either
    assert owner not in {h.chunk_id for h in store.search(f"{word} -{word}", k=10)}
    assert owner not in {h.chunk_id for h in store.search(f"{word} NOT {word}", k=10)}


def test_accents_case_and_ligatures_do_not_matter(indexed: tuple[Store, Path]) -> None:
    store, _ = indexed
    found = [{h.document for h in store.search(q, k=3)} for q in ("médecin", "MEDECIN", "Medecin", "médeci*")]
    assert all("multilingual.pdf" in f for f in found), found
    assert store.search("hydrographique", k=1)[0].document == "notes_cjk.txt"
    assert store.search("HYDROGRAPHIQUE réforme", k=1)[0].document == "notes_cjk.txt"
    assert store.search("reforme comite", k=1)[0].document == "notes_cjk.txt"


def test_chinese_and_japanese_are_found_by_any_two_characters(indexed: tuple[Store, Path]) -> None:
    store, _ = indexed
    for query in ("运输", "数字化改造", "港口", "東京都", "条例", "カタカナ", '"新的规定"'):
        hits = store.search(query, k=2)
        assert hits, query
        assert hits[0].document == "notes_cjk.txt", query
    assert store.search('"规定新的"', k=2) == []  # a phrase keeps its order


def test_text_that_is_not_query_syntax_is_plain_words(indexed: tuple[Store, Path]) -> None:
    store, _ = indexed
    for raw in ['"', "OR", "NOT", "*", "-", "(", ")", "AND", "NEAR(", "^", ":", "body:fee", '"unbalanced', "a OR"]:
        assert isinstance(store.search(raw), list), raw
    assert store.search('hydrographique "unbalanced')[0].document == "notes_cjk.txt"
    assert store.search("hydrographique) (ports:")[0].document == "notes_cjk.txt"
    assert store.search("") == []
    assert store.search("   ") == []


def test_chunks_holding_some_words_follow_those_holding_all(indexed: tuple[Store, Path]) -> None:
    """No chunk holds both words: the chunks holding one of them still come, each scored lower
    than the one before."""
    store, _ = indexed
    hits = store.search("hydrographique médecin", k=4)
    assert {"notes_cjk.txt", "multilingual.pdf"} <= {h.document for h in hits}
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    both = store.search("hydrographique réforme zzzqx", k=3)
    assert both[0].document == "notes_cjk.txt"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.text(max_size=40))
def test_folding_is_per_character_and_drops_marks(a: str, b: str) -> None:
    import unicodedata

    assert fold_text(a + b) == fold_text(a) + fold_text(b)
    assert not any(unicodedata.combining(ch) for ch in fold_text(a))


def test_document_glob_and_k(indexed: tuple[Store, Path]) -> None:
    store, _ = indexed
    # a word of every PDF ("the" is a stop word of PostgreSQL's english configuration: not indexed)
    by_doc = [
        {w for c in store.iter_chunks(document=d) for w in re.findall(r"[a-z]{5,}", c.text.lower())}
        for d in ("policy_handbook.pdf", "multilingual.pdf", "two_column_paper.pdf")
    ]
    word = sorted(by_doc[0] & by_doc[1] & by_doc[2])[0]
    hits = store.search(word, k=50, document="*.pdf")
    assert hits
    assert all(h.document.endswith(".pdf") for h in hits)
    assert {h.document for h in store.search(word, k=50, document="policy_*")} == {"policy_handbook.pdf"}
    assert len(store.search(word, k=2)) == 2
    assert store.search(word, k=50, document="no_such_*") == []


def test_hits_carry_their_provenance(indexed: tuple[Store, Path]) -> None:
    store, _ = indexed
    hit = store.search("médecin", k=1)[0]
    chunk = store.chunks([hit.chunk_id])[hit.chunk_id]
    assert (hit.document, hit.version, hit.is_current) == (chunk.document_uri, chunk.version_no, True)
    assert (hit.page_start, hit.page_end, hit.raw_start, hit.raw_end) == (
        chunk.page_start,
        chunk.page_end,
        chunk.raw_start,
        chunk.raw_end,
    )
    assert hit.text == chunk.text
    assert "médecin" in hit.snippet


def test_superseded_deleted_and_killed_versions_keep_the_index_exact(
    indexed: tuple[Store, Path], db_url: str, tmp_path: Path
) -> None:
    store, folder = indexed
    n = index_is_exact(db_url)
    assert n == sum(1 for _ in store.iter_chunks())
    # unchanged re-ingest: nothing new in the index
    ingest_files(store, [folder], IngestOptions(workers=1))
    assert index_is_exact(db_url) == n
    # a new version: the old one's words are found only with all_versions
    old_words = set(rare_words(store))
    shutil.copy(PDF_FIXTURES / "policy_handbook_v2.pdf", folder / "policy_handbook.pdf")
    ingest_files(store, [folder], IngestOptions(workers=1))
    current = {fold_text(w) for c in store.iter_chunks() for w in re.findall(r"[^\W\d_]{7,}", c.text)}
    gone = sorted(w for w in old_words - current)
    assert gone, "policy_handbook_v2 drops words of v1"
    assert store.search(gone[0]) == []
    old = store.search(gone[0], all_versions=True)
    assert old
    assert old[0].document == "policy_handbook.pdf"
    assert not old[0].is_current
    assert old[0].version == 1
    index_is_exact(db_url)
    # a deleted document drops out of searches
    (folder / "notes_cjk.txt").unlink()
    assert store.mark_deleted("notes_cjk.txt")
    assert store.search("hydrographique") == []
    assert store.search("hydrographique", all_versions=True)[0].document == "notes_cjk.txt"
    index_is_exact(db_url)


def test_migration_backfills_the_index(indexed: tuple[Store, Path], db_url: str) -> None:
    store, _ = indexed
    before = [h.chunk_id for h in store.search("médecin traitement", k=3)]
    store.engine.dispose()
    assert run("--db", db_url, "db", "downgrade", "0004")[0] == 0
    assert run("--db", db_url, "db", "upgrade")[0] == 0
    again = Store(db_url)
    assert [h.chunk_id for h in again.search("médecin traitement", k=3)] == before
    index_is_exact(db_url)


# ----------------------------------------------------------------------------- the change feed


def test_changes_since_a_run_and_a_time(indexed: tuple[Store, Path], db_url: str) -> None:
    store, folder = indexed
    first = {c.chunk_id for c in store.iter_chunks()}
    changes = store.changes(1)
    assert {c.chunk_id for c in changes} == first
    assert {c.change for c in changes} == {"added"}
    assert store.changes(datetime.now(UTC)) == []
    mark = datetime.now(UTC)
    shutil.copy(PDF_FIXTURES / "policy_handbook_v2.pdf", folder / "policy_handbook.pdf")
    summary = ingest_files(store, [folder], IngestOptions(workers=1))
    v1 = {c.chunk_id for c in store.iter_chunks(document="policy_handbook.pdf", all_versions=True) if not c.is_current}
    v2 = {c.chunk_id for c in store.iter_chunks(document="policy_handbook.pdf")}
    for since in (mark, summary.run_id):
        feed = store.changes(since)
        assert {c.chunk_id for c in feed if c.change == "added"} == v2
        assert {c.chunk_id for c in feed if c.change == "retired"} == v1 - v2
        assert {(c.document, c.version) for c in feed} == {("policy_handbook.pdf", 1), ("policy_handbook.pdf", 2)}
        assert [c.change for c in feed] == sorted((c.change for c in feed), key=["added", "retired"].index)
    # the CLI says the same, as JSON lines with the documented fields
    code, out, _ = run("--db", db_url, "changes", "--since", mark.isoformat())
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert {tuple(line) for line in lines} == {("change", "chunk_id", "document", "version", "at", "collection")}
    assert Counter(line["change"] for line in lines) == Counter(added=len(v2), retired=len(v1 - v2))
    # a restored version is added again, the one it replaces retired
    restore_mark = datetime.now(UTC)
    shutil.copy(PDF_FIXTURES / "policy_handbook.pdf", folder / "policy_handbook.pdf")
    ingest_files(store, [folder], IngestOptions(workers=1))
    feed = store.changes(restore_mark)
    assert {c.chunk_id for c in feed if c.change == "added"} == v1
    assert {c.chunk_id for c in feed if c.change == "retired"} == v2 - v1


def test_the_sqlite_index_is_readable_with_sql(indexed: tuple[Store, Path], db_url: str) -> None:
    if not db_url.startswith("sqlite"):
        pytest.skip("chunk_search is SQLite's FTS5 table; PostgreSQL has chunks.search")
    query = "SELECT count(*) AS n FROM chunk_search WHERE chunk_search MATCH 'medecin'"
    code, out, err = run("--db", db_url, "sql", query, "--format", "csv")
    assert code == 0, err
    assert out.splitlines() == ["n", "1"]
    code, _, err = run("--db", db_url, "sql", "PRAGMA data_version = 3")
    assert code == 2


def test_changes_refuses_what_is_not_a_run_or_a_time(indexed: tuple[Store, Path], db_url: str) -> None:
    code, _, err = run("--db", db_url, "changes", "--since", "yesterday")
    assert code == 2
    assert err.strip() == "Error: --since 'yesterday': not a run id or an ISO time (e.g. 2026-11-30T18:00:00Z)"
    code, _, err = run("--db", db_url, "changes", "--since", "999")
    assert code == 1
    assert err.strip() == "Error: Ingestion run 999 does not exist"


# ----------------------------------------------------------------------------- the command


def test_search_command_formats(indexed: tuple[Store, Path], db_url: str) -> None:
    code, out, _ = run("--db", db_url, "search", "médecin traitement", "--format", "jsonl", "--k", "2")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [list(line) for line in lines] == [
        [
            "chunk_id",
            "score",
            "document",
            "version",
            "is_current",
            "page_start",
            "page_end",
            "raw_start",
            "raw_end",
            "snippet",
            "text",
            "collection",
        ]
    ] * len(lines)
    assert lines[0]["document"] == "multilingual.pdf"
    assert lines[0]["score"] >= lines[-1]["score"]
    code, out, _ = run("--db", db_url, "search", "médecin", "--format", "csv", "--k", "1")
    assert code == 0
    assert out.splitlines()[0] == "chunk_id,score,document,version,page_start,page_end,snippet"
    code, out, _ = run("--db", db_url, "search", "médecin", "--k", "1")
    assert code == 0
    assert "multilingual.pdf" in out
    assert out.splitlines()[0].split()[0] == "chunk_id"
    code, out, _ = run("--db", db_url, "search", "médecin", "--format", "prompt", "--k", "1")
    assert code == 0
    assert out.startswith("<!-- citeline search: not recorded")
    assert "[S1] multilingual.pdf" in out
    code, _, err = run("--db", db_url, "search", "zzzqxv")
    assert (code, err.strip()) == (1, "Error: No chunk matches 'zzzqxv' in current versions")
    code, _, err = run("--db", db_url, "search", "médecin", "--markers", "A,A")
    assert code == 2
    assert "distinct" in err


def test_question_to_verified_answer_in_one_context(indexed: tuple[Store, Path], db_url: str, tmp_path: Path) -> None:
    """search --context records the hits; verify --context checks an answer against exactly them."""
    code, out, _ = run("--db", db_url, "search", "hydrographique OR médecin", "--k", "2", "--context")
    assert code == 0
    context_id = re.match(r"<!-- citeline context (ctx_\w+) -->", out)
    assert context_id is not None
    assert "[S1] " in out
    assert "[S2] " in out
    marker = next(m for m, doc in re.findall(r"^\[(S\d)\] (\S+)", out, re.M) if doc == "notes_cjk.txt")
    wrong = "S1" if marker == "S2" else "S2"
    answer = {
        "answer": (
            f'The committee "a approuvé la réforme hydrographique" [{marker}]. '
            f'It also "approved a budget of 12 million" [{wrong}]. Another source says so [S7].'
        ),
        "context": context_id.group(1),
    }
    path = tmp_path / "answer.json"
    path.write_text(json.dumps(answer, ensure_ascii=False), encoding="utf-8")
    code, out, _ = run("--db", db_url, "verify", str(path))
    report = json.loads(out)
    statuses = {c["marker"]: c["status"] for c in report["citations"]}
    assert statuses[marker] == "verified"
    assert statuses[wrong] == "quote_not_found"
    assert statuses["S7"] == "fabricated_marker"
    assert code == 0  # the report is the result; --fail-on decides the exit status
    code, out, _ = run("--db", db_url, "search", "médecin", "--k", "1", "--context", "--markers", "DOC1")
    assert code == 0
    assert "[DOC1] multilingual.pdf" in out
    code, out, _ = run("--db", db_url, "search", "médecin", "--context", "--format", "jsonl", "--k", "1")
    line = json.loads(out)
    assert line["marker"] == "S1"
    assert line["context_id"].startswith("ctx_")


def test_search_page_in_serve(indexed: tuple[Store, Path]) -> None:
    from citeline.present.web import App

    store, _ = indexed
    app = App(store)
    try:
        status, ctype, body = app.handle("GET", "/search?q=m%C3%A9decin", {}, b"")
        page = body.decode()
        hit = store.search("médecin", k=1)[0]
        assert status == 200
        assert ctype == "text/html"
        assert f'href="/chunk?id={hit.chunk_id}"' in page
        assert 'name="q" value="médecin"' in page
        assert app.handle("GET", "/search?q=%3Cscript%3E", {}, b"")[2].decode().count("<script>") == 0
        assert app.handle("GET", "/search?q=x&k=-1", {}, b"")[0] == 400
        assert app.handle("GET", "/", {}, b"")[2].decode().count('action="/search"') == 1
        assert app.handle("POST", "/search", {}, b"")[0] == 405
    finally:
        app.close()


# ----------------------------------------------------------------------------- adapters


def test_langchain_retriever_loader_and_verify(indexed: tuple[Store, Path]) -> None:
    from langchain_core.documents import Document

    from citeline.adapters.langchain import CitelineLoader, CitelineRetriever, record_context, verify

    store, _ = indexed
    docs = CitelineRetriever(store=store, k=3).invoke("réforme hydrographique")
    assert docs
    assert all(isinstance(d, Document) for d in docs)
    top = docs[0]
    assert top.metadata["document"] == "notes_cjk.txt"
    assert top.id == top.metadata["chunk_id"]
    assert set(top.metadata) == {
        "source",
        "page",
        "chunk_id",
        "document",
        "version",
        "pages",
        "raw_start",
        "raw_end",
        "score",
        "is_current",
        "collection",
    }
    assert top.page_content == store.chunks([top.id])[top.id].text
    loaded = list(CitelineLoader(store).lazy_load())
    assert [d.id for d in loaded] == [c.chunk_id for c in store.iter_chunks()]
    assert all(d.metadata["score"] is None for d in loaded)
    ctx = record_context(store, docs[:1])
    assert ctx.prompt.startswith(f"<!-- citeline context {ctx.context_id} -->")
    good = verify(store, 'Le comité "a approuvé la réforme hydrographique" [S1].', ctx)
    assert [c.status for c in good.citations] == ["verified"]
    assert not good.failed
    bad = verify(store, 'Le comité "a rejeté la réforme hydrographique" [S1].', ctx)
    assert bad.failed
    with pytest.raises(ValueError, match="chunk_id"):
        record_context(store, [Document(page_content="x")])


def test_llama_index_retriever_and_verify(indexed: tuple[Store, Path]) -> None:
    from llama_index.core.schema import NodeWithScore, TextNode

    from citeline.adapters.llama_index import CitelineRetriever, record_context, verify

    store, _ = indexed
    nodes = CitelineRetriever(store, k=3).retrieve("réforme hydrographique")
    assert nodes
    assert all(isinstance(n, NodeWithScore) and isinstance(n.node, TextNode) for n in nodes)
    top = nodes[0]
    assert top.node.id_ == top.node.metadata["chunk_id"]
    assert top.node.metadata["document"] == "notes_cjk.txt"
    assert top.score == top.node.metadata["score"]
    assert top.score >= nodes[-1].score
    ctx = record_context(store, nodes[:1], markers=["S4"])
    report = verify(store, 'Le comité "a approuvé la réforme hydrographique" [S4].', ctx.context_id)
    assert [(c.marker, c.status) for c in report.citations] == [("S4", "verified")]


# ----------------------------------------------------------------------------- real corpus


def test_corpus_chinese_pdfs_are_searchable(sqlite_url: str, tmp_path: Path) -> None:
    corpus_manifest()
    folder = tmp_path / "cjk"
    folder.mkdir()
    names = ["cn_quarterly_report_2018q1.pdf", "cn_land_use_standard_table.pdf"]
    for name in names:
        (folder / name).symlink_to(CORPUS / name)
    store = Store(sqlite_url)
    ingest_files(store, [folder], IngestOptions(workers=1, follow_links=True))
    for name in names:
        chunk = next(c for c in store.iter_chunks(document=name) if len(c.text) > 200)
        runs = re.findall(r"[\u3040-\u30ff\u4e00-\u9fff]{4,}", chunk.text)
        assert runs, name
        hits = store.search(max(runs, key=len)[:6], k=5)
        assert chunk.chunk_id in [h.chunk_id for h in hits], name
    index_is_exact(sqlite_url)


# ----------------------------------------------------------------------------- the manual


def guide_section(title: str) -> str:
    """A section of the manual's getting-started page (the README's loop is a copy of its first blocks,
    which tests/test_docs.py checks)."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "getting-started.md").read_text(encoding="utf-8")
    return page.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_guide_walkthrough_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "From question to verified answer": its shell block in bash with the installed `citeline`,
    then its Python blocks, verbatim, on the fixtures the quick start indexes."""
    import os
    import subprocess
    import sys

    section = guide_section("From question to verified answer")
    shell = section.split("```bash\n", 1)[1].split("```", 1)[0]
    python = [b.split("```", 1)[0] for b in section.split("```python\n")[1:]]
    assert len(python) == 2
    fixtures = tmp_path / "fixtures"
    shutil.copytree(PDF_FIXTURES.parent / "formats", fixtures / "formats")
    shutil.copy(PDF_FIXTURES / "policy_handbook.pdf", fixtures / "policy_handbook.pdf")
    env = {k: v for k, v in os.environ.items() if k != "CITELINE_DB"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    script = f"set -e\nciteline ingest fixtures/ -q\n{shell}"
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    statuses = dict(re.findall(r"\[(S\d)\] (\w+)", done.stdout))
    assert statuses == {"S1": "verified", "S2": "verified", "S4": "fabricated_marker"}, done.stdout
    assert "2/3 citations passed" in done.stdout, done.stdout  # no flag on the verified quotes
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITELINE_DB", raising=False)
    namespace: dict[str, object] = {}
    exec(python[0], namespace)
    assert capsys.readouterr().out.strip() == "[('S1', 'verified')]"
    exec(python[1], namespace)
    assert not namespace["report"].failed  # type: ignore[attr-defined]
    assert len(namespace["all_chunks"]) == sum(1 for _ in namespace["store"].iter_chunks())  # type: ignore[arg-type, attr-defined]
    assert namespace["nodes"][0].node.id_ in namespace["ctx"].sources[0]  # type: ignore[index]


def test_the_compiled_stemmers_stem_as_the_pure_python_ones() -> None:
    """The index is stemmed with PyStemmer (a dependency: snowballstemmer hands its work to it when
    it is installed); an environment without it falls back to snowballstemmer's pure-Python
    classes. Both must give every word the same stem, or a store written under one and searched
    under the other would miss: the 3,000 most frequent words of each language, plus words with
    accents, ß and Cyrillic."""
    import importlib

    import wordfreq

    from citeline.store.stemming import SNOWBALL

    extra = ["participants", "recruited", "häuser", "straße", "connaissances", "corrección", "наблюдения"]
    for code, algorithm in SNOWBALL.items():
        module = importlib.import_module(f"snowballstemmer.{algorithm}_stemmer")
        pure = getattr(module, f"{algorithm.capitalize()}Stemmer")()
        words = [*wordfreq.top_n_list(code, 3000), *extra]
        stem = stemmer(code)
        differ = [w for w in words if stem(w) != pure.stemWord(w)]
        assert differ == [], (code, differ[:5])
    assert stemmer("en")("participants") == stemmer("en")("participant") == "particip"
    assert stemmer("de")("häuser") == "haus"
