"""``citeline ingest`` and ``citeline status``."""

from __future__ import annotations

import re
import sys
from typing import Any

import click

from citeline.app import (
    EXIT_FAILURE,
    EXIT_USAGE,
    CommandError,
    cli,
    collection_option,
    db_option,
    errors_as_messages,
    layout_option,
    ocr_options,
    open_store,
    verbose_option,
)
from citeline.kinds import (
    DEFAULT_EXECUTOR,
    DEFAULT_EXTRACTOR,
    EXECUTORS,
    EXTRACTORS,
    OUTCOME_STATUSES,
    Executor,
    Extractor,
)
from citeline.output import Progress, dumps, printable, table

# ----------------------------------------------------------------------------- ingest


def parse_size(value: str, option: str) -> int:
    """``2G``, ``800M``, ``1.5GB``, ``524288000``: a number of bytes (K, M, G, T are powers of 1024)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*", value, re.IGNORECASE)
    size = int(float(m.group(1)) * 1024 ** " KMGT".index(m.group(2).upper() or " ")) if m and len(value) < 30 else 0
    if size < MIN_MAX_MEMORY:
        raise CommandError(f"{option} {value!r} is not a size of at least 256M (like 2G or 800M)", EXIT_USAGE)
    return size


#: The smallest ``--max-memory`` accepted: the parsers alone take about 300 MB, so less fails every file.
MIN_MAX_MEMORY = 256 * 1024 * 1024


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=False))
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None, help="Worker processes (default: CPUs).")
@click.option(
    "--extractor",
    type=click.Choice(EXTRACTORS),
    default=DEFAULT_EXTRACTOR,
    show_default=True,
    help="PDF backend; auto = pdfium (pdfplumber where pdfium cannot read a file or a page). "
    "Other formats always use their own reader.",
)
@click.option(
    "--glob",
    "globs",
    multiple=True,
    metavar="PATTERN",
    help="Only files matching (repeatable), e.g. '*.pdf'.",
)
@click.option("--password", default=None, help="Password for encrypted PDFs.")
@click.option("--reprocess", is_flag=True, help="Rebuild files whose pipeline settings changed.")
@click.option("--timeout", type=click.FloatRange(min=1), default=300, show_default=True, help="Seconds per document.")
@click.option(
    "--max-memory",
    metavar="SIZE",
    default=None,
    help="Memory each extraction worker may use, e.g. 2G or 800M (default: 3/4 of the machine's memory "
    "shared by the workers, at least 1G); a file needing more fails and the run goes on.",
)
@click.option("--chunk-size", type=click.IntRange(min=50), default=1000, show_default=True, help="Target chunk size.")
@click.option(
    "--chunk-overlap",
    type=click.IntRange(min=0),
    default=150,
    show_default=True,
    help="Overlap between chunks.",
)
@click.option(
    "--chunk-unit",
    type=click.Choice(["chars", "tokens"]),
    default="chars",
    show_default=True,
    help="Unit of --chunk-size and --chunk-overlap (tokens: approximate, model independent).",
)
@click.option(
    "--executor",
    type=click.Choice(EXECUTORS),
    default=DEFAULT_EXECUTOR,
    show_default=True,
    help="local: worker processes here; dask: a Dask cluster (see --scheduler).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Dask scheduler, e.g. tcp://10.0.0.5:8786 (default with --executor dask: a local cluster of --workers).",
)
@collection_option("Put every file in this collection (default: the name of each PATH's folder).")
@click.option(
    "--follow-links",
    is_flag=True,
    help="Read symbolic links that lead outside PATH (default: skip them, each with an outcome line).",
)
@click.option(
    "--retry-failed",
    is_flag=True,
    help="Read again files that failed before on the same content (default: skip them until they change).",
)
@click.option("--allow-failures", is_flag=True, help="Exit 0 even when some files failed.")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@ocr_options
@layout_option
@verbose_option
@db_option
def ingest(
    paths: tuple[str, ...],
    workers: int | None,
    extractor: Extractor,
    globs: tuple[str, ...],
    password: str | None,
    reprocess: bool,
    timeout: float,
    max_memory: str | None,
    chunk_size: int,
    chunk_overlap: int,
    chunk_unit: str,
    executor: Executor,
    scheduler: str | None,
    collection: str | None,
    follow_links: bool,
    retry_failed: bool,
    allow_failures: bool,
    quiet: bool,
    ocr: Any,
    layout: Any,
) -> None:
    """Index files and folders (recursively) into the store.

    Unchanged files are skipped by content hash; a changed file becomes a new version and the old
    one is kept, marked superseded. Each document version is written in one transaction, so an
    interrupted run leaves no half-written version and a rerun resumes. A file is identified by
    its path relative to the PATH it was found under, within its collection: --collection, or
    the name of the PATH folder (so `ingest A` and `ingest B` never share a document).

    A file that failed is not read again until its content changes (--retry-failed reads it).
    Symbolic links that lead outside PATH are skipped unless --follow-links; a second name of one
    file is read once; each gets an outcome line.

    \b
    Example:
        citeline ingest fixtures/
        citeline ingest uploads/ --workers 4 --max-memory 2G
        citeline ingest papers/ --layout min_gutter=8 --layout space_gap=0.2
        citeline ingest /shares/legal --collection legal --retry-failed
        citeline --db postgresql+psycopg://user@host/db ingest /corpus --workers 8 --glob '*.pdf'
        citeline --db postgresql+psycopg://user@db/citeline ingest /shared/corpus \\
            --executor dask --scheduler tcp://10.0.0.5:8786
    """
    if chunk_overlap >= chunk_size:
        raise CommandError(f"--chunk-overlap {chunk_overlap} must be below --chunk-size {chunk_size}", EXIT_USAGE)
    if collection is not None and not collection.strip():
        raise CommandError("--collection: the name is empty", EXIT_USAGE)
    if scheduler and executor != "dask":
        raise CommandError("--scheduler needs --executor dask", EXIT_USAGE)
    if executor == "local":
        from citeline.ingest.workers import warm_workers

        warm_workers(extractor)  # the workers' imports run while this process opens the store

    from citeline.batch.ingest import DiscoveryError, IngestOptions, discover
    from citeline.batch.ingest import ingest_files as run_ingest
    from citeline.ingest.clean.pipeline import CleanSettings
    from citeline.ingest.errors import ChunkerError
    from citeline.ingest.extract.files import Limits
    from citeline.ingest.pipeline import PipelineSettings

    settings = PipelineSettings(
        extractor=extractor,
        clean=CleanSettings(),
        chunk_target=chunk_size,
        chunk_overlap=chunk_overlap,
        chunk_unit=chunk_unit,  # type: ignore[arg-type]
        ocr=ocr,
        layout=layout,
    )
    options = IngestOptions(
        settings=settings,
        workers=workers,
        globs=globs,
        password=password,
        reprocess=reprocess,
        limits=Limits(
            timeout=timeout, max_memory=None if max_memory is None else parse_size(max_memory, "--max-memory")
        ),
        executor=executor,
        scheduler=scheduler,
        collection=collection,
        follow_links=follow_links,
        retry_failed=retry_failed,
    )
    try:
        total = len(discover(paths, globs, collection=collection, follow_links=follow_links))
    except DiscoveryError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    store = open_store()
    progress = Progress(total, quiet=quiet)
    try:
        with errors_as_messages():
            summary = run_ingest(
                store,
                paths,
                options,
                progress=lambda o, done, _total: progress.update(
                    done=done, status=o.status, path=o.path, pages=o.pages, message=o.message
                ),
            )
    except ChunkerError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    except KeyboardInterrupt:
        click.echo("\nInterrupted: finished versions are stored; rerun to resume.", err=True)
        sys.exit(130)
    counts = summary.counts()
    click.echo(
        table(
            [*OUTCOME_STATUSES, "pages", "chunks", "seconds"],
            [[*(counts[s] for s in OUTCOME_STATUSES), counts["pages"], counts["chunks"], f"{summary.seconds:.2f}"]],
        )
    )
    failed = [o for o in summary.outcomes if o.status == "failed"]
    for o in failed:
        click.echo(printable(f"failed: {o.message}"), err=True)
    from citeline.cli import exit_now

    store.close()  # every version is committed; closing checkpoints SQLite's write-ahead log
    exit_now(EXIT_FAILURE if failed and not allow_failures else 0)


# ----------------------------------------------------------------------------- status


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=False))
@click.option("--mark-deleted", is_flag=True, help="Mark documents whose file is missing as deleted.")
@click.option("--force", is_flag=True, help="With --mark-deleted: also when more than half the documents are missing.")
@click.option("--duplicates", is_flag=True, help="Also list documents whose current content is another document's.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@collection_option("Only documents of this collection (with PATHs: instead of each PATH's folder name).")
@db_option
def status(
    paths: tuple[str, ...], mark_deleted: bool, force: bool, duplicates: bool, fmt: str, collection: str | None
) -> None:
    """Files changed on disk or missing since their current version.

    Without PATHs, checks every document (of --collection) at the absolute path it was last
    ingested from. With PATHs, checks only the documents of each PATH's collection (--collection,
    or the PATH folder's name, as ingest names it) read from under PATH, and lists files under
    PATH that are not in the store yet (new); --mark-deleted touches no other document, and
    refuses to mark more than half of them deleted unless --force (a moved or unmounted folder
    looks like a deleted corpus).

    \b
    Example:
        citeline status
        citeline status corpus/ --mark-deleted
        citeline status --collection legal
        citeline status --duplicates --format json
    """
    from citeline.batch.status import check_status

    store = open_store(migrate=False)
    with errors_as_messages():
        report = check_status(
            store, paths, mark_deleted=mark_deleted, force=force, duplicates=duplicates, collection=collection
        )
    rows = [
        [r.state, r.collection, r.uri, r.version_no, r.path if r.of is None else f"{r.path} (same as {r.of})"]
        for r in report
    ]
    if fmt == "json":
        click.echo(dumps([r.as_json() for r in report]))
    elif rows:
        click.echo(table(["state", "collection", "document", "version", "path"], rows))
    else:
        click.echo("Everything is up to date.")
