"""The layout engine: the glyphs of one page -> its lines in reading order.

Shared by the pdfplumber and pdfium backends (and OCR), so the same glyphs give the same raw stream
whichever parser read them. Four named stages, each a module with its own tests:

1. :mod:`~citeline.ingest.extract.layout.words`: glyphs -> words, by adjacency in content order
   (never two text lines merged into one word);
2. :mod:`~citeline.ingest.extract.layout.lines`: words -> pieces (adjacent words of one baseline) and,
   inside a column, pieces -> lines;
3. :mod:`~citeline.ingest.extract.layout.blocks`: margin line numbers, ruled tables, columns and
   sections for any number of columns, footnotes;
4. :mod:`~citeline.ingest.extract.layout.order`: blocks in reading order, paragraph starts marked.

Text at another rotation (a stamp in the margin, a table set sideways) goes through the same stages
in its own upright frame and is read after the page body: as ``margin`` furniture when it is a
little text near a page edge, else as a block of its own.
"""

from __future__ import annotations

from array import array

from citeline.ingest.extract.glyphs import Glyph, PageGlyphs

# the stages by module (each module is named for its stage, as is the function that runs it)
from citeline.ingest.extract.layout import blocks, lines, order, words
from citeline.ingest.extract.layout.blocks import Block
from citeline.ingest.extract.layout.lines import LineKind, TextLine
from citeline.ingest.extract.layout.order import LayoutLine
from citeline.ingest.extract.layout.settings import DEFAULT_SETTINGS, LAYOUT_VERSION, LayoutSettings

__all__ = [
    "DEFAULT_SETTINGS",
    "LAYOUT_VERSION",
    "LayoutLine",
    "LayoutSettings",
    "blocks",
    "layout_page",
    "lines",
    "order",
    "words",
]

#: Rotated text is margin furniture when it holds at most this share of the page's glyphs and lies
#: within this share of the page's width (or height) from an edge.
MARGIN_SHARE = 0.1
MARGIN_BAND = 0.15


def layout_page(page: PageGlyphs, settings: LayoutSettings = DEFAULT_SETTINGS) -> list[LayoutLine]:
    """The lines of one page in reading order."""
    glyphs = page.glyphs
    if not glyphs:
        return []
    if any(g.rotation for g in glyphs):
        upright = [g for g in glyphs if not g.rotation]
        turned: dict[int, list[Glyph]] = {}
        for g in glyphs:
            if g.rotation:
                turned.setdefault(g.rotation, []).append(g)
    else:
        upright, turned = list(glyphs), {}
    found = []
    if upright:
        found = blocks.blocks(lines.pieces(words.words(upright, settings), settings), page.rules, page.width, settings)
    for rotation, group in sorted(turned.items()):
        found.append(_rotated_block(rotation, group, page, len(glyphs), len(found), settings))
    return order.order(found, settings)


def _rotated_block(
    rotation: int, glyphs: list[Glyph], page: PageGlyphs, total: int, group: int, settings: LayoutSettings
) -> Block:
    """Text at another rotation, laid out upright in its own frame and put back on the page."""
    local = [_to_local(g, rotation, page.width, page.height) for g in glyphs]
    rows = lines.group_rows(lines.pieces(words.words(local, settings), settings), settings)
    laid = [_to_page(lines.make_line(r, settings, kind="rotated"), rotation, page.width, page.height) for r in rows]
    x0, x1 = min(ln.x0 for ln in laid), max(ln.x1 for ln in laid)
    top, bottom = min(ln.top for ln in laid), max(ln.bottom for ln in laid)
    if rotation in (90, 270):
        near_edge = x1 <= MARGIN_BAND * page.width or x0 >= (1 - MARGIN_BAND) * page.width
    else:
        near_edge = bottom <= MARGIN_BAND * page.height or top >= (1 - MARGIN_BAND) * page.height
    kind: LineKind = "margin" if near_edge and len(glyphs) <= MARGIN_SHARE * total else "rotated"
    for ln in laid:
        ln.kind = kind
    return Block(laid, kind, group, x0, x1)


def _to_local(g: Glyph, rotation: int, width: float, height: float) -> Glyph:
    """A glyph in the upright frame of its rotation (reading direction along +x, lines down +y)."""
    text, x0, x1, top, bottom, base, size, font, _, space = g
    if rotation == 90:  # read bottom to top; glyph tops point to the left of the page
        return Glyph(text, height - bottom, height - top, x0, x1, base, size, font, 0, space)
    if rotation == 270:  # read top to bottom; glyph tops point to the right
        return Glyph(text, top, bottom, width - x1, width - x0, width - base, size, font, 0, space)
    # upside down
    return Glyph(text, width - x1, width - x0, height - bottom, height - top, height - base, size, font, 0, space)


def _to_page(line: TextLine, rotation: int, width: float, height: float) -> TextLine:
    """A line laid out in a rotated frame, back in page space. The raw stream's geometry is
    horizontal, so every code point of a quarter-turned line gets the line's whole box."""
    if rotation == 180:
        xs = array("f")
        for k in range(0, len(line.xs), 2):
            xs.append(width - line.xs[k + 1])
            xs.append(width - line.xs[k])
        x0, x1, top, bottom = width - line.x1, width - line.x0, height - line.bottom, height - line.top
    else:
        if rotation == 90:
            x0, x1, top, bottom = line.top, line.bottom, height - line.x1, height - line.x0
        else:
            x0, x1, top, bottom = width - line.bottom, width - line.top, line.x0, line.x1
        xs = array("f", [x0, x1] * len(line.text))
    return TextLine(line.text, xs, x0, x1, top, bottom, line.baseline, line.size, line.kind, line.pieces)
