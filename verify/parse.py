"""Reading an answer document: explicit citations, citations parsed from the answer's markers and
quoted spans, or Anthropic-style citation blocks. The format is documented in the README and in
``verify/schema/answer.schema.json``.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from citeline.text import lang as language
from citeline.text.lang import NONE, Language
from citeline.text.lexicon import told_language
from citeline.text.sentences import sentences
from citeline.verify.claims import clause_break
from citeline.verify.errors import InputError

#: Answers larger than this are refused (an answer is a few KB; 5 MB is a mistake, not an answer).
MAX_ANSWER_BYTES = 5 * 1024 * 1024
#: The most quotes and markers one answer may hold, and the most markers one marker list may name:
#: an answer beyond them is refused in one line, before any pairing (verification is linear in the
#: answer up to them; 10,000 markers after one quote, or 10,000 quotes before one marker, took
#: minutes and gigabytes before).
MAX_CITATIONS = 2000
MAX_MARKERS = 50

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
_SOURCE_WORDS = _words_of_every_language("source_words")
_DOCUMENT_WORDS = _words_of_every_language("document_words")
_PREFIX = rf"(?:\^|(?i:{_SOURCE_WORDS})\s*[:：]?\s*|(?i:{_DOCUMENT_WORDS})\s*:?\s+)?"
#: what may follow a marker inside its brackets: a dagger note, or a page pinpoint (groups "page"
#: and "last", or "page2" and "last2" for the Chinese 第3页)
_PIN = (
    rf"(?:†[^\]】)］）]*|\s*[,:，]?\s*(?:(?i:{_words_of_every_language('page_words')})\s*(?P<page>\d+)"
    r"(?:\s*[-–]\s*(?P<last>\d+))?|第\s*(?P<page2>\d+)(?:\s*[-–]\s*(?P<last2>\d+))?\s*页))?"
)


@functools.lru_cache(maxsize=256)
def _syntax(names: tuple[str, ...] = ()) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The marker-group pattern, the trailing-markers pattern and the pattern of one marker inside
    a group. Beyond the numbered markers, the injected marker names that are not numbered
    (``citeline context --markers doc1,doc2``) are markers in brackets too, in any case: ``[doc1]``,
    ``[Doc1, doc2]``; a name ending in a number stands for its family, so that ``[doc3]``, which
    was not injected, is a marker (and fabricated)."""
    extra: set[str] = set()
    for n in filter(_named, names):
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
        + "|".join([rf"(?i:{_SOURCE_WORDS})\s*[:：]?\s*S?\d+", rf"(?i:{_DOCUMENT_WORDS})\s*:?\s+\d+", r"S\d+", *named])
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


def _named(marker: str) -> bool:
    """A marker name that is not numbered (``doc1``, not ``S1`` or ``1``): the parser must be told it."""
    return bool(marker.strip()) and not re.fullmatch(_NUMBERED, marker.strip())


def _markers_of(m: re.Match[str], names: tuple[str, ...]) -> tuple[list[str], tuple[int, int] | None]:
    """The markers of one marker group (a pinpoint or dagger note dropped), and the pages it
    pinpoints when it names one marker with one (``[S1, p. 3]``)."""
    inside = next(g for g in m.groups() if g is not None)
    found: list[str] = []
    pages = None
    last_end, last = 0, ""
    for item in _syntax(names)[2].finditer(inside):
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
_QUOTED = re.compile(
    r"“([^”]+)”|\"([^\"]+)\"|„([^“”]+)[“”]|«\s*([^»]+?)\s*»|»([^«»]+)«|「([^」]+)」|『([^』]+)』"
    # single quotes, as British answers quote: an apostrophe inside a word ("don’t") does not end one
    r"|(?<![^\W_])‘((?:[^‘’]|’(?=[^\W\d_]))+)’(?![^\W_])"
    # straight single quotes, as answers written inside JSON strings quote: two words at least, an
    # apostrophe inside a word ("aren't") does not end one, and none opens a word ("rock 'n' roll",
    # "the '90s" are no quotes)
    r"|(?<![^\W_])'(" + _TOKEN + r"(?:[ \t]+" + _TOKEN + r")+)'(?![^\W_])"
)
_WORD_IN = re.compile(r"[^\W\d_]{2,}|\d")
_BRACKETS = re.compile(r"\[[^\]]*\]")
#: Two words: a dash before them opens a clause of its own, not the lead into a quote.
_WORDS_AFTER = re.compile(r"[^\W_]+\W+[^\W_]+")


@dataclass(frozen=True, slots=True)
class CitationInput:
    marker: str
    quote: str | None
    claim: str | None = None
    required_terms: tuple[str, ...] = ()
    sentence: int | None = None  # index into the answer's sentences, when known
    chunk_start: int | None = None  # Anthropic char_location indices into the cited document
    chunk_end: int | None = None
    pages: tuple[int, int] | None = None  # Anthropic page_location (start, end), 1-based inclusive
    #: the claim came from the answer's clause around the quote, not from the answer document
    claim_from_answer: bool = False
    #: quotes of other citations inside the claim (``"A", and "B" [S1]``: B is in A's claim); their
    #: numbers and negations are theirs to check, not this quote's
    other_quotes: tuple[str, ...] = ()
    #: the answer sentence's clauses before the claim that no marker cites (see :class:`Pairing`):
    #: a number there that the evidence counts otherwise is the marker's to answer for too
    uncited: str | None = None
    #: the lead-in of the answer's list the citing sentence is an item of ("Days that do not count
    #: toward presence include:" over "- commuting days: "…" [S2]"): the claim's polarity is its too
    lead_in: str | None = None


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


#: what an answer's sentence is in its markdown: running text (a paragraph, a list item), a
#: heading (which asserts nothing), a block quote (whose text, without quote marks, is the quote),
#: or an entry of the answer's list of sources ("[S1] Benefits Handbook, p. 1": no citation)
SentenceKind = Literal["text", "heading", "quote", "reference"]


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    start: int
    end: int
    markers: tuple[str, ...]
    kind: SentenceKind = "text"


@dataclass
class AnswerInput:
    answer: str
    sources: dict[str, str] | None
    context: str | None
    citations: list[CitationInput]
    sentences: list[Sentence]
    document_refs: dict[str, dict[str, Any]] = field(default_factory=dict)  # marker -> {"document", "version"}
    #: the answer document, when its text was parsed for markers (not for Anthropic blocks)
    data: dict[str, Any] | None = None
    #: the marker names it was parsed with, beyond the numbered ones
    names: tuple[str, ...] = ()
    #: the language the answer is written in (its claims' own words are read in it)
    language: Language = NONE

    def knows(self, markers: Iterable[str]) -> bool:
        """Whether the answer was parsed knowing these injected marker names (numbered ones need
        no knowing): if not, parse it again with them (``parse_answer(a.data, markers=...)``)."""
        return self.data is None or all(m in self.names or not _named(m) for m in markers)


def load_answer(source: str | bytes | Path | dict[str, Any], *, name: str = "answer") -> dict[str, Any]:
    """Read and size-check an answer document; ``name`` is used in error messages."""
    if isinstance(source, dict):
        _checked(source, name)
        return source
    if isinstance(source, Path):
        name = str(source)
        try:
            size = source.stat().st_size
        except OSError as exc:
            raise InputError(f"{name}: cannot read ({exc.strerror or exc})") from None
        if size > MAX_ANSWER_BYTES:
            raise InputError(
                f"{name}: {size / 1e6:.1f} MB, above the {MAX_ANSWER_BYTES / 1e6:.0f} MB limit for an answer"
            )
        source = source.read_bytes()
    if len(source) > MAX_ANSWER_BYTES:
        raise InputError(
            f"{name}: {len(source) / 1e6:.1f} MB, above the {MAX_ANSWER_BYTES / 1e6:.0f} MB limit for an answer"
        )
    try:
        data = json.loads(source, parse_int=_parse_int)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = f" at line {exc.lineno} column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise InputError(f"{name}: not valid JSON{where} ({getattr(exc, 'msg', exc)})") from None
    except _NumberTooLong as exc:
        raise InputError(f"{name}: a number of {exc.digits:,} digits (at most {MAX_INT_DIGITS})") from None
    except RecursionError:
        raise InputError(f"{name}: nested more than {MAX_DEPTH} levels deep") from None
    if not isinstance(data, dict):
        raise InputError(f"{name}: expected a JSON object, got {type(data).__name__}")
    _checked(data, name)
    return data


def _no_nulls(data: dict[str, Any], keys: tuple[str, ...], name: str, where: str = "") -> None:
    """``null`` is not "absent": the schema allows neither, and a null quote silently turning a
    citation into a marker-only one hides a bug in the caller."""
    for key in keys:
        if key in data and data[key] is None:
            raise InputError(f"{name}: {where}{key} is null (leave the key out instead)")


def _checked(data: Any, name: str) -> None:
    """Refuse what JSON allows but text cannot be: lone surrogates (``"\\ud800"``), and nesting
    deeper than :data:`MAX_DEPTH`. Iterative, so no input can exhaust the stack here."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InputError(f"{name}: nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, str):
            bad = _SURROGATE.search(value)
            if bad:
                raise InputError(
                    f"{name}: a string holds a lone surrogate (U+{ord(bad.group()):04X}), which is not text"
                )
        elif isinstance(value, dict):
            stack.extend((k, depth + 1) for k in value)
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


_SURROGATE = re.compile("[\ud800-\udfff]")
#: Deepest nesting an answer may have (real answers: 5 or 6).
MAX_DEPTH = 64
#: Longest integer literal an answer may hold (page numbers and indexes: a few digits).
MAX_INT_DIGITS = 18


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _NumberTooLong(len(text.lstrip("-")))
    return int(text)


class _NumberTooLong(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _type_error(name: str, key: str, expected: str, value: Any) -> InputError:
    return InputError(f"{name}: {key!r} must be {expected}, got {type(value).__name__}")


#: a line that starts a markdown block of its own: a list item, a heading, a block quote (the
#: marker before the block's text)
BLOCK_MARKER = re.compile(
    r"[ \t]*(?:(?P<item>[-*+•][ \t]+|\d{1,3}[.)][ \t]+)|(?P<heading>#{1,6}[ \t]+)|(?P<quote>>[ \t]?))"
)


#: the brackets a line that opens with a marker starts with
_OPENERS = ("[", "【", "［")


def _blocks(answer: str) -> list[tuple[int, int, SentenceKind]]:
    """The answer's blocks, ``(start, end, kind)``, their markdown markers (``- ``, ``1. ``, ``## ``,
    ``> ``) left out: paragraphs, and within them each list item, heading and block-quote line. A
    line that starts no block continues the one before (a wrapped list item), but for a heading."""
    out: list[tuple[int, int, SentenceKind]] = []
    for para in re.finditer(r"[^\n]+(?:\n(?!\s*\n)[^\n]+)*", answer):
        pos = prev_start = para.start()
        for line in para.group().split("\n"):
            ls, le = pos, pos + len(line)
            pos = le + 1
            m = BLOCK_MARKER.match(answer, ls, le)
            if m is not None and m.end() < le:  # a marker with text after it starts a block
                kind: SentenceKind = "heading" if m.group("heading") else "quote" if m.group("quote") else "text"
                out.append((m.end(), le, kind))
            elif (
                not out
                or out[-1][0] < para.start()
                or out[-1][2] == "heading"
                # a line opening with a marker after one that ended its sentence, or after another
                # such line: an entry of a list of sources
                or (
                    answer[ls:le].lstrip()[:1] in _OPENERS
                    and (
                        answer[max(0, ls - 80) : ls].rstrip()[-1:] in tuple(".:!?)。：！？）")
                        or answer[prev_start:ls].lstrip()[:1] in _OPENERS
                        or _SOURCES_HEADING.fullmatch(answer, prev_start, ls - 1) is not None  # "参考资料"
                    )
                )
            ):
                out.append((ls, le, "text"))
            else:
                out[-1] = (out[-1][0], le, out[-1][2])
            prev_start = ls
    return out


#: the heading of an answer's list of its sources ("Sources:", "**References**", "## Quellen")
_SOURCES_HEADING = re.compile(
    r"[#*_\s]*(?:sources?|references?|citations?|bibliography|works cited|quellen|literatur|"
    r"références|fuentes|fonti|来源|参考来源|参考资料|参考文献|资料来源|出处|引用|出典)\s*[:：*_\s]*",
    re.IGNORECASE,
)


def _reference_lists(
    answer: str, blocks: list[tuple[int, int, SentenceKind]], names: tuple[str, ...]
) -> list[tuple[int, int, SentenceKind]]:
    """Blocks that start with a marker after a heading such as "Sources:" (up to the first block
    that does not), and those at the answer's end that start with a marker and read like a label
    (see :func:`_label_like`), are the answer's list of its sources: entries of kind
    ``reference``, which cite nothing."""
    group = _syntax(names)[0]
    starts = [group.match(answer, start) is not None for start, _, _ in blocks]
    out = list(blocks)
    listing = False
    for k, (start, end, _) in enumerate(blocks):
        if _SOURCES_HEADING.fullmatch(answer, start, end):
            listing = True
        elif listing and starts[k]:
            out[k] = (start, end, "reference")
        else:
            listing = False
    k = len(blocks)
    while k > 0 and starts[k - 1] and _label_like(answer[blocks[k - 1][0] : blocks[k - 1][1]]):
        k -= 1
    if k > 0:  # a trailing run, after a body that cites (not an answer made of marker lines only)
        out[k:] = [(s, e, "reference") for s, e, _ in blocks[k:]]
    return out


def _label_like(line: str) -> bool:
    """A line that names a source rather than says something of it: no quote, no full stop at
    its end ("[S1] policy_handbook.pdf, p. 1", not "[S2] also covers dental care.")."""
    return not _QUOTED.search(line) and line.rstrip()[-1:] not in (".", "!", "?")


def split_sentences(answer: str, names: tuple[str, ...] = (), lang: Language | None = None) -> list[Sentence]:
    """The answer's sentences, in its markdown blocks (see :func:`_blocks`): a heading is one
    sentence, and so is a block quote; a list item is split like a paragraph. A sentence end inside
    a quoted span ("… 90 days" [S1]) is none: the quote, and the sentence around it, go on.
    ``names``: the injected markers (see :func:`_syntax`); ``lang``: the answer's language (whose
    abbreviations end no sentence), by default the one its words say (:func:`answer_language`)."""
    lang = lang or answer_language(answer)
    out: list[Sentence] = []
    for start, end, kind in _reference_lists(answer, _blocks(answer), names):
        if kind != "text":
            text = answer[start:end]
            out.append(Sentence(text, start, end, tuple(markers_in(text, names)), kind))
        else:
            out.extend(_sentences_in(answer, start, end, names, lang))
    return out


def answer_language(answer: str) -> Language:
    """The language an answer is written in, its quotes left out (its claims' own words are read with
    this language's words; the quotes with the cited document's: an English answer may quote a
    Chinese report at length); where its own words are too few to tell, the whole answer's if it is
    one of the languages read here (:data:`citeline.text.lang.CODES`), else English."""
    told = told_language(_QUOTED.sub(" ", answer))
    if told is None:
        whole = told_language(answer)
        told = whole if whole in language.CODES else "en"
    return language.of(told)


def _sentences_in(answer: str, start: int, end: int, names: tuple[str, ...], lang: Language) -> list[Sentence]:
    trailing_markers = _syntax(names)[1]
    out: list[Sentence] = []
    quoted = [m.span() for m in _QUOTED.finditer(answer, start, end)]
    pending: int | None = None  # start of a sentence whose end fell inside a quote
    for s, e in sentences(answer, start, end, lang):
        if pending is not None:
            s, pending = pending, None
        if any(qs < e < qe for qs, qe in quoted):
            pending = s
            continue
        # markers right after the full stop ("... 90 days. [S1]") belong to the sentence before
        trailing = trailing_markers.match(answer, e, end)
        if trailing:
            e = trailing.end()
        if out and s < out[-1].end:
            s = out[-1].end
            while s < e and answer[s].isspace():
                s += 1
        if s >= e:
            continue
        text = answer[s:e]
        out.append(Sentence(text, s, e, tuple(markers_in(text, names))))
    if pending is not None:
        text = answer[pending:end]
        out.append(Sentence(text, pending, end, tuple(markers_in(text, names))))
    return out


def markers_in(text: str, names: tuple[str, ...] = ()) -> list[str]:
    found: list[str] = []
    for _, _, listed, _ in _marker_groups(text, names):
        for token in listed:
            if token not in found:
                found.append(token)
    return found


def marker_key(marker: str) -> str:
    """What decides whether two markers are the same: brackets and case dropped, and ``S`` before a
    number too, so ``[S1]``, ``S1``, ``s1`` and ``1`` are one marker (answers often drop the prefix
    the prompt used), as are a footnote's ``^1`` and ``Source 1``. The one place this is decided."""
    m = marker.strip().strip("[]【】()［］（）").strip()
    m = re.sub(rf"^(?:\^|(?:{_SOURCE_WORDS})\s*[:：]?\s*|(?:{_DOCUMENT_WORDS})\s*:?\s+)(?=S?\d+$)", "", m, flags=re.I)
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
_GROUP_GAP = re.compile(r"\s*(?:[,;&]|\band\b|\bund\b|\bet\b)?\s*")


def _marker_groups(
    text: str, names: tuple[str, ...] = ()
) -> list[tuple[int, int, tuple[str, ...], tuple[int, int] | None]]:
    """Marker lists: (start, end, markers, pages pinpointed by a one-marker list). A bracket inside
    a quote is the source's (``"as shown in [12], the …"``), unless it ends the quoted text."""
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    groups: list[tuple[int, int, list[str], tuple[int, int] | None]] = []
    found_all = list(_syntax(names)[0].finditer(text))
    after = {m.start() for m in found_all}
    for m in found_all:
        inside = [(qs, qe) for qs, qe in quoted if qs < m.start() and m.end() < qe]
        if any(not _ends(text, m.end(), qe) for _, qe in inside):
            continue
        if any(_ws_to(text, qe, after) for _, qe in inside):
            continue  # the source's own reference ending the quote, cited by the list after it ("… [15]" [S2])
        found, pages = _markers_of(m, names)
        if len(found) == 2 and found[0] == "0" and "0" not in names and found[1].isdigit():
            continue  # an interval ("[0, 1]", "[0, 255]"), not two sources: none is numbered 0
        if groups and _GROUP_GAP.fullmatch(text, groups[-1][1], m.start()):
            start, _, listed, _ = groups[-1]
            groups[-1] = (start, m.end(), listed + [t for t in found if t not in listed], None)
        else:
            groups.append((m.start(), m.end(), found, pages))
    return [(s, e, tuple(listed), pages) for s, e, listed, pages in groups]


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
    (see :func:`_syntax`). With ``whole`` (a block quote), a sentence without quote marks quotes
    itself: its text before the markers that end it. ``lang``: the answer's language, whose
    conjunctions after a comma open a clause of its own (by default, the sentence's own)."""
    breaks = clause_break(lang or answer_language(text))
    quotes = [
        (m.start(), m.end(), next(g for g in m.groups() if g is not None).strip()) for m in _QUOTED.finditer(text)
    ]
    groups = _marker_groups(text, names)
    if whole and not quotes and groups:
        body = len(text.rstrip(" .;:"))
        for gs, ge, _, _ in reversed(groups):  # the marker lists that end the text
            if ge < body and text[ge:body].strip(" .;:,"):
                break
            body = gs
        quoted = _strip_markers(text[:body], names).strip(" ,;:")
        if quoted:
            quotes = [(0, len(text[:body].rstrip()), quoted)]
    out: list[tuple[int, int, Pairing]] = []  # (span start, span end, pairing)
    used: set[int] = set()
    for i, (qs, qe, quote) in enumerate(quotes):
        next_q = quotes[i + 1][0] if i + 1 < len(quotes) else len(text)
        prev_q = quotes[i - 1][1] if i > 0 else 0
        # 0. the marker list that ends the quoted text, inside its quote marks ("… 90 days [S1]")
        choice = next((k for k, g in enumerate(groups) if qs < g[0] and g[1] < qe and _ends(text, g[1], qe)), None)
        if choice is not None:
            quote = _strip_markers(text[qs + 1 : groups[choice][0]], names).strip(" ,;:")
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


def _ws_to(text: str, at: int, starts: set[int]) -> bool:
    """Whether a marker list starts after ``at`` with only spaces between."""
    k = at
    while k < len(text) and text[k] in " \u00a0":
        k += 1
    return k in starts


def _ends(text: str, start: int, quote_end: int) -> bool:
    """Only punctuation and the closing quote mark stand between ``start`` and ``quote_end``."""
    return not text[start : quote_end - 1].strip(" .,;:»«\u00a0。，；：")


def uncited_text(sentence: str, pairing: Pairing, names: tuple[str, ...] = ()) -> str | None:
    """The sentence's uncited clauses before a pairing's claim, markers dropped (see :class:`Pairing`)."""
    if pairing.uncited is None:
        return None
    s, e = pairing.uncited
    return _strip_markers(sentence[s:e], names).strip(" ,;:–—-") or None


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
    return _strip_markers(sentence[s:e], names).strip(" ,;:–—-")


def _bounded(answer: str, names: tuple[str, ...], name: str) -> None:
    """Refuse, in one line, an answer with more quotes or markers than one answer may hold, or a
    marker list longer than one may be (counted in one pass each, before any pairing)."""
    quotes = sum(1 for _ in itertools.islice(_QUOTED.finditer(answer), MAX_CITATIONS + 1))
    if quotes > MAX_CITATIONS:
        raise InputError(f"{name}: more than {MAX_CITATIONS} quotes; at most {MAX_CITATIONS} are checked in one answer")
    run = total = 0
    end = -1
    for m in _syntax(names)[0].finditer(answer):
        found, _ = _markers_of(m, names)
        total += len(found)
        run = run + len(found) if _GROUP_GAP.fullmatch(answer, end, m.start()) and end >= 0 else len(found)
        end = m.end()
        if run > MAX_MARKERS:
            raise InputError(
                f"{name}: a marker list names more than {MAX_MARKERS} sources; at most {MAX_MARKERS} are checked"
            )
        if total > MAX_CITATIONS:
            raise InputError(
                f"{name}: more than {MAX_CITATIONS} markers; at most {MAX_CITATIONS} are checked in one answer"
            )


def parse_answer(data: dict[str, Any], *, name: str = "answer", markers: Iterable[str] = ()) -> AnswerInput:
    """Validate the answer document and produce the citations to check. ``markers``: the injected
    marker names, when they are known (those of ``sources`` are): names that are not numbered
    (``doc1``) are then parsed as markers too (:meth:`AnswerInput.knows` tells whether an answer
    was parsed with them)."""
    if "content" in data and "answer" not in data:
        return _parse_blocks(data, name)
    answer = data.get("answer")
    if not isinstance(answer, str):
        raise (
            _type_error(name, "answer", "a string", answer)
            if "answer" in data
            else InputError(f"{name}: missing 'answer'")
        )
    _no_nulls(data, ("sources", "context", "citations"), name)
    sources = data.get("sources")
    context = data.get("context")
    if sources is not None and (
        not isinstance(sources, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in sources.items())
    ):
        raise InputError(f"{name}: 'sources' must map markers to chunk ids (strings)")
    if context is not None and not isinstance(context, str):
        raise _type_error(name, "context", "a context id string", context)
    names = tuple(dict.fromkeys([*markers, *(sources or {})]))
    _bounded(answer, names, name)
    lang = answer_language(answer)
    sents = split_sentences(answer, names, lang)
    raw_citations = data.get("citations")
    citations: list[CitationInput] = []
    if raw_citations is None:
        for i, sent in enumerate(sents):
            if sent.kind == "reference":
                continue  # an entry of the answer's list of sources cites nothing
            pairings = pair(sent.text, names, whole=sent.kind == "quote", lang=lang)
            for p in pairings:
                # every marker of a list is a citation of its own ("…" [S1][S2]: the quote is checked
                # against S1's chunk and against S2's, each passing or failing on its own)
                claim = clause_text(sent.text, p, names) or None
                others = quotes_in_clause(p, pairings)
                uncited = uncited_text(sent.text, p, names)
                lead_in = list_lead_in(answer, sents, i)
                # (two spellings of one marker in a list, "[S1][1]", are one citation)
                spelled: set[str] = set()
                for marker in p.markers:
                    if marker_key(marker) in spelled:
                        continue
                    spelled.add(marker_key(marker))
                    citations.append(
                        CitationInput(
                            marker,
                            p.quote,
                            claim=claim,
                            sentence=i,
                            pages=p.pages,
                            claim_from_answer=True,
                            other_quotes=others,
                            uncited=uncited,
                            lead_in=lead_in,
                        )
                    )
    else:
        if not isinstance(raw_citations, list):
            raise _type_error(name, "citations", "a list", raw_citations)
        if len(raw_citations) > MAX_CITATIONS:
            raise InputError(
                f"{name}: {len(raw_citations)} citations; at most {MAX_CITATIONS} are checked in one answer"
            )
        seen: dict[str, int] = {}
        for n, item in enumerate(raw_citations):
            cit = _citation(item, n, name, sents, seen, names)
            citations.append(cit)
    return AnswerInput(answer, sources, context, citations, sents, data=data, names=names, language=lang)


#: a markdown list item's line: a bullet or a number, then a space
_ITEM_LINE = re.compile(r"[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]")


def _in_list_item(answer: str, sent: Sentence) -> bool:
    return _ITEM_LINE.match(answer, answer.rfind("\n", 0, sent.start) + 1) is not None


def list_lead_in(answer: str, sents: list[Sentence], i: int) -> str | None:
    """The lead-in of the markdown list whose item holds sentence ``i``: the running-text sentence
    ending with a colon right before the list's items, or ``None``."""
    if not _in_list_item(answer, sents[i]):
        return None
    k = i - 1
    while k >= 0 and _in_list_item(answer, sents[k]):
        k -= 1
    if k >= 0 and sents[k].kind == "text" and sents[k].text.rstrip().endswith((":", "：")):
        return sents[k].text
    return None


def _citation(
    item: Any, n: int, name: str, sents: list[Sentence], seen: dict[str, int], names: tuple[str, ...] = ()
) -> CitationInput:
    where = f"citations[{n}]"
    if not isinstance(item, dict):
        raise InputError(f"{name}: {where} must be an object, got {type(item).__name__}")
    _no_nulls(item, ("marker", "quote", "claim", "required_terms"), name, where + ".")
    marker = item.get("marker")
    if isinstance(marker, int) and not isinstance(marker, bool):
        marker = str(marker)
    if not isinstance(marker, str) or not marker.strip():
        raise InputError(f"{name}: {where}.marker must be a non-empty string")
    quote = item.get("quote")
    if quote is not None and not isinstance(quote, str):
        raise InputError(f"{name}: {where}.quote must be a string, got {type(quote).__name__}")
    if quote is not None and not quote.strip():
        raise InputError(f"{name}: {where}.quote is empty")
    claim = item.get("claim")
    if claim is not None and not isinstance(claim, str):
        raise InputError(f"{name}: {where}.claim must be a string, got {type(claim).__name__}")
    terms = item.get("required_terms", [])
    if not isinstance(terms, list) or not all(isinstance(t, str) for t in terms):
        raise InputError(f"{name}: {where}.required_terms must be a list of strings")
    marker = marker.strip().strip("[]【】")
    # the sentence (and clause) this citation belongs to: where the answer pairs this quote with this
    # marker, else the k-th sentence carrying the marker for the marker's k-th citation
    key = marker_key(marker)
    carrying = [i for i, s in enumerate(sents) if any(marker_key(m) == key for m in s.markers)]
    k = seen.get(key, 0)
    seen[key] = k + 1
    sentence, found = None, None
    if quote is not None:
        folded = _loose(quote)
        for i in carrying or range(len(sents)):
            for p in pair(sents[i].text, names, whole=sents[i].kind == "quote"):
                if p.quote is not None and _loose(p.quote) == folded and any(marker_key(m) == key for m in p.markers):
                    sentence, found = i, p
                    break
            if found is not None:
                break
    if sentence is None and carrying:
        sentence = carrying[min(k, len(carrying) - 1)]
    from_answer = False
    others: tuple[str, ...] = ()
    if claim is None and found is not None and sentence is not None:
        claim = clause_text(sents[sentence].text, found, names) or None
        from_answer = claim is not None
        others = quotes_in_clause(found, pair(sents[sentence].text, names, whole=sents[sentence].kind == "quote"))
    return CitationInput(
        marker, quote, claim, tuple(terms), sentence, claim_from_answer=from_answer, other_quotes=others
    )


def _loose(text: str) -> str:
    """A quote compared loosely: quote marks, ellipses, case and spacing do not matter."""
    return re.sub(r"[\W_]+", " ", text.casefold()).strip()


def _strip_markers(text: str, names: tuple[str, ...] = ()) -> str:
    return re.sub(r"\s+", " ", _syntax(names)[0].sub("", text)).strip()


def _parse_blocks(data: dict[str, Any], name: str) -> AnswerInput:
    """Anthropic Messages API style: ``content`` text blocks with ``citations`` (``char_location`` or
    ``page_location``), plus ``documents``: what each ``document_index`` was (a chunk id, or
    ``{"chunk_id": ...}``, or ``{"document": URI, "version": N}``)."""
    blocks = data.get("content")
    if not isinstance(blocks, list):
        raise _type_error(name, "content", "a list of blocks", blocks)
    documents = data.get("documents")
    if not isinstance(documents, list):
        raise InputError(f"{name}: 'documents' must list what each document_index refers to")
    sources: dict[str, str] = {}
    refs: dict[str, dict[str, Any]] = {}
    for i, doc in enumerate(documents):
        if isinstance(doc, str):
            sources[str(i)] = doc
        elif isinstance(doc, dict) and isinstance(doc.get("chunk_id"), str):
            sources[str(i)] = doc["chunk_id"]
        elif isinstance(doc, dict) and isinstance(doc.get("document"), str):
            version = doc.get("version")
            if version is not None and not isinstance(version, int):
                raise InputError(f"{name}: documents[{i}].version must be an integer")
            refs[str(i)] = {"document": doc["document"], "version": version}
        else:
            raise InputError(f"{name}: documents[{i}] must be a chunk id or an object with 'chunk_id' or 'document'")
    parts: list[str] = []
    pending: list[tuple[int, int, dict[str, Any], int]] = []  # (block start, end, citation, block number)
    pos = 0
    for b, block in enumerate(blocks):
        if not isinstance(block, dict) or block.get("type", "text") != "text" or not isinstance(block.get("text"), str):
            continue
        text = block["text"]
        for c in block.get("citations") or []:
            if not isinstance(c, dict):
                raise InputError(f"{name}: content[{b}].citations entries must be objects")
            pending.append((pos, pos + len(text), c, b))
        parts.append(text)
        pos += len(text)
    answer = "".join(parts)
    sents = split_sentences(answer)
    citations: list[CitationInput] = []
    for start_block, end, c, b in pending:
        idx = c.get("document_index")
        if not isinstance(idx, int):
            raise InputError(f"{name}: content[{b}] citation needs an integer document_index")
        quote = c.get("cited_text")
        if not isinstance(quote, str) or not quote.strip():
            raise InputError(f"{name}: content[{b}] citation cited_text is empty")
        sentence = next((i for i, s in enumerate(sents) if s.start < end <= s.end), len(sents) - 1 if sents else None)
        # the API attaches a citation to the text block it supports: that block is the claim (the
        # pairing is explicit, as a marker after its quote is in a parsed answer)
        claim = _strip_markers(answer[start_block:end]) or None
        start, stop = c.get("start_char_index"), c.get("end_char_index")
        pages = None
        if c.get("type") == "page_location":
            sp, ep = c.get("start_page_number"), c.get("end_page_number")
            if isinstance(sp, int) and isinstance(ep, int):
                pages = (sp, max(sp, ep - 1))  # Anthropic's end_page_number is exclusive
        citations.append(
            CitationInput(
                str(idx),
                quote,
                claim,
                (),
                sentence,
                start if isinstance(start, int) else None,
                stop if isinstance(stop, int) else None,
                pages,
                claim_from_answer=claim is not None,
            )
        )
    return AnswerInput(
        answer,
        sources,
        data.get("context") if isinstance(data.get("context"), str) else None,
        citations,
        sents,
        refs,
        language=answer_language(answer),
    )
