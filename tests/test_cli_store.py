"""The command line over the store: ingest, status, chunks, show, provenance, sql, db, extract."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from citeline.cli import cli
from citeline.migrations import HEAD
from tests.conftest import CORPUS, PDF_FIXTURES, corpus_manifest
from tests.invariants import index_is_exact


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("policy_handbook.pdf", "multilingual.pdf", "empty.pdf"):
        shutil.copy(PDF_FIXTURES / name, folder / name)
    return folder


def test_ingest_summary_failures_and_exit_codes(sqlite_url: str, root: Path) -> None:
    code, out, err = run("--db", sqlite_url, "ingest", str(root), "--workers", "1")
    assert code == 1  # one file failed
    assert "added  updated  skipped  failed  pages  chunks  seconds" in out
    lines = out.splitlines()
    assert lines[2].split()[:4] == ["2", "0", "0", "1"]
    assert f"{root / 'empty.pdf'}: file is empty (0 bytes)" in err
    assert "Traceback" not in err
    # the failure is remembered by content: skipped, not failed again, until the file changes
    code, out, _ = run("ingest", str(root), "--db", sqlite_url, "-q")
    assert code == 0
    assert out.splitlines()[2].split()[:4] == ["0", "0", "3", "0"]
    code, out, _ = run("ingest", str(root), "--db", sqlite_url, "--allow-failures", "-q", "--retry-failed")
    assert code == 0
    assert out.splitlines()[2].split()[:4] == ["0", "0", "2", "1"]


def test_ingest_as_its_own_process_exits_at_once_with_its_output_and_its_store_complete(
    tmp_path: Path, root: Path
) -> None:
    """The real command (``citeline.cli.main``) ends with ``exit_now``: the summary and the failure
    line written through a pipe, the exit status kept, every version committed and SQLite's
    write-ahead log checkpointed (no ``-wal`` file left)."""
    db_path = tmp_path / "own.db"
    cmd = [sys.executable, "-m", "citeline.cli", "--db", f"sqlite:///{db_path}", "ingest", str(root), "--workers", "1"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1  # empty.pdf failed
    assert done.stdout.splitlines()[2].split()[:4] == ["2", "0", "0", "1"]
    assert f"{root / 'empty.pdf'}: file is empty (0 bytes)" in done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.glob("own.db*")) == ["own.db"]
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM document_versions").fetchone()[0] == 2
    again = [*cmd, "--allow-failures", "-q", "--retry-failed"]
    done = subprocess.run(again, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0
    assert done.stdout.splitlines()[2].split()[:4] == ["0", "0", "2", "1"]


def test_db_option_before_after_and_environment(tmp_path: Path, root: Path) -> None:
    a, b, c = (f"sqlite:///{tmp_path / n}" for n in ("a.db", "b.db", "c.db"))
    (root / "empty.pdf").unlink()
    assert run("--db", a, "ingest", str(root), "-q")[0] == 0
    assert run("ingest", str(root), "--db", b, "-q")[0] == 0
    assert run("ingest", str(root), "-q", env={"CITELINE_DB": c})[0] == 0
    for url in (a, b, c):
        code, out, _ = run("--db", url, "sql", "SELECT count(*) AS n FROM documents", "--format", "json")
        assert code == 0
        assert json.loads(out) == [{"n": 2}]


def test_bad_paths_and_options_are_usage_errors(sqlite_url: str, tmp_path: Path) -> None:
    code, _, err = run("--db", sqlite_url, "ingest", str(tmp_path / "nope"))
    assert code == 2
    assert err.strip() == f"Error: Path {str(tmp_path / 'nope')!r} does not exist"
    code, _, err = run("--db", sqlite_url, "ingest", str(tmp_path), "--chunk-size", "100", "--chunk-overlap", "100")
    assert code == 2
    assert "--chunk-overlap 100 must be below --chunk-size 100" in err
    code, _, err = run("--db", "sqlite:////no/such/folder/x.db", "chunks")
    assert code == 1
    assert err.strip() == "Error: Database '/no/such/folder/x.db': folder '/no/such/folder' does not exist"


def test_read_commands(sqlite_url: str, root: Path) -> None:
    run("--db", sqlite_url, "ingest", str(root), "-q", "--allow-failures")
    code, out, _ = run("--db", sqlite_url, "chunks", "--format", "jsonl")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert {
        "chunk_id",
        "document",
        "version",
        "text",
        "page_start",
        "page_end",
        "raw_start",
        "raw_end",
    } <= set(records[0])
    assert {r["document"] for r in records} == {"policy_handbook.pdf", "multilingual.pdf"}
    code, out, _ = run("--db", sqlite_url, "chunks", "--document", "multilingual.pdf", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows
    assert {r["document"] for r in rows} == {"multilingual.pdf"}
    code, _, err = run("--db", sqlite_url, "chunks", "--document", "nope.pdf")
    assert (code, err.strip()) == (1, "Error: Document 'nope.pdf' does not exist")

    code, out, _ = run("--db", sqlite_url, "show", "policy_handbook.pdf")
    assert code == 0
    assert "Furniture removed:" in out
    assert "Northwind Benefits Handbook — Revision 2" in out
    code, out, _ = run("--db", sqlite_url, "show", "policy_handbook.pdf", "--format", "json")
    shown = json.loads(out)
    assert [v["version_no"] for v in shown["versions"]] == [1]
    assert len(shown["pages"]) == 4

    chunk_id = records[0]["chunk_id"]
    code, out, _ = run("--db", sqlite_url, "provenance", chunk_id, "--format", "json")
    prov = json.loads(out)
    assert prov["chunk_id"] == chunk_id
    assert prov["document"]["current"] is True
    assert prov["boxes"]
    assert prov["boxes"][0].keys() == {"page", "x0", "top", "x1", "bottom"}
    code, out, _ = run("--db", sqlite_url, "provenance", chunk_id)
    assert f"Chunk     {chunk_id}" in out

    code, out, _ = run(
        "--db",
        sqlite_url,
        "sql",
        "SELECT document_uri, count(*) AS n FROM chunk_provenance GROUP BY 1 ORDER BY 1",
        "--format",
        "csv",
    )
    assert out.splitlines()[0] == "document_uri,n"
    code, _, err = run("--db", sqlite_url, "sql", "DELETE FROM chunks")
    assert code == 2
    assert err.startswith("Error: citeline sql is read-only; the database refused this statement")
    code, _, err = run("--db", sqlite_url, "sql", "SELEC nonsense")
    assert code == 2
    assert "syntax error" in err
    assert "Traceback" not in err


def test_status_reports_changed_missing_new_and_marks_deleted(sqlite_url: str, root: Path) -> None:
    (root / "empty.pdf").unlink()
    run("--db", sqlite_url, "ingest", str(root), "-q")
    code, out, _ = run("--db", sqlite_url, "status")
    assert (code, out.strip()) == (0, "Everything is up to date.")
    shutil.copy(PDF_FIXTURES / "policy_handbook_v2.pdf", root / "policy_handbook.pdf")
    (root / "multilingual.pdf").unlink()
    shutil.copy(PDF_FIXTURES / "xss_document.pdf", root / "xss_document.pdf")
    code, out, _ = run("--db", sqlite_url, "status", str(root), "--format", "json")
    states = {(e["state"], e["uri"]) for e in json.loads(out)}
    assert states == {
        ("changed", "policy_handbook.pdf"),
        ("missing", "multilingual.pdf"),
        ("new", "xss_document.pdf"),
    }
    code, out, _ = run("--db", sqlite_url, "status", "--mark-deleted", "--format", "json")
    assert ("deleted", "multilingual.pdf") in {(e["state"], e["uri"]) for e in json.loads(out)}
    code, out, _ = run("--db", sqlite_url, "show", "multilingual.pdf")
    assert "(deleted " in out
    code, out, _ = run(
        "--db",
        sqlite_url,
        "sql",
        "SELECT DISTINCT is_current FROM chunk_provenance WHERE document_uri = 'multilingual.pdf'",
    )
    assert out.splitlines()[-1].strip() == "0"


def test_reads_never_create_a_database(tmp_path: Path) -> None:
    path = tmp_path / "nothing.db"
    code, _, err = run("--db", f"sqlite:///{path}", "chunks")
    assert code == 1
    assert err.strip() == f"Error: Database file {str(path)!r} does not exist (run citeline ingest first, or pass --db)"
    assert not path.exists()


def test_db_commands(sqlite_url: str) -> None:
    code, out, _ = run("--db", sqlite_url, "db", "current")
    assert "current: none (empty database)" in out
    code, out, _ = run("--db", sqlite_url, "db", "upgrade")
    assert code == 0
    assert f"is at revision {HEAD}" in out
    code, out, _ = run("db", "current", "--db", sqlite_url)
    assert f"current: {HEAD}" in out
    code, out, _ = run("--db", sqlite_url, "db", "downgrade", "0001")
    assert code == 0
    assert "is at revision 0001" in out
    # a read refuses a database behind this citeline, with the fix
    code, _, err = run("--db", sqlite_url, "chunks")
    assert code == 1
    assert err.strip().endswith(f"is at schema revision 0001, this citeline expects {HEAD} (run: citeline db upgrade)")


def test_extract_command_needs_no_database(tmp_path: Path) -> None:
    code, out, _ = run("extract", str(PDF_FIXTURES / "policy_handbook.pdf"), "--cleaned", "--format", "json")
    payload = json.loads(out)
    assert payload["extractor"] == "pdfium"  # auto reads PDFs with pdfium
    assert "third-party" in payload["cleaned"]
    assert {h["left"] for h in payload["hyphenations"]} >= {"ser", "third", "n"}
    code, _, err = run("extract", str(PDF_FIXTURES / "encrypted_userpw.pdf"))
    assert code == 1
    assert (
        err.strip() == f"Error: {PDF_FIXTURES / 'encrypted_userpw.pdf'}: encrypted; "
        "the password is missing or wrong (use --password)"
    )


def test_every_command_has_help_with_an_example() -> None:
    def walk(group: object, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
        names: list[tuple[str, ...]] = []
        for name, cmd in group.commands.items():  # type: ignore[attr-defined]
            names.append((*prefix, name))
            if hasattr(cmd, "commands"):
                names.extend(walk(cmd, (*prefix, name)))
        return names

    for path in walk(cli):
        code, out, _ = run(*path, "--help")
        assert code == 0, path
        leaf = path[-1]
        if leaf not in ("db", "current", "downgrade"):
            assert "Example:" in out, path


def test_sigkill_mid_run_leaves_no_partial_version_and_the_rerun_completes(tmp_path: Path) -> None:
    """A real `citeline ingest` process killed with SIGKILL while it writes."""
    corpus_manifest()
    folder = tmp_path / "kill"
    folder.mkdir()
    for row in corpus_manifest():
        if row["primary_kind"] in ("two-column", "large", "headers", "hyphenation", "tables"):
            os.symlink(CORPUS / row["file"], folder / row["file"])
    db_path = tmp_path / "kill.db"
    url = f"sqlite:///{db_path}"
    cmd = [sys.executable, "-m", "citeline.cli", "--db", url, "ingest", str(folder), "--workers", "2", "-q"]
    cmd.append("--follow-links")  # the files are links into the corpus
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    versions = 0
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.2)
        if db_path.exists():
            try:
                with sqlite3.connect(db_path, timeout=1) as conn:
                    versions = conn.execute("SELECT count(*) FROM document_versions").fetchone()[0]
            except sqlite3.OperationalError:
                continue
            if versions >= 3:
                break
    assert proc.poll() is None, "ingest finished before it could be killed; use a larger corpus"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(db_path) as conn:
        for vid, chunk_count, page_count in conn.execute("SELECT id, chunk_count, page_count FROM document_versions"):
            assert conn.execute("SELECT count(*) FROM chunks WHERE version_id = ?", (vid,)).fetchone()[0] == chunk_count
            assert conn.execute("SELECT count(*) FROM pages WHERE version_id = ?", (vid,)).fetchone()[0] == page_count
        killed_at = conn.execute("SELECT count(*) FROM document_versions").fetchone()[0]
        status = conn.execute("SELECT status FROM ingestion_runs").fetchone()[0]
        orphans = conn.execute(
            "SELECT count(*) FROM documents d WHERE NOT EXISTS "
            "(SELECT 1 FROM document_versions v WHERE v.document_id = d.id)"
        ).fetchone()[0]
    assert killed_at >= 3
    assert index_is_exact(url) == conn_chunks(db_path)  # the index died with the same transactions
    assert orphans == 0  # a document's row is written in its first version's transaction
    assert status == "running"  # the killed run never finished
    code, _, _ = run("--db", url, "ingest", str(folder), "-q", "--allow-failures", "--follow-links")
    assert code == 0
    with sqlite3.connect(db_path) as conn:
        statuses = [r[0] for r in conn.execute("SELECT status FROM ingestion_runs ORDER BY id")]
    assert statuses == ["interrupted", "completed"]  # its process is gone: the next run says so
    with sqlite3.connect(db_path) as conn:
        total = conn.execute("SELECT count(*) FROM document_versions").fetchone()[0]
        skipped = conn.execute(
            "SELECT count(*) FROM ingestion_outcomes o JOIN ingestion_runs r ON r.id = o.run_id "
            "WHERE r.status = 'completed' AND o.status = 'skipped'"
        ).fetchone()[0]
    assert skipped == killed_at  # the rerun resumed: finished versions were not redone
    assert index_is_exact(url) == conn_chunks(db_path)
    assert total == len(list(folder.iterdir()))


def conn_chunks(db_path: Path) -> int:
    with sqlite3.connect(db_path) as conn:
        return int(conn.execute("SELECT count(*) FROM chunks").fetchone()[0])


def test_password_opens_encrypted_pdfs_in_a_batch(sqlite_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "enc"
    folder.mkdir()
    shutil.copy(PDF_FIXTURES / "encrypted_userpw.pdf", folder / "secret.pdf")
    code, _, err = run("--db", sqlite_url, "ingest", str(folder), "-q")
    assert code == 1
    assert "encrypted; the password is missing or wrong (use --password)" in err
    code, out, _ = run("--db", sqlite_url, "ingest", str(folder), "-q", "--password", "citeline-secret")
    assert code == 0
    assert out.splitlines()[2].split()[0] == "1"


def test_a_document_over_the_time_limit_fails_alone(sqlite_url: str, tmp_path: Path) -> None:
    """The per-document time limit: the slow file is stopped and reported, the others go on."""
    corpus_manifest()
    folder = tmp_path / "slow"
    folder.mkdir()
    os.symlink(CORPUS / "geotopo_german_textbook.pdf", folder / "big.pdf")  # ~5 s to extract
    shutil.copy(PDF_FIXTURES / "multilingual.pdf", folder / "small.pdf")
    code, out, err = run(
        "--db", sqlite_url, "ingest", str(folder), "-q", "--timeout", "1", "--workers", "2", "--follow-links"
    )
    assert code == 1
    assert out.splitlines()[2].split()[:4] == ["1", "0", "0", "1"]
    assert err.strip() == f"failed: {folder / 'big.pdf'}: took longer than the 1 s limit per document"


def test_readme_documents_every_command() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for name, cmd in cli.commands.items():
        assert f"citeline {name}" in readme, name
        for sub in getattr(cmd, "commands", {}):
            assert f"citeline {name} {sub}" in readme, (name, sub)


def test_readme_quick_start_runs_as_written(tmp_path: Path) -> None:
    """The README's first command (after its install step) and its "look around" block, verbatim,
    in a shell, with the installed `citeline` script: what a new user types first must work."""
    project = Path(__file__).resolve().parent.parent
    readme = (project / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("```", 1)[0] for b in section.split("```bash\n")[1:]]
    assert len(blocks) == 2, "Quick start: the two commands, then the look-around block"
    first = next(line for line in blocks[0].splitlines() if "citeline ingest" in line)
    ingest_cmd = first.split("&&", 1)[1].strip()  # the part after `pip install ... &&`
    shutil.copytree(project / "fixtures", tmp_path / "fixtures")
    env = {k: v for k, v in os.environ.items() if k != "CITELINE_DB"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    script = f"set -e\n{ingest_cmd}\n{blocks[1]}"
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "citeline.db").exists()
    # the last command shows the chunk holding the sentence it looked for, with its marker
    assert "reimbursed after 90 days" in done.stdout
    assert "Traceback" not in done.stderr
    assert "Error" not in done.stderr


def test_show_names_the_current_versions_problems(sqlite_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "scans"
    folder.mkdir()
    shutil.copy(PDF_FIXTURES / "scanned_page.pdf", folder / "Übersicht.pdf")
    code, _, _ = run("--db", sqlite_url, "ingest", str(folder), "-q", "--workers", "1", "--ocr", "off")
    assert code == 0
    code, out, _ = run("--db", sqlite_url, "show", "Übersicht.pdf")
    assert code == 0
    problems = [line for line in out.splitlines() if line.startswith("Problem: ")]
    assert problems == ["Problem: no_text_layer: no text layer on page 2"]
    # read again with OCR (a settings change: --reprocess), the page has text and show says how
    code, _, _ = run("--db", sqlite_url, "ingest", str(folder), "-q", "--workers", "1", "--reprocess")
    assert code == 0
    code, out, _ = run("--db", sqlite_url, "show", "Übersicht.pdf")
    assert [line for line in out.splitlines() if line.startswith("Problem: ")] == []
    pages = out[out.index("Pages:") :].splitlines()
    assert pages[1].split() == [
        "page",
        "width",
        "height",
        "raw_start",
        "raw_end",
        "text",
        "ocr",
        "languages",
        "confidence",
        "dpi",
    ]
    page_two = next(line.split() for line in pages[3:] if line.split()[:1] == ["2"])
    assert page_two[5:7] == ["yes", "tesseract"]
    assert page_two[7].startswith("5.")  # Tesseract 5
    assert page_two[8] == "eng"
    assert float(page_two[9]) > 60  # mean word confidence
    assert float(page_two[10]) == 300.0
