"""Alembic environment: reuses a connection handed over in ``config.attributes["connection"]`` (tests
and ``citeline db ...``), else connects to the URL resolved like the CLI does."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from citeline.store.db import make_engine, resolve_url
from citeline.store.models import Base

config = context.config
target_metadata = Base.metadata

#: The full-text index lives outside the models (an FTS5 table and its shadow tables on SQLite, a
#: tsvector column and its GIN index on PostgreSQL: see migration 0005); comparing models with the
#: database leaves it out.
SEARCH_TABLES = {"chunk_search", "chunk_search_vocab"} | {
    f"chunk_search_{s}" for s in ("data", "idx", "docsize", "config", "content")
}


def include_object(obj: object, name: str | None, type_: str, reflected: bool, compare_to: object) -> bool:
    if type_ == "table" and name in SEARCH_TABLES:
        return False
    if type_ == "column" and name == "search" and getattr(getattr(obj, "table", None), "name", None) == "chunks":
        return False
    return not (type_ == "index" and name == "ix_chunks_search")


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite cannot ALTER most things
        compare_type=True,
        include_object=include_object,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(
        url=resolve_url(config.get_main_option("sqlalchemy.url")),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(resolve_url(config.get_main_option("sqlalchemy.url")))
    with engine.connect() as conn:
        _run(conn)
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
