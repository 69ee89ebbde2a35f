"""Checks of a claim's polarity against its evidence: whether one denies what the other asserts.

A negation is held against what it denies (its *target*: "not *reimbursed*", "keine *jährliche*",
"no *cubre*", "未经*审计*", :func:`citeline.verify.negation.targets`), not against the sentence as a
whole: a claim's "couriers that cannot deliver to a PO box use "…"" or "no revenue: "…"" says
nothing about the quote's polarity, while 'The plan covers "a yearly dental cleaning"' beside "The
plan … does not cover a yearly dental cleaning" asserts what the source denies.

The evidence's negations are those of the scope around the quote in the chunk (its clause, without a
leading subordinate clause, with a negation right after the quote: see
:func:`citeline.verify.claims.scope_around`) and of the lead-in of a list the quote is an item of;
the claim's, those of the claim without its leading subordinate clause, and without the quote when the
quote is set off from the claim's own words (:func:`citeline.verify.claims.claim_scope`). The claim's
own words are read in the answer's language, the quote and the chunk in the document's.
"""

from __future__ import annotations

import functools
import re

from citeline.text.lang import CODES, Language, every
from citeline.verify.checks import Check, Evidence
from citeline.verify.claims import (
    LABEL,
    asserts,
    claim_scope,
    clause_bounds,
    is_condition,
    list_item,
    scope_around,
    without,
)
from citeline.verify.negation import (
    WORD,
    antonym_in,
    compounds,
    denied_at,
    negated,
    privative,
    restates_denied,
    says_less,
    targets,
    without_asserting,
)


def _scopes(e: Evidence) -> tuple[str, bool, str, str]:
    """(the claim's scope, whether it is the claim's own words only, the evidence's scope, the whole
    claim)."""
    assert e.cit.claim is not None
    whole = without(e.cit.claim, e.cit.other_quotes)
    claimed, own = claim_scope(whole, e.cit.quote, e.answer)
    scope = scope_around(e.chunk.text, e.start, e.end, e.doc)
    return claimed, own, scope, whole


def _split(e: Evidence, claimed: str) -> tuple[str, str]:
    """A claim's scope as its own words (the answer's language) and the quote in it (the document's)."""
    quote = e.cit.quote or ""
    own = without(claimed, (quote,)) if quote else claimed
    return own, (quote if own != claimed else "")


def _claim_denies(e: Evidence, claimed: str, word: str) -> bool | None:
    """Whether the claim's scope denies ``word`` (True), asserts it (False) or does not say it."""
    own, quoted = _split(e, claimed)
    if quoted and e.answer.code == e.doc.code:
        # a quote run into the claim's own words is read with them: "ne couvre pas "un
        # détartrage …"" denies the quote's word
        together = denied_at(claimed, word, e.doc)
        mine = LABEL.sub("", e.own_words)
        if together is not False and _plainly_asserts(mine, e.answer) and denied_at(quoted, word, e.doc):
            # the claim's own words, with no negation of their own, assert the word the quote
            # denies ("gives partial credit, counting it "… with no credit for partial matching"")
            return False if denied_at(mine, word, e.answer) is False else together
        return together
    said = [denied_at(own, word, e.answer)]
    if quoted:
        said.append(denied_at(quoted, word, e.doc))
    known = [x for x in said if x is not None]
    if not known:
        return None
    return True if all(known) else False if not any(known) else None


def _plainly_asserts(text: str, lang: Language) -> bool:
    """Whether ``text`` holds no negation and no word that says "not", "little" or "less" ("few
    missions have …", "lacks", "Without wages, …"): what it says, it asserts. The second part of a
    hyphenated compound names a thing, it says no shortfall ("gives partial credit for
    near-misses")."""
    negative = lang.negative_words | lang.shortfall | lang.less | lang.unchanged | lang.negative_prepositions
    return not negated(text, lang) and not any(w.lower() in negative for w in _heads(text))


#: Text that ends in a letter and a hyphen: the word after it is a compound's second part.
_COMPOUND_TAIL = re.compile(r"[^\W\d_]-$")


def _heads(text: str) -> list[str]:
    """The words of ``text`` but the second parts of its hyphenated compounds ("misses" of
    "near-misses", "Fälle" of "Grenz-Fälle"): a word that says "not" there names a thing."""
    return [m.group() for m in WORD.finditer(text) if not _COMPOUND_TAIL.search(text, 0, m.start())]


def _answer_lead(e: Evidence) -> str:
    """The lead-in of the answer's list the claim is an item of ("Days that do not count toward
    presence include:"), where it is the claim's: not where the source's item has its lead-in
    outside the chunk (a list that runs on from the chunk before)."""
    lead = e.cit.lead_in or ""
    led = bool(lead) and (bool(e.lead) or not list_item(e.chunk.text, e.start, e.doc))
    return lead if led else ""


def lead_denies(lead: str, lang: Language) -> bool:
    """Whether a list's lead-in denies its items ("Do not count the following days:"): its own
    clause holds a negation. A negation inside a clause of its own ("for which a PO Box cannot be
    used, use the following address:", "Explain why the patient cannot sign:") denies no item, and
    a lead-in that opens a condition ("If either 1 or 2 below applies, you do not have to …") has
    conditions for items, not what it denies."""
    if not lead or not negated(lead, lang):
        return False
    words = [w.lower() for w in WORD.findall(lead)]
    if any(w in lang.conditionals for w in words):
        return False
    subordinate = _subordinate(lang)
    return True if subordinate is None else negated(subordinate.sub(" ", lead), lang)


#: How many last words of a list's lead-in its predicate over the items is looked for in.
FORBIDS_REACH = 3


def _forbids(lead: str, lang: Language) -> bool:
    """Whether a list's lead-in ends in a word that forbids its items ("… Defendant Leon is
    specifically prohibited from: (a) …", "Es ist untersagt:")."""
    return any(w.lower() in lang.prohibitions for w in WORD.findall(lead)[-FORBIDS_REACH:])


@functools.cache
def _subordinate(lang: Language) -> re.Pattern[str] | None:
    """A clause of its own: from a subordinating word to the next comma, colon or stop."""
    if not lang.subordinators:
        return None
    boundary = "" if lang.unspaced else r"\b"
    words = "|".join(map(re.escape, sorted(lang.subordinators, key=len, reverse=True)))
    return re.compile(rf"{boundary}(?:{words}){boundary}[^,;:.]*", re.IGNORECASE)


def claim_polarity(e: Evidence) -> str | None:
    """The claim does not assert what a negation of its evidence denies: each negation of the
    source's scope is held against its target in the claim (and the lead-in of the answer's list
    the claim is an item of). A claim whose own words say "not" in a word of their own restates the
    denial ("Adverse events were absent", "Scanned files are unsupported" of "does not support")."""
    if not e.cit.claim:
        return None
    claimed, _, scope, _ = _scopes(e)
    lead = _answer_lead(e)
    said = f"{claimed} {lead}" if lead else claimed
    own, _ = _split(e, claimed)
    own_words = _heads(own)
    joined = compounds(own)
    for word in targets(scope + " " + e.lead, e.doc):
        if (
            _claim_denies(e, said, word) is False
            and not any(privative(w, word, e.answer) for w in own_words)
            and not any(antonym_in(w, {word[:5]}, e.answer) for w in joined)  # "non-vaccinating"
        ):
            return f"the claim asserts {word!r}, which the source denies"
    return None


def _claim_negated(e: Evidence) -> tuple[str, str, bool]:
    """(the claim's scope, the lead-in of the answer's list it is an item of, whether either negates)."""
    assert e.cit.claim is not None
    claimed, _, _, _ = _scopes(e)
    lead = _answer_lead(e)
    own, _ = _split(e, claimed)
    return claimed, lead, negated(own, e.answer) or negated(lead, e.answer)


def lead_denial(e: Evidence) -> str | None:
    """A list item the source's lead-in denies ("Do not count the following days: - Days you commute
    …") is denied by the claim too (its own words or its list's lead-in)."""
    if not e.cit.claim or not lead_denies(e.lead, e.doc):
        return None
    if _claim_negated(e)[2]:
        return None
    return "the source's list lead-in denies its items, the claim does not"


def claim_denial(e: Evidence) -> str | None:
    """The claim does not deny what its evidence asserts: each negation of the claim is held against
    its target in the quote's sentence, where the cited passage nowhere denies it (a denial the
    passage makes itself elsewhere backs the claim's: "Don't mail forms there" of "DO NOT MAIL
    APPLICATIONS TO THIS ADDRESS. Mailing your application … will significantly delay …"). A claim
    negated only by a word of shortfall ("LLMs *lack* strong …") agrees with evidence that says
    "limited"."""
    if not e.cit.claim:
        return None
    claimed, lead, claim_negated = _claim_negated(e)
    if claim_negated and _double_negation(_split(e, claimed)[0], e.answer):
        return None  # "Eine Mannigfaltigkeit ohne Karte gibt es nicht": every manifold has one
    if not claim_negated:
        # a claim that only says who says it ("the paper notes that "…"") states what the
        # sentence's uncited clause before it says ("… did not yield a consistent ordering of
        # systems; the paper notes that "…"": Evidence.stated)
        if e.stated == e.own_words or not negated(e.stated, e.answer):
            return None
        claimed = e.stated
    own, _ = _split(e, claimed)
    scope = scope_around(e.chunk.text, e.start, e.end, e.doc)
    if says_less(own, scope, e.answer):
        return None
    words = [*targets(claimed, e.answer, light=True), *targets(lead, e.answer, light=True)]
    near = e.sentences + " " + e.lead
    if e.answer.code == e.doc.code and any(_denied_too(word, near, e) for word in words):
        # one of the words the claim denies, the source denies too: the two agree, whatever else
        # the negation reaches ("No per-task tuning" of "without the need for any task-specific
        # fine-tuning", where "tasks" is asserted earlier in the sentence)
        return None
    for word in words:
        if denied_at(near, word, e.doc) is False and denied_at(e.chunk.text, word, e.doc) is False:
            if e.answer.code == e.doc.code and says_opposite(word, scope, e.doc):
                continue  # "do not differ" of "have identical … rights"
            return f"the claim denies {word!r}, which the source asserts"
    return None


def _double_negation(text: str, lang: Language) -> bool:
    """Whether a clause of ``text`` denies twice, once with a negative preposition ("there is no
    manifold without a chart", "ohne Karte gibt es nicht", "pas de règle sans exception"): it
    asserts."""
    for clause in re.split(r"[,;:.!?()]", text):
        words = [w.lower() for w in WORD.findall(clause)]
        if any(w in lang.negative_prepositions for w in words) and any(
            lang.denies(w) and w not in lang.negative_prepositions for w in words
        ):
            return True
    return False


def _denied_too(word: str, text: str, e: Evidence) -> bool:
    """Whether ``text`` denies ``word`` too: a negation before it everywhere it stands, or a form of
    it with a negating prefix ("indépendamment" of "dépend")."""
    text = without_asserting(text, e.doc)  # ("ne rembourse que 70 %" says "only", it denies nothing)
    if denied_at(text, word, e.doc) is True:
        return True
    stem = {word.lower()[:5]}
    return any(antonym_in(w.lower(), stem, e.doc) for w in WORD.findall(text))


def says_opposite(word: str, text: str, lang: Language) -> bool:
    """Whether ``text`` says the opposite of ``word`` (a form of the other side of one of the
    language's pairs of opposites or antonyms whose one side has a form of ``word``: "identical" of
    "differ", "costly" of "cheap"): a claim that denies the word says what the text says."""
    key = _stem(word)
    said = {_stem(w) for w in WORD.findall(text.lower())}
    for pairs in ("opposites", "antonyms"):
        for pair in getattr(lang, pairs):
            for side, other in ((pair[0], pair[1]), (pair[1], pair[0])):
                if any(_stem(f) == key for f in side) and any(_stem(f) in said for f in other):
                    return True
    return False


def _stem(word: str) -> str:
    """A word's first five letters (its inflections alike: "differ", "different")."""
    return word[:5]


#: How many words next to a quote a negation may stand and still be said of it when it cannot be
#: held against a target ("It is not true that "…"", "Claims are not | "reimbursed …"").
NEXT_TO = 4


def _beside(text: str, start: int, end: int) -> str:
    """The words of ``text`` right before ``[start, end)`` and right after it, as far as
    :data:`NEXT_TO` words and no further than a comma or a sentence's end."""
    before = re.split(r"[,;:.!?\n]", text[max(0, start - 80) : start])[-1]
    after = re.split(r"[,;:.!?\n]", text[end : end + 60])[0]
    return " ".join([*WORD.findall(before)[-NEXT_TO:], *WORD.findall(after)[:NEXT_TO]])


def negated_claim(e: Evidence) -> str | None:
    """A negation right next to the quote on one side and none on the other, where it cannot be held
    against a target (see :func:`claim_polarity` and :func:`claim_denial`): the claim denies the
    quote as a whole ("It is not true that "…"", "The report did not find "…""), or the quote was
    cut right after a negation
    of its source ("Claims are not | "reimbursed after 90 days"", "if …, we do not bring them
    together" beside "Articles are clustered when "…"")."""
    if not e.cit.claim or not e.cit.quote:
        return None
    claimed, own, scope, _ = _scopes(e)
    if own:
        return None
    mine, quoted = _split(e, claimed)
    lead = _answer_lead(e)
    claim_negated = negated(mine, e.answer) or negated(quoted, e.doc) or negated(lead, e.answer)
    # a lead-in that forbids its items ("is prohibited from: (a) …") agrees with a claim that denies
    # one ("may not engage in (a) "…""); a claim that does not deny one is not judged by it (an
    # answer's item often takes its lead-in from a sentence before: "The order bars … Item (c) covers")
    source_negated = negated(scope, e.doc) or negated(e.lead, e.doc) or _forbids(e.lead, e.doc)
    if claim_negated == source_negated:
        return None
    if claim_negated:
        at = claimed.find(e.cit.quote)
        near = _beside(claimed, at, at + len(e.cit.quote)) if at >= 0 else ""
        if not negated(near, e.answer) or says_less(mine, scope, e.answer):
            return None
        words = [*targets(mine, e.answer, light=True), *targets(lead, e.answer, light=True)]
        if any(denied_at(e.sentences + " " + e.lead, w, e.doc) is not None for w in words):
            return None  # held against its target by claim_denial
        return "the claim denies the quote, its evidence does not"
    if not negated(_beside(e.chunk.text, e.start, e.end), e.doc) and not is_condition(
        e.chunk.text, e.start, e.end, e.doc
    ):
        return None  # (a condition's main clause is what it says: "if …, we do not bring them together")
    words = targets(scope + " " + e.lead, e.doc)
    if any(_claim_denies(e, f"{claimed} {lead}", w) is not None for w in words):
        return None
    return "the source denies what the quote says, the claim does not"


def restated_denial(e: Evidence) -> str | None:
    """A claim in its own words beside a quote, without a negation, that asserts in other words what
    a negation of the evidence denies ("SPECTER needs citation information" beside "… does not
    require any citation information")."""
    if not e.cit.claim:
        return None
    claimed, own, scope, whole = _scopes(e)
    mine, _ = _split(e, claimed)
    if not own:
        # a quote run into the claim's sentence: the sentence's own words, where they plainly assert
        # ("Contractors get the staff passwords, since staff "must not share passwords with
        # contractors"")
        mine = LABEL.sub("", e.own_words)
        if not _plainly_asserts(mine, e.answer):
            return None
        claimed = mine
    if negated(mine, e.answer) or not (negated(scope, e.doc) or negated(e.lead, e.doc)):
        return None
    if restates_denied(claimed, whole, scope + " " + e.lead, e.answer):
        return "the claim restates in its own words what the source denies"
    return None


def denied_beside(e: Evidence) -> str | None:
    """A statement in the claim's own words, set off from its quote (after a colon, in parentheses,
    before an attribution), that holds no negation and no negative word, beside a quote whose own
    words deny ("The mostfreq operator is applied to QSLp: "… mostfreq n'est pas utilisé …"")."""
    if not e.cit.claim or not e.cit.quote:
        return None
    claimed, own, _, whole = _scopes(e)
    mine, _ = _split(e, claimed)
    if not own or len(WORD.findall(mine)) < DENIED_BESIDE_WORDS or negated(mine, e.answer):
        return None
    # every word of the claim beside the quote, a leading clause too ("Unlike X, …")
    words = [w.lower() for w in WORD.findall(without(whole, (e.cit.quote,)))]
    lang = e.answer
    if not lang.negative_words:
        return None  # (a language whose negative words are not listed cannot tell a statement's polarity)
    negative = lang.negative_words | lang.shortfall | lang.less | lang.unchanged | lang.concessives
    if any(w in negative for w in words) or not all(asserts(mine, other) for other in every()):
        return None  # (a lead-in of saying in any language: "Laut Abschnitt 3.2 gilt:")
    quoted = e.chunk.text[e.start : e.end]
    opening = [w.lower() for w in WORD.findall(quoted)[:2]]
    if opening and opening[0] in e.doc.conditionals and "," in quoted:
        # a quote that opens with a condition says its main clause ("If … does not apply, you may be
        # able to file Form 2106-EZ instead"): a negation inside the condition denies nothing of it
        quoted = quoted[quoted.index(",") + 1 :]
    if not negated(quoted, e.doc):
        return None
    if opening and (
        (len(opening[0]) > 2 and e.doc.denies(opening[0]) and opening[0] not in e.doc.coordinators)
        or (opening[0] == "do" and e.doc.denies(opening[-1]))
    ):
        # a quote that opens with its negation is an instruction ("do not pay it …"); one that
        # opens with a negating conjunction continues a statement ("Nor should these guidelines …")
        return None
    said = {w.lower() for w in WORD.findall(quoted)}
    stems = {w[:5] for w in said if len(w) >= 4}
    for w in words:
        # a word the claim negates by a prefix says the quote's denial ("informal" for "no formal",
        # "unsupported" for "does not support")
        if any(w.startswith(p) and (w[len(p) :] in said or w[len(p) :][:5] in stems) for p in lang.negating_prefixes):
            return None
    return "the quote denies, the claim's own words beside it do not"


#: The rest of a prefixed word has at least this many letters for the two to be opposites
#: ("finite" of "infinite", "endlich" of "unendlich"; not "port" of "import").
PREFIX_REST = 5


#: Prefixes that say a thing was done wrongly, not that it was not done.
WRONGLY = frozenset({"mis", "miss", "mal"})


def _prefixed_forms(words: set[str], lang: Language) -> list[tuple[str, str]]:
    """``(rest, word)`` for each word of ``words`` that is a negating prefix before another word
    ("infinite": ("finite", "infinite"))."""
    out = []
    for w in words:
        for p in lang.negating_prefixes:
            if p in WRONGLY:
                continue  # ("misconfigured" says how, not whether: "poorly configured")
            rest = w[len(p) :].lstrip("-")
            if w.startswith(p) and len(rest) >= PREFIX_REST:
                out.append((rest, w))
    return out


def _inflected(a: str, b: str) -> bool:
    """Whether two words are one word's inflections: the same, or sharing all but their last three
    letters ("finite", "finitely"; not "vaccine", "vaccinated")."""
    common = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return a == b or (common >= PREFIX_REST and common >= max(len(a), len(b)) - 3)


def prefix_opposite(e: Evidence) -> str | None:
    """The claim's own words say a word where the quote's clause says it with a negating prefix, or
    the reverse ("the sets are finite" beside "… have infinitely many elements"; "protein intake was
    sufficient" beside "insufficient protein"), and neither says the other form too. A word denied
    where it stands agrees with its prefixed form ("aren't vaccinated" with "unvaccinated")."""
    if not e.cit.claim or not e.cit.quote or e.answer.unspaced or e.doc.unspaced:
        return None
    if e.answer.code != e.doc.code:
        return None  # (a prefix is a word's of one language)
    lang = e.doc
    own = e.stated
    clause = e.chunk.text[slice(*clause_bounds(e.chunk.text, e.start, e.end, lang))]
    mine = {w.lower() for w in WORD.findall(own)}
    theirs = {w.lower() for w in WORD.findall(clause)}
    for said, found, said_text, found_text in ((mine, theirs, own, clause), (theirs, mine, clause, own)):
        for rest, prefixed in _prefixed_forms(found, lang):
            plain = next((w for w in said if _inflected(w, rest)), None)
            if plain is None:
                continue
            if any(_inflected(w, rest) for w in found) or any(_inflected(w, prefixed) for w in said):
                continue  # (either side says both)
            if denied_at(said_text, plain, lang) is not False or denied_at(found_text, prefixed, lang) is not False:
                continue  # (a denied word is its prefixed form: "aren't vaccinated" is "unvaccinated")
            if any(negated(part, lang) for part in re.split(r"[,;:]", found_text) if prefixed in part.lower()):
                continue  # (a prefixed word in a denial: "a span with one unsupported fact does not qualify")
            claim_word, source_word = (plain, prefixed) if said is mine else (prefixed, plain)
            return f"the claim says {claim_word!r}, the source {source_word!r}"
    return None


#: A claim's own words beside its quote make a statement of their own from this many words.
DENIED_BESIDE_WORDS = 4


CHECKS = (
    Check(
        "denied_beside",
        "negation_mismatch",
        frozenset(CODES),
        denied_beside,
        "a claim's own statement beside a quote that denies holds a negation or a negative word (answers in English)",
    ),
    Check(
        "claim_polarity",
        "negation_mismatch",
        frozenset(CODES),
        claim_polarity,
        "the claim does not assert what a negation of the evidence denies",
    ),
    Check(
        "lead_denial",
        "negation_mismatch",
        frozenset(CODES),
        lead_denial,
        "a list item the source's lead-in denies ('Do not count the following days:') is denied by the claim too",
    ),
    Check(
        "claim_denial",
        "negation_mismatch",
        frozenset(CODES),
        claim_denial,
        "the claim does not deny what the evidence asserts (where the cited passage nowhere denies it)",
    ),
    Check(
        "prefix_opposite",
        "negation_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        prefix_opposite,
        "the claim's own words do not say a word whose negating-prefix form the quote says ('finite', "
        "'infinite'), or the reverse",
    ),
    Check(
        "negated_claim",
        "negation_mismatch",
        frozenset(CODES),
        negated_claim,
        "a negation right next to the quote on one side only, where no target can be held against",
    ),
    Check(
        "restated_denial",
        "negation_mismatch",
        frozenset({"en"}),
        restated_denial,
        "a claim in its own words does not assert what the evidence denies in other words",
    ),
)
