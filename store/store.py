"""The store's Python API: one object over one database, read and write.

Everything the CLI does goes through these methods (the CLI only parses options and prints).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, bindparam, delete, func, insert, select
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from citeline.kinds import Executor, RunStatus
from citeline.store import db
from citeline.store import models as m
from citeline.store.errors import NotFound, QueryError
from citeline.store.records import (
    ChunkInfo,
    ContextInfo,
    DocumentInfo,
    FurnitureInfo,
    PageInfo,
    Provenance,
    VersionInfo,
    WriteResult,
)
from citeline.store.search import Change, SearchHit, SearchMode, changes_since, hits_by_id, run_search
from citeline.store.writer import PackedGeometry, mark_deleted, write_version
from citeline.text.geometry import Box, Geometry
from citeline.text.names import unescape_name
from citeline.text.offsets import Normalized, OffsetMap, Original

if TYPE_CHECKING:
    from citeline.ingest.pipeline import ProcessedDocument
    from citeline.store.embeddings import Embedder, EmbedResult

#: Characters of raw text shown on each side of a chunk by ``provenance``.
CONTEXT_CHARS = 200


@dataclass(frozen=True, slots=True)
class CurrentFile:
    """What the store knows about a document's current version (used to skip unchanged files)."""

    collection: str
    uri: str
    content_sha256: str
    settings_hash: str
    last_path: str | None  # as stored: a name that is not UTF-8 escaped (see local_path)
    version_no: int

    @property
    def local_path(self) -> str | None:
        """``last_path`` as the file system names it (undecodable bytes restored)."""
        return unescape_name(self.last_path) if self.last_path is not None else None


@dataclass(frozen=True, slots=True)
class RememberedFailure:
    """The last attempt at a document failed, on this content under these settings."""

    collection: str
    uri: str
    content_sha256: str
    attempt_sha256: str | None  # see IngestionOutcome.attempt_sha256
    reason: str | None
    message: str | None


#: What a :class:`ChunkInfo` is made of, in the order :meth:`Store._chunk_info` reads it.
_CHUNK_COLUMNS = (
    m.Chunk.id,
    m.Chunk.version_id,
    m.Document.uri,
    m.DocumentVersion.version_no,
    m.DocumentVersion.superseded_at,
    m.Document.deleted_at,
    m.Chunk.ordinal,
    m.Chunk.text,
    m.Chunk.text_sha256,
    m.DocumentVersion.content_sha256,
    m.Chunk.clean_start,
    m.Chunk.clean_end,
    m.Chunk.raw_start,
    m.Chunk.raw_end,
    m.Chunk.page_start,
    m.Chunk.page_end,
    m.Chunk.offset_map,
    m.Document.collection,
)

# plain columns, not ORM entities: rows come back as tuples, several times cheaper per chunk (a
# chunk export streams every chunk; a verifier loads whole documents)
_CHUNK_FROM = (
    select(*_CHUNK_COLUMNS)
    .select_from(m.Chunk)
    .join(m.DocumentVersion, m.DocumentVersion.id == m.Chunk.version_id)
    .join(m.Document, m.Document.id == m.DocumentVersion.document_id)
)
# The reads a verifier makes per citation, built once with bind parameters and run on a plain
# connection: building and keying a statement, and an ORM session, cost SQLAlchemy more than running
# it (a chunk by id: 0.37 -> 0.09 ms).
_CHUNKS_BY_ID = _CHUNK_FROM.where(m.Chunk.id.in_(bindparam("ids", expanding=True)))
_CHUNKS_OF_VERSION = _CHUNK_FROM.where(m.Chunk.version_id == bindparam("version_id")).order_by(m.Chunk.ordinal)
_VERSION_FROM = select(m.DocumentVersion, m.Document).join(m.Document, m.Document.id == m.DocumentVersion.document_id)
_VERSION_BY_ID = _VERSION_FROM.where(m.DocumentVersion.id == bindparam("version_id"))
_CURRENT_VERSION = _VERSION_FROM.where(m.Document.uri == bindparam("uri"), m.DocumentVersion.superseded_at.is_(None))
_CURRENT_VERSION_IN = _CURRENT_VERSION.where(m.Document.collection == bindparam("collection"))
_PAGES_OF_VERSION = (
    select(
        m.Page.page_no,
        m.Page.width,
        m.Page.height,
        m.Page.raw_start,
        m.Page.raw_end,
        m.Page.has_text,
        m.Page.ocr_engine,
        m.Page.ocr_languages,
        m.Page.ocr_confidence,
        m.Page.ocr_dpi,
    )
    .where(m.Page.version_id == bindparam("version_id"))
    .order_by(m.Page.page_no)
)
_RAW_SLICE = select(func.substr(m.DocumentVersion.raw_text, bindparam("from_char"), bindparam("length"))).where(
    m.DocumentVersion.id == bindparam("version_id")
)
_LINES_OF_VERSION = (
    select(m.Line.page_no, m.Line.raw_start, m.Line.raw_end, m.Line.top, m.Line.bottom, m.Line.x_edges)
    .where(m.Line.version_id == bindparam("version_id"))
    .order_by(m.Line.raw_start)
)
# A version's lines follow each other in the raw stream without overlapping, so the first line that can
# overlap a span is the last one starting at or before it: an index seek for it bounds the range scan
# from below (without it, a span late in a long document scans every line before it).
_FIRST_LINE_START = (
    select(func.coalesce(func.max(m.Line.raw_start), 0))
    .where(m.Line.version_id == bindparam("version_id"), m.Line.raw_start <= bindparam("start"))
    .scalar_subquery()
)
_LINES_OVERLAPPING = _LINES_OF_VERSION.where(
    m.Line.raw_start < bindparam("end"), m.Line.raw_end > bindparam("start"), m.Line.raw_start >= _FIRST_LINE_START
)


class Store:
    """A citeline store at ``url`` (default: ``CITELINE_DB`` or ``sqlite:///citeline.db``).

    ``migrate=True`` brings the schema to the newest revision on open (what write commands do);
    read commands open with ``migrate=False`` and fail clearly on a database without the schema.
    """

    def __init__(self, url: str | None = None, *, migrate: bool = True) -> None:
        self.url = db.resolve_url(url)
        self.engine: Engine = db.make_engine(self.url)
        if migrate:
            try:
                db.ensure_schema(self.engine)
            except DBAPIError as exc:
                raise db.open_error(self.engine, exc) from None
        else:
            db.require_schema(self.engine)
        self._sessions = db.session_factory(self.engine)

    @property
    def display_url(self) -> str:
        return db.display_url(self.engine)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Store {self.display_url}>"

    def session(self) -> Session:
        return self._sessions()

    # ----------------------------------------------------------------- ingestion runs

    def begin_run(
        self,
        *,
        roots: Sequence[str],
        settings: dict[str, Any],
        settings_hash: str,
        executor: Executor,
        workers: int,
    ) -> int:
        """Record a new run (and mark earlier runs of this host whose process is gone interrupted)."""
        import os
        import socket

        host = socket.gethostname()[:255]
        self.mark_interrupted_runs(host)
        with db.transaction(self._sessions) as s:
            run = m.IngestionRun(
                started_at=m.utcnow(),
                status="running",
                pid=os.getpid(),
                roots_json=json.dumps(list(roots), ensure_ascii=False),
                settings_json=json.dumps(settings, sort_keys=True),
                settings_hash=settings_hash,
                executor=executor,
                workers=workers,
                host=host,
                added=0,
                updated=0,
                skipped=0,
                failed=0,
                pages=0,
                chunks=0,
            )
            s.add(run)
            s.flush()
            return run.id

    def mark_interrupted_runs(self, host: str) -> int:
        """Runs of ``host`` still ``running`` whose process is gone become ``interrupted``."""
        with db.transaction(self._sessions) as s:
            stale = [
                run
                for run in s.scalars(
                    select(m.IngestionRun).where(
                        m.IngestionRun.status == "running", m.IngestionRun.host == host, m.IngestionRun.pid.is_not(None)
                    )
                )
                if run.pid is not None and not _process_alive(run.pid)
            ]
            for run in stale:
                run.status = "interrupted"
                run.finished_at = m.utcnow()
            return len(stale)

    def finish_run(self, run_id: int, *, status: RunStatus, counts: dict[str, int], seconds: float) -> None:
        with db.transaction(self._sessions) as s:
            run = s.get(m.IngestionRun, run_id)
            assert run is not None
            run.status = status
            run.finished_at = m.utcnow()
            run.seconds = seconds
            for key, value in counts.items():
                setattr(run, key, value)

    def record_outcomes(self, run_id: int, outcomes: Sequence[dict[str, Any]]) -> None:
        """Record per-file outcomes (status, reason, message, timings) of a run."""
        if not outcomes:
            return
        now = m.utcnow()
        with db.transaction(self._sessions) as s:
            s.execute(insert(m.IngestionOutcome), [{"run_id": run_id, "created_at": now, **o} for o in outcomes])

    def write(self, doc: ProcessedDocument, *, run_id: int | None = None, settings_json: str = "{}") -> WriteResult:
        """Write one processed document version in one transaction (see :mod:`citeline.store.writer`)."""
        try:
            with db.transaction(self._sessions) as s:
                return write_version(s, doc, run_id=run_id, settings_json=settings_json)
        except IntegrityError:
            # another ingester stored the same (document, content, settings) a moment ago
            return WriteResult("skipped", None, None, "stored concurrently by another ingester")

    def current_files(self, collection: str | None = None) -> dict[tuple[str, str], CurrentFile]:
        """Every current document version by (collection, URI), oldest document first (one query;
        what skipping unchanged files needs); of ``collection`` only when given."""
        q = (
            select(
                m.Document.collection,
                m.Document.uri,
                m.DocumentVersion.content_sha256,
                m.DocumentVersion.settings_hash,
                m.Document.last_path,
                m.DocumentVersion.version_no,
            )
            .join(m.DocumentVersion, m.DocumentVersion.document_id == m.Document.id)
            .where(m.DocumentVersion.superseded_at.is_(None), m.Document.deleted_at.is_(None))
            .order_by(m.Document.id)  # oldest document first: what a duplicate is a duplicate of
        )
        if collection is not None:
            q = q.where(m.Document.collection == collection)
        with self.session() as s:
            return {(row[0], row[1]): CurrentFile(*row) for row in s.execute(q)}

    def remembered_failures(self, collection: str | None = None) -> dict[tuple[str, str], RememberedFailure]:
        """By (collection, URI): the documents whose last attempt (the newest outcome that added,
        updated or failed it) failed, with the content and options it failed on. An ingest skips
        them until the file changes (or ``--retry-failed``)."""
        o = m.IngestionOutcome
        attempts = o.status.in_(("added", "updated", "failed"))
        last = select(func.max(o.id)).where(attempts, o.collection.is_not(None)).group_by(o.collection, o.uri)
        if collection is not None:
            last = last.where(o.collection == collection)
        q = select(o.collection, o.uri, o.content_sha256, o.attempt_sha256, o.reason, o.message).where(
            o.id.in_(last.scalar_subquery()), o.status == "failed", o.content_sha256.is_not(None)
        )
        out: dict[tuple[str, str], RememberedFailure] = {}
        with self.session() as s:
            for coll, uri, content, attempt, reason, message in s.execute(q):
                if coll is not None and content is not None:  # both filtered in SQL; for the types
                    out[coll, uri] = RememberedFailure(coll, uri, content, attempt, reason, message)
        return out

    def mark_deleted(self, uri: str, *, collection: str | None = None) -> bool:
        """Mark document ``uri`` (of ``collection``; without it, the one collection holding such a
        document, refused when two do) deleted. False when there is no such document, or it is
        deleted already."""
        with db.transaction(self._sessions) as s:
            if collection is None:
                holding = list(s.scalars(select(m.Document.collection).where(m.Document.uri == uri)))
                if len(holding) > 1:
                    raise QueryError(_ambiguous(uri, holding))
                if not holding:
                    return False
                collection = holding[0]
            return mark_deleted(s, collection, uri)

    def collections(self) -> dict[str, int]:
        """Each collection's name and how many documents in it are not deleted."""
        q = (
            select(m.Document.collection, func.count())
            .where(m.Document.deleted_at.is_(None))
            .group_by(m.Document.collection)
            .order_by(m.Document.collection)
        )
        with self.session() as s:
            return {name: int(n) for name, n in s.execute(q)}

    # ----------------------------------------------------------------- reads

    @staticmethod
    def _version_info(v: m.DocumentVersion, d: m.Document) -> VersionInfo:
        return VersionInfo(
            version_id=v.id,
            document_uri=d.uri,
            collection=d.collection,
            version_no=v.version_no,
            content_sha256=v.content_sha256,
            text_sha256=v.text_sha256,
            settings_hash=v.settings_hash,
            extractor=v.extractor,
            extractor_version=v.extractor_version,
            media_type=v.media_type,
            page_count=v.page_count,
            chunk_count=v.chunk_count,
            file_size=v.file_size,
            ingested_at=v.ingested_at,
            superseded_at=v.superseded_at,
            deleted=d.deleted_at is not None,
            problems=tuple(json.loads(v.problems_json)),
            language=v.language,
        )

    def version(self, version_id: int) -> VersionInfo:
        with self.session() as s:
            row = s.execute(_VERSION_BY_ID, {"version_id": version_id}).one_or_none()
            if row is None:
                raise NotFound(f"Version {version_id} does not exist")
            return self._version_info(row[0], row[1])

    def current_version(self, uri: str, *, collection: str | None = None) -> VersionInfo | None:
        """The current version of document ``uri`` (of ``collection``; without it, refused when two
        collections hold a document of that URI)."""
        with self.session() as s:
            if collection is not None:
                row = s.execute(_CURRENT_VERSION_IN, {"uri": uri, "collection": collection}).one_or_none()
            else:
                rows = s.execute(_CURRENT_VERSION, {"uri": uri}).all()
                if len(rows) > 1:
                    raise QueryError(_ambiguous(uri, [r[1].collection for r in rows]))
                row = rows[0] if rows else None
            return self._version_info(row[0], row[1]) if row else None

    @staticmethod
    def _chunk_info(row: Any) -> ChunkInfo:
        (
            cid,
            vid,
            uri,
            vno,
            superseded,
            deleted,
            ordinal,
            text,
            text_sha,
            content_sha,
            cs,
            ce,
            rs,
            re_,
            ps,
            pe,
            omap,
            collection,
        ) = row
        return ChunkInfo(
            chunk_id=cid,
            version_id=vid,
            document_uri=uri,
            version_no=vno,
            is_current=superseded is None and deleted is None,
            ordinal=ordinal,
            text=text,
            text_sha256=text_sha,
            content_sha256=content_sha,
            clean_start=cs,
            clean_end=ce,
            raw_start=rs,
            raw_end=re_,
            page_start=ps,
            page_end=pe,
            map=OffsetMap.from_bytes(omap),
            collection=collection,
        )

    def chunk(self, chunk_id: str) -> ChunkInfo | None:
        return self.chunks([chunk_id]).get(chunk_id)

    def chunks(self, chunk_ids: Iterable[str]) -> dict[str, ChunkInfo]:
        """The stored chunks among ``chunk_ids``, by id (ids not stored are absent), in one query per
        500 ids."""
        ids = list(dict.fromkeys(chunk_ids))
        out: dict[str, ChunkInfo] = {}
        with self.engine.connect() as conn:
            for i in range(0, len(ids), 500):
                for r in conn.execute(_CHUNKS_BY_ID, {"ids": ids[i : i + 500]}):
                    out[r[0]] = self._chunk_info(r)
        return out

    def chunks_of_version(self, version_id: int) -> list[ChunkInfo]:
        with self.engine.connect() as conn:
            return [self._chunk_info(r) for r in conn.execute(_CHUNKS_OF_VERSION, {"version_id": version_id})]

    def iter_chunks(
        self, *, document: str | None = None, all_versions: bool = False, collection: str | None = None
    ) -> Iterator[ChunkInfo]:
        """Chunks in document and reading order; current versions only unless ``all_versions``; of
        the documents of ``collection`` only when given (a ``document`` of two collections is
        refused without it)."""
        q = _CHUNK_FROM
        if collection is not None:
            if not self._collection_exists(collection):
                raise NotFound(f"Collection {collection!r} does not exist")
            q = q.where(m.Document.collection == collection)
        if document is not None:
            if not self._document_exists(document, collection):
                where = f" in collection {collection!r}" if collection is not None else ""
                raise NotFound(f"Document {document!r} does not exist{where}")
            if collection is None:
                self.current_version(document)  # refused when two collections hold it
            q = q.where(m.Document.uri == document)
        if not all_versions:
            q = q.where(m.DocumentVersion.superseded_at.is_(None), m.Document.deleted_at.is_(None))
        q = q.order_by(m.Document.collection, m.Document.uri, m.DocumentVersion.version_no, m.Chunk.ordinal)
        with self.session() as s:
            for row in s.execute(q.execution_options(yield_per=500)):
                yield self._chunk_info(row)

    def _document_exists(self, uri: str, collection: str | None = None) -> bool:
        q = select(func.count()).select_from(m.Document).where(m.Document.uri == uri)
        if collection is not None:
            q = q.where(m.Document.collection == collection)
        with self.session() as s:
            return bool(s.scalar(q))

    def _collection_exists(self, collection: str) -> bool:
        q = select(func.count()).select_from(m.Document).where(m.Document.collection == collection)
        with self.session() as s:
            return bool(s.scalar(q))

    def document(self, uri: str, *, collection: str | None = None) -> DocumentInfo:
        """Document ``uri`` (of ``collection``; without it, refused when two collections hold a
        document of that URI)."""
        with self.session() as s:
            q = select(m.Document).where(m.Document.uri == uri)
            if collection is not None:
                q = q.where(m.Document.collection == collection)
            found = list(s.scalars(q))
            if len(found) > 1:
                raise QueryError(_ambiguous(uri, [f.collection for f in found]))
            d = found[0] if found else None
            if d is None:
                where = f" in collection {collection!r}" if collection is not None else ""
                raise NotFound(f"Document {uri!r} does not exist{where}")
            versions = [
                self._version_info(v, d)
                for v in s.scalars(
                    select(m.DocumentVersion)
                    .where(m.DocumentVersion.document_id == d.id)
                    .order_by(m.DocumentVersion.version_no)
                )
            ]
            shown = next((v for v in versions if v.superseded_at is None), versions[-1] if versions else None)
            pages: list[PageInfo] = []
            furniture: list[FurnitureInfo] = []
            if shown is not None:
                pages = [
                    PageInfo(
                        p.page_no,
                        p.width,
                        p.height,
                        p.raw_start,
                        p.raw_end,
                        p.has_text,
                        p.ocr_engine,
                        p.ocr_languages,
                        p.ocr_confidence,
                        p.ocr_dpi,
                    )
                    for p in s.scalars(
                        select(m.Page).where(m.Page.version_id == shown.version_id).order_by(m.Page.page_no)
                    )
                ]
                furniture = [
                    FurnitureInfo(f.kind, f.page_no, f.raw_start, f.raw_end, f.text)
                    for f in s.scalars(
                        select(m.Furniture)
                        .where(m.Furniture.version_id == shown.version_id)
                        .order_by(m.Furniture.raw_start)
                    )
                ]
            return DocumentInfo(
                d.uri,
                d.created_at,
                d.deleted_at,
                d.last_path,
                tuple(versions),
                tuple(pages),
                tuple(furniture),
                d.collection,
            )

    def documents(self, collection: str | None = None) -> list[str]:
        """Document URIs, sorted (of ``collection`` only when given)."""
        q = select(m.Document.uri).order_by(m.Document.uri)
        if collection is not None:
            q = q.where(m.Document.collection == collection)
        with self.session() as s:
            return list(s.scalars(q))

    def document_refs(self, collection: str | None = None) -> list[tuple[str, str]]:
        """(collection, URI) of every document, sorted."""
        q = select(m.Document.collection, m.Document.uri).order_by(m.Document.collection, m.Document.uri)
        if collection is not None:
            q = q.where(m.Document.collection == collection)
        with self.session() as s:
            return [(c, u) for c, u in s.execute(q)]

    def raw_text(self, version_id: int, span: Original | None = None) -> str:
        """The raw stream of a version, or the characters of ``span`` (sliced in the database)."""
        with self.session() as s:
            if span is None:
                value = s.scalar(select(m.DocumentVersion.raw_text).where(m.DocumentVersion.id == version_id))
            else:
                value = s.scalar(
                    select(func.substr(m.DocumentVersion.raw_text, span.start + 1, len(span))).where(
                        m.DocumentVersion.id == version_id
                    )
                )
            if value is None:
                raise NotFound(f"Version {version_id} does not exist")
            return str(value)

    def pages(self, version_id: int) -> list[PageInfo]:
        with self.engine.connect() as conn:
            return [PageInfo(**row._mapping) for row in conn.execute(_PAGES_OF_VERSION, {"version_id": version_id})]

    def geometry(self, version_id: int, span: Original | None = None) -> Geometry:
        """Line geometry of a version, or only of the lines overlapping ``span``."""
        with self.engine.connect() as conn:
            return _geometry(conn, version_id, span)

    def source(self, version_id: int, span: Original) -> tuple[str, Geometry]:
        """The raw characters of ``span`` and the geometry of the lines it overlaps, in one round
        trip: what resolving a quote inside a chunk needs."""
        with self.engine.connect() as conn:
            params = {"version_id": version_id, "from_char": span.start + 1, "length": len(span)}
            raw = conn.scalar(_RAW_SLICE, params)
            if raw is None:
                raise NotFound(f"Version {version_id} does not exist")
            return str(raw), _geometry(conn, version_id, span)

    def boxes(self, version_id: int, spans: Sequence[Original]) -> list[Box]:
        """Highlight rectangles of raw spans of a version (one per line fragment)."""
        if not spans:
            return []
        hull = Original(min(sp.start for sp in spans), max(sp.end for sp in spans))
        raw, geometry = self.source(version_id, hull)
        return geometry.boxes(list(spans), raw, raw_start=hull.start)

    def provenance(self, chunk_id: str) -> Provenance:
        info = self.chunk(chunk_id)
        if info is None:
            raise NotFound(f"Chunk {chunk_id!r} does not exist")
        version = self.version(info.version_id)
        span = Original(info.raw_start, info.raw_end)
        before = Original(max(0, span.start - CONTEXT_CHARS), span.start)
        raw = self.raw_text(info.version_id, Original(before.start, span.end + CONTEXT_CHARS))
        cut = span.start - before.start
        sources = info.map.source_spans(Normalized(0, info.map.normalized_length))
        boxes = self.boxes(info.version_id, sources)
        pages = tuple(sorted({b.page for b in boxes})) or tuple(
            p for p in range(info.page_start or 0, (info.page_end or -1) + 1)
        )
        return Provenance(
            chunk=info,
            version=version,
            pages=pages,
            boxes=tuple(boxes),
            context_before=raw[:cut],
            context_after=raw[cut + len(span) :],
            raw_text=raw[cut : cut + len(span)],
        )

    # ----------------------------------------------------------------- contexts

    # ----------------------------------------------------------------- search

    def search(
        self,
        query: str,
        k: int = 8,
        *,
        document: str | None = None,
        all_versions: bool = False,
        collection: str | None = None,
        mode: SearchMode = "keyword",
        embedder: Embedder | None = None,
    ) -> list[SearchHit]:
        """The ``k`` chunks that best match ``query`` (words, ``"phrases"``, ``prefix*``, ``OR``,
        ``NOT``/``-word``; see :mod:`citeline.store.search`), current versions only unless
        ``all_versions``, of documents matching the glob ``document`` when given, of
        ``collection`` when given.

        ``mode``: ``keyword`` (the stemmed full-text index), ``vector`` (cosine to the query's
        vector among chunks embedded by ``embedder``, see :meth:`embed`) or ``hybrid`` (reciprocal
        rank fusion of both lists, :func:`citeline.store.embeddings.fuse`). Vector and hybrid
        scores are the cosine and the fused score."""
        from citeline.store.embeddings import FUSE_DEPTH, fuse, vector_ranking

        if mode not in ("keyword", "vector", "hybrid"):
            raise QueryError(f"Search mode {mode!r} is not keyword, vector or hybrid")
        if mode != "keyword" and embedder is None:
            raise QueryError(f"Search mode {mode!r} needs an embedder (the model the chunks were embedded with)")
        with self.engine.connect() as conn:
            if mode == "keyword" or embedder is None:
                return run_search(conn, query, k=k, document=document, all_versions=all_versions, collection=collection)
            depth = k if mode == "vector" else max(FUSE_DEPTH, 4 * k)
            vectors = vector_ranking(
                conn, embedder, query, k=depth, document=document, all_versions=all_versions, collection=collection
            )
            if mode == "vector":
                return hits_by_id(conn, vectors, query)
            keyword = run_search(
                conn, query, k=depth, document=document, all_versions=all_versions, collection=collection
            )
            fused = fuse([[h.chunk_id for h in keyword], [cid for cid, _ in vectors]], k)
            return hits_by_id(conn, fused, query)

    def embed(self, embedder: Embedder, *, batch_size: int = 64) -> EmbedResult:
        """Fill vectors of ``embedder`` for current chunks whose text has none yet (vectors are
        keyed by text sha256 and model name: a chunk text unchanged in a new version reuses its
        vector). Returns how many texts were embedded and how many chunks reused a vector."""
        from citeline.store.embeddings import embed_missing

        if batch_size < 1:
            raise QueryError(f"Batch size {batch_size} is below 1")
        return embed_missing(self.engine, embedder, batch_size=batch_size)

    def needs_embedding(self, model: str) -> list[ChunkInfo]:
        """Current chunks whose text has no vector of ``model``: what :meth:`embed` would embed."""
        from citeline.store.embeddings import missing

        with self.engine.connect() as conn:
            ids = [cid for cid, _, _ in missing(conn, model)]
        found = self.chunks(ids)
        return [found[c] for c in ids if c in found]

    def changes(self, since: datetime | int, *, collection: str | None = None) -> list[Change]:
        """Chunks added (became current) and retired (superseded or deleted) since ``since``: a
        UTC datetime, or a run id (its start). Added first, then retired, each in time order: what
        an external embedding index needs to stay in step with the store."""
        with self.engine.connect() as conn:
            if isinstance(since, int):
                started = conn.scalar(select(m.IngestionRun.started_at).where(m.IngestionRun.id == since))
                if started is None:
                    raise NotFound(f"Ingestion run {since} does not exist")
                since = started
            return changes_since(conn, since, collection=collection)

    def create_context(
        self,
        chunk_ids: Sequence[str],
        *,
        markers: Sequence[str] | None = None,
        allow_superseded: bool = False,
        merge: bool = False,
        max_tokens: int | None = None,
    ) -> ContextInfo:
        """Record an injected set (markers ``S1..Sn`` unless given) and return it with its prompt
        block (:attr:`ContextInfo.prompt`). Refused: an empty set, a chunk id given twice, an id not
        stored, and a chunk of a superseded or deleted version (an answer would cite outdated text)
        unless ``allow_superseded``.

        ``merge``: chunks of one version that overlap or touch (neighbours sharing a sentence) are
        one passage, its text once, under one marker (the first-listed member's name; the default
        names number passages); the other members are recorded as ``MARKER~2``, ``MARKER~3``, and
        verification reads the marker as all of them. ``max_tokens``: passages are kept in the
        order given while the prompt's source blocks stay within this many approximate tokens (as
        ``--chunk-unit tokens`` counts); one that would pass it is left out, later smaller ones
        still fit. Refused when not even one fits."""
        import secrets

        from citeline.ingest.chunker import approx_tokens
        from citeline.store.records import CONTINUES, can_merge, passage_block

        if not chunk_ids:
            raise QueryError("A context needs at least one chunk id")
        twice = [c for c in dict.fromkeys(chunk_ids) if list(chunk_ids).count(c) > 1]
        if twice:
            raise QueryError(f"Chunk {twice[0]!r} is given twice")
        named = markers is not None
        markers = list(markers) if markers is not None else [f"S{i}" for i in range(1, len(chunk_ids) + 1)]
        if len(markers) != len(chunk_ids):
            raise QueryError(f"{len(markers)} markers for {len(chunk_ids)} chunks")
        if len(set(markers)) != len(markers):
            raise QueryError("Markers must be distinct")
        if named and any(CONTINUES in mk for mk in markers):
            bad = next(mk for mk in markers if CONTINUES in mk)
            raise QueryError(f"Marker {bad!r} holds {CONTINUES!r}, which names a merged passage's later chunks")
        found = self.chunks(chunk_ids)
        missing = [c for c in chunk_ids if c not in found]
        if missing:
            raise NotFound(f"Chunk {missing[0]!r} does not exist")
        old = [c for c in chunk_ids if not found[c].is_current]
        if old and not allow_superseded:
            info = found[old[0]]
            raise QueryError(
                f"Chunk {old[0]!r} is from {info.document_uri!r} version {info.version_no}, which is not current "
                "(use --allow-superseded to inject it anyway)"
            )
        if max_tokens is not None and max_tokens < 1:
            raise QueryError(f"--max-tokens {max_tokens} is below 1")
        # passages: each chunk alone, or (merge) with the chunks of its version it overlaps or touches
        groups: list[list[int]] = []
        for i, cid in enumerate(chunk_ids):
            joined = [g for g in groups if merge and any(can_merge(found[chunk_ids[j]], found[cid]) for j in g)]
            for g in joined[1:]:  # a chunk that bridges two passages joins them
                joined[0].extend(g)
                groups.remove(g)
            if joined:
                joined[0].append(i)
            else:
                groups.append([i])
        if merge:
            names = [markers[g[0]] for g in groups] if named else [f"S{n}" for n in range(1, len(groups) + 1)]
            markers = []
            chunk_ids = list(chunk_ids)
            ordered: list[str] = []
            for name, g in zip(names, groups, strict=True):
                members = sorted(g, key=lambda j: found[chunk_ids[j]].clean_start)
                for n, j in enumerate(members, start=1):
                    markers.append(name if n == 1 else f"{name}{CONTINUES}{n}")
                    ordered.append(chunk_ids[j])
            chunk_ids = ordered
        if max_tokens is not None:
            kept_markers: list[str] = []
            kept_ids: list[str] = []
            used = 0
            heads = [i for i, mk in enumerate(markers) if CONTINUES not in mk] + [len(markers)]
            for a, b in itertools.pairwise(heads):
                passage = [found[c] for c in chunk_ids[a:b]]
                cost = approx_tokens(passage_block(markers[a], passage))
                if used + cost <= max_tokens:
                    used += cost
                    kept_markers += markers[a:b]
                    kept_ids += chunk_ids[a:b]
            if not kept_ids:
                first = approx_tokens(passage_block(markers[0], [found[c] for c in chunk_ids[: heads[1]]]))
                raise QueryError(f"--max-tokens {max_tokens}: no passage fits (the first alone is {first} tokens)")
            markers, chunk_ids = kept_markers, kept_ids
        with db.transaction(self._sessions) as s:
            ctx = m.Context(id="ctx_" + secrets.token_hex(8), created_at=m.utcnow())
            s.add(ctx)
            s.flush()
            for pos, (marker, cid) in enumerate(zip(markers, chunk_ids, strict=True)):
                s.add(m.ContextSource(context_id=ctx.id, marker=marker, position=pos, chunk_id=cid))
            return ContextInfo(
                ctx.id,
                ctx.created_at,
                tuple(zip(markers, chunk_ids, strict=True)),
                tuple(found[c] for c in chunk_ids),
            )

    def context(self, context_id: str) -> ContextInfo:
        with self.session() as s:
            ctx = s.get(m.Context, context_id)
            if ctx is None:
                raise NotFound(f"Context {context_id!r} does not exist")
            rows = s.execute(
                select(m.ContextSource.marker, m.ContextSource.chunk_id)
                .where(m.ContextSource.context_id == context_id)
                .order_by(m.ContextSource.position)
            ).all()
            return ContextInfo(ctx.id, ctx.created_at, tuple((r[0], r[1]) for r in rows))

    # ----------------------------------------------------------------- verification log

    def log_verification(
        self,
        *,
        answer_sha256: str,
        context_id: str | None,
        policy: str,
        coverage: float | None,
        results: Sequence[tuple[str, str | None, str, Sequence[str], float | None, bool]],
    ) -> int:
        """Log one verify run: ``results`` are (marker, chunk_id, status, flags, score, passed) in order."""
        verified = sum(1 for r in results if r[2] in ("verified", "verified_fuzzy"))
        with db.transaction(self._sessions) as s:
            run = m.VerificationRun(
                created_at=m.utcnow(),
                context_id=context_id,
                answer_sha256=answer_sha256,
                citations=len(results),
                verified=verified,
                coverage=coverage,
                policy=policy,
            )
            s.add(run)
            s.flush()
            for pos, (marker, cid, status, flags, score, passed) in enumerate(results):
                s.add(
                    m.VerificationResult(
                        run_id=run.id,
                        position=pos,
                        marker=marker[:64],
                        chunk_id=cid[:64] if cid else None,
                        status=status,
                        flags=",".join(flags)[:400],
                        score=score,
                        passed=passed,
                    )
                )
            return run.id

    def forget_verification(self, run_id: int) -> None:
        """Remove a logged run (its report could not be delivered)."""
        with db.transaction(self._sessions) as s:
            s.execute(delete(m.VerificationResult).where(m.VerificationResult.run_id == run_id))
            s.execute(delete(m.VerificationRun).where(m.VerificationRun.id == run_id))

    # ----------------------------------------------------------------- SQL

    def sql(self, query: str, params: dict[str, Any] | None = None) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run a read-only query (see :func:`citeline.store.sql.run_sql`)."""
        from citeline.store.sql import run_sql

        return run_sql(self.url, query, params)


def _ambiguous(uri: str, collections: Sequence[str]) -> str:
    names = ", ".join(repr(c) for c in sorted(collections))
    return f"Document {uri!r} is in {len(collections)} collections ({names}): name one with --collection"


def _process_alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def isoformat(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _geometry(conn: Connection, version_id: int, span: Original | None) -> PackedGeometry:
    if span is None:
        result = conn.execute(_LINES_OF_VERSION, {"version_id": version_id})
    else:
        result = conn.execute(_LINES_OVERLAPPING, {"version_id": version_id, "start": span.start, "end": span.end})
    rows: list[tuple[int, int, int, float, float, bytes]] = list(result.all())
    return PackedGeometry(rows)
