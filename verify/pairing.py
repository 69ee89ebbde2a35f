"""Which quoted span of an answer's sentence goes with which markers, and the claim each quote
supports (its clause); the answer's language, which its claims' own words are read in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from citeline.text import lang as language
from citeline.text.lang import Language
from citeline.text.lexicon import function_words, told_language
from citeline.verify.claims import clause_break
from citeline.verify.markers import QUOTED, ends_quote, marker_groups, strip_markers

_WORD_IN = re.compile(r"[^\W\d_]{2,}|\d")
_BRACKETS = re.compile(r"\[[^\]]*\]")
#: Two words: a dash before them opens a clause of its own, not the lead into a quote.
_WORDS_AFTER = re.compile(r"[^\W_]+\W+[^\W_]+")


@dataclass(frozen=True, slots=True)
class Pairing:
    """A quoted span of an answer sentence and the markers that cite it (see :func:`pair`).

    Offsets are in the sentence text. ``clause`` is the span of the claim the quote supports: from
    the end of the previous pairing (or the sentence start) to this one's marker."""

    markers: tuple[str, ...]
    quote: str | None
    quote_span: tuple[int, int] | None
    clause: tuple[int, int]
    #: the pages a one-marker list pinpoints (``[S1, p. 3]``), 1-based inclusive
    pages: tuple[int, int] | None = None
    #: the span of the sentence's clauses before the claim that no marker cites ("The desk replies
    #: within three business days;" before "it "answers …" [S2]"), when a clause break set them off
    uncited: tuple[int, int] | None = None


def answer_language(answer: str) -> Language:
    """The language an answer is written in, its quotes left out (its claims' own words are read with
    this language's words; the quotes with the cited document's: an English answer may quote a
    Chinese report at length); where its own words are too few to tell, the whole answer's if it is
    one of the languages read here (:data:`citeline.text.lang.CODES`) and its own words hold no
    English function word ("The meeting opens at 5 p.m. ("La séance est ouverte à 16h00")" is
    English), else English."""
    own = QUOTED.sub(" ", answer)
    told = told_language(own)
    if told is None:
        whole = told_language(answer)
        told = whole if whole in language.CODES and not function_words(own, "en") else "en"
    return language.of(told)


def pair(text: str, names: tuple[str, ...] = (), *, whole: bool = False, lang: Language | None = None) -> list[Pairing]:
    """Which quoted span of a sentence goes with which markers. The rules, in order, for each quote:

    0. the marker list that ends its text inside the quote marks (``"A [S1]"``);
    1. the marker list that follows it, before the next quote (``"A" [S1] and "B" [S2]``);
    2. else the marker list just before it, after the previous quote (``[S1] says "A"``);
    3. else the first marker list after it, then the last one before it (``"A" and "B" [S1]``:
       both quotes cite S1).

    A marker list (``[S1][S2]``, ``[S1, S2]``, ``[S1] and [S2]``) cites the quote with each of its
    markers. Each marker of a list no quote went to is a citation without a quote. Never every quote
    with every marker. The result is in the order of the sentence. ``names``: the injected markers
    (see :func:`syntax`). With ``whole`` (a block quote), a sentence without quote marks quotes
    itself: its text before the markers that end it. ``lang``: the answer's language, whose
    conjunctions after a comma open a clause of its own (by default, the sentence's own)."""
    breaks = clause_break(lang or answer_language(text))
    quotes = [(m.start(), m.end(), next(g for g in m.groups() if g is not None).strip()) for m in QUOTED.finditer(text)]
    groups = marker_groups(text, names)
    if whole and not quotes and groups:
        body = len(text.rstrip(" .;:"))
        for gs, ge, _, _ in reversed(groups):  # the marker lists that end the text
            if ge < body and text[ge:body].strip(" .;:,"):
                break
            body = gs
        quoted = strip_markers(text[:body], names).strip(" ,;:")
        if quoted:
            quotes = [(0, len(text[:body].rstrip()), quoted)]
    out: list[tuple[int, int, Pairing]] = []  # (span start, span end, pairing)
    used: set[int] = set()
    for i, (qs, qe, quote) in enumerate(quotes):
        next_q = quotes[i + 1][0] if i + 1 < len(quotes) else len(text)
        prev_q = quotes[i - 1][1] if i > 0 else 0
        # 0. the marker list that ends the quoted text, inside its quote marks ("… 90 days [S1]")
        choice = next((k for k, g in enumerate(groups) if qs < g[0] and g[1] < qe and ends_quote(text, g[1], qe)), None)
        if choice is not None:
            quote = strip_markers(text[qs + 1 : groups[choice][0]], names).strip(" ,;:")
        if choice is None:
            # (not a list that opens the next clause, before the next quote: "[S3] adds that "B"")
            choice = next(
                (
                    k
                    for k, g in enumerate(groups)
                    if qe <= g[0] < next_q and not _opens_clause(text, qe, g, next_q, breaks)
                ),
                None,
            )
        if choice is None:
            choice = next(
                (k for k in range(len(groups) - 1, -1, -1) if prev_q <= groups[k][0] and groups[k][1] <= qs), None
            )
        if choice is None:
            choice = next((k for k, g in enumerate(groups) if g[0] >= qe), None)
        if choice is None:
            choice = next((k for k in range(len(groups) - 1, -1, -1) if groups[k][1] <= qs), None)
        if choice is None:
            continue  # a quote nothing cites
        used.add(choice)
        gs, ge, listed, pages = groups[choice]
        out.append((min(qs, gs), max(qe, ge), Pairing(listed, quote, (qs, qe), (0, 0), pages)))
    for k, (gs, ge, listed, _) in enumerate(groups):
        if k not in used:  # each marker of a list no quote went to cites without a quote
            out.extend((gs, ge, Pairing((name,), None, None, (0, 0))) for name in listed)
    out.sort(key=lambda t: (t[0], t[1]))
    result: list[Pairing] = []
    clause_start = 0
    for start, end, p in out:
        # a pairing that starts before the previous one ended (two quotes citing one marker list)
        # shares its clause start; else its clause starts after the last clause break before it
        # (an uncited clause before "; instead" is not this quote's claim)
        uncited = None
        if start >= clause_start:
            # (a colon or a dash right before the quote leads into it: what stands before it is the
            # claim's too; a dash with words of a new clause after it breaks: "Benefits start when
            # an employee cannot … — the plan then pays "…"")
            ends = [
                m.end()
                for m in breaks.finditer(text, clause_start, start)
                if m.group()[0] in ";," or (m.group().strip() in "—–" and _WORDS_AFTER.search(text, m.end(), start))
            ]
            begin = ends[-1] if ends else clause_start
            uncited = (clause_start, begin) if begin > clause_start else None
        else:
            begin = min(start, clause_start)
        result.append(Pairing(p.markers, p.quote, p.quote_span, (begin, end), p.pages, uncited))
        clause_start = max(clause_start, end)
    if result and result[-1].quote is not None:
        # what the sentence goes on to say after its last marker is the last claim's too ("… [S2], i.e.
        # 102,100 arrests in total", "… [S3], so roughly one in ten failed")
        last = result[-1]
        tail = text[last.clause[1] :].rstrip(" .;:!?。")
        if _WORD_IN.search(_BRACKETS.sub(" ", tail)):  # (not a bracket alone: "[sic]", "[emphasis added]")
            result[-1] = Pairing(
                last.markers,
                last.quote,
                last.quote_span,
                (last.clause[0], len(tail) + last.clause[1]),
                last.pages,
                last.uncited,
            )
    return result


def _opens_clause(
    text: str, quote_end: int, group: tuple[int, int, Any, Any], next_quote: int, breaks: re.Pattern[str]
) -> bool:
    """A marker list after a clause break that the next quote follows in the same clause: it is
    that quote's ("… "A", while [S3] adds that "B""), not the one before."""
    gs, ge = group[0], group[1]
    return (
        next_quote < len(text)
        and breaks.search(text, quote_end, gs) is not None
        and breaks.search(text, ge, next_quote) is None
    )


def uncited_text(sentence: str, pairing: Pairing, names: tuple[str, ...] = ()) -> str | None:
    """The sentence's uncited clauses before a pairing's claim, markers dropped (see :class:`Pairing`)."""
    if pairing.uncited is None:
        return None
    s, e = pairing.uncited
    return strip_markers(sentence[s:e], names).strip(" ,;:–—-") or None


def quotes_in_clause(pairing: Pairing, pairings: list[Pairing]) -> tuple[str, ...]:
    """The quotes of the other pairings of a sentence that lie inside this pairing's clause."""
    s, e = pairing.clause
    return tuple(
        p.quote
        for p in pairings
        if p.quote is not None and p.quote_span is not None and p.quote_span != pairing.quote_span
        and s <= p.quote_span[0] and p.quote_span[1] <= e
    )  # fmt: skip


def clause_text(sentence: str, pairing: Pairing, names: tuple[str, ...] = ()) -> str:
    """The claim a pairing's quote supports: its clause, markers dropped, spaces collapsed."""
    s, e = pairing.clause
    return strip_markers(sentence[s:e], names).strip(" ,;:–—-")
