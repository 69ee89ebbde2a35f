"""``citeline ingest`` and ``citeline status``."""

from __future__ import annotations

import sys
from typing import Any

import click

from citeline.app import (
    EXIT_FAILURE,
    EXIT_USAGE,
    CommandError,
    cli,
    db_option,
    errors_as_messages,
    ocr_options,
    open_store,
    verbose_option,
)
from citeline.output import Progress, dumps, printable, table

# ----------------------------------------------------------------------------- ingest


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=False))
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None, help="Worker processes (default: CPUs).")
@click.option(
    "--extractor",
    type=click.Choice(["auto", "pdfplumber", "pdfium"]),
    default="auto",
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
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="local: worker processes here; dask: a Dask cluster (see --scheduler).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Dask scheduler, e.g. tcp://10.0.0.5:8786 (default with --executor dask: a local cluster of --workers).",
)
@click.option("--allow-failures", is_flag=True, help="Exit 0 even when some files failed.")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@ocr_options
@verbose_option
@db_option
def ingest(
    paths: tuple[str, ...],
    workers: int | None,
    extractor: str,
    globs: tuple[str, ...],
    password: str | None,
    reprocess: bool,
    timeout: float,
    chunk_size: int,
    chunk_overlap: int,
    chunk_unit: str,
    executor: str,
    scheduler: str | None,
    allow_failures: bool,
    quiet: bool,
    ocr: Any,
) -> None:
    """Index files and folders (recursively) into the store.

    Unchanged files are skipped by content hash; a changed file becomes a new version and the old
    one is kept, marked superseded. Each document version is written in one transaction, so an
    interrupted run leaves no half-written version and a rerun resumes. A file is identified by
    its path relative to the PATH it was found under.

    \b
    Example:
        citeline ingest fixtures/
        citeline --db postgresql+psycopg://user@host/db ingest /corpus --workers 8 --glob '*.pdf'
        citeline --db postgresql+psycopg://user@db/citeline ingest /shared/corpus \\
            --executor dask --scheduler tcp://10.0.0.5:8786
    """
    from citeline.batch.ingest import DiscoveryError, IngestOptions, discover
    from citeline.batch.ingest import ingest_files as run_ingest
    from citeline.ingest.clean.pipeline import CleanSettings
    from citeline.ingest.errors import ChunkerError
    from citeline.ingest.extract.files import Limits
    from citeline.ingest.pipeline import PipelineSettings

    if chunk_overlap >= chunk_size:
        raise CommandError(f"--chunk-overlap {chunk_overlap} must be below --chunk-size {chunk_size}", EXIT_USAGE)
    settings = PipelineSettings(
        extractor=extractor,
        clean=CleanSettings(),
        chunk_target=chunk_size,
        chunk_overlap=chunk_overlap,
        chunk_unit=chunk_unit,  # type: ignore[arg-type]
        ocr=ocr,
    )
    options = IngestOptions(
        settings=settings,
        workers=workers,
        globs=globs,
        password=password,
        reprocess=reprocess,
        limits=Limits(timeout=timeout),
        executor=executor,
        scheduler=scheduler,
    )
    if scheduler and executor != "dask":
        raise CommandError("--scheduler needs --executor dask", EXIT_USAGE)
    try:
        total = len(discover(paths, globs))
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
            ["added", "updated", "skipped", "failed", "pages", "chunks", "seconds"],
            [
                [
                    counts["added"],
                    counts["updated"],
                    counts["skipped"],
                    counts["failed"],
                    counts["pages"],
                    counts["chunks"],
                    f"{summary.seconds:.2f}",
                ]
            ],
        )
    )
    failed = [o for o in summary.outcomes if o.status == "failed"]
    for o in failed:
        click.echo(printable(f"failed: {o.message}"), err=True)
    if failed and not allow_failures:
        sys.exit(EXIT_FAILURE)


# ----------------------------------------------------------------------------- status


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=False))
@click.option("--mark-deleted", is_flag=True, help="Mark documents whose file is missing as deleted.")
@click.option("--force", is_flag=True, help="With --mark-deleted: also when more than half the documents are missing.")
@click.option("--duplicates", is_flag=True, help="Also list documents whose current content is another document's.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@db_option
def status(paths: tuple[str, ...], mark_deleted: bool, force: bool, duplicates: bool, fmt: str) -> None:
    """Files changed on disk or missing since their current version.

    Without PATHs, checks every document at the absolute path it was last ingested from. With
    PATHs, also lists files under them that are not in the store yet (new). --mark-deleted refuses
    to mark more than half the current documents deleted unless --force (a moved or unmounted
    folder looks like a deleted corpus).

    \b
    Example:
        citeline status
        citeline status corpus/ --mark-deleted
        citeline status --duplicates --format json
    """
    from citeline.batch.status import check_status

    store = open_store(migrate=False)
    with errors_as_messages():
        report = check_status(store, paths, mark_deleted=mark_deleted, force=force, duplicates=duplicates)
    rows = [[r.state, r.uri, r.version_no, r.path if r.of is None else f"{r.path} (same as {r.of})"] for r in report]
    if fmt == "json":
        click.echo(dumps([r.as_json() for r in report]))
    elif rows:
        click.echo(table(["state", "document", "version", "path"], rows))
    else:
        click.echo("Everything is up to date.")
