"""Markers in an answer, as models write them, and the quoted spans they cite: the syntax of a marker
list (``[S1]``, ``[S1, S2]``, ``【1】``, ``[Source 1]``, ``[S1, p. 3]``, ``(S1)``, ``[^1]``, names
injected as ``doc1``), what makes two spellings one marker, and the quote marks answers use.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from citeline.text import lang as language

# Markers, as models write them: [S1], [1], [S1, S2], [S1; S2], [1][2], 【1】, 【S1】, 【3†source】,
# full-width ［S1］ and （S1）, a footnote reference [^1], [Source 1] (Quelle, fuente, fonte, 来源), a
# line range after a dagger [S1†L3-L5], a page pinpoint [S1, p. 3], [S1 pp. 3-4], [S1, S. 3],
# [S1, Seite 3], [S1 第3页], and in parentheses with the S or Source prefix: (S1), (S1, S2).
_NUMBERED = r"[Ss]?\d+"


def _words_of_every_language(field: str) -> str:
    """Regex alternatives of one kind of marker word, from every language's own list: the syntax of
    an answer's markers does not depend on the language its sentences are in."""
    return "|".join(dict.fromkeys(w for lang in language.every() for w in getattr(lang, field)))


#: words for a source and for a document before a marker's number ("Source 1", "Quelle 2", "Doc 3")
SOURCE_WORDS = _words_of_every_language("source_words")
DOCUMENT_WORDS = _words_of_every_language("document_words")
_PREFIX = rf"(?:\^|(?i:{SOURCE_WORDS})\s*[:：]?\s*|(?i:{DOCUMENT_WORDS})\s*:?\s+)?"
#: what may follow a marker inside its brackets: a dagger note, or a page pinpoint (groups "page"
#: and "last", or "page2" and "last2" for the Chinese 第3页)
_PIN = (
    rf"(?:†[^\]】)］）]*|\s*[,:，]?\s*(?:(?i:{_words_of_every_language('page_words')})\s*(?P<page>\d+)"
    r"(?:\s*[-–]\s*(?P<last>\d+))?|第\s*(?P<page2>\d+)(?:\s*[-–]\s*(?P<last2>\d+))?\s*页))?"
)


@functools.lru_cache(maxsize=256)
def syntax(names: tuple[str, ...] = ()) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The marker-group pattern, the trailing-markers pattern and the pattern of one marker inside
    a group. Beyond the numbered markers, the injected marker names that are not numbered
    (``citeline context --markers doc1,doc2``) are markers in brackets too, in any case: ``[doc1]``,
    ``[Doc1, doc2]``; a name ending in a number stands for its family, so that ``[doc3]``, which
    was not injected, is a marker (and fabricated)."""
    extra: set[str] = set()
    for n in filter(is_named, names):
        n = n.strip()
        family = re.fullmatch(r"(.*?\D)\d+", n)
        extra.add(f"(?i:{re.escape(family.group(1))})\\d+" if family else f"(?i:{re.escape(n)})")
    named = sorted(extra, key=len, reverse=True)  # the longest first: "doc10" before "doc1"
    pin = re.sub(r"\?P<\w+>", "?:", _PIN)  # no named groups in a group
    name = "(?:" + "|".join([f"{_PREFIX}{_NUMBERED}", *named]) + ")"
    item = name + pin
    sep = r"\s*(?:[,;，；、]|[-–—])\s*"  # a list, or a range ("[S1–S3]")
    # in parentheses, a bare number is a list's numbering ("(1)"): only prefixed or named markers
    paren_item = (
        "(?:"
        + "|".join([rf"(?i:{SOURCE_WORDS})\s*[:：]?\s*S?\d+", rf"(?i:{DOCUMENT_WORDS})\s*:?\s+\d+", r"S\d+", *named])
        + ")"
        + pin
    )
    group = re.compile(
        rf"[\[［]\s*({item}(?:{sep}{item})*)\s*[\]］]"
        rf"|[(（]\s*({paren_item}(?:{sep}{paren_item})*)\s*[)）]"
        rf"|【\s*({item}(?:{sep}{item})*)\s*】"
    )
    trailing = re.compile(rf"(?:[ \t]?(?:{group.pattern}))+")
    return group, trailing, re.compile(rf"(?P<marker>{name}){_PIN}")


def is_named(marker: str) -> bool:
    """A marker name that is not numbered (``doc1``, not ``S1`` or ``1``): the parser must be told it."""
    return bool(marker.strip()) and not re.fullmatch(_NUMBERED, marker.strip())


def markers_of(m: re.Match[str], names: tuple[str, ...]) -> tuple[list[str], tuple[int, int] | None]:
    """The markers of one marker group (a pinpoint or dagger note dropped), and the pages it
    pinpoints when it names one marker with one (``[S1, p. 3]``)."""
    inside = next(g for g in m.groups() if g is not None)
    found: list[str] = []
    pages = None
    last_end, last = 0, ""
    for item in syntax(names)[2].finditer(inside):
        marker = item.group("marker").strip()
        between = inside[last_end : item.start()]
        for each in _range(last, marker) if last and re.search("[-–—]", between) else [marker]:
            if each not in found:
                found.append(each)
        last_end, last = item.end(), marker
        page, last_page = item.group("page") or item.group("page2"), item.group("last") or item.group("last2")
        if page:
            first = int(page)
            pages = (first, max(first, int(last_page or first)))
    return found, pages if len(found) == 1 else None


#: A marker range names at most this many markers ("[S1–S4]"); a longer one is its two ends.
MAX_RANGE = 20


def _range(first: str, last: str) -> list[str]:
    """The markers from ``first`` to ``last`` (``S1``, ``S3`` -> ``S1, S2, S3``), written as
    ``first`` is; just ``last`` when the two are not numbers of one kind."""
    a, b = re.fullmatch(r"(\D*?)(\d+)", first), re.fullmatch(r"(\D*?)(\d+)", last)
    if a is None or b is None or marker_key(a.group(1) + "1") != marker_key(b.group(1) + "1"):
        return [last]
    lo, hi = int(a.group(2)), int(b.group(2))
    if not 0 < hi - lo <= MAX_RANGE:
        return [last]
    return [f"{a.group(1)}{n}" for n in range(lo + 1, hi + 1)]


#: A word of a quote in straight single quotes: no space, no quote mark but an apostrophe inside it.
_TOKEN = r"[^'\s](?:[^'\s]|'(?=[^\W\d_]))*"
QUOTED = re.compile(
    r"“([^”]+)”|\"([^\"]+)\"|„([^“”]+)[“”]|«\s*([^»]+?)\s*»|»([^«»]+)«|「([^」]+)」|『([^』]+)』"
    # single quotes, as British answers quote: an apostrophe inside a word ("don’t") does not end one
    r"|(?<![^\W_])‘((?:[^‘’]|’(?=[^\W\d_]))+)’(?![^\W_])"
    # straight single quotes, as answers written inside JSON strings quote: two words at least, an
    # apostrophe inside a word ("aren't") does not end one, and none opens a word ("rock 'n' roll",
    # "the '90s" are no quotes)
    r"|(?<![^\W_])'(" + _TOKEN + r"(?:[ \t]+" + _TOKEN + r")+)'(?![^\W_])"
)


def markers_in(text: str, names: tuple[str, ...] = ()) -> list[str]:
    found: list[str] = []
    for _, _, listed, _ in marker_groups(text, names):
        for token in listed:
            if token not in found:
                found.append(token)
    return found


def marker_key(marker: str) -> str:
    """What decides whether two markers are the same: brackets and case dropped, and ``S`` before a
    number too, so ``[S1]``, ``S1``, ``s1`` and ``1`` are one marker (answers often drop the prefix
    the prompt used), as are a footnote's ``^1`` and ``Source 1``. The one place this is decided."""
    m = marker.strip().strip("[]【】()［］（）").strip()
    m = re.sub(rf"^(?:\^|(?:{SOURCE_WORDS})\s*[:：]?\s*|(?:{DOCUMENT_WORDS})\s*:?\s+)(?=S?\d+$)", "", m, flags=re.I)
    if m[:1] in "Ss" and m[1:].isdigit():
        m = m[1:]
    return m.casefold()


def resolve_marker(marker: str, names: Iterable[str]) -> str | None:
    """The name among ``names`` (injected markers) that ``marker`` is the same marker as."""
    key = marker_key(marker)
    exact = None
    for name in names:
        if name == marker:
            return name
        if exact is None and marker_key(name) == key:
            exact = name
    return exact


# marker groups: markers with only spaces, commas, semicolons, "and" or "&" between them are one
# list ("[S1][S2]", "[S1], [S2]", "[S1] and [S2]")
GROUP_GAP = re.compile(r"\s*(?:[,;&]|\band\b|\bund\b|\bet\b)?\s*")


def marker_groups(
    text: str, names: tuple[str, ...] = ()
) -> list[tuple[int, int, tuple[str, ...], tuple[int, int] | None]]:
    """Marker lists: (start, end, markers, pages pinpointed by a one-marker list). A bracket inside
    a quote is the source's (``"as shown in [12], the …"``), unless it ends the quoted text."""
    quoted = [m.span() for m in QUOTED.finditer(text)]
    groups: list[tuple[int, int, list[str], tuple[int, int] | None]] = []
    found_all = list(syntax(names)[0].finditer(text))
    after = {m.start() for m in found_all}
    for m in found_all:
        inside = [(qs, qe) for qs, qe in quoted if qs < m.start() and m.end() < qe]
        if any(not ends_quote(text, m.end(), qe) for _, qe in inside):
            continue
        if any(_ws_to(text, qe, after) for _, qe in inside):
            continue  # the source's own reference ending the quote, cited by the list after it ("… [15]" [S2])
        found, pages = markers_of(m, names)
        if len(found) == 2 and found[0] == "0" and "0" not in names and found[1].isdigit():
            continue  # an interval ("[0, 1]", "[0, 255]"), not two sources: none is numbered 0
        if groups and GROUP_GAP.fullmatch(text, groups[-1][1], m.start()):
            start, _, listed, _ = groups[-1]
            groups[-1] = (start, m.end(), listed + [t for t in found if t not in listed], None)
        else:
            groups.append((m.start(), m.end(), found, pages))
    return [(s, e, tuple(listed), pages) for s, e, listed, pages in groups]


def _ws_to(text: str, at: int, starts: set[int]) -> bool:
    """Whether a marker list starts after ``at`` with only spaces between."""
    k = at
    while k < len(text) and text[k] in " \u00a0":
        k += 1
    return k in starts


def ends_quote(text: str, start: int, quote_end: int) -> bool:
    """Only punctuation and the closing quote mark stand between ``start`` and ``quote_end``."""
    return not text[start : quote_end - 1].strip(" .,;:»«\u00a0。，；：")


def strip_markers(text: str, names: tuple[str, ...] = ()) -> str:
    return re.sub(r"\s+", " ", syntax(names)[0].sub("", text)).strip()
