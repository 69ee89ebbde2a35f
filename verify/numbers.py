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
#: ("Table 8 shows …", "Definition 20:", "Satz 3.5", "Form 6251", "Study 1", "Experiment 2"), it states no
#: quantity.
LABELLED = re.compile(
    r"(?<![^\W\d_])(?:table|tab|figure|fig|section|sec|chapter|ch|appendix|definition|def|theorem|"
    r"lemma|proposition|prop|corollary|remark|example|equation|eq|point|step|item|paragraph|para|"
    r"article|art|page|pp?|§|form|schedule|line|part|version|release|rev|study|experiment|exp|phase|task|stage|"
    r"condition|round|session|wave|hypothesis|rq|"
    r"tabelle|abbildung|abb|kapitel|abschnitt|satz|bemerkung|beispiel|seite|formular|anlage|studie|"
    r"tableau|chapitre|théorème|définition|remarque|exemple|formulaire|annexe|étude|expérience)\.?\s*\(?\d+(?:[.,]\d+)*[a-z]{0,3}\)?(?![\w])"
)

_UNITS = [
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen",
    "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn "
    "sechzehn siebzehn achtzehn neunzehn",
    "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize",
]
_TENS_WORDS = [
    "twenty thirty forty fifty sixty seventy eighty ninety",
    "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig",
    "vingt trente quarante cinquante soixante",
]
#: Number words (English, German, French: up to nineteen, the tens, hundreds and thousands; German
#: compounds such as "fünfundvierzig" and "zweihundert" are read by :func:`_german_number`) and their
#: values.
SPELLED = (
    {w: n for ws in _UNITS for n, w in enumerate(ws.split())}
    | {w: 10 * k for ws in _TENS_WORDS for k, w in enumerate(ws.split(), 2)}
    | {"hundred": 100, "hundert": 100, "cent": 100, "cents": 100, "thousand": 1000, "tausend": 1000, "mille": 1000}
    | {"ein": 1, "eine": 1, "une": 1}
)
#: Number words that are as often another word ("one of them", "un", "null hypothesis", "neuf" for
#: new, "ein", French "cent" and "cents" for money): the evidence's count, but a claim's is not taken
#: for a number it states.
SPELLED_AMBIGUOUS = frozenset("one un une ein eine null neuf zero zéro cent cents".split())
_TENS = frozenset(w for ws in _TENS_WORDS for w in ws.split())
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
    # 2023年6月7日, 2023年6月
    (
        re.compile(rf"(?<![\d.,])(?P<y>{_YEAR})\s?年\s?(?P<m>1[0-2]|0?[1-9])\s?月(?:\s?(?P<d>{_DAY})\s?[日号])?"),
        "iso",
    ),
    # 07/06/2023, 7.6.2023, 07-06-23: day and month in either order
    (
        re.compile(
            rf"(?<![\d.,/])(?P<a>\d{{1,2}})(?P<sep>[./-])(?P<b>\d{{1,2}})(?P=sep)(?P<y>{_YEAR}|\d\d)(?![\d]|[.,]\d)"
        ),
        "numeric",
    ),
    # a month and its year: 06/2018, 6.2018, 2018-06
    (re.compile(rf"(?<![\d.,/-])(?P<m>0?[1-9]|1[0-2])[./](?P<y>{_YEAR})(?![\d]|[.,/]\d)"), "my"),
    (re.compile(rf"(?<![\d.,/-])(?P<y>{_YEAR})-(?P<m>0[1-9]|1[0-2])(?![\d]|[-./]\d)"), "my"),
]

#: A number with its grouping and decimal marks, a magnitude after it, and the unit it counts.
_NUMBER = re.compile(
    r"(?<![\d.,])(?P<n>\d+(?:[.,]\d+)*)"
    r"(?:\s?(?P<scale>万|亿)|\s?(?P<suffix>k|m|bn|mn|mio|mrd)(?![\w])|\s(?P<word>hundred|thousand|million|millions|"
    r"billion|billions|trillion|hundert|tausend|millionen|milliarde|milliarden|mille|milliard|milliards)(?![\w]))?"
)
#: Digits grouped in threes by spaces ("1 500", "48 300", "1 200 000"): one number.
_SPACE_GROUPED = re.compile(r"(?<![\d.,])(?<!\d\s)\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?![\d]|[.,]\d)")
#: A time of day as French and German write it: "16h45", "16 h 45" (read as "16:45": its minutes count).
_CLOCK = re.compile(r"(?<![\w.,])(\d{1,2})\s?h\s?(\d{2})(?![\d])")
#: A time of day on the twelve-hour clock: "4 p.m.", "4:30pm" (read as "16:00", "16:30"). "am"
#: without its full stops only in English ("am" is German "on the").
_TWELVE_HOUR = re.compile(r"(?<![\w.,:])(\d{1,2})(?::(\d{2}))?\s?(?:([ap])\.\s?m\.|([ap])m\b)")


def _twenty_four(m: re.Match[str], lang: str) -> str:
    hour, minutes, dotted, bare = m.group(1), m.group(2) or "00", m.group(3), m.group(4)
    if (bare and lang != "en") or not 1 <= int(hour) <= 12:
        return m.group()
    h = int(hour) % 12 + (12 if (dotted or bare) == "p" else 0)
    return f"{h}:{minutes}"


#: A shortened year range: "2019-20", "2019/20", "2003–07".
_YEAR_RANGE = re.compile(r"(?<![\d.,/-])(1[6-9]|20)(\d\d)([-–—/])(\d\d)(?![\d]|[.,/-]\d)")
#: Digits right after letters (and a hyphen) are a code's: "v2.3", "hba1c", "covid-19", "q1".
_CODE_DIGITS = re.compile(r"(?<=[a-z\u00df-\u024f\u0370-\u03ff\u0400-\u04ff])-?\d+(?:[.,]\d+)*")
#: Hedges before a number, and the relation they claim to the evidence's value.
_HEDGES = [
    (
        re.compile(
            r"(?<!\bno )(?<!\bnot )"
            r"(?:more than|over|above|exceeding|at least|greater than|larger than|higher than|mehr als|über|"
            r"grö(?:ß|ss)er als|höher als|mindestens|plus de|au moins|supérieure? à|upwards of|超过|多于|以上)"
            r"\s(?:an?\s|the\s)?[$€£¥]?$"
        ),
        "above",
    ),
    (
        re.compile(
            r"(?:less than|under|below|fewer than|at most|up to|smaller than|lower than|no more than|"
            r"weniger als|unter|bis zu|kleiner als|geringer als|niedriger als|höchstens|moins de|jusqu'à|"
            r"inférieure? à|不足|少于)"
            r"\s(?:an?\s|the\s)?[$€£¥]?$"
        ),
        "below",
    ),
    (
        re.compile(
            r"(?:(?:about|around|approximately|approx\.?|roughly|nearly|almost|some|circa|ca\.?|close to|"
            r"etwa|rund|ungefähr|fast|knapp|gut|environ|près de|presque|quelque)\s(?:an?\s|the\s)?|约|近|~|≈|∼)"
            r"\s?[$€£¥]?$"
        ),
        "near",
    ),
]
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


#: What a number counts, by class: a claim's number is not backed by the same number of another unit
#: of its class ("24 days" by "within 24 hours", "$400" by "€400", "2.7%" by "2.7 points").
_UNIT_KINDS = {
    "time": {
        "second": "second seconds sec secs sekunde sekunden seconde secondes",
        "minute": "minute minutes min mins minuten",
        "hour": "hour hours hr hrs stunde stunden heure heures 小时",
        "day": "day days tag tage tagen jour jours 天 日",
        "week": "week weeks woche wochen semaine semaines 周 星期",
        "month": "month months monat monate monaten mois 个月",
        "year": "year years yr yrs jahr jahre jahren an ans année années 年",
    },
    "money": {
        "usd": "$ usd dollar dollars us$",
        "eur": "€ eur euro euros",
        "gbp": "£ gbp pound pounds",
        "cny": "¥ 元 yuan rmb cny renminbi yen jpy",
        "cent": "cent cents ct cts",
    },
    "share": {
        "percent": "% percent pct prozent",
        "point": "point points pp percentage prozentpunkte",
    },
}
UNIT_KIND = {w: (cls, canon) for cls, units in _UNIT_KINDS.items() for canon, ws in units.items() for w in ws.split()}
#: Units that mean "times": a multiplier ("2.7x", "fivefold", "doubled").
TIMES = "times"
#: A fraction ("1/3", "half", "two thirds").
FRACTION = "fraction"


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number as written (``text``), the values it may stand for (``values``: several when it is
    scaled, "1.2 million" is 1.2 and 1200000), the word or sign after it (``unit``: "%", "days",
    or None), the currency sign before it (``currency``) and the hedge before it ("above",
    "below", "near": in a claim, what it says of the evidence's value; in the evidence, the bound
    it states: "less than $8,500")."""

    text: str
    values: frozenset[Decimal]
    unit: str | None = None
    hedge: str | None = None
    scale: int = 1  # what "million" in "1.2 million" multiplies by
    currency: str | None = None
    period: str | None = None  # the period of a rate: "week" in "20 hours per week", "$150 a day"

    @property
    def kind(self) -> tuple[str, str] | None:
        """``(class, unit)`` of what it counts, when that is a known unit: ("time", "day"), ("money",
        "eur"), ("share", "percent")."""
        return UNIT_KIND.get(self.currency or "") or UNIT_KIND.get(self.unit or "")

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
            if mine_written is not None and _rounds_to(theirs / self.scale, mine_written):
                return True  # "1.2 million" for 1,248,000
            for mine in self.values:
                if hedge == "above" and mine < theirs <= mine * BOUND_REACH:
                    return True
                if hedge == "below" and mine / BOUND_REACH <= theirs < mine:
                    return True
                if hedge == "near" and abs(theirs - mine) <= min(abs(theirs) * NEAR_SHARE, _last_digit(mine)):
                    return True
                if _rounds_to(theirs, mine):
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


def numbers(folded: str, lang: str, *, claim: bool) -> Numbers:
    """The dates and quantities of a folded text. In a claim, only what it surely states: no
    number word that is as often another word, no number of a part of the document or a code."""
    text = _SPACE_GROUPED.sub(lambda m: re.sub(r"\s", "", m.group()), folded)
    text = _YEAR_RANGE.sub(_expand_range, text)
    text = _CLOCK.sub(r"\1:\2", text)
    text = _TWELVE_HOUR.sub(lambda m: _twenty_four(m, lang), text)
    if claim:
        text = LABELLED.sub(lambda m: " " * len(m.group()), text)
        text = _CODE_DIGITS.sub(lambda m: " " * len(m.group()), text)
    dates, text = _dates(text)
    ratios, text = _ratios(text, claim=claim)
    quantities = [_quantity(m, lang, text) for m in _NUMBER.finditer(text)]
    quantities += _spelled(text, claim=claim) + _chinese(text, claim=claim) + ratios
    return Numbers(tuple(q for q in quantities if q.values), tuple(dates))


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
            candidates = tuple(e for e in candidates if e.unit == q.unit) or candidates
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


#: After "N times": what makes it a multiplier ("3 times faster", "2.7 times the cost", "fünfmal so
#: viel", "deux fois plus"); without one it says how often ("cited 5,000 times").
_COMPARED = re.compile(
    r"\s?(?:more|less|fewer|faster|slower|higher|lower|larger|smaller|greater|bigger|longer|shorter|"
    r"better|worse|cheaper|costlier|heavier|wider|deeper|as|the|that|than|over|"
    r"mehr|weniger|so|größer|höher|schneller|plus|moins|aussi)\b"
)


def _quantity(m: re.Match[str], lang: str, text: str) -> Quantity:
    value = canonical(m.group("n"), lang)
    if value is None:
        return Quantity(m.group(), frozenset())
    values = {value}
    scale = m.group("scale") or m.group("suffix") or m.group("word")
    if scale:
        values.add((value * SCALES[scale]).normalize() + 0)
    unit_match = re.match(r"\s?([%‰×]|[^\W\d_]+)", text[m.end() :])
    unit = unit_match.group(1) if unit_match and not scale else scale
    if unit in ("times", "mal", "fois") and not _COMPARED.match(text, unit_match.end() if unit_match else m.end()):
        unit = "count"  # "cited 5,000 times", "zweimal": how often, not a multiplier
    elif unit in ("x", "×", "times", "fold", "mal", "fois", "倍"):
        unit = TIMES
    before = text[max(0, m.start() - 24) : m.start()]
    hedge = _hedge_before(text, m.start())
    sign = re.search(r"([$€£¥])\s?$", before)
    rate = _PERIOD.match(text, m.end())
    return Quantity(
        m.group(),
        frozenset(values),
        unit,
        hedge,
        SCALES[scale] if scale else 1,
        sign.group(1) if sign else None,
        _period(rate.group(1) or rate.group(2)) if rate else None,
    )


def _hedge_before(text: str, start: int) -> str | None:
    """The hedge ("above", "below", "near") the words right before ``start`` put on a number."""
    before = text[max(0, start - 24) : start]
    return next((h for pattern, h in _HEDGES if pattern.search(before)), None)


def _period(word: str) -> str | None:
    """The period a word names, plurals too ("weeks", "Stunden", "jours"; "mois" is singular)."""
    word = word.lower()
    return PERIODS.get(word) or PERIODS.get(word.removesuffix("s")) or PERIODS.get(word.removesuffix("n"))


#: The period of a rate, in English, German and French: a word after "per", "a", "pro", "par", …
#: or an adverb ("weekly", "monatlich").
PERIODS = {
    **dict.fromkeys("hour stunde heure".split(), "hour"),
    **dict.fromkeys("day tag jour hourly daily täglich quotidien quotidienne".split(), "day"),
    **dict.fromkeys("week woche semaine weekly wöchentlich hebdomadaire".split(), "week"),
    **dict.fromkeys("month monat mois monthly monatlich mensuel mensuelle".split(), "month"),
    **dict.fromkeys("year annum jahr an année yearly annually annual jährlich annuel annuelle".split(), "year"),
}
PERIODS["hourly"] = "hour"
_PERIOD = re.compile(
    r"\s?(?:[%‰]|[^\W\d_]+)?\s?(?:(?:per|a|an|each|every|pro|je|par|chaque)\s|/\s?)"
    r"(hours?|days?|weeks?|months?|years?|annum|stunden?|tag|woche|monat|jahr|heures?|jours?|semaines?|mois|an|année)\b"
    r"|\s?(?:[^\W\d_]+\s)?(hourly|daily|weekly|monthly|yearly|annually|täglich|wöchentlich|monatlich|jährlich|"
    r"quotidienne?|hebdomadaire|mensuelle?|annuelle?)\b",
    re.IGNORECASE,
)


#: Words joining the parts of a spelled number ("one hundred and five", "vingt et un", "fünfundvierzig").
_JOINERS = frozenset("and und et".split())


def _word_value(word: str) -> int | None:
    """The value of one number word, German compounds included ("fünfundvierzig", "zweihundert")."""
    value = SPELLED.get(word)
    return value if value is not None else _german_number(word)


def _german_number(word: str) -> int | None:
    """A German number written as one word: "einundzwanzig", "zweihundertfünfzig", "dreitausend"."""
    if len(word) < 7 or not any(part in word for part in ("und", "hundert", "tausend")):
        return None
    for scale_word, scale in (("tausend", 1000), ("hundert", 100)):
        if scale_word in word:
            head, _, tail = word.partition(scale_word)
            times = _german_number(head) or SPELLED.get(head) if head else 1
            rest = (_german_number(tail) or SPELLED.get(tail)) if tail else 0
            if not times or rest is None or (tail and not rest):
                return None
            return times * scale + rest
    unit, _, tens = word.partition("und")
    if SPELLED.get(unit, 99) < 10 and tens in _TENS:
        return SPELLED[unit] + SPELLED[tens]
    return None


#: A number word, or a German compound of them, standing as a word: where a run of them may start.
_NUMBER_WORD = (
    r"(?<![^\W_])(?:"
    + "|".join(sorted(map(re.escape, SPELLED), key=len, reverse=True))
    + r"|[^\W\d_]{2,}(?:und|hundert|tausend)[^\W\d_]*)(?![^\W_])"
)
_RUN_START = re.compile(_NUMBER_WORD)
#: The next word of a run: after a space or hyphen, maybe a joining "and" ("one hundred and five").
_RUN_NEXT = re.compile(r"[\s-]+(?:(?:and|und|et)[\s-]+)?(" + _NUMBER_WORD + ")")
_NEXT_WORD = re.compile(r"[\s-]*([^\W_]+)")


def _spelled(text: str, *, claim: bool) -> list[Quantity]:
    """Number words: a run of them as one number ("twenty-five", "one thousand seven hundred and
    seventy-five", "quatre-vingt-dix", "fünfundvierzig"), a scale after it ("fifty thousand"); a
    number word before a fraction ("two thirds") states no count. In a claim, a word that is as
    often another word, standing alone, is left out. (Only the places where a number word stands
    are looked at: most of a text has none.)"""
    out = []
    pos = 0
    while (m := _RUN_START.search(text, pos)) is not None:
        first = _word_value(m.group())
        if first is None:  # a word that only looks like a German compound ("Grundstücken")
            pos = m.end()
            continue
        parts, start, end = [(m.group(), first)], m.start(), m.end()
        while (n := _RUN_NEXT.match(text, end)) is not None and (v := _word_value(n.group(1))) is not None:
            parts.append((n.group(1), v))
            end = n.end()
        value = _run_value(parts)
        after = _NEXT_WORD.match(text, end)
        following = after.group(1) if after else ""
        pos = end
        if following in _FRACTIONS:
            pos = after.end() if after else end
            continue
        if following in SCALES and following not in ("k", "m", "万", "亿"):
            value *= SCALES[following]
            end = after.end() if after else end
            pos = end
            after = _NEXT_WORD.match(text, end)
            following = after.group(1) if after else ""
        if claim and len(parts) == 1 and end == m.end() and m.group() in SPELLED_AMBIGUOUS:
            continue
        hedge = _hedge_before(text, start)
        out.append(Quantity(text[start:end], frozenset({Decimal(value)}), following or None, hedge))
    return out


def _run_value(parts: list[tuple[str, int]]) -> int:
    """The value of a run of number words, as they are said: a hundred multiplies what is before it
    in its thousand, a thousand all before it; French "quatre-vingt(s)" is eighty."""
    total = current = 0
    previous = 0
    for word, v in parts:
        if v == 100:
            current = max(current, 1) * 100
        elif v >= 1000:
            total += max(current, 1) * v
            current = 0
        elif word in ("vingt", "vingts") and previous == 4:
            current += 80 - 4
        else:
            current += v
        previous = v
    return total + current


#: Chinese numerals and the measure words that say they count something ("三家", "两名", "十二个").
_ZH_DIGITS = dict(zip("零〇一二两三四五六七八九", (0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}
_ZH_NUMBER = re.compile(
    "(?<![第零〇一二两三四五六七八九十百千])([零〇一二两三四五六七八九十百千]+)"
    "(?=[家个名位项次人户条种件所座份倍岁周张台辆只股])"
)


def _chinese(text: str, *, claim: bool) -> list[Quantity]:
    """Chinese numerals before a measure word ("公司下属两家…": 2); in a claim, a lone 一 (as often
    "a", "the same") is left out."""
    out = []
    for m in _ZH_NUMBER.finditer(text):
        numeral = m.group(1)
        if claim and numeral == "一":
            continue
        total = current = 0
        for ch in numeral:
            if ch in _ZH_UNITS:
                total += max(current, 1) * _ZH_UNITS[ch]
                current = 0
            else:
                current = current * 10 + _ZH_DIGITS[ch]  # (digit by digit: "二〇一八")
        out.append(Quantity(numeral, frozenset({Decimal(total + current)}), text[m.end() : m.end() + 1]))
    return out


#: Fractions and multipliers in words. A fraction word counts as one after "a", "one" or a number
#: word ("a third", "two thirds"), or before "of"; "half" always. A claim's fraction or multiplier is
#: only judged against the evidence's own, and a fraction against its percentages (a claim's "half"
#: is not wrong where the evidence counts "6 of 12"; it is where the evidence says "1/3" or "21%").
_FRACTION_WORDS = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4, "fourths": 4,
    "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6, "tenth": 10, "tenths": 10,
    "hälfte": 2, "drittel": 3, "viertel": 4, "moitié": 2, "tiers": 3, "quart": 4,
}  # fmt: skip
_MULTIPLIERS = {
    "double": 2, "doubled": 2, "doubles": 2, "twice": 2, "twofold": 2, "triple": 3, "tripled": 3, "thrice": 3,
    "threefold": 3, "quadrupled": 4, "fourfold": 4, "fivefold": 5, "sixfold": 6, "tenfold": 10,
    "verdoppelt": 2, "verdreifacht": 3, "doublé": 2, "triplé": 3,
}  # fmt: skip
#: A share said as a count: "1 in 5", "one in five", "3 out of 4", "one in every ten".
#: (a part of at most ten; "20 in 30 minutes" and "3 in 10 days" are counts and a duration)
_ONE_IN = re.compile(
    r"(?<![\w.,])(?P<n>10|[1-9]|one|two|three|four|five|six|seven|eight|nine|ten)\s(?:in|out of)\s(?:every\s)?"
    r"(?P<d>\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|twenty|hundred)(?![\w.,])"
    r"(?!\s(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b)"
)
_DIGIT_FRACTION = re.compile(r"(?<![\d/.,])([1-9])\s?/\s?([2-9]|1[0-2])(?![\d/])")
_FRACTION_PHRASE = re.compile(
    r"(?:\b(?P<n>a|an|one|two|three|four|five|ein|eine|un|une|deux|trois)[\s-]+)?(?<![^\W_])(?P<f>"
    + "|".join(sorted([*_FRACTION_WORDS, *_MULTIPLIERS], key=len, reverse=True))
    + r")(?![^\W_])(?P<of>\s(?:of|der|des|de)\b)?"
)


def _ratios(text: str, *, claim: bool = False) -> tuple[list[Quantity], str]:
    """Fractions ("1/3", "two thirds", "half", "1 in 5") and multipliers ("fivefold", "doubled"), and
    the text with digit fractions blanked (their digits are no counts; those of "1 in 5" are, but in
    a claim, which states the share)."""
    found: list[Quantity] = []
    for m in _DIGIT_FRACTION.finditer(text):
        found.append(Quantity(m.group(), frozenset({_fraction(int(m.group(1)), int(m.group(2)))}), FRACTION))
    text = _DIGIT_FRACTION.sub(lambda m: " " * len(m.group()), text)
    shares = []
    for m in _ONE_IN.finditer(text):
        part, whole = _small(m.group("n")), _small(m.group("d"))
        if part is not None and whole and part < whole:
            found.append(Quantity(m.group(), frozenset({_fraction(part, whole)}), FRACTION))
            shares.append(m.span())
    if claim:  # a claim's "one in five" states the share; the evidence's "3 out of 4 tests" counts too
        for s, e in shares:
            text = text[:s] + " " * (e - s) + text[e:]
    for m in _FRACTION_PHRASE.finditer(text):
        word = m.group("f")
        if word in _MULTIPLIERS:
            found.append(Quantity(word, frozenset({Decimal(_MULTIPLIERS[word])}), TIMES))
        elif word in _FRACTION_WORDS and (word in ("half", "hälfte", "moitié") or m.group("n") or m.group("of")):
            count = SPELLED.get(m.group("n") or "", 1) or 1
            said = text[m.start() : m.end("f")].strip()
            hedge = _hedge_before(text, m.start())
            found.append(Quantity(said, frozenset({_fraction(count, _FRACTION_WORDS[word])}), FRACTION, hedge))
    return found, text


def _small(word: str) -> int | None:
    """A count of up to 100, in digits or English words."""
    if word.isdigit():
        return int(word) if int(word) <= 100 else None
    return SPELLED.get(word)


def _fraction(numerator: int, denominator: int) -> Decimal:
    return (Decimal(numerator) / Decimal(denominator)).quantize(Decimal("0.0001"))


_ANY_DIGIT = re.compile(r"\d")
#: What a text must hold for a kind of date to be in it (a cheap test first: most evidence has none).
_DATE_NEEDS = {
    "dmy": re.compile(_MONTH),
    "mdy": re.compile(_MONTH),
    "iso": re.compile(r"\d-\d|年"),
    "numeric": re.compile(r"\d[./-]\d"),
    "my": re.compile(r"\d[./-]\d"),
}


def _dates(text: str) -> tuple[list[Date], str]:
    """The dates of a text, and the text with them blanked out (their numbers are not quantities)."""
    found: list[Date] = []
    if _ANY_DIGIT.search(text) is None:
        return found, text  # (no date without a day or a year)
    for pattern, kind in _DATES:
        if _DATE_NEEDS[kind].search(text) is None:
            continue
        blanks = []
        for m in pattern.finditer(text):
            readings = _readings(m, kind)
            if readings:
                found.append(Date(m.group(), frozenset(readings)))
                blanks.append(m.span())
        for a, b in blanks:
            text = text[:a] + " " * (b - a) + text[b:]
    return found, text


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
        return {(int(g["y"]), int(g["m"]), int(g["d"]) if g.get("d") else None)}
    if kind == "my":
        return {(int(g["y"]), int(g["m"]), None)}
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
