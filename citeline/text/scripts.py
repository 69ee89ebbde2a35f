"""Which characters belong to scripts written without spaces between words (Han, kana), and
Hangul syllables (Korean, which breaks lines inside words).

Shared by extraction (a narrow gap next to a CJK glyph is no space), cleaning (a line break between
two CJK characters is removed) and chunking; it depends on nothing else in citeline.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

#: Kana and Han (with the supplementary ideograph planes) as a regex character range: the letters
#: of scripts written without spaces between words. :func:`is_cjk` adds CJK punctuation and
#: full-width forms.
CJK_LETTERS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"


#: Characters per word in scripts written without spaces (Chinese, Japanese): what a run of them
#: counts as words (the layout telling a column of text from a table's cells, verify's length gate).
CJK_CHARS_PER_WORD = 2

#: The characters :func:`is_cjk` accepts, as a regex character range (to count them in C).
CJK_CHARS = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f"


_CJK_RUN = re.compile(f"[{CJK_CHARS}]")


def count_words(words: Iterable[str]) -> int:
    """How many words ``words`` (runs of letters, as a regex found them) hold: in scripts written
    without spaces (Chinese, Japanese), a word for every :data:`CJK_CHARS_PER_WORD` characters, not
    one for the whole run."""
    n = 0
    for w in words:
        cjk = len(_CJK_RUN.findall(w))
        n += (cjk + 1) // CJK_CHARS_PER_WORD + (1 if cjk < len(w) else 0) if cjk else 1
    return n


def is_cjk(ch: str) -> bool:
    """Han, kana and CJK punctuation: scripts written without spaces between words."""
    o = ord(ch)
    return (
        0x3000 <= o <= 0x30FF  # CJK punctuation, hiragana, katakana
        or 0x3400 <= o <= 0x4DBF
        or 0x4E00 <= o <= 0x9FFF
        or 0xF900 <= o <= 0xFAFF
        or 0xFF00 <= o <= 0xFFEF  # full-width forms
        or 0x20000 <= o <= 0x2FA1F
    )


#: Hangul syllables as a regex character range: Korean writes spaces between words, but breaks a
#: line inside one without a hyphen, and each syllable is a morpheme.
HANGUL_SYLLABLES = "\uac00-\ud7af"


def is_hangul(ch: str) -> bool:
    """A Hangul syllable (:data:`HANGUL_SYLLABLES`)."""
    return "\uac00" <= ch <= "\ud7af"


#: Blocks that hold every letter :func:`is_rtl` accepts (and some that it does not): text without
#: any of these has no right-to-left run, which a regex tells in C.
MAYBE_RTL = re.compile("[\u0590-\u08ff\u200f\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff]")


def is_rtl(ch: str) -> bool:
    """A letter of a script written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko...)."""
    return ch >= "\u0590" and unicodedata.bidirectional(ch) in ("R", "AL")
