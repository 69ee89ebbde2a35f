"""``citeline sql`` against hostile queries, on SQLite and the real PostgreSQL server: one statement
only, read-only whatever the query looks like, no role that can write, bounded in time, streamed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, make_url, text

from citeline.batch import IngestOptions, ingest_files
from citeline.cli import cli
from citeline.store import Store
from tests.conftest import PDF_FIXTURES, PG_URL


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def indexed(db_url: str, tmp_path: Path) -> str:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / "multilingual.pdf", docs)
    with Store(db_url) as store:
        ingest_files(store, [docs], IngestOptions(workers=1))
    return db_url


@pytest.fixture
def reader(indexed: str) -> Iterator[str]:
    """A URL to query the store as a role made by ``citeline db create-reader`` (PostgreSQL), or
    the store's own URL (SQLite has no roles)."""
    if not indexed.startswith("postgresql"):
        yield indexed
        return
    role = f"reader_{uuid.uuid4().hex[:10]}"
    code, out, err = run("--db", indexed, "db", "create-reader", role)
    assert code == 0, err
    assert out.strip().startswith(f"Role {role!r} may read the citeline tables and views of schema")
    try:
        url = make_url(indexed).set(username=role, password=None)
        assert url.username == role  # connect as the reader, whatever user the test URL names
        yield url.render_as_string(hide_password=False)
    finally:
        admin = create_engine(PG_URL or "")
        with admin.begin() as conn:
            conn.execute(text(f'DROP OWNED BY "{role}"'))
            conn.execute(text(f'DROP ROLE "{role}"'))
        admin.dispose()


def uris(url: str) -> list[str]:
    with Store(url, migrate=False) as store:
        return store.documents()


def test_a_second_statement_is_refused_by_the_database(reader: str, indexed: str) -> None:
    before = uris(indexed)
    attack = "SELECT 1; COMMIT; BEGIN READ WRITE; UPDATE documents SET uri = 'tampered/' || uri; COMMIT"
    code, out, err = run("--db", reader, "sql", attack)
    assert code == 2
    assert err.startswith("Error: citeline sql runs exactly one statement")
    assert len(err.strip().splitlines()) == 1
    assert out == ""
    assert uris(indexed) == before


@pytest.mark.parametrize(
    "statement",
    ["DELETE FROM chunks", "UPDATE documents SET uri = 'x'", "DROP TABLE chunks", "CREATE TABLE t (x int)"],
)
def test_writes_fail_inside_the_database(reader: str, indexed: str, statement: str) -> None:
    before = uris(indexed)
    code, _, err = run("--db", reader, "sql", statement)
    assert code == 2
    assert err.startswith("Error: citeline sql is read-only; the database refused this statement")
    assert uris(indexed) == before


def test_a_long_query_is_stopped_at_the_timeout(reader: str) -> None:
    forever = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
    code, _, err = run("--db", reader, "sql", forever, "--timeout", "1")
    assert code == 2
    assert err.strip() == "Error: The query ran longer than 1 s and was stopped (--timeout)"
    if reader.startswith("postgresql"):
        code, _, err = run("--db", reader, "sql", "SELECT pg_sleep(100)", "--timeout", "0.5")
        assert code == 2
        assert err.strip() == "Error: The query ran longer than 0.5 s and was stopped (--timeout)"


#: Runs a command and writes its peak resident memory (KiB) to the file named first. A process's
#: peak counts the memory of the process it was forked from (Linux carries it over exec), so the
#: command is started from this small launcher, not from the test process, which holds hundreds of
#: megabytes under pytest-xdist.
_PEAK_OF = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
open(sys.argv[1], "w").write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def test_rows_are_streamed_not_held(reader: str, tmp_path: Path) -> None:
    many = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 2000000) SELECT n, 'é' AS s FROM r"
    out = tmp_path / "rows.csv"
    peak = tmp_path / "peak"
    command = ["--db", reader, "sql", many, "--format", "csv", "--timeout", "120"]
    with out.open("w") as fh:
        done = subprocess.run(
            [sys.executable, "-c", _PEAK_OF, str(peak), sys.executable, "-m", "citeline.cli", *command],
            stdout=fh,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUTF8": "1"},
            check=False,
        )
    assert done.returncode == 0, done.stderr
    peak_mb = int(peak.read_text()) / 1024
    assert peak_mb < 200, f"the command held {peak_mb:.0f} MB"
    with out.open() as fh:
        assert fh.readline() == "n,s\n"
        assert sum(1 for _ in fh) == 2_000_000
    assert out.read_text().endswith("2000000,é\n")


def test_json_and_table_outputs_stream_the_same_rows(reader: str) -> None:
    query = "SELECT document_uri, version_no FROM chunk_provenance ORDER BY ordinal"
    code, out, _ = run("--db", reader, "sql", query, "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert rows
    assert rows[0] == {"document_uri": "multilingual.pdf", "version_no": 1}
    code, out, _ = run("--db", reader, "sql", query)
    assert code == 0
    assert out.splitlines()[0].split() == ["document_uri", "version_no"]
    assert len(out.splitlines()) == len(rows) + 2


def test_sqlite_refuses_attach_vacuum_into_and_pragmas_that_write(indexed: str, tmp_path: Path) -> None:
    if not indexed.startswith("sqlite"):
        pytest.skip("SQLite only")
    for statement in (
        f"ATTACH '{tmp_path / 'attached.db'}' AS other",
        f"VACUUM INTO '{tmp_path / 'copy.db'}'",
        "PRAGMA query_only = OFF",
        "PRAGMA journal_mode = DELETE",
    ):
        code, _, err = run("--db", indexed, "sql", statement)
        assert code == 2, statement
        assert err.startswith("Error: citeline sql is read-only"), (statement, err)
    assert not (tmp_path / "attached.db").exists()
    assert not (tmp_path / "copy.db").exists()
    code, out, _ = run("--db", indexed, "sql", "PRAGMA table_info(chunks)")
    assert code == 0
    assert "raw_start" in out


def test_postgres_refuses_a_role_that_can_write(indexed: str) -> None:
    if not indexed.startswith("postgresql"):
        pytest.skip("PostgreSQL only")
    code, _, err = run("--db", indexed, "sql", "SELECT 1")
    assert code == 2
    user = make_url(indexed).username
    assert err.strip() == (
        f"Error: citeline sql refuses role {user!r}: it is a superuser (make a read-only role with: "
        "citeline db create-reader NAME, and connect as it)"
    )
    # what a superuser could do is out of reach of the reader role: the server's shell and files
    role = f"writer_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL or "")
    schema = indexed.rsplit("%3D", 1)[1]
    with admin.begin() as conn:
        conn.execute(text(f'CREATE ROLE "{role}" LOGIN'))
        conn.execute(text(f'GRANT USAGE ON SCHEMA "{schema}" TO "{role}"'))
        conn.execute(text(f'GRANT SELECT, UPDATE ON ALL TABLES IN SCHEMA "{schema}" TO "{role}"'))
    try:
        code, _, err = run("--db", indexed.replace("postgres@", f"{role}@", 1), "sql", "SELECT 1")
        assert code == 2
        assert f"refuses role {role!r}: it may write the citeline tables" in err
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP OWNED BY "{role}"'))
            conn.execute(text(f'DROP ROLE "{role}"'))
        admin.dispose()


def test_the_reader_cannot_reach_the_server_shell_or_files(reader: str, tmp_path: Path) -> None:
    if not reader.startswith("postgresql"):
        pytest.skip("PostgreSQL only")
    marker = tmp_path / "pwned"
    for statement in (
        f"COPY (SELECT 1) TO PROGRAM 'touch {marker}'",
        "SELECT pg_read_file('/etc/passwd')",
        f"COPY (SELECT 1) TO '{tmp_path / 'out.txt'}'",
    ):
        code, _, err = run("--db", reader, "sql", statement)
        assert code == 2, statement
        assert len(err.strip().splitlines()) == 1
    assert not marker.exists()
    assert not (tmp_path / "out.txt").exists()


def test_create_reader_explains_sqlite_has_no_roles(indexed: str) -> None:
    if not indexed.startswith("sqlite"):
        pytest.skip("SQLite only")
    code, _, err = run("--db", indexed, "db", "create-reader", "someone")
    assert code == 2
    assert err.startswith("Error: citeline db create-reader is for PostgreSQL")
