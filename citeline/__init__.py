"""citeline: provable citations for retrieval-augmented answers.

The public API (everything the command line does goes through it)::

    from citeline import IngestOptions, Store, VerifyOptions, ingest, verify_answer

    store = Store("sqlite:///citeline.db")
    summary = ingest(store, ["corpus/"], IngestOptions(workers=4))
    ctx = store.create_context([c.chunk_id for c in store.iter_chunks()][:3])
    report = verify_answer(store, {"answer": "...", "context": ctx.context_id})

The names are loaded on first use, so ``import citeline`` (and every ``citeline`` command) pays only
for what it touches. The packages below are ``citeline.ingest`` (extraction, offset maps, cleaning,
chunking; no database), ``citeline.store`` (the relational store), ``citeline.verify`` (citation
checking) and ``citeline.migrations`` (the alembic environment).

``citeline.ingest`` is both the ingest package and, called, the batch ingest of
:func:`citeline.store.batch.ingest`: ``from citeline import ingest`` gives the package, and
``ingest(store, paths, options)`` runs a batch (see :class:`_IngestPackage`).
"""

from __future__ import annotations

import importlib
import types
from typing import TYPE_CHECKING, Any

from citeline._version import __version__

if TYPE_CHECKING:
    from citeline.ingest.errors import ExtractionError, IngestError
    from citeline.store import (
        DatabaseError,
        DiscoveryError,
        IngestOptions,
        IngestSummary,
        NotFound,
        QueryError,
        ReadOnlyViolation,
        Store,
        StoreError,
    )
    from citeline.store import ingest as ingest
    from citeline.verify import CitationResult, InputError, Report, VerifyError, VerifyOptions, verify_answer

__all__ = [
    "CitationResult",
    "DatabaseError",
    "DiscoveryError",
    "ExtractionError",
    "IngestError",
    "IngestOptions",
    "IngestSummary",
    "InputError",
    "NotFound",
    "QueryError",
    "ReadOnlyViolation",
    "Report",
    "Store",
    "StoreError",
    "VerifyError",
    "VerifyOptions",
    "__version__",
    "ingest",
    "verify_answer",
]

#: Where each public name lives (imported on first access, PEP 562).
_HOMES = {
    "CitationResult": "citeline.verify.report",
    "DatabaseError": "citeline.store.errors",
    "DiscoveryError": "citeline.store.batch",
    "ExtractionError": "citeline.ingest.errors",
    "IngestError": "citeline.ingest.errors",
    "IngestOptions": "citeline.store.batch",
    "IngestSummary": "citeline.store.batch",
    "InputError": "citeline.verify.errors",
    "NotFound": "citeline.store.errors",
    "QueryError": "citeline.store.errors",
    "ReadOnlyViolation": "citeline.store.errors",
    "Report": "citeline.verify.report",
    "Store": "citeline.store.store",
    "StoreError": "citeline.store.errors",
    "VerifyError": "citeline.verify.errors",
    "VerifyOptions": "citeline.verify.verify",
    "verify_answer": "citeline.verify.verify",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'citeline' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _IngestPackage(types.ModuleType):
    """The type of the ``citeline.ingest`` package: a module that can also be called.

    The public API names a function ``ingest`` and the layout a package ``citeline.ingest``, and
    Python gives ``citeline.ingest`` to whichever is bound last, so one of them would be lost
    depending on import order. Instead the package itself runs a batch when called, and stays a
    package for everything else (``citeline.ingest.extract``, ``from citeline.ingest import ...``).
    The package stays free of any store code: the store is imported only when it is called.
    """

    def __call__(self, store: Any, paths: Any, options: Any = None, **kwargs: Any) -> Any:
        """Ingest every file under ``paths`` into ``store``: :func:`citeline.store.batch.ingest`."""
        from citeline.store.batch import IngestOptions
        from citeline.store.batch import ingest as run

        return run(store, paths, options if options is not None else IngestOptions(), **kwargs)


# the subpackage is tiny (a docstring): loading it here is what guarantees every later import sees
# the callable type, whichever module asks first
_package = importlib.import_module("citeline.ingest")
_package.__class__ = _IngestPackage
