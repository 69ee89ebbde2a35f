"""Reading an answer document: explicit citations, citations parsed from the answer's markers and
quoted spans, or Anthropic-style citation blocks. The format is documented in the README and in
``verify/schema/answer.schema.json``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from citeline.text.lang import NONE, Language
from citeline.text.sentences import sentences
from citeline.verify.errors import InputError
from citeline.verify.load import no_nulls, type_error
from citeline.verify.markers import (
    GROUP_GAP,
    QUOTED,
    is_named,
    marker_key,
    markers_in,
    markers_of,
    strip_markers,
    syntax,
)
from citeline.verify.pairing import answer_language, clause_text, pair, quotes_in_clause, uncited_text

#: The most quotes and markers one answer may hold, and the most markers one marker list may name:
#: an answer beyond them is refused in one line, before any pairing (verification is linear in the
#: answer up to them; 10,000 markers after one quote, or 10,000 quotes before one marker, took
#: minutes and gigabytes before).
MAX_CITATIONS = 2000
MAX_MARKERS = 50


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
        return self.data is None or all(m in self.names or not is_named(m) for m in markers)


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
    group = syntax(names)[0]
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
    return not QUOTED.search(line) and line.rstrip()[-1:] not in (".", "!", "?")


def split_sentences(answer: str, names: tuple[str, ...] = (), lang: Language | None = None) -> list[Sentence]:
    """The answer's sentences, in its markdown blocks (see :func:`_blocks`): a heading is one
    sentence, and so is a block quote; a list item is split like a paragraph. A sentence end inside
    a quoted span ("… 90 days" [S1]) is none: the quote, and the sentence around it, go on.
    ``names``: the injected markers (see :func:`syntax`); ``lang``: the answer's language (whose
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


def _sentences_in(answer: str, start: int, end: int, names: tuple[str, ...], lang: Language) -> list[Sentence]:
    trailing_markers = syntax(names)[1]
    out: list[Sentence] = []
    quoted = [m.span() for m in QUOTED.finditer(answer, start, end)]
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


def _bounded(answer: str, names: tuple[str, ...], name: str) -> None:
    """Refuse, in one line, an answer with more quotes or markers than one answer may hold, or a
    marker list longer than one may be (counted in one pass each, before any pairing)."""
    quotes = sum(1 for _ in itertools.islice(QUOTED.finditer(answer), MAX_CITATIONS + 1))
    if quotes > MAX_CITATIONS:
        raise InputError(f"{name}: more than {MAX_CITATIONS} quotes; at most {MAX_CITATIONS} are checked in one answer")
    run = total = 0
    end = -1
    for m in syntax(names)[0].finditer(answer):
        found, _ = markers_of(m, names)
        total += len(found)
        run = run + len(found) if GROUP_GAP.fullmatch(answer, end, m.start()) and end >= 0 else len(found)
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
            type_error(name, "answer", "a string", answer)
            if "answer" in data
            else InputError(f"{name}: missing 'answer'")
        )
    no_nulls(data, ("sources", "context", "citations"), name)
    sources = data.get("sources")
    context = data.get("context")
    if sources is not None and (
        not isinstance(sources, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in sources.items())
    ):
        raise InputError(f"{name}: 'sources' must map markers to chunk ids (strings)")
    if context is not None and not isinstance(context, str):
        raise type_error(name, "context", "a context id string", context)
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
            raise type_error(name, "citations", "a list", raw_citations)
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
    no_nulls(item, ("marker", "quote", "claim", "required_terms"), name, where + ".")
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


def _parse_blocks(data: dict[str, Any], name: str) -> AnswerInput:
    """Anthropic Messages API style: ``content`` text blocks with ``citations`` (``char_location`` or
    ``page_location``), plus ``documents``: what each ``document_index`` was (a chunk id, or
    ``{"chunk_id": ...}``, or ``{"document": URI, "version": N}``)."""
    blocks = data.get("content")
    if not isinstance(blocks, list):
        raise type_error(name, "content", "a list of blocks", blocks)
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
        claim = strip_markers(answer[start_block:end]) or None
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
