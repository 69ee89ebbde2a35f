"""Numbers as values: a quantity or a date as a text writes it, and whether one backs another.

A claim's number is backed when the evidence gives the same value, however either writes it: a
rounded value (``33%`` for ``33.2%``), a magnitude (``1.2 million`` for 1,248,000), a hedge
(``about 1,200``, ``over 1,000``, ``nearly 40%``), a fraction in words for a share. What the
numbers count matters: 24 days are not 24 hours, $400 is not €400.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

#: Languages whose thousands separator is a comma (decimals take a point); the others group
#: thousands with a point (or a space) and take a comma for decimals.
COMMA_GROUPING = frozenset({"en", "zh", "ja", "ko"})
#: How far a hedged "about" number may be from the evidence's (share of the evidence's value), and
#: at most this many units of the last digit the claim writes ("about 564.9万" is not 569.9万).
NEAR_SHARE = Decimal("0.1")
NEAR_DIGITS = 5
#: How far a fraction in words may be from the evidence's share (a fraction, or per cent over 100):
#: "a third" for 32%, and with a hedge ("roughly a third", "nearly two thirds") for 30% and 64%.
FRACTION_CLOSE = Decimal("0.03")
FRACTION_NEAR = Decimal("0.05")
#: A bound ("over 90%", "plus de 50") is said of a value at most this many times beyond it: "over 90%"
#: is not backed by 57,986, nor "at least 90 credits" by the year 1999.
BOUND_REACH = Decimal(4)
#: Units that mean "times": a multiplier ("2.7x", "fivefold", "doubled").
TIMES = "times"
#: A fraction ("1/3", "half", "two thirds").
FRACTION = "fraction"


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number as written (``text``), the values it may stand for (``values``: several when it is
    scaled, "1.2 million" is 1.2 and 1200000), the word or sign after it (``unit``: "%", "days",
    or None), what that unit counts when it is a known one (``kind``: ("time", "day"), ("money",
    "eur"), ("share", "percent"), in any language), the hedge before it ("above", "below", "near":
    in a claim, what it says of the evidence's value; in the evidence, the bound it states: "less
    than $8,500")."""

    text: str
    values: frozenset[Decimal]
    unit: str | None = None
    hedge: str | None = None
    scale: int = 1  # what "million" in "1.2 million" multiplies by
    currency: str | None = None
    period: str | None = None  # the period of a rate: "week" in "20 hours per week", "$150 a day"
    kind: tuple[str, str] | None = None

    @property
    def unit_key(self) -> str | None:
        """What the quantity counts, comparable across languages: its known unit ("time:day" for
        "days", "Tage", "jours"), else its unit as written."""
        return f"{self.kind[0]}:{self.kind[1]}" if self.kind else self.unit

    def backed_by(self, other: Quantity) -> bool:
        mine_kind, theirs_kind = self.kind, other.kind
        if mine_kind and theirs_kind and mine_kind[0] == theirs_kind[0] and mine_kind != theirs_kind:
            return False  # the same number of another unit: 24 days are not 24 hours
        if {self.hedge, other.hedge} == {"above", "below"}:
            return False  # "more than $8,500" is not "less than $8,500"
        if self.period and other.period and self.period != other.period:
            return False  # "20 hours a month" is not "20 hours per week"
        if self.values & other.values:
            return True
        if self.unit == FRACTION and other.unit == FRACTION:
            # a fraction in words is a round share: "a third" for 33%, "about half" for 47%; a bound
            # holds of any share beyond it ("more than half" for 57%)
            if self.hedge == "above":
                return any(t > m for t in other.values for m in self.values)
            if self.hedge == "below":
                return any(t < m for t in other.values for m in self.values)
            reach = FRACTION_NEAR if self.hedge else FRACTION_CLOSE
            return any(abs(t - m) <= reach for t in other.values for m in self.values)
        mine_written = min(self.values) if self.scale != 1 else None
        # a bound against a bound the same way is a threshold against a threshold: "fewer than 190
        # days" is not "fewer than 183 days", though every value below 183 is below 190
        hedge = None if self.hedge in ("above", "below") and other.hedge == self.hedge else self.hedge
        for theirs in other.values:
            if mine_written is not None and rounds_to(theirs / self.scale, mine_written):
                return True  # "1.2 million" for 1,248,000
            for mine in self.values:
                if hedge == "above" and mine < theirs <= mine * BOUND_REACH:
                    return True
                if hedge == "below" and mine / BOUND_REACH <= theirs < mine:
                    return True
                if hedge == "near" and abs(theirs - mine) <= min(abs(theirs) * NEAR_SHARE, _last_digit(mine)):
                    return True
                if rounds_to(theirs, mine):
                    return True
        return False


def _last_digit(value: Decimal) -> Decimal:
    """:data:`NEAR_DIGITS` units of the last digit ``value`` is written with (1,200: 500; 564.9: 0.5)."""
    exponent = value.normalize().as_tuple().exponent
    return NEAR_DIGITS * Decimal(1).scaleb(exponent if isinstance(exponent, int) else 0)


@dataclass(frozen=True, slots=True)
class Date:
    """A date as written and the readings it allows: (year, month, day), None for a part not given;
    a numeric date whose first two parts could be either day or month has both readings."""

    text: str
    readings: frozenset[tuple[int | None, int | None, int | None]]

    def backed_by(self, other: Date) -> bool:
        return any(
            all(a is None or b is None or a == b for a, b in zip(mine, theirs, strict=True))
            and sum(a is not None and b is not None for a, b in zip(mine, theirs, strict=True)) >= 2
            for mine in self.readings
            for theirs in other.readings
        )


@dataclass(frozen=True, slots=True)
class Numbers:
    quantities: tuple[Quantity, ...]
    dates: tuple[Date, ...]


def unbacked(claim: Numbers, evidence: Numbers, *, unstated_ok: bool = True) -> list[str]:
    """What the claim states that the evidence does not give, as the claim writes it. A hedged
    number is held against the evidence's numbers of its unit when there are any ("plus de 50
    logements" against "43 logements", not against the street number); a fraction or a multiplier
    only against the evidence's own (with ``unstated_ok``, one the evidence states none of for it to
    contradict is given; without it, as for a text searched for a second chance, it is not); a year
    against a date's year too ("in 2008" for "March 17, 2008")."""
    years = {Decimal(r[0]) for d in evidence.dates for r in d.readings if r[0] is not None}
    missing = []
    for q in claim.quantities:
        candidates = evidence.quantities
        if q.unit in (FRACTION, TIMES):
            candidates = tuple(e for e in candidates if e.unit == q.unit)
            if q.unit == FRACTION:
                # a share the evidence gives in per cent is a fraction too ("a third" against "21%")
                candidates += tuple(
                    Quantity(e.text, frozenset(v / 100 for v in e.values), FRACTION, e.hedge)
                    for e in evidence.quantities
                    if e.kind == ("share", "percent")
                )
            if not candidates:
                if unstated_ok:
                    continue  # the evidence states no fraction (multiplier) for it to contradict
                missing.append(q.text)
                continue
        elif q.hedge and q.unit:
            candidates = tuple(e for e in candidates if e.unit_key == q.unit_key) or candidates
        if any(q.backed_by(e) for e in candidates) or (q.values & years and not q.unit):
            continue
        missing.append(q.text)
    for d in claim.dates:
        if any(d.backed_by(e) for e in evidence.dates):
            continue
        # a date the evidence gives in parts ("in 2023" for "7 juin 2023" is a quantity there)
        parts = [p for r in d.readings for p in r if p is not None]
        if not all(any(Decimal(p) in e.values for e in evidence.quantities) for p in parts):
            missing.append(d.text)
    return missing


def same_unit_elsewhere(quantity_text: str, claim: Numbers, evidence: Numbers) -> bool:
    """Whether the evidence has a number counting what the claim's ``quantity_text`` counts (the
    same unit after it): then a number of that kind in a neighbouring sentence cannot stand in for it."""
    units = {q.unit_key for q in claim.quantities if q.text == quantity_text}
    return any(e.unit_key in units for e in evidence.quantities)


def canonical(number: str, lang: str) -> Decimal | None:
    """The value of a written number. A mark used twice, or followed by exactly three digits in a
    language that groups with it, groups thousands; of two different marks the last is the decimal
    mark; any other is a decimal mark, of either kind ("3.5" in German is 3,5)."""
    marks = [c for c in number if c in ".,"]
    if not marks:
        plain = number
    elif len(set(marks)) == 2:
        decimal = marks[-1]
        plain = number.replace("," if decimal == "." else ".", "").replace(decimal, ".")
    elif len(marks) > 1:  # one mark, several times: "1,200,000", "1.200.000"
        plain = number.replace(marks[0], "")
    else:
        mark = marks[0]
        group = "," if lang in COMMA_GROUPING else "."
        after = number.split(mark)[1]
        plain = number.replace(mark, "") if mark == group and len(after) == 3 else number.replace(mark, ".")
    try:
        return Decimal(plain).normalize() + 0  # "+ 0" turns -0 and 8E+1 into plain values
    except InvalidOperation:
        return None


def rounds_to(value: Decimal, claimed: Decimal) -> bool:
    """Whether ``value`` rounded to ``claimed``'s decimal places is ``claimed`` ("33" for 33.2)."""
    exponent = claimed.as_tuple().exponent
    places = Decimal(1).scaleb(exponent if isinstance(exponent, int) and exponent < 0 else 0)
    if value.as_tuple().exponent == claimed.as_tuple().exponent:
        return False  # as precise as the claim: equal or not
    return value.quantize(places, rounding=ROUND_HALF_UP) == claimed
