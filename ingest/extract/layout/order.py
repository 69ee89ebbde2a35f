"""Stage 4, blocks -> order: the page's lines in reading order, with paragraph starts marked.

Body blocks come in the order the blocks stage found (sections top to bottom, columns left to right
within each; a label set beside a paragraph after that paragraph); then the footnotes of every
column, so a sentence running from the foot of one column to the head of the next reads through;
then text at another rotation; then margin line numbers; then the page's foot.
A paragraph starts where the line pitch opens up, after an indented or short sentence-final line, at
a heading (a larger font, or a short capitalised line without final punctuation), and at every block
that is read out of its place (a footnote group, a table, rotated text).
"""

from __future__ import annotations

import statistics
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from citeline.ingest.extract.layout.blocks import Block
from citeline.ingest.extract.layout.lines import FULL_STOP, SENTENCE_END, LineKind, TextLine
from citeline.ingest.extract.layout_settings import LayoutSettings

#: Kinds read after the page body, in this order.
_DEFERRED: tuple[LineKind, ...] = ("footnote", "rotated", "margin", "line_number")


@dataclass(frozen=True, slots=True)
class LayoutLine:
    """A line of the page in reading order, as the raw stream will hold it."""

    text: str
    xs: array[float]  # two per code point: left, right
    top: float
    bottom: float
    paragraph_before: bool
    kind: LineKind = "body"


def order(found: Sequence[Block], settings: LayoutSettings) -> list[LayoutLine]:
    """The lines of ``found`` blocks in reading order, paragraph starts marked."""
    main = [b for b in found if b.kind not in _DEFERRED and b.kind != "foot"]
    feet = [b for b in found if b.kind == "foot"]
    sequence = main + [b for kind in _DEFERRED for b in found if b.kind == kind] + feet
    lines: list[TextLine] = []
    groups: list[int] = []
    forced: list[bool] = []
    deferred_group = 10_000
    for b in sequence:
        g = b.group
        if b.kind in _DEFERRED or b.kind == "foot":
            deferred_group += 1
            g = deferred_group
        for k, ln in enumerate(b.lines):
            lines.append(ln)
            groups.append(g)
            forced.append(k == 0 and (b.kind != "body" or (len(lines) > 1 and lines[-2].kind != "body")))
    starts = _paragraph_starts(lines, groups, settings)
    return [
        LayoutLine(ln.text, ln.xs, ln.top, ln.bottom, k > 0 and (starts[k] or forced[k]), ln.kind)
        for k, ln in enumerate(lines)
    ]


def _paragraph_starts(lines: list[TextLine], groups: list[int], settings: LayoutSettings) -> list[bool]:
    """Which lines start a paragraph: a vertical gap well above the usual line pitch, an indented line
    after a sentence end, the start and the end of a heading (a larger font, or a short capitalised
    line without final punctuation before a capitalised line); across columns, a short line ending a
    sentence."""
    n = len(lines)
    out = [False] * n
    if n < 2:
        return out
    pitches = [lines[k + 1].top - lines[k].top for k in range(n - 1) if groups[k] == groups[k + 1]]
    pitches = [p for p in pitches if p > 0]
    median_pitch = statistics.median(pitches) if pitches else 0.0
    left: dict[int, float] = {}
    right: dict[int, float] = {}
    for ln, g in zip(lines, groups, strict=True):
        left[g] = min(left.get(g, ln.x0), ln.x0)
        right[g] = max(right.get(g, ln.x1), ln.x1)
    sizes = [ln.size for ln in lines if ln.size > 0]
    body = statistics.median(sizes) if sizes else 0.0
    big = [body > 0 and ln.size > settings.heading_size * body for ln in lines]
    for k in range(1, n):
        prev, cur = lines[k - 1], lines[k]
        pg, cg = groups[k - 1], groups[k]
        height = max(prev.bottom - prev.top, cur.bottom - cur.top, 1.0)
        ends = prev.text[-1:] in SENTENCE_END
        indented = ends and 0.8 * height < cur.x0 - left[cg] < 8 * height and prev.x0 - left[pg] < 0.5 * height
        if cg == pg:
            pitch = cur.top - prev.top
            gap = median_pitch > 0 and pitch > settings.paragraph_pitch * median_pitch and pitch > 1.5 * height
            para = (
                gap
                or indented
                or big[k] != big[k - 1]
                or _short_heading(prev.text, cur.text, prev.x1 - prev.x0, right[pg] - left[pg], settings)
                or (
                    prev.text[-1:] in FULL_STOP  # not ":", which a title continues past
                    and k + 1 < n
                    and groups[k + 1] == cg
                    and _short_heading(cur.text, lines[k + 1].text, cur.x1 - cur.x0, right[cg] - left[cg], settings)
                )
            )
        elif 0 <= cur.top - prev.bottom <= 0.8 * height and abs(cur.x0 - prev.x0) <= 2:
            para = False  # the next flow continues right below (the last line of a full-width block)
        else:
            short = ends and prev.x1 < right[pg] - settings.short_line * (right[pg] - left[pg])
            wide, narrow = right[cg] - left[cg], right[pg] - left[pg]
            # a move between a full-width block and a column starts a new paragraph; column to column
            # does not (a sentence often runs from the foot of one column to the head of the next)
            para = short or indented or wide > 1.5 * narrow or narrow > 1.5 * wide
        out[k] = para
    return out


def _short_heading(text: str, following: str, width: float, column: float, settings: LayoutSettings) -> bool:
    """A short capitalised line without final punctuation, followed by a capitalised line:
    "2 Methods", "3.1 Overview" (a heading in the body font)."""
    first = text.lstrip()[:1]
    return (
        width < settings.heading_width * column
        and text[-1:] not in SENTENCE_END
        and text[-1:] not in ",-(–"
        and len(text.split()) <= 12
        and (first.isupper() or first.isdigit())
        and following.lstrip()[:1].isupper()
    )
