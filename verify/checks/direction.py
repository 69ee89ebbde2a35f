"""A check of the direction a claim's own words give against the direction of its evidence: a rise
said of a fall ("The ability declines: "… the ability to monitor … increases""), a higher value
said of a lower one ("lower latency" beside "an increased latency")."""

from __future__ import annotations

import re

from citeline.text.lang import CODES, Language
from citeline.verify.checks import Check, Evidence
from citeline.verify.claims import without

_WORD = re.compile(r"[^\W\d_]+")


def _directions(text: str, lang: Language) -> set[str]:
    """Which directions (``up``, ``down``) the words of ``text`` name."""
    out = set()
    if lang.unspaced:
        if any(w in text for w in lang.up):
            out.add("up")
        if any(w in text for w in lang.down):
            out.add("down")
        return out
    words = {w.lower() for w in _WORD.findall(text)}
    if words & lang.up:
        out.add("up")
    if words & lang.down:
        out.add("down")
    return out


def claim_direction(e: Evidence) -> str | None:
    """The claim's own words name one direction (a rise or a fall, more or less) and the quote's
    sentence only the other."""
    if not e.cit.claim or not e.cit.quote:
        return None
    own = without(without(e.cit.claim, e.cit.other_quotes), (e.cit.quote,))
    said = _directions(own, e.answer)
    found = _directions(e.sentences, e.doc)
    if len(said) != 1 or len(found) != 1 or said == found:
        return None
    return f"the claim says {said.pop()}, the source {found.pop()}"


CHECKS = (
    Check(
        "claim_direction",
        "direction_mismatch",
        frozenset(CODES),
        claim_direction,
        "the claim's own words do not name a rise where the evidence names only a fall, or the reverse",
    ),
)
