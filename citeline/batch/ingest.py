"""Batch ingestion of whole corpora: discover, hash, skip unchanged, process in isolated workers,
write each version in one transaction, record every outcome.

SQLite has one writer, so workers only extract, clean and chunk; this process writes, one
transaction per document version. A crash or Ctrl-C therefore never leaves half a version, and a
rerun resumes where the last one stopped (finished files are skipped by hash).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from citeline.batch.distributed import ingest_with_dask
from citeline.batch.outcomes import FileOutcome, SourceRef, outcome_of_error, outcome_of_write
from citeline.ingest.extract.files import Limits, default_max_memory, sha256_file
from citeline.ingest.isolate import IsolatedPool
from citeline.ingest.pipeline import FileTask, PipelineSettings, ProcessedDocument, run_task
from citeline.kinds import DEFAULT_EXECUTOR, EXECUTORS, OUTCOME_STATUSES, Executor, OutcomeStatus, RunStatus, member
from citeline.store.store import Store

#: Modules every ingest worker needs: imported once by the forkserver, not once per worker.
WORKER_PRELOAD = ("citeline.ingest.pipeline", "citeline.ingest.extract.pdf", "pdfplumber", "pypdfium2")
#: Extensions ingested when no ``--glob`` is given (case-insensitive).
DEFAULT_EXTENSIONS = (
    ".pdf",
    ".txt",
    ".md",
    ".markdown",
    ".html",
    ".htm",
    ".docx",
    ".pptx",
    ".odt",
    ".epub",
    ".eml",
    ".png",
    ".jpg",
    ".jpeg",
    ".tif",
    ".tiff",
)


@dataclass(frozen=True, slots=True)
class IngestOptions:
    settings: PipelineSettings = field(default_factory=PipelineSettings)
    workers: int | None = None  # default: number of CPUs
    globs: tuple[str, ...] = ()
    password: str | None = None
    reprocess: bool = False
    limits: Limits = field(default_factory=Limits)
    executor: Executor = DEFAULT_EXECUTOR  # local (a process pool on this machine) or dask
    scheduler: str | None = None  # dask: tcp://host:8786 of an existing cluster (default: a local one)


@dataclass
class IngestSummary:
    run_id: int
    total: int
    outcomes: list[FileOutcome] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, status: OutcomeStatus) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def pages(self) -> int:
        return sum(o.pages for o in self.outcomes if o.status in ("added", "updated"))

    @property
    def chunks(self) -> int:
        return sum(o.chunks for o in self.outcomes if o.status in ("added", "updated"))

    def counts(self) -> dict[str, int]:
        by_status: dict[str, int] = {status: self.count(status) for status in OUTCOME_STATUSES}
        return {**by_status, "pages": self.pages, "chunks": self.chunks}


ProgressCallback = Callable[[FileOutcome, int, int], None]  # (outcome, done, total)


class DiscoveryError(ValueError):
    """A path given on the command line does not exist."""


def discover(paths: Sequence[str | os.PathLike[str]], globs: Sequence[str] = ()) -> list[SourceRef]:
    """Files under ``paths`` (recursively, sorted, hidden files skipped). A file's URI is its path
    relative to the root it was found under (a file given directly: its name)."""
    refs: list[SourceRef] = []
    seen: set[str] = set()
    for root in paths:
        root_path = Path(root)
        if not root_path.exists():
            raise DiscoveryError(f"Path {str(root)!r} does not exist")
        if root_path.is_file():
            candidates: Iterable[tuple[Path, str]] = [(root_path, root_path.name)]
        else:
            candidates = ((p, p.relative_to(root_path).as_posix()) for p in _walk(root_path))
        for file_path, uri in candidates:
            if root_path.is_dir() and not _wanted(file_path.name, globs):
                continue
            key = os.path.realpath(file_path)
            if key in seen:
                continue
            seen.add(key)
            refs.append(SourceRef(str(file_path), uri))
    return refs


def _walk(root: Path) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.startswith("."):
                yield Path(dirpath) / name


def _size(ref: SourceRef) -> int:
    try:
        return os.stat(ref.path).st_size
    except OSError:
        return 0


def _wanted(name: str, globs: Sequence[str]) -> bool:
    if globs:
        return any(fnmatch.fnmatch(name, g) for g in globs)
    return name.lower().endswith(DEFAULT_EXTENSIONS)


def ingest_files(
    store: Store,
    paths: Sequence[str | os.PathLike[str]],
    options: IngestOptions = IngestOptions(),
    *,
    progress: ProgressCallback | None = None,
) -> IngestSummary:
    """Ingest every file under ``paths`` into ``store``; see the module docstring."""
    member(options.executor, EXECUTORS, "executor")
    started = time.perf_counter()
    refs = discover(paths, options.globs)
    settings_hash = options.settings.fingerprint()
    settings_json = json.dumps(options.settings.as_dict(), sort_keys=True)
    workers = max(1, options.workers or os.cpu_count() or 1)
    run_id = store.begin_run(
        roots=[str(p) for p in paths],
        settings=options.settings.as_dict(),
        settings_hash=settings_hash,
        executor=options.executor,
        workers=workers,
    )
    summary = IngestSummary(run_id, len(refs))
    pending: list[dict[str, object]] = []

    def done(outcome: FileOutcome) -> None:
        summary.outcomes.append(outcome)
        pending.append(outcome.as_row())
        if len(pending) >= 50:
            store.record_outcomes(run_id, pending)
            pending.clear()
        if progress is not None:
            progress(outcome, len(summary.outcomes), summary.total)

    status: RunStatus = "completed"
    duplicates: dict[str, str] = {}  # path -> URI of a document with the same content

    def noted(outcome: FileOutcome) -> None:
        """``done``, with a duplicate's outcome saying whose content it repeats."""
        other = duplicates.get(outcome.path)
        if other is not None and outcome.status in ("added", "updated"):
            note = f"duplicate of {other}"
            outcome = dataclasses.replace(outcome, message=f"{note}; {outcome.message}" if outcome.message else note)
        done(outcome)

    try:
        todo = _skip_unchanged(store, refs, settings_hash, options.reprocess, done, duplicates)
        # biggest files first: the long ones start early and the workers finish together
        todo.sort(key=_size, reverse=True)
        if todo and options.executor == "dask":
            # workers read the files themselves (from a shared mount): give them absolute paths
            tasks = [
                FileTask(os.path.abspath(r.path), r.uri, options.settings, options.password, options.limits)
                for r in todo
            ]
            ingest_with_dask(
                store,
                tasks,
                workers=workers,
                scheduler=options.scheduler,
                run_id=run_id,
                settings_json=settings_json,
                timeout=options.limits.timeout,
                done=noted,
            )
        elif todo:
            _process_all(store, todo, options, workers, run_id, settings_json, noted)
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        summary.seconds = time.perf_counter() - started
        store.record_outcomes(run_id, pending)
        store.finish_run(run_id, status=status, counts=summary.counts(), seconds=summary.seconds)
    return summary


def _skip_unchanged(
    store: Store,
    refs: list[SourceRef],
    settings_hash: str,
    reprocess: bool,
    done: Callable[[FileOutcome], None],
    duplicates: dict[str, str],
) -> list[SourceRef]:
    """The files to process: new ones, changed ones, and (with ``reprocess``) ones whose settings
    changed; the rest are reported skipped. Fills ``duplicates`` with the files whose content is
    another document's current version (or another file's of this run)."""
    current = store.current_files()
    by_content = {cur.content_sha256: uri for uri, cur in current.items()}
    todo: list[SourceRef] = []
    for ref in refs:
        cur = current.get(ref.uri)
        t0 = time.perf_counter()
        try:
            digest = sha256_file(ref.path)
        except OSError:
            todo.append(ref)  # let the worker report the read error (a FIFO, a device, gone)
            continue
        other = by_content.setdefault(digest, ref.uri)
        if other != ref.uri:
            duplicates[ref.path] = other
        if cur is None or digest != cur.content_sha256:
            todo.append(ref)
        elif cur.settings_hash == settings_hash:
            done(
                FileOutcome(
                    ref.path,
                    ref.uri,
                    "skipped",
                    "unchanged",
                    None,
                    cur.version_no,
                    seconds=time.perf_counter() - t0,
                )
            )
        elif reprocess:
            todo.append(ref)
        else:
            done(
                FileOutcome(
                    ref.path,
                    ref.uri,
                    "skipped",
                    "settings_changed",
                    "pipeline settings changed since this version; rerun with --reprocess to rebuild it",
                    cur.version_no,
                    seconds=time.perf_counter() - t0,
                )
            )
    return todo


def _process_all(
    store: Store,
    todo: list[SourceRef],
    options: IngestOptions,
    workers: int,
    run_id: int,
    settings_json: str,
    done: Callable[[FileOutcome], None],
) -> None:
    started: dict[str, float] = {}

    def tasks() -> Iterator[tuple[SourceRef, FileTask]]:
        for ref in todo:
            started[ref.path] = time.perf_counter()
            yield ref, FileTask(ref.path, ref.uri, options.settings, options.password, options.limits)

    nworkers = min(workers, len(todo))
    with IsolatedPool(
        run_task,
        workers=nworkers,
        timeout=options.limits.timeout,
        preload=WORKER_PRELOAD,
        max_memory=options.limits.max_memory or default_max_memory(workers),
    ) as pool:
        for ref, result in pool.imap_unordered(tasks()):
            t0 = started.get(ref.path, time.perf_counter())
            if isinstance(result, ProcessedDocument):
                done(outcome_of_write(ref, result, store, run_id, settings_json, t0))
            else:
                done(outcome_of_error(ref, result, time.perf_counter() - t0, options.limits))
