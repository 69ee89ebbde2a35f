"""The click group and what every command shares: the ``--db`` option, opening the store, turning
library errors into one-line messages (exit status 1 for failures, 2 for bad usage or bad input)."""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from citeline._version import __version__
from citeline.kinds import DEFAULT_OCR_MODE, OCR_MODES, OcrMode

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
    from sqlalchemy.exc import DBAPIError

    from citeline.ingest.errors import ExtractionError, IngestError
    from citeline.store.errors import (
        DatabaseError,
        NotADatabase,
        NotFound,
        QueryError,
        ReadOnlyViolation,
        RevisionError,
        StatusError,
        StoreError,
    )

    try:
        yield
    except (NotADatabase, NotFound, QueryError, ReadOnlyViolation, RevisionError, StatusError) as exc:
        raise CommandError(str(exc), EXIT_USAGE if not isinstance(exc, NotFound) else EXIT_FAILURE) from None
    except (DatabaseError, StoreError) as exc:
        raise CommandError(str(exc)) from None
    except ExtractionError as exc:
        raise CommandError(str(exc)) from None
    except IngestError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    except DBAPIError as exc:  # mid-command (a lock held past the busy timeout, a dropped server)
        from citeline.store import db

        error = db.open_error(db.make_engine(click.get_current_context().obj.get("db")), exc)
        raise CommandError(str(error), EXIT_USAGE if isinstance(error, NotADatabase) else EXIT_FAILURE) from None


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


def collection_option(help_text: str) -> Callable[[F], F]:
    """``--collection NAME``: the collection a command reads (or, for ingest, writes)."""
    return click.option("--collection", "-c", "collection", metavar="NAME", default=None, help=help_text)


def context_options(fn: F) -> F:
    """``--merge/--no-merge`` and ``--max-tokens N``: how a recorded context is made (``context``,
    ``search --context``), passed on to :meth:`Store.create_context` as ``merge`` and ``max_tokens``."""
    fn = click.option(
        "--max-tokens",
        type=click.IntRange(1),
        default=None,
        metavar="N",
        help="Keep passages, in the order given, while the prompt's sources stay within N approximate tokens.",
    )(fn)
    return click.option(
        "--merge/--no-merge",
        default=None,
        help="Merge chunks that overlap or touch (neighbours of one version) into one passage under one marker "
        "[default: merge].",
    )(fn)


class _EchoHandler(logging.Handler):
    """Log records as one escaped line each on stderr (through click, so tests capture them)."""

    citeline = True

    def emit(self, record: logging.LogRecord) -> None:
        from citeline.output import printable

        try:
            message = record.getMessage()
        except Exception:  # a library's bad format string
            message = repr(record.msg)
        click.echo(printable(f"{record.levelname.lower()}: {message}"), err=True)


def configure_logging(verbose: int) -> None:
    """Library warnings (pdfminer's ``Invalid MediaBox``, Python warnings) and citeline's own log
    go to stderr only with ``-v`` (``-vv``: debug too); without it nothing is printed, not even by
    logging's last-resort handler."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "citeline", False)]:
        root.removeHandler(old)
    handler: logging.Handler = _EchoHandler() if verbose else logging.NullHandler()
    handler.citeline = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose > 1 else logging.INFO if verbose else logging.WARNING)
    logging.captureWarnings(True)


def verbose_option(f: F) -> F:
    """``-v`` after the command name too (``citeline ingest -v ...``)."""

    @click.option("--verbose", "-v", "verbose", count=True, help="Show library warnings and the log (-vv: debug).")
    @functools.wraps(f)
    def wrapper(*args: Any, verbose: int, **kwargs: Any) -> Any:
        if verbose:
            configure_logging(verbose)
        return f(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def ocr_options(f: F) -> F:
    """``--ocr``, ``--ocr-lang`` and ``--ocr-dpi`` (ingest and extract), handed on as ``ocr``."""

    @click.option(
        "--ocr",
        "ocr_mode",
        type=click.Choice(OCR_MODES),
        default=DEFAULT_OCR_MODE,
        show_default=True,
        help="auto: OCR pages without a usable text layer (and images); force: every page; off: none.",
    )
    @click.option(
        "--ocr-lang",
        default="eng",
        show_default=True,
        metavar="LANGS",
        help="Tesseract languages joined by '+', e.g. eng+deu (Debian: tesseract-ocr-deu).",
    )
    @click.option("--ocr-dpi", type=click.IntRange(50, 1200), default=300, show_default=True, help="Render dpi.")
    @functools.wraps(f)
    def wrapper(*args: Any, ocr_mode: OcrMode, ocr_lang: str, ocr_dpi: int, **kwargs: Any) -> Any:
        from citeline.ingest.extract.ocr import OcrSettings

        try:
            settings = OcrSettings(mode=ocr_mode, languages=ocr_lang, dpi=ocr_dpi)
        except ValueError as exc:
            raise CommandError(f"--ocr-lang: {exc}", EXIT_USAGE) from None
        return f(*args, ocr=settings, **kwargs)

    return wrapper  # type: ignore[return-value]


def layout_option(f: F) -> F:
    """``--layout KEY=VALUE`` (repeatable; ingest and extract), handed on as ``layout``: the
    layout engine's :class:`~citeline.ingest.extract.layout.LayoutSettings`."""

    @click.option(
        "--layout",
        "layout_pairs",
        multiple=True,
        metavar="KEY=VALUE",
        help="Set a layout engine threshold, e.g. min_gutter=8 (points) or space_gap=0.2 (em); repeatable. "
        "Other values than the defaults enter the settings hash.",
    )
    @functools.wraps(f)
    def wrapper(*args: Any, layout_pairs: tuple[str, ...], **kwargs: Any) -> Any:
        from citeline.ingest.errors import LayoutSettingError
        from citeline.ingest.extract.layout_settings import LayoutSettings

        try:
            layout = LayoutSettings.from_pairs(layout_pairs)
        except LayoutSettingError as exc:
            raise CommandError(f"--layout: {exc}", EXIT_USAGE) from None
        return f(*args, layout=layout, **kwargs)

    return wrapper  # type: ignore[return-value]


def open_store(*, migrate: bool = True) -> Any:
    from citeline.store import Store

    url = click.get_current_context().obj.get("db")
    with errors_as_messages():
        return Store(url, migrate=migrate)


class _Group(click.Group):
    """The group: arguments that are not text are refused before any command sees them."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for n, arg in enumerate(args, start=1):
            if any("\udc80" <= ch <= "\udcff" for ch in arg):  # undecodable bytes, as Python keeps them
                shown = os.fsencode(arg).decode("utf-8", "backslashreplace")
                raise CommandError(f"Argument {n} ({shown}) is not valid UTF-8", EXIT_USAGE)
        return super().parse_args(ctx, args)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option(
    "--db",
    "db_url",
    metavar="URL",
    envvar="CITELINE_DB",
    default=None,
    help="Database URL (default: $CITELINE_DB or sqlite:///citeline.db in the working directory).",
)
@click.option("--verbose", "-v", "verbose", count=True, help="Show library warnings and the log (-vv: debug).")
@click.version_option(__version__, prog_name="citeline")
@click.pass_context
def cli(ctx: click.Context, db_url: str | None, verbose: int) -> None:
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
    configure_logging(verbose)
