"""A picture of the layout engine's decisions on one page (``citeline extract --debug-layout``), as
pdfplumber's visual debugging draws its table finder: the page rendered by pypdfium2, and over it,
each in its own colour, the glyph boxes, the lines in reading order, the columns and sections the
column search found, the gutters it split them at, the blocks and the furniture, with a legend.

::

    from citeline.present.layout import debug_layout
    picture = debug_layout("paper.pdf", page=1, layout=LayoutSettings(min_gutter=8))
    picture.image.save("layout.png")
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from citeline.ingest.extract.layout import DEFAULT_SETTINGS, LayoutSettings, LayoutTrace, layout_page, tracing
from citeline.ingest.extract.layout.order import LayoutLine
from citeline.kinds import DEFAULT_EXTRACTOR, Extractor

#: The colours (RGBA). Fills are translucent so the page shows through; outlines are opaque.
GUTTER = (214, 39, 40, 96)  # red fill
COLUMN = (44, 160, 44, 255)  # green outline
BLOCK = (255, 127, 14, 255)  # orange outline
LINE = (31, 119, 180, 255)  # blue outline
GLYPH = (150, 150, 150, 255)  # grey outline
FURNITURE = (148, 103, 189, 110)  # purple fill
LEGEND = (
    ("gutter", GUTTER),
    ("column / section", COLUMN),
    ("block", BLOCK),
    ("line", LINE),
    ("glyph", GLYPH),
    ("furniture", FURNITURE),
)
#: Line kinds drawn as furniture: what the extractor reports as furniture (margin line numbers,
#: margin stamps) and the page foot, which the cleaner strips where it repeats.
FURNITURE_KINDS = ("line_number", "margin", "foot")
#: Default pixels per point (2 = 144 dpi: glyph boxes stay visible).
DEBUG_SCALE = 2.0


@dataclass
class LayoutPicture:
    """The picture and what it shows."""

    image: Any  # a PIL.Image.Image, RGB, the page's size times ``scale``
    page: int
    width: float  # the page, in points
    height: float
    scale: float
    glyphs: int
    lines: list[LayoutLine]
    trace: LayoutTrace
    #: where the legend is drawn, in pixels: (left, top, right, bottom)
    legend: tuple[int, int, int, int]

    def summary(self) -> str:
        furniture = sum(1 for ln in self.lines if ln.kind in FURNITURE_KINDS)
        counts = [
            (self.glyphs, "glyph"),
            (len(self.lines), "line"),
            (len(self.trace.columns), "column or section"),
            (len(self.trace.gutters), "gutter"),
            (len(self.trace.blocks), "block"),
            (furniture, "furniture line"),
        ]
        said = ", ".join(f"{n:,} {_plural(n, what)}" for n, what in counts)
        return f"page {self.page} ({self.width:g} x {self.height:g} pt at scale {self.scale:g}): {said}"


def _plural(n: int, what: str) -> str:
    if n == 1:
        return what
    return "columns or sections" if what == "column or section" else f"{what}s"


def debug_layout(
    path: str | os.PathLike[str],
    page: int = 1,
    *,
    extractor: Extractor = DEFAULT_EXTRACTOR,
    password: str | None = None,
    layout: LayoutSettings = DEFAULT_SETTINGS,
    scale: float = DEBUG_SCALE,
) -> LayoutPicture:
    """Lay out page ``page`` of the PDF at ``path`` with ``layout`` and draw what was decided.
    Raises :class:`~citeline.ingest.errors.ExtractionError` (one line) for a file that is not a
    readable PDF or has no such page."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    from citeline.ingest.errors import UnsupportedFormat
    from citeline.ingest.extract.files import PDF, read_source
    from citeline.ingest.extract.pdf import _pdfium_error, page_glyphs

    source = read_source(path)
    if source.format != PDF:
        raise UnsupportedFormat(source.path, f"--debug-layout draws PDF pages; this is {source.format}")
    glyphs = page_glyphs(source, page, extractor=extractor, password=password)
    with tracing() as trace:
        lines = layout_page(glyphs, layout)
    scale = min(scale, *_caps(glyphs.width, glyphs.height))
    try:
        doc = pdfium.PdfDocument(source.data, password=password)
    except pdfium.PdfiumError as exc:
        raise _pdfium_error(source.path, exc) from None
    try:
        pdf_page = doc[page - 1]
        try:
            base = pdf_page.render(scale=scale).to_pil().convert("RGBA")
        finally:
            pdf_page.close()
    finally:
        doc.close()
    # the picture is the page's size (pdfium rounds a little differently from ours)
    size = (max(1, round(glyphs.width * scale)), max(1, round(glyphs.height * scale)))
    if base.size != size:
        base = base.resize(size)
    overlay = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)

    def box(x0: float, top: float, x1: float, bottom: float, pad: float = 0.0) -> tuple[float, float, float, float]:
        return (x0 * scale - pad, top * scale - pad, max(x0, x1) * scale + pad, max(top, bottom) * scale + pad)

    width = max(1, round(scale))
    for c in trace.columns:
        draw.rectangle(box(c.x0, c.top, c.x1, c.bottom, pad=2 * scale), outline=COLUMN, width=2 * width)
    for b in trace.blocks:
        if b.lines:
            x0, x1 = min(ln.x0 for ln in b.lines), max(ln.x1 for ln in b.lines)
            top, bottom = min(ln.top for ln in b.lines), max(ln.bottom for ln in b.lines)
            draw.rectangle(box(x0, top, x1, bottom, pad=1 * scale), outline=BLOCK, width=width)
    for g in trace.gutters:  # over the outlines that reach into it: the gutter is what stays empty
        draw.rectangle(box(g.x0, g.top, g.x1, g.bottom), fill=GUTTER)
    for ln in lines:
        x0, x1 = (min(ln.xs), max(ln.xs)) if len(ln.xs) else (0.0, 0.0)
        if ln.kind in FURNITURE_KINDS:
            draw.rectangle(box(x0, ln.top, x1, ln.bottom), fill=FURNITURE)
        draw.rectangle(box(x0, ln.top, x1, ln.bottom), outline=LINE, width=1)
    for gl in glyphs.glyphs:
        if gl.text.strip():
            draw.rectangle(box(gl.x0, gl.top, gl.x1, gl.bottom), outline=GLYPH, width=1)
    legend = _legend(draw, size, scale)
    image = Image.alpha_composite(base, overlay).convert("RGB")
    return LayoutPicture(image, page, glyphs.width, glyphs.height, scale, len(glyphs.glyphs), lines, trace, legend)


def _caps(width: float, height: float) -> tuple[float, float]:
    """The largest scales that keep the picture within the renderer's caps (a 14,400-pt page)."""
    from citeline.present.pages import MAX_PIXELS, MAX_SIDE_PX

    return MAX_SIDE_PX / max(width, height, 1.0), (MAX_PIXELS / max(width * height, 1.0)) ** 0.5


def _legend(draw: Any, size: tuple[int, int], scale: float) -> tuple[int, int, int, int]:
    """The legend in the page's bottom-right corner, on white: a swatch and a name a row."""
    from citeline.present.pages import _font

    font = _font(max(8, round(5 * scale)))
    row = max(10, round(7 * scale))
    swatch = row - 4
    names_width = max(round(draw.textlength(name, font=font)) for name, _ in LEGEND)
    w, h = swatch + 6 + names_width + 12, row * len(LEGEND) + 8
    right, bottom = size[0] - 4, size[1] - 4
    left, top = max(0, right - w), max(0, bottom - h)
    draw.rectangle((left, top, right, bottom), fill=(255, 255, 255, 235), outline=(0, 0, 0, 255))
    for k, (name, colour) in enumerate(LEGEND):
        y = top + 4 + k * row
        if colour[3] < 255:  # a fill
            draw.rectangle((left + 4, y, left + 4 + swatch, y + swatch), fill=(*colour[:3], 200))
        else:
            draw.rectangle((left + 4, y, left + 4 + swatch, y + swatch), outline=colour, width=2)
        draw.text((left + 10 + swatch, y - 1), name, fill=(0, 0, 0, 255), font=font)
    return left, top, right, bottom
