"""What a PDF backend hands the layout engine: the glyphs of one page, typed, in content order.

Both backends (pdfplumber, pdfium) produce the same :class:`PageGlyphs`, so the layout engine sees
equivalent geometry whichever parser read the page. Coordinates are PDF points in display space:
origin at the top-left of the page as shown (the page's ``/Rotate`` applied), ``y`` growing down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

#: What a glyph without a Unicode mapping becomes: one code point for one glyph (pdfminer writes the
#: seven characters ``(cid:12)``), so offsets, boxes and prompts keep one character per glyph.
UNMAPPED = "\ufffd"
#: The Latin ligature code points and the letters a parser may spell them out as instead.
LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}


#: Accents a font may draw as glyphs of their own over a letter (TeX's ``\"a`` in a font without
#: "ä", math's ``\tilde X``, ``\hat P``): diaeresis, acute, grave, circumflex (the modifier letter and
#: ASCII's), tilde, macron, breve, dot, ring, cedilla, ogonek, caron, double acute.
SPACING_ACCENTS = frozenset("¨´`ˆ^˜¯˘˙˚¸˛ˇ˝")


class Glyph(NamedTuple):
    """One drawn glyph.

    ``text`` is what the parser decoded (usually one code point; a ligature a parser splits up stays
    one glyph of several). ``x0``/``x1``/``top``/``bottom`` is its box. ``baseline`` is where its
    line sits: the ``y`` of the glyph origin for upright text, the ``x`` for text rotated a quarter
    turn. ``size`` is the font size in points (0 when the parser gives none), ``font`` the font name.
    ``rotation`` is the reading direction in degrees, counter-clockwise as seen on the page: 0 for
    ordinary text, 90 for text read bottom to top (arXiv's margin stamp), 180, 270; other angles are
    rounded to the nearest quarter turn. ``space_before`` says the parser saw a space (drawn, or
    inserted by the parser) between this glyph and the previous one in content order.
    """

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    baseline: float
    size: float
    font: str
    rotation: int
    space_before: bool


class Rule(NamedTuple):
    """A drawn ruling line (or a thin filled rectangle): what table cells are bounded by."""

    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def vertical(self) -> bool:
        return (self.bottom - self.top) > (self.x1 - self.x0)


@dataclass(slots=True)
class PageGlyphs:
    """The glyphs of one page in content order, and its ruling lines."""

    number: int
    width: float
    height: float
    glyphs: list[Glyph] = field(default_factory=list)
    rules: Sequence[Rule] = ()
    #: how many of ``glyphs`` have no Unicode mapping (U+FFFD), as the backend counted them
    unmapped: int = 0
    #: a page read by OCR: its lines in reading order (the layout engine is not run) and how
    #: (``citeline.ingest.extract.ocr.OcrLine`` and ``OcrInfo``)
    ocr_lines: list[Any] | None = None
    ocr: Any = None

    def __repr__(self) -> str:
        return f"<PageGlyphs:{self.number} glyphs={len(self.glyphs)} rules={len(self.rules)}>"


def quarter_turn(degrees: float) -> int:
    """An angle rounded to 0, 90, 180 or 270."""
    return round(degrees / 90.0) % 4 * 90


#: Text turned at least this many degrees away from every quarter turn is *diagonal*: a stamp or
#: watermark set across the page ("DRAFT", "DO NOT USE"), whose letters stand on baselines of their
#: own and would otherwise be read into the body lines they cross.
DIAGONAL_DEGREES = 15


def turn(degrees: float) -> int:
    """A glyph's ``rotation``: ``degrees`` (counterclockwise, the reading direction as displayed)
    rounded to a quarter turn (0, 90, 180, 270), or, for diagonal text
    (:data:`DIAGONAL_DEGREES`), the angle itself in whole degrees in 1..359 (never a multiple of 90)."""
    quarter = quarter_turn(degrees)
    if abs((degrees - quarter + 180.0) % 360.0 - 180.0) < DIAGONAL_DEGREES:
        return quarter
    return round(degrees) % 360


def is_diagonal(rotation: int) -> bool:
    return rotation % 90 != 0
