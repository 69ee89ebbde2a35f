"""The one sentence splitter: for chunking, for an answer's sentences, and for the evidence around a
quote.

A sentence ends after terminal punctuation (``.!?…`` and their closing quotes and brackets, and a
footnote mark glued to them: ``"… test time.12 Note"``) before a space, or after a Chinese or
Japanese full stop (``。！？``, no space needed). A full stop ends none:

* before a lower-case word (``"U.S. tax"``, ``"e.g. the"``) or between two digits (``"3.5"``);
* after one of the language's abbreviations (``"Fig."``, ``"vgl."``, ``"Mme"``; see
  :attr:`citeline.text.lang.Language.abbreviations`) or a single letter (an initial: ``"J."``);
* after a number of one or two digits before a month (a German ordinal: ``"am 21. Juni"``).

Paragraphs (``"\\n\\n"``) always end sentences; with ``lines``, so does every line break (the lines
of a table or a list are units of their own in a chunk's text).

Offsets are code points into the text, half-open.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from citeline.text.lang import NONE, Language

_TERMINAL = re.compile(r"""(?:[.!?…]+|[。！？]+)["'”’»)\]」』）]*""")  # terminal punctuation plus closers
#: A footnote mark glued to a sentence's end ("… test time.12 Note"): after a letter's (or a closing
#: quote's) full stop only, so a decimal ("3.12 m", "744.00") is none.
_GLUED_MARK = re.compile(r"(?:\d{1,3}|[\u00b9\u00b2\u00b3\u2070-\u2079]+)(?=\s)")
_BEFORE_MARK = re.compile(r"""[^\W\d_]|["'”’»)\]]""")
_CJK_STOPS = "。！？"
_SUPERSCRIPTS = "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079"
_WORD_BEFORE = re.compile(r"([\w.]+)\.$")
_MONTH_AFTER = re.compile(r"[^\W\d_]+")


#: What a sentence never opens with: after a stop and a space, the sentence goes on ("w1, . . . , wn").
_GOES_ON = frozenset(",;:)]}")
#: The rest of a spaced ellipsis, up to what follows it.
_SPACED_DOTS = re.compile(r"(?:\s\.)+\s*")


def is_end(text: str, end: int, limit: int, lang: Language = NONE) -> bool:
    """Whether a sentence ends at ``end`` (just after terminal punctuation, its closers and a glued
    footnote mark), in a paragraph ending at ``limit``."""
    if end >= limit:
        return True
    if text[end - 1] in _CJK_STOPS or (end >= 2 and text[end - 2] in _CJK_STOPS):
        return True
    if not text[end].isspace():
        return False
    nxt = text[end + 1] if end + 1 < limit else ""
    if nxt == ".":
        # a spaced ellipsis: the sentence goes on where what follows it does ("x1, . . . , xn")
        run = _SPACED_DOTS.match(text, end, limit)
        nxt = text[run.end()] if run is not None and run.end() < limit else nxt
    if nxt and (nxt.islower() or nxt in _GOES_ON):
        return False  # (a sentence does not open with a comma)
    stop = end
    while stop > 0 and (
        text[stop - 1].isdigit() or text[stop - 1] in "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079"
    ):
        stop -= 1  # (a glued footnote mark: the stop is before it)
    if text[stop - 1 : stop] == "." or text[end - 1] == ".":
        at = stop if text[stop - 1 : stop] == "." else end
        word = _WORD_BEFORE.search(text, max(0, at - 24), at)
        if word:
            w = word.group(1).casefold()
            if w in lang.abbreviations or (len(w) == 1 and w.isalpha()):
                return False  # "e.g.", "Fig.", an initial like "J."
            if w[-1:].isdigit() and nxt.isdigit():
                return False
            if w.isdigit() and len(w) <= 2 and lang.months:  # an ordinal before a month: "am 21. Juni"
                month = _MONTH_AFTER.match(text, end + 1, min(limit, end + 12))
                if month and month.group().casefold() in lang.months:
                    return False
    return True


def _mark_end(text: str, m: re.Match[str], limit: int) -> int:
    """Where terminal punctuation ends, a footnote mark glued to it included."""
    e = m.end()
    if m.start() > 0 and _BEFORE_MARK.match(text, m.start() - 1) and text[m.start()] in ".!?":
        glued = _GLUED_MARK.match(text, e, limit)
        if glued is not None:
            return glued.end()
    return e


#: An index's or a table of contents' entry: a dot leader and the page numbers after it ("Child tax
#: credits . . . . . 20, 23", "Charity, gifts to ......... 26-27"), before a space or the end.
_LEADER = re.compile(r"(?:\s?\.){3,}\s*\d+(?:[-–]\d+)?(?:,\s*\d+(?:[-–]\d+)?)*(?=\s|$)")


def sentences(
    text: str, start: int, end: int, lang: Language = NONE, *, leaders: bool = False
) -> Iterator[tuple[int, int]]:
    """Sentence spans of ``text[start:end]`` (one paragraph), whitespace between them excluded. With
    ``leaders``, an index entry's dot leader ends no sentence, and its page numbers end the entry
    ("Amended return . . . . 31 | Amount you owe . . . . 25")."""
    spans = [(m.start(), m.end()) for m in _LEADER.finditer(text, start, end)] if leaders else []
    cuts = [b for _, b in spans if b < end]
    for m in _TERMINAL.finditer(text, start, end):
        if spans and any(a <= m.start() < b for a, b in spans):
            continue
        e = _mark_end(text, m, end)
        if is_end(text, e, end, lang):
            cuts.append(e)
    s = start
    for e in sorted(set(cuts)) if spans else cuts:
        if e <= s:
            continue
        yield s, e
        s = e
        while s < end and text[s].isspace():
            s += 1
    if s < end:
        yield s, end


def _breaks(text: str, start: int, end: int, lang: Language, lines: bool) -> Iterator[int]:
    """Where sentences end in ``text[start:end]``: after a sentence's last character, and at line
    (or paragraph) breaks."""
    pos = start
    brk = "\n" if lines else "\n\n"
    while pos < end:
        nl = text.find(brk, pos, end)
        stop = end if nl < 0 else nl
        for _, e in sentences(text, pos, stop, lang):
            yield e
        if nl < 0:
            return
        pos = nl + len(brk)


def bounds(
    text: str, start: int, end: int, lang: Language = NONE, *, lines: bool = True, leaders: bool = False
) -> tuple[int, int]:
    """Where the sentences of ``text`` that ``[start, end)`` touches begin and end (leading
    whitespace left out); ``leaders``: see :func:`sentences`."""
    # look at the paragraphs (lines) around the span only
    brk = "\n" if lines else "\n\n"
    para_start = text.rfind(brk, 0, start)
    para_start = 0 if para_start < 0 else para_start + len(brk)
    para_end = text.find(brk, end)
    para_end = len(text) if para_end < 0 else para_end
    spans = list(sentences(text, para_start, para_end, lang, leaders=leaders))
    s = next((min(a, start) for a, b in spans if b > start), para_start)
    e = next((b for _, b in spans if b >= end), para_end)
    while s < start and text[s].isspace():
        s += 1
    return s, max(e, end)


def ends_one(text: str, start: int, end: int, lang: Language = NONE) -> bool:
    """Whether ``text[start:end]`` holds the end of a sentence (a paragraph break counts)."""
    if "\n\n" in text[start:end]:
        return True
    return any(
        (e := _mark_end(text, m, len(text))) <= end and is_end(text, e, len(text), lang)
        for m in _TERMINAL.finditer(text, start, end)
    )


def ends_at(text: str, pos: int, lang: Language = NONE) -> bool:
    """Whether terminal punctuation right at ``pos`` ends a sentence (``"… 90 days|. Next"``)."""
    m = _TERMINAL.match(text, pos)
    return m is not None and is_end(text, _mark_end(text, m, len(text)), len(text), lang)
