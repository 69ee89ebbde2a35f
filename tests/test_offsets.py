"""The offset map: literal alignment tables, then properties against the slow per-character twin."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.text.errors import EditError, MapError, SpanError
from citeline.text.offsets import ALIGNED, BLOCK, Edit, Normalized, OffsetMap, Original, apply_edits, compose
from tests.offset_reference import CharMap

# ----------------------------------------------------------------------------- literal tables


def test_identity_maps_every_span_to_itself() -> None:
    m = OffsetMap.identity(7)  # "élégant"
    assert m.to_original(Normalized(2, 5)) == Original(2, 5)
    assert m.to_normalized(Original(0, 7)) == Normalized(0, 7)
    assert list(m.runs()) == [(0, 7, 0, 7, ALIGNED)]


def test_ligature_expansion_table_both_directions() -> None:
    # "ﬁnancé" -> "financé": the ligature is a block of one source character
    text, m = apply_edits("ﬁnancé", [Edit(0, 1, "fi")])
    assert text == "financé"
    assert list(m.runs()) == [(0, 2, 0, 1, BLOCK), (2, 7, 1, 6, ALIGNED)]
    # normalized -> original, character by character
    table = [m.source_of(c) for c in range(len(text))]
    assert table == [Original(0, 1), Original(0, 1), *[Original(i, i + 1) for i in range(1, 6)]]
    # original -> normalized
    assert m.to_normalized(Original(0, 1)) == Normalized(0, 2)
    assert m.to_normalized(Original(5, 6)) == Normalized(6, 7)  # "é"
    assert m.to_original(Normalized(1, 2)) == Original(0, 1)  # the "i" of "fi" is the whole ligature


def test_deletion_table_and_removed_span() -> None:
    # "ser-\nvice café" -> "service café"
    text, m = apply_edits("ser-\nvice café", [Edit(3, 5, "")])
    assert text == "service café"
    assert list(m.runs()) == [(0, 3, 0, 3, ALIGNED), (3, 12, 5, 14, ALIGNED)]
    assert m.to_original(Normalized(0, 7)) == Original(0, 9)  # the deleted hyphen lies inside
    assert m.to_original(Normalized(3, 7)) == Original(5, 9)  # edge deletion excluded
    assert m.to_normalized(Original(3, 5)) is None  # removed
    assert m.to_normalized(Original(2, 6)) == Normalized(2, 4)


def test_offsets_at_the_edges_with_deletions() -> None:
    text, m = apply_edits("\u00adab\u00ad", [Edit(0, 1, ""), Edit(3, 4, "")])
    assert text == "ab"
    assert m.to_original_offset(0, side="end") == 0
    assert m.to_original_offset(2, side="start") == 4
    assert m.to_original_offset(0, side="start") == 1
    assert m.to_original_offset(2, side="end") == 3
    assert m.to_original(Normalized(0, 0)) == Original(1, 1)
    assert m.to_original(Normalized(2, 2)) == Original(4, 4)


def test_cjk_and_emoji_are_single_code_points() -> None:
    text, m = apply_edits("中文\n😀", [Edit(2, 3, "")])
    assert text == "中文😀"
    assert m.to_original(Normalized(2, 3)) == Original(3, 4)
    assert "中文\n😀"[3] == "😀"


def test_slice_keeps_absolute_original_offsets() -> None:
    _text, m = apply_edits("ab ﬁx cd", [Edit(3, 4, "fi")])  # "ab fix cd"
    s = m.slice(Normalized(3, 6))
    assert s.normalized_length == 3
    assert s.original_extent == Original(3, 5)
    assert s.to_original(Normalized(0, 2)) == Original(3, 4)
    assert s.to_original(Normalized(2, 3)) == Original(4, 5)


def test_slice_partial_block_keeps_whole_source() -> None:
    _, m = apply_edits("ﬃx", [Edit(0, 1, "ffi")])
    s = m.slice(Normalized(1, 4))
    assert list(s.runs()) == [(0, 2, 0, 1, BLOCK), (2, 3, 1, 2, ALIGNED)]


def test_compose_literal() -> None:
    t1, f = apply_edits("ser-\nvice ﬁne", [Edit(3, 5, ""), Edit(10, 11, "fi")])
    assert t1 == "service fine"
    t2, g = apply_edits(t1, [Edit(7, 8, "")])
    assert t2 == "servicefine"
    h = f.then(g)
    assert h.to_original(Normalized(7, 9)) == Original(10, 11)
    assert h.to_original(Normalized(0, 11)) == Original(0, 13)
    assert compose([f, g]) == h


@pytest.mark.parametrize(
    ("edits", "message"),
    [
        ([Edit(2, 2, "x")], "inserts 'x' without a source character"),
        ([Edit(2, 4, ""), Edit(3, 5, "")], "overlaps or precedes"),
        ([Edit(3, 9, "")], "outside the text"),
    ],
)
def test_bad_edits_are_rejected_with_the_values(edits: list[Edit], message: str) -> None:
    with pytest.raises(EditError, match=message):
        apply_edits("héllo", edits)


def test_spans_name_their_side_and_reject_reversal() -> None:
    _, m = apply_edits("abc", [])
    with pytest.raises(SpanError, match=r"Span \[3, 1\) is reversed"):
        Original(3, 1)
    with pytest.raises(TypeError, match="expected a Normalized span"):
        m.to_original(Original(0, 1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected an Original span"):
        m.to_normalized(Normalized(0, 1))  # type: ignore[arg-type]
    with pytest.raises(SpanError, match="ends after the normalized text"):
        m.to_original(Normalized(0, 4))
    assert repr(Original(1, 2)) == "Original(1, 2)"


def test_compose_rejects_maps_that_do_not_fit() -> None:
    _, f = apply_edits("abc", [])
    _, g = apply_edits("abcd", [])
    with pytest.raises(MapError, match="Cannot compose"):
        f.then(g)


def test_malformed_blob_is_rejected() -> None:
    with pytest.raises(MapError, match="magic"):
        OffsetMap.from_bytes(b"XXXX" + bytes(20))
    with pytest.raises(MapError, match="too short"):
        OffsetMap.from_bytes(b"CL")


# ----------------------------------------------------------------------------- properties

ALPHABET = "aé ﬁ\n\u00ad中😀-\f.Z"
texts = st.text(alphabet=ALPHABET, max_size=40)


@st.composite
def text_and_edits(draw: st.DrawFn, text: str | None = None) -> tuple[str, list[Edit]]:
    if text is None:
        text = draw(texts)
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=12)))
    edits: list[Edit] = []
    pos = 0
    for a, b in zip(cuts[::2], cuts[1::2], strict=False):
        if a < pos or a == b:
            continue
        replacement = draw(st.text(alphabet="xy ü", max_size=3))
        edits.append(Edit(a, b, replacement))
        pos = b
    return text, edits


def spans(n: int) -> st.SearchStrategy[tuple[int, int]]:
    return st.tuples(st.integers(0, n), st.integers(0, n)).map(lambda t: (min(t), max(t)))


@given(text_and_edits(), st.data())
def test_map_agrees_with_reference(te: tuple[str, list[Edit]], data: st.DataObject) -> None:
    text, edits = te
    out, m = apply_edits(text, edits)
    ref = CharMap.from_edits(text, edits)
    assert CharMap.from_map(m) == ref
    assert m.normalized_length == len(out) == len(ref.intervals)
    # maps are monotone, and the ends are pinned
    starts = [a for a, _ in ref.intervals]
    ends = [b for _, b in ref.intervals]
    assert starts == sorted(starts)
    assert ends == sorted(ends)
    assert m.to_original_offset(0, side="end") == 0
    assert m.to_original_offset(len(out), side="start") == len(text)
    s, e = data.draw(spans(len(out)))
    assert m.to_original(Normalized(s, e)) == Original(*ref.to_original(s, e))
    a, b = data.draw(spans(len(text)))
    expected = ref.to_normalized(a, b)
    got = m.to_normalized(Original(a, b))
    assert (got is None and expected is None) or (got is not None and (got.start, got.end) == expected)


@given(text_and_edits())
def test_copied_characters_equal_their_source(te: tuple[str, list[Edit]]) -> None:
    text, edits = te
    out, m = apply_edits(text, edits)
    replaced = {i for ed in edits for i in range(ed.start, ed.end)}
    for c in range(len(out)):
        src = m.source_of(c)
        if len(src) == 1 and src.start not in replaced:
            assert out[c] == text[src.start]


@given(st.data())
@settings(max_examples=300)
def test_composition_equals_sequential_mapping_for_every_span(data: st.DataObject) -> None:
    text, e1 = data.draw(text_and_edits())
    mid, f = apply_edits(text, e1)
    _, e2 = data.draw(text_and_edits(mid))
    out, g = apply_edits(mid, e2)
    h = f.then(g)
    assert CharMap.from_map(h) == CharMap.from_edits(text, e1).then(CharMap.from_edits(mid, e2))
    for s in range(len(out) + 1):
        for e in range(s, len(out) + 1):
            span = Normalized(s, e)
            via_mid = g.to_original(span)
            assert h.to_original(span) == f.to_original(Normalized(via_mid.start, via_mid.end))
    for p in range(len(out) + 1):
        for side in ("start", "end"):
            q = g.to_original_offset(p, side=side)
            assert h.to_original_offset(p, side=side) == f.to_original_offset(q, side=side)


@given(text_and_edits(), st.data())
def test_slice_reports_absolute_offsets(te: tuple[str, list[Edit]], data: st.DataObject) -> None:
    text, edits = te
    out, m = apply_edits(text, edits)
    if not out:
        return
    s, e = data.draw(spans(len(out)).filter(lambda t: t[0] < t[1]))
    piece = m.slice(Normalized(s, e))
    assert CharMap.from_map(piece) == CharMap.from_map(m).slice(s, e)
    assert piece.original_extent == m.to_original(Normalized(s, e))
    for a in range(e - s):
        for b in range(a + 1, e - s + 1):
            assert piece.to_original(Normalized(a, b)) == m.to_original(Normalized(s + a, s + b))


@given(text_and_edits())
def test_serialisation_round_trips(te: tuple[str, list[Edit]]) -> None:
    text, edits = te
    _, m = apply_edits(text, edits, orig_start=17)
    assert OffsetMap.from_bytes(m.to_bytes()) == m
    assert m.original_extent == Original(17, 17 + len(text))


@given(text_and_edits(), st.data())
def test_original_round_trip_contains_the_span(te: tuple[str, list[Edit]], data: st.DataObject) -> None:
    text, edits = te
    out, m = apply_edits(text, edits)
    if not out:
        return
    s, e = data.draw(spans(len(out)).filter(lambda t: t[0] < t[1]))
    back = m.to_normalized(m.to_original(Normalized(s, e)))
    assert back is not None
    assert back.start <= s
    assert back.end >= e


def test_compact_maps_do_not_grow_with_copied_text() -> None:
    text = "Résumé of the ﬁrst clause. " * 40_000  # ~1 MB, 40,000 ligatures
    out, m = apply_edits(text, [Edit(i, i + 1, "fi") for i in range(len(text)) if text[i] == "ﬁ"])
    # one block and one aligned run per ligature: 24 bytes + 1 byte each, far below the text size
    assert len(m) == 2 * 40_000 + 1
    assert m.nbytes() < 2 * len(out)
    assert out.count("first") == 40_000


@given(text_and_edits(), st.data())
def test_source_spans_are_the_sources_actually_used(te: tuple[str, list[Edit]], data: st.DataObject) -> None:
    text, edits = te
    out, m = apply_edits(text, edits)
    if not out:
        return
    s, e = data.draw(spans(len(out)).filter(lambda t: t[0] < t[1]))
    got = m.source_spans(Normalized(s, e))
    used = set()
    for c in range(s, e):
        src = m.source_of(c)
        used.update(range(src.start, src.end))
    assert {i for sp in got for i in range(sp.start, sp.end)} == used
    assert all(a.end < b.start for a, b in itertools.pairwise(got))  # merged, in order
    assert got[0].start == m.to_original(Normalized(s, e)).start
    assert got[-1].end == m.to_original(Normalized(s, e)).end
