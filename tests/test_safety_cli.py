"""Careless and hostile input to the command line, on SQLite and the real PostgreSQL server: one
line (``Error: ...``), exit status 2 for bad input and 1 for a failure, no traceback, and nothing
written (a verify run whose output could not be written is not logged)."""

from __future__ import annotations

import json
import multiprocessing
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from citeline.batch import IngestOptions, ingest_files
from citeline.cli import cli
from citeline.store import Store, db
from citeline.store.sql import run_sql
from tests.conftest import PDF_FIXTURES


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(err: str) -> str:
    """The one error line (click's usage hint may come before it for a bad option)."""
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith(("Usage: ", "Try '"))]
    assert len(lines) == 1, err
    assert lines[0].startswith("Error: "), err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def indexed(db_url: str, tmp_path: Path) -> tuple[str, str, str]:
    """A store with one document: (url, a chunk id, a quote from it with non-ASCII text)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / "multilingual.pdf", docs)
    with Store(db_url) as store:
        ingest_files(store, [docs], IngestOptions(workers=1))
        chunk = next(c for c in store.iter_chunks() if "médecin" in c.text)
    start = chunk.text.index("médecin")
    return db_url, chunk.chunk_id, chunk.text[start : start + 60]


def runs(url: str) -> int:
    return int(run_sql(url, "SELECT count(*) FROM verification_runs")[1][0][0])


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def good_answer(chunk_id: str, quote: str) -> dict[str, Any]:
    return {
        "answer": "Le médecin says so [S1].",
        "sources": {"S1": chunk_id},
        "citations": [{"marker": "S1", "quote": quote}],
    }


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("surrogate", '{"answer": "x \\ud800 [S1].", "sources": {}}', "lone surrogate (U+D800)"),
        ("deep", "[" * 100_000 + "]" * 100_000, "nested more than 64 levels deep"),
        ("deep_object", '{"answer": "x", "extra": ' + "[" * 200 + "]" * 200 + "}", "nested more than 64 levels deep"),
        ("digits", '{"answer": "x", "citations": [{"marker": ' + "9" * 5000 + "}]}", "a number of 5,000 digits"),
        ("quote_null", None, "citations[0].quote is null"),
        ("citations_null", None, "citations is null"),
        ("sources_null", '{"answer": "x", "sources": null}', "sources is null"),
        ("not_utf8", None, "not valid JSON"),
    ],
)
def test_hostile_answers_are_one_line_usage_errors(
    indexed: tuple[str, str, str], tmp_path: Path, name: str, text: str | None, message: str
) -> None:
    url, chunk_id, quote = indexed
    if name == "quote_null":
        text = json.dumps({**good_answer(chunk_id, quote), "citations": [{"marker": "S1", "quote": None}]})
    elif name == "citations_null":
        text = json.dumps({**good_answer(chunk_id, quote), "citations": None})
    path = tmp_path / f"{name}.json"
    if name == "not_utf8":
        path.write_bytes(b'{"answer": "caf\xe9"}')
    else:
        assert text is not None
        path.write_text(text, encoding="utf-8")
    code, out, err = run("--db", url, "verify", str(path))
    assert code == 2
    assert message in one_line_error(err)
    assert out == ""
    assert runs(url) == 0
    # the same through stdin and through the Python API
    code, _, err = run("--db", url, "verify", "-", stdin=path.read_bytes())
    assert code == 2
    assert message in one_line_error(err)


def test_the_python_api_refuses_the_same(indexed: tuple[str, str, str]) -> None:
    from citeline import verify_answer
    from citeline.verify.errors import InputError

    url, chunk_id, quote = indexed
    with Store(url) as store:
        with pytest.raises(InputError, match="lone surrogate"):
            verify_answer(store, {**good_answer(chunk_id, quote), "answer": "x \ud800"})
        with pytest.raises(InputError, match="quote is null"):
            verify_answer(store, {**good_answer(chunk_id, quote), "citations": [{"marker": "S1", "quote": None}]})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--threshold", "0"], "0.0 is not in the range 50<=x<=100"),
        (["--threshold", "nan"], "fuzzy threshold nan is outside 50-100"),
        (["--threshold", "inf"], "is not in the range 50<=x<=100"),
        (["--fail-on", "nonsense"], "unknown flag 'nonsense'"),
        (["--context", "ctx_nope"], "Context 'ctx_nope' does not exist"),
    ],
)
def test_bad_verify_options(indexed: tuple[str, str, str], tmp_path: Path, args: list[str], message: str) -> None:
    url, chunk_id, quote = indexed
    answer = good_answer(chunk_id, quote)
    if "--context" in args:
        del answer["sources"]
    path = write(tmp_path, "a.json", json.dumps(answer))
    code, _, err = run("--db", url, "verify", path, *args)
    assert code == 2
    assert message in one_line_error(err)
    assert runs(url) == 0


def test_an_unknown_context_is_exit_2_on_the_command_line_and_inside_the_answer(
    indexed: tuple[str, str, str], tmp_path: Path
) -> None:
    url, _, _ = indexed
    inside = write(
        tmp_path, "in.json", json.dumps({"answer": "x [S1].", "context": "ctx_nope", "citations": [{"marker": "S1"}]})
    )
    outside = write(tmp_path, "out.json", json.dumps({"answer": "x [S1].", "citations": [{"marker": "S1"}]}))
    for args in ([inside], [outside, "--context", "ctx_nope"]):
        code, _, err = run("--db", url, "verify", *args)
        assert code == 2
        assert "Context 'ctx_nope' does not exist" in one_line_error(err)
    assert runs(url) == 0


def test_an_unwritable_output_logs_no_run(indexed: tuple[str, str, str], tmp_path: Path) -> None:
    url, chunk_id, quote = indexed
    path = write(tmp_path, "a.json", json.dumps(good_answer(chunk_id, quote)))
    code, _, err = run("--db", url, "verify", path, "-o", str(tmp_path / "nonexistent" / "dir" / "r.json"))
    assert code == 2
    assert "No such file or directory" in one_line_error(err)
    assert runs(url) == 0
    code, _, _ = run("--db", url, "verify", path, "-o", str(tmp_path / "r.json"))
    assert code == 0
    assert runs(url) == 1
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["summary"]["passed"] == 1


@pytest.mark.parametrize(
    ("span", "message"),
    [
        ("multilingual.pdf:0:99999999999999999999999", "offsets beyond any stored text"),
        ("multilingual.pdf:-5:10", "is not DOC:START:END"),
        ("multilingual.pdf:20:10", "is not DOC:START:END"),
        ("multilingual.pdf:a:b", "is not DOC:START:END"),
        ("multilingual.pdf:١:٢", "is not DOC:START:END"),  # Arabic-Indic digits
    ],
)
def test_highlight_range_out_of_bounds(indexed: tuple[str, str, str], tmp_path: Path, span: str, message: str) -> None:
    url, _, _ = indexed
    code, _, err = run("--db", url, "highlight", "--range", span, "-o", str(tmp_path / "x.png"))
    assert code == 2
    assert message in one_line_error(err)
    assert not (tmp_path / "x.png").exists()


def test_db_revision_nonsense(db_url: str, tmp_path: Path) -> None:
    Store(db_url).close()  # at head
    for args in (["db", "downgrade", "nonsense"], ["db", "upgrade", "zzz"], ["db", "downgrade", "0001:0002"]):
        code, _, err = run("--db", db_url, *args)
        assert code == 2
        line = one_line_error(err)
        assert "revisions: 0001" in line
    code, out, _ = run("--db", db_url, "db", "current")
    assert code == 0
    assert db.HEAD in out  # nothing changed


def test_invalid_utf8_in_arguments() -> None:
    """What the shell passes for bytes that are not UTF-8 (Python keeps them as surrogates)."""
    proc = subprocess.run(
        [sys.executable, "-m", "citeline.cli", "show", b"caf\xe9.pdf".decode("utf-8", "surrogateescape")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert one_line_error(proc.stderr) == "Error: Argument 2 (caf\\xe9.pdf) is not valid UTF-8"


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("Ceci n'est pas une base de données. " * 100, encoding="utf-8")
    before = path.read_bytes()
    for args in (["chunks"], ["sql", "SELECT 1"], ["ingest", str(PDF_FIXTURES / "multilingual.pdf"), "-q"]):
        code, _, err = run("--db", f"sqlite:///{path}", *args)
        assert code == 2, args
        assert one_line_error(err) == f"Error: Database 'sqlite:///{path}': the file is not a SQLite database"
    assert path.read_bytes() == before


def test_a_postgresql_database_that_does_not_exist(db_url: str) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL only")
    url = db_url.split("?")[0].rsplit("/", 1)[0] + "/no_such_database_here"
    code, _, err = run("--db", url, "chunks")
    assert code == 1
    assert 'database "no_such_database_here" does not exist' in one_line_error(err)


def _hold_lock(path: str, ready: Any, release: Any) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    ready.set()
    release.wait(60)
    conn.execute("ROLLBACK")
    conn.close()


@pytest.fixture
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A SQLite store locked by another process; the busy timeout cut to 1 s for the test."""
    path = tmp_path / "locked.db"
    Store(f"sqlite:///{path}").close()
    monkeypatch.setattr(db, "SQLITE_BUSY_TIMEOUT_MS", 1000)
    ctx = multiprocessing.get_context("spawn")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_lock, args=(str(path), ready, release))
    holder.start()
    assert ready.wait(30)
    try:
        yield f"sqlite:///{path}"
    finally:
        release.set()
        holder.join(30)


def test_a_locked_sqlite_store_waits_then_says_so(locked: str, tmp_path: Path) -> None:
    code, _, err = run("--db", locked, "ingest", str(PDF_FIXTURES / "multilingual.pdf"), "-q")
    assert code == 1
    assert one_line_error(err) == (
        f"Error: Database {locked!r} is locked by another process (waited 1 s); try again when it is done"
    )
