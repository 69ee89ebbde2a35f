"""Engines, sessions and migrations, run from code.

Database URL, in order: the explicit argument (``--db``), ``CITELINE_DB``, then
``sqlite:///citeline.db`` in the working directory. SQLite connections run in WAL mode with foreign
keys on and a busy timeout; PostgreSQL goes through psycopg 3 (``postgresql+psycopg://``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from citeline.migrations import HEAD
from citeline.store.errors import DatabaseBusy, DatabaseError, NotADatabase, RevisionError

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.orm import Session, sessionmaker

DEFAULT_URL = "sqlite:///citeline.db"
#: How long a SQLite writer waits for a lock before giving up (milliseconds).
SQLITE_BUSY_TIMEOUT_MS = 30_000


def resolve_url(url: str | None = None) -> str:
    return url or os.environ.get("CITELINE_DB") or DEFAULT_URL


def _normalise(url: str) -> str:
    # "postgresql://" means psycopg 3 here, not SQLAlchemy's default psycopg2
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str | None = None, *, read_only: bool = False) -> Engine:
    """An engine for ``url``. ``read_only`` is enforced by the database itself (SQLite
    ``query_only``, PostgreSQL read-only transactions), not by inspecting SQL."""
    resolved = _normalise(resolve_url(url))
    try:
        parsed = make_url(resolved)
    except ArgumentError:
        raise DatabaseError(f"Database URL {resolved!r} is not a valid SQLAlchemy URL") from None
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            parent = Path(database).expanduser().resolve().parent
            if not parent.is_dir():
                raise DatabaseError(f"Database {database!r}: folder {str(parent)!r} does not exist")
        kwargs["connect_args"] = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
    elif parsed.get_backend_name() == "postgresql":
        if read_only:
            # keep options given in the URL (e.g. a search_path) and add read-only transactions
            given = parsed.query.get("options", "")
            given = given if isinstance(given, str) else " ".join(given)
            kwargs["connect_args"] = {"options": f"{given} -c default_transaction_read_only=on".strip()}
        kwargs["pool_pre_ping"] = True
    try:
        engine = create_engine(parsed, **kwargs)
    except (NoSuchModuleError, ModuleNotFoundError) as exc:
        hint = " (pip install 'citeline[postgres]')" if parsed.get_backend_name() == "postgresql" else ""
        raise DatabaseError(f"Database URL {resolved!r}: driver not available: {exc}{hint}") from None
    if parsed.get_backend_name() == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cur = dbapi_connection.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            if not read_only:
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
            else:
                cur.execute("PRAGMA query_only=ON")
            cur.close()

    return engine


def missing_sqlite_file(engine: Engine) -> str | None:
    """The path of a SQLite database file that does not exist yet (``None`` otherwise)."""
    url = engine.url
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    if url.database.startswith("file:"):
        return None
    return None if Path(url.database).expanduser().exists() else url.database


def display_url(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)


def require_schema(engine: Engine) -> None:
    """What a read needs: the database exists (a read never leaves an empty SQLite file behind) and
    is at the schema revision of this citeline. One query; alembic is not imported."""
    missing = missing_sqlite_file(engine)
    if missing is not None:
        raise DatabaseError(f"Database file {missing!r} does not exist (run citeline ingest first, or pass --db)")
    try:
        revision = current_revision(engine)
    except DBAPIError as exc:
        raise open_error(engine, exc) from None
    if revision is None:
        raise DatabaseError(f"Database {display_url(engine)!r} has no citeline schema (run: citeline db upgrade)")
    if revision != HEAD:
        raise DatabaseError(
            f"Database {display_url(engine)!r} is at schema revision {revision}, this citeline expects {HEAD} "
            "(run: citeline db upgrade)"
        )


def open_error(engine: Engine, exc: BaseException) -> DatabaseError:
    """The one-line error for a database that cannot be opened or used: a file that is not a
    database is bad input (:class:`NotADatabase`), a lock held past the busy timeout is
    :class:`DatabaseBusy`, anything else a :class:`DatabaseError`."""
    message = first_line(exc)
    where = f"Database {display_url(engine)!r}"
    if engine.dialect.name == "sqlite" and ("file is not a database" in message or "file is encrypted" in message):
        return NotADatabase(f"{where}: the file is not a SQLite database")
    if engine.dialect.name == "sqlite" and "database is locked" in message:
        return DatabaseBusy(
            f"{where} is locked by another process (waited {SQLITE_BUSY_TIMEOUT_MS / 1000:g} s); "
            "try again when it is done"
        )
    return DatabaseError(f"{where}: {message}")


def first_line(exc: BaseException) -> str:
    """The first line of a database error's own message (the driver's, when there is one)."""
    orig = getattr(exc, "orig", None)
    text_ = str(orig if orig is not None else exc).strip()
    return text_.splitlines()[0] if text_ else type(exc).__name__


def session_factory(engine: Engine) -> sessionmaker[Session]:
    from sqlalchemy.orm import sessionmaker  # the ORM is for the store's reads and writes, not for sql

    return sessionmaker(engine, expire_on_commit=False)


# ----------------------------------------------------------------------------- migrations
# alembic is imported only to migrate: reading the revision is one query, and the newest revision is
# the constant ``citeline.migrations.HEAD`` (a test checks it against alembic's own view).


def alembic_config(connection: Connection | None = None) -> Config:
    """An alembic Config pointing at the packaged ``citeline.migrations`` folder, reusing ``connection``."""
    from alembic.config import Config

    import citeline.migrations

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(citeline.migrations.__file__).parent))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    """The newest schema revision this citeline knows."""
    return HEAD


def current_revision(engine: Engine) -> str | None:
    """The database's schema revision (``None``: no citeline schema), in one query."""
    with engine.connect() as conn:
        try:
            revision = conn.scalar(text("SELECT version_num FROM alembic_version"))
            return None if revision is None else str(revision)
        except DBAPIError as exc:
            if engine.dialect.name == "postgresql" and "alembic_version" in str(exc.orig):
                return None  # undefined table
            if engine.dialect.name == "sqlite" and "no such table" in str(exc.orig):
                return None
            raise


def upgrade(engine: Engine, revision: str = "head") -> None:
    from alembic import command

    with _revision_errors(revision), _migrating(engine) as conn:
        command.upgrade(alembic_config(conn), revision)


def downgrade(engine: Engine, revision: str) -> None:
    from alembic import command

    with _revision_errors(revision), _migrating(engine) as conn:
        command.downgrade(alembic_config(conn), revision)


@contextmanager
def _migrating(engine: Engine) -> Iterator[Connection]:
    """A connection in one transaction for a migration. On SQLite, foreign keys are off while it
    runs (SQLite's own procedure for changing a table: a batch migration copies a table and drops
    the old one, and with foreign keys on that drop would delete the rows of every table that
    references it, ``ON DELETE CASCADE``) and checked before the commit."""
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")  # only outside a transaction
            conn.commit()
        try:
            with conn.begin():
                if sqlite:
                    # the write lock before the first statement, held to the commit: a second process
                    # migrating a new file waits for it, then finds the schema made (sqlite3 begins a
                    # transaction only before a write, so two CREATE TABLEs raced: "table ... already
                    # exists")
                    conn.exec_driver_sql("BEGIN IMMEDIATE")
                yield conn
                if sqlite:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").first()
                    if broken is not None:
                        raise DatabaseError(f"migration left a row of {broken[0]!r} without its {broken[2]!r} row")
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()


@contextmanager
def _revision_errors(revision: str) -> Iterator[None]:
    """Alembic's errors about a revision (unknown, or the wrong direction) as one line; the
    transaction around the migration is rolled back, so nothing changed."""
    from alembic.util import CommandError as AlembicCommandError

    try:
        yield
    except AlembicCommandError as exc:
        from alembic.script import ScriptDirectory

        known = [s.revision for s in ScriptDirectory.from_config(alembic_config()).walk_revisions()]
        raise RevisionError(
            f"Revision {revision!r}: {first_line(exc)} (revisions: {', '.join(sorted(known))}, base, head)"
        ) from None


def check(engine: Engine) -> None:
    """Raise ``alembic.util.exc.AutogenerateDiffsDetected`` if the models and migrations disagree."""
    from alembic import command

    with engine.connect() as conn:
        command.check(alembic_config(conn))


def ensure_schema(engine: Engine) -> None:
    """Upgrade to the newest revision when the database is empty or behind (what write commands do).
    A new, empty SQLite database is given the schema at the newest revision in one script
    (:func:`create_sqlite_head`) instead of every revision in turn through alembic."""
    if current_revision(engine) == HEAD:
        return
    if engine.dialect.name == "sqlite" and create_sqlite_head(engine):
        return
    upgrade(engine)


# ----------------------------------------------------------------------------- the SQLite head
# A first ingest into a new SQLite file imported alembic (about 0.2 s) and ran every revision
# (about 0.06 s) before the first file could be written; the schema those revisions leave is
# recorded as its statements in citeline.migrations.sqlite_head (``python -m tests.sqlite_head
# --regenerate``) and a test checks that record against the migrations.


def create_sqlite_head(engine: Engine) -> bool:
    """Create the schema at :data:`~citeline.migrations.HEAD` in an empty SQLite database with the
    recorded statements of :mod:`citeline.migrations.sqlite_head`, in one transaction holding the
    write lock; ``False`` (and nothing done) when the database has any table or view (made
    meanwhile by another process, or not citeline's), or the record is of another revision."""
    from citeline.migrations import sqlite_head

    if sqlite_head.REVISION != HEAD:  # pragma: no cover - a revision added without regenerating
        return False
    with _migrating(engine) as conn:
        if conn.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar():
            return False
        for statement in sqlite_head.STATEMENTS:
            conn.exec_driver_sql(statement)
    return True


#: FTS5 creates these tables itself for a virtual table ``name`` (``name_data`` and so on).
_FTS5_SHADOWS = ("data", "idx", "content", "docsize", "config")


def sqlite_schema(engine: Engine) -> tuple[str, ...]:
    """The statements that make a SQLite database's schema and revision again, in the order they
    run: tables (virtual ones, not the tables FTS5 makes for them), indexes, views, triggers, as
    SQLite keeps their text, then the ``alembic_version`` row."""
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        found = [(str(kind), str(name), str(sql)) for kind, name, sql in rows]
        revision = current_revision(engine)
    virtual = [name for _, name, sql in found if sql.upper().startswith("CREATE VIRTUAL TABLE")]
    shadows = {f"{name}_{suffix}" for name in virtual for suffix in _FTS5_SHADOWS}
    out = [
        sql
        for kind in ("table", "index", "view", "trigger")
        for k, name, sql in found
        if k == kind and name not in shadows
    ]
    if revision is not None:
        out.append(f"INSERT INTO alembic_version (version_num) VALUES ('{revision}')")
    return tuple(out)


def script_head() -> str:
    """The newest revision as alembic reads it from the migration scripts (what ``HEAD`` must equal)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """A session in one transaction: committed on success, rolled back on any exception."""
    with factory() as session, session.begin():
        yield session
