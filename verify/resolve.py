"""From a quote found in a chunk to where it is in the document: the absolute range in the version's
raw stream, the segments its text comes from (what stands between them left out: a running footer
and header across a page break, a footnote inside a sentence), pages and boxes."""

from __future__ import annotations

from typing import Any

from citeline.store.records import ChunkInfo, VersionInfo
from citeline.text.offsets import Normalized, Original
from citeline.text.scripts import is_cjk
from citeline.verify.lookup import Lookup
from citeline.verify.match import Match
from citeline.verify.report import Location

#: What cleaning deletes inside a passage without it being furniture: line-end and soft hyphens,
#: whitespace. A gap between two source spans holding anything else (a running footer and header,
#: a page number), or a page break, separates two segments.
_INSIDE_A_PASSAGE = " \t\n\r-\u00ad\u2010"


def resolve(
    lookup: Lookup,
    chunk: ChunkInfo,
    matches: list[Match],
    *,
    elided: bool | None = None,
    quote: str | None = None,
) -> Location:
    """Where matches (the parts of one quote) are in the version's raw stream: the enclosing range,
    the segments the text comes from, pages, boxes. The parts of an elided quote are joined with
    `` … `` (``elided``, by default when there are several matches); the pieces of one quote found
    around what interrupts it (``elided=False``) with a space, or with none where ``quote`` writes
    the two as one word (a word of a script without spaces broken at a line's end: "여" | "성")."""
    version = lookup.version(chunk.version_id)
    raw, geometry = lookup.source(chunk)
    spans: list[Original] = []
    for m in matches:
        spans.extend(chunk.map.source_spans(Normalized(m.start, m.end)))
    first = chunk.map.to_original(Normalized(matches[0].start, matches[0].end))
    last = chunk.map.to_original(Normalized(matches[-1].start, matches[-1].end))
    raw_range = Original(first.start, last.end)
    boxes = geometry.boxes(spans, raw, raw_start=chunk.raw_start)
    pages_info = lookup.pages(chunk.version_id)

    def page_of(offset: int) -> int:
        return next((p.page_no for p in pages_info if p.raw_start <= offset < max(p.raw_end, p.raw_start + 1)), 0)

    segments: list[dict[str, int]] = []
    for sp in merged(spans, raw, chunk.raw_start):
        segments.append({"start": sp.start, "end": sp.end, "page": page_of(sp.start)})
    pieces = [raw[s["start"] - chunk.raw_start : s["end"] - chunk.raw_start] for s in segments]
    groups = [_segments_of(m, chunk, segments) for m in matches]
    text = _join_parts(pieces, elided=len(matches) > 1 if elided is None else elided, parts=groups, quote=quote)
    pages = sorted({b.page for b in boxes}) or sorted({s["page"] for s in segments if s["page"]})
    return Location(
        document_uri=version.document_uri,
        version_no=version.version_no,
        content_sha256=version.content_sha256,
        current=version.is_current,
        start=raw_range.start,
        end=raw_range.end,
        text=text,
        pages=tuple(pages),
        boxes=tuple(b.as_dict() for b in boxes),
        version_id=chunk.version_id,
        segments=tuple(segments),
    )


def found(lookup: Lookup, chunk: ChunkInfo, matches: list[Match]) -> dict[str, Any]:
    """Where a quote was found outside the cited chunk (``found_in``, ``stale``)."""
    return {
        "chunk_id": chunk.chunk_id,
        "status": "verified" if all(m.kind == "exact" for m in matches) else "verified_fuzzy",
        "score": min(m.score for m in matches),
        **location_json(resolve(lookup, chunk, matches)),
    }


def merged(spans: list[Original], raw: str, raw_start: int) -> list[Original]:
    """The segments of a passage: its source spans in order, joined across what cleaning removed
    inside the passage (a line-end hyphen, a soft hyphen, spaces), apart where furniture or a page
    break stands between them; spans of whitespace alone are dropped."""
    out: list[Original] = []
    for sp in sorted(spans, key=lambda x: x.start):
        if not raw[sp.start - raw_start : sp.end - raw_start].strip():
            continue
        if out:
            gap = raw[out[-1].end - raw_start : sp.start - raw_start]
            if "\f" not in gap and not gap.strip(_INSIDE_A_PASSAGE):
                out[-1] = Original(out[-1].start, max(out[-1].end, sp.end))
                continue
        out.append(sp)
    return out


def _segments_of(m: Match, chunk: ChunkInfo, segments: list[dict[str, int]]) -> list[int]:
    span = chunk.map.to_original(Normalized(m.start, m.end))
    return [k for k, s in enumerate(segments) if s["start"] < span.end and span.start < s["end"]]


def _join_parts(pieces: list[str], *, elided: bool, parts: list[list[int]], quote: str | None = None) -> str:
    """The text of segments: pieces of one passage joined with a space (what a page break, a footer
    and a header between them stood for), or with none where the two are one word of ``quote``,
    parts of an elided quote with `` … ``."""
    if not elided:
        if len(pieces) <= 1:
            return pieces[0] if pieces else ""
        text = pieces[0].strip()
        for piece in pieces[1:]:
            # (a word the source hyphenated across what stands between: "state-" | "of-the-art";
            # two Han characters of a script without spaces: "担保证" | "券账户")
            piece = piece.strip()
            glued = text.endswith("-") or _one_word(text, piece, quote)
            text += ("" if glued else " ") + piece
        return text
    joined = [" ".join(pieces[k].strip() for k in ks) for ks in parts if ks]
    return " … ".join(joined)


def _one_word(text: str, piece: str, quote: str | None) -> bool:
    """Whether the end of ``text`` and the start of ``piece`` are one word: two Han characters, or
    two letters of a script without spaces that ``quote`` writes together ("여" | "성": "여성")."""
    if not text or not piece or not text[-1].isalpha() or not piece[0].isalpha():
        return False
    if is_cjk(text[-1]) and is_cjk(piece[0]):
        return True
    if quote is None or text[-1].isascii() or piece[0].isascii():
        return False
    tail, head = text.split()[-1], piece.split()[0]
    return tail + head in quote and f"{tail} {head}" not in quote


def location_json(loc: Location) -> dict[str, Any]:
    return {
        "document": {
            "uri": loc.document_uri,
            "version": loc.version_no,
            "content_hash": f"sha256:{loc.content_sha256}",
            "current": loc.current,
        },
        "version_id": loc.version_id,
        "range": loc.range_json(),
        "segments": loc.segments_json(),
        "text": loc.text,
        "pages": list(loc.pages),
        "boxes": list(loc.boxes),
    }


def document_json(version: VersionInfo) -> dict[str, Any]:
    return {
        "uri": version.document_uri,
        "version": version.version_no,
        "content_hash": f"sha256:{version.content_sha256}",
        "current": version.is_current,
    }
