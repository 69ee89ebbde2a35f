"""A check of a figure a claim gives for one column of a table's row: the figure under the year the
claim names, not another column's ("Gross margin reaches 36% by 2024E" of "毛利率(%) 35.3% 33.7%
35.0% 36.0% 38.0%" under "2020A 2021A 2022E 2023E 2024E": 36.0% is 2023E's)."""

from __future__ import annotations

from decimal import Decimal

from citeline.text.lang import CODES
from citeline.verify.checks import Check, Evidence
from citeline.verify.checks.direction import _PERCENT, _YEAR, _figures, _row_cells, _year_header
from citeline.verify.numbers.values import rounds_to


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


CHECKS = (
    Check(
        "row_column",
        "numeric_mismatch",
        frozenset(CODES),
        row_column,
        "a figure the claim gives for a year of a table's header is the quoted row's figure under that year",
    ),
)
