"""Collections, remembered failures, and a verification rate that divides as real numbers.

* ``documents.collection``: every document belongs to a collection and its URI is unique within it
  (``uq_documents_collection_uri`` replaces ``uq_documents_uri``). An existing document goes into
  the collection named for the root it was ingested under: the last folder of its ``last_path``
  once its URI is taken off the end (``/data/A/sub/report.txt`` with URI ``sub/report.txt``: ``A``),
  else of the first root of the run that wrote its first version, else ``default``. Old URIs were
  unique across the whole store, so they stay unique in any split.
* ``ingestion_outcomes.collection``, ``.content_sha256`` and ``.attempt_sha256``: which document
  an outcome is about, the content it was read from, and a hash of the options it was read with
  (a failure is skipped until either changes).
* ``verification_rates``: ``verified_rate`` and ``passed_rate`` were an integer division on
  SQLite (65 of 99 gave 0); now ``1.0 * verified / citations`` on both databases.
* ``chunk_provenance`` gains the ``collection`` column.
* URIs and last paths are stored escaped (:mod:`citeline.text.names`): the few old ones spelled
  like an escape (``a%FF.txt``) are rewritten (``a%25FF.txt``), so they still name their file.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DEFAULT_COLLECTION = "default"

_PROVENANCE = """
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
    v.superseded_at AS superseded_at{collection}
FROM chunks c
JOIN document_versions v ON v.id = c.version_id
JOIN documents d ON d.id = v.document_id
"""

_VERIFIED = "SUM(CASE WHEN r.status IN ('verified', 'verified_fuzzy') THEN 1 ELSE 0 END)"
_PASSED = "SUM(CASE WHEN COALESCE(r.passed, r.status IN ('verified', 'verified_fuzzy')) THEN 1 ELSE 0 END)"
_RATES = """
CREATE VIEW verification_rates AS
SELECT
    {day} AS day,
    COUNT(*) AS citations,
    {verified} AS verified,
    SUM(CASE WHEN r.status = 'verified_fuzzy' THEN 1 ELSE 0 END) AS verified_fuzzy,
    SUM(CASE WHEN r.status = 'fabricated_marker' THEN 1 ELSE 0 END) AS fabricated_marker,
    SUM(CASE WHEN r.status = 'quote_not_found' THEN 1 ELSE 0 END) AS quote_not_found,
    SUM(CASE WHEN r.status = 'quote_altered' THEN 1 ELSE 0 END) AS quote_altered,
    SUM(CASE WHEN r.status = 'misattributed' THEN 1 ELSE 0 END) AS misattributed,
    SUM(CASE WHEN r.flags LIKE '%stale_version%' THEN 1 ELSE 0 END) AS stale,
    {verified_rate} AS verified_rate,
    {passed} AS passed,
    {passed_rate} AS passed_rate
FROM verification_results r
JOIN verification_runs vr ON vr.id = r.run_id
GROUP BY {day}
"""


def _rates(real: bool) -> str:
    day = "date(vr.created_at)" if op.get_bind().dialect.name == "sqlite" else "CAST(vr.created_at AS DATE)"

    def rate(count: str) -> str:
        # 1.0 * makes the division real on SQLite (a NUMERIC cast of a whole number stays an integer
        # there) and numeric on PostgreSQL, where ROUND(numeric, 4) exists
        return f"ROUND(1.0 * {count} / COUNT(*), 4)" if real else f"ROUND(CAST({count} AS NUMERIC) / COUNT(*), 4)"

    return _RATES.format(
        day=day, verified=_VERIFIED, passed=_PASSED, verified_rate=rate(_VERIFIED), passed_rate=rate(_PASSED)
    )


def collection_of(uri: str, last_path: str | None, roots_json: str | None) -> str:
    """The collection an existing document goes into (see the module docstring)."""
    if last_path and last_path.endswith("/" + uri):
        name = posixpath.basename(last_path[: -len(uri) - 1].rstrip("/"))
        if name:
            return name[:255]
    if roots_json:
        try:
            roots = json.loads(roots_json)
        except ValueError:
            roots = []
        if roots and isinstance(roots[0], str):
            root = roots[0].rstrip("/")
            name = posixpath.basename(root)
            if name == uri:  # a file given directly: its folder's name, as ingest names it
                name = posixpath.basename(posixpath.dirname(root))
            if name and name not in (".", ".."):
                return name[:255]
    return DEFAULT_COLLECTION


def _drop_views() -> None:
    op.execute("DROP VIEW IF EXISTS verification_rates")
    op.execute("DROP VIEW IF EXISTS chunk_provenance")


def upgrade() -> None:
    bind = op.get_bind()
    _drop_views()
    with op.batch_alter_table("documents", schema=None) as batch_op:
        batch_op.add_column(sa.Column("collection", sa.String(length=255), nullable=True))
    first_roots = sa.text(
        """
        SELECT d.id, d.uri, d.last_path, r.roots_json
        FROM documents d
        LEFT JOIN document_versions v ON v.document_id = d.id AND v.version_no = (
            SELECT MIN(v2.version_no) FROM document_versions v2 WHERE v2.document_id = d.id)
        LEFT JOIN ingestion_runs r ON r.id = v.run_id
        """
    )
    from citeline.text.names import escape_name

    rows = bind.execute(first_roots).fetchall()
    if rows:
        # URIs and paths are stored escaped from now on: an old name spelled like an escape
        # ("a%FF.txt") is written as it will be read back ("a%25FF.txt"); any other is unchanged
        bind.execute(
            sa.text("UPDATE documents SET collection = :collection, uri = :uri, last_path = :path WHERE id = :id"),
            [
                {
                    "id": i,
                    "collection": collection_of(uri, path, roots),
                    "uri": escape_name(uri),
                    "path": escape_name(path) if path is not None else None,
                }
                for i, uri, path, roots in rows
            ],
        )
    with op.batch_alter_table("documents", schema=None) as batch_op:
        batch_op.alter_column("collection", existing_type=sa.String(length=255), nullable=False)
        batch_op.drop_constraint("uq_documents_uri", type_="unique")
        batch_op.create_unique_constraint(batch_op.f("uq_documents_collection_uri"), ["collection", "uri"])
    with op.batch_alter_table("ingestion_outcomes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("collection", sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column("content_sha256", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("attempt_sha256", sa.String(length=64), nullable=True))
    op.execute(_PROVENANCE.format(collection=",\n    d.collection AS collection"))
    op.execute(_rates(real=True))


def downgrade() -> None:
    bind = op.get_bind()
    twice = bind.execute(sa.text("SELECT uri FROM documents GROUP BY uri HAVING COUNT(*) > 1 LIMIT 1")).scalar()
    if twice is not None:
        raise RuntimeError(
            f"cannot downgrade below 0008: document {twice!r} is in more than one collection, "
            "and before 0008 a URI names one document"
        )
    _drop_views()
    with op.batch_alter_table("ingestion_outcomes", schema=None) as batch_op:
        batch_op.drop_column("attempt_sha256")
        batch_op.drop_column("content_sha256")
        batch_op.drop_column("collection")
    with op.batch_alter_table("documents", schema=None) as batch_op:
        batch_op.drop_constraint("uq_documents_collection_uri", type_="unique")
        batch_op.create_unique_constraint("uq_documents_uri", ["uri"])
        batch_op.drop_column("collection")
    op.execute(_PROVENANCE.format(collection=""))
    op.execute(_rates(real=False))
