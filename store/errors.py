"""Exceptions raised by :mod:`citeline.store`. Messages are one line naming the object and the reason."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error raised by the store package."""


class DatabaseError(StoreError):
    """The database cannot be reached or opened, or its schema is not what citeline expects."""


class NotFound(StoreError):
    """A document, version, chunk or context does not exist."""


class ReadOnlyViolation(StoreError):
    """A read-only query tried to write."""


class QueryError(StoreError):
    """A user query failed (syntax error, unknown table...)."""
