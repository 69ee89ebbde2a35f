"""The click group and what every command shares: the ``--db`` option, opening the store, turning
library errors into one-line messages (exit status 1 for failures, 2 for bad usage or bad input)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from citeline._version import __version__

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
    from citeline.ingest.errors import ExtractionError, IngestError
    from citeline.store.errors import DatabaseError, NotFound, QueryError, ReadOnlyViolation, StoreError

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
    from citeline.store import Store

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
@click.version_option(__version__, prog_name="citeline")
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
