"""The relational store: models, migrations run from code, the writer and read queries.

Python API (the CLI is a thin layer over it)::

    from citeline.store import Store, ingest, IngestOptions
    store = Store("sqlite:///citeline.db")
    summary = ingest(store, ["fixtures/"])
    for chunk in store.iter_chunks():
        ...

Names are imported on first use: a read (``Store``) does not load the batch ingest, its worker
pools or the extractors.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citeline.store.batch import DiscoveryError, IngestOptions, IngestSummary, discover, ingest
    from citeline.store.errors import DatabaseError, NotFound, QueryError, ReadOnlyViolation, StoreError
    from citeline.store.store import Store

__all__ = [
    "DatabaseError",
    "DiscoveryError",
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

_HOMES = {
    "DatabaseError": "citeline.store.errors",
    "DiscoveryError": "citeline.store.batch",
    "IngestOptions": "citeline.store.batch",
    "IngestSummary": "citeline.store.batch",
    "NotFound": "citeline.store.errors",
    "QueryError": "citeline.store.errors",
    "ReadOnlyViolation": "citeline.store.errors",
    "Store": "citeline.store.store",
    "StoreError": "citeline.store.errors",
    "discover": "citeline.store.batch",
    "ingest": "citeline.store.batch",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'citeline.store' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
