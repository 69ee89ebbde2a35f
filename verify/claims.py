"""Where a claim and its evidence are in their texts: the sentences and the clause around a quote in
the chunk, the scope a negation there reaches, the lead-in of a list the quote is an item of, the
heading it stands under; and on the answer's side, the part of a claim that is its own words.

Every function that reads words takes the language of the text it reads (:mod:`citeline.text.lang`):
the document's language for the chunk, the answer's for the claim.
"""

from __future__ import annotations

import functools
import re

from citeline.text.lang import Language
from citeline.text.scripts import count_words
from citeline.text.sentences import bounds

WORD = re.compile(r"[^\W\d_]+(?:['’]t)?")


@functools.cache
def clause_break(lang: Language) -> re.Pattern[str]:
    """Where a sentence starts a new clause of its own: a semicolon, a colon, a dash set off by
    spaces, or a comma before one of the language's clause conjunctions ("…, and receipts are …");
    a comma alone does not ("not, in any case, reimbursed" is one clause). The one rule for answers
    (in the answer's language) and evidence (in the document's)."""
    words = "|".join(sorted(lang.clause_conjunctions, key=len, reverse=True))
    comma = rf"|,\s+(?:{words})(?=\s)" if words else ""
    return re.compile(rf";|:\s|\s[—–]\s{comma}", re.IGNORECASE)


def sentences_around(text: str, start: int, end: int, lang: Language, *, leaders: bool = False) -> str:
    """The sentences of ``text`` that the span ``[start, end)`` touches (a line is a unit too: a
    table's row, a list's item; with ``leaders``, an index entry is one: see
    :func:`citeline.text.sentences.sentences`)."""
    s, e = bounds(text, start, end, lang, leaders=leaders)
    return text[s:e]


def neighbour_span(text: str, start: int, end: int, lang: Language, *, leaders: bool = False) -> tuple[int, int]:
    """The span of the sentences just before and after those ``[start, end)`` touches."""
    s, e = bounds(text, start, end, lang, leaders=leaders)
    before = bounds(text, max(0, s - 2), s, lang, leaders=leaders)[0] if s else 0
    after = bounds(text, min(len(text), e + 1), min(len(text), e + 1), lang, leaders=leaders)[1] if e < len(text) else e
    return before, after


def clause_bounds(text: str, start: int, end: int, lang: Language) -> tuple[int, int]:
    """The clause of ``text`` that holds ``[start, end)`` (all of the clauses it touches)."""
    s, e = bounds(text, start, end, lang)
    breaks = list(clause_break(lang).finditer(text, s, e))
    cs = max((m.end() for m in breaks if m.end() <= start), default=s)
    ce = min((m.start() for m in breaks if m.start() >= end), default=e)
    return cs, ce


#: The mark of an item of a list run into a sentence: "(ii) ", "(b) ", "3) "
_INLINE_ITEM = re.compile(r"(?<!\w)\(?(?:[ivx]{1,4}|[a-h]|\d{1,2})\)\s")


def scope_around(text: str, start: int, end: int, lang: Language) -> str:
    """The part of the clause around ``[start, end)`` whose negations apply to it: the clause (see
    :func:`clause_bounds`) from the end of a leading subordinate clause ("When an employee can no
    longer work, the plan pays ...") to the quote's end, and after it up to the first comma or word
    opening a subordinate clause ("... 1,095 days when an employee can no longer ..."), so that a
    negation right after the quote stays ("die Kosten für Brillen nicht")."""
    cs, ce = clause_bounds(text, start, end, lang)
    before, quoted, after = text[cs:start], text[start:end], text[end:ce]
    items = list(_INLINE_ITEM.finditer(before))
    if items:
        # an item of an inline list ("remove papers with (i) no title, (ii) no authors, (iii) fewer
        # than 100 characters"): the list's head and this item, not the other items' negations
        before = before[: items[0].start()] + " " + before[items[-1].end() :]
    before = main_clause(before, lang)
    joined = [m for m in WORD.finditer(before) if m.group().lower() in lang.coordinators]
    if joined and WORD.search(before, joined[-1].end()):
        # the quote is in a conjunct of its own ("we take papers that are not in our train set and
        # associate with each one "up to 5 co-viewed papers""): the other predicate's negation is not its
        before = before[joined[-1].end() :]
    opening = WORD.search(quoted)
    if opening and opening.group().lower() in lang.finite_verbs:
        # the quote holds the clause's verb, so what stands before it is the subject: a relative
        # clause on it ("Income that is not effectively connected … | is subject to …") is not the
        # quote's polarity; the subject's own words ("No income …") are
        relative = next((m for m in WORD.finditer(before) if m.group().lower() in lang.relatives), None)
        if relative is not None:
            before = before[: relative.start()]
    if quoted.rstrip().endswith((".", "!", "?")):
        after = ""  # the quote ends its sentence: what follows is another one
    opener = WORD.search(before) or WORD.search(quoted)
    if opener is not None and opener.group().lower() in lang.conditionals:
        # the quote is the condition ("If … you received any refunds", "if the similarity … is
        # too small"): what it says holds in the main clause after the comma ("…, do not subtract
        # them"), whose polarity is the quote's
        comma = after.find(",")
        if comma >= 0 and not WORD.search(after[:comma]):
            main = after[comma + 1 :]
            stop = re.search(r"[.!?;]", main)
            return before + quoted + " " + (main[: stop.start()] if stop else main)
    after = _PARENTHESIS.sub(" ", after)
    tail_end = len(after)
    for m in re.finditer(r"[,.!?;\n]|" + WORD.pattern, after):
        word = m.group().lower()
        if m.group() in ",.!?;\n" or word in lang.subordinators or word in lang.coordinators:
            tail_end = m.start()  # a subordinate clause, or another predicate ("… objectives and do not leverage")
            break
    return before + quoted + " " + after[:tail_end]


#: A parenthesis: an aside, whose negation ("reported (not charged) by 12,371 agencies") is not the
#: clause's.
_PARENTHESIS = re.compile(r"\([^()]*\)|（[^（）]*）")


def main_clause(before: str, lang: Language) -> str:
    """The words before a quote without a subordinate clause closed by a comma ("When an employee can
    no longer work, the plan pays …", "Unlike prior work that does not consider interests, CiteSee
    …", "… harm if Leon is not enjoined, a balance of hardships …") and without asides in
    parentheses: what is left is the clause the quote is in."""
    before = _PARENTHESIS.sub(" ", before)
    last = before.rfind(",")
    if last < 0:
        return before
    opening = lang.subordinators | lang.concessives
    if any(m.group().lower() in opening for m in WORD.finditer(before, 0, last)):
        return before[last + 1 :]
    return before


def is_condition(text: str, start: int, end: int, lang: Language) -> bool:
    """Whether the quote ``[start, end)`` is a condition (its clause opens with "if", "when", "wenn",
    "si"): what it says holds in the main clause after it."""
    cs, _ = clause_bounds(text, start, end, lang)
    opener = WORD.search(main_clause(text[cs:start], lang)) or WORD.search(text, start, end)
    return opener is not None and opener.group().lower() in lang.conditionals


def without(claim: str, quotes: tuple[str, ...]) -> str:
    """``claim`` with the quotes of other citations left out."""
    for q in quotes:
        # as written, whatever whitespace either has (a table row's tabs, a line break)
        pattern = r"\s+".join(map(re.escape, q.split()))
        claim = re.sub(pattern, " ", claim, count=1) if pattern else claim
    return claim


#: A heading: a paragraph of one short line that does not end a sentence ("What’s New for 2008").
_HEADING = re.compile(r"\n\n([^\n]{2,80}?)[ \t]*(?=\n\n)")


def heading_before(text: str, start: int) -> str:
    """The heading the text at ``start`` stands under: the nearest paragraph before it that is one
    short line without a sentence's end, or ""."""
    found = ""
    for m in _HEADING.finditer("\n\n" + text[:start]):
        if m.group(1).rstrip()[-1:] not in ".!?;:,。":
            found = m.group(1)
    return found


_LIST_MARK = re.compile(r"(?:\s*(?:(?<!\w)\(?\d{1,3}[.)]|(?<!\w)\(?[a-z][.)]|[•▪◦·*–-]))+\s*$")
#: A list mark opening a sentence.
_ITEM_MARK = re.compile(r"\s*(?:\(?\d{1,3}[.)]|\(?[a-z][.)]|[•▪◦·*–-])\s")
#: How many marked items back a lead-in is looked for.
_LIST_REACH = 12


def _announces(text: str, start: int, end: int, lang: Language) -> bool:
    """Whether a sentence announces a list after it ("Do not count the following as days of presence.")."""
    return any(w.lower() in lang.announces for w in WORD.findall(text, start, end))


def lead_in(text: str, start: int, lang: Language) -> str:
    """The lead-in of the list whose item holds ``start`` ("You do not need to file Form 1040NR if:"
    before "1. Your only …"; "Do not count the following as days of presence." before bullets),
    across the list's earlier items, or "" when the sentence at ``start`` is no list item."""
    s, _ = bounds(text, start, start, lang)
    inline = _inline_lead(text, s, start, lang)
    if inline:
        return inline
    for _ in range(_LIST_REACH):
        head = text[:s].rstrip()
        before = _LIST_MARK.sub("", head).rstrip()
        if not before:
            return ""
        ls, _ = bounds(text, len(before) - 1, len(before) - 1, lang)
        if before.endswith((":", "：")):
            return text[ls : len(before)].strip()
        if len(before) == len(head) and not _ITEM_MARK.match(text, s) and before[-1] in ".!?。！？":
            # no list mark, and no item that a page's layout broke before it ("• Days you commute
            # to work in the" / "United States from …"): no (further) item of a list
            return ""
        if _announces(text, ls, len(before), lang):
            return text[ls : len(before)].strip()
        s = ls  # an earlier item of the list
    return ""


#: An item mark run into a sentence ("… prohibited from: (a) uploading …; (b) disclosing …").
_INLINE_MARK_TEXT = r"\(?(?:[a-z]|[ivx]{1,4}|\d{1,2})\)"
_INLINE_MARK = re.compile(rf"(?<!\w){_INLINE_MARK_TEXT}\s*$")


@functools.cache
def _inline_items(lang: Language) -> re.Pattern[str]:
    """Earlier items of a list run into its sentence: each a mark, then text up to a semicolon,
    maybe with a coordinator of ``lang`` after it ("; and (c) …")."""
    joined = "|".join(map(re.escape, sorted(lang.coordinators, key=len, reverse=True)))
    coordinator = rf"(?:\s*(?:{joined})\b)?" if joined else ""
    return re.compile(rf"(?:\s*{_INLINE_MARK_TEXT}[^;:]*;{coordinator})*\s*")


def _inline_lead(text: str, s: int, start: int, lang: Language) -> str:
    """The lead-in of a list run into its sentence, where the quote at ``start`` is one of its
    items: "Defendant Leon is specifically prohibited from:" before "(a) uploading …; (b) …"; or ""."""
    head = text[s:start]
    mark = _INLINE_MARK.search(head)
    if mark is None:
        return ""
    colon = max(head.rfind(":", 0, mark.start()), head.rfind("：", 0, mark.start()))
    if colon < 0 or not _inline_items(lang).fullmatch(head, colon + 1, mark.start()):
        return ""
    return head[: colon + 1].strip()


def list_item(text: str, start: int, lang: Language) -> bool:
    """Whether the sentence at ``start`` is an item of a list (a mark before it or at its start)."""
    s, _ = bounds(text, start, start, lang)
    return _LIST_MARK.search(text[:s].rstrip()) is not None or _ITEM_MARK.match(text, s) is not None


@functools.cache
def _says(lang: Language) -> re.Pattern[str] | None:
    """A lead-in that ends in a verb of saying ("The handbook states:", "Laut § 5 gilt:", "报告称：")."""
    if not lang.says:
        return None
    verbs = "|".join(lang.says)
    boundary = "" if lang.unspaced else r"\b"
    return re.compile(rf"(?:{boundary}(?:{verbs}))\s*$", re.IGNORECASE)


@functools.cache
def _source_lead(lang: Language) -> re.Pattern[str] | None:
    """A claim that opens with its source ("According to S2, …", "Laut § 5 …")."""
    if not lang.lead_ins:
        return None
    return re.compile(rf"^\W*(?:{'|'.join(lang.lead_ins)})\b", re.IGNORECASE)


@functools.cache
def _attribution(lang: Language) -> re.Pattern[str] | None:
    """A quote's attribution after the claim's own statement: an opened parenthesis ("… settings
    (the paper notes "…")"), ", as the paper says", ", according to a survey:". What stands before
    it is the claim's own words; the quote is what it cites for them."""
    parts = [r"[(（][^()（）]{0,60}"]
    if lang.attributions:
        parts.append(rf",\s*(?:as|like)\s+[^,;:()]{{0,50}}?\b(?:{'|'.join(lang.attributions)})")
    if lang.lead_ins:
        parts.append(rf",\s*(?:{'|'.join(lang.lead_ins)})\s+[^,;:()]{{0,50}}?")
    return re.compile(rf"(?:{'|'.join(parts)})\s*[:,]?$", re.IGNORECASE)


def asserts(words: str, lang: Language) -> bool:
    """Whether the claim's words before a colon say something of their own ("The report was
    audited:"), rather than lead into the quote ("The handbook states:", "Definition 20:",
    "According to § 5:")."""
    if count_words(WORD.findall(words)) < 4:
        return False
    says, source = _says(lang), _source_lead(lang)
    return not (says is not None and says.search(words)) and not (source is not None and source.match(words))


#: A list item's label before its statement ("**Mount boundaries:** …"): it names, it asserts nothing.
LABEL = re.compile(r"^\W*(?:\w+\W+){0,3}?\w+\W*:\s*")


def says_who(own: str, lang: Language) -> bool:
    """Whether a claim's own words only say who says the quote ("the paper notes that", "S1 adds:",
    "im Text heißt es:", after a list item's label or not): a few words that end in a verb of
    saying, once the words that end a lead-in ("that", "es") are left out."""
    says = _says(lang)
    if says is None:
        return False
    for text in (own, LABEL.sub("", own)):
        words = WORD.findall(text)
        while words and words[-1].lower() in lang.function_words:
            words.pop()
        if words and len(words) <= SAYS_WHO_WORDS and says.search(" ".join(words)) is not None:
            return True
    return False


#: How many words an attribution before a quote has at most ("the authors of the survey write").
SAYS_WHO_WORDS = 6


def claim_scope(claim: str, quote: str | None, lang: Language) -> tuple[str, bool]:
    """The part of a claim whose negations are its polarity, and whether it is the claim's own words
    without the quote: without a leading subordinate clause before the quote ("While SGC cannot
    embed new papers, SPECTER "achieves …""), as on the evidence side; and without the quote when
    the quote is set off from the claim's words, in parentheses, or after a colon or a dash that
    does not end a lead-in of saying, or after an attribution that follows the claim's statement
    ("The report was audited ("…")", "SPECTER needs no citations, as the paper says "…"": what the
    claim says is its own words, the quote is what it cites for them; "The handbook states: "…""
    says the quote). ``lang`` is the answer's language."""
    words = quote.split() if quote else []
    at = re.search(r"\s+".join(map(re.escape, words)), claim) if words else None
    before, rest = (claim[: at.start()], claim[at.start() :]) if at else (claim, "")
    own = False
    if at is not None:
        lead = before.rstrip(" \"'“„«»「『\u00a0")
        attribution = _attribution(lang)
        attributed = attribution.search(lead) if attribution is not None else None
        if lead.endswith(("(", "（")) or (lead.endswith((":", "：", "—", "–")) and asserts(lead[:-1], lang)):
            before, rest, own = lead[:-1], claim[at.end() :], True
        elif attributed is not None and asserts(lead[: attributed.start()], lang):
            before, rest, own = lead[: attributed.start()], claim[at.end() :], True
    return main_clause(before, lang) + rest, own
