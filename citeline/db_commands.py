"""``citeline db``: schema migrations run from code."""

from __future__ import annotations

import click

from citeline.app import cli, db_option, errors_as_messages

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
    from citeline.store import db as store_db

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
    from citeline.store import db as store_db

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
    from citeline.store import db as store_db

    url = click.get_current_context().obj.get("db")
    with errors_as_messages():
        engine = store_db.make_engine(url)
        store_db.downgrade(engine, revision)
    click.echo(f"Database is at revision {store_db.current_revision(engine) or 'base'}.")
