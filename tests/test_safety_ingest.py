"""Hostile and careless input to ``ingest`` and ``status``, on SQLite and the real PostgreSQL
server: only regular files are read, hostile PDFs fail within seconds, library warnings stay off
stderr, file names cannot split a log line, killed runs are marked, duplicates are named, and
``--mark-deleted`` cannot wipe a corpus by being run from the wrong folder."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from citeline.batch import IngestOptions, ingest_files
from citeline.cli import cli
from citeline.ingest.extract.guards import check_forms
from citeline.store import Store
from citeline.store.sql import run_sql
from tests.conftest import PDF_FIXTURES, corpus_manifest
from tests.hostile import flate_bomb, self_drawing_form, shared_resources

#: seconds a hostile file may hold a worker (the per-document limit is 300 s)
HOSTILE_BUDGET = 20


def run(*args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def outcomes(url: str) -> dict[str, tuple[str, str | None, str | None]]:
    """uri -> (status, reason, message) of the latest run."""
    _, rows = run_sql(
        url,
        "SELECT uri, status, reason, message FROM ingestion_outcomes "
        "WHERE run_id = (SELECT max(id) FROM ingestion_runs)",
    )
    return {r[0]: (r[1], r[2], r[3]) for r in rows}


# ----------------------------------------------------------------------------- only regular files


def test_fifos_devices_and_links_to_them_are_refused_without_hanging(db_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / "multilingual.pdf", docs / "réel.pdf")
    os.mkfifo(docs / "pipe.pdf")
    os.symlink("/dev/zero", docs / "zero.pdf")
    os.mkfifo(tmp_path / "other-pipe")
    os.symlink(tmp_path / "other-pipe", docs / "link-to-pipe.pdf")
    started = time.monotonic()
    # links out of the folder are skipped by default (test_collections.py): followed here, to reach them
    code, _, err = run("--db", db_url, "ingest", str(docs), "-q", "--workers", "1", "--follow-links")
    assert time.monotonic() - started < 60
    assert code == 1
    got = outcomes(db_url)
    assert got["réel.pdf"][0] == "added"
    assert got["pipe.pdf"][:2] == ("failed", "unreadable")
    assert "not a regular file but a FIFO" in (got["pipe.pdf"][2] or "")
    assert "not a regular file but a character device" in (got["zero.pdf"][2] or "")
    assert got["zero.pdf"][:2] == ("failed", "unreadable")
    assert got["link-to-pipe.pdf"][:2] == ("failed", "unreadable")
    assert "not a regular file but a FIFO" in (got["link-to-pipe.pdf"][2] or "")
    assert "Traceback" not in err
    # status never blocks on them either
    code, out, _ = run("--db", db_url, "status", str(docs), "--format", "json")
    assert code == 0
    # zero.pdf links out of the folder: ingest would not read it, so it is not "new"
    assert {e["uri"] for e in json.loads(out)} >= {"pipe.pdf"}


def test_a_document_whose_file_became_a_fifo_is_not_read_by_status(db_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / "multilingual.pdf", docs / "a.pdf")
    assert run("--db", db_url, "ingest", str(docs), "-q")[0] == 0
    (docs / "a.pdf").unlink()
    os.mkfifo(docs / "a.pdf")
    started = time.monotonic()
    code, out, _ = run("--db", db_url, "status", "--format", "json")
    assert time.monotonic() - started < 30
    assert code == 0
    # no readable document is there any more
    assert json.loads(out) == [
        {"state": "missing", "collection": "docs", "uri": "a.pdf", "path": str(docs / "a.pdf"), "version": 1}
    ]


def test_the_size_limit_applies_to_the_file_a_link_points_at(db_url: str, tmp_path: Path) -> None:
    from citeline.ingest.extract.files import Limits

    docs = tmp_path / "docs"
    docs.mkdir()
    big = tmp_path / "big.pdf"
    shutil.copy(PDF_FIXTURES / "policy_handbook.pdf", big)
    os.symlink(big, docs / "small-looking.pdf")
    with Store(db_url) as store:
        options = IngestOptions(workers=1, limits=Limits(max_file_bytes=1000), follow_links=True)
        summary = ingest_files(store, [docs], options)
    [outcome] = summary.outcomes
    assert outcome.status == "failed"
    assert outcome.reason == "too_large"
    assert f"{big.stat().st_size:,}" in (outcome.message or "") or "limit" in (outcome.message or "")


# ----------------------------------------------------------------------------- hostile PDFs


@pytest.mark.parametrize("extractor", ["pdfplumber", "pdfium"])
def test_hostile_pdfs_fail_within_seconds(db_url: str, tmp_path: Path, extractor: str) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    self_drawing_form(docs / "selfref.pdf")
    shared_resources(docs / "shared.pdf")
    if extractor == "pdfplumber":  # pdfium inflates lazily, in bounded pieces: the bomb only costs time there
        flate_bomb(docs / "bomb.pdf")
    started = time.monotonic()
    code, _, err = run("--db", db_url, "ingest", str(docs), "-q", "--workers", "1", "--extractor", extractor)
    elapsed = time.monotonic() - started
    assert elapsed < HOSTILE_BUDGET, f"hostile files held the worker {elapsed:.0f} s"
    got = outcomes(db_url)
    assert got["selfref.pdf"][:2] == ("failed", "corrupt")
    assert "form XObject 5 draws itself" in (got["selfref.pdf"][2] or "")
    if extractor == "pdfplumber":
        assert got["bomb.pdf"][:2] == ("failed", "too_large")
        assert "inflates to more than 256 MB" in (got["bomb.pdf"][2] or "")
    # the look-alike is not refused, and its text is there
    assert got["shared.pdf"][0] == "added"
    with Store(db_url) as store:
        assert "Shared resources, drawn once - café." in next(store.iter_chunks(document="shared.pdf")).text
    assert code == 1
    assert "Traceback" not in err


def test_the_form_guard_passes_every_real_pdf() -> None:
    """No false alarm on the real corpus (forms, object streams, shared resources)."""
    from tests.conftest import CORPUS

    rows = corpus_manifest()
    for row in rows:
        path = CORPUS / row["file"]
        check_forms(str(path), path.read_bytes())  # raises on a loop


# ----------------------------------------------------------------------------- log lines


def test_library_warnings_go_to_the_log_not_stderr(db_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    data = (PDF_FIXTURES / "multilingual.pdf").read_bytes()
    head, sep, tail = data.partition(b"/MediaBox")
    assert sep
    box_end = tail.index(b"]") + 1
    (docs / "badbox.pdf").write_bytes(head + b"/MediaBox [0 0 abc]" + tail[box_end:])
    # pdfminer (the pdfplumber backend) is the library that warns about this box; pdfium, the
    # default, reads the page without a word
    pdfplumber = ("--extractor", "pdfplumber")
    code, _, err = run("--db", db_url, "ingest", str(docs), "--workers", "1", *pdfplumber)
    assert code == 0
    assert "MediaBox" not in err
    assert err.count("\n") == 1  # the one progress line of the one file
    code, _, err = run(
        "--db", db_url, "ingest", str(docs), "--workers", "1", "--reprocess", "-v", "--chunk-size", "900", *pdfplumber
    )
    assert code == 0
    assert "warning: " in err
    assert "badbox.pdf: pdfminer.pdfpage: Invalid MediaBox in /Page" in err


def test_a_newline_in_a_file_name_cannot_split_a_log_line(db_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / "multilingual.pdf", docs / "evil\nadded    fake.pdf")
    (docs / "empty\r\x1b[2J.pdf").write_bytes(b"")
    code, _, err = run("--db", db_url, "ingest", str(docs), "--workers", "1")
    assert code == 1
    lines = err.splitlines()
    assert any(line.startswith("added") and "evil\\nadded    fake.pdf" in line for line in lines)
    assert not any(line.startswith("added    fake.pdf") for line in lines)
    assert "\x1b" not in err
    assert any("empty\\r\\x1b[2J.pdf" in line for line in lines)
    # the URI itself is stored as it is: it names the real file
    assert "evil\nadded    fake.pdf" in outcomes(db_url)


# ----------------------------------------------------------------------------- runs and identity


def test_a_run_whose_process_is_gone_is_marked_interrupted(db_url: str, tmp_path: Path) -> None:
    """A run left ``running`` by a killed process (its pid no longer exists on this host) becomes
    ``interrupted`` when the next run starts; a run of a live process is left alone."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    with Store(db_url) as store:
        dead_run = store.begin_run(roots=["x"], settings={}, settings_hash="h", executor="local", workers=1)
        live_run = store.begin_run(roots=["y"], settings={}, settings_hash="h", executor="local", workers=1)
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE ingestion_runs SET pid = :pid WHERE id = :id"), {"pid": gone.pid, "id": dead_run})
        other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        conn.execute(text("UPDATE ingestion_runs SET pid = :pid WHERE id = :id"), {"pid": other.pid, "id": live_run})
    engine.dispose()
    try:
        docs = tmp_path / "docs"
        docs.mkdir()
        shutil.copy(PDF_FIXTURES / "multilingual.pdf", docs)
        assert run("--db", db_url, "ingest", str(docs), "-q")[0] == 0
        _, rows = run_sql(db_url, "SELECT id, status, host FROM ingestion_runs ORDER BY id")
        assert [(r[0], r[1]) for r in rows] == [
            (dead_run, "interrupted"),
            (live_run, "running"),
            (live_run + 1, "completed"),
        ]
        assert {r[2] for r in rows} == {socket.gethostname()}
    finally:
        other.kill()
        other.wait()


def test_the_same_folder_from_its_parent_is_named_a_duplicate(db_url: str, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "docs").mkdir(parents=True)
    shutil.copy(PDF_FIXTURES / "multilingual.pdf", corpus / "docs" / "résumé.pdf")
    assert run("--db", db_url, "ingest", str(corpus / "docs"), "-q")[0] == 0
    code, _, err = run("--db", db_url, "ingest", str(corpus), "--workers", "1")
    assert code == 0
    assert "duplicate of résumé.pdf in collection 'docs'" in err
    assert outcomes(db_url)["docs/résumé.pdf"][2] == "duplicate of résumé.pdf in collection 'docs'"
    code, out, _ = run("--db", db_url, "status", "--duplicates", "--format", "json")
    assert code == 0
    dupes = {(e["uri"], e["of"]) for e in json.loads(out) if e["state"] == "duplicate"}
    assert ("docs/résumé.pdf", "résumé.pdf") in dupes


def test_status_from_another_folder_finds_the_files(db_url: str, tmp_path: Path) -> None:
    """Paths are resolved against where the ingest ran (stored absolute), not the working folder."""
    work = tmp_path / "work"
    (work / "docs").mkdir(parents=True)
    for name in ("multilingual.pdf", "policy_handbook.pdf", "layout_footnote.pdf"):
        shutil.copy(PDF_FIXTURES / name, work / "docs" / name)
    assert run("--db", db_url, "ingest", "docs", "-q", cwd=work)[0] == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, out, _ = run("--db", db_url, "status", "--format", "json", cwd=elsewhere)
    assert code == 0
    assert json.loads(out) == []
    code, out, _ = run("--db", db_url, "status", "--mark-deleted", cwd=elsewhere)
    assert code == 0
    assert "Everything is up to date." in out
    _, rows = run_sql(db_url, "SELECT count(*) FROM documents WHERE deleted_at IS NULL")
    assert rows[0][0] == 3


def test_mark_deleted_refuses_to_delete_most_of_the_corpus(db_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("multilingual.pdf", "policy_handbook.pdf", "layout_footnote.pdf"):
        shutil.copy(PDF_FIXTURES / name, docs / name)
    assert run("--db", db_url, "ingest", str(docs), "-q")[0] == 0
    moved = tmp_path / "moved"
    docs.rename(moved)  # an unmounted share looks the same
    code, _, err = run("--db", db_url, "status", "--mark-deleted")
    assert code == 2
    assert err.strip() == (
        "Error: --mark-deleted would mark 3 of 3 current documents deleted: their files are not where they "
        "were ingested from (a moved or unmounted folder?); if they are really gone, add --force"
    )
    _, rows = run_sql(db_url, "SELECT count(*) FROM chunk_provenance WHERE is_current = 1")
    assert rows[0][0] > 0  # nothing was marked
    # one missing of three is below the guard
    moved.rename(docs)
    (docs / "layout_footnote.pdf").unlink()
    code, out, _ = run("--db", db_url, "status", "--mark-deleted")
    assert code == 0
    assert ["deleted", "docs", "layout_footnote.pdf"] in [line.split()[:3] for line in out.splitlines()]
    # and --force does what it says
    shutil.rmtree(docs)
    code, out, _ = run("--db", db_url, "status", "--mark-deleted", "--force")
    assert code == 0
    _, rows = run_sql(db_url, "SELECT count(*) FROM documents WHERE deleted_at IS NULL")
    assert rows[0][0] == 0


def test_a_version_that_fails_to_write_leaves_no_document_row(db_url: str, tmp_path: Path) -> None:
    """The document row is written in its version's transaction: a write that fails half way
    (here a chunk offset no database integer holds, after the document row and the version went
    in) leaves neither, and the same file then stores cleanly."""
    import dataclasses

    from citeline.ingest.pipeline import PipelineSettings, process_file

    path = tmp_path / "Übersicht.pdf"
    shutil.copy(PDF_FIXTURES / "multilingual.pdf", path)
    doc = process_file(path, path.name, PipelineSettings())
    broken = dataclasses.replace(doc, chunks=(*doc.chunks[:-1], dataclasses.replace(doc.chunks[-1], raw_end=2**70)))
    with Store(db_url) as store:
        with pytest.raises(Exception):  # noqa: B017, PT011 (the driver's own overflow error)
            store.write(broken)
        counts = [store.sql(f"SELECT count(*) FROM {t}")[1][0][0] for t in ("documents", "document_versions", "chunks")]
        assert counts == [0, 0, 0]
        assert store.write(doc).status == "added"
        counts = [store.sql(f"SELECT count(*) FROM {t}")[1][0][0] for t in ("documents", "document_versions")]
        assert counts == [1, 1]


def test_a_version_written_again_by_its_own_run_reports_what_the_first_write_did(db_url: str, tmp_path: Path) -> None:
    """A Dask task run again after its worker was killed between its write and its result finds
    its own version: it reports it as the first attempt did ("added"), so the run's outcomes count
    every version it stored; another run finds the same content "skipped" (unchanged)."""
    from citeline.ingest.pipeline import PipelineSettings, process_file

    path = tmp_path / "Übersicht.pdf"
    shutil.copy(PDF_FIXTURES / "multilingual.pdf", path)
    doc = process_file(path, path.name, PipelineSettings())
    with Store(db_url) as store:
        first = store.begin_run(roots=["x"], settings={}, settings_hash="h", executor="dask", workers=2)
        written = store.write(doc, run_id=first)
        again = store.write(doc, run_id=first)
        second = store.begin_run(roots=["x"], settings={}, settings_hash="h", executor="dask", workers=2)
        later = store.write(doc, run_id=second)
        versions = store.sql("SELECT count(*) FROM document_versions")[1][0][0]
    assert (written.status, again.status, later.status) == ("added", "added", "skipped")
    assert again.version_id == written.version_id == later.version_id
    assert again.message == "written by an earlier attempt of this run"
    assert versions == 1
