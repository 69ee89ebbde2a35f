"""Reading the store: ``chunks``, ``show``, ``provenance``, ``sql``; and ``extract`` (no store)."""

from __future__ import annotations

import json
from typing import Any

import click

from citeline.app import (
    EXIT_USAGE,
    CommandError,
    cli,
    collection_option,
    db_option,
    errors_as_messages,
    layout_option,
    ocr_options,
    open_store,
)
from citeline.kinds import DEFAULT_EXTRACTOR, EXTRACTORS, Extractor
from citeline.output import csv_text, dumps, printable, table

# ----------------------------------------------------------------------------- reads


@cli.command()
@click.option("--document", "-d", "document", metavar="URI", default=None, help="Only this document.")
@click.option("--all-versions", is_flag=True, help="Include chunks of superseded versions.")
@click.option("--format", "fmt", type=click.Choice(["table", "jsonl", "csv"]), default="table", show_default=True)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most N chunks.")
@collection_option("Only documents of this collection.")
@db_option
def chunks(document: str | None, all_versions: bool, fmt: str, limit: int | None, collection: str | None) -> None:
    """List chunks with their provenance.

    jsonl fields: chunk_id, document, version, is_current, ordinal, text, chunk_hash, content_hash,
    page_start, page_end, raw_start, raw_end, clean_start, clean_end, collection.

    \b
    Example:
        citeline chunks --document policy_handbook.pdf --format jsonl
        citeline chunks --collection legal --format csv
    """
    import itertools

    store = open_store(migrate=False)
    with errors_as_messages():
        items = store.iter_chunks(document=document, all_versions=all_versions, collection=collection)
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
@collection_option("The document's collection (needed when two collections hold a document of this URI).")
@db_option
def show(uri: str, fmt: str, collection: str | None) -> None:
    """A document: its versions, pages, stripped furniture and chunk counts.

    \b
    Example:
        citeline show pdf/policy_handbook.pdf
    """
    store = open_store(migrate=False)
    with errors_as_messages():
        info = store.document(uri, collection=collection)
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
    for p in info.current.problems if info.current else ():
        click.echo(f"\nProblem: {p['code']}: {p['message']}")
    if info.pages:
        click.echo("\nPages:")
        ocr = any(p.ocr_engine for p in info.pages)
        click.echo(
            table(
                ["page", "width", "height", "raw_start", "raw_end", "text"]
                + (["ocr", "languages", "confidence", "dpi"] if ocr else []),
                [
                    [p.page_no, p.width, p.height, p.raw_start, p.raw_end, "yes" if p.has_text else "no"]
                    + (
                        [p.ocr_engine or "", p.ocr_languages or "", p.ocr_confidence, p.ocr_dpi]
                        if ocr and p.ocr_engine
                        else ["", "", "", ""]
                        if ocr
                        else []
                    )
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
@click.option(
    "--format", "fmt", type=click.Choice(["table", "csv", "json", "jsonl"]), default="table", show_default=True
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True, max=86_400),
    default=30.0,
    show_default=True,
    help="Stop the query after this many seconds.",
)
@db_option
def sql(query: str, fmt: str, timeout: float) -> None:
    """Run one read-only SQL query; the database refuses anything else.

    Exactly one statement, in a read-only transaction, stopped after --timeout; rows are written as
    they are read. On PostgreSQL connect as a role that can only read (citeline db create-reader).
    jsonl: one JSON object per row, keyed by column name (as chunks and search --format jsonl).

    Views: chunk_provenance (chunk_id, document_uri, version_no, is_current, content_hash,
    chunk_hash, page_start, page_end, raw_start, raw_end, text, ...) and verification_rates.

    \b
    Example:
        citeline sql "SELECT document_uri, version_no, count(*) FROM chunk_provenance GROUP BY 1, 2"
        citeline sql "SELECT chunk_id, text FROM chunk_provenance WHERE is_current = 1" --format csv
        citeline sql "SELECT * FROM verification_rates" --format jsonl
    """
    import sys

    from citeline.output import stream_json, stream_jsonl, stream_table, write_csv
    from citeline.store.sql import open_query

    out = sys.stdout
    with errors_as_messages(), open_query(click.get_current_context().obj.get("db"), query, timeout=timeout) as result:
        try:
            if fmt == "json":
                stream_json(result.columns, result.rows, out)
            elif fmt == "jsonl":
                stream_jsonl(result.columns, result.rows, out)
            elif fmt == "csv":
                write_csv(result.columns, result.rows, out)
            else:
                stream_table(result.columns, result.rows, out)
        except BrokenPipeError:  # `| head`: the reader has what it wanted
            sys.stderr.close()


# ----------------------------------------------------------------------------- extract (no database)


@cli.command()
@click.argument("path", type=click.Path(exists=False))
@click.option(
    "--extractor",
    type=click.Choice(EXTRACTORS),
    default=DEFAULT_EXTRACTOR,
    show_default=True,
    help="PDF backend; auto = pdfium (pdfplumber where pdfium cannot read a file or a page).",
)
@click.option("--password", default=None, help="Password for encrypted PDFs.")
@click.option("--cleaned", is_flag=True, help="Print the cleaned text instead of the raw stream.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option(
    "--debug-layout",
    "debug_png",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    metavar="OUT.png",
    help="Instead of the text: draw a PDF page's glyph boxes, lines, columns, gutters, blocks and furniture.",
)
@click.option("--page", type=click.IntRange(min=1), default=1, show_default=True, help="With --debug-layout: the page.")
@click.option(
    "--scale",
    type=click.FloatRange(0.5, 6),
    default=2.0,
    show_default=True,
    help="With --debug-layout: pixels per point (2 = 144 dpi).",
)
@ocr_options
@layout_option
def extract(
    path: str,
    extractor: Extractor,
    password: str | None,
    cleaned: bool,
    fmt: str,
    debug_png: str | None,
    page: int,
    scale: float,
    ocr: Any,
    layout: Any,
) -> None:
    """Extract one file and print its raw stream (or cleaned text); nothing is stored.

    Pages without a usable text layer, and images (PNG, JPEG, TIFF), are read by OCR (--ocr).
    --layout KEY=VALUE sets a layout engine threshold (an unknown KEY lists them all).
    --debug-layout OUT.png draws what the layout engine decided on one page instead: glyph boxes
    (grey), lines (blue), columns and sections (green), gutters (red), blocks (orange) and
    furniture (purple), with a legend.

    \b
    Example:
        citeline extract fixtures/pdf/two_column_paper.pdf --cleaned
        citeline extract fixtures/ocr/handbook_200dpi.tif --ocr-lang eng --format json
        citeline extract fixtures/pdf/two_column_paper.pdf --debug-layout layout.png --page 1
        citeline extract paper.pdf --layout min_gutter=8 --debug-layout layout.png
    """
    from citeline.ingest.clean.pipeline import clean
    from citeline.ingest.extract import extract as run_extract

    if debug_png is not None:
        _debug_layout(path, debug_png, page=page, extractor=extractor, password=password, layout=layout, scale=scale)
        return
    with errors_as_messages():
        ex = run_extract(path, extractor=extractor, password=password, ocr=ocr, layout=layout)
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


def _debug_layout(
    path: str, out: str, *, page: int, extractor: Extractor, password: str | None, layout: Any, scale: float
) -> None:
    from citeline.ingest.errors import PageOutOfRange
    from citeline.present.layout import debug_layout

    with errors_as_messages():
        try:
            picture = debug_layout(path, page, extractor=extractor, password=password, layout=layout, scale=scale)
        except PageOutOfRange as exc:
            raise CommandError(f"--page: {exc}", EXIT_USAGE) from None
    try:
        picture.image.save(out, format="PNG")
    except OSError as exc:
        raise CommandError(f"Cannot write {out}: {exc.strerror or exc}", EXIT_USAGE) from None
    click.echo(printable(f"Wrote {out}: {picture.summary()}."))
