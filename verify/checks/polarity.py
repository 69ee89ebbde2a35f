"""Checks of a claim's polarity against its evidence: whether one denies what the other asserts.

The evidence's polarity is that of the scope around the quote in the chunk (its clause, without a
leading subordinate clause, with a negation right after the quote: see
:func:`citeline.verify.claims.scope_around`) and of the lead-in of a list the quote is an item of;
the claim's, that of the claim without its leading subordinate clause, and without the quote when
the quote is set off from the claim's own words (:func:`citeline.verify.claims.claim_scope`). The
claim's own words are read in the answer's language, the quote and the chunk in the document's.
"""

from __future__ import annotations

from citeline.text.lang import CODES
from citeline.verify.checks import Check, Evidence
from citeline.verify.claims import claim_scope, list_item, scope_around, without
from citeline.verify.negation import denied_at, negated, restates_denied, says_less, targets


def _scopes(e: Evidence) -> tuple[str, bool, str, str]:
    """(the claim's scope, whether it is the claim's own words only, the evidence's scope, the whole
    claim)."""
    assert e.cit.claim is not None
    whole = without(e.cit.claim, e.cit.other_quotes)
    claimed, own = claim_scope(whole, e.cit.quote, e.answer)
    scope = scope_around(e.chunk.text, e.start, e.end, e.doc)
    return claimed, own, scope, whole


def _claim_negated(e: Evidence, claimed: str) -> bool:
    """Whether the claim's scope denies: its own words in the answer's language, the quote in it in
    the document's."""
    quote = e.cit.quote or ""
    own = without(claimed, (quote,)) if quote else claimed
    if negated(own, e.answer):
        return True
    return own != claimed and negated(quote, e.doc)


def _answer_lead_negated(e: Evidence) -> bool:
    """Whether the lead-in of the answer's list the claim is an item of denies ("Days that do not
    count toward presence include:"), where it is the claim's: not where the source's item has its
    lead-in outside the chunk (a list that runs on from the chunk before)."""
    lead = e.cit.lead_in or ""
    led = bool(lead) and (bool(e.lead) or not list_item(e.chunk.text, e.start, e.doc))
    return led and negated(lead, e.answer)


def claim_polarity(e: Evidence) -> str | None:
    """The claim and its evidence agree in polarity: one negated and the other not is a mismatch,
    but where the claim is its own words beside a quote set off from them and only the evidence is
    negated (the claim may say it in other words: "Teacher assessment is informal: "There is no
    formal procedure …""): then only when the claim asserts a word the evidence denies ("The report
    was audited: "… was not audited""). A claim negated only by a word of shortfall ("LLMs *lack*
    strong …") agrees with evidence that says "limited"."""
    if not e.cit.claim:
        return None
    claimed, own, scope, _ = _scopes(e)
    negated_claim = _claim_negated(e, claimed) or _answer_lead_negated(e)
    negated_evidence = negated(scope, e.doc) or negated(e.lead, e.doc)
    if negated_claim == negated_evidence:
        return None
    if negated_claim and says_less(claimed, scope, e.answer):
        return None
    if own and negated_evidence:
        denied = targets(scope + " " + e.lead, e.doc)
        asserted = [w for w in denied if denied_at(claimed, w, e.answer) is False]
        if not asserted:
            return None
        return f"the claim asserts {asserted[0]!r}, which the source denies"
    if negated_claim:
        return "the claim denies what the source asserts"
    return "the source denies what the claim asserts"


def restated_denial(e: Evidence) -> str | None:
    """A claim in its own words beside a quote, without a negation, that asserts in other words what
    a negation of the evidence denies ("SPECTER needs citation information" beside "… does not
    require any citation information")."""
    if not e.cit.claim:
        return None
    claimed, own, scope, whole = _scopes(e)
    if not own or _claim_negated(e, claimed) or not (negated(scope, e.doc) or negated(e.lead, e.doc)):
        return None
    if restates_denied(claimed, whole, scope + " " + e.lead, e.answer):
        return "the claim restates in its own words what the source denies"
    return None


def negation_target(e: Evidence) -> str | None:
    """Both negated, but the claim's negation on a word the evidence asserts ("not shared with the
    employee" against "shared only with the employee and never passed to Northwind")."""
    if not e.cit.claim:
        return None
    claimed, _, scope, _ = _scopes(e)
    if not _claim_negated(e, claimed) or not (negated(scope, e.doc) or negated(e.lead, e.doc)):
        return None
    asserted = [w for w in targets(claimed, e.answer) if denied_at(e.sentences, w, e.doc) is False]
    if not asserted:
        return None
    return f"the claim denies {asserted[0]!r}, which the source asserts"


CHECKS = (
    Check(
        "claim_polarity",
        "negation_mismatch",
        frozenset(CODES),
        claim_polarity,
        "the claim and its evidence agree in polarity (one negated, the other not)",
    ),
    Check(
        "restated_denial",
        "negation_mismatch",
        frozenset({"en"}),
        restated_denial,
        "a claim in its own words does not assert what the evidence denies in other words",
    ),
    Check(
        "negation_target",
        "negation_mismatch",
        frozenset({"en"}),
        negation_target,
        "both negated, the claim's negation is not on a word the evidence asserts",
    ),
)
