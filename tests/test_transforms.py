"""Cleaning transforms: literal tables (expected text and expected map) and hypothesis properties."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.ingest.clean.characters import (
    LIGATURES,
    Transformed,
    compose_accents,
    drop_lone_unmapped,
    expand_ligatures,
    fold_spaces,
    remove_soft_hyphens,
)
from citeline.ingest.clean.furniture import Furniture, LineGeometry, find_furniture, page_number_of, strip_furniture
from citeline.ingest.clean.hyphenation import dehyphenate
from citeline.ingest.clean.pipeline import CleanSettings, clean
from citeline.ingest.clean.whitespace import normalize_whitespace
from citeline.text.lexicon import document_language
from citeline.text.offsets import ALIGNED, BLOCK, Normalized, OffsetMap, Original
from tests.invariants import block_ok, composed_accent

WS = set(" \t\n\r\f\v\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a")
WS |= set("\u202f\u205f\u3000\u2028\u2029\x1c\x1d\x1e\x85")


def pieces(inp: str, m: OffsetMap) -> Iterator[tuple[str, str, int]]:
    """(source text, output text, kind) per run, and ("deleted", "", -1) for gaps between runs."""
    prev = m.original_extent.start
    for r in m.runs():
        if r.orig_start > prev:
            yield inp[prev : r.orig_start], "", -1
        prev = max(prev, r.orig_end)
        yield inp[r.orig_start : r.orig_end], "", r.kind
    if m.original_extent.end > prev:
        yield inp[prev : m.original_extent.end], "", -1


def check_faithful(inp: str, result: Transformed | object, *, may_delete: Callable[[str], bool]) -> None:
    """Every copied character equals its source (or is its whitespace fold, ligature expansion or
    composed accent); every deleted character is one the transform may delete; the map pins both ends."""
    out: str = result.text  # type: ignore[attr-defined]
    m: OffsetMap = result.map  # type: ignore[attr-defined]
    assert m.normalized_length == len(out)
    assert m.original_extent == Original(0, len(inp))
    assert m.to_original_offset(0, side="end") == 0
    assert m.to_original_offset(len(out), side="start") == len(inp)
    starts = [m.source_of(c).start for c in range(len(out))]
    assert starts == sorted(starts)
    for r in m.runs():
        src, dst = inp[r.orig_start : r.orig_end], out[r.norm_start : r.norm_end]
        if r.kind == ALIGNED:
            for a, b in zip(src, dst, strict=True):
                assert a == b or (a in WS and b in " \n"), (a, b)
        else:
            assert r.kind == BLOCK
            assert block_ok(src, dst) or (set(src) <= WS and set(dst) <= WS), (src, dst)
    covered = [False] * len(inp)
    for r in m.runs():
        for i in range(r.orig_start, r.orig_end):
            covered[i] = True
    for i, ch in enumerate(inp):
        if not covered[i]:
            assert may_delete(ch), f"deleted {ch!r} at {i} in {inp!r}"


TEXT = st.text(alphabet="aéZ中😀 -\n\f\u00ad\u00a0\u2009\u200bﬁﬂﬃ.", max_size=60)


# ----------------------------------------------------------------------------- soft hyphens


@pytest.mark.parametrize(
    ("raw", "expected", "runs"),
    [
        (
            "Ver\u00adsi\u00adcherung",
            "Versicherung",
            [(0, 3, 0, 3, ALIGNED), (3, 5, 4, 6, ALIGNED), (5, 12, 7, 14, ALIGNED)],
        ),
        ("ser\u00ad\nvice", "service", [(0, 3, 0, 3, ALIGNED), (3, 7, 5, 9, ALIGNED)]),
        ("Ré\u00ad  \ngime", "Régime", [(0, 2, 0, 2, ALIGNED), (2, 6, 6, 10, ALIGNED)]),
    ],
)
def test_soft_hyphen_table(raw: str, expected: str, runs: list[tuple[int, ...]]) -> None:
    out = remove_soft_hyphens(raw)
    assert out.text == expected
    assert [tuple(r) for r in out.map.runs()] == runs


@given(TEXT)
def test_soft_hyphen_properties(raw: str) -> None:
    out = remove_soft_hyphens(raw)
    assert "\u00ad" not in out.text
    check_faithful(raw, out, may_delete=lambda ch: ch in "\u00ad \t\n\r\f")
    assert remove_soft_hyphens(out.text).text == out.text


# ----------------------------------------------------------------------------- lone unmapped glyphs


@pytest.mark.parametrize(
    ("raw", "expected", "runs"),
    [
        # a proof's box between two sentences
        (
            "abgeschlossen. \ufffd Beispiel",
            "abgeschlossen.  Beispiel",
            [(0, 15, 0, 15, ALIGNED), (15, 24, 16, 25, ALIGNED)],
        ),
        # bullets at line starts
        ("\ufffd Größe\n\ufffd Maß", " Größe\n Maß", [(0, 7, 1, 8, ALIGNED), (7, 11, 9, 13, ALIGNED)]),
        # inside a word, and a word of unmapped glyphs: kept, one code point per glyph
        ("di\ufffderent \ufffd\ufffd\ufffd", "di\ufffderent \ufffd\ufffd\ufffd", [(0, 12, 0, 12, ALIGNED)]),
        # a ligature at a word's edge, before a mark, between CJK letters: kept
        ("\ufffdießt sta\ufffd. 中\ufffd文", "\ufffdießt sta\ufffd. 中\ufffd文", [(0, 15, 0, 15, ALIGNED)]),
        # the shaft of TeX's arrow (a \ufffd! p) and a math minus beside a digit (t\ufffd1): symbols, dropped
        (
            "a \ufffd! p für t\ufffd1",
            "a ! p für t1",
            [(0, 2, 0, 2, ALIGNED), (2, 11, 3, 12, ALIGNED), (11, 12, 13, 14, ALIGNED)],
        ),
        # in brackets, before a digit at a word's edge
        ("(\ufffd) \ufffd3 Maß", "() 3 Maß", [(0, 1, 0, 1, ALIGNED), (1, 3, 2, 4, ALIGNED), (3, 8, 5, 10, ALIGNED)]),
        # after a letter with a combining mark (a composed accent), as after the letter itself
        ("X\u0303\ufffd Zoë", "X\u0303\ufffd Zoë", [(0, 7, 0, 7, ALIGNED)]),
        # under a spacing accent: a letter the accent stands over, kept (dropping it would hand the
        # accent to the next letter)
        ("¨\ufffd¨o Maß ¨\ufffd", "¨\ufffd¨o Maß ¨\ufffd", [(0, 11, 0, 11, ALIGNED)]),
    ],
)
def test_lone_unmapped_table(raw: str, expected: str, runs: list[tuple[int, ...]]) -> None:
    out = drop_lone_unmapped(raw)
    assert out.text == expected
    assert [tuple(r) for r in out.map.runs()] == runs


def _symbol_glyphs(raw: str) -> set[int]:
    """Positions of the U+FFFDs the rule drops, found the slow way: alone (no U+FFFD beside it), not
    under a spacing accent, and with no letter beside it or a digit beside it."""
    dropped = set()
    for k, ch in enumerate(raw):
        if ch != "\ufffd":
            continue
        around = [raw[j] for j in (k - 1, k + 1) if 0 <= j < len(raw)]
        if "\ufffd" in around or raw[k - 1 : k] == "¨":
            continue
        if any(c.isdigit() for c in around) or not any(c.isalpha() for c in around):
            dropped.add(k)
    return dropped


@given(st.text(alphabet="aé中 \n\ufffd.7¨", max_size=60))
def test_lone_unmapped_properties(raw: str) -> None:
    out = drop_lone_unmapped(raw)
    check_faithful(raw, out, may_delete=lambda ch: ch == "\ufffd")
    dropped = _symbol_glyphs(raw)
    assert out.text == "".join(ch for k, ch in enumerate(raw) if k not in dropped)


# ----------------------------------------------------------------------------- TeX's spacing accents


@pytest.mark.parametrize(
    ("raw", "expected", "runs"),
    [
        # TeX's \"a and \H{o} drawn as an accent glyph before the letter: one accented letter each
        (
            "F¨arber und Erd˝os",
            "Färber und Erdős",
            [
                (0, 1, 0, 1, ALIGNED),
                (1, 2, 1, 3, BLOCK),
                (2, 14, 3, 15, ALIGNED),
                (14, 15, 15, 17, BLOCK),
                (15, 16, 17, 18, ALIGNED),
            ],
        ),
        # over a capital, over a dotless i (TeX's \"\i), a caron, a cedilla, an ogonek
        (
            "ˇSt¨ıp ¸ca ˛e",
            "Štïp ça ę",
            [
                (0, 1, 0, 2, BLOCK),
                (1, 2, 2, 3, ALIGNED),
                (2, 3, 3, 5, BLOCK),
                (3, 5, 5, 7, ALIGNED),
                (5, 6, 7, 9, BLOCK),
                (6, 8, 9, 11, ALIGNED),
                (8, 9, 11, 13, BLOCK),
            ],
        ),
        # an acute before s, t, r, l, m is an apostrophe; before a vowel, c, n or z, an accent
        (
            "it´s caf´e Stanojevi´c",
            "it´s café Stanojević",
            [(0, 8, 0, 8, ALIGNED), (8, 9, 8, 10, BLOCK), (9, 19, 10, 20, ALIGNED), (19, 20, 20, 22, BLOCK)],
        ),
        # no single code point for a tilde over gamma or X (math): the letter, then the combining mark
        ("˜γ ˜X", "γ\u0303 X\u0303", [(0, 2, 0, 2, BLOCK), (2, 3, 2, 3, ALIGNED), (3, 5, 3, 5, BLOCK)]),
        # two accents stacked over one letter
        ("¨˜Z", "Z\u0308\u0303", [(0, 3, 0, 3, BLOCK)]),
        # an accent alone, a backquote (code) and ASCII ^ and ~ are never accents here
        ("¨ 1 `a ^o ~n", "¨ 1 `a ^o ~n", [(0, 12, 0, 12, ALIGNED)]),
        # nor over a ligature (two letters): the cleaner expands ligatures first
        ("¨ﬁ", "¨ﬁ", [(0, 2, 0, 2, ALIGNED)]),
    ],
)
def test_accent_table(raw: str, expected: str, runs: list[tuple[int, ...]]) -> None:
    out = compose_accents(raw)
    assert out.text == expected
    assert [tuple(r) for r in out.map.runs()] == runs


@given(st.text(alphabet="aeoıZγ中 \n¨´˝ˇ˜`.", max_size=60))
def test_accent_properties(raw: str) -> None:
    out = compose_accents(raw)
    m = out.map
    assert m.normalized_length == len(out.text)
    assert m.original_extent == Original(0, len(raw))
    for r in m.runs():
        src, dst = raw[r.orig_start : r.orig_end], out.text[r.norm_start : r.norm_end]
        if r.kind == ALIGNED:
            assert src == dst
        else:  # an accent and its letter, composed into one letter that decomposes back to them
            assert composed_accent(src, dst)
    # nothing is deleted, and once composed the text is stable
    assert sum(r.orig_end - r.orig_start for r in m.runs()) == len(raw)
    assert compose_accents(out.text).text == out.text


# ----------------------------------------------------------------------------- ligatures and spaces


def test_ligature_table() -> None:
    out = expand_ligatures("ﬁnancé ﬂexible ﬀ ﬃ ﬄ ﬅ ﬆ")
    assert out.text == "financé flexible ff ffi ffl st st"
    assert out.map.to_original(Normalized(0, 2)) == Original(0, 1)
    assert out.map.to_original(Normalized(8, 9)) == Original(7, 8)  # "f" of "fl"
    assert out.map.to_normalized(Original(15, 16)) == Normalized(17, 19)  # "ﬀ"
    assert [tuple(r) for r in out.map.runs()][:3] == [
        (0, 2, 0, 1, BLOCK),
        (2, 8, 1, 7, ALIGNED),
        (8, 10, 7, 8, BLOCK),
    ]


def test_space_fold_table() -> None:
    out = fold_spaces("10\u00a0000\u2009€ a\u200bb\tc")
    assert out.text == "10 000 € ab\tc"  # a tab is a table cell's edge: the whitespace step keeps it
    # NBSP and thin space stay aligned one for one; the zero-width space is deleted
    assert [tuple(r) for r in out.map.runs()] == [(0, 10, 0, 10, ALIGNED), (10, 13, 11, 14, ALIGNED)]


@given(TEXT)
def test_ligature_and_space_properties(raw: str) -> None:
    lig = expand_ligatures(raw)
    check_faithful(raw, lig, may_delete=lambda ch: False)
    assert not set(lig.text) & set(LIGATURES)
    sp = fold_spaces(raw)
    check_faithful(raw, sp, may_delete=lambda ch: ch == "\u200b")
    assert fold_spaces(sp.text).text == sp.text
    assert expand_ligatures(lig.text).text == lig.text


# ----------------------------------------------------------------------------- dehyphenation


@pytest.mark.parametrize(
    ("raw", "expected", "reason"),
    [
        ("the ser-\nvice", "the service", "'service' is a word in the en lexicon"),
        ("a third-party rule; a third-\nparty", "a third-party rule; a third-party", "hyphenated form"),
        ("an n-\ntridecanal", "an n-tridecanal", "single-letter prefix"),
        ("docu-\nmentation and documentation", "documentation and documentation", "joined form"),
        ("non-\nEnglish", "non-English", "capital or digit"),
        ("COVID-\n19", "COVID-19", "capital or digit"),
        ("self-\nreported", "self-reported", "'self' and 'reported' are words"),
        ("Ver-\nsicherung für élé-\ngant", "Versicherung für élégant", "lower-case continuation"),
        ("ser-\fvice", "service", "'service' is a word"),
        ("ser-  \n  vice", "service", "'service' is a word"),
        # compounds the lower-case continuation rule used to join
        ("automatically-\ndetected “errors”", "automatically-detected “errors”", "'automaticallydetected' is not"),
        ("the state-\nof-the-art model", "the state-of-the-art model", "'stateof' is not"),
        ("a data-\ndriven café", "a data-driven café", "'datadriven' is not"),
        ("the ex-\nample", "the example", "'example' is a word"),  # not the prefix 'ex'
        ("white-\nspace and time-\nstamps", "whitespace and timestamps", "lower-case continuation"),
        # the document's language: a German text consults the German lexicon
        (
            "Die Prüfung der Anträge ist nicht für die Ver-\nsicherung und den Kunden",
            "Die Prüfung der Anträge ist nicht für die Versicherung und den Kunden",
            "'versicherung' is a word in the de lexicon",
        ),
    ],
)
def test_dehyphenation_table(raw: str, expected: str, reason: str) -> None:
    out = dehyphenate(raw)
    assert out.text == expected
    assert reason in out.decisions[-1].reason


@pytest.mark.parametrize(
    ("raw", "expected", "reason"),
    [
        ("the ser-\nvice", "the service", "lower-case continuation"),
        ("automatically-\ndetected", "automaticallydetected", "lower-case continuation"),
        ("self-\nreported", "self-reported", "prefix 'self'"),
        ("an x-\nray", "an x-ray", "single-letter prefix"),
    ],
)
def test_dehyphenation_without_lexicon_uses_the_document_alone(raw: str, expected: str, reason: str) -> None:
    out = dehyphenate(raw, lang=None)
    assert out.text == expected
    assert reason in out.decisions[-1].reason


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("The committee of the city is in session and the plan is ready for a vote.", "en"),
        ("Die Prüfung der Anträge erfolgt nicht mit den Vorgaben und ist für alle.", "de"),
        ("Le comité a étudié la demande et les plans pour une maison dans la ville.", "fr"),
        # French and Spanish by their commonest word too ("de"), not Catalan, which shares "la" and "de"
        ("Ces tests constituent la partie la plus couteuse de l'algorithme à Zürich.", "fr"),
        ("El consejo aprobó la resolución de la comisión de Málaga.", "es"),
        ("a well known fact", "en"),  # too few function words for anything but the default
        # characters of scripts written without spaces, even beside web addresses' "com"
        ("报告期末普通股股东总数79,053户。详见www.cninfo.com.cn 与 www.cninfo.com.cn 及 www.x.com", "zh"),
        ("全体董事保证本报告所载资料不存在任何虚假记载。", "zh"),
        ("本報告書は、当法人が令和六年度に実施した事業の概要をまとめたものである。", "ja"),
    ],
)
def test_document_language(text: str, lang: str) -> None:
    assert document_language(text) == lang


def test_dehyphenation_map_and_decision_record() -> None:
    raw = "la ser-\nvice, un third-\nparty, un third-party"
    out = dehyphenate(raw)
    assert out.text == "la service, un third-party, un third-party"
    # "-\n" of "ser" deleted, only "\n" of "third" deleted
    assert [tuple(r) for r in out.map.runs()] == [
        (0, 6, 0, 6, ALIGNED),
        (6, 21, 8, 23, ALIGNED),
        (21, 42, 24, 45, ALIGNED),
    ]
    first, second = out.decisions
    assert (first.start, first.end, first.left, first.right, first.joined) == (6, 8, "ser", "vice", True)
    assert (second.start, second.end, second.joined, second.result) == (22, 24, False, "third-party")
    # the deleted hyphen is restorable: its raw span is reported and lies inside the word's raw span
    assert out.map.to_original(Normalized(3, 10)) == Original(3, 12)
    assert raw[first.start : first.end] == "-\n"


def test_numeric_ranges_are_not_words() -> None:
    out = dehyphenate("in 2010-\n2015 and")
    assert out.text == "in 2010-\n2015 and"
    assert out.decisions == ()


@given(TEXT)
def test_dehyphenation_properties(raw: str) -> None:
    out = dehyphenate(raw)
    check_faithful(raw, out, may_delete=lambda ch: ch in "-\u2010 \t\n\r\f")
    # every deleted hyphen belongs to a recorded decision
    for d in out.decisions:
        assert raw[d.start] in "-\u2010"
        kept = out.map.to_normalized(Original(d.start, d.start + 1))
        assert (kept is None) == d.joined


# ----------------------------------------------------------------------------- furniture


def pages(*texts: str) -> str:
    return "\f".join(texts)


HANDBOOK = pages(
    "Northwind Handbook — Révision 2\nBody line one of page one.\nMore body.\nPage 1 of 3",
    "Northwind Handbook — Révision 2\nSecond page body text.\nPage 2 of 3",
    "Northwind Handbook — Révision 2\nThird page ends here.\n3",
)


def test_furniture_table() -> None:
    found = find_furniture(HANDBOOK)
    assert [(f.kind, f.page, f.text) for f in found] == [
        ("header", 1, "Northwind Handbook — Révision 2"),
        ("page_number", 1, "Page 1 of 3"),
        ("header", 2, "Northwind Handbook — Révision 2"),
        ("page_number", 2, "Page 2 of 3"),
        ("header", 3, "Northwind Handbook — Révision 2"),
        ("page_number", 3, "3"),  # a bare number, vouched for by "Page N of 3" on the other pages
    ]
    out = strip_furniture(HANDBOOK)
    assert out.text == "Body line one of page one.\nMore body.\fSecond page body text.\fThird page ends here."
    for f in out.removed:
        assert HANDBOOK[f.start : f.end] == f.text
        assert out.map.to_normalized(Original(f.start, f.end)) is None


def test_bare_page_numbers_need_two_pages_agreeing() -> None:
    doc = pages("Intro text.\n12", "More text.\n13", "Last text.\n4711")
    found = find_furniture(doc)
    assert [(f.kind, f.text) for f in found] == [("page_number", "12"), ("page_number", "13")]


def test_roman_numerals_and_digit_normalised_headers() -> None:
    doc = pages(
        "Chapter 1 · Préface\nAlpha.\nii",
        "Chapter 1 · Préface\nBeta.\niii",
        "Chapter 2 · Préface\nGamma.\niv",
    )
    kinds = [(f.kind, f.text) for f in find_furniture(doc)]
    assert ("page_number", "ii") in kinds
    assert ("page_number", "iv") in kinds
    assert ("header", "Chapter 2 · Préface") in kinds


def test_a_running_foot_matches_with_its_page_number_on_either_side() -> None:
    """An even page sets its number left of the running title, an odd page right of it, one cell
    apart or next to it; all are one running foot."""
    doc = pages(
        "Einkünfte aus Kapitalvermögen.\n- 34 -\tAnleitung zur Steuererklärung",
        "Werbungskosten und Freibeträge.\nAnleitung zur Steuererklärung\t- 35 -",
        "Sonderausgaben für Spenden.\n-36- Anleitung zur Steuererklärung",
    )
    assert [(f.kind, f.text) for f in find_furniture(doc)] == [
        ("footer", "- 34 -\tAnleitung zur Steuererklärung"),
        ("footer", "Anleitung zur Steuererklärung\t- 35 -"),
        ("footer", "-36- Anleitung zur Steuererklärung"),
    ]
    # a number inside the line is still part of what repeats
    assert find_furniture(pages("Alpha.\nTeil 1 der Anleitung", "Beta.\nTeil 2 der Anleitung")) != []
    assert find_furniture(pages("Alpha.\nTable 3 shows the rates", "Beta.\nTable 4 lists the forms")) == []


def test_single_page_keeps_everything() -> None:
    assert find_furniture("Title\nBody.\nPage 1 of 1") == []


def test_geometry_limits_the_bands() -> None:
    doc = pages("Intro.\nRepeated line\nEnd.", "Other.\nRepeated line\nEnd.")
    # "Repeated line" sits mid-page on both pages: geometry rules it out
    geometry = [LineGeometry(start=doc.index("Repeated"), top=400, bottom=410, page_height=792)]
    second = doc.index("Repeated", doc.index("\f"))
    geometry.append(LineGeometry(start=second, top=400, bottom=410, page_height=792))
    assert [f.text for f in find_furniture(doc)] == ["Repeated line", "End.", "Repeated line", "End."]
    assert find_furniture(doc, geometry=geometry) == []


def test_known_furniture_is_removed_without_detection() -> None:
    doc = "Kopfzeile\nText über alles."
    out = strip_furniture(doc, known=[Furniture("header", 0, 9, 1, "Kopfzeile")], detect=False)
    assert out.text == "Text über alles."


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Page 3 of 50", (3, True)),
        ("- 7 -", (7, False)),
        ("xiv", (14, False)),
        ("Seite 4", (4, True)),
        ("3 / 9", (3, True)),
    ],
)
def test_page_number_patterns(line: str, expected: tuple[int, bool]) -> None:
    assert page_number_of(line) == expected


@given(st.lists(st.text(alphabet="aé中 \n0123456789Page", max_size=30), min_size=1, max_size=5))
@settings(max_examples=150)
def test_furniture_properties(page_texts: list[str]) -> None:
    raw = "\f".join(page_texts)
    out = strip_furniture(raw)
    check_faithful(raw, Transformed(out.text, out.map), may_delete=lambda ch: True)
    for f in out.removed:
        assert raw[f.start : f.end] == f.text


# ----------------------------------------------------------------------------- whitespace


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  Café  au\nlait \n\n\nfin ", "Café au lait\n\nfin"),
        ("sentence runs\fonto the next page", "sentence runs onto the next page"),
        ("It ends.\fNew page", "It ends.\n\nNew page"),
        ("中文\n句子", "中文句子"),
        ("a\r\nb\r\n\r\nc", "a b\n\nc"),
        ("x\u2029y", "x\n\ny"),
        # table rows (cells separated by tabs) stay rows, cells stay apart
        (
            "Intro runs\non.\n\nName\tCity\nMaxim Integrated \t San José\nLeidos\t\tEl Segundo\n\nAfter it\ngoes on.",
            "Intro runs on.\n\nName\tCity\nMaxim Integrated\tSan José\nLeidos\tEl Segundo\n\nAfter it goes on.",
        ),
        ("Zeile\tÜber\fnächste\tSeite", "Zeile\tÜber\nnächste\tSeite"),
        ("a tab\tin prose", "a tab\tin prose"),
    ],
)
def test_whitespace_table(raw: str, expected: str) -> None:
    assert normalize_whitespace(raw).text == expected


def test_whitespace_map_keeps_spaces_aligned() -> None:
    out = normalize_whitespace("a \n b\fC")
    assert out.text == "a b C"
    # " \n " keeps its first space and drops the rest; "\f" -> " " is a 1:1 substitution, so the
    # runs merge: one aligned run per stretch of kept characters
    assert [tuple(r) for r in out.map.runs()] == [(0, 2, 0, 2, ALIGNED), (2, 5, 4, 7, ALIGNED)]
    assert out.map.source_of(3) == Original(5, 6)  # the space that was a page break


def test_page_break_paragraph_is_a_block() -> None:
    out = normalize_whitespace("Done.\fNext")
    assert out.text == "Done.\n\nNext"
    assert [tuple(r) for r in out.map.runs()] == [
        (0, 5, 0, 5, ALIGNED),
        (5, 7, 5, 6, BLOCK),
        (7, 11, 6, 10, ALIGNED),
    ]


@given(TEXT)
def test_whitespace_properties(raw: str) -> None:
    out = normalize_whitespace(raw)
    check_faithful(raw, out, may_delete=lambda ch: ch.isspace() or ch == "\u200b")
    assert normalize_whitespace(out.text).text == out.text
    assert "  " not in out.text
    assert "\n\n\n" not in out.text
    assert out.text == out.text.strip()


# ----------------------------------------------------------------------------- the whole pipeline


def test_pipeline_table() -> None:
    raw = pages(
        "Northwind — Révision 2\nThe ser-\nvice is ﬁne, a third-\nparty, a third-party.\n"
        "The sentence con-\nPage 1 of 2",
        "Northwind — Révision 2\ntinues “here”.\nPage 2 of 2",
    )
    out = clean(raw)
    assert out.text == "The service is fine, a third-party, a third-party. The sentence continues “here”."
    assert [f.kind for f in out.furniture] == ["header", "page_number", "header", "page_number"]
    assert [(h.left, h.right, h.joined) for h in out.hyphenations] == [
        ("ser", "vice", True),
        ("third", "party", False),
        ("con", "tinues", True),
    ]
    for h in out.hyphenations:
        assert raw[h.raw_start] == "-"
    # a sentence crossing the page break maps back over the footer and header it skipped
    i = out.text.index("continues")
    span = out.map.to_original(Normalized(i, i + len("continues")))
    assert raw[span.start : span.end] == "con-\nPage 1 of 2\fNorthwind — Révision 2\ntinues"


@given(st.lists(st.text(alphabet="aé中 -\n\u00adﬁ.Pge0123\ufffd¨", max_size=40), min_size=1, max_size=4))
@settings(max_examples=200)
def test_pipeline_properties(page_texts: list[str]) -> None:
    raw = "\f".join(page_texts)
    out = clean(raw)
    check_faithful(raw, Transformed(out.text, out.map), may_delete=lambda ch: True)
    assert clean(out.text).text == out.text  # stable round trip
    # the composed map equals mapping back through each step in turn, for every span
    steps = [
        remove_soft_hyphens,
        drop_lone_unmapped,
        expand_ligatures,
        compose_accents,
        fold_spaces,
        dehyphenate,
        normalize_whitespace,
    ]
    text, maps = strip_furniture(raw).text, [strip_furniture(raw).map]
    for step in steps:
        result = step(text)
        text = result.text
        maps.append(result.map)
    assert text == out.text
    for s in range(len(text) + 1):
        for e in range(s, len(text) + 1):
            span = Normalized(s, e)
            for m in reversed(maps):
                back = m.to_original(span)
                span = Normalized(back.start, back.end)
            assert out.map.to_original(Normalized(s, e)) == Original(span.start, span.end)


def test_settings_switch_steps_off() -> None:
    raw = "ser-\nvice ﬁ"
    out = clean(raw, settings=CleanSettings(dehyphenate=False, ligatures=False))
    assert out.text == "ser- vice ﬁ"
