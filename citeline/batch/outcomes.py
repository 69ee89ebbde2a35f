"""What happened to one file in an ingest run, shared by the local and the Dask executor."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from citeline.ingest.errors import ExtractionError, ExtractorCrashed, TimedOut, TooLarge
from citeline.ingest.extract.files import Limits
from citeline.ingest.isolate import OverMemory, TaskTimeout, WorkerDied
from citeline.ingest.pipeline import ProcessedDocument
from citeline.kinds import OUTCOME_STATUSES, OutcomeStatus, member
from citeline.store.store import Store
from citeline.text.names import escape_name, show_name

log = logging.getLogger("citeline.ingest")


@dataclass(frozen=True, slots=True)
class SourceRef:
    path: str  # as found on disk (a name that is not UTF-8 holds surrogateescape bytes)
    #: stable identity within the collection: the path relative to the root given on the command
    #: line, escaped (:func:`citeline.text.names.escape_name`)
    uri: str
    collection: str = ""
    content_sha256: str | None = None  # of the bytes, once read
    #: discovery's reason not to read it (a link out of the folder, a second name of a file) and
    #: its one-line message: the file gets a ``skipped`` outcome line
    skip_reason: str | None = None
    skip_message: str | None = None


@dataclass(frozen=True, slots=True)
class FileOutcome:
    path: str
    uri: str
    status: OutcomeStatus
    reason: str | None = None
    message: str | None = None
    version_no: int | None = None
    version_id: int | None = None
    pages: int = 0
    chunks: int = 0
    seconds: float = 0.0
    collection: str = ""
    content_sha256: str | None = None

    def __post_init__(self) -> None:
        member(self.status, OUTCOME_STATUSES, "outcome status")

    def as_row(self) -> dict[str, object]:
        """The outcome as stored: the path and message escaped like URIs (no surrogates reach
        the database)."""
        return {
            "path": escape_name(self.path),
            "collection": self.collection or None,
            "uri": self.uri,  # escaped already (SourceRef.uri)
            "content_sha256": self.content_sha256,
            "status": self.status,
            "reason": self.reason,
            "message": show_name(self.message) if self.message is not None else None,
            "version_id": self.version_id,
            "pages": self.pages,
            "chunks": self.chunks,
            "seconds": round(self.seconds, 4),
        }


def outcome_of_error(ref: SourceRef, error: BaseException, seconds: float, limits: Limits) -> FileOutcome:
    """A failed outcome with a one-line reason for any error a worker (or the pool) reported."""
    if isinstance(error, TaskTimeout):
        error = TimedOut(ref.path, f"took longer than the {limits.timeout:g} s limit per document")
    elif isinstance(error, OverMemory):
        error = TooLarge(ref.path, f"{error} (--max-memory)")
    elif isinstance(error, WorkerDied):
        error = ExtractorCrashed(ref.path, f"extractor crashed: {error}")
    if isinstance(error, ExtractionError):
        return FileOutcome(
            ref.path,
            ref.uri,
            "failed",
            error.reason,
            str(error),
            seconds=seconds,
            collection=ref.collection,
            content_sha256=ref.content_sha256,
        )
    detail = str(error).strip().splitlines()[0] if str(error).strip() else ""
    message = f"{ref.path}: internal error: {type(error).__name__}: {detail}"
    return FileOutcome(
        ref.path,
        ref.uri,
        "failed",
        "internal_error",
        message,
        seconds=seconds,
        collection=ref.collection,
        content_sha256=ref.content_sha256,
    )


def outcome_of_write(
    ref: SourceRef, doc: ProcessedDocument, store: Store, run_id: int, settings_json: str, started: float
) -> FileOutcome:
    result = store.write(doc, run_id=run_id, settings_json=settings_json)
    for warning in doc.warnings:  # shown with -v; never on stderr by default
        log.warning("%s: %s", ref.path, warning)
    problems = "; ".join(p.message for p in doc.extraction.problems) or None
    if result.status == "skipped":
        return FileOutcome(
            ref.path,
            ref.uri,
            "skipped",
            "unchanged",
            result.message,
            result.version_no,
            result.version_id,
            seconds=time.perf_counter() - started,
            collection=ref.collection,
            content_sha256=doc.extraction.content_sha256,
        )
    return FileOutcome(
        ref.path,
        ref.uri,
        result.status,
        doc.extraction.problems[0].code if doc.extraction.problems else None,
        result.message or problems,
        result.version_no,
        result.version_id,
        pages=doc.page_count,
        chunks=len(doc.chunks),
        seconds=time.perf_counter() - started,
        collection=ref.collection,
        content_sha256=doc.extraction.content_sha256,
    )
