"""The relational store: models, migrations run from code, the writer and read queries.

Python API (the CLI is a thin layer over it)::

    from citeline.store import Store
    store = Store("sqlite:///citeline.db")
    for chunk in store.iter_chunks():
        ...

The store is the database alone: filling it from files is :mod:`citeline.batch`
(``citeline.ingest_files``). Names are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citeline.store.errors import DatabaseError, NotFound, QueryError, ReadOnlyViolation, StoreError
    from citeline.store.store import Store

__all__ = [
    "DatabaseError",
    "NotFound",
    "QueryError",
    "ReadOnlyViolation",
    "Store",
    "StoreError",
]

_HOMES = {
    "DatabaseError": "citeline.store.errors",
    "NotFound": "citeline.store.errors",
    "QueryError": "citeline.store.errors",
    "ReadOnlyViolation": "citeline.store.errors",
    "Store": "citeline.store.store",
    "StoreError": "citeline.store.errors",
}
#: Names that lived here before ingest orchestration moved to :mod:`citeline.batch` (0.2); they
#: still work for one release, with a DeprecationWarning naming the new place.
_MOVED = {
    "DiscoveryError": "DiscoveryError",
    "IngestOptions": "IngestOptions",
    "IngestSummary": "IngestSummary",
    "discover": "discover",
    "ingest": "ingest_files",
}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        import warnings

        new = _MOVED[name]
        warnings.warn(
            f"citeline.store.{name} moved to citeline.batch.{new} (and citeline.{new}); "
            "the old name goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module("citeline.batch"), new)
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'citeline.store' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
