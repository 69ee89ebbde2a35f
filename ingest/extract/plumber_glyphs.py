"""pdfplumber's characters as :class:`~citeline.ingest.extract.glyphs.PageGlyphs`.

pdfminer reports each character with its box (a font-size-tall box from the font's descent, in the
page as displayed), its font and size, and its text matrix, from which come the baseline and the
reading direction. A glyph without a Unicode mapping, which pdfminer spells ``(cid:N)``, becomes one
U+FFFD. Ruling lines are the page's line objects and thin rectangles.
"""

from __future__ import annotations

import math
from typing import Any

from citeline.ingest.extract.glyphs import UNMAPPED, Glyph, PageGlyphs, Rule, quarter_turn

#: A rectangle at most this thin (points) is a ruling line.
RULE_THICKNESS = 2.0


def plumber_page(page: Any) -> PageGlyphs:
    """The glyphs and rules of one ``pdfplumber.Page``."""
    height = float(page.height)
    out: list[Glyph] = []
    add = out.append
    space = False
    unmapped = 0
    for ch in page.chars:
        text = ch["text"]
        if not text or text.isspace():
            space = True
            continue
        if text.startswith("(cid:"):
            text = UNMAPPED
            unmapped += 1
        a, b, c, _, e, f = ch["matrix"]
        rotation = 0 if b == 0 and c == 0 and a > 0 else quarter_turn(math.degrees(math.atan2(b, a)))
        x0, x1, top, bottom = ch["x0"], ch["x1"], ch["top"], ch["bottom"]
        if rotation == 0 or rotation == 180:
            size = ch["size"]
            baseline = height - f
        else:
            size = x1 - x0  # pdfminer's size is the box height: the advance, for a turned glyph
            baseline = e
        add(Glyph(text, x0, x1, top, bottom, baseline, size, ch["fontname"], rotation, space))
        space = False
    return PageGlyphs(page.page_number, float(page.width), height, out, _rules(page), unmapped)


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


def _rules(page: Any) -> list[Rule]:
    """Horizontal and vertical line objects and thin rectangles (never a diagonal)."""
    return [
        Rule(o["x0"], o["top"], o["x1"], o["bottom"])
        for objects in (page.lines, page.rects)
        for o in objects
        if min(o["x1"] - o["x0"], o["bottom"] - o["top"]) <= RULE_THICKNESS
    ]
