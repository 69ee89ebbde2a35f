"""Folding for matching: case, whitespace, soft hyphens, hyphenation, ligatures, quote and dash
variants, full-width forms, mathematical letters (𝛽 is β). Every fold keeps an offset map, so a
match found in folded text is reported in the source's own characters.

``(cid:N)`` (a glyph pdfminer could not map to Unicode) folds to one U+FFFD.

Folding is for comparison only; the cleaned chunk text (what went into the prompt) keeps its case
and punctuation.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from citeline.ingest.clean.characters import LIGATURES
from citeline.ingest.clean.characters import SPACING_ACCENTS as CLEANER_ACCENTS
from citeline.text.offsets import Edit, OffsetMap, apply_edits

QUOTES = dict.fromkeys("‘’‚‛′`´", "'") | dict.fromkeys("“”„‟″«»「」『』", '"')
# hyphens fold to "-", dashes to "—", kept apart so that only a hyphen can be a line-split hyphen
DASHES = dict.fromkeys("‐‑‒", "-") | dict.fromkeys("–—―−﹣－", "—")
#: What an unmapped glyph folds to: one unknown character, which a fuzzy match counts as a typo.
UNMAPPED = "\ufffd"
#: Characters removed outright (soft hyphen, zero-width characters, byte-order mark).
INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"

#: Full-width forms of ASCII (digits, letters, punctuation in Chinese and Japanese text): "２７２，７００"
#: is "272,700".
FULLWIDTH = {chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}

#: Letters and digits of mathematical typesetting (LaTeX's math italic 𝛽, 𝑝; bold 𝐱) and the symbols
#: that stand for Greek letters (∆ increment, ∑, ∏, Ω ohm, µ micro): the plain letters a model writes.
MATH_LETTERS = {
    ch: plain
    for ch, plain in ((chr(c), unicodedata.normalize("NFKC", chr(c))) for c in range(0x1D400, 0x1D800))
    if len(plain) == 1 and plain != ch
} | {"∆": "Δ", "∑": "Σ", "∏": "Π", "\u2126": "Ω", "µ": "μ"}

#: Spacing accents as TeX-made PDFs draw them, a glyph of their own before the letter ("Erd˝os",
#: "F¨arber"): with the letter after them, one accented letter ("Erdős"). The cleaner composes them
#: in stored text; a quote copied from another reader may still hold them, and the grave's ASCII
#: look-alike too. The acute and grave, which also stand for apostrophes ("it´s"), only over a vowel.
SPACING_ACCENTS = {**CLEANER_ACCENTS, "`": "\u0300"}

#: Combining marks (diacritics, kana voicing marks): after a letter, composed with it as NFC has it
#: ("R" + U+030C is "Ř"), the form text copied from pdftotext, macOS or some PDF viewers is not in.
COMBINING = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\u3099\u309a\ufe20-\ufe2f"

_CHAR_FOLD: dict[str, str] = {**FULLWIDTH, **QUOTES, **DASHES, **LIGATURES, **MATH_LETTERS}
_INVISIBLE = re.compile("[" + INVISIBLE + "]")
_COMBINING = re.compile("[" + COMBINING + "]")
_COMPOSABLE = re.compile("[^\\W\\d_][" + COMBINING + "]+")
_SPECIAL = re.compile(
    r"\(cid:\d+\)"  # pdfminer's name for a glyph without a Unicode mapping
    # a spacing accent and the letter it stands over (the acute and grave only over a vowel)
    + "|["
    + "".join(a for a in SPACING_ACCENTS if a not in "´`")
    + "][^\\W\\d_]|[´`][aeiouyAEIOUY]"
    # (the mathematical letters as their block's range: a class of a thousand single characters
    # costs every fold twice the time)
    "|[" + re.escape("".join(k for k in _CHAR_FOLD if len(k) == 1 and k < "\U0001d400")) + "\U0001d400-\U0001d7ff]"
    # whitespace that folding changes: a run of several, one that is not a plain space (single spaces
    # between words, nearly all of a text's whitespace, are left alone unvisited; a single space at
    # either end is trimmed afterwards)
    r"| \s+|[^\S ]\s*"
    # a hyphen split across a line ("re- produce", "re-\nproduce"), not across a paragraph break:
    # "per-\n\nH" is a hyphen the cleaner kept before something else (a heading, a margin letter).
    # Every alternative starts with a character test, which the regex engine rejects fastest: the
    # letter before the hyphen is looked at after it.
    # (a letter with a combining mark after it, composed only later, is a letter here too)
    r"|-(?:(?<=[^\W\d_]-)|(?<=[" + COMBINING + r"]-))(?:[^\S\n]*\n[^\S\n]*|[^\S\n]+)(?=[^\W\d_])"
)


@dataclass(frozen=True, slots=True)
class Folded:
    text: str
    map: OffsetMap  # folded offsets -> offsets in the text that was folded


def fold(text: str) -> Folded:
    """Case-fold and normalise ``text``; the map takes folded offsets back to ``text``."""
    # invisible characters go first, so the rules below see the text as it reads; letters and the
    # combining marks after them are composed before the rules (which look for letters) and again
    # after them (a ligature spelled out, a case folded: "ﬁ" and an acute are "fí")
    if _INVISIBLE.search(text) is None:
        if text.isascii() or _COMBINING.search(text) is None:  # nearly every text
            return _composed(_fold_visible(text))
        visible = _composed(Folded(text, OffsetMap.identity(len(text))))
    else:
        edits = [Edit(m.start(), m.end(), "") for m in _INVISIBLE.finditer(text)]
        visible = _composed(Folded(*apply_edits(text, edits)))
    folded = _fold_visible(visible.text)
    return _composed(Folded(folded.text, visible.map.then(folded.map)))


def _composed(folded: Folded) -> Folded:
    """``folded`` with each letter and the combining marks after it as NFC composes them (rare: one
    search decides)."""
    if folded.text.isascii() or _COMBINING.search(folded.text) is None:
        return folded
    edits = []
    for m in _COMPOSABLE.finditer(folded.text):
        composed = unicodedata.normalize("NFC", m.group())
        if composed != m.group():
            edits.append(Edit(m.start(), m.end(), composed))
    if not edits:
        return folded
    composed_text, composed_map = apply_edits(folded.text, edits)
    return Folded(composed_text, folded.map.then(composed_map))


def _fold_visible(text: str) -> Folded:
    edits: list[Edit] = []
    for m in _SPECIAL.finditer(text):
        s, e = m.span()
        g = m.group()
        if g[0].isspace():
            if s == 0 or e == len(text):
                edits.append(Edit(s, e, ""))
            elif g != " ":
                edits.append(Edit(s, s + 1, " "))
                if e > s + 1:
                    edits.append(Edit(s + 1, e, ""))
        elif g[0] == "-" and len(g) > 1:
            edits.append(Edit(s, e, ""))
        elif g.startswith("(cid:"):
            edits.append(Edit(s, e, UNMAPPED))
        elif len(g) == 2 and g[0] in SPACING_ACCENTS:
            letter = unicodedata.normalize("NFC", g[1] + SPACING_ACCENTS[g[0]])
            # (a pair without a composed letter, "¨x", is left as it is written)
            edits.append(Edit(s, e, letter if len(letter) == 1 else _CHAR_FOLD.get(g[0], g[0]) + g[1]))
        elif g in _CHAR_FOLD:  # (not the block's few code points without a plain letter)
            edits.append(Edit(s, e, _CHAR_FOLD[g]))
    first_text, first_map = apply_edits(text, edits)
    # a single space at an edge (or one that ends up there once invisible characters next to it are
    # gone: "a \u00ad")
    if first_text[:1] == " " or first_text[-1:] == " ":
        trim = [Edit(0, 1, "")] if first_text[:1] == " " else []
        if first_text[-1:] == " " and len(first_text) > len(trim):
            trim.append(Edit(len(first_text) - 1, len(first_text), ""))
        first_text, trim_map = apply_edits(first_text, trim)
        first_map = first_map.then(trim_map)
    # case folding last; when it keeps the length it is one for one and the map does not change,
    # otherwise character by character ("ß" -> "ss" becomes a block)
    lowered = first_text.casefold()
    if len(lowered) == len(first_text):
        return Folded(lowered, first_map)
    case_edits = [Edit(i, i + 1, ch.casefold()) for i, ch in enumerate(first_text) if ch.casefold() != ch]
    folded_text, case_map = apply_edits(first_text, case_edits)
    return Folded(folded_text, first_map.then(case_map))
