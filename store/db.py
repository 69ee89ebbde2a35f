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
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker

from store.errors import DatabaseError

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


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


# ----------------------------------------------------------------------------- migrations


def alembic_config(connection: Connection | None = None) -> Config:
    """An alembic Config pointing at the packaged ``migrations`` folder, reusing ``connection``."""
    import migrations

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrations.__file__).parent))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), revision)


def downgrade(engine: Engine, revision: str) -> None:
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), revision)


def check(engine: Engine) -> None:
    """Raise ``alembic.util.exc.AutogenerateDiffsDetected`` if the models and migrations disagree."""
    with engine.connect() as conn:
        command.check(alembic_config(conn))


def ensure_schema(engine: Engine) -> None:
    """Upgrade to the newest revision when the database is empty or behind (what write commands do)."""
    if current_revision(engine) != head_revision():
        upgrade(engine)


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """A session in one transaction: committed on success, rolled back on any exception."""
    with factory() as session, session.begin():
        yield session
