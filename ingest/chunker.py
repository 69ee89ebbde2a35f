"""A paragraph- and sentence-aware chunker over cleaned text.

Units are sentences (a sentence longer than the target is cut at word boundaries, never inside a
word); chunks are runs of whole units packed up to the target size, ending early at a paragraph break
once they are reasonably full, and overlapping the previous chunk by whole trailing units, across a
paragraph break too (a heading or a list's lead-in comes again before what it introduces, and a
sentence another reader runs on over the break is whole in one chunk). Every sentence no longer than
the target therefore lands whole in at least one chunk.

Each chunk keeps its cleaned span, its raw span (through the document's map) and the document map
restricted to it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from citeline.ingest.errors import ChunkerError
from citeline.text.lang import NONE, Language
from citeline.text.offsets import Normalized, OffsetMap, Original
from citeline.text.scripts import is_cjk
from citeline.text.sentences import sentences

#: Changes with any change to how text is cut into chunks; it enters the pipeline settings'
#: fingerprint, so stored documents chunked the old way report that they need ``--reprocess``.
#: 6: one sentence splitter (citeline.text.sentences), the document language's abbreviations;
#: 7: no sentence ends before a comma ("x1, . . . , xn").
CHUNKER_VERSION = 7
#: Default target size in characters (about 200-250 English tokens).
DEFAULT_TARGET = 1000
#: Default overlap in characters: trailing whole sentences of a chunk repeated at the next one's start.
DEFAULT_OVERLAP = 150
#: A chunk this full (share of the target) ends at the next paragraph break instead of running on.
PARAGRAPH_FILL = 0.6

_PARAGRAPH = re.compile(r"\n\n")
_WORD_GAP = re.compile(r"\s+")
#: A unit that introduces what follows: it ends with a colon (ASCII or full width).
_LEAD_IN = re.compile(r"[:：]\s*\Z")
_TOKEN = re.compile(r"[^\W\d_]+|\d+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True, slots=True)
class ChunkDraft:
    """A chunk before it is stored: its text, where it sits in the cleaned text and the raw stream."""

    ordinal: int
    text: str
    clean: Normalized
    raw: Original
    map: OffsetMap  # cleaned chunk offsets (from 0) -> absolute raw offsets


def approx_tokens(text: str) -> int:
    """A model-independent token estimate: words, numbers and punctuation marks; one per CJK character."""
    n = 0
    for m in _TOKEN.finditer(text):
        tok = m.group()
        n += sum(1 for ch in tok if is_cjk(ch)) or 1
    return n


def _pieces(
    text: str, start: int, end: int, limit: int, measure: Callable[[int, int], int]
) -> Iterator[tuple[int, int]]:
    """Cut an over-long sentence at word boundaries into pieces no longer than ``limit`` when possible."""
    gaps = [(m.start(), m.end()) for m in _WORD_GAP.finditer(text, start, end)]
    # CJK text has no spaces: every boundary between two CJK characters is a word boundary
    cuts: list[tuple[int, int]] = sorted(
        gaps + [(i, i) for i in range(start + 1, end) if is_cjk(text[i - 1]) and is_cjk(text[i])]
    )
    s = start
    best: tuple[int, int] | None = None  # the last cut that keeps the current piece within the limit
    for g_start, g_end in cuts:
        if g_start <= s:
            continue
        if measure(s, g_start) > limit:
            if best is not None:
                yield s, best[0]
                s, best = best[1], None
            if measure(s, g_start) > limit:  # one word longer than the limit stays whole
                yield s, g_start
                s = g_end
                continue
        best = (g_start, g_end)
    if best is not None and measure(s, end) > limit:
        yield s, best[0]
        s = best[1]
    if s < end:
        yield s, end


def chunk(
    text: str,
    doc_map: OffsetMap,
    *,
    target: int = DEFAULT_TARGET,
    overlap: int = DEFAULT_OVERLAP,
    unit: Literal["chars", "tokens"] = "chars",
    lang: Language = NONE,
) -> list[ChunkDraft]:
    """Chunk cleaned ``text`` whose map to the raw stream is ``doc_map``.

    ``target`` and ``overlap`` count characters, or approximate tokens with ``unit="tokens"``
    (see :func:`approx_tokens`). ``lang`` is the text's language: its abbreviations end no sentence
    (:mod:`citeline.text.sentences`).
    """
    if target <= 0:
        raise ChunkerError(f"Chunk target {target} must be positive")
    if not 0 <= overlap < target:
        raise ChunkerError(f"Chunk overlap {overlap} must be at least 0 and below the target {target}")
    if doc_map.normalized_length != len(text):
        raise ChunkerError(f"Map covers {doc_map.normalized_length} characters but the text has {len(text)}")
    if unit == "chars":

        def measure(a: int, b: int) -> int:
            return b - a
    elif unit == "tokens":

        def measure(a: int, b: int) -> int:
            return approx_tokens(text[a:b])
    else:
        raise ChunkerError(f"Chunk unit {unit!r} is neither 'chars' nor 'tokens'")

    # units: (start, end, starts_paragraph)
    units: list[tuple[int, int, bool]] = []
    para_start = 0
    for m in [*_PARAGRAPH.finditer(text), None]:
        para_end = m.start() if m else len(text)
        first = True
        for s, e in sentences(text, para_start, para_end, lang):
            for ps, pe in _pieces(text, s, e, target, measure) if measure(s, e) > target else [(s, e)]:
                units.append((ps, pe, first))
                first = False
        if m:
            para_start = m.end()

    chunks: list[ChunkDraft] = []
    i = 0
    while i < len(units):
        j = i + 1  # units[i:j] form the chunk
        while j < len(units) and measure(units[i][0], units[j][1]) <= target:
            if units[j][2] and measure(units[i][0], units[j - 1][1]) >= PARAGRAPH_FILL * target:
                break
            j += 1
        c_start, c_end = units[i][0], units[j - 1][1]
        span = Normalized(c_start, c_end)
        chunks.append(
            ChunkDraft(len(chunks), text[c_start:c_end], span, doc_map.to_original(span), doc_map.slice(span))
        )
        if j >= len(units):
            break
        # next chunk: back off over trailing whole units that fit in the overlap (a paragraph break
        # among them too), as long as the next chunk still has room for the first unit not yet chunked.
        # A last unit that is a lead-in (it ends with a colon: "…found them to be a better signal:")
        # comes again whatever its length, before the quote or list it introduces.
        k = j
        lead_in = _LEAD_IN.search(text, units[j - 1][0], units[j - 1][1]) is not None
        while (
            k - 1 > i
            and (measure(units[k - 1][0], c_end) <= overlap or (lead_in and k == j))
            and measure(units[k - 1][0], units[j][1]) <= target
        ):
            k -= 1
        i = k
    return chunks
