"""The relational store: models, migrations run from code, the writer and read queries.

Python API (the CLI is a thin layer over it)::

    from store import Store, ingest, IngestOptions
    store = Store("sqlite:///citeline.db")
    summary = ingest(store, ["fixtures/"])
    for chunk in store.iter_chunks():
        ...
"""

from store.batch import IngestOptions, IngestSummary, discover, ingest
from store.errors import DatabaseError, NotFound, QueryError, ReadOnlyViolation, StoreError
from store.store import Store

__all__ = [
    "DatabaseError",
    "IngestOptions",
    "IngestSummary",
    "NotFound",
    "QueryError",
    "ReadOnlyViolation",
    "Store",
    "StoreError",
    "discover",
    "ingest",
]
