"""Characters with boxes -> lines in reading order. Shared by the pdfplumber and pdfium backends, so
both give the same raw stream for the same glyphs.

1. Whitespace glyphs are dropped (spaces are re-derived from gaps, the same way for every backend)
   and glyphs drawn twice at one spot (fake bold) are kept once.
2. Rows: glyphs sorted by ``top`` and clustered with a chained tolerance (pdfplumber's rule).
3. Fragments: within a row, glyphs sorted by ``x0``; a gap wider than :data:`SPACE_GAP` x font size
   is a space, one wider than :data:`FRAGMENT_GAP` x font size starts a new fragment.
4. Columns: a vertical gutter is looked for in the middle of the page (the x range crossed by the
   fewest glyphs); when both sides hold enough text, fragments crossing it (titles, full-width
   figures) split the page into sections, and each section reads left column, then right column.
   Applied recursively for three columns.
5. Lines: fragments of one row within one column join with a space; a paragraph gap (line pitch
   well above the page's median, or a short line ending a sentence) becomes an empty line.
"""

from __future__ import annotations

import statistics
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from citeline.ingest.clean.whitespace import is_cjk

#: Row clustering tolerance on ``top`` in points (pdfplumber's ``y_tolerance`` default).
ROW_TOLERANCE = 3.0
#: A horizontal gap wider than this share of the font size is a space between words.
SPACE_GAP = 0.15
#: Next to a CJK glyph, a space needs a gap of this share of the font size.
CJK_SPACE_GAP = 0.5
#: A horizontal gap wider than this share of the font size separates fragments (possible columns).
FRAGMENT_GAP = 0.9
#: A gutter must be at least this wide (points) and leave this share of the glyphs on each side.
MIN_GUTTER = 5.0
MIN_SIDE_SHARE = 0.15
#: At most this share of the glyphs may cross the gutter (titles, full-width lines).
MAX_SPANNING_SHARE = 0.4
#: Bins crossed by at most this share of glyphs more than the emptiest bin still count as gutter.
GUTTER_SLACK = 0.03
#: A line pitch above this multiple of the page's median pitch marks a paragraph gap.
PARAGRAPH_PITCH = 1.45
#: A line in a font this much larger than the page's median is a heading.
HEADING_SIZE = 1.15
#: A heading in the body font is shorter than this share of its column.
HEADING_WIDTH = 0.6
#: A line ending a sentence this share of the column width before its right edge ends a paragraph.
SHORT_LINE = 0.1

_SENTENCE_END = frozenset(".!?:;。！？")
_FULL_STOP = frozenset(".!?。！？")


@dataclass(frozen=True, slots=True)
class LayoutLine:
    text: str
    xs: array[float]  # two per code point: left, right
    top: float
    bottom: float
    paragraph_before: bool


@dataclass(slots=True)
class _Frag:
    row: int
    chars: list[int]
    spaces: list[bool]  # a space before chars[k]
    x0: float
    x1: float
    top: float
    bottom: float


def layout_page(
    texts: Sequence[str],
    x0: Sequence[float],
    x1: Sequence[float],
    top: Sequence[float],
    bottom: Sequence[float],
    size: Sequence[float],
    *,
    width: float,
    space_before: Sequence[bool] | None = None,
) -> list[LayoutLine]:
    """Lines of one page in reading order. The sequences hold one entry per glyph, in the order the
    parser read them; ``space_before[i]`` says the parser saw a space between glyphs ``i - 1`` and
    ``i``, which makes a space even where the gap alone is too narrow to."""
    hinted = space_before is not None
    keep = [i for i in range(len(texts)) if texts[i] and not texts[i].isspace() and x1[i] >= x0[i]]
    if not keep:
        return []
    keep.sort(key=top.__getitem__)

    # rows: chained clustering of sorted tops
    rows: list[list[int]] = []
    current: list[int] = [keep[0]]
    prev_top = top[keep[0]]
    for i in keep[1:]:
        t = top[i]
        if t - prev_top > ROW_TOLERANCE:
            rows.append(current)
            current = []
        current.append(i)
        prev_top = t
    rows.append(current)

    frags: list[_Frag] = []
    for row_no, row in enumerate(rows):
        row.sort(key=x0.__getitem__)
        frag: _Frag | None = None
        last = -1
        for i in row:
            if frag is not None:
                xi, xl = x0[i], x1[last]
                gap = xi - xl
                em = size[i] if size[i] > 0 else bottom[i] - top[i]
                glyph = texts[i]
                if glyph == texts[last] and abs(xi - x0[last]) < 0.3 * max(x1[i] - xi, 0.1):
                    continue  # the same glyph drawn twice
                if gap <= FRAGMENT_GAP * em:
                    frag.chars.append(i)
                    if gap > SPACE_GAP * em:
                        # CJK glyphs sit in em boxes whose reported widths vary by parser: only a
                        # wide gap next to one is a space
                        space = gap > CJK_SPACE_GAP * em or not (is_cjk(glyph[0]) or is_cjk(texts[last][-1]))
                    else:
                        space = hinted and last == i - 1 and space_before[i] and gap > 0  # type: ignore[index]
                    frag.spaces.append(space)
                    if x1[i] > frag.x1:
                        frag.x1 = x1[i]
                    if top[i] < frag.top:
                        frag.top = top[i]
                    if bottom[i] > frag.bottom:
                        frag.bottom = bottom[i]
                    last = i
                    continue
                frags.append(frag)
            frag = _Frag(row_no, [i], [False], x0[i], x1[i], top[i], bottom[i])
            last = i
        assert frag is not None
        frags.append(frag)

    groups = _columns(frags, 0.0, max(width, max(f.x1 for f in frags)), 0)
    return _lines(groups, texts, x0, x1, size)


def _columns(frags: list[_Frag], lo: float, hi: float, depth: int) -> list[list[_Frag]]:
    """Split fragments into reading-order groups (columns within sections)."""
    total = sum(len(f.chars) for f in frags)
    if depth > 2 or len(frags) < 6 or hi - lo < 4 * MIN_GUTTER:
        return [frags]
    # glyph coverage per 1 pt bin over the middle of the range
    a, b = int(lo + 0.2 * (hi - lo)), int(hi - 0.2 * (hi - lo))
    if b - a < MIN_GUTTER:
        return [frags]
    diff = [0] * (b - a + 2)
    for f in frags:
        s, e = max(int(f.x0) + 1, a), min(int(f.x1), b + 1)
        if s < e:
            diff[s - a] += len(f.chars)
            diff[e - a] -= len(f.chars)
    coverage = []
    acc = 0
    for k in range(b - a + 1):
        acc += diff[k]
        coverage.append(acc)
    # the gutter: the widest run of bins crossed by (nearly) the fewest glyphs, so a centred page
    # number or a short caption inside the gutter does not split it
    limit = min(coverage) + max(2, GUTTER_SLACK * total)
    if min(coverage) > MAX_SPANNING_SHARE * total:
        return [frags]
    best_start, best_width, run_start = -1, 0, -1
    for k, cov in enumerate([*coverage, limit + 1]):
        if cov <= limit:
            if run_start < 0:
                run_start = k
        elif run_start >= 0:
            if k - run_start > best_width:
                best_start, best_width = run_start, k - run_start
            run_start = -1
    if best_width < MIN_GUTTER:
        return [frags]
    g0 = a + best_start
    g1 = g0 + best_width
    # a fragment belongs to a side unless it crosses the middle of the gutter (lines may start or
    # end a little inside the gutter: hanging punctuation, a quote mark)
    mid = (g0 + g1) / 2
    left = [f for f in frags if f.x1 <= mid]
    right = [f for f in frags if f.x0 >= mid]
    placed = {id(f) for f in left} | {id(f) for f in right}
    spanning = [f for f in frags if id(f) not in placed]
    n_left, n_right = sum(len(f.chars) for f in left), sum(len(f.chars) for f in right)
    if (
        n_left < MIN_SIDE_SHARE * total
        or n_right < MIN_SIDE_SHARE * total
        or len({f.row for f in left}) < 3
        or len({f.row for f in right}) < 3
    ):
        return [frags]

    # sections between spanning fragments, top to bottom
    spanning.sort(key=lambda f: (f.row, f.x0))
    out: list[list[_Frag]] = []
    cut = 0
    pending_left: list[_Frag] = []
    pending_right: list[_Frag] = []
    sides = sorted(left + right, key=lambda f: (f.row, f.x0))
    lefts = {id(f) for f in left}

    def flush() -> None:
        if pending_left:
            out.extend(_columns(list(pending_left), lo, mid, depth + 1))
        if pending_right:
            out.extend(_columns(list(pending_right), mid, hi, depth + 1))
        pending_left.clear()
        pending_right.clear()

    k = 0
    while cut < len(spanning) or k < len(sides):
        if cut < len(spanning) and (k >= len(sides) or spanning[cut].row <= sides[k].row):
            flush()
            block = [spanning[cut]]
            cut += 1
            while cut < len(spanning) and (k >= len(sides) or spanning[cut].row <= sides[k].row):
                block.append(spanning[cut])
                cut += 1
            out.append(block)
        else:
            (pending_left if id(sides[k]) in lefts else pending_right).append(sides[k])
            k += 1
    flush()
    return out


def _lines(
    groups: list[list[_Frag]],
    texts: Sequence[str],
    x0: Sequence[float],
    x1: Sequence[float],
    size: Sequence[float],
) -> list[LayoutLine]:
    # assemble fragments of one row within a group into one line
    assembled: list[tuple[list[_Frag], int]] = []  # (fragments of the line, group index)
    for g, group in enumerate(groups):
        group = sorted(group, key=lambda f: (f.row, f.x0))
        i = 0
        while i < len(group):
            j = i + 1
            while j < len(group) and group[j].row == group[i].row:
                j += 1
            assembled.append((group[i:j], g))
            i = j
    out: list[LayoutLine] = []
    geo: list[tuple[float, float, float, float, int, float]] = []  # x0, x1, top, bottom, group, size
    for fs, g in assembled:
        parts: list[str] = []
        xs = array("f")
        last_x1 = None
        for f_no, f in enumerate(fs):
            for c, i in enumerate(f.chars):
                if (c > 0 and f.spaces[c]) or (c == 0 and f_no > 0):
                    parts.append(" ")
                    xs.append(last_x1 if last_x1 is not None else x0[i])
                    xs.append(x0[i])
                t = texts[i]
                if len(t) == 1:
                    parts.append(t)
                    xs.append(x0[i])
                    xs.append(x1[i])
                else:  # one glyph, several code points ("(cid:12)", a decomposed ligature)
                    w = (x1[i] - x0[i]) / len(t)
                    for n_ch, ch in enumerate(t):
                        parts.append(ch)
                        xs.append(x0[i] + n_ch * w)
                        xs.append(x0[i] + (n_ch + 1) * w)
                last_x1 = x1[i]
        top_ = min(f.top for f in fs)
        bottom_ = max(f.bottom for f in fs)
        out.append(LayoutLine("".join(parts), xs, top_, bottom_, False))
        geo.append((fs[0].x0, max(f.x1 for f in fs), top_, bottom_, g, max(size[f.chars[0]] for f in fs)))
    return _mark_paragraphs(out, geo, groups)


def _mark_paragraphs(
    lines: list[LayoutLine], geo: list[tuple[float, float, float, float, int, float]], groups: list[list[_Frag]]
) -> list[LayoutLine]:
    """Flag the lines that start a paragraph: a vertical gap well above the usual line pitch, an
    indented line after a sentence end, the start and the end of a heading (a larger font, or a short
    capitalised line without final punctuation before a capitalised line); across columns, a short
    line ending a sentence."""
    pitches = [geo[k + 1][2] - geo[k][2] for k in range(len(geo) - 1) if geo[k][4] == geo[k + 1][4]]
    pitches = [p for p in pitches if p > 0]
    median_pitch = statistics.median(pitches) if pitches else 0.0
    left = {g: min(f.x0 for f in group) for g, group in enumerate(groups) if group}
    right = {g: max(f.x1 for f in group) for g, group in enumerate(groups) if group}
    sizes = [x[5] for x in geo if x[5] > 0]
    body = statistics.median(sizes) if sizes else 0.0
    big = [body > 0 and x[5] > HEADING_SIZE * body for x in geo]
    out = [lines[0]] if lines else []
    for k in range(1, len(lines)):
        px0, px1, ptop, pbottom, pg, _ = geo[k - 1]
        cx0, cx1, ctop, cbottom, cg, _ = geo[k]
        height = max(pbottom - ptop, cbottom - ctop, 1.0)
        ends = lines[k - 1].text[-1:] in _SENTENCE_END
        indented = ends and 0.8 * height < cx0 - left[cg] < 8 * height and px0 - left[pg] < 0.5 * height
        if cg == pg:
            pitch = ctop - ptop
            gap = median_pitch > 0 and pitch > PARAGRAPH_PITCH * median_pitch and pitch > 1.5 * height
            para = (
                gap
                or indented
                or big[k] != big[k - 1]
                or _short_heading(lines[k - 1].text, lines[k].text, px1 - px0, right[pg] - left[pg])
                or (
                    lines[k - 1].text[-1:] in _FULL_STOP  # not ":", which a title continues past
                    and k + 1 < len(lines)
                    and geo[k + 1][4] == cg
                    and _short_heading(lines[k].text, lines[k + 1].text, cx1 - cx0, right[cg] - left[cg])
                )
            )
        elif 0 <= ctop - pbottom <= 0.8 * height and abs(cx0 - px0) <= 2:
            para = False  # the next group continues right below (the last line of a full-width block)
        else:
            short = ends and px1 < right[pg] - SHORT_LINE * (right[pg] - left[pg])
            para = short or indented or _is_spanning_switch(groups, cg, pg)
        ln = lines[k]
        out.append(LayoutLine(ln.text, ln.xs, ln.top, ln.bottom, para) if para else ln)
    return out


def _short_heading(text: str, following: str, width: float, column: float) -> bool:
    """A short capitalised line without final punctuation, followed by a capitalised line:
    "2 Methods", "3.1 Overview" (a heading in the body font)."""
    first = text.lstrip()[:1]
    return (
        width < HEADING_WIDTH * column
        and text[-1:] not in _SENTENCE_END
        and text[-1:] not in ",-(–"
        and len(text.split()) <= 12
        and (first.isupper() or first.isdigit())
        and following.lstrip()[:1].isupper()
    )


def _is_spanning_switch(groups: list[list[_Frag]], g: int, prev: int) -> bool:
    """A move between a full-width block and a column starts a new paragraph; column to column
    does not (a sentence often runs from the foot of one column to the head of the next)."""
    return _width(groups[g]) > 1.5 * _width(groups[prev]) or _width(groups[prev]) > 1.5 * _width(groups[g])


def _width(group: list[_Frag]) -> float:
    return max(f.x1 for f in group) - min(f.x0 for f in group)
