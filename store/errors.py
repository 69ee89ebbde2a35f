"""Exceptions raised by :mod:`citeline.store`. Messages are one line naming the object and the reason."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error raised by the store package."""


class DatabaseError(StoreError):
    """The database cannot be reached or opened, or its schema is not what citeline expects."""


class NotADatabase(DatabaseError):
    """``--db`` names a file that is not a SQLite database (bad input: exit status 2)."""


class DatabaseBusy(DatabaseError):
    """Another process held the database locked for longer than the busy timeout."""


class NotFound(StoreError):
    """A document, version, chunk or context does not exist."""


class ReadOnlyViolation(StoreError):
    """A read-only query tried to write."""


class QueryError(StoreError):
    """A user query failed (syntax error, unknown table...)."""


class StatusError(StoreError):
    """A status request that would do harm (``--mark-deleted`` over most of the corpus)."""


class RevisionError(StoreError):
    """``db upgrade``/``db downgrade`` to a revision that does not exist or lies the other way."""
