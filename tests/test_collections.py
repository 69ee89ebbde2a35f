"""Issue 33 items 5-7 and issue 30 item 6, on SQLite and the real PostgreSQL server: file names in
any bytes, collections (two roots never share a document), symbolic links, remembered failures,
the verification rate's division, ``sql --format jsonl``.

Each test here fails on the code before these changes (a traceback and a run left ``running``;
B's file as version 2 of A's; ``status A --mark-deleted`` marking B's documents; a link to a file
outside the folder indexed; ``verified_rate`` 0.0; no ``jsonl`` choice; a failure read again on
every run)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from citeline.batch import IngestOptions, ingest_files
from citeline.cli import cli
from citeline.store import Store
from citeline.store import db as store_db
from citeline.store.sql import run_sql
from citeline.text.names import escape_name, unescape_name
from tests.conftest import PDF_FIXTURES


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def latest_outcomes(url: str) -> dict[str, tuple[str, str | None, str | None, str | None]]:
    """uri -> (status, reason, message, collection) of the latest run."""
    _, rows = run_sql(
        url,
        "SELECT uri, status, reason, message, collection FROM ingestion_outcomes "
        "WHERE run_id = (SELECT max(id) FROM ingestion_runs)",
    )
    return {r[0]: (r[1], r[2], r[3], r[4]) for r in rows}


def write(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- 33.5: names in any bytes


NAME_CASES = [
    # (name as the file system holds it, as stored)
    ("bad\udcff\udcfename.txt", "bad%FF%FEname.txt"),
    ("résumé.txt", "résumé.txt"),
    ("100%.txt", "100%.txt"),
    ("a%FF.txt", "a%25FF.txt"),  # a real "%FF" must not read back as the byte 0xFF
    ("a%25.txt", "a%2525.txt"),
    ("Übersicht\udce9.md", "Übersicht%E9.md"),
]


@pytest.mark.parametrize(("name", "stored"), NAME_CASES)
def test_names_are_escaped_reversibly_as_a_table(name: str, stored: str) -> None:
    assert escape_name(name) == stored
    assert unescape_name(stored) == name
    stored.encode("utf-8")  # no surrogate left: any database and JSON encoder takes it


@given(st.binary(max_size=40))
def test_any_bytes_of_a_name_round_trip(raw: bytes) -> None:
    name = os.fsdecode(raw)
    stored = escape_name(name)
    stored.encode("utf-8")  # storable anywhere
    assert os.fsencode(unescape_name(stored)) == raw


_SPELLINGS = st.lists(st.sampled_from([b"%", b"F", b"f", b"2", b"5", b"8", b"\xff", b"\xc3\xa9", b"a"]), max_size=8)


@given(_SPELLINGS.map(b"".join), _SPELLINGS.map(b"".join))
def test_two_names_never_share_a_stored_name(one: bytes, other: bytes) -> None:
    # "%" and the hex digits are likely in the alphabet: names spelled like an escape are tried
    if one != other:
        assert escape_name(os.fsdecode(one)) != escape_name(os.fsdecode(other))


def test_a_name_that_is_not_utf8_is_stored_and_read_back_without_a_traceback(db_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    write(docs / "ordinaire.txt", "Une phrase ordinaire, écrite en français.")
    raw_name = os.path.join(os.fsencode(docs), b"bad\xff\xfename.txt")
    with open(raw_name, "wb") as f:
        f.write("Grüße aus der Datei mit dem kaputten Namen: Zwölf Boxkämpfer.".encode())
    code, out, err = run("--db", db_url, "ingest", str(docs), "--workers", "1")
    assert "Traceback" not in err
    assert code == 0, err
    assert out.splitlines()[2].split()[:4] == ["2", "0", "0", "0"]
    _, rows = run_sql(db_url, "SELECT status FROM ingestion_runs")
    assert [r[0] for r in rows] == ["completed"]
    got = latest_outcomes(db_url)
    assert got["bad%FF%FEname.txt"][0] == "added"
    with Store(db_url, migrate=False) as store:
        info = store.document("bad%FF%FEname.txt", collection="docs")
        assert info.last_path is not None
        assert os.fsencode(unescape_name(info.last_path)) == raw_name
        assert any("Boxkämpfer" in h.text for h in store.search("Boxkämpfer", collection="docs"))
    # the rerun finds the file where it was (status and the skip by hash both read it)
    code, out, err = run("--db", db_url, "ingest", str(docs), "-q")
    assert code == 0, err
    assert out.splitlines()[2].split()[:4] == ["0", "0", "2", "0"]
    code, out, _ = run("--db", db_url, "status", str(docs))
    assert code == 0
    assert "Everything is up to date." in out
    # and --mark-deleted finds it gone once it is
    os.unlink(raw_name)
    code, out, err = run("--db", db_url, "status", str(docs), "--mark-deleted", "--format", "json")
    assert code == 0, err
    assert [(e["state"], e["uri"]) for e in json.loads(out)] == [("deleted", "bad%FF%FEname.txt")]


def test_terminal_output_never_carries_control_characters(sqlite_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write(docs / "\x1b[31mrot\x07.txt", "Ein Dokument mit Steuerzeichen im Namen: Ärger.")
    code, _, err = run("--db", sqlite_url, "ingest", str(docs), "--workers", "1")
    assert code == 0, err
    assert "\x1b" not in err
    assert "\x07" not in err
    for args in (
        ["sql", "SELECT uri, last_path FROM documents"],
        ["chunks"],
        ["status", "--duplicates"],
        ["search", "Ärger"],
    ):
        code, out, err = run("--db", sqlite_url, *args)
        assert code == 0, (args, err)
        assert "\x1b" not in out, args
        assert "\x07" not in out, args
        assert "\\x1b[31mrot\\x07.txt" in out or args == ["status", "--duplicates"], (args, out)
    # JSON keeps the name exactly (it is escaped by JSON itself)
    code, out, _ = run("--db", sqlite_url, "sql", "SELECT uri FROM documents", "--format", "jsonl")
    assert json.loads(out)["uri"] == "\x1b[31mrot\x07.txt"


# ----------------------------------------------------------------------------- 33.6: collections


@pytest.fixture
def two_roots(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "A", tmp_path / "B"
    write(a / "report.txt", "Der Bericht aus A erwähnt den Zaunkönig und die Straße.")
    write(a / "notes.txt", "Notizen aus A: Kälte, Nebel, Frühling.")
    write(b / "report.txt", "Le rapport de B parle du rouge-gorge et de la forêt.")
    write(b / "extra" / "annexe.txt", "Annexe de B : données météorologiques, été 2026.")
    write(b / "more.txt", "Encore un fichier de B, avec des accents : ça, où, naïf.")
    return a, b


def test_two_roots_never_share_a_document(db_url: str, two_roots: tuple[Path, Path]) -> None:
    a, b = two_roots
    assert run("--db", db_url, "ingest", str(a), "-q")[0] == 0
    code, out, err = run("--db", db_url, "ingest", str(b), "-q")
    assert code == 0, err
    assert out.splitlines()[2].split()[:2] == ["3", "0"]  # B's report.txt is added, not an update
    with Store(db_url, migrate=False) as store:
        assert store.collections() == {"A": 2, "B": 3}
        assert store.document_refs() == [
            ("A", "notes.txt"),
            ("A", "report.txt"),
            ("B", "extra/annexe.txt"),
            ("B", "more.txt"),
            ("B", "report.txt"),
        ]
        # a word only in A's copy is still found, in A
        [hit] = store.search("Zaunkönig")
        assert (hit.collection, hit.document, hit.version) == ("A", "report.txt", 1)
        assert store.search("Zaunkönig", collection="B") == []
        assert {h.collection for h in store.search("rouge-gorge")} == {"B"}
        assert {c.collection for c in store.iter_chunks(collection="A")} == {"A"}
        assert {c.document_uri for c in store.iter_chunks(collection="B")} == {
            "report.txt",
            "more.txt",
            "extra/annexe.txt",
        }
        # one URI in two collections: naming it without a collection is refused in one line
        with pytest.raises(Exception, match="is in 2 collections"):
            store.document("report.txt")
        assert store.document("report.txt", collection="B").current is not None
        changes_a = store.changes(1, collection="A")
        assert {c.collection for c in changes_a} == {"A"}
        assert changes_a
    code, out, _ = run("--db", db_url, "status")
    assert "Everything is up to date." in out
    code, out, err = run("--db", db_url, "show", "report.txt")
    assert code == 2
    assert "name one with --collection" in err
    code, out, _ = run("--db", db_url, "show", "report.txt", "--collection", "A", "--format", "json")
    assert code == 0
    assert json.loads(out)["collection"] == "A"
    for args in (["chunks", "--format", "jsonl"], ["search", "rapport OR Bericht", "--format", "jsonl"]):
        code, out, _ = run("--db", db_url, *args, "--collection", "B")
        assert code == 0
        lines = [json.loads(line) for line in out.splitlines()]
        assert lines, args
        assert {line["collection"] for line in lines} == {"B"}, args
    code, out, _ = run("--db", db_url, "changes", "--since", "1", "--collection", "A")
    assert {json.loads(line)["collection"] for line in out.splitlines()} == {"A"}
    code, out, err = run("--db", db_url, "chunks", "--collection", "Z")
    assert code == 1
    assert "Collection 'Z' does not exist" in err


def test_mark_deleted_touches_only_the_paths_collection_and_folder(db_url: str, two_roots: tuple[Path, Path]) -> None:
    a, b = two_roots
    assert run("--db", db_url, "ingest", str(a), "-q")[0] == 0
    assert run("--db", db_url, "ingest", str(b), "-q")[0] == 0
    shutil.rmtree(b)  # all of B is gone: not A's business
    code, out, err = run("--db", db_url, "status", str(a), "--mark-deleted", "--format", "json")
    assert code == 0, err
    assert json.loads(out) == []
    (a / "report.txt").unlink()
    code, out, err = run("--db", db_url, "status", str(a), "--mark-deleted", "--format", "json")
    assert code == 0, err
    assert [(e["state"], e["collection"], e["uri"]) for e in json.loads(out)] == [("deleted", "A", "report.txt")]
    _, rows = run_sql(db_url, "SELECT collection, uri FROM documents WHERE deleted_at IS NOT NULL")
    assert [tuple(r) for r in rows] == [("A", "report.txt")]
    code, out, _ = run("--db", db_url, "changes", "--since", "2", "--format", "jsonl")
    retired = {(c["collection"], c["document"]) for c in map(json.loads, out.splitlines()) if c["change"] == "retired"}
    assert retired == {("A", "report.txt")}


def test_collection_option_puts_roots_together_and_a_second_uri_is_an_outcome(
    db_url: str, two_roots: tuple[Path, Path]
) -> None:
    a, b = two_roots
    code, _out, err = run("--db", db_url, "ingest", str(a), str(b), "--collection", "alle", "--workers", "1")
    assert code == 0, err
    got = latest_outcomes(db_url)
    assert got["report.txt"][0] == "added"
    assert len(got) == 4  # one outcome per URI here; the second report.txt is named below
    _, rows = run_sql(db_url, "SELECT uri, status, reason, message FROM ingestion_outcomes WHERE reason = 'uri_taken'")
    [(uri, status, _, message)] = [tuple(r) for r in rows]
    assert (uri, status) == ("report.txt", "skipped")
    assert str(b / "report.txt") in message
    assert "'alle'" in message
    with Store(db_url, migrate=False) as store:
        assert store.collections() == {"alle": 4}


def test_the_adapters_and_serve_filter_by_collection(sqlite_url: str, two_roots: tuple[Path, Path]) -> None:
    from citeline.adapters.langchain import CitelineLoader, CitelineRetriever
    from citeline.adapters.llama_index import CitelineRetriever as LlamaRetriever
    from citeline.present.web import App

    a, b = two_roots
    with Store(sqlite_url) as store:
        ingest_files(store, [a], IngestOptions(workers=1))
        ingest_files(store, [b], IngestOptions(workers=1))
        docs = CitelineRetriever(store=store, collection="A").invoke("Bericht OR rapport")
        assert docs
        assert {d.metadata["collection"] for d in docs} == {"A"}
        loaded = CitelineLoader(store, collection="B").load()
        assert len({d.metadata["document"] for d in loaded}) == 3
        nodes = LlamaRetriever(store, collection="B").retrieve("Bericht OR rapport")
        assert nodes
        assert {n.node.metadata["collection"] for n in nodes} == {"B"}
        app = App(store, collection="B")
        status, _, body = app.handle("GET", "/", {}, b"")
        assert status == 200
        assert "annexe.txt" in body.decode()
        assert "notes.txt" not in body.decode()
        status, _, body = app.handle("GET", "/search?q=Zaunk%C3%B6nig", {}, b"")
        assert "No chunk matches" in body.decode()
        status, _, body = App(store).handle("GET", "/document?uri=report.txt", {}, b"")
        assert status == 400
        assert "name one with --collection" in body.decode()
        status, _, body = App(store).handle("GET", "/document?uri=report.txt&collection=A", {}, b"")
        assert status == 200
        assert "Zaunkönig" in body.decode()


def test_migration_puts_existing_documents_in_the_collection_of_their_root(
    db_url: str, two_roots: tuple[Path, Path]
) -> None:
    """Documents stored before 0008 (here: downgraded to 0005, where URIs were one namespace) go to
    the collection named for the folder they were ingested from; no version or chunk is lost (on
    SQLite the table copy would cascade-delete them with foreign keys on)."""
    a, b = two_roots
    (b / "report.txt").rename(b / "rapport.txt")  # before 0008 two roots could not both hold report.txt
    (b / "more.txt").rename(b / "plus%FF.txt")  # a name spelled like an escape
    with Store(db_url) as store:
        ingest_files(store, [a], IngestOptions(workers=1))
        ingest_files(store, [b], IngestOptions(workers=1))
    engine = store_db.make_engine(db_url)
    counts = "SELECT (SELECT count(*) FROM document_versions), (SELECT count(*) FROM chunks)"
    with engine.connect() as conn:
        before = tuple(conn.execute(text(counts)).one())
    store_db.downgrade(engine, "0005")
    with engine.begin() as conn:
        assert tuple(conn.execute(text(counts)).one()) == before
        assert "collection" not in list(conn.execute(text("SELECT * FROM documents")).keys())
        # as 0005 stored it: the name as it is
        conn.execute(
            text("UPDATE documents SET uri = 'plus%FF.txt', last_path = :path WHERE uri = 'plus%25FF.txt'"),
            {"path": str(b / "plus%FF.txt")},
        )
    store_db.upgrade(engine)
    store_db.check(engine)
    with engine.connect() as conn:
        assert tuple(conn.execute(text(counts)).one()) == before
        got = sorted(tuple(r) for r in conn.execute(text("SELECT collection, uri FROM documents")))
        view = conn.execute(text("SELECT DISTINCT collection FROM chunk_provenance")).scalars().all()
    engine.dispose()
    assert got == [
        ("A", "notes.txt"),
        ("A", "report.txt"),
        ("B", "extra/annexe.txt"),
        ("B", "plus%25FF.txt"),
        ("B", "rapport.txt"),
    ]
    assert sorted(view) == ["A", "B"]
    # and the next ingest of each root finds its documents unchanged
    code, out, _ = run("--db", db_url, "ingest", str(a), str(b), "-q")
    assert code == 0
    assert out.splitlines()[2].split()[:3] == ["0", "0", "5"]


def test_collection_of_an_old_document_as_a_table() -> None:
    import importlib

    migration = importlib.import_module("citeline.migrations.versions.0008_collections")
    cases = [
        ("sub/report.txt", "/data/Études/sub/report.txt", None, "Études"),
        ("report.txt", "/data/A/report.txt", '["/elsewhere/B"]', "A"),  # the path tells, not the run
        ("report.txt", None, '["corpus/B"]', "B"),
        ("report.txt", None, '["corpus/B/report.txt"]', "B"),  # a file given directly: its folder
        ("report.txt", "/moved/x.txt", None, "default"),
        ("report.txt", None, '["."]', "default"),
    ]
    for uri, last_path, roots, expected in cases:
        assert migration.collection_of(uri, last_path, roots) == expected, (uri, last_path, roots)


# ----------------------------------------------------------------------------- 33.7: symbolic links


def test_links_out_of_the_folder_are_skipped_and_two_names_of_a_file_both_reported(db_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write(docs / "ok.txt", "Der Inhalt von ok.txt: Käsebrot.")
    os.symlink("ok.txt", docs / "dup_link.txt")
    secret = write(tmp_path / "secret" / "passwd.txt", "Geheimnis außerhalb des Ordners: Schlüssel.")
    os.symlink(secret, docs / "links_passwd.txt")
    os.symlink(secret.parent, docs / "linked_dir")
    code, _, err = run("--db", db_url, "ingest", str(docs), "--workers", "1")
    assert code == 0, err
    got = latest_outcomes(db_url)
    assert got["ok.txt"][0] == "added"  # the plain name is read, whichever sorts first
    assert got["dup_link.txt"][:2] == ("skipped", "same_file")
    assert "the same file as ok.txt" in (got["dup_link.txt"][2] or "")
    assert got["links_passwd.txt"][:2] == ("skipped", "link_outside")
    assert "--follow-links" in (got["links_passwd.txt"][2] or "")
    assert got["linked_dir"][:2] == ("skipped", "link_outside")
    with Store(db_url, migrate=False) as store:
        assert store.search("Schlüssel") == []
    code, _out, err = run("--db", db_url, "ingest", str(docs), "--workers", "1", "--follow-links")
    assert code == 0, err
    got = latest_outcomes(db_url)
    # one file, two names: a name through a linked folder is read, the link to the file named
    assert got["linked_dir/passwd.txt"][0] == "added"
    assert got["links_passwd.txt"][:2] == ("skipped", "same_file")
    assert "the same file as linked_dir/passwd.txt" in (got["links_passwd.txt"][2] or "")
    assert got["dup_link.txt"][:2] == ("skipped", "same_file")
    with Store(db_url, migrate=False) as store:
        assert [h.document for h in store.search("Schlüssel")] == ["linked_dir/passwd.txt"]


def test_a_link_to_an_ancestor_is_no_loop_with_follow_links(sqlite_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write(docs / "sub" / "tief.txt", "Tief im Ordner: Überraschung.")
    os.symlink(docs, docs / "sub" / "zurück")
    code, _, err = run("--db", sqlite_url, "ingest", str(docs), "--workers", "1", "--follow-links")
    assert code == 0, err
    got = latest_outcomes(sqlite_url)
    assert got == {"sub/tief.txt": ("added", None, None, "docs")}


# ----------------------------------------------------------------------------- 30.6: remembered failures


def test_a_failure_is_remembered_by_content_until_the_file_changes(db_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    write(docs / "gut.txt", "Eine gute Datei: Gemütlichkeit.")
    broken = docs / "kaputt.pdf"
    broken.write_bytes(b"%PDF-1.7\n% kein g\xc3\xbcltiges PDF\n")
    code, _, err = run("--db", db_url, "ingest", str(docs), "--workers", "1")
    assert code == 1
    assert "kaputt.pdf" in err
    first = latest_outcomes(db_url)["kaputt.pdf"]
    assert first[0] == "failed"
    # the same bytes: skipped, in one outcome line saying why and how to retry
    code, out, err = run("--db", db_url, "ingest", str(docs), "--workers", "1")
    assert code == 0, err
    assert out.splitlines()[2].split()[:4] == ["0", "0", "2", "0"]
    again = latest_outcomes(db_url)["kaputt.pdf"]
    assert again[:2] == ("skipped", "failed_before")
    assert f"({first[1]})" in (again[2] or "")
    assert "--retry-failed" in (again[2] or "")
    # and again on a third run: what is remembered is the last attempt, not the last outcome line
    assert run("--db", db_url, "ingest", str(docs), "-q")[0] == 0
    assert latest_outcomes(db_url)["kaputt.pdf"][:2] == ("skipped", "failed_before")
    # --retry-failed reads it
    code, _, _ = run("--db", db_url, "ingest", str(docs), "-q", "--retry-failed")
    assert code == 1
    assert latest_outcomes(db_url)["kaputt.pdf"][0] == "failed"
    # other options (a longer --timeout) read it too: they may be what it needed
    code, _, _ = run("--db", db_url, "ingest", str(docs), "-q", "--timeout", "600")
    assert code == 1
    # a changed file is read
    shutil.copy(PDF_FIXTURES / "multilingual.pdf", broken)
    code, out, err = run("--db", db_url, "ingest", str(docs), "--timeout", "600")
    assert code == 0, err
    assert latest_outcomes(db_url)["kaputt.pdf"][0] == "added"


def test_a_file_that_failed_then_succeeded_is_not_skipped_when_it_reverts(sqlite_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    good = (PDF_FIXTURES / "multilingual.pdf").read_bytes()
    bad = b"%PDF-1.7\n% nicht lesbar\n"
    target = docs / "wechsel.pdf"
    target.write_bytes(bad)
    assert run("--db", sqlite_url, "ingest", str(docs), "-q")[0] == 1
    target.write_bytes(good)
    assert run("--db", sqlite_url, "ingest", str(docs), "-q")[0] == 0
    target.write_bytes(bad)  # the last attempt succeeded: this content is tried again
    assert run("--db", sqlite_url, "ingest", str(docs), "-q")[0] == 1
    assert latest_outcomes(sqlite_url)["wechsel.pdf"][0] == "failed"


# ----------------------------------------------------------------------------- 30.6: the rates view, sql jsonl


def test_verification_rates_divide_as_real_numbers(db_url: str) -> None:
    with Store(db_url) as store:
        results = [("S1", None, "verified" if i < 65 else "quote_not_found", (), None, i < 65) for i in range(99)]
        store.log_verification(answer_sha256="0" * 64, context_id=None, policy="strict", coverage=None, results=results)
    columns, rows = run_sql(db_url, "SELECT citations, verified, verified_rate, passed_rate FROM verification_rates")
    [row] = [dict(zip(columns, r, strict=True)) for r in rows]
    assert (row["citations"], row["verified"]) == (99, 65)
    assert round(float(row["verified_rate"]), 3) == 0.657  # was 0.0 on SQLite
    assert round(float(row["passed_rate"]), 3) == 0.657


def test_sql_jsonl_writes_one_object_per_row(sqlite_url: str, tmp_path: Path) -> None:
    """(On SQLite: the sql command refuses the test server's superuser, and the format is the
    command's, not the database's.)"""
    db_url = sqlite_url
    write(tmp_path / "d" / "zeilen.txt", "Zeile für Zeile: Ölkännchen.")
    assert run("--db", db_url, "ingest", str(tmp_path / "d"), "-q")[0] == 0
    code, out, err = run(
        "--db",
        db_url,
        "sql",
        "SELECT collection, document_uri, text FROM chunk_provenance ORDER BY chunk_id",
        "--format",
        "jsonl",
    )
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows == [{"collection": "d", "document_uri": "zeilen.txt", "text": "Zeile für Zeile: Ölkännchen."}]
    assert "Ölkännchen" in out  # not \u-escaped
    code, out, _ = run("--db", db_url, "sql", "SELECT 1 AS n WHERE 1 = 0", "--format", "jsonl")
    assert code == 0
    assert out == ""
