"""``verify_answer``: check every citation of an answer against the store, deterministically.

For each citation, in order: the marker must be one that was injected (``fabricated_marker``) and
name a stored chunk (``unknown_chunk``); the quote must be long enough to mean something
(``too_short``); then it is looked up in the cited chunk (``verified``, ``verified_fuzzy``), in the
other injected chunks and elsewhere in the same document (``misattributed``), and finally reported as
``quote_altered`` (close, with the drift shown) or ``quote_not_found``. Flags add what else is off:
numbers, negation, required terms, a superseded version (with the quote re-anchored in the current
one), a source file that changed on disk.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

from citeline.ingest.extract.files import sha256_file
from citeline.ingest.extract.model import Geometry
from citeline.ingest.offsets import Normalized, Original
from citeline.store.errors import NotFound
from citeline.store.records import ChunkInfo, PageInfo, VersionInfo
from citeline.store.store import Store
from citeline.verify.coverage import is_asserting
from citeline.verify.errors import InputError
from citeline.verify.fold import Folded, fold
from citeline.verify.match import ALTERED_MIN, FUZZY_THRESHOLD, NEGATIONS, AlignmentMemo, Match, drift, locate, tokens
from citeline.verify.parse import AnswerInput, CitationInput, load_answer, parse_answer
from citeline.verify.report import CitationResult, Location, Report, SentenceResult

#: A quote shorter than this (characters, after folding) or with fewer words matches too easily.
MIN_QUOTE_CHARS = 20
MIN_QUOTE_WORDS = 4
#: How many chunks, ranked by rapidfuzz partial_ratio, get a full alignment when a quote is looked
#: for among many chunks (the other injected ones, or a whole document).
SCREEN_CANDIDATES = 3
#: ... after dropping chunks holding less than this share of the quote's words (of three letters or more).
SCREEN_WORD_SHARE = 0.6
#: Chunks whose raw characters and line geometry are kept for resolving quotes (the least recently
#: used are dropped beyond this; a chunk's are a few KB).
SOURCE_CACHE = 1024
#: Chunks (with their folded texts and words) kept across answers; beyond this the caches start over
#: before the next answer, so a long-running ``citeline serve`` does not grow with the corpus.
CHUNK_CACHE = 100_000
POLICIES = ("annotate", "strict", "strip")

_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
_WORDS = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class VerifyOptions:
    min_chars: int = MIN_QUOTE_CHARS
    min_words: int = MIN_QUOTE_WORDS
    fuzzy_threshold: float = FUZZY_THRESHOLD
    altered_min: float = ALTERED_MIN
    check_sources: bool = False
    policy: str = "annotate"
    log: bool = True


@dataclass
class _Cache:
    """Lookups of immutable things (chunks and versions never change once stored), kept across
    answers. Which version is current is looked up fresh every time."""

    chunks: dict[str, ChunkInfo | None] = field(default_factory=dict)
    folded: dict[str, Folded] = field(default_factory=dict)
    versions: dict[int, VersionInfo] = field(default_factory=dict)
    version_chunks: dict[int, list[ChunkInfo]] = field(default_factory=dict)
    vocabulary: dict[int, frozenset[str]] = field(default_factory=dict)
    chunk_words: dict[str, frozenset[str]] = field(default_factory=dict)
    sources: dict[str, tuple[str, Geometry]] = field(default_factory=dict)
    pages: dict[int, list[PageInfo]] = field(default_factory=dict)


class Verifier:
    """Verifies answers against one store; reusable across answers, and its caches of chunks,
    versions and folded texts (immutable once stored) are kept across them."""

    def __init__(self, store: Store, options: VerifyOptions = VerifyOptions()) -> None:
        if options.policy not in POLICIES:
            raise InputError(f"policy must be one of {', '.join(POLICIES)}, not {options.policy!r}")
        self.store = store
        self.options = options
        self._cache = _Cache()
        # alignments worked out for the citation being checked, per document version (a passage
        # repeated in several chunks is aligned once); emptied for every citation
        self._memos: dict[int, AlignmentMemo] = {}

    # ------------------------------------------------------------------ lookups

    def _chunk(self, chunk_id: str) -> ChunkInfo | None:
        self._prefetch([chunk_id])
        return self._cache.chunks[chunk_id]

    def _prefetch(self, chunk_ids: Iterable[str]) -> None:
        """Load the uncached among ``chunk_ids`` in one query: a citation looks at its whole
        injected set (the other chunks, for a misattributed quote)."""
        missing = [cid for cid in chunk_ids if cid not in self._cache.chunks]
        if missing:
            found = self.store.chunks(missing)
            for cid in missing:
                self._cache.chunks[cid] = found.get(cid)

    def _folded(self, chunk: ChunkInfo) -> Folded:
        if chunk.chunk_id not in self._cache.folded:
            self._cache.folded[chunk.chunk_id] = fold(chunk.text)
        return self._cache.folded[chunk.chunk_id]

    def _version(self, version_id: int) -> VersionInfo:
        if version_id not in self._cache.versions:
            self._cache.versions[version_id] = self.store.version(version_id)
        return self._cache.versions[version_id]

    def _version_chunks(self, version_id: int) -> list[ChunkInfo]:
        if version_id not in self._cache.version_chunks:
            chunks = self.store.chunks_of_version(version_id)
            self._cache.version_chunks[version_id] = chunks
            for c in chunks:
                self._cache.chunks.setdefault(c.chunk_id, c)
        return self._cache.version_chunks[version_id]

    def _chunk_words(self, chunk: ChunkInfo) -> frozenset[str]:
        words = self._cache.chunk_words.get(chunk.chunk_id)
        if words is None:
            words = self._cache.chunk_words[chunk.chunk_id] = frozenset(tokens(self._folded(chunk).text))
        return words

    def _vocabulary(self, version_id: int) -> frozenset[str]:
        """The folded words of a whole document version: a quote word found there is a real word,
        so a one-letter difference to it is a substitution, not a typo."""
        if version_id not in self._cache.vocabulary:
            words: set[str] = set()
            for c in self._version_chunks(version_id):
                words.update(self._chunk_words(c))
            self._cache.vocabulary[version_id] = frozenset(words)
        return self._cache.vocabulary[version_id]

    def _locate(self, quote: str, chunk: ChunkInfo, seen: dict[str, Match], *, found_only: bool = False) -> Match:
        """``locate`` in one chunk; ``seen`` holds this quote's matches by chunk id, so no chunk is
        aligned twice for one quote. With ``found_only`` a near miss is not worked out (reported
        not found), for searches where only a verified match counts."""
        m = seen.get(chunk.chunk_id)
        if m is None:
            memo = self._memos.setdefault(chunk.version_id, {})
            m = seen[chunk.chunk_id] = locate(
                quote,
                chunk.text,
                folded_chunk=self._folded(chunk),
                folded_quote=_folded_quote(quote),
                vocabulary=lambda: self._vocabulary(chunk.version_id),
                threshold=self.options.fuzzy_threshold,
                altered_min=self.options.fuzzy_threshold if found_only else self.options.altered_min,
                memo=memo,
            )
        return m

    def _best_in(
        self,
        quote: str,
        chunks: Iterable[ChunkInfo],
        seen: dict[str, Match] | None = None,
        *,
        elsewhere: bool = False,
    ) -> tuple[ChunkInfo, Match] | None:
        """The best place for a quote among chunks: an exact match first, then the best fuzzy one.

        Chunks are screened in C first (a substring test on the folded texts, then rapidfuzz's
        ``partial_ratio`` over all of them), so only a few candidates get the full alignment: a
        failing citation can search a whole document quickly. ``elsewhere`` is a search outside the
        cited chunk (a misattributed quote, a stale one re-anchored), where a near miss is not
        reported: pools of a few chunks are screened too, and no near miss is worked out."""
        pool = list(chunks)
        if not pool:
            return None
        if elsewhere and seen is not None:
            raise ValueError("a search elsewhere keeps its own matches")
        seen = {} if seen is None else seen
        folded_quote = _folded_quote(quote)
        texts = [self._folded(c).text for c in pool]
        for c, text in zip(pool, texts, strict=True):
            if folded_quote in text:
                m = self._locate(quote, c, seen, found_only=elsewhere)
                if m.kind == "exact":
                    return c, m
        if elsewhere or len(pool) > SCREEN_CANDIDATES:
            # a fuzzy match keeps most of the quote's words: drop chunks that lack them (set
            # lookups), then rank the rest by partial_ratio (in C)
            words = {w for w in tokens(folded_quote) if len(w) > 2}
            if words:
                need = SCREEN_WORD_SHARE * len(words)
                keep = [i for i, c in enumerate(pool) if len(words & self._chunk_words(c)) >= need]
                pool, texts = [pool[i] for i in keep], [texts[i] for i in keep]
            screened = process.extract(
                folded_quote,
                texts,
                scorer=fuzz.partial_ratio,
                limit=SCREEN_CANDIDATES,
                score_cutoff=self.options.fuzzy_threshold - 5,
            )
            pool = [pool[index] for _, _, index in screened]
        best: tuple[ChunkInfo, Match] | None = None
        for c in pool:
            m = self._locate(quote, c, seen, found_only=elsewhere)
            if m.kind == "fuzzy" and (best is None or m.score > best[1].score):
                best = (c, m)
        return best

    def _source(self, chunk: ChunkInfo) -> tuple[str, Geometry]:
        """The raw characters of a chunk's span and the geometry of its lines: all that resolving a
        quote in it needs (loading a whole version's would cost a cold document tens of ms)."""
        data = self._cache.sources.pop(chunk.chunk_id, None)
        if data is None:
            data = self.store.source(chunk.version_id, Original(chunk.raw_start, chunk.raw_end))
            if len(self._cache.sources) >= SOURCE_CACHE:
                self._cache.sources.pop(next(iter(self._cache.sources)))
        self._cache.sources[chunk.chunk_id] = data  # most recently used last
        return data

    def _pages(self, version_id: int) -> list[PageInfo]:
        if version_id not in self._cache.pages:
            self._cache.pages[version_id] = self.store.pages(version_id)
        return self._cache.pages[version_id]

    def _resolve(self, chunk: ChunkInfo, match: Match) -> Location:
        version = self._version(chunk.version_id)
        raw, geometry = self._source(chunk)
        clean = Normalized(match.start, match.end)
        raw_range = chunk.map.to_original(clean)
        boxes = geometry.boxes(chunk.map.source_spans(clean), raw, raw_start=chunk.raw_start)
        pages = sorted({b.page for b in boxes}) or [
            p.page_no
            for p in self._pages(chunk.version_id)
            if p.raw_start < raw_range.end and raw_range.start < p.raw_end
        ]
        return Location(
            document_uri=version.document_uri,
            version_no=version.version_no,
            content_sha256=version.content_sha256,
            current=version.is_current,
            start=raw_range.start,
            end=raw_range.end,
            text=raw[raw_range.start - chunk.raw_start : raw_range.end - chunk.raw_start],
            pages=tuple(pages),
            boxes=tuple(b.as_dict() for b in boxes),
            version_id=chunk.version_id,
        )

    @staticmethod
    def _document(version: VersionInfo) -> dict[str, Any]:
        return {
            "uri": version.document_uri,
            "version": version.version_no,
            "content_hash": f"sha256:{version.content_sha256}",
            "current": version.is_current,
        }

    # ------------------------------------------------------------------ one citation

    def check(
        self, cit: CitationInput, injected: dict[str, str], doc_refs: dict[str, dict[str, Any]]
    ) -> CitationResult:
        self._memos = {}
        marker = _resolve_marker(cit.marker, injected, doc_refs)
        if marker is None:
            return CitationResult(
                cit.marker,
                None,
                "fabricated_marker",
                cit.quote,
                cit.claim,
                reason=f"marker {cit.marker!r} was not in the injected set",
                sentence=cit.sentence,
            )
        if marker in doc_refs:
            candidates, version = self._document_ref(doc_refs[marker])
            if version is None:
                ref = doc_refs[marker]
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
            chunk = candidates[0] if candidates else None
        else:
            self._prefetch(injected.values())
            chunk = self._chunk(injected[marker])
            candidates = [chunk] if chunk else []
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
            version = self._version(chunk.version_id)
        result = CitationResult(
            marker,
            chunk.chunk_id if chunk else None,
            "quote_not_found",
            cit.quote,
            cit.claim,
            document=self._document(version),
            sentence=cit.sentence,
        )
        if cit.quote is None:
            result.status, result.reason = (
                "no_quote",
                "the sentence cites this marker but quotes nothing to check",
            )
            return result
        folded = _folded_quote(cit.quote)
        words = len(_WORDS.findall(folded))
        if len(folded) < self.options.min_chars or words < self.options.min_words:
            result.status = "too_short"
            result.reason = (
                f"quote has {len(folded)} characters and {words} words; "
                f"at least {self.options.min_chars} and {self.options.min_words} are needed"
            )
            return result

        seen: dict[str, Match] = {}
        hit = self._at_given_indices(cit, chunk) or self._best_in(cit.quote, candidates, seen)
        altered: tuple[ChunkInfo, Match] | None = None
        if hit is None:
            for c in candidates:
                m = self._locate(cit.quote, c, seen)
                if m.kind == "altered" and (altered is None or m.score > altered[1].score):
                    altered = (c, m)
        if hit is not None:
            c, m = hit
            result.chunk_id = c.chunk_id
            result.status = "verified" if m.kind == "exact" else "verified_fuzzy"
            result.score = m.score
            result.location = self._resolve(c, m)
            result.reason = "exact after folding" if m.kind == "exact" else "fuzzy: " + _noise_summary(m)
            if m.differences:
                result.differences = [d.as_json() for d in m.differences]
            self._evidence_flags(result, cit, c, m)
        else:
            elsewhere = self._misattributed(cit.quote, marker, chunk, injected, searched=seen.keys())
            if elsewhere is not None:
                result.status = "misattributed"
                result.found_in = elsewhere
                where = (
                    f"injected source {elsewhere['marker']}"
                    if elsewhere["marker"]
                    else f"chunk {elsewhere['chunk_id']}"
                )
                result.reason = f"found in {where}, not in the cited chunk"
            elif altered is not None:
                c, m = altered
                result.status = "quote_altered"
                result.score = m.score
                result.location = self._resolve(c, m)
                result.drift = drift(c.text, m, cit.quote, folded_quote=_folded_quote(cit.quote))
                result.differences = [d.as_json() for d in m.differences]
                result.reason = "closest passage differs: " + ", ".join(
                    f"{d.kind} {d.quote!r}->{d.source!r}" for d in m.differences if not d.noise
                )
                if m.numeric_mismatch:
                    result.flags.append("numeric_mismatch")
                if m.negation_mismatch:
                    result.flags.append("negation_mismatch")
            else:
                result.reason = "not found in the cited chunk, the other injected chunks or the rest of the document"
        if chunk is not None and not version.is_current:
            result.flags.append("stale_version")
            result.stale = self._reanchor(cit.quote, version)
        if self.options.check_sources:
            self._check_source(result, version)
        return result

    @staticmethod
    def _at_given_indices(cit: CitationInput, chunk: ChunkInfo | None) -> tuple[ChunkInfo, Match] | None:
        """An Anthropic ``char_location`` names where the quote is in the cited chunk: take it when the
        characters there fold to the quote (otherwise the quote is searched for as usual)."""
        s, e = cit.chunk_start, cit.chunk_end
        if chunk is None or cit.quote is None or s is None or e is None or not 0 <= s < e <= len(chunk.text):
            return None
        if fold(chunk.text[s:e]).text != _folded_quote(cit.quote):
            return None
        return chunk, Match("exact", 100.0, s, e)

    def _document_ref(self, ref: dict[str, Any]) -> tuple[list[ChunkInfo], VersionInfo | None]:
        uri, number = ref["document"], ref.get("version")
        try:
            info = self.store.document(uri)
        except Exception:  # NotFound
            return [], None
        version = next((v for v in info.versions if (v.version_no == number if number else v.is_current)), None)
        if version is None:
            return [], None
        self._cache.versions[version.version_id] = version
        return self._version_chunks(version.version_id), version

    def _misattributed(
        self,
        quote: str,
        marker: str,
        cited: ChunkInfo | None,
        injected: dict[str, str],
        *,
        searched: Iterable[str] = (),
    ) -> dict[str, Any] | None:
        """Where else the quote is: in another injected chunk, or elsewhere in the cited chunk's
        document. ``searched`` are chunks the quote was not found in already (the cited one, injected
        again under another marker, is not searched twice)."""
        skip = set(searched)
        others = {
            mk: c
            for mk, cid in injected.items()
            if mk != marker and cid not in skip and (c := self._chunk(cid)) is not None
        }
        hit = self._best_in(quote, others.values(), elsewhere=True)
        if hit is not None:
            return {"marker": next(mk for mk, x in others.items() if x is hit[0]), **self._found(*hit)}
        if cited is not None:
            # the rest of the document, but for the chunks just searched
            skip |= {cited.chunk_id} | {c.chunk_id for c in others.values()}
            rest = [c for c in self._version_chunks(cited.version_id) if c.chunk_id not in skip]
            hit = self._best_in(quote, rest, elsewhere=True)
            if hit is not None:
                return {"marker": None, **self._found(*hit)}
        return None

    def _found(self, chunk: ChunkInfo, m: Match) -> dict[str, Any]:
        """Where a quote was found outside the cited chunk (``found_in``, ``stale``)."""
        return {
            "chunk_id": chunk.chunk_id,
            "status": "verified" if m.kind == "exact" else "verified_fuzzy",
            "score": m.score,
            **_loc_json(self._resolve(chunk, m)),
        }

    def _reanchor(self, quote: str, version: VersionInfo) -> dict[str, Any]:
        current = self.store.current_version(version.document_uri)
        if current is None:
            return {"current_version": None, "found": False}
        self._cache.versions[current.version_id] = current
        hit = self._best_in(quote, self._version_chunks(current.version_id), elsewhere=True)
        if hit is None:
            return {"current_version": current.version_no, "found": False}
        return {"current_version": current.version_no, "found": True, **self._found(*hit)}

    def _evidence_flags(self, result: CitationResult, cit: CitationInput, chunk: ChunkInfo, m: Match) -> None:
        evidence = _sentences_around(chunk.text, m.start, m.end)
        folded_evidence = fold(evidence).text
        said = " ".join(x for x in (cit.quote, cit.claim) if x)
        numbers = set(_DIGITS.findall(fold(said).text))
        if any(n not in folded_evidence for n in numbers):
            result.flags.append("numeric_mismatch")
        if cit.claim and _negated(cit.claim) != _negated(evidence):
            result.flags.append("negation_mismatch")
        missing = [t for t in cit.required_terms if fold(t).text not in folded_evidence]
        if missing:
            result.flags.append("missing_terms")
            result.reason += f"; missing terms: {', '.join(missing)}"

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
        if len(self._cache.chunks) > CHUNK_CACHE:
            self._cache = _Cache()
        results = [self.check(c, injected, answer.document_refs) for c in answer.citations]
        cited = {c.sentence for c in answer.citations if c.sentence is not None}
        sentences = [
            SentenceResult(s.text, s.start, s.end, s.markers, is_asserting(s.text), bool(s.markers) or i in cited)
            for i, s in enumerate(answer.sentences)
        ]
        report = Report(
            results,
            sentences,
            answer.answer,
            hashlib.sha256(answer.answer.encode()).hexdigest(),
            context_id,
            self.options.policy,
        )
        if self.options.log:
            report.run_id = self.store.log_verification(
                answer_sha256=report.answer_sha256,
                context_id=context_id,
                policy=self.options.policy,
                coverage=report.coverage,
                results=[(r.marker, r.chunk_id, r.status, r.flags, r.score) for r in results],
            )
        return report


def verify_answer(
    store: Store,
    answer: str | bytes | Path | dict[str, Any],
    *,
    context_id: str | None = None,
    options: VerifyOptions = VerifyOptions(),
) -> Report:
    """Verify an answer (a dict, JSON text or bytes, or a path to a JSON file) against ``store``."""
    name = str(answer) if isinstance(answer, Path) else "answer"
    data = load_answer(answer, name=name)
    parsed = parse_answer(data, name=name)
    return Verifier(store, options).verify(parsed, context_id=context_id)


@functools.lru_cache(maxsize=4096)
def _folded_quote(quote: str) -> str:
    """``fold(quote).text``: one check folds its quote for every chunk it looks in, and the same
    quotes come back (a report re-rendered, a served answer re-checked)."""
    return fold(quote).text


def _resolve_marker(marker: str, injected: dict[str, str], refs: dict[str, dict[str, Any]]) -> str | None:
    """``1`` may refer to ``S1`` (and back): answers often drop the prefix the prompt used."""
    for candidate in (marker, f"S{marker}", marker[1:] if marker[:1] in "Ss" else None):
        if candidate is not None and (candidate in injected or candidate in refs):
            return candidate
    return None


def _loc_json(loc: Location) -> dict[str, Any]:
    return {
        "document": {
            "uri": loc.document_uri,
            "version": loc.version_no,
            "content_hash": f"sha256:{loc.content_sha256}",
            "current": loc.current,
        },
        "version_id": loc.version_id,
        "range": {"start": loc.start, "end": loc.end},
        "text": loc.text,
        "pages": list(loc.pages),
        "boxes": list(loc.boxes),
    }


def _noise_summary(m: Match) -> str:
    kinds = sorted({d.kind for d in m.differences})
    return ", ".join(kinds) if kinds else "character-level differences"


def _sentences_around(text: str, start: int, end: int) -> str:
    """The sentences of ``text`` that the span ``[start, end)`` touches."""
    s = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start))
    e_candidates = [i for i in (text.find(". ", end), text.find("\n", end)) if i >= 0]
    e = min(e_candidates) + 1 if e_candidates else len(text)
    return text[s + 1 if s >= 0 else 0 : e]


def _negated(text: str) -> bool:
    words = [w.lower() for w in re.findall(r"[^\W\d_]+(?:['’]t)?", text)]
    return any(w in NEGATIONS or w.endswith(("n't", "n’t")) for w in words)
