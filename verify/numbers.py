"""The numbers a claim states and the numbers its evidence gives, compared as values.

A claim's number is backed when the evidence gives the same value, however either writes it:
thousands grouped by the document's language or by spaces (``1 500``, ``3.200`` in German), a
decimal mark of either kind where it cannot group thousands (``3.5`` for ``3,5``), trailing zeros
(``80.0``), a magnitude (``$1.2 million``, ``5.4K``, ``3775万``), a number word (``twelve``,
``fifty thousand``), a shortened year range (``2019-20``) or a date in another format (``7 juin
2023`` is ``07/06/2023``). What names something states no quantity: the number of a part of the
document (``Table 8``, ``Form 6251``, ``§ 5``) and digits that follow letters in a code (``v2.3``,
``HbA1c``, ``COVID-19``, ``Q1``). A hedged claim (``about 1,200``, ``over 1,000``, ``nearly 40%``)
and a rounded one (``33%`` for ``33.2%``) are backed by what they say of the evidence's value.

Everything works on folded text (:func:`citeline.verify.fold.fold`: lower case, one space).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

#: Languages whose thousands separator is a comma (decimals take a point); the others group
#: thousands with a point (or a space) and take a comma for decimals.
COMMA_GROUPING = frozenset({"en", "zh", "ja", "ko"})

#: Words that number a part of a document: the number after them names where something is
#: ("Table 8 shows …", "Definition 20:", "Satz 3.5", "Form 6251"), it states no quantity.
LABELLED = re.compile(
    r"(?<![^\W\d_])(?:table|tab|figure|fig|section|sec|chapter|ch|appendix|definition|def|theorem|"
    r"lemma|proposition|prop|corollary|remark|example|equation|eq|point|step|item|paragraph|para|"
    r"article|art|page|pp?|§|form|schedule|line|part|version|release|rev|"
    r"tabelle|abbildung|abb|kapitel|abschnitt|satz|bemerkung|beispiel|seite|formular|anlage|"
    r"tableau|chapitre|théorème|définition|remarque|exemple|formulaire|annexe)\.?\s*\(?\d+(?:[.,]\d+)*[a-z]?\)?(?![\w])"
)

_UNITS = [
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty",
    "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf",
    "zéro un deux trois quatre cinq six sept huit neuf dix onze douze",
]
#: Number words (English, German, French, up to twenty and the tens) and their values.
SPELLED = (
    {w: n for ws in _UNITS for n, w in enumerate(ws.split())}
    | {w: 10 * k for k, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split(), 3)}
    | {"hundred": 100, "hundert": 100, "thousand": 1000, "tausend": 1000, "mille": 1000}
)
#: Number words that are as often another word ("one of them", "un", "null hypothesis", "neuf" for
#: new, "ein"): the evidence's count, but a claim's is not taken for a number it states.
SPELLED_AMBIGUOUS = frozenset("one un une ein eine null neuf zero zéro".split())
_TENS = frozenset("twenty thirty forty fifty sixty seventy eighty ninety".split())
#: Words and suffixes that scale the number before them.
SCALES = {
    **dict.fromkeys(("hundred", "hundert"), 100),
    **dict.fromkeys(("thousand", "tausend", "mille", "k"), 1000),
    **dict.fromkeys(("million", "millions", "millionen", "mio", "mn", "m"), 10**6),
    **dict.fromkeys(("billion", "billions", "milliard", "milliards", "milliarde", "milliarden", "mrd", "bn"), 10**9),
    **dict.fromkeys(("trillion", "trillions", "billionen"), 10**12),
    "万": 10**4,
    "亿": 10**8,
}
#: Words that make the number word before them a fraction ("two thirds"): no count is stated.
_FRACTIONS = frozenset(
    "half halves third thirds quarter quarters fifth fifths tenth tenths hälfte drittel viertel moitié tiers "
    "quart quarts".split()
)

_MONTH_NAMES = (
    "january february march april may june july august september october november december",
    "januar februar märz april mai juni juli august september oktober november dezember",
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "jan feb mar apr may jun jul aug sep oct nov dec",
)
MONTHS = {w: n for ws in _MONTH_NAMES for n, w in enumerate(ws.split(), 1)} | {"sept": 9, "jänner": 1, "févr": 2}
#: Month names that are other words too ("it may", "march on", "Mars"): a date's month only with its
#: day and year around it, or a year.
_MONTHS_AMBIGUOUS = frozenset("may mar march mars".split())

_MONTH = "(?:" + "|".join(sorted(map(re.escape, MONTHS), key=len, reverse=True)) + r")\.?"
_DAY = r"(?:[12]\d|3[01]|0?[1-9])"
_YEAR = r"(?:1[6-9]\d\d|2[01]\d\d)"
_DATES = [
    # 7 juin 2023, 7. Juni 2023, 7 june, 1st of may 2020
    (
        re.compile(
            rf"(?<![\d.,])(?P<d>{_DAY})(?:st|nd|rd|th|er)?\.?\s(?:of\s)?(?P<m>{_MONTH})(?:,?\s(?P<y>{_YEAR}))?(?![\w])"
        ),
        "dmy",
    ),
    # june 7, 2023; june 2023; june 7
    (
        re.compile(
            rf"(?<![\w])(?P<m>{_MONTH})\s"
            rf"(?:(?P<d>{_DAY})(?:st|nd|rd|th)?(?![\d.,]\d)(?:,?\s(?P<y>{_YEAR}))?|(?P<y2>{_YEAR}))(?![\w])"
        ),
        "mdy",
    ),
    # 2023-06-07
    (re.compile(rf"(?<![\d.,])(?P<y>{_YEAR})-(?P<m>0?[1-9]|1[0-2])-(?P<d>{_DAY})(?![\d])"), "iso"),
    # 07/06/2023, 7.6.2023, 07-06-23: day and month in either order
    (
        re.compile(
            rf"(?<![\d.,/])(?P<a>\d{{1,2}})(?P<sep>[./-])(?P<b>\d{{1,2}})(?P=sep)(?P<y>{_YEAR}|\d\d)(?![\d]|[.,]\d)"
        ),
        "numeric",
    ),
]

#: A number with its grouping and decimal marks, a magnitude after it, and the unit it counts.
_NUMBER = re.compile(
    r"(?<![\d.,])(?P<n>\d+(?:[.,]\d+)*)"
    r"(?:\s?(?P<scale>万|亿)|\s?(?P<suffix>k|m|bn|mn|mio|mrd)(?![\w])|\s(?P<word>hundred|thousand|million|millions|"
    r"billion|billions|trillion|hundert|tausend|millionen|milliarde|milliarden|mille|milliard|milliards)(?![\w]))?"
)
#: Digits grouped in threes by spaces ("1 500", "48 300", "1 200 000"): one number.
_SPACE_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?![\d]|[.,]\d)")
#: A shortened year range: "2019-20", "2019/20", "2003–07".
_YEAR_RANGE = re.compile(r"(?<![\d.,/-])(1[6-9]|20)(\d\d)([-–—/])(\d\d)(?![\d]|[.,/-]\d)")
#: Digits right after letters (and a hyphen) are a code's: "v2.3", "hba1c", "covid-19", "q1".
_CODE_DIGITS = re.compile(r"(?<=[a-z\u00df-\u024f\u0370-\u03ff\u0400-\u04ff])-?\d+(?:[.,]\d+)*")
#: Hedges before a number, and the relation they claim to the evidence's value.
_HEDGES = [
    (
        re.compile(r"(?:more than|over|above|exceeding|at least|mehr als|über|plus de|au moins|upwards of)\s$"),
        "above",
    ),
    (
        re.compile(r"(?:less than|under|below|fewer than|at most|up to|weniger als|unter|bis zu|moins de|jusqu'à)\s$"),
        "below",
    ),
    (
        re.compile(
            r"(?:about|around|approximately|approx\.?|roughly|nearly|almost|some|circa|ca\.?|close to|"
            r"etwa|rund|ungefähr|fast|knapp|gut|environ|près de|presque|quelque|约|近)\s?$"
        ),
        "near",
    ),
]
#: How far a hedged "about" number may be from the evidence's (share of the evidence's value).
NEAR_SHARE = Decimal("0.1")


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number as written (``text``), the values it may stand for (``values``: several when it is
    scaled, "1.2 million" is 1.2 and 1200000), the word or sign after it (``unit``: "%", "days",
    or None) and, in a claim, the hedge before it."""

    text: str
    values: frozenset[Decimal]
    unit: str | None = None
    hedge: str | None = None
    scale: int = 1  # what "million" in "1.2 million" multiplies by

    def backed_by(self, other: Quantity) -> bool:
        if self.values & other.values:
            return True
        mine_written = min(self.values) if self.scale != 1 else None
        for theirs in other.values:
            if mine_written is not None and _rounds_to(theirs / self.scale, mine_written):
                return True  # "1.2 million" for 1,248,000
            for mine in self.values:
                if self.hedge == "above" and theirs > mine:
                    return True
                if self.hedge == "below" and theirs < mine:
                    return True
                if self.hedge == "near" and abs(theirs - mine) <= abs(theirs) * NEAR_SHARE:
                    return True
                if _rounds_to(theirs, mine):
                    return True
        return False


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


def numbers(folded: str, lang: str, *, claim: bool) -> Numbers:
    """The dates and quantities of a folded text. In a claim, only what it surely states: no
    number word that is as often another word, no number of a part of the document or a code."""
    text = _SPACE_GROUPED.sub(lambda m: re.sub(r"\s", "", m.group()), folded)
    text = _YEAR_RANGE.sub(_expand_range, text)
    if claim:
        text = LABELLED.sub(lambda m: " " * len(m.group()), text)
        text = _CODE_DIGITS.sub(lambda m: " " * len(m.group()), text)
    dates, text = _dates(text)
    quantities = [_quantity(m, lang, text) for m in _NUMBER.finditer(text)]
    quantities += _spelled(text, claim=claim)
    return Numbers(tuple(q for q in quantities if q.values), tuple(dates))


def unbacked(claim: Numbers, evidence: Numbers) -> list[str]:
    """What the claim states that the evidence does not give, as the claim writes it."""
    missing = [q.text for q in claim.quantities if not any(q.backed_by(e) for e in evidence.quantities)]
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
    same unit word or sign after it): then a number of that kind in a neighbouring sentence cannot
    stand in for it."""
    units = {q.unit for q in claim.quantities if q.text == quantity_text}
    return any(e.unit in units for e in evidence.quantities)


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


def _rounds_to(value: Decimal, claimed: Decimal) -> bool:
    """Whether ``value`` rounded to ``claimed``'s decimal places is ``claimed`` ("33" for 33.2)."""
    exponent = claimed.as_tuple().exponent
    places = Decimal(1).scaleb(exponent if isinstance(exponent, int) and exponent < 0 else 0)
    if value.as_tuple().exponent == claimed.as_tuple().exponent:
        return False  # as precise as the claim: equal or not
    return value.quantize(places, rounding=ROUND_HALF_UP) == claimed


def _expand_range(m: re.Match[str]) -> str:
    century, start, dash, end = m.groups()
    return f"{century}{start}{dash}{century}{end}" if int(end) > int(start) else m.group()


def _quantity(m: re.Match[str], lang: str, text: str) -> Quantity:
    value = canonical(m.group("n"), lang)
    if value is None:
        return Quantity(m.group(), frozenset())
    values = {value}
    scale = m.group("scale") or m.group("suffix") or m.group("word")
    if scale:
        values.add((value * SCALES[scale]).normalize() + 0)
    unit_match = re.match(r"\s?([%‰]|[^\W\d_]+)", text[m.end() :])
    unit = unit_match.group(1) if unit_match and not scale else scale
    before = text[max(0, m.start() - 24) : m.start()]
    hedge = next((h for pattern, h in _HEDGES if pattern.search(before)), None)
    return Quantity(m.group(), frozenset(values), unit, hedge, SCALES[scale] if scale else 1)


def _spelled(text: str, *, claim: bool) -> list[Quantity]:
    """Number words: a tens word and a unit after it as one ("twenty-five"), a scale after a number
    word ("fifty thousand"); a number word before a fraction ("two thirds") states no count. In a
    claim, a word that is as often another word is left out."""
    words = list(re.finditer(r"[^\W_]+", text))
    out = []
    skip = -1
    for i, m in enumerate(words):
        w = m.group()
        if i <= skip or w not in SPELLED:
            continue
        value, last = SPELLED[w], i
        after = words[i + 1].group() if i + 1 < len(words) else ""
        if w in _TENS and after in SPELLED and SPELLED[after] < 10:
            value, last = value + SPELLED[after], i + 1
            after = words[i + 2].group() if i + 2 < len(words) else ""
        if after in _FRACTIONS:
            skip = last + 1
            continue
        if after in SCALES and after not in ("k", "m", "万", "亿"):
            value, last = value * SCALES[after], last + 1
        skip = last
        if claim and last == i and w in SPELLED_AMBIGUOUS:
            continue
        following = words[last + 1].group() if last + 1 < len(words) else None
        out.append(Quantity(text[m.start() : words[last].end()], frozenset({Decimal(value)}), following))
    return out


def _dates(text: str) -> tuple[list[Date], str]:
    """The dates of a text, and the text with them blanked out (their numbers are not quantities)."""
    found: list[Date] = []
    chars = list(text)
    for pattern, kind in _DATES:
        for m in pattern.finditer("".join(chars)):
            readings = _readings(m, kind)
            if not readings:
                continue
            found.append(Date(m.group(), frozenset(readings)))
            chars[m.start() : m.end()] = " " * (m.end() - m.start())
    return found, "".join(chars)


def _readings(m: re.Match[str], kind: str) -> set[tuple[int | None, int | None, int | None]]:
    g = m.groupdict()
    if kind == "numeric":
        a, b, y = int(g["a"]), int(g["b"]), int(g["y"])
        year = y if y >= 100 else 2000 + y if y < 50 else 1900 + y
        out: set[tuple[int | None, int | None, int | None]] = set()
        for day, month in ((a, b), (b, a)):
            if 1 <= month <= 12 and 1 <= day <= 31:
                out.add((year, month, day))
        return out
    if kind == "iso":
        return {(int(g["y"]), int(g["m"]), int(g["d"]))}
    month_word = g["m"].rstrip(".")
    named = MONTHS.get(month_word)
    if named is None:
        return set()
    year_text = g.get("y") or g.get("y2")
    when: int | None = int(year_text) if year_text else None
    on: int | None = int(g["d"]) if g.get("d") else None
    if month_word in _MONTHS_AMBIGUOUS and not when:
        return set()  # "it may 3 times", "march 2": not surely a date
    if kind == "mdy" and on is None and when is None:
        return set()
    return {(when, named, on)}
