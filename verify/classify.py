"""How a quote's words differ from the source's words they are aligned with: character-level noise
(a typo, an OCR confusion, a dropped reference marker, broken spacing, punctuation) or a change of
meaning (a substituted, added or removed word, a number, a negation, a symbol).

Every function reads the words in the document's language (:class:`citeline.text.lang.Language`):
its negations, its number words, its function words and inflections, its lexicon.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA, Levenshtein

from citeline.text import lang as language
from citeline.text import lexicon
from citeline.text.lang import Language
from citeline.text.lexicon import document_language
from citeline.text.scripts import HANGUL_SYLLABLES
from citeline.verify.fold import UNMAPPED
from citeline.verify.numbers import canonical

#: Two words are the same word with a typo when their ratio reaches this (and both have 4+ letters).
TYPO_RATIO = 75.0

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
_PUNCT = re.compile(r"^[^\w\s]$")

#: The kinds of difference that are character-level noise.
NOISE_KINDS = frozenset({"typo", "reference_marker", "spacing", "punctuation", "contraction", "particle"})


@dataclass(frozen=True, slots=True)
class Difference:
    """One word-level difference between the quote and the aligned source text."""

    # typo, reference_marker, spacing, punctuation, contraction (noise); substituted, added, removed,
    # number, negation, symbol (a change of meaning)
    kind: str
    quote: str
    source: str

    @property
    def noise(self) -> bool:
        """Character-level noise (:data:`NOISE_KINDS`), not a change of meaning."""
        return self.kind in NOISE_KINDS

    def as_json(self) -> dict[str, str]:
        return {"kind": self.kind, "quote": self.quote, "source": self.source}


#: Signs that carry meaning, unlike punctuation: relations, sets, logic, arithmetic, arrows. A quote
#: that writes "≤" for "≥" or "∉" for "∈" says another thing.
SYMBOLS = frozenset("<>≤≥≦≧≠=≈≡∈∉∋⊂⊆⊃⊇⊄∪∩∅±∓+×÷−∧∨¬⇒⇔→←↔∀∃√∞∑∏∫")


def _is_negation(word: str, lang: Language | None) -> bool:
    """Whether a word is a negation of the language (a negative preposition too: a quote that drops
    "without" is altered)."""
    if lang is None:
        return False
    w = word.strip(".,;:!?\"'()[]").lower()
    return w in lang.negations or lang.denies(w)


def _is_number(word: str, lang: Language | None) -> bool:
    """A token that states a quantity: it holds a digit ("90", "65th", "9130a", "1920s"), or is a
    number word ("four")."""
    return bool(_DIGITS.search(word)) or (lang is not None and word in lang.counting)


def ocr_normal(word: str) -> str:
    """A word with the classic OCR confusions mapped to one form (rn/m, l/1/I, O/0, vv/w, cl/d)."""
    # the one-character confusions first, so "c1aims" and "claims" meet at "daims"
    return word.translate(_OCR_TABLE).replace("rn", "m").replace("vv", "w").replace("cl", "d")


def _inflected(a: str, b: str, lang: Language | None = None) -> bool:
    """``a`` and ``b`` are one word with different endings (page/pages, reduce/reduced, cased/cases)
    of the document's language (English's alone for an English one)."""
    endings = lang.endings if lang is not None else frozenset({""})
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
#: it is this common in the lexicon (Zipf scale; see :mod:`citeline.text.lexicon`) and at
#: least this long; shorter fragments ("th", "ou") are what OCR leaves of a word.
REAL_WORD_ZIPF = 3.0
REAL_WORD_LENGTH = 3
#: A quote word the document never uses is still a word of its own, not a typo of the source's
#: word, when it is this common in the language ("lead" for "read", "apart" for "part").
COMMON_WORD_ZIPF = 4.0


#: A word the document writes this often, or more, is one of its words, not a slip ...
WRITTEN_TIMES = 2
#: ... and of two such words, the rarer one is no slip of the other when it is written at least
#: this share as often (a scan that reads "the" as "tbe" now and then writes "the" far more often).
WRITTEN_SHARE = 0.1


class Vocabulary(frozenset[str]):
    """A document version's folded words, with how often each is written in its chunks (a word in
    two chunks' overlap counts twice)."""

    counts: Counter[str]

    def __new__(cls, counts: Counter[str]) -> Vocabulary:
        self = super().__new__(cls, counts)
        self.counts = counts
        return self

    def both_written(self, a: str, b: str) -> bool:
        """Whether the document writes both words as its own: each :data:`WRITTEN_TIMES` times or
        more, the rarer at least :data:`WRITTEN_SHARE` as often as the other ("CPUs" and "GPUs",
        "Homomorphismus" and "Homöomorphismus"), so one letter between them makes another word."""
        na, nb = self.counts[a], self.counts[b]
        return min(na, nb) >= WRITTEN_TIMES and min(na, nb) >= WRITTEN_SHARE * max(na, nb)


def _real_word(word: str, lang: Language) -> bool:
    """A function word, or a word of ``lang`` at least :data:`REAL_WORD_LENGTH` long."""
    if word in lang.function_words:
        return True
    return len(word) >= REAL_WORD_LENGTH and lexicon.zipf(lang.code)(word) >= REAL_WORD_ZIPF


def unaccented(word: str) -> str:
    """``word`` without its combining accents (é -> e, ü -> u; ß and ø stay)."""
    if word.isascii():
        return word
    return "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))


def _common_word(word: str, lang: Language) -> bool:
    return len(word) >= REAL_WORD_LENGTH + 1 and lexicon.zipf(lang.code)(word) >= COMMON_WORD_ZIPF


#: A word this short with one letter put for another is another word when the quote's is a common
#: word of the language ("us"/"uk", "in"/"on"); otherwise ("tae" for "the", "cf" for "of") it is
#: noise, as is a letter dropped from one ("th" for "the").
SHORT_WORD = 3
#: Hangul syllables: each is a morpheme, so one changed is another word, never a typo.
_SYLLABIC = re.compile(f"[{HANGUL_SYLLABLES}]")


def _flips(q: str, s: str, lang: Language) -> bool:
    """Whether one word is the other with a negating prefix of the language added, dropped or put
    for another first syllable ("unlawful"/"lawful", "inactive"/"active", 무료/유료 "free"/"paid",
    不可以/可以): one letter or character that flips what the word means, never a typo."""
    for prefix in lang.negating_prefixes:
        for a, b in ((q, s), (s, q)):
            if not a.startswith(prefix) or len(a) - len(prefix) < 2:
                continue
            rest = a[len(prefix) :]
            if b == rest or (b[1:] == rest and len(prefix) == 1 and not b.startswith(prefix)):
                return True
    return False


def _classify_pair(
    q: str, s: str, vocabulary: frozenset[str], lang: Language | None = None, *, lexical: bool = True
) -> Difference:
    """What one quote word against one source word is. In order: digits that differ are a number
    (unless one side has no digit and the two are one word under OCR confusions: "1ong" for "long");
    OCR confusions and unmapped glyphs are typos; a negation against anything else is a negation;
    with the lexicon of ``lang``, a one-character edit is noise unless the quote's word is a word of
    its own (one the document uses, or a function word) and the source's word is a word of the
    language too ("held" for "help", "then" for "than"), or the document writes both as its own
    words (:meth:`Vocabulary.both_written`: "Homomorphismus" for "Homöomorphismus", however rare in
    the lexicon), or the two are one word inflected; so "th" for "the", "ou" for "you", "GU" for
    "GNU" are typos, whichever side has the noise; then the document's own words decide, and one
    slip (an edit or a transposition) in a similar word is a typo."""
    dq, ds = _DIGITS.findall(q), _DIGITS.findall(s)
    if dq != ds:
        if not (dq and ds) and ocr_normal(q) == ocr_normal(s):
            return Difference("typo", q, s)  # an OCR letter for a digit (or back), not a number
        return Difference("number", q, s)
    if ocr_normal(q) == ocr_normal(s) or _wildcard_match(q, s):
        return Difference("typo", q, s)  # OCR confusion, or an unmapped glyph standing for letters
    if unaccented(q) == unaccented(s):
        return Difference("typo", q, s)  # accents dropped or added ("Gagne" for "Gagné", "a" for "à")
    counting = lang.counting if lang is not None else frozenset()
    function_words = lang.function_words if lang is not None else frozenset()
    if _NUMBER.match(q) or _NUMBER.match(s) or (q in counting and s in counting):
        return Difference("number", q, s)  # the same digits with another currency or unit
    if _is_negation(q, lang) != _is_negation(s, lang) or (_is_negation(q, lang) and q != s):
        return Difference("negation", q, s)
    if lang is not None and _flips(q, s, lang):
        return Difference("negation", q, s)  # "unlawful" for "lawful", 무료 for 유료: never a typo
    if _SYLLABIC.search(q + s):
        return Difference("substituted", q, s)  # a Hangul syllable is a morpheme: 명시적 is not 묵시적
    number_word = q in counting or s in counting
    if (
        lexical
        and lang is not None
        and len(q) == len(s) <= SHORT_WORD
        and Levenshtein.distance(q, s) == 1
        and not number_word
        and (q in function_words or lexicon.zipf(lang.code)(q) >= COMMON_WORD_ZIPF)
    ):
        return Difference("substituted", q, s)  # "UK" for "US", "on" for "in": another word, not a slip
    if lexical and lang is not None and Levenshtein.distance(q, s) == 1 and not number_word and max(len(q), len(s)) > 1:
        known = q in vocabulary or q in function_words or _common_word(q, lang)
        if (
            (known and _real_word(s, lang))
            or (_inflected(q, s, lang) and (known or s not in function_words))
            or (isinstance(vocabulary, Vocabulary) and vocabulary.both_written(q, s))
        ):
            return Difference("substituted", q, s)  # one word for another ("thed" is no form of "the")
        return Difference("typo", q, s)  # one character of noise in a word
    if q in vocabulary or q in function_words or q in counting or _inflected(q, s, lang):
        return Difference("number" if number_word else "substituted", q, s)  # a real word, not a typo
    if min(len(q), len(s)) >= 4 and fuzz.ratio(q, s) >= TYPO_RATIO and OSA.distance(q, s) <= 1:
        # one slip ("tihrd" for "third", "recieved"): a typo, not another number; two edits or more
        # make another word ("decreased" for "increased", "intra-" for "inter-", "unlike" for "like")
        return Difference("typo", q, s)
    return Difference("number" if number_word else "substituted", q, s)


#: Contractions whose first part is not the verb written out ("won't" is "will not").
def _uncontracted(tokens: list[str], lang: Language | None) -> list[str]:
    """Folded tokens with English negative contractions written out ("doesn ' t" -> "does not",
    "can ' t" and "cannot" -> "can not")."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        w = tokens[i]
        if tokens[i + 1 : i + 3] == ["'", "t"] and w.endswith("n") and len(w) > 1:
            out += [lang.contracted_stems.get(w, w[:-1]) if lang else w[:-1], "not"]
            i += 3
            continue
        out += ["can", "not"] if w == "cannot" else [w]
        i += 1
    return out


def _word_diffs(q: list[str], s: list[str], lang: Language | None) -> list[Difference]:
    diffs = []
    for w in q:
        kind = "number" if _is_number(w, lang) else "negation" if _is_negation(w, lang) else "added"
        diffs.append(Difference(kind, w, ""))
    for w in s:
        kind = "number" if _is_number(w, lang) else "negation" if _is_negation(w, lang) else "removed"
        diffs.append(Difference(kind, "", w))
    return diffs


def _classify_block(
    q: list[str],
    s: list[str],
    vocabulary: frozenset[str],
    lang: Language | None = None,
    *,
    first: bool = False,
    lexical: bool = True,
    preceding: str = "",
) -> list[Difference]:
    """Differences within one run of non-matching tokens (``first``: the run starts the quote;
    ``preceding``: the source's token before the run)."""
    if "".join(q) == "".join(s):
        return [Difference("spacing", " ".join(q), " ".join(s))]
    if ("'" in q or "'" in s) and _uncontracted(q, lang) == _uncontracted(s, lang):
        return [Difference("contraction", " ".join(q), " ".join(s))]  # "doesn't" for "does not"
    diffs: list[Difference] = []
    s, glued = _unglued(q, s, vocabulary, first, lang if lexical else None, preceding)
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
        changed = set(punct_q) ^ set(punct_s)
        kind = "symbol" if changed & SYMBOLS else "punctuation"
        diffs.append(Difference(kind, "".join(punct_q), "".join(punct_s)))
    q = [w for w in q if not _PUNCT.match(w)]
    s = [w for w in s if not _PUNCT.match(w)]
    if "".join(q) == "".join(s):
        if q != s:
            diffs.append(Difference("spacing", " ".join(q), " ".join(s)))
        return diffs
    if len(q) == len(s):
        return diffs + [_classify_pair(a, b, vocabulary, lang, lexical=lexical) for a, b in zip(q, s, strict=True)]
    jq, js = "".join(q), "".join(s)
    counting = lang.counting if lang is not None else frozenset()
    same_numbers = _DIGITS.findall(jq) == _DIGITS.findall(js) and [w for w in q if w in counting] == [
        w for w in s if w in counting
    ]
    close = ocr_normal(jq) == ocr_normal(js) or fuzz.ratio(jq, js) >= TYPO_RATIO
    if q and s and same_numbers and close and not any(_is_negation(w, lang) for w in q + s):
        # broken spacing inside or between words ("fi nd", "thequick"), maybe with a typo
        return [*diffs, Difference("spacing", " ".join(q), " ".join(s))]
    return diffs + _word_diffs(q, s, lang)


def _after_word(s: list[str], k: int, preceding: str, lang: Language | None) -> bool:
    """Whether source token ``k`` follows a word of letters: a mark glued before it there is a
    superscript set after that word ("a single 3fixed trigger": the note mark of "single"), of at
    most :data:`GLUED_MID_DIGITS` digits, before a word that measures nothing (a unit after a
    figure is the figure's: "after 30days")."""
    before = s[k - 1] if k else preceding
    if lang is None or not before.isalpha():
        return False
    m = _GLUED_BEFORE.fullmatch(s[k])
    return m is not None and len(m.group(1)) <= GLUED_MID_DIGITS and m.group(2) not in _units(lang)


@functools.cache
def _units(lang: Language) -> frozenset[str]:
    """Every unit word of ``lang`` (:attr:`~citeline.text.lang.Language.units_of`)."""
    return frozenset(w.lower() for units in lang.units_of.values() for ws in units.values() for w in ws.split())


#: A mark glued before a word inside a quote has at most this many digits (a note's number).
GLUED_MID_DIGITS = 2


def _unglued(
    q: list[str], s: list[str], vocabulary: frozenset[str], first: bool, lang: Language | None, preceding: str = ""
) -> tuple[list[str], list[str]]:
    """The source tokens with reference marks glued to a word the quote has in their place taken off
    (see :data:`_GLUED_BEFORE`), and the marks. A mark before a word on the quote's first word (a
    footnote quoted from its first word) or right after a word (a note mark set after "single" and
    read into the next word: "a single 3fixed trigger"; elsewhere a number the quote drops inside a
    footnote is a changed number), a mark after one anywhere; the word must be a word of its
    language and one the document uses on its own (``GPT4`` is a name, not "GPT" with a mark, nor
    is ``SCIDOCS3``), or, after a word, a common one (:data:`COMMON_WORD_ZIPF`)."""
    out: list[str] = []
    marks: list[str] = []
    for k, w in enumerate(s):
        after = _GLUED_AFTER.fullmatch(w)
        noted = not (first and k == 0) and _after_word(s, k, preceding, lang)
        before = _GLUED_BEFORE.fullmatch(w) if (first and k == 0) or noted else None
        word, mark = (
            (after.group(1), after.group(2)) if after else (before.group(2), before.group(1)) if before else ("", "")
        )
        if (
            word
            and word in q
            and w not in q
            and lang is not None
            and (word in vocabulary or (noted and not after and _common_word(word, lang)))
            and (word in lang.function_words or lexicon.zipf(lang.code)(word) >= REAL_WORD_ZIPF)
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
    lang: Language | str | None = None,
) -> list[Difference]:
    """Word-level differences between two folded token lists. Adjacent non-matching tokens are
    judged together, so "humanevaluation" against "human evaluation" is spacing, not a removal.
    ``vocabulary`` holds the document's own words: a quote word found there is a real word, so a
    one-letter difference to it is a substitution, not a typo; ``lang`` is the document's language,
    whose words (negations, number words) and lexicon tell words from noise (without it, the words
    of the language the source's words say, and no lexicon). ``blocks`` are the lists' :func:`blocks_of` when the caller
    has them already. A punctuation difference that changes a number (a sign before it, a percent
    sign after it, a decimal mark between its digits: "-3" for "3", "8.2" for "8,2") is a number
    difference."""
    lexical = lang is not None
    if not isinstance(lang, Language):
        lang = language.of(lang if lang is not None else document_language(" ".join(source_words)))
    diffs: list[Difference] = []
    for qs, qe, ss, se in blocks_of(quote_words, source_words) if blocks is None else blocks:
        decimals = _decimal_part(quote_words, qs, qe, source_words, ss, se)
        if decimals is not None:
            diffs.append(decimals)  # "4 F1 points" for "4.2 F1 points": not a dropped reference marker
            continue
        if qe == len(quote_words) and _particles_cut(quote_words[qs:qe], source_words[ss:se], lang):
            # the quote ends on a word whose particles the source goes on with ("사회계층" of
            # "사회계층으로부터")
            diffs.append(Difference("particle", quote_words[qs], source_words[ss]))
            continue
        found = _classify_block(
            quote_words[qs:qe],
            source_words[ss:se],
            vocabulary,
            lang,
            first=qs == 0,
            lexical=lexical,
            preceding=source_words[ss - 1] if ss else "",
        )
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


#: How many particles a word may go on with after the quote ends on it ("으로" + "부터").
PARTICLES_AFTER = 2


def _particles_cut(q: list[str], s: list[str], lang: Language) -> bool:
    """Whether a quote's last word ``q`` is the source's word ``s`` without the particles it goes on
    with (:attr:`~citeline.text.lang.Language.particles`: at most :data:`PARTICLES_AFTER` of them)."""
    if not lang.particles or len(q) != 1 or len(s) != 1 or not s[0].startswith(q[0]) or s[0] == q[0]:
        return False
    return _particle_run(s[0][len(q[0]) :], lang.particles, PARTICLES_AFTER)


def _particle_run(rest: str, particles: frozenset[str], left: int) -> bool:
    if not rest:
        return True
    if left == 0:
        return False
    return any(rest.startswith(p) and _particle_run(rest[len(p) :], particles, left - 1) for p in particles)


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


def _same_value(quoted: str, source: str, lang: Language | None) -> bool:
    """Whether two numbers written with different marks are one value as the document's language
    reads them: "1 200" (grouped by a space, joined here) for German "1.200", "3.5" for "3,5"."""
    if not (_WRITTEN_NUMBER.fullmatch(quoted) and _WRITTEN_NUMBER.fullmatch(source)):
        return False
    code = lang.code if lang is not None else "en"
    a, b = canonical(quoted, code), canonical(source, code)
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


def blocks_of(quote_words: list[str], source_words: list[str]) -> list[tuple[int, int, int, int]]:
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
