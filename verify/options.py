"""What a verifier is told: thresholds, the policy, the flags that fail a citation, the checks
switched off."""

from __future__ import annotations

from dataclasses import dataclass

from citeline.kinds import DEFAULT_POLICY, POLICIES, Policy
from citeline.verify.checks import DIFFERENCE_RULES, names
from citeline.verify.errors import InputError
from citeline.verify.match import ALTERED_MIN, FUZZY_THRESHOLD, NOISE
from citeline.verify.report import DEFAULT_FAIL_ON, FLAGS, Flag

#: A quote shorter than this (characters, after folding) or with fewer words is checked as written
#: only: found exactly after folding, or not at all (a fuzzy match of a few words is chance).
MIN_QUOTE_CHARS = 20
MIN_QUOTE_WORDS = 4
#: Fuzzy thresholds a user may set (scores are 0-100; below 50, unrelated text of the same length
#: scores as a match).
THRESHOLD_RANGE = (50.0, 100.0)


@dataclass(frozen=True, slots=True)
class VerifyOptions:
    min_chars: int = MIN_QUOTE_CHARS
    min_words: int = MIN_QUOTE_WORDS
    fuzzy_threshold: float = FUZZY_THRESHOLD
    altered_min: float = ALTERED_MIN
    check_sources: bool = False
    policy: Policy = DEFAULT_POLICY
    log: bool = True
    #: flags that make a verified citation fail (see :data:`DEFAULT_FAIL_ON`)
    fail_on: frozenset[Flag] = DEFAULT_FAIL_ON
    #: the share of asserting sentences that must carry a citation for the answer to pass (0: any)
    min_coverage: float = 0.0
    #: checks and difference rules switched off, by name (:data:`citeline.verify.checks.CHECKS`)
    disabled: frozenset[str] = frozenset()

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
        unknown = sorted(set(self.disabled) - set(names()))
        if unknown:
            raise InputError(f"no check is named {unknown[0]!r} (checks: {', '.join(names())})")

    @property
    def noise(self) -> frozenset[str]:
        """The kinds of word difference a fuzzy match may have: character-level noise, and the
        kinds of the difference rules switched off."""
        return NOISE | {r.kind for r in DIFFERENCE_RULES if r.name in self.disabled}


def parse_fail_on(value: str) -> frozenset[Flag]:
    """``--fail-on`` as a set of flags: a comma list, ``none`` for none."""
    names_ = [v.strip() for v in value.split(",") if v.strip()]
    if names_ == ["none"]:
        return frozenset()
    unknown = [n for n in names_ if n not in FLAGS]
    if unknown:
        raise InputError(f"--fail-on: unknown flag {unknown[0]!r} (flags: {', '.join(FLAGS)}, or none)")
    return frozenset(n for n in FLAGS if n in names_)
