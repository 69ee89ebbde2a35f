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
language when its words tell it and the store holds it, otherwise in every language the store
holds (:func:`query_languages`); its function words are not required by the all-words search
(:func:`_content`).

Query syntax (:func:`parse_query`): words (all must occur; when fewer than ``k`` chunks hold all of
them, chunks holding some follow, ranked below them: see :func:`run_search`), ``"a phrase"``,
``prefix*``, ``OR`` between two terms, ``NOT term`` or ``-term``. Anything else (an unbalanced
quote, a lone ``OR``, punctuation) is read as plain words: a query is never a syntax error. Its
first :data:`MAX_QUERY_CHARS` characters and :data:`MAX_QUERY_WORDS` words are searched (a longer
phrase by its first words), so no query is an error or takes minutes either.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from citeline.store.stemming import pg_config, stem_terms
from citeline.text.scripts import CJK_LETTERS

#: how a search ranks: the stemmed full-text index, the embeddings, or both fused
SearchMode = Literal["keyword", "vector", "hybrid"]

_WORD = re.compile(r"[^\W_]+")
#: the fallback search ranks at most about this many chunks (see :func:`run_search`)
FALLBACK_ROWS = 2000


class _FoldTable(dict[int, str]):
    """The ``str.translate`` table of :func:`fold_text`, filled on first sight of each character."""

    def __missing__(self, code: int) -> str:
        decomposed = unicodedata.normalize("NFKD", chr(code).casefold())
        # recomposed after the marks are gone: a Hangul syllable (decomposed into jamo) comes back
        folded = unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))
        self[code] = folded
        return folded


_FOLD = _FoldTable()


def fold_text(text: str) -> str:
    """Case folded, compatibility-normalised, diacritics removed (``ß`` -> ``ss``, ``ﬁ`` -> ``fi``,
    ``é`` -> ``e``), character by character (a combining mark folds to nothing)."""
    return text.translate(_FOLD)


def terms(text: str) -> list[str]:
    """The index terms of ``text``, in order: folded words, CJK runs as overlapping pairs (Hangul
    is written with spaces and stays words)."""
    out: list[str] = []
    for word in _WORD.findall(fold_text(text)):
        for part in _SCRIPT_RUN.findall(word):
            if part[0] >= "\u3040" and _CJK_RUN.fullmatch(part):
                out.extend(part[i : i + 2] for i in range(max(1, len(part) - 1)))
            else:
                out.append(part)
    return out


#: a word split into runs of CJK letters and runs of anything else ("iphone手机" -> iphone, 手机)
_CJK_RUN = re.compile(f"[{CJK_LETTERS}]+")
_SCRIPT_RUN = re.compile(f"[{CJK_LETTERS}]+|[^{CJK_LETTERS}]+")


#: ordinals per version in the SQLite index key: a version holds fewer chunks than this by far
ORDINAL_BITS = 24


def search_key(version_id: int, ordinal: int) -> int:
    """The FTS5 rowid of a chunk: its unique key ``(version_id, ordinal)`` in one integer. Not the
    chunk's own rowid, which ``VACUUM`` or a dump and restore may renumber."""
    if not 0 <= ordinal < 1 << ORDINAL_BITS:
        raise ValueError(f"chunk ordinal {ordinal} is outside the search index's key range")
    return version_id << ORDINAL_BITS | ordinal


def search_text(text: str, language: str | None = None) -> str:
    """What the index holds for a chunk: its terms, space-separated, stemmed in ``language`` when
    given (SQLite's column; PostgreSQL stems with its own configuration and is given None)."""
    words = terms(text)
    return " ".join(stem_terms(words, language) if language else words)


def stem_query(query: Query, languages: Sequence[str | None]) -> Query:
    """The query with each term replaced by its stemmed forms in each of ``languages`` (one
    alternative per distinct form, joined by OR): what SQLite's stemmed column is searched with.
    The last word of a prefix term is kept as written (``licen*`` is a prefix of stems too)."""

    def forms(t: Term) -> list[Term]:
        out: dict[tuple[str, ...], None] = {}
        for lang in languages or [None]:
            stemmed = stem_terms(t.words[:-1] if t.prefix else t.words, lang)
            out[tuple(stemmed) + ((t.words[-1],) if t.prefix else ())] = None
        return [Term(words, t.prefix) for words in out]

    return Query(
        [[f for t in clause for f in forms(t)] for clause in query.must],
        [f for t in query.must_not for f in forms(t)],
    )


# ----------------------------------------------------------------------------- query language


@dataclass(frozen=True, slots=True)
class Term:
    """One searchable unit: a phrase of index terms (a word is a phrase of one), maybe a prefix."""

    words: tuple[str, ...]
    prefix: bool = False


@dataclass(slots=True)
class Query:
    """Clauses that must all hold (each: one term or several joined by OR), and terms that must not."""

    must: list[list[Term]] = field(default_factory=list)
    must_not: list[Term] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.must

    def any_of(self) -> Query:
        """The same terms, any of them enough."""
        return Query([[t for clause in self.must for t in clause]], list(self.must_not))


_TOKEN = re.compile(r'"([^"]*)"|(\S+)')
#: Characters of a query read: a pasted paragraph is a few thousand; a 1 MB query took 249 s on
#: SQLite before this bound.
MAX_QUERY_CHARS = 20_000
#: Words a query searches for, phrases included: a 15,000-word phrase exceeded PostgreSQL's stack
#: depth (``<->`` nests); a phrase past the bound is searched by its first words, which every chunk
#: holding the whole phrase holds too.
MAX_QUERY_WORDS = 256

#: a run of CJK letters longer than this, unquoted, is a clause or a sentence, not one word
CJK_WORD_CHARS = 4


def _sentence_run(raw: str) -> bool:
    return any(len(run) > CJK_WORD_CHARS for run in _CJK_RUN.findall(raw))


def parse_query(text: str) -> Query:
    """The query language of the module docstring; never raises."""
    text = text[:MAX_QUERY_CHARS]
    if text.count('"') % 2:
        text = text.replace('"', " ")  # an unbalanced quote: plain words
    query = Query()
    pending_or = False
    negate = False
    for m in _TOKEN.finditer(text):
        phrase, raw = m.group(1), m.group(2)
        if raw is not None and raw == "OR":
            pending_or = bool(query.must)
            continue
        if raw is not None and raw == "NOT":
            negate = True
            continue
        prefix = False
        if raw is not None:
            if raw.startswith("-") and len(raw) > 1:
                negate, raw = True, raw[1:]
            if raw.endswith("*") and len(raw.rstrip("*")) > 0:
                prefix, raw = True, raw.rstrip("*")
            words = tuple(terms(raw))
        else:
            words = tuple(terms(phrase))
        if not words:
            continue
        budget = MAX_QUERY_WORDS - sum(len(t.words) for c in query.must for t in c) - len(query.must_not)
        if budget <= 0:
            break
        if len(words) > budget:
            words, prefix = words[:budget], False
        if prefix and len(words[-1]) < 2:
            prefix = False  # "a*" would match half the index
        term = Term(words, prefix)
        if raw is not None and not negate and not pending_or and not prefix and _sentence_run(raw):
            # a question in Chinese or Japanese, written without spaces: its character pairs are
            # its words (as a phrase, the whole sentence would have to occur as written)
            query.must.extend([Term((w,))] for w in dict.fromkeys(words))
            continue
        if negate:
            query.must_not.append(term)
            negate = False
        elif pending_or and query.must:
            query.must[-1].append(term)
        else:
            query.must.append([term])
        pending_or = False
    return query


def to_fts5(query: Query) -> str:
    """The query in FTS5's syntax. Every term is quoted (terms are letters and digits only), so no
    user text is ever FTS5 syntax."""

    def term(t: Term) -> str:
        quoted = '"' + " ".join(t.words) + '"'
        return quoted + ("*" if t.prefix else "")

    must = " AND ".join("(" + " OR ".join(term(t) for t in clause) + ")" for clause in query.must)
    if query.must_not:
        must += " NOT (" + " OR ".join(term(t) for t in query.must_not) + ")"
    return must


def to_tsquery(query: Query) -> str:
    """The query as a PostgreSQL ``tsquery`` (for ``to_tsquery('simple', ...)``)."""

    def lexeme(word: str, prefix: bool = False) -> str:
        return "'" + word.replace("'", "''") + "'" + (":*" if prefix else "")

    def term(t: Term) -> str:
        parts = [lexeme(w, t.prefix and k == len(t.words) - 1) for k, w in enumerate(t.words)]
        return "(" + " <-> ".join(parts) + ")"

    clauses = ["(" + " | ".join(term(t) for t in clause) + ")" for clause in query.must]
    clauses += ["!" + term(t) for t in query.must_not]
    return " & ".join(clauses)


# ----------------------------------------------------------------------------- hits


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


# ----------------------------------------------------------------------------- running a search

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


def store_languages(connection: Any) -> list[str | None]:
    """The languages of the store's document versions (``None`` for a version of none known)."""
    from sqlalchemy import text as sql

    # cached by the newest version's id: a version's language never changes, and every version
    # that could bring a new one raises it (a scan of the versions' rows costs milliseconds)
    newest = connection.execute(sql("SELECT max(id) FROM document_versions")).scalar()
    key = (str(connection.engine.url), int(newest or 0))
    cached = _LANGUAGES.get(key)
    if cached is None:
        rows = connection.execute(sql("SELECT DISTINCT language FROM document_versions")).all()
        cached = sorted((r[0] for r in rows), key=lambda lang: lang or "")
        if len(_LANGUAGES) > 16:
            _LANGUAGES.clear()
        _LANGUAGES[key] = cached
    return list(cached)


#: the languages of a store, by database and newest version id
_LANGUAGES: dict[tuple[str, int], list[str | None]] = {}


#: a query word at least this frequent in the query's language (wordfreq's Zipf scale: "what" 6.4,
#: "many" 5.9, "does" 5.7, "court" 5.4) is a function word: the first, all-words search does not
#: require it (questions as people ask them carry words the answer does not hold). Chosen from
#: wordfreq's scale by hand (question and function words at 5.9 and above, content words below) and
#: measured on both halves of the question benchmark: the evaluation half was not held out for it
COMMON_ZIPF = 5.9


def _content(query: Query, written: Query, language: str | None) -> Query:
    """``query`` without its clauses whose every written word is a function word of ``language``
    (:data:`COMMON_ZIPF`), when any clause is left: what the all-words search requires."""
    from citeline.text.lexicon import zipf

    frequency = zipf(language or "en")
    common = [all(frequency(w) >= COMMON_ZIPF for t in clause for w in t.words) for clause in written.must]
    kept = [clause for clause, c in zip(query.must, common, strict=True) if not c]
    return Query(kept, list(query.must_not)) if kept and len(kept) < len(query.must) else query


def query_languages(text: str, languages: list[str | None]) -> list[str | None]:
    """The languages to stem a query in: its own, when its words tell it and the store holds
    documents in it; otherwise every language the store holds."""
    from citeline.text.lexicon import told_language

    told = told_language(text)
    return [told] if told is not None and told in languages else languages


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
        return _PG_SELECT.format(
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


#: PostgreSQL ranks at most this many of a query's matching chunks (see :data:`_PG_SELECT`): the
#: same bound as the fallback's, so a query is ranked over about as many chunks either way.
#: ``ts_rank`` costs about 10 microseconds a chunk at 100,000 chunks (5,512 matches ranked in 54 ms)
PG_RANKED_ROWS = FALLBACK_ROWS

#: PostgreSQL's top n: the matches (the GIN index's bitmap; versions and filters joined) are cut at
#: ``:cap`` rows before ``ts_rank`` reads a single tsvector, so a query whose words are in 25,000
#: chunks ranks ``:cap`` of them, not all (1 to 4 s before). Under the cap every match is ranked:
#: the ranking is exact; past it, it is the best of the first ``:cap`` in the index's order.
#: ``ts_rank`` without length normalisation: chunks are of bounded length already, and dividing by
#: the log of it ranked worse on the question benchmark's tuning half (recall@5 0.843 against
#: 0.855 at 2,559 chunks, 0.599 against 0.680 at 100,000; ``ts_rank_cd`` 0.709 and 0.616)
_PG_SELECT = """
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


_TOP_SQL = "SELECT rowid, -rank FROM chunk_search WHERE chunk_search MATCH :q ORDER BY rank LIMIT :n"


#: document frequencies by database and index state (its highest key, which every write raises:
#: entries are only ever added), then by the configurations a word is read in (PostgreSQL) and
#: the word, so a long-lived process looks each word up once
_DF_CACHE: dict[tuple[str, int], dict[tuple[tuple[str, ...], str], int]] = {}


def _frequencies(connection: Any, words: list[str], configs: Sequence[str] = ()) -> dict[str, int]:
    """How many chunks (of any version) hold each word, cached while the index is unchanged: on
    SQLite from ``chunk_search_vocab``; on PostgreSQL counted over the GIN index up to
    ``FALLBACK_ROWS + 1`` (a word in more chunks is never joined to another by :func:`_rarest`, so
    its exact count would decide nothing; counting "pdf" in 25,865 of 100,000 chunks took 0.5 s)."""
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
        lexemes = ["'" + w.replace("'", "''") + "'" for w in todo]
        readings = dict(zip(todo, pg_tsqueries(connection, lexemes, configs), strict=True))
        common = _pg_common(connection, key)
        counted = []
        for w in todo:
            reading = readings[w]
            if reading is None:
                cache[w] = 0  # only stop words in every configuration: no chunk holds it
            elif any(common.get(lexeme, 0) > 2 * FALLBACK_ROWS for lexeme in _LEXEME.findall(reading)):
                cache[w] = FALLBACK_ROWS + 1  # far past the bound by the planner's statistics: not counted
            else:
                counted.append(w)
        if counted:
            branches = " UNION ALL ".join(
                f"SELECT {i}, count(*) FROM (SELECT 1 FROM chunks WHERE search @@ CAST(:q{i} AS tsquery) "
                f"LIMIT :cap) s{i}"
                for i in range(len(counted))
            )
            params: dict[str, Any] = {f"q{i}": readings[w] for i, w in enumerate(counted)}
            params["cap"] = FALLBACK_ROWS + 1
            for i, n in connection.execute(sql(branches), params):
                cache[counted[int(i)]] = int(n)
    return {w: cache[w] for w in words}


class _Read:
    """The entries of :data:`_DF_CACHE` of one reading (the configurations), by word."""

    def __init__(self, entries: dict[tuple[tuple[str, ...], str], int], read_in: tuple[str, ...]) -> None:
        self.entries, self.read_in = entries, read_in

    def __getitem__(self, word: str) -> int:
        return self.entries[self.read_in, word]

    def __setitem__(self, word: str, n: int) -> None:
        self.entries[self.read_in, word] = n


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


def _glob_parts(pattern: str) -> list[tuple[str, str]]:
    """A shell glob as ``(kind, text)`` parts: ``any`` (``*``), ``one`` (``?``), ``class`` (the
    inside of ``[...]``, ``!`` or ``^`` first for "not"), ``char``; a ``[`` without its ``]`` is a
    character."""
    parts: list[tuple[str, str]] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "^") else i + 1)
            if pattern[i + 1 : i + 2] in ("!", "^") and pattern[i + 2 : i + 3] == "]":
                end = pattern.find("]", i + 3)
            elif pattern[i + 1 : i + 2] == "]":
                end = pattern.find("]", i + 2)
            if end > i:
                parts.append(("class", pattern[i + 1 : end]))
                i = end + 1
                continue
        parts.append(("any", "") if ch == "*" else ("one", "") if ch == "?" else ("char", ch))
        i += 1
    return parts


def glob_to_sqlite(pattern: str) -> str:
    """A shell glob in SQLite's ``GLOB`` syntax, whose "not" in a class is ``^`` (``[!a-z]`` is a
    class of ``!`` and a to z there)."""
    out = []
    for kind, text in _glob_parts(pattern):
        if kind == "class":
            out.append("[" + ("^" + text[1:] if text[:1] in ("!", "^") else text) + "]")
        elif kind == "char" and text in "*?[":
            out.append("[" + text + "]")
        else:
            out.append({"any": "*", "one": "?"}.get(kind, text))
    return "".join(out)


def glob_to_regex(pattern: str) -> str:
    """A shell glob as an anchored PostgreSQL regular expression (``~``): the same matches as
    :func:`glob_to_sqlite` gives SQLite's ``GLOB``."""
    out = ["^"]
    for kind, text in _glob_parts(pattern):
        if kind == "any":
            out.append(".*")
        elif kind == "one":
            out.append(".")
        elif kind == "class":
            negated = text[:1] in ("!", "^")
            body = "".join("\\" + c if c in "\\[" else c for c in (text[1:] if negated else text))
            out.append("[" + ("^" if negated else "") + body + "]")
        else:
            out.append(text if text.isalnum() else "\\" + text)
    return "".join(out) + "$"


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
    first. The fallback leaves out the query's most common words while the rarer ones already
    match about :data:`FALLBACK_ROWS` chunks (what a common word adds to BM25 is close to
    nothing, and ranking every chunk holding "the" is what would cost the time)."""
    from sqlalchemy import text as sql

    written = parse_query(text)
    if written.empty or k <= 0:
        return []
    dialect = connection.dialect.name
    languages = query_languages(text, store_languages(connection))
    stemmed = stem_query(written, languages)
    # SQLite's column holds stems; PostgreSQL stems the written words with each configuration
    query = stemmed if dialect == "sqlite" else written
    configs = sorted({pg_config(lang) for lang in languages})
    shown = Query(written.must + stemmed.must)  # what a snippet looks for: the words and their stems
    hits: list[SearchHit] = []
    first = _content(query, written, languages[0] if len(languages) == 1 else "en")
    for attempt in (first, None):
        if len(hits) >= k:
            break
        if attempt is None:  # the fallback
            if len(query.must) == 1:
                break  # one clause: "any of" is the same search
            attempt = _rarest(connection, query, configs)
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
            params["cap"] = PG_RANKED_ROWS
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


# ----------------------------------------------------------------------------- the change feed


@dataclass(frozen=True, slots=True)
class Change:
    """A chunk that became current (``added``) or stopped being current (``retired``: its version
    was superseded or its document deleted) since a point in time."""

    change: str  # "added", "retired" (or "needs_embedding": citeline changes --needs-embedding)
    chunk_id: str
    document: str
    version: int
    at: Any  # datetime (UTC)
    collection: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "change": self.change,
            "chunk_id": self.chunk_id,
            "document": self.document,
            "version": self.version,
            "at": self.at.isoformat() if self.at is not None else None,
            "collection": self.collection,
        }


_ADDED = """
SELECT c.id, d.uri, v.version_no, v.current_since, d.collection
FROM chunks c JOIN document_versions v ON v.id = c.version_id JOIN documents d ON d.id = v.document_id
WHERE v.superseded_at IS NULL AND d.deleted_at IS NULL AND v.current_since > :since {collection}
ORDER BY v.current_since, c.version_id, c.ordinal
"""
_RETIRED = """
SELECT c.id, d.uri, v.version_no,
       CASE WHEN v.superseded_at IS NOT NULL AND v.superseded_at > :since THEN v.superseded_at
            ELSE d.deleted_at END AS at, d.collection
FROM chunks c JOIN document_versions v ON v.id = c.version_id JOIN documents d ON d.id = v.document_id
WHERE (v.current_since IS NULL OR v.current_since <= :since) {collection}
  AND ((v.superseded_at IS NOT NULL AND v.superseded_at > :since)
       OR (v.superseded_at IS NULL AND d.deleted_at IS NOT NULL AND d.deleted_at > :since))
ORDER BY at, c.version_id, c.ordinal
"""


def changes_since(connection: Any, since: Any, *, collection: str | None = None) -> list[Change]:
    """:class:`Change` s after ``since`` (a UTC datetime): added first, then retired, in time
    order; of the documents of ``collection`` only, when given."""
    from datetime import UTC, datetime

    from sqlalchemy import text as sql

    from citeline.store.models import UTCDateTime

    def utc(value: Any) -> Any:
        if isinstance(value, str):  # SQLite hands raw statements back text
            value = datetime.fromisoformat(value)
        return value if value is None or value.tzinfo is not None else value.replace(tzinfo=UTC)

    at = UTCDateTime().process_bind_param(since, connection.dialect)
    where = "AND d.collection = :collection" if collection is not None else ""
    params = {"since": at, "collection": collection} if collection is not None else {"since": at}
    added = [
        Change("added", r[0], r[1], r[2], utc(r[3]), r[4])
        for r in connection.execute(sql(_ADDED.format(collection=where)), params)
    ]
    retired = [
        Change("retired", r[0], r[1], r[2], utc(r[3]), r[4])
        for r in connection.execute(sql(_RETIRED.format(collection=where)), params)
    ]
    return added + retired
