"""What a search returns: :class:`SearchHit` with a snippet around the query's words, and the hits
of a vector or fused ranking (:func:`hits_by_id`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from citeline.store.search.query import Query, fold_text, parse_query, stem_query, store_languages


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A chunk a search found, ranked by ``score`` (higher is better; BM25 on SQLite, ``ts_rank``
    on PostgreSQL: comparable within one search, not across backends)."""

    chunk_id: str
    score: float
    document: str
    version: int
    is_current: bool
    page_start: int | None
    page_end: int | None
    raw_start: int
    raw_end: int
    snippet: str
    text: str
    collection: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "chunk_id": self.chunk_id,
            "score": round(self.score, 6),
            "document": self.document,
            "version": self.version,
            "is_current": self.is_current,
            "page_start": self.page_start,
            "page_end": self.page_end,
            "raw_start": self.raw_start,
            "raw_end": self.raw_end,
            "snippet": self.snippet,
            "text": self.text,
            "collection": self.collection,
        }


SNIPPET_CHARS = 160


def _occurrences(text: str, word: str) -> list[int]:
    out: list[int] = []
    at = text.find(word)
    while at >= 0 and len(out) < 64:
        out.append(at)
        at = text.find(word, at + len(word))
    return out


def snippet(text: str, query: Query, width: int = SNIPPET_CHARS) -> str:
    """About ``width`` characters of ``text`` where the most distinct query words occur close
    together, cut at word boundaries, with ``…`` where text was left out."""
    flat = " ".join(text.split())
    folded = fold_text(flat)
    wanted = {w for clause in query.must for t in clause for w in t.words}
    found = sorted((pos, w) for w in wanted for pos in _occurrences(folded, w))
    at, best = 0, 0
    for i, (pos, _) in enumerate(found):  # the window starting at each hit: how many words it holds
        held = len({w for p, w in found[i:] if p < pos + width * 2 // 3})
        if held > best:
            at, best = pos, held
    if len(folded) != len(flat):  # folding changed lengths (ß, ligatures): place by proportion
        at = round(at * len(flat) / max(len(folded), 1))
    start = max(0, at - width // 3)
    end = min(len(flat), start + width)
    if start > 0:
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < at else start
    if end < len(flat):
        space = flat.rfind(" ", at, end)
        end = space if space > at else end
    return ("…" if start > 0 else "") + flat[start:end] + ("…" if end < len(flat) else "")


_BY_ID = """
SELECT c.id, d.uri, v.version_no,
       CASE WHEN v.superseded_at IS NULL AND d.deleted_at IS NULL THEN 1 ELSE 0 END AS is_current,
       c.page_start, c.page_end, c.raw_start, c.raw_end, c.text
FROM chunks c JOIN document_versions v ON v.id = c.version_id JOIN documents d ON d.id = v.document_id
WHERE c.id IN ({ids})
"""


def hits_by_id(connection: Any, ranked: Sequence[tuple[str, float]], text: str) -> list[SearchHit]:
    """:class:`SearchHit` s for ``(chunk_id, score)`` pairs, in their order (a vector or fused
    ranking), with snippets around the words of the query ``text``."""
    from sqlalchemy import text as sql

    if not ranked:
        return []
    params = {f"i{n}": cid for n, (cid, _) in enumerate(ranked)}
    rows = {r[0]: r for r in connection.execute(sql(_BY_ID.format(ids=", ".join(f":{p}" for p in params))), params)}
    written = parse_query(text)
    shown = Query(written.must + stem_query(written, store_languages(connection)).must)
    out = []
    for cid, score in ranked:
        row = rows.get(cid)
        if row is None:
            continue
        out.append(
            SearchHit(
                chunk_id=cid,
                score=score,
                document=row[1],
                version=int(row[2]),
                is_current=bool(row[3]),
                page_start=row[4],
                page_end=row[5],
                raw_start=int(row[6]),
                raw_end=int(row[7]),
                snippet=snippet(row[8], shown),
                text=row[8],
            )
        )
    return out
