"""Checks every stored chunk must pass: its raw slice, passed through its stored map, is its text."""

from __future__ import annotations

from typing import Any

from citeline.ingest.clean.characters import LIGATURES
from citeline.ingest.offsets import OffsetMap

#: characters cleaning may drop by their kind alone (spaces, soft hyphens, invisibles, and a lone
#: unmapped glyph, U+FFFD, between spaces)
DELETABLE = set(" \t\r\n\f\v\u00a0\u00ad\u200b\u2060\ufeff\u2028\u2029\ufffd")


def check_chunk(raw: str, chunk: dict[str, Any], *, furniture: list[tuple[int, int]], joined_hyphens: set[int]) -> None:
    """``chunk`` has text, raw_start, raw_end and the stored map blob. Asserts that every output
    character comes from its mapped raw characters (copied, folded whitespace or an expanded
    ligature) and every raw character the map skips inside the span was removed for a recorded
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
            assert LIGATURES.get(src) == out or (src.isspace() and not out.strip()), (chunk["id"], src, out)
    for i in range(chunk["raw_start"], chunk["raw_end"]):
        if i in covered:
            continue
        ch = raw[i]
        ok = ch in DELETABLE or i in joined_hyphens or any(a <= i < b for a, b in furniture)
        assert ok, f"chunk {chunk['id']}: raw {ch!r} at {i} dropped without a recorded reason"
