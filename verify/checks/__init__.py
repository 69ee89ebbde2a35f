"""verify's decisions, as a table of named checks.

A check reads one found citation (:class:`Evidence`: the claim as the answer wrote it, the quote's
place in the cited chunk, the answer's and the document's languages) and says whether what the
claim says differs from what the evidence says; when it fires, the citation gets the check's flag
and the check's reason. Each check has a name, the flag it raises, the languages whose words it
reads (``None``: any language, it reads digits and signs only), and one function. Switch any off
with ``VerifyOptions(disabled={"claim_direction"})`` (``citeline verify --disable NAME``);
``python -m benchmarks verify --by-check`` measures on the labelled answers what each adds: the
false passes it prevents and the false fails it causes.

Three more rules decide whether a quote was found at all, before any check: a number, a negation or
a symbol that differs between the quote and the source makes the quote altered, whatever else is
close (:data:`DIFFERENCE_RULES`; switching one off makes such a difference count as noise). And a
few rules of reading say where a quote and its sentence are (:data:`READING_RULES`: an ellipsis the
source writes itself, an index entry's dot leader, a quote one injected chunk holds whole); each is
named, and switched off like a check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from citeline.store.records import ChunkInfo
from citeline.text.lang import Language
from citeline.verify.claims import lead_in, says_who, sentences_around, without
from citeline.verify.fold import fold
from citeline.verify.match import Match
from citeline.verify.parse import CitationInput
from citeline.verify.report import CitationResult, Flag


@dataclass
class Evidence:
    """One citation whose quote was found, as the checks read it."""

    cit: CitationInput
    result: CitationResult
    chunk: ChunkInfo
    matches: list[Match]
    #: the document's language (the chunk's words, and the quote's)
    doc: Language
    #: the answer's language (the claim's own words)
    answer: Language
    whole_version: bool = False
    #: the texts of the document version's chunks (read only when a check needs the whole document)
    document: Callable[[], list[str]] = list
    #: the checks and rules switched off (the reading rules among them change how the sentences read)
    disabled: frozenset[str] = frozenset()

    @property
    def leaders(self) -> bool:
        """Whether an index entry's dot leader ends no sentence (:data:`READING_RULES`)."""
        return "dot_leaders" not in self.disabled

    @property
    def start(self) -> int:
        return self.matches[0].start

    @property
    def end(self) -> int:
        return self.matches[-1].end

    @cached_property
    def own_words(self) -> str:
        """The claim's own words: the claim without this citation's quote and the sentence's other
        quotes."""
        return without(without(self.cit.claim or "", self.cit.other_quotes), (self.cit.quote or "",))

    @cached_property
    def stated(self) -> str:
        """What the claim states: its own words, and where they only say who says the quote ("the
        paper notes that", "im Text heißt es:"), the clause of the sentence before them that no
        marker cites ("Die Basismengen sind allesamt endlich – im Text heißt es: „…“")."""
        own = self.own_words
        if self.cit.uncited and says_who(own, self.answer):
            return f"{self.cit.uncited} {own}"
        return own

    @cached_property
    def sentences(self) -> str:
        """The sentences of the chunk the quote touches."""
        return sentences_around(self.chunk.text, self.start, self.end, self.doc, leaders=self.leaders)

    @cached_property
    def folded_sentences(self) -> str:
        return fold(self.sentences).text

    @cached_property
    def lead(self) -> str:
        """The lead-in of the source's list the quote is an item of, or ""."""
        return lead_in(self.chunk.text, self.start, self.doc)


@dataclass(frozen=True)
class Check:
    """A named check: it raises ``flag`` with the reason ``run`` returns (``None``: it does not fire)."""

    name: str
    flag: Flag
    #: the languages whose words it reads (the answer's and the document's must both be among them),
    #: or None for any language
    languages: frozenset[str] | None
    run: Callable[[Evidence], str | None]
    #: what it checks, in a line (for --help and the docs)
    summary: str

    def applies(self, e: Evidence) -> bool:
        return self.languages is None or (e.doc.code in self.languages and e.answer.code in self.languages)


@dataclass(frozen=True)
class DifferenceRule:
    """A kind of word difference between the quote and the source that makes a quote altered; off,
    such a difference counts as noise (see :mod:`citeline.verify.classify`)."""

    name: str
    flag: Flag | None
    kind: str
    summary: str


DIFFERENCE_RULES: tuple[DifferenceRule, ...] = (
    DifferenceRule("quote_numbers", "numeric_mismatch", "number", "a number of the quote differs from the source's"),
    DifferenceRule(
        "quote_negation",
        "negation_mismatch",
        "negation",
        "the quote adds or drops a negation, or a prefix or character that negates (unlawful, 무료, 不)",
    ),
    DifferenceRule("quote_symbols", None, "symbol", "a symbol of the quote differs (≤ for ≥, ∉ for ∈)"),
)


@dataclass(frozen=True)
class ReadingRule:
    """A named rule of where a quote, or the sentence around it, is; off, the quote is read as
    before it (see :mod:`citeline.verify.search` and :mod:`citeline.text.sentences`)."""

    name: str
    summary: str


READING_RULES: tuple[ReadingRule, ...] = (
    ReadingRule(
        "source_ellipsis",
        "an ellipsis the source writes itself ('R1 × . . . × Rn') is quoted, not an elision: the quote is found whole",
    ),
    ReadingRule(
        "dot_leaders",
        "an index or contents entry's dot leader ('Child tax credits . . . 20, 23') ends no sentence; "
        "the entry ends after its page numbers",
    ),
    ReadingRule(
        "table_comparison",
        "a claim that sets a quoted table row's figure against another ('38.1 vs 29.8') finds the other in "
        "the rows of the same table",
    ),
    ReadingRule(
        "whole_quote_first",
        "a quote that runs on from the cited chunk into the next is misattributed when another injected "
        "chunk holds all of it",
    ),
)


def _table() -> tuple[Check, ...]:
    from citeline.verify.checks import direction, numbers, other, polarity, proportion, ranks, rows

    return (
        *numbers.CHECKS,
        *rows.ROW_NUMBER_CHECKS,
        *ranks.CHECKS,
        *proportion.CHECKS,
        *polarity.CHECKS,
        *direction.CHECKS,
        *rows.ROW_DIRECTION_CHECKS,
        *other.CHECKS,
    )


CHECKS: tuple[Check, ...] = ()  # filled below (the modules import this one for Check and Evidence)


def names() -> tuple[str, ...]:
    """Every check's, difference rule's and reading rule's name, for ``disabled``."""
    return (
        tuple(c.name for c in CHECKS) + tuple(r.name for r in DIFFERENCE_RULES) + tuple(r.name for r in READING_RULES)
    )


def run_checks(e: Evidence) -> None:
    """Every check that applies and is not disabled (``e.disabled``), on one found citation: each
    that fires adds its flag (once) and its reason to the result."""
    for check in CHECKS:
        if check.name in e.disabled or not check.applies(e):
            continue
        reason = check.run(e)
        if reason is None:
            continue
        if check.flag not in e.result.flags:
            e.result.flags.append(check.flag)
        e.result.reason += f"; {reason}"


CHECKS = _table()

__all__ = [
    "CHECKS",
    "DIFFERENCE_RULES",
    "READING_RULES",
    "Check",
    "DifferenceRule",
    "Evidence",
    "ReadingRule",
    "names",
    "run_checks",
]
