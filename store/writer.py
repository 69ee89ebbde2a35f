"""Writing one processed document version, all or nothing.

Rules:

* the same content under the same settings is never stored twice (a unique constraint, so two
  ingesters racing on PostgreSQL cannot both win; the loser reports ``skipped``);
* a changed file becomes version N+1 and version N is marked superseded, never deleted;
* a file that reverts to an earlier content becomes current again under its old version number
  (its chunk ids, and so old citations, stay valid);
* pages, line geometry, furniture, hyphen decisions and chunks go in with the version, in the same
  transaction, with ``executemany`` batches.
"""

from __future__ import annotations

import itertools
import json
import math
import operator
import os
import struct
import sys
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from citeline.kinds import WriteStatus
from citeline.store import models as m
from citeline.store.records import WriteResult
from citeline.store.search import search_key, search_text
from citeline.store.stemming import pg_config
from citeline.text.geometry import Geometry, Line
from citeline.text.lexicon import document_language
from citeline.text.names import escape_name, has_raw_bytes

if TYPE_CHECKING:
    from citeline.ingest.pipeline import ProcessedDocument

#: Rows per executemany batch for the big tables.
BATCH_ROWS = 2_000


#: ``lines.x_edges`` formats (first byte of the blob).
XS_FLOAT32 = 1  # then float32 little-endian, two per code point
XS_DELTA16 = 2  # then the first edge (int32) and int16 steps, all in 1/64 pt: half the size
#: Resolution of XS_DELTA16: an edge is off by at most half of this (1/128 pt).
XS_QUANTUM = 64


def pack_xs(xs: array[float]) -> bytes:
    """Pack a line's x edges for ``lines.x_edges``: steps of 1/64 pt between consecutive edges as
    int16 (steps are measured from the reconstructed edge, so rounding never accumulates), or plain
    float32 when a step does not fit (a gap wider than 512 pt).

    The writer packs every line of every version (a hundred per page), so the loops run in C:
    ``map`` over builtins, a sum for the finiteness check, and ``array`` refusing an int16 overflow.
    """
    # a broken PDF can draw at inf or nan; either makes the sum non-finite, and float32 edges
    # cannot add up to an overflow
    if xs and math.isfinite(sum(xs)):
        quanta = list(map(_ROUND, map(_SCALE, xs)))
        if -(2**31) <= quanta[0] < 2**31:
            try:
                steps = array("h", map(operator.sub, quanta[1:], quanta))
            except OverflowError:  # a step wider than 512 pt
                pass
            else:
                if _BIG_ENDIAN:  # pragma: no cover - big-endian hosts
                    steps.byteswap()
                return bytes([XS_DELTA16]) + struct.pack("<i", quanta[0]) + steps.tobytes()
    floats = array("f", xs)
    if _BIG_ENDIAN:  # pragma: no cover - big-endian hosts
        floats.byteswap()
    return bytes([XS_FLOAT32]) + floats.tobytes()


def unpack_xs(blob: bytes) -> array[float]:
    kind, body = blob[:1], blob[1:]
    if kind == bytes([XS_DELTA16]):
        (first,) = struct.unpack_from("<i", body)
        steps = array("h")
        steps.frombytes(body[4:])
        if _BIG_ENDIAN:  # pragma: no cover - big-endian hosts
            steps.byteswap()
        # 1/64 is a power of two: multiplying by it is exactly dividing by 64
        return array("f", map(_UNSCALE, itertools.accumulate(steps, initial=first)))
    if kind == bytes([XS_FLOAT32]):
        floats = array("f")
        floats.frombytes(body)
        if _BIG_ENDIAN:  # pragma: no cover - big-endian hosts
            floats.byteswap()
        return floats
    raise ValueError(f"lines.x_edges blob has unknown format {blob[:1]!r}")


class PackedGeometry(Geometry):
    """Line geometry as stored: a line's x edges are unpacked the first time a box on it is asked
    for (resolving a quote touches two or three lines of a chunk's thirty)."""

    def __init__(self, rows: Sequence[tuple[int, int, int, float, float, bytes]]) -> None:
        # rows: (page, raw_start, raw_end, top, bottom, packed x edges), in raw order
        self._rows = rows
        self._starts = [r[1] for r in rows]
        self._ends = [r[2] for r in rows]
        self._built: dict[int, Line] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def _line(self, j: int) -> Line:
        line = self._built.get(j)
        if line is None:
            page, start, end, top, bottom, xs = self._rows[j]
            line = self._built[j] = Line(page, start, end, top, bottom, unpack_xs(xs))
        return line

    def lines_on(self, page: int) -> list[Line]:
        return [self._line(j) for j, r in enumerate(self._rows) if r[0] == page]


_SCALE = float(XS_QUANTUM).__mul__
_UNSCALE = (1 / XS_QUANTUM).__mul__
#: ``round`` of a float (half to even), called without ``round``'s lookup of ``__round__``
_ROUND = float.__round__
_BIG_ENDIAN = sys.byteorder == "big"


def _document(session: Session, collection: str, uri: str, path: str) -> m.Document:
    """The document row, created in the version's own transaction when new (a crash before the
    version commits leaves no document without versions)."""
    named = select(m.Document).where(m.Document.collection == collection, m.Document.uri == uri)
    doc = session.scalars(named).one_or_none()
    postgres = session.get_bind().dialect.name == "postgresql"
    if doc is None:
        doc = m.Document(collection=collection, uri=uri, created_at=m.utcnow(), last_path=path)
        if postgres:
            # several ingesters may race to create it: a savepoint lets the loser read the winner's.
            # (Not on SQLite, which has one writer: there the outermost savepoint's release would
            # commit the row on its own, outside the version's transaction.)
            try:
                with session.begin_nested():
                    session.add(doc)
            except IntegrityError:  # another ingester created it first
                doc = session.scalars(named).one()
        else:
            session.add(doc)
            session.flush()
    if postgres:
        # serialise writers of one document: the version number below is read-then-write
        session.execute(select(m.Document.id).where(m.Document.id == doc.id).with_for_update())
    return doc


def write_version(session: Session, doc: ProcessedDocument, *, run_id: int | None, settings_json: str) -> WriteResult:
    """Write ``doc`` as a new version of its document inside the caller's transaction."""
    ex = doc.extraction
    now = m.utcnow()
    # where the file was read, absolute: status and --mark-deleted find it from any folder (a name
    # that is not UTF-8 escaped, as its URI is)
    path = escape_name(os.path.abspath(doc.path))
    # a batch's URIs come escaped (SourceRef.uri); one with raw bytes comes from the Python API
    uri = escape_name(doc.uri) if has_raw_bytes(doc.uri) else doc.uri
    document = _document(session, doc.collection or m.DEFAULT_COLLECTION, uri, path)
    document.last_path = path
    if document.deleted_at is not None:
        document.deleted_at = None  # the file came back

    same = session.scalars(
        select(m.DocumentVersion).where(
            m.DocumentVersion.document_id == document.id,
            m.DocumentVersion.content_sha256 == ex.content_sha256,
            m.DocumentVersion.settings_hash == doc.settings_hash,
        )
    ).one_or_none()
    current = session.scalars(
        select(m.DocumentVersion).where(
            m.DocumentVersion.document_id == document.id, m.DocumentVersion.superseded_at.is_(None)
        )
    ).one_or_none()
    if same is not None:
        if same.superseded_at is None:
            if run_id is not None and same.run_id == run_id:
                # this run wrote it already: a task run again (a Dask worker killed after its write,
                # before its result came back) reports what the first attempt did
                status: WriteStatus = "added" if same.version_no == 1 else "updated"
                return WriteResult(status, same.id, same.version_no, "written by an earlier attempt of this run")
            return WriteResult("skipped", same.id, same.version_no, "unchanged")
        # the file went back to an earlier content: make that version current again
        if current is not None:
            current.superseded_at = now
        same.superseded_at = None
        same.current_since = now
        return WriteResult("updated", same.id, same.version_no, f"restored version {same.version_no}")

    version_no = (
        session.scalar(
            select(func.max(m.DocumentVersion.version_no)).where(m.DocumentVersion.document_id == document.id)
        )
        or 0
    ) + 1
    if current is not None:
        current.superseded_at = now
        session.flush()
    version = m.DocumentVersion(
        document_id=document.id,
        version_no=version_no,
        content_sha256=ex.content_sha256,
        text_sha256=ex.text_sha256,
        settings_hash=doc.settings_hash,
        settings_json=settings_json,
        extractor=ex.extractor,
        extractor_version=ex.extractor_version,
        media_type=ex.media_type,
        file_size=ex.file_size,
        page_count=ex.page_count,
        chunk_count=len(doc.chunks),
        raw_text=ex.raw,
        problems_json=json.dumps([p.as_dict() for p in ex.problems], ensure_ascii=False),
        ingested_at=now,
        superseded_at=None,
        current_since=now,
        run_id=run_id,
        language=chunks_language([c.text for c in doc.chunks]),
    )
    session.add(version)
    session.flush()
    vid = version.id
    _bulk(
        session,
        m.Page,
        [
            {
                "version_id": vid,
                "page_no": p.number,
                "width": p.width,
                "height": p.height,
                "raw_start": p.raw_start,
                "raw_end": p.raw_end,
                "has_text": p.has_text,
                "ocr_engine": p.ocr_engine,
                "ocr_languages": p.ocr_languages,
                "ocr_confidence": p.ocr_confidence,
                "ocr_dpi": p.ocr_dpi,
            }
            for p in ex.pages
        ],
    )
    _bulk(
        session,
        m.Line,
        [
            {
                "version_id": vid,
                "line_no": n,
                "page_no": ln.page,
                "raw_start": ln.raw_start,
                "raw_end": ln.raw_end,
                "top": ln.top,
                "bottom": ln.bottom,
                "x_edges": pack_xs(ln.xs),
            }
            for n, ln in enumerate(ex.lines)
        ],
    )
    _bulk(
        session,
        m.Furniture,
        [
            {
                "version_id": vid,
                "kind": f.kind,
                "page_no": f.page,
                "raw_start": f.raw_start,
                "raw_end": f.raw_end,
                "text": f.text,
            }
            for f in doc.furniture
        ],
    )
    _bulk(
        session,
        m.Hyphenation,
        [
            {
                "version_id": vid,
                "raw_start": h.raw_start,
                "raw_end": h.raw_end,
                "left_part": h.left[:200],
                "right_part": h.right[:200],
                "joined": h.joined,
                "reason": h.reason[:200],
            }
            for h in doc.hyphenations
        ],
    )
    _bulk(
        session,
        m.Chunk,
        [
            {
                "id": c.chunk_id,
                "version_id": vid,
                "ordinal": c.ordinal,
                "text": c.text,
                "text_sha256": c.text_sha256,
                "clean_start": c.clean_start,
                "clean_end": c.clean_end,
                "raw_start": c.raw_start,
                "raw_end": c.raw_end,
                "page_start": c.page_start,
                "page_end": c.page_end,
                "offset_map": c.map.to_bytes(),
            }
            for c in doc.chunks
        ],
    )
    index_chunks(session.connection(), vid, [(c.ordinal, c.chunk_id, c.text) for c in doc.chunks], version.language)
    return WriteResult("added" if version_no == 1 else "updated", vid, version_no)


def chunks_language(texts: Sequence[str]) -> str:
    """A version's language: that of its first 20 chunks (as verification reads it)."""
    return document_language(" ".join(texts[:20]))


def index_chunks(
    connection: Connection, version_id: int, chunks: list[tuple[int, str, str]], language: str | None
) -> None:
    """Put a version's chunks (``(ordinal, chunk_id, text)``) into the full-text index, on
    ``connection`` (so in the version's transaction): the FTS5 table on SQLite (stemmed here in
    ``language``), ``chunks.search`` on PostgreSQL (stemmed by ``language``'s configuration; see
    :mod:`citeline.store.stemming`)."""
    if not chunks:
        return
    if connection.dialect.name == "sqlite":
        rows = [
            {"rowid": search_key(version_id, ordinal), "body": search_text(body, language)}
            for ordinal, _, body in chunks
        ]
        statement = text("INSERT INTO chunk_search(rowid, body) VALUES (:rowid, :body)")
    else:
        rows = [{"id": cid, "body": search_text(body)} for _, cid, body in chunks]
        statement = text(f"UPDATE chunks SET search = to_tsvector('{pg_config(language)}', :body) WHERE id = :id")
    for i in range(0, len(rows), BATCH_ROWS):
        connection.execute(statement, rows[i : i + BATCH_ROWS])


def _bulk(session: Session, model: type[m.Base], rows: list[dict[str, Any]]) -> None:
    # on the session's connection, so in its transaction, but as a Core executemany: the rows are
    # plain column values, and the ORM's bulk path costs a quarter of the writer's time
    connection = session.connection()
    for i in range(0, len(rows), BATCH_ROWS):
        connection.execute(insert(model), rows[i : i + BATCH_ROWS])


def mark_deleted(session: Session, collection: str, uri: str) -> bool:
    """Mark a document deleted (its versions and chunks stay). False if it does not exist."""
    result = session.execute(
        update(m.Document)
        .where(m.Document.collection == collection, m.Document.uri == uri, m.Document.deleted_at.is_(None))
        .values(deleted_at=m.utcnow())
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]
