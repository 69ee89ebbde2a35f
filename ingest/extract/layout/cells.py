"""Tables without rules whose cells wrap: each cell read whole, row by row.

A table drawn without rules shows its rows by space alone: every cell of a row starts on the row's
first baseline, a cell's text wraps on at the table's line pitch, and a little more space than the
pitch parts one row from the next. Read line by line, the lines of the cells beside each other are
interleaved (``reliant\\tResponsable du transport actif…\\tles secteurs``); read column by column,
each cell is whole but the rows are lost. Two rules here:

* :func:`aligned_cells`: two sides of a gutter are one table's columns, not two columns of text,
  when their blocks (lines at the pitch, parted by more space) start on the same baselines;
* :func:`wrapped_rows`: in a run of table lines, the lines of one row (at the pitch, between row
  gaps) are merged into one line, each cell's lines joined with a space, cells with a tab.

The helpers that join two parts of a table line (:func:`join_lines`, :func:`join_cell`) are shared
with the ruled tables of :mod:`~citeline.ingest.extract.layout.blocks`.
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Sequence

from citeline.ingest.extract.layout.lines import Piece, TextLine
from citeline.ingest.extract.layout_settings import LayoutSettings
from citeline.text.scripts import is_cjk

#: A baseline step more than this many times the table's line pitch (its smallest step) parts two
#: rows; calibrated on the fixture ``layout_wrapped_cells`` (pitch 11 pt, row steps 17 pt) and the
#: usual half-line of space between rows (1.5).
ROW_GAP = 1.25
#: A line with one cell continues the table when it is at most this many pitches below the line above.
PITCH_SLACK = 1.15
#: A table line is at most this many of its ems below the one above (the space between two rows).
MAX_ROW_STEP = 2.5
#: Two blocks beside each other start on one row when their first baselines are this close (points).
TOLERANCE = 2.0
#: Two sides of a gutter are one table's columns when their blocks start together on this many rows
#: at least (on two, a page's last lines beside a running head can: chi2023_citesee_2col, tuning).
MIN_ROWS = 3
#: A block of more lines than this on either side of a gutter is a paragraph, not a wrapped cell:
#: the two sides are then read as columns (a table of passages, "Passage received by BM25" beside
#: "Passage retrieved by DPR", interleaved line by line otherwise).
MAX_CELL_LINES = 4
#: A cell continues a column when it starts within this many ems of the column's first cell.
ALIGN = 0.5


# ----------------------------------------------------------------------------- sides of a gutter


def aligned_cells(left: Sequence[Piece], right: Sequence[Piece]) -> bool:
    """The two sides of a gutter are the columns of one table without rules whose cells wrap: each
    side's blocks (runs of baselines at the side's pitch) start on the same baselines as the other
    side's, on at least :data:`MIN_ROWS` rows, and some block holds two lines or more (a cell that wraps).
    Two columns of text start their paragraphs at heights of their own; an index's columns drift."""
    if not left or not right:
        return False
    # only where both sides stand (a caption or a heading above one side is no cell)
    top = max(min(p.baseline for p in left), min(p.baseline for p in right)) - TOLERANCE
    bottom = min(max(p.baseline for p in left), max(p.baseline for p in right)) + TOLERANCE
    starts: list[list[float]] = []
    wrapped = False
    for side in (left, right):
        bases = sorted({round(p.baseline, 1) for p in side if top <= p.baseline <= bottom})
        if len(bases) < 3:
            return False
        size = sorted(p.size for p in side)[len(side) // 2]  # (the median piece's)
        steps = [b - a for a, b in itertools.pairwise(bases) if b - a > 0.5 * size]
        if not steps:
            return False
        pitch = min(steps)
        if pitch > MAX_ROW_STEP * size:
            return False  # no line wraps at a pitch: nothing of a cell's text on two lines
        found = [bases[0]]
        run = 1
        for a, b in itertools.pairwise(bases):
            if b - a > ROW_GAP * pitch:
                found.append(b)
                run = 1
            else:
                run += 1
                wrapped = wrapped or run >= 2
                if run > MAX_CELL_LINES:
                    return False  # a paragraph, not a cell: columns of passages side by side
        starts.append(found)
    few, many = sorted(starts, key=len)
    if len(few) < MIN_ROWS or not wrapped:
        return False
    matched = sum(1 for b in many if any(abs(b - c) <= TOLERANCE for c in few))
    return matched == len(many)


# ----------------------------------------------------------------------------- rows of a flow


def cells_of(line: TextLine) -> list[TextLine]:
    """The cells of a table line (its text between tabs), each a line of its own with its x edges,
    and the pieces whose middle stands in it."""
    out: list[TextLine] = []
    start = 0
    text = line.text
    for end in [*(k for k, ch in enumerate(text) if ch == "\t"), len(text)]:
        if end > start:
            xs = line.xs[2 * start : 2 * end]
            x0, x1 = xs[0], xs[-1]
            pieces = [p for p in line.pieces if x0 - 0.5 <= (p.x0 + p.x1) / 2 <= x1 + 0.5]
            out.append(
                TextLine(
                    text[start:end],
                    array("f", xs),
                    x0,
                    x1,
                    line.top,
                    line.bottom,
                    line.baseline,
                    line.size,
                    "table",
                    pieces,
                )
            )
        start = end + 1
    return out


def wrapped_rows(lines: list[TextLine], settings: LayoutSettings) -> list[TextLine]:
    """``lines`` of one flow with each row of a table without rules read as one line: where a run
    of table lines (with a tab) and the lines of one cell below them has more space between some of
    its lines than between the others (the rows), the lines of a row whose cells wrap become one
    line, cell after cell. A row qualifies when its first line has a cell in every column the row
    uses, every other line's cells stand under those (left-aligned), a column's lines follow one
    another from the row's first line, some cell ends before the others (so the lines are not rows of
    one line each) and every cell after the first line holds a letter (a figure never wraps)."""
    del settings  # (the thresholds are this module's constants)
    out: list[TextLine] = []
    i = 0
    while i < len(lines):
        if lines[i].kind != "table":
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        starts = [c.x0 for c in cells_of(lines[i])]
        pitch = 0.0
        while j < len(lines) and lines[j].kind in ("table", "body"):
            step = lines[j].baseline - lines[j - 1].baseline
            em = max(lines[j].size, lines[j - 1].size, 1.0)
            if not 0.5 * em < step <= MAX_ROW_STEP * em:
                break
            if lines[j].kind != "table":
                # one cell under a column of the table, at the pitch: a cell's text wrapping on
                if not pitch or step > PITCH_SLACK * pitch or not _under(lines[j].x0, starts, em):
                    break
            else:
                starts += [c.x0 for c in cells_of(lines[j])]
            pitch = min(pitch, step) if pitch else step
            j += 1
        out.extend(_rows(lines[i:j], pitch))
        i = j
    return out


def _under(x: float, starts: Sequence[float], em: float) -> bool:
    return any(abs(x - s) <= ALIGN * em for s in starts)


def _rows(run: list[TextLine], pitch: float) -> list[TextLine]:
    """A run of table lines, each row whose cells wrap as one line (see :func:`wrapped_rows`)."""
    if len(run) < 3 or not pitch:
        return run
    groups: list[list[TextLine]] = [[run[0]]]
    for prev, ln in itertools.pairwise(run):
        if ln.baseline - prev.baseline > ROW_GAP * pitch:
            groups.append([ln])
        else:
            groups[-1].append(ln)
    if len(groups) < 2:
        return run  # no space parts the rows: each line is a row
    if sum(1 for group in groups if "\t" in group[0].text) < 2:
        return run  # one line of cells (a figure's ticks, a label beside a line): no table of rows
    out: list[TextLine] = []
    for group in groups:
        merged = _merged(group) if len(group) >= 2 else None
        out.extend([merged] if merged is not None else group)
    return out


def _merged(group: list[TextLine]) -> TextLine | None:
    """The lines of one row as one line, each column's cell whole, or ``None`` when they are not one
    row of wrapping cells."""
    head = cells_of(group[0])
    columns: list[list[TextLine]] = [[c] for c in head]
    shorter = False
    for k, ln in enumerate(group[1:], start=1):
        cells = cells_of(ln)
        shorter = shorter or len(cells) < len(head)
        for cell in cells:
            em = max(cell.size, 1.0)
            col = next((c for c, first in enumerate(head) if abs(cell.x0 - first.x0) <= ALIGN * em), -1)
            if col < 0 or len(columns[col]) != k:
                return None  # not under a cell of the first line, or after a hole in its column
            if not any(ch.isalpha() for ch in cell.text):
                return None
            columns[col].append(cell)
    if not shorter or not all(_wraps(column) for column in columns):
        return None
    row: TextLine | None = None
    for column in columns:
        cell = column[0]
        for more in column[1:]:
            cell = join_lines(cell, more)
        row = cell if row is None else join_cell(row, cell)
    assert row is not None
    row.baseline, row.size = group[0].baseline, max(ln.size for ln in group)
    return row


def _wraps(column: list[TextLine]) -> bool:
    """Each line of a cell but its last was broken for want of room: the next line's first word
    would not have fitted after it, short of the cell's widest line (a symbol beside its name, a
    list's entries one a line, are no cell wrapping on)."""
    right = max(ln.x1 for ln in column)
    for upper, lower in itertools.pairwise(column):
        first = lower.text.split(" ", 1)[0]
        word = lower.xs[2 * len(first) - 1] - lower.x0 if first else 0.0
        if upper.x1 + word + 0.5 * max(upper.size, 1.0) < right:
            return False
    return True


# ----------------------------------------------------------------------------- joining parts


def join_lines(upper: TextLine, lower: TextLine) -> TextLine:
    """Two lines of one wrapped cell as one: a space between them, none between CJK characters or
    after a line-end hyphen (the hyphen stays, as drawn: ``state-of-the-art``)."""
    tail, head = upper.text[-1:], lower.text[:1]
    sep = "" if not tail or not head or tail in "-\u2010" or (is_cjk(tail) and is_cjk(head)) else " "
    return joined(upper, lower, sep, (upper.x1, upper.x1))


def join_cell(left: TextLine, right: TextLine) -> TextLine:
    """A row's next cell after the ones before it, a tab between them."""
    return joined(left, right, "\t", (left.x1, max(left.x1, right.x0)))


def joined(first: TextLine, second: TextLine, sep: str, sep_edges: tuple[float, float]) -> TextLine:
    """Two parts of one table line as one, ``sep`` (drawn from ``sep_edges[0]`` to
    ``sep_edges[1]``) between them when it is not empty."""
    xs = array("f", first.xs)
    if sep:
        xs.extend(sep_edges)
    xs.extend(second.xs)
    return TextLine(
        first.text + sep + second.text,
        xs,
        min(first.x0, second.x0),
        max(first.x1, second.x1),
        min(first.top, second.top),
        max(first.bottom, second.bottom),
        first.baseline,
        max(first.size, second.size),
        "table",
        first.pieces + second.pieces,
    )
