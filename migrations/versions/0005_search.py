"""Full-text search over chunks, and when each version became current (for ``citeline changes``).

SQLite: an FTS5 table ``chunk_search`` (contentless: the index only) over each chunk's search text
(see ``citeline.store.search``), keyed by ``version_id << 24 | ordinal`` (the chunk's unique key,
which no VACUUM or dump and restore renumbers, unlike the implicit rowid of ``chunks``) PostgreSQL: a ``tsvector``
column ``chunks.search`` (configuration ``simple``) with a GIN index. Existing chunks are indexed
here; the writer indexes new ones in their version's transaction.

``document_versions.current_since``: when the version last became current (its ingest, or the
ingest that restored it); existing versions take their ingest time.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 2000


def upgrade() -> None:
    from citeline.store.search import search_key, search_text

    bind = op.get_bind()
    op.add_column("document_versions", sa.Column("current_since", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE document_versions SET current_since = ingested_at")
    if bind.dialect.name == "sqlite":
        op.execute(
            "CREATE VIRTUAL TABLE chunk_search USING fts5(body, content='', tokenize='unicode61 remove_diacritics 2')"
        )
        # document frequencies of the index's terms, for the search's fallback (citeline.store.search)
        op.execute("CREATE VIRTUAL TABLE chunk_search_vocab USING fts5vocab(chunk_search, 'row')")
        rows = bind.execute(sa.text("SELECT version_id, ordinal, text FROM chunks ORDER BY version_id, ordinal"))
        insert = sa.text("INSERT INTO chunk_search(rowid, body) VALUES (:rowid, :body)")
        batch = []
        for version_id, ordinal, text in rows.fetchall():
            batch.append({"rowid": search_key(version_id, ordinal), "body": search_text(text)})
            if len(batch) >= BATCH:
                bind.execute(insert, batch)
                batch = []
        if batch:
            bind.execute(insert, batch)
    else:
        op.execute("ALTER TABLE chunks ADD COLUMN search tsvector")
        rows = bind.execute(sa.text("SELECT id, text FROM chunks")).fetchall()
        update = sa.text("UPDATE chunks SET search = to_tsvector('simple', :body) WHERE id = :id")
        for i in range(0, len(rows), BATCH):
            bind.execute(update, [{"id": cid, "body": search_text(text)} for cid, text in rows[i : i + BATCH]])
        op.execute("CREATE INDEX ix_chunks_search ON chunks USING gin (search)")


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        op.execute("DROP TABLE IF EXISTS chunk_search_vocab")
        op.execute("DROP TABLE IF EXISTS chunk_search")
    else:
        op.execute("DROP INDEX IF EXISTS ix_chunks_search")
        op.execute("ALTER TABLE chunks DROP COLUMN IF EXISTS search")
    # a plain DROP COLUMN (SQLite 3.35+): a batch copy of the table would break the views on it
    op.execute("ALTER TABLE document_versions DROP COLUMN current_since")
