"""Stemmed full-text search in each document's language.

``document_versions.language``: the text's language (a wordfreq code, as
``citeline.text.lexicon.document_language`` tells it from the version's first 20 chunks), filled
here for existing versions. The index is rebuilt stemmed (see ``citeline.store.stemming``):
SQLite's FTS5 table ``chunk_search`` is made again and filled with each chunk's terms stemmed by
the Snowball stemmer of its version's language; PostgreSQL's ``chunks.search`` is recomputed with
the text search configuration of that language (``simple`` where there is none). Downgrading
rebuilds the unstemmed index of revision 0005.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 2000


def _reindex(stemmed: bool) -> None:
    from citeline.store.search import search_key, search_text
    from citeline.store.stemming import pg_config

    bind = op.get_bind()
    languages: dict[int, str | None] = {}
    if stemmed:
        languages = dict(bind.execute(sa.text("SELECT id, language FROM document_versions")).all())
    if bind.dialect.name == "sqlite":
        op.execute("DROP TABLE IF EXISTS chunk_search_vocab")
        op.execute("DROP TABLE IF EXISTS chunk_search")
        op.execute(
            "CREATE VIRTUAL TABLE chunk_search USING fts5(body, content='', tokenize='unicode61 remove_diacritics 2')"
        )
        op.execute("CREATE VIRTUAL TABLE chunk_search_vocab USING fts5vocab(chunk_search, 'row')")
        rows = bind.execute(sa.text("SELECT version_id, ordinal, text FROM chunks ORDER BY version_id, ordinal"))
        insert = sa.text("INSERT INTO chunk_search(rowid, body) VALUES (:rowid, :body)")
        batch = []
        for version_id, ordinal, text in rows.fetchall():
            body = search_text(text, languages.get(version_id))
            batch.append({"rowid": search_key(version_id, ordinal), "body": body})
            if len(batch) >= BATCH:
                bind.execute(insert, batch)
                batch = []
        if batch:
            bind.execute(insert, batch)
    else:
        rows = bind.execute(sa.text("SELECT id, version_id, text FROM chunks")).fetchall()
        by_config: dict[str, list[dict[str, str]]] = {}
        for cid, version_id, text in rows:
            by_config.setdefault(pg_config(languages.get(version_id)), []).append(
                {"id": cid, "body": search_text(text)}
            )
        for config, items in by_config.items():  # config: a closed set of names (PG_CONFIGS)
            update = sa.text(f"UPDATE chunks SET search = to_tsvector('{config}', :body) WHERE id = :id")
            for i in range(0, len(items), BATCH):
                bind.execute(update, items[i : i + BATCH])


def upgrade() -> None:
    from citeline.text.lexicon import document_language

    bind = op.get_bind()
    op.add_column("document_versions", sa.Column("language", sa.String(16), nullable=True))
    versions = [r[0] for r in bind.execute(sa.text("SELECT id FROM document_versions"))]
    update = sa.text("UPDATE document_versions SET language = :lang WHERE id = :id")
    first = sa.text("SELECT text FROM chunks WHERE version_id = :v ORDER BY ordinal LIMIT 20")
    for vid in versions:
        texts = [r[0] for r in bind.execute(first, {"v": vid})]
        bind.execute(update, {"id": vid, "lang": document_language(" ".join(texts))})
    _reindex(stemmed=True)


def downgrade() -> None:
    _reindex(stemmed=False)
    # a plain DROP COLUMN (SQLite 3.35+): a batch copy of the table would break the views on it
    op.execute("ALTER TABLE document_versions DROP COLUMN language")
