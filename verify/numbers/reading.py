"""Reading the numbers of a folded text in its language: digits however they are grouped, number
words, magnitudes, hedges, units, rates, dates, fractions and multipliers.

Digits, signs (``$``, ``€``, ``%``), Chinese magnitudes (``万``, ``亿``) and numeric dates are read
in every language; words (``twelve``, ``fünfundvierzig``, ``mille``; ``about``, ``mehr als``;
``days``, ``Tage``; ``June``, ``juin``) only in the language the text is in
(:mod:`citeline.text.lang`), so an English claim is read with English words and a French
document with French ones. What names something states no quantity: the number of a part of the
document (``Table 8``, ``Form 6251``, ``§ 5``) and digits that follow letters in a code (``v2.3``,
``HbA1c``, ``COVID-19``, ``Q1``).
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal

from citeline.text import lang as language
from citeline.text.lang import Language
from citeline.verify.numbers.values import FRACTION, TIMES, Date, Numbers, Quantity, canonical

#: Digits grouped in threes by spaces ("1 500", "48 300", "1 200 000"): one number.
_SPACE_GROUPED = re.compile(r"(?<![\d.,])(?<!\d\s)\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?![\d]|[.,]\d)")
#: A time of day as French and German write it: "16h45", "16 h 45" (read as "16:45": its minutes count).
_CLOCK = re.compile(r"(?<![\w.,])(\d{1,2})\s?h\s?(\d{2})(?![\d])")
#: A time of day on the twelve-hour clock: "4 p.m.", "4:30pm" (read as "16:00", "16:30"). "am"
#: without its full stops only in English ("am" is German "on the").
_TWELVE_HOUR = re.compile(r"(?<![\w.,:])(\d{1,2})(?::(\d{2}))?\s?(?:([ap])\.\s?m\.|([ap])m\b)")
#: A shortened year range: "2019-20", "2019/20", "2003–07".
_YEAR_RANGE = re.compile(r"(?<![\d.,/-])(1[6-9]|20)(\d\d)([-–—/])(\d\d)(?![\d]|[.,/-]\d)")
#: Digits right after letters (and a hyphen) are a code's: "v2.3", "hba1c", "covid-19", "q1".
_CODE_DIGITS = re.compile(r"(?<=[a-z\u00df-\u024f\u0370-\u03ff\u0400-\u04ff])-?\d+(?:[.,]\d+)*")
#: Signs every language writes: currencies before a number, shares after it.
_SIGNS = {"$": ("money", "usd"), "us$": ("money", "usd"), "usd": ("money", "usd"), "€": ("money", "eur"),
          "eur": ("money", "eur"), "£": ("money", "gbp"), "gbp": ("money", "gbp"), "¥": ("money", "cny"),
          "元": ("money", "cny"), "rmb": ("money", "cny"), "cny": ("money", "cny"), "jpy": ("money", "jpy"),
          "%": ("share", "percent")}  # fmt: skip
#: Magnitudes written in Chinese and Japanese characters after a number.
_CJK_SCALES = {"万": 10**4, "亿": 10**8, "億": 10**8}
_DAY = r"(?:[12]\d|3[01]|0?[1-9])"
_YEAR = r"(?:1[6-9]\d\d|2[01]\d\d)"
_NUMERIC_DATES = [
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
_DATE_NEEDS = {"dmy": None, "mdy": None, "iso": re.compile(r"\d-\d|年"), "numeric": re.compile(r"\d[./-]\d")}
_DATE_NEEDS["my"] = _DATE_NEEDS["numeric"]
_ANY_DIGIT = re.compile(r"\d")
_DIGIT_FRACTION = re.compile(r"(?<![\d/.,])([1-9])\s?/\s?([2-9]|1[0-2])(?![\d/])")
_NEXT_WORD = re.compile(r"[\s-]*([^\W_]+)")
#: Chinese numerals and the measure words that say they count something ("三家", "两名", "十二个").
_ZH_DIGITS = dict(zip("零〇一二两三四五六七八九", (0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}
_ZH_NUMBER = re.compile(
    "(?<![第零〇一二两三四五六七八九十百千])([零〇一二两三四五六七八九十百千]+)"
    "(?=[家个名位项次人户条种件所座份倍岁周张台辆只股])"
)


def _alternatives(words: object) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))  # type: ignore[call-overload]


class Reader:
    """The patterns of one language, compiled once (:func:`reader`)."""

    def __init__(self, lang: Language) -> None:
        self.lang = lang
        self.spelled = lang.spelled
        # the names of a document's parts in every language: an English answer names the parts of a
        # German document as it does ("Abschnitt 3.2", "Table 8"), and they state no quantity
        labels = "|".join(
            [*lang.labels, *(x for other in language.every() if other is not lang for x in other.labels), "§"]
        )
        self.labelled = re.compile(rf"(?<![^\W\d_])(?:{labels})\.?\s*\(?\d+(?:[.,]\d+)*[a-z]{{0,3}}\)?(?![\w])")
        words = [w for w in lang.scales if not w.isascii() or len(w) > 2]
        suffixes = list(lang.magnitude_suffixes)
        self.scales = {**lang.scales, **lang.magnitude_suffixes, **_CJK_SCALES}
        suffix = rf"|\s?(?P<suffix>{_alternatives(suffixes)})(?![\w])" if suffixes else ""
        word = rf"|\s(?P<word>{_alternatives(words)})(?![\w])" if words else ""
        self.number = re.compile(
            rf"(?<![\d.,])(?P<n>\d+(?:[.,]\d+)*)(?:\s?(?P<scale>{_alternatives(_CJK_SCALES)}){suffix}{word})?"
        )
        tail = r"\s(?:an?\s|the\s)?[$€£¥]?$"
        self.hedges = [
            (re.compile(rf"(?:{'|'.join(pattern)}){tail}"), name)
            for pattern, name in ((lang.hedges_above, "above"), (lang.hedges_below, "below"))
            if pattern
        ]
        near = [*lang.hedges_near]
        self.hedges.append((re.compile(rf"(?:(?:{'|'.join(near)})\s(?:an?\s|the\s)?|~|≈|∼)\s?[$€£¥]?$" if near
                                       else r"(?:~|≈|∼)\s?[$€£¥]?$"), "near"))  # fmt: skip
        if lang.code == "en":
            self.hedges[0] = (re.compile(r"(?<!\bno )(?<!\bnot )" + self.hedges[0][0].pattern), "above")
        self.unit_kinds = {
            w: (cls, canon) for cls, units in lang.units_of.items() for canon, ws in units.items() for w in ws.split()
        } | _SIGNS
        per = "|".join(map(re.escape, lang.per))
        nouns, adverbs = _alternatives(lang.periods), _alternatives(lang.rate_adverbs)
        alternatives = []
        if nouns and per:
            alternatives.append(rf"\s?(?:[%‰]|[^\W\d_]+)?\s?(?:(?:{per})\s|/\s?)(?P<noun>{nouns})s?\b")
        if adverbs:
            alternatives.append(rf"\s?(?:[^\W\d_]+\s)?(?P<adverb>{adverbs})\b")
        self.period = re.compile("|".join(alternatives), re.IGNORECASE) if alternatives else None
        self.compared = re.compile(rf"\s?(?:{_alternatives(lang.comparatives)})\b") if lang.comparatives else None
        # number words: a run of them as one number ("twenty-five", "fünfundvierzig")
        compound = r"|[^\W\d_]{2,}(?:und|hundert|tausend)[^\W\d_]*" if lang.code == "de" else ""
        self.number_word = (
            rf"(?<![^\W_])(?:{_alternatives(self.spelled)}{compound})(?![^\W_])" if self.spelled else None
        )
        joiners = "|".join(lang.number_joiners)
        self.run_start = re.compile(self.number_word) if self.number_word else None
        self.run_next = (
            re.compile(rf"[\s-]+(?:(?:{joiners})[\s-]+)?({self.number_word})")
            if self.number_word and joiners
            else re.compile(rf"[\s-]+({self.number_word})")
            if self.number_word
            else None
        )
        # fractions and multipliers in words
        both = [*lang.fractions, *lang.multipliers]
        counts = "|".join(map(re.escape, lang.fraction_counts))
        of = "|".join(map(re.escape, lang.fraction_of))
        self.fraction_phrase = (
            re.compile(
                (rf"(?:\b(?P<n>{counts})[\s-]+)?" if counts else "(?P<n>)?")
                + rf"(?<![^\W_])(?P<f>{_alternatives(both)})(?![^\W_])"
                + (rf"(?P<of>\s(?:{of})\b)?" if of else "(?P<of>)?")
            )
            if both
            else None
        )
        self.one_in = (
            re.compile(
                r"(?<![\w.,])(?P<n>10|[1-9]|one|two|three|four|five|six|seven|eight|nine|ten)\s(?:in|out of)\s"
                r"(?:every\s)?(?P<d>\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|twenty|hundred)(?![\w.,])"
                r"(?!\s(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b)"
            )
            if lang.code == "en"
            else None
        )
        # dates with month names
        self.dates = list(_NUMERIC_DATES)
        self.month_re: re.Pattern[str] | None = None
        if lang.months:
            month = rf"(?:{_alternatives(lang.months)})\.?"
            self.month_re = re.compile(month)
            self.dates[:0] = [
                (
                    re.compile(
                        rf"(?<![\d.,])(?P<d>{_DAY})(?:st|nd|rd|th|er)?\.?\s(?:of\s)?(?P<m>{month})"
                        rf"(?:,?\s(?P<y>{_YEAR}))?(?![\w])"
                    ),
                    "dmy",
                ),
                (
                    re.compile(
                        rf"(?<![\w])(?P<m>{month})\s"
                        rf"(?:(?P<d>{_DAY})(?:st|nd|rd|th)?(?![\d.,]\d)(?:,?\s(?P<y>{_YEAR}))?|(?P<y2>{_YEAR}))(?![\w])"
                    ),
                    "mdy",
                ),
            ]

    # ------------------------------------------------------------------ the parts

    def hedge_before(self, text: str, start: int) -> str | None:
        """The hedge ("above", "below", "near") the words right before ``start`` put on a number."""
        before = text[max(0, start - 24) : start]
        return next((h for pattern, h in self.hedges if pattern.search(before)), None)

    def kind(self, unit: str | None, currency: str | None) -> tuple[str, str] | None:
        return self.unit_kinds.get(currency or "") or self.unit_kinds.get(unit or "")

    def quantity(self, m: re.Match[str], text: str) -> Quantity:
        value = canonical(m.group("n"), self.lang.code)
        if value is None:
            return Quantity(m.group(), frozenset())
        values = {value}
        groups = m.groupdict()
        scale = groups.get("scale") or groups.get("suffix") or groups.get("word")
        if scale:
            values.add((value * self.scales[scale]).normalize() + 0)
        unit_match = re.match(r"\s?([%‰×]|[^\W\d_]+)", text[m.end() :])
        unit = unit_match.group(1) if unit_match and not scale else scale
        after = m.end() + (unit_match.end() if unit_match else 0)
        if unit in self.lang.times and not (self.compared is not None and self.compared.match(text, after)):
            unit = "count"  # "cited 5,000 times", "zweimal": how often, not a multiplier
        elif unit in ("x", "×", "fold", "倍") or unit in self.lang.times:
            unit = TIMES
        before = text[max(0, m.start() - 24) : m.start()]
        sign = re.search(r"([$€£¥])\s?$", before)
        rate = self.period.match(text, m.end()) if self.period is not None else None
        period = None
        if rate is not None:
            noun, adverb = rate.groupdict().get("noun"), rate.groupdict().get("adverb")
            period = self.lang.periods.get((noun or "").lower()) or self.lang.rate_adverbs.get((adverb or "").lower())
        currency = sign.group(1) if sign else None
        return Quantity(
            m.group(),
            frozenset(values),
            unit,
            self.hedge_before(text, m.start()),
            self.scales[scale] if scale else 1,
            currency,
            period,
            self.kind(unit, currency),
        )

    def word_value(self, word: str) -> int | None:
        value = self.spelled.get(word)
        return value if value is not None or self.lang.code != "de" else self._german(word)

    def _german(self, word: str) -> int | None:
        """A German number written as one word: "einundzwanzig", "zweihundertfünfzig", "dreitausend"."""
        if len(word) < 7 or not any(part in word for part in ("und", "hundert", "tausend")):
            return None
        for scale_word, scale in (("tausend", 1000), ("hundert", 100)):
            if scale_word in word:
                head, _, tail = word.partition(scale_word)
                times = self._german(head) or self.spelled.get(head) if head else 1
                rest = (self._german(tail) or self.spelled.get(tail)) if tail else 0
                if not times or rest is None or (tail and not rest):
                    return None
                return times * scale + rest
        unit, _, tens = word.partition("und")
        if self.spelled.get(unit, 99) < 10 and tens in self.lang.tens:
            return self.spelled[unit] + self.spelled[tens]
        return None

    def spelled_numbers(self, text: str, *, claim: bool) -> list[Quantity]:
        """Number words: a run of them as one number, a scale after it ("fifty thousand"); a number
        word before a fraction ("two thirds") states no count. In a claim, a word that is as often
        another word, standing alone, is left out."""
        if self.run_start is None or self.run_next is None:
            return []
        out = []
        pos = 0
        while (m := self.run_start.search(text, pos)) is not None:
            first = self.word_value(m.group())
            if first is None:  # a word that only looks like a German compound ("Grundstücken")
                pos = m.end()
                continue
            parts, start, end = [(m.group(), first)], m.start(), m.end()
            while (n := self.run_next.match(text, end)) is not None and (v := self.word_value(n.group(1))) is not None:
                joined = re.search(r"[^\W\d_]", text[n.start() : n.start(1)]) is not None
                last = parts[-1][1]
                if joined and last < 100 and not (last >= 20 and last % 10 == 0 and v < 10):
                    # a joiner after a scale ("one hundred and five") or a ten before a unit ("vingt
                    # et un"); "two and seven" are two numbers
                    break
                parts.append((n.group(1), v))
                end = n.end()
            value = _run_value(parts)
            after = _NEXT_WORD.match(text, end)
            following = after.group(1) if after else ""
            pos = end
            if following in self.lang.fractions:
                pos = after.end() if after else end
                continue
            if following in self.lang.scales and len(following) > 2:
                value *= self.lang.scales[following]
                end = after.end() if after else end
                pos = end
                after = _NEXT_WORD.match(text, end)
                following = after.group(1) if after else ""
            if (
                claim
                and len(parts) == 1
                and end == m.end()
                and (m.group() in self.lang.ambiguous_numbers or value >= 100)
            ):
                continue  # (a scale word alone, "thousands of", "in thousand", counts nothing)
            out.append(
                Quantity(
                    text[start:end],
                    frozenset({Decimal(value)}),
                    following or None,
                    self.hedge_before(text, start),
                    kind=self.kind(following, None),
                )
            )
        return out

    def ratios(self, text: str, *, claim: bool = False) -> tuple[list[Quantity], str]:
        """Fractions ("1/3", "two thirds", "half", "1 in 5") and multipliers ("fivefold", "doubled"),
        and the text with digit fractions blanked (their digits are no counts; those of "1 in 5"
        are, but in a claim, which states the share)."""
        found: list[Quantity] = []
        for m in _DIGIT_FRACTION.finditer(text):
            found.append(Quantity(m.group(), frozenset({_fraction(int(m.group(1)), int(m.group(2)))}), FRACTION))
        text = _DIGIT_FRACTION.sub(lambda m: " " * len(m.group()), text)
        shares = []
        for m in self.one_in.finditer(text) if self.one_in is not None else ():
            part, whole = self._small(m.group("n")), self._small(m.group("d"))
            if part is not None and whole and part < whole:
                found.append(Quantity(m.group(), frozenset({_fraction(part, whole)}), FRACTION))
                shares.append(m.span())
        if claim:  # a claim's "one in five" states the share; the evidence's "3 out of 4 tests" counts too
            for s, e in shares:
                text = text[:s] + " " * (e - s) + text[e:]
        halves = {w for w, d in self.lang.fractions.items() if d == 2 and not w.endswith("s")}
        for m in self.fraction_phrase.finditer(text) if self.fraction_phrase is not None else ():
            word = m.group("f")
            if word in self.lang.multipliers:
                value = frozenset({Decimal(self.lang.multipliers[word])})
                if word in self.lang.how_often and not (self.compared and self.compared.match(text, m.end("f"))):
                    # "at most twice per event": how often, held against the evidence's counts
                    found.append(Quantity(word, value, "count", self.hedge_before(text, m.start())))
                else:
                    found.append(Quantity(word, value, TIMES))
            elif word in self.lang.fractions and (word in halves or m.group("n") or m.group("of")):
                count = self.spelled.get(m.group("n") or "", 1) or 1
                said = text[m.start() : m.end("f")].strip()
                hedge = self.hedge_before(text, m.start())
                found.append(Quantity(said, frozenset({_fraction(count, self.lang.fractions[word])}), FRACTION, hedge))
        return found, text

    def _small(self, word: str) -> int | None:
        """A count of up to 100, in digits or words."""
        if word.isdigit():
            return int(word) if int(word) <= 100 else None
        return self.spelled.get(word)

    def read_dates(self, text: str) -> tuple[list[Date], str]:
        """The dates of a text, and the text with them blanked out (their numbers are not quantities)."""
        found: list[Date] = []
        if _ANY_DIGIT.search(text) is None:
            return found, text  # (no date without a day or a year)
        for pattern, kind in self.dates:
            need = self.month_re if kind in ("dmy", "mdy") else _DATE_NEEDS[kind]
            if need is not None and need.search(text) is None:
                continue
            blanks = []
            for m in pattern.finditer(text):
                readings = self._readings(m, kind)
                if readings:
                    found.append(Date(m.group(), frozenset(readings)))
                    blanks.append(m.span())
            for a, b in blanks:
                text = text[:a] + " " * (b - a) + text[b:]
        return found, text

    def _readings(self, m: re.Match[str], kind: str) -> set[tuple[int | None, int | None, int | None]]:
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
        named = self.lang.months.get(month_word)
        if named is None:
            return set()
        year_text = g.get("y") or g.get("y2")
        when: int | None = int(year_text) if year_text else None
        on: int | None = int(g["d"]) if g.get("d") else None
        if month_word in self.lang.ambiguous_months and not when:
            return set()  # "it may 3 times", "march 2": not surely a date
        if kind == "mdy" and on is None and when is None:
            return set()
        return {(when, named, on)}


@functools.cache
def reader(lang: Language) -> Reader:
    return Reader(lang)


def numbers(folded: str, lang: Language | str, *, claim: bool) -> Numbers:
    """The dates and quantities of a folded text in ``lang`` (a :class:`Language`, or its code). In a
    claim, only what it surely states: no number word that is as often another word, no number of a
    part of the document or a code."""
    if not isinstance(lang, Language):
        lang = language.of(lang)
    return _numbers(folded, lang, claim)


@functools.lru_cache(maxsize=2048)
def _numbers(folded: str, lang: Language, claim: bool) -> Numbers:
    """:func:`numbers`, remembered: the checks of one citation read its sentences' numbers several
    times, and the citations of one answer often share a chunk."""
    r = reader(lang)
    text = _SPACE_GROUPED.sub(lambda m: re.sub(r"\s", "", m.group()), folded) if lang.space_grouping else folded
    text = _YEAR_RANGE.sub(_expand_range, text)
    text = _CLOCK.sub(r"\1:\2", text)
    text = _TWELVE_HOUR.sub(lambda m: _twenty_four(m, lang.code), text)
    if claim:
        text = r.labelled.sub(lambda m: " " * len(m.group()), text)
        text = _CODE_DIGITS.sub(lambda m: " " * len(m.group()), text)
    dates, text = r.read_dates(text)
    ratios, text = r.ratios(text, claim=claim)
    found = list(r.number.finditer(text))
    quantities = _shared_scales([r.quantity(m, text) for m in found], found, text)
    quantities += r.spelled_numbers(text, claim=claim) + _chinese(text, claim=claim) + ratios
    return Numbers(tuple(q for q in quantities if q.values), tuple(dates))


#: What joins the numbers of one list: a comma, an enumeration comma, "and" in a language read here.
_LIST_JOIN = re.compile(r"\s*(?:[,、，]|\b(?:and|und|et|y|e)\b|和|及)\s*")


def _shared_scales(quantities: list[Quantity], found: list[re.Match[str]], text: str) -> list[Quantity]:
    """A list of numbers whose last has a scale word has it for each ("0.47, 0.72 and 0.93 billion",
    "4.7、7.2、9.3 亿"): each gets the scaled value too, and the last's unit."""
    out = list(quantities)
    for k in range(len(out) - 2, -1, -1):
        nxt = out[k + 1]
        q = out[k]
        if (
            nxt.scale == 1
            or q.scale != 1
            or not q.values
            or not _LIST_JOIN.fullmatch(text, found[k].end(), found[k + 1].start())
        ):
            continue
        scaled = frozenset({*q.values, *((v * nxt.scale).normalize() + 0 for v in q.values)})
        out[k] = Quantity(q.text, scaled, nxt.unit, q.hedge, nxt.scale, q.currency or nxt.currency, q.period, nxt.kind)
    return out


def _twenty_four(m: re.Match[str], lang: str) -> str:
    hour, minutes, dotted, bare = m.group(1), m.group(2) or "00", m.group(3), m.group(4)
    if (bare and lang != "en") or not 1 <= int(hour) <= 12:
        return m.group()
    h = int(hour) % 12 + (12 if (dotted or bare) == "p" else 0)
    return f"{h}:{minutes}"


def _expand_range(m: re.Match[str]) -> str:
    century, start, dash, end = m.groups()
    return f"{century}{start}{dash}{century}{end}" if int(end) > int(start) else m.group()


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


def _fraction(numerator: int, denominator: int) -> Decimal:
    return (Decimal(numerator) / Decimal(denominator)).quantize(Decimal("0.0001"))
