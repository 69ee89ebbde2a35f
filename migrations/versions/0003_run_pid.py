"""Ingestion runs record the process that ran them, so a run whose process is gone (killed, the
machine rebooted) is marked ``interrupted`` by the next run on the same host instead of staying
``running`` forever.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("ingestion_runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("pid", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ingestion_runs", schema=None) as batch_op:
        batch_op.drop_column("pid")
