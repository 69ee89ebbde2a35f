"""Issue 34: stemmed search in each document's language, embeddings kept in the store (reused for
unchanged chunk texts), keyword/vector/hybrid search, contexts within a token budget with merged
neighbours, and the LangChain and LlamaIndex adapters' conventions. Real text files and PDFs, real
SQLite files and the real PostgreSQL (``db_url`` runs each test on both)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import text

from citeline.batch import IngestOptions, ingest_files
from citeline.cli import cli
from citeline.store import Store
from citeline.store import db as store_db

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


@pytest.fixture
def texts(db_url: str, tmp_path: Path) -> Store:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "study_en.txt").write_text(EN_TEXT, encoding="utf-8")
    (folder / "hopital_fr.txt").write_text(FR_TEXT, encoding="utf-8")
    store = Store(db_url)
    summary = ingest_files(store, [folder], IngestOptions(workers=1))
    assert summary.count("failed") == 0
    return store


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
