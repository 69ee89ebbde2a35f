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
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from ingest.offsets import Normalized
from verify.fold import Folded, fold

#: Minimum fuzzy score (rapidfuzz ``fuzz.ratio`` of quote and aligned span, 0-100) for
#: ``verified_fuzzy``. Calibrated on the labelled set in benchmarks/calibration (see the README):
#: the lowest value that keeps precision at 1.0 there while recall is maximal.
FUZZY_THRESHOLD = 85.0
#: Below this score an alignment is not even "close": the quote is simply not found.
ALTERED_MIN = 70.0
#: Two words are the same word with a typo when their ratio reaches this (and both have 4+ letters).
TYPO_RATIO = 75.0

NEGATIONS = frozenset(
    """
    not no never none nor neither nobody nothing nowhere without cannot can't won't don't doesn't
    didn't isn't aren't wasn't weren't shouldn't wouldn't couldn't mustn't hasn't haven't hadn't
    nicht kein keine keinen keiner nie niemals ne pas jamais aucun aucune sans
    """.split()
)
_REF_MARKER = re.compile(r"^(?:\[\d+(?:\s*[,–-]\s*\d+)*\]|\(\d{1,3}\)|[⁰¹²³⁴⁵⁶⁷⁸⁹]+|\d{1,3}[,.;:]?)$")
_DIGITS = re.compile(r"\d+")
_WORD_START = re.compile(r"(?<![^\W_])[^\W_]|(?<!\S)[^\w\s]")
_WORD_END = re.compile(r"[^\W_](?![^\W_])|[^\w\s](?!\S)")
_PUNCT = re.compile(r"^[^\w\s]$")
# words, bracketed reference markers, and single punctuation marks
_TOKEN = re.compile(r"\[\d+(?:\s*[,–-]\s*\d+)*\]|[^\W_]+|[^\w\s]")


@dataclass(frozen=True, slots=True)
class Difference:
    """One word-level difference between the quote and the aligned source text."""

    kind: str  # typo, reference_marker, spacing, punctuation, substituted, added, removed, number, negation
    quote: str
    source: str

    @property
    def noise(self) -> bool:
        return self.kind in ("typo", "reference_marker", "spacing", "punctuation")

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


def _classify_pair(q: str, s: str) -> Difference:
    if _DIGITS.findall(q) != _DIGITS.findall(s):
        return Difference("number", q, s)
    if _is_negation(q) != _is_negation(s) or (_is_negation(q) and q != s):
        return Difference("negation", q, s)
    if min(len(q), len(s)) >= 4 and fuzz.ratio(q, s) >= TYPO_RATIO:
        return Difference("typo", q, s)
    return Difference("substituted", q, s)


def classify(quote_words: list[str], source_words: list[str]) -> list[Difference]:
    """Word-level differences between two token lists (already folded)."""
    diffs: list[Difference] = []
    for op in Levenshtein.opcodes(quote_words, source_words):
        if op.tag == "equal":
            continue
        q = quote_words[op.src_start : op.src_end]
        s = source_words[op.dest_start : op.dest_end]
        if "".join(q) == "".join(s):
            diffs.append(Difference("spacing", " ".join(q), " ".join(s)))
            continue
        if op.tag == "insert" and all(_REF_MARKER.match(w) for w in s):
            diffs.append(Difference("reference_marker", "", " ".join(s)))
            continue
        if all(_PUNCT.match(w) for w in q + s):
            diffs.append(Difference("punctuation", "".join(q), "".join(s)))
            continue
        if op.tag == "replace" and len(q) == len(s):
            diffs.extend(_classify_pair(a, b) for a, b in zip(q, s, strict=True))
            continue
        joined_q, joined_s = "".join(q), "".join(s)
        if (
            q
            and s
            and _DIGITS.findall(joined_q) == _DIGITS.findall(joined_s)
            and fuzz.ratio(joined_q, joined_s) >= TYPO_RATIO
            and not any(map(_is_negation, q + s))
        ):
            diffs.append(Difference("spacing", " ".join(q), " ".join(s)))  # "fi nd" vs "find", with a typo
            continue
        for w in q:
            kind = "number" if _DIGITS.search(w) else "negation" if _is_negation(w) else "added"
            diffs.append(Difference(kind, w, ""))
        for w in s:
            kind = "number" if _DIGITS.search(w) else "negation" if _is_negation(w) else "removed"
            diffs.append(Difference(kind, "", w))
    return diffs


def _best_span(quote: str, text: str, start: int, end: int) -> tuple[int, int, float]:
    """Around a rough window ``text[start:end]``, the word-aligned span most similar to the quote
    (the rough window has the quote's length; the true span may be longer or shorter). The start is
    chosen first with the end fixed, then the end."""
    slack = max(12, len(quote) // 4)
    lo, hi = max(0, start - slack), min(len(text), start + slack)
    starts = [m.start() for m in _WORD_START.finditer(text, lo, hi)] or [start]
    lo, hi = max(0, end - slack), min(len(text), end + slack)
    ends = [m.end() for m in _WORD_END.finditer(text, lo, hi)] or [end]

    def pick(candidates: list[tuple[int, int]]) -> tuple[int, int, float]:
        best = (start, end, -1.0)
        for s, e in candidates:
            if e <= s:
                continue
            score = fuzz.ratio(quote, text[s:e])
            near = abs(s - start) + abs(e - end) < abs(best[0] - start) + abs(best[1] - end)
            if score > best[2] or (score == best[2] and near):
                best = (s, e, score)
        return best

    s, _, _ = pick([(s, end) for s in starts])
    return pick([(s, e) for e in ends])


def locate(
    quote: str,
    chunk_text: str,
    *,
    folded_chunk: Folded | None = None,
    threshold: float = FUZZY_THRESHOLD,
    altered_min: float = ALTERED_MIN,
) -> Match:
    """Find ``quote`` in ``chunk_text``; spans are reported in ``chunk_text``'s own characters."""
    fq = fold(quote).text
    ft = folded_chunk or fold(chunk_text)
    if not fq or not ft.text:
        return NOT_FOUND
    at = _find_word_aligned(ft.text, fq)
    if at >= 0:
        span = ft.map.to_original(Normalized(at, at + len(fq)))
        return Match("exact", 100.0, span.start, span.end)
    rough = fuzz.partial_ratio_alignment(fq, ft.text, score_cutoff=altered_min * 0.9)
    if rough is None:
        return NOT_FOUND
    if len(fq) <= len(ft.text):
        s, e, score = _best_span(fq, ft.text, rough.dest_start, rough.dest_end)
    else:  # the quote is longer than the chunk: at best the chunk is a part of it
        s, e = 0, len(ft.text)
        score = fuzz.ratio(fq, ft.text)
    candidate = ft.text[s:e]
    score = round(score, 2)
    if score < altered_min:
        return NOT_FOUND
    diffs = tuple(classify(_TOKEN.findall(fq), _TOKEN.findall(candidate)))
    span = ft.map.to_original(Normalized(s, e))
    if score >= threshold and all(d.noise for d in diffs):
        return Match("fuzzy", score, span.start, span.end, diffs)
    return Match("altered", score, span.start, span.end, diffs)


def _find_word_aligned(haystack: str, needle: str) -> int:
    """First occurrence that starts and ends on word boundaries, else the first occurrence."""
    first = at = haystack.find(needle)
    while at >= 0:
        before_ok = at == 0 or not (haystack[at - 1].isalnum() and needle[0].isalnum())
        after = at + len(needle)
        after_ok = after == len(haystack) or not (haystack[after].isalnum() and needle[-1].isalnum())
        if before_ok and after_ok:
            return at
        at = haystack.find(needle, at + 1)
    return first


def drift(chunk_text: str, match: Match, quote: str) -> str:
    """The source's own text of a match, with the words that differ from the quote marked
    ⟦like this⟧ (noise such as typos and reference markers is not marked)."""
    s, e = match.start, match.end
    source = chunk_text[s:e]
    tokens = [(m.start(), m.end(), fold(m.group()).text) for m in _TOKEN.finditer(source)]
    quote_words = _TOKEN.findall(fold(quote).text)
    source_words = [t[2] for t in tokens]
    marked: set[int] = set()
    for op in Levenshtein.opcodes(quote_words, source_words):
        if op.tag == "equal" or op.dest_start == op.dest_end:
            continue
        diffs = classify(quote_words[op.src_start : op.src_end], source_words[op.dest_start : op.dest_end])
        if any(not d.noise for d in diffs):
            marked.update(range(op.dest_start, op.dest_end))
    out, pos = [], 0
    for i, (a, b, _) in enumerate(tokens):
        if i in marked:
            out.append(source[pos:a] + "⟦" + source[a:b] + "⟧")
            pos = b
    out.append(source[pos:])
    return "".join(out).replace("⟧⟦", "")
