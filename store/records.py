"""Frozen records the store hands out (ORM objects never leave :mod:`citeline.store`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from citeline.kinds import WriteStatus
from citeline.text.geometry import Box
from citeline.text.offsets import OffsetMap


@dataclass(frozen=True, slots=True)
class VersionInfo:
    version_id: int
    document_uri: str
    version_no: int
    content_sha256: str
    text_sha256: str
    settings_hash: str
    extractor: str
    extractor_version: str
    media_type: str
    page_count: int
    chunk_count: int
    file_size: int
    ingested_at: datetime
    superseded_at: datetime | None
    deleted: bool
    problems: tuple[dict[str, Any], ...] = ()
    collection: str = ""
    #: the text's language as ingest found it (a wordfreq code; None: not known, or not stored by
    #: stores from before revision 0006)
    language: str | None = None

    @property
    def is_current(self) -> bool:
        return self.superseded_at is None and not self.deleted


@dataclass(frozen=True, slots=True)
class ChunkInfo:
    chunk_id: str
    version_id: int
    document_uri: str
    version_no: int
    is_current: bool
    ordinal: int
    text: str
    text_sha256: str
    content_sha256: str
    clean_start: int
    clean_end: int
    raw_start: int
    raw_end: int
    page_start: int | None
    page_end: int | None
    map: OffsetMap = field(repr=False, compare=False)
    collection: str = ""

    def as_json(self) -> dict[str, Any]:
        """The documented JSONL record of ``citeline chunks``."""
        return {
            "chunk_id": self.chunk_id,
            "document": self.document_uri,
            "version": self.version_no,
            "is_current": self.is_current,
            "ordinal": self.ordinal,
            "text": self.text,
            "chunk_hash": f"sha256:{self.text_sha256}",
            "content_hash": f"sha256:{self.content_sha256}",
            "page_start": self.page_start,
            "page_end": self.page_end,
            "raw_start": self.raw_start,
            "raw_end": self.raw_end,
            "clean_start": self.clean_start,
            "clean_end": self.clean_end,
            "collection": self.collection,
        }


@dataclass(frozen=True, slots=True)
class PageInfo:
    page_no: int
    width: float
    height: float
    raw_start: int
    raw_end: int
    has_text: bool
    #: set for a page read by OCR (see :class:`citeline.ingest.extract.model.Page`)
    ocr_engine: str | None = None
    ocr_languages: str | None = None
    ocr_confidence: float | None = None
    ocr_dpi: float | None = None


@dataclass(frozen=True, slots=True)
class FurnitureInfo:
    kind: str
    page_no: int
    raw_start: int
    raw_end: int
    text: str


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    uri: str
    created_at: datetime
    deleted_at: datetime | None
    last_path: str | None
    versions: tuple[VersionInfo, ...]
    pages: tuple[PageInfo, ...]  # of the current (or newest) version
    furniture: tuple[FurnitureInfo, ...]  # of the current (or newest) version
    collection: str = ""

    @property
    def current(self) -> VersionInfo | None:
        return next((v for v in self.versions if v.is_current), None)

    def as_json(self) -> dict[str, Any]:
        def clean(d: dict[str, Any]) -> dict[str, Any]:
            return {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in d.items()}

        return {
            "uri": self.uri,
            "collection": self.collection,
            "created_at": self.created_at.isoformat(),
            "deleted_at": self.deleted_at.isoformat() if self.deleted_at else None,
            "last_path": self.last_path,
            "versions": [clean({**asdict(v), "is_current": v.is_current}) for v in self.versions],
            "pages": [asdict(p) for p in self.pages],
            "furniture": [asdict(f) for f in self.furniture],
        }


@dataclass(frozen=True, slots=True)
class Provenance:
    chunk: ChunkInfo
    version: VersionInfo
    pages: tuple[int, ...]
    boxes: tuple[Box, ...]
    context_before: str
    context_after: str
    raw_text: str  # the raw stream's characters of the chunk's raw span

    def as_json(self) -> dict[str, Any]:
        return {
            **self.chunk.as_json(),
            "document": {
                "uri": self.version.document_uri,
                "version": self.version.version_no,
                "content_hash": f"sha256:{self.version.content_sha256}",
                "current": self.version.is_current,
                "extractor": self.version.extractor,
            },
            "pages": list(self.pages),
            "boxes": [b.as_dict() for b in self.boxes],
            "raw_text": self.raw_text,
            "context_before": self.context_before,
            "context_after": self.context_after,
        }


@dataclass(frozen=True, slots=True)
class WriteResult:
    status: WriteStatus
    version_id: int | None
    version_no: int | None
    message: str | None = None


@dataclass(frozen=True, slots=True)
class ContextInfo:
    context_id: str
    created_at: datetime
    sources: tuple[tuple[str, str], ...]  # (marker, chunk_id) in order
    #: the injected chunks, by marker (filled by :meth:`Store.create_context`)
    chunks: tuple[ChunkInfo, ...] = ()

    @property
    def prompt(self) -> str:
        """The prompt block: each chunk's text under its marker, with where it comes from, and the
        context id (what ``citeline verify --context`` checks an answer's markers against)."""
        return prompt_block(self.context_id, [(mk, c) for (mk, _), c in zip(self.sources, self.chunks, strict=False)])

    def as_json(self) -> dict[str, Any]:
        return {
            "context_id": self.context_id,
            "created_at": self.created_at.isoformat(),
            "sources": dict(self.sources),
        }


#: a chunk that continues the passage of marker ``M`` (overlapping neighbours merged into one
#: passage) is recorded under ``M~2``, ``M~3``, ...: verification reads ``M`` as all of them
CONTINUES = "~"


def passage_marker(marker: str) -> str:
    """The marker of the passage a recorded marker belongs to (``S1~2`` -> ``S1``)."""
    return marker.split(CONTINUES, 1)[0]


def can_merge(first: ChunkInfo, second: ChunkInfo) -> bool:
    """Whether two chunks of one version overlap or touch in the cleaned text (and their texts are
    their clean spans, so the passage's text is exactly the clean text of its span)."""
    return (
        first.version_id == second.version_id
        and second.clean_start <= first.clean_end
        and first.clean_start <= second.clean_end
        and len(first.text) == first.clean_end - first.clean_start
        and len(second.text) == second.clean_end - second.clean_start
    )


def passage_text(chunks: Sequence[ChunkInfo]) -> str:
    """The text of chunks merged into one passage (in clean-text order, each overlap once): the
    clean text from the first one's start to the last one's end."""
    ordered = sorted(chunks, key=lambda c: c.clean_start)
    text, end = ordered[0].text, ordered[0].clean_end
    for c in ordered[1:]:
        if c.clean_end > end:
            text += c.text[max(0, end - c.clean_start) :]
            end = c.clean_end
    return text


def passages(chunks: Sequence[tuple[str, ChunkInfo]]) -> list[tuple[str, list[ChunkInfo]]]:
    """Recorded ``(marker, chunk)`` pairs grouped into passages: each continuation marker's chunk
    joins its passage's."""
    out: list[tuple[str, list[ChunkInfo]]] = []
    index: dict[str, int] = {}
    for mk, c in chunks:
        head = passage_marker(mk)
        if head != mk and head in index:
            out[index[head]][1].append(c)
        else:
            index[mk] = len(out)
            out.append((mk, [c]))
    return out


def passage_block(marker: str, chunks: Sequence[ChunkInfo]) -> str:
    """A passage's source block: its pages from the first chunk's first to the last one's last."""
    starts = [c.page_start for c in chunks if c.page_start is not None]
    ends = [c.page_end for c in chunks if c.page_end is not None]
    first = chunks[0]
    return source_block(
        marker,
        first.document_uri,
        first.version_no,
        min(starts) if starts else None,
        max(ends) if ends else None,
        passage_text(chunks),
    )


def prompt_block(context_id: str, chunks: Sequence[tuple[str, ChunkInfo]]) -> str:
    """The text to put in a prompt for an injected set: a comment naming the context, then per
    passage (a chunk, or overlapping neighbours merged) ``[marker] document (version N, p. X-Y)``
    and its text."""
    out = [f"<!-- citeline context {context_id} -->"]
    out += [passage_block(mk, group) for mk, group in passages(chunks)]
    return "\n".join(out)


def source_block(
    marker: str, document: str, version: int, page_start: int | None, page_end: int | None, text: str
) -> str:
    """One source of a prompt block: ``[marker] document (version N, p. X-Y)``, its text, a blank line."""
    pages = ""
    if page_start:
        pages = f", p. {page_start}" + (f"-{page_end}" if page_end != page_start else "")
    return f"[{marker}] {document} (version {version}{pages})\n{text}\n"
