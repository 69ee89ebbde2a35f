"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-29

Creates every table, and the documented views ``chunk_provenance`` and ``verification_rates``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


CHUNK_PROVENANCE = """
CREATE VIEW chunk_provenance AS
SELECT
    c.id AS chunk_id,
    d.uri AS document_uri,
    v.version_no AS version_no,
    CASE WHEN v.superseded_at IS NULL AND d.deleted_at IS NULL THEN 1 ELSE 0 END AS is_current,
    'sha256:' || v.content_sha256 AS content_hash,
    'sha256:' || c.text_sha256 AS chunk_hash,
    c.page_start AS page_start,
    c.page_end AS page_end,
    c.raw_start AS raw_start,
    c.raw_end AS raw_end,
    c.clean_start AS clean_start,
    c.clean_end AS clean_end,
    c.ordinal AS ordinal,
    c.text AS text,
    v.id AS version_id,
    v.extractor AS extractor,
    v.ingested_at AS ingested_at,
    v.superseded_at AS superseded_at
FROM chunks c
JOIN document_versions v ON v.id = c.version_id
JOIN documents d ON d.id = v.document_id
"""

VERIFICATION_RATES = """
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
          / COUNT(*), 4) AS verified_rate
FROM verification_results r
JOIN verification_runs vr ON vr.id = r.run_id
GROUP BY {day}
"""


def upgrade() -> None:
    op.create_table(
        "contexts",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_contexts")),
    )
    op.create_table(
        "documents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uri", sa.String(length=2048), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_path", sa.String(length=4096), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_documents")),
        sa.UniqueConstraint("uri", name=op.f("uq_documents_uri")),
    )
    op.create_table(
        "ingestion_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("roots_json", sa.Text(), nullable=False),
        sa.Column("settings_json", sa.Text(), nullable=False),
        sa.Column("settings_hash", sa.String(length=64), nullable=False),
        sa.Column("executor", sa.String(length=32), nullable=False),
        sa.Column("workers", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("added", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Integer(), nullable=False),
        sa.Column("skipped", sa.Integer(), nullable=False),
        sa.Column("failed", sa.Integer(), nullable=False),
        sa.Column("pages", sa.Integer(), nullable=False),
        sa.Column("chunks", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ingestion_runs")),
    )
    op.create_table(
        "verification_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("context_id", sa.String(length=64), nullable=True),
        sa.Column("answer_sha256", sa.String(length=64), nullable=False),
        sa.Column("citations", sa.Integer(), nullable=False),
        sa.Column("verified", sa.Integer(), nullable=False),
        sa.Column("coverage", sa.Float(), nullable=True),
        sa.Column("policy", sa.String(length=16), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_verification_runs")),
    )
    with op.batch_alter_table("verification_runs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_verification_runs_created_at"), ["created_at"], unique=False)

    op.create_table(
        "document_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("version_no", sa.Integer(), nullable=False),
        sa.Column("content_sha256", sa.String(length=64), nullable=False),
        sa.Column("text_sha256", sa.String(length=64), nullable=False),
        sa.Column("settings_hash", sa.String(length=64), nullable=False),
        sa.Column("settings_json", sa.Text(), nullable=False),
        sa.Column("extractor", sa.String(length=64), nullable=False),
        sa.Column("extractor_version", sa.String(length=200), nullable=False),
        sa.Column("media_type", sa.String(length=200), nullable=False),
        sa.Column("file_size", sa.Integer(), nullable=False),
        sa.Column("page_count", sa.Integer(), nullable=False),
        sa.Column("chunk_count", sa.Integer(), nullable=False),
        sa.Column("raw_text", sa.Text(), nullable=False),
        sa.Column("problems_json", sa.Text(), nullable=False),
        sa.Column("ingested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("superseded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("run_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_document_versions_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["ingestion_runs.id"],
            name=op.f("fk_document_versions_run_id_ingestion_runs"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_document_versions")),
        sa.UniqueConstraint(
            "document_id",
            "content_sha256",
            "settings_hash",
            name=op.f("uq_document_versions_document_id_content_sha256_settings_hash"),
        ),
        sa.UniqueConstraint("document_id", "version_no", name=op.f("uq_document_versions_document_id_version_no")),
    )
    with op.batch_alter_table("document_versions", schema=None) as batch_op:
        batch_op.create_index("ix_document_versions_current", ["document_id", "superseded_at"], unique=False)

    op.create_table(
        "verification_results",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("marker", sa.String(length=64), nullable=False),
        sa.Column("chunk_id", sa.String(length=64), nullable=True),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("flags", sa.String(length=400), nullable=False),
        sa.Column("score", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["verification_runs.id"],
            name=op.f("fk_verification_results_run_id_verification_runs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("run_id", "position", name=op.f("pk_verification_results")),
    )
    op.create_table(
        "chunks",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("text_sha256", sa.String(length=64), nullable=False),
        sa.Column("clean_start", sa.Integer(), nullable=False),
        sa.Column("clean_end", sa.Integer(), nullable=False),
        sa.Column("raw_start", sa.Integer(), nullable=False),
        sa.Column("raw_end", sa.Integer(), nullable=False),
        sa.Column("page_start", sa.Integer(), nullable=True),
        sa.Column("page_end", sa.Integer(), nullable=True),
        sa.Column("offset_map", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["document_versions.id"],
            name=op.f("fk_chunks_version_id_document_versions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chunks")),
        sa.UniqueConstraint("version_id", "ordinal", name=op.f("uq_chunks_version_id_ordinal")),
    )
    with op.batch_alter_table("chunks", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chunks_text_sha256"), ["text_sha256"], unique=False)

    op.create_table(
        "furniture",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("page_no", sa.Integer(), nullable=False),
        sa.Column("raw_start", sa.Integer(), nullable=False),
        sa.Column("raw_end", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["document_versions.id"],
            name=op.f("fk_furniture_version_id_document_versions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_furniture")),
    )
    with op.batch_alter_table("furniture", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_furniture_version_id"), ["version_id"], unique=False)

    op.create_table(
        "hyphenations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("raw_start", sa.Integer(), nullable=False),
        sa.Column("raw_end", sa.Integer(), nullable=False),
        sa.Column("left_part", sa.String(length=200), nullable=False),
        sa.Column("right_part", sa.String(length=200), nullable=False),
        sa.Column("joined", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["document_versions.id"],
            name=op.f("fk_hyphenations_version_id_document_versions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hyphenations")),
    )
    with op.batch_alter_table("hyphenations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hyphenations_version_id"), ["version_id"], unique=False)

    op.create_table(
        "ingestion_outcomes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("path", sa.String(length=4096), nullable=False),
        sa.Column("uri", sa.String(length=2048), nullable=False),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.String(length=64), nullable=True),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("version_id", sa.Integer(), nullable=True),
        sa.Column("pages", sa.Integer(), nullable=False),
        sa.Column("chunks", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["ingestion_runs.id"],
            name=op.f("fk_ingestion_outcomes_run_id_ingestion_runs"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["document_versions.id"],
            name=op.f("fk_ingestion_outcomes_version_id_document_versions"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ingestion_outcomes")),
    )
    with op.batch_alter_table("ingestion_outcomes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ingestion_outcomes_run_id"), ["run_id"], unique=False)

    op.create_table(
        "lines",
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("line_no", sa.Integer(), nullable=False),
        sa.Column("page_no", sa.Integer(), nullable=False),
        sa.Column("raw_start", sa.Integer(), nullable=False),
        sa.Column("raw_end", sa.Integer(), nullable=False),
        sa.Column("top", sa.Float(), nullable=False),
        sa.Column("bottom", sa.Float(), nullable=False),
        sa.Column("x_edges", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["document_versions.id"],
            name=op.f("fk_lines_version_id_document_versions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("version_id", "line_no", name=op.f("pk_lines")),
    )
    with op.batch_alter_table("lines", schema=None) as batch_op:
        batch_op.create_index("ix_lines_span", ["version_id", "raw_start"], unique=False)

    op.create_table(
        "pages",
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("page_no", sa.Integer(), nullable=False),
        sa.Column("width", sa.Float(), nullable=False),
        sa.Column("height", sa.Float(), nullable=False),
        sa.Column("raw_start", sa.Integer(), nullable=False),
        sa.Column("raw_end", sa.Integer(), nullable=False),
        sa.Column("has_text", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["document_versions.id"],
            name=op.f("fk_pages_version_id_document_versions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("version_id", "page_no", name=op.f("pk_pages")),
    )
    op.create_table(
        "context_sources",
        sa.Column("context_id", sa.String(length=64), nullable=False),
        sa.Column("marker", sa.String(length=64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("chunk_id", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["chunk_id"], ["chunks.id"], name=op.f("fk_context_sources_chunk_id_chunks")),
        sa.ForeignKeyConstraint(
            ["context_id"],
            ["contexts.id"],
            name=op.f("fk_context_sources_context_id_contexts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("context_id", "marker", name=op.f("pk_context_sources")),
    )
    op.execute(CHUNK_PROVENANCE)
    day = "date(vr.created_at)" if op.get_bind().dialect.name == "sqlite" else "CAST(vr.created_at AS DATE)"
    op.execute(VERIFICATION_RATES.format(day=day))


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS verification_rates")
    op.execute("DROP VIEW IF EXISTS chunk_provenance")
    op.drop_table("context_sources")
    op.drop_table("pages")
    with op.batch_alter_table("lines", schema=None) as batch_op:
        batch_op.drop_index("ix_lines_span")

    op.drop_table("lines")
    with op.batch_alter_table("ingestion_outcomes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ingestion_outcomes_run_id"))

    op.drop_table("ingestion_outcomes")
    with op.batch_alter_table("hyphenations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hyphenations_version_id"))

    op.drop_table("hyphenations")
    with op.batch_alter_table("furniture", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_furniture_version_id"))

    op.drop_table("furniture")
    with op.batch_alter_table("chunks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chunks_text_sha256"))

    op.drop_table("chunks")
    op.drop_table("verification_results")
    with op.batch_alter_table("document_versions", schema=None) as batch_op:
        batch_op.drop_index("ix_document_versions_current")

    op.drop_table("document_versions")
    with op.batch_alter_table("verification_runs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_verification_runs_created_at"))

    op.drop_table("verification_runs")
    op.drop_table("ingestion_runs")
    op.drop_table("documents")
    op.drop_table("contexts")
