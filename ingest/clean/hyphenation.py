"""Dehyphenation of words split across line breaks, with every decision recorded.

``"ser-\\nvice"`` becomes ``"service"`` (the hyphen and the break are deleted); a true compound keeps
its hyphen and only loses the break (``"third-\\nparty"`` -> ``"third-party"``). Nothing is lost: the
map keeps the deleted characters' positions, and each :class:`Hyphenation` names the original span,
both fragments, the decision and the evidence for it.

Evidence, in order (the first that applies decides):

1. the continuation starts with an upper-case letter or a digit, or the fragment before the hyphen
   ends with a digit: keep (``COVID-\\n19``, ``non-\\nEnglish``);
2. the hyphenated form occurs elsewhere in the document on one line at least as often as the
   joined form: keep;
3. the joined form occurs elsewhere in the document: join;
4. the lexicon of the document's language (:mod:`citeline.text.lexicon`): the joined form
   is a word: join (``docu-\\nmentation``); both parts are words and the joined form is not: keep
   (``automatically-\\ndetected``, ``state-\\nof-the-art``, ``data-\\ndriven``);
5. the fragment before the hyphen is a single letter (``n-\\ntridecanal``, ``x-\\nray``): keep;
6. the fragment before the hyphen is a prefix that conventionally keeps its hyphen
   (:data:`HYPHEN_KEEPING_PREFIXES`): keep;
7. otherwise (a lower-case continuation with no other evidence): join, as typesetters break words.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from citeline.text import lexicon
from citeline.text.offsets import Edit, OffsetMap, apply_edits

#: Prefixes that keep their hyphen in English compounds even without evidence in the document.
HYPHEN_KEEPING_PREFIXES = frozenset({"self", "ex", "all", "well", "quasi", "cross", "half"})

# Possessive quantifiers (``*+``, ``++``): giving back letters of a word can never make these match,
# so the regex engine is told not to try (a third less time on a page of text).
_WORD = r"[^\W\d_](?:[^\W_]+|['’])*+"
# fragment, hyphen, optional spaces, one line or page break, optional spaces, continuation
_SPLIT = re.compile(
    r"(?<![^\W_])(?P<left>[^\W_]++)(?P<hyphen>[-\u2010])[ \t]*(?:\r\n|[\n\r\f])[ \t]*(?P<right>[^\W_]+)"
)
_COMPOUND = re.compile(rf"(?<![\w-])({_WORD}(?:[-\u2010]{_WORD})+)")
_TOKEN = re.compile(_WORD)


@dataclass(frozen=True, slots=True)
class Hyphenation:
    """One line-end hyphen and what was done with it.

    ``start``/``end`` span the hyphen and the line break in the text given to :func:`dehyphenate`
    (the pipeline translates them to raw offsets).
    """

    start: int
    end: int
    left: str
    right: str
    joined: bool
    reason: str

    @property
    def result(self) -> str:
        return self.left + self.right if self.joined else f"{self.left}-{self.right}"


@dataclass(frozen=True, slots=True)
class Dehyphenated:
    text: str
    map: OffsetMap
    decisions: tuple[Hyphenation, ...]


def _vocabulary(text: str) -> tuple[Counter[str], Counter[str]]:
    """Counts of words and of one-line hyphenated compounds, case-folded."""
    folded = text.casefold()  # may change lengths: fine, only the words are counted here
    words = Counter(_TOKEN.findall(folded))
    compounds = Counter(_COMPOUND.findall(folded.replace("\u2010", "-")))
    return words, compounds


def decide(
    left: str, right: str, words: Counter[str], compounds: Counter[str], lang: str | None = None
) -> tuple[bool, str]:
    """Return ``(joined, reason)`` for a split ``left-`` / ``right`` given document counts and, when
    ``lang`` is given, the lexicon of that language."""
    if right[0].isupper() or right[0].isdigit() or left[-1].isdigit():
        return False, "continuation starts with a capital or digit"
    hyphenated = f"{left}-{right}".casefold()
    joined = f"{left}{right}".casefold()
    # the word tokenizer stops at hyphens, so compounds are counted separately; the counts include
    # this occurrence's own fragments only as separate words, never as the forms compared here
    n_hyph, n_join = compounds[hyphenated], words[joined]
    if n_hyph and n_hyph >= n_join:
        return False, f"hyphenated form {hyphenated!r} appears {n_hyph}x elsewhere"
    if n_join:
        return True, f"joined form {joined!r} appears {n_join}x elsewhere"
    if lang is not None:
        judged = lexicon.judge(left, right, lang)
        if judged is not None:
            return judged
    if len(left) == 1:
        return False, "single-letter prefix"
    if left.casefold() in HYPHEN_KEEPING_PREFIXES:
        return False, f"prefix {left.casefold()!r} keeps its hyphen"
    return True, "lower-case continuation"


def dehyphenate(text: str, *, lang: str | None = "auto") -> Dehyphenated:
    """Join words split by a hyphen at a line or page break; keep the hyphen of true compounds.
    ``lang`` is the language of the lexicon consulted (a wordfreq code), ``"auto"`` to detect it
    from the text, ``None`` to decide from the document's own words alone."""
    if not _SPLIT.search(text):
        return Dehyphenated(text, OffsetMap.identity(len(text)), ())
    words, compounds = _vocabulary(text)
    if lang == "auto":
        lang = lexicon.document_language(text)
    edits: list[Edit] = []
    decisions: list[Hyphenation] = []
    pos = 0
    while True:
        m = _SPLIT.search(text, pos)
        if m is None:
            break
        left, right = m.group("left"), m.group("right")
        if not left[-1].isalpha() and not right[0].isalpha():
            pos = m.end("hyphen")  # "2010-\n2015" is a range, not a split word
            continue
        joined, reason = decide(left, right, words, compounds, lang)
        h_start = m.start("hyphen")
        r_start = m.start("right")
        # join: drop hyphen and break; keep: drop only what follows the hyphen
        edits.append(Edit(h_start if joined else m.end("hyphen"), r_start, ""))
        decisions.append(Hyphenation(h_start, r_start, left, right, joined, reason))
        pos = m.start("right")  # the continuation may itself end in a split hyphen
    new_text, new_map = apply_edits(text, edits)
    return Dehyphenated(new_text, new_map, tuple(decisions))
