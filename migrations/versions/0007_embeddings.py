"""Embeddings kept in the store: one vector per (model, chunk text sha256), so an unchanged chunk
text in a new version reuses its vector (see ``citeline.store.embeddings``). Little-endian float32
bytes on both databases: this machine's Python ``sqlite3`` loads no extension (no sqlite-vec) and
PostgreSQL's pgvector is not installed on the server; vectors are scored with numpy.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "embeddings",
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("text_sha256", sa.String(64), nullable=False),
        sa.Column("dimension", sa.Integer(), nullable=False),
        sa.Column("vector", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("model", "text_sha256", name=op.f("pk_embeddings")),
    )


def downgrade() -> None:
    op.drop_table("embeddings")
