"""Checks of the numbers a claim states against the numbers its evidence gives.

A claim's number is backed by the quote's sentence; failing that, by what that sentence refers to:
the sentence before or after it (unless the quote's sentence counts the same thing otherwise), the
lead-in of the list the quote is an item of, a year of the heading it stands under, and for a quote
of a table's row, the table's header and caption (the column's year, the table's period or unit).
The quote itself is in the document's language and the claim's own words in the answer's: each is
read with its own language's words.
"""

from __future__ import annotations

import re
from decimal import Decimal

from citeline.verify.checks import Check, Evidence
from citeline.verify.claims import heading_before, neighbour_span, without
from citeline.verify.classify import ocr_normal
from citeline.verify.fold import fold
from citeline.verify.numbers import FRACTION, TIMES, Numbers, Quantity, numbers, same_unit_elsewhere, unbacked

_WORD_TOKEN = re.compile(r"[^\W_]+(?:[.,][^\W_]+)*")
#: A line of a table: cells set apart by tabs, or a line that is mostly numbers.
_CELL_GAP = re.compile(r"\t| {3,}")
_NUMERIC = re.compile(r"^[\d.,%()+−\-–$€£¥ ]+$")
#: How many lines above a table row its header and caption are looked for.
TABLE_REACH = 40
#: How many paragraphs above a table's header its caption may take (a title, a unit, a period, each
#: set as a paragraph of its own: "Discharge, cubic feet per second", "WATER YEAR OCTOBER 2003 …").
CAPTION_PARAGRAPHS = 2


def _ocr_words_blanked(said: str, evidence: str) -> str:
    """``said`` with the tokens of letters and digits that OCR made of a word blanked out ("c1aims",
    "0ut": under OCR confusions a word of the evidence without a digit), so their digits are not
    taken for numbers the claim states."""
    plain: set[str] | None = None

    def blank(m: re.Match[str]) -> str:
        nonlocal plain
        token = m.group()
        if not any(ch.isdigit() for ch in token) or not any(ch.isalpha() for ch in token):
            return token
        if plain is None:
            plain = {ocr_normal(w) for w in _WORD_TOKEN.findall(evidence) if not any(c.isdigit() for c in w)}
        return " " * len(token) if ocr_normal(token) in plain else token

    return _WORD_TOKEN.sub(blank, said)


def _read(e: Evidence, text: str, lang_is_answer: bool) -> Numbers:
    folded = _ocr_words_blanked(fold(text).text, e.folded_sentences)
    return numbers(folded, e.answer if lang_is_answer else e.doc, claim=True)


def claimed(e: Evidence) -> Numbers:
    """The numbers the claim states: its own words read in the answer's language, the quote in the
    document's (an English claim may quote a French sentence: "plus de 50 logements"); without a
    claim, the quote's."""
    quote = e.cit.quote or ""
    if not e.cit.claim:
        return _read(e, quote, lang_is_answer=False)
    said = without(e.cit.claim, e.cit.other_quotes)
    own = without(said, (quote,)) if quote else said
    mine = _read(e, own, lang_is_answer=True)
    if own == said:
        return mine
    theirs = _read(e, quote, lang_is_answer=False)
    return Numbers(mine.quantities + theirs.quantities, mine.dates + theirs.dates)


def given(e: Evidence, text: str) -> Numbers:
    return numbers(fold(text).text, e.doc, claim=False)


def _year_or_date(said: str, claim: Numbers) -> bool:
    """Whether a claim's number as written (``said``) is one of its dates, or a year."""
    if any(d.text == said for d in claim.dates):
        return True
    return any(
        q.text == said
        and q.kind is None  # (a year counts no unit; the word after it is any word)
        and all(v == v.to_integral_value() and 1600 <= v <= 2199 for v in q.values)
        for q in claim.quantities
    )


_YEARISH = re.compile(r"^(?:1[6-9]|20|21)\d\d[a-z]?$", re.IGNORECASE)


def _data_row(line: str) -> bool:
    """A line of a table's body: two numbers or more that are not years (a header has words and
    years: "2021 2022E 2023E 2024E", "Revenue Cost Margin")."""
    figures = [t for t in line.split() if _NUMERIC.match(t) and any(c.isdigit() for c in t) and not _YEARISH.match(t)]
    return len(figures) >= 2


def table_of(text: str, start: int, end: int) -> str:
    """When ``[start, end)`` is on a row of a table (a line whose cells are set apart by tabs or
    wide gaps, or that is mostly numbers), the table's header and caption: the lines above it that
    are not rows of the table's body, up to a blank line or :data:`TABLE_REACH` lines, and the
    paragraph before those; else ""."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    row = text[line_start : len(text) if line_end < 0 else line_end]
    cells = [c for c in _CELL_GAP.split(row) if c.strip()]
    numeric = sum(1 for c in row.split() if _NUMERIC.match(c))
    if len(cells) < 3 and numeric < max(2, len(row.split()) // 2):
        return ""
    above = text[:line_start].split("\n")[:-1]  # (the row's own line's start, not a blank line)
    kept: list[str] = []
    blanks = 0
    for line in reversed(above[-TABLE_REACH:]):
        if not line.strip():
            # blank lines between the body's rows are the body's; above the header, they count the
            # caption's paragraphs
            blanks += 1 if kept else 0
            if blanks > CAPTION_PARAGRAPHS:
                break
        elif not _data_row(line):
            kept.append(line)
    return "\n".join(reversed(kept))


def scaled(e: Evidence, evidence: Numbers) -> Numbers | None:
    """The evidence's figures in the unit the chunk states they are in ("In thousands (11,062.6
    represents 11,062,600)", "(百万元)"): 102.1 is 102,100; ``None`` when the chunk states none."""
    texts = [e.chunk.text, *e.document()]  # (a table's caption may head it in an earlier chunk)
    factors = {
        f for phrase, f in e.doc.scale_phrases.items() if any(re.search(phrase, t, re.IGNORECASE) for t in texts)
    }
    if not factors:
        return None
    quantities = tuple(
        Quantity(q.text, frozenset(v * f for v in q.values), q.unit, q.hedge, q.scale, q.currency, q.period, q.kind)
        for q in evidence.quantities
        for f in factors
    )
    return Numbers(quantities, evidence.dates)


def claim_numbers(e: Evidence) -> str | None:
    """Every number the claim states is stated by the quote's sentence, or by what that sentence
    refers to (its neighbours, its list's lead-in, its heading's year, its table's header)."""
    claim = claimed(e)
    cit, text = e.cit, e.chunk.text
    evidence = given(e, e.sentences)
    counted: tuple[Quantity, ...] = ()
    if cit.uncited:
        # the sentence's uncited clause before the claim: a number of a unit the evidence counts
        # ("The desk replies within three business days; it "answers most requests within two
        # business days" [S2]"); numbers of other kinds it may state on its own
        before = _read(e, cit.uncited, lang_is_answer=True)
        kinds = {q.unit_key for q in evidence.quantities if q.unit_key}
        own = {q.text for q in claim.quantities}
        counted = tuple(q for q in before.quantities if q.unit_key in kinds and q.text not in own)
        claim = Numbers(claim.quantities + counted, claim.dates)
    absent = unbacked(claim, evidence)
    if absent and counted:
        # the uncited clause's number is backed by the chunk it is cited with wherever the chunk
        # states it ("The authors evaluated 48 tables; "… 36 tables were consistent"" with "48
        # tables" two sentences before the quote's)
        whole = given(e, text)
        elsewhere = {q.text for q in counted if q.text in absent} - set(
            unbacked(Numbers(counted, ()), whole, unstated_ok=False)
        )
        absent = [t for t in absent if t not in elsewhere]
    if absent:
        # a number the sentence before or after the quote's gives ("We surveyed 162 papers. 73% of
        # these …"): the quote's sentence refers to it, unless that sentence has a number of the
        # same kind ("90% of the costs" is not "50 % of the costs")
        around = given(e, text[slice(*neighbour_span(text, e.start, e.end, e.doc, leaders=e.leaders))])
        backed = set(absent) - set(unbacked(claim, around, unstated_ok=False))
        absent = [t for t in absent if t not in backed or same_unit_elsewhere(t, claim, evidence)]
    if absent and e.lead:
        # the lead-in of the list the quote is an item of is the item's sentence too ("You
        # expatriated after June 3, 2004, and: … 2. Your net worth … was $2,000,000 or more")
        absent = _still_unbacked(claim, absent, given(e, e.lead))
    if absent and (heading := heading_before(text, e.start)):
        # a year or a date of the heading the quote stands under ("For 2008 you "may deduct …""
        # under "What's New for 2008"): the section's scope, which a claim carries over
        scoped = set(absent) - set(unbacked(claim, given(e, heading), unstated_ok=False))
        absent = [t for t in absent if t not in scoped or not _year_or_date(t, claim)]
    table = table_of(text, e.start, e.end)
    if absent and table:
        # a quote of a table's row: the table's header and caption state its columns' years, its
        # period and its unit ("Kentucky ran 295,891 checks in November 2015: "Kentucky 264,140 …"")
        absent = _still_unbacked(claim, absent, given(e, table))
    if absent and table and "table_comparison" not in e.disabled and _compares_rows(e, claim, evidence):
        # a claim that sets the quoted row's figure against another row's ("BM25 is better on SQuAD
        # (38.1 vs 29.8)"): the other figure is backed by a row of the same table in the chunk
        absent = _still_unbacked(claim, absent, given(e, _table_rows(text, e.start, e.end)))
    if absent and (in_units := scaled(e, evidence)) is not None:
        # a figure restated in the unit the chunk says the figures are in ("102.1" in thousands:
        # "102,100 arrests")
        absent = _still_unbacked(claim, absent, in_units)
    if absent and not table and any(_year_or_date(t, claim) for t in absent):
        # a year or a date the chunk states anywhere in its prose: the scope of what it says (a
        # reference's year before its title: "Deerwester et al. (1990), "Indexing by …""); a table's
        # years are its header's (above)
        stated = set(absent) - set(unbacked(claim, given(e, text), unstated_ok=False))
        absent = [t for t in absent if t not in stated or not _year_or_date(t, claim)]
    if absent:
        # a row that opens with a range of its table's key ("1,125 1,150 114 114 114" under "At
        # least | But less than") states every amount inside it
        absent = [t for t in absent if not _in_row_range(e, t, claim)]
    if absent:
        # a number the claim names something by, as the document names it ("NIST SP 800-223",
        # "arrests under 18", "the 2007 Tax Table"): a name, not a quantity of the quote's
        absent = [t for t in absent if not _named_in_document(e, t, claim)]
    if absent:
        # a small count in words is the answer's own framing ("the two main architectures", "five
        # entries") unless the evidence counts the same thing otherwise
        counted_units: set[str | None] = {q.unit_key for q in evidence.quantities}
        counted_units |= _counted_nouns(e, absent, claim, evidence)
        absent = [t for t in absent if not _framing_count(t, claim, counted_units)]
    if not absent:
        return None
    absent = list(dict.fromkeys(absent))
    verb = "is" if len(absent) == 1 else "are"
    return f"the claim's {', '.join(absent)} {verb} not in the quote's sentence"


def _compares_rows(e: Evidence, claim: Numbers, evidence: Numbers) -> bool:
    """Whether the claim's own words make a comparison ("vs", "than", "compared") and state a figure
    of the quoted row (the side of the comparison the quote backs)."""
    if not e.cit.claim or not e.answer.comparisons:
        return False
    own = e.own_words
    if not any(w in e.answer.comparisons for w in _WORD_TOKEN.findall(own.lower())):
        return False
    mine = _read(e, own, lang_is_answer=True)
    return any(q.backed_by(x) for q in mine.quantities for x in evidence.quantities)


def _table_rows(text: str, start: int, end: int) -> str:
    """The rows of the body of the table whose row holds ``[start, end)``: the lines of figures
    above and below it, as far as :data:`TABLE_REACH` lines, up to a line that is no row of figures
    (blank lines between rows are the body's)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    lines = text[:line_start].split("\n")[:-1]
    below = [] if line_end < 0 else text[line_end + 1 :].split("\n")
    rows: list[str] = []
    for side in (reversed(lines[-TABLE_REACH:]), below[:TABLE_REACH]):
        for line in side:
            if not line.strip():
                continue
            if not _data_row(line):
                break
            rows.append(line)
    return "\n".join(rows)


_NAME_WORD = re.compile(r"[^\W\d_]{2,}")


def _in_row_range(e: Evidence, said: str, claim: Numbers) -> bool:
    """Whether the claim's number ``said`` lies in the range the quoted row opens with: its first two
    figures, the second above the first, in a table whose rows chain their ranges (another line of
    the chunk opens with this row's upper bound: "1,125 1,150 114 …" then "1,150 1,175 116 …", as
    a tax table's "At least | But less than" columns run)."""
    text = e.chunk.text
    row = text[e.start : e.end]
    opening = re.match(r"\s*(\d[\d,.]*\d|\d)\s+(\d[\d,.]*\d|\d)\s+\d", row)
    if opening is None:
        return False
    try:
        low, high = (Decimal(g.replace(",", "")) for g in opening.groups())
    except ArithmeticError:
        return False
    if not low < high:
        return False
    values = [v for q in claim.quantities if q.text == said for v in q.values]
    if not values or not all(low <= v <= high for v in values):
        return False
    chained = re.compile(rf"(?m)^[ \t]*{re.escape(opening.group(2))}\s+\d[\d,.]*\s+\d")
    return any(m.start() != e.start + opening.start(2) for m in chained.finditer(text))


def _named_in_document(e: Evidence, said: str, claim: Numbers) -> bool:
    """Whether the claim writes ``said`` with a word beside it ("SP 800", "under 18", "2007 Tax")
    that the document writes beside it too, in any of its chunks. A quantity with a known unit, a
    currency or a percent sign is an amount, not a name ("within 45 days", "90 %")."""
    if not e.cit.claim or not any(ch.isdigit() for ch in said):
        return False
    if any(q.text == said and (q.currency or q.kind or q.unit == "%") for q in claim.quantities):
        return False  # (a word after it that measures nothing is a name's: "2007 Tax Table")
    said_in = fold(e.cit.claim).text
    phrases = []
    for m in re.finditer(rf"(?<![\w.,]){re.escape(said)}(?![\w]|[.,]\d)", said_in):
        before = _NAME_WORD.findall(said_in[max(0, m.start() - 30) : m.start()])
        after = _NAME_WORD.match(said_in[m.end() :].lstrip(" -"))
        if before and said_in[m.start() - 1 : m.start()] == " ":
            phrases.append(f"{before[-1]} {said}")
        if after is not None and said_in[m.end() : m.end() + 1] in (" ", "-"):
            phrases.append(f"{said} {after.group()}")
        # the compound it is part of ("SP 800-223", "ISO-9001"), as the document writes it
        token = re.search(r"[\w.-]*$", said_in[: m.start()])
        compound = said_in[token.start() if token else m.start() : m.end()].strip(".-")
        if compound != said and any(ch.isalnum() for ch in compound.replace(said, "")):
            phrases.append(compound)
    if not phrases:
        return False
    pattern = re.compile("|".join(rf"(?<![\w.,]){re.escape(p)}(?!\w)" for p in phrases))
    return any(pattern.search(fold(t).text) for t in [e.chunk.text, *e.document()])


#: The largest count in words that is the answer's own framing rather than a figure it cites.
FRAMING_COUNT = 12
#: Words after a count that make it a figure of the evidence's, not the answer's framing ("three
#: more weeks", "two further years").
_COMPARING = ("more", "further", "additional", "extra", "fewer", "less")


#: How many words after a count in words the thing it counts may stand ("seven *active* portfolios").
COUNTED_REACH = 3


def _counted_nouns(e: Evidence, absent: list[str], claim: Numbers, evidence: Numbers) -> set[str | None]:
    """The units of the claim's counts in words (``absent``) that count what a number of the evidence
    counts a few words on: "seven active portfolios" counts the evidence's "nine portfolios" (the
    same word, or its singular or plural, within :data:`COUNTED_REACH` words after the count)."""
    if not e.cit.claim:
        return set()
    theirs = {q.unit[:5].lower() for q in evidence.quantities if q.unit and q.unit[:1].isalpha()}
    if not theirs:
        return set()
    out: set[str | None] = set()
    said_in = e.own_words
    for text in absent:
        if any(ch.isdigit() for ch in text):
            continue
        for m in re.finditer(rf"(?<!\w){re.escape(text)}(?!\w)", said_in, re.IGNORECASE):
            after = _NAME_WORD.findall(said_in[m.end() : m.end() + 60])[:COUNTED_REACH]
            if any(w[:5].lower() in theirs for w in after):
                out.add(next((q.unit_key for q in claim.quantities if q.text == text), None))
    return out


def _framing_count(said: str, claim: Numbers, units: set[str | None]) -> bool:
    """Whether a claim's number as written is a small count in words ("two", "cinq") of a thing the
    evidence gives no number of."""
    return any(
        q.text == said
        and not any(ch.isdigit() for ch in q.text)
        and q.unit not in (FRACTION, TIMES, "count", *_COMPARING)  # (how often is no framing: "twice")
        and q.kind is None  # (a measure is no framing: "seven months" against "2–7 weeks")
        and all(v <= FRAMING_COUNT for v in q.values)
        and q.unit_key not in units
        for q in claim.quantities
    )


def _still_unbacked(claim: Numbers, absent: list[str], context: Numbers) -> list[str]:
    kept = Numbers(
        tuple(q for q in claim.quantities if q.text in absent),
        tuple(d for d in claim.dates if d.text in absent),
    )
    return unbacked(kept, context, unstated_ok=False)


_BOUNDS = ("above", "below")


def claim_bounds(e: Evidence) -> str | None:
    """A bound the claim states against a bound of the quote's sentence is a threshold against the
    threshold there ("above 0.9" against "score above 0.8", "größer als zwei Rechte" against
    "kleiner als zwei Rechte"): no other sentence's number backs it."""
    claim, evidence = claimed(e), given(e, e.sentences)
    pinned = [
        q.text
        for q in claim.quantities
        if q.hedge in _BOUNDS
        and (
            limits := [
                x for x in evidence.quantities if x.hedge in _BOUNDS and (not q.unit or x.unit in (q.unit, None))
            ]
        )
        and not any(q.backed_by(x) for x in limits)
    ]
    if not pinned:
        return None
    return f"the claim's bound {', '.join(dict.fromkeys(pinned))} is not the quote's"


#: A figure written with a minus sign: the sign right before its digits, after a space, an
#: opening bracket, "=" or the start (not a range's dash: "10-13", "2003 – 2007").
_SIGNED = re.compile(r"(?:^|(?<=[\s(=:]))[-−–](\d+(?:[.,]\d+)*)(?![\d])")


def number_sign(e: Evidence) -> str | None:
    """A figure the claim's own words write with a minus sign ("the matrices with determinant −1")
    is negative in the quote's sentence too: where the sentence writes the same digits, each of them
    without a sign ("det(A) = 1"), the claim turned its sign. A sentence that gives the figure in
    brackets, as accounts write a negative ("(1,200)"), or that names a fall, may mean the sign in
    words, and is left alone."""
    if not e.cit.claim or not e.cit.quote:
        return None
    own = e.own_words
    signed = [m.group(1) for m in _SIGNED.finditer(own) if not _after_figure(own, m.start())]
    if not signed:
        return None
    text = e.sentences
    words = {w.lower() for w in re.findall(r"[^\W\d_]+", text)}
    if words & (e.doc.down | e.doc.shortfall_quantities):
        return None
    for digits in signed:
        places = [m.start() for m in re.finditer(rf"(?<![\d.,]){re.escape(digits)}(?![\d]|[.,]\d)", text)]
        if not places:
            continue
        if all(not _signed_at(text, k) for k in places):
            return f"the claim's −{digits} is {digits} in the quote's sentence"
    return None


def _after_figure(text: str, at: int) -> bool:
    """Whether the dash at ``at`` follows a figure (a range: "10 - 13")."""
    return re.search(r"\d\s*$", text[max(0, at - 12) : at]) is not None


def _signed_at(text: str, k: int) -> bool:
    """Whether the figure starting at ``k`` has a minus sign or an accounts' bracket before it."""
    before = text[max(0, k - 2) : k]
    return bool(re.search(r"[-−–(]\s?$", before))


CHECKS = (
    Check("claim_numbers", "numeric_mismatch", None, claim_numbers, "every number the claim states is in its evidence"),
    Check("claim_bounds", "numeric_mismatch", None, claim_bounds, "a bound the claim states is the quote's bound"),
    Check(
        "number_sign",
        "numeric_mismatch",
        None,
        number_sign,
        "a figure the claim writes with a minus sign is not written without one in the quote's sentence",
    ),
)
