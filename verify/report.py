"""The verification report: one result per citation, answer sentences with coverage, a summary.

The JSON form is documented in the README and in ``verify/schema/report.schema.json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from citeline.kinds import Policy
from citeline.verify.parse import BLOCK_MARKER

#: What a citation is: found (verified, verified_fuzzy), found but changed or elsewhere
#: (quote_altered, misattributed), not found, or not checkable (the rest).
Status = Literal[
    "verified",
    "verified_fuzzy",
    "quote_altered",
    "quote_not_found",
    "misattributed",
    "too_short",
    "no_quote",
    "fabricated_marker",
    "unknown_chunk",
]
#: What else is off about a citation, whatever its status.
Flag = Literal[
    "numeric_mismatch",
    "negation_mismatch",
    "direction_mismatch",
    "missing_terms",
    "stale_version",
    "stale_gone",
    "location_mismatch",
    "source_changed",
]
STATUSES: tuple[Status, ...] = get_args(Status)
FLAGS: tuple[Flag, ...] = get_args(Flag)
#: Statuses that count as verified.
VERIFIED: tuple[Status, ...] = ("verified", "verified_fuzzy")
#: Flags that make a verified citation fail by default (``--fail-on``): what the claim says differs
#: from the evidence, or the cited passage is gone from the document's current version.
DEFAULT_FAIL_ON: frozenset[Flag] = frozenset(
    {"numeric_mismatch", "negation_mismatch", "direction_mismatch", "missing_terms", "stale_gone"}
)


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
    #: the raw ranges the text comes from, furniture between them left out (a quote crossing a page
    #: break skips the running footer and header): ``{"start", "end", "page"}``
    segments: tuple[dict[str, int], ...] = ()

    def range_json(self) -> dict[str, int]:
        return {"start": self.start, "end": self.end}

    def segments_json(self) -> list[dict[str, int]]:
        return [dict(s) for s in self.segments]


@dataclass
class CitationResult:
    marker: str
    chunk_id: str | None
    status: Status
    quote: str | None
    claim: str | None = None
    score: float | None = None
    flags: list[Flag] = field(default_factory=list)
    reason: str = ""
    location: Location | None = None  # where the quote is (verified) or where it drifted (altered)
    document: dict[str, Any] | None = None  # the cited chunk's document version
    found_in: dict[str, Any] | None = None  # misattributed: where the quote really is
    stale: dict[str, Any] | None = None
    drift: str | None = None
    differences: list[dict[str, str]] = field(default_factory=list)
    sentence: int | None = None
    #: verified and no failing flag (see :data:`DEFAULT_FAIL_ON`); set by the verifier
    passed: bool = False

    @property
    def ok(self) -> bool:
        """Found where it is cited (verified or verified_fuzzy), whatever its flags."""
        return self.status in VERIFIED

    def judge(self, fail_on: frozenset[Flag]) -> None:
        """Set :attr:`passed`: found, and no flag of ``fail_on`` set."""
        self.passed = self.ok and not (set(self.flags) & fail_on)

    def as_json(self) -> dict[str, Any]:
        loc = self.location
        out: dict[str, Any] = {
            "marker": self.marker,
            "chunk_id": self.chunk_id,
            "status": self.status,
            "passed": self.passed,
            "score": self.score,
            "flags": list(self.flags),
            "reason": self.reason,
            "quote": self.quote,
            "claim": self.claim,
            "document": self.document,
            "range": loc.range_json() if loc and self.ok else None,
            "segments": loc.segments_json() if loc and self.ok else [],
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
    policy: Policy
    run_id: int | None = None
    #: the coverage an answer needs to pass (``--min-coverage``)
    min_coverage: float = 0.0

    @property
    def failed(self) -> list[CitationResult]:
        """Citations that did not pass: not found where cited, or found with a failing flag."""
        return [c for c in self.citations if not c.passed]

    @property
    def passed(self) -> bool:
        """Every citation passed, and enough asserting sentences carry one (``--min-coverage``):
        what ``--policy strict`` exits 0 on."""
        return not self.failed and self.coverage >= self.min_coverage

    def coverage_shortfall(self) -> str:
        """ ", below the 80% required" when the coverage is below ``min_coverage``, else "" (for the
        text and HTML summaries)."""
        return f", below the {self.min_coverage:.0%} required" if self.coverage < self.min_coverage else ""

    @property
    def coverage(self) -> float:
        asserting = [s for s in self.sentences if s.asserting]
        return 1.0 if not asserting else round(sum(1 for s in asserting if s.cited) / len(asserting), 4)

    def stripped_answer(self) -> str:
        """The answer with every sentence that carries a citation that did not pass removed (with
        its list item, when it was the item's only sentence: no "- " is left behind)."""
        bad = {c.sentence for c in self.failed if c.sentence is not None}
        text = self.answer
        out, pos = [], 0
        for i, s in enumerate(self.sentences):
            if i in bad:
                start, end = s.start, s.end
                # drop the space that followed the removed sentence
                while end < len(text) and text[end] == " ":
                    end += 1
                line_start = text.rfind("\n", 0, start) + 1
                line_end = text.find("\n", end)
                line_end = len(text) if line_end < 0 else line_end
                if BLOCK_MARKER.fullmatch(text, line_start, start) and not text[end:line_end].strip():
                    start, end = line_start, min(len(text), line_end + 1)  # the whole item's line
                out.append(text[pos:start])
                pos = max(pos, end)
        out.append(text[pos:])
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
            "passed": sum(1 for c in self.citations if c.passed),
            "failed": len(self.failed),
            "by_status": {k: v for k, v in by_status.items() if v},
            "flags": {k: v for k, v in flags.items() if v},
            "sentences": len(self.sentences),
            "asserting_sentences": asserting,
            "uncited": sum(1 for s in self.sentences if s.asserting and not s.cited),
            "coverage": self.coverage,
            "min_coverage": self.min_coverage,
            "answer_passed": self.passed,
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
