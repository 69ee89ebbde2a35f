"""Where text is on a page: boxes, lines with the x edges of every character, and the resolution of
raw spans to highlight rectangles.

Geometry is in PDF points with the origin at the top-left of the page (pdfplumber's convention),
pages are 1-based, offsets are code points into a version's raw stream, half-open.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from citeline.text.offsets import Original


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
