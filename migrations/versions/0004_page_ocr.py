"""Pages read by OCR say so: the engine and its version, the languages, the mean word confidence
and the dpi (all null for a page with a text layer).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ocr_engine", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("ocr_languages", sa.String(length=128), nullable=True))
        batch_op.add_column(sa.Column("ocr_confidence", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("ocr_dpi", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.drop_column("ocr_dpi")
        batch_op.drop_column("ocr_confidence")
        batch_op.drop_column("ocr_languages")
        batch_op.drop_column("ocr_engine")
