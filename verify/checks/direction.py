"""Checks of the direction a claim's own words give against its evidence's: a rise said of a fall
("The ability declines: "… the ability to monitor … increases""), a higher value said of a lower
one ("lower latency" beside "an increased latency"), one of two opposites said of the other
("faster" of "slower"), a comparison said the other way round ("Girls end up with the bigger
spurt" of "boys experience larger growth spurts than girls"). What a claim says of a table's row is
:mod:`citeline.verify.checks.rows`'s."""

from __future__ import annotations

import functools
import re
import unicodedata

from citeline.text.lang import CODES, Language
from citeline.verify.checks import Check, Evidence
from citeline.verify.claims import clause_bounds
from citeline.verify.negation import WORD as NEGATION_WORD
from citeline.verify.negation import without_asserting


def _directions(text: str, lang: Language) -> set[str]:
    """Which directions (``up``, ``down``) the words of ``text`` name; a word a negation stands right
    before ("did not increase") names none."""
    out = set()
    if lang.unspaced:
        if any(w in text for w in lang.up):
            out.add("up")
        if any(w in text for w in lang.down):
            out.add("down")
        return out
    words = [w.lower() for w in NEGATION_WORD.findall(without_asserting(text, lang))]  # "not only reduces" reduces
    for k, w in enumerate(words):
        if any(lang.denies(x) for x in words[max(0, k - 2) : k]):
            continue
        if w in lang.up:
            out.add("up")
        elif w in lang.down:
            out.add("down")
    return out


def claim_direction(e: Evidence) -> str | None:
    """The claim's own words name one direction (a rise or a fall) and the quote's sentence only the
    other."""
    if not e.cit.claim or not e.cit.quote:
        return None
    said = _directions(e.stated, e.answer)
    found = _directions(e.sentences, e.doc)
    if len(said) != 1 or len(found) != 1 or said == found:
        return None
    return f"the claim says {said.pop()}, the source {found.pop()}"


def covariate_direction(e: Evidence) -> str | None:
    """A change said with what it goes with ("Accuracy drops as batches get larger" beside "accuracy
    consistently improves as the batch size grows"): where the two clauses of what it goes with
    name one direction alike, the main clauses name one direction alike too."""
    if not e.cit.claim or not e.cit.quote:
        return None
    ours = _covariate(e.own_words, e.answer)
    if ours is None:
        return None
    theirs = _covariate(e.sentences, e.doc)
    if theirs is None or ours[1] != theirs[1] or ours[0] == theirs[0]:
        return None
    return f"the claim says {ours[0]} as it goes {ours[1]}, the source {theirs[0]}"


def _covariate(text: str, lang: Language) -> tuple[str, str] | None:
    """The one direction of ``text``'s main clause and the one of its clause of what the change goes
    with ("as the batch size grows"), or ``None`` where either names none or both."""
    pattern = _opened_phrase(lang.covariates, ",;:.!?()")
    if pattern is None or lang.unspaced:
        return None
    for m in pattern.finditer(text):
        condition = _directions(m.group(), lang)
        main = _directions(text[: m.start()] + " " + text[m.end() :], lang)
        if len(condition) == 1 and len(main) == 1:
            return main.pop(), condition.pop()
    return None


def _key(word: str) -> str:
    """A graded word's key: its first five letters, without accents ("costly", "costs" -> "costl",
    "costs"; "coûteuse" and "couteuse" -> "coute": sources and answers drop accents alike)."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))[:5]


def _graded(text: str, lang: Language) -> dict[str, set[str]]:
    """The words ``text`` grades, each with the directions of its grading: "more costly" and "costly
    … than" grade "costly" up, "low-variance" grades "variance" down, "moins élevé" grades the word
    before it down. A grading a negation stands right before ("not more costly", "n'est plus") and
    words of the language's function words are left out."""
    words = [w.lower() for w in NEGATION_WORD.findall(text)]
    degree = lang.degree_up | lang.degree_down
    out: dict[str, set[str]] = {}
    k = 0
    while k < len(words):
        if words[k] not in degree or any(lang.denies(x) for x in words[max(0, k - 2) : k]):
            k += 1
            continue
        down = words[k] in lang.degree_down
        j = k + 1
        while j < len(words) and words[j] in degree:  # "moins élevé", "much lower"
            down ^= words[j] in lang.degree_down
            j += 1
        after = [j]
        if j + 1 < len(words) and lang.adverb_suffix and words[j].endswith(lang.adverb_suffix):
            after.append(j + 1)  # "most strongly connected": what is graded is "connected"
        for at in (k - 1, *after):
            if 0 <= at < len(words):
                w = words[at]
                if len(w) >= 3 and w not in lang.function_words and w not in degree and not w.isdigit():
                    out.setdefault(_key(w), set()).add("down" if down else "up")
        k = j
    return out


def opposite_degree(e: Evidence) -> str | None:
    """The claim's own words grade a word one way ("more costly", "low-variance") and the quote's
    sentence grades the same word only the other way ("less costly", "higher variance"). Either
    side making a comparison ("than", "compared", "whereas") is left alone: a comparison may grade
    one word both ways and agree. On the source's side, a comparison is the quote's clause's only
    (a comparison in another clause, or a sentence the quote's runs on into, "… but higher variance:
    … (relative ordering …)", grades nothing of the quote's)."""
    if not e.cit.claim or not e.cit.quote or e.answer.unspaced or e.doc.unspaced:
        return None
    own = e.stated
    clause = e.chunk.text[slice(*clause_bounds(e.chunk.text, e.start, e.end, e.doc))]
    if any(w.lower() in e.answer.comparisons for w in NEGATION_WORD.findall(own)) or any(
        w.lower() in e.doc.comparisons for w in NEGATION_WORD.findall(clause)
    ):
        return None
    said = _graded(own, e.answer)
    if not said:
        return None
    found = _graded(e.sentences, e.doc)
    for key, ways in said.items():
        theirs = found.get(key)
        if len(ways) == 1 and theirs is not None and len(theirs) == 1 and ways != theirs:
            return f"the claim grades {key!r}… {ways.pop()}, the source {theirs.pop()}"
    return None


def _sides(text: str, lang: Language, pairs: str = "opposites") -> list[tuple[int, int]]:
    """``(pair, side)`` of every word of ``text`` one of ``lang``'s opposites (``pairs``: the field
    they are read from) (a word a negation stands right before left out: "not faster" says nothing
    of speed)."""
    words = [w.lower() for w in NEGATION_WORD.findall(text)]
    return [found for k in range(len(words)) for found in _sides_at(words, k, lang, pairs)]


def _sides_at(words: list[str], k: int, lang: Language, pairs: str) -> list[tuple[int, int]]:
    """``(pair, side)`` of ``words[k]`` in ``lang``'s ``pairs``, none where a negation stands right
    before it."""
    if any(lang.denies(x) for x in words[max(0, k - 2) : k]):
        return []
    return _opposite_sides(lang, pairs).get(_plain(words[k]), [])


def _plain(word: str) -> str:
    """A word without its accents (answers and extracted sources drop them alike: "couteuse")."""
    if word.isascii():
        return word
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))


@functools.cache
def _opposite_sides(lang: Language, pairs: str = "opposites") -> dict[str, list[tuple[int, int]]]:
    """Each word of ``lang``'s opposites (or antonyms), with its ``(pair, side)``: one look-up a word
    of a claim."""
    out: dict[str, list[tuple[int, int]]] = {}
    for n, pair in enumerate(getattr(lang, pairs)):
        for side, forms in enumerate(pair):
            for w in forms:
                out.setdefault(_plain(w), []).append((n, side))
    return out


def _comparand(text: str, lang: Language) -> str | None:
    """The first word after a comparison word ("than the baseline": ``baseline``) that is not a
    function word; ``None`` where ``text`` compares nothing."""
    words = [w.lower() for w in NEGATION_WORD.findall(text)]
    for k, w in enumerate(words):
        if w in lang.comparisons:
            return next((x for x in words[k + 1 :] if x not in lang.function_words), "")
    return None


def opposite_words(e: Evidence) -> str | None:
    """The claim's own words say one of a pair of opposites ("faster", "underestimates") where the
    quote's clause says only the other ("slower", "overestimates"). A comparison turns it round
    when its two sides are swapped ("the baseline is faster than the new model" of "the new model
    is slower than the baseline"), so where either side compares, the check speaks only when both
    compare against the same thing, or when the one that does not compare never names what the
    other compares against."""
    return _opposed(e, "opposites")


def antonyms(e: Evidence) -> str | None:
    """As :func:`opposite_words`, with the language's general lexicon of opposites
    (:attr:`~citeline.text.lang.Language.antonyms`: "cheap"/"costly", "before"/"after",
    "surplus"/"shortage", "bon"/"mauvais")."""
    return _opposed(e, "antonyms")


def opposite_magnitude(e: Evidence) -> str | None:
    """As :func:`opposite_words`, with the words that say how much (:attr:`~citeline.text.lang.
    Language.magnitudes`): "needs have shifted a lot" beside "changed little", "only modest gains"
    beside "substantially increased"."""
    return _opposed(e, "magnitudes")


def _quote_clause(e: Evidence) -> str:
    """The clause of the quote, from the last word before the quote that opens a subordinate clause
    ("Such approaches complement the sparse vector methods *as* they can … "even without exact
    token matching"": what the quote says is said of "they", not of the sparse methods)."""
    text = e.chunk.text
    cs, ce = clause_bounds(text, e.start, e.end, e.doc)
    opened = [m.start() for m in NEGATION_WORD.finditer(text, cs, e.start) if m.group().lower() in e.doc.subordinators]
    return text[opened[-1] if opened else cs : ce]


def _opposed(e: Evidence, pairs: str) -> str | None:
    if not e.cit.claim or not e.cit.quote or e.answer.unspaced or e.doc.unspaced:
        return None
    listed = getattr(e.answer, pairs)
    if not listed or listed is not getattr(e.doc, pairs):
        return None  # the claim's and the source's words are read in one language
    own = e.stated
    said = _sides(_without_comparands(own, e.answer), e.answer, pairs)
    if not said:
        return None
    clause = _quote_clause(e)
    found = _sides(_without_comparands(clause, e.doc), e.doc, pairs)
    for pair in {n for n, _ in said}:
        ours = {side for n, side in said if n == pair}
        theirs = {side for n, side in found if n == pair}
        if len(ours) != 1 or len(theirs) != 1 or ours == theirs:
            continue
        if _swapped(own, clause, e):
            continue
        forms = listed[pair]
        return f"the claim says {min(forms[ours.pop()])!r}, the source {min(forms[theirs.pop()])!r}"
    return None


#: A word an opposite is said of: a content word at least this long right beside it ("bon état").
ATTRIBUTE_LETTERS = 4
_PHRASE_BREAK = re.compile(r"[,;:.!?()\[\]«»\"“”„\n]")


def _attributes(text: str, lang: Language) -> dict[tuple[int, int, str], str]:
    """``(pair, side, word)`` for each word of ``text`` that is one side of one of ``lang``'s
    opposites or antonyms (pairs of both lists numbered apart), with each content word right beside
    it in its phrase (punctuation ends a phrase), accents dropped and cut to five letters, so that
    inflections meet ("en bon état", "in good condition", "ein hohes Risiko"); each with the two
    words as ``text`` writes them."""
    out: dict[tuple[int, int, str], str] = {}
    offset = 0
    for pairs in ("opposites", "antonyms"):
        for phrase in _PHRASE_BREAK.split(text):
            written = NEGATION_WORD.findall(phrase)
            words = [w.lower() for w in written]
            for k in range(len(words)):
                for n, side in _sides_at(words, k, lang, pairs):
                    for j in (k - 1, k + 1):
                        if 0 <= j < len(words) and _content(words[j], lang):
                            pair = (written[k], written[j]) if j > k else (written[j], written[k])
                            out.setdefault((offset + n, side, _plain(words[j])[:5]), " ".join(pair))
        offset += len(getattr(lang, pairs))
    return out


def _content(word: str, lang: Language) -> bool:
    return len(word) >= ATTRIBUTE_LETTERS and word.isalpha() and word not in lang.function_words


def opposite_attribute(e: Evidence) -> str | None:
    """The claim's sentence says one of two opposites of a word the quote says the other of ("Elle
    est jugée en bon état, mais peu authentique : « … est en mauvais état … »"), in whichever of its
    clauses: the word they are said of ties them, where :func:`antonyms` reads only the claim's own
    clause."""
    if not e.cit.claim or not e.cit.quote or e.answer.code != e.doc.code or e.doc.unspaced:
        return None
    # (a phrase about a comparison's other side says nothing of the quote's: "Unlike the old low
    # error rate, …")
    mine = _attributes(_without_comparands(f"{e.cit.uncited or ''} {e.stated}", e.answer), e.answer)
    if not mine:
        return None
    theirs = _attributes(e.chunk.text[e.start : e.end], e.doc)
    for (n, side, word), said in sorted(mine.items()):
        other = (n, 1 - side, word)
        if other in theirs and (n, side, word) not in theirs and other not in mine:
            return f"the claim says {said!r}, the quote {theirs[other]!r}"
    return None


@functools.cache
def _opened_phrase(openers: frozenset[str], stops: str) -> re.Pattern[str] | None:
    """A phrase from one of ``openers`` to the next of ``stops`` (a comparand's "Compared to …", a
    covariate's "as the batch size grows"), or ``None`` without openers."""
    if not openers:
        return None
    alternatives = "|".join(map(re.escape, sorted(openers, key=len, reverse=True)))
    return re.compile(rf"\b(?:{alternatives})\b[^{re.escape(stops)}]*", re.IGNORECASE)


def _without_comparands(text: str, lang: Language) -> str:
    """``text`` without its phrases about a comparison's other side (:attr:`~citeline.text.lang.
    Language.comparand_openers`, to the next comma): "Compared to generating long completions at
    one time, we speculate …" says nothing long of what it speaks of."""
    pattern = _opened_phrase(lang.comparand_openers, ",;:.!?")
    return text if pattern is None else pattern.sub(" ", text)


def _swapped(own: str, clause: str, e: Evidence) -> bool:
    """Whether a comparison may have swapped its two sides between the claim's own words and the
    quote's clause, so that opposite words agree ("the baseline is faster than the new model" and
    "the new model is slower than the baseline"): both compare, against different things; or one
    compares, and the other names what it compares against."""
    mine, other = _comparand(own, e.answer), _comparand(clause, e.doc)
    if mine is None and other is None:
        return False
    if mine is not None and other is not None:
        return mine[:5] != other[:5]
    against, text = (other, own) if mine is None else (mine, clause)
    return not against or against[:5] in {w.lower()[:5] for w in NEGATION_WORD.findall(text)}


#: How many words before its "than" a comparison's comparative may stand ("larger growth spurts than").
COMPARATIVE_REACH = 4


def swapped_comparison(e: Evidence) -> str | None:
    """A comparison said the other way round: the quote's clause grades one side above the other
    with a word of a pair of opposites and a "than" ("adolescent boys experience larger growth
    spurts than adolescent girls"), and the claim's own words give the same grading to what stands
    after the "than", not to what stands before it ("Girls end up with the bigger spurt"). Said
    with the other word of the pair ("Girls have smaller spurts"), or of the side before the
    "than", the claim agrees; a claim that names both sides before its grading word says nothing
    of their order here."""
    if not e.cit.claim or not e.cit.quote or e.answer.unspaced or e.answer.code != e.doc.code:
        return None
    lang = e.doc
    if not lang.than:
        return None
    clause = e.chunk.text[slice(*clause_bounds(e.chunk.text, e.start, e.end, lang))]
    compared = _comparison(clause, lang)
    if compared is None:
        return None
    grading, before, after = compared
    own = [w.lower() for w in NEGATION_WORD.findall(e.stated)]
    for k, w in enumerate(own):
        if not grading & _graded_as(own, k, lang):
            continue
        if any(lang.denies(x) for x in own[:k]):
            return None  # ("Girls do not have the larger spurt")
        subject = _content_stems(own[:k], lang)
        if subject & after and not subject & before:
            return f"the claim grades {w!r} the side the source puts after its comparison ({min(subject & after)!r}…)"
        return None
    return None


def _graded_as(words: list[str], k: int, lang: Language) -> set[tuple[str, int, int]]:
    """The ``(list, pair, side)`` of each pair of opposites or antonyms ``words[k]`` is a form of,
    none where a negation stands right before it ("not larger")."""
    return {(pairs, n, side) for pairs in ("opposites", "antonyms") for n, side in _sides_at(words, k, lang, pairs)}


def _comparison(clause: str, lang: Language) -> tuple[set[tuple[str, int, int]], set[str], set[str]] | None:
    """The first comparison of ``clause`` made with a comparative that is a word of a pair
    (:attr:`~citeline.text.lang.Language.degree_up` or ``degree_down``: "larger", "schneller") and a
    "than" (at most :data:`COMPARATIVE_REACH` words apart): the word's ``(list, pair, side)`` in each
    list, and the stems of the content words before the word and after the "than", each without the
    other's."""
    words = [w.lower() for w in NEGATION_WORD.findall(clause)]
    for t, w in enumerate(words):
        if w not in lang.than:
            continue
        for c in range(t - 1, max(-1, t - 1 - COMPARATIVE_REACH), -1):
            if words[c] not in lang.degree_up | lang.degree_down:
                continue  # (a word of a pair that grades nothing here: "larger *growth* spurts than")
            graded = _graded_as(words, c, lang)
            if graded:
                before, after = _content_stems(words[:c], lang), _content_stems(words[t + 1 :], lang)
                return graded, before - after, after - before
    return None


def _content_stems(words: list[str], lang: Language) -> set[str]:
    """The first five letters of each word of three letters or more that is not a function word."""
    return {_key(w) for w in words if len(w) >= 3 and w not in lang.function_words}


CHECKS = (
    Check(
        "claim_direction",
        "direction_mismatch",
        frozenset(CODES),
        claim_direction,
        "the claim's own words do not name a rise where the evidence names only a fall, or the reverse",
    ),
    Check(
        "covariate_direction",
        "direction_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        covariate_direction,
        "a change the claim says goes with another ('drops as batches grow') goes the way the source says "
        "it goes with the same one",
    ),
    Check(
        "opposite_degree",
        "direction_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        opposite_degree,
        "a word the claim's own words grade one way ('more costly') is not graded only the other way by the source",
    ),
    Check(
        "opposite_words",
        "direction_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        opposite_words,
        "the claim's own words do not say one of two opposites ('faster') where the quote says the other ('slower')",
    ),
    Check(
        "antonyms",
        "direction_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        antonyms,
        "as opposite_words, with the language's general lexicon of opposites ('cheap'/'costly', 'before'/'after')",
    ),
    Check(
        "opposite_magnitude",
        "direction_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        opposite_magnitude,
        "the claim's own words do not say a small amount ('slightly') where the quote says a large one "
        "('substantially'), or the reverse",
    ),
    Check(
        "opposite_attribute",
        "direction_mismatch",
        frozenset({"en", "de", "fr", "es"}),
        opposite_attribute,
        "a word the claim's sentence says one of two opposites of ('bon état') is not a word the quote says "
        "the other of ('mauvais état')",
    ),
    Check(
        "swapped_comparison",
        "direction_mismatch",
        frozenset({"en", "de"}),
        swapped_comparison,
        "a comparison the claim makes with the quote's grading word ('bigger' of 'larger … than') puts first "
        "the side the quote puts first",
    ),
)
