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


@db.command("create-reader")
@click.argument("role")
@click.option("--password", default=None, help="Password to set for the role (default: leave it as it is).")
@db_option
def db_create_reader(role: str, password: str | None) -> None:
    """Create a PostgreSQL ROLE that may only read the citeline tables and views (for citeline sql).

    Grants CONNECT on the database, USAGE on the store's schema and SELECT on its tables and views
    (now and later ones), nothing else. Run it as a role allowed to create roles.

    \b
    Example:
        citeline --db postgresql+psycopg://postgres@db/citeline db create-reader citeline_reader
        citeline --db postgresql+psycopg://citeline_reader@db/citeline sql "SELECT count(*) FROM chunks"
    """
    from citeline.store.sql import create_reader

    url = click.get_current_context().obj.get("db")
    with errors_as_messages():
        name, schema = create_reader(url, role, password=password)
    click.echo(f"Role {name!r} may read the citeline tables and views of schema {schema!r}, and nothing else.")
