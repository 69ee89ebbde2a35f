"""One document, start to finish, without a database: extract, clean, chunk.

:func:`process_file` is what an ingest worker runs (in a separate process); its result is a plain,
picklable value the store writes in one transaction.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

from citeline.garbage import few_collections
from citeline.ingest.chunker import CHUNKER_VERSION, DEFAULT_OVERLAP, DEFAULT_TARGET, chunk
from citeline.ingest.clean.pipeline import CleanSettings, RawFurniture, RawHyphenation, clean, settings_fingerprint
from citeline.ingest.extract import Extraction, Limits, SourceFile, extract_source, pdf_backend, read_source
from citeline.ingest.extract.layout_settings import DEFAULT_SETTINGS, LayoutSettings
from citeline.ingest.extract.model import pages_of
from citeline.ingest.extract.ocr import OcrSettings
from citeline.kinds import DEFAULT_EXTRACTOR, Extractor
from citeline.text import lang as language
from citeline.text import lexicon
from citeline.text.offsets import OffsetMap


@dataclass(frozen=True, slots=True)
class PipelineSettings:
    """Everything that changes what a file turns into. Its fingerprint is stored with each version;
    a file whose fingerprint differs is re-processed only when asked (``--reprocess``)."""

    extractor: Extractor = DEFAULT_EXTRACTOR
    clean: CleanSettings = field(default_factory=CleanSettings)
    chunk_target: int = DEFAULT_TARGET
    chunk_overlap: int = DEFAULT_OVERLAP
    chunk_unit: Literal["chars", "tokens"] = "chars"
    ocr: OcrSettings = field(default_factory=OcrSettings)
    #: the layout engine's thresholds (``--layout KEY=VALUE``)
    layout: LayoutSettings = DEFAULT_SETTINGS

    def as_dict(self) -> dict[str, object]:
        return {
            "extractor": self.extractor,
            # what ``auto`` reads PDFs with: pdfium since issue 32 (pdfplumber before)
            "pdf_backend": pdf_backend(self.extractor),
            "ocr": self.ocr.as_dict(),
            # a new layout engine, or other layout settings, turn the same file into another raw
            # stream: old versions must report that they need --reprocess rather than silently mix
            # with new ones (the default settings hash as the bare engine version, as they always did)
            "layout": self.layout.fingerprint_part(),
            "clean": self.clean.as_dict(),
            "chunk": {
                "target": self.chunk_target,
                "overlap": self.chunk_overlap,
                "unit": self.chunk_unit,
                "version": CHUNKER_VERSION,
            },
        }

    def fingerprint(self) -> str:
        return settings_fingerprint(self.as_dict())


@dataclass(frozen=True, slots=True)
class ChunkRecord:
    """A chunk ready to store: text, hashes, cleaned span, absolute raw span, pages and its map."""

    chunk_id: str
    ordinal: int
    text: str
    text_sha256: str
    clean_start: int
    clean_end: int
    raw_start: int
    raw_end: int
    page_start: int | None
    page_end: int | None
    map: OffsetMap


@dataclass(frozen=True)
class ProcessedDocument:
    """What a worker hands back for one file."""

    uri: str
    path: str
    extraction: Extraction
    furniture: tuple[RawFurniture, ...]
    hyphenations: tuple[RawHyphenation, ...]
    chunks: tuple[ChunkRecord, ...]
    settings_hash: str
    seconds: dict[str, float]
    #: what the libraries warned about while reading this file ("Invalid MediaBox ..."): logged by
    #: the batch (``-v``), never printed by the worker
    warnings: tuple[str, ...] = ()
    #: the collection the document belongs to ("": the store's default)
    collection: str = ""

    @property
    def page_count(self) -> int:
        return self.extraction.page_count


def chunk_id(
    uri: str, content_sha256: str, settings_hash: str, clean_start: int, clean_end: int, collection: str = ""
) -> str:
    """A stable chunk id: the same file, collection, settings and span give the same id on every
    machine (two collections holding the same file under the same URI have different chunks)."""
    key = f"{uri}\x00{content_sha256}\x00{settings_hash}\x00{clean_start}:{clean_end}".encode()
    if collection:
        key = collection.encode("utf-8", "surrogateescape") + b"\x00" + key
    return "ck_" + hashlib.sha256(key).hexdigest()[:20]


def process_source(
    source: SourceFile,
    uri: str,
    settings: PipelineSettings = PipelineSettings(),
    *,
    password: str | None = None,
    limits: Limits = Limits(),
    collection: str = "",
) -> ProcessedDocument:
    """Extract, clean and chunk an already-read file, the garbage collector running seldom
    (:func:`citeline.garbage.few_collections`)."""
    with few_collections():
        return _process_source(source, uri, settings, password=password, limits=limits, collection=collection)


def _process_source(
    source: SourceFile, uri: str, settings: PipelineSettings, *, password: str | None, limits: Limits, collection: str
) -> ProcessedDocument:
    t0 = time.perf_counter()
    extraction = extract_source(
        source, extractor=settings.extractor, password=password, limits=limits, ocr=settings.ocr, layout=settings.layout
    )
    t1 = time.perf_counter()
    cleaned = clean(
        extraction.raw,
        geometry=extraction.line_geometry() if extraction.lines else None,
        known_furniture=extraction.furniture,
        settings=settings.clean,
    )
    t2 = time.perf_counter()
    settings_hash = settings.fingerprint()
    drafts = chunk(
        cleaned.text,
        cleaned.map,
        target=settings.chunk_target,
        overlap=settings.chunk_overlap,
        unit=settings.chunk_unit,
        lang=language.of(lexicon.document_language(cleaned.text)),
    )
    records = []
    for d in drafts:
        pages = pages_of(extraction.pages, d.raw)
        records.append(
            ChunkRecord(
                chunk_id=chunk_id(
                    uri, extraction.content_sha256, settings_hash, d.clean.start, d.clean.end, collection
                ),
                ordinal=d.ordinal,
                text=d.text,
                text_sha256=hashlib.sha256(d.text.encode("utf-8")).hexdigest(),
                clean_start=d.clean.start,
                clean_end=d.clean.end,
                raw_start=d.raw.start,
                raw_end=d.raw.end,
                page_start=pages[0] if pages else None,
                page_end=pages[-1] if pages else None,
                map=d.map,
            )
        )
    t3 = time.perf_counter()
    return ProcessedDocument(
        uri=uri,
        path=source.path,
        extraction=extraction,
        furniture=cleaned.furniture,
        hyphenations=cleaned.hyphenations,
        chunks=tuple(records),
        settings_hash=settings_hash,
        seconds={"extract": t1 - t0, "clean": t2 - t1, "chunk": t3 - t2},
        collection=collection,
    )


def process_file(
    path: str | os.PathLike[str],
    uri: str,
    settings: PipelineSettings = PipelineSettings(),
    *,
    password: str | None = None,
    limits: Limits = Limits(),
    collection: str = "",
) -> ProcessedDocument:
    """Read, extract, clean and chunk one file. Raises :class:`citeline.ingest.errors.ExtractionError`."""
    t0 = time.perf_counter()
    source = read_source(path, limits=limits)
    result = process_source(source, uri, settings, password=password, limits=limits, collection=collection)
    result.seconds["read"] = time.perf_counter() - t0 - sum(result.seconds.values())
    return result


@dataclass(frozen=True, slots=True)
class FileTask:
    """One unit of work for an ingest worker (picklable)."""

    path: str
    uri: str
    settings: PipelineSettings
    password: str | None = None
    limits: Limits = field(default_factory=Limits)
    collection: str = ""


def run_task(task: FileTask) -> ProcessedDocument:
    """Worker entry point: :func:`process_file` for one :class:`FileTask`, with what the libraries
    warn about collected into :attr:`ProcessedDocument.warnings` instead of the worker's stderr."""
    with collected_warnings() as collected:
        result = process_file(
            task.path,
            task.uri,
            task.settings,
            password=task.password,
            limits=task.limits,
            collection=task.collection,
        )
    return dataclasses.replace(result, warnings=tuple(collected))


#: At most this many warnings are kept per file (a broken file can warn on every object).
MAX_WARNINGS = 20


@contextmanager
def collected_warnings() -> Iterator[list[str]]:
    """Collect ``warnings.warn`` calls and log records of WARNING and above (pdfminer, pypdfium2,
    unstructured...) into a list, one line each, nothing printed; repeats are kept once."""
    collected: list[str] = []

    def keep(line: str) -> None:
        line = " ".join(line.split())
        if line and line not in collected and len(collected) < MAX_WARNINGS:
            collected.append(line)

    class _Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            try:
                keep(f"{record.name}: {record.getMessage()}")
            except Exception:  # a library's bad format string must not fail the file
                keep(f"{record.name}: {record.msg!r}")

    root = logging.getLogger()
    handler = _Keep(logging.WARNING)
    saved = root.handlers[:]
    root.handlers = [handler]  # also keeps logging's last-resort printer away from stderr
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                yield collected
            finally:
                for w in caught:
                    keep(f"{w.category.__name__}: {w.message}")
    finally:
        root.handlers = saved
