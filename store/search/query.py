"""Queries: the index's terms of a text (folded, CJK pairs), the query language and its
rendering for FTS5 and ``tsquery``, stemming a query in the store's languages, and which of a
question's words are function words (see :mod:`citeline.store.search`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from citeline.store.stemming import stem_terms
from citeline.text.scripts import CJK_LETTERS

_WORD = re.compile(r"[^\W_]+")


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
    folded = fold_text(text)
    if not _CJK_RUN.search(folded):
        return _WORD.findall(folded)  # each word is one run: most texts, without a regex call per word
    out: list[str] = []
    for word in _WORD.findall(folded):
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


#: an apostrophe between two letters (ASCII, typographic, modifier letter)
_APOSTROPHE = re.compile(r"(?<=[^\W_])['\u2018\u2019\u02bc](?=[^\W_])")


def _tokens(text: str) -> Iterator[tuple[str | None, str | None]]:
    """The query's tokens ``(phrase, raw)``, a word joined by apostrophes cut into its pieces, its
    one-letter pieces left out: an elided article or pronoun (``l'opérateur``, ``d'un``), a
    possessive or a negation's letter (``Leon's``, ``isn't``) is not what the text is searched
    for, and the text may write the word without it ("les opérateurs", "Leon", "cats"). Written
    as one phrase, ``Leon's`` found only the chunks saying "Leon's". A negated word, or one whose
    every piece is a letter, stays whole."""
    for m in _TOKEN.finditer(text):
        phrase, raw = m.group(1), m.group(2)
        if raw is None or raw.startswith("-") or not _APOSTROPHE.search(raw):
            yield phrase, raw
            continue
        pieces = _APOSTROPHE.split(raw)
        kept = [p for p in pieces if len("".join(terms(p))) > 1]
        if not kept:
            yield phrase, raw
        for piece in kept:
            yield None, piece


def parse_query(text: str) -> Query:
    """The query language of the module docstring; never raises."""
    text = text[:MAX_QUERY_CHARS]
    if text.count('"') % 2:
        text = text.replace('"', " ")  # an unbalanced quote: plain words
    query = Query()
    pending_or = False
    negate = False
    for phrase, raw in _tokens(text):
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
            words = tuple(terms(phrase or ""))
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
#: "many" 5.9, "does" 5.7, "court" 5.4) is a function word: the search does not look for it when
#: the query has other words (questions as people ask them carry words the answer does not hold;
#: see :func:`~citeline.store.search.keyword.run_search`). Chosen from
#: wordfreq's scale by hand (question and function words at 5.9 and above, content words below) and
#: measured on both halves of the question benchmark: the evaluation half was not held out for it
COMMON_ZIPF = 5.9


def _content(query: Query, written: Query, language: str | None) -> Query:
    """``query`` without its clauses whose every written word is a function word of ``language``
    (:data:`COMMON_ZIPF`), when any clause is left: what the all-words search requires, and what
    its fallback looks for."""
    from citeline.text.lexicon import zipf

    frequency = zipf(language or "en")
    common = [all(frequency(w) >= COMMON_ZIPF for t in clause for w in t.words) for clause in written.must]
    kept = [clause for clause, c in zip(query.must, common, strict=True) if not c]
    return Query(kept, list(query.must_not)) if kept and len(kept) < len(query.must) else query


#: a query its function words do not tell (most questions as people ask them: a few words, at most
#: one function word) is read in the store's language whose lexicon knows its words best, when that
#: language's mean Zipf frequency of the query's words is ahead of every other's by this much
#: (1 on the Zipf scale: ten times as frequent); otherwise the query is read in every language.
LEXICON_MARGIN = 1.0

_LETTERS = re.compile(r"[^\W\d_]+")


def lexicon_language(text: str, languages: Sequence[str | None]) -> str | None:
    """The language of ``languages`` (each with a lexicon: :func:`citeline.text.lexicon.zipf`) whose
    lexicon knows the words of ``text`` best by :data:`LEXICON_MARGIN`, or ``None``."""
    from citeline.text.lexicon import NO_LEXICON, zipf

    words = _LETTERS.findall(text[:MAX_QUERY_CHARS].casefold())[:MAX_QUERY_WORDS]
    candidates = [lang for lang in languages if lang is not None and lang not in NO_LEXICON]
    if not words or not candidates:
        return None
    mean = {lang: sum(zipf(lang)(w) for w in words) / len(words) for lang in candidates}
    ranked = sorted(candidates, key=lambda lang: -mean[lang])
    if len(ranked) > 1 and mean[ranked[0]] - mean[ranked[1]] < LEXICON_MARGIN:
        return None
    return ranked[0] if mean[ranked[0]] > 0 else None


def query_language(text: str, languages: Sequence[str | None]) -> str | None:
    """The query's own language, when its function words tell it
    (:func:`~citeline.text.lexicon.told_language`) or else its words' lexicon does
    (:func:`lexicon_language`), and the store holds documents in it (``languages``); else ``None``."""
    from citeline.text.lexicon import told_language

    told = told_language(text)
    if told is None:
        told = lexicon_language(text, languages)
    return told if told is not None and told in languages else None


def query_languages(text: str, languages: list[str | None]) -> list[str | None]:
    """The languages to stem a query in: its own (:func:`query_language`) and the store's languages
    that have no stemmer; every language the store holds when the query's own is unknown. Read in
    the lexicon's language, on the question benchmark's tuning half: recall@5 0.855 -> 0.878 (first
    round), 0.770 -> 0.770 (held-out round)."""
    return languages_for(query_language(text, languages), languages)


def languages_for(own: str | None, languages: list[str | None]) -> list[str | None]:
    """:func:`query_languages` for a query whose own language is ``own`` (from
    :func:`query_language`, read once by a caller that needs it too)."""
    from citeline.store.stemming import SNOWBALL

    if own is None:
        return languages
    # the store's documents indexed without stemming (a language without a stemmer: Chinese's
    # words in Latin letters, a name, a code) are searched by the words as written, whatever the
    # query's language: "approuvé" in a Chinese document's French sentence
    return [own] + [lang for lang in languages if lang != own and lang not in SNOWBALL]
