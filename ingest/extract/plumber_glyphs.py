"""pdfplumber's characters as :class:`~citeline.ingest.extract.glyphs.PageGlyphs`.

pdfminer reports each character with its box (a font-size-tall box from the font's descent, in the
page as displayed; moved here to the CropBox's top-left, where a viewer's page starts), its font and
size, and its text matrix, from which come the baseline and the reading direction. A glyph without a
Unicode mapping, which pdfminer spells ``(cid:N)``, becomes one U+FFFD. Ruling lines are the page's line
objects and thin rectangles.
"""

from __future__ import annotations

import math
from typing import Any

from citeline.ingest.extract.glyphs import UNMAPPED, Glyph, PageGlyphs, Rule, turn

#: A rectangle at most this thin (points) is a ruling line.
RULE_THICKNESS = 2.0


def plumber_page(page: Any) -> PageGlyphs:
    """The glyphs and rules of one ``pdfplumber.Page``.

    Read from pdfminer's layout objects themselves (``page.layout``), in the coordinates
    pdfplumber gives them, without ``page.chars``: pdfplumber turns every object into a dict of
    some twenty resolved attributes (colours, colour spaces, the graphic state), which costs more
    than parsing the page; citeline needs five of them."""
    from pdfminer.layout import LTChar, LTContainer, LTLine, LTRect

    height = float(page.height)
    mb_x0, mb_top = page.mediabox[:2]
    # pdfminer's coordinates are the MediaBox's; a viewer shows the CropBox (cut to the MediaBox)
    crop_x0, crop_top, crop_x1, crop_bottom = crop_box(page)
    mb_x0 -= crop_x0
    mb_top -= crop_top
    out: list[Glyph] = []
    rules: list[Rule] = []
    add = out.append
    space = False
    unmapped = 0
    stack = [iter(page.layout._objs)]
    while stack:
        obj = next(stack[-1], None)
        if obj is None:
            stack.pop()
            continue
        if isinstance(obj, LTChar):
            text = obj._text
            if not text or text.isspace():
                space = True
                continue
            if text.startswith("(cid:"):
                text = UNMAPPED
                unmapped += 1
            a, b, c, _, e, f = obj.matrix
            rotation = 0 if b == 0 and c == 0 and a > 0 else turn(math.degrees(math.atan2(b, a)))
            x0, x1 = obj.x0 + mb_x0, obj.x1 + mb_x0
            top, bottom = height - obj.y1 + mb_top, height - obj.y0 + mb_top
            if rotation not in (90, 270):  # upright, upside down or diagonal: the baseline is a y
                size = obj.size
                baseline = height - f + mb_top
            else:
                size = x1 - x0  # pdfminer's size is the box height: the advance, for a turned glyph
                baseline = e + mb_x0
            font = obj.fontname
            if isinstance(font, bytes):  # (rare) a byte-encoded name, decoded as pdfplumber does
                from pdfplumber.page import fix_fontname_bytes

                font = fix_fontname_bytes(font)
            add(Glyph(text, x0, x1, top, bottom, baseline, size, font, rotation, space))
            space = False
        elif isinstance(obj, LTContainer):  # a form or figure: its objects, in place
            stack.append(iter(obj._objs))
        elif isinstance(obj, (LTLine, LTRect)) and min(obj.x1 - obj.x0, obj.y1 - obj.y0) <= RULE_THICKNESS:
            rules.append(Rule(obj.x0 + mb_x0, height - obj.y1 + mb_top, obj.x1 + mb_x0, height - obj.y0 + mb_top))
    return PageGlyphs(page.page_number, float(crop_x1 - crop_x0), float(crop_bottom - crop_top), out, rules, unmapped)


def crop_box(page: Any) -> tuple[float, float, float, float]:
    """The page's CropBox cut to its MediaBox, as pdfplumber reports boxes (``x0, top, x1, bottom``
    from the MediaBox's top-left): what a viewer shows. The MediaBox when the two do not overlap."""
    mb = [float(v) for v in page.mediabox]
    cb = [float(v) for v in page.cropbox]
    box = (max(mb[0], cb[0]), max(mb[1], cb[1]), min(mb[2], cb[2]), min(mb[3], cb[3]))
    if box[2] - box[0] < 1 or box[3] - box[1] < 1:
        return mb[0], mb[1], mb[2], mb[3]
    return box


def fonts_without_unicode(page: Any) -> frozenset[str]:
    """Names of the page's simple fonts that have neither a ToUnicode map nor an encoding: their
    codes mean what the font program's built-in encoding says, which pdfminer does not read."""
    from pdfminer.pdftypes import resolve1

    try:
        fonts = resolve1(page.page_obj.resources.get("Font")) or {}
        out = set()
        for ref in fonts.values():
            spec = resolve1(ref)
            if isinstance(spec, dict) and "ToUnicode" not in spec and "Encoding" not in spec:
                name = resolve1(spec.get("BaseFont"))
                out.add(getattr(name, "name", str(name)))
        return frozenset(out)
    except Exception:  # a damaged resource dictionary: trust pdfminer
        return frozenset()
