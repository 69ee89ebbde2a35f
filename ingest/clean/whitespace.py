"""Whitespace normalisation: lines of a paragraph joined with one space, paragraph breaks kept as one
blank line, runs collapsed, the ends trimmed.

* a whitespace run holding a blank line (two line breaks) or U+2029 is a paragraph break: ``"\\n\\n"``;
* a page break (``"\\f"``) is a paragraph break after sentence-final punctuation and a line break
  otherwise, so a sentence running over a page joins up again;
* table rows stay rows: a line break next to a line holding a tab (the layout separates table cells
  with tabs) stays a line break, and a run of spaces holding a tab stays that tab;
* any other run becomes one space, except a line break between two CJK characters, which is removed
  (Chinese and Japanese wrap lines without spaces);
* runs at the start and the end of the text are removed.

Kept characters stay aligned (a ``"\\n"`` that becomes ``" "`` is a 1:1 substitution), so the map
stays small and every cleaned space points at a real source character.
"""

from __future__ import annotations

import re

from citeline.ingest.clean.characters import Transformed
from citeline.text.offsets import Edit, apply_edits
from citeline.text.scripts import is_cjk

# runs that need work: two or more whitespace characters, one that is not a plain space, or a
# single space at either end of the text
_RUN = re.compile(r"\s{2,}|[^\S ]|\A | \Z")
_BREAKS = re.compile(r"\r\n|[\n\r\u2028\x0b\x1c\x1d\x1e\x85]")
_SENTENCE_END = frozenset(".!?:;。！？…")
_CLOSERS = frozenset("\"'”’»)]」』）")

PARAGRAPH = "\n\n"


def _ends_sentence(text: str, end: int) -> bool:
    i = end - 1
    while i >= 0 and text[i] in _CLOSERS:
        i -= 1
    return i >= 0 and text[i] in _SENTENCE_END


def _target(text: str, s: int, e: int, tabs: bool) -> str:
    if s == 0 or e == len(text):
        return ""
    run = text[s:e]
    if "\u2029" in run or len(_BREAKS.findall(run)) >= 2:
        return PARAGRAPH
    if "\f" in run and _ends_sentence(text, s):
        return PARAGRAPH
    broken = "\f" in run or _BREAKS.search(run) is not None
    if broken and is_cjk(text[s - 1]) and is_cjk(text[e]):
        return ""
    if tabs:
        if broken and _next_to_row(text, s, e):
            return "\n"
        if not broken and "\t" in run:
            return "\t"
    return " "


def _next_to_row(text: str, s: int, e: int) -> bool:
    """Whether the line ending at ``s`` or the line starting at ``e`` is a table row (holds a tab)."""
    before = max(text.rfind("\n", 0, s), text.rfind("\f", 0, s)) + 1
    after = len(text)
    for sep in ("\n", "\f"):
        k = text.find(sep, e)
        if 0 <= k < after:
            after = k
    return "\t" in text[before:s] or "\t" in text[e:after]


def _edits_for_run(text: str, s: int, e: int, target: str) -> list[Edit]:
    run = text[s:e]
    if run == target:
        return []
    if not target:
        return [Edit(s, e, "")]
    if target in ("\t", "\n") and target in run:  # keep that very character, drop the rest
        k = run.index(target)
        kept = [Edit(s, s + k, "")] if k else []
        return kept + ([Edit(s + k + 1, e, "")] if s + k + 1 < e else [])
    if len(run) < len(target):  # a lone "\f" becoming a paragraph break
        return [Edit(s, e, target)]
    edits = [Edit(s + i, s + i + 1, ch) for i, ch in enumerate(target) if run[i] != ch]
    if len(run) > len(target):
        edits.append(Edit(s + len(target), e, ""))
    return edits


def normalize_whitespace(text: str) -> Transformed:
    """Collapse whitespace as described in the module docstring."""
    edits: list[Edit] = []
    tabs = "\t" in text
    for m in _RUN.finditer(text):
        s, e = m.span()
        edits.extend(_edits_for_run(text, s, e, _target(text, s, e, tabs)))
    return Transformed(*apply_edits(text, edits))
