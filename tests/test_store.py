"""The store on real databases: migrations, versions, the chunk invariant, read queries."""

from __future__ import annotations

import itertools
import math
import shutil
import struct
from array import array
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from citeline.batch import IngestOptions, ingest_files
from citeline.ingest.pipeline import PipelineSettings
from citeline.store import NotFound, ReadOnlyViolation, Store
from citeline.store import db as store_db
from citeline.store.writer import pack_xs, unpack_xs
from tests import sqlite_head
from tests.conftest import PDF_FIXTURES
from tests.invariants import check_chunk

CONTENT_TABLES = ["documents", "document_versions", "pages", "lines", "furniture", "hyphenations", "chunks"]


def row_counts(store: Store) -> dict[str, int]:
    with store.engine.connect() as conn:
        return {t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in CONTENT_TABLES}


def check_all_chunks(store: Store) -> int:
    """The chunk invariant for every stored chunk; returns how many were checked."""
    n = 0
    with store.engine.connect() as conn:
        versions = conn.execute(text("SELECT id, raw_text, chunk_count FROM document_versions")).all()
        for vid, raw, chunk_count in versions:
            furniture = [
                tuple(r)
                for r in conn.execute(
                    text("SELECT raw_start, raw_end FROM furniture WHERE version_id = :v"), {"v": vid}
                )
            ]
            joined = {
                i
                for a, b in conn.execute(
                    text("SELECT raw_start, raw_end FROM hyphenations WHERE version_id = :v AND joined"),
                    {"v": vid},
                )
                for i in range(a, b)
            }
            rows = (
                conn.execute(
                    text(
                        "SELECT id, text, raw_start, raw_end, offset_map FROM chunks "
                        "WHERE version_id = :v ORDER BY ordinal"
                    ),
                    {"v": vid},
                )
                .mappings()
                .all()
            )
            assert len(rows) == chunk_count  # a version is all or nothing
            for row in rows:
                chunk: dict[str, Any] = dict(row)
                chunk["offset_map"] = bytes(chunk["offset_map"])
                check_chunk(raw, chunk, furniture=furniture, joined_hyphens=joined)
                n += 1
    return n


def corpus_copy(tmp_path: Path, *names: str) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    for name in names:
        shutil.copy(PDF_FIXTURES / name, root / name)
    return root


def test_migrations_upgrade_downgrade_upgrade_and_check(db_url: str) -> None:
    engine = store_db.make_engine(db_url)
    store_db.upgrade(engine)
    assert store_db.current_revision(engine) == store_db.head_revision() == store_db.script_head()
    store_db.check(engine)  # models and migrations agree
    store_db.downgrade(engine, "base")
    assert store_db.current_revision(engine) is None
    store_db.upgrade(engine)
    store_db.check(engine)
    with engine.connect() as conn:
        cols = conn.execute(text("SELECT * FROM chunk_provenance")).keys()
    assert {
        "chunk_id",
        "document_uri",
        "version_no",
        "is_current",
        "content_hash",
        "chunk_hash",
        "page_start",
        "page_end",
        "raw_start",
        "raw_end",
        "text",
    } <= set(cols)
    engine.dispose()


def test_a_new_sqlite_database_gets_the_recorded_head_schema_without_alembic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recorded SQLite head (``citeline/migrations/sqlite_head.py``) is what the migrations make;
    a new SQLite file is given it without running a revision, and it is the same schema: alembic
    finds nothing to change, and the search index works."""
    assert sqlite_head.recorded() == sqlite_head.migrated(), "regenerate: python -m tests.sqlite_head --regenerate"

    def no_alembic(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a new SQLite database was migrated revision by revision")

    monkeypatch.setattr(store_db, "upgrade", no_alembic)
    engine = store_db.make_engine(f"sqlite:///{tmp_path / 'new.db'}")
    store_db.ensure_schema(engine)
    assert store_db.current_revision(engine) == store_db.HEAD
    assert store_db.sqlite_schema(engine) == sqlite_head.recorded()[1]
    monkeypatch.undo()
    store_db.check(engine)  # models and the schema agree
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO chunk_search(rowid, body) VALUES (1, 'offset maps')"))
        assert conn.execute(text("SELECT rowid FROM chunk_search WHERE chunk_search MATCH 'maps'")).scalar() == 1
    engine.dispose()


def test_a_sqlite_database_with_tables_of_its_own_is_migrated_by_alembic(tmp_path: Path) -> None:
    engine = store_db.make_engine(f"sqlite:///{tmp_path / 'theirs.db'}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE notes (body TEXT)"))
    assert not store_db.create_sqlite_head(engine)  # not empty: not ours to lay out
    store_db.ensure_schema(engine)
    assert store_db.current_revision(engine) == store_db.HEAD
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM notes")).scalar() == 0
    engine.dispose()


def test_ingest_fixtures_end_to_end_with_the_chunk_invariant(db_url: str, tmp_path: Path) -> None:
    root = corpus_copy(
        tmp_path,
        "policy_handbook.pdf",
        "two_column_paper.pdf",
        "scanned_page.pdf",
        "truncated.pdf",
        "multilingual.pdf",
    )
    with Store(db_url) as store:
        summary = ingest_files(store, [root], IngestOptions(workers=2))
        assert summary.counts() | {"pages": 0, "chunks": 0} == {
            "added": 4,
            "updated": 0,
            "skipped": 0,
            "failed": 1,
            "pages": 0,
            "chunks": 0,
        }
        (failed,) = [o for o in summary.outcomes if o.status == "failed"]
        assert failed.reason == "corrupt"
        assert failed.message == f"{root / 'truncated.pdf'}: corrupt PDF (Unexpected EOF)"
        assert check_all_chunks(store) == summary.chunks > 0
        scanned = store.document("scanned_page.pdf")
        assert [p.has_text for p in scanned.pages] == [True, True]  # page 2 read by OCR
        assert [p.ocr_engine is not None for p in scanned.pages] == [False, True]
        assert scanned.versions[0].extractor == "pdfium+tesseract"  # auto: pdfium
        _, rows = store.sql(
            "SELECT document_uri, count(*) FROM chunk_provenance WHERE is_current = 1 GROUP BY document_uri ORDER BY 1"
        )
        assert [r[0] for r in rows] == [
            "multilingual.pdf",
            "policy_handbook.pdf",
            "scanned_page.pdf",
            "two_column_paper.pdf",
        ]
        runs = store.sql("SELECT status, added, failed FROM ingestion_runs")[1]
        assert runs == [("completed", 4, 1)]
        outcomes = store.sql("SELECT status, count(*) FROM ingestion_outcomes GROUP BY status ORDER BY 1")[1]
        assert outcomes == [("added", 4), ("failed", 1)]


def test_reingest_unchanged_adds_no_rows(db_url: str, tmp_path: Path) -> None:
    root = corpus_copy(tmp_path, "policy_handbook.pdf", "multilingual.pdf")
    with Store(db_url) as store:
        ingest_files(store, [root], IngestOptions(workers=1))
        before = row_counts(store)
        again = ingest_files(store, [root], IngestOptions(workers=1))
        assert row_counts(store) == before
        assert [(o.status, o.reason) for o in again.outcomes] == [("skipped", "unchanged")] * 2


def test_changed_file_becomes_a_new_version_and_the_old_one_stays(db_url: str, tmp_path: Path) -> None:
    root = corpus_copy(tmp_path, "policy_handbook.pdf")
    target = root / "policy_handbook.pdf"
    with Store(db_url) as store:
        ingest_files(store, [root], IngestOptions(workers=1))
        old_chunks = [c.chunk_id for c in store.iter_chunks()]
        shutil.copy(PDF_FIXTURES / "policy_handbook_v2.pdf", target)
        summary = ingest_files(store, [root], IngestOptions(workers=1))
        assert [(o.status, o.version_no) for o in summary.outcomes] == [("updated", 2)]
        info = store.document("policy_handbook.pdf")
        assert [(v.version_no, v.is_current) for v in info.versions] == [(1, False), (2, True)]
        assert info.versions[0].superseded_at is not None
        # old chunks stay resolvable, flagged not current
        old = store.chunk(old_chunks[0])
        assert old is not None
        assert not old.is_current
        rows = store.sql("SELECT version_no, is_current, count(*) FROM chunk_provenance GROUP BY 1, 2 ORDER BY 1")[1]
        assert [(r[0], r[1]) for r in rows] == [(1, 0), (2, 1)]
        assert {c.version_no for c in store.iter_chunks(all_versions=True)} == {1, 2}
        assert {c.version_no for c in store.iter_chunks()} == {2}
        # reverting the file makes version 1 current again, with its old chunk ids
        shutil.copy(PDF_FIXTURES / "policy_handbook.pdf", target)
        summary = ingest_files(store, [root], IngestOptions(workers=1))
        assert [(o.status, o.version_no, o.message) for o in summary.outcomes] == [("updated", 1, "restored version 1")]
        assert [c.chunk_id for c in store.iter_chunks()] == old_chunks
        assert check_all_chunks(store) > 0


def test_settings_change_needs_reprocess(sqlite_url: str, tmp_path: Path) -> None:
    root = corpus_copy(tmp_path, "multilingual.pdf")
    with Store(sqlite_url) as store:
        ingest_files(store, [root], IngestOptions(workers=1))
        smaller = IngestOptions(settings=PipelineSettings(chunk_target=200, chunk_overlap=20), workers=1)
        summary = ingest_files(store, [root], smaller)
        assert [(o.status, o.reason) for o in summary.outcomes] == [("skipped", "settings_changed")]
        summary = ingest_files(store, [root], IngestOptions(settings=smaller.settings, workers=1, reprocess=True))
        assert [(o.status, o.version_no) for o in summary.outcomes] == [("updated", 2)]
        assert all(len(c.text) <= 200 for c in store.iter_chunks())


def test_provenance_resolves_pages_boxes_and_context(sqlite_url: str, tmp_path: Path) -> None:
    root = corpus_copy(tmp_path, "policy_handbook.pdf")
    with Store(sqlite_url) as store:
        ingest_files(store, [root], IngestOptions(workers=1))
        chunks = list(store.iter_chunks())
        crossing = next(c for c in chunks if c.page_start != c.page_end)
        p = store.provenance(crossing.chunk_id)
        assert p.pages == (crossing.page_start, crossing.page_end)
        assert {b.page for b in p.boxes} == set(p.pages)
        # no box lands on the running header or footer the chunk's raw span runs over
        assert all(b.top > 60 and b.bottom < 740 for b in p.boxes)
        assert p.raw_text == store.raw_text(crossing.version_id)[crossing.raw_start : crossing.raw_end]
        assert p.context_before
        assert p.context_after
        with pytest.raises(NotFound, match="Chunk 'ck_nope' does not exist"):
            store.provenance("ck_nope")


def test_sql_is_read_only_in_the_database(db_url: str, tmp_path: Path) -> None:
    root = corpus_copy(tmp_path, "multilingual.pdf")
    with Store(db_url) as store:
        ingest_files(store, [root], IngestOptions(workers=1))
        before = row_counts(store)
        for statement in ("DELETE FROM chunks", "UPDATE documents SET uri = 'x'", "DROP TABLE chunks"):
            with pytest.raises(ReadOnlyViolation, match="read-only"):
                store.sql(statement)
        assert row_counts(store) == before
        cols, rows = store.sql("SELECT count(*) AS n FROM chunks")
        assert cols == ["n"]
        assert rows == [(before["chunks"],)]


@given(st.lists(st.floats(min_value=0, max_value=2000, allow_nan=False, width=32), max_size=60))
def test_line_geometry_blob_round_trips_within_a_hundredth_of_a_point(xs: list[float]) -> None:
    blob = pack_xs(array("f", xs))
    back = unpack_xs(blob)
    assert len(back) == len(xs)
    for a, b in zip(xs, back, strict=True):
        assert abs(a - b) <= 1 / 128 + 1e-3
    if xs and all(abs(b - a) < 500 for a, b in itertools.pairwise(xs)):
        assert len(blob) == 1 + 4 + 2 * (len(xs) - 1)  # the compact form: 2 bytes per edge


def test_chunks_by_id_in_one_query(sqlite_url: str) -> None:
    with Store(sqlite_url) as store:
        ingest_files(store, [PDF_FIXTURES / "multilingual.pdf"], IngestOptions(workers=1))
        known = [c.chunk_id for c in store.iter_chunks()]
        got = store.chunks([known[-1], "no-such-chunk", known[0], known[-1]])
        assert set(got) == {known[0], known[-1]}
        assert got[known[0]] == store.chunk(known[0])
        assert got[known[-1]] == store.chunk(known[-1])
        assert any(not c.text.isascii() for c in got.values())  # the multilingual text came back whole
        assert store.chunks([]) == {}


def test_line_geometry_blob_format_literally() -> None:
    # 72 pt = 4608/64; steps of 32/64 and 496/64 pt; a step over 512 pt falls back to float32
    blob = pack_xs(array("f", [72.0, 72.5, 80.25]))
    assert blob == b"\x02" + struct.pack("<i", 4608) + struct.pack("<hh", 32, 496)
    assert list(unpack_xs(blob)) == [72.0, 72.5, 80.25]
    assert list(unpack_xs(pack_xs(array("f", [-3.0, 0.015625, -3.0])))) == [-3.0, 0.015625, -3.0]
    wide = pack_xs(array("f", [10.0, 600.0]))
    assert wide == b"\x01" + struct.pack("<ff", 10.0, 600.0)
    assert pack_xs(array("f")) == b"\x01"


def test_geometry_off_the_page_keeps_its_values() -> None:
    # a broken PDF can place a glyph at an infinite or undefined x: stored as float32, as drawn
    xs = [72.0, float("inf"), 80.5]
    back = unpack_xs(pack_xs(array("f", xs)))
    assert list(back) == xs
    back = unpack_xs(pack_xs(array("f", [1.0, float("nan")])))
    assert back[0] == 1.0
    assert math.isnan(back[1])


def test_unknown_geometry_blob_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        unpack_xs(b"\x07abc")
