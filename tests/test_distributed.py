"""Scale-out on PostgreSQL: a real distributed.LocalCluster with two worker processes gives the
same chunks as the local executor; two `citeline ingest` processes racing on one database store
every version once; a killed Dask worker leaves no partial version."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from citeline.batch import IngestOptions, ingest_files
from citeline.store import Store
from tests.conftest import CORPUS, PDF_FIXTURES, PG_URL, _pg_schema_url, corpus_manifest

distributed = pytest.importorskip("distributed", reason="needs dask[distributed] (pip install 'citeline[dask]')")

FIXTURE_FILES = ["policy_handbook.pdf", "two_column_paper.pdf", "multilingual.pdf", "truncated.pdf", "scanned_page.pdf"]


@pytest.fixture
def pg_schema() -> Iterator[callable]:  # type: ignore[valid-type]
    """Factory of fresh PostgreSQL schemas (URLs), dropped afterwards."""
    if not PG_URL:
        pytest.skip("set CITELINE_TEST_PG_URL to run PostgreSQL tests")
    import uuid

    from sqlalchemy import create_engine

    admin = create_engine(PG_URL)
    made: list[str] = []

    def make() -> str:
        schema = f"t_{uuid.uuid4().hex[:12]}"
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        made.append(schema)
        return _pg_schema_url(schema)

    yield make
    with admin.begin() as conn:
        for schema in made:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in FIXTURE_FILES:
        shutil.copy(PDF_FIXTURES / name, folder / name)
    if CORPUS.exists():
        for row in corpus_manifest():
            if row["primary_kind"] in ("two-column", "hyphenation", "ligatures") and int(row["pages"] or 0) <= 15:
                os.symlink(CORPUS / row["file"], folder / row["file"])
    return folder


def snapshot(url: str) -> tuple[set[tuple[object, ...]], int, int]:
    """Chunks (id, text hash, spans, pages, content hash), versions and documents of a store."""
    with Store(url, migrate=False) as store, store.engine.connect() as conn:
        chunks = {
            tuple(r)
            for r in conn.execute(
                text(
                    "SELECT chunk_id, chunk_hash, content_hash, clean_start, clean_end, raw_start, raw_end, "
                    "page_start, page_end, document_uri, version_no FROM chunk_provenance"
                )
            )
        }
        versions = conn.execute(text("SELECT count(*) FROM document_versions")).scalar_one()
        documents = conn.execute(text("SELECT count(*) FROM documents")).scalar_one()
    return chunks, versions, documents


def check_consistent(url: str) -> None:
    """Every version has all its chunks and pages (nothing half-written)."""
    with Store(url, migrate=False) as store, store.engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT v.id, v.chunk_count, v.page_count, "
                "(SELECT count(*) FROM chunks c WHERE c.version_id = v.id), "
                "(SELECT count(*) FROM pages p WHERE p.version_id = v.id) FROM document_versions v"
            )
        ).all()
    for vid, chunk_count, page_count, chunks, pages in rows:
        assert (chunks, pages) == (chunk_count, page_count), f"version {vid} is partial"
    assert rows


def test_dask_executor_gives_the_same_store_as_the_local_one(docs: Path, pg_schema: callable) -> None:  # type: ignore[valid-type]
    local_url, dask_url = pg_schema(), pg_schema()
    with Store(local_url) as store:
        local = ingest_files(store, [docs], IngestOptions(follow_links=True, workers=2))
    with Store(dask_url) as store:
        remote = ingest_files(store, [docs], IngestOptions(follow_links=True, workers=2, executor="dask"))
    assert remote.counts() == local.counts()
    assert remote.count("failed") == 1  # truncated.pdf, reported the same way
    assert [o.message for o in remote.outcomes if o.status == "failed"] == [
        o.message for o in local.outcomes if o.status == "failed"
    ]
    assert snapshot(dask_url) == snapshot(local_url)
    check_consistent(dask_url)
    with Store(dask_url, migrate=False) as store:
        assert store.sql("SELECT executor, added FROM ingestion_runs")[1] == [("dask", local.count("added"))]


def test_dask_executor_with_sqlite_returns_results_to_one_writer(docs: Path, tmp_path: Path) -> None:
    url_local, url_dask = f"sqlite:///{tmp_path / 'l.db'}", f"sqlite:///{tmp_path / 'd.db'}"
    for name in os.listdir(docs):
        if name not in FIXTURE_FILES:
            (docs / name).unlink()
    with Store(url_local) as store:
        ingest_files(store, [docs], IngestOptions(follow_links=True, workers=1))
    with Store(url_dask) as store:
        summary = ingest_files(store, [docs], IngestOptions(follow_links=True, workers=2, executor="dask"))
    assert summary.count("added") == 4
    assert snapshot(url_dask) == snapshot(url_local)


def test_two_ingest_processes_racing_store_each_version_once(docs: Path, pg_schema: callable) -> None:  # type: ignore[valid-type]
    url = pg_schema()
    with Store(url):
        pass  # create the schema first, as `citeline db upgrade` would
    cmd = [
        sys.executable,
        "-m",
        "citeline.cli",
        "--db",
        url,
        "ingest",
        str(docs),
        "--workers",
        "1",
        "-q",
        "--allow-failures",
        "--follow-links",
    ]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [p.communicate(timeout=600) for p in procs]
    for p, (_, err) in zip(procs, results, strict=True):
        assert p.returncode == 0, err
        assert "Traceback" not in err
    files = len(os.listdir(docs)) - 1  # truncated.pdf fails in both
    _, versions, documents = snapshot(url)
    assert versions == documents == files  # no duplicate versions
    with Store(url, migrate=False) as store:
        added = store.sql("SELECT count(*) FROM ingestion_outcomes WHERE status = 'added'")[1][0][0]
        other = store.sql("SELECT DISTINCT status FROM ingestion_outcomes")[1]
    assert added == files  # every file ingested once, by one of the two
    assert {r[0] for r in other} <= {"added", "skipped", "failed"}
    check_consistent(url)


def test_killed_dask_worker_leaves_no_partial_version(docs: Path, pg_schema: callable) -> None:  # type: ignore[valid-type]
    import dask
    from distributed import Client, LocalCluster

    url = pg_schema()
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    killed = threading.Event()

    def kill_one_worker(outcome: object, done: int, total: int) -> None:
        if not killed.is_set():
            pid = next(iter(client.run(os.getpid).values()))
            os.kill(pid, signal.SIGKILL)
            killed.set()

    try:
        with Store(url) as store:
            summary = ingest_files(
                store,
                [docs],
                IngestOptions(follow_links=True, workers=2, executor="dask", scheduler=cluster.scheduler_address),
                progress=kill_one_worker,
            )
    finally:
        client.close()
        cluster.close()
    assert killed.is_set()
    assert len(summary.outcomes) == summary.total  # the run completed
    assert summary.count("added") + summary.count("failed") == summary.total
    _, versions, documents = snapshot(url)
    assert versions == summary.count("added") == documents
    check_consistent(url)
