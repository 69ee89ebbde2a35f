"""``citeline sql``: one read-only query, whatever it looks like, bounded in time, streamed.

What holds, on either backend, and how:

* **one statement**: PostgreSQL gets the query as a prepared statement (the extended protocol), so
  the server itself refuses a second command (``SELECT 1; COMMIT; ...``); SQLite's ``execute`` runs
  one statement and refuses more;
* **read-only**: the statement runs in a read-only transaction (PostgreSQL ``BEGIN READ ONLY``;
  SQLite ``query_only``), and on SQLite an authorizer allows reading only: ``ATTACH``, ``VACUUM
  INTO``, writes, transactions and pragmas that change anything are refused before they run;
* **a role that cannot write** (PostgreSQL): ``citeline sql`` refuses a superuser (who could
  ``COPY ... TO PROGRAM`` or read server files with ``pg_read_file``) and any role that may write a
  citeline table; ``citeline db create-reader ROLE`` makes one that may only read;
* **bounded, start to last row**: the timeout is one deadline for the whole query, not for each
  fetch: a watchdog thread cancels the running statement at the deadline (psycopg's
  ``cancel_safe``, which asks the server as ``pg_cancel_backend`` would; SQLite's
  ``Connection.interrupt``, which stops even inside one long function call), the deadline is checked
  between fetches, and ``statement_timeout`` (PostgreSQL) and a progress handler (SQLite) stay as
  a second line; on SQLite ``SQLITE_LIMIT_LENGTH`` caps one value at :data:`MAX_SQLITE_VALUE_BYTES`
  (``printf('%.*c', 999999999, 'x')`` used 1 GB);
* **streamed**: rows come from a server-side cursor (PostgreSQL) or the SQLite cursor as they are
  read; none of this holds the whole result.

Kept apart from :mod:`citeline.store.store` so a query needs only SQLAlchemy's core: no ORM models,
no ingest code, no alembic.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from citeline.store import db
from citeline.store.errors import QueryError, ReadOnlyViolation, StoreError

#: Seconds a query may run (``--timeout``).
DEFAULT_TIMEOUT = 30.0
#: Longest string or blob one SQLite value may be in a query (``SQLITE_LIMIT_LENGTH``; SQLite's own
#: default is 1e9). A version's whole raw text is the longest value citeline stores: a 20,000-page
#: document (the ingest page limit) at about 3,000 characters a page is 60 MB, so 128 MB reads any.
MAX_SQLITE_VALUE_BYTES = 128 * 1024 * 1024
#: Rows fetched from the server at a time.
FETCH_ROWS = 1000
#: The tables citeline owns: a role that may write one of them may not run ``citeline sql``.
CITELINE_TABLES = (
    "documents",
    "document_versions",
    "pages",
    "lines",
    "furniture",
    "hyphenations",
    "chunks",
    "ingestion_runs",
    "ingestion_outcomes",
    "contexts",
    "context_sources",
    "verification_runs",
    "verification_results",
    "embeddings",
    "alembic_version",
)
#: What a SQLite query may do (authorizer action codes): read tables, select, call functions, recurse.
_SQLITE_ALLOWED = {sqlite3.SQLITE_READ, sqlite3.SQLITE_SELECT, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
#: Pragmas that only describe the schema.
_SQLITE_PRAGMAS = frozenset(
    {"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list", "table_list"}
)
#: Functions a query may not call even though they only read (none of SQLite's own write files).
_SQLITE_DENIED_FUNCTIONS = frozenset({"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"})


@dataclass
class QueryResult:
    """The columns of a query and its rows, read as they are iterated (only inside ``open_query``)."""

    columns: list[str]
    rows: Iterator[tuple[Any, ...]]


def run_sql(
    url: str | None,
    query: str,
    params: dict[str, Any] | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    require_reader: bool = False,
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run one read-only query on the store at ``url``: its column names and all its rows (see
    :func:`open_query` to stream them)."""
    with open_query(url, query, params, timeout=timeout, require_reader=require_reader) as result:
        return result.columns, list(result.rows)


@contextmanager
def open_query(
    url: str | None,
    query: str,
    params: dict[str, Any] | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    require_reader: bool = True,
) -> Iterator[QueryResult]:
    """One read-only statement on the store at ``url``, its rows streamed while the block runs.
    ``require_reader`` refuses a PostgreSQL role that is a superuser or may write a citeline table
    (what ``citeline sql`` does; the Python API trusts its caller's role)."""
    if not timeout > 0:
        raise QueryError(f"--timeout must be a positive number of seconds, not {timeout!r}")
    engine = db.make_engine(url, read_only=True)
    try:
        db.require_schema(engine)
        if engine.dialect.name == "postgresql":
            with _postgres(engine, query, params, timeout, require_reader) as result:
                yield result
        else:
            with _sqlite(engine, query, params, timeout) as result:
                yield result
    finally:
        engine.dispose()


@contextmanager
def _postgres(
    engine: Engine, query: str, params: dict[str, Any] | None, timeout: float, require_reader: bool
) -> Iterator[QueryResult]:
    with engine.connect() as conn:
        raw = _driver(conn)
        try:
            if require_reader:
                _refuse_writers(raw)
            raw.rollback()
            raw.execute("BEGIN READ ONLY")
            raw.execute(f"SET LOCAL statement_timeout = {int(timeout * 1000)}")
            # a named (server-side) cursor: rows arrive FETCH_ROWS at a time; a prepared statement
            # (the extended protocol), so a second command in the query is refused by the server
            cursor = raw.cursor(name="citeline_sql")
            cursor.itersize = FETCH_ROWS
            with _watchdog(timeout, raw.cancel_safe) as deadline:
                try:
                    cursor.execute(query, params or None)
                    if cursor.description is None:
                        raise ReadOnlyViolation("The statement returned no rows; citeline sql runs SELECT queries only")
                    columns = [d.name for d in cursor.description]
                    yield QueryResult(columns, _fetching(cursor, timeout, deadline))
                finally:
                    deadline.stop()  # before the rollback, which a late cancel must not hit
        except (QueryError, ReadOnlyViolation):
            raise
        except Exception as exc:
            raise _query_error(exc, timeout) from None
        finally:
            with suppress(Exception):  # the connection may be gone; the pool discards it then
                raw.rollback()


class _Deadline:
    """The moment a query must have delivered its last row, and the watchdog that stops it then."""

    def __init__(self, timeout: float, stop_query: Callable[[], object]) -> None:
        self.at = time.monotonic() + timeout
        self._stop_query = stop_query
        self._lock = threading.Lock()
        self._armed = True
        self.fired = False
        self._timer = threading.Timer(timeout, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        with self._lock:
            if not self._armed:
                return
            self.fired = True
            with suppress(Exception):  # the query may have just ended: nothing to stop
                self._stop_query()

    def passed(self) -> bool:
        return self.fired or time.monotonic() >= self.at

    def stop(self) -> None:
        """Disarm the watchdog; once this returns it will not stop anything."""
        with self._lock:
            self._armed = False
        self._timer.cancel()


@contextmanager
def _watchdog(timeout: float, stop_query: Callable[[], object]) -> Iterator[_Deadline]:
    deadline = _Deadline(timeout, stop_query)
    try:
        yield deadline
    finally:
        deadline.stop()


def _fetching(cursor: Any, timeout: float, deadline: _Deadline) -> Iterator[tuple[Any, ...]]:
    """The rows, with the deadline checked between them: the time to write the rows out counts too."""
    try:
        for row in cursor:
            if deadline.passed():
                raise _timed_out(timeout)
            yield row
    except QueryError:
        raise
    except Exception as exc:
        raise _timed_out(timeout) if deadline.fired else _query_error(exc, timeout) from None


def _timed_out(timeout: float) -> QueryError:
    return QueryError(f"The query ran longer than {timeout:g} s and was stopped (--timeout)")


def _refuse_writers(raw: Any) -> None:
    """Refuse a role that could do more than read: a superuser, or one that may write a citeline table."""
    row = raw.execute(
        "SELECT current_user, rolsuper, "
        "  (SELECT bool_or(has_table_privilege(c.oid, 'INSERT,UPDATE,DELETE,TRUNCATE')) FROM pg_class c "
        "   WHERE c.relname = ANY(%s) AND c.relkind = 'r' AND pg_table_is_visible(c.oid)) "
        "FROM pg_roles WHERE rolname = current_user",
        [list(CITELINE_TABLES)],
    ).fetchone()
    raw.rollback()
    if row is None:
        return
    role, superuser, writer = row
    hint = "make a read-only role with: citeline db create-reader NAME, and connect as it"
    if superuser:
        raise ReadOnlyViolation(f"citeline sql refuses role {role!r}: it is a superuser ({hint})")
    if writer:
        raise ReadOnlyViolation(f"citeline sql refuses role {role!r}: it may write the citeline tables ({hint})")


@contextmanager
def _sqlite(engine: Engine, query: str, params: dict[str, Any] | None, timeout: float) -> Iterator[QueryResult]:
    with engine.connect() as conn:
        raw = _driver(conn)
        deadline = time.monotonic() + timeout
        if "chunk_search" in query.lower():
            # the FTS5 index connects on first use with statements of its own (it reads its config
            # and the schema as writes would), which the authorizer would refuse: connect it first
            with contextlib.suppress(sqlite3.Error):
                raw.execute("SELECT rowid FROM chunk_search LIMIT 0").fetchall()
        raw.set_authorizer(_authorize)
        raw.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 10_000)
        length = raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_SQLITE_VALUE_BYTES)
        watch = _Deadline(max(0.0, deadline - time.monotonic()), raw.interrupt)
        try:
            cursor = raw.execute(query, params or {})
            if cursor.description is None:
                raise ReadOnlyViolation("The statement returned no rows; citeline sql runs SELECT queries only")
            columns = [d[0] for d in cursor.description]
            yield QueryResult(columns, _fetching(cursor, timeout, watch))
        except (QueryError, ReadOnlyViolation):
            raise
        except Exception as exc:
            raise _timed_out(timeout) if watch.fired else _query_error(exc, timeout) from None
        finally:
            watch.stop()
            raw.set_progress_handler(None, 0)
            raw.set_authorizer(None)
            raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, length)


def _authorize(action: int, arg1: str | None, arg2: str | None, _db: str | None, _trigger: str | None) -> int:
    if action in _SQLITE_ALLOWED:
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in _SQLITE_DENIED_FUNCTIONS:
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA and (arg1 or "").lower() in _SQLITE_PRAGMAS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA and (arg1 or "").lower() == "data_version" and arg2 is None:
        return sqlite3.SQLITE_OK  # a counter FTS5 reads on every query of the search index
    return sqlite3.SQLITE_DENY


#: First words of statements that change something (for the message when the server refuses one).
_WRITE_KEYWORDS = frozenset(
    "INSERT UPDATE DELETE MERGE DROP CREATE ALTER TRUNCATE GRANT REVOKE COPY VACUUM ANALYZE REINDEX CLUSTER "
    "COMMENT LOCK CALL DO SET RESET BEGIN COMMIT ROLLBACK SAVEPOINT PREPARE EXECUTE LISTEN NOTIFY".split()
)


def _driver(conn: Any) -> Any:
    """The DBAPI connection under an SQLAlchemy one (psycopg's or sqlite3's)."""
    raw = conn.connection.driver_connection
    assert raw is not None
    return raw


def _query_error(exc: BaseException, timeout: float) -> StoreError:
    orig = getattr(exc, "orig", exc)
    msg = db.first_line(exc) if isinstance(exc, (DBAPIError, SQLAlchemyError)) else db.first_line(orig)
    low = msg.lower()
    if "string or blob too big" in low:
        return QueryError(
            f"A value of the query is longer than the {MAX_SQLITE_VALUE_BYTES // (1024 * 1024)} MB one value may be"
        )
    if "statement timeout" in low or "canceling statement" in low or "interrupted" in low:
        return QueryError(f"The query ran longer than {timeout:g} s and was stopped (--timeout)")
    writes = re.match(r'syntax error at or near "(\w+)"', msg)
    if writes and writes.group(1).upper() in _WRITE_KEYWORDS:
        # a cursor can only be declared for a query: the server refused the statement as it parsed it
        return ReadOnlyViolation(f"citeline sql is read-only; the database refused this statement ({msg})")
    if (
        "not authorized" in low
        or "authorization denied" in low
        or "readonly" in low.replace("-", "")
        or "read-only" in low
        or "permission denied" in low
    ):
        return ReadOnlyViolation(f"citeline sql is read-only; the database refused this statement ({msg})")
    if "multiple commands" in low or "one statement at a time" in low:
        return QueryError(f"citeline sql runs exactly one statement: {msg}")
    return QueryError(msg)


def create_reader(url: str | None, role: str, *, password: str | None = None) -> tuple[str, str]:
    """Create (or update) a PostgreSQL role that may read the citeline tables and views of the
    store's schema and nothing else; returns ``(role, schema)``. The caller's role must be allowed to
    create roles and grant on the schema (a superuser, or the schema owner with CREATEROLE)."""
    engine = db.make_engine(url)
    try:
        if engine.dialect.name != "postgresql":
            raise QueryError(
                "citeline db create-reader is for PostgreSQL: SQLite has no roles, and citeline sql opens a "
                "SQLite file read-only itself"
            )
        db.require_schema(engine)
        from psycopg import sql as pgsql

        with engine.connect() as conn:
            raw = _driver(conn)
            try:
                schema = raw.execute("SELECT current_schema()").fetchone()[0]
                database = raw.execute("SELECT current_database()").fetchone()[0]
                name = pgsql.Identifier(role)
                exists = raw.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone()
                if not exists:
                    raw.execute(pgsql.SQL("CREATE ROLE {} LOGIN").format(name))
                if password is not None:
                    raw.execute(pgsql.SQL("ALTER ROLE {} PASSWORD {}").format(name, pgsql.Literal(password)))
                raw.execute(pgsql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(pgsql.Identifier(database), name))
                raw.execute(pgsql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(pgsql.Identifier(schema), name))
                raw.execute(
                    pgsql.SQL("GRANT SELECT ON ALL TABLES IN SCHEMA {} TO {}").format(pgsql.Identifier(schema), name)
                )
                raw.execute(
                    pgsql.SQL("ALTER DEFAULT PRIVILEGES IN SCHEMA {} GRANT SELECT ON TABLES TO {}").format(
                        pgsql.Identifier(schema), name
                    )
                )
                raw.commit()
            except Exception as exc:
                raw.rollback()
                raise QueryError(f"Cannot create reader role {role!r}: {db.first_line(exc)}") from None
        return role, schema
    finally:
        engine.dispose()
