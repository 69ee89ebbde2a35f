"""Offset maps between an original string and a normalized string.

Units and conventions (used everywhere in citeline):

* offsets are Python ``str`` indices, i.e. Unicode code points, never bytes or UTF-16 units;
* spans are half-open ``[start, end)``;
* the side of a span is in its type: :class:`Original` indexes the map's input text,
  :class:`Normalized` indexes its output text, so no bare integer pair is ambiguous.

Model. Every normalized character ``c`` has a non-empty *source interval* ``I(c)``: the original
characters it was made from. The starts and the ends of these intervals never decrease. Original
characters that lie in no interval were deleted. The map stores the intervals as runs:

* an *aligned* run maps normalized ``[n0, n1)`` one to one onto original ``[a0, a0 + n1 - n0)``
  (copied characters, and 1:1 substitutions such as NBSP -> space);
* a *block* run maps every character of normalized ``[n0, n1)`` to the whole original interval
  ``[a0, a1)`` (a ligature ``"ﬁ" -> "fi"``, or ``"\\f" -> "\\n\\n"``).

A normalized span ``[s, e)`` maps to ``[I(s).start, I(e - 1).end)``: the tightest original span
holding every source character (deletions inside are included, deletions at the edges are not).
An empty span ``[p, p)`` maps to the empty span at the start of ``I(p)`` (or at the end of the
covered original text when ``p`` is the normalized length). With these rules composition is exact:
``f.then(g).to_original(x) == f.to_original(g.to_original(x))`` for every span ``x``.

Storage is three integer arrays plus one byte per run, so a 300-page document costs kilobytes,
not a Python tuple per character.
"""

from __future__ import annotations

import struct
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from citeline.text.errors import EditError, MapError, SpanError

ALIGNED = 0
BLOCK = 1

_MAGIC = b"CLM1"


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open range ``[start, end)`` of code point offsets."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if self.start < 0:
            raise SpanError(f"Span [{self.start}, {self.end}) starts before 0")
        if self.end < self.start:
            raise SpanError(f"Span [{self.start}, {self.end}) is reversed")

    def __len__(self) -> int:
        return self.end - self.start

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.start}, {self.end})"


@dataclass(frozen=True, slots=True, repr=False)
class Original(Span):
    """A span of the original (input) text of a map."""


@dataclass(frozen=True, slots=True, repr=False)
class Normalized(Span):
    """A span of the normalized (output) text of a map."""


class Run(NamedTuple):
    """One run of a map, as returned by :meth:`OffsetMap.runs`."""

    norm_start: int
    norm_end: int
    orig_start: int
    orig_end: int
    kind: int  # ALIGNED or BLOCK


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``text[start:end]`` by ``replacement``.

    ``replacement == ""`` deletes. A replacement of one character by one character stays aligned
    (it keeps per-character positions); any other replacement becomes a block. Pure insertions
    (``start == end``) are rejected: every output character needs a source character, so to insert
    text replace a neighbouring character instead (``"\\n" -> "\\n\\n"``).
    """

    start: int
    end: int
    replacement: str


class OffsetMap:
    """Immutable alignment between an original string and a normalized string.

    The original side may start anywhere (a map sliced out of a document keeps absolute original
    offsets); the normalized side always starts at 0.
    """

    __slots__ = ("_a0", "_a1", "_kind", "_nb", "_orig_end", "_orig_start")

    def __init__(
        self,
        runs: Iterable[tuple[int, int, int, int, int]],
        *,
        orig_start: int,
        orig_end: int,
    ) -> None:
        nb = array("q", [0])
        a0 = array("q")
        a1 = array("q")
        kind = bytearray()
        for n_start, n_end, o_start, o_end, k in runs:
            if n_start != nb[-1]:
                raise MapError(f"Run [{n_start}, {n_end}) does not start where the previous ended ({nb[-1]})")
            if n_end <= n_start:
                raise MapError(f"Run [{n_start}, {n_end}) is empty or reversed")
            if o_end <= o_start:
                raise MapError(f"Run [{n_start}, {n_end}) has an empty or reversed source [{o_start}, {o_end})")
            if k == ALIGNED and o_end - o_start != n_end - n_start:
                raise MapError(f"Aligned run [{n_start}, {n_end}) has source [{o_start}, {o_end}) of another length")
            if k not in (ALIGNED, BLOCK):
                raise MapError(f"Run kind {k!r} is neither ALIGNED nor BLOCK")
            if a0 and (o_start < a0[-1] or o_end < a1[-1]):
                raise MapError(f"Run [{n_start}, {n_end}) goes backwards in the original text")
            # canonical form: merge contiguous aligned runs and repeated identical blocks
            if kind and k == kind[-1]:
                if k == ALIGNED and o_start == a1[-1]:
                    nb[-1] = n_end
                    a1[-1] = o_end
                    continue
                if k == BLOCK and o_start == a0[-1] and o_end == a1[-1]:
                    nb[-1] = n_end
                    continue
            nb.append(n_end)
            a0.append(o_start)
            a1.append(o_end)
            kind.append(k)
        if orig_end < orig_start or orig_start < 0:
            raise MapError(f"Original extent [{orig_start}, {orig_end}) is invalid")
        if a0 and (a0[0] < orig_start or a1[-1] > orig_end):
            raise MapError(f"Runs reach outside the original extent [{orig_start}, {orig_end})")
        self._nb = nb
        self._a0 = a0
        self._a1 = a1
        self._kind = bytes(kind)
        self._orig_start = orig_start
        self._orig_end = orig_end

    # ------------------------------------------------------------------ construction

    @classmethod
    def identity(cls, length: int, *, orig_start: int = 0) -> OffsetMap:
        """The map of a text to itself (``length`` code points)."""
        runs = [(0, length, orig_start, orig_start + length, ALIGNED)] if length else []
        return cls(runs, orig_start=orig_start, orig_end=orig_start + length)

    # ------------------------------------------------------------------ sizes

    @property
    def normalized_length(self) -> int:
        return self._nb[-1]

    @property
    def original_extent(self) -> Original:
        """The original span this map covers (``[0, len(input))`` for a whole-text map)."""
        return Original(self._orig_start, self._orig_end)

    def __len__(self) -> int:
        return len(self._kind)

    def runs(self) -> Iterator[Run]:
        nb, a0, a1, kind = self._nb, self._a0, self._a1, self._kind
        for j in range(len(kind)):
            yield Run(nb[j], nb[j + 1], a0[j], a1[j], kind[j])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OffsetMap):
            return NotImplemented
        return (
            self._nb == other._nb
            and self._a0 == other._a0
            and self._a1 == other._a1
            and self._kind == other._kind
            and self._orig_start == other._orig_start
            and self._orig_end == other._orig_end
        )

    def __reduce__(self) -> tuple[object, tuple[bytes]]:
        # pickled as its compact blob (maps travel to and from worker processes)
        return (OffsetMap.from_bytes, (self.to_bytes(),))

    def __hash__(self) -> int:
        return hash((bytes(self._nb), bytes(self._a0), self._kind, self._orig_start, self._orig_end))

    def __repr__(self) -> str:
        return (
            f"<OffsetMap normalized={self.normalized_length} "
            f"original=[{self._orig_start}, {self._orig_end}) runs={len(self)}>"
        )

    def nbytes(self) -> int:
        """Bytes held by the arrays (what a map costs in memory, Python object overhead aside)."""
        return (
            self._nb.itemsize * len(self._nb)
            + self._a0.itemsize * len(self._a0)
            + self._a1.itemsize * len(self._a1)
            + len(self._kind)
        )

    # ------------------------------------------------------------------ normalized -> original

    def _run_of_char(self, c: int) -> int:
        return bisect_right(self._nb, c) - 1

    def _source_start(self, c: int) -> int:
        j = self._run_of_char(c)
        if self._kind[j] == ALIGNED:
            return self._a0[j] + (c - self._nb[j])
        return self._a0[j]

    def _source_end(self, c: int) -> int:
        j = self._run_of_char(c)
        if self._kind[j] == ALIGNED:
            return self._a0[j] + (c - self._nb[j]) + 1
        return self._a1[j]

    def source_of(self, char: int) -> Original:
        """The source interval of one normalized character."""
        if not 0 <= char < self.normalized_length:
            raise SpanError(f"Character {char} is outside the normalized text [0, {self.normalized_length})")
        return Original(self._source_start(char), self._source_end(char))

    def _check_normalized(self, span: Normalized) -> None:
        if not isinstance(span, Normalized):
            raise TypeError(f"expected a Normalized span, got {span!r}")
        if span.end > self.normalized_length:
            raise SpanError(f"{span!r} ends after the normalized text [0, {self.normalized_length})")

    def to_original(self, span: Normalized) -> Original:
        """The original span a normalized span came from (tight: edge deletions excluded)."""
        self._check_normalized(span)
        if span.start == span.end:
            p = self.to_original_offset(span.start, side="start")
            return Original(p, p)
        return Original(self._source_start(span.start), self._source_end(span.end - 1))

    def to_original_offset(self, offset: int, *, side: Literal["start", "end"] = "start") -> int:
        """Map a normalized boundary to an original boundary.

        ``side="start"`` reads the offset as the start of a span: the start of the source of the
        character at ``offset`` (the original end for ``offset == normalized_length``).
        ``side="end"`` reads it as the end of a span: the end of the source of the character
        before ``offset`` (the original start for ``offset == 0``). So ``to_original_offset(0,
        side="end")`` is the original start and ``to_original_offset(n, side="start")`` the
        original end, whatever was deleted at the edges.
        """
        n = self.normalized_length
        if not 0 <= offset <= n:
            raise SpanError(f"Offset {offset} is outside the normalized text [0, {n}]")
        if side == "start":
            return self._orig_end if offset == n else self._source_start(offset)
        if side == "end":
            return self._orig_start if offset == 0 else self._source_end(offset - 1)
        raise ValueError(f"side must be 'start' or 'end', not {side!r}")

    def source_spans(self, span: Normalized) -> list[Original]:
        """The original characters a normalized span was actually made from, as merged spans:
        unlike :meth:`to_original`, text deleted inside the span (a page footer, a soft hyphen) is
        left out."""
        self._check_normalized(span)
        out: list[Original] = []
        if span.start == span.end:
            return out
        nb, a0, a1, kind = self._nb, self._a0, self._a1, self._kind
        j = self._run_of_char(span.start)
        while j < len(kind) and nb[j] < span.end:
            lo, hi = max(nb[j], span.start), min(nb[j + 1], span.end)
            if kind[j] == ALIGNED:
                s, e = a0[j] + (lo - nb[j]), a0[j] + (hi - nb[j])
            else:
                s, e = a0[j], a1[j]
            if out and s <= out[-1].end:
                out[-1] = Original(out[-1].start, max(out[-1].end, e))
            else:
                out.append(Original(s, e))
            j += 1
        return out

    # ------------------------------------------------------------------ original -> normalized

    def to_normalized(self, span: Original) -> Normalized | None:
        """The normalized span an original span became, or ``None`` if all of it was removed.

        A non-empty span becomes the normalized characters whose sources overlap it. An empty span
        ``[p, p)`` becomes the empty span after every character whose source ends at or before ``p``.
        """
        if not isinstance(span, Original):
            raise TypeError(f"expected an Original span, got {span!r}")
        if span.start < self._orig_start or span.end > self._orig_end:
            raise SpanError(f"{span!r} is outside the original extent [{self._orig_start}, {self._orig_end})")
        nb, a0, a1, kind = self._nb, self._a0, self._a1, self._kind
        if span.start == span.end:
            # characters whose source ends at or before p: all runs with a1 <= p, plus part of one
            p = span.start
            j = bisect_right(a1, p)
            q = nb[j] + (p - a0[j]) if j < len(kind) and kind[j] == ALIGNED and a0[j] < p else nb[j]
            return Normalized(q, q)
        s, e = span.start, span.end
        j = bisect_right(a1, s)  # first run whose source ends after s
        if j == len(kind):
            return None
        first = nb[j] + max(0, s - a0[j]) if kind[j] == ALIGNED else nb[j]
        k = bisect_left(a0, e) - 1  # last run whose source starts before e
        if k < 0:
            return None
        last = nb[k] + min(nb[k + 1] - nb[k] - 1, e - 1 - a0[k]) if kind[k] == ALIGNED else nb[k + 1] - 1
        if first > last:
            return None
        return Normalized(first, last + 1)

    # ------------------------------------------------------------------ derived maps

    def slice(self, span: Normalized) -> OffsetMap:
        """The map restricted to a normalized span, rebased to start at 0 on the normalized side.

        Original offsets stay absolute. For every non-empty span ``x`` inside the slice,
        ``m.slice(s).to_original(x) == m.to_original(x shifted by s.start)``.
        """
        self._check_normalized(span)
        if span.start == span.end:
            p = self.to_original(span).start
            return OffsetMap([], orig_start=p, orig_end=p)
        s, e = span.start, span.end
        nb, a0, a1, kind = self._nb, self._a0, self._a1, self._kind
        out: list[tuple[int, int, int, int, int]] = []
        j = self._run_of_char(s)
        while j < len(kind) and nb[j] < e:
            lo, hi = max(nb[j], s), min(nb[j + 1], e)
            if lo < hi:
                if kind[j] == ALIGNED:
                    o = a0[j] + (lo - nb[j])
                    out.append((lo - s, hi - s, o, o + (hi - lo), ALIGNED))
                else:
                    out.append((lo - s, hi - s, a0[j], a1[j], BLOCK))
            j += 1
        return OffsetMap(out, orig_start=out[0][2], orig_end=out[-1][3])

    def then(self, other: OffsetMap) -> OffsetMap:
        """Compose: ``self`` maps A -> B, ``other`` maps B -> C; the result maps A -> C.

        ``other`` must be a whole-text map of ``self``'s normalized text.
        """
        if other._orig_start != 0 or other._orig_end != self.normalized_length:
            raise MapError(
                f"Cannot compose: the second map covers original [{other._orig_start}, {other._orig_end}) "
                f"but the first map's normalized text is [0, {self.normalized_length})"
            )
        nb, a0, a1, kind = self._nb, self._a0, self._a1, self._kind
        out: list[tuple[int, int, int, int, int]] = []
        for c0, c1, b0, b1, k in other.runs():
            if k == BLOCK:
                out.append((c0, c1, self._source_start(b0), self._source_end(b1 - 1), BLOCK))
                continue
            # aligned run of `other`: split it where the runs of `self` change
            j = self._run_of_char(b0)
            while b0 < b1:
                hi = min(nb[j + 1], b1)
                if kind[j] == ALIGNED:
                    o = a0[j] + (b0 - nb[j])
                    out.append((c0, c0 + (hi - b0), o, o + (hi - b0), ALIGNED))
                else:
                    out.append((c0, c0 + (hi - b0), a0[j], a1[j], BLOCK))
                c0 += hi - b0
                b0 = hi
                j += 1
        return OffsetMap(out, orig_start=self._orig_start, orig_end=self._orig_end)

    # ------------------------------------------------------------------ serialisation

    def to_bytes(self) -> bytes:
        """Compact little-endian encoding (what the store keeps for each chunk)."""
        n = len(self._kind)
        header = struct.pack("<4sIqq", _MAGIC, n, self._orig_start, self._orig_end)
        body = array("q", self._nb[1:])
        body.extend(self._a0)
        body.extend(self._a1)
        if body.itemsize != 8:  # pragma: no cover - 'q' is 8 bytes on every CPython platform
            raise MapError("unexpected array item size")
        raw = body.tobytes() if struct.pack("=q", 1) == struct.pack("<q", 1) else _byteswapped(body)
        return header + raw + self._kind

    @classmethod
    def from_bytes(cls, data: bytes) -> OffsetMap:
        head = struct.calcsize("<4sIqq")
        if len(data) < head:
            raise MapError(f"Offset map blob of {len(data)} bytes is too short")
        magic, n, orig_start, orig_end = struct.unpack_from("<4sIqq", data)
        if magic != _MAGIC:
            raise MapError(f"Offset map blob has magic {magic!r}, expected {_MAGIC!r}")
        if len(data) != head + 24 * n + n:
            raise MapError(f"Offset map blob of {len(data)} bytes does not hold {n} runs")
        body = array("q")
        body.frombytes(data[head : head + 24 * n])
        if struct.pack("=q", 1) != struct.pack("<q", 1):  # pragma: no cover - big-endian hosts
            body.byteswap()
        kinds = data[head + 24 * n :]
        ends, starts, stops = body[:n], body[n : 2 * n], body[2 * n :]
        runs = []
        prev = 0
        for j in range(n):
            runs.append((prev, ends[j], starts[j], stops[j], kinds[j]))
            prev = ends[j]
        return cls(runs, orig_start=orig_start, orig_end=orig_end)

    def to_json(self) -> dict[str, object]:
        """A readable form: ``{"original": [start, end], "runs": [[n0, n1, a0, a1, "aligned"], ...]}``."""
        return {
            "original": [self._orig_start, self._orig_end],
            "runs": [[r.norm_start, r.norm_end, r.orig_start, r.orig_end, _KIND_NAMES[r.kind]] for r in self.runs()],
        }


_KIND_NAMES = {ALIGNED: "aligned", BLOCK: "block"}


def _byteswapped(values: array[int]) -> bytes:  # pragma: no cover - big-endian hosts
    copy = array(values.typecode, values)
    copy.byteswap()
    return copy.tobytes()


def apply_edits(text: str, edits: Sequence[Edit], *, orig_start: int = 0) -> tuple[str, OffsetMap]:
    """Apply sorted, non-overlapping edits to ``text``; return the new text and its map.

    This is the one edit primitive every transform is built on. ``orig_start`` shifts the original
    side (for text that is itself a slice of a larger stream).
    """
    pieces: list[str] = []
    runs: list[tuple[int, int, int, int, int]] = []
    pos = 0  # in text
    out = 0  # in output
    for ed in edits:
        if ed.start < pos:
            raise EditError(f"Edit [{ed.start}, {ed.end}) overlaps or precedes the previous edit (ends at {pos})")
        if ed.end < ed.start or ed.end > len(text):
            raise EditError(f"Edit [{ed.start}, {ed.end}) is outside the text [0, {len(text)}) or reversed")
        if ed.start == ed.end:
            if ed.replacement:
                raise EditError(
                    f"Edit at {ed.start} inserts {ed.replacement!r} without a source character; "
                    "replace a neighbouring character instead"
                )
            continue
        if ed.start > pos:
            n = ed.start - pos
            pieces.append(text[pos : ed.start])
            runs.append((out, out + n, orig_start + pos, orig_start + ed.start, ALIGNED))
            out += n
        r = len(ed.replacement)
        if r:
            pieces.append(ed.replacement)
            kind = ALIGNED if r == 1 and ed.end - ed.start == 1 else BLOCK
            runs.append((out, out + r, orig_start + ed.start, orig_start + ed.end, kind))
            out += r
        pos = ed.end
    if pos < len(text):
        pieces.append(text[pos:])
        runs.append((out, out + len(text) - pos, orig_start + pos, orig_start + len(text), ALIGNED))
    return "".join(pieces), OffsetMap(runs, orig_start=orig_start, orig_end=orig_start + len(text))


def compose(maps: Sequence[OffsetMap]) -> OffsetMap:
    """Compose maps applied in order (``maps[0]`` first)."""
    if not maps:
        raise MapError("compose() needs at least one map")
    result = maps[0]
    for m in maps[1:]:
        result = result.then(m)
    return result
