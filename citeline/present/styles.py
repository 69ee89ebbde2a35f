"""How a citation looks, in one table for every presentation: the HTML report and ``serve`` (a CSS
class) and the terminal (a click colour).

* passed: green (``ok`` verified as written; ``fuzzy`` verified with character-level noise);
* nothing to check: amber (``warn``): the sentence cites without a quote, or the quote is too
  short to mean anything;
* failed: red (``fail``): every other citation that did not pass, whether its quote was not found,
  found elsewhere (misattributed), changed (quote_altered), or found with a failing flag (a
  number or a negation the evidence does not back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from citeline.verify.report import CitationResult, Status

Style = Literal["ok", "fuzzy", "warn", "fail"]


@dataclass(frozen=True, slots=True)
class Look:
    css: Style
    colour: str  # a click colour name


LOOKS: dict[Style, Look] = {
    "ok": Look("ok", "green"),
    "fuzzy": Look("fuzzy", "green"),
    "warn": Look("warn", "yellow"),
    "fail": Look("fail", "red"),
}
#: Statuses that leave nothing to check: amber whatever else is true.
UNCHECKED: frozenset[Status] = frozenset({"no_quote", "too_short"})


def style(c: CitationResult) -> Look:
    """The look of one citation (see the module's docstring)."""
    if c.passed:
        return LOOKS["ok" if c.status == "verified" else "fuzzy"]
    return LOOKS["warn" if c.status in UNCHECKED else "fail"]
