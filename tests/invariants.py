"""Checks every stored chunk must pass: its raw slice, passed through its stored map, is its text;
and the full-text index holds exactly the stored chunks."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from sqlalchemy import create_engine, text

from citeline.ingest.clean.characters import LIGATURES, SPACING_ACCENTS
from citeline.store.search import search_key, search_text
from citeline.store.stemming import pg_config
from citeline.text.offsets import OffsetMap

#: characters cleaning may drop by their kind alone (spaces, soft hyphens, invisibles, and a lone
#: unmapped glyph, U+FFFD, between spaces)
DELETABLE = set(" \t\r\n\f\v\u00a0\u00ad\u200b\u2060\ufeff\u2028\u2029\ufffd")


#: a soft hyphen and, where it ends a line, the blanks and line break after it (cleaning deletes both)
_SOFT_HYPHEN = re.compile("\u00ad(?:[ \t]*(?:\r\n|[\n\r\f]))?")


def composed_accent(src: str, out: str) -> bool:
    """``out`` is the letter ``src`` spells as TeX draws it: spacing accents, then the letter (with a
    soft hyphen and the line break it ends between them, which cleaning deleted); one code point or
    the letter and its combining marks."""
    src = _SOFT_HYPHEN.sub("", src)
    accents, letter = src[:-1], src[-1:]
    return (
        len(src) >= 2
        and set(accents) <= set(SPACING_ACCENTS)
        and unicodedata.normalize("NFD", out)
        == unicodedata.normalize("NFD", {"ı": "i"}.get(letter, letter) + "".join(SPACING_ACCENTS[a] for a in accents))
    )


def block_ok(src: str, out: str) -> bool:
    """A block run of a cleaning map: an expanded ligature, a composed accent, or (where an accent
    stands before a ligature, which composing after the expansion splits) a piece of the ligature's
    letters with the accent composed onto the first."""
    if LIGATURES.get(src) == out or composed_accent(src, out):
        return True
    if src in LIGATURES:  # the rest of a ligature whose first letter an accent went with
        return bool(out) and LIGATURES[src].endswith(out)
    if not (set(src) & set(LIGATURES) and set(src) & set(SPACING_ACCENTS)):
        return False
    letters = "".join(LIGATURES.get(c, c) for c in _SOFT_HYPHEN.sub("", src))
    k = next((i for i, c in enumerate(letters) if c not in SPACING_ACCENTS), len(letters))
    if k == len(letters):
        return False
    first = unicodedata.normalize("NFD", letters[k] + "".join(SPACING_ACCENTS[a] for a in letters[:k]))
    return unicodedata.normalize("NFD", out) in first + letters[k + 1 :]


def check_chunk(raw: str, chunk: dict[str, Any], *, furniture: list[tuple[int, int]], joined_hyphens: set[int]) -> None:
    """``chunk`` has text, raw_start, raw_end and the stored map blob. Asserts that every output
    character comes from its mapped raw characters (copied, folded whitespace, an expanded
    ligature or a composed accent) and every raw character the map skips inside the span was removed for a recorded
    reason (whitespace, soft hyphen, a joined line-end hyphen, a running header/footer)."""
    m = OffsetMap.from_bytes(chunk["offset_map"])
    text = chunk["text"]
    assert m.normalized_length == len(text)
    assert (m.original_extent.start, m.original_extent.end) == (chunk["raw_start"], chunk["raw_end"])
    covered = set()
    for r in m.runs():
        src, out = raw[r.orig_start : r.orig_end], text[r.norm_start : r.norm_end]
        covered.update(range(r.orig_start, r.orig_end))
        if r.kind == 0:
            for a, b in zip(src, out, strict=True):
                assert a == b or (a.isspace() and b in " \n"), (chunk["id"], a, b)
        else:
            assert block_ok(src, out) or (src.isspace() and not out.strip()), (chunk["id"], src, out)
    for i in range(chunk["raw_start"], chunk["raw_end"]):
        if i in covered:
            continue
        ch = raw[i]
        ok = ch in DELETABLE or i in joined_hyphens or any(a <= i < b for a, b in furniture)
        assert ok, f"chunk {chunk['id']}: raw {ch!r} at {i} dropped without a recorded reason"


def index_is_exact(url: str) -> int:
    """The full-text index holds exactly the stored chunks, each with its own text: every chunk
    has an index entry, no entry names a chunk that is not stored, and (PostgreSQL) each entry is
    what the chunk's text gives. Returns the number of chunks."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            chunks = conn.execute(
                text(
                    "SELECT c.id, c.version_id, c.ordinal, c.text, v.language "
                    "FROM chunks c JOIN document_versions v ON v.id = c.version_id"
                )
            ).all()
            if engine.dialect.name == "sqlite":
                indexed = {r[0] for r in conn.execute(text("SELECT rowid FROM chunk_search"))}
                assert indexed == {search_key(v, o) for _, v, o, _, _ in chunks}
            else:
                stored = dict(conn.execute(text("SELECT id, search::text FROM chunks")).all())
                for cid, _, _, body, lang in chunks:  # stemmed by the configuration of the version's language
                    want = conn.scalar(
                        text(f"SELECT to_tsvector('{pg_config(lang)}', :b)::text"), {"b": search_text(body)}
                    )
                    assert stored[cid] == want, cid
    finally:
        engine.dispose()
    return len(chunks)
