"""The ``citeline`` command: a thin click layer over :mod:`ingest`, :mod:`store` and :mod:`verify`.

Each command opens the store, calls one library function and prints. Library errors become one
line ``Error: ...``; exit status 1 for failures, 2 for bad usage or bad input.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from citeline.output import Progress, csv_text, dumps, table

F = TypeVar("F", bound=Callable[..., Any])

EXIT_FAILURE = 1
EXIT_USAGE = 2


class CommandError(click.ClickException):
    """One-line error with an explicit exit status."""

    def __init__(self, message: str, exit_code: int = EXIT_FAILURE) -> None:
        super().__init__(message)
        self.exit_code = exit_code  # type: ignore[misc]  # click declares it on the class


@contextmanager
def errors_as_messages() -> Iterator[None]:
    """Turn library errors into one-line messages (no tracebacks for user mistakes)."""
    from ingest.errors import ExtractionError, IngestError
    from store.errors import DatabaseError, NotFound, QueryError, ReadOnlyViolation, StoreError

    try:
        yield
    except (NotFound, QueryError, ReadOnlyViolation) as exc:
        raise CommandError(str(exc), EXIT_USAGE if not isinstance(exc, NotFound) else EXIT_FAILURE) from None
    except (DatabaseError, StoreError) as exc:
        raise CommandError(str(exc)) from None
    except ExtractionError as exc:
        raise CommandError(str(exc)) from None
    except IngestError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None


def db_option(f: F) -> F:
    """``--db URL`` after the command name too (before it, it is the group's option)."""

    @click.option(
        "--db",
        "db_url",
        metavar="URL",
        default=None,
        help="Database URL (default: $CITELINE_DB or sqlite:///citeline.db).",
    )
    @functools.wraps(f)
    def wrapper(*args: Any, db_url: str | None, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        if db_url:
            ctx.obj["db"] = db_url
        return f(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def open_store(*, migrate: bool = True) -> Any:
    from store import Store

    url = click.get_current_context().obj.get("db")
    with errors_as_messages():
        return Store(url, migrate=migrate)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option(
    "--db",
    "db_url",
    metavar="URL",
    envvar="CITELINE_DB",
    default=None,
    help="Database URL (default: $CITELINE_DB or sqlite:///citeline.db in the working directory).",
)
@click.version_option(package_name="citeline")
@click.pass_context
def cli(ctx: click.Context, db_url: str | None) -> None:
    """Provable citations for retrieval-augmented answers.

    Index documents with exact offsets (ingest), query where every chunk came from (chunks, show,
    provenance, sql), and check the quotes in an LLM answer against the sources (context, verify).

    \b
    Example:
        citeline ingest fixtures/
        citeline chunks --format jsonl | head -n 2
        citeline sql "SELECT document_uri, count(*) FROM chunk_provenance GROUP BY 1"
    """
    ctx.ensure_object(dict)
    ctx.obj["db"] = db_url


# ----------------------------------------------------------------------------- ingest


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=False))
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None, help="Worker processes (default: CPUs).")
@click.option(
    "--extractor",
    type=click.Choice(["auto", "pdfplumber", "pdfium"]),
    default="auto",
    show_default=True,
    help="PDF backend; auto = pdfplumber. Other formats always use their own reader.",
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
    from ingest.clean.pipeline import CleanSettings
    from ingest.errors import ChunkerError
    from ingest.extract.files import Limits
    from ingest.pipeline import PipelineSettings
    from store.batch import DiscoveryError, IngestOptions, discover
    from store.batch import ingest as run_ingest

    if chunk_overlap >= chunk_size:
        raise CommandError(f"--chunk-overlap {chunk_overlap} must be below --chunk-size {chunk_size}", EXIT_USAGE)
    settings = PipelineSettings(
        extractor=extractor,
        clean=CleanSettings(),
        chunk_target=chunk_size,
        chunk_overlap=chunk_overlap,
        chunk_unit=chunk_unit,  # type: ignore[arg-type]
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
        click.echo(f"failed: {o.message}", err=True)
    if failed and not allow_failures:
        sys.exit(EXIT_FAILURE)


# ----------------------------------------------------------------------------- status


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=False))
@click.option("--mark-deleted", is_flag=True, help="Mark documents whose file is missing as deleted.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@db_option
def status(paths: tuple[str, ...], mark_deleted: bool, fmt: str) -> None:
    """Files changed on disk or missing since their current version.

    Without PATHs, checks every document at the path it was last ingested from. With PATHs, also
    lists files under them that are not in the store yet (new).

    \b
    Example:
        citeline status
        citeline status corpus/ --mark-deleted
    """
    from store.status import check_status

    store = open_store(migrate=False)
    with errors_as_messages():
        report = check_status(store, paths, mark_deleted=mark_deleted)
    rows = [[r.state, r.uri, r.version_no, r.path] for r in report]
    if fmt == "json":
        click.echo(dumps([r.as_json() for r in report]))
    elif rows:
        click.echo(table(["state", "document", "version", "path"], rows))
    else:
        click.echo("Everything is up to date.")


# ----------------------------------------------------------------------------- reads


@cli.command()
@click.option("--document", "-d", "document", metavar="URI", default=None, help="Only this document.")
@click.option("--all-versions", is_flag=True, help="Include chunks of superseded versions.")
@click.option("--format", "fmt", type=click.Choice(["table", "jsonl", "csv"]), default="table", show_default=True)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most N chunks.")
@db_option
def chunks(document: str | None, all_versions: bool, fmt: str, limit: int | None) -> None:
    """List chunks with their provenance.

    jsonl fields: chunk_id, document, version, is_current, ordinal, text, chunk_hash, content_hash,
    page_start, page_end, raw_start, raw_end, clean_start, clean_end.

    \b
    Example:
        citeline chunks --document policy_handbook.pdf --format jsonl
    """
    import itertools

    store = open_store(migrate=False)
    with errors_as_messages():
        items = store.iter_chunks(document=document, all_versions=all_versions)
        if limit:
            items = itertools.islice(items, limit)
        if fmt == "jsonl":
            for c in items:
                click.echo(json.dumps(c.as_json(), ensure_ascii=False))
            return
        cols = [
            "chunk_id",
            "document",
            "version",
            "is_current",
            "page_start",
            "page_end",
            "raw_start",
            "raw_end",
            "text",
        ]
        rows = [
            [
                c.chunk_id,
                c.document_uri,
                c.version_no,
                c.is_current,
                c.page_start,
                c.page_end,
                c.raw_start,
                c.raw_end,
                c.text,
            ]
            for c in items
        ]
    click.echo(csv_text(cols, rows) if fmt == "csv" else table(cols, rows), nl=fmt != "csv")


@cli.command()
@click.argument("uri")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@db_option
def show(uri: str, fmt: str) -> None:
    """A document: its versions, pages, stripped furniture and chunk counts.

    \b
    Example:
        citeline show pdf/policy_handbook.pdf
    """
    store = open_store(migrate=False)
    with errors_as_messages():
        info = store.document(uri)
    if fmt == "json":
        click.echo(dumps(info.as_json()))
        return
    click.echo(f"Document {info.uri}" + (f"  (deleted {info.deleted_at:%Y-%m-%d %H:%M})" if info.deleted_at else ""))
    click.echo(f"Last path: {info.last_path}\n")
    click.echo(
        table(
            [
                "version",
                "current",
                "content_sha256",
                "pages",
                "chunks",
                "extractor",
                "ingested_at",
                "superseded_at",
            ],
            [
                [
                    v.version_no,
                    "yes" if v.is_current else "no",
                    v.content_sha256[:16],
                    v.page_count,
                    v.chunk_count,
                    v.extractor,
                    v.ingested_at.strftime("%Y-%m-%d %H:%M:%S"),
                    v.superseded_at.strftime("%Y-%m-%d %H:%M:%S") if v.superseded_at else "",
                ]
                for v in info.versions
            ],
        )
    )
    current = info.current
    for v in info.versions:
        for p in v.problems:
            if v is current:
                click.echo(f"\nProblem: {p['code']}: {p['message']}")
    if info.pages:
        click.echo("\nPages:")
        click.echo(
            table(
                ["page", "width", "height", "raw_start", "raw_end", "text"],
                [
                    [p.page_no, p.width, p.height, p.raw_start, p.raw_end, "yes" if p.has_text else "no"]
                    for p in info.pages
                ],
            )
        )
    if info.furniture:
        click.echo("\nFurniture removed:")
        click.echo(
            table(
                ["kind", "page", "raw_start", "raw_end", "text"],
                [[f.kind, f.page_no, f.raw_start, f.raw_end, f.text] for f in info.furniture],
            )
        )


@cli.command()
@click.argument("chunk_id")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@db_option
def provenance(chunk_id: str, fmt: str) -> None:
    """Where a chunk came from: document, version, current or not, pages, spans, boxes, context.

    \b
    Example:
        citeline provenance ck_3f2a9c0e1b7d4a6c5e21
    """
    store = open_store(migrate=False)
    with errors_as_messages():
        p = store.provenance(chunk_id)
    if fmt == "json":
        click.echo(dumps(p.as_json()))
        return
    c, v = p.chunk, p.version
    click.echo(f"Chunk     {c.chunk_id} (#{c.ordinal})")
    click.echo(f"Document  {v.document_uri}  version {v.version_no}  {'current' if v.is_current else 'SUPERSEDED'}")
    click.echo(f"Content   sha256:{v.content_sha256}")
    click.echo(f"Pages     {', '.join(map(str, p.pages)) or '-'}")
    click.echo(f"Raw span  [{c.raw_start}, {c.raw_end})   cleaned span [{c.clean_start}, {c.clean_end})")
    for b in p.boxes:
        click.echo(f"Box       page {b.page}: x0={b.x0:.1f} top={b.top:.1f} x1={b.x1:.1f} bottom={b.bottom:.1f}")
    click.echo(
        "\n"
        + click.style(p.context_before[-120:], dim=True)
        + click.style(p.raw_text, bold=True)
        + click.style(p.context_after[:120], dim=True)
    )


@cli.command()
@click.argument("query")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
@db_option
def sql(query: str, fmt: str) -> None:
    """Run a read-only SQL query (the database connection refuses writes).

    Views: chunk_provenance (chunk_id, document_uri, version_no, is_current, content_hash,
    chunk_hash, page_start, page_end, raw_start, raw_end, text, ...) and verification_rates.

    \b
    Example:
        citeline sql "SELECT document_uri, version_no, count(*) FROM chunk_provenance GROUP BY 1, 2"
    """
    store = open_store(migrate=False)
    with errors_as_messages():
        cols, rows = store.sql(query)
    if fmt == "json":
        click.echo(dumps([dict(zip(cols, r, strict=True)) for r in rows]))
    elif fmt == "csv":
        click.echo(csv_text(cols, rows), nl=False)
    else:
        click.echo(table(cols, rows))


# ----------------------------------------------------------------------------- context and verify


@cli.command()
@click.argument("chunk_ids", nargs=-1, required=True)
@click.option("--markers", default=None, metavar="S1,S2,...", help="Marker names (default: S1..Sn).")
@click.option("--format", "fmt", type=click.Choice(["prompt", "json"]), default="prompt", show_default=True)
@db_option
def context(chunk_ids: tuple[str, ...], markers: str | None, fmt: str) -> None:
    """Record an injected set of chunks and print the prompt block for it.

    The context id it records is what `citeline verify --context ID` checks markers against:
    an answer may only cite the markers injected here.

    \b
    Example:
        citeline context ck_1669895572e4db8a9056 ck_2f4aecd6d15fbbca6003
        citeline context ck_1669895572e4db8a9056 --format json
    """
    store = open_store()
    names = [m.strip() for m in markers.split(",")] if markers else None
    with errors_as_messages():
        ctx = store.create_context(list(chunk_ids), markers=names)
        chunks = [store.chunk(cid) for _, cid in ctx.sources]
    if fmt == "json":
        payload = ctx.as_json()
        payload["chunks"] = [
            {
                "marker": mk,
                "chunk_id": c.chunk_id,
                "document": c.document_uri,
                "version": c.version_no,
                "pages": [c.page_start, c.page_end],
                "text": c.text,
            }
            for (mk, _), c in zip(ctx.sources, chunks, strict=True)
            if c is not None
        ]
        click.echo(dumps(payload))
        return
    click.echo(f"<!-- citeline context {ctx.context_id} -->")
    for (mk, _), c in zip(ctx.sources, chunks, strict=True):
        assert c is not None
        pages = f"p. {c.page_start}" + (f"-{c.page_end}" if c.page_end != c.page_start else "") if c.page_start else ""
        click.echo(f"[{mk}] {c.document_uri} (version {c.version_no}{', ' + pages if pages else ''})")
        click.echo(c.text)
        click.echo("")


@cli.command()
@click.argument("answer", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--context", "context_id", default=None, metavar="ID", help="Injected set recorded by `citeline context`."
)
@click.option("--format", "fmt", type=click.Choice(["json", "text", "html"]), default="json", show_default=True)
@click.option(
    "--policy",
    type=click.Choice(["annotate", "strict", "strip"]),
    default="annotate",
    show_default=True,
    help="strict: exit 1 on any failed citation; strip: also output the answer without failing sentences.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the report here.",
)
@click.option("--check-sources", is_flag=True, help="Flag citations whose source file changed on disk.")
@click.option(
    "--threshold",
    type=click.FloatRange(0, 100),
    default=None,
    help="Fuzzy acceptance score (default: calibrated).",
)
@click.option("--no-log", is_flag=True, help="Do not record this run in the store.")
@db_option
def verify(
    answer: str,
    context_id: str | None,
    fmt: str,
    policy: str,
    output: str | None,
    check_sources: bool,
    threshold: float | None,
    no_log: bool,
) -> None:
    """Check the citations of an LLM answer against the store (deterministic, no model call).

    ANSWER is a JSON file (or - for stdin): {"answer": "...", "sources": {"S1": "<chunk id>"} or
    "context": "<id>", "citations": [{"marker": "S1", "quote": "...", "claim": "...",
    "required_terms": [...]}]}. Without "citations", markers and quoted spans are parsed from the
    answer. Anthropic-style "content" blocks with citations are accepted too (see the README).

    \b
    Example:
        citeline verify answer.json --context ctx_8c5dbbaefdffddd4 --format text
        citeline verify answer.json --policy strict -o report.json
    """
    from pathlib import Path

    from verify import VerifyOptions
    from verify.errors import InputError, VerifyError
    from verify.match import FUZZY_THRESHOLD
    from verify.parse import load_answer, parse_answer
    from verify.render import render_html, render_text
    from verify.verify import Verifier

    try:
        if answer == "-":
            data = load_answer(sys.stdin.buffer.read(), name="<stdin>")
            name = "<stdin>"
        else:
            path = Path(answer)
            if not path.exists():
                raise InputError(f"{answer}: no such file")
            data = load_answer(path)
            name = answer
        parsed = parse_answer(data, name=name)
    except InputError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    options = VerifyOptions(
        check_sources=check_sources,
        policy=policy,
        log=not no_log,
        fuzzy_threshold=FUZZY_THRESHOLD if threshold is None else threshold,
    )
    store = open_store(migrate=not no_log)
    with errors_as_messages():
        try:
            verifier = Verifier(store, options)
            if context_id is not None and parsed.sources is None:
                store.context(context_id)  # an unknown id is bad input: fail before writing anything
            report = verifier.verify(parsed, context_id=context_id)
        except InputError as exc:
            raise CommandError(f"{name}: {exc}" if not str(exc).startswith(name) else str(exc), EXIT_USAGE) from None
        except VerifyError as exc:
            raise CommandError(str(exc)) from None
    if fmt == "json":
        rendered = dumps(report.as_json())
    elif fmt == "text":
        rendered = render_text(report, color=output is None and sys.stdout.isatty())
    else:
        rendered = render_html(report, store)
    if output:
        Path(output).write_text(rendered + ("\n" if not rendered.endswith("\n") else ""), encoding="utf-8")
        click.echo(
            f"Report written to {output} ({report.summary()['verified']}/{len(report.citations)} verified).",
            err=True,
        )
    else:
        click.echo(rendered)
    if policy == "strip" and fmt != "json":
        click.echo("\n--- answer without failing sentences ---\n" + report.stripped_answer(), err=output is None)
    if policy == "strict" and report.failed:
        sys.exit(EXIT_FAILURE)


# ----------------------------------------------------------------------------- review


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (127.0.0.1: this machine only).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@db_option
def serve(host: str, port: int) -> None:
    """A local web app: browse documents, versions and chunks, open a chunk on its page, and paste or
    upload an answer JSON to see its verification report.

    \b
    Example:
        citeline serve --port 8000     # then open http://127.0.0.1:8000/
    """
    from verify.web import make_server

    store = open_store(migrate=False)
    try:
        server = make_server(store, host, port)
    except OSError as exc:
        raise CommandError(f"Cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    click.echo(f"citeline serving {store.display_url} at http://{host}:{server.server_address[1]}/ (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("\nStopped.")
    finally:
        server.server_close()


@cli.command()
@click.argument("chunk_id", required=False)
@click.option(
    "--range", "span", metavar="DOC:START:END", default=None, help="A raw range; DOC is a URI, or URI@VERSION."
)
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), required=True, help="PNG to write.")
@click.option(
    "--scale", type=click.FloatRange(0.5, 6), default=1.5, show_default=True, help="Pixels per point / 72 dpi."
)
@db_option
def highlight(chunk_id: str | None, span: str | None, output: str, scale: float) -> None:
    """Render a chunk's (or a raw range's) page(s) with the highlight boxes drawn, without a browser.

    Several pages are stacked in one image.

    \b
    Example:
        citeline highlight ck_1669895572e4db8a9056 -o chunk.png
        citeline highlight --range pdf/policy_handbook.pdf:1395:1435 -o quote.png
    """
    from pathlib import Path

    from ingest.offsets import Original
    from verify.pages import PageRenderer, stack_png
    from verify.web import highlight_boxes

    if (chunk_id is None) == (span is None):
        raise CommandError("give either CHUNK_ID or --range DOC:START:END", EXIT_USAGE)
    store = open_store(migrate=False)
    with errors_as_messages():
        if chunk_id is not None:
            version_id, boxes = highlight_boxes(store, chunk_id)
            what = f"chunk {chunk_id}"
        else:
            assert span is not None
            try:
                doc, start, end = span.rsplit(":", 2)
                raw_range = Original(int(start), int(end))
            except ValueError:
                raise CommandError(f"--range {span!r} is not DOC:START:END with START <= END", EXIT_USAGE) from None
            uri, _, number = doc.partition("@")
            info = store.document(uri)
            version = next(
                (v for v in info.versions if (v.version_no == int(number) if number.isdigit() else v.is_current)), None
            )
            if version is None:
                raise CommandError(f"Document {uri!r} has no version {number or '(current)'}")
            version_id, boxes = version.version_id, store.boxes(version.version_id, [raw_range])
            what = f"{uri} [{raw_range.start}, {raw_range.end})"
        if not boxes:
            raise CommandError(f"Nothing to draw for {what}: no page geometry there (text formats have none)")
        with PageRenderer(store, scale=scale) as renderer:
            pages = sorted({b.page for b in boxes})
            images = [renderer.png(version_id, p, boxes) for p in pages]
    Path(output).write_bytes(images[0] if len(images) == 1 else stack_png(images))
    listed = ", ".join(map(str, pages))
    click.echo(f"Wrote {output}: {what}, page{'s' if len(pages) > 1 else ''} {listed}, {len(boxes)} box(es).")


# ----------------------------------------------------------------------------- extract (no database)


@cli.command()
@click.argument("path", type=click.Path(exists=False))
@click.option("--extractor", type=click.Choice(["auto", "pdfplumber", "pdfium"]), default="auto", show_default=True)
@click.option("--password", default=None, help="Password for encrypted PDFs.")
@click.option("--cleaned", is_flag=True, help="Print the cleaned text instead of the raw stream.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def extract(path: str, extractor: str, password: str | None, cleaned: bool, fmt: str) -> None:
    """Extract one file and print its raw stream (or cleaned text); nothing is stored.

    \b
    Example:
        citeline extract fixtures/pdf/two_column_paper.pdf --cleaned
    """
    from ingest.clean.pipeline import clean
    from ingest.extract import extract as run_extract

    with errors_as_messages():
        ex = run_extract(path, extractor=extractor, password=password)
    result = (
        clean(ex.raw, geometry=ex.line_geometry() if ex.lines else None, known_furniture=ex.furniture)
        if cleaned
        else None
    )
    if fmt == "json":
        payload: dict[str, Any] = {
            "path": ex.path,
            "extractor": ex.extractor,
            "extractor_version": ex.extractor_version,
            "content_hash": f"sha256:{ex.content_sha256}",
            "text_hash": f"sha256:{ex.text_sha256}",
            "pages": [p.as_dict() for p in ex.pages],
            "problems": [p.as_dict() for p in ex.problems],
            "raw": ex.raw,
        }
        if result is not None:
            payload["cleaned"] = result.text
            payload["furniture"] = [
                {
                    "kind": f.kind,
                    "page": f.page,
                    "raw_start": f.raw_start,
                    "raw_end": f.raw_end,
                    "text": f.text,
                }
                for f in result.furniture
            ]
            payload["hyphenations"] = [
                {
                    "raw_start": h.raw_start,
                    "left": h.left,
                    "right": h.right,
                    "joined": h.joined,
                    "reason": h.reason,
                }
                for h in result.hyphenations
            ]
        click.echo(dumps(payload))
        return
    click.echo(result.text if result is not None else ex.raw)
    for p in ex.problems:
        click.echo(f"note: {p.message}", err=True)


# ----------------------------------------------------------------------------- db


@cli.group()
def db() -> None:
    """Schema migrations (alembic, run from code)."""


@db.command("upgrade")
@click.argument("revision", default="head")
@db_option
def db_upgrade(revision: str) -> None:
    """Upgrade the schema to REVISION (default: the newest).

    \b
    Example:
        citeline --db postgresql+psycopg://postgres@localhost/citeline db upgrade
    """
    from store import db as store_db

    url = click.get_current_context().obj.get("db")
    with errors_as_messages():
        engine = store_db.make_engine(url)
        store_db.upgrade(engine, revision)
        shown = engine.url.render_as_string(hide_password=True)
        click.echo(f"Database {shown} is at revision {store_db.current_revision(engine)}.")


@db.command("current")
@db_option
def db_current() -> None:
    """Print the schema revision of the database (and the newest available)."""
    from store import db as store_db

    url = click.get_current_context().obj.get("db")
    with errors_as_messages():
        engine = store_db.make_engine(url)
        current = store_db.current_revision(engine)
    head = store_db.head_revision()
    click.echo(f"current: {current or 'none (empty database)'}")
    click.echo(f"head:    {head}")


@db.command("downgrade")
@click.argument("revision")
@db_option
def db_downgrade(revision: str) -> None:
    """Downgrade the schema to REVISION ('base' drops every table)."""
    from store import db as store_db

    url = click.get_current_context().obj.get("db")
    with errors_as_messages():
        engine = store_db.make_engine(url)
        store_db.downgrade(engine, revision)
    click.echo(f"Database is at revision {store_db.current_revision(engine) or 'base'}.")


def main() -> None:
    # unstructured and friends log to the root logger; keep the CLI's stderr for our own lines
    os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")
    cli(obj={})


if __name__ == "__main__":  # pragma: no cover
    main()
