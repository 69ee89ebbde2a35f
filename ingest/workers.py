"""What an ingest worker imports before its first file, and starting that import early.

Kept free of heavy imports: ``citeline ingest`` calls :func:`warm_workers` before it imports the
store (SQLAlchemy) and opens the database, so the worker's imports (the layout engine, pypdfium2,
pdfplumber) run on another core meanwhile instead of after it.
"""

from __future__ import annotations

from citeline.ingest.isolate import start_forkserver

#: Modules every ingest worker needs whatever it reads (``worker_warmup`` loads the word
#: frequencies). The pdfium glyph reader (which ``auto`` reads PDFs with) and the English language
#: module (the chunker's sentence rules for most documents) are imported on a worker's first file
#: otherwise: about 10 ms of each worker's first file.
COMMON_PRELOAD = (
    "citeline.ingest.pipeline",
    "citeline.ingest.extract.pdf",
    "pypdfium2",
    "citeline.ingest.extract.pdfium_glyphs",
    "citeline.text.lang.en",
    "citeline.ingest.worker_warmup",
)


def worker_preload(extractor: str) -> tuple[str, ...]:
    """The modules an ingest worker's forkserver imports once for ``extractor``: pdfplumber too
    unless the PDF backend is pdfium alone (``auto`` falls back to pdfplumber, which a worker then
    imports when it first needs it)."""
    return COMMON_PRELOAD if extractor == "pdfium" else (*COMMON_PRELOAD, "pdfplumber")


def warm_workers(extractor: str) -> bool:
    """Start the ingest workers' forkserver now (see :func:`~citeline.ingest.isolate.start_forkserver`)."""
    return start_forkserver(worker_preload(extractor))
