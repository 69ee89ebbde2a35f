"""Word evidence for dehyphenation, offline: word frequencies of many languages (the ``wordfreq``
package ships them in its wheel; nothing is downloaded).

A line-end hyphen is decided with the document's own words first; where the document has no
evidence, the lexicon of the document's language says whether the joined form is a word
(``docu-``/``mentation``: join) or whether both parts are words and the joined form is not
(``automatically-``/``detected``: keep the hyphen).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable

from citeline.text.scripts import HANGUL_SYLLABLES

#: A word this common (Zipf scale: 3 is once per million words) is a word of the language.
JOIN_ZIPF = 3.0
#: Both parts at least this common, and the joined form rarer than :data:`NOT_A_WORD` (about once in
#: thirty million words: a typo or a run-together bigram at most), make a compound that keeps its
#: hyphen. Joined forms in between ("whitespace" 2.2, "timestamp" 2.6: technical words general
#: lists see rarely) are left to the other rules.
PART_ZIPF = 3.0
NOT_A_WORD = 1.5

#: Frequent function words of the languages wordfreq has full lists for: the language of a document
#: is the one whose words occur most often in it.
_FUNCTION_WORDS = {
    "en": "the and of to in is that for with as are this be by",
    "de": "der die und das ist nicht mit den von zu ein eine auf für sie wird",
    "fr": "le la les et des est une pour dans que qui pas sur du ne elle il de au aux ces sont à",
    "es": "el la los las y que del por una para con es se en no su de al lo como más",
    "it": "il di che la per una sono del della con non gli le",
    "nl": "de het een en van dat niet zijn op voor met te ook",
    "pt": "o os que não uma para com do da em um se por",
    "sv": "och att det som är en på för med till av inte om",
    "nb": "og det er som på til med for av ikke en har jeg",
    "fi": "ja on ei se että oli kun mutta tai joka myös ovat",
    "pl": "i w na się nie z jest do że to jak od po",
    "cs": "a je se na že v to jsou pro jako by ale jsem",
    "ca": "el la els les i que de per una amb del no és",
    "ru": "и в не на что с по это как он она они из",
    "uk": "і в не на що з по це як він вона вони та",
}
_WORD = re.compile(r"[^\W\d_]+")


#: A language needs at least this many function words in the text to be chosen over English ...
MIN_HITS = 3
#: ... or, in a short text, this many and more than twice as many as English's.
SHORT_HITS = 2


#: Scripts written without spaces: a text where their letters, counted thrice, outnumber Latin ones is Japanese when it
#: has kana, Korean when it has hangul, else Chinese (function words cannot tell: a Chinese report's
#: web addresses give "com", a Portuguese word).
_KANA = re.compile("[\u3040-\u30ff]")
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HANGUL = re.compile(f"[{HANGUL_SYLLABLES}]")
_LATIN = re.compile("[A-Za-z\u00c0-\u024f]")
#: Languages wordfreq needs a word splitter for (jieba, MeCab) that citeline does not install: they
#: have no lexicon here, so the lexicon has no opinion on their words.
NO_LEXICON = frozenset({"zh", "ja", "ko"})


def document_language(text: str) -> str:
    """The language (a wordfreq code) whose function words occur most often in ``text``; English
    when none occurs :data:`MIN_HITS` times. Chinese, Japanese or Korean when their characters
    outnumber Latin letters."""
    return told_language(text) or "en"


def told_language(text: str) -> str | None:
    """:func:`document_language` where the text tells it, ``None`` where it is too short to tell."""
    sample = text[:200_000]
    kana, han, hangul = len(_KANA.findall(sample)), len(_HAN.findall(sample)), len(_HANGUL.findall(sample))
    cjk = kana + han + hangul  # (a character says about three letters' worth; no Latin count without them)
    if cjk and 3 * cjk > len(_LATIN.findall(sample)):
        return "ko" if hangul > kana + han else "ja" if kana > 0.05 * (kana + han) else "zh"
    counts = Counter(w for w in _WORD.findall(sample.casefold()) if len(w) <= 5)
    hits = {lang: sum(counts[w] for w in words.split()) for lang, words in _FUNCTION_WORDS.items()}
    best = max(hits, key=lambda lang: hits[lang])  # (English first among equals: it is listed first)
    if hits[best] >= MIN_HITS:
        return best
    # a short text (a sentence, a claim): two function words of one language, twice as many as English's
    if hits[best] >= SHORT_HITS and hits[best] > 2 * hits["en"]:
        return best
    return "en" if hits["en"] >= SHORT_HITS else None


def function_words(text: str, lang: str) -> int:
    """How many of ``lang``'s commonest function words :func:`told_language` counts ``text`` holds."""
    listed = set(_FUNCTION_WORDS.get(lang, "").split())
    return sum(1 for w in _WORD.findall(text.casefold()) if w in listed)


@functools.cache
def zipf(lang: str) -> Callable[[str], float]:
    """The Zipf frequency of a word in ``lang`` (0 for a word the list does not have, and for every
    word of a language without a lexicon here: :data:`NO_LEXICON`)."""
    import wordfreq

    if lang in NO_LEXICON or lang not in wordfreq.available_languages():
        return lambda word: 0.0
    return functools.partial(wordfreq.zipf_frequency, lang=lang)


def judge(left: str, right: str, lang: str) -> tuple[bool, str] | None:
    """``(joined, reason)`` from the lexicon, or ``None`` when it has no opinion."""
    frequency = zipf(lang)
    joined = f"{left}{right}".casefold()
    z_joined = frequency(joined)
    if z_joined >= JOIN_ZIPF:
        return True, f"{joined!r} is a word in the {lang} lexicon (zipf {z_joined:.1f})"
    z_left, z_right = frequency(left.casefold()), frequency(right.casefold())
    if min(z_left, z_right) >= PART_ZIPF and z_joined < NOT_A_WORD:
        return False, (
            f"{left!r} and {right!r} are words in the {lang} lexicon (zipf {z_left:.1f}, {z_right:.1f}), "
            f"{joined!r} is not ({z_joined:.1f})"
        )
    return None
