"""The slow, obviously correct twin of :mod:`citeline.text.offsets`: one source interval per character.

Property tests compare the compact map against this on random texts and edits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citeline.text.offsets import Edit, OffsetMap


@dataclass(frozen=True)
class CharMap:
    intervals: list[tuple[int, int]]  # per normalized character: its source [start, end)
    orig_start: int
    orig_end: int

    @classmethod
    def from_edits(cls, text: str, edits: Sequence[Edit]) -> CharMap:
        out: list[tuple[int, int]] = []
        pos = 0
        for ed in edits:
            out.extend((i, i + 1) for i in range(pos, ed.start))
            if len(ed.replacement) == 1 and ed.end - ed.start == 1:
                out.append((ed.start, ed.end))
            else:
                out.extend((ed.start, ed.end) for _ in ed.replacement)
            pos = ed.end
        out.extend((i, i + 1) for i in range(pos, len(text)))
        return cls(out, 0, len(text))

    @classmethod
    def from_map(cls, m: OffsetMap) -> CharMap:
        out: list[tuple[int, int]] = []
        for r in m.runs():
            for k in range(r.norm_end - r.norm_start):
                out.append((r.orig_start + k, r.orig_start + k + 1) if r.kind == 0 else (r.orig_start, r.orig_end))
        ext = m.original_extent
        return cls(out, ext.start, ext.end)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        if start == end:
            p = self.intervals[start][0] if start < len(self.intervals) else self.orig_end
            return p, p
        return self.intervals[start][0], self.intervals[end - 1][1]

    def to_normalized(self, start: int, end: int) -> tuple[int, int] | None:
        if start == end:
            q = sum(1 for _, e in self.intervals if e <= start)
            return q, q
        hits = [c for c, (a, b) in enumerate(self.intervals) if a < end and b > start]
        return (hits[0], hits[-1] + 1) if hits else None

    def then(self, other: CharMap) -> CharMap:
        return CharMap([self.to_original(a, b) for a, b in other.intervals], self.orig_start, self.orig_end)

    def slice(self, start: int, end: int) -> CharMap:
        iv = self.intervals[start:end]
        return CharMap(iv, iv[0][0], iv[-1][1])
