"""Which answer sentences assert something (and so need a citation).

Every sentence of three words or more asserts (in Chinese or Japanese, a word per two characters),
but framing: a question, a line ending with a colon
(a lead-in to a list), the model talking about its answer or its sources ("Here is a summary.",
"I could not find ...", "Let me know ..."), and offers or courtesies ("If you have more
questions, ...", "Hope this helps!"). A lead-in is left out before judging what follows it: "In
short, claims are not reimbursed after 90 days." and "According to the sources, the plan covers
dental care." assert. Counting a sentence of fact that a narrow verb list misses ("Part-time staff
qualify for the plan.") as not asserting would let an answer pass ``--min-coverage`` with that
claim uncited.
"""

from __future__ import annotations

import re

from citeline.text.scripts import count_words

_SOURCES = r"(?:the )?(?:provided |given |retrieved |cited )?(?:sources?|documents?|context|excerpts?|handbook)"
#: words that lead into what the sentence says, left out before judging it
_LEAD_IN = re.compile(
    r"^(?:in (?:summary|short|conclusion|brief)|to (?:summari[sz]e|conclude|sum up)|overall|sure|certainly|"
    rf"of course|yes|no|(?:based on|according to|from|per|in) {_SOURCES})\s*[,:!.—–-]\s*",
    re.IGNORECASE,
)
_FRAMING = re.compile(
    r"^(?:here(?:'s|’s| is| are)|great question|good question|happy to help|(?:i )?hope (?:this|that) helps|"
    r"let me|feel free|please (?:let|ask|reach)|if you (?:have|need|want|would like)|"
    r"for (?:more|further) (?:details|information)|the following|below|"
    r"i (?:could not|couldn't|cannot|can't|did not|didn't) find|"
    rf"{_SOURCES} (?:do|does|did) not (?:say|mention|contain|cover|address|include|specify))\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_MARKER = re.compile(r"[\[［][^\]］]*[\]］]|【[^】]*】")


def is_asserting(sentence: str) -> bool:
    text = _MARKER.sub(" ", sentence).strip().strip("*_ ")
    while (lead := _LEAD_IN.match(text)) is not None:
        text = text[lead.end() :]
    if not text or text.endswith(("?", ":")) or _FRAMING.match(text):
        return False
    return count_words(_WORD.findall(text)) >= 3  # (a Chinese sentence: a word per two characters)
