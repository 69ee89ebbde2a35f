"""Checks of what a claim says of a table's row: the figure under the year it names ("Gross margin
reaches 36% by 2024E" of "毛利率(%) 35.3% 33.7% 35.0% 36.0% 38.0%" under "2020A … 2024E": 36.0% is
2023E's), a trend its figures do not show ("P/E rising: "P/E 82.90 30.47 20.02 15.38"" under the
years 2021 to 2024), a rise or fall said of a row of two periods that goes the other way ("Other
receivables fell: "其他应收款 18,267,606.14 3,123,072.43 484.92%"" under 本期 and 上期), and a row
said to move one way at every step that rises and falls."""

from __future__ import annotations

import functools
import itertools
import re
from decimal import Decimal

from citeline.text.lang import CODES, Language
from citeline.verify.checks import Check, Evidence
from citeline.verify.checks.direction import _directions
from citeline.verify.checks.numbers import table_of
from citeline.verify.numbers.values import rounds_to

_WORD = re.compile(r"[^\W\d_]+")
_FIGURE = re.compile(r"(?<![\w.,])-?\d+(?:,\d{3})*(?:\.\d+)?(?![\w,.]\d)")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)[a-z]?(?!\d)", re.IGNORECASE)
_PERCENT = re.compile(r"(?<![\w.,])(-?\d+(?:,\d{3})*(?:\.\d+)?)\s?%")
#: Two years this close (a column header's cells: "2018 年 1-3 月 2017 年 1-3 月", "2019   2018")
_YEAR_PAIR = re.compile(
    r"(?<!\d)((?:19|20)\d\d)(?!\d)[^\n\d]{0,12}(?:\d{1,2}(?:-\d{1,2})?[^\n\d]{0,6})?((?:19|20)\d\d)(?!\d)"
)
#: How far before a row its table's period header is looked for (characters)
HEADER_REACH = 3000
#: Two period words this close are one header's two columns (characters)
PAIR_GAP = 40
#: A change column agrees with two figures within this many percentage points
PERCENT_TOLERANCE = Decimal("0.6")
#: A row's figures count as unchanged, or as a trend, only with at least this many of them.
TREND_FIGURES = 3


def _row_cells(quoted: str) -> bool:
    """Whether a quote reads as a table row: its figures are its last cells, no word after the first."""
    first = _FIGURE.search(quoted)
    return first is not None and _WORD.search(quoted, first.start()) is None


def _figures(text: str) -> list[Decimal]:
    return [Decimal(m.group().replace(",", "")) for m in _FIGURE.finditer(text)]


def row_trend(e: Evidence) -> str | None:
    """A claim that says a table's row rises or falls: the row's figures change (a row whose figures
    are all one says neither), and where the table's header gives years in order, they change that
    way from the first to the last."""
    if not e.cit.claim or not e.cit.quote:
        return None
    said = _directions(e.own_words, e.answer)
    if len(said) != 1:
        return None
    header = table_of(e.chunk.text, e.start, e.end)
    quoted = e.chunk.text[e.start : e.end]
    row = _row_cells(quoted)
    if not header and not row:
        return None
    figures = _figures(quoted)
    if len(figures) < TREND_FIGURES:
        return None
    direction = said.pop()
    if len(set(figures)) == 1:
        return f"the claim says {direction}, the row's figures do not change"
    years = [int(y) for y in _YEAR.findall(header)]
    ordered = len(years) >= TREND_FIGURES and all(a < b for a, b in itertools.pairwise(years))
    if not ordered and row:
        # the table's header row of years above the row, in its chunk or the chunk before (a
        # statement's "2021A 2022E 2023E 2024E"), one year a figure
        years = _year_header(e, len(figures))
        ordered = bool(years)
    if not ordered or len(figures) > len(years) + 1:
        return None
    trend = "up" if figures[-1] > figures[0] else "down" if figures[-1] < figures[0] else None
    if trend is None or trend == direction:
        return None
    return f"the claim says {direction}, the row's figures go {trend} from {figures[0]} to {figures[-1]}"


#: a header row of years: three or more, each a cell ("2021A 2022E 2023E 2024E", "2019 2020 2021")
_YEAR_ROW = re.compile(r"(?<!\d)(?:(?:19|20)\d\d[AEFP]?(?![\d.,%])[ \t]*){3,}")


def _year_header(e: Evidence, count: int) -> list[int]:
    """The years of the nearest header row of ``count`` years above the quote, ascending, or []."""
    line_start = e.chunk.text.rfind("\n", 0, e.start) + 1
    before = _previous_chunk(e)[-HEADER_REACH:] + "\n" + e.chunk.text[max(0, line_start - HEADER_REACH) : line_start]
    for m in reversed(list(_YEAR_ROW.finditer(before))):
        years = [int(y) for y in re.findall(r"(?:19|20)\d\d", m.group())]
        if len(years) == count:
            return years if all(a < b for a, b in itertools.pairwise(years)) else []
    return []


@functools.cache
def _periods(lang: Language) -> re.Pattern[str] | None:
    words = sorted({*lang.period_current, *lang.period_prior}, key=len, reverse=True)
    if not lang.period_current or not lang.period_prior:
        return None
    return re.compile("|".join(map(re.escape, words)), re.IGNORECASE)


def _current_first_by_header(before: str, lang: Language) -> bool | None:
    """Whether the nearest two-period header in ``before`` puts the later period first (本期 上期,
    "2019 2018"), after it (期初 期末, "2018 2019"), or ``None`` when no such header is near."""
    best: tuple[int, bool] | None = None
    pattern = _periods(lang)
    if pattern is not None:
        current = {w.lower() for w in lang.period_current}
        found = [(m.start(), m.group().lower() in current) for m in pattern.finditer(before)]
        for (a, a_cur), (b, b_cur) in itertools.pairwise(found):
            if a_cur != b_cur and b - a <= PAIR_GAP:
                best = (b, a_cur)
    for m in _YEAR_PAIR.finditer(before):
        first, second = int(m.group(1)), int(m.group(2))
        if first != second and (best is None or m.end() > best[0]):
            best = (m.end(), first > second)
    return None if best is None else best[1]


def _change(a: Decimal, b: Decimal) -> Decimal | None:
    """The change from ``b`` to ``a`` in percent of ``b``."""
    return None if b == 0 else (a - b) / abs(b) * 100


def row_change(e: Evidence) -> str | None:
    """A claim that says a row of two periods rose or fell: the later period's figure is above the
    earlier's, or below. Which figure is the later one: the row's own change column, when it holds
    the change from one figure to the other ("18,267,606.14 3,123,072.43 484.92%"), else the nearest
    header of two periods above the row (本期 上期, "prior year", two years). A claim about a
    loss or a deficit is read against a row that gives it as a negative figure: a loss that
    widens is a figure that falls."""
    if not e.cit.claim or not e.cit.quote:
        return None
    own = e.own_words
    said = _directions(own, e.answer)
    if len(said) != 1:
        return None
    shortfall = e.answer.shortfall_quantities
    if e.answer.unspaced:
        of_a_loss = any(w in own for w in shortfall)
    else:
        of_a_loss = any(w.lower() in shortfall for w in _WORD.findall(own))
    quoted = e.chunk.text[e.start : e.end]
    if not _row_cells(quoted):
        return None
    percents = [Decimal(m.group(1).replace(",", "")) for m in _PERCENT.finditer(quoted)]
    figures = _figures(_PERCENT.sub(" ", quoted))
    if len(figures) != 2 or len(percents) > 1:
        return None
    a, b = figures
    current_first: bool | None = None
    if percents:
        p = percents[0]
        forward, backward = _change(a, b), _change(b, a)
        if forward is not None and abs(forward - p) <= PERCENT_TOLERANCE:
            current_first = True
        elif backward is not None and abs(backward - p) <= PERCENT_TOLERANCE:
            current_first = False
        else:
            return None
    else:
        line_start = e.chunk.text.rfind("\n", 0, e.start) + 1
        before = e.chunk.text[max(0, line_start - HEADER_REACH) : line_start]
        current_first = _current_first_by_header(before, e.doc)
        if current_first is None:
            before = _previous_chunk(e)[-HEADER_REACH:] + "\n" + before
            current_first = _current_first_by_header(before, e.doc)
        if current_first is None:
            return None
    later, earlier = (a, b) if current_first else (b, a)
    trend = "up" if later > earlier else "down" if later < earlier else None
    direction = said.pop()
    if of_a_loss:
        # a loss that grows ("widened") is a figure that falls when the row gives it as a negative
        # profit (-4,831,324.09 against -15,714,409.94: the loss narrowed); given as a positive
        # amount, or with figures of both signs, the row is not read
        if not (a < 0 and b < 0):
            return None
        direction = "down" if direction == "up" else "up"
    if trend is None or trend == direction:
        return None
    side = "above" if trend == "up" else "below"
    return f"the claim says {direction}, the row's later figure {later} is {side} the earlier {earlier}"


def row_steps(e: Evidence) -> str | None:
    """A claim that a table row moves one way at every step ("keeps rising every year", 逐年下降)
    of a row whose figures rise and fall: whichever way its columns run, it does not move one way."""
    if not e.cit.claim or not e.cit.quote or not e.answer.monotone:
        return None
    own = e.own_words
    said = _directions(own, e.answer)
    folded = own.lower()
    if len(said) != 1 or not any(p in folded for p in e.answer.monotone):
        return None
    quoted = e.chunk.text[e.start : e.end]
    if not _row_cells(quoted):
        return None
    figures = _figures(_PERCENT.sub(lambda m: m.group(1), quoted))
    if len(figures) < TREND_FIGURES:
        return None
    steps = {(b > a) - (b < a) for a, b in itertools.pairwise(figures)} - {0}
    if steps != {1, -1}:
        return None
    shown = " ".join(str(f) for f in figures)
    return f"the claim says {said.pop()} at every step, the row's figures rise and fall ({shown})"


def _previous_chunk(e: Evidence) -> str:
    """The text of the chunk before the cited one in its document version (a table's header may
    head it there), or ""."""
    texts = e.document()
    try:
        k = texts.index(e.chunk.text)
    except ValueError:
        return ""
    return texts[k - 1] if k > 0 else ""


def _same(claimed: Decimal, figure: Decimal) -> bool:
    return claimed == figure or rounds_to(figure, claimed)


def row_column(e: Evidence) -> str | None:
    """The claim's own words name one year of the header row above a quoted table row (one year a
    figure) and give a figure of the row: the figure under that year is among the claim's figures,
    or no figure of the claim is another column's (a claim that gives the year's figure may give
    others beside it: "38% by 2024E, up from 36%")."""
    if not e.cit.claim or not e.cit.quote:
        return None
    quoted = e.chunk.text[e.start : e.end]
    if not _row_cells(quoted):
        return None
    row = _figures(_PERCENT.sub(lambda m: m.group(1), quoted))
    years = _year_header(e, len(row)) if len(row) >= 2 else []
    if not years:
        return None
    own = e.own_words
    named = {int(y) for y in _YEAR.findall(own)} & set(years)
    if len(named) != 1:
        return None
    year = named.pop()
    said = _figures(_PERCENT.sub(lambda m: m.group(1), _YEAR.sub(" ", own)))
    under = row[years.index(year)]
    if any(_same(f, under) for f in said):
        return None
    for f in said:
        other = next((y for y, g in zip(years, row, strict=True) if y != year and _same(f, g)), None)
        if other is not None:
            return f"the claim's {f} is the row's figure for {other}; for {year} the row gives {under}"
    return None


ROW_NUMBER_CHECKS = (
    Check(
        "row_column",
        "numeric_mismatch",
        frozenset(CODES),
        row_column,
        "a figure the claim gives for a year of a table's header is the quoted row's figure under that year",
    ),
)


ROW_DIRECTION_CHECKS = (
    Check(
        "row_trend",
        "direction_mismatch",
        frozenset(CODES),
        row_trend,
        "a rise or a fall the claim says of a table's row is what its figures do under the header's years",
    ),
    Check(
        "row_change",
        "direction_mismatch",
        frozenset(CODES),
        row_change,
        "a rise or a fall the claim says of a row of two periods is how the later figure stands to the earlier",
    ),
    Check(
        "row_steps",
        "direction_mismatch",
        frozenset(CODES),
        row_steps,
        "a row said to move one way at every step ('every year', 'steadily') does not rise and fall",
    ),
)
