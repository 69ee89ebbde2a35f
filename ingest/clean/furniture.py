"""Running header, footer and page-number removal, driven by the page structure of the raw stream.

The raw stream separates pages with ``"\\f"`` and lines with ``"\\n"``. A line is *furniture* when it
sits in the top or bottom band of its page (the first or last :data:`BAND_LINES` non-blank lines, and,
when the extractor gave geometry, within :data:`BAND_FRACTION` of the page edge) and either

* repeats on several pages once digits are normalised (``Page 3`` and ``Page 4`` match) and a page
  number at either end is left out (``- 34 -  Instructions for Form 1040NR`` on an even page and
  ``Instructions for Form 1040NR  - 35 -`` on an odd one match), or
* is a page number: ``Page N``, ``Page N of M``, ``N / M``, ``- N -``, a bare number or a roman
  numeral. Bare numbers and numerals only count when at least two pages agree on the offset between
  the printed number and the page index, so a stray number at the foot of one table is kept, or

Removed regions are reported (kind, span, page, text) so the store can keep them; the map keeps their
positions, so nothing is lost.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from citeline.ingest.extract.model import FOOTER, HEADER, PAGE_NUMBER, Furniture, FurnitureKind, LineGeometry
from citeline.text.offsets import Edit, OffsetMap, apply_edits

__all__ = [
    "FOOTER",
    "HEADER",
    "PAGE_NUMBER",
    "Furniture",
    "FurnitureKind",
    "LineGeometry",
    "Stripped",
    "find_furniture",
    "page_number_of",
    "strip_furniture",
]

#: How many non-blank lines at the top and at the bottom of a page are candidates.
BAND_LINES = 3
#: With geometry, a candidate must also lie within this fraction of the page height from the edge.
BAND_FRACTION = 0.15
#: A repeated line must appear on at least this share of the pages with text (and on two pages).
REPEAT_SHARE = 0.3
#: The first line of a later page is a running head when this share of its words (three or more)
#: occur in the first :data:`TITLE_LINES` lines of page 1 (title and authors).
TITLE_ECHO = 0.8
TITLE_LINES = 6


_PAGE_WORD = re.compile(
    r"^(?:page|p\.|pp\.|seite|s\.|pág\.?|página|pagina|страница|стр\.)\s*(\d{1,5})"
    r"(?:\s*(?:of|/|von|de|sur|из)\s*\d{1,5})?$",
    re.IGNORECASE,
)
_N_OF_M = re.compile(r"^(\d{1,5})\s*(?:/|of)\s*\d{1,5}$", re.IGNORECASE)
_BARE = re.compile(r"^[-–—\[(]?\s*(\d{1,5})\s*[-–—\])]?$")
_ROMAN = re.compile(
    r"^[-–—]?\s*(m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))\s*[-–—]?$", re.IGNORECASE
)
_DIGITS = re.compile(r"\d+")
_SPACE_RUN = re.compile(r"\s+")
#: A page number (digits already turned to ``#``) at the start or the end of a line's key.
_EDGE_NUMBER = re.compile(r"^[-–—\[(]?\s?#\s?[-–—\])]? (?=\S)| [-–—\[(]?\s?#\s?[-–—\])]?$")
_LINE = re.compile(r"[^\n\r\f]+")
_WORDS = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class Stripped:
    text: str
    map: OffsetMap
    removed: tuple[Furniture, ...]


@dataclass(frozen=True, slots=True)
class _Line:
    start: int
    end: int
    page: int  # 1-based
    text: str  # stripped
    band: FurnitureKind  # HEADER or FOOTER


def _roman_value(s: str) -> int:
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
    total = 0
    s = s.lower()
    for i, ch in enumerate(s):
        v = values[ch]
        total += -v if i + 1 < len(s) and values[s[i + 1]] > v else v
    return total


def page_number_of(text: str) -> tuple[int, bool] | None:
    """``(printed number, explicit)`` when a line is a page number; explicit forms need no agreement."""
    for pattern in (_PAGE_WORD, _N_OF_M):
        m = pattern.match(text)
        if m:
            return int(m.group(1)), True
    m = _BARE.match(text)
    if m:
        return int(m.group(1)), False
    m = _ROMAN.match(text)
    if m and m.group(1):
        return _roman_value(m.group(1)), False
    return None


def _key(text: str) -> str:
    """What a running line is compared by: digits normalised, and a page number at either end left out."""
    return _EDGE_NUMBER.sub("", _SPACE_RUN.sub(" ", _DIGITS.sub("#", text.casefold())).strip())


def _band_lines(text: str, geometry: Sequence[LineGeometry] | None) -> tuple[list[_Line], int]:
    by_start = {g.start: g for g in geometry} if geometry else None
    lines: list[_Line] = []
    pages_with_text = 0
    page_start = 0
    for page_no, page_text in enumerate(text.split("\f"), start=1):
        found = []
        for m in _LINE.finditer(page_text):
            stripped = m.group().strip()
            if stripped:
                lead = len(m.group()) - len(m.group().lstrip())
                s = page_start + m.start() + lead
                found.append((s, s + len(stripped), stripped))
        if found:
            pages_with_text += 1
        n = len(found)
        for i, (s, e, t) in enumerate(found):
            bands = []
            if i < BAND_LINES:
                bands.append(HEADER)
            if i >= n - BAND_LINES:
                bands.append(FOOTER)
            if by_start is not None:
                g = by_start.get(s)
                if g is None or g.page_height <= 0:
                    bands = []
                else:
                    bands = [
                        b
                        for b in bands
                        if (b == HEADER and g.top <= BAND_FRACTION * g.page_height)
                        or (b == FOOTER and g.bottom >= (1 - BAND_FRACTION) * g.page_height)
                    ]
            if bands:
                lines.append(_Line(s, e, page_no, t, bands[0] if len(bands) == 1 or i < n / 2 else bands[1]))
        page_start += len(page_text) + 1
    return lines, pages_with_text


def _title_block(first_page: str) -> list[str]:
    """The title and author lines of page 1: its first :data:`TITLE_LINES` lines, but not past the
    first body paragraph (three lines or more), whose words a running head does not echo."""
    out: list[str] = []
    for paragraph in first_page.split("\n\n"):
        lines = [ln for ln in paragraph.split("\n") if ln.strip()]
        if len(lines) >= 3 and out:
            break
        out.extend(lines)
        if len(out) >= TITLE_LINES:
            break
    return out[:TITLE_LINES]


def find_furniture(text: str, *, geometry: Sequence[LineGeometry] | None = None) -> list[Furniture]:
    """Detect running headers, footers and page numbers in a ``\\f``-paged raw stream."""
    if "\f" not in text:
        return []  # one page: nothing can run across pages
    candidates, pages_with_text = _band_lines(text, geometry)
    first_lines = _title_block(text.split("\f", 1)[0])
    page_heads = {min(c.start for c in candidates if c.page == p) for p in {c.page for c in candidates}}
    found: dict[int, Furniture] = {}

    # page numbers: explicit forms directly, bare numbers when two pages agree on the offset
    offsets: dict[int, list[_Line]] = defaultdict(list)
    for line in candidates:
        pn = page_number_of(line.text)
        if pn is None:
            continue
        number, explicit = pn
        if explicit:
            found[line.start] = Furniture(PAGE_NUMBER, line.start, line.end, line.page, line.text)
        offsets[number - line.page].append(line)
    for group in offsets.values():
        if len({line.page for line in group}) >= 2:  # explicit forms vouch for bare numbers too
            for line in group:
                found[line.start] = Furniture(PAGE_NUMBER, line.start, line.end, line.page, line.text)

    # repeated lines, digits normalised
    pages_by_key: dict[tuple[str, str], set[int]] = defaultdict(set)
    for line in candidates:
        if line.start not in found:
            pages_by_key[(line.band, _key(line.text))].add(line.page)
    needed = max(2, math.ceil(REPEAT_SHARE * pages_with_text))
    for line in candidates:
        if line.start in found:
            continue
        key = _key(line.text)
        if len(key) >= 2 and len(pages_by_key[(line.band, key)]) >= needed:
            found[line.start] = Furniture(line.band, line.start, line.end, line.page, line.text)

    # rows of the page's top and bottom bands (by position, wherever the reading order put them)
    # whose words recur on enough pages: a running head read after the body, or split into pieces
    if geometry:
        for f in _running_rows(text, geometry, needed):
            found.setdefault(f.start, f)

    # a running head that echoes the title block (authors, short title) on pages after the first
    title_words = set(_WORDS.findall(" ".join(first_lines).casefold()))
    for line in candidates:
        if line.start in found or line.page == 1 or line.band != HEADER or line.start not in page_heads:
            continue
        words = _WORDS.findall(line.text.casefold())
        if len(words) >= 3 and sum(w in title_words for w in words) >= TITLE_ECHO * len(words):
            found[line.start] = Furniture(HEADER, line.start, line.end, line.page, line.text)
    return sorted(found.values(), key=lambda f: f.start)


#: Lines whose tops (or bottoms) are this close (points) stand in one row of the page.
ROW_TOLERANCE = 2.0


def _running_rows(text: str, geometry: Sequence[LineGeometry], needed: int) -> list[Furniture]:
    """Running heads and feet found by position and shape: on each page, the :data:`BAND_LINES`
    topmost and bottommost rows (lines side by side, within :data:`ROW_TOLERANCE`) inside
    :data:`BAND_FRACTION` of the page's edge, wherever the reading order put them; a row is furniture
    when its words, digits left out and order ignored, recur in that band on ``needed`` pages or
    more (``172 PART TWO Biological Foundations`` on even pages, split into three pieces on some;
    ``CHAPTER 5 Physical Development 171`` on odd ones). A row that is a page number alone is one
    when two pages agree on the offset between the printed number and the page index."""
    by_start = {g.start: g for g in geometry}
    numbers: dict[int, list[tuple[int, int, int, str]]] = defaultdict(list)  # by printed minus page number
    rows_by_key: dict[tuple[FurnitureKind, str], list[tuple[int, list[tuple[int, int, str]]]]] = defaultdict(list)
    page_start = 0
    for page_no, page_text in enumerate(text.split("\f"), start=1):
        placed: list[tuple[LineGeometry, int, int, str]] = []
        for m in _LINE.finditer(page_text):
            stripped = m.group().strip()
            if not stripped:
                continue
            s = page_start + m.start() + len(m.group()) - len(m.group().lstrip())
            g = by_start.get(s)
            if g is not None and g.page_height > 0:
                placed.append((g, s, s + len(stripped), stripped))
        page_start += len(page_text) + 1
        band: FurnitureKind
        for band in (HEADER, FOOTER):
            if band == HEADER:
                near = sorted(
                    (p for p in placed if p[0].top <= BAND_FRACTION * p[0].page_height), key=lambda p: p[0].top
                )
            else:
                near = sorted(
                    (p for p in placed if p[0].bottom >= (1 - BAND_FRACTION) * p[0].page_height),
                    key=lambda p: -p[0].bottom,
                )
            rows: list[list[tuple[LineGeometry, int, int, str]]] = []
            for p in near:
                edge = p[0].top if band == HEADER else p[0].bottom
                last = rows[-1][0][0] if rows else None
                if last is not None and abs((last.top if band == HEADER else last.bottom) - edge) <= ROW_TOLERANCE:
                    rows[-1].append(p)
                elif len(rows) < BAND_LINES:
                    rows.append([p])
                else:
                    break
            for row in rows:
                if len(row) == 1:
                    pn = page_number_of(row[0][3])
                    if pn is not None:
                        numbers[pn[0] - page_no].append((page_no, row[0][1], row[0][2], row[0][3]))
                        continue
                words = sorted(_WORDS.findall(" ".join(p[3] for p in row).casefold()))
                if words:
                    rows_by_key[(band, " ".join(words))].append((page_no, [(p[1], p[2], p[3]) for p in row]))
    out: list[Furniture] = []
    for group in numbers.values():  # page numbers where two pages agree on the offset, as above
        if len({page for page, *_ in group}) >= 2:
            out.extend(Furniture(PAGE_NUMBER, s, e, page, t) for page, s, e, t in group)
    for (band, _), recurring in rows_by_key.items():
        if len({page for page, _ in recurring}) < needed:
            continue
        for page, spans in recurring:
            out.extend(Furniture(band, s, e, page, t) for s, e, t in spans)
    return out


def strip_furniture(
    text: str,
    *,
    geometry: Sequence[LineGeometry] | None = None,
    known: Sequence[Furniture] = (),
    detect: bool = True,
) -> Stripped:
    """Remove detected (and ``known``) furniture lines, with the blank space between them and the body
    (after a line at the head of a page, before one at its foot); page breaks stay."""
    items = {f.start: f for f in (find_furniture(text, geometry=geometry) if detect else [])}
    for f in known:
        items[f.start] = f
    removed = sorted(items.values(), key=lambda f: f.start)
    edits: list[Edit] = []
    last_end = 0
    for f in removed:
        start, end = f.start, f.end
        before = text.rfind("\f", 0, start) + 1  # start of the page
        if not text[before:start].strip():
            # at the head of its page: take the whitespace after it, up to the next text
            while end < len(text) and text[end] != "\f" and text[end].isspace():
                end += 1
        else:
            # elsewhere (the foot of a page): take the whitespace before it
            while start > last_end and text[start - 1] != "\f" and text[start - 1].isspace():
                start -= 1
        start = max(start, last_end)
        if start < end:
            edits.append(Edit(start, end, ""))
            last_end = end
    new_text, new_map = apply_edits(text, edits)
    return Stripped(new_text, new_map, tuple(removed))
