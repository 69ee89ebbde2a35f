"""``verify_answer``: check every citation of an answer against the store, deterministically.

For each citation, in order (:meth:`Verifier.check`):

1. **target**: the marker must be one that was injected (``fabricated_marker``) and name a stored
   chunk (``unknown_chunk``); each marker of a marker list is a citation of its own;
2. **gates**: there must be a quote (``no_quote``), long enough to mean something (``too_short``;
   each part of an elided quote, ``"A … B"``, on its own);
3. **search**: the quote is looked up in the cited chunk(s) (``verified``, ``verified_fuzzy``; a quote
   running on into the next chunk, injected too, in the two read as one), then in the other injected
   chunks and elsewhere in the same document (``misattributed``), and else reported
   ``quote_altered`` (close, with the drift shown) or ``quote_not_found``;
4. **flags**: numbers and negation of the claim (the clause around the quote) against the evidence,
   required terms, a superseded version (with the quote re-anchored in the current one, and
   ``stale_gone`` when it is not there), a location that disagrees with the one the answer gave, a
   source file changed on disk.

A citation *passes* when it is verified and none of the failing flags is set
(:data:`citeline.verify.report.DEFAULT_FAIL_ON`, ``--fail-on``). What is read from the store, and kept,
is the business of :class:`citeline.verify.lookup.Lookup`.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import ScoreAlignment

from citeline.ingest.extract.files import sha256_file
from citeline.ingest.offsets import Normalized, Original
from citeline.ingest.scripts import CJK_CHARS, count_words
from citeline.store.errors import NotFound
from citeline.store.records import ChunkInfo, VersionInfo
from citeline.store.store import Store
from citeline.verify.coverage import is_asserting
from citeline.verify.errors import InputError
from citeline.verify.fold import fold
from citeline.verify.lookup import Lookup
from citeline.verify.match import (
    ALTERED_MIN,
    FUNCTION_WORDS,
    FUZZY_THRESHOLD,
    NEGATIONS,
    AlignmentMemo,
    Match,
    _unaccented,
    drift,
    locate,
    ocr_normal,
    tokens,
)
from citeline.verify.numbers import Numbers, numbers, same_unit_elsewhere, unbacked
from citeline.verify.parse import (
    CLAUSE_BREAK,
    AnswerInput,
    CitationInput,
    load_answer,
    parse_answer,
    resolve_marker,
)
from citeline.verify.report import (
    DEFAULT_FAIL_ON,
    FLAGS,
    CitationResult,
    Flag,
    Location,
    Report,
    SentenceResult,
)

#: A quote shorter than this (characters, after folding) or with fewer words matches too easily.
MIN_QUOTE_CHARS = 20
MIN_QUOTE_WORDS = 4
#: How many chunks, ranked by rapidfuzz partial_ratio, get a full alignment when a quote is looked
#: for among many chunks (the other injected ones, or a whole document).
SCREEN_CANDIDATES = 3
#: ... after dropping chunks holding less than this share of the quote's words (of three letters or more).
SCREEN_WORD_SHARE = 0.6
POLICIES = ("annotate", "strict", "strip")
#: Fuzzy thresholds a user may set (scores are 0-100; below 50, unrelated text of the same length
#: scores as a match).
THRESHOLD_RANGE = (50.0, 100.0)

_NUMBER = re.compile(r"(?<![\d.,])\d+(?:[.,]\d+)*(?![\d])")
_WORDS = re.compile(r"[^\W_]+")
_CJK = re.compile(f"[{CJK_CHARS}]")
_WORD_TOKEN = re.compile(r"[^\W_]+(?:[.,][^\W_]+)*")


def _word_count(text: str) -> int:
    """Words of ``text``; in scripts written without spaces (Chinese, Japanese), a word for every
    two characters, as the layout counts them (a run of them is not one word)."""
    words = _WORDS.findall(text)
    if _CJK.search(text) is None:  # nearly every quote: no character to count one by one
        return len(words)
    return count_words(words)


def _ocr_words_blanked(said: str, evidence: str) -> str:
    """``said`` with the tokens of letters and digits that OCR made of a word blanked out ("c1aims",
    "0ut": under OCR confusions a word of the evidence without a digit), so their digits are not
    taken for numbers the claim states."""
    plain = None

    def blank(m: re.Match[str]) -> str:
        nonlocal plain
        token = m.group()
        if not any(ch.isdigit() for ch in token) or not any(ch.isalpha() for ch in token):
            return token
        if plain is None:
            plain = {ocr_normal(w) for w in _WORD_TOKEN.findall(evidence) if not any(c.isdigit() for c in w)}
        return " " * len(token) if ocr_normal(token) in plain else token

    return _WORD_TOKEN.sub(blank, said)


#: An ellipsis in a quote: the model left something out.
_ELLIPSIS = re.compile(r"\s*(?:…|\.\s?\.\s?\.)\s*")


@dataclass(frozen=True, slots=True)
class VerifyOptions:
    min_chars: int = MIN_QUOTE_CHARS
    min_words: int = MIN_QUOTE_WORDS
    fuzzy_threshold: float = FUZZY_THRESHOLD
    altered_min: float = ALTERED_MIN
    check_sources: bool = False
    policy: str = "annotate"
    log: bool = True
    #: flags that make a verified citation fail (see :data:`DEFAULT_FAIL_ON`)
    fail_on: frozenset[Flag] = DEFAULT_FAIL_ON
    #: the share of asserting sentences that must carry a citation for the answer to pass (0: any)
    min_coverage: float = 0.0

    def __post_init__(self) -> None:
        low, high = THRESHOLD_RANGE
        if not low <= self.fuzzy_threshold <= high:  # False for NaN too
            raise InputError(
                f"fuzzy threshold {self.fuzzy_threshold!r} is outside {low:g}-{high:g} "
                "(a score below 50 accepts unrelated text)"
            )
        if self.policy not in POLICIES:
            raise InputError(f"policy {self.policy!r} is not one of {', '.join(POLICIES)}")
        if not 0.0 <= self.min_coverage <= 1.0:  # False for NaN too
            raise InputError(f"minimum coverage {self.min_coverage!r} is outside 0-1")


def parse_fail_on(value: str) -> frozenset[Flag]:
    """``--fail-on`` as a set of flags: a comma list, ``none`` for none."""
    names = [v.strip() for v in value.split(",") if v.strip()]
    if names == ["none"]:
        return frozenset()
    unknown = [n for n in names if n not in FLAGS]
    if unknown:
        raise InputError(f"--fail-on: unknown flag {unknown[0]!r} (flags: {', '.join(FLAGS)}, or none)")
    return frozenset(n for n in FLAGS if n in names)


@dataclass
class _Target:
    """What a citation points at: the chunk its marker names, or a whole document version (an
    Anthropic document)."""

    markers: list[str]  # the resolved marker per candidate chunk (one chunk, or a document's chunks)
    chunks: list[ChunkInfo]
    version: VersionInfo
    by_chunk: dict[str, str] = field(default_factory=dict)  # chunk id -> marker
    whole_version: bool = False  # a document reference: the answer's indices are into the version


class Verifier:
    """Verifies answers against one store; reusable across answers (its :class:`Lookup` keeps chunks,
    versions and folded texts, which never change once stored)."""

    def __init__(self, store: Store, options: VerifyOptions = VerifyOptions()) -> None:
        if options.policy not in POLICIES:
            raise InputError(f"policy must be one of {', '.join(POLICIES)}, not {options.policy!r}")
        self.store = store
        self.options = options
        self.lookup = Lookup(store)
        # alignments worked out for the citation being checked, per document version (a passage
        # repeated in several chunks is aligned once); emptied for every citation
        self._memos: dict[int, AlignmentMemo] = {}

    # ------------------------------------------------------------------ one citation

    def check(
        self, cit: CitationInput, injected: dict[str, str], doc_refs: dict[str, dict[str, Any]]
    ) -> CitationResult:
        """Target, gates, search, flags; then whether the citation passes."""
        self._memos = {}
        result = self._judged(cit, injected, doc_refs)
        result.judge(self.options.fail_on)
        return result

    def _judged(
        self, cit: CitationInput, injected: dict[str, str], doc_refs: dict[str, dict[str, Any]]
    ) -> CitationResult:
        target = self._target(cit, injected, doc_refs)
        if isinstance(target, CitationResult):
            return target
        first = target.chunks[0] if target.chunks else None
        result = CitationResult(
            target.markers[0] if target.markers else cit.marker,
            first.chunk_id if first else None,
            "quote_not_found",
            cit.quote,
            cit.claim,
            document=_document_json(target.version),
            sentence=cit.sentence,
        )
        gate = self._gate(cit)
        if gate is not None:
            result.status, result.reason = gate
            return result
        evidence = self._search(cit, result, target, injected)
        self._flags(result, cit, target, evidence)
        return result

    def _target(
        self, cit: CitationInput, injected: dict[str, str], doc_refs: dict[str, dict[str, Any]]
    ) -> _Target | CitationResult:
        marker = resolve_marker(cit.marker, [*injected, *doc_refs])
        if marker is None:
            return _fabricated(cit, cit.marker)
        if marker in doc_refs:
            ref = doc_refs[marker]
            candidates, version = self._document_ref(ref)
            if version is None:
                return CitationResult(
                    marker,
                    None,
                    "unknown_chunk",
                    cit.quote,
                    cit.claim,
                    reason=f"document {ref['document']!r} version {ref.get('version') or '(current)'} is not stored",
                    sentence=cit.sentence,
                )
            if cit.pages is not None:  # page_location: look on those pages first
                first, last = cit.pages
                on_pages = [
                    c
                    for c in candidates
                    if c.page_start is not None and c.page_start <= last and first <= (c.page_end or 0)
                ]
                candidates = on_pages + [c for c in candidates if c not in on_pages]
            by_chunk = {c.chunk_id: marker for c in candidates}
            return _Target([marker] * len(candidates), candidates, version, by_chunk, whole_version=True)
        self.lookup.prefetch(injected.values())
        chunk = self.lookup.chunk(injected[marker])
        if chunk is None:
            return CitationResult(
                marker,
                injected[marker],
                "unknown_chunk",
                cit.quote,
                cit.claim,
                reason=f"chunk {injected[marker]!r} is not in the store",
                sentence=cit.sentence,
            )
        version = self.lookup.version(chunk.version_id)
        return _Target([marker], [chunk], version, {chunk.chunk_id: marker})

    def _gate(self, cit: CitationInput) -> tuple[Any, str] | None:
        """``(status, reason)`` when the quote cannot be checked: none given, or too short to mean
        anything (each part of an elided quote on its own)."""
        if cit.quote is None:
            return "no_quote", "the sentence cites this marker but quotes nothing to check"
        for part in quote_parts(cit.quote):
            folded = _folded_quote(part)
            words = _word_count(folded)
            # a Chinese or Japanese character says as much as two letters of a spaced script (a word
            # is two of them): "本公司确认公众持股量足够" is no shorter a claim than "the company
            # confirms that its public float is sufficient"
            cjk = len(_CJK.findall(folded)) if not folded.isascii() else 0
            if len(folded) + cjk < self.options.min_chars or words < self.options.min_words:
                what = "quote" if part == cit.quote.strip() else f"the quoted part {part!r}"
                counted = " (a Chinese or Japanese character counts twice)" if cjk else ""
                return "too_short", (
                    f"{what} has {len(folded)} character{'s' * (len(folded) != 1)} and {words} "
                    f"word{'s' * (words != 1)}; "
                    f"at least {self.options.min_chars}{counted} and {self.options.min_words} are needed"
                )
        return None

    def _search(
        self, cit: CitationInput, result: CitationResult, target: _Target, injected: dict[str, str]
    ) -> tuple[ChunkInfo, list[Match]] | None:
        """Set the result's status, location and reason; return where the quote was found (the
        evidence for the flags), or ``None``."""
        assert cit.quote is not None
        quote = cit.quote
        parts = quote_parts(quote)
        seen: dict[str, Match] = {}
        hit = None
        hit = self._at_given_indices(cit, target, parts[0]) if len(parts) == 1 else None
        refused: list[str] = []  # why parts found in order were not taken (reported if nothing is found)
        hit = hit or self._find(parts, target.chunks, seen, refused=refused)
        inserted: list[str] = []
        if "[" in quote and (hit is None or any(m.kind != "exact" for m in hit[1])):
            # not found as written (or only near it): read its square brackets as the writer's marks;
            # the source's own brackets, "[Smith et al., 2020]", were found as written above
            edited = quote_parts(quote, writer_brackets=True)
            if edited != parts:
                better = self._find(edited, target.chunks)
                if better is not None and (hit is None or all(m.kind == "exact" for m in better[1])):
                    hit, inserted = better, _insertions(quote)
        across: tuple[ChunkInfo, ChunkInfo] | None = None
        if hit is None or any(m.kind != "exact" for m in hit[1]):
            # not in one cited chunk as written: perhaps it runs on into the next chunk
            found = self._across(parts, target, injected)
            if found is not None and (hit is None or all(m.kind == "exact" for m in found[0][1])):
                hit, across = found[0], found[1:]
        if hit is not None:
            c, matches = hit
            best = min(matches, key=lambda m: m.score)
            result.marker = target.by_chunk.get(c.chunk_id, result.marker)
            result.chunk_id = c.chunk_id
            if across is not None:
                cited = next(x for x in across if x.chunk_id in target.by_chunk)
                result.marker, result.chunk_id = target.by_chunk[cited.chunk_id], cited.chunk_id
            result.status = "verified" if all(m.kind == "exact" for m in matches) else "verified_fuzzy"
            result.score = best.score
            result.location = self._resolve(c, matches)
            differences = [d for m in matches for d in m.differences]
            result.reason = (
                "exact after folding" if result.status == "verified" else "fuzzy: " + _noise_summary(differences)
            )
            if len(matches) > 1:
                result.reason += f" ({len(matches)} parts, in order)"
            if across is not None:
                names = {cid: mk for mk, cid in injected.items()} | target.by_chunk
                result.reason += "; it runs on from {} into {}".format(
                    *(f"{names[x.chunk_id]} ({x.chunk_id})" if x.chunk_id in names else x.chunk_id for x in across)
                )
            if inserted:
                result.reason += f"; the writer's insertions left out: {' '.join(inserted)}"
            if differences:
                result.differences = [d.as_json() for d in differences]
            return c, matches
        elsewhere = self._misattributed(
            parts[0] if len(parts) == 1 else quote, target, injected, searched=[c.chunk_id for c in target.chunks]
        )
        altered: tuple[ChunkInfo, Match] | None = None
        if elsewhere is None and len(parts) == 1:
            for c in target.chunks:
                m = self._locate(parts[0], c, seen)
                if m.kind == "altered" and (altered is None or m.score > altered[1].score):
                    altered = (c, m)
        if elsewhere is not None:
            result.status = "misattributed"
            result.found_in = elsewhere
            where = (
                f"injected source {elsewhere['marker']}" if elsewhere["marker"] else f"chunk {elsewhere['chunk_id']}"
            )
            result.reason = f"found in {where}, not in the cited chunk"
        elif altered is not None:
            c, m = altered
            result.marker = target.by_chunk.get(c.chunk_id, result.marker)
            result.chunk_id = c.chunk_id
            result.status = "quote_altered"
            result.score = m.score
            result.location = self._resolve(c, [m])
            result.drift = drift(c.text, m, parts[0], folded_quote=_folded_quote(parts[0]))
            result.differences = [d.as_json() for d in m.differences]
            result.reason = "closest passage differs: " + ", ".join(
                f"{d.kind} {d.quote!r}->{d.source!r}" for d in m.differences if not d.noise
            )
            if m.numeric_mismatch:
                result.flags.append("numeric_mismatch")
            if m.negation_mismatch:
                result.flags.append("negation_mismatch")
        else:
            where = "the cited chunk" if len(target.chunks) == 1 else "the cited chunks"
            result.reason = f"not found in {where}, the other injected chunks or the rest of the document"
            if refused:
                # its parts are there, in order: say why that is not the quote
                result.reason = f"its parts are in {where} in order, but {refused[0]}"
        return None

    def _flags(
        self,
        result: CitationResult,
        cit: CitationInput,
        target: _Target,
        evidence: tuple[ChunkInfo, list[Match]] | None,
    ) -> None:
        if evidence is not None:
            self._evidence_flags(result, cit, *evidence)
            self._location_flags(result, cit, *evidence, whole_version=target.whole_version)
        if not target.version.is_current and target.chunks:
            result.flags.append("stale_version")
            assert cit.quote is not None
            result.stale = self._reanchor(cit.quote, target.version)
            if not result.stale.get("found"):
                result.flags.append("stale_gone")
        if self.options.check_sources:
            self._check_source(result, target.version)

    # ------------------------------------------------------------------ searching

    def _locate(
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
                folded_quote=_folded_quote(quote),
                vocabulary=lambda: self.lookup.vocabulary(chunk.version_id),
                threshold=self.options.fuzzy_threshold,
                altered_min=self.options.fuzzy_threshold if found_only else self.options.altered_min,
                memo=memo,
                lang=self.lookup.language(chunk.version_id),
                rough=rough,
            )
        return m

    def _best_in(
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
        folded_quote = _folded_quote(quote)
        texts = [self.lookup.folded(c).text for c in pool]
        for c, text in zip(pool, texts, strict=True):
            if folded_quote in text:
                m = self._locate(quote, c, seen, found_only=elsewhere)
                if m.kind == "exact":
                    return c, [m]
        if elsewhere or len(pool) > SCREEN_CANDIDATES:
            # a fuzzy match keeps most of the quote's words: drop chunks that lack them (set
            # lookups), then rank the rest by partial_ratio (in C)
            words = {w for w in tokens(folded_quote) if len(w) > 2}
            if words:
                need = SCREEN_WORD_SHARE * len(words)
                keep = [i for i, c in enumerate(pool) if len(words & self.lookup.chunk_words(c)) >= need]
                pool, texts = [pool[i] for i in keep], [texts[i] for i in keep]
            # rank by partial_ratio (ties in pool order); the alignments found on the way are the
            # rough windows that the full alignment of the best few starts from
            cutoff = self.options.fuzzy_threshold - 5
            aligned = [
                (a, i)
                for i, text in enumerate(texts)
                if (a := fuzz.partial_ratio_alignment(folded_quote, text, score_cutoff=cutoff)) is not None
            ]
            aligned.sort(key=lambda x: -x[0].score)
            roughs = {pool[i].chunk_id: a for a, i in aligned[:SCREEN_CANDIDATES]}
            pool = [pool[i] for _, i in aligned[:SCREEN_CANDIDATES]]
        else:
            roughs = {}
        best: tuple[ChunkInfo, Match] | None = None
        for c in pool:
            m = self._locate(quote, c, seen, found_only=elsewhere, rough=roughs.get(c.chunk_id))
            if m.kind == "fuzzy" and (best is None or m.score > best[1].score):
                best = (c, m)
        return (best[0], [best[1]]) if best is not None else None

    def _find(
        self,
        parts: list[str],
        chunks: list[ChunkInfo],
        seen: dict[str, Match] | None = None,
        *,
        elsewhere: bool = False,
        refused: list[str] | None = None,
    ) -> tuple[ChunkInfo, list[Match]] | None:
        """A quote's parts among chunks: one part as :meth:`_best_in` finds it, several in order in
        one chunk (:meth:`_elided`, which adds to ``refused`` why parts it found were not taken)."""
        if len(parts) == 1:
            return self._best_in(parts[0], chunks, seen, elsewhere=elsewhere)
        return self._elided(parts, chunks, refused)

    def _elided(
        self, parts: list[str], chunks: list[ChunkInfo], refused: list[str] | None = None
    ) -> tuple[ChunkInfo, list[Match]] | None:
        """An elided quote (``"A … B"``): every part found, in order, in the same chunk, no part
        spliced to a part of another sentence (see :func:`_spliced`), and no negation left out
        ("Results are shared only with the employee and are … passed to Northwind" drops "never").
        Why parts found in order were refused goes to ``refused``."""
        for c in chunks:
            text, matches, pos = c.text, [], 0
            for part in parts:
                m = locate(
                    part,
                    text[pos:],
                    vocabulary=functools.partial(self.lookup.vocabulary, c.version_id),
                    threshold=self.options.fuzzy_threshold,
                    altered_min=self.options.fuzzy_threshold,
                    lang=self.lookup.language(c.version_id),
                )
                if not m.found:
                    break
                matches.append(Match(m.kind, m.score, m.start + pos, m.end + pos, m.differences))
                pos += m.end
            else:
                pairs = list(itertools.pairwise(matches))
                if any(_negated(text[a.end : b.start]) for a, b in pairs):
                    if refused is not None:
                        refused.append("the ellipsis leaves out a negation")  # a "never" between them
                elif any(_spliced(text, a, b) for a, b in pairs):
                    if refused is not None:
                        refused.append("the ellipsis joins part of one sentence to part of another")
                else:
                    return c, matches
        return None

    def _across(
        self, parts: list[str], target: _Target, injected: dict[str, str]
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
        hit = self._find(parts, [p[0] for p in pairs.values()]) if pairs else None
        if hit is None:
            return None
        _, first, second, second_from, first_to = pairs[hit[0].chunk_id]
        start, end = hit[1][0].start, hit[1][-1].end
        if not (start < first_to < end or start < second_from < end):
            return None  # inside one of the two after all, and not across the other's edge
        # (a quote that runs from the cited chunk's last sentence on into the next chunk is there
        # too when the next one repeats that sentence at its start: it runs on from the cited one)
        return hit, first, second

    @staticmethod
    def _at_given_indices(cit: CitationInput, target: _Target, quote: str) -> tuple[ChunkInfo, list[Match]] | None:
        """An Anthropic ``char_location`` names where the quote is in the cited chunk: take it when the
        characters there fold to the quote (otherwise the quote is searched for as usual)."""
        s, e = cit.chunk_start, cit.chunk_end
        chunk = target.chunks[0] if target.chunks else None
        if chunk is None or s is None or e is None or not 0 <= s < e <= len(chunk.text):
            return None
        if fold(chunk.text[s:e]).text != _folded_quote(quote):
            return None
        return chunk, [Match("exact", 100.0, s, e)]

    def _document_ref(self, ref: dict[str, Any]) -> tuple[list[ChunkInfo], VersionInfo | None]:
        uri, number = ref["document"], ref.get("version")
        try:
            info = self.store.document(uri)
        except NotFound:
            return [], None
        version = next((v for v in info.versions if (v.version_no == number if number else v.is_current)), None)
        if version is None:
            return [], None
        self.lookup.remember_version(version)
        return self.lookup.version_chunks(version.version_id), version

    def _misattributed(
        self, quote: str, target: _Target, injected: dict[str, str], *, searched: Iterable[str] = ()
    ) -> dict[str, Any] | None:
        """Where else the quote is: in another injected chunk, or elsewhere in the cited chunks'
        document. ``searched`` are chunks the quote was not found in already (a cited one, injected
        again under another marker, is not searched twice)."""
        skip = set(searched)
        others = {
            mk: c
            for mk, cid in injected.items()
            if mk not in target.markers and cid not in skip and (c := self.lookup.chunk(cid)) is not None
        }
        hit = self._best_in(quote, others.values(), elsewhere=True)
        if hit is not None:
            return {"marker": next(mk for mk, x in others.items() if x is hit[0]), **self._found(hit[0], hit[1])}
        if target.chunks:
            # the rest of the document, but for the chunks just searched
            skip |= {c.chunk_id for c in target.chunks} | {c.chunk_id for c in others.values()}
            rest = [c for c in self.lookup.version_chunks(target.chunks[0].version_id) if c.chunk_id not in skip]
            hit = self._best_in(quote, rest, elsewhere=True)
            if hit is not None:
                return {"marker": None, **self._found(hit[0], hit[1])}
        return None

    def _reanchor(self, quote: str, version: VersionInfo) -> dict[str, Any]:
        current = self.lookup.current_version(version.document_uri)
        if current is None:
            return {"current_version": None, "found": False}
        parts = quote_parts(quote)
        chunks = self.lookup.version_chunks(current.version_id)
        hit = self._find(parts, chunks, elsewhere=True)
        if hit is None:
            return {"current_version": current.version_no, "found": False}
        return {"current_version": current.version_no, "found": True, **self._found(hit[0], hit[1])}

    # ------------------------------------------------------------------ resolving

    def _resolve(self, chunk: ChunkInfo, matches: list[Match]) -> Location:
        """Where matches (the parts of one quote) are in the version's raw stream: the enclosing range,
        the segments the text comes from (furniture between them left out), pages, boxes."""
        version = self.lookup.version(chunk.version_id)
        raw, geometry = self.lookup.source(chunk)
        spans: list[Original] = []
        for m in matches:
            spans.extend(chunk.map.source_spans(Normalized(m.start, m.end)))
        first = chunk.map.to_original(Normalized(matches[0].start, matches[0].end))
        last = chunk.map.to_original(Normalized(matches[-1].start, matches[-1].end))
        raw_range = Original(first.start, last.end)
        boxes = geometry.boxes(spans, raw, raw_start=chunk.raw_start)
        pages_info = self.lookup.pages(chunk.version_id)

        def page_of(offset: int) -> int:
            return next((p.page_no for p in pages_info if p.raw_start <= offset < max(p.raw_end, p.raw_start + 1)), 0)

        segments: list[dict[str, int]] = []
        for sp in _merged(spans, raw, chunk.raw_start):
            segments.append({"start": sp.start, "end": sp.end, "page": page_of(sp.start)})
        pieces = [raw[s["start"] - chunk.raw_start : s["end"] - chunk.raw_start] for s in segments]
        text = _join_parts(pieces, elided=len(matches) > 1, parts=[_segments_of(m, chunk, segments) for m in matches])
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

    def _found(self, chunk: ChunkInfo, matches: list[Match]) -> dict[str, Any]:
        """Where a quote was found outside the cited chunk (``found_in``, ``stale``)."""
        return {
            "chunk_id": chunk.chunk_id,
            "status": "verified" if all(m.kind == "exact" for m in matches) else "verified_fuzzy",
            "score": min(m.score for m in matches),
            **_loc_json(self._resolve(chunk, matches)),
        }

    # ------------------------------------------------------------------ flags

    def _evidence_flags(
        self, result: CitationResult, cit: CitationInput, chunk: ChunkInfo, matches: list[Match]
    ) -> None:
        """The claim (the clause around the quote, or the claim given) against the evidence (the
        sentences of the chunk the quote was found in): every number of the claim must be there, the
        claim must agree in polarity with the clause of the evidence that holds the quote, and the
        required terms must be there."""
        evidence = _sentences_around(chunk.text, matches[0].start, matches[-1].end)
        folded_evidence = fold(evidence).text
        lead = _lead_in(chunk.text, matches[0].start)  # (for the numbers and the polarity both)
        said = _without(cit.claim, cit.other_quotes) if cit.claim else cit.quote or ""
        lang = self.lookup.language(chunk.version_id)
        claimed = numbers(_ocr_words_blanked(fold(said).text, folded_evidence), lang, claim=True)
        given = numbers(folded_evidence, lang, claim=False)
        if cit.uncited:
            # the sentence's uncited clause before the claim: a number of a unit the evidence counts
            # ("The desk replies within three business days; it "answers most requests within two
            # business days" [S2]"); numbers of other kinds it may state on its own
            before = numbers(_ocr_words_blanked(fold(cit.uncited).text, folded_evidence), lang, claim=True)
            units = {e.unit for e in given.quantities if e.unit}
            own = {q.text for q in claimed.quantities}
            counted = tuple(q for q in before.quantities if q.unit in units and q.text not in own)
            claimed = Numbers(claimed.quantities + counted, claimed.dates)
        else:
            counted = ()
        absent = unbacked(claimed, given)
        # a bound against a bound of the quote's sentence is a threshold against the threshold there
        # ("above 0.9" against "score above 0.8", "größer als zwei Rechte" against "kleiner als zwei
        # Rechte"): no other sentence's number backs it
        bounds = ("above", "below")
        pinned = [
            q.text
            for q in claimed.quantities
            if q.hedge in bounds
            and (
                limits := [
                    e for e in given.quantities if e.hedge in bounds and (not q.unit or e.unit in (q.unit, None))
                ]
            )
            and not any(q.backed_by(e) for e in limits)
        ]
        if absent and counted:
            # the uncited clause's number is backed by the chunk it is cited with wherever the chunk
            # states it ("The authors evaluated 48 tables; "… 36 tables were consistent"" with "48
            # tables" two sentences before the quote's)
            elsewhere = {q.text for q in counted if q.text in absent} - set(
                unbacked(Numbers(counted, ()), numbers(fold(chunk.text).text, lang, claim=False), unstated_ok=False)
            )
            absent = [t for t in absent if t not in elsewhere]
        if absent:
            # a number the sentence before or after the quote's gives ("We surveyed 162 papers.
            # 73% of these …"): the quote's sentence refers to it, unless that sentence has a number
            # of the same kind ("90% of the costs" is not "50 % of the costs")
            around = _sentences_around(chunk.text, *_neighbour_span(chunk.text, matches))
            context = numbers(fold(around).text, lang, claim=False)
            backed = set(absent) - set(unbacked(claimed, context, unstated_ok=False))
            absent = [t for t in absent if t not in backed or same_unit_elsewhere(t, claimed, given)]
        if absent and lead:
            # the lead-in of the list the quote is an item of is the item's sentence too ("You
            # expatriated after June 3, 2004, and: … 2. Your net worth … was $2,000,000 or more")
            absent = unbacked(
                Numbers(
                    tuple(q for q in claimed.quantities if q.text in absent),
                    tuple(d for d in claimed.dates if d.text in absent),
                ),
                numbers(fold(lead).text, lang, claim=False),
                unstated_ok=False,
            )
        if absent and (heading := _heading_before(chunk.text, matches[0].start)):
            # a year or a date of the heading the quote stands under ("For 2008 you "may deduct …""
            # under "What's New for 2008"): the section's scope, which a claim carries over
            scoped = set(absent) - set(
                unbacked(claimed, numbers(fold(heading).text, lang, claim=False), unstated_ok=False)
            )
            absent = [t for t in absent if t not in scoped or not _year_or_date(t, claimed)]
        absent = list(dict.fromkeys([*absent, *pinned]))
        if absent:
            result.flags.append("numeric_mismatch")
            verb = "is" if len(absent) == 1 else "are"
            result.reason += f"; the claim's {', '.join(dict.fromkeys(absent))} {verb} not in the quote's sentence"
        if cit.claim and self._polarity_differs(
            *_claim_scope(said, cit.quote), said, cit.lead_in or "", lead, chunk, matches, evidence, lang
        ):
            result.flags.append("negation_mismatch")
        missing = [t for t in cit.required_terms if not _has_term(t, folded_evidence)]
        if missing:  # the sentences around the quote's, as for a claim's numbers
            around = fold(_sentences_around(chunk.text, *_neighbour_span(chunk.text, matches))).text
            missing = [t for t in missing if not _has_term(t, around)]
        if missing:
            result.flags.append("missing_terms")
            result.reason += f"; missing terms: {', '.join(missing)}"

    @staticmethod
    def _polarity_differs(
        claimed: str,
        own_words: bool,
        whole: str,
        answer_lead: str,
        lead: str,
        chunk: ChunkInfo,
        matches: list[Match],
        evidence: str,
        lang: str,
    ) -> bool:
        """Whether the claim and the evidence differ in polarity: one negated and the other not (the
        evidence's clause that holds the quote, with the lead-in of a list the quote is an item of:
        "You do not need to file if: 1. …"); or, in English, both negated but the claim's negation
        on a word the evidence asserts ("not shared with the employee" against "shared only with
        the employee and never passed to Northwind"). When the claim is its own words beside a quote
        set off from them (``own_words``) and only the evidence is negated, they differ only where
        the claim asserts what the evidence denies ("The report was audited: "… was not audited""),
        in English also in other words (see :func:`_restates_denied`); else the claim may say it in
        other words ("Teacher assessment is informal: "There is no formal procedure …""), or of
        another part of the quote. ``whole`` is the claim with its leading clause, which may set it
        against the quote ("Unlike SGC, …"); ``answer_lead`` is the lead-in of the answer's list the
        claim is an item of, ``lead`` that of the source's list the quote is an item of: each one's
        negation is its item's."""
        scope = _scope_around(chunk.text, matches[0].start, matches[-1].end)
        # the answer's list lead-in is held against the source's: not where the source's item has
        # its lead-in outside the chunk (a list that runs on from the chunk before)
        led = bool(answer_lead) and (bool(lead) or not _list_item(chunk.text, matches[0].start))
        negated_claim = _negated(claimed) or (led and _negated(answer_lead))
        negated_evidence = _negated(scope) or _negated(lead)
        if negated_claim and not negated_evidence and lang == "en" and _says_less(claimed, scope):
            return False
        if negated_claim != negated_evidence:
            if own_words and negated_evidence:
                denied = _negation_targets(scope + " " + lead)
                if any(_negated_at(claimed, word) is False for word in denied):
                    return True
                return lang == "en" and _restates_denied(claimed, whole, scope + " " + lead)
            return True
        if negated_claim and lang == "en":
            return any(_negated_at(evidence, word) is False for word in _negation_targets(claimed))
        return False

    @staticmethod
    def _location_flags(
        result: CitationResult, cit: CitationInput, chunk: ChunkInfo, matches: list[Match], *, whole_version: bool
    ) -> None:
        """An Anthropic citation says where its text is (character indices into the cited chunk, or
        into the whole version's cleaned text or raw stream for a document reference, or pages):
        disagreeing with where it was found is ``location_mismatch``."""
        loc = result.location
        if loc is None:
            return
        s, e = cit.chunk_start, cit.chunk_end
        if s is not None and e is not None and cit.pages is None and chunk.chunk_id == result.chunk_id:
            found_s, found_e = matches[0].start, matches[-1].end
            places = [(found_s, found_e)]
            if whole_version:
                found_s, found_e = chunk.clean_start + found_s, chunk.clean_start + found_e
                places = [(found_s, found_e), (loc.start, loc.end)]
            if all(abs(a - s) > 2 or abs(b - e) > 2 for a, b in places):
                result.flags.append("location_mismatch")
                result.reason += f"; the answer placed it at characters {s}-{e}, it is at {found_s}-{found_e}"
        if cit.pages is not None:
            first, last = cit.pages
            if not any(first <= p <= last for p in loc.pages):
                result.flags.append("location_mismatch")
                shown = f"{first}" if first == last else f"{first}-{last}"
                result.reason += (
                    f"; the answer placed it on page {shown}, it is on page {','.join(map(str, loc.pages))}"
                )

    def _check_source(self, result: CitationResult, version: VersionInfo) -> None:
        current = self.store.current_files().get(version.document_uri)
        path = current.last_path if current else None
        if current is None or path is None or not os.path.exists(path) or sha256_file(path) != current.content_sha256:
            result.flags.append("source_changed")

    # ------------------------------------------------------------------ whole answers

    def verify(self, answer: AnswerInput, *, context_id: str | None = None) -> Report:
        context_id = context_id or answer.context
        if answer.sources is not None and context_id is not None:
            raise InputError("give either 'sources' or a context id, not both")
        if answer.sources is not None:
            injected = dict(answer.sources)
        elif context_id is not None:
            try:
                injected = dict(self.store.context(context_id).sources)
            except NotFound as exc:
                raise InputError(str(exc)) from None
        elif answer.document_refs:
            injected = {}
        else:
            raise InputError("no injected set: give 'sources', 'context' or --context ID")
        if not answer.knows(injected) and answer.data is not None:
            # markers named in the context (``doc1``), not numbered: read the answer's text for them
            answer = parse_answer(answer.data, markers=injected)
        self.lookup.trim()
        results = [self.check(c, injected, answer.document_refs) for c in answer.citations]
        cited = {c.sentence for c in answer.citations if c.sentence is not None}
        sentences = [
            SentenceResult(
                s.text,
                s.start,
                s.end,
                s.markers,
                s.kind not in ("heading", "reference") and is_asserting(s.text),
                bool(s.markers) or i in cited,
            )
            for i, s in enumerate(answer.sentences)
        ]
        return Report(
            results,
            sentences,
            answer.answer,
            hashlib.sha256(answer.answer.encode()).hexdigest(),
            context_id,
            self.options.policy,
            min_coverage=self.options.min_coverage,
        )

    def log(self, report: Report) -> int:
        """Record a run in the store (call it once the report has been delivered)."""
        report.run_id = self.store.log_verification(
            answer_sha256=report.answer_sha256,
            context_id=report.context_id,
            policy=report.policy,
            coverage=report.coverage,
            results=[(r.marker, r.chunk_id, r.status, r.flags, r.score, r.passed) for r in report.citations],
        )
        return report.run_id


def _fabricated(cit: CitationInput, marker: str) -> CitationResult:
    """A citation of ``marker``, which was not injected."""
    return CitationResult(
        marker,
        None,
        "fabricated_marker",
        cit.quote,
        cit.claim,
        reason=f"marker {marker!r} was not in the injected set",
        sentence=cit.sentence,
    )


def verify_answer(
    store: Store,
    answer: str | bytes | Path | dict[str, Any],
    *,
    context_id: str | None = None,
    options: VerifyOptions = VerifyOptions(),
) -> Report:
    """Verify an answer (a dict, JSON text or bytes, or a path to a JSON file) against ``store``, and
    log the run when ``options.log``."""
    name = str(answer) if isinstance(answer, Path) else "answer"
    data = load_answer(answer, name=name)
    parsed = parse_answer(data, name=name)
    verifier = Verifier(store, options)
    report = verifier.verify(parsed, context_id=context_id)
    if options.log:
        verifier.log(report)
    return report


#: A sentence's end: a full stop after a word (and its closing quote or a footnote mark glued to it:
#: "test time.12 Note"; not a decimal point, "3.12 m") before a space; a Chinese or Japanese full
#: stop; a paragraph break.
_SENTENCE_BREAK = re.compile(
    r"(?<=[^\W\d_]|[)\"”’\]])[.!?][\"”’)\]]*(?:\d{1,3}|[\u00b9\u00b2\u00b3\u2070-\u2079]+)?(?=\s)|[。！？]|\n\s*\n"
)


#: Words a full stop shortens inside a sentence ("et al.", "Pub. 535", "vgl.", "Mme"); a single
#: letter before one is an initial or part of one ("U.S.", "Steven P. Dow", "e.g.", "z.B.").
_ABBREVIATIONS = frozenset(
    """
    al cf vs fig figs eq eqs no nos vol vols pp sec secs ch chap approx dr mr mrs ms prof st jr sr pub
    art para ref refs ed eds resp dept est ca bzw vgl nr abs hrsg ggf evtl inkl zzgl mme mlle env
    """.split()
)
_WORD_BEFORE_STOP = re.compile(r"([^\W\d_]+)\.$")


def _sentence_ends(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds a sentence end (see :data:`_SENTENCE_BREAK`); a full stop
    before a lower-case word or a number ("U.S. tax", "Pub. 535 to figure") or after an
    abbreviation (:data:`_ABBREVIATIONS`) ends none."""
    for m in _SENTENCE_BREAK.finditer(text[start:end]):
        if m.group()[:1] != ".":
            return True
        after = text[start + m.end() : start + m.end() + 40].lstrip()[:1]
        if after and (after.islower() or after.isdigit()):
            continue
        word = _WORD_BEFORE_STOP.search(text, max(0, start + m.start() - 30), start + m.start() + 1)
        if word is not None and (len(word.group(1)) == 1 or word.group(1).lower() in _ABBREVIATIONS):
            continue
        return True
    return False


def _spliced(text: str, first: Match, second: Match) -> bool:
    """Two parts of an elided quote that an ellipsis joins across a sentence end, when the first
    does not end its sentence or the second does not start one: "Claims are not reimbursed …
    when the employee was in hospital" makes one statement of two the source keeps apart. Whole
    sentences may be elided between whole sentences."""
    if not _sentence_ends(text, first.end, second.start):
        return False  # a gap inside one sentence: "Claims are … reimbursed", "rate of U.S. tax is …"
    ends = _SENTENCE_BREAK.match(text, first.end) is not None or text[first.end - 1 : first.end] in ".!?。！？"
    before = text[: second.start]
    starts = not before.rstrip() or before.rstrip()[-1] in ".!?。！？:" or before.endswith("\n")
    return not (ends and starts)


_LEADING_DOTS = re.compile(r"^[.\s…]+")


def quote_parts(quote: str, *, writer_brackets: bool = False) -> list[str]:
    """A quote split at its ellipses (``"A … B"``, ``"A ... B"``); an ellipsis at either end only
    says the sentence goes on, and is dropped. With ``writer_brackets``, square brackets are the
    writer's marks, as quoting conventions have them (``"A [...] B"``, ``[t]he``; see
    :func:`_unbracketed`): for a quote not found as written."""
    if writer_brackets:
        quote = _unbracketed(quote)
    # (dots left over from a longer run, "foods. . . . . It was", are no part of a part)
    parts = [_LEADING_DOTS.sub("", p).strip() for p in _ELLIPSIS.split(quote.strip())]
    parts = [p for p in parts if p]
    return parts or [quote.strip()]


_BRACKETED = re.compile(r"\[([^\[\]]{0,80})\]")


def _unbracketed(quote: str) -> str:
    """A quote without the writer's bracketed alterations, as legal and academic quoting marks
    them: ``[...]`` is an ellipsis, a letter or two attached to a word is the source's own
    (``[t]he``, ``employ[ee]s``: a change of case or ending), and other bracketed text is an
    insertion the source does not have (``Claims [for dental care] are``, ``[sic]``), left out."""
    if "[" not in quote:
        return quote
    return re.sub(r"[ \t]{2,}", " ", _BRACKETED.sub(lambda m: _bracket_edit(quote, m), quote)).strip()


def _bracket_edit(quote: str, m: re.Match[str]) -> str:
    inner = m.group(1).strip()
    if _ELLIPSIS.fullmatch(inner):
        return " … "
    if re.fullmatch(r"[\d\s,;–-]+", inner):
        return m.group()  # a reference marker of the source ("as shown in [12]")
    before = m.start() > 0 and quote[m.start() - 1].isalnum()
    after = m.end() < len(quote) and quote[m.end()].isalnum()
    if re.fullmatch(r"[^\W\d_]{1,2}", inner) and (before or after):
        return inner
    return " "


def _insertions(quote: str) -> list[str]:
    """The bracketed insertions :func:`_unbracketed` leaves out of a quote."""
    return [m.group() for m in _BRACKETED.finditer(quote) if _bracket_edit(quote, m) == " "]


@functools.lru_cache(maxsize=4096)
def _folded_quote(quote: str) -> str:
    """``fold(quote).text``: one check folds its quote for every chunk it looks in, and the same
    quotes come back (a report re-rendered, a served answer re-checked)."""
    return fold(quote).text


#: What cleaning deletes inside a passage without it being furniture: line-end and soft hyphens,
#: whitespace. A gap between two source spans holding anything else (a running footer and header,
#: a page number), or a page break, separates two segments.
_INSIDE_A_PASSAGE = " \t\n\r-\u00ad\u2010"


def _merged(spans: list[Original], raw: str, raw_start: int) -> list[Original]:
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


def _join_parts(pieces: list[str], *, elided: bool, parts: list[list[int]]) -> str:
    """The text of segments: pieces of one passage joined with a space (what a page break, a footer
    and a header between them stood for), parts of an elided quote with `` … ``."""
    if not elided:
        return " ".join(p.strip() for p in pieces) if len(pieces) > 1 else (pieces[0] if pieces else "")
    joined = [" ".join(pieces[k].strip() for k in ks) for ks in parts if ks]
    return " … ".join(joined)


def _loc_json(loc: Location) -> dict[str, Any]:
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


def _document_json(version: VersionInfo) -> dict[str, Any]:
    return {
        "uri": version.document_uri,
        "version": version.version_no,
        "content_hash": f"sha256:{version.content_sha256}",
        "current": version.is_current,
    }


def _noise_summary(differences: list[Any]) -> str:
    kinds = sorted({d.kind for d in differences})
    return ", ".join(kinds) if kinds else "character-level differences"


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentences of ``text`` that the span ``[start, end)`` touches begin and end: after a
    full stop and a space, a line break, or a Chinese or Japanese full stop (no space after it)."""
    s = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start), *(text.rfind(c, 0, start) for c in "。！？"))
    e_candidates = [
        i for i in (text.find(". ", end), text.find("\n", end), *(text.find(c, end) for c in "。！？")) if i >= 0
    ]
    e = min(e_candidates) + 1 if e_candidates else len(text)
    return (s + 1 if s >= 0 else 0), e


def _neighbour_span(text: str, matches: list[Match]) -> tuple[int, int]:
    """The span of the sentences just before and after those a match touches."""
    s, e = _sentence_bounds(text, matches[0].start, matches[-1].end)
    return _sentence_bounds(text, max(0, s - 2), s)[0] if s else 0, _sentence_bounds(text, e, min(len(text), e + 1))[1]


def _sentences_around(text: str, start: int, end: int) -> str:
    """The sentences of ``text`` that the span ``[start, end)`` touches."""
    s, e = _sentence_bounds(text, start, end)
    return text[s:e]


def _clause_around(text: str, start: int, end: int) -> str:
    """The clause of ``text`` that holds the span ``[start, end)`` (all of the clauses it touches):
    what the polarity of a claim is compared with. "Claims are not reimbursed after 90 days, and
    receipts are converted at the day's rate": a quote of the second clause is not negated."""
    cs, ce = _clause_bounds(text, start, end)
    return text[cs:ce]


def _clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    s, e = _sentence_bounds(text, start, end)
    breaks = list(CLAUSE_BREAK.finditer(text, s, e))
    cs = max((m.end() for m in breaks if m.end() <= start), default=s)
    ce = min((m.start() for m in breaks if m.start() >= end), default=e)
    return cs, ce


#: words that open a subordinate clause: a negation inside one ("... for up to 1,095 days when an
#: employee can no longer work") is not the polarity of the main clause the quote is in
_SUBORDINATORS = frozenset(
    """
    when whenever if unless because although though while whereas where after before until once since
    as that which who whom whose provided wenn wann falls sofern weil obwohl obgleich während wo nachdem
    bevor bis sobald seit dass welche welcher welches quand lorsque si parce puisque bien quoique
    pendant où après avant jusqu dès que qui dont cuando porque aunque mientras donde
    """.split()
)
_WORD = re.compile(r"[^\W\d_]+(?:['’]t)?")
#: words that open a condition: a quote of one is said of the main clause after it
_CONDITIONALS = frozenset("if when whenever unless once provided wenn falls sofern sobald si lorsque quand".split())
#: words that open a claim's leading clause whose negation is not the quote's ("Unlike methods that
#: cannot …, X does …")
_CLAIM_SUBORDINATORS = _SUBORDINATORS | frozenset("unlike despite contrairement malgré trotz".split())
#: words that join another predicate or clause: a negation after one is that predicate's
_COORDINATORS = frozenset("and but or nor und aber oder sondern et mais ou ni y pero o".split())
#: words that open a relative clause on a subject
_RELATIVES = frozenset("that which who whom whose der die das welcher welche welches qui que dont".split())
#: finite verbs a clause's predicate starts with (a quote opening with one holds the clause's verb)
_FINITE_VERBS = frozenset(
    """
    is are was were be has have had will would shall should may might must can could does do did
    ist sind war waren wird werden hat haben hatte hatten kann können muss müssen darf dürfen soll sollen
    est sont était étaient sera seront a ont avait avaient peut peuvent doit doivent
    """.split()
)


#: The mark of an item of a list run into a sentence: "(ii) ", "(b) ", "3) "
_INLINE_ITEM = re.compile(r"(?<!\w)\(?(?:[ivx]{1,4}|[a-h]|\d{1,2})\)\s")


def _scope_around(text: str, start: int, end: int) -> str:
    """The part of the clause around ``[start, end)`` whose negations apply to it: the clause (see
    :func:`_clause_around`) from the end of a leading subordinate clause ("When an employee can no
    longer work, the plan pays ...") to the quote's end, and after it up to the first comma or word
    opening a subordinate clause ("... 1,095 days when an employee can no longer ..."), so that a
    negation right after the quote stays ("die Kosten für Brillen nicht")."""
    cs, ce = _clause_bounds(text, start, end)
    before, quoted, after = text[cs:start], text[start:end], text[end:ce]
    items = list(_INLINE_ITEM.finditer(before))
    if items:
        # an item of an inline list ("remove papers with (i) no title, (ii) no authors, (iii) fewer
        # than 100 characters"): the list's head and this item, not the other items' negations
        before = before[: items[0].start()] + " " + before[items[-1].end() :]
    first = _WORD.search(before)
    if first and first.group().lower() in _SUBORDINATORS and "," in before:
        before = before[before.rindex(",") + 1 :]
    opening = _WORD.search(quoted)
    if opening and opening.group().lower() in _FINITE_VERBS:
        # the quote holds the clause's verb, so what stands before it is the subject: a relative
        # clause on it ("Income that is not effectively connected … | is subject to …") is not the
        # quote's polarity; the subject's own words ("No income …") are
        relative = next((m for m in _WORD.finditer(before) if m.group().lower() in _RELATIVES), None)
        if relative is not None:
            before = before[: relative.start()]
    if quoted.rstrip().endswith((".", "!", "?")):
        after = ""  # the quote ends its sentence: what follows is another one
    opener = _WORD.search(before) or _WORD.search(quoted)
    if opener is not None and opener.group().lower() in _CONDITIONALS:
        # the quote is the condition ("If … you received any refunds", "if the similarity … is
        # too small"): what it says holds in the main clause after the comma ("…, do not subtract
        # them"), whose polarity is the quote's
        comma = after.find(",")
        if comma >= 0 and not _WORD.search(after[:comma]):
            main = after[comma + 1 :]
            stop = re.search(r"[.!?;]", main)
            return before + quoted + " " + (main[: stop.start()] if stop else main)
    tail_end = len(after)
    for m in re.finditer(r"[,.!?;]|" + _WORD.pattern, after):
        word = m.group().lower()
        if m.group() in ",.!?;" or word in _SUBORDINATORS or word in _COORDINATORS:
            tail_end = m.start()  # a subordinate clause, or another predicate ("… objectives and do not leverage")
            break
    return before + quoted + " " + after[:tail_end]


def _without(claim: str, quotes: tuple[str, ...]) -> str:
    """``claim`` with the quotes of other citations left out."""
    for q in quotes:
        # as written, whatever whitespace either has (a table row's tabs, a line break)
        pattern = r"\s+".join(map(re.escape, q.split()))
        claim = re.sub(pattern, " ", claim, count=1) if pattern else claim
    return claim


#: "NE" in capitals: an acronym ("our NE tagger": named entity), not French "ne"
_ACRONYM_NE = re.compile(r"\bNE\b")
#: Phrases with a negative word that assert rather than deny: "not only … but also", "no doubt",
#: "not surprisingly", a double negative ("not uncommon", "nicht unwichtig"), French "ne … que"
#: (only), German "nicht nur"; and "NE" in capitals, an acronym ("named entity").
_NOT_NEGATIONS = re.compile(
    r"\b(?:not only|not just|not merely|no doubt|not surprisingly|not least|not unlike|nonetheless|"
    r"nevertheless|not un\w+|nicht nur|nicht zuletzt|nicht un\w+|non seulement|pas seulement)\b"
    # the first part of a hyphen compound names a thing, it denies nothing: the "Never-Ending Language
    # Learner", a "no-fly list", "not-for-profit" ("no-one" does deny)
    r"|\b(?:not|no|never|nicht|nie|niemals|kein\w*|jamais|aucune?)-(?!one\b)(?=[^\W\d_])"
    r"|\bn(?:e\s|['’])(?:(?!(?:pas|jamais|plus|rien|aucune?)\b)[^\W\d_]+['’]?\s?){1,3}?que?\b"
    r"(?![^.;]*\b(?:pas|jamais|plus|rien|aucune?)\b)"
    rf"|(?-i:{_ACRONYM_NE.pattern})",
    re.IGNORECASE,
)
#: French "n’" before a verb is "ne" ("n’est plus", "n’a jamais", "n’est guère")
_ELIDED_NE = re.compile(r"\bn['’](?=[^\W\d_])", re.IGNORECASE)
#: Chinese negations are characters inside a word ("未经审计": not audited; "并非", "没有", "无法"); 非
#: alone is a prefix more often than not ("非居民": nonresident, "非流动": non-current) ...
_CJK_NEGATION = re.compile("[不未无没勿]|[并绝决]非")
#: ... but for the words that hold one without denying: different, continually, but, not only,
#: many, soon, whatever, future, very, have to, all without exception, unless, unlimited
_CJK_NOT_NEGATIONS = re.compile(
    "不同|不断|不过|不仅|不但|不少|不久|不管|不论|无论|未来|非常|不得不|无不|除非|无限|不妨"
)


#: A heading: a paragraph of one short line that does not end a sentence ("What’s New for 2008").
_HEADING = re.compile(r"\n\n([^\n]{2,80}?)[ \t]*(?=\n\n)")


def _heading_before(text: str, start: int) -> str:
    """The heading the text at ``start`` stands under: the nearest paragraph before it that is one
    short line without a sentence's end, or ""."""
    found = ""
    for m in _HEADING.finditer("\n\n" + text[:start]):
        if m.group(1).rstrip()[-1:] not in ".!?;:,。":
            found = m.group(1)
    return found


def _year_or_date(said: str, claimed: Numbers) -> bool:
    """Whether a claim's number as written (``said``) is one of its dates, or a year."""
    if any(d.text == said for d in claimed.dates):
        return True
    return any(
        q.text == said
        and q.kind is None  # (a year counts no unit; the word after it is any word)
        and all(v == v.to_integral_value() and 1600 <= v <= 2199 for v in q.values)
        for q in claimed.quantities
    )


_LIST_MARK = re.compile(r"(?:\s*(?:(?<!\w)\(?\d{1,3}[.)]|(?<!\w)\(?[a-z][.)]|[•▪◦·*–-]))+\s*$")


#: A sentence that announces a list after it ("Do not count the following as days of presence.").
_ANNOUNCES = re.compile(
    r"\b(?:following|these|below|as follows|folgenden?|nachstehend\w*|suivant\w*|ci-dessous)\b", re.I
)
#: A list mark opening a sentence.
_ITEM_MARK = re.compile(r"\s*(?:\(?\d{1,3}[.)]|\(?[a-z][.)]|[•▪◦·*–-])\s")
#: How many marked items back a lead-in is looked for.
_LIST_REACH = 12


def _lead_in(text: str, start: int) -> str:
    """The lead-in of the list whose item holds ``start`` ("You do not need to file Form 1040NR if:"
    before "1. Your only …"; "Do not count the following as days of presence." before bullets),
    across the list's earlier items, or "" when the sentence at ``start`` is no list item."""
    s, _ = _sentence_bounds(text, start, start)
    for _ in range(_LIST_REACH):
        head = text[:s].rstrip()
        before = _LIST_MARK.sub("", head).rstrip()
        if not before:
            return ""
        ls, _ = _sentence_bounds(text, len(before) - 1, len(before) - 1)
        if before.endswith((":", "：")):
            return text[ls : len(before)].strip()
        if len(before) == len(head) and not _ITEM_MARK.match(text, s) and before[-1] in ".!?。！？":
            # no list mark, and no item that a page's layout broke before it ("• Days you commute
            # to work in the" / "United States from …"): no (further) item of a list
            return ""
        if _ANNOUNCES.search(text, ls, len(before)):
            return text[ls : len(before)].strip()
        s = ls  # an earlier item of the list
    return ""


def _list_item(text: str, start: int) -> bool:
    """Whether the sentence at ``start`` is an item of a list (a mark before it or at its start)."""
    s, _ = _sentence_bounds(text, start, start)
    return _LIST_MARK.search(text[:s].rstrip()) is not None or _ITEM_MARK.match(text, s) is not None


#: Conjunctions that set what follows against what a negation before them denies.
_CONTRASTS = frozenset("but whereas although instead aber sondern jedoch mais cependant".split())
#: Words that stand between a negation and what it denies ("does not *currently* cover", "wird
#: *hier* nicht geführt", "n’a *pas été* reçue").
_BETWEEN = FUNCTION_WORDS | frozenset(
    """
    always currently necessarily fully entirely completely yet really
    hier noch mehr sehr ganz auch nur werden wurde wird worden sein ist sind war waren
    pas été est sont était plus jamais encore très
    """.split()
)


def _negation_targets(text: str) -> list[str]:
    """The word each negation of ``text`` denies: the first word of three letters or more after it
    that is not a function word ("not *shared*", "does not *pay*", "aucune *opposition*"; German
    puts the negation after what it denies, "wird nicht *geführt*" at a clause's end, so that a
    negation without a word after it denies none here)."""
    words = [w.lower() for w in _WORD.findall(_ACRONYM_NE.sub(" ", text))]
    out = []
    for k, w in enumerate(words):
        if _denies(w):
            # not past a contrast, which opens what the negation does not reach ("do not have, but
            # could *benefit* from")
            window = list(itertools.takewhile(lambda x: x not in _CONTRASTS, words[k + 1 : k + 5]))
            target = next((x for x in window if len(x) >= 3 and x not in _BETWEEN), None)
            if target is not None and target not in NEGATIONS:
                out.append(target)
    # Chinese and Japanese: the two characters after a negation character ("无*违规*", "未经*审计*")
    plain = _CJK_NOT_NEGATIONS.sub("", text)
    for m in _CJK_NEGATION.finditer(plain):
        after = plain[m.end() : m.end() + 3].lstrip("经有能得会是")[:2]
        if len(after) == 2 and _CJK.fullmatch(after[0]) and _CJK.fullmatch(after[1]):
            out.append(after)
    return out


#: Words after which a word is no predicate: an infinitive's "to" ("asks you *to pay*"), and for a
#: participle an English determiner before a noun of its stem ("into *the same cluster*" is not
#: "clustered"; nouns a negation denies, "aucune *opposition*", stand after determiners)
_INFINITIVE = frozenset({"to", "zu", "de"})
_DETERMINERS = frozenset("the a an this these those same each every its their our his her your my".split())


def _negated_at(text: str, target: str) -> bool | None:
    """Whether ``text`` denies ``target`` (a negation among the three words before it, in every
    place it has the word or its inflection as a predicate, not after "to", "asks you *to pay*", nor
    for a participle after a determiner, "into the same *cluster*"),
    asserts it (in none), or cannot tell (no such word, or both). A Chinese or Japanese target is
    looked for as characters, denied by a negation character right before it."""
    if _CJK.search(target):
        places = [m.start() for m in re.finditer(re.escape(target), text)]
        if not places:
            return None
        denied = [_CJK_NEGATION.search(text[max(0, k - 2) : k]) is not None for k in places]
        return True if all(denied) else False if not any(denied) else None
    words = [w.lower() for w in _WORD.findall(text)]
    stem = target[:5] if len(target) > 5 else target
    participle = target.endswith("ed")  # "not clustered": the same stem after "the" is a noun
    seen = [
        k
        for k, w in enumerate(words)
        if w.startswith(stem)
        and len(w) - len(target) <= 3
        and (k == 0 or (words[k - 1] not in _INFINITIVE and not (participle and words[k - 1] in _DETERMINERS)))
    ]
    if not seen:
        return None
    denied = [any(map(_denies, words[max(0, k - 3) : k])) for k in seen]
    return True if all(denied) else False if not any(denied) else None


#: English words that say a claim is negative in its own words ("Teacher assessment is *informal*",
#: "Most papers *skip* human evaluation", "*few* papers"), or that it sets what it says against the
#: quote ("*Unlike* SGC, SPECTER embeds new papers"): such a claim does not restate what the quote
#: denies as an assertion.
_NEGATIVE_WORDS = frozenset(
    """
    lack lacks lacked lacking absent absence fail fails failed failing failure avoid avoids avoided
    refuse refuses refused prevent prevents prevented prohibit prohibits prohibited forbid forbids
    forbidden exclude excludes excluded excluding omit omits omitted skip skips skipped ignore ignores
    ignored deny denies denied reject rejects rejected free neither none nothing nobody nowhere rarely
    seldom hardly barely little few fewer less least only instead rather except lose loses lost miss
    misses missed missing forgo forgoes forgoing refrain refrains abstain decline declines declined
    unable impossible cease ceases ceased stop stops stopped insufficient inadequate limited beyond
    outside unlike whereas contrast contrary opposed however although though but rare uncommon
    infrequent infrequently scarce scarcely minority unusual exception
    """.split()
)
_ANTONYM_PREFIXES = ("non", "un", "in", "im", "il", "ir", "dis", "mis")


def _restates_denied(claimed: str, whole: str, evidence: str) -> bool:
    """Whether the claim, in its own words and without a negation, asserts what a negation of the
    evidence denies in other words: it shares two content words with what one negation of the
    evidence governs ("SPECTER needs citation information" against "… does not require any
    citation information"; "Most papers do run human evaluation on long-form summaries" against "…
    do not perform human evaluation on long-form summaries"), and says nothing negative of its own
    (no word such as "lack", "few", "only", "unlike", nor an antonym of a denied word:
    "informal" against "no formal procedure"), in the whole claim (``whole``: "Unlike SGC, …")."""
    if any(w.lower() in _NEGATIVE_WORDS for w in _WORD.findall(whole)):
        return False
    claim_words = [w.lower() for w in _WORD.findall(claimed)]
    content = {_sense(w) for w in claim_words if len(w) >= 3 and w not in _BETWEEN}
    words = [w.lower() for w in _WORD.findall(_NOT_NEGATIONS.sub(" ", evidence))]
    at = [k for k, w in enumerate(words) if _denies(w)]
    for k, nxt in zip(at, [*at[1:], len(words)], strict=True):
        # what the negation governs: up to the next negation, or a word joining another predicate
        # or opening a clause ("do not pay it *and* report it")
        end = next((j for j in range(k + 1, nxt) if words[j] in _COORDINATORS or words[j] in _SUBORDINATORS), nxt)
        span = {_sense(w) for w in words[k + 1 : end] if len(w) >= 3 and w not in _BETWEEN}
        if any(_antonym_in(w, span) for w in claim_words):
            continue
        if len(content & span) >= 2:
            return True
    return False


#: Verbs that papers, manuals and answers use for one another, by their first five letters: a
#: claim that says "change" restates a negation of "alter" ("Events change the geometry" against
#: "does not alter the geometric representation").
_SAME_SENSE = {
    stem: group.split()[0]
    for group in (
        "alter chang modif",
        "requi need neede",
        "perfo condu run runs carri",
        "emplo use uses used utili",
        "inclu conta",
        "incre raise rises",
        "reduc decre lower",
        "allow permi enabl",
        "affec influ impac",
        "provi offer",
        "demon show shows",
    )
    for stem in group.split()
}


def _sense(word: str) -> str:
    """A content word's first five letters, one for verbs of one sense (see :data:`_SAME_SENSE`)."""
    return _SAME_SENSE.get(word[:5], word[:5])


#: Negative words that say "not enough" rather than "not at all" ("lack", "unable"): a claim whose
#: only negation is one of them agrees with evidence that says "limited", "few", "insufficient".
_SHORTFALL = frozenset("lack lacks lacked lacking unable".split())
_LESS = frozenset("limited few little insufficient inadequate scarce poor weak lacking short lower less".split())


def _says_less(claimed: str, evidence: str) -> bool:
    """Whether a claim negated only by a word of shortfall ("LLMs *lack* strong long-form
    generation") restates evidence that says "less" in a positive sentence ("*limited* in … long-form
    generation capabilities")."""
    plain = _NOT_NEGATIONS.sub(" ", claimed)
    denying = {w.lower() for w in _WORD.findall(plain) if _denies(w.lower())}
    return bool(denying) and denying <= _SHORTFALL and any(w.lower() in _LESS for w in _WORD.findall(evidence))


def _antonym_in(word: str, stems: set[str]) -> bool:
    """Whether ``word`` is a negative-prefixed or "-less" form of one of ``stems`` ("informal",
    "uncited", "nonresident", "costless")."""
    for prefix in _ANTONYM_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 3 and word[len(prefix) :][:5] in stems:
            return True
    return word.endswith("less") and len(word) > 7 and word[:-4][:5] in stems


#: Negative prepositions: a quote that drops one is altered, but in a claim or its evidence they
#: restrict a noun or lead a phrase ("Papers without text "are filtered out"", "Ohne Lohn gilt …")
#: rather than deny the predicate
_NEGATIVE_PREPOSITIONS = frozenset({"without", "ohne", "sans"})


def _denies(word: str) -> bool:
    """Whether a (lower-case) word denies a predicate."""
    return (word in NEGATIONS and word not in _NEGATIVE_PREPOSITIONS) or word.endswith(("n't", "n’t"))


def _negated(text: str) -> bool:
    plain = _NOT_NEGATIONS.sub(" ", text)
    words = [w.lower() for w in _WORD.findall(_ELIDED_NE.sub("ne ", plain))]
    if any(map(_denies, words)):
        return True
    return _CJK_NEGATION.search(_CJK_NOT_NEGATIONS.sub("", plain)) is not None


def _has_term(term: str, folded_text: str) -> bool:
    """Whether a required term is in a folded text as a whole word or phrase ("line 7" is not in
    "line 74"), accents aside ("batiment preserve" is "bâtiment préservé")."""
    wanted = _unaccented(fold(term).text.strip())
    if not wanted:
        return True
    start = r"(?<![^\W_])" if re.match(r"[^\W_]", wanted) else ""
    end = r"(?![^\W_])" if re.search(r"[^\W_]$", wanted) else ""
    return re.search(start + re.escape(wanted) + end, _unaccented(folded_text)) is not None


#: A lead-in that ends in a verb of saying ("The handbook states:", "Laut § 5 gilt:", "报告称："): the
#: quote after it is what the claim says, not evidence set off from the claim's own words.
_SAYS = re.compile(
    r"(?:\b(?:says?|said|states?|stated|notes?|noted|reads?|writes?|wrote|explains?|adds?|puts it|specifies|"
    r"mentions?|reports?|indicates?|concludes?|as follows|follows|heißt|sagt|schreibt|gilt|lautet|steht|"
    r"besagt|erklärt|folgt|dit|indique|précise|stipule|prévoit|énonce|mentionne|rapporte|suit)|"
    r"称|表示|指出|写道|提到|说|如下)\s*$",
    re.IGNORECASE,
)


_LEAD_IN = re.compile(r"^\W*(?:according to|based on|per|as per|laut|gemäß|nach|selon|d['’]après|suivant)\b", re.I)


def _asserts(words: str) -> bool:
    """Whether the claim's words before a colon say something of their own ("The report was
    audited:"), rather than lead into the quote ("The handbook states:", "Definition 20:",
    "According to § 5:")."""
    return count_words(_WORD.findall(words)) >= 4 and not _SAYS.search(words) and not _LEAD_IN.match(words)


#: A quote's attribution after the claim's own statement: an opened parenthesis ("… settings (the
#: paper notes "…")"), ", as the paper says", ", according to a survey:". What stands before it is
#: the claim's own words; the quote is what it cites for them.
_ATTRIBUTION = re.compile(
    r"(?:[(（][^()（）]{0,60}"
    r"|,\s*(?:as|like)\s+[^,;:()]{0,50}?\b(?:says?|said|states?|stated|notes?|noted|puts it|writes?|wrote|"
    r"reports?|reported|explains?|explained|mentions?|mentioned|indicates?|shows?|showed|finds|found|concludes?)"
    r"|,\s*(?:according to|per|as per)\s+[^,;:()]{0,50}?)\s*[:,]?$",
    re.IGNORECASE,
)


def _claim_scope(claim: str, quote: str | None) -> tuple[str, bool]:
    """The part of a claim whose negations are its polarity, and whether it is the claim's own words
    without the quote: without a leading subordinate clause before the quote ("While SGC cannot
    embed new papers, SPECTER "achieves …""), as on the evidence side; and without the quote when
    the quote is set off from the claim's words, in parentheses, or after a colon or a dash that
    does not end a lead-in of saying, or after an attribution that follows the claim's statement
    ("The report was audited ("…")", "SPECTER needs no citations, as the paper says "…"": what the
    claim says is its own words, the quote is what it cites for them; "The handbook states: "…""
    says the quote)."""
    words = quote.split() if quote else []
    at = re.search(r"\s+".join(map(re.escape, words)), claim) if words else None
    before, rest = (claim[: at.start()], claim[at.start() :]) if at else (claim, "")
    own = False
    if at is not None:
        lead = before.rstrip(" \"'“„«»「『\u00a0")
        attributed = _ATTRIBUTION.search(lead)
        if lead.endswith(("(", "（")) or (lead.endswith((":", "：", "—", "–")) and _asserts(lead[:-1])):
            before, rest, own = lead[:-1], claim[at.end() :], True
        elif attributed is not None and _asserts(lead[: attributed.start()]):
            before, rest, own = lead[: attributed.start()], claim[at.end() :], True
    first = _WORD.search(before)
    if first and first.group().lower() in _CLAIM_SUBORDINATORS and "," in before:
        before = before[before.rindex(",") + 1 :]
    return before + rest, own
