"""Checks of the direction a claim's own words give against its evidence's: a rise said of a fall
("The ability declines: "… the ability to monitor … increases""), a higher value said of a lower
one ("lower latency" beside "an increased latency"), a trend said of a table's row that its
figures do not show ("P/E rising: "P/E 82.90 30.47 20.02 15.38"" under the years 2021 to 2024),
and a rise or fall said of a row of two periods that goes the other way ("Other receivables fell:
"其他应收款 18,267,606.14 3,123,072.43 484.92%"" under 本期 and 上期)."""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from decimal import Decimal

from citeline.text.lang import CODES, Language
from citeline.verify.checks import Check, Evidence
from citeline.verify.checks.numbers import table_of
from citeline.verify.claims import clause_bounds
from citeline.verify.negation import WORD as NEGATION_WORD
from citeline.verify.negation import without_asserting

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
    words = [w.lower() for w in NEGATION_WORD.findall(without_asserting(text, lang))]  # "not only reduces" reduces
    for k, w in enumerate(words):
        if any(lang.denies(x) for x in words[max(0, k - 2) : k]):
            continue
        if w in lang.up:
            out.add("up")
        elif w in lang.down:
            out.add("down")
    return out


def claim_direction(e: Evidence) -> str | None:
    """The claim's own words name one direction (a rise or a fall) and the quote's sentence only the
    other."""
    if not e.cit.claim or not e.cit.quote:
        return None
    said = _directions(e.stated, e.answer)
    found = _directions(e.sentences, e.doc)
    if len(said) != 1 or len(found) != 1 or said == found:
        return None
    return f"the claim says {said.pop()}, the source {found.pop()}"


def covariate_direction(e: Evidence) -> str | None:
    """A change said with what it goes with ("Accuracy drops as batches get larger" beside "accuracy
    consistently improves as the batch size grows"): where the two clauses of what it goes with
    name one direction alike, the main clauses name one direction alike too."""
    if not e.cit.claim or not e.cit.quote:
        return None
    ours = _covariate(e.own_words, e.answer)
    if ours is None:
        return None
    theirs = _covariate(e.sentences, e.doc)
    if theirs is None or ours[1] != theirs[1] or ours[0] == theirs[0]:
        return None
    return f"the claim says {ours[0]} as it goes {ours[1]}, the source {theirs[0]}"


def _covariate(text: str, lang: Language) -> tuple[str, str] | None:
    """The one direction of ``text``'s main clause and the one of its clause of what the change goes
    with ("as the batch size grows"), or ``None`` where either names none or both."""
    pattern = _opened_phrase(lang.covariates, ",;:.!?()")
    if pattern is None or lang.unspaced:
        return None
    for m in pattern.finditer(text):
        condition = _directions(m.group(), lang)
        main = _directions(text[: m.start()] + " " + text[m.end() :], lang)
        if len(condition) == 1 and len(main) == 1:
            return main.pop(), condition.pop()
    return None


def _key(word: str) -> str:
    """A graded word's key: its first five letters, without accents ("costly", "costs" -> "costl",
    "costs"; "coûteuse" and "couteuse" -> "coute": sources and answers drop accents alike)."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))[:5]


def _graded(text: str, lang: Language) -> dict[str, set[str]]:
    """The words ``text`` grades, each with the directions of its grading: "more costly" and "costly
    … than" grade "costly" up, "low-variance" grades "variance" down, "moins élevé" grades the word
    before it down. A grading a negation stands right before ("not more costly", "n'est plus") and
    words of the language's function words are left out."""
    words = [w.lower() for w in NEGATION_WORD.findall(text)]
    degree = lang.degree_up | lang.degree_down
    out: dict[str, set[str]] = {}
    k = 0
    while k < len(words):
        if words[k] not in degree or any(lang.denies(x) for x in words[max(0, k - 2) : k]):
            k += 1
            continue
        down = words[k] in lang.degree_down
        j = k + 1
        while j < len(words) and words[j] in degree:  # "moins élevé", "much lower"
            down ^= words[j] in lang.degree_down
            j += 1
        after = [j]
        if j + 1 < len(words) and lang.adverb_suffix and words[j].endswith(lang.adverb_suffix):
            after.append(j + 1)  # "most strongly connected": what is graded is "connected"
        for at in (k - 1, *after):
            if 0 <= at < len(words):
                w = words[at]
                if len(w) >= 3 and w not in lang.function_words and w not in degree and not w.isdigit():
                    out.setdefault(_key(w), set()).add("down" if down else "up")
        k = j
    return out


def opposite_degree(e: Evidence) -> str | None:
    """The claim's own words grade a word one way ("more costly", "low-variance") and the quote's
    sentence grades the same word only the other way ("less costly", "higher variance"). Either
    side making a comparison ("than", "compared", "whereas") is left alone: a comparison may grade
    one word both ways and agree. On the source's side, a comparison is the quote's clause's only
    (a comparison in another clause, or a sentence the quote's runs on into, "… but higher variance:
    … (relative ordering …)", grades nothing of the quote's)."""
    if not e.cit.claim or not e.cit.quote or e.answer.unspaced or e.doc.unspaced:
        return None
    own = e.stated
    clause = e.chunk.text[slice(*clause_bounds(e.chunk.text, e.start, e.end, e.doc))]
    if any(w.lower() in e.answer.comparisons for w in NEGATION_WORD.findall(own)) or any(
        w.lower() in e.doc.comparisons for w in NEGATION_WORD.findall(clause)
    ):
        return None
    said = _graded(own, e.answer)
    if not said:
        return None
    found = _graded(e.sentences, e.doc)
    for key, ways in said.items():
        theirs = found.get(key)
        if len(ways) == 1 and theirs is not None and len(theirs) == 1 and ways != theirs:
            return f"the claim grades {key!r}… {ways.pop()}, the source {theirs.pop()}"
    return None


def _sides(text: str, lang: Language, pairs: str = "opposites") -> list[tuple[int, int]]:
    """``(pair, side)`` of every word of ``text`` one of ``lang``'s opposites (``pairs``: the field
    they are read from) (a word a negation stands right before left out: "not faster" says nothing
    of speed)."""
    words = [w.lower() for w in NEGATION_WORD.findall(text)]
    sides = _opposite_sides(lang, pairs)
    out = []
    for k, w in enumerate(words):
        for found in sides.get(_plain(w), ()):
            if not any(lang.denies(x) for x in words[max(0, k - 2) : k]):
                out.append(found)
    return out


def _plain(word: str) -> str:
    """A word without its accents (answers and extracted sources drop them alike: "couteuse")."""
    if word.isascii():
        return word
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))


@functools.cache
def _opposite_sides(lang: Language, pairs: str = "opposites") -> dict[str, list[tuple[int, int]]]:
    """Each word of ``lang``'s opposites (or antonyms), with its ``(pair, side)``: one look-up a word
    of a claim."""
    out: dict[str, list[tuple[int, int]]] = {}
    for n, pair in enumerate(getattr(lang, pairs)):
        for side, forms in enumerate(pair):
            for w in forms:
                out.setdefault(_plain(w), []).append((n, side))
    return out


def _comparand(text: str, lang: Language) -> str | None:
    """The first word after a comparison word ("than the baseline": ``baseline``) that is not a
    function word; ``None`` where ``text`` compares nothing."""
    words = [w.lower() for w in NEGATION_WORD.findall(text)]
    for k, w in enumerate(words):
        if w in lang.comparisons:
            return next((x for x in words[k + 1 :] if x not in lang.function_words), "")
    return None


def opposite_words(e: Evidence) -> str | None:
    """The claim's own words say one of a pair of opposites ("faster", "underestimates") where the
    quote's clause says only the other ("slower", "overestimates"). A comparison turns it round
    when its two sides are swapped ("the baseline is faster than the new model" of "the new model
    is slower than the baseline"), so where either side compares, the check speaks only when both
    compare against the same thing, or when the one that does not compare never names what the
    other compares against."""
    return _opposed(e, "opposites")


def antonyms(e: Evidence) -> str | None:
    """As :func:`opposite_words`, with the language's general lexicon of opposites
    (:attr:`~citeline.text.lang.Language.antonyms`: "cheap"/"costly", "before"/"after",
    "surplus"/"shortage", "bon"/"mauvais")."""
    return _opposed(e, "antonyms")


def opposite_magnitude(e: Evidence) -> str | None:
    """As :func:`opposite_words`, with the words that say how much (:attr:`~citeline.text.lang.
    Language.magnitudes`): "needs have shifted a lot" beside "changed little", "only modest gains"
    beside "substantially increased"."""
    return _opposed(e, "magnitudes")


def _opposed(e: Evidence, pairs: str) -> str | None:
    if not e.cit.claim or not e.cit.quote or e.answer.unspaced or e.doc.unspaced:
        return None
    listed = getattr(e.answer, pairs)
    if not listed or listed is not getattr(e.doc, pairs):
        return None  # the claim's and the source's words are read in one language
    own = e.stated
    said = _sides(_without_comparands(own, e.answer), e.answer, pairs)
    if not said:
        return None
    clause = e.chunk.text[slice(*clause_bounds(e.chunk.text, e.start, e.end, e.doc))]
    found = _sides(_without_comparands(clause, e.doc), e.doc, pairs)
    for pair in {n for n, _ in said}:
        ours = {side for n, side in said if n == pair}
        theirs = {side for n, side in found if n == pair}
        if len(ours) != 1 or len(theirs) != 1 or ours == theirs:
            continue
        if _swapped(own, clause, e):
            continue
        forms = listed[pair]
        return f"the claim says {min(forms[ours.pop()])!r}, the source {min(forms[theirs.pop()])!r}"
    return None


@functools.cache
def _opened_phrase(openers: frozenset[str], stops: str) -> re.Pattern[str] | None:
    """A phrase from one of ``openers`` to the next of ``stops`` (a comparand's "Compared to …", a
    covariate's "as the batch size grows"), or ``None`` without openers."""
    if not openers:
        return None
    alternatives = "|".join(map(re.escape, sorted(openers, key=len, reverse=True)))
    return re.compile(rf"\b(?:{alternatives})\b[^{re.escape(stops)}]*", re.IGNORECASE)


def _without_comparands(text: str, lang: Language) -> str:
    """``text`` without its phrases about a comparison's other side (:attr:`~citeline.text.lang.
    Language.comparand_openers`, to the next comma): "Compared to generating long completions at
    one time, we speculate …" says nothing long of what it speaks of."""
    pattern = _opened_phrase(lang.comparand_openers, ",;:.!?")
    return text if pattern is None else pattern.sub(" ", text)


def _swapped(own: str, clause: str, e: Evidence) -> bool:
    """Whether a comparison may have swapped its two sides between the claim's own words and the
    quote's clause, so that opposite words agree ("the baseline is faster than the new model" and
    "the new model is slower than the baseline"): both compare, against different things; or one
    compares, and the other names what it compares against."""
    mine, other = _comparand(own, e.answer), _comparand(clause, e.doc)
    if mine is None and other is None:
        return False
    if mine is not None and other is not None:
        return mine[:5] != other[:5]
    against, text = (other, own) if mine is None else (mine, clause)
    return not against or against[:5] in {w.lower()[:5] for w in NEGATION_WORD.findall(text)}


#: How many words before its "than" a comparison's comparative may stand ("larger growth spurts than").
COMPARATIVE_REACH = 4


def swapped_comparison(e: Evidence) -> str | None:
    """A comparison said the other way round: the quote's clause grades one side above the other
    with a word of a pair of opposites and a "than" ("adolescent boys experience larger growth
    spurts than adolescent girls"), and the claim's own words give the same grading to what stands
    after the "than", not to what stands before it ("Girls end up with the bigger spurt"). Said
    with the other word of the pair ("Girls have smaller spurts"), or of the side before the
    "than", the claim agrees; a claim that names both sides before its grading word says nothing
    of their order here."""
    if not e.cit.claim or not e.cit.quote or e.answer.unspaced or e.answer.code != e.doc.code:
        return None
    lang = e.doc
    if not lang.than:
        return None
    clause = e.chunk.text[slice(*clause_bounds(e.chunk.text, e.start, e.end, lang))]
    compared = _comparison(clause, lang)
    if compared is None:
        return None
    grading, before, after = compared
    own = [w.lower() for w in NEGATION_WORD.findall(e.stated)]
    for k, w in enumerate(own):
        if not grading & _graded_as(w, own[max(0, k - 2) : k], lang):
            continue
        if any(lang.denies(x) for x in own[:k]):
            return None  # ("Girls do not have the larger spurt")
        subject = _content_stems(own[:k], lang)
        if subject & after and not subject & before:
            return f"the claim grades {w!r} the side the source puts after its comparison ({min(subject & after)!r}…)"
        return None
    return None


def _graded_as(word: str, preceding: list[str], lang: Language) -> set[tuple[str, int, int]]:
    """The ``(list, pair, side)`` of each pair of opposites or antonyms ``word`` is a form of, none
    where a negation stands right before it ("not larger")."""
    if any(lang.denies(x) for x in preceding):
        return set()
    return {
        (pairs, n, side)
        for pairs in ("opposites", "antonyms")
        for n, side in _opposite_sides(lang, pairs).get(_plain(word), ())
    }


def _comparison(clause: str, lang: Language) -> tuple[set[tuple[str, int, int]], set[str], set[str]] | None:
    """The first comparison of ``clause`` made with a comparative that is a word of a pair
    (:attr:`~citeline.text.lang.Language.degree_up` or ``degree_down``: "larger", "schneller") and a
    "than" (at most :data:`COMPARATIVE_REACH` words apart): the word's ``(list, pair, side)`` in each
    list, and the stems of the content words before the word and after the "than", each without the
    other's."""
    words = [w.lower() for w in NEGATION_WORD.findall(clause)]
    for t, w in enumerate(words):
        if w not in lang.than:
            continue
        for c in range(t - 1, max(-1, t - 1 - COMPARATIVE_REACH), -1):
            if words[c] not in lang.degree_up | lang.degree_down:
                continue  # (a word of a pair that grades nothing here: "larger *growth* spurts than")
            graded = _graded_as(words[c], words[max(0, c - 2) : c], lang)
            if graded:
                before, after = _content_stems(words[:c], lang), _content_stems(words[t + 1 :], lang)
                return graded, before - after, after - before
    return None


def _content_stems(words: list[str], lang: Language) -> set[str]:
    """The first five letters of each word of three letters or more that is not a function word."""
    return {_key(w) for w in words if len(w) >= 3 and w not in lang.function_words}


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


CHECKS = (
    Check(
        "claim_direction",
        "direction_mismatch",
        frozenset(CODES),
        claim_direction,
        "the claim's own words do not name a rise where the evidence names only a fall, or the reverse",
    ),
    Check(
        "covariate_direction",
        "direction_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        covariate_direction,
        "a change the claim says goes with another ('drops as batches grow') goes the way the source says "
        "it goes with the same one",
    ),
    Check(
        "opposite_degree",
        "direction_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        opposite_degree,
        "a word the claim's own words grade one way ('more costly') is not graded only the other way by the source",
    ),
    Check(
        "opposite_words",
        "direction_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        opposite_words,
        "the claim's own words do not say one of two opposites ('faster') where the quote says the other ('slower')",
    ),
    Check(
        "antonyms",
        "direction_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        antonyms,
        "as opposite_words, with the language's general lexicon of opposites ('cheap'/'costly', 'before'/'after')",
    ),
    Check(
        "opposite_magnitude",
        "direction_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        opposite_magnitude,
        "the claim's own words do not say a small amount ('slightly') where the quote says a large one "
        "('substantially'), or the reverse",
    ),
    Check(
        "swapped_comparison",
        "direction_mismatch",
        frozenset({"en", "de"}),
        swapped_comparison,
        "a comparison the claim makes with the quote's grading word ('bigger' of 'larger … than') puts first "
        "the side the quote puts first",
    ),
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
