"""The verification report: one result per citation, answer sentences with coverage, a summary.

The JSON form is documented in the README and in ``verify/schema/report.schema.json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Statuses that count as verified.
VERIFIED = ("verified", "verified_fuzzy")
STATUSES = (
    "verified",
    "verified_fuzzy",
    "quote_altered",
    "quote_not_found",
    "misattributed",
    "too_short",
    "no_quote",
    "fabricated_marker",
    "unknown_chunk",
)
FLAGS = ("numeric_mismatch", "negation_mismatch", "missing_terms", "stale_version", "source_changed")


@dataclass(frozen=True, slots=True)
class Location:
    """A resolved place in a document version: absolute raw range, its text, pages and boxes."""

    document_uri: str
    version_no: int
    content_sha256: str
    current: bool
    start: int
    end: int
    text: str
    pages: tuple[int, ...]
    boxes: tuple[dict[str, float | int], ...]
    version_id: int = 0  # internal: which stored version (for rendering pages)


@dataclass
class CitationResult:
    marker: str
    chunk_id: str | None
    status: str
    quote: str | None
    claim: str | None = None
    score: float | None = None
    flags: list[str] = field(default_factory=list)
    reason: str = ""
    location: Location | None = None  # where the quote is (verified) or where it drifted (altered)
    document: dict[str, Any] | None = None  # the cited chunk's document version
    found_in: dict[str, Any] | None = None  # misattributed: where the quote really is
    stale: dict[str, Any] | None = None
    drift: str | None = None
    differences: list[dict[str, str]] = field(default_factory=list)
    sentence: int | None = None

    @property
    def ok(self) -> bool:
        return self.status in VERIFIED

    def as_json(self) -> dict[str, Any]:
        loc = self.location
        out: dict[str, Any] = {
            "marker": self.marker,
            "chunk_id": self.chunk_id,
            "status": self.status,
            "score": self.score,
            "flags": list(self.flags),
            "reason": self.reason,
            "quote": self.quote,
            "claim": self.claim,
            "document": self.document,
            "range": {"start": loc.start, "end": loc.end} if loc and self.ok else None,
            "text": loc.text if loc and self.ok else None,
            "pages": list(loc.pages) if loc and self.ok else [],
            "boxes": list(loc.boxes) if loc and self.ok else [],
            "stale": self.stale,
        }
        if self.found_in is not None:
            out["found_in"] = self.found_in
        if self.drift is not None:
            out["drift"] = self.drift
            out["drift_range"] = {"start": loc.start, "end": loc.end} if loc else None
        if self.differences:
            out["differences"] = self.differences
        if self.sentence is not None:
            out["sentence"] = self.sentence
        return out


@dataclass(frozen=True, slots=True)
class SentenceResult:
    text: str
    start: int
    end: int
    markers: tuple[str, ...]
    asserting: bool
    cited: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "markers": list(self.markers),
            "asserting": self.asserting,
            "cited": self.cited,
        }


@dataclass
class Report:
    citations: list[CitationResult]
    sentences: list[SentenceResult]
    answer: str
    answer_sha256: str
    context_id: str | None
    policy: str
    run_id: int | None = None

    @property
    def failed(self) -> list[CitationResult]:
        return [c for c in self.citations if not c.ok]

    @property
    def coverage(self) -> float:
        asserting = [s for s in self.sentences if s.asserting]
        return 1.0 if not asserting else round(sum(1 for s in asserting if s.cited) / len(asserting), 4)

    def stripped_answer(self) -> str:
        """The answer with every sentence that carries a failing citation removed."""
        bad = {c.sentence for c in self.failed if c.sentence is not None}
        out, pos = [], 0
        for i, s in enumerate(self.sentences):
            if i in bad:
                out.append(self.answer[pos : s.start])
                pos = s.end
                # drop the space that followed the removed sentence
                while pos < len(self.answer) and self.answer[pos] == " ":
                    pos += 1
        out.append(self.answer[pos:])
        return "".join(out).strip()

    def summary(self) -> dict[str, Any]:
        by_status = dict.fromkeys(STATUSES, 0)
        flags = dict.fromkeys(FLAGS, 0)
        for c in self.citations:
            by_status[c.status] = by_status.get(c.status, 0) + 1
            for f in c.flags:
                flags[f] = flags.get(f, 0) + 1
        asserting = sum(1 for s in self.sentences if s.asserting)
        return {
            "citations": len(self.citations),
            "verified": sum(1 for c in self.citations if c.ok),
            "failed": len(self.failed),
            "by_status": {k: v for k, v in by_status.items() if v},
            "flags": {k: v for k, v in flags.items() if v},
            "sentences": len(self.sentences),
            "asserting_sentences": asserting,
            "uncited": sum(1 for s in self.sentences if s.asserting and not s.cited),
            "coverage": self.coverage,
        }

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "citations": [c.as_json() for c in self.citations],
            "sentences": [s.as_json() for s in self.sentences],
            "uncited": [s.text for s in self.sentences if s.asserting and not s.cited],
            "summary": self.summary(),
            "answer_sha256": self.answer_sha256,
            "context": self.context_id,
            "policy": self.policy,
            "run_id": self.run_id,
        }
        if self.policy == "strip":
            out["stripped_answer"] = self.stripped_answer()
        return out
