"""The change feed: chunks added (their version became current) and retired (superseded or
deleted) since a point in time, what an external embedding index follows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Change:
    """A chunk that became current (``added``) or stopped being current (``retired``: its version
    was superseded or its document deleted) since a point in time."""

    change: str  # "added", "retired" (or "needs_embedding": citeline changes --needs-embedding)
    chunk_id: str
    document: str
    version: int
    at: Any  # datetime (UTC)
    collection: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "change": self.change,
            "chunk_id": self.chunk_id,
            "document": self.document,
            "version": self.version,
            "at": self.at.isoformat() if self.at is not None else None,
            "collection": self.collection,
        }


_ADDED = """
SELECT c.id, d.uri, v.version_no, v.current_since, d.collection
FROM chunks c JOIN document_versions v ON v.id = c.version_id JOIN documents d ON d.id = v.document_id
WHERE v.superseded_at IS NULL AND d.deleted_at IS NULL AND v.current_since > :since {collection}
ORDER BY v.current_since, c.version_id, c.ordinal
"""
_RETIRED = """
SELECT c.id, d.uri, v.version_no,
       CASE WHEN v.superseded_at IS NOT NULL AND v.superseded_at > :since THEN v.superseded_at
            ELSE d.deleted_at END AS at, d.collection
FROM chunks c JOIN document_versions v ON v.id = c.version_id JOIN documents d ON d.id = v.document_id
WHERE (v.current_since IS NULL OR v.current_since <= :since) {collection}
  AND ((v.superseded_at IS NOT NULL AND v.superseded_at > :since)
       OR (v.superseded_at IS NULL AND d.deleted_at IS NOT NULL AND d.deleted_at > :since))
ORDER BY at, c.version_id, c.ordinal
"""


def changes_since(connection: Any, since: Any, *, collection: str | None = None) -> list[Change]:
    """:class:`Change` s after ``since`` (a UTC datetime): added first, then retired, in time
    order; of the documents of ``collection`` only, when given."""
    from datetime import UTC, datetime

    from sqlalchemy import text as sql

    from citeline.store.models import UTCDateTime

    def utc(value: Any) -> Any:
        if isinstance(value, str):  # SQLite hands raw statements back text
            value = datetime.fromisoformat(value)
        return value if value is None or value.tzinfo is not None else value.replace(tzinfo=UTC)

    at = UTCDateTime().process_bind_param(since, connection.dialect)
    where = "AND d.collection = :collection" if collection is not None else ""
    params = {"since": at, "collection": collection} if collection is not None else {"since": at}
    added = [
        Change("added", r[0], r[1], r[2], utc(r[3]), r[4])
        for r in connection.execute(sql(_ADDED.format(collection=where)), params)
    ]
    retired = [
        Change("retired", r[0], r[1], r[2], utc(r[3]), r[4])
        for r in connection.execute(sql(_RETIRED.format(collection=where)), params)
    ]
    return added + retired
