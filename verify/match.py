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
from collections.abc import Callable
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import ScoreAlignment

from citeline.text import lang as language
from citeline.text.lang import Language
from citeline.text.lexicon import document_language
from citeline.text.offsets import Normalized
from citeline.text.scripts import CJK_LETTERS, is_cjk
from citeline.verify.classify import NOISE_KINDS, Difference, blocks_of, classify
from citeline.verify.fold import UNMAPPED, Folded, fold

#: Minimum fuzzy score (rapidfuzz ``fuzz.ratio`` of quote and aligned span, 0-100) for
#: ``verified_fuzzy``. Calibrated on the labelled set built by benchmarks/calibration (1,764 pairs:
#: real QuoteSum quotes, perturbed quotes from ../shared/corpus and the fixtures): from 85 up to 90
#: precision is highest (0.996) with recall 1.0; at 95 recall starts to drop. The word-level rules
#: decide most cases; the score keeps long, heavily garbled alignments out.
FUZZY_THRESHOLD = 85.0
#: Below this score an alignment is not even "close": the quote is simply not found.
ALTERED_MIN = 70.0
#: The kinds of word difference a fuzzy match may have: character-level noise (see
#: :class:`citeline.verify.classify.Difference`); a number, a negation, a symbol, or a word
#: substituted, added or removed makes a quote altered.
NOISE = NOISE_KINDS
# (a letter after a hyphen inside a compound starts no word: "network" in "out-of-network")
_WORD_START = re.compile(rf"[{CJK_LETTERS}]|(?<![^\W_])(?<![^\W\d_]-)[^\W_]|(?<!\S)[^\w\s]")
_WORD_END = re.compile(rf"[{CJK_LETTERS}]|[^\W_](?![^\W_])(?!-[^\W\d_])|[^\w\s](?!\S)")
# words (an unmapped glyph U+FFFD counts as a letter), single CJK characters (scripts without
# spaces: each character is compared as a word), bracketed reference markers, single punctuation marks
_TOKEN = re.compile(rf"(?:[^\W_{CJK_LETTERS}]|\ufffd)+|[{CJK_LETTERS}]|\[\d+(?:\s*[,–-]\s*\d+)*\]|[^\w\s]")
# the same for text without U+FFFD (nearly all): a word is then a plain character run, which the
# regex engine matches nearly twice as fast
_TOKEN_PLAIN = re.compile(rf"[^\W_{CJK_LETTERS}]+|[{CJK_LETTERS}]|\[\d+(?:\s*[,–-]\s*\d+)*\]|[^\w\s]")


def _token_re(text: str) -> re.Pattern[str]:
    return _TOKEN if UNMAPPED in text else _TOKEN_PLAIN


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
    lang: Language | str | None = None,
    rough: ScoreAlignment | None = None,
    noise: frozenset[str] = NOISE,
) -> Match:
    """Find ``quote`` in ``chunk_text``; spans are reported in ``chunk_text``'s own characters.

    ``folded_chunk`` and ``folded_quote`` are ``fold(chunk_text)`` and ``fold(quote).text`` when the
    caller has them already. ``vocabulary`` is the set of folded words of the document the chunk
    belongs to, or a function giving it (called only when a fuzzy match needs it); default: the
    chunk's own words. ``lang`` is the document's language (see :func:`classify`; a code is read as
    :func:`citeline.text.lang.of` reads it), by default the one the chunk's words say.

    ``memo`` keeps fuzzy alignments by the folded text around them, so a passage repeated in many
    chunks (overlapping chunks, boilerplate) is worked out once: give one memo to calls with the
    same vocabulary only. ``rough`` is ``fuzz.partial_ratio_alignment(folded_quote, folded_chunk)``
    when the caller has screened chunks with it already (at a cutoff of at least
    ``altered_min * 0.9``). ``noise`` are the kinds of difference a fuzzy match may have (see
    :data:`NOISE`)."""
    if not isinstance(lang, Language):
        lang = language.of(lang if lang is not None else document_language(chunk_text))
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
        key = (
            fq,
            window,
            base > 0,
            rough.dest_start - base,
            rough.dest_end - base,
            threshold,
            altered_min,
            lang,
            noise,
        )
        known = memo.get(key)
        folded = None if known is None else _shifted(known, base)
    if folded is None:
        if len(fq) <= len(ft.text):
            s, e, _ = _best_span(fq, ft.text, rough.dest_start, rough.dest_end)
        else:  # the quote is longer than the chunk: at best the chunk is a part of it
            s, e = 0, len(ft.text)
        folded = _classified(fq, ft, s, e, vocabulary, threshold, altered_min, lang, noise)
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
    lang: Language | None = None,
    noise: frozenset[str] = NOISE,
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
    kind = "fuzzy" if score >= threshold and all(d.kind in noise for d in diffs) else "altered"
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
    blocks = blocks_of(quote_words, words)
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
    for qs, qe, ss, se in blocks_of(quote_words, source_words):
        if ss < se and any(not d.noise for d in classify(quote_words[qs:qe], source_words[ss:se])):
            marked.update(range(ss, se))
    out, pos = [], 0
    for i in sorted(marked):
        span = folded.map.to_original(Normalized(found[i].start(), found[i].end()))
        out.append(source[pos : span.start] + "⟦" + source[span.start : span.end] + "⟧")
        pos = span.end
    out.append(source[pos:])
    return "".join(out).replace("⟧⟦", "")
