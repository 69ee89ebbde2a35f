"""``citeline sql``: read-only queries, enforced by the database connection.

Kept apart from :mod:`citeline.store.store` so a query needs only SQLAlchemy's core: no ORM models,
no ingest code, no alembic.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from citeline.store import db
from citeline.store.errors import QueryError, ReadOnlyViolation


def run_sql(
    url: str | None, query: str, params: dict[str, Any] | None = None
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run a read-only query on the store at ``url``: its column names and rows. Read-only is
    enforced by the database connection (SQLite ``query_only``, PostgreSQL read-only transactions):
    a write fails in the database."""
    engine = db.make_engine(url, read_only=True)
    try:
        db.require_schema(engine)
        with engine.connect() as conn:
            if engine.dialect.name == "postgresql":
                conn.exec_driver_sql("SET TRANSACTION READ ONLY")
            result = conn.execute(text(query), params or {})
            if not result.returns_rows:
                raise ReadOnlyViolation("The statement returned no rows; citeline sql runs SELECT queries only")
            return list(result.keys()), [tuple(r) for r in result]
    except DBAPIError as exc:
        msg = db.first_line(exc)
        if "readonly" in msg.replace("-", "").lower() or "read-only" in msg.lower():
            raise ReadOnlyViolation(f"Database is opened read-only for citeline sql: {msg}") from None
        raise QueryError(msg) from None
    except SQLAlchemyError as exc:
        raise QueryError(db.first_line(exc)) from None
    finally:
        engine.dispose()
