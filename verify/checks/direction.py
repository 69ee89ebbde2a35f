"""Checks of the direction a claim's own words give against its evidence's: a rise said of a fall
("The ability declines: "… the ability to monitor … increases""), a higher value said of a lower
one ("lower latency" beside "an increased latency"), and a trend said of a table's row that its
figures do not show ("P/E rising: "P/E 82.90 30.47 20.02 15.38"" under the years 2021 to 2024)."""

from __future__ import annotations

import itertools
import re
from decimal import Decimal

from citeline.text.lang import CODES, Language
from citeline.verify.checks import Check, Evidence
from citeline.verify.checks.numbers import table_of
from citeline.verify.claims import without
from citeline.verify.negation import WORD as NEGATION_WORD

_WORD = re.compile(r"[^\W\d_]+")
_FIGURE = re.compile(r"(?<![\w.,])-?\d+(?:,\d{3})*(?:\.\d+)?(?![\w,.]\d)")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)[a-z]?(?!\d)", re.IGNORECASE)
#: A row's figures count as unchanged, or as a trend, only with at least this many of them.
TREND_FIGURES = 3


def _directions(text: str, lang: Language) -> set[str]:
    """Which directions (``up``, ``down``) the words of ``text`` name; a word a negation stands right
    before ("did not increase") names none."""
    out = set()
    if lang.unspaced:
        if any(w in text for w in lang.up):
            out.add("up")
        if any(w in text for w in lang.down):
            out.add("down")
        return out
    words = [w.lower() for w in NEGATION_WORD.findall(text)]
    for k, w in enumerate(words):
        if any(lang.denies(x) for x in words[max(0, k - 2) : k]):
            continue
        if w in lang.up:
            out.add("up")
        elif w in lang.down:
            out.add("down")
    return out


def _own_words(e: Evidence) -> str:
    assert e.cit.claim is not None
    assert e.cit.quote is not None
    return without(without(e.cit.claim, e.cit.other_quotes), (e.cit.quote,))


def claim_direction(e: Evidence) -> str | None:
    """The claim's own words name one direction (a rise or a fall) and the quote's sentence only the
    other."""
    if not e.cit.claim or not e.cit.quote:
        return None
    said = _directions(_own_words(e), e.answer)
    found = _directions(e.sentences, e.doc)
    if len(said) != 1 or len(found) != 1 or said == found:
        return None
    return f"the claim says {said.pop()}, the source {found.pop()}"


def _figures(text: str) -> list[Decimal]:
    return [Decimal(m.group().replace(",", "")) for m in _FIGURE.finditer(text)]


def row_trend(e: Evidence) -> str | None:
    """A claim that says a table's row rises or falls: the row's figures change (a row whose figures
    are all one says neither), and where the table's header gives years in order, they change that
    way from the first to the last."""
    if not e.cit.claim or not e.cit.quote:
        return None
    said = _directions(_own_words(e), e.answer)
    if len(said) != 1:
        return None
    header = table_of(e.chunk.text, e.start, e.end)
    if not header:
        return None
    figures = _figures(e.chunk.text[e.start : e.end])
    if len(figures) < TREND_FIGURES:
        return None
    direction = said.pop()
    if len(set(figures)) == 1:
        return f"the claim says {direction}, the row's figures do not change"
    years = [int(y) for y in _YEAR.findall(header)]
    ordered = len(years) >= TREND_FIGURES and all(a < b for a, b in itertools.pairwise(years))
    if not ordered or len(figures) > len(years) + 1:
        return None
    trend = "up" if figures[-1] > figures[0] else "down" if figures[-1] < figures[0] else None
    if trend is None or trend == direction:
        return None
    return f"the claim says {direction}, the row's figures go {trend} from {figures[0]} to {figures[-1]}"


CHECKS = (
    Check(
        "claim_direction",
        "direction_mismatch",
        frozenset(CODES),
        claim_direction,
        "the claim's own words do not name a rise where the evidence names only a fall, or the reverse",
    ),
    Check(
        "row_trend",
        "direction_mismatch",
        frozenset(CODES),
        row_trend,
        "a rise or a fall the claim says of a table's row is what its figures do under the header's years",
    ),
)
