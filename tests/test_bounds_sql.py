"""``citeline sql --timeout`` bounds the whole query, start to last row, on SQLite and PostgreSQL
(issue 33, item 4), and SQLite keeps one value bounded (``SQLITE_LIMIT_LENGTH``)."""

from __future__ import annotations

import time

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
