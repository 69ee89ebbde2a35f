"""Finding a quote in a chunk: exact after folding, then a fuzzy alignment whose differences are
classified word by word.

A fuzzy match is accepted (``fuzzy``) only when its score reaches the threshold and every difference
is character-level noise: a typo- or OCR-level edit inside a word, a dropped reference marker such
as ``[12]``, or broken spacing. A substituted, added or removed word, or any difference in a number
or a negation, makes it ``altered`` (shown, counted as not found) when the alignment is still close,
``none`` otherwise.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA, Levenshtein, ScoreAlignment

from citeline.ingest.clean import lexicon
from citeline.ingest.offsets import Normalized
from citeline.ingest.scripts import CJK_LETTERS, is_cjk
from citeline.verify.fold import UNMAPPED, Folded, fold
from citeline.verify.numbers import canonical

#: Minimum fuzzy score (rapidfuzz ``fuzz.ratio`` of quote and aligned span, 0-100) for
#: ``verified_fuzzy``. Calibrated on the labelled set built by benchmarks/calibration (1,764 pairs:
#: real QuoteSum quotes, perturbed quotes from ../shared/corpus and the fixtures): from 85 up to 90
#: precision is highest (0.996) with recall 1.0; at 95 recall starts to drop. The word-level rules
#: decide most cases; the score keeps long, heavily garbled alignments out.
FUZZY_THRESHOLD = 85.0
#: Below this score an alignment is not even "close": the quote is simply not found.
ALTERED_MIN = 70.0
#: Two words are the same word with a typo when their ratio reaches this (and both have 4+ letters).
TYPO_RATIO = 75.0

NEGATIONS = frozenset(
    """
    not no never none nor neither nobody nothing nowhere without cannot can't won't don't doesn't
    didn't isn't aren't wasn't weren't shouldn't wouldn't couldn't mustn't hasn't haven't hadn't
    unable impossible lack lacks lacking nichts niemand ohne rien
    nicht kein keine keinen keiner keines keinem keinerlei nie niemals weder keineswegs keinesfalls nirgends
    ne pas jamais aucun aucune sans nullement ni 不 未 无 非 没 别 莫 勿
    """.split()
)
NUMBER_WORDS = frozenset(
    """
    zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty
    hundred thousand million billion first second third fourth fifth half twice once
    """.split()
)
#: Common English words a one-letter edit turns into each other (them/then/they, along/among): never
#: a typo of one another, always a substitution.
FUNCTION_WORDS = frozenset(
    """
    a an the this that these those then than them they their there here where were we he she it its
    his her him our your you i me my us one on in into onto of off or nor and an as at by for from
    form to too two up upon with within without along among about above below after before over
    under again against all any each both few more most less least some such no not only own same so
    very can could may might must shall should will would is are was be been being has have had do
    does did done if when why how what which who whom whose while though through thorough now new
    near next once per via but yet also else ever even just well still since until till out own
    """.split()
)
_REF_MARKER = re.compile(r"^(?:\[\d+(?:\s*[,–-]\s*\d+)*\]|\(\d{1,3}\)|[⁰¹²³⁴⁵⁶⁷⁸⁹]+|\d{1,3}[,.;:]?)$")
_DIGITS = re.compile(r"\d+")
#: A word with a reference mark glued to it, as text extraction keeps a superscript in its word: a
#: footnote's own number before its first word ("16There were …"), a citation mark after a word
#: ("prior studies12 showed"). Three letters at least after a word ("CO2", "F1" are names), two
#: before one ("2Es wird …"; "14C" is a name).
_GLUED_BEFORE = re.compile(r"(\d{1,3})([^\W\d_]{2,})")
_GLUED_AFTER = re.compile(r"([^\W\d_]{3,})(\d{1,3})")
_NUMBER = re.compile(r"^[$€£¥]?\d[\d.,:/%‰]*$")
_OCR_TABLE = str.maketrans({"1": "l", "I": "l", "|": "l", "0": "o"})
_ENDINGS_EN = frozenset({"", "s", "es", "d", "ed", "ing", "ly", "er", "ers", "est", "'s", "’s"})
#: German and French adjective and noun endings too: in an English document "rivr" for "river" is
#: a letter dropped, not "-r" for "-er"
_ENDINGS = _ENDINGS_EN | {"e", "en", "em", "n", "r", "m"}
# (a letter after a hyphen inside a compound starts no word: "network" in "out-of-network")
_WORD_START = re.compile(rf"[{CJK_LETTERS}]|(?<![^\W_])(?<![^\W\d_]-)[^\W_]|(?<!\S)[^\w\s]")
_WORD_END = re.compile(rf"[{CJK_LETTERS}]|[^\W_](?![^\W_])(?!-[^\W\d_])|[^\w\s](?!\S)")
_PUNCT = re.compile(r"^[^\w\s]$")
# words (an unmapped glyph U+FFFD counts as a letter), single CJK characters (scripts without
# spaces: each character is compared as a word), bracketed reference markers, single punctuation marks
_TOKEN = re.compile(rf"(?:[^\W_{CJK_LETTERS}]|\ufffd)+|[{CJK_LETTERS}]|\[\d+(?:\s*[,–-]\s*\d+)*\]|[^\w\s]")
# the same for text without U+FFFD (nearly all): a word is then a plain character run, which the
# regex engine matches nearly twice as fast
_TOKEN_PLAIN = re.compile(rf"[^\W_{CJK_LETTERS}]+|[{CJK_LETTERS}]|\[\d+(?:\s*[,–-]\s*\d+)*\]|[^\w\s]")


def _token_re(text: str) -> re.Pattern[str]:
    return _TOKEN if UNMAPPED in text else _TOKEN_PLAIN


@dataclass(frozen=True, slots=True)
class Difference:
    """One word-level difference between the quote and the aligned source text."""

    # typo, reference_marker, spacing, punctuation, contraction, substituted, added, removed, number, negation
    kind: str
    quote: str
    source: str

    @property
    def noise(self) -> bool:
        return self.kind in ("typo", "reference_marker", "spacing", "punctuation", "contraction")

    def as_json(self) -> dict[str, str]:
        return {"kind": self.kind, "quote": self.quote, "source": self.source}


@dataclass(frozen=True, slots=True)
class Match:
    kind: str  # exact, fuzzy, altered, none
    score: float
    start: int = 0  # span in the (cleaned) chunk text
    end: int = 0
    differences: tuple[Difference, ...] = ()

    @property
    def found(self) -> bool:
        return self.kind in ("exact", "fuzzy")

    @property
    def numeric_mismatch(self) -> bool:
        return any(d.kind == "number" for d in self.differences)

    @property
    def negation_mismatch(self) -> bool:
        return any(d.kind == "negation" for d in self.differences)


NOT_FOUND = Match("none", 0.0)


def _is_negation(word: str) -> bool:
    w = word.strip(".,;:!?\"'()[]").lower()
    return w in NEGATIONS or w.endswith("n't")


def _is_number(word: str) -> bool:
    """A token that states a quantity: it holds a digit ("90", "65th", "9130a", "1920s"), or is a
    number word ("four")."""
    return bool(_DIGITS.search(word)) or word in NUMBER_WORDS


def ocr_normal(word: str) -> str:
    """A word with the classic OCR confusions mapped to one form (rn/m, l/1/I, O/0, vv/w, cl/d)."""
    # the one-character confusions first, so "c1aims" and "claims" meet at "daims"
    return word.translate(_OCR_TABLE).replace("rn", "m").replace("vv", "w").replace("cl", "d")


def _inflected(a: str, b: str, lang: str | None = None) -> bool:
    """``a`` and ``b`` are one word with different endings (page/pages, reduce/reduced, cased/cases)
    of the document's language (English's alone for an English one)."""
    endings = _ENDINGS_EN if lang == "en" else _ENDINGS
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    stem = a[:n]
    # "d" only follows an "e" (bake/baked): "displacd" is a typo of "displaced", not an inflection
    return n >= 3 and all(t in endings and (t != "d" or stem.endswith("e")) for t in (a[n:], b[n:]))


def _wildcard_match(q: str, s: str) -> bool:
    """A word with unmapped glyphs (U+FFFD, each standing for one to three letters, e.g. a ligature)
    that fits the other word."""
    for pattern, word in ((q, s), (s, q)):
        if UNMAPPED in pattern and UNMAPPED not in word:
            regex = ".{1,3}".join(re.escape(part) for part in pattern.split(UNMAPPED))
            if re.fullmatch(regex, word):
                return True
    return False


#: A source word is a word of the language (so one letter off it is another word, not noise) when
#: it is this common in the lexicon (Zipf scale; see :mod:`citeline.ingest.clean.lexicon`) and at
#: least this long; shorter fragments ("th", "ou") are what OCR leaves of a word.
REAL_WORD_ZIPF = 3.0
REAL_WORD_LENGTH = 3
#: A quote word the document never uses is still a word of its own, not a typo of the source's
#: word, when it is this common in the language ("lead" for "read", "apart" for "part").
COMMON_WORD_ZIPF = 4.0


def _real_word(word: str, lang: str) -> bool:
    """A function word, or a word of ``lang`` at least :data:`REAL_WORD_LENGTH` long."""
    if word in FUNCTION_WORDS:
        return True
    return len(word) >= REAL_WORD_LENGTH and lexicon.zipf(lang)(word) >= REAL_WORD_ZIPF


def _unaccented(word: str) -> str:
    """``word`` without its combining accents (é -> e, ü -> u; ß and ø stay)."""
    if word.isascii():
        return word
    return "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))


def _common_word(word: str, lang: str) -> bool:
    return len(word) >= REAL_WORD_LENGTH + 1 and lexicon.zipf(lang)(word) >= COMMON_WORD_ZIPF


def _classify_pair(q: str, s: str, vocabulary: frozenset[str], lang: str | None = None) -> Difference:
    """What one quote word against one source word is. In order: digits that differ are a number
    (unless one side has no digit and the two are one word under OCR confusions: "1ong" for "long");
    OCR confusions and unmapped glyphs are typos; a negation against anything else is a negation;
    with the lexicon of ``lang``, a one-character edit is noise unless the quote's word is a word of
    its own (one the document uses, or a function word) and the source's word is a word of the
    language too ("held" for "help", "then" for "than"), or the two are one word inflected; so "th"
    for "the", "ou" for "you", "GU" for "GNU" are typos, whichever side has the noise; then the
    document's own words decide, and one slip (an edit or a transposition) in a similar word is a
    typo."""
    dq, ds = _DIGITS.findall(q), _DIGITS.findall(s)
    if dq != ds:
        if not (dq and ds) and ocr_normal(q) == ocr_normal(s):
            return Difference("typo", q, s)  # an OCR letter for a digit (or back), not a number
        return Difference("number", q, s)
    if ocr_normal(q) == ocr_normal(s) or _wildcard_match(q, s):
        return Difference("typo", q, s)  # OCR confusion, or an unmapped glyph standing for letters
    if _unaccented(q) == _unaccented(s):
        return Difference("typo", q, s)  # accents dropped or added ("Gagne" for "Gagné", "a" for "à")
    if _NUMBER.match(q) or _NUMBER.match(s) or (q in NUMBER_WORDS and s in NUMBER_WORDS):
        return Difference("number", q, s)  # the same digits with another currency or unit
    if _is_negation(q) != _is_negation(s) or (_is_negation(q) and q != s):
        return Difference("negation", q, s)
    number_word = q in NUMBER_WORDS or s in NUMBER_WORDS
    if lang is not None and Levenshtein.distance(q, s) == 1 and not number_word and max(len(q), len(s)) > 1:
        known = q in vocabulary or q in FUNCTION_WORDS or _common_word(q, lang)
        if (known and _real_word(s, lang)) or (_inflected(q, s, lang) and (known or s not in FUNCTION_WORDS)):
            return Difference("substituted", q, s)  # one word for another ("thed" is no form of "the")
        return Difference("typo", q, s)  # one character of noise in a word
    if q in vocabulary or q in FUNCTION_WORDS or q in NUMBER_WORDS or _inflected(q, s, lang):
        return Difference("number" if number_word else "substituted", q, s)  # a real word, not a typo
    if min(len(q), len(s)) >= 4 and fuzz.ratio(q, s) >= TYPO_RATIO and OSA.distance(q, s) <= 1:
        # one slip ("tihrd" for "third", "recieved"): a typo, not another number; two edits or more
        # make another word ("decreased" for "increased", "intra-" for "inter-", "unlike" for "like")
        return Difference("typo", q, s)
    return Difference("number" if number_word else "substituted", q, s)


#: Contractions whose first part is not the verb written out ("won't" is "will not").
_CONTRACTED_STEMS = {"won": "will", "shan": "shall", "can": "can", "ain": "is"}


def _uncontracted(tokens: list[str]) -> list[str]:
    """Folded tokens with English negative contractions written out ("doesn ' t" -> "does not",
    "can ' t" and "cannot" -> "can not")."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        w = tokens[i]
        if tokens[i + 1 : i + 3] == ["'", "t"] and w.endswith("n") and len(w) > 1:
            out += [_CONTRACTED_STEMS.get(w, w[:-1]), "not"]
            i += 3
            continue
        out += ["can", "not"] if w == "cannot" else [w]
        i += 1
    return out


def _word_diffs(q: list[str], s: list[str]) -> list[Difference]:
    diffs = []
    for w in q:
        kind = "number" if _is_number(w) else "negation" if _is_negation(w) else "added"
        diffs.append(Difference(kind, w, ""))
    for w in s:
        kind = "number" if _is_number(w) else "negation" if _is_negation(w) else "removed"
        diffs.append(Difference(kind, "", w))
    return diffs


def _classify_block(
    q: list[str], s: list[str], vocabulary: frozenset[str], lang: str | None = None, *, first: bool = False
) -> list[Difference]:
    """Differences within one run of non-matching tokens (``first``: the run starts the quote)."""
    if "".join(q) == "".join(s):
        return [Difference("spacing", " ".join(q), " ".join(s))]
    if ("'" in q or "'" in s) and _uncontracted(q) == _uncontracted(s):
        return [Difference("contraction", " ".join(q), " ".join(s))]  # "doesn't" for "does not"
    diffs: list[Difference] = []
    s, glued = _unglued(q, s, vocabulary, first, lang or "en")
    if glued:
        diffs.append(Difference("reference_marker", "", " ".join(glued)))
        if q == s:
            return diffs
    # source tokens the quote dropped that are reference markers: bracketed ("[12]") or superscript
    # always; a bare number only when the quote has no word in its place (or goes on from a mark
    # glued to its word: "studies12, 13")
    bare_ok = bool(glued) or not any(not _PUNCT.match(w) for w in q)
    markers = [w for w in s if _REF_MARKER.match(w) and w not in q and (bare_ok or not w[0].isdigit())]
    if markers:
        diffs.append(Difference("reference_marker", "", " ".join(markers)))
        s = [w for w in s if w not in markers]
    punct_q = [w for w in q if _PUNCT.match(w)]
    punct_s = [w for w in s if _PUNCT.match(w)]
    if punct_q != punct_s:
        diffs.append(Difference("punctuation", "".join(punct_q), "".join(punct_s)))
    q = [w for w in q if not _PUNCT.match(w)]
    s = [w for w in s if not _PUNCT.match(w)]
    if "".join(q) == "".join(s):
        if q != s:
            diffs.append(Difference("spacing", " ".join(q), " ".join(s)))
        return diffs
    if len(q) == len(s):
        return diffs + [_classify_pair(a, b, vocabulary, lang) for a, b in zip(q, s, strict=True)]
    jq, js = "".join(q), "".join(s)
    same_numbers = _DIGITS.findall(jq) == _DIGITS.findall(js) and [w for w in q if w in NUMBER_WORDS] == [
        w for w in s if w in NUMBER_WORDS
    ]
    close = ocr_normal(jq) == ocr_normal(js) or fuzz.ratio(jq, js) >= TYPO_RATIO
    if q and s and same_numbers and close and not any(map(_is_negation, q + s)):
        # broken spacing inside or between words ("fi nd", "thequick"), maybe with a typo
        return [*diffs, Difference("spacing", " ".join(q), " ".join(s))]
    return diffs + _word_diffs(q, s)


def _unglued(
    q: list[str], s: list[str], vocabulary: frozenset[str], first: bool, lang: str
) -> tuple[list[str], list[str]]:
    """The source tokens with reference marks glued to a word the quote has in their place taken off
    (see :data:`_GLUED_BEFORE`), and the marks. A mark before a word only on the quote's first word
    (a footnote quoted from its first word: a number the quote drops inside it is a changed number),
    a mark after one anywhere; the word must be one the document uses on its own and a word of its
    language (``GPT4`` is a name, not "GPT" with a mark, nor is ``SCIDOCS3``)."""
    out: list[str] = []
    marks: list[str] = []
    for k, w in enumerate(s):
        after = _GLUED_AFTER.fullmatch(w)
        before = _GLUED_BEFORE.fullmatch(w) if first and k == 0 else None
        word, mark = (
            (after.group(1), after.group(2)) if after else (before.group(2), before.group(1)) if before else ("", "")
        )
        if (
            word
            and word in q
            and w not in q
            and word in vocabulary
            and (word in FUNCTION_WORDS or lexicon.zipf(lang)(word) >= REAL_WORD_ZIPF)
        ):
            out.append(word)
            marks.append(mark)
        else:
            out.append(w)
    return out, marks


#: Punctuation that changes a number next to it: a sign before it, a percent sign after it, a
#: decimal or thousands mark between two digits.
_SIGNS = frozenset("-—+±")
_PERCENT = frozenset("%‰")
_SEPARATORS = frozenset(".,:/")
#: Signs that give a number its unit: "$70" is not "70%", "$2,500" not "€2,500".
_UNIT_SIGNS = frozenset("%‰$€£¥")


def classify(
    quote_words: list[str],
    source_words: list[str],
    vocabulary: frozenset[str] = frozenset(),
    *,
    blocks: list[tuple[int, int, int, int]] | None = None,
    lang: str | None = None,
) -> list[Difference]:
    """Word-level differences between two folded token lists. Adjacent non-matching tokens are
    judged together, so "humanevaluation" against "human evaluation" is spacing, not a removal.
    ``vocabulary`` holds the document's own words: a quote word found there is a real word, so a
    one-letter difference to it is a substitution, not a typo; ``lang`` is the document's language,
    whose lexicon tells words from noise. ``blocks`` are the lists' :func:`_blocks` when the caller
    has them already. A punctuation difference that changes a number (a sign before it, a percent
    sign after it, a decimal mark between its digits: "-3" for "3", "8.2" for "8,2") is a number
    difference."""
    diffs: list[Difference] = []
    for qs, qe, ss, se in _blocks(quote_words, source_words) if blocks is None else blocks:
        decimals = _decimal_part(quote_words, qs, qe, source_words, ss, se)
        if decimals is not None:
            diffs.append(decimals)  # "4 F1 points" for "4.2 F1 points": not a dropped reference marker
            continue
        found = _classify_block(quote_words[qs:qe], source_words[ss:se], vocabulary, lang, first=qs == 0)
        if any(d.kind == "punctuation" for d in found):
            before = [quote_words[qs - 1] if qs else "", source_words[ss - 1] if ss else ""]
            after = [
                quote_words[qe] if qe < len(quote_words) else "",
                source_words[se] if se < len(source_words) else "",
            ]
            digit_before = any(w[-1:].isdigit() for w in before)
            digit_after = any(w[:1].isdigit() for w in after)
            digit_inside = any(c.isdigit() for w in quote_words[qs:qe] + source_words[ss:se] for c in w)
            written = [
                before[0] + "".join(quote_words[qs:qe]) + after[0],
                before[1] + "".join(source_words[ss:se]) + after[1],
            ]
            found = [d if d.kind != "punctuation" or not _changes_number(d, digit_before, digit_after, digit_inside)
                     or _same_value(written[0], written[1], lang) else
                     Difference("number", d.quote, d.source) for d in found]  # fmt: skip
        diffs.extend(found)
    return diffs


def _decimal_part(
    quote_words: list[str], qs: int, qe: int, source_words: list[str], ss: int, se: int
) -> Difference | None:
    """A decimal part that one side has after a number both share, and the other lacks ("4" for
    "4.2"): a changed number."""
    if not (qs and ss and quote_words[qs - 1][-1:].isdigit() and source_words[ss - 1][-1:].isdigit()):
        return None
    quoted, source = quote_words[qs:qe], source_words[ss:se]
    for part in (quoted, source):
        if len(part) >= 2 and part[0] in ".," and part[1][:1].isdigit():
            return Difference("number", "".join(quoted), "".join(source))
    return None


def _same_value(quoted: str, source: str, lang: str | None) -> bool:
    """Whether two numbers written with different marks are one value as the document's language
    reads them: "1 200" (grouped by a space, joined here) for German "1.200", "3.5" for "3,5"."""
    if not (_WRITTEN_NUMBER.fullmatch(quoted) and _WRITTEN_NUMBER.fullmatch(source)):
        return False
    a, b = canonical(quoted, lang or "en"), canonical(source, lang or "en")
    return a is not None and a == b


_WRITTEN_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _changes_number(d: Difference, digit_before: bool, digit_after: bool, digit_inside: bool = False) -> bool:
    """A sign one side has and the other lacks, before a number that no digit precedes (after one it
    is a range: "2019–2020"); a percent sign one side has, after a number; a currency or percent
    sign that differs next to a number or among the differing words' digits ("$70" for "70%", "$2,500"
    for "€2,500"); a separator that differs between two digits."""
    signs_q, signs_s = bool(set(d.quote) & _SIGNS), bool(set(d.source) & _SIGNS)
    percent_q, percent_s = bool(set(d.quote) & _PERCENT), bool(set(d.source) & _PERCENT)
    units_differ = set(d.quote) & _UNIT_SIGNS != set(d.source) & _UNIT_SIGNS
    return bool(
        (signs_q != signs_s and digit_after and not digit_before)
        or (percent_q != percent_s and digit_before)
        or (units_differ and (digit_before or digit_after or digit_inside))
        or (set(d.quote + d.source) & _SEPARATORS and digit_before and digit_after)
    )


def _blocks(quote_words: list[str], source_words: list[str]) -> list[tuple[int, int, int, int]]:
    """Runs of non-equal opcodes, merged: (quote start, quote end, source start, source end)."""
    blocks: list[tuple[int, int, int, int]] = []
    for op in Levenshtein.opcodes(quote_words, source_words):
        if op.tag == "equal":
            continue
        if blocks and blocks[-1][1] == op.src_start and blocks[-1][3] == op.dest_start:
            qs, _, ss, _ = blocks[-1]
            blocks[-1] = (qs, op.src_end, ss, op.dest_end)
        else:
            blocks.append((op.src_start, op.src_end, op.dest_start, op.dest_end))
    return blocks


def _slack(quote: str) -> int:
    """How far :func:`_best_span` looks beyond either end of a rough window."""
    return max(12, len(quote) // 4)


def _best_span(quote: str, text: str, start: int, end: int) -> tuple[int, int, float]:
    """Around a rough window ``text[start:end]``, the word-aligned span most similar to the quote
    (the rough window has the quote's length; the true span may be longer or shorter). The start is
    chosen first with the end fixed, then the end. Only ``text[start - slack - 1 : end + slack]``
    is looked at (the character before, for a word boundary)."""
    slack = _slack(quote)
    lo, hi = max(0, start - slack), min(len(text), start + slack)
    starts = [m.start() for m in _WORD_START.finditer(text, lo, hi)] or [start]
    lo, hi = max(0, end - slack), min(len(text), end + slack)
    ends = [m.end() for m in _WORD_END.finditer(text, lo, hi)] or [end]

    def pick(candidates: list[tuple[int, int]]) -> tuple[int, int, float]:
        best_s, best_e, best = start, end, -1.0
        for s, e in candidates:
            if e <= s:
                continue
            # below the cutoff rapidfuzz stops early and says 0, which never wins here
            score = fuzz.ratio(quote, text[s:e], score_cutoff=max(best, 0.0))
            if score > best or (
                score == best and abs(s - start) + abs(e - end) < abs(best_s - start) + abs(best_e - end)
            ):
                best_s, best_e, best = s, e, score
        return best_s, best_e, best

    s, _, _ = pick([(s, end) for s in starts])
    return pick([(s, e) for e in ends])


#: Alignments already worked out, by the folded text around them, their spans relative to it (see
#: :func:`locate`).
AlignmentMemo = dict[tuple[object, ...], Match]


def locate(
    quote: str,
    chunk_text: str,
    *,
    folded_chunk: Folded | None = None,
    folded_quote: str | None = None,
    vocabulary: frozenset[str] | Callable[[], frozenset[str]] | None = None,
    threshold: float = FUZZY_THRESHOLD,
    altered_min: float = ALTERED_MIN,
    memo: AlignmentMemo | None = None,
    lang: str | None = None,
    rough: ScoreAlignment | None = None,
) -> Match:
    """Find ``quote`` in ``chunk_text``; spans are reported in ``chunk_text``'s own characters.

    ``folded_chunk`` and ``folded_quote`` are ``fold(chunk_text)`` and ``fold(quote).text`` when the
    caller has them already. ``vocabulary`` is the set of folded words of the document the chunk
    belongs to, or a function giving it (called only when a fuzzy match needs it); default: the
    chunk's own words. ``lang`` is the document's language (see :func:`classify`).

    ``memo`` keeps fuzzy alignments by the folded text around them, so a passage repeated in many
    chunks (overlapping chunks, boilerplate) is worked out once: give one memo to calls with the
    same vocabulary only. ``rough`` is ``fuzz.partial_ratio_alignment(folded_quote, folded_chunk)``
    when the caller has screened chunks with it already (at a cutoff of at least
    ``altered_min * 0.9``)."""
    fq = fold(quote).text if folded_quote is None else folded_quote
    ft = folded_chunk or fold(chunk_text)
    if not fq or not ft.text:
        return NOT_FOUND
    at = _find_word_aligned(ft.text, fq)
    if at >= 0:
        span = ft.map.to_original(Normalized(at, at + len(fq)))
        return Match("exact", 100.0, span.start, span.end)
    if rough is None:
        rough = fuzz.partial_ratio_alignment(fq, ft.text, score_cutoff=altered_min * 0.9)
    if rough is None:
        return NOT_FOUND
    key: tuple[object, ...] | None = None
    base = 0
    folded: Match | None = None  # in folded offsets
    if memo is not None and vocabulary is not None and len(fq) <= len(ft.text):
        # everything below depends only on the text around the rough window (and the vocabulary:
        # without one given, each chunk's own words are used, so nothing can be shared)
        slack = _slack(fq)
        base = max(0, rough.dest_start - slack)
        window = ft.text[max(0, base - 1) : min(len(ft.text), rough.dest_end + slack)]
        key = (fq, window, base > 0, rough.dest_start - base, rough.dest_end - base, threshold, altered_min, lang)
        known = memo.get(key)
        folded = None if known is None else _shifted(known, base)
    if folded is None:
        if len(fq) <= len(ft.text):
            s, e, _ = _best_span(fq, ft.text, rough.dest_start, rough.dest_end)
        else:  # the quote is longer than the chunk: at best the chunk is a part of it
            s, e = 0, len(ft.text)
        folded = _classified(fq, ft, s, e, vocabulary, threshold, altered_min, lang)
        if memo is not None and key is not None:
            memo[key] = _shifted(folded, -base)  # kept relative to the window
    if folded.kind == "none":
        return NOT_FOUND
    span = ft.map.to_original(Normalized(folded.start, folded.end))
    return Match(folded.kind, folded.score, span.start, span.end, folded.differences)


def _shifted(m: Match, by: int) -> Match:
    return Match(m.kind, m.score, m.start + by, m.end + by, m.differences)


def _classified(
    fq: str,
    ft: Folded,
    s: int,
    e: int,
    vocabulary: frozenset[str] | Callable[[], frozenset[str]] | None,
    threshold: float,
    altered_min: float,
    lang: str | None = None,
) -> Match:
    """The match of a folded quote against the folded span ``ft.text[s:e]``, edges trimmed and
    differences classified; offsets are still folded ones."""
    quote_words = tokens(fq)
    s, e, source_words, blocks = _trim_edges(quote_words, ft.text, s, e)
    score = round(fuzz.ratio(fq, ft.text[s:e]), 2)
    if score < altered_min:
        return NOT_FOUND
    if vocabulary is None:
        words = frozenset(tokens(ft.text))
    elif callable(vocabulary):
        words = vocabulary()
    else:
        words = vocabulary
    diffs = tuple(classify(quote_words, source_words, words, blocks=blocks, lang=lang))
    kind = "fuzzy" if score >= threshold and all(d.noise for d in diffs) else "altered"
    return Match(kind, score, s, e, diffs)


def _trim_edges(
    quote_words: list[str], text: str, s: int, e: int
) -> tuple[int, int, list[str], list[tuple[int, int, int, int]] | None]:
    """Drop source tokens at either end of ``text[s:e]`` that the quote has nothing for (the window
    reached into the neighbouring words). Returns the span, its tokens, and the blocks of
    :func:`_blocks` against the quote when the span did not change (None when they must be worked
    out again)."""
    found = [(m.start(), m.end(), m.group()) for m in _token_re(text).finditer(text, s, e)]
    words = [w for _, _, w in found]
    blocks = _blocks(quote_words, words)
    if not found or not blocks:
        return s, e, words, blocks
    a, b = 0, len(found)  # the tokens kept
    first, last = blocks[0], blocks[-1]
    if first[0] == first[1] == 0 and first[2] == 0 and first[3] < len(found):
        a = first[3]
    if last[0] == last[1] == len(quote_words) and last[3] == len(found) and last[2] > 0:
        b = last[2]
    # a cut inside a hyphen compound would quote "network claims" as if "Out-of-network claims"
    # said it: the compound's part the quote left out stays in the span, as a difference
    if a > 0 and _in_compound(text, found[a][0], before=True):
        a = 0
    if b < len(found) and _in_compound(text, found[b - 1][1], before=False):
        b = len(found)
    new_s = found[a][0] if a > 0 else s
    new_e = found[b - 1][1] if b < len(found) else e
    if (a, b) == (0, len(found)) or new_s >= new_e:
        return s, e, words, blocks
    # a span cut at token boundaries holds the same tokens as it did inside the longer one
    return new_s, new_e, words[a:b], None


def _in_compound(text: str, at: int, *, before: bool) -> bool:
    """Whether a cut at ``at`` falls inside a hyphen compound: a letter on one side, a hyphen and
    a letter on the other."""
    if before:
        return at >= 2 and text[at - 1] == "-" and text[at - 2].isalpha() and text[at : at + 1].isalpha()
    return at + 1 < len(text) and text[at] == "-" and text[at + 1].isalpha() and text[at - 1 : at].isalpha()


def tokens(folded_text: str) -> list[str]:
    """The tokens the matcher compares: words, CJK characters, reference markers, punctuation."""
    return _token_re(folded_text).findall(folded_text)


def _find_word_aligned(haystack: str, needle: str) -> int:
    """First occurrence that starts and ends on word boundaries (-1 when there is none): a quote
    that starts or ends inside a word is not found as written ("like most LMs" inside "unlike most
    LMs", "resident alien" inside "nonresident alien"). In scripts written without spaces
    (Chinese, Japanese) every character boundary is a word boundary."""
    at = haystack.find(needle)
    while at >= 0:
        after = at + len(needle)
        if _boundary(haystack, at, needle[0], before=True) and _boundary(haystack, after, needle[-1], before=False):
            return at
        at = haystack.find(needle, at + 1)
    return -1


def _boundary(text: str, at: int, edge: str, *, before: bool) -> bool:
    """Whether ``text`` has a word boundary at ``at`` next to the needle's ``edge`` character. A
    hyphen inside a compound is none: "optimal" starts inside "sub-optimal", "network claims" inside
    "Out-of-network claims", whose first part the quote leaves out."""
    if at == (0 if before else len(text)):
        return True
    if _in_compound(text, at, before=before):  # (``edge`` is the text's own letter beside ``at``)
        return False
    other = text[at - 1] if before else text[at]
    return not (other.isalnum() and edge.isalnum()) or is_cjk(other) or is_cjk(edge)


def drift(chunk_text: str, match: Match, quote: str, *, folded_quote: str | None = None) -> str:
    """The source's own text of a match, with the words that differ from the quote marked
    ⟦like this⟧ (noise such as typos and reference markers is not marked). ``folded_quote`` is
    ``fold(quote).text`` when the caller has it. The source text is taken whole words: a match that
    starts or ends inside a word shows all of it."""
    start, end = match.start, match.end
    while start > 0 and chunk_text[start - 1].isalnum() and chunk_text[start].isalnum():
        start -= 1
    while end < len(chunk_text) and chunk_text[end].isalnum() and chunk_text[end - 1].isalnum():
        end += 1
    source = chunk_text[start:end]
    folded = fold(source)
    found = list(_token_re(folded.text).finditer(folded.text))
    source_words = [m.group() for m in found]
    quote_words = tokens(fold(quote).text if folded_quote is None else folded_quote)
    marked: set[int] = set()
    for qs, qe, ss, se in _blocks(quote_words, source_words):
        if ss < se and any(not d.noise for d in classify(quote_words[qs:qe], source_words[ss:se])):
            marked.update(range(ss, se))
    out, pos = [], 0
    for i in sorted(marked):
        span = folded.map.to_original(Normalized(found[i].start(), found[i].end()))
        out.append(source[pos : span.start] + "⟦" + source[span.start : span.end] + "⟧")
        pos = span.end
    out.append(source[pos:])
    return "".join(out).replace("⟧⟦", "")
