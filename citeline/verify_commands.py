"""``context``, ``verify``, ``serve`` and ``highlight``."""

from __future__ import annotations

import sys

import click

from citeline.app import (
    EXIT_FAILURE,
    EXIT_USAGE,
    CommandError,
    cli,
    collection_option,
    context_options,
    db_option,
    errors_as_messages,
    open_store,
)
from citeline.kinds import DEFAULT_POLICY, POLICIES, Policy
from citeline.output import dumps

# ----------------------------------------------------------------------------- context and verify


@cli.command()
@click.argument("chunk_ids", nargs=-1, required=True)
@click.option("--markers", default=None, metavar="S1,S2,...", help="Marker names (default: S1..Sn).")
@click.option(
    "--allow-superseded", is_flag=True, help="Inject chunks of superseded or deleted versions too (refused otherwise)."
)
@context_options
@click.option("--format", "fmt", type=click.Choice(["prompt", "json"]), default="prompt", show_default=True)
@db_option
def context(
    chunk_ids: tuple[str, ...],
    markers: str | None,
    allow_superseded: bool,
    merge: bool | None,
    max_tokens: int | None,
    fmt: str,
) -> None:
    """Record an injected set of chunks and print the prompt block for it.

    The context id it records is what `citeline verify --context ID` checks markers against:
    an answer may only cite the markers injected here. A chunk id given twice, or a chunk of a
    superseded version (unless --allow-superseded), is refused.

    Chunks of one version that overlap or touch (a chunk and its neighbour sharing a sentence) are
    one passage: its text once, under one marker (the first one's; the default names number the
    passages). The passage's later chunks are recorded as MARKER~2, MARKER~3 in the JSON's
    sources, and verify reads MARKER as all of them, offsets exact. --max-tokens keeps passages in
    the order given while their source blocks fit (approximate tokens, as --chunk-unit tokens
    counts: words, numbers, punctuation, one per CJK character); one that does not fit is left out.

    \b
    Example:
        citeline context ck_1669895572e4db8a9056 ck_2f4aecd6d15fbbca6003
        citeline context ck_1669895572e4db8a9056 --format json
        citeline context ck_1669895572e4db8a9056 ck_2f4aecd6d15fbbca6003 --max-tokens 1500
    """
    store = open_store()
    names = [m.strip() for m in markers.split(",")] if markers else None
    with errors_as_messages():
        ctx = store.create_context(
            list(chunk_ids),
            markers=names,
            allow_superseded=allow_superseded,
            merge=merge is not False,
            max_tokens=max_tokens,
        )
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
            for (mk, _), c in zip(ctx.sources, ctx.chunks, strict=True)
        ]
        payload["prompt"] = ctx.prompt
        click.echo(dumps(payload))
        return
    click.echo(ctx.prompt)


@cli.command()
@click.argument("answer", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--context", "context_id", default=None, metavar="ID", help="Injected set recorded by `citeline context`."
)
@click.option("--format", "fmt", type=click.Choice(["json", "text", "html"]), default="json", show_default=True)
@click.option(
    "--policy",
    type=click.Choice(POLICIES),
    default=DEFAULT_POLICY,
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
    type=click.FloatRange(50, 100),
    default=None,
    metavar="50-100",
    help="Fuzzy acceptance score (default: calibrated, see the README).",
)
@click.option(
    "--fail-on",
    "fail_on",
    metavar="FLAGS",
    default="numeric_mismatch,negation_mismatch,missing_terms,stale_gone",
    show_default=True,
    help="Flags that make a verified citation fail (comma list, or none); strict and strip act on them.",
)
@click.option(
    "--min-coverage",
    type=click.FloatRange(0, 1),
    default=0.0,
    metavar="0-1",
    help="Share of asserting sentences that must carry a citation; strict exits 1 below it (default 0).",
)
@click.option(
    "--disable",
    "disabled",
    multiple=True,
    metavar="CHECK[,CHECK...]",
    help="Switch off named checks (claim_numbers, quote_negation, ...; the list: docs/verify.md). Repeatable.",
)
@click.option("--no-log", is_flag=True, help="Do not record this run in the store.")
@db_option
def verify(
    answer: str,
    context_id: str | None,
    fmt: str,
    policy: Policy,
    output: str | None,
    check_sources: bool,
    threshold: float | None,
    fail_on: str,
    min_coverage: float,
    disabled: tuple[str, ...],
    no_log: bool,
) -> None:
    """Check the citations of an LLM answer against the store (deterministic, no model call).

    ANSWER is a JSON file (or - for stdin): {"answer": "...", "sources": {"S1": "<chunk id>"} or
    "context": "<id>", "citations": [{"marker": "S1", "quote": "...", "claim": "...",
    "required_terms": [...]}]}. Without "citations", markers and quoted spans are parsed from the
    answer. Anthropic-style "content" blocks with citations are accepted too (see the README).

    A citation passes when its quote is verified and no flag of --fail-on is set; --policy strict
    exits 1 and --policy strip drops the sentence for any citation that does not pass.

    \b
    Example:
        citeline verify answer.json --context ctx_8c5dbbaefdffddd4 --format text
        citeline verify answer.json --policy strict -o report.json
        citeline verify answer.json --disable claim_direction,claim_polarity
    """
    from pathlib import Path

    from citeline.present.text import render_html, render_text
    from citeline.store.errors import NotFound
    from citeline.verify import VerifyOptions
    from citeline.verify.errors import InputError, VerifyError
    from citeline.verify.load import load_answer, read_bounded
    from citeline.verify.match import FUZZY_THRESHOLD
    from citeline.verify.parse import parse_answer
    from citeline.verify.verify import Verifier, parse_fail_on

    try:
        if answer == "-":
            data = load_answer(read_bounded(sys.stdin.buffer, "<stdin>"), name="<stdin>")
            name = "<stdin>"
        else:
            path = Path(answer)
            if not path.exists():
                raise InputError(f"{answer}: no such file")
            data = load_answer(path)
            name = answer
        parsed = parse_answer(data, name=name)
        options = VerifyOptions(
            check_sources=check_sources,
            policy=policy,
            log=not no_log,
            fuzzy_threshold=FUZZY_THRESHOLD if threshold is None else threshold,
            fail_on=parse_fail_on(fail_on),
            min_coverage=min_coverage,
            disabled=frozenset(n.strip() for v in disabled for n in v.split(",") if n.strip()),
        )
    except InputError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    store = open_store(migrate=not no_log)
    with errors_as_messages():
        try:
            verifier = Verifier(store, options)
            if context_id is not None and parsed.sources is None:
                try:  # an unknown id is bad input (as inside the answer): fail before writing anything
                    store.context(context_id)
                except NotFound as exc:
                    raise CommandError(f"--context: {exc}", EXIT_USAGE) from None
            report = verifier.verify(parsed, context_id=context_id)
        except InputError as exc:
            raise CommandError(f"{name}: {exc}" if not str(exc).startswith(name) else str(exc), EXIT_USAGE) from None
        except VerifyError as exc:
            raise CommandError(str(exc)) from None
    try:
        target = open(output, "w", encoding="utf-8") if output else None  # noqa: SIM115 - closed below
    except OSError as exc:
        raise CommandError(f"Cannot write {output}: {exc.strerror or exc}", EXIT_USAGE) from None
    try:
        if options.log:
            # the run is recorded with the output: if writing the report fails, so does the record
            with errors_as_messages():
                verifier.log(report)
        if fmt == "json":
            rendered = dumps(report.as_json())
        elif fmt == "text":
            rendered = render_text(report, color=output is None and sys.stdout.isatty())
        else:
            rendered = render_html(report, store)
        if target is not None:
            target.write(rendered + ("\n" if not rendered.endswith("\n") else ""))
            target.close()
            summary = report.summary()
            click.echo(
                f"Report written to {output} ({summary['passed']}/{len(report.citations)} passed, "
                f"{summary['verified']} verified).",
                err=True,
            )
        else:
            click.echo(rendered)
    except BaseException as exc:
        if report.run_id is not None:
            store.forget_verification(report.run_id)
        if target is not None:
            target.close()
            Path(output).unlink(missing_ok=True)  # type: ignore[arg-type]
        if isinstance(exc, OSError):
            raise CommandError(f"Cannot write {output or 'the report'}: {exc.strerror or exc}") from None
        raise
    if policy == "strip" and fmt != "json":
        click.echo("\n--- answer without failing sentences ---\n" + report.stripped_answer(), err=output is None)
    if policy == "strict" and not report.passed:
        sys.exit(EXIT_FAILURE)


# ----------------------------------------------------------------------------- review


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (127.0.0.1: this machine only).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Another name clients may reach the server by (Host header); repeatable; '*' for any.",
)
@collection_option("Show and search only the documents of this collection.")
@db_option
def serve(host: str, port: int, allow_hosts: tuple[str, ...], collection: str | None) -> None:
    """A local web app: browse documents, versions and chunks, search chunks, open a chunk on its
    page, and paste or upload an answer JSON to see its verification report.

    Requests are bounded (5 MB bodies, 15 s socket timeouts); a request naming another host than
    the bound one (or --allow-host) is refused, and so is a POST from a page of another site.

    \b
    Example:
        citeline serve --port 8000     # then open http://127.0.0.1:8000/
        citeline serve --host 0.0.0.0 --allow-host citeline.lan
        citeline serve --collection legal
    """
    from citeline.present.web import make_server

    store = open_store(migrate=False)
    try:
        server = make_server(store, host, port, allow_hosts=allow_hosts, collection=collection)
    except OSError as exc:
        raise CommandError(f"Cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    click.echo(f"citeline serving {store.display_url} at http://{host}:{server.server_address[1]}/ (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("\nStopped.")
    finally:
        server.server_close()


#: Pages ``citeline highlight`` stacks in one image unless ``--max-pages`` says otherwise.
MAX_STACKED_PAGES = 20


def _page_list(spec: str) -> set[int]:
    """``3``, ``2-5``, ``1,4-6``: page numbers (1-based); anything else is a one-line usage error."""
    pages: set[int] = set()
    for part in spec.split(","):
        lo, _, hi = part.strip().partition("-")
        ok = lo.isascii() and lo.isdigit() and (not hi or (hi.isascii() and hi.isdigit())) and len(part) < 20
        first, last = (int(lo), int(hi or lo)) if ok else (0, 0)
        if not ok or not 1 <= first <= last or last - first > 100_000:
            raise CommandError(f"--pages {spec!r} is not a list of pages like 3 or 2-5 or 1,4-6", EXIT_USAGE)
        pages.update(range(first, last + 1))
    return pages


def _ranges(pages: list[int]) -> str:
    """``1-3, 7, 9-12``: sorted page numbers, runs joined (at most ten runs shown)."""
    runs: list[list[int]] = []
    for p in pages:
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    shown = [f"{a}-{b}" if b > a else str(a) for a, b in runs[:10]]
    return ", ".join(shown) + (", …" if len(runs) > 10 else "")


@cli.command()
@click.argument("chunk_id", required=False)
@click.option(
    "--range", "span", metavar="DOC:START:END", default=None, help="A raw range; DOC is a URI, or URI@VERSION."
)
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), required=True, help="PNG to write.")
@click.option(
    "--scale", type=click.FloatRange(0.5, 6), default=1.5, show_default=True, help="Pixels per point / 72 dpi."
)
@click.option(
    "--pages",
    "page_spec",
    metavar="LIST",
    default=None,
    help="Only these of the range's pages, e.g. 3 or 2-5 or 1,4-6 (page numbers of the document).",
)
@click.option(
    "--max-pages",
    type=click.IntRange(1, 500),
    default=MAX_STACKED_PAGES,
    show_default=True,
    help="Most pages stacked in one image; a range over more is refused (choose some with --pages).",
)
@db_option
def highlight(
    chunk_id: str | None, span: str | None, output: str, scale: float, page_spec: str | None, max_pages: int
) -> None:
    """Render a chunk's (or a raw range's) page(s) with the highlight boxes drawn, without a browser.

    Several pages are stacked in one image, at most --max-pages of them and 64 megapixels in all.

    \b
    Example:
        citeline highlight ck_1669895572e4db8a9056 -o chunk.png
        citeline highlight --range pdf/policy_handbook.pdf:1395:1435 -o quote.png
        citeline highlight --range report.pdf:0:90000 --pages 1-3 -o first-pages.png
    """
    from pathlib import Path

    from citeline.present.pages import MAX_STACK_PIXELS, PageRenderer, stack_png
    from citeline.present.web import highlight_boxes
    from citeline.text.offsets import Original

    if (chunk_id is None) == (span is None):
        raise CommandError("give either CHUNK_ID or --range DOC:START:END", EXIT_USAGE)
    wanted = None if page_spec is None else _page_list(page_spec)
    folder = Path(output).parent
    if not folder.is_dir():
        raise CommandError(f"Cannot write {output}: folder {str(folder)!r} does not exist", EXIT_USAGE)
    store = open_store(migrate=False)
    with errors_as_messages():
        if chunk_id is not None:
            version_id, boxes = highlight_boxes(store, chunk_id)
            what = f"chunk {chunk_id}"
        else:
            assert span is not None
            try:
                doc, start, end = span.rsplit(":", 2)
                if not (start.isascii() and start.isdigit() and end.isascii() and end.isdigit()):
                    raise ValueError(span)
                if len(start) > 15 or len(end) > 15:  # beyond any stored text (and any SQL integer)
                    raise CommandError(f"--range {span!r}: offsets beyond any stored text", EXIT_USAGE)
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
            last = raw_range.end
            if last > 0 and not store.raw_text(version.version_id, Original(last - 1, last)):
                raise CommandError(f"--range {span!r}: offsets beyond the text of {uri}", EXIT_USAGE)
            version_id, boxes = version.version_id, store.boxes(version.version_id, [raw_range])
            what = f"{uri} [{raw_range.start}, {raw_range.end})"
        if not boxes:
            raise CommandError(f"Nothing to draw for {what}: no page geometry there (text formats have none)")
        pages = sorted({b.page for b in boxes})
        if wanted is not None:
            missing = sorted(wanted - set(pages))
            if missing:
                raise CommandError(
                    f"--pages {page_spec}: {what} has nothing on page {missing[0]} (its pages: {_ranges(pages)})",
                    EXIT_USAGE,
                )
            pages = [p for p in pages if p in wanted]
        if len(pages) > max_pages:
            raise CommandError(
                f"{what} covers {len(pages):,} pages, above --max-pages {max_pages}; choose some with --pages "
                f"(its pages: {_ranges(pages)})",
                EXIT_USAGE,
            )
        with PageRenderer(store, scale=scale) as renderer:
            sizes = [renderer.size(version_id, p) for p in pages]
            dims = [(w * renderer.scale_for(w, h), h * renderer.scale_for(w, h)) for w, h in filter(None, sizes)]
            pixels = max((d[0] for d in dims), default=0) * sum(d[1] for d in dims)
            if pixels > MAX_STACK_PIXELS:
                raise CommandError(
                    f"{what}: {len(pages)} pages stack to {pixels / 1e6:,.0f} megapixels, above the "
                    f"{MAX_STACK_PIXELS / 1e6:.0f} allowed in one image; choose fewer with --pages or --max-pages, "
                    "or lower --scale",
                    EXIT_USAGE,
                )
            images = [renderer.png(version_id, p, boxes) for p in pages]
    Path(output).write_bytes(images[0] if len(images) == 1 else stack_png(images))
    listed = ", ".join(map(str, pages)) if len(pages) <= 10 else _ranges(pages)
    click.echo(f"Wrote {output}: {what}, page{'s' if len(pages) > 1 else ''} {listed}, {len(boxes)} box(es).")
