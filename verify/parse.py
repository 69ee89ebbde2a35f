"""Reading an answer document: explicit citations, citations parsed from the answer's markers and
quoted spans, or Anthropic-style citation blocks. The format is documented in the README and in
``verify/schema/answer.schema.json``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citeline.ingest.chunker import sentences
from citeline.verify.errors import InputError

#: Answers larger than this are refused (an answer is a few KB; 5 MB is a mistake, not an answer).
MAX_ANSWER_BYTES = 5 * 1024 * 1024

# [S1], [1], [S1, S2], [1][2], 【1】, 【3†source】
_BRACKET = re.compile(r"\[\s*(S?\d+(?:\s*[,;]\s*S?\d+)*)\s*\]|【\s*(\d+)(?:†[^】]*)?】")
_TRAILING_MARKERS = re.compile(rf"(?:[ \t]?(?:{_BRACKET.pattern}))+")
_QUOTED = re.compile(r"“([^”]+)”|\"([^\"]+)\"|„([^“”]+)[“”]|«\s*([^»]+?)\s*»")


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


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    start: int
    end: int
    markers: tuple[str, ...]


@dataclass
class AnswerInput:
    answer: str
    sources: dict[str, str] | None
    context: str | None
    citations: list[CitationInput]
    sentences: list[Sentence]
    document_refs: dict[str, dict[str, Any]] = field(default_factory=dict)  # marker -> {"document", "version"}


def load_answer(source: str | bytes | Path | dict[str, Any], *, name: str = "answer") -> dict[str, Any]:
    """Read and size-check an answer document; ``name`` is used in error messages."""
    if isinstance(source, dict):
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
        data = json.loads(source)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = f" at line {exc.lineno} column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise InputError(f"{name}: not valid JSON{where} ({getattr(exc, 'msg', exc)})") from None
    if not isinstance(data, dict):
        raise InputError(f"{name}: expected a JSON object, got {type(data).__name__}")
    return data


def _type_error(name: str, key: str, expected: str, value: Any) -> InputError:
    return InputError(f"{name}: {key!r} must be {expected}, got {type(value).__name__}")


def split_sentences(answer: str) -> list[Sentence]:
    out: list[Sentence] = []
    for para in re.finditer(r"[^\n]+(?:\n(?!\s*\n)[^\n]+)*", answer):
        for s, e in sentences(answer, para.start(), para.end()):
            # markers right after the full stop ("... 90 days. [S1]") belong to the sentence before
            trailing = _TRAILING_MARKERS.match(answer, e, para.end())
            if trailing:
                e = trailing.end()
            if out and s < out[-1].end:
                s = out[-1].end
                while s < e and answer[s].isspace():
                    s += 1
            if s >= e:
                continue
            text = answer[s:e]
            out.append(Sentence(text, s, e, tuple(markers_in(text))))
    return out


def markers_in(text: str) -> list[str]:
    found: list[str] = []
    for m in _BRACKET.finditer(text):
        for token in re.split(r"\s*[,;]\s*", m.group(1) or m.group(2)):
            if token and token not in found:
                found.append(token)
    return found


def quotes_in(text: str) -> list[str]:
    return [next(g for g in m.groups() if g is not None).strip() for m in _QUOTED.finditer(text)]


def parse_answer(data: dict[str, Any], *, name: str = "answer") -> AnswerInput:
    """Validate the answer document and produce the citations to check."""
    if "content" in data and "answer" not in data:
        return _parse_blocks(data, name)
    answer = data.get("answer")
    if not isinstance(answer, str):
        raise (
            _type_error(name, "answer", "a string", answer)
            if "answer" in data
            else InputError(f"{name}: missing 'answer'")
        )
    sources = data.get("sources")
    context = data.get("context")
    if sources is not None and (
        not isinstance(sources, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in sources.items())
    ):
        raise InputError(f"{name}: 'sources' must map markers to chunk ids (strings)")
    if context is not None and not isinstance(context, str):
        raise _type_error(name, "context", "a context id string", context)
    sents = split_sentences(answer)
    raw_citations = data.get("citations")
    citations: list[CitationInput] = []
    if raw_citations is None:
        for i, sent in enumerate(sents):
            quotes: list[str | None] = [*quotes_in(sent.text)] or [None]
            for marker in sent.markers:
                for q in quotes:
                    citations.append(CitationInput(marker, q, claim=_strip_markers(sent.text), sentence=i))
    else:
        if not isinstance(raw_citations, list):
            raise _type_error(name, "citations", "a list", raw_citations)
        seen: dict[str, int] = {}
        for n, item in enumerate(raw_citations):
            cit = _citation(item, n, name, sents, seen)
            citations.append(cit)
    return AnswerInput(answer, sources, context, citations, sents)


def _citation(item: Any, n: int, name: str, sents: list[Sentence], seen: dict[str, int]) -> CitationInput:
    where = f"citations[{n}]"
    if not isinstance(item, dict):
        raise InputError(f"{name}: {where} must be an object, got {type(item).__name__}")
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
    # the sentence this citation belongs to: the one quoting it, else the k-th sentence carrying
    # the marker for the marker's k-th citation
    carrying = [i for i, s in enumerate(sents) if marker in s.markers or marker.lstrip("Ss") in s.markers]
    quoting = [i for i in carrying if quote is not None and quote in sents[i].text]
    k = seen.get(marker, 0)
    seen[marker] = k + 1
    sentence = quoting[0] if quoting else carrying[min(k, len(carrying) - 1)] if carrying else None
    return CitationInput(marker, quote, claim, tuple(terms), sentence)


def _strip_markers(text: str) -> str:
    return re.sub(r"\s+", " ", _BRACKET.sub("", text)).strip()


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
    pending: list[tuple[int, dict[str, Any], int]] = []  # (block offset, citation, block number)
    pos = 0
    for b, block in enumerate(blocks):
        if not isinstance(block, dict) or block.get("type", "text") != "text" or not isinstance(block.get("text"), str):
            continue
        text = block["text"]
        for c in block.get("citations") or []:
            if not isinstance(c, dict):
                raise InputError(f"{name}: content[{b}].citations entries must be objects")
            pending.append((pos + len(text), c, b))
        parts.append(text)
        pos += len(text)
    answer = "".join(parts)
    sents = split_sentences(answer)
    citations: list[CitationInput] = []
    for end, c, b in pending:
        idx = c.get("document_index")
        if not isinstance(idx, int):
            raise InputError(f"{name}: content[{b}] citation needs an integer document_index")
        quote = c.get("cited_text")
        if not isinstance(quote, str) or not quote.strip():
            raise InputError(f"{name}: content[{b}] citation cited_text is empty")
        sentence = next((i for i, s in enumerate(sents) if s.start < end <= s.end), len(sents) - 1 if sents else None)
        claim = _strip_markers(sents[sentence].text) if sentence is not None and sents else None
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
            )
        )
    return AnswerInput(
        answer,
        sources,
        data.get("context") if isinstance(data.get("context"), str) else None,
        citations,
        sents,
        refs,
    )
