"""What extraction produces: the raw source stream of one document version, tied to geometry.

Conventions: offsets are code points into :attr:`Extraction.raw`, half-open; pages are 1-based;
geometry is in PDF points with the origin at the top-left of the page (pdfplumber's convention).
The raw stream holds page texts in reading order, lines separated by ``"\\n"`` (an empty line where
the layout shows a paragraph gap) and pages separated by ``"\\f"``.
"""

from __future__ import annotations

import hashlib
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from citeline.ingest.offsets import Original

#: What furniture is: lines that are not the document's body text. Running headers, footers and page
#: numbers are found by the cleaning transform; margin line numbers and text at another rotation
#: (stamps in the margin) by the layout; formats that mark their own headers and footers say so.
FurnitureKind = Literal["header", "footer", "page_number", "line_number", "margin"]
HEADER: FurnitureKind = "header"
FOOTER: FurnitureKind = "footer"
PAGE_NUMBER: FurnitureKind = "page_number"
LINE_NUMBER: FurnitureKind = "line_number"
MARGIN: FurnitureKind = "margin"


@dataclass(frozen=True, slots=True)
class Furniture:
    """A region to remove from the body: ``start``/``end`` span the line text in the text it was found
    in (the raw stream, when an extractor reports it)."""

    kind: FurnitureKind
    start: int
    end: int
    page: int
    text: str


@dataclass(frozen=True, slots=True)
class LineGeometry:
    """Where a raw line sits on its page (optional input of the furniture transform; PDF points,
    origin top-left)."""

    start: int
    top: float
    bottom: float
    page_height: float


@dataclass(frozen=True, slots=True)
class Page:
    number: int
    width: float
    height: float
    raw_start: int
    raw_end: int
    has_text: bool = True
    #: read by OCR: the engine and its version ("tesseract 5.5.4"), its languages, the mean word
    #: confidence (0-100) and the dpi the page was read at; ``None`` for a text-layer page
    ocr_engine: str | None = None
    ocr_languages: str | None = None
    ocr_confidence: float | None = None
    ocr_dpi: float | None = None

    def __repr__(self) -> str:
        return f"<Page:{self.number}>"

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "number": self.number,
            "width": self.width,
            "height": self.height,
            "raw_start": self.raw_start,
            "raw_end": self.raw_end,
            "has_text": self.has_text,
        }
        if self.ocr_engine is not None:
            out["ocr"] = {
                "engine": self.ocr_engine,
                "languages": self.ocr_languages,
                "confidence": self.ocr_confidence,
                "dpi": self.ocr_dpi,
            }
        return out


@dataclass(frozen=True, slots=True)
class Box:
    """A highlight rectangle on one page."""

    page: int
    x0: float
    top: float
    x1: float
    bottom: float

    def as_dict(self) -> dict[str, float | int]:
        return {"page": self.page, "x0": self.x0, "top": self.top, "x1": self.x1, "bottom": self.bottom}


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the raw stream with its geometry.

    ``xs`` packs two float32 per code point of the line (left and right edge), so a 300-page
    document needs a few MB of arrays, not a dict per character.
    """

    page: int
    raw_start: int
    raw_end: int
    top: float
    bottom: float
    xs: array[float]

    def __post_init__(self) -> None:
        if len(self.xs) != 2 * (self.raw_end - self.raw_start):
            raise ValueError(
                f"Line [{self.raw_start}, {self.raw_end}) has {len(self.xs)} x edges, "
                f"expected {2 * (self.raw_end - self.raw_start)}"
            )

    def __reduce__(self) -> tuple[type[Line], tuple[int, int, int, float, float, array[float]]]:
        # a plain constructor call: ten times cheaper to pickle than the slots dataclass default,
        # and lines (a hundred per page) are most of what an ingest worker sends to the writer
        return Line, (self.page, self.raw_start, self.raw_end, self.top, self.bottom, self.xs)

    def box(self, raw_start: int, raw_end: int) -> Box:
        """The rectangle of the characters ``[raw_start, raw_end)`` of this line (clipped to it)."""
        a = max(raw_start, self.raw_start) - self.raw_start
        b = min(raw_end, self.raw_end) - self.raw_start
        return Box(self.page, float(self.xs[2 * a]), self.top, float(self.xs[2 * b - 1]), self.bottom)


@dataclass(frozen=True, slots=True)
class Element:
    """A structural element from unstructured (kind as unstructured names it) and its raw span."""

    kind: str
    raw_start: int
    raw_end: int
    page: int | None = None


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with part of a document that did not stop its extraction."""

    code: str  # e.g. "no_text_layer"
    pages: tuple[int, ...]
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "pages": list(self.pages), "message": self.message}


@dataclass(frozen=True)
class Extraction:
    """One file's raw source stream, pages, lines and geometry, and its hashes."""

    path: str
    raw: str
    pages: tuple[Page, ...]
    lines: tuple[Line, ...]
    content_sha256: str
    extractor: str
    extractor_version: str
    media_type: str
    file_size: int
    elements: tuple[Element, ...] = ()
    furniture: tuple[Furniture, ...] = ()  # furniture the extractor found itself (layout, unstructured)
    problems: tuple[Problem, ...] = ()
    text_sha256: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text_sha256", hashlib.sha256(self.raw.encode("utf-8")).hexdigest())
        starts = [ln.raw_start for ln in self.lines]
        if starts != sorted(starts):
            raise ValueError("Extraction lines are not in raw-stream order")

    def __repr__(self) -> str:
        return f"<Extraction {self.path!r} pages={len(self.pages)} chars={len(self.raw)} by {self.extractor}>"

    @property
    def page_count(self) -> int:
        return len(self.pages)

    def geometry(self) -> Geometry:
        return Geometry(self.lines)

    def line_geometry(self) -> list[LineGeometry]:
        """Per-line positions for the furniture transform."""

        heights = {p.number: p.height for p in self.pages}
        return [LineGeometry(ln.raw_start, ln.top, ln.bottom, heights.get(ln.page, 0.0)) for ln in self.lines]

    def pages_of(self, span: Original) -> list[int]:
        """Numbers of the pages a raw span touches."""
        return pages_of(self.pages, span)


def pages_of(pages: Sequence[Page], span: Original) -> list[int]:
    """Numbers of the pages whose raw span overlaps ``span`` (or holds the empty span's point)."""
    out = []
    for p in pages:
        if span.start == span.end:
            if p.raw_start <= span.start <= p.raw_end:
                return [p.number]
        elif p.raw_start < span.end and span.start < p.raw_end:
            out.append(p.number)
    return out


class Geometry:
    """Resolve raw spans to highlight boxes: one rectangle per line fragment, clipped to the first and
    last non-space character."""

    def __init__(self, lines: Iterable[Line]) -> None:
        self._lines = list(lines)
        self._starts = [ln.raw_start for ln in self._lines]
        self._ends = [ln.raw_end for ln in self._lines]

    def __len__(self) -> int:
        return len(self._lines)

    def _line(self, j: int) -> Line:
        return self._lines[j]

    def lines_on(self, page: int) -> list[Line]:
        return [ln for ln in self._lines if ln.page == page]

    def boxes(self, spans: Original | Sequence[Original], raw: str | None = None, *, raw_start: int = 0) -> list[Box]:
        """Rectangles covering raw ``spans``: one per line, from the first to the last covered
        character of that line (so a quote whose source skips a removed page footer gets no box on
        the footer). With ``raw`` given, spaces at either end of a line's piece are trimmed; ``raw``
        holds the raw stream from offset ``raw_start`` on (a slice around the spans will do)."""
        if isinstance(spans, Original):
            spans = [spans]
        covered: dict[int, tuple[int, int]] = {}  # line index -> (first, end) covered raw offsets
        starts, ends = self._starts, self._ends
        for span in spans:
            j = max(0, bisect_right(starts, span.start) - 1)
            while j < len(starts) and starts[j] < span.end:
                a, b = max(span.start, starts[j]), min(span.end, ends[j])
                if a < b:
                    lo, hi = covered.get(j, (a, b))
                    covered[j] = (min(lo, a), max(hi, b))
                j += 1
        out: list[Box] = []
        for j in sorted(covered):
            a, b = covered[j]
            if raw is not None:
                while a < b and raw[a - raw_start].isspace():
                    a += 1
                while b > a and raw[b - 1 - raw_start].isspace():
                    b -= 1
            if a < b:
                out.append(self._line(j).box(a, b))
        return out
