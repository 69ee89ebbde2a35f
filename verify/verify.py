"""``verify_answer``: check every citation of an answer against the store, deterministically.

For each citation, in order (:meth:`Verifier.check`):

1. **target**: the marker must be one that was injected (``fabricated_marker``) and name a stored
   chunk (``unknown_chunk``); each marker of a marker list is a citation of its own;
2. **gate**: there must be a quote (``no_quote``); a quote too short to mean much (each part of an
   elided quote, ``"A … B"``, on its own) is checked as written only (``too_short`` when it is not
   found so);
3. **search** (:mod:`citeline.verify.search`): the quote is looked up in the cited chunk
   (``verified``, ``verified_fuzzy``; around what interrupts it in the chunk, a footnote or a
   running head; running on into the next chunk, injected too, in the two read as one), then in the
   other injected chunks and elsewhere in the same document (``misattributed``), and else reported
   ``quote_altered`` (close, with the drift shown) or ``quote_not_found``;
4. **checks** (:mod:`citeline.verify.checks`): the claim against its evidence, a table of named
   checks (numbers, polarity, direction, required terms, location), each raising its flag; then a
   superseded version (with the quote re-anchored in the current one, and ``stale_gone`` when it is
   not there), a source file changed on disk.

A citation *passes* when it is verified and none of the failing flags is set
(:data:`citeline.verify.report.DEFAULT_FAIL_ON`, ``--fail-on``). What is read from the store, and kept,
is the business of :class:`citeline.verify.lookup.Lookup`.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from citeline.ingest.extract.files import sha256_file
from citeline.kinds import POLICIES
from citeline.store.errors import NotFound
from citeline.store.records import ChunkInfo, VersionInfo, passage_marker
from citeline.store.store import Store
from citeline.text.lang import Language
from citeline.verify.checks import Evidence, run_checks
from citeline.verify.coverage import is_asserting
from citeline.verify.errors import InputError
from citeline.verify.load import load_answer
from citeline.verify.lookup import Lookup
from citeline.verify.markers import resolve_marker
from citeline.verify.match import Match, drift
from citeline.verify.options import VerifyOptions, parse_fail_on
from citeline.verify.pairing import answer_language as detect_language
from citeline.verify.parse import MAX_CITATIONS, AnswerInput, CitationInput, parse_answer
from citeline.verify.quotes import cjk_count, folded_quote, insertions, quote_parts, word_count
from citeline.verify.report import CitationResult, Report, SentenceResult
from citeline.verify.resolve import document_json, found, resolve
from citeline.verify.search import Finder, Target

__all__ = ["Verifier", "VerifyOptions", "parse_fail_on", "quote_parts", "verify_answer"]


class Verifier:
    """Verifies answers against one store; reusable across answers (its :class:`Lookup` keeps chunks,
    versions and folded texts, which never change once stored)."""

    def __init__(self, store: Store, options: VerifyOptions = VerifyOptions()) -> None:
        if options.policy not in POLICIES:
            raise InputError(f"policy must be one of {', '.join(POLICIES)}, not {options.policy!r}")
        self.store = store
        self.options = options
        self.lookup = Lookup(store)
        self.finder = Finder(
            self.lookup,
            fuzzy_threshold=options.fuzzy_threshold,
            altered_min=options.altered_min,
            noise=options.noise,
        )

    # ------------------------------------------------------------------ one citation

    def check(
        self,
        cit: CitationInput,
        injected: dict[str, str],
        doc_refs: dict[str, dict[str, Any]],
        answer_language: Language | None = None,
    ) -> CitationResult:
        """Target, gate, search, checks; then whether the citation passes. ``answer_language`` is
        the language of the answer's own words (by default, the one the claim's words say)."""
        self.finder.start_citation()
        result = self._judged(cit, injected, doc_refs, answer_language)
        result.judge(self.options.fail_on)
        return result

    def _judged(
        self,
        cit: CitationInput,
        injected: dict[str, str],
        doc_refs: dict[str, dict[str, Any]],
        answer_language: Language | None,
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
            document=document_json(target.version),
            sentence=cit.sentence,
        )
        if cit.quote is None:
            result.status, result.reason = "no_quote", "the sentence cites this marker but quotes nothing to check"
            return result
        short = self._short(cit.quote)
        evidence = self._search(cit, result, target, injected, short=short)
        if evidence is not None:
            chunk, matches = evidence
            if answer_language is None:
                answer_language = detect_language(cit.claim or cit.quote)
            e = Evidence(
                cit,
                result,
                chunk,
                matches,
                doc=self.lookup.language(chunk.version_id),
                answer=answer_language,
                whole_version=target.whole_version,
                document=lambda: [c.text for c in self.lookup.version_chunks(chunk.version_id)],
                disabled=self.options.disabled,
            )
            run_checks(e)
        if not target.version.is_current and target.chunks:
            result.flags.append("stale_version")
            current, hit = self.finder.in_current(quote_parts(cit.quote), target.version)
            if current is None:
                result.stale = {"current_version": None, "found": False}
            elif hit is None:
                result.stale = {"current_version": current.version_no, "found": False}
            else:
                result.stale = {"current_version": current.version_no, "found": True, **found(self.lookup, *hit)}
            if not result.stale.get("found"):
                result.flags.append("stale_gone")
        if self.options.check_sources:
            self._check_source(result, target.version)
        return result

    def _target(
        self, cit: CitationInput, injected: dict[str, str], doc_refs: dict[str, dict[str, Any]]
    ) -> Target | CitationResult:
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
            return Target([marker] * len(candidates), candidates, version, by_chunk, whole_version=True)
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
        # a passage of merged neighbours: the marker's later chunks are recorded as MARKER~2, ...
        chunks = [chunk] + [
            c
            for name, cid in injected.items()
            if name != marker and passage_marker(name) == marker and (c := self.lookup.chunk(cid)) is not None
        ]
        by_chunk = {c.chunk_id: marker for c in chunks}
        return Target([marker] * len(chunks), chunks, self.lookup.version(chunk.version_id), by_chunk)

    def _short(self, quote: str) -> str | None:
        """Why a quote is too short to be matched but as written (each part of an elided quote on
        its own), or ``None``."""
        for part in quote_parts(quote):
            folded = folded_quote(part)
            words = word_count(folded)
            # a Chinese or Japanese character says as much as two letters of a spaced script (a word
            # is two of them): "本公司确认公众持股量足够" is no shorter a claim than "the company
            # confirms that its public float is sufficient"
            cjk = cjk_count(folded)
            if len(folded) + cjk < self.options.min_chars or words < self.options.min_words:
                what = "quote" if part == quote.strip() else f"the quoted part {part!r}"
                counted = " (a Chinese or Japanese character counts twice)" if cjk else ""
                return (
                    f"{what} has {len(folded)} character{'s' * (len(folded) != 1)} and {words} "
                    f"word{'s' * (words != 1)}; a quote shorter than {self.options.min_chars} characters"
                    f"{counted} or {self.options.min_words} words is checked as written only"
                )
        return None

    def _search(
        self, cit: CitationInput, result: CitationResult, target: Target, injected: dict[str, str], *, short: str | None
    ) -> tuple[ChunkInfo, list[Match]] | None:
        """Set the result's status, location and reason; return where the quote was found (the
        evidence for the checks), or ``None``. A ``short`` quote counts only where it is as written."""
        assert cit.quote is not None
        quote = cit.quote
        finder = self.finder
        parts = quote_parts(quote)
        seen: dict[str, Match] = {}
        if len(parts) > 1 and "source_ellipsis" not in self.options.disabled:
            # an ellipsis the source writes itself ("q = R1 × . . . × Rn"): the quote is found whole
            whole = finder.best_in(quote, target.chunks, seen)
            if whole is not None and all(m.kind == "exact" for m in whole[1]):
                self._found(result, target, injected, *whole, across=None, inserted=[], pieces=False)
                return whole
        hit = finder.at_given_indices(cit.chunk_start, cit.chunk_end, target, parts[0]) if len(parts) == 1 else None
        refused: list[str] = []  # why parts found in order were not taken (reported if nothing is found)
        hit = hit or finder.find(parts, target.chunks, seen, refused=refused)
        inserted: list[str] = []
        if "[" in quote and (hit is None or any(m.kind != "exact" for m in hit[1])):
            # not found as written (or only near it): read its square brackets as the writer's marks;
            # the source's own brackets, "[Smith et al., 2020]", were found as written above
            edited = quote_parts(quote, writer_brackets=True)
            if edited != parts:
                better = finder.find(edited, target.chunks)
                if better is not None and (hit is None or all(m.kind == "exact" for m in better[1])):
                    hit, inserted = better, insertions(quote)
        pieces = False
        if len(parts) == 1 and (hit is None or any(m.kind != "exact" for m in hit[1])):
            # not in the chunk as written: perhaps something interrupts it there (a footnote, a
            # running head across a page break, a line number, the other column)
            got = next((g for c in target.chunks if (g := finder.interrupted(parts[0], c)) is not None), None)
            if got is not None:
                hit, pieces = got, True
        across: tuple[ChunkInfo, ChunkInfo] | None = None
        if hit is None or any(m.kind != "exact" for m in hit[1]):
            # not in one cited chunk as written: perhaps it runs on into the next chunk
            joined = finder.across(parts, target, injected)
            if joined is not None and "whole_quote_first" not in self.options.disabled:
                # another injected chunk that holds the whole quote is the one it is from
                others = [c for cid in injected.values() if (c := self.lookup.chunk(cid)) is not None]
                others = [c for c in others if c.chunk_id not in target.by_chunk]
                alone = finder.find(parts, others) if others else None
                if alone is not None and all(m.kind == "exact" for m in alone[1]):
                    joined = None
            if joined is not None and (hit is None or all(m.kind == "exact" for m in joined[0][1])):
                hit, across = joined[0], joined[1:]
                pieces = len(parts) == 1 and len(hit[1]) > 1
        if hit is not None and short is not None and any(m.kind != "exact" for m in hit[1]):
            hit = None  # a short quote is taken as written only
        if hit is not None:
            c, matches = hit
            self._found(result, target, injected, c, matches, across=across, inserted=inserted, pieces=pieces)
            return c, matches
        where_found = finder.misattributed(
            parts[0] if len(parts) == 1 else quote, target, injected, searched=[c.chunk_id for c in target.chunks]
        )
        if where_found is not None and short is not None and any(m.kind != "exact" for m in where_found[2]):
            where_found = None
        altered: tuple[ChunkInfo, Match] | None = None
        if where_found is None and len(parts) == 1:
            for c in target.chunks:
                m = finder.locate_in(parts[0], c, seen)
                if m.kind == "altered" and (altered is None or m.score > altered[1].score):
                    altered = (c, m)
        if where_found is not None:
            marker, chunk, matches = where_found
            result.status = "misattributed"
            result.found_in = {"marker": marker, **found(self.lookup, chunk, matches)}
            where = f"injected source {marker}" if marker else f"chunk {chunk.chunk_id}"
            result.reason = f"found in {where}, not in the cited chunk"
        elif short is not None:
            result.status, result.reason = "too_short", f"{short}, and is not in the cited chunk as written"
        elif altered is not None:
            c, m = altered
            result.marker = target.by_chunk.get(c.chunk_id, result.marker)
            result.chunk_id = c.chunk_id
            result.status = "quote_altered"
            result.score = m.score
            result.location = resolve(self.lookup, c, [m])
            result.drift = drift(c.text, m, parts[0], folded_quote=folded_quote(parts[0]))
            result.differences = [d.as_json() for d in m.differences]
            result.reason = "closest passage differs: " + ", ".join(
                f"{d.kind} {d.quote!r}->{d.source!r}" for d in m.differences if not d.noise
            )
            if m.numeric_mismatch and "quote_numbers" not in self.options.disabled:
                result.flags.append("numeric_mismatch")
            if m.negation_mismatch and "quote_negation" not in self.options.disabled:
                result.flags.append("negation_mismatch")
        else:
            where = "the cited chunk" if len(target.chunks) == 1 else "the cited chunks"
            result.reason = f"not found in {where}, the other injected chunks or the rest of the document"
            if refused:
                # its parts are there, in order: say why that is not the quote
                result.reason = f"its parts are in {where} in order, but {refused[0]}"
        return None

    def _found(
        self,
        result: CitationResult,
        target: Target,
        injected: dict[str, str],
        c: ChunkInfo,
        matches: list[Match],
        *,
        across: tuple[ChunkInfo, ChunkInfo] | None,
        inserted: list[str],
        pieces: bool,
    ) -> None:
        """Fill a verified result: marker, chunk, status, score, location and reason."""
        best = min(matches, key=lambda m: m.score)
        result.marker = target.by_chunk.get(c.chunk_id, result.marker)
        result.chunk_id = c.chunk_id
        if across is not None:
            cited = next(x for x in across if x.chunk_id in target.by_chunk)
            result.marker, result.chunk_id = target.by_chunk[cited.chunk_id], cited.chunk_id
        result.status = "verified" if all(m.kind == "exact" for m in matches) else "verified_fuzzy"
        result.score = best.score
        result.location = resolve(
            self.lookup, c, matches, elided=False if pieces else None, quote=result.quote if pieces else None
        )
        differences = [d for m in matches for d in m.differences]
        result.reason = (
            "exact after folding" if result.status == "verified" else "fuzzy: " + _noise_summary(differences)
        )
        if pieces:
            result.reason += f" ({len(matches)} pieces, around what interrupts the passage in the text)"
        elif len(matches) > 1:
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

    def _document_ref(self, ref: dict[str, Any]) -> tuple[list[ChunkInfo], VersionInfo | None]:
        uri, number = ref["document"], ref.get("version")
        try:
            info = self.store.document(uri, collection=ref.get("collection"))
        except NotFound:
            return [], None
        version = next((v for v in info.versions if (v.version_no == number if number else v.is_current)), None)
        if version is None:
            return [], None
        self.lookup.remember_version(version)
        return self.lookup.version_chunks(version.version_id), version

    def _check_source(self, result: CitationResult, version: VersionInfo) -> None:
        current = self.store.current_files(version.collection).get((version.collection, version.document_uri))
        path = current.local_path if current else None
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
        if len(answer.citations) > MAX_CITATIONS:
            raise InputError(
                f"the answer has {len(answer.citations)} citations; at most {MAX_CITATIONS} are checked in one answer"
            )
        self.lookup.trim()
        results = [self.check(c, injected, answer.document_refs, answer.language) for c in answer.citations]
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


def _noise_summary(differences: list[Any]) -> str:
    kinds = sorted({d.kind for d in differences})
    return ", ".join(kinds) if kinds else "character-level differences"


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
