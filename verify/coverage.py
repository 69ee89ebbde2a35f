"""Which answer sentences assert something (and so need a citation).

A sentence asserts when it states a fact: it holds a number, a name (a capitalised word that does not
start the sentence), or a finite verb from a small list / an ``-ed`` form, and it is not framing
("Here is a summary:", "In short,", a question, a line ending with a colon).
"""

from __future__ import annotations

import re

_FRAMING = re.compile(
    r"^(?:here (?:is|are)|in (?:summary|short|conclusion)|to (?:summari[sz]e|conclude)|overall|sure|certainly|"
    r"of course|i hope|let me know|the following|below|based on the (?:provided )?(?:sources|documents|context)|"
    r"according to the (?:provided )?(?:sources|documents|context)|i (?:could not|cannot|can't) find|"
    r"(?:the )?(?:sources|documents|context) (?:do|does) not)\b",
    re.IGNORECASE,
)
_VERBS = frozenset(
    """
    is are was were be been being has have had do does did can could may might must shall should will
    would says said states stated shows showed found finds reports reported requires required covers
    covered includes included provides provided allows allowed applies applied takes took gives gave
    makes made uses used means increases increased decreases decreased reduces reduced causes caused
    ist sind war waren hat haben wird werden est sont était ont a
    """.split()
)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_MARKER = re.compile(r"\[[^\]]*\]|【[^】]*】")


def is_asserting(sentence: str) -> bool:
    text = _MARKER.sub(" ", sentence).strip()
    if not text or text.endswith(("?", ":")) or _FRAMING.match(text):
        return False
    words = _WORD.findall(text)
    if len(words) < 3:
        return False
    if re.search(r"\d", text):
        return True
    if any(w[0].isupper() for w in words[1:]):
        return True
    return any(w.lower() in _VERBS or (len(w) > 4 and w.lower().endswith("ed")) for w in words)
