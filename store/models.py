"""SQLAlchemy 2.0 models. They never leave :mod:`citeline.store`; callers get frozen records instead.

Offsets are code points into ``document_versions.raw_text``, half-open; pages are 1-based; geometry
is PDF points with the origin top-left. Hashes are lower-case hex sha256.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every database (SQLite stores them without an offset)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}; use UTC-aware datetimes")
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        parsed: datetime = datetime.fromisoformat(value) if isinstance(value, str) else value
        return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


#: The collection of a document written without one (the Python API's ``Store.write`` of a
#: document processed outside a batch).
DEFAULT_COLLECTION = "default"


class Document(Base):
    """A stable identity: the URI (by default the path relative to the ingest root) within its
    collection (by default the name of the folder given to ``ingest``). Names that are not UTF-8
    are stored escaped (:mod:`citeline.text.names`)."""

    __tablename__ = "documents"
    __table_args__ = (UniqueConstraint("collection", "uri"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    collection: Mapped[str] = mapped_column(String(255))
    uri: Mapped[str] = mapped_column(String(2048))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_path: Mapped[str | None] = mapped_column(String(4096))


class DocumentVersion(Base):
    """One extraction of one file content under one pipeline setting; kept after it is superseded."""

    __tablename__ = "document_versions"
    __table_args__ = (
        UniqueConstraint("document_id", "version_no"),
        # exactly one version per (document, content, settings): concurrent ingesters race on this
        UniqueConstraint("document_id", "content_sha256", "settings_hash"),
        Index("ix_document_versions_current", "document_id", "superseded_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    version_no: Mapped[int] = mapped_column(Integer)
    content_sha256: Mapped[str] = mapped_column(String(64))
    text_sha256: Mapped[str] = mapped_column(String(64))
    settings_hash: Mapped[str] = mapped_column(String(64))
    settings_json: Mapped[str] = mapped_column(Text)
    extractor: Mapped[str] = mapped_column(String(64))
    extractor_version: Mapped[str] = mapped_column(String(200))
    media_type: Mapped[str] = mapped_column(String(200))
    file_size: Mapped[int] = mapped_column(Integer)
    page_count: Mapped[int] = mapped_column(Integer)
    chunk_count: Mapped[int] = mapped_column(Integer)
    raw_text: Mapped[str] = mapped_column(Text)
    problems_json: Mapped[str] = mapped_column(Text)  # [{"code", "pages", "message"}]
    ingested_at: Mapped[datetime] = mapped_column(UTCDateTime)
    superseded_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: when the version last became current (its ingest, or the ingest that restored it)
    current_since: Mapped[datetime | None] = mapped_column(UTCDateTime)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("ingestion_runs.id", ondelete="SET NULL"))
    #: the text's language (a wordfreq code, citeline.text.lexicon): the full-text index stems in it
    language: Mapped[str | None] = mapped_column(String(16))


class Page(Base):
    __tablename__ = "pages"

    version_id: Mapped[int] = mapped_column(ForeignKey("document_versions.id", ondelete="CASCADE"), primary_key=True)
    page_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    width: Mapped[float] = mapped_column(Float)
    height: Mapped[float] = mapped_column(Float)
    raw_start: Mapped[int] = mapped_column(Integer)
    raw_end: Mapped[int] = mapped_column(Integer)
    has_text: Mapped[bool] = mapped_column(Boolean)
    #: read by OCR: engine and version, languages, mean word confidence (0-100), dpi; null otherwise
    ocr_engine: Mapped[str | None] = mapped_column(String(64))
    ocr_languages: Mapped[str | None] = mapped_column(String(128))
    ocr_confidence: Mapped[float | None] = mapped_column(Float)
    ocr_dpi: Mapped[float | None] = mapped_column(Float)


class Line(Base):
    """Compact character geometry: per line its raw span, top/bottom and its x edges (two per code
    point: left, right), packed by :func:`citeline.store.writer.pack_xs` (2 bytes per edge)."""

    __tablename__ = "lines"
    __table_args__ = (Index("ix_lines_span", "version_id", "raw_start"),)

    version_id: Mapped[int] = mapped_column(ForeignKey("document_versions.id", ondelete="CASCADE"), primary_key=True)
    line_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    page_no: Mapped[int] = mapped_column(Integer)
    raw_start: Mapped[int] = mapped_column(Integer)
    raw_end: Mapped[int] = mapped_column(Integer)
    top: Mapped[float] = mapped_column(Float)
    bottom: Mapped[float] = mapped_column(Float)
    x_edges: Mapped[bytes] = mapped_column(LargeBinary)


class Furniture(Base):
    """A stripped running header, footer or page number."""

    __tablename__ = "furniture"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("document_versions.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    page_no: Mapped[int] = mapped_column(Integer)
    raw_start: Mapped[int] = mapped_column(Integer)
    raw_end: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)


class Hyphenation(Base):
    """A line-end hyphen decision (kept or joined, and why)."""

    __tablename__ = "hyphenations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("document_versions.id", ondelete="CASCADE"), index=True)
    raw_start: Mapped[int] = mapped_column(Integer)
    raw_end: Mapped[int] = mapped_column(Integer)
    left_part: Mapped[str] = mapped_column(String(200))
    right_part: Mapped[str] = mapped_column(String(200))
    joined: Mapped[bool] = mapped_column(Boolean)
    reason: Mapped[str] = mapped_column(String(200))


class Chunk(Base):
    __tablename__ = "chunks"
    __table_args__ = (UniqueConstraint("version_id", "ordinal"),)

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("document_versions.id", ondelete="CASCADE"))
    ordinal: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    text_sha256: Mapped[str] = mapped_column(String(64), index=True)
    clean_start: Mapped[int] = mapped_column(Integer)
    clean_end: Mapped[int] = mapped_column(Integer)
    raw_start: Mapped[int] = mapped_column(Integer)
    raw_end: Mapped[int] = mapped_column(Integer)
    page_start: Mapped[int | None] = mapped_column(Integer)
    page_end: Mapped[int | None] = mapped_column(Integer)
    offset_map: Mapped[bytes] = mapped_column(LargeBinary)


class IngestionRun(Base):
    __tablename__ = "ingestion_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(String(32))  # running, completed, interrupted, failed
    roots_json: Mapped[str] = mapped_column(Text)
    settings_json: Mapped[str] = mapped_column(Text)
    settings_hash: Mapped[str] = mapped_column(String(64))
    executor: Mapped[str] = mapped_column(String(32))
    workers: Mapped[int] = mapped_column(Integer)
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int | None] = mapped_column(Integer)  # the ingesting process (null: before 0003)
    added: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[int] = mapped_column(Integer, default=0)
    skipped: Mapped[int] = mapped_column(Integer, default=0)
    failed: Mapped[int] = mapped_column(Integer, default=0)
    pages: Mapped[int] = mapped_column(Integer, default=0)
    chunks: Mapped[int] = mapped_column(Integer, default=0)
    seconds: Mapped[float | None] = mapped_column(Float)


class IngestionOutcome(Base):
    """What happened to one file in one run."""

    __tablename__ = "ingestion_outcomes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("ingestion_runs.id", ondelete="CASCADE"), index=True)
    path: Mapped[str] = mapped_column(String(4096))
    collection: Mapped[str | None] = mapped_column(String(255))  # null: before 0008
    uri: Mapped[str] = mapped_column(String(2048))
    #: sha256 of the file's bytes as read by this run (null: not read, or before 0008): a failure is
    #: remembered by it and not retried until the file changes (or ``--retry-failed``)
    content_sha256: Mapped[str | None] = mapped_column(String(64))
    #: sha256 of what else the attempt depended on (pipeline settings, limits, whether a password
    #: was given): a failure is retried when any of it changes
    attempt_sha256: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(32))  # added, updated, skipped, failed, deleted
    reason: Mapped[str | None] = mapped_column(String(64))
    message: Mapped[str | None] = mapped_column(Text)
    version_id: Mapped[int | None] = mapped_column(ForeignKey("document_versions.id", ondelete="SET NULL"))
    pages: Mapped[int] = mapped_column(Integer, default=0)
    chunks: Mapped[int] = mapped_column(Integer, default=0)
    seconds: Mapped[float] = mapped_column(Float, default=0.0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Context(Base):
    """An injected set: the markers an answer may use and the chunks behind them."""

    __tablename__ = "contexts"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Embedding(Base):
    """A vector of a chunk text by one model, keyed by the text's sha256 (chunks of any version
    with that text share it) and the model's name (see citeline.store.embeddings)."""

    __tablename__ = "embeddings"

    model: Mapped[str] = mapped_column(String(200), primary_key=True)
    text_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    dimension: Mapped[int] = mapped_column(Integer)
    #: little-endian float32 values
    vector: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ContextSource(Base):
    __tablename__ = "context_sources"

    context_id: Mapped[str] = mapped_column(ForeignKey("contexts.id", ondelete="CASCADE"), primary_key=True)
    marker: Mapped[str] = mapped_column(String(64), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    chunk_id: Mapped[str] = mapped_column(ForeignKey("chunks.id"))


class VerificationRun(Base):
    __tablename__ = "verification_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    context_id: Mapped[str | None] = mapped_column(String(64))
    answer_sha256: Mapped[str] = mapped_column(String(64))
    citations: Mapped[int] = mapped_column(Integer)
    verified: Mapped[int] = mapped_column(Integer)
    coverage: Mapped[float | None] = mapped_column(Float)
    policy: Mapped[str] = mapped_column(String(16))


class VerificationResult(Base):
    __tablename__ = "verification_results"

    run_id: Mapped[int] = mapped_column(ForeignKey("verification_runs.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    marker: Mapped[str] = mapped_column(String(64))
    chunk_id: Mapped[str | None] = mapped_column(String(64))  # may name a chunk that does not exist
    status: Mapped[str] = mapped_column(String(32))
    flags: Mapped[str] = mapped_column(String(400))  # comma-separated
    score: Mapped[float | None] = mapped_column(Float)
    passed: Mapped[bool | None] = mapped_column(Boolean)  # verified and no failing flag (null: before 0002)
