"""Stemming for the full-text index, by the document's language.

SQLite: each chunk's search terms (:func:`citeline.store.search.terms`: folded words, CJK pairs)
are stemmed here with the Snowball stemmer of the document's language (``snowballstemmer``, which
hands the work to the compiled ``PyStemmer``, a dependency; both give the same stems) and written
stemmed into the FTS5 column; a query's words go through the same stemmers, one alternative per
language the store holds, so index and query always agree. English uses Snowball's ``english``
(Porter2, the successor of FTS5's ``porter`` tokenizer; FTS5's tokenizer cannot be called from
Python, and the search's fallback needs each query word's stem to look its frequency up).

PostgreSQL: the ``tsvector`` is made with the text search configuration of the document's
language (:data:`PG_CONFIGS`; ``simple``, which stems nothing, where PostgreSQL has none), and a
query is the OR of the query made with each configuration the store holds.

A language without a stemmer (Chinese, Japanese, Korean, Polish, Czech, ...) is indexed unstemmed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

#: wordfreq language code -> Snowball algorithm (the languages :mod:`citeline.text.lexicon` can tell)
SNOWBALL = {
    "en": "english",
    "de": "german",
    "fr": "french",
    "es": "spanish",
    "it": "italian",
    "nl": "dutch",
    "pt": "portuguese",
    "sv": "swedish",
    "nb": "norwegian",
    "fi": "finnish",
    "ca": "catalan",
    "ru": "russian",
}
#: wordfreq language code -> PostgreSQL text search configuration: the Snowball languages whose
#: configuration is built into PostgreSQL 13+ (Catalan's came only in 16)
PG_CONFIGS = {code: name for code, name in SNOWBALL.items() if code != "ca"}
#: the configuration of a language PostgreSQL has none for
PG_SIMPLE = "simple"


def pg_config(language: str | None) -> str:
    """The PostgreSQL text search configuration for a document language (a closed set of names,
    safe to write into SQL)."""
    return PG_CONFIGS.get(language or "", PG_SIMPLE)


@functools.cache
def stemmer(language: str | None) -> Callable[[str], str]:
    """The stem of a folded word in ``language`` (the identity where there is no stemmer), cached:
    a corpus's vocabulary is small beside its word count."""
    algorithm = SNOWBALL.get(language or "")
    if algorithm is None:
        return _identity
    import snowballstemmer

    stem_word = snowballstemmer.stemmer(algorithm).stemWord
    return functools.lru_cache(maxsize=200_000)(stem_word)


def _identity(word: str) -> str:
    return word


#: An index term from this character up is a CJK pair (a word sorts below it when its first letter does).
_CJK_START = "\u3040"


def is_cjk_pair(term: str) -> bool:
    return term[0] >= _CJK_START


def stem_terms(words: Iterable[str], language: str | None) -> list[str]:
    """``words`` (index terms) stemmed in ``language``; CJK character pairs stay as they are."""
    stem = stemmer(language)
    words = list(words)
    if max(words, default="") < _CJK_START:
        return list(map(stem, words))  # no CJK pair (compared in C: most texts)
    return [w if is_cjk_pair(w) else stem(w) for w in words]
