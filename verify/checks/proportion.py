"""A check of the share a claim's own words give ("most of the papers", "about a third",
"nearly all") against the share its evidence states: a count of a whole ("18 out of 38"), a
percentage of something ("18 to 24 percent of a baby's body weight"), or a share word of its own
("Die meisten …" against "only a small share")."""

from __future__ import annotations

import functools
import re

from citeline.text.lang import Language
from citeline.verify.checks import Check, Evidence
from citeline.verify.claims import clause_bounds
from citeline.verify.negation import WORD as NEGATION_WORD

#: A share counts as stated by a figure this close to the interval a share word means.
TOLERANCE = 0.02

_NUMBER = r"\d+(?:[.,]\d+)?"


def _value(text: str) -> float:
    """A figure's value: "1,000" is a thousand, "0,5" a half."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", text):
        return float(text.replace(",", ""))
    return float(text.replace(",", "."))


#: A whole that reads as a year ("Section 3 of 2019") counts nothing.
_YEAR = re.compile(r"(?:19|20)\d\d")


@functools.cache
def _words_pattern(words: frozenset[str]) -> re.Pattern[str] | None:
    """Any of ``words`` (phrases too) as whole words, the longest first, or ``None`` without any."""
    if not words:
        return None
    alternatives = "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
    return re.compile(rf"(?<![^\W\d_])(?:{alternatives})(?![^\W\d_])", re.IGNORECASE)


def _undenied(text: str, words: frozenset[str], lang: Language) -> list[str]:
    """Each of ``words`` in ``text`` as written there, but one a negation stands right before ("not
    most of", "not always"): that one says nothing."""
    pattern = _words_pattern(words)
    if pattern is None:
        return []
    out = []
    for m in pattern.finditer(text):
        before = [w.lower() for w in NEGATION_WORD.findall(text[max(0, m.start() - 30) : m.start()])][-2:]
        if not any(lang.denies(w) for w in before):
            out.append(m.group())
    return out


@functools.cache
def _share_words(lang: Language) -> frozenset[str]:
    return frozenset(lang.proportions)


def _said(text: str, lang: Language) -> list[tuple[str, tuple[float, float]]]:
    """The share words of ``text`` with the interval each means (:func:`_undenied`)."""
    return [(w, lang.proportions[w.lower()]) for w in _undenied(text, _share_words(lang), lang)]


@functools.cache
def _stated_patterns(lang: Language) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    if not lang.ratio_words or not lang.percent_words:
        return None
    ratio = "|".join(map(re.escape, sorted(lang.ratio_words, key=len, reverse=True)))
    percent = "|".join(map(re.escape, sorted(lang.percent_words, key=len, reverse=True)))
    share_of = "|".join(map(re.escape, sorted(lang.share_of, key=len, reverse=True)))
    counts = re.compile(rf"(?<![\d.,])({_NUMBER})\s+(?:{ratio})\s+(?:\w+\s+)?({_NUMBER})(?![\d.,]\d)", re.IGNORECASE)
    percents = re.compile(
        rf"(?<![\d.,])({_NUMBER})(?:\s*(?:to|–|-)\s*({_NUMBER}))?\s*(?:{percent})\s+(?:{share_of})\b", re.IGNORECASE
    )
    return counts, percents


def _stated(text: str, lang: Language) -> list[float]:
    """The shares ``text`` states in figures: a count of a whole ("18 out of 38", "2 of the 44"), a
    percentage of something ("24 percent of", "35 % der"); without either, a part counted after its
    whole (:func:`_part_of_counted`)."""
    patterns = _stated_patterns(lang)
    if patterns is None:
        return []
    counts, percents = patterns
    out = []
    for m in counts.finditer(text):
        if _YEAR.fullmatch(m.group(2)):
            continue
        part, whole = _value(m.group(1)), _value(m.group(2))
        if whole > 0 and part <= whole:
            out.append(part / whole)
    for m in percents.finditer(text):
        out.extend(_value(g) / 100 for g in m.groups() if g is not None)
    return out or _part_of_counted(text, lang)


_COUNT = re.compile(r"(?<![\d.,])(\d+)(?![\d.,%]|\s*%)")


def _part_of_counted(text: str, lang: Language) -> list[float]:
    """The share of a part counted after a whole, with a word that makes it a part ("While 33 papers
    use several annotators, only 12 report agreement": 12 of 33): the sentence's only two counts
    (whole numbers, no years), the second smaller and opened by one of the language's
    :attr:`~citeline.text.lang.Language.part_openers`."""
    pattern = _words_pattern(lang.part_openers)
    if pattern is None:
        return []
    counts = [m for m in _COUNT.finditer(text) if not _YEAR.fullmatch(m.group(1))]
    if len(counts) != 2:
        return []
    whole, part = (int(m.group(1)) for m in counts)
    opener = [w.lower() for w in NEGATION_WORD.findall(text[counts[0].end() : counts[1].start()])][-1:]
    if not 0 < part < whole or not opener or pattern.fullmatch(opener[0]) is None:
        return []
    return [part / whole]


def _inside(value: float, interval: tuple[float, float]) -> bool:
    return interval[0] - TOLERANCE <= value <= interval[1] + TOLERANCE


def proportion_words(e: Evidence) -> str | None:
    """A share the claim's own words give in words ("most of", "about a third", "nearly all") is one
    the quote's sentence states: where it states shares in figures (a count of a whole, a
    percentage of something), one of them lies in the share's interval; where it says a share in
    words ("die meisten", "a minority"), the two intervals meet."""
    if not e.cit.claim or not e.cit.quote:
        return None
    said = _said(e.stated, e.answer)
    if not said:
        return None
    sentences = e.sentences
    figures = _stated(sentences, e.doc)
    worded = _said(sentences, e.doc)
    for phrase, interval in said:
        if figures and not any(_inside(v, interval) for v in figures):
            shown = ", ".join(f"{v:.0%}" for v in figures)
            return f"the claim says {phrase!r}, the quote's sentence states {shown}"
        if not figures and worded and not any(a[0] <= interval[1] and interval[0] <= a[1] for _, a in worded):
            return f"the claim says {phrase!r}, the quote's sentence {worded[0][0]!r}"
    return None


def quantifier_scope(e: Evidence) -> str | None:
    """The claim's own words do not say that something holds of every case or of one alone ("Every
    algorithm …", "the only activation function") where the quote's clause speaks of some cases or
    of one example among others ("Some algorithms …", "One example of such an activation function
    is …") and of none as all."""
    if not e.cit.claim or not e.cit.quote or e.answer.unspaced or e.doc.unspaced:
        return None
    said = _undenied(e.stated, e.answer.universal, e.answer)
    if not said:
        return None
    clause = e.chunk.text[slice(*clause_bounds(e.chunk.text, e.start, e.end, e.doc))]
    some = _undenied(clause, e.doc.partial, e.doc)
    if not some or _undenied(clause, e.doc.universal, e.doc):
        return None
    return f"the claim says {said[0]!r}, the quote's clause {some[0]!r}"


CHECKS = (
    Check(
        "proportion_words",
        "numeric_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        proportion_words,
        "a share the claim's own words give ('most of', 'about a third') is the share the quote's sentence states",
    ),
    Check(
        "quantifier_scope",
        "negation_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        quantifier_scope,
        "the claim's own words do not say 'every' or 'only' where the quote's clause says 'some' or 'for example'",
    ),
)
