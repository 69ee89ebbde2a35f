"""Checks of what an answer document asks for beyond the quote: terms the evidence must hold, and the
place an Anthropic citation says its quote is."""

from __future__ import annotations

import re

from citeline.verify.checks import Check, Evidence
from citeline.verify.claims import neighbour_span, sentences_around
from citeline.verify.classify import unaccented
from citeline.verify.fold import fold


def has_term(term: str, folded_text: str) -> bool:
    """Whether a required term is in a folded text as a whole word or phrase ("line 7" is not in
    "line 74"), accents aside ("batiment preserve" is "bâtiment préservé")."""
    wanted = unaccented(fold(term).text.strip())
    if not wanted:
        return True
    start = r"(?<![^\W_])" if re.match(r"[^\W_]", wanted) else ""
    end = r"(?![^\W_])" if re.search(r"[^\W_]$", wanted) else ""
    return re.search(start + re.escape(wanted) + end, unaccented(folded_text)) is not None


def required_terms(e: Evidence) -> str | None:
    """Every term the answer document requires is in the quote's sentences or the ones around them."""
    missing = [t for t in e.cit.required_terms if not has_term(t, e.folded_sentences)]
    if missing:
        around = fold(sentences_around(e.chunk.text, *neighbour_span(e.chunk.text, e.start, e.end, e.doc), e.doc)).text
        missing = [t for t in missing if not has_term(t, around)]
    return f"missing terms: {', '.join(missing)}" if missing else None


def location(e: Evidence) -> str | None:
    """An Anthropic citation says where its text is (character indices into the cited chunk, or into
    the whole version's cleaned text or raw stream for a document reference, or pages): it is
    found there."""
    loc, cit = e.result.location, e.cit
    if loc is None:
        return None
    reasons = []
    s, end = cit.chunk_start, cit.chunk_end
    if s is not None and end is not None and cit.pages is None and e.chunk.chunk_id == e.result.chunk_id:
        found_s, found_e = e.start, e.end
        places = [(found_s, found_e)]
        if e.whole_version:
            found_s, found_e = e.chunk.clean_start + found_s, e.chunk.clean_start + found_e
            places = [(found_s, found_e), (loc.start, loc.end)]
        if all(abs(a - s) > 2 or abs(b - end) > 2 for a, b in places):
            reasons.append(f"the answer placed it at characters {s}-{end}, it is at {found_s}-{found_e}")
    if cit.pages is not None:
        first, last = cit.pages
        if not any(first <= p <= last for p in loc.pages):
            shown = f"{first}" if first == last else f"{first}-{last}"
            reasons.append(f"the answer placed it on page {shown}, it is on page {','.join(map(str, loc.pages))}")
    return "; ".join(reasons) or None


CHECKS = (
    Check("required_terms", "missing_terms", None, required_terms, "the terms the answer requires are in the evidence"),
    Check("location", "location_mismatch", None, location, "the quote is where an Anthropic citation places it"),
)
