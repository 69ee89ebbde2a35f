"""Stage 3, lines -> blocks: margin line numbers, ruled tables, columns and sections, footnotes.

1. **Line numbers**: a column of small integers in a margin, outside the body's left or right edge,
   aligned, mostly increasing down the page (legal pleadings, review copies, numbered books), is taken
   out as furniture ``line_number``.
2. **Ruled tables**: pieces inside a grid of ruling lines stand in the column search as one item, and
   come out as rows with a tab between cells.
3. **Columns**, for any number of them: a vertical gutter is looked for in the middle of the region
   (the x range crossed by the fewest glyphs); wide pieces crossing it (titles, full-width captions)
   cut the region into sections, narrow ones (figure labels) float to the end of the region; each
   side is searched again (a recursive XY cut). A side made of very short pieces is a table column,
   not a text column, and the region is read row by row instead.
4. **Footnotes**: trailing lines of a column in smaller type, set off from the body above, are a
   ``footnote`` block, which the order stage reads after the page body, so a sentence running from
   the foot of one column to the head of the next reads through.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from citeline.ingest.extract.glyphs import Rule
from citeline.ingest.extract.layout.cells import aligned_cells, join_cell, join_lines, wrapped_rows
from citeline.ingest.extract.layout.lines import (
    FULL_STOP,
    SENTENCE_END,
    LineKind,
    Piece,
    TextLine,
    group_rows,
    make_line,
    piece_of,
)
from citeline.ingest.extract.layout.trace import note_columns, note_gutter
from citeline.ingest.extract.layout.words import Word
from citeline.ingest.extract.layout_settings import LayoutSettings
from citeline.text.scripts import CJK_CHARS_PER_WORD, is_cjk

#: Columns are searched at most this many levels deep (a four-column page needs two, and a band cut
#: off by a horizontal gap one more).
MAX_DEPTH = 6
#: Margin line numbers stand in this outer share of the page width.
MARGIN = 0.2
#: At most this many horizontal cuts on the way to a region (each needs its bands searched again),
#: not counting those that cut off a band of a line or two.
MAX_BANDS = 2


@dataclass(slots=True)
class Block:
    """Lines that are read together: one column's run of body lines, a table, a footnote group."""

    lines: list[TextLine]
    kind: LineKind
    #: which column flow it belongs to (lines of one flow share paragraph rules and edges)
    group: int
    x0: float = 0.0
    x1: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)


def blocks(
    items: Sequence[Piece], rules: Sequence[Rule], width: float, settings: LayoutSettings, height: float = 0.0
) -> list[Block]:
    """Body blocks in reading order, then the margin line numbers (kind ``line_number``); with the
    page's ``height``, the page's foot last (kind ``foot``)."""
    if not items:
        return []
    body, numbers = split_line_numbers(items, width, settings)
    body, marks = split_printer_marks(body, width)
    foot: list[Piece] = []
    if height > 0:
        body, foot = page_foot(body, height)
    body, tables = ruled_tables(body, rules, settings)
    right = max(width, max(p.x1 for p in body + tables)) if body or tables else width
    across = [r for r in rules if not r.vertical]
    groups = columns([*body, *tables], 0.0, right, 0, settings, rules=across)
    note_columns(groups)
    out: list[Block] = []
    for g, (group, _floating) in enumerate(groups):
        out.extend(_group_blocks(group, g, rules, settings))
    if numbers:
        rows = group_rows(numbers, settings)
        lines = [make_line(r, settings, kind="line_number") for r in rows]
        out.append(Block(lines, "line_number", len(groups), min(ln.x0 for ln in lines), max(ln.x1 for ln in lines)))
    if marks:
        rows = group_rows(marks, settings)
        lines = [make_line(r, settings, kind="margin") for r in rows]
        out.append(Block(lines, "margin", len(groups), min(ln.x0 for ln in lines), max(ln.x1 for ln in lines)))
    return out + band_blocks(foot, "foot", settings)


# ----------------------------------------------------------------------------- printer's marks

#: A printer's signature or gathering mark: a sheet number and a letter ("32S", "S32", "R33").
_PRINTER_MARK = re.compile(r"^(?:\d{1,3}[A-Z]|[A-Z]\d{1,3})$")


def split_printer_marks(items: Sequence[Piece], width: float) -> tuple[list[Piece], list[Piece]]:
    """``(body, marks)``: printer's marks beside the text block of a book (``32S``, ``R33``): one
    word of digits and one capital letter, alone in a page margin (the outer fifth of the page, left
    of the body's left edge or right of its right edge), so they are read apart from the body line
    beside them (kind ``margin``, furniture) instead of after a tab inside it."""
    marks = [p for p in items if len(p.words) == 1 and _PRINTER_MARK.match(p.words[0].text)]
    if not marks:
        return list(items), []
    taken = {id(p) for p in marks}
    text = [p for p in items if id(p) not in taken and p.chars >= 8]
    if not text:
        return list(items), []
    left_edge = min(p.x0 for p in text)
    right_edge = max(p.x1 for p in text)
    found = {
        id(p)
        for p in marks
        if (p.x1 <= left_edge - p.size and p.x1 <= MARGIN * width)
        or (p.x0 >= right_edge + p.size and p.x0 >= (1 - MARGIN) * width)
    }
    if not found:
        return list(items), []
    return [p for p in items if id(p) not in found], [p for p in items if id(p) in found]


# ----------------------------------------------------------------------------- page foot

#: A running foot stands within this share of the page height from its foot...
BAND = 0.1
#: ... set off from the body by a gap at least this share of a line's height ...
BAND_GAP = 0.6
#: ... on at most this many lines.
BAND_ROWS = 2


def page_foot(items: Sequence[Piece], height: float) -> tuple[list[Piece], list[Piece]]:
    """``(body, foot)``: the lines at the foot of the page that stand apart from everything above
    them across the page's width: a running foot, a page number. Set inside one column's width (the
    IRS sets its running foot under the left column), it would else be read as that column's last
    line, in the middle of the page's text; read last, the cleaner finds it where running feet stand
    and strips it when it repeats. (A running head is left where the columns put it: a section
    heading at the head of one column looks the same.)"""
    if len(items) < 6:
        return list(items), []
    ordered = sorted(items, key=lambda p: p.top)
    tall = sorted(p.bottom - p.top for p in ordered)[len(ordered) // 2]
    reach = ordered[0].bottom  # the lowest bottom of the pieces above the one looked at
    for k in range(1, len(ordered)):
        p = ordered[k]
        if p.top >= (1 - BAND) * height and p.top - reach >= BAND_GAP * tall and _rows(ordered[k:]) <= BAND_ROWS:
            if k < 3:
                break  # nothing much above: a short page is all body
            return sorted(ordered[:k], key=lambda p: p.seq), ordered[k:]
        reach = max(reach, p.bottom)
    return list(items), []


def _rows(items: Sequence[Piece]) -> int:
    return len({round(p.baseline) for p in items})


def band_blocks(items: Sequence[Piece], kind: LineKind, settings: LayoutSettings) -> list[Block]:
    """The page's foot as one block of its rows."""
    if not items:
        return []
    found = [make_line(row, settings, cells=True, kind=kind) for row in group_rows(items, settings)]
    return [Block(found, kind, -1, min(ln.x0 for ln in found), max(ln.x1 for ln in found))]


# ----------------------------------------------------------------------------- line numbers


def split_line_numbers(
    items: Sequence[Piece], width: float, settings: LayoutSettings
) -> tuple[list[Piece], list[Piece]]:
    """``(body, line numbers)``: numbers of at most four digits standing alone in a page margin (the
    outer fifth of the page, left of the left edge of the body beside them or right of its right
    edge), aligned, at
    least :attr:`LayoutSettings.min_line_numbers` of them, mostly counting up one by one from top to
    bottom. A table's column of numbers stands inside the page and counts anything."""
    numbers = [p for p in items if len(p.words) == 1 and len(p.words[0].text) <= 4 and p.words[0].text.isdigit()]
    if len(numbers) < settings.min_line_numbers:
        return list(items), []
    taken = {id(p) for p in numbers}
    # the text block beside the numbers: a stamp above or below them (a court's filing header set
    # further out than the body) does not move the body's edges
    span_top, span_bottom = min(p.top for p in numbers), max(p.bottom for p in numbers)
    text = [p for p in items if id(p) not in taken and p.chars >= 8 and p.bottom > span_top and p.top < span_bottom]
    if not text:
        return list(items), []
    left_edge = min(p.x0 for p in text)
    right_edge = max(p.x1 for p in text)
    found: set[int] = set()
    for side in (
        [p for p in numbers if p.x1 <= left_edge + 0.5 and p.x1 <= MARGIN * width],
        [p for p in numbers if p.x0 >= right_edge - 0.5 and p.x0 >= (1 - MARGIN) * width],
    ):
        if _numbered_column(side, settings):
            found.update(id(p) for p in side)
    if not found:
        return list(items), []
    return [p for p in items if id(p) not in found], [p for p in items if id(p) in found]


def _numbered_column(side: list[Piece], settings: LayoutSettings) -> bool:
    if len(side) < settings.min_line_numbers:
        return False
    em = max(p.size for p in side)
    aligned = (max(p.x0 for p in side) - min(p.x0 for p in side) <= 2 * em) or (
        max(p.x1 for p in side) - min(p.x1 for p in side) <= 2 * em
    )
    if not aligned:
        return False
    values = [int(p.words[0].text) for p in sorted(side, key=lambda p: p.baseline)]
    counting = sum(1 for a, b in itertools.pairwise(values) if b == a + 1)
    return counting >= 0.7 * (len(values) - 1)


# ----------------------------------------------------------------------------- ruled tables


def ruled_tables(
    items: Sequence[Piece], rules: Sequence[Rule], settings: LayoutSettings
) -> tuple[list[Piece], list[Piece]]:
    """``(pieces outside tables, one stand-in piece per table)``. A table is a region where at least
    two horizontal and two vertical rules cross each other and that holds pieces."""
    if len(rules) < 4 or not items:
        return list(items), []
    regions = _grid_regions(rules)
    if not regions:
        return list(items), []
    inside: dict[int, list[Piece]] = {k: [] for k in range(len(regions))}
    rest: list[Piece] = []
    for p in items:
        cx, cy = (p.x0 + p.x1) / 2, (p.top + p.bottom) / 2
        for k, (x0, top, x1, bottom, _framed) in enumerate(regions):
            if x0 - 1 <= cx <= x1 + 1 and top - 1 <= cy <= bottom + 1:
                inside[k].append(p)
                break
        else:
            rest.append(p)
    proxies = []
    for k, members in inside.items():
        if len(members) < 2:
            rest.extend(members)
            continue
        x0, top, x1, bottom, framed = regions[k]
        size = sorted(p.size for p in members)[len(members) // 2]
        proxies.append(
            Piece(
                [],
                min(x0, *(p.x0 for p in members)),
                max(x1, *(p.x1 for p in members)),
                top,
                bottom,
                top,
                size,
                min(p.seq for p in members),
                sum(p.chars for p in members),
                members,
                framed,
            )
        )
    rest.sort(key=lambda p: p.seq)
    return rest, proxies


#: Rules this close (points) touch: they belong to one set, or one continues the other.
RULE_GAP = 1.5


def _grid_regions(rules: Sequence[Rule]) -> list[tuple[float, float, float, float, bool]]:
    """Bounding boxes of connected sets of rules holding at least two horizontal and two vertical
    ones, each flagged when its rules only frame it (see :func:`_frame`)."""
    tol = RULE_GAP
    n = len(rules)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    ordered = sorted(range(n), key=lambda i: rules[i].x0)
    for a_pos, i in enumerate(ordered):
        a = rules[i]
        for j in ordered[a_pos + 1 :]:
            b = rules[j]
            if b.x0 > a.x1 + tol:
                break
            if b.top <= a.bottom + tol and a.top <= b.bottom + tol:
                parent[find(i)] = find(j)
    sets: dict[int, list[Rule]] = {}
    for i in range(n):
        sets.setdefault(find(i), []).append(rules[i])
    out = []
    for members in sets.values():
        vertical = sum(1 for r in members if r.vertical)
        if vertical >= 2 and len(members) - vertical >= 2:
            box = (
                min(r.x0 for r in members),
                min(r.top for r in members),
                max(r.x1 for r in members),
                max(r.bottom for r in members),
            )
            out.append((*box, _frame(members, box)))
    return out


#: An inner rule of a table crosses at least this share of it (merged with the rules it continues).
CROSSING = 0.5


def _frame(members: Sequence[Rule], box: tuple[float, float, float, float]) -> bool:
    """Rules that only frame their box (a boxed definition, a figure's or a diagram's frame, with
    perhaps a name tab in a corner): no rule inside the box, pieces that continue each other joined,
    crosses :data:`CROSSING` of it. Such a box holds text laid out on its own terms (a paragraph,
    a diagram's boxes), not cells: it is read as a region of its own, in columns and paragraphs."""
    x0, top, x1, bottom = box
    tol = RULE_GAP
    for vertical, lo, hi, extent in ((False, top, bottom, x1 - x0), (True, x0, x1, bottom - top)):
        spans = sorted(
            ((r.x0 + r.x1) / 2, r.top, r.bottom) if vertical else ((r.top + r.bottom) / 2, r.x0, r.x1)
            for r in members
            if r.vertical == vertical
        )
        runs: list[list[float]] = []  # [position, start, end] of merged collinear rules
        for pos, start, end in spans:
            if runs and abs(runs[-1][0] - pos) <= tol and start <= runs[-1][2] + tol:
                runs[-1][2] = max(runs[-1][2], end)
            else:
                runs.append([pos, start, end])
        for pos, start, end in runs:
            if lo + 2 < pos < hi - 2 and end - start >= CROSSING * extent:
                return False
    return True


# ----------------------------------------------------------------------------- columns


def columns(
    items: list[Piece],
    lo: float,
    hi: float,
    depth: int,
    settings: LayoutSettings,
    bands: int = 0,
    rules: Sequence[Rule] = (),
) -> list[tuple[list[Piece], bool]]:
    """Reading-order groups of ``items`` (between ``lo`` and ``hi``): each is one column's flow, a
    full-width section, or (flagged ``True``) pieces floating in a gutter. Where no gutter runs the
    region's full height (a full-width table or figure over the columns), the region is cut at its
    widest horizontal gap and each band is searched on its own. ``rules`` are the page's horizontal
    rules: two tables side by side, each ruled on its own, are two columns."""
    total = sum(p.chars for p in items)
    if depth > MAX_DEPTH or len(items) < 6 or hi - lo < 4 * settings.min_gutter or total == 0:
        if 3 <= len(items) < 6 and depth <= MAX_DEPTH:
            short = _short_columns(items, settings)
            if short is not None:
                return short
        return [(items, False)]
    split = _gutter_split(items, lo, hi, total, depth, bands, settings, rules)
    if split is not None:
        return split
    if bands < MAX_BANDS and len(items) >= 12:
        return _band_split(items, lo, hi, depth, bands, settings, rules)
    return [(items, False)]


def _short_columns(items: list[Piece], settings: LayoutSettings) -> list[tuple[list[Piece], bool]] | None:
    """A band of a few lines in two columns of running text (the last lines of a page's columns
    above a full-width worksheet, two headings of two lines side by side): too few lines for the
    column search, but each side has two lines or more, long but for its last, one per row, and one
    side's first line runs on into the next. Read left side, then right side; anything else (a
    small table, a label beside two lines) stays one group."""
    ordered = sorted(items, key=lambda p: p.x0)
    for k in range(1, len(ordered)):
        left, right = ordered[:k], ordered[k:]
        if max(p.x1 for p in left) + settings.min_gutter > min(p.x0 for p in right):
            continue
        sides = [sorted(side, key=lambda p: p.baseline) for side in (left, right)]
        if any(len(side) < 2 for side in sides):
            return None  # a label or a marker beside lines
        if any(len({round(p.baseline) for p in side}) < len(side) for side in sides):
            return None  # two pieces on one row of a side: cells
        if any(len(p.words) < settings.paragraph_words // 2 for side in sides for p in side[:-1]):
            return None  # short lines: cells, not running text
        if not any(len(side) >= 2 and _runs_on(side[0]) for side in sides):
            return None
        return [(sides[0], False), (sides[1], False)]
    return None


#: A region with no gutter is cut into bands at a horizontal gap at least this share of its median
#: line height when a heading stands below it (:func:`_heading_at`): the space above a heading is
#: enough. A textbook page whose side column holds a photo's caption beside the body's top and a
#: chart beside its foot has two gutters at two x positions, and the one gap between the bands is
#: the space above the body's next heading, less than a line tall (calibrated on the tuning half:
#: 0.4 to 0.8 read the same; without the heading, a table's header rows were cut apart too).
BAND_CUT = 0.6


def _band_split(
    items: list[Piece],
    lo: float,
    hi: float,
    depth: int,
    bands: int,
    settings: LayoutSettings,
    rules: Sequence[Rule] = (),
) -> list[tuple[list[Piece], bool]]:
    """The region cut at its widest horizontal gap (at least a line tall, or :data:`BAND_CUT` of a
    line above a heading), each band searched again; the region stays one group when neither band
    has columns."""
    ordered = sorted(items, key=lambda p: p.top)
    heights = sorted(p.bottom - p.top for p in ordered)
    line = heights[len(heights) // 2]
    size = _median_size(ordered)
    best, at = BAND_CUT * line, -1
    reach = ordered[0].bottom
    for k in range(1, len(ordered)):
        gap = ordered[k].top - reach
        if gap > best and (gap > line or _heading_at(ordered, k, line, size, settings)):
            best, at = gap, k
        reach = max(reach, ordered[k].bottom)
    if at < 0:
        return [(items, False)]
    # a band of a line or two (a heading, a table's last row) needs no search: cutting it off does
    # not count against the cuts the other band may still make
    top, bottom = ordered[:at], ordered[at:]
    upper = columns(top, lo, hi, depth + 1, settings, bands + (_rows(bottom) > BAND_ROWS), rules)
    lower = columns(bottom, lo, hi, depth + 1, settings, bands + (_rows(top) > BAND_ROWS), rules)
    if len(upper) == 1 and len(lower) == 1:
        return [(items, False)]
    return upper + lower


def _heading_at(ordered: list[Piece], k: int, line: float, size: float, settings: LayoutSettings) -> bool:
    """A heading starts the band from ``ordered[k]`` down (pieces in order of their tops): a piece of
    letters in its first row, in type :attr:`LayoutSettings.heading_size` times the region's."""
    first = ordered[k].top
    for p in ordered[k:]:
        if p.top > first + line:
            return False
        if p.size >= settings.heading_size * size and any(c.isalpha() for w in p.words for c in w.text):
            return True
    return False


def _gutter_split(
    items: list[Piece],
    lo: float,
    hi: float,
    total: int,
    depth: int,
    bands: int,
    settings: LayoutSettings,
    rules: Sequence[Rule] = (),
) -> list[tuple[list[Piece], bool]] | None:
    """The region split at a gutter running its full height, or ``None`` when it has none."""
    a, b = int(lo + 0.2 * (hi - lo)), int(hi - 0.2 * (hi - lo))
    if b - a < settings.min_gutter:
        return None
    diff = [0] * (b - a + 2)
    for p in items:
        s, e = max(int(p.x0) + 1, a), min(int(p.x1), b + 1)
        if s < e:
            c = p.chars
            diff[s - a] += c
            diff[e - a] -= c
    coverage = list(itertools.accumulate(diff[: b - a + 1]))
    lowest = min(coverage)
    if lowest > settings.max_spanning_share * total:
        return None
    # the gutter: the widest run of bins crossed by (nearly) the fewest glyphs, so a centred page
    # number or a short label inside the gutter does not split it
    limit = lowest + max(2, settings.gutter_slack * total)
    best_start, best_width = _widest_run(coverage, limit)
    if best_width < settings.min_gutter:
        return None
    # an empty run wins over a wider one that only the slack lets through when what fills the
    # difference is a column of left-aligned pieces: the hanging labels of a reference list
    # ("[Mit97]") at the left edge of the column they belong to (a figure's labels float instead)
    empty_start, empty_width = _widest_run(coverage, lowest + 2)
    if empty_width >= settings.min_gutter and empty_width < best_width:
        e0, e1 = a + empty_start, a + empty_start + empty_width
        s0, s1 = a + best_start, a + best_start + best_width
        lo_x, hi_x = min(e0, s0), max(e1, s1)
        between = [p for p in items if lo_x - 1 <= p.x0 and p.x1 <= hi_x + 1 and (p.x0 >= e1 - 1 or p.x1 <= e0 + 1)]
        if _aligned_column(between):
            best_start, best_width = empty_start, empty_width
    best_start, best_width = _trim_to_empty_side(coverage, best_start, best_width, lowest, settings)
    g0 = a + best_start
    g1 = g0 + best_width
    # a piece belongs to a side unless it crosses the middle of the gutter's emptiest stretch (lines
    # may start or end a little inside it: hanging punctuation, a quote mark; and a gutter that
    # widens beside an indented passage, an abstract above a full-width column, is emptiest where
    # the columns themselves stand apart)
    run = coverage[best_start : best_start + best_width]
    empty_from, empty_width = _widest_run(run, min(run) + 2)
    if empty_width < settings.min_gutter:
        empty_from, empty_width = 0, best_width
    mid = g0 + empty_from + empty_width / 2
    left = [p for p in items if p.x1 <= mid]
    right = [p for p in items if p.x0 >= mid]
    crossing = [p for p in items if p.x0 < mid < p.x1]
    # a side with little of the text is a column only when nothing crosses the gutter (the short
    # last column of a reference list), not when lines run across it (a table's narrow first column
    # above a two-column body)
    short_ok = sum(p.chars for p in crossing) <= settings.gutter_slack * total
    # a narrow column beside the body (a margin glossary, a sidebar) across a clear gutter: nothing
    # crosses the gutter where the two sides stand beside each other (a running head above both
    # may), and the gutter is wider than a word space could be
    em = _median_size(items)
    clear = (
        bool(left and right)
        and g1 - g0 >= settings.beside_gap * em
        and not any(_overlaps(p, left) and _overlaps(p, right) for p in crossing)
        and _beside_rows(left, right, settings) >= 2
    )
    if not (
        _enough_text(left, total, settings, short_ok or clear, clear)
        and _enough_text(right, total, settings, short_ok or clear, clear)
    ):
        return None
    # short pieces in rows across the gutter are a table's columns, read row by row; unless the sides
    # drift apart (an index) or one side runs a paragraph beside them (a worked example beside a small
    # sample table)
    long_left, long_right = _long_pieces(left, settings), _long_pieces(right, settings)
    if aligned_cells(left, right):
        return None  # one table's columns whose cells wrap: read row by row, each cell whole
    if (
        not (long_left and long_right)
        and not _independent(left, right, settings)
        and not (long_left and _paragraph(left, settings))
        and not (long_right and _paragraph(right, settings))
        and not (not crossing and _ruled_apart(left, right, g0, g1, rules))
    ):
        return None
    # a piece crossing the gutter on one row with pieces of both sides, all of them short, is a name
    # of an author block's row ("Kalpesh Krishna   Erin Bransom   Bailey Kuehl" over a two-column
    # paper): it and its row cut the columns into sections, read in their place, not beside them
    row = _names_row(crossing, left, right, em, settings.paragraph_words)
    if row and (all(id(q) in row for q in left) or all(id(q) in row for q in right)):
        row = set()  # the row is all that stands on one side: no columns below it to cut
    if row:
        crossed = {id(q) for q in crossing}
        crossing += [q for q in left + right if id(q) in row and id(q) not in crossed]
        left = [q for q in left if id(q) not in row]
        right = [q for q in right if id(q) not in row]
    # a narrow piece crossing the gutter with both columns running on above and below it floats (a
    # figure label); anything else crossing it cuts the columns into sections (a title, a caption)
    inner_top = max(min(p.top for p in left), min(p.top for p in right))
    inner_bottom = min(max(p.bottom for p in left), max(p.bottom for p in right))
    floating = [
        p
        for p in crossing
        if p.members is None
        and id(p) not in row
        and p.x1 - p.x0 < settings.floating_width * (hi - lo)
        and inner_top < p.top
        and p.bottom < inner_bottom
    ]
    if floating:
        floating = _not_between_spanning(floating, crossing, left + right)
    afloat = {id(p) for p in floating}
    # a floating caption's last lines that no longer cross the gutter float with it
    floating += _caption_tail(floating, left + right, afloat)
    spanning = [p for p in crossing if id(p) not in afloat]
    # lines of running text crossing the gutter with text beside them, across a gap wider than a
    # word space, are lines of another column (a body column beside a margin glossary, over a boxed
    # two-column insert), not full-width lines cutting the region into sections: cutting there
    # would read the two columns line by line in turn; the region is cut into bands instead. (An
    # author block's names crossing the gutter beside each other are short: cells of a row.)
    gap = settings.beside_gap * em
    if sum(1 for p in spanning if len(p.words) >= settings.paragraph_words and _beside(p, left + right, gap)) >= 2:
        return None
    # pieces standing inside the gutter itself, next to both columns, float too
    inside = [p for p in left + right if g0 - 1 <= p.x0 and p.x1 <= g1 + 1 and inner_top < p.top < inner_bottom]
    if inside:
        floating += inside
        afloat.update(id(p) for p in inside)
    left = [p for p in left if id(p) not in afloat]
    right = [p for p in right if id(p) not in afloat]

    # sections between spanning pieces, top to bottom
    spanning.sort(key=lambda p: (p.baseline, p.x0))
    sides = sorted(left + right, key=lambda p: (p.baseline, p.x0))
    lefts = {id(p) for p in left}
    out: list[tuple[list[Piece], bool]] = []
    pending_left: list[Piece] = []
    pending_right: list[Piece] = []

    def flush() -> None:
        if pending_left:
            out.extend(columns(list(pending_left), lo, mid, depth + 1, settings, bands, rules))
        if pending_right:
            out.extend(columns(list(pending_right), mid, hi, depth + 1, settings, bands, rules))
        pending_left.clear()
        pending_right.clear()

    cut = k = 0
    while cut < len(spanning) or k < len(sides):
        if cut < len(spanning) and (k >= len(sides) or spanning[cut].top <= sides[k].top):
            flush()
            section = [spanning[cut]]
            cut += 1
            while cut < len(spanning) and (k >= len(sides) or spanning[cut].top <= sides[k].top):
                section.append(spanning[cut])
                cut += 1
            out.append((section, False))
        else:
            (pending_left if id(sides[k]) in lefts else pending_right).append(sides[k])
            k += 1
    flush()
    if floating:
        out.append((floating, True))
    note_gutter(g0, g1, left + right)  # as tall as the columns beside it
    return out


def _not_between_spanning(floating: list[Piece], crossing: Sequence[Piece], sides: Sequence[Piece]) -> list[Piece]:
    """``floating`` without the pieces whose nearest neighbours above and below are both pieces that
    cross the gutter and do not float: a centred line between two full-width ones (an author block's
    e-mail address between its affiliation and another address) is a line of that section, not a
    label in the gutter (read at the region's end)."""
    floats = {id(p) for p in floating}
    others = [q for q in (*crossing, *sides) if id(q) not in floats]
    spans = {id(q) for q in crossing if id(q) not in floats}
    out = []
    for p in floating:
        above = max((q for q in others if q.bottom <= p.top), key=lambda q: q.bottom, default=None)
        below = min((q for q in others if q.top >= p.bottom), key=lambda q: q.top, default=None)
        if above is None or below is None or id(above) not in spans or id(below) not in spans:
            out.append(p)
    return out


def _caption_tail(floating: list[Piece], sides: list[Piece], afloat: set[int]) -> list[Piece]:
    """The pieces of ``sides`` that go on a floating piece's text on the next lines: starting where it
    starts, in its type, a line's pitch below it, the line above running on (a figure's caption
    beside a column whose last line is short of the gutter). Each is added to ``afloat``."""
    out: list[Piece] = []
    tail = sorted((p for p in floating if p.words), key=lambda p: p.baseline)
    for p in tail:
        last = p
        while _runs_on(last):
            em = max(last.size, 1.0)
            below = [
                q
                for q in sides
                if id(q) not in afloat
                and q.words
                and abs(q.x0 - last.x0) <= 0.5 * em
                and abs(q.size - last.size) <= 0.1 * em
                and 0 < q.baseline - last.baseline <= 1.6 * em
            ]
            if len(below) != 1:
                break
            last = below[0]
            afloat.add(id(last))
            out.append(last)
    return out


def _aligned_column(pieces: list[Piece]) -> bool:
    """At least three pieces on different lines starting at one x (within a point)."""
    starts = sorted(p.x0 for p in pieces)  # pieces at one x cannot share a line
    return any(starts[k + 2] - starts[k] <= 1.0 for k in range(len(starts) - 2))


def _widest_run(coverage: list[int], limit: float) -> tuple[int, int]:
    """Start and width of the widest run of bins crossed by at most ``limit`` glyphs."""
    best_start, best_width, run_start = -1, 0, -1
    for k, cov in enumerate([*coverage, limit + 1]):
        if cov <= limit:
            if run_start < 0:
                run_start = k
        elif run_start >= 0:
            if k - run_start > best_width:
                best_start, best_width = run_start, k - run_start
            run_start = -1
    return best_start, best_width


def _trim_to_empty_side(
    coverage: list[int], start: int, width: int, lowest: int, settings: LayoutSettings
) -> tuple[int, int]:
    """The gutter without a column of short pieces that stands against one of its sides (the
    hanging labels of a reference list, ``[Mit97]``, at the right column's left edge): when the
    emptiest part of the run touches one end and the glyphs in the run reach the other end, the
    gutter is the emptiest part. Labels with empty gutter on both sides (a figure's, between the
    columns) keep the whole run, and float."""
    empty = [coverage[k] <= lowest + 2 for k in range(start, start + width)]
    if all(empty):
        return start, width
    lead = next(k for k, e in enumerate(empty) if not e)  # empty bins at the start
    trail = next(k for k, e in enumerate(reversed(empty)) if not e)  # empty bins at the end
    if lead >= settings.min_gutter and trail == 0:
        return start, lead
    if trail >= settings.min_gutter and lead == 0:
        return start + width - trail, trail
    return start, width


def _enough_text(
    side: list[Piece], total: int, settings: LayoutSettings, short_ok: bool = False, clear: bool = False
) -> bool:
    """Enough text for a column: a share of the region's (or with ``short_ok`` a column's worth of
    lines: the short last column of a reference list; or with ``clear``, a side standing beside the
    other across a clear gutter, three lines: a margin glossary), on at least three lines."""
    rows = len({round(p.baseline) for p in side})
    if rows < 3:
        return False
    return sum(p.chars for p in side) >= settings.min_side_share * total or (
        short_ok and (clear or rows >= settings.min_side_lines)
    )


def _median_size(items: Sequence[Piece]) -> float:
    """The median type size of ``items`` (an em), at least a point."""
    sizes = sorted(p.size for p in items)
    return max(sizes[len(sizes) // 2], 1.0) if sizes else 1.0


def _overlaps(p: Piece, side: Sequence[Piece]) -> bool:
    """``p`` stands at the height of some piece of ``side`` (their boxes overlap vertically)."""
    return any(q.top < p.bottom and p.top < q.bottom for q in side)


def _beside(p: Piece, others: Sequence[Piece], gap: float) -> bool:
    """Some piece of ``others`` stands beside ``p``, on its row (their middles each within the other's
    height), across a horizontal gap of at least ``gap`` points."""
    middle = (p.top + p.bottom) / 2
    for q in others:
        if q is p or not (q.top < middle < q.bottom and p.top < (q.top + q.bottom) / 2 < p.bottom):
            continue
        if q.x1 <= p.x0 - gap or q.x0 >= p.x1 + gap:
            return True
    return False


#: The names of an author block's row have at most this many words each (a name, its marks).
ROW_WORDS = 4


def _names_row(
    crossing: Sequence[Piece], left: Sequence[Piece], right: Sequence[Piece], em: float, paragraph_words: int
) -> set[int]:
    """The ids of the pieces on a row across the gutter over two columns of running text (lines of
    ``paragraph_words`` words below it on both sides, none of :data:`ROW_WORDS` above it): a short
    piece crossing it with short pieces of both sides on its baseline (within :data:`ROW_EXACT` of
    an em), and those pieces; lines of running text on a crossing label's baseline (two columns
    whose lines meet) are no row."""
    out: set[int] = set()
    for p in crossing:
        if p.members is not None or not p.words or len(p.words) > ROW_WORDS:
            continue
        if any(q.bottom <= p.top and len(q.words) >= ROW_WORDS for q in (*left, *right)) or not all(
            any(q.top >= p.bottom and len(q.words) >= paragraph_words for q in side) for side in (left, right)
        ):
            continue  # not over two columns of running text: a figure's labels, a table's head
        mates = [[q for q in side if abs(q.baseline - p.baseline) <= ROW_EXACT * em] for side in (left, right)]
        if all(mates) and all(q.words and len(q.words) <= ROW_WORDS for side in mates for q in side):
            out.add(id(p))
            out.update(id(q) for side in mates for q in side)
    return out


#: Two pieces stand on one baseline when their baselines differ by at most this share of an em (a
#: table's cells; a glossary in other type beside the body meets its baselines only by chance).
ROW_EXACT = 0.1


def _beside_rows(left: Sequence[Piece], right: Sequence[Piece], settings: LayoutSettings) -> int:
    """How many pieces of the side with fewer stand at the height of the other side (the rows the two
    sides share: a margin glossary beside the body, not a note under it); none when most of them
    stand on the other side's baselines (a table's columns, whose cells line up in rows)."""
    few, many = (left, right) if len(left) <= len(right) else (right, left)
    if _partnered(few, many, settings, exact=True) >= settings.max_row_share * len(few):
        return 0
    return sum(1 for p in few if _overlaps(p, many))


def _long_pieces(side: list[Piece], settings: LayoutSettings) -> bool:
    """Pieces long enough to be lines of text (a table's columns hold short cells): the median words
    per piece, weighted by characters, so a column's lines outweigh a figure's labels."""
    counts = sorted((_word_count(p), p.chars) for p in side)
    half, acc = sum(c for _, c in counts) / 2, 0
    for words, chars in counts:
        acc += chars
        if acc >= half:
            return words >= settings.min_column_words
    return False


def _independent(left: list[Piece], right: list[Piece], settings: LayoutSettings) -> bool:
    """Two sides of short pieces that are two columns of their own (an index, a list of terms), not
    a table: each has a column's worth of lines, and most lines of the side with fewer of them have
    no line on the other side's baselines (a table's cells share their row's baseline; an index's
    two columns drift apart at every letter heading)."""
    few, many = (left, right) if len(left) <= len(right) else (right, left)
    if len({round(p.baseline) for p in few}) < settings.min_side_lines:
        return False
    return _partnered(few, many, settings) < settings.max_row_share * len(few)


def _partnered(few: Sequence[Piece], many: Sequence[Piece], settings: LayoutSettings, exact: bool = False) -> int:
    """How many pieces of ``few`` have a piece of ``many`` on their baseline (a table's cells do),
    within the baseline tolerance, or with ``exact`` within :data:`ROW_EXACT` of an em (a table's
    cells stand on one baseline; lines of two columns in another size meet one now and then)."""
    bases = sorted(p.baseline for p in many)
    partnered = 0
    for p in few:
        reach = (ROW_EXACT if exact else settings.baseline_tolerance) * p.size
        k = bisect.bisect_left(bases, p.baseline - reach)
        partnered += k < len(bases) and bases[k] <= p.baseline + reach
    return partnered


def _ruled_apart(left: list[Piece], right: list[Piece], x0: float, x1: float, rules: Sequence[Rule]) -> bool:
    """Two tables side by side, each ruled on its own (the IRS's tax rate schedules, two by two):
    at least two heights where a horizontal rule spans most of the left side and ends in the gutter,
    and another starts there and spans most of the right side; and each side is a table of its own,
    several cells on a row. One table's rules run across the gutter, or, drawn cell by cell, break
    at every column, not once for each side."""
    if len(rules) < 4:
        return False
    l0, l1 = min(p.x0 for p in left), max(p.x1 for p in left)
    r0, r1 = min(p.x0 for p in right), max(p.x1 for p in right)
    ends = [r for r in rules if x0 - 2 <= r.x1 <= x1 + 2 and r.x1 - r.x0 >= 0.6 * (l1 - l0)]
    starts = [r for r in rules if x0 - 2 <= r.x0 <= x1 + 2 and r.x1 - r.x0 >= 0.6 * (r1 - r0)]
    pairs = sum(1 for a in ends if any(abs(a.top - b.top) <= 1 for b in starts))
    return pairs >= 2 and all(_rows_of_cells(side) >= 3 for side in (left, right))


def _rows_of_cells(side: list[Piece]) -> int:
    """How many rows of ``side`` hold two pieces or more."""
    rows: dict[int, int] = {}
    for p in side:
        rows[round(p.baseline)] = rows.get(round(p.baseline), 0) + 1
    return sum(1 for n in rows.values() if n >= 2)


def _paragraph(side: list[Piece], settings: LayoutSettings) -> bool:
    """A paragraph of running text: at least ``settings.paragraph_lines`` consecutive lines, one below
    the other at a line's pitch and starting at one x (a first line may be indented), each of at least
    ``settings.paragraph_words`` words and each but the last running on into the next (not ending a
    sentence). A table's cells are shorter, or end where their row ends."""
    need = settings.paragraph_lines
    run = 1
    prev: Piece | None = None
    for p in sorted(side, key=lambda p: p.baseline):
        if p.members is not None or len(p.words) < settings.paragraph_words:
            continue
        if (
            prev is not None
            and 0 < p.baseline - prev.baseline <= 1.6 * max(p.size, prev.size)
            and abs(p.x0 - prev.x0) <= 2 * p.size
            and _runs_on(prev)
        ):
            run += 1
            if run >= need:
                return True
        else:
            run = 1
        prev = p
    return False


def _word_count(p: Piece) -> float:
    if p.members is not None:
        return 99
    n = len(p.words)
    if p.words and is_cjk(p.words[0].text[0]):
        return max(n, p.chars / CJK_CHARS_PER_WORD)
    return n


# ----------------------------------------------------------------------------- blocks of one flow


def _group_blocks(group: list[Piece], g: int, rules: Sequence[Rule], settings: LayoutSettings) -> list[Block]:
    """The lines of one flow, as body, table, aside and footnote blocks in reading order."""
    proxies = sorted((p for p in group if p.members is not None), key=lambda p: p.top)
    plain = [p for p in group if p.members is None]
    rows, labels = side_labels(group_rows(plain, settings), settings)
    lines = [make_line(row, settings, cells=True) for row in rows]
    for ln in lines:
        if "\t" in ln.text:
            ln.kind = "table"
    _mark_footnotes(lines, settings)
    if labels:
        lines = _with_asides(lines, labels, settings)
    lines = wrapped_rows(lines, settings)
    # the tables, each at its place among the lines
    out: list[Block] = []
    tags: list[list[Word]] = []
    # (a framed region is read on its own terms below: no rows of cells, so no tags beside them)
    proxy_rows = [[] if proxy.framed else group_rows(proxy.members or [], settings) for proxy in proxies]
    proxy_tags = [[_tag_words(row) for row in rows_of] for rows_of in proxy_rows]
    tagged = any(tag for found in proxy_tags for tag in found)
    queue = list(lines)
    for proxy, member_rows, found in zip(proxies, proxy_rows, proxy_tags, strict=True):
        before = [ln for ln in queue if ln.baseline < proxy.top]
        queue = [ln for ln in queue if ln.baseline >= proxy.top]
        out.extend(_runs(before, g))
        assert proxy.members is not None
        if proxy.framed:
            # a framed region (a boxed definition, a diagram): its own columns and paragraphs,
            # where a few lines make a column (a diagram's boxes)
            inner = replace(settings, min_side_lines=settings.frame_side_lines)
            for sub, _floating in columns(proxy.members, proxy.x0, proxy.x1, 1, inner):
                out.extend(_group_blocks(sub, g, (), settings))
            continue
        vertical = [r for r in rules if r.vertical and proxy.x0 - 1 <= r.x0 <= proxy.x1 + 1]
        horizontal = [
            r for r in rules if not r.vertical and proxy.x0 - 1 <= r.x1 and r.x0 <= proxy.x1 + 1
            and proxy.top + 1 < r.top < proxy.bottom - 1
        ]  # fmt: skip
        # a figure's tags beside the lines it boxes (each line its own box) are read after the
        # figure, not as the lines' first cells; where the figure has such tags, a tag on a row of
        # its own too
        if tagged:
            body = sorted(p.size for p in proxy.members)[len(proxy.members) // 2]
            found = [tag or _tag_row(row, body) for tag, row in zip(found, member_rows, strict=True)]
        if any(found):
            taken = {id(w) for tag in found for w in tag}
            member_rows = [[q for q in (_without(p, taken) for p in row) if q is not None] for row in member_rows]
            tags += [tag for tag in found if tag]
        cells = [_table_row(r, vertical, settings) for r in member_rows if r]
        if cells:
            out.append(Block(_wrapped_cells(cells, horizontal, vertical, settings), "table", g, proxy.x0, proxy.x1))
    if tags:
        asides = [make_line([piece_of(tag)], settings, kind="aside") for tag in tags]
        out.append(Block(asides, "aside", g, min(a.x0 for a in asides), max(a.x1 for a in asides)))
    out.extend(_runs(queue, g))
    return out


def _with_asides(lines: list[TextLine], labels: list[tuple[int, Piece]], settings: LayoutSettings) -> list[TextLine]:
    """``lines`` with each label read after the paragraph it stands beside: after the first line from
    its row on that ends a sentence (the paragraph may go on below the label at another indent), or
    the last one before a gap."""
    after: dict[int, list[TextLine]] = {}
    for row, label in labels:
        em = max(lines[row].size, 1.0)
        k = row
        while (
            k + 1 < len(lines)
            and lines[k].text[-1:] not in FULL_STOP
            and 0 < lines[k + 1].baseline - lines[k].baseline <= 2.5 * em
        ):
            k += 1
        after.setdefault(k, []).append(make_line([label], settings, kind="aside"))
    out: list[TextLine] = []
    for k, ln in enumerate(lines):
        out.append(ln)
        out.extend(after.get(k, ()))
    return out


def side_labels(rows: list[list[Piece]], settings: LayoutSettings) -> tuple[list[list[Piece]], list[tuple[int, Piece]]]:
    """``(rows, labels)``: the rows of one flow without the labels set in a strip beside a paragraph
    (the ``!``, ``CAUTION`` and ``TIP`` of a tax form's notes), each of which would otherwise run
    into the sentence of the line it stands beside; each label with the index of its row.

    A label is a sign or one or two words in capitals at the start of a row, left of where the row's
    text goes on, in another font or size than that text, beside a paragraph that began above it: the rows above,
    up to the paragraph's first, start where the text goes on, and the one right above ends
    mid-sentence. A list's marker (``2)``, ``(b)``, ``•``) or a reference's label marks its item's
    first line instead, as do the markers of the items before it, and a table's first cell stands
    under the cells of its column. A figure's tiny tag at the start of a row (see :func:`_tag_words`)
    is a label too."""
    out: list[list[Piece]] = []
    labels: list[tuple[int, Piece]] = []
    for row in rows:
        left = _label_words(row, out, settings) or _tag_words(row)
        if left:
            labels.append((len(out), piece_of(left)))
            taken = {id(w) for w in left}
            row = [p for p in (_without(p, taken) for p in row) if p is not None]
        out.append(row)
    return out, labels


#: A list's marker: a number, a letter or a roman numeral with a dot or parentheses, a bullet, a dash.
_LIST_MARKER = re.compile(r"^(?:§?\(?[0-9]{1,3}[.)]?|\(?[a-zA-Z][.)]|\(?[ivxIVX]{1,4}[.)]|[•◦▪‣∙·*–—-])$")


def _label_words(row: list[Piece], above: list[list[Piece]], settings: LayoutSettings) -> list[Word]:
    """The words of ``row`` that are a label beside the paragraph ``above`` ends with (see
    :func:`side_labels`), or none."""
    if not above or not above[-1]:
        return []
    edge = above[-1][0].x0
    words = [w for p in row for w in p.words]
    left = [w for w in words if w.x1 <= edge]
    rest = [w for w in words if w.x1 > edge]
    if not left or len(left) > 2 or len(rest) < 3 or sum(len(w.text) for w in left) > 12:
        return []
    em = max(rest[0].size, 1.0)
    # a sign or a word in capitals (``!``, ``TIP``, ``NOTE``), not a word of the text or a formula's
    if any(c.islower() or unicodedata.category(c) == "Sm" for w in left for c in w.text):
        return []
    if not -0.5 * em <= rest[0].x0 - edge <= 0.15 * em:  # (the line above may be indented)
        return []
    if sum(len(p.words) for p in above[-1]) < 3 or not _runs_on(above[-1][-1]):
        return []
    if _LIST_MARKER.match(" ".join(w.text for w in left)) or left[-1].text.endswith(":"):
        return []
    if all(w.font == rest[0].font and abs(w.size - rest[0].size) <= 0.1 * em for w in left):
        return []
    # the paragraph beside the label: rows starting where the text goes on, one right below the
    # other, up to its first; the row before that, if it is close, must not be a marked item
    start = rest[0].x0
    last = rest[0].baseline
    for prev in reversed(above):
        if not 0 < last - prev[0].baseline <= 2.5 * em:
            return left  # the paragraph starts the flow, or after a gap
        if prev[0].x0 < start - 0.5 * em:
            marked = [w for p in prev for w in p.words]
            gaps = itertools.pairwise(marked)
            return [] if any(abs(b.x0 - start) <= 0.5 * em and b.x0 - a.x1 >= 0.5 * em for a, b in gaps) else left
        if abs(prev[0].x0 - start) > 0.5 * em:
            return []
        last = prev[0].baseline
    return left


#: A tag's type is at most this share of the size of the text beside it.
TAG_SIZE = 0.6


def _tag_words(row: list[Piece]) -> list[Word]:
    """The words of ``row`` that are a figure's tag beside a line of its text (``Summarizing``,
    ``Grouping`` in 3.6-pt type left of 7-pt lines of an annotated paragraph), or none: one or two
    words of letters at the start of the row, in type at most :data:`TAG_SIZE` of the text's, set
    off from it by half an em, with at least three words of letters after them. (A footnote mark or
    a subscript is a digit or two, or sits against its text; a formula's label sits among symbols.)"""
    words = sorted((w for p in row for w in p.words), key=lambda w: w.x0)
    if len(words) < 4:
        return []
    text_size = max(w.size for w in words)
    k = next(i for i, w in enumerate(words) if w.size > TAG_SIZE * text_size)
    if not 1 <= k <= 2 or len(words) - k < 3:
        return []
    tag, rest = words[:k], words[k:]
    if rest[0].x0 - tag[-1].x1 < 0.5 * rest[0].size or _letters(tag) < 3:
        return []
    # beside a line of words (a formula's underbrace label sits among symbols)
    return tag if sum(1 for w in rest if _letters([w]) >= 3) >= 3 else []


def _tag_row(row: list[Piece], body: float) -> list[Word]:
    """A row that is nothing but a tag (one or two words of letters in type at most
    :data:`TAG_SIZE` of ``body``, the size of the text around it), or none."""
    words = [w for p in row for w in p.words]
    if not 1 <= len(words) <= 2 or any(w.size > TAG_SIZE * body for w in words):
        return []
    return words if _letters(words) >= 3 else []


def _letters(words: Sequence[Word]) -> int:
    """How many letters ``words`` hold."""
    return sum(c.isalpha() for w in words for c in w.text)


def _runs_on(p: Piece) -> bool:
    """``p`` does not end a sentence (nor a clause: a colon, a semicolon): the text goes on after it."""
    return p.words[-1].text[-1:] not in SENTENCE_END


def _without(p: Piece, taken: set[int]) -> Piece | None:
    """``p`` without the words in ``taken`` (by identity)."""
    kept = [w for w in p.words if id(w) not in taken]
    if len(kept) == len(p.words):
        return p
    return piece_of(kept) if kept else None


def _table_row(row: list[Piece], vertical: Sequence[Rule], settings: LayoutSettings) -> TextLine:
    """A table row: pieces of one cell joined with spaces, cells with tabs."""
    cells: list[list[Piece]] = [[row[0]]]
    for p in row[1:]:
        q = cells[-1][-1]
        ruled = any(q.x1 - 0.5 <= r.x0 <= p.x0 + 0.5 and r.top < p.bottom and r.bottom > p.top for r in vertical)
        if ruled:
            cells.append([p])
        else:
            cells[-1].append(p)
    line = make_line(cells[0], settings, cells=True, kind="table")
    for cell in cells[1:]:
        line = join_cell(line, make_line(cell, settings, cells=True, kind="table"))
    return line


def _wrapped_cells(
    rows: list[TextLine], horizontal: Sequence[Rule], vertical: Sequence[Rule], settings: LayoutSettings
) -> list[TextLine]:
    """The rows of a ruled table with each wrapped cell read whole.

    A text line continues the row above it when no rule closes any of its cells from the row's line
    above and it has text in fewer columns than the row (a cell's text wrapping onto a second line,
    a label set between the lines of its row) or is one cell under a row of one cell that ran up to
    its right rule; or when the row so far is one line of cells that run up to their right rules,
    no rule runs between it and the line, and the line holds the row's other cells (the figures
    beside a wrapped label). Its cells' text is then joined to the same cells of the row, a space
    between lines (none between CJK characters), cells with a tab. Anything else starts a row, as
    do all lines of a table without rules between its rows."""
    if not horizontal or len(rows) < 2 or all("\t" not in ln.text for ln in rows):
        return rows  # (one column: a boxed paragraph reads line by line, its line ends dehyphenated)

    def closed(cell: Cell, above: float, below: float) -> bool:
        """A rule across ``cell``'s column (across its middle, or into it for an outer column without
        a border rule) between the heights ``above`` and ``below``."""
        lo, hi = cell
        for r in horizontal:
            if above < r.top < below:
                if lo > -1e8 and hi < 1e8:
                    if r.x0 <= (lo + hi) / 2 <= r.x1:
                        return True
                elif min(hi, r.x1) - max(lo, r.x0) > 1:
                    return True
        return False

    ruled_rows = _ruled_rows(rows, horizontal)
    by_column = [
        _cells_by_column(ln, vertical, settings) if k is not None else {}
        for ln, k in zip(rows, ruled_rows, strict=True)
    ]
    out: list[TextLine] = []
    current: list[TextLine] = []  # the lines of the row being read
    columns: dict[Cell, list[TextLine]] = {}
    last: dict[Cell, float] = {}  # per column, the middle of its last line in the row
    for i, ln in enumerate(rows):
        cells = _cells_by_column(ln, vertical, settings)
        middle = (ln.top + ln.bottom) / 2
        wraps = False
        if current and len(cells) == 1 == len(columns):
            # one cell under one cell that ran up to its right rule: the cell's text wraps on
            (only,) = cells.values()
            (key,) = columns
            wraps = key[0] < _start(only) < key[1] and _fills(columns[key][-1], key)
        if (
            current
            and not wraps
            and ruled_rows[i] is not None
            and len(cells) == len(columns) >= 2
            and set(cells) == set(columns)
        ):
            # a line with all the row's cells goes on with it where a cell of words on the line
            # above was broken for want of room and some line of that cell between the row's rules
            # runs up to its right rule, and each cell of the line holds words (a list of states
            # wrapping beside an address, in a table ruled between its rows; a figure runs up to
            # its rule and stands beside each label of a list); whether a rule parts the two lines
            # is asked below
            run = [by_column[j].get(c) for j in range(len(rows)) if ruled_rows[j] == ruled_rows[i] for c in cells]
            wraps = all(any(ch.isalpha() for ch in cell.text) for cell in cells.values()) and any(
                " " in columns[c][-1].text.strip()
                and any(ch.isalpha() for ch in columns[c][-1].text)
                and _no_room(columns[c][-1], cell, c)
                and any(ln is not None and _start(ln) > c[0] and _fills(ln, c) for ln in run)
                for c, cell in cells.items()
            )
        if current and (len(cells) < len(columns) or wraps):
            first = (current[0].top + current[0].bottom) / 2
            # each cell of the line in the row's column where it starts (the rules beside two lines
            # of one row may differ: a rule that ends at the first line)
            placed = {next((k for k in columns if k[0] < _start(cell) < k[1]), c): cell for c, cell in cells.items()}
            if len(placed) == len(cells) and not any(closed(c, last.get(c, first), middle) for c in placed):
                current.append(ln)
                for c, cell in placed.items():
                    columns.setdefault(c, []).append(cell)
                    last[c] = middle
                continue
        elif len(current) == 1:
            # the row so far is the head of a wrapped cell, and this line carries the row's other
            # cells (the figures beside a wrapped label): the head runs up to its cell's right
            # rule, and no rule runs between the two lines
            placed = {next((k for k in columns if k[0] < _start(cell) < k[1]), c): cell for c, cell in cells.items()}
            shared = [c for c in placed if c in columns]
            first = (current[0].top + current[0].bottom) / 2
            if shared:  # the wrapped cells go on here, beside the row's other cells
                fits = len(shared) == len(columns) < len(cells)
            else:  # the figures between the head and the rest of it: the next line carries it on
                fits = i + 1 < len(rows) and all(
                    any(k[0] < _start(cell) < k[1] for k in columns)
                    for cell in _cells_by_column(rows[i + 1], vertical, settings).values()
                )
                below = (rows[i + 1].top + rows[i + 1].bottom) / 2 if fits else middle
                fits = fits and not any(closed(c, first, below) for c in columns)
            if (
                fits
                and len(placed) == len(cells)
                and all(_fills(columns[c][-1], c) for c in columns)
                and not any(closed(c, first, middle) for c in {*placed, *columns})
            ):
                current.append(ln)
                for c, cell in placed.items():
                    columns.setdefault(c, []).append(cell)
                    last[c] = middle
                continue
        if current:
            out.append(_merged_row(current, columns))
        current, columns, last = [ln], {c: [cell] for c, cell in cells.items()}, dict.fromkeys(cells, middle)
    if current:
        out.append(_merged_row(current, columns))
    return out


#: A table is ruled between its rows when rules part its lines into at least this many runs ...
RULED_ROWS = 3
#: ... and a run of this many lines at most is one row whose cells all wrap (more: rows of figures
#: under one rule, a booktabs table's body).
WRAPPED_ROW_LINES = 6


def _ruled_rows(rows: list[TextLine], horizontal: Sequence[Rule]) -> list[int | None]:
    """Per line of a table, the run of lines between two horizontal rules it stands in, when that
    run is short enough to be one row in a table whose rules part its lines into :data:`RULED_ROWS`
    runs or more (else ``None``): there, a line with all the row's cells may carry on the row's
    wrapped cells."""
    x0, x1 = min(ln.x0 for ln in rows), max(ln.x1 for ln in rows)
    runs = [0]
    for upper, lower in itertools.pairwise(rows):
        a, b = (upper.top + upper.bottom) / 2, (lower.top + lower.bottom) / 2
        parted = any(a < r.top < b and min(x1, r.x1) - max(x0, r.x0) > 1 for r in horizontal)
        runs.append(runs[-1] + parted)
    sizes = [runs.count(k) for k in range(runs[-1] + 1)]
    if len(sizes) < RULED_ROWS:
        return [None] * len(rows)
    return [k if sizes[k] <= WRAPPED_ROW_LINES else None for k in runs]


def _merged_row(lines: list[TextLine], columns: dict[Cell, list[TextLine]]) -> TextLine:
    """One row from its text lines: the line itself when it is one, else its cells' lines joined."""
    if len(lines) == 1:
        return lines[0]
    joined = []
    for c in sorted(columns):
        cell = columns[c][0]
        for more in columns[c][1:]:
            cell = join_lines(cell, more)
        joined.append(cell)
    row = joined[0]
    for cell in joined[1:]:
        row = join_cell(row, cell)
    return row


#: A table cell's column: the x of the vertical rules left and right of it (infinite where none).
Cell = tuple[float, float]


def _cells_by_column(line: TextLine, vertical: Sequence[Rule], settings: LayoutSettings) -> dict[Cell, TextLine]:
    """A table row's cells by column: between the vertical rules beside the line that stand left and
    right of where the cell's text starts (the lines of a cell spanning several columns start at its
    left, however long they are)."""
    edges = sorted({round((r.x0 + r.x1) / 2, 1) for r in vertical if r.top < line.bottom and r.bottom > line.top})
    out: dict[Cell, list[Piece]] = {}
    for p in line.pieces:
        start = _start(p)
        k = sum(1 for x in edges if x < start)
        cell = (edges[k - 1] if k > 0 else -1e9, edges[k] if k < len(edges) else 1e9)
        out.setdefault(cell, []).append(p)
    return {c: make_line(ps, settings, cells=True, kind="table") for c, ps in out.items()}


def _no_room(upper: TextLine, lower: TextLine, cell: Cell) -> bool:
    """``upper``, a line of a cell with a rule on its right, was broken for want of room: it runs up
    to the rule, or ``lower``'s first word would not have fitted after it (a word space and the
    cell's inner margin on the left, where a rule stands there, as much kept free on the right)."""
    if _fills(upper, cell):
        return True
    if cell[1] >= 1e8:
        return False
    first = lower.text.split(" ", 1)[0]
    word = lower.xs[2 * len(first) - 1] - lower.x0 if first else 0.0
    margin = max(upper.x0 - cell[0], 0.0) if cell[0] > -1e8 else 0.0
    return upper.x1 + 0.25 * max(upper.size, 1.0) + word > cell[1] - margin


def _fills(line: TextLine, cell: Cell) -> bool:
    """A cell's line runs up to the cell's right rule (it wrapped for want of room)."""
    return cell[1] < 1e8 and line.x1 >= cell[1] - 2.5 * max(line.size, 1.0)


def _start(p: Piece | TextLine) -> float:
    """Where a cell's text starts, a few points in (centred text may stand out over its rule)."""
    return p.x0 + min(4.0, (p.x1 - p.x0) / 4)


def _runs(lines: list[TextLine], g: int) -> list[Block]:
    """Consecutive lines of one kind as blocks."""
    out: list[Block] = []
    for ln in lines:
        if out and out[-1].kind == ln.kind:
            out[-1].lines.append(ln)
            out[-1].x0 = min(out[-1].x0, ln.x0)
            out[-1].x1 = max(out[-1].x1, ln.x1)
        else:
            out.append(Block([ln], ln.kind, g, ln.x0, ln.x1))
    return out


#: Footnotes stand under at least this many lines of body: a title of two lines over an author
#: block's row in smaller type is no body over a footnote.
FOOTNOTE_BODY_LINES = 3


def _mark_footnotes(lines: list[TextLine], settings: LayoutSettings) -> None:
    """Mark trailing lines in smaller type, set off from the body above, as footnotes."""
    if len(lines) < 3:
        return
    weights: dict[float, int] = {}
    for ln in lines:
        weights[round(ln.size, 1)] = weights.get(round(ln.size, 1), 0) + len(ln.text)
    body = max(weights, key=lambda s: weights[s])
    k = len(lines)
    while k > 0 and lines[k - 1].size <= settings.footnote_size * body and lines[k - 1].kind == "body":
        k -= 1
    if k == len(lines) or k < FOOTNOTE_BODY_LINES:
        return
    gap = lines[k].top - lines[k - 1].bottom
    if gap < 0.5 * body:
        return
    for ln in lines[k:]:
        ln.kind = "footnote"
