"""Full-text search over chunks: one query language, two indexes (SQLite FTS5, PostgreSQL tsvector).

Both indexes hold the same *search text* of each chunk, made here: the text case-folded, with
diacritics removed (``médecin`` finds ``Médecin`` and ``medecin``), split into words, and each run
of CJK characters written as its overlapping character pairs (``交通量`` -> ``交通 通量``), so
Chinese, Japanese and Korean, written without spaces, are found by any two characters or more. A
query goes through the same tokenizer, so what is indexed and what is looked up always agree.

SQLite keeps the search text in an FTS5 table (``chunk_search``, contentless: the index only, keyed
by :func:`search_key` of the chunk's version and ordinal), stemmed in the version's language
(:mod:`citeline.store.stemming`), ranked by BM25; PostgreSQL in ``chunks.search`` (``tsvector``
made with the text search configuration of the version's language, over a GIN index) ranked by
``ts_rank``. The writer fills both in the version's transaction. A query is stemmed in its own
language when its words tell it (its function words, or else the lexicon that knows its words
best) and the store holds it, otherwise in every language the store holds
(:func:`query_languages`); its function words are not required by the all-words search
(:func:`_content`).

Query syntax (:func:`parse_query`): words (all must occur; when fewer than ``k`` chunks hold all of
them, chunks holding some follow, ranked below them: see :func:`run_search`), ``"a phrase"``,
``prefix*``, ``OR`` between two terms, ``NOT term`` or ``-term``. Anything else (an unbalanced
quote, a lone ``OR``, punctuation) is read as plain words: a query is never a syntax error. Its
first :data:`MAX_QUERY_CHARS` characters and :data:`MAX_QUERY_WORDS` words are searched (a longer
phrase by its first words), so no query is an error or takes minutes either.

The package, by concern: :mod:`~citeline.store.search.query` (terms, the query language,
stemming a query), :mod:`~citeline.store.search.keyword` (the search and its fallback, SQLite's
top n), :mod:`~citeline.store.search.postgres` (PostgreSQL's top n and frequencies),
:mod:`~citeline.store.search.hits` (hits and snippets, hits of a vector or fused ranking; the
vectors themselves are :mod:`citeline.store.embeddings`), :mod:`~citeline.store.search.globs`
and :mod:`~citeline.store.search.changes` (the change feed). Everything is importable from here.
"""

from __future__ import annotations

from typing import Literal

from citeline.store.search.changes import Change, changes_since
from citeline.store.search.globs import glob_to_regex, glob_to_sqlite
from citeline.store.search.hits import SNIPPET_CHARS, SearchHit, hits_by_id, snippet
from citeline.store.search.keyword import FALLBACK_ROWS, PG_RANKED_ROWS, run_search
from citeline.store.search.postgres import pg_tsqueries, pg_tsquery
from citeline.store.search.query import (
    CJK_WORD_CHARS,
    COMMON_ZIPF,
    LEXICON_MARGIN,
    MAX_QUERY_CHARS,
    MAX_QUERY_WORDS,
    ORDINAL_BITS,
    Query,
    Term,
    _content,
    fold_text,
    lexicon_language,
    parse_query,
    query_language,
    query_languages,
    search_key,
    search_text,
    stem_query,
    store_languages,
    terms,
    to_fts5,
    to_tsquery,
)

#: how a search ranks: the stemmed full-text index, the embeddings, or both fused
SearchMode = Literal["keyword", "vector", "hybrid"]

__all__ = [
    "CJK_WORD_CHARS",
    "COMMON_ZIPF",
    "FALLBACK_ROWS",
    "LEXICON_MARGIN",
    "MAX_QUERY_CHARS",
    "MAX_QUERY_WORDS",
    "ORDINAL_BITS",
    "PG_RANKED_ROWS",
    "SNIPPET_CHARS",
    "Change",
    "Query",
    "SearchHit",
    "SearchMode",
    "Term",
    "_content",
    "changes_since",
    "fold_text",
    "glob_to_regex",
    "glob_to_sqlite",
    "hits_by_id",
    "lexicon_language",
    "parse_query",
    "pg_tsqueries",
    "pg_tsquery",
    "query_language",
    "query_languages",
    "run_search",
    "search_key",
    "search_text",
    "snippet",
    "stem_query",
    "store_languages",
    "terms",
    "to_fts5",
    "to_tsquery",
]
