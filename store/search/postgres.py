"""PostgreSQL's side of keyword search: the query read with each text search configuration once
(:func:`pg_tsquery`), the top-n statement that ranks a bounded number of matches
(:data:`PG_SELECT`), and document frequencies counted no further than the fallback needs
(:func:`pg_frequencies`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any


def pg_tsquery(connection: Any, rendered: str, configs: Sequence[str]) -> str | None:
    """The tsquery ``rendered`` (:func:`to_tsquery`'s text) read with each text search configuration
    of ``configs`` (a closed set of names: :data:`citeline.store.stemming.PG_CONFIGS`), any of them
    enough, as one tsquery's text with each distinct reading once (None when every reading is
    empty: only stop words). Written ``to_tsquery('english', :q) || to_tsquery('french', :q) ||
    ...`` instead, the readings most configurations agree on repeat, the planner counts each
    repeat as more matching rows, and at 100,000 chunks it chose a sequential scan (540 ms where
    the GIN index takes 2). Ranking is unchanged: ``ts_rank`` reads a query's distinct lexemes."""
    return pg_tsqueries(connection, [rendered], configs)[0]


def pg_tsqueries(connection: Any, rendered: Sequence[str], configs: Sequence[str]) -> list[str | None]:
    """:func:`pg_tsquery` of each of ``rendered``, in one round trip."""
    from sqlalchemy import text as sql

    rows = connection.execute(
        sql(
            "SELECT DISTINCT t.i, CAST(to_tsquery(CAST(cfg AS regconfig), t.q) AS text) "
            "FROM unnest(CAST(:qs AS text[])) WITH ORDINALITY AS t(q, i), unnest(CAST(:configs AS text[])) AS cfg"
        ),
        {"qs": list(rendered), "configs": list(configs or ["simple"])},
    )
    readings: list[list[str]] = [[] for _ in rendered]
    for i, reading in rows:
        if reading:
            readings[int(i) - 1].append(reading)
    return [None if not r else r[0] if len(r) == 1 else " | ".join(f"( {x} )" for x in sorted(r)) for r in readings]


#: PostgreSQL's top n: the matches (the GIN index's bitmap; versions and filters joined) are cut at
#: ``:cap`` rows before ``ts_rank`` reads a single tsvector, so a query whose words are in 25,000
#: chunks ranks ``:cap`` of them, not all (1 to 4 s before). Under the cap every match is ranked:
#: the ranking is exact; past it, it is the best of the first ``:cap`` in the index's order.
#: ``ts_rank`` without length normalisation: chunks are of bounded length already, and dividing by
#: the log of it ranked worse on the question benchmark's tuning half (recall@5 0.843 against
#: 0.855 at 2,559 chunks, 0.599 against 0.680 at 100,000; ``ts_rank_cd`` 0.709 and 0.616)
PG_SELECT = """
SELECT id, ts_rank(search, CAST(:q AS tsquery)) AS score, uri, version_no, is_current,
       page_start, page_end, raw_start, raw_end, text, collection
FROM (
    SELECT c.id, c.search, d.uri, v.version_no,
           CASE WHEN v.superseded_at IS NULL AND d.deleted_at IS NULL THEN 1 ELSE 0 END AS is_current,
           c.page_start, c.page_end, c.raw_start, c.raw_end, c.text, d.collection
    FROM chunks c
    JOIN document_versions v ON v.id = c.version_id
    JOIN documents d ON d.id = v.document_id
    WHERE c.search @@ CAST(:q AS tsquery) {current} {document} {collection} {exclude}
    LIMIT :cap
) m
ORDER BY score DESC, id
LIMIT :k
"""


_LEXEME = re.compile(r"'((?:[^']|'')*)'")
#: the planner's most common lexemes of ``chunks.search`` and how many chunks hold each, by
#: database and index state
_PG_COMMON: dict[tuple[str, int], dict[str, float]] = {}


def _pg_common(connection: Any, key: tuple[str, int]) -> dict[str, float]:
    """The lexemes ``ANALYZE`` found most common in ``chunks.search`` (``pg_stats``'s
    ``most_common_elems``, at least the 1,000 most frequent at the default statistics target) and
    about how many chunks hold each: a word read as one of them far past the fallback's bound need
    not be counted (bounded counts of such words were 40 ms of a query at 100,000 chunks). Empty
    before the first ``ANALYZE`` (autovacuum's): every word is then counted."""
    from sqlalchemy import text as sql

    found = _PG_COMMON.get(key)
    if found is None:
        row = connection.execute(
            sql(
                "SELECT CAST(CAST(s.most_common_elems AS text) AS text[]), s.most_common_elem_freqs, c.reltuples "
                "FROM pg_stats s JOIN pg_class c ON c.oid = CAST('chunks' AS regclass) "
                "WHERE s.schemaname = current_schema() AND s.tablename = 'chunks' AND s.attname = 'search'"
            )
        ).first()
        found = {}
        if row is not None and row[0] and row[1] and row[2] and row[2] > 0:
            found = {lexeme: float(f) * float(row[2]) for lexeme, f in zip(row[0], row[1], strict=False)}
        _PG_COMMON.clear()
        _PG_COMMON[key] = found
    return found


def pg_frequencies(
    connection: Any, words: Sequence[str], configs: Sequence[str], key: tuple[str, int], bound: int
) -> dict[str, int]:
    """How many chunks (of any version) hold each of ``words`` read in ``configs``, counted over the
    GIN index up to ``bound + 1`` (a word in more chunks is never joined to another by the
    fallback, so its exact count would decide nothing; counting "pdf" in 25,865 of 100,000 chunks
    took 0.5 s); a word the planner's statistics put far past ``bound`` is not counted
    (:func:`_pg_common`). ``key``: the index state (database, newest version id)."""
    from sqlalchemy import text as sql

    lexemes = ["'" + w.replace("'", "''") + "'" for w in words]
    readings = dict(zip(words, pg_tsqueries(connection, lexemes, configs), strict=True))
    common = _pg_common(connection, key)
    out: dict[str, int] = {}
    counted = []
    for w in words:
        reading = readings[w]
        if reading is None:
            out[w] = 0  # only stop words in every configuration: no chunk holds it
        elif any(common.get(lexeme, 0) > 2 * bound for lexeme in _LEXEME.findall(reading)):
            out[w] = bound + 1  # far past the bound by the planner's statistics: not counted
        else:
            counted.append(w)
    if counted:
        branches = " UNION ALL ".join(
            f"SELECT {i}, count(*) FROM (SELECT 1 FROM chunks WHERE search @@ CAST(:q{i} AS tsquery) LIMIT :cap) s{i}"
            for i in range(len(counted))
        )
        params: dict[str, Any] = {f"q{i}": readings[w] for i, w in enumerate(counted)}
        params["cap"] = bound + 1
        for i, n in connection.execute(sql(branches), params):
            out[counted[int(i)]] = int(n)
    return out
