"""The closed sets of values the library and the command line share.

Each set is a :data:`typing.Literal` type (so mypy catches a misspelling where a value is written),
the tuple of its members in the order ``--help`` lists them (for run-time checks and the command
line's ``click.Choice``), and its default. The values are plain strings: what is stored and what
the JSON output says is exactly the value.

This module imports nothing of citeline's, so the command line can build its options from it
without loading the packages that use them::

    from citeline.kinds import EXTRACTORS, Extractor

    def backend(name: str) -> Extractor:
        return member(name, EXTRACTORS, "extractor")
"""

from __future__ import annotations

from typing import Literal, TypeVar, get_args

#: The PDF backend (``--extractor``); ``auto`` picks by format: pdfplumber for PDFs.
Extractor = Literal["auto", "pdfplumber", "pdfium"]
EXTRACTORS: tuple[Extractor, ...] = get_args(Extractor)
DEFAULT_EXTRACTOR: Extractor = "auto"

#: Which pages Tesseract reads (``--ocr``): ``auto`` those without a usable text layer (and images),
#: ``force`` every page, ``off`` none.
OcrMode = Literal["auto", "off", "force"]
OCR_MODES: tuple[OcrMode, ...] = get_args(OcrMode)
DEFAULT_OCR_MODE: OcrMode = "auto"

#: What ``verify`` does with a citation that does not pass (``--policy``): ``annotate`` reports it,
#: ``strict`` also fails the run, ``strip`` also drops its sentence from the answer.
Policy = Literal["annotate", "strict", "strip"]
POLICIES: tuple[Policy, ...] = get_args(Policy)
DEFAULT_POLICY: Policy = "annotate"

#: Where ingest workers run (``--executor``): ``local`` worker processes, or a ``dask`` cluster.
Executor = Literal["local", "dask"]
EXECUTORS: tuple[Executor, ...] = get_args(Executor)
DEFAULT_EXECUTOR: Executor = "local"

#: What happened to one file in an ingest run (``ingestion_outcomes.status``, the summary's columns).
OutcomeStatus = Literal["added", "updated", "skipped", "failed"]
OUTCOME_STATUSES: tuple[OutcomeStatus, ...] = get_args(OutcomeStatus)
#: ... of which the store's writer reports these (a file that fails never reaches it).
WriteStatus = Literal["added", "updated", "skipped"]
WRITE_STATUSES: tuple[WriteStatus, ...] = get_args(WriteStatus)

#: The state of an ingest run (``ingestion_runs.status``).
RunStatus = Literal["running", "completed", "interrupted"]
RUN_STATUSES: tuple[RunStatus, ...] = get_args(RunStatus)

K = TypeVar("K", bound=str)


def member(value: str, members: tuple[K, ...], what: str) -> K:
    """``value`` as a member of ``members``, or :class:`ValueError` in one line naming ``what``,
    the members and the value (``extractor must be one of auto, pdfplumber, pdfium, not 'x'``)."""
    for m in members:
        if value == m:
            return m
    raise ValueError(f"{what} must be one of {', '.join(members)}, not {value!r}")
