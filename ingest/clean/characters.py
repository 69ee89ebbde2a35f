"""Character-level transforms: soft hyphens, lone unmapped glyphs, TeX's spacing accents, ligatures,
exotic spaces.

Each is ``(text) -> Transformed`` built on :func:`citeline.text.offsets.apply_edits`.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from citeline.text.offsets import Edit, OffsetMap, apply_edits


class Transformed(NamedTuple):
    """A transform's output: the new text and the map back to the text it was given."""

    text: str
    map: OffsetMap


#: U+FB00..U+FB06, the Latin presentation-form ligatures PDF fonts emit as single glyphs.
LIGATURES: dict[str, str] = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",  # long s + t
    "\ufb06": "st",
}

#: Space characters folded to a plain space, one for one (offsets keep their positions). Not the tab:
#: the layout writes one between table cells, and the whitespace step keeps it there.
SPACES = "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
#: Invisible characters removed outright: zero-width space, word joiner, byte-order mark.
INVISIBLES = "\u200b\u2060\ufeff"

# A soft hyphen, and when it ends a line the line break too (that is what a soft hyphen there means).
_SHY = re.compile("\u00ad(?:[ \\t]*(?:\\r\\n|[\\n\\r\\f]))?")
_LIG = re.compile("[" + "".join(LIGATURES) + "]")
_SPACE = re.compile("[" + SPACES + INVISIBLES + "]")


def remove_soft_hyphens(text: str) -> Transformed:
    """Delete every U+00AD; where one ends a line, also delete that line break (``"ser\\u00ad\\nvice"``
    becomes ``"service"``)."""
    return Transformed(*apply_edits(text, [Edit(m.start(), m.end(), "") for m in _SHY.finditer(text)]))


_UNMAPPED_RUN = re.compile("\ufffd+")


def _lone_symbol(text: str, k: int) -> bool:
    """Whether the single U+FFFD at ``k`` reads as a symbol glyph rather than part of a word: no
    letter beside it, or a digit beside it (a ligature sits between letters, at most one side a
    space or a mark: ``e\ufffdcient``, ``\ufffdow``, ``sta\ufffd.``; a minus or an arrow sits
    between digits, spaces and marks: ``t\ufffd1``, ``a \ufffd! p``). A combining mark counts as
    the letter it sits on (``X̃\ufffd``); a spacing accent right before it stands over it, so the
    glyph is a letter (``¨\ufffd``: dropping it would hand that accent to the next letter)."""
    j = k - 1
    while j >= 0 and unicodedata.combining(text[j]):
        j -= 1
    before = text[j] if j >= 0 else " "
    after = text[k + 1] if k + 1 < len(text) else " "
    if before in SPACING_ACCENTS:
        return False
    if before.isdigit() or after.isdigit():
        return True
    return not (before.isalpha() or after.isalpha())


def drop_lone_unmapped(text: str) -> Transformed:
    """Delete a U+FFFD that stands alone as a symbol glyph: one unmappable glyph with no letter beside
    it, or a digit beside it (a bullet, a proof's box, a check box, a math minus or arrow part) that
    would only put noise in a prompt. One between letters (or at a word's edge) stays: it is most
    likely a ligature, and the matcher reads it as one to three letters. Runs of them (a word in a
    font without a Unicode map) stay, one per glyph, so the gap is visible."""
    edits = [
        Edit(m.start(), m.end(), "")
        for m in _UNMAPPED_RUN.finditer(text)
        if m.end() - m.start() == 1 and _lone_symbol(text, m.start())
    ]
    return Transformed(*apply_edits(text, edits))


#: Spacing accents as TeX-made PDFs draw them: a glyph of its own right before the letter it stands
#: over (``F¨arber``, ``Erd˝os``, ``\"\i`` as ``¨ı``), with the combining mark each stands for. Not
#: the ASCII ``^``, ``~`` and backquote (code, markup); and the acute ``´`` only before a vowel or a
#: ``c``, ``n`` or ``z`` (``Stanojevi´c``): before ``s``, ``t``, ``r``, ``l``, ``m`` it is an apostrophe
#: (``it´s``, ``we´re``), which a font without one draws so.
SPACING_ACCENTS: dict[str, str] = {
    "¨": "\u0308", "´": "\u0301", "ˆ": "\u0302", "˜": "\u0303", "¯": "\u0304",
    "˘": "\u0306", "˙": "\u0307", "˚": "\u030a", "˝": "\u030b", "ˇ": "\u030c", "¸": "\u0327", "˛": "\u0328",
}  # fmt: skip
_ACCENTS = "".join(a for a in SPACING_ACCENTS if a != "´")
#: Accents (two stacked: ``¨˜Z``) and the letter after them.
_ACCENT_LETTER = re.compile(f"[{_ACCENTS}´]*(?:[{_ACCENTS}][^\\W\\d_]|´[aeiouyAEIOUYıcnzCNZ])")
#: TeX puts an accent over a dotless i (``\"\i``, ``\'\i``): the accented letter is the dotted one's.
_DOTLESS = {"ı": "i", "ȷ": "j"}


def compose_accents(text: str) -> Transformed:
    """A spacing accent right before a letter becomes that letter accented: one code point where
    Unicode has it (``F¨arber`` -> ``Färber``, ``Erd˝os`` -> ``Erdős``, ``¨ı`` -> ``ï``), else the letter
    and the combining mark after it (math's ``˜X`` -> ``X̃``, as other readers write it). Each pair is
    one block of its sources (two stacked accents, ``¨˜Z``, go with their letter too)."""
    edits = []
    for m in _ACCENT_LETTER.finditer(text):
        accents, letter = m.group()[:-1], m.group()[-1]
        if letter in LIGATURES:  # no accent stands over two letters
            continue
        marks = "".join(SPACING_ACCENTS[a] for a in accents)
        edits.append(Edit(m.start(), m.end(), unicodedata.normalize("NFC", _DOTLESS.get(letter, letter) + marks)))
    return Transformed(*apply_edits(text, edits))


def expand_ligatures(text: str) -> Transformed:
    """Expand U+FB00..U+FB06 to their letters (``"ﬁ"`` -> ``"fi"``); each becomes a block of one source."""
    return Transformed(
        *apply_edits(text, [Edit(m.start(), m.end(), LIGATURES[m.group()]) for m in _LIG.finditer(text)])
    )


def fold_spaces(text: str) -> Transformed:
    """Fold NBSP, thin and other fixed-width spaces and tabs to ``" "``; drop zero-width characters."""
    edits = [Edit(m.start(), m.end(), "" if m.group() in INVISIBLES else " ") for m in _SPACE.finditer(text)]
    return Transformed(*apply_edits(text, edits))
