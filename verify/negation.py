"""Negation in a text of one language: whether it denies, what each negation denies, and whether a
word is denied or asserted where it stands.

Every function takes the language of the text it reads (:mod:`citeline.text.lang`). Languages
written without spaces deny with characters inside words (Chinese 不, 未; Japanese ない; Korean
않): :attr:`~citeline.text.lang.Language.negation_chars`.
"""

from __future__ import annotations

import functools
import itertools
import re

from citeline.text.lang import Language
from citeline.text.scripts import CJK_CHARS

WORD = re.compile(r"[^\W\d_]+(?:['’]t)?")
#: A hyphenated compound ("non-vaccinating", "near-misses"), read whole by :func:`compounds`.
_COMPOUND = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")


def compounds(text: str) -> list[str]:
    """The hyphenated compounds of ``text``, lower-case and without their hyphens ("nonvaccinating"
    of "non-vaccinating"): :data:`WORD` reads their parts apart, so a negating prefix written with
    a hyphen is found on the whole."""
    return [m.group().replace("-", "").lower() for m in _COMPOUND.finditer(text)]


#: How many content words after a negation it is held to deny ("did not yield a *consistent*
#: ordering": the verb and what it says of its object).
TARGETS = 1
_CJK = re.compile(f"[{CJK_CHARS}]")
#: Where a negation's reach ends: a colon, a semicolon, a dash set off by spaces, a sentence's end.
CLAUSE_END = re.compile(r"[:;]|\s[—–]\s|[.!?](?=\s)")


@functools.cache
def _chars(lang: Language) -> tuple[re.Pattern[str], re.Pattern[str] | None] | None:
    """The language's negation characters, and the words holding one that deny nothing."""
    if not lang.negation_chars:
        return None
    exceptions = re.compile("|".join(map(re.escape, lang.not_negation_chars))) if lang.not_negation_chars else None
    return re.compile(lang.negation_chars), exceptions


def without_asserting(text: str, lang: Language) -> str:
    """``text`` without the phrases that hold a negative word but assert ("not only", "nicht nur")."""
    pattern = lang.not_negation_re
    return pattern.sub(" ", text) if pattern is not None else text


#: A word a negating prefix makes of another ("unnecessary", "nonprofit") is a negative word when
#: the rest is a word at least this frequent (Zipf) in its language: "under" or "unique" are not.
PRIVATIVE_ZIPF = 3.0


def privative(word: str, target: str, lang: Language) -> bool:
    """Whether ``word`` says "not ``target``" in itself: one of the language's negative words
    ("absent", "banned", "zero"), or a negating prefix before a frequent word of the language that
    is ``target`` or its inflection ("unsupported" of "support", "unnecessary" of "necessary"; not
    "uncited" of "used")."""
    w = word.lower()
    if w in lang.negative_words:
        return True
    rest = _prefixed(w, lang)
    return rest is not None and rest[:5] == target.lower()[:5]


@functools.lru_cache(maxsize=50_000)
def _prefixed(word: str, lang: Language) -> str | None:
    """The rest of a word a negating prefix makes of a frequent word ("unsupported": "supported")."""
    from citeline.text.lexicon import zipf

    for prefix in lang.privative_prefixes:
        rest = word[len(prefix) :].lstrip("-")
        if word.startswith(prefix) and len(rest) >= 4 and zipf(lang.code)(rest) >= PRIVATIVE_ZIPF:
            return rest
    return None


def negated(text: str, lang: Language) -> bool:
    """Whether ``text`` holds a negation that denies (a negative preposition restricts a noun: "Papers
    without text are filtered out" denies nothing)."""
    plain = without_asserting(text, lang)
    if any(lang.denies(w.lower()) for w in WORD.findall(plain)):
        return True
    chars = _chars(lang)
    if chars is None:
        return False
    negation, exceptions = chars
    return negation.search(exceptions.sub("", plain) if exceptions else plain) is not None


def targets(text: str, lang: Language, *, light: bool = False) -> list[str]:
    """The word each negation of ``text`` denies: the first word of three letters or more after it
    that is not one of the words that stand between ("not *shared*", "does not *pay*", "aucune
    *opposition*"), nor, with ``light``, a light verb whose object says what is denied ("did not
    yield a *consistent* ordering": a claim's negation, held against its evidence; a source's
    "did not find the defendant liable" denies no "defendant"); German puts the negation after
    what it denies ("wird nicht *geführt*" at a clause's end), so that a negation without a word
    after it denies none here. A contrast ends what a negation reaches ("do not have, but could
    *benefit* from"), and so does the end of its clause (:data:`CLAUSE_END`: "Laut S3 nicht:
    *Abbildung* 4.21 …" denies no "Abbildung"). In Chinese, the two characters after a negation character ("无*违规*",
    "未经*审计*")."""
    if lang.reply_no_re is not None:
        text = lang.reply_no_re.sub(" ", text)  # "No — the plan 'does not cover …'" denies no "plan"
    out = []
    for clause in CLAUSE_END.split(without_asserting(text, lang)):
        words = [w.lower() for w in WORD.findall(clause)]
        for k, w in enumerate(words):
            if lang.denies(w):
                window = list(itertools.takewhile(lambda x: x not in lang.contrasts, words[k + 1 : k + 5]))
                content = [
                    x
                    for x in window
                    if len(x) >= 3
                    and x not in lang.between
                    and x not in lang.negations
                    and not (light and x in lang.light_verbs)
                ]
                out.extend(content[:TARGETS])
    chars = _chars(lang)
    if chars is not None and lang.unspaced:
        negation, exceptions = chars
        plain = exceptions.sub("", text) if exceptions else text
        for m in negation.finditer(plain):
            after = plain[m.end() : m.end() + 3].lstrip(lang.negation_skip)[:2]
            if len(after) == 2 and _CJK.fullmatch(after[0]) and _CJK.fullmatch(after[1]):
                out.append(after)
    return out


def denied_at(text: str, target: str, lang: Language) -> bool | None:
    """Whether ``text`` denies ``target`` (a negation among the three words before it, in every
    place it has the word or its inflection as a predicate: not after an infinitive marker, "asks
    you *to pay*", nor, for a participle, after a determiner, "into the same *cluster*"), asserts
    it (in none), or cannot tell (no such word, or both). A target in a script without spaces is
    looked for as characters, denied by a negation character right before it."""
    chars = _chars(lang)
    if _CJK.search(target):
        if chars is None:
            return None
        places = [m.start() for m in re.finditer(re.escape(target), text)]
        if not places:
            return None
        denied = [chars[0].search(text[max(0, k - 2) : k]) is not None for k in places]
        return True if all(denied) else False if not any(denied) else None
    words = [w.lower() for w in WORD.findall(text)]
    stem = target[:5] if len(target) > 5 else target
    participle = target.endswith("ed")  # "not clustered": the same stem after "the" is a noun
    seen = [
        k
        for k, w in enumerate(words)
        if w.startswith(stem)
        and len(w) - len(target) <= 3
        and (k == 0 or (words[k - 1] not in lang.infinitive and not (participle and words[k - 1] in lang.determiners)))
    ]
    if not seen:
        return None
    denied = [_denied_before(words, k, lang) for k in seen]
    return True if all(denied) else False if not any(denied) else None


#: How many words before a word a negation may stand and deny it ("does not cover a yearly *dental*
#: cleaning"), no further than a word that opens a clause or a contrast.
DENIAL_REACH = 5


def _denied_before(words: list[str], k: int, lang: Language) -> bool:
    for w in reversed(words[max(0, k - DENIAL_REACH) : k]):
        if lang.denies(w):
            return True
        if w in lang.subordinators or w in lang.contrasts:
            return False  # ("not A or B" denies both; "not X that Y" nothing of Y's clause)
    return False


def sense(word: str, lang: Language) -> str:
    """A content word's first five letters, one for verbs of one sense (see
    :attr:`~citeline.text.lang.Language.same_sense`)."""
    return _senses(lang).get(word[:5], word[:5])


@functools.cache
def _senses(lang: Language) -> dict[str, str]:
    return {stem: group.split()[0] for group in lang.same_sense for stem in group.split()}


def antonym_in(word: str, stems: set[str], lang: Language) -> bool:
    """Whether ``word`` is a negative-prefixed or "-less" form of one of ``stems`` ("informal",
    "uncited", "nonresident", "costless")."""
    for prefix in lang.negating_prefixes:
        if word.startswith(prefix) and len(word) - len(prefix) >= 3 and word[len(prefix) :][:5] in stems:
            return True
    return lang.code == "en" and word.endswith("less") and len(word) > 7 and word[:-4][:5] in stems


def restates_denied(claimed: str, whole: str, evidence: str, lang: Language) -> bool:
    """Whether the claim, in its own words and without a negation, asserts what a negation of the
    evidence denies in other words: it shares two content words with what one negation of the
    evidence governs ("SPECTER needs citation information" against "… does not require any
    citation information"), and says nothing negative of its own (no word such as "lack", "few",
    "only", "unlike", nor an antonym of a denied word: "informal" against "no formal procedure"), in
    the whole claim (``whole``: "Unlike SGC, …"). Only for a language with
    :attr:`~citeline.text.lang.Language.negative_words` (English)."""
    if not lang.negative_words or any(w.lower() in lang.negative_words for w in WORD.findall(whole)):
        return False
    claim_words = [w.lower() for w in WORD.findall(claimed)]
    content = {sense(w, lang) for w in claim_words if len(w) >= 3 and w not in lang.between}
    claim_words += compounds(claimed)  # ("non-vaccinating" against "choose not to vaccinate")
    words = [w.lower() for w in WORD.findall(without_asserting(evidence, lang))]
    at = [k for k, w in enumerate(words) if lang.denies(w)]
    for k, nxt in zip(at, [*at[1:], len(words)], strict=True):
        # what the negation governs: up to the next negation, or a word joining another predicate
        # or opening a clause ("do not pay it *and* report it")
        end = next(
            (j for j in range(k + 1, nxt) if words[j] in lang.coordinators or words[j] in lang.subordinators), nxt
        )
        span = {sense(w, lang) for w in words[k + 1 : end] if len(w) >= 3 and w not in lang.between}
        if any(antonym_in(w, span, lang) for w in claim_words):
            continue
        if len(content & span) >= 2:
            return True
    return False


def says_less(claimed: str, evidence: str, lang: Language) -> bool:
    """Whether a claim negated only by a word of shortfall ("LLMs *lack* strong long-form
    generation") restates evidence that says "less" in a positive sentence ("*limited* in …
    long-form generation capabilities")."""
    denying = {w.lower() for w in WORD.findall(without_asserting(claimed, lang)) if lang.denies(w.lower())}
    return bool(denying) and denying <= lang.shortfall and any(w.lower() in lang.less for w in WORD.findall(evidence))
