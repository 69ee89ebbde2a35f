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
little text near a page edge, else as a block of its own. Diagonal text (a stamp across the page,
:data:`~citeline.ingest.extract.glyphs.DIAGONAL_DEGREES` or more from every quarter turn) is kept
out of the lines it crosses the same way, its glyphs read along their own direction.

Vertical writing (Japanese or Chinese *tategaki*: upright characters stacked in columns read top to
bottom, columns right to left, tiers top to bottom) is found from the glyphs themselves: CJK
characters drawn one below the other in content order. A page where most characters stand so is
laid out in the frame where its columns are lines (a quarter turn: the page's top edge becomes the
left edge), through the same four stages, so columns become lines, tiers become columns, and a
paragraph's one-character indent is an indent; the lines are then put back on the page. As for
rotated text, every code point of a vertical line gets the line's whole box.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import statistics
from array import array
from operator import itemgetter

from citeline.ingest.extract.glyphs import Glyph, PageGlyphs, is_diagonal

# the stages by module (each module is named for its stage, as is the function that runs it)
from citeline.ingest.extract.layout import blocks, lines, order, words
from citeline.ingest.extract.layout.blocks import Block
from citeline.ingest.extract.layout.lines import LineKind, TextLine
from citeline.ingest.extract.layout.order import LayoutLine
from citeline.ingest.extract.layout.trace import LayoutTrace, note_blocks, paused, tracing
from citeline.ingest.extract.layout_settings import BOUNDS, DEFAULT_SETTINGS, LAYOUT_VERSION, LayoutSettings
from citeline.text.scripts import CJK_CHARS, is_cjk

__all__ = [
    "BOUNDS",
    "DEFAULT_SETTINGS",
    "LAYOUT_VERSION",
    "LayoutLine",
    "LayoutSettings",
    "LayoutTrace",
    "blocks",
    "layout_page",
    "lines",
    "order",
    "tracing",
    "words",
]

#: Rotated text is margin furniture when it holds at most this share of the page's glyphs and lies
#: within this share of the page's width (or height) from an edge.
MARGIN_SHARE = 0.1
MARGIN_BAND = 0.15


#: A glyph's fields by position (a Glyph is a named tuple: an index is cheaper than a name)
_TEXT, _X0, _X1, _TOP, _BOTTOM, _ROTATION = (
    itemgetter(Glyph._fields.index(f)) for f in ("text", "x0", "x1", "top", "bottom", "rotation")
)


#: How far (points) a glyph's centre may stand outside the page's CropBox and still be on the page.
CROP_TOLERANCE = 0.5


def outside_crop(glyphs: list[Glyph], width: float, height: float) -> tuple[list[Glyph], list[Glyph]]:
    """``glyphs`` split into those on the page as a viewer shows it (the CropBox, ``0..width`` by
    ``0..height``) and those outside it (a printer's note above the visible area), by each glyph's
    centre; a glyph left or right of the page on the baseline of a line on the page is that line's
    (a line running on past the page's edge)."""
    lo_x, lo_y, hi_x, hi_y = -CROP_TOLERANCE, -CROP_TOLERANCE, width + CROP_TOLERANCE, height + CROP_TOLERANCE
    if not glyphs or (
        min(map(_X0, glyphs)) >= lo_x
        and max(map(_X1, glyphs)) <= hi_x
        and min(map(_TOP, glyphs)) >= lo_y
        and max(map(_BOTTOM, glyphs)) <= hi_y
    ):
        return glyphs, []  # every box on the page (counted in C): most pages
    inside: list[Glyph] = []
    outside: list[Glyph] = []
    beside: list[Glyph] = []  # level with the page but left or right of it
    for g in glyphs:
        cx, cy = (g.x0 + g.x1) / 2, (g.top + g.bottom) / 2
        if not lo_y <= cy <= hi_y:
            outside.append(g)
        elif lo_x <= cx <= hi_x:
            inside.append(g)
        else:
            beside.append(g)
    if beside:
        # a line of the page that runs on past its edge (TeX's overfull line, a long URL) stays whole
        baselines = {round(g.baseline) for g in inside if not g.rotation}
        for g in beside:
            (inside if not g.rotation and round(g.baseline) in baselines else outside).append(g)
    return inside, outside


def layout_page(page: PageGlyphs, settings: LayoutSettings = DEFAULT_SETTINGS) -> list[LayoutLine]:
    """The lines of one page in reading order; text outside the page's CropBox is laid out on its
    own and read last, as lines of kind ``outside_crop`` (furniture: never in the body)."""
    inside, outside = outside_crop(page.glyphs, page.width, page.height)
    if not outside:
        return _layout_page(page, settings)
    body = _layout_page(PageGlyphs(page.number, page.width, page.height, inside, page.rules), settings)
    # laid out on a page as large as the text's own extent, so nothing of it is "outside" again
    x1 = max(page.width, max(g.x1 for g in outside))
    cut = _layout_page(PageGlyphs(page.number, x1, page.height, outside, ()), settings)
    return body + [
        dataclasses.replace(ln, kind="outside_crop", paragraph_before=ln.paragraph_before or k == 0)
        for k, ln in enumerate(cut)
    ]


def _layout_page(page: PageGlyphs, settings: LayoutSettings) -> list[LayoutLine]:
    glyphs = page.glyphs
    if not glyphs:
        return []
    if any(map(_ROTATION, glyphs)):  # counted in C: most pages have no turned text
        upright = [g for g in glyphs if not g.rotation]
        turned: dict[int, list[Glyph]] = {}
        for g in glyphs:
            if g.rotation:
                turned.setdefault(g.rotation, []).append(g)
    else:
        upright, turned = list(glyphs), {}
    vertical: list[Glyph] = []
    if upright:
        upright, vertical = split_vertical(words.seat_accents(upright))
    found = []
    if upright:
        pieces = lines.pieces(words.words(upright, settings), settings)
        found = blocks.blocks(pieces, page.rules, page.width, settings, height=page.height)
    for rotation, group in sorted(turned.items()):
        if is_diagonal(rotation):
            found.append(_diagonal_block(rotation, group, page, len(glyphs), len(found)))
        else:
            found.append(_rotated_block(rotation, group, page, len(glyphs), len(found), settings))
    note_blocks(found)
    with paused():  # laid out in a quarter-turned frame
        columns = _vertical_lines(vertical, page, settings) if vertical else []
    if not columns:
        return order.order(found, settings)
    # horizontal text above the vertical body (a running head) is read before it, the rest after
    body_top = min(ln.top for ln in columns)
    rest = order.order(found, settings)
    above = [ln for ln in rest if ln.bottom <= body_top]
    below = [ln for ln in rest if ln.bottom > body_top]
    out: list[LayoutLine] = []
    for part in (above, columns, below):
        out += _starts_paragraph(part) if out else part  # (the page's first line starts no paragraph)
    return out


#: A page is set vertically when at least this share of its upright characters (and this many)
#: stand in vertical runs: CJK characters each drawn right below the one before, at the same x.
VERTICAL_SHARE = 0.5
VERTICAL_MIN = 8
_CJK = re.compile(f"[{CJK_CHARS}]")


def _stacked(a: Glyph, b: Glyph) -> bool:
    """``b`` is drawn right below ``a`` in a column of upright CJK characters."""
    if not (is_cjk(a.text[0]) and is_cjk(b.text[0])):
        return False
    em = max(a.size, a.bottom - a.top, 0.1)
    return (
        abs(b.x0 - a.x0) <= 0.25 * em and abs(b.x1 - a.x1) <= 0.25 * em and -0.25 * em <= b.top - a.bottom <= 1.5 * em
    )


def _beside(a: Glyph, b: Glyph) -> bool:
    """``b`` is drawn right after ``a`` on the same line of horizontal CJK text."""
    if not (is_cjk(a.text[0]) and is_cjk(b.text[0])):
        return False
    em = max(a.size, a.bottom - a.top, 0.1)
    return abs(b.top - a.top) <= 0.25 * em and -0.25 * em <= b.x0 - a.x1 <= 1.5 * em


def split_vertical(glyphs: list[Glyph]) -> tuple[list[Glyph], list[Glyph]]:
    """``(horizontal, vertical)`` glyphs of a page, in content order. Vertical ones are only split
    off when the page is mostly vertical writing; a space glyph goes with the next glyph drawn."""
    # a stacked glyph is a CJK one that is not a space: too few of those, counted in C, and the
    # page cannot be vertical (most pages; the glyph-by-glyph test below costs a tenth of a layout);
    # a page without a CJK character at all is told first, its text joined in C
    if not _CJK.search("".join(map(_TEXT, glyphs))):
        return glyphs, []
    firsts = "".join([g.text[:1] for g in glyphs])
    cjk = len(_CJK.findall(firsts))
    if cjk < VERTICAL_MIN or cjk < VERTICAL_SHARE * len("".join(firsts.split())):
        return glyphs, []
    marks = [False] * len(glyphs)
    prev = -1
    for i, g in enumerate(glyphs):
        if not g.text or g.text.isspace():
            continue
        if prev >= 0 and _stacked(glyphs[prev], g):
            marks[prev] = marks[i] = True
        prev = i
    solid = [i for i, g in enumerate(glyphs) if g.text and not g.text.isspace()]
    stacked = sum(1 for i in solid if marks[i])
    if stacked < VERTICAL_MIN or stacked < VERTICAL_SHARE * len(solid):
        return glyphs, []
    # on a vertical page, a CJK character standing alone (a one-character column: a title, a mark)
    # is vertical too; one set side by side with another CJK character is horizontal (a heading)
    for k, i in enumerate(solid):
        if marks[i] or not is_cjk(glyphs[i].text[0]):
            continue
        before = k > 0 and _beside(glyphs[solid[k - 1]], glyphs[i])
        after = k + 1 < len(solid) and _beside(glyphs[i], glyphs[solid[k + 1]])
        marks[i] = not (before or after)
    following = False
    for i in range(len(glyphs) - 1, -1, -1):
        g = glyphs[i]
        if not g.text or g.text.isspace():
            marks[i] = following
        else:
            following = marks[i]
    horizontal = [g for g, m in zip(glyphs, marks, strict=True) if not m]
    vertical = [g for g, m in zip(glyphs, marks, strict=True) if m]
    return horizontal, vertical


def _vertical_lines(glyphs: list[Glyph], page: PageGlyphs, settings: LayoutSettings) -> list[LayoutLine]:
    """Vertical writing laid out in its quarter-turned frame (columns as lines, read top to bottom,
    right to left; tiers as columns), in reading order, back in page space."""
    w = page.width
    local = [
        Glyph(g.text, g.top, g.bottom, w - g.x1, w - g.x0, w - g.x0, g.size, g.font, 0, g.space_before) for g in glyphs
    ]
    found = lines.pieces(words.words(local, settings), settings)
    if not found:
        return []
    # the frame's width is where the text ends (plus the margin it starts at), not the page's height:
    # tiers that stop short of the page foot must not make the empty foot the widest gutter
    extent = max(p.x1 for p in found) + min(p.x0 for p in found)
    laid = order.order(blocks.blocks(found, (), extent, settings), settings)
    out = []
    for ln in laid:
        x0, x1 = w - ln.bottom, w - ln.top
        top, bottom = min(ln.xs[0::2]), max(ln.xs[1::2])
        out.append(LayoutLine(ln.text, array("f", [x0, x1] * len(ln.text)), top, bottom, ln.paragraph_before, ln.kind))
    return out


def _starts_paragraph(laid: list[LayoutLine]) -> list[LayoutLine]:
    """``laid`` with its first line starting a paragraph (a part of the page read on its own)."""
    if laid and not laid[0].paragraph_before:
        first = laid[0]
        laid = [LayoutLine(first.text, first.xs, first.top, first.bottom, True, first.kind), *laid[1:]]
    return laid


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


#: Diagonal glyphs whose centres lie farther apart than this many font sizes across the reading
#: direction stand on different lines; along it, a step this many times the line's usual step (with
#: no space in between) is a word space all the same.
DIAGONAL_LINE_GAP = 0.6
DIAGONAL_SPACE_STEP = 1.8


def _diagonal_block(rotation: int, glyphs: list[Glyph], page: PageGlyphs, total: int, group: int) -> Block:
    """Diagonal text (a stamp across the page; ``rotation`` is its angle in degrees): its glyphs
    apart from the lines they cross, read along their own direction, line by line down it. Every
    code point of a line gets the line's whole box, as for quarter-turned text."""
    angle = math.radians(rotation)
    along, across = (math.cos(angle), -math.sin(angle)), (math.sin(angle), math.cos(angle))  # display y is down
    placed = []
    for g in glyphs:
        cx, cy = (g.x0 + g.x1) / 2, (g.top + g.bottom) / 2
        placed.append((cx * across[0] + cy * across[1], cx * along[0] + cy * along[1], g))
    placed.sort(key=lambda p: p[0])
    rows: list[list[tuple[float, float, Glyph]]] = []
    for item in placed:
        if rows and item[0] - rows[-1][-1][0] <= DIAGONAL_LINE_GAP * max(item[2].size, 1.0):
            rows[-1].append(item)
        else:
            rows.append([item])
    laid = []
    for row in rows:
        row.sort(key=lambda p: p[1])
        steps = [b[1] - a[1] for a, b in itertools.pairwise(row)]
        usual = statistics.median(steps) if steps else 0.0
        text = []
        for k, (_, u, g) in enumerate(row):
            if k and (g.space_before or (usual > 0 and u - row[k - 1][1] > DIAGONAL_SPACE_STEP * usual)):
                text.append(" ")
            text.append(g.text)
        line = "".join(text)
        x0, x1 = min(g.x0 for _, _, g in row), max(g.x1 for _, _, g in row)
        top, bottom = min(g.top for _, _, g in row), max(g.bottom for _, _, g in row)
        size = statistics.median(g.size for _, _, g in row)
        laid.append(TextLine(line, array("f", [x0, x1] * len(line)), x0, x1, top, bottom, bottom, size, "rotated"))
    x0, x1 = min(ln.x0 for ln in laid), max(ln.x1 for ln in laid)
    top, bottom = min(ln.top for ln in laid), max(ln.bottom for ln in laid)
    near_edge = (
        x1 <= MARGIN_BAND * page.width
        or x0 >= (1 - MARGIN_BAND) * page.width
        or bottom <= MARGIN_BAND * page.height
        or top >= (1 - MARGIN_BAND) * page.height
    )
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
