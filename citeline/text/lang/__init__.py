"""Language data, one module a language: the words citeline reads meaning from.

A :class:`Language` holds what the rules of sentence splitting and verification need to know about
one language's words: which words deny (``not``, ``nicht``, ``pas``, ``不``), which open a
subordinate clause, which verbs of saying lead into a quote, its abbreviations, its number words,
and so on. No list holds two languages: an English claim about a French document reads the claim's
words with :data:`en` and the document's with :data:`fr`, so French "a" ("has") is never an English
verb. A language is chosen from the text's language (:func:`citeline.text.lexicon.document_language`)
and passed explicitly to every helper that reads words (:func:`of`); a language without a module
here gets :data:`NONE`, whose lists are empty, and the checks that need words do not judge it.

The fields are documented on :class:`Language`; each module fills those it knows.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from functools import cache, cached_property

#: The languages with a module here (ISO 639-1 codes, as :mod:`citeline.text.lexicon` names them).
CODES = ("en", "de", "fr", "es", "zh", "ja", "ko")


def words(text: str) -> frozenset[str]:
    """The words of a whitespace-separated list, as a set (how the language modules write theirs)."""
    return frozenset(text.split())


def opposites(text: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Pairs of opposite words, one pair a line: the forms of one side, ``|``, the other's
    (``faster quicker | slower``)."""
    out = []
    for line in text.strip().splitlines():
        one, _, other = line.partition("|")
        out.append((words(one), words(other)))
    return tuple(out)


def directions_of(code: str, side: str) -> frozenset[str]:
    """The words of a language that say an amount rises (``side`` "up") or falls ("down"), one form a
    line in ``directions/SIDE_CODE.txt`` beside this module (``#`` starts a comment), or none."""
    from importlib import resources

    path = resources.files("citeline.text.lang").joinpath("directions", f"{side}_{code}.txt")
    if not path.is_file():
        return frozenset()
    text = path.read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def antonyms_of(code: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """The general lexicon of opposite words of a language (``opposites/CODE.txt`` beside this
    module, one pair a line as :func:`opposites` reads them; ``#`` starts a comment), or ()."""
    from importlib import resources

    path = resources.files("citeline.text.lang").joinpath("opposites", f"{code}.txt")
    if not path.is_file():
        return ()
    text = path.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return opposites("\n".join(lines))


@dataclass(frozen=True, eq=False)
class Language:
    """The words of one language that citeline's rules read (all lower case, folded as
    :func:`citeline.verify.fold.fold` folds: straight apostrophes). One instance a language, compared
    and hashed by identity (rules cache what they compile from it)."""

    code: str
    #: written without spaces between words (a word per two characters for lengths)
    unspaced: bool = False

    # -- sentences
    #: words after which a full stop ends no sentence ("e.g.", "Fig.", "vgl.", "Mme")
    abbreviations: frozenset[str] = frozenset()
    #: month names (sentences: "am 21. Juni" is no sentence end; numbers: dates), with their number
    months: dict[str, int] = field(default_factory=dict)
    #: month names that are other words too ("may", "march"): a date's month only with a day or year
    ambiguous_months: frozenset[str] = frozenset()

    # -- negation
    #: words that deny a predicate ("not", "never", "kein", "jamais")
    negations: frozenset[str] = frozenset()
    #: a suffix that makes a word deny ("n't")
    negation_suffixes: tuple[str, ...] = ()
    #: characters that deny inside a word (Chinese 不, 未; Korean 안, 못), as a regex class or "" for none
    negation_chars: str = ""
    #: words holding a negation character that deny nothing (Chinese 不同 "different", 未来 "future")
    not_negation_chars: tuple[str, ...] = ()
    #: characters between a negation character and the word it denies (Chinese 未*经*审计: 经)
    negation_skip: str = ""
    #: negative prepositions: a quote that drops one is altered, but in a claim they restrict a noun
    #: ("Papers without text are filtered out") rather than deny the predicate
    negative_prepositions: frozenset[str] = frozenset()
    #: phrases with a negative word that assert (regex alternatives: "not only", "nicht nur", "ne … que")
    not_negations: tuple[str, ...] = ()
    #: negative words that open a hyphen compound without denying ("Never-Ending", "no-fly")
    compound_negations: tuple[str, ...] = ()
    #: the word that answers a question "no" ("No — the plan 'does not cover …'", "Nein, …"): at a
    #: sentence's start before a dash or a stop, it replies: the claim denies, but no word after it
    reply_no: tuple[str, ...] = ()
    #: prefixes that negate the word they start ("un", "in", "non"; Korean 무, 불, 비, 미)
    negating_prefixes: tuple[str, ...] = ()

    # -- clauses
    #: words that open a subordinate clause (its negation is not the main clause's)
    subordinators: frozenset[str] = frozenset()
    #: words that open a condition (a quote of one is said of the main clause after it)
    conditionals: frozenset[str] = frozenset()
    #: words that open a claim's leading clause set against what follows ("unlike", "despite")
    concessives: frozenset[str] = frozenset()
    #: words that join another predicate or clause ("and", "but")
    coordinators: frozenset[str] = frozenset()
    #: conjunctions that, after a comma, open a clause of its own ("…, and receipts are …")
    clause_conjunctions: frozenset[str] = frozenset()
    #: words that open a relative clause on a subject
    relatives: frozenset[str] = frozenset()
    #: finite verbs a clause's predicate may start with ("is", "hat", "est")
    finite_verbs: frozenset[str] = frozenset()
    #: conjunctions that set what follows against what a negation before them denies ("but", "aber")
    contrasts: frozenset[str] = frozenset()
    #: words that stand between a negation and what it denies ("does not *currently* cover")
    between: frozenset[str] = frozenset()
    #: prefixes that make a word the negative of another ("un" of "unnecessary", "non" of
    #: "nonprofit"): such a word, its rest a frequent word of the language, counts as a negative word
    #: (:func:`citeline.verify.negation.privative`)
    privative_prefixes: tuple[str, ...] = ()
    #: verbs whose object says what a negation before them denies ("did not *yield* a consistent
    #: ordering" denies "consistent"; "n'a pas *donné* de résultat"): passed over as ``between`` is
    light_verbs: frozenset[str] = frozenset()
    #: the function words of the language (articles, prepositions, pronouns, auxiliaries)
    function_words: frozenset[str] = frozenset()
    #: infinitive markers ("to", "zu"): the word after one is no predicate of the clause
    infinitive: frozenset[str] = frozenset()
    #: determiners ("the", "a"): a participle's stem after one is a noun
    determiners: frozenset[str] = frozenset()
    #: words that announce a list after them ("following", "folgende")
    announces: frozenset[str] = frozenset()
    #: verbs of saying that end a lead-in to a quote ("says", "heißt", "indique"): regex alternatives
    says: tuple[str, ...] = ()
    #: phrases that open a claim with its source ("according to", "laut"): regex alternatives
    lead_ins: tuple[str, ...] = ()
    #: verbs of an attribution after the claim's statement (", as the paper notes"): regex alternatives
    attributions: tuple[str, ...] = ()

    # -- words and inflection
    #: endings an inflected form may add to a word (matching "reimburse" to "reimbursed")
    endings: frozenset[str] = frozenset({""})
    #: contracted negations and the verb they stand for ("won't" -> "will")
    contracted_stems: dict[str, str] = field(default_factory=dict)

    # -- meaning (English only so far: the checks that use them say so)
    #: words that make a claim negative in its own words ("lack", "few", "only", "unlike")
    negative_words: frozenset[str] = frozenset()
    #: verbs used for one another, by their first five letters ("alter chang modif")
    same_sense: tuple[str, ...] = ()
    #: words that forbid what follows them ("prohibited from", "enjoined from", "untersagt",
    #: "interdit de"): a list's lead-in with one denies its items as a negation does
    prohibitions: frozenset[str] = frozenset()
    #: negative words that say "not enough" ("lack", "unable")
    shortfall: frozenset[str] = frozenset()
    #: words that say "less" in a positive sentence ("limited", "few")
    less: frozenset[str] = frozenset()
    #: words that say a thing stays as it was ("remains", "unchanged", "intact"): a denied change
    unchanged: frozenset[str] = frozenset()
    #: words of a rise, growth or a larger amount ("increase", "higher", "rose")
    up: frozenset[str] = frozenset()
    #: words of a fall, decline or a smaller amount ("decrease", "lower", "fell")
    down: frozenset[str] = frozenset()
    #: words of degree that grade the word after them one way or the other ("more costly", "less
    #: costly"; "higher variance", "low-variance"): the claim's own grading of a word against the
    #: source's (:func:`citeline.verify.checks.direction.opposite_degree`)
    degree_up: frozenset[str] = frozenset()
    degree_down: frozenset[str] = frozenset()
    #: words that rank a thing first among others by how much of something it has ("the most widely
    #: used", "the largest"; "the fewest", "the lowest") (:func:`citeline.verify.checks.ranks.rank_among`)
    rank_top: frozenset[str] = frozenset()
    rank_bottom: frozenset[str] = frozenset()
    #: words that make a grading a comparison of two things ("than", "als"): the two sides may then
    #: grade one word opposite ways and agree ("A has lower cost than B" and "B costs more than A")
    comparisons: frozenset[str] = frozenset()
    #: comparison words that open a phrase about the other side of the comparison, up to the next
    #: comma ("Compared to generating long completions, …", "unlike the baseline"): what that phrase
    #: says is the comparand's, not the subject's (not "que", which opens every relative clause)
    comparand_openers: frozenset[str] = frozenset()
    #: the particle that brings in a comparison's other side right after a comparative ("than",
    #: "als"; not French or Spanish "que", which opens every relative clause): "boys have larger
    #: spurts *than* girls" (:func:`citeline.verify.checks.direction.swapped_comparison`)
    than: frozenset[str] = frozenset()
    #: particles a word of the language takes at its end (Korean 은, 으로부터): a quote may end on
    #: the word without them ("다양한 사회계층" of "다양한 사회계층으로부터")
    particles: frozenset[str] = frozenset()
    #: words that say the opposite of each other about one thing ("faster" and "slower",
    #: "overestimates" and "underestimates", "majority" and "minority"), a pair a line
    #: (:func:`opposites`): a claim whose own words say one where the quote says only the other
    #: (:func:`citeline.verify.checks.direction.opposite_words`)
    opposites: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    #: the language's general lexicon of opposite words (:func:`antonyms_of`, read by the
    #: ``antonyms`` check: a larger list than :attr:`opposites`, written apart from the rules)
    antonyms: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    #: words that say how much, a small amount on one side ("slightly", "little", "barely") and a
    #: large one on the other ("substantially", "a lot", "widely"), as one pair (:func:`opposites`):
    #: a claim whose own words say one where the quote's clause says only the other
    #: (:func:`citeline.verify.checks.direction.opposite_magnitude`)
    magnitudes: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    #: words that open a clause of what a change goes with ("accuracy improves *as* the batch grows",
    #: "quand", "a medida que"): its direction is the condition's, not the claim's
    covariates: frozenset[str] = frozenset()
    #: words that say a claim holds of every case or of one alone ("every", "always", "only"), and
    #: words that say a passage speaks of some cases or of one example among others ("some", "often",
    #: "for example", "such as"): read by :func:`citeline.verify.checks.proportion.quantifier_scope`
    universal: frozenset[str] = frozenset()
    partial: frozenset[str] = frozenset()
    #: the ending of the language's adverbs made of adjectives ("strongly"): a grading word before
    #: one grades the word after it too ("most strongly connected")
    adverb_suffix: str = ""
    #: share words and the interval of shares each means ("most of": above a half, "about a third":
    #: 0.28 to 0.4), read by :func:`citeline.verify.checks.proportion.proportion_words`
    proportions: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: the words between a part and its whole ("18 out of 38", "2 von 44")
    ratio_words: frozenset[str] = frozenset()
    #: the words of a percentage ("%", "percent") and those after it that make it a share of
    #: something ("of": "24 percent of a baby's body weight"; not a change, "rose 15%")
    percent_words: frozenset[str] = frozenset()
    share_of: frozenset[str] = frozenset()
    #: the words that count a part of a whole the sentence counted before it ("While 33 papers use
    #: several annotators, only 12 report agreement": 12 of 33)
    part_openers: frozenset[str] = frozenset()
    #: phrases that say a change happens at every step ("every year", "steadily", 逐年): a claim
    #: with one said of a table row needs the row's figures to move one way throughout
    monotone: tuple[str, ...] = ()
    #: a table column header's words for the later of two periods ("current period", 本期, 期末余额)
    #: and for the earlier ("prior year", 上期, 期初余额): which of a row's two figures is the later
    period_current: tuple[str, ...] = ()
    period_prior: tuple[str, ...] = ()
    #: words of a quantity that is better when smaller ("loss", "deficit", 亏损): a loss that
    #: "widens" is a figure that falls where a row gives it as a negative profit
    shortfall_quantities: frozenset[str] = frozenset()

    # -- numbers
    #: number words 0-19 in order (the first is zero)
    units: tuple[str, ...] = ()
    #: the tens from twenty in order
    tens: tuple[str, ...] = ()
    #: other number words and their values ("hundred", "ein", "une")
    number_words: dict[str, int] = field(default_factory=dict)
    #: ordinal words ("first", "zweite", "troisième")
    ordinals: frozenset[str] = frozenset()
    #: number words that are as often another word ("one", "un", "null")
    ambiguous_numbers: frozenset[str] = frozenset()
    #: words joining the parts of a spelled number ("and", "und", "et")
    number_joiners: frozenset[str] = frozenset()
    #: words that scale the number before them ("million", "Mio", "万")
    scales: dict[str, int] = field(default_factory=dict)
    #: fraction words and their denominators ("third": 3)
    fractions: dict[str, int] = field(default_factory=dict)
    #: multiplier words ("twice": 2, "doubled": 2)
    multipliers: dict[str, int] = field(default_factory=dict)
    #: multiplier words that say how often where no comparison follows ("twice per event": two
    #: times; "twice as many": a multiplier)
    how_often: frozenset[str] = frozenset()
    #: words counting a fraction ("a", "two", "deux") before a fraction word
    fraction_counts: tuple[str, ...] = ()
    #: words between a fraction and what it is of ("of", "der", "de")
    fraction_of: tuple[str, ...] = ()
    #: hedges before a number, by the relation they claim: regex alternatives each
    hedges_above: tuple[str, ...] = ()
    hedges_below: tuple[str, ...] = ()
    hedges_near: tuple[str, ...] = ()
    #: unit words by class and canonical unit ("time": {"day": "day days"})
    units_of: dict[str, dict[str, str]] = field(default_factory=dict)
    #: nouns naming a rate's period after "per", "a", "pro" ("week": "week", "Monat": "month")
    periods: dict[str, str] = field(default_factory=dict)
    #: adverbs naming a rate's period ("daily": "day", "monatlich": "month")
    rate_adverbs: dict[str, str] = field(default_factory=dict)
    #: words before a rate's period ("per", "pro", "par")
    per: tuple[str, ...] = ()
    #: thousands grouped by spaces ("1 500", "48 300": French, German): elsewhere digits apart are
    #: figures apart (a table's cells, "59 173 471")
    space_grouping: bool = False
    #: the word after a number that counts times ("times", "mal", "fois")
    times: frozenset[str] = frozenset()
    #: words after "N times" that make it a multiplier ("3 times faster", "deux fois plus")
    comparatives: frozenset[str] = frozenset()
    #: suffixes of a magnitude glued to a number ("5.4K", "3 Mio", "2bn")
    magnitude_suffixes: dict[str, int] = field(default_factory=dict)
    #: phrases that state the unit a table's figures are in ("in thousands", "百万元"): regex -> factor
    scale_phrases: dict[str, int] = field(default_factory=dict)
    #: words that number a part of a document ("table", "Abbildung", "tableau")
    labels: tuple[str, ...] = ()

    # -- answers
    #: words for a source or a document before a marker's number ("Source 1", "Quelle 2"), and for a
    #: page in a marker's pinpoint ("[S1, p. 3]", "[S1, S. 3]"): regex alternatives
    source_words: tuple[str, ...] = ()
    document_words: tuple[str, ...] = ()
    page_words: tuple[str, ...] = ()

    @cached_property
    def denying(self) -> frozenset[str]:
        """Words that deny a predicate: the negations but the negative prepositions, written with a
        straight or a typographic apostrophe ("aren't", "aren’t": PDFs mostly set the latter)."""
        plain = self.negations - self.negative_prepositions
        return plain | {w.replace("'", "’") for w in plain if "'" in w}

    @cached_property
    def spelled(self) -> dict[str, int]:
        """Every number word of the language and its value."""
        out = {w: n for n, w in enumerate(self.units)}
        out |= {w: 10 * k for k, w in enumerate(self.tens, 2)}
        return out | self.number_words

    @cached_property
    def counting(self) -> frozenset[str]:
        """Every word that states a quantity: number words, scales, ordinals, fractions, multipliers
        (a quote that changes one changes a number)."""
        scales = frozenset(w for w in self.scales if len(w) > 2 or not w.isascii())  # (not "k", "m")
        return (
            frozenset(self.spelled) | scales | self.ordinals | frozenset(self.fractions) | frozenset(self.multipliers)
        )

    @cached_property
    def not_negation_re(self) -> re.Pattern[str] | None:
        """The phrases with a negative word that assert (see :attr:`not_negations`), and the hyphen
        compounds opened by a negative word (see :attr:`compound_negations`)."""
        parts = [rf"\b(?:{p})\b" for p in self.not_negations]
        if self.compound_negations:
            parts.append(rf"\b(?:{'|'.join(self.compound_negations)})-(?!one\b)(?=[^\W\d_])")
        return re.compile("|".join(parts), re.IGNORECASE) if parts else None

    @cached_property
    def reply_no_re(self) -> re.Pattern[str] | None:
        """The word answering a question "no" where it replies (see :attr:`reply_no`)."""
        if not self.reply_no:
            return None
        return re.compile(
            rf"(?:^|(?<=[.?!])\s)\s*(?:{'|'.join(self.reply_no)})(?=\s*(?:[—–,:;!.]|-\s))", re.IGNORECASE | re.MULTILINE
        )

    def denies(self, word: str) -> bool:
        """Whether a (lower-case) word denies a predicate."""
        return word in self.denying or (bool(self.negation_suffixes) and word.endswith(self.negation_suffixes))


#: No language: every list empty, so the checks that read words do not judge the text (digits,
#: symbols and the matching of quotes still work).
NONE = Language("und")


@cache
def of(code: str | None) -> Language:
    """The language of ``code`` (``"en"``, ``"de"`` …; a region is ignored: ``"en-GB"``). A language
    without a module here gets a :class:`Language` of its code with empty lists (its lexicon, if
    :mod:`citeline.text.lexicon` has one, still tells its words from noise); no code, :data:`NONE`."""
    base = (code or "").split("-")[0].split("_")[0].lower()
    if not base:
        return NONE
    if base not in CODES:
        return Language(base)
    module = importlib.import_module(f"citeline.text.lang.{base}")
    language: Language = module.LANGUAGE
    return language


def every() -> tuple[Language, ...]:
    """Every language with a module here (for syntax that does not depend on a text's language,
    such as the words of an answer's source markers)."""
    return tuple(of(code) for code in CODES)


__all__ = ["CODES", "NONE", "Language", "antonyms_of", "directions_of", "every", "of", "words"]
