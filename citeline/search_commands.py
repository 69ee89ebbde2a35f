"""Retrieval: ``search`` (full-text, optionally straight into a recorded context) and ``changes``
(the feed an external embedding index follows)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import click

from citeline.app import (
    EXIT_USAGE,
    CommandError,
    cli,
    collection_option,
    context_options,
    db_option,
    errors_as_messages,
    open_store,
)
from citeline.output import csv_text, table

if TYPE_CHECKING:
    from citeline.store.search import SearchMode

# the store's search and embedding modules are imported by the commands that use them, not with the
# command line (every command, ``ingest`` before it starts its workers, pays for what it imports)

EMBEDDER_HELP = (
    "The embedding model: MODULE:NAME (an Embedder object, or a callable returning one), or 'hashing' "
    "(citeline's deterministic test embedder, no meaning: for tests only)."
)

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
@context_options
@collection_option("Only documents of this collection.")
@click.option(
    "--mode",
    type=click.Choice(["keyword", "vector", "hybrid"]),
    default="keyword",
    show_default=True,
    help="keyword: the stemmed full-text index; vector: the stored embeddings; hybrid: both, fused by rank.",
)
@click.option("--embedder", "embedder_spec", metavar="SPEC", default=None, help=EMBEDDER_HELP)
@db_option
def search(
    query: str,
    k: int,
    document: str | None,
    all_versions: bool,
    fmt: str | None,
    record: bool,
    markers: str | None,
    merge: bool | None,
    max_tokens: int | None,
    collection: str | None,
    mode: SearchMode,
    embedder_spec: str | None,
) -> None:
    """Full-text search over the chunks of current versions, best first.

    QUERY: words (all must occur; chunks holding only some follow when fewer than --k hold all),
    "a phrase", prefix*, a OR b, NOT word or -word. Case, accents and ligatures do not matter,
    nor a word's form in the document's language ("participant" finds "participants"); Chinese
    and Japanese are found by any two characters or more.

    --mode vector or hybrid ranks by the vectors `citeline embed` stored, with the same
    --embedder (it embeds the query); hybrid fuses the keyword and vector lists (reciprocal rank
    fusion): scores are then the cosine, or the fused score. Text that is not valid syntax
    (an unbalanced quote, a lone OR) is read as plain words, never an error.

    With --context the hits are recorded as an injected set and the prompt block is printed with
    its context id: put it in the model's prompt, then `citeline verify --context ID` checks that
    the answer cites only these markers and that its quotes are in them. The set is made as
    `citeline context` makes it: hits that overlap or touch (neighbours of one version) are one
    passage under one marker unless --no-merge, and --max-tokens keeps passages in rank order
    while the prompt's sources fit; the other output formats list the recorded hits only, each
    with its recorded marker.

    jsonl fields: chunk_id, score, document, version, is_current, page_start, page_end, raw_start,
    raw_end, snippet, text, collection (and marker, context_id with --context). Scores are BM25 on SQLite and
    ts_rank on PostgreSQL: higher is better, comparable within one search only.

    \b
    Example:
        citeline search 'dehyphenation "running headers"'
        citeline search 'licen* -proprietary' --document 'pdf/*' --format jsonl
        citeline search 'GNU General Public License' --k 4 --context > prompt.txt
        citeline search 'notice period' --collection legal --context
        citeline search 'notice period' --k 12 --context --max-tokens 1500
        citeline search 'how many participants took part' --mode hybrid --embedder mypkg.embed:model
    """
    store = open_store(migrate=record)
    if mode != "keyword" and embedder_spec is None:
        raise CommandError(f"--mode {mode} needs --embedder (the one `citeline embed` used)", EXIT_USAGE)
    names = [name.strip() for name in markers.split(",")] if markers else None
    if names is not None and (not all(names) or len(set(names)) != len(names)):
        raise CommandError("--markers: names must be distinct and not empty", EXIT_USAGE)
    if not record and (merge is not None or max_tokens is not None):
        raise CommandError("--merge, --no-merge and --max-tokens make a context: add --context", EXIT_USAGE)
    fmt = fmt or ("prompt" if record else "table")
    from citeline.store.embeddings import load_embedder

    with errors_as_messages():
        embedder = load_embedder(embedder_spec) if embedder_spec and mode != "keyword" else None
        hits = store.search(
            query,
            k,
            document=document,
            all_versions=all_versions,
            collection=collection,
            mode=mode,
            embedder=embedder,
        )
        if not hits:
            where = "" if collection is None else f" of collection {collection!r}"
            raise CommandError(f"No chunk matches {query!r}" + ("" if all_versions else " in current versions") + where)
        if names is not None and len(names) < len(hits):
            raise CommandError(f"--markers: {len(names)} names for {len(hits)} hits", EXIT_USAGE)
        labels = (names or [f"S{i}" for i in range(1, len(hits) + 1)])[: len(hits)]
        context_id = None
        if record:
            ctx = store.create_context(
                [h.chunk_id for h in hits],
                markers=labels if names is not None else None,
                allow_superseded=all_versions,
                merge=merge is not False,
                max_tokens=max_tokens,
            )
            context_id = ctx.context_id
            if fmt == "prompt":
                click.echo(ctx.prompt)
                return
            # the hits the context holds, in rank order, each under its recorded marker
            recorded = {cid: mk for mk, cid in ctx.sources}
            labels, hits = (
                [recorded[h.chunk_id] for h in hits if h.chunk_id in recorded],
                [h for h in hits if h.chunk_id in recorded],
            )
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
    default=None,
    metavar="RUN_ID|ISO_TIME",
    help="An ingestion run id (changes since it started) or a time (UTC unless it names a zone).",
)
@click.option(
    "--needs-embedding",
    "model",
    default=None,
    metavar="MODEL",
    help="List current chunks whose text has no vector of this model name (change: needs_embedding).",
)
@click.option("--format", "fmt", type=click.Choice(["jsonl", "table", "csv"]), default="jsonl", show_default=True)
@collection_option("Only changes to documents of this collection.")
@db_option
def changes(since: str | None, model: str | None, fmt: str, collection: str | None) -> None:
    """Chunks added and retired since a run or a time: what an external embedding index applies to
    stay in step with the store.

    "added": the chunk's version became current (a new file, a new version, a version restored).
    "retired": its version was superseded, or its document deleted (status --mark-deleted). Added
    lines come first, then retired ones, each in time order; a chunk added and retired inside the
    window is not listed. Apply them in order: upsert the added, delete the retired.

    With --needs-embedding MODEL: the current chunks whose text has no vector of MODEL in the
    store (`citeline embed` fills them; a chunk whose text did not change in a new version keeps
    its vector), as lines with change "needs_embedding" and at null, after any --since lines.

    jsonl fields: change, chunk_id, document, version, at, collection.

    \b
    Example:
        citeline changes --since 12
        citeline changes --since 2026-11-30T18:00:00Z --format table
        citeline changes --since 12 --collection legal
        citeline changes --since 12 --collection legal
        citeline changes --needs-embedding citeline-test-hashing-256
    """
    if since is None and model is None:
        raise CommandError("changes needs --since or --needs-embedding", EXIT_USAGE)
    store = open_store(migrate=False)
    found: list[Any] = []
    if since is not None:
        with errors_as_messages():
            found = store.changes(_since_point(since), collection=collection)
    if model is not None:
        from citeline.store.search import Change

        with errors_as_messages():
            found += [
                Change("needs_embedding", c.chunk_id, c.document_uri, c.version_no, None, c.collection)
                for c in store.needs_embedding(model)
                if collection is None or c.collection == collection
            ]
    if fmt == "jsonl":
        for change in found:
            click.echo(json.dumps(change.as_json(), ensure_ascii=False))
        return
    columns = ["change", "chunk_id", "document", "version", "at"]
    rows = [[c.change, c.chunk_id, c.document, c.version, c.at.isoformat() if c.at else ""] for c in found]
    click.echo(csv_text(columns, rows) if fmt == "csv" else table(columns, rows), nl=fmt != "csv")


def _since_point(since: str) -> datetime | int:
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
    return point


# ----------------------------------------------------------------------------- embed


@cli.command()
@click.option("--embedder", "embedder_spec", metavar="SPEC", required=True, help=EMBEDDER_HELP)
@click.option("--batch-size", type=click.IntRange(1, 100_000), default=64, show_default=True, help="Texts per call.")
@db_option
def embed(embedder_spec: str, batch_size: int) -> None:
    """Store vectors for the current chunks that have none of this model yet.

    Vectors are keyed by the chunk text's sha256 and the model name: after a new version of a
    file, only chunks whose text changed are embedded again. Prints one JSON line: model,
    embedded (texts sent to the model), reused (chunks that kept a vector), chunks (current).
    Then `citeline search --mode vector|hybrid --embedder SPEC` uses them.

    \b
    Example:
        citeline embed --embedder mypkg.embed:model
        citeline changes --needs-embedding all-MiniLM-L6-v2
    """
    from citeline.store.embeddings import load_embedder

    store = open_store()
    with errors_as_messages():
        embedder = load_embedder(embedder_spec)
        result = store.embed(embedder, batch_size=batch_size)
    click.echo(json.dumps(result.as_json(), ensure_ascii=False))
