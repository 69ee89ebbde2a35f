"""citeline: provable citations for retrieval-augmented answers.

The public API (everything the command line does goes through it)::

    from citeline import IngestOptions, Store, VerifyOptions, ingest_files, verify_answer

    store = Store("sqlite:///citeline.db")
    summary = ingest_files(store, ["corpus/"], IngestOptions(workers=4))
    ctx = store.create_context([c.chunk_id for c in store.iter_chunks()][:3])
    report = verify_answer(store, {"answer": "...", "context": ctx.context_id})

    # the layout engine's thresholds: validated, and part of the stored settings hash
    tuned = IngestOptions(settings=PipelineSettings(layout=LayoutSettings(min_gutter=8)))

The names are loaded on first use, so ``import citeline`` (and every ``citeline`` command) pays only
for what it touches. The packages below are ``citeline.ingest`` (extraction, offset maps, cleaning,
chunking; no database), ``citeline.store`` (the relational store), ``citeline.verify`` (citation
checking) and ``citeline.migrations`` (the alembic environment); ``citeline.batch`` runs the ingest
pipeline over many files into a store, ``citeline.present`` shows reports and pages (``serve``,
the HTML report); ``citeline.kinds`` names the closed sets of values (extractor, OCR mode, policy,
executor, outcome status) as ``Literal`` types.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from citeline._version import __version__

if TYPE_CHECKING:
    from citeline.batch import DiscoveryError, IngestOptions, IngestSummary, ingest_files
    from citeline.ingest.errors import ExtractionError, IngestError, LayoutSettingError
    from citeline.ingest.extract.layout import LayoutSettings
    from citeline.ingest.pipeline import PipelineSettings
    from citeline.store import DatabaseError, NotFound, QueryError, ReadOnlyViolation, Store, StoreError
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
    "LayoutSettingError",
    "LayoutSettings",
    "NotFound",
    "PipelineSettings",
    "QueryError",
    "ReadOnlyViolation",
    "Report",
    "Store",
    "StoreError",
    "VerifyError",
    "VerifyOptions",
    "__version__",
    "ingest_files",
    "verify_answer",
]

#: Where each public name lives (imported on first access, PEP 562).
_HOMES = {
    "CitationResult": "citeline.verify.report",
    "DatabaseError": "citeline.store.errors",
    "DiscoveryError": "citeline.batch.ingest",
    "ingest_files": "citeline.batch.ingest",
    "ExtractionError": "citeline.ingest.errors",
    "IngestError": "citeline.ingest.errors",
    "IngestOptions": "citeline.batch.ingest",
    "IngestSummary": "citeline.batch.ingest",
    "InputError": "citeline.verify.errors",
    "LayoutSettingError": "citeline.ingest.errors",
    "LayoutSettings": "citeline.ingest.extract.layout",
    "NotFound": "citeline.store.errors",
    "PipelineSettings": "citeline.ingest.pipeline",
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
