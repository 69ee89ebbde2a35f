"""Batch ingestion of whole corpora: discover, hash, skip unchanged, process in isolated workers,
write each version in one transaction, record every outcome.

SQLite has one writer, so workers only extract, clean and chunk; this process writes, one
transaction per document version. A crash or Ctrl-C therefore never leaves half a version, and a
rerun resumes where the last one stopped (finished files are skipped by hash).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from citeline.batch.distributed import ingest_with_dask
from citeline.batch.outcomes import FileOutcome, SourceRef, outcome_of_error, outcome_of_write
from citeline.ingest.extract.files import Limits, default_max_memory, sha256_file
from citeline.ingest.isolate import IsolatedPool
from citeline.ingest.pipeline import FileTask, PipelineSettings, ProcessedDocument, run_task
from citeline.ingest.workers import worker_preload
from citeline.kinds import DEFAULT_EXECUTOR, EXECUTORS, OUTCOME_STATUSES, Executor, OutcomeStatus, RunStatus, member
from citeline.store.models import DEFAULT_COLLECTION
from citeline.store.store import RememberedFailure, Store
from citeline.text.names import escape_name, show_name

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
    #: the collection every file goes into (default: each root's folder name, see collection_name)
    collection: str | None = None
    follow_links: bool = False  # read symbolic links that leave the folder given
    retry_failed: bool = False  # read again files that failed on the same content and settings


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


def collection_name(root: str | os.PathLike[str]) -> str:
    """The collection a root goes into by default: the name of the folder given (a file given
    directly: the name of its folder), escaped like a URI; ``default`` for ``/``."""
    path = os.path.abspath(root)
    folder = path if os.path.isdir(path) else os.path.dirname(path)
    return escape_name(os.path.basename(folder))[:255] or DEFAULT_COLLECTION


def discover(
    paths: Sequence[str | os.PathLike[str]],
    globs: Sequence[str] = (),
    *,
    collection: str | None = None,
    follow_links: bool = False,
) -> list[SourceRef]:
    """Files under ``paths`` (recursively, sorted, hidden files skipped). A file's URI is its path
    relative to the root it was found under (a file given directly: its name), escaped when it is
    not UTF-8 (:func:`citeline.text.names.escape_name`); its collection is ``collection`` or the
    root's :func:`collection_name`.

    Refs that are not to be read carry a ``skip_reason`` (each still gets an outcome line): a
    symbolic link that leaves the root (``link_outside``, unless ``follow_links``), and a second
    name of a file already found in the collection (``same_file``; a name that is not a link wins).
    """
    refs: list[SourceRef] = []
    first: dict[tuple[str, str], str] = {}  # (collection, real path) -> URI of the name read
    for root in paths:
        root_path = Path(root)
        if not root_path.exists():
            raise DiscoveryError(f"Path {printable_name(str(root))!r} does not exist")
        coll = collection if collection else collection_name(root_path)
        found: list[tuple[Path, str, str | None]] = []  # path, URI, reason not to read it
        if root_path.is_file():
            found.append((root_path, root_path.name, None))
        else:
            inside = os.path.realpath(root_path)
            for file_path, outside in _walk(root_path, inside, follow_links):
                if outside or _wanted(file_path.name, globs):
                    found.append((file_path, file_path.relative_to(root_path).as_posix(), outside))
        # a plain name of a file wins over a link to it, whichever sorts first
        order = sorted(range(len(found)), key=lambda i: (found[i][2] is not None, os.path.islink(found[i][0]), i))
        chosen: dict[int, SourceRef] = {}
        for i in order:
            file_path, rel, outside = found[i]
            uri = escape_name(rel)
            if outside is not None:
                target = printable_name(os.path.realpath(file_path))
                chosen[i] = SourceRef(
                    str(file_path),
                    uri,
                    coll,
                    skip_reason="link_outside",
                    skip_message=f"{printable_name(str(file_path))}: a symbolic link to {target}, outside "
                    f"{printable_name(str(root))}; not read (--follow-links reads it)",
                )
                continue
            key = (coll, os.path.realpath(file_path))
            if key in first:
                chosen[i] = SourceRef(
                    str(file_path),
                    uri,
                    coll,
                    skip_reason="same_file",
                    skip_message=f"{printable_name(str(file_path))}: the same file as {first[key]}; read once",
                )
                continue
            first[key] = uri
            chosen[i] = SourceRef(str(file_path), uri, coll)
        refs.extend(chosen[i] for i in range(len(found)))
    return refs


def printable_name(name: str) -> str:
    """A file name for a one-line message: undecodable bytes as ``%XX``."""
    return show_name(name)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _walk(root: Path, inside: str, follow_links: bool) -> Iterator[tuple[Path, str | None]]:
    """Files under ``root`` in sorted order, each with ``"link_outside"`` when it is (or is
    reached through) a symbolic link that leaves ``inside`` (the root's real path) and links are
    not followed. A linked folder is descended only with ``follow_links`` (each real folder once:
    a link to an ancestor is no loop); one leaving the root is reported as one entry."""
    seen_dirs = {os.path.realpath(root)}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=follow_links):
        keep = []
        for d in sorted(dirnames):
            if d.startswith("."):
                continue
            full = os.path.join(dirpath, d)
            if os.path.islink(full):
                real = os.path.realpath(full)
                if not follow_links:
                    if not _inside(real, inside):
                        yield Path(full), "link_outside"
                    continue
                if real in seen_dirs:
                    continue
                seen_dirs.add(real)
            keep.append(d)
        dirnames[:] = keep
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            full = os.path.join(dirpath, name)
            if not follow_links and os.path.islink(full) and not _inside(os.path.realpath(full), inside):
                yield Path(full), "link_outside"
            else:
                yield Path(full), None


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
    refs = discover(paths, options.globs, collection=options.collection, follow_links=options.follow_links)
    settings_hash = options.settings.fingerprint()
    settings_json = json.dumps(options.settings.as_dict(), sort_keys=True)
    workers = max(1, options.workers or os.cpu_count() or 1)
    run_id = store.begin_run(
        roots=[escape_name(str(p)) for p in paths],
        settings=options.settings.as_dict(),
        settings_hash=settings_hash,
        executor=options.executor,
        workers=workers,
    )
    summary = IngestSummary(run_id, len(refs))
    pending: list[dict[str, object]] = []
    attempt = attempt_sha256(options)

    def done(outcome: FileOutcome) -> None:
        summary.outcomes.append(outcome)
        pending.append({**outcome.as_row(), "attempt_sha256": attempt})
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
        readable = []
        taken: dict[tuple[str, str], str] = {}
        for ref in refs:
            if ref.skip_reason is None and (ref.collection, ref.uri) in taken:
                # two roots put into one --collection, each with a file of this URI
                message = (
                    f"{show_name(ref.path)}: collection {ref.collection!r} already has {ref.uri!r} from "
                    f"{show_name(taken[ref.collection, ref.uri])} in this run; not read"
                )
                ref = dataclasses.replace(ref, skip_reason="uri_taken", skip_message=message)
            if ref.skip_reason is not None:
                done(
                    FileOutcome(
                        ref.path, ref.uri, "skipped", ref.skip_reason, ref.skip_message, collection=ref.collection
                    )
                )
                continue
            taken[ref.collection, ref.uri] = ref.path
            readable.append(ref)
        failures = {} if options.retry_failed else store.remembered_failures()
        todo = _skip_unchanged(store, readable, settings_hash, options.reprocess, done, duplicates, failures, attempt)
        # biggest files first: the long ones start early and the workers finish together
        todo.sort(key=_size, reverse=True)
        if todo and options.executor == "dask":
            # workers read the files themselves (from a shared mount): give them absolute paths
            tasks = [
                FileTask(
                    os.path.abspath(r.path), r.uri, options.settings, options.password, options.limits, r.collection
                )
                for r in todo
            ]
            by_path = {task.path: ref for task, ref in zip(tasks, todo, strict=True)}
            ingest_with_dask(
                store,
                tasks,
                workers=workers,
                scheduler=options.scheduler,
                run_id=run_id,
                settings_json=settings_json,
                timeout=options.limits.timeout,
                done=noted,
                refs=by_path,
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


def attempt_sha256(options: IngestOptions) -> str:
    """What an attempt at a file depends on besides its bytes: the pipeline settings, the limits,
    and whether a password was given (not the password: no hash of it is stored). A file that
    failed is read again when this changes (a longer --timeout, a --password, other settings)."""
    key = {
        "settings": options.settings.fingerprint(),
        "limits": dataclasses.asdict(options.limits),
        "password": options.password is not None,
    }
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def _skip_unchanged(
    store: Store,
    refs: list[SourceRef],
    settings_hash: str,
    reprocess: bool,
    done: Callable[[FileOutcome], None],
    duplicates: dict[str, str],
    failures: dict[tuple[str, str], RememberedFailure],
    attempt: str,
) -> list[SourceRef]:
    """The files to process: new ones, changed ones, and (with ``reprocess``) ones whose settings
    changed; the rest are reported skipped, and so is a file whose last attempt failed on the same
    content and settings (``failures``). Fills ``duplicates`` with the files whose content is
    another document's current version (or another file's of this run)."""
    current = store.current_files()
    by_content = {cur.content_sha256: key for key, cur in current.items()}
    todo: list[SourceRef] = []
    for ref in refs:
        key = (ref.collection, ref.uri)
        cur = current.get(key)
        t0 = time.perf_counter()
        try:
            digest = sha256_file(ref.path)
        except OSError:
            todo.append(ref)  # let the worker report the read error (a FIFO, a device, gone)
            continue
        ref = dataclasses.replace(ref, content_sha256=digest)
        other = by_content.setdefault(digest, key)
        if other != key:
            duplicates[ref.path] = other[1] if other[0] == ref.collection else f"{other[1]} in collection {other[0]!r}"
        if cur is None or digest != cur.content_sha256:
            failed = failures.get(key)
            if failed is not None and failed.content_sha256 == digest and failed.attempt_sha256 == attempt:
                done(
                    FileOutcome(
                        ref.path,
                        ref.uri,
                        "skipped",
                        "failed_before",
                        f"{show_name(ref.path)}: failed before on this content ({failed.reason or 'failed'}); "
                        "not read again until it changes (--retry-failed reads it)",
                        seconds=time.perf_counter() - t0,
                        collection=ref.collection,
                        content_sha256=digest,
                    )
                )
                continue
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
                    collection=ref.collection,
                    content_sha256=digest,
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
                    collection=ref.collection,
                    content_sha256=digest,
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
            yield ref, FileTask(ref.path, ref.uri, options.settings, options.password, options.limits, ref.collection)

    nworkers = min(workers, len(todo))
    with IsolatedPool(
        run_task,
        workers=nworkers,
        timeout=options.limits.timeout,
        preload=worker_preload(options.settings.extractor),
        max_memory=options.limits.max_memory or default_max_memory(workers),
    ) as pool:
        for ref, result in pool.imap_unordered(tasks()):
            t0 = started.get(ref.path, time.perf_counter())
            if isinstance(result, ProcessedDocument):
                done(outcome_of_write(ref, result, store, run_id, settings_json, t0))
            else:
                done(outcome_of_error(ref, result, time.perf_counter() - t0, options.limits))
