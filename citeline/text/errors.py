"""Exceptions raised by the text kernel (:mod:`citeline.text`): spans and offset maps that do not fit.

Every message names the thing and the reason in one line, carrying the values (``Span [10, 4) is
reversed``). Both :mod:`citeline.ingest` (whose :class:`~citeline.ingest.errors.IngestError` they
are not: a wrong span is a programming error, not a bad input file) and :mod:`citeline.verify` see
them.
"""

from __future__ import annotations


class TextError(ValueError):
    """Base class of the kernel's errors."""


class SpanError(TextError):
    """A span is reversed, negative or outside the text it indexes."""


class MapError(TextError):
    """An offset map is malformed, or two maps do not fit together."""


class EditError(TextError):
    """Edits overlap, are out of order, or insert text without a source character."""
