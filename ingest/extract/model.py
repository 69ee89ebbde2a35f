"""What extraction produces: the raw source stream of one document version, tied to geometry.

Conventions: offsets are code points into :attr:`Extraction.raw`, half-open; pages are 1-based;
geometry is in PDF points with the origin at the top-left of the page (pdfplumber's convention).
The raw stream holds page texts in reading order, lines separated by ``"\\n"`` (an empty line where
the layout shows a paragraph gap) and pages separated by ``"\\f"``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from citeline.text.geometry import Geometry, Line
from citeline.text.offsets import Original

#: What furniture is: lines that are not the document's body text. Running headers, footers and page
#: numbers are found by the cleaning transform; margin line numbers and text at another rotation
#: (stamps in the margin) by the layout; formats that mark their own headers and footers say so.
#: Text outside a page's CropBox (printers' notes, crop marks' labels) is furniture of its own kind.
FurnitureKind = Literal["header", "footer", "page_number", "line_number", "margin", "outside_crop"]
HEADER: FurnitureKind = "header"
FOOTER: FurnitureKind = "footer"
PAGE_NUMBER: FurnitureKind = "page_number"
LINE_NUMBER: FurnitureKind = "line_number"
MARGIN: FurnitureKind = "margin"
OUTSIDE_CROP: FurnitureKind = "outside_crop"


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
