"""``citeline sql --timeout`` bounds the whole query, start to last row, on SQLite and PostgreSQL
(issue 33, item 4), and SQLite keeps one value bounded (``SQLITE_LIMIT_LENGTH``)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from citeline.store.errors import QueryError
from citeline.store.sql import MAX_SQLITE_VALUE_BYTES, open_query
from tests.test_safety_sql import indexed, reader, run  # noqa: F401  (fixtures)


def test_many_short_fetches_are_one_query_for_the_timeout(reader: str) -> None:  # noqa: F811
    """On PostgreSQL each 1,000-row FETCH (2 s here) stays under statement_timeout, so before the
    query ran 200 s under --timeout 3 (the audit's: 32.5 s); on SQLite each row is a few MB of
    work, so the progress handler seldom runs."""
    if reader.startswith("postgresql"):
        slow = "SELECT g, 'é' AS s, pg_sleep(0.002) FROM generate_series(1, 100000) g"
    else:
        slow = (
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100000) "
            "SELECT n, 'é' AS s, length(hex(randomblob(4000000))) FROM r"
        )
    started = time.monotonic()
    code, out, err = run("--db", reader, "sql", slow, "--timeout", "3", "--format", "csv")
    seconds = time.monotonic() - started
    assert code == 2, err
    assert err.strip().splitlines()[-1] == "Error: The query ran longer than 3 s and was stopped (--timeout)"
    assert seconds < 6, seconds
    assert out.startswith("g,s,pg_sleep\n" if reader.startswith("postgresql") else "n,s,")


def test_the_time_to_read_the_rows_counts(reader: str) -> None:  # noqa: F811
    """The deadline is checked between rows: a caller that reads slowly is stopped too."""
    query = (
        "SELECT 'Grüße' AS s, g FROM generate_series(1, 1000) g"
        if reader.startswith("postgresql")
        else "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000) SELECT 'Grüße', n FROM r"
    )

    def read_slowly() -> None:
        with open_query(reader, query, timeout=1) as result:
            for _ in result.rows:
                time.sleep(0.05)

    with pytest.raises(QueryError, match=r"ran longer than 1 s"):
        read_slowly()


def test_sqlite_is_interrupted_inside_one_long_function_call(indexed: str) -> None:  # noqa: F811
    """A recursive CTE of huge values: the progress handler fires only every 10,000 steps, which
    here are seconds apart (41 s under --timeout 2 before)."""
    if indexed.startswith("postgresql"):
        pytest.skip("SQLite's interrupt")
    heavy = (
        "WITH RECURSIVE r(n, v) AS (SELECT 1, '' UNION ALL "
        "SELECT n + 1, hex(randomblob(50000000)) FROM r WHERE n < 200) SELECT n, length(v) AS 'länge' FROM r"
    )
    started = time.monotonic()
    code, _, err = run("--db", indexed, "sql", heavy, "--timeout", "2")
    assert code == 2, err
    assert err.strip().splitlines()[-1] == "Error: The query ran longer than 2 s and was stopped (--timeout)"
    assert time.monotonic() - started < 5


def test_sqlite_bounds_one_value(indexed: str) -> None:  # noqa: F811
    """printf('%.*c', 999999999, 'x') used 1 GB: under the limit SQLite gives NULL for it, and a
    function that would build a longer value fails in one line."""
    if indexed.startswith("postgresql"):
        pytest.skip("SQLite's length limit")
    code, out, err = run("--db", indexed, "sql", "SELECT printf('%.*c', 999999999, 'x') IS NULL AS bounded, 'ü' AS u")
    assert code == 0, err
    assert out.splitlines()[-1].split() == ["1", "ü"], out
    code, _, err = run("--db", indexed, "sql", "SELECT replace(hex(zeroblob(60000000)), '0', 'éé') AS x")
    assert code == 2, err
    assert err.strip() == (
        f"Error: A value of the query is longer than the {MAX_SQLITE_VALUE_BYTES // 2**20} MB one value may be"
    )
    # under the limit, a long value is read whole
    code, out, err = run("--db", indexed, "sql", "SELECT length(printf('%.*c', 1000000, 'x')) AS n, 'ü' AS u")
    assert code == 0, err
    assert "1000000" in out
    assert "ü" in out


def test_escape_sequences_never_reach_the_terminal_raw(reader: str) -> None:  # noqa: F811
    esc = "chr(27)" if reader.startswith("postgresql") else "char(27)"
    bell = "chr(7)" if reader.startswith("postgresql") else "char(7)"
    query = f"SELECT {esc} || '[2J' || {esc} || ']0;pwned' || {bell} || 'Grüße' AS name"
    code, out, err = run("--db", reader, "sql", query)
    assert code == 0, err
    assert "\x1b" not in out
    assert "\x07" not in out
    assert "\\x1b[2J\\x1b]0;pwned\\x07Grüße" in out


def test_a_huge_query_is_searched_by_its_first_words_fast(indexed: str) -> None:  # noqa: F811
    """A 15,000-word phrase: 'stack depth limit exceeded' on PostgreSQL; a 1 MB query: 249 s on SQLite."""
    from citeline.store import Store

    with Store(indexed, migrate=False) as store:
        chunk = next(c for c in store.iter_chunks() if any(ord(ch) > 127 for ch in c.text))
    words = chunk.text.split()[:6]
    phrase = '"' + " ".join(words + ["Überlänge"] * 15_000) + '"'
    started = time.monotonic()
    code, out, err = run("--db", indexed, "search", phrase)
    assert code == 0, err
    assert time.monotonic() - started < 10
    assert "stack depth" not in out + err
    megabyte = " ".join([*words, *(f"wört{i}" for i in range(120_000))])
    assert len(megabyte) > 1_000_000
    started = time.monotonic()
    code, out, err = run("--db", indexed, "search", megabyte)
    assert code == 0, err
    assert time.monotonic() - started < 15
    code, out, err = run("--db", indexed, "search", " ".join(words))
    assert code == 0, err
    assert chunk.chunk_id in out


@pytest.mark.parametrize(
    ("glob", "found"),
    [
        ("[!a-z]*", ["Übersicht.txt"]),  # matched on SQLite only before
        ("[^a-z]*", ["Übersicht.txt"]),
        ("[a-z]*", ["bericht.txt"]),
        ("b?richt.txt", ["bericht.txt"]),
        ("*.txt", ["bericht.txt", "Übersicht.txt"]),
        ("*[", []),
        ("100%*", []),
    ],
)
def test_document_globs_match_alike_on_both_databases(db_url: str, tmp_path: Path, glob: str, found: list[str]) -> None:
    from citeline.batch import IngestOptions, ingest_files
    from citeline.store import Store

    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("bericht.txt", "Übersicht.txt"):
        (docs / name).write_text(f"{name}: die Quartalszahlen für Zürich.\n", encoding="utf-8")
    with Store(db_url) as store:
        ingest_files(store, [docs], IngestOptions(workers=1))
        hits = store.search("Quartalszahlen", k=8, document=glob)
    assert sorted(h.document for h in hits) == sorted(found)
