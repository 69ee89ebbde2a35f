"""Exceptions raised by :mod:`citeline.ingest` (a span or offset map that does not fit raises the
text kernel's :mod:`citeline.text.errors`).

Every message names the thing and the reason in one line, carrying the values
(``Span [10, 4) is reversed``), so the command line can print it as is.
"""

from __future__ import annotations


class IngestError(Exception):
    """Base class of every error raised by the ingest package."""


class ChunkerError(IngestError, ValueError):
    """Chunker settings are inconsistent (for example overlap >= target size)."""


class ExtractionError(IngestError):
    """A file could not be extracted. ``reason`` is a stable code; ``str()`` is one line naming the
    file and the reason."""

    reason = "extraction_failed"

    def __init__(self, path: str, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(f"{path}: {detail}")

    def __reduce__(self) -> tuple[type[ExtractionError], tuple[str, str]]:
        # errors cross process boundaries (worker pools, Dask): rebuild from both fields
        return (type(self), (self.path, self.detail))


class FileMissing(ExtractionError):
    reason = "missing"


class FileUnreadable(ExtractionError):
    reason = "unreadable"


class EmptyFile(ExtractionError):
    reason = "empty"


class UnsupportedFormat(ExtractionError):
    reason = "unsupported_format"


class NotAPdf(UnsupportedFormat):
    reason = "not_a_pdf"


class Encrypted(ExtractionError):
    reason = "encrypted"


class CorruptFile(ExtractionError):
    reason = "corrupt"


class TooLarge(ExtractionError):
    reason = "too_large"


class TimedOut(ExtractionError):
    reason = "timeout"


class ExtractorCrashed(ExtractionError):
    reason = "crashed"


class MissingDependency(ExtractionError):
    reason = "missing_dependency"


class LayoutSettingError(IngestError, ValueError):
    """A layout setting that does not exist, is not a number, or is outside its bounds; the message
    names the setting, the value and the reason in one line (``layout setting min_gutter=-1 is
    outside 1-200``)."""


class PageOutOfRange(ExtractionError):
    """A page number past the document's end (``--page``)."""

    reason = "no_such_page"
