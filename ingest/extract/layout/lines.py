"""Stage 2, words -> lines.

First *pieces*: words that follow each other in content order on one baseline, closer than
:attr:`LayoutSettings.piece_gap`. A piece never crosses a column gutter, so the blocks stage can
find columns by looking at pieces. Then, inside one column (or a table), the pieces of one baseline
are put together left to right into a :class:`TextLine`, with a space where the gap is a word space
and a tab between table cells. A piece in smaller type that sits inside a line's band (a superscript
drawn after its line, a footnote mark) joins that line at its x position.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from citeline.ingest.extract.layout.words import Word, same_line
from citeline.ingest.extract.layout_settings import LayoutSettings
from citeline.text.scripts import MAYBE_RTL, is_cjk, is_rtl

#: What a line is to the reading order: body text, a footnote (read after the page body), a table
#: row, a label set beside a paragraph (read after that paragraph), a margin line number or other
#: margin text (furniture), text at another rotation, the page's foot (read last).
LineKind = Literal["body", "footnote", "table", "aside", "line_number", "margin", "rotated", "foot", "outside_crop"]
#: Characters that end a sentence, or a clause that a new line may start after.
SENTENCE_END = frozenset(".!?:;。！？")
#: Characters that end a sentence.
FULL_STOP = frozenset(".!?。！？")


@dataclass(slots=True)
class Piece:
    """Words adjacent in content order on one baseline."""

    words: list[Word]
    x0: float
    x1: float
    top: float
    bottom: float
    baseline: float
    size: float
    seq: int
    #: code points of its words (of its members' words, for a table)
    chars: int
    #: a ruled table standing in for its pieces while columns are found (``words`` is then empty)
    members: list[Piece] | None = None
    #: the table's rules only frame it (a boxed paragraph, a diagram): its members are read as a
    #: region of their own, in columns and paragraphs, not as rows of cells
    framed: bool = False

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    def __repr__(self) -> str:
        return f"<Piece {self.text[:40]!r} x={self.x0:.1f}-{self.x1:.1f} base={self.baseline:.1f}>"


@dataclass(slots=True)
class TextLine:
    """One line of the raw stream: its text, the x edges of every code point, and its box."""

    text: str
    xs: array[float]
    x0: float
    x1: float
    top: float
    bottom: float
    baseline: float
    size: float
    kind: LineKind = "body"
    pieces: list[Piece] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"<TextLine {self.kind} {self.text[:50]!r} base={self.baseline:.1f}>"


def pieces(words: Sequence[Word], settings: LayoutSettings) -> list[Piece]:
    """Pieces in content order."""
    out: list[Piece] = []
    gap_limit, back = settings.piece_gap, settings.overlap
    cur: Piece | None = None
    for w in words:
        if cur is not None:
            em = w.size if w.size > cur.size else cur.size
            small = w.size if w.size < cur.size else cur.size
            if small < MIN_SCRIPT * em and abs(w.baseline - cur.baseline) > settings.baseline_tolerance * small:
                em = small  # a script stands by its base: a drop number's size does not reach lines beside it
            gap = w.x0 - cur.x1
            if -back * em <= gap <= gap_limit * em and same_line(
                w.baseline, w.size, w.top, w.bottom, cur.baseline, cur.size, cur.top, cur.bottom, settings
            ):
                cur.words.append(w)
                cur.chars += len(w.text)
                if w.x1 > cur.x1:
                    cur.x1 = w.x1
                if w.top < cur.top:
                    cur.top = w.top
                if w.bottom > cur.bottom:
                    cur.bottom = w.bottom
                if w.size > cur.size / settings.script_size:
                    cur.baseline, cur.size = w.baseline, w.size
                continue
            out.append(cur)
        cur = Piece([w], w.x0, w.x1, w.top, w.bottom, w.baseline, w.size, w.seq, len(w.text))
    if cur is not None:
        out.append(cur)
    return out


def piece_of(words: Sequence[Word]) -> Piece:
    """The piece of ``words`` (adjacent on one baseline, in content order): its box, and the baseline
    and size of its largest word."""
    biggest = max(words, key=lambda w: w.size)
    return Piece(
        list(words),
        min(w.x0 for w in words),
        max(w.x1 for w in words),
        min(w.top for w in words),
        max(w.bottom for w in words),
        biggest.baseline,
        biggest.size,
        min(w.seq for w in words),
        sum(len(w.text) for w in words),
    )


#: A piece of this many words or more in type under :data:`MIN_SCRIPT` of a row's size is a line of
#: its own, not a script of that row: the text lines beside a list number or a drop cap set two and
#: a half times their size (in a newsletter, the line under the one a big "5" stands on was read
#: into that line, word by word in turn). A script, a footnote mark, a formula's index, is a word or
#: two (a diagram's labels in a math textbook are scripts at a third of their base's size).
SCRIPT_WORDS = 4
MIN_SCRIPT = 0.5


def group_rows(items: Iterable[Piece], settings: LayoutSettings) -> list[list[Piece]]:
    """Pieces of one baseline, top to bottom (each row left to right). Pieces in smaller type inside
    a row's band join that row rather than start their own."""
    ordered = sorted(items, key=lambda p: (p.baseline, p.x0))
    script_below = settings.script_size * _typical_size(ordered)
    rows: list[list[Piece]] = []
    bases: list[tuple[float, float, float, float]] = []  # per row: baseline, size, top, bottom
    scripts: list[Piece] = []
    drops: list[Piece] = []
    smallest = min((p.size for p in ordered), default=0.0)
    for p in ordered:
        if p.size >= DROP_SIZE * smallest and _drop(p, ordered):
            drops.append(p)
            continue
        if rows:
            base, size, top, bottom = bases[-1]
            if abs(p.baseline - base) <= settings.baseline_tolerance * max(p.size, size):
                rows[-1].append(p)
                bases[-1] = (base, max(size, p.size), min(top, p.top), max(bottom, p.bottom))
                continue
        if p.size < script_below:
            scripts.append(p)
            continue
        rows.append([p])
        bases.append((p.baseline, p.size, p.top, p.bottom))
    for p in scripts:
        # a small piece on its own baseline: a sub- or superscript (or a footnote mark) of the row
        # whose band holds it, else a line of its own
        best = -1
        for k, (base, size, top, bottom) in enumerate(bases):
            if abs(p.baseline - base) <= settings.baseline_tolerance * max(p.size, size) and _hangs(p, rows[k], size):
                best = k  # on the row's baseline, just left of its first piece (a list's bullet): in it
                break
            if p.size < MIN_SCRIPT * size and len(p.words) >= SCRIPT_WORDS:
                continue  # beside a big list number or a drop cap: a line of its own, not its script
            if same_line(p.baseline, p.size, p.top, p.bottom, base, size, top, bottom, settings) and _near_row(
                p, rows[k], settings
            ):
                best = k
                break
        if best >= 0:
            rows[best].append(p)
        else:
            rows.append([p])
            bases.append((p.baseline, p.size, p.top, p.bottom))
    for p in drops:  # a drop number is read before the lines beside it: ordered by its top
        rows.append([p])
        bases.append((p.top, p.size, p.top, p.bottom))
    order = sorted(range(len(rows)), key=lambda k: bases[k][0])
    out = []
    for k in order:
        row = sorted(rows[k], key=lambda p: p.x0)
        out.append(_dedupe(row))
    return out


#: A piece of one word in type at least this many times that of the pieces beside it, spanning
#: their lines, is a drop number or a drop capital: a line of its own, read before them (a chapter's
#: "5" beside its title's three lines was read into them, word by word in turn).
DROP_SIZE = 2.5


def _drop(p: Piece, items: Sequence[Piece]) -> bool:
    """``p`` is a drop number beside lines in type under 1 / :data:`DROP_SIZE` of its own, two of
    them or more within its height."""
    if len(p.words) != 1:
        return False
    beside = [
        q for q in items if q is not p and q.size * DROP_SIZE <= p.size and p.top <= q.top and q.bottom <= p.bottom
    ]
    return len({round(q.baseline) for q in beside}) >= 2


#: A piece in smaller type on a row's baseline hangs before it (a list's bullet, a small marker)
#: when it ends at most this many ems of the row's type left of the row's first piece.
HANG_GAP = 2.0


def _hangs(p: Piece, row: Sequence[Piece], size: float) -> bool:
    """``p`` stands just left of ``row``'s first piece, within :data:`HANG_GAP` ems of it: a list's
    bullet in smaller type on the line's baseline (sorted before the line's first piece, it was read
    as a line of its own between the item's lines, out of reach of the line as a script)."""
    first = min(q.x0 for q in row)
    return p.x1 <= first and first - p.x1 <= HANG_GAP * size


def _typical_size(items: Sequence[Piece]) -> float:
    sizes = sorted(p.size for p in items)
    return sizes[len(sizes) // 2] if sizes else 0.0


def _near_row(p: Piece, row: Sequence[Piece], settings: LayoutSettings) -> bool:
    """A script piece belongs to a row it touches horizontally (within a word space of it)."""
    reach = settings.piece_gap * max(q.size for q in row)
    return any(p.x0 <= q.x1 + reach and q.x0 - reach <= p.x1 for q in row)


def _dedupe(row: list[Piece]) -> list[Piece]:
    """Drop a piece drawn twice at (nearly) the same place with the same text (fake bold)."""
    if len(row) < 2:
        return row
    out = [row[0]]
    for p in row[1:]:
        q = out[-1]
        overlap = min(p.x1, q.x1) - max(p.x0, q.x0)
        if overlap > 0.8 * max(p.x1 - p.x0, 0.1) and p.text == q.text:
            continue
        out.append(p)
    return out


def make_line(
    row: Sequence[Piece], settings: LayoutSettings, *, cells: bool = False, kind: LineKind = "body"
) -> TextLine:
    """The pieces of one row as one line: a space between words and between pieces that a word space
    apart, a tab between pieces farther apart than :attr:`LayoutSettings.cell_gap` when ``cells``."""
    parts: list[str] = []
    # the edges as a list, made a float32 array once: twice as fast as extending the array word by word
    edges: list[float] = []
    last_x1 = None
    last_text = ""
    space_gap, cjk_gap, cell_gap = settings.space_gap, settings.cjk_space_gap, settings.cell_gap
    add_part, add_x, add_xs = parts.append, edges.append, edges.extend
    last_piece = -1
    for k, w in _words_in_x_order(row):
        if last_x1 is not None:
            sep = ""
            if k == last_piece:
                sep = " "  # words of one piece: a word boundary is a space
            else:
                em = w.size if w.size > 0.1 else 0.1
                gap = w.x0 - last_x1
                if cells and gap > cell_gap * em:
                    sep = "\t"
                elif gap > space_gap * em:
                    if gap > cjk_gap * em or not (is_cjk(w.text[0]) or is_cjk(last_text[-1])):
                        sep = " "
                elif w.space_before and gap > 0:
                    sep = " "
            if sep:
                add_part(sep)
                add_x(last_x1)
                add_x(w.x0 if w.x0 > last_x1 else last_x1)
        add_part(w.text)
        add_xs(w.xs)
        last_x1 = w.x1
        last_text = w.text
        last_piece = k
    text = "".join(parts)
    xs = array("f", edges)
    if MAYBE_RTL.search(text):
        text, xs = logical_order(text, xs)
    if len(row) == 1:  # most rows: the piece's own box, without four passes over a row of one
        base_piece = row[0]
        x0, x1, top, bottom = base_piece.x0, base_piece.x1, base_piece.top, base_piece.bottom
    else:
        base_piece = max(row, key=lambda p: p.size)
        x0, x1 = min(p.x0 for p in row), max(p.x1 for p in row)
        top, bottom = min(p.top for p in row), max(p.bottom for p in row)
    return TextLine(text, xs, x0, x1, top, bottom, base_piece.baseline, base_piece.size, kind, list(row))


def _words_in_x_order(row: Sequence[Piece]) -> list[tuple[int, Word]]:
    """The row's words left to right, each with the index of its piece. Pieces side by side give
    their words piece after piece; a piece inside another one's span (a superscript drawn after its
    line) puts its words among the other's at their x position."""
    out = [(k, w) for k, p in enumerate(row) for w in p.words]
    if any(row[k].x0 < row[k - 1].x1 - 0.5 for k in range(1, len(row))):
        out.sort(key=lambda kw: kw[1].x0)
    return out


def logical_order(text: str, xs: array[float]) -> tuple[str, array[float]]:
    """A line's right-to-left runs (Hebrew, Arabic) in reading order. The layout puts glyphs in
    order of their x position, which for right-to-left script is the reverse of reading order; a
    run reaches from one right-to-left letter to the last one after it that is separated only by
    spaces, punctuation and digits, and is reversed, with numbers inside it kept left to right. Each
    code point keeps its own x edges."""
    chars = list(text)
    pairs = [(xs[2 * k], xs[2 * k + 1]) for k in range(len(chars))]
    k = 0
    n = len(chars)
    while k < n:
        if not is_rtl(chars[k]):
            k += 1
            continue
        end = k + 1
        j = k + 1
        while (j < n and not chars[j].isalpha()) or (j < n and is_rtl(chars[j])):
            if is_rtl(chars[j]):
                end = j + 1
            j += 1
        order = list(range(end - 1, k - 1, -1))
        # numbers read left to right inside a right-to-left run
        out: list[int] = []
        q = 0
        while q < len(order):
            if chars[order[q]].isdigit():
                r = q
                while r < len(order) and (chars[order[r]].isdigit() or chars[order[r]] in ".,"):
                    r += 1
                out.extend(reversed(order[q:r]))
                q = r
            else:
                out.append(order[q])
                q += 1
        chars[k:end] = [chars[i] for i in out]
        pairs[k:end] = [pairs[i] for i in out]
        k = end
    flat = array("f")
    for a, b in pairs:
        flat.append(a)
        flat.append(b)
    return "".join(chars), flat
