"""Finding a quote: in the cited chunk (as written, fuzzily, in its elided parts, across what
interrupts it), running on into the next chunk, and elsewhere in the injected set and the document.

:class:`Finder` does the looking for one verifier; what is read from the store is
:class:`~citeline.verify.lookup.Lookup`'s business, what it means is the verifier's.
"""

from __future__ import annotations

import functools
import itertools
import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import ScoreAlignment

from citeline.store.records import ChunkInfo, VersionInfo
from citeline.text.geometry import Box
from citeline.text.lang import Language
from citeline.text.offsets import Normalized, Original
from citeline.text.scripts import count_words, is_cjk, is_hangul
from citeline.verify.fold import fold
from citeline.verify.lookup import Lookup
from citeline.verify.match import AlignmentMemo, Match, locate, tokens
from citeline.verify.negation import negated
from citeline.verify.quotes import folded_quote, spliced

#: How many chunks, ranked by rapidfuzz partial_ratio, get a full alignment when a quote is looked
#: for among many chunks (the other injected ones, or a whole document).
SCREEN_CANDIDATES = 3
#: ... after dropping chunks holding less than this share of the quote's words (of three letters or more).
SCREEN_WORD_SHARE = 0.6
#: A quote interrupted in the chunk's text (a footnote, a running head, the other column between
#: its halves): at most this many characters between two pieces, at most this many pieces, each
#: of at least this many words.
GAP_CHARS = 700
GAP_PIECES = 4
PIECE_WORDS = 2
#: ... but the last, which may be one word of this many characters ("Xiong et al., | 2017)": a caption
#: set between a reference's authors and its year).
LAST_PIECE_CHARS = 4
#: How many places a quote's pieces are tried at in one chunk, at most.
EXTEND_BUDGET = 2000
#: A piece that opens in a script without spaces is looked for by this many first characters.
HEAD_CHARS = 4
#: How many readings of a quote as pieces are tried (each start of its first words, fewest pieces first).
READINGS = 20
#: A gap's lines are out of the passage's flow when their height differs from the passage's lines'
#: by this share (a footnote's smaller type, a watermark's larger letters).
HEIGHT_SHARE = 0.15


@dataclass
class Target:
    """What a citation points at: the chunk its marker names, or a whole document version (an
    Anthropic document)."""

    markers: list[str]  # the resolved marker per candidate chunk (one chunk, or a document's chunks)
    chunks: list[ChunkInfo]
    version: VersionInfo
    by_chunk: dict[str, str] = field(default_factory=dict)  # chunk id -> marker
    whole_version: bool = False  # a document reference: the answer's indices are into the version


class Finder:
    """Looks for quotes in one store's chunks, for one verifier (its thresholds, its lookups)."""

    def __init__(self, lookup: Lookup, *, fuzzy_threshold: float, altered_min: float, noise: frozenset[str]) -> None:
        self.lookup = lookup
        self.fuzzy_threshold = fuzzy_threshold
        self.altered_min = altered_min
        self.noise = noise
        # alignments worked out for the citation being checked, per document version (a passage
        # repeated in several chunks is aligned once); emptied for every citation
        self._memos: dict[int, AlignmentMemo] = {}

    def start_citation(self) -> None:
        self._memos = {}

    def locate_in(
        self,
        quote: str,
        chunk: ChunkInfo,
        seen: dict[str, Match],
        *,
        found_only: bool = False,
        rough: ScoreAlignment | None = None,
    ) -> Match:
        """``locate`` in one chunk; ``seen`` holds this quote's matches by chunk id, so no chunk is
        aligned twice for one quote. With ``found_only`` a near miss is not worked out (reported
        not found), for searches where only a verified match counts. ``rough`` is the quote's
        partial-ratio alignment with the chunk when a screen has worked it out."""
        m = seen.get(chunk.chunk_id)
        if m is None:
            memo = self._memos.setdefault(chunk.version_id, {})
            m = seen[chunk.chunk_id] = locate(
                quote,
                chunk.text,
                folded_chunk=self.lookup.folded(chunk),
                folded_quote=folded_quote(quote),
                vocabulary=lambda: self.lookup.vocabulary(chunk.version_id),
                threshold=self.fuzzy_threshold,
                altered_min=self.fuzzy_threshold if found_only else self.altered_min,
                memo=memo,
                lang=self.lookup.language(chunk.version_id),
                rough=rough,
                noise=self.noise,
            )
        return m

    def best_in(
        self,
        quote: str,
        chunks: Iterable[ChunkInfo],
        seen: dict[str, Match] | None = None,
        *,
        elsewhere: bool = False,
    ) -> tuple[ChunkInfo, list[Match]] | None:
        """The best place for a quote among chunks: an exact match first, then the best fuzzy one.

        Chunks are screened in C first (a substring test on the folded texts, then rapidfuzz's
        ``partial_ratio`` over all of them), so only a few candidates get the full alignment: a
        failing citation can search a whole document quickly. ``elsewhere`` is a search outside the
        cited chunk (a misattributed quote, a stale one re-anchored), where a near miss is not
        reported: pools of a few chunks are screened too, and no near miss is worked out."""
        pool = list(chunks)
        if not pool:
            return None
        seen = {} if seen is None else seen
        fq = folded_quote(quote)
        texts = [self.lookup.folded(c).text for c in pool]
        for c, text in zip(pool, texts, strict=True):
            if fq in text:
                m = self.locate_in(quote, c, seen, found_only=elsewhere)
                if m.kind == "exact":
                    return c, [m]
        if elsewhere or len(pool) > SCREEN_CANDIDATES:
            # a fuzzy match keeps most of the quote's words: drop chunks that lack them (set
            # lookups), then rank the rest by partial_ratio (in C)
            words = {w for w in tokens(fq) if len(w) > 2}
            if words:
                need = SCREEN_WORD_SHARE * len(words)
                keep = [i for i, c in enumerate(pool) if len(words & self.lookup.chunk_words(c)) >= need]
                pool, texts = [pool[i] for i in keep], [texts[i] for i in keep]
            # rank by partial_ratio (ties in pool order); the alignments found on the way are the
            # rough windows that the full alignment of the best few starts from
            cutoff = self.fuzzy_threshold - 5
            aligned = [
                (a, i)
                for i, text in enumerate(texts)
                if (a := fuzz.partial_ratio_alignment(fq, text, score_cutoff=cutoff)) is not None
            ]
            aligned.sort(key=lambda x: -x[0].score)
            roughs = {pool[i].chunk_id: a for a, i in aligned[:SCREEN_CANDIDATES]}
            pool = [pool[i] for _, i in aligned[:SCREEN_CANDIDATES]]
        else:
            roughs = {}
        best: tuple[ChunkInfo, Match] | None = None
        for c in pool:
            m = self.locate_in(quote, c, seen, found_only=elsewhere, rough=roughs.get(c.chunk_id))
            if m.kind == "fuzzy" and (best is None or m.score > best[1].score):
                best = (c, m)
        return (best[0], [best[1]]) if best is not None else None

    def find(
        self,
        parts: list[str],
        chunks: list[ChunkInfo],
        seen: dict[str, Match] | None = None,
        *,
        elsewhere: bool = False,
        refused: list[str] | None = None,
    ) -> tuple[ChunkInfo, list[Match]] | None:
        """A quote's parts among chunks: one part as :meth:`best_in` finds it, several in order in
        one chunk (:meth:`elided`, which adds to ``refused`` why parts it found were not taken)."""
        if len(parts) == 1:
            return self.best_in(parts[0], chunks, seen, elsewhere=elsewhere)
        return self.elided(parts, chunks, refused)

    def elided(
        self, parts: list[str], chunks: list[ChunkInfo], refused: list[str] | None = None
    ) -> tuple[ChunkInfo, list[Match]] | None:
        """An elided quote (``"A … B"``): every part found, in order, in the same chunk, no part
        spliced to a part of another sentence (see :func:`citeline.verify.quotes.spliced`), and no
        negation left out ("Results are shared only with the employee and are … passed to
        Northwind" drops "never"). Why parts found in order were refused goes to ``refused``."""
        for c in chunks:
            lang = self.lookup.language(c.version_id)
            text, matches, pos = c.text, [], 0
            for part in parts:
                m = locate(
                    part,
                    text[pos:],
                    vocabulary=functools.partial(self.lookup.vocabulary, c.version_id),
                    threshold=self.fuzzy_threshold,
                    altered_min=self.fuzzy_threshold,
                    lang=lang,
                    noise=self.noise,
                )
                if not m.found:
                    break
                matches.append(Match(m.kind, m.score, m.start + pos, m.end + pos, m.differences))
                pos += m.end
            else:
                pairs = list(itertools.pairwise(matches))
                if any(negated(text[a.end : b.start], lang) for a, b in pairs):
                    if refused is not None:
                        refused.append("the ellipsis leaves out a negation")  # a "never" between them
                elif any(spliced(text, a, b, lang) for a, b in pairs):
                    if refused is not None:
                        refused.append("the ellipsis joins part of one sentence to part of another")
                else:
                    return c, matches
        return None

    def across(
        self, parts: list[str], target: Target, injected: dict[str, str]
    ) -> tuple[tuple[ChunkInfo, list[Match]], ChunkInfo, ChunkInfo] | None:
        """A quote that runs from a cited chunk into the next one of its document, or into it from the
        one before, when the model saw both (that chunk injected too, or, for a document citation,
        any of its chunks): found in the two read as one text (:func:`joined_chunks`) across the end
        of the first or the start of the second. Returns the hit in the joined chunk and the two
        chunks."""
        seen = {c.chunk_id: c for c in target.chunks}
        for cid in injected.values():
            if cid not in seen and (c := self.lookup.chunk(cid)) is not None:
                seen[cid] = c
        by_place = {(c.version_id, c.ordinal): c for c in seen.values()}
        pairs: dict[str, tuple[ChunkInfo, ChunkInfo, ChunkInfo, int, int]] = {}
        for c in target.chunks:
            for first, second in (
                (by_place.get((c.version_id, c.ordinal - 1)), c),
                (c, by_place.get((c.version_id, c.ordinal + 1))),
            ):
                if first is None or second is None:
                    continue
                got = self.lookup.joined(first, second)
                if got is not None:
                    pairs[got[0].chunk_id] = (got[0], first, second, got[1], got[2])
        hit = self.find(parts, [p[0] for p in pairs.values()]) if pairs else None
        if hit is None and len(parts) == 1 and pairs:
            hit = next((h for p in pairs.values() if (h := self.interrupted(parts[0], p[0])) is not None), None)
        if hit is None:
            return None
        _, first, second, second_from, first_to = pairs[hit[0].chunk_id]
        start, end = hit[1][0].start, hit[1][-1].end
        if not (start < first_to < end or start < second_from < end):
            return None  # inside one of the two after all, and not across the other's edge
        # (a quote that runs from the cited chunk's last sentence on into the next chunk is there
        # too when the next one repeats that sentence at its start: it runs on from the cited one)
        return hit, first, second

    # ------------------------------------------------------------------ interrupted quotes

    def interrupted(self, quote: str, chunk: ChunkInfo) -> tuple[ChunkInfo, list[Match]] | None:
        """A quote whose words are in the chunk in order, in two to :data:`GAP_PIECES` pieces, each
        exact after folding and of :data:`PIECE_WORDS` words at least, with what stands between
        two pieces out of the passage's flow on the page (:meth:`_out_of_flow`): a footnote, a
        running head and page number across a page break, a line number or a margin letter, the
        other column, a caption. The quote is that passage as a reader copies it."""
        folded = self.lookup.folded(chunk)
        lang = self.lookup.language(chunk.version_id)
        for pieces in _pieces(folded_quote(quote), folded.text):
            matches = []
            for a, b in pieces:
                span = folded.map.to_original(Normalized(a, b))
                matches.append(Match("exact", 100.0, span.start, span.end))
            if all(self._set_apart(chunk, left, right, lang) for left, right in itertools.pairwise(matches)):
                return chunk, matches
        return None

    def _set_apart(self, chunk: ChunkInfo, left: Match, right: Match, lang: Language) -> bool:
        """Whether what stands between two pieces of a quote is something set apart from the passage,
        not words the quote left out (a "not" of the sentence)."""
        gap = chunk.text[left.end : right.start]
        if negated(gap, lang) and "\n" not in gap:
            return False  # a "not" left out of the sentence, not something set beside it
        return self._out_of_flow(chunk, left, right)

    def _out_of_flow(self, chunk: ChunkInfo, left: Match, right: Match) -> bool:
        """Whether what stands between two pieces of a passage is set apart from it on the page: a
        page break between them; or its lines of another height than the lines the pieces end and
        start on (a footnote's smaller type, a watermark's letters), beside them rather than
        between them (the other column, a margin note), or off the stretch of page between them."""
        raw, geometry = self.lookup.source(chunk)
        left_raw = chunk.map.to_original(Normalized(left.start, left.end))
        right_raw = chunk.map.to_original(Normalized(right.start, right.end))
        gap = Original(left_raw.end, right_raw.start)
        if gap.end <= gap.start:
            return False
        page_break = "\f" in raw[gap.start - chunk.raw_start : gap.end - chunk.raw_start]
        if not len(geometry):
            return page_break  # no page geometry (a text file): nothing else says it is set apart
        before = geometry.boxes(left_raw, raw, raw_start=chunk.raw_start)
        after = geometry.boxes(right_raw, raw, raw_start=chunk.raw_start)
        between = geometry.boxes(gap, raw, raw_start=chunk.raw_start)
        if not before or not after or not between:
            return page_break
        last, first = before[-1], after[0]
        if page_break:
            # across a page break, what stands between is the page's foot and the next one's head,
            # not the rest of the line the first piece ends on, nor the start of the line the
            # second begins on ("… the birth canal, | making childbirth easier …")
            return not _on_the_line(last, first, between)
        inner = [b for b in between if b.page == last.page or b.page == first.page]
        if any(b.page != last.page for b in between) or last.page != first.page:
            return True
        height = statistics.median(_height(b) for b in (last, first))
        gap_height = statistics.median(_height(b) for b in inner)
        if abs(gap_height - height) > HEIGHT_SHARE * height:
            return True
        column = (min(last.x0, first.x0), max(last.x1, first.x1))
        if all(b.x1 <= column[0] or b.x0 >= column[1] for b in inner):
            return True  # beside the passage: the other column, a margin
        top, bottom = min(last.top, first.top), max(last.bottom, first.bottom)
        return all(b.bottom <= top or b.top >= bottom for b in inner)

    # ------------------------------------------------------------------ elsewhere

    @staticmethod
    def at_given_indices(
        chunk_start: int | None, chunk_end: int | None, target: Target, quote: str
    ) -> tuple[ChunkInfo, list[Match]] | None:
        """An Anthropic ``char_location`` names where the quote is in the cited chunk: take it when the
        characters there fold to the quote (otherwise the quote is searched for as usual)."""
        s, e = chunk_start, chunk_end
        chunk = target.chunks[0] if target.chunks else None
        if chunk is None or s is None or e is None or not 0 <= s < e <= len(chunk.text):
            return None
        if fold(chunk.text[s:e]).text != folded_quote(quote):
            return None
        return chunk, [Match("exact", 100.0, s, e)]

    def misattributed(
        self, quote: str, target: Target, injected: dict[str, str], *, searched: Iterable[str] = ()
    ) -> tuple[str | None, ChunkInfo, list[Match]] | None:
        """Where else the quote is: in another injected chunk (with its marker), or elsewhere in the
        cited chunks' document (no marker). ``searched`` are chunks the quote was not found in
        already (a cited one, injected again under another marker, is not searched twice)."""
        skip = set(searched)
        others = {
            mk: c
            for mk, cid in injected.items()
            if mk not in target.markers and cid not in skip and (c := self.lookup.chunk(cid)) is not None
        }
        hit = self.best_in(quote, others.values(), elsewhere=True)
        if hit is not None:
            return next(mk for mk, x in others.items() if x is hit[0]), hit[0], hit[1]
        if target.chunks:
            # the rest of the document, but for the chunks just searched
            skip |= {c.chunk_id for c in target.chunks} | {c.chunk_id for c in others.values()}
            rest = [c for c in self.lookup.version_chunks(target.chunks[0].version_id) if c.chunk_id not in skip]
            hit = self.best_in(quote, rest, elsewhere=True)
            if hit is not None:
                return None, hit[0], hit[1]
        return None

    def in_current(self, parts: list[str], version: VersionInfo) -> tuple[VersionInfo | None, Any]:
        """The document's current version, and where the quote is in it (``None`` when it is not)."""
        current = self.lookup.current_version(version.document_uri, collection=version.collection)
        if current is None:
            return None, None
        chunks = self.lookup.version_chunks(current.version_id)
        return current, self.find(parts, chunks, elsewhere=True)


def _height(b: Box) -> float:
    return max(0.1, b.bottom - b.top)


#: How far along a line (in line heights) the passage's next word stands from a piece's end.
NEXT_WORD = 2


def _on_the_line(last: Box, first: Box, between: list[Box]) -> bool:
    """Whether words of the passage's own lines stand between two pieces of a quote: on the line the
    first piece ends on, right after it, or on the line the second begins on, right before it, at
    the pieces' height (a line's words a reader does not skip)."""
    height = statistics.median(_height(b) for b in (last, first))
    for b in between:
        if abs(_height(b) - height) > HEIGHT_SHARE * height:
            continue
        for ends, after in ((last, True), (first, False)):
            if b.page != ends.page or not (b.top < ends.bottom and b.bottom > ends.top):
                continue
            gap = (b.x0 - ends.x1) if after else (ends.x0 - b.x1)
            if -1 <= gap <= NEXT_WORD * height:
                return True  # (a figure's panel letters far along the line are not its words)
    return False


_WORD_END = re.compile(r"[^\W_](?![^\W_])|[^\w\s]")


def _unspaced(ch: str) -> bool:
    """A character a line may break after without a hyphen: Han, kana, a Hangul syllable."""
    return is_cjk(ch) or is_hangul(ch)


def _inside_word(text: str, k: int) -> bool:
    """Whether ``k`` falls inside a word of ``text`` (between two letters or digits, neither of a
    script written without spaces: between two Han characters is a boundary)."""
    return (
        0 < k < len(text)
        and text[k - 1].isalnum()
        and text[k].isalnum()
        and not _unspaced(text[k - 1])
        and not _unspaced(text[k])
    )


def _head(fq: str) -> str:
    """What a piece is looked for by: its first :data:`PIECE_WORDS` words, or its first
    :data:`HEAD_CHARS` characters where it opens in a script without spaces."""
    if fq[:1] and _unspaced(fq[0]):
        return fq[:HEAD_CHARS]
    return " ".join(fq.split(" ")[:PIECE_WORDS])


def _words(piece: str) -> int:
    return count_words(piece.split())


def _pieces(fq: str, text: str) -> list[list[tuple[int, int]]]:
    """The readings of the folded quote ``fq`` as pieces of ``text`` in order (folded offsets into
    ``text``), each piece ending on a word boundary (or after a hyphen: "state-of-the-" | "art";
    anywhere between two Han characters), of :data:`PIECE_WORDS` words at least, at most
    :data:`GAP_CHARS` apart and :data:`GAP_PIECES` of them; fewest pieces first (a quote cut into
    two is likelier than into four)."""
    if _words(fq) < 2 * PIECE_WORDS:
        return []
    head = _head(fq)
    found: list[list[tuple[int, int]]] = []
    budget = [EXTEND_BUDGET]
    at = text.find(head)
    while at >= 0 and len(found) < READINGS and budget[0] > 0:
        if not _inside_word(text, at):
            got = _extend(fq, text, at, at + GAP_CHARS + len(fq), budget=budget)
            if got is not None and len(got) > 1:
                found.append(got)
        at = text.find(head, at + 1)
    return sorted(found, key=len)


def _cut(fq: str, n: int) -> int:
    """The last place at or before ``n`` where the quote may be cut into two pieces: before a space,
    after a hyphen ("state-of-the-" | "art": a word the source hyphenated across the gap), or
    between two Han characters or Hangul syllables ("担保证" | "券账户": a column's label read into
    a word; "여" | "성": a Korean word broken at a line's end)."""
    k = n
    while k > 0:
        if k < len(fq) and (
            fq[k] == " " or (fq[k - 1] == "-" and k > 1) or (_unspaced(fq[k - 1]) and _unspaced(fq[k]))
        ):
            return k
        k -= 1
    return -1


def _extend(
    fq: str, text: str, at: int, limit: int, depth: int = 1, *, budget: list[int] | None = None
) -> list[tuple[int, int]] | None:
    """Pieces of ``fq`` starting at ``text[at]``: the longest common prefix that ends on a word
    boundary in both, then the rest of the quote looked for after it (nearest first). ``budget``
    counts down the places tried, so that a text repeating a quote's words (a table of one word per
    cell) costs at most :data:`EXTEND_BUDGET` of them."""
    if budget is not None:
        if budget[0] <= 0:
            return None
        budget[0] -= 1
    n = 0
    while n < len(fq) and at + n < len(text) and fq[n] == text[at + n]:
        n += 1
    if n == len(fq):
        return None if _inside_word(text, at + n) else [(at, at + n)]
    cut = _cut(fq, n)  # the quote's last word boundary within the shared prefix ...
    while cut > 0 and _inside_word(text, at + cut) and fq[cut - 1] != "-":
        cut = _cut(fq, cut - 1)  # ... that is one in the text too
    if cut <= 0 or _words(fq[:cut]) < PIECE_WORDS or depth >= GAP_PIECES:
        return None
    rest = fq[cut:].lstrip()
    if _words(rest) < PIECE_WORDS and fq[cut - 1] != "-" and len(rest) < LAST_PIECE_CHARS:
        return None
    head = _head(rest)
    nxt = text.find(head, at + cut + 1, limit)
    while nxt >= 0 and (budget is None or budget[0] > 0):
        if not _inside_word(text, nxt) or fq[cut - 1] == "-":
            tail = _extend(rest, text, nxt, min(len(text), nxt + GAP_CHARS + len(rest)), depth + 1, budget=budget)
            if tail is not None:
                return [(at, at + cut), *tail]
        nxt = text.find(head, nxt + 1, limit)
    return None
