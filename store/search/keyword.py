"""Keyword search (:func:`run_search`): the all-words search, then the fallback over the rarer
words, on SQLite (FTS5's own top n by BM25, then joined) or PostgreSQL
(:mod:`citeline.store.search.postgres`); see :mod:`citeline.store.search` for the query language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citeline.store.search.globs import glob_to_regex, glob_to_sqlite
from citeline.store.search.hits import SearchHit, snippet
from citeline.store.search.postgres import PG_SELECT, pg_frequencies, pg_tsquery
from citeline.store.search.query import (
    Query,
    Term,
    _content,
    languages_for,
    parse_query,
    query_language,
    stem_query,
    store_languages,
    to_fts5,
    to_tsquery,
)
from citeline.store.stemming import pg_config

#: the fallback search ranks at most about this many chunks (see :func:`run_search`)
FALLBACK_ROWS = 2000


_SELECT = """
SELECT c.id, {score} AS score, d.uri, v.version_no,
       CASE WHEN v.superseded_at IS NULL AND d.deleted_at IS NULL THEN 1 ELSE 0 END AS is_current,
       c.page_start, c.page_end, c.raw_start, c.raw_end, c.text, d.collection
FROM {source}
JOIN document_versions v ON v.id = c.version_id
JOIN documents d ON d.id = v.document_id
WHERE {match} {current} {document} {collection} {exclude}
ORDER BY score DESC, c.id
LIMIT :k
"""


def _statement(
    dialect: str,
    *,
    all_versions: bool,
    document: bool,
    exclude: int,
    collection: bool = False,
) -> str:
    current = "" if all_versions else "AND v.superseded_at IS NULL AND d.deleted_at IS NULL"
    excluded = f"AND c.id NOT IN ({', '.join(f':x{i}' for i in range(exclude))})" if exclude else ""
    in_collection = "AND d.collection = :collection" if collection else ""
    if dialect != "sqlite":
        return PG_SELECT.format(
            current=current,
            document="AND d.uri ~ :document" if document else "",
            collection=in_collection,
            exclude=excluded,
        )
    # m: FTS5's own top keys and scores, a VALUES list from run_search
    return _SELECT.format(
        score="m.score",
        source="m JOIN chunks c ON c.version_id = (m.key >> 24) AND c.ordinal = (m.key & 16777215)",
        match="1 = 1",
        current=current,
        document="AND d.uri GLOB :document" if document else "",
        collection=in_collection,
        exclude=excluded,
    )


#: PostgreSQL ranks at most this many of a query's matching chunks (see :data:`PG_SELECT`): the
#: same bound as the fallback's, so a query is ranked over about as many chunks either way.
#: ``ts_rank`` costs about 10 microseconds a chunk at 100,000 chunks (5,512 matches ranked in 54 ms)
PG_RANKED_ROWS = FALLBACK_ROWS


_TOP_SQL = "SELECT rowid, -rank FROM chunk_search WHERE chunk_search MATCH :q ORDER BY rank LIMIT :n"


#: document frequencies by database and index state (its highest key, which every write raises:
#: entries are only ever added), then by the configurations a word is read in (PostgreSQL) and
#: the word, so a long-lived process looks each word up once
_DF_CACHE: dict[tuple[str, int], dict[tuple[tuple[str, ...], str], int]] = {}


def _frequencies(connection: Any, words: list[str], configs: Sequence[str] = ()) -> dict[str, int]:
    """How many chunks (of any version) hold each word, cached while the index is unchanged: on
    SQLite from ``chunk_search_vocab``; on PostgreSQL counted up to ``FALLBACK_ROWS + 1``
    (:func:`~citeline.store.search.postgres.pg_frequencies`)."""
    from sqlalchemy import text as sql

    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        raw = connection.connection.driver_connection  # plain sqlite3: lookups without the ORM's cost
        state = raw.execute("SELECT rowid FROM chunk_search ORDER BY rowid DESC LIMIT 1").fetchone()
    else:  # every version adds its chunks to the index, and versions are never deleted
        state = connection.execute(sql("SELECT max(id) FROM document_versions")).fetchone()
    key = (str(connection.engine.url), int(state[0]) if state and state[0] is not None else 0)
    entries = _DF_CACHE.get(key)
    if entries is None or len(entries) > 100_000:
        _DF_CACHE.clear()  # one index state at a time: the old one is stale
        entries = _DF_CACHE[key] = {}
    read_in = tuple(configs)
    cache = _Read(entries, read_in)
    todo = [w for w in dict.fromkeys(words) if (read_in, w) not in entries]
    if sqlite:
        for word in todo:
            row = raw.execute("SELECT doc FROM chunk_search_vocab WHERE term = ?", (word,)).fetchone()
            cache[word] = int(row[0]) if row else 0
    elif todo:
        for word, n in pg_frequencies(connection, todo, configs, key, FALLBACK_ROWS).items():
            cache[word] = n
    return {w: cache[w] for w in words}


class _Read:
    """The entries of :data:`_DF_CACHE` of one reading (the configurations), by word."""

    def __init__(self, entries: dict[tuple[tuple[str, ...], str], int], read_in: tuple[str, ...]) -> None:
        self.entries, self.read_in = entries, read_in

    def __getitem__(self, word: str) -> int:
        return self.entries[self.read_in, word]

    def __setitem__(self, word: str, n: int) -> None:
        self.entries[self.read_in, word] = n


def _rarest(connection: Any, query: Query, configs: Sequence[str] = ()) -> Query:
    """The fallback: any of the query's clauses, rarest first, while together they match at most
    about :data:`FALLBACK_ROWS` chunks (always at least the rarest). A clause's frequency is its
    rarest word's document frequency; a prefix counts as common. Besides bounding the work, this
    keeps "the" from outranking a rare word on PostgreSQL, whose ``ts_rank`` knows no document
    frequencies."""

    # a phrase is at most as frequent as its rarest word: its first few words tell enough
    words = sorted({w for clause in query.must for t in clause if not t.prefix for w in t.words[:3]})
    df = _frequencies(connection, words, configs)

    def frequency(clause: list[Term]) -> int:
        return sum(FALLBACK_ROWS if t.prefix else min(df[w] for w in t.words[:3]) for t in clause)

    kept: list[Term] = []
    total = 0
    for clause in sorted(query.must, key=frequency):
        if kept and total + frequency(clause) > FALLBACK_ROWS:
            break
        kept.extend(clause)
        total += frequency(clause)
    return Query([kept], list(query.must_not))


def run_search(
    connection: Any,
    text: str,
    *,
    k: int = 8,
    document: str | None = None,
    all_versions: bool = False,
    collection: str | None = None,
) -> list[SearchHit]:
    """The ``k`` best chunks for the query ``text`` (see :func:`parse_query`): chunks holding every
    clause first; then, when there are fewer than ``k`` of them, chunks holding any clause, ranked
    by BM25 (so chunks holding more of the rarer words come first), scored below the last of the
    first. Neither search looks for the query's function words (:func:`_content`) when it has
    other words: in the fallback, "how", "many" or "does" made a chunk holding them outrank one
    holding the question's subject (on the question benchmark's tuning half, recall@5 of the
    held-out round 0.777 -> 0.784, MRR 0.647 -> 0.671). The fallback leaves out the query's most
    common words while the rarer ones already match about :data:`FALLBACK_ROWS` chunks (what a
    common word adds to BM25 is close to nothing, and ranking every chunk holding "the" is what
    would cost the time)."""
    from sqlalchemy import text as sql

    written = parse_query(text)
    if written.empty or k <= 0:
        return []
    dialect = connection.dialect.name
    stored = store_languages(connection)
    own = query_language(text, stored)  # read once: told_language and the lexicon per query word
    languages = languages_for(own, stored)
    stemmed = stem_query(written, languages)
    # SQLite's column holds stems; PostgreSQL stems the written words with each configuration
    query = stemmed if dialect == "sqlite" else written
    configs = sorted({pg_config(lang) for lang in languages})
    shown = Query(written.must + stemmed.must)  # what a snippet looks for: the words and their stems
    hits: list[SearchHit] = []
    first = _content(query, written, own or "en")
    for attempt in (first, None):
        if len(hits) >= k:
            break
        if attempt is None:  # the fallback
            if len(first.must) == 1:
                break  # one clause: "any of" is the same search
            attempt = _rarest(connection, first, configs)
        rendered = to_fts5(attempt) if dialect == "sqlite" else to_tsquery(attempt)
        params: dict[str, Any] = {"q": rendered, "k": k - len(hits)}
        if document is not None:
            params["document"] = glob_to_sqlite(document) if dialect == "sqlite" else glob_to_regex(document)
        if collection is not None:
            params["collection"] = collection
        for i, hit in enumerate(hits):
            params[f"x{i}"] = hit.chunk_id
        statement = _statement(
            dialect,
            all_versions=all_versions,
            document=document is not None,
            exclude=len(hits),
            collection=collection is not None,
        )
        if dialect == "sqlite":
            # FTS5 ranks its own top n (ORDER BY rank LIMIT keeps a heap of n), and only those are
            # joined and filtered; n grows when the filters (superseded versions, deleted documents,
            # --document, hits already taken) leave too few and FTS5 had more
            n = max(32, 4 * k)
            while True:
                keys = connection.connection.driver_connection.execute(_TOP_SQL, {"q": rendered, "n": n}).fetchall()
                if not keys:
                    rows = []
                    break
                ranked = ", ".join(f"({int(key)}, {float(score)!r})" for key, score in keys)
                rows = connection.execute(sql(f"WITH m(key, score) AS (VALUES {ranked}) {statement}"), params).all()
                if len(rows) >= k - len(hits) or len(keys) < n:
                    break
                n *= 8
        else:
            params["q"] = pg_tsquery(connection, rendered, configs)
            params["cap"] = max(PG_RANKED_ROWS, k)  # never fewer than the k asked for
            rows = connection.execute(sql(statement), params).all() if params["q"] is not None else []
        scale = 1.0
        if hits and rows and float(rows[0][1]) >= hits[-1].score:
            # chunks holding only some of the words rank below every chunk holding all of them
            scale = hits[-1].score / float(rows[0][1]) * 0.999 if float(rows[0][1]) > 0 else 1.0
        for row in rows:
            hits.append(
                SearchHit(
                    chunk_id=row[0],
                    score=float(row[1]) * scale,
                    document=row[2],
                    version=int(row[3]),
                    is_current=bool(row[4]),
                    page_start=row[5],
                    page_end=row[6],
                    raw_start=int(row[7]),
                    raw_end=int(row[8]),
                    snippet=snippet(row[9], shown),
                    text=row[9],
                    collection=row[10],
                )
            )
    return hits
