"""Folding for matching: case, whitespace, soft hyphens, hyphenation, ligatures, quote and dash
variants. Every fold keeps an offset map, so a match found in folded text is reported in the
source's own characters.

Folding is for comparison only; the cleaned chunk text (what went into the prompt) keeps its case
and punctuation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.clean.characters import LIGATURES
from ingest.offsets import Edit, OffsetMap, apply_edits

QUOTES = dict.fromkeys("‘’‚‛′`´", "'") | dict.fromkeys("“”„‟″«»「」『』", '"')
DASHES = dict.fromkeys("‐‑‒–—―−﹣－", "-")
#: Characters removed outright (soft hyphen, zero-width characters, byte-order mark).
INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"

_CHAR_FOLD: dict[str, str] = {**QUOTES, **DASHES, **LIGATURES}
_SPECIAL = re.compile(
    "[" + re.escape("".join(_CHAR_FOLD)) + INVISIBLE + r"]"
    r"|\s+"  # whitespace runs
    r"|(?<=[^\W\d_])-\s+(?=[^\W\d_])"  # a hyphen split across a line: "re- produce", "re-\nproduce"
)


@dataclass(frozen=True, slots=True)
class Folded:
    text: str
    map: OffsetMap  # folded offsets -> offsets in the text that was folded


def fold(text: str) -> Folded:
    """Case-fold and normalise ``text``; the map takes folded offsets back to ``text``."""
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
        elif (g[0] == "-" and len(g) > 1) or g in INVISIBLE:
            edits.append(Edit(s, e, ""))
        else:
            edits.append(Edit(s, e, _CHAR_FOLD[g]))
    first_text, first_map = apply_edits(text, edits)
    # case folding last; when it keeps the length it is one for one and the map does not change,
    # otherwise character by character ("ß" -> "ss" becomes a block)
    lowered = first_text.casefold()
    if len(lowered) == len(first_text):
        return Folded(lowered, first_map)
    case_edits = [Edit(i, i + 1, ch.casefold()) for i, ch in enumerate(first_text) if ch.casefold() != ch]
    folded_text, case_map = apply_edits(first_text, case_edits)
    return Folded(folded_text, first_map.then(case_map))
