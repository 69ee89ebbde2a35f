"""Verification results record whether each citation passed (verified and no failing flag), and the
``verification_rates`` view counts them.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_RATES = """
CREATE VIEW verification_rates AS
SELECT
    {day} AS day,
    COUNT(*) AS citations,
    SUM(CASE WHEN r.status IN ('verified', 'verified_fuzzy') THEN 1 ELSE 0 END) AS verified,
    SUM(CASE WHEN r.status = 'verified_fuzzy' THEN 1 ELSE 0 END) AS verified_fuzzy,
    SUM(CASE WHEN r.status = 'fabricated_marker' THEN 1 ELSE 0 END) AS fabricated_marker,
    SUM(CASE WHEN r.status = 'quote_not_found' THEN 1 ELSE 0 END) AS quote_not_found,
    SUM(CASE WHEN r.status = 'quote_altered' THEN 1 ELSE 0 END) AS quote_altered,
    SUM(CASE WHEN r.status = 'misattributed' THEN 1 ELSE 0 END) AS misattributed,
    SUM(CASE WHEN r.flags LIKE '%stale_version%' THEN 1 ELSE 0 END) AS stale,
    ROUND(CAST(SUM(CASE WHEN r.status IN ('verified', 'verified_fuzzy') THEN 1 ELSE 0 END) AS NUMERIC)
          / COUNT(*), 4) AS verified_rate{passed}
FROM verification_results r
JOIN verification_runs vr ON vr.id = r.run_id
GROUP BY {day}
"""
# runs logged before this revision did not record it: they count as passed when verified
_PASSED = """,
    SUM(CASE WHEN COALESCE(r.passed, r.status IN ('verified', 'verified_fuzzy')) THEN 1 ELSE 0 END) AS passed,
    ROUND(CAST(SUM(CASE WHEN COALESCE(r.passed, r.status IN ('verified', 'verified_fuzzy')) THEN 1 ELSE 0 END)
          AS NUMERIC) / COUNT(*), 4) AS passed_rate"""


def _day() -> str:
    bind = op.get_bind()
    return "date(vr.created_at)" if bind.dialect.name == "sqlite" else "CAST(vr.created_at AS DATE)"


def upgrade() -> None:
    op.execute("DROP VIEW IF EXISTS verification_rates")
    with op.batch_alter_table("verification_results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("passed", sa.Boolean(), nullable=True))
    op.execute(_RATES.format(day=_day(), passed=_PASSED))


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS verification_rates")
    with op.batch_alter_table("verification_results", schema=None) as batch_op:
        batch_op.drop_column("passed")
    op.execute(_RATES.format(day=_day(), passed=""))
