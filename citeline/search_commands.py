"""Retrieval: ``search`` (full-text, optionally straight into a recorded context) and ``changes``
(the feed an external embedding index follows)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import click

from citeline.app import EXIT_USAGE, CommandError, cli, collection_option, db_option, errors_as_messages, open_store
from citeline.output import csv_text, table

_HIT_COLUMNS = ["chunk_id", "score", "document", "version", "page_start", "page_end", "snippet"]


@cli.command()
@click.argument("query")
@click.option("--k", "k", type=click.IntRange(1, 1000), default=8, show_default=True, help="How many chunks.")
@click.option("--document", "-d", metavar="GLOB", default=None, help="Only documents whose URI matches, e.g. 'pdf/*'.")
@click.option("--all-versions", is_flag=True, help="Search superseded versions and deleted documents too.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "jsonl", "csv", "prompt"]),
    default=None,
    help="Output (default: table; prompt with --context).",
)
@click.option("--context", "record", is_flag=True, help="Record the hits as an injected set (a context id).")
@click.option("--markers", default=None, metavar="S1,S2,...", help="Marker names for the hits (default: S1..Sn).")
@collection_option("Only documents of this collection.")
@db_option
def search(
    query: str,
    k: int,
    document: str | None,
    all_versions: bool,
    fmt: str | None,
    record: bool,
    markers: str | None,
    collection: str | None,
) -> None:
    """Full-text search over the chunks of current versions, best first.

    QUERY: words (all must occur; chunks holding only some follow when fewer than --k hold all),
    "a phrase", prefix*, a OR b, NOT word or -word. Case, accents and ligatures do not matter;
    Chinese and Japanese are found by any two characters or more. Text that is not valid syntax
    (an unbalanced quote, a lone OR) is read as plain words, never an error.

    With --context the hits are recorded as an injected set and the prompt block is printed with
    its context id: put it in the model's prompt, then `citeline verify --context ID` checks that
    the answer cites only these markers and that its quotes are in them.

    jsonl fields: chunk_id, score, document, version, is_current, page_start, page_end, raw_start,
    raw_end, snippet, text, collection (and marker, context_id with --context). Scores are BM25 on SQLite and
    ts_rank on PostgreSQL: higher is better, comparable within one search only.

    \b
    Example:
        citeline search 'dehyphenation "running headers"'
        citeline search 'licen* -proprietary' --document 'pdf/*' --format jsonl
        citeline search 'GNU General Public License' --k 4 --context > prompt.txt
        citeline search 'notice period' --collection legal --context
    """
    store = open_store(migrate=record)
    names = [name.strip() for name in markers.split(",")] if markers else None
    if names is not None and (not all(names) or len(set(names)) != len(names)):
        raise CommandError("--markers: names must be distinct and not empty", EXIT_USAGE)
    fmt = fmt or ("prompt" if record else "table")
    with errors_as_messages():
        hits = store.search(query, k, document=document, all_versions=all_versions, collection=collection)
        if not hits:
            where = "" if collection is None else f" of collection {collection!r}"
            raise CommandError(f"No chunk matches {query!r}" + ("" if all_versions else " in current versions") + where)
        if names is not None and len(names) < len(hits):
            raise CommandError(f"--markers: {len(names)} names for {len(hits)} hits", EXIT_USAGE)
        labels = (names or [f"S{i}" for i in range(1, len(hits) + 1)])[: len(hits)]
        context_id = None
        if record:
            ctx = store.create_context([h.chunk_id for h in hits], markers=labels, allow_superseded=all_versions)
            context_id = ctx.context_id
    if fmt == "prompt":
        click.echo(prompt_text(context_id, labels, hits))
        return
    if fmt == "jsonl":
        for label, hit in zip(labels, hits, strict=True):
            line = hit.as_json()
            if context_id is not None:
                line.update(marker=label, context_id=context_id)
            click.echo(json.dumps(line, ensure_ascii=False))
        return
    columns = (["marker"] if context_id else []) + _HIT_COLUMNS
    rows = [
        ([label] if context_id else [])
        + [hit.chunk_id, round(hit.score, 3), hit.document, hit.version, hit.page_start, hit.page_end, hit.snippet]
        for label, hit in zip(labels, hits, strict=True)
    ]
    if fmt == "csv":
        click.echo(csv_text(columns, rows), nl=False)
        return
    click.echo(table(columns, rows, max_width=90))
    if context_id:
        click.echo(f"\nRecorded as context {context_id}: citeline verify --context {context_id} ANSWER")


def prompt_text(context_id: str | None, labels: list[str], hits: list[Any]) -> str:
    """The prompt block for search hits: the recorded context's block, or (not recorded) the same
    layout under a note that the markers cannot be checked."""
    from citeline.store.records import source_block

    head = (
        f"<!-- citeline context {context_id} -->"
        if context_id
        else "<!-- citeline search: not recorded (add --context to verify markers against it) -->"
    )
    body = [
        source_block(label, h.document, h.version, h.page_start, h.page_end, h.text)
        for label, h in zip(labels, hits, strict=True)
    ]
    return "\n".join([head, *body])


# ----------------------------------------------------------------------------- changes


@cli.command()
@click.option(
    "--since",
    required=True,
    metavar="RUN_ID|ISO_TIME",
    help="An ingestion run id (changes since it started) or a time (UTC unless it names a zone).",
)
@click.option("--format", "fmt", type=click.Choice(["jsonl", "table", "csv"]), default="jsonl", show_default=True)
@collection_option("Only changes to documents of this collection.")
@db_option
def changes(since: str, fmt: str, collection: str | None) -> None:
    """Chunks added and retired since a run or a time: what an external embedding index applies to
    stay in step with the store.

    "added": the chunk's version became current (a new file, a new version, a version restored).
    "retired": its version was superseded, or its document deleted (status --mark-deleted). Added
    lines come first, then retired ones, each in time order; a chunk added and retired inside the
    window is not listed. Apply them in order: upsert the added, delete the retired.

    jsonl fields: change, chunk_id, document, version, at, collection.

    \b
    Example:
        citeline changes --since 12
        citeline changes --since 2026-11-30T18:00:00Z --format table
        citeline changes --since 12 --collection legal
    """
    point: datetime | int
    if since.isdigit():
        point = int(since)
    else:
        try:
            point = datetime.fromisoformat(since.replace("Z", "+00:00") if since.endswith("Z") else since)
        except ValueError:
            raise CommandError(
                f"--since {since!r}: not a run id or an ISO time (e.g. 2026-11-30T18:00:00Z)", EXIT_USAGE
            ) from None
        if point.tzinfo is None:
            point = point.replace(tzinfo=UTC)
    store = open_store(migrate=False)
    with errors_as_messages():
        found = store.changes(point, collection=collection)
    if fmt == "jsonl":
        for change in found:
            click.echo(json.dumps(change.as_json(), ensure_ascii=False))
        return
    columns = ["change", "chunk_id", "document", "version", "at"]
    rows = [[c.change, c.chunk_id, c.document, c.version, c.at.isoformat() if c.at else ""] for c in found]
    click.echo(csv_text(columns, rows) if fmt == "csv" else table(columns, rows), nl=fmt != "csv")
