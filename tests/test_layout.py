"""The layout engine, stage by stage, on glyphs placed by hand (the fixtures and the corpus test the
same engine through real PDFs): words, lines, blocks, order, and the whole page."""

from __future__ import annotations

import re
from array import array
from pathlib import Path

from citeline.ingest.extract.glyphs import Glyph, PageGlyphs, Rule
from citeline.ingest.extract.layout import (
    DEFAULT_SETTINGS,
    LayoutSettings,
    blocks,
    layout_page,
    lines,
    order,
    split_vertical,
    words,
)
from citeline.ingest.extract.layout.lines import logical_order
from citeline.ingest.extract.pdfium_glyphs import _accents_in_place
from citeline.text.scripts import CJK_CHARS, MAYBE_RTL, is_cjk, is_rtl

S = DEFAULT_SETTINGS
PAGE_WIDTH = 612.0
LEFT = 72.0
COLUMN = 468.0


def glyphs(text: str, x: float, baseline: float, size: float, *, advance: float = 0.5) -> list[Glyph]:
    """One line of glyphs drawn from ``x`` on ``baseline``: each ``advance`` em wide, a space is a
    gap (pdfminer's box: one size tall, its bottom 0.236 size below the baseline)."""
    out = []
    for ch in text:
        if ch != " ":
            bottom = baseline + 0.236 * size
            out.append(Glyph(ch, x, x + advance * size, bottom - size, bottom, baseline, size, "Vera", 0, False))
        x += advance * size
    return out


def page(*runs: list[Glyph], rules: list[Rule] | None = None, width: float = PAGE_WIDTH) -> PageGlyphs:
    return PageGlyphs(1, width, 792.0, [g for run in runs for g in run], rules or [])


def texts(page_glyphs: PageGlyphs, settings: LayoutSettings = S) -> list[str]:
    return [ln.text for ln in layout_page(page_glyphs, settings)]


# ----------------------------------------------------------------------------- stage 1: words


def test_words_follow_content_order_and_never_merge_two_lines() -> None:
    # 8-pt type on an 8.8-pt pitch: the boxes of "substep" and "deviation" overlap vertically
    upper = glyphs("substep", 100, 100.0, 8)
    lower = glyphs("deviation", 100, 108.8, 8)
    interleaved = [g for pair in zip(upper, lower, strict=False) for g in pair] + lower[len(upper) :]
    got = [w.text for w in words.words(upper + lower, S)]
    assert got == ["substep", "deviation"]
    # drawn glyph by glyph alternating between the lines, no word holds letters of both
    assert all(w.text in "substep" or w.text in "deviation" for w in words.words(interleaved, S))


def test_words_break_at_gaps_and_parser_spaces_and_keep_non_ascii() -> None:
    got = words.words(glyphs("Café au lait für Jörg", 72, 100, 10), S)
    assert [w.text for w in got] == ["Café", "au", "lait", "für", "Jörg"]
    assert all(len(w.xs) == 2 * len(w.text) for w in got)
    # a space the parser saw makes a word boundary even where the gap is too narrow to
    hinted = glyphs("ab", 72, 100, 10)
    hinted[1] = hinted[1]._replace(x0=77.5, x1=82.5, space_before=True)
    assert [w.text for w in words.words(hinted, S)] == ["a", "b"]


def test_sub_and_superscripts_stay_in_their_word() -> None:
    run = glyphs("F", 100, 100, 10) + glyphs("A", 105, 102.5, 6) + glyphs("x", 108, 100, 10)
    run += glyphs("²", 113, 96.0, 6)
    (word,) = words.words(run, S)
    assert word.text == "FAx²"
    assert word.baseline == 100  # the line's baseline, not the script's
    assert word.xs == [100.0, 105.0, 105.0, 108.0, 108.0, 113.0, 113.0, 116.0]


def test_pdfium_accents_handed_out_late_go_back_over_their_letter() -> None:
    # pdfium's order for TeX's "J\"org M\"uller": each accent after its word
    late = glyphs("Jorg", 100, 100, 10) + glyphs("¨", 106, 100, 10, advance=0.3)
    late += glyphs("Muller", 130, 100, 10) + glyphs("¨", 136, 100, 10, advance=0.3)
    late += glyphs("γ", 170, 100, 10) + glyphs("˜", 171, 97, 10, advance=0.3)  # a math accent, drawn after
    late += glyphs("Zoe", 100, 114, 10) + glyphs("¨", 142, 100, 10, advance=0.3)  # over a letter of another line
    got = _accents_in_place(late)
    assert "".join(g.text for g in got) == "J¨orgM¨ullerγ˜Zoe¨"
    assert sorted(got) == sorted(late)  # moved, never changed or lost
    plain = glyphs("Jörg Müller", 100, 100, 10)
    assert _accents_in_place(plain) is plain


def test_raised_accents_are_seated_before_their_letter_in_its_word() -> None:
    """TeX's ``\\"U`` (OT1) and math's ``\\tilde X`` draw the accent raised over a capital: it joins
    the letter's word, right before it (whether drawn before it or handed out after it), instead of
    a line of accents above the text."""
    over_u = glyphs("¨", 101.5, 97.0, 10, advance=0.5)  # centred over the U below, 3 pt up
    drawn_first = over_u + glyphs("Uber", 100, 100, 10)
    tilde = glyphs("˜", 121.5, 97.5, 10, advance=0.5)
    handed_late = glyphs("p : X", 100, 100, 10)[:-1] + glyphs("X", 120, 100, 10) + tilde
    page_glyphs = [*drawn_first, *glyphs("für", 100, 112, 10)]
    seated = words.seat_accents(drawn_first)
    assert [g.text for g in seated] == ["¨", "U", "b", "e", "r"]
    assert seated[0].baseline == 100  # on the letter's baseline, its box kept
    assert (seated[0].x0, seated[0].x1) == (over_u[0].x0, over_u[0].x1)
    assert [w.text for w in words.words(words.seat_accents(page_glyphs), S)] == ["¨Uber", "für"]
    assert [w.text for w in words.words(words.seat_accents(handed_late), S)] == ["p", ":", "˜X"]
    assert texts(page(drawn_first)) == ["¨Uber"]
    # handed out between a math letter and its subscript, both next to it: the one it is centred over
    gamma = glyphs("γ", 100, 100, 10) + glyphs("˜", 101.0, 96.0, 10, advance=0.3) + glyphs("s", 103.5, 102.0, 7)
    assert [g.text for g in words.seat_accents(gamma)] == ["˜", "γ", "s"]
    # pdfium's "p˜" on one baseline, the accent over the middle of the p: before it
    same_line = glyphs("p", 100, 100, 10) + glyphs("˜", 101.2, 100, 10, advance=0.25)
    assert [g.text for g in words.seat_accents(same_line)] == ["˜", "p"]
    # ... where pdfium marks a space before the letter (Řeh-ů-řek) with no gap: still one word
    reh = glyphs("Reh", 100, 100, 10)
    u = glyphs("u", reh[-1].x1 + 0.0002, 100, 10)[0]._replace(space_before=True)
    ring = glyphs("˚", u.x0 + 1.0, 100, 10, advance=0.3)
    assert [w.text for w in words.words(words.seat_accents([*reh, u, *ring]), S)] == ["Reh˚u"]
    # an acute drawn as an apostrophe after its letter, and an accent far above a letter, stay put
    apostrophe = glyphs("it", 100, 100, 10) + glyphs("´", 110, 100, 10, advance=0.3) + glyphs("s", 113, 100, 10)
    assert words.seat_accents(apostrophe) == apostrophe
    far = glyphs("˜", 101.5, 85.0, 10) + glyphs("X", 100, 100, 10)
    assert words.seat_accents(far) == far
    plain = glyphs("Müller", 100, 100, 10)
    assert words.seat_accents(plain) is plain


def test_a_glyph_drawn_twice_in_place_is_kept_once() -> None:
    bold = glyphs("B", 100, 100, 10)
    bold.append(bold[0]._replace(x0=100.2, x1=105.2))
    bold += glyphs("ü", 105, 100, 10)
    assert [w.text for w in words.words(bold, S)] == ["Bü"]


def test_right_to_left_letters_drawn_in_reading_order_make_one_word() -> None:
    # "مرحبا" drawn first letter rightmost, each next one to its left
    letters = "مرحبا"
    run = [g for k, ch in enumerate(letters) for g in glyphs(ch, 200 - 5 * k, 100, 10)]
    (word,) = words.words(run, S)
    assert word.text == letters[::-1]  # in x order, as every word is; the line reorders it
    line = lines.make_line(lines.pieces([word], S), S)
    assert line.text == letters
    assert line.xs[:2].tolist() == [200.0, 205.0]  # its first letter keeps its own box


def test_logical_order_table() -> None:
    # visual order (left to right on the page) -> reading order; numbers inside read left to right
    for visual, logical in [
        ("abc", "abc"),
        ("ابج", "جبا"),
        ("Arabic: ملاعلاب ابحرم", "Arabic: مرحبا بالعالم"),
        ("םולש 2024 ךותב", "בתוך 2024 שלום"),
    ]:
        xs = array("f", [float(v) for k in range(len(visual)) for v in (k, k + 1)])
        text, out = logical_order(visual, xs)
        assert text == logical
        # every code point keeps its own edges
        assert sorted(zip(out[::2], out[1::2], strict=True)) == sorted(zip(xs[::2], xs[1::2], strict=True))


# ----------------------------------------------------------------------------- stage 2: lines


def test_pieces_break_at_wide_gaps_and_lines_join_them_with_a_space_or_a_tab() -> None:
    # "alle" 1.2 em after "an": another piece, but a word space; "12 455" far off: a table cell
    run = glyphs("Grüße an", 72, 100, 10) + glyphs("alle", 124, 100, 10) + glyphs("12 455", 300, 100, 10)
    got = lines.pieces(words.words(run, S), S)
    assert [p.text for p in got] == ["Grüße an", "alle", "12 455"]
    assert lines.make_line(got, S).text == "Grüße an alle 12 455"
    assert lines.make_line(got, S, cells=True).text == "Grüße an alle\t12 455"


def test_a_superscript_drawn_after_its_line_joins_it_at_its_x() -> None:
    body = glyphs("Die Kosten werden erstattet.", 72, 100, 10)
    mark = glyphs("3", 87, 96.0, 6)  # the footnote mark right after "Die", drawn last
    rows = lines.group_rows(lines.pieces(words.words(body + mark, S), S), S)
    assert len(rows) == 1
    assert lines.make_line(rows[0], S).text == "Die3 Kosten werden erstattet."


# ----------------------------------------------------------------------------- stage 3: blocks

BODY = [
    "Die Prüfung der Anträge erfolgt nach den Vorgaben des Handbuchs für Reisekosten und wird",
    "in der Regel innerhalb von dreißig Tagen abgeschlossen, sofern alle Belege vollständig sind",
    "und keine Rückfragen an die antragstellende Person notwendig werden, was selten geschieht.",
]
WORDS = (
    "Offsets are the product and every cleaned character maps back to its exact position in the "
    "extracted source stream from there to its page and box while the cited sentence reads through "
    "unbroken café naïve façade Zürich über"
).split()


def column_text(n_lines: int, start: int, width_chars: int = 22) -> list[str]:
    """Lines of about ``width_chars`` characters, words taken in turn from ``start``."""
    out: list[str] = []
    k = start
    while len(out) < n_lines:
        line = ""
        while len(line) + len(WORDS[k % len(WORDS)]) < width_chars:
            line = f"{line} {WORDS[k % len(WORDS)]}".strip()
            k += 1
        out.append(line)
    return out


def test_three_columns_with_offset_baselines_and_tight_leading_read_column_by_column() -> None:
    cols = [column_text(12, 0), column_text(12, 7), column_text(12, 13)]
    runs = []
    for c, (x, shift) in enumerate([(40.0, 0.0), (232.0, 2.9), (424.0, 5.8)]):
        for k, text in enumerate(cols[c]):
            runs.append(glyphs(text, x, 100 + shift + 8.8 * k, 8, advance=0.45))
    # drawn row by row across the page, as some producers do
    order_drawn = [runs[c * 12 + k] for k in range(12) for c in range(3)]
    got = texts(page(*order_drawn))
    assert got == cols[0] + cols[1] + cols[2]


def test_margin_line_numbers_are_furniture_read_after_the_body() -> None:
    body = [glyphs(t, 90, 100 + 14 * k, 10) for k, t in enumerate(BODY * 3)]
    numbers = [glyphs(str(k + 1), 60, 100 + 14 * k, 10) for k in range(9)]
    laid = layout_page(page(*numbers, *body))
    assert [ln.text for ln in laid if ln.kind == "body"] == BODY * 3
    assert [ln.text for ln in laid if ln.kind == "line_number"] == [str(k) for k in range(1, 10)]
    assert [ln.kind for ln in laid][-9:] == ["line_number"] * 9
    # numbers inside the body's edges are text, not furniture
    table = [glyphs(f"{k + 1} Zeile für Zeile", 90, 100 + 14 * k, 10) for k in range(9)]
    assert all(ln.kind == "body" for ln in layout_page(page(*table)))


def test_a_ruled_table_reads_row_by_row_with_tabs_between_cells() -> None:
    rows = [
        ("Level", "2021", "2022"),
        ("General upper secondary education", "15 455", "13 951"),
        ("Vocational education", "9 871", "10 204"),
        ("Höhere Bildung", "1 205", "1 198"),
    ]
    drawn = []
    xs = (80.0, 300.0, 400.0, 500.0)
    for r, cells in enumerate(rows):
        for c, cell in enumerate(cells):
            drawn.append(glyphs(cell, xs[c] + 4, 212 + 16 * r, 9))
    rules = [Rule(80, 200 + 16 * r, 500, 200.5 + 16 * r) for r in range(5)]
    rules += [Rule(x, 200, x + 0.5, 264) for x in xs]
    # drawn column by column: the rules still give rows
    column_wise = [drawn[r * 3 + c] for c in range(3) for r in range(4)]
    laid = layout_page(page(*column_wise, rules=rules))
    assert [ln.text for ln in laid] == ["\t".join(cells) for cells in rows]
    assert {ln.kind for ln in laid} == {"table"}


def _grid(xs: tuple[float, ...], ys: list[float]) -> list[Rule]:
    """The rules of a table grid: a horizontal rule at each of ``ys``, a vertical one at each of ``xs``."""
    rules = [Rule(xs[0], y, xs[-1], y + 0.5) for y in ys]
    return rules + [Rule(x, ys[0], x + 0.5, ys[-1]) for x in xs]


def test_a_wrapped_cell_of_a_ruled_table_is_read_whole_in_its_row() -> None:
    # a description wraps onto two lines (the other cells on its first line), a label wraps onto
    # the line that holds the figures, a third row's label wraps with no figures at all
    xs = (60.0, 120.0, 330.0, 420.0)
    size, pitch = 9.0, 11.0
    drawn = [
        glyphs("Straße", xs[0] + 3, 110, size),
        glyphs("Résumé of the works on the", xs[1] + 3, 110, size),
        glyphs("1 205", xs[2] + 3, 110, size),
        glyphs("federal road, begun in 2019", xs[1] + 3, 110 + pitch, size),
        glyphs("Brücke über", xs[0] + 3, 140, size),  # runs up to its cell's right rule
        glyphs("den Rhein", xs[0] + 3, 140 + pitch, size),
        glyphs("the new bridge", xs[1] + 3, 140 + pitch, size),
        glyphs("9 871", xs[2] + 3, 140 + pitch, size),
        glyphs("Kosten für", xs[0] + 3, 172, size),
        glyphs("Planung", xs[0] + 3, 172 + pitch, size),
        # Chinese: the figures sit between the label's two lines, which join without a space
        glyphs("销售商品、提", xs[0] + 3, 202, size, advance=1.0),
        glyphs("7,715,912.60", xs[2] + 3, 207, size),
        glyphs("供的现金", xs[0] + 3, 202 + pitch, size, advance=1.0),
    ]
    rules = _grid(xs, [98.0, 128.0, 160.0, 190.0, 220.0])
    assert texts(page(*drawn, rules=rules)) == [
        "Straße\tRésumé of the works on the federal road, begun in 2019\t1 205",
        "Brücke über den Rhein\tthe new bridge\t9 871",
        "Kosten für Planung",
        "销售商品、提供的现金\t7,715,912.60",
    ]


def test_text_inside_a_frame_reads_as_a_region_of_its_own_not_as_rows_of_cells() -> None:
    # a diagram's frame (with its name tab in the corner, as UML tools draw it) around two boxes of
    # attribute lines whose baselines do not line up: no rule crosses the frame, so it is no table
    # and each box reads whole; the frame's text still stands apart from the text around it
    left = ["Gewässer: Fläche", "Größe: Zahl", "Tiefe: Meter", "Ufer: Linie", "Name: Text", "Art: Code"]
    right = ["Straße: Kante", "Breite: Meter", "Belag: Code", "Länge: Meter", "Klasse: Code", "Nummer: Text"]
    drawn = [glyphs("Die Übersicht zeigt das Modell der Gewässer.", 60, 90, 10)]
    drawn += [glyphs(t, 80, 150 + 12 * k, 9) for k, t in enumerate(left)]
    drawn += [glyphs(t, 300, 156 + 12 * k, 9) for k, t in enumerate(right)]
    drawn.append(glyphs("Danach folgen die Straßen des Netzes.", 60, 330, 10))
    frame = [Rule(60, 110, 480, 110.5), Rule(60, 300, 480, 300.5), Rule(60, 110, 60.5, 300), Rule(480, 110, 480.5, 300)]
    tab = [Rule(60, 124, 140, 124.5), Rule(140, 110, 140.5, 124.5)]
    got = texts(page(*drawn, rules=frame + tab))
    assert got[0] == "Die Übersicht zeigt das Modell der Gewässer."
    assert got[-1] == "Danach folgen die Straßen des Netzes."
    body = " ".join(got[1:-1])
    assert " ".join(left) in body
    assert " ".join(right) in body
    assert {ln.kind for ln in layout_page(page(*drawn, rules=frame + tab))} == {"body"}
    # a rule across the frame makes it a table: its lines are read row by row across the boxes
    across = Rule(60, 200, 480, 200.5)
    laid = layout_page(page(*drawn, rules=[*frame, *tab, across]))
    assert {ln.kind for ln in laid[1:-1]} == {"table"}
    assert [ln.text for ln in laid[1:3]] == [left[0], right[0]]


def test_rows_of_a_table_ruled_only_around_its_header_stay_rows() -> None:
    # no rule between the body rows: nothing says two lines are one row, so none are joined
    xs = (60.0, 200.0, 300.0)
    body = [("Zürich", "1 205"), ("Genève", "9 871"), ("Basel", "412")]
    drawn = [glyphs("Ort", xs[0] + 3, 110, 9), glyphs("Zahl", xs[1] + 3, 110, 9)]
    for k, (name, number) in enumerate(body):
        drawn += [glyphs(name, xs[0] + 3, 130 + 11 * k, 9), glyphs(number, xs[1] + 3, 130 + 11 * k, 9)]
    rules = [Rule(xs[0], y, xs[-1], y + 0.5) for y in (98.0, 118.0, 170.0)]
    rules += [Rule(x, 98.0, x + 0.5, 170.0) for x in xs]
    assert texts(page(*drawn, rules=rules)) == ["Ort\tZahl"] + [f"{n}\t{v}" for n, v in body]


def test_footnotes_at_a_column_foot_are_read_after_the_page_body() -> None:
    left = [glyphs(t, 40, 100 + 12 * k, 10) for k, t in enumerate(column_text(20, 0, 40))]
    left.append(glyphs("the sentence goes on in the state-", 40, 100 + 12 * 20, 10))
    notes = [glyphs("1 Code: https://example.org/çà", 40, 400, 7), glyphs("Proceedings of ACL 2020", 40, 409, 7)]
    right = [glyphs("of-the-art reading order, unbroken.", 320, 100, 10)]
    right += [glyphs(t, 320, 112 + 12 * k, 10) for k, t in enumerate(column_text(20, 3, 40))]
    got = texts(page(*left, *notes, *right))
    cut = got.index("the sentence goes on in the state-")
    assert got[cut + 1] == "of-the-art reading order, unbroken."
    assert got[-2:] == ["1 Code: https://example.org/çà", "Proceedings of ACL 2020"]


def test_a_label_floating_in_the_gutter_does_not_cut_the_columns() -> None:
    left = [glyphs(t, 40, 100 + 12 * k, 10) for k, t in enumerate(column_text(20, 0, 40))]
    right = [glyphs(t, 330, 100 + 12 * k, 10) for k, t in enumerate(column_text(20, 5, 40))]
    label = glyphs("n = 12", 300, 206, 7)
    got = texts(page(*left, label, *right))
    assert got == column_text(20, 0, 40) + column_text(20, 5, 40) + ["n = 12"]


def test_a_line_reaching_into_a_gutter_widened_by_an_indented_abstract_stays_in_its_column() -> None:
    """ACL's first page: the abstract is indented, so above the introduction the gutter is wide and
    crossed only by the introduction's few lines; the page number below reaches into the right
    column's edge. The last line of the left column ends a little into that wide strip, and must
    still read before the right column (it was cut out as a full-width section of its own)."""
    heading = "Guidelines for Human Evaluation of Faithfulness in Long-form Summaries"
    title = glyphs(heading, 60, 60, 12)
    abstract = column_text(20, 0, 24)
    body = [*column_text(1, 9, 40), "standard for evaluating model-generated sum-"]
    right = ["maries (Kryscinski, 2019; Fabbri, 2021; Müller) and", *column_text(40, 4, 40)]
    got = texts(
        page(
            title,
            *(glyphs(t, 70, 100 + 12 * k, 10) for k, t in enumerate(abstract)),
            *(glyphs(t, 40, 376 + 12 * k, 10) for k, t in enumerate(body)),
            *(glyphs(t, 300, 100 + 12 * k, 10) for k, t in enumerate(right)),
            glyphs("1650", 282, 600, 10),
        )
    )
    assert got == [heading, *abstract, *body, *right, "1650"]


def test_a_short_last_column_is_a_column_not_the_cells_of_a_table() -> None:
    """The last page of a reference list: the left column runs down the page, the right one stops
    after ten lines (under a sixth of the page's text). Both are columns, read one after the other,
    not rows of a table with a tab between the columns."""
    left = column_text(60, 0, 48)
    right = ["[33] Kevin Yang, Nanyun Peng, Yuandong Tian", *column_text(9, 5, 40)]
    got = texts(
        page(
            *(glyphs(t, 40, 100 + 11 * k, 9) for k, t in enumerate(left)),
            *(glyphs(t, 330, 100 + 11 * k, 9) for k, t in enumerate(right)),
        )
    )
    assert got == [*left, *right]


def test_hanging_labels_of_a_reference_list_belong_to_their_column() -> None:
    """The right column is a reference list: labels at its left edge, entries indented after them
    (arXiv's "[Mit97] M. Mitchell, ..."), 10 pt from the left column and up to 16 pt from their
    entries; the longest labels run into their entry. The gutter is the empty strip left of the
    labels, and each label reads with its entry."""
    prose = column_text(40, 0, 40)
    left = [glyphs(t, 72, 100 + 12 * k, 10) for k, t in enumerate(prose)]
    gutter_at = 72 + 5 * max(len(t) for t in prose)
    labels_at, entries_at = gutter_at + 10, gutter_at + 10 + 36 + 5
    labels = ["[Mit97]", "[KMN+02]", "[Nie15]", "[NV15]", "[SPB+14]", "[Réd16]", "[Shi14]", "[TL05]"] * 2
    entries = column_text(32, 7, 50)
    right = []
    for k, text in enumerate(entries):
        baseline = 100 + 24 * (k // 2) + 12 * (k % 2)
        if k % 2 == 0:
            right.append(glyphs(labels[k // 2], labels_at, baseline, 9))
        right.append(glyphs(text, entries_at, baseline, 9))
    got = texts(page(*left, *right))
    assert got[: len(prose)] == prose
    flat = [" ".join(g.split()) for g in got[len(prose) :]]
    assert flat == [f"{labels[k // 2]} {t}" if k % 2 == 0 else t for k, t in enumerate(entries)]


def test_a_full_width_title_and_caption_cut_the_columns_into_sections() -> None:
    title = glyphs("Grounded Citations for Clinical Guideline Summaries: a Study", 60, 60, 14)
    left_top = [glyphs(t, 40, 100 + 12 * k, 10) for k, t in enumerate(column_text(8, 0, 40))]
    right_top = [glyphs(t, 330, 100 + 12 * k, 10) for k, t in enumerate(column_text(8, 2, 40))]
    caption = glyphs("Figure 1: a full-width caption across both columns of the page, naïvely long", 40, 220, 9)
    left_low = [glyphs(t, 40, 250 + 12 * k, 10) for k, t in enumerate(column_text(8, 4, 40))]
    right_low = [glyphs(t, 330, 250 + 12 * k, 10) for k, t in enumerate(column_text(8, 6, 40))]
    got = texts(page(title, *left_top, *right_top, caption, *left_low, *right_low))
    assert got == (
        [
            "Grounded Citations for Clinical Guideline Summaries: a Study",
            *column_text(8, 0, 40),
            *column_text(8, 2, 40),
            "Figure 1: a full-width caption across both columns of the page, naïvely long",
            *column_text(8, 4, 40),
            *column_text(8, 6, 40),
        ]
    )


def test_a_table_of_short_cells_is_not_mistaken_for_text_columns() -> None:
    names = ["Maxim Integrated", "McGraw-Hill", "Long Beach Memorial", "Leidos", "Bosch Healthcare", "Alphatec"]
    cities = ["San José", "Monterey", "Long Beach", "El Segundo", "Palo Alto", "Carlsbad"]
    drawn = [glyphs(n, 60, 100 + 12 * k, 9) for k, n in enumerate(names)]
    drawn += [glyphs(c, 300, 100 + 12 * k, 9) for k, c in enumerate(cities)]
    drawn += [glyphs(str(100 + k), 450, 100 + 12 * k, 9) for k in range(6)]
    got = texts(page(*drawn))
    assert got == [f"{n}\t{c}\t{100 + k}" for k, (n, c) in enumerate(zip(names, cities, strict=True))]


def test_two_columns_of_short_entries_whose_rows_drift_apart_are_columns_not_a_table() -> None:
    """A back-of-book index: entries of one or two words (``Abschluss, 3``), letter headings with
    extra space above them, so the two columns' baselines drift apart. Each column reads whole, left
    then right; the same entries on one grid of baselines (a table) stay rows."""
    left = ["A", "Abbildung", "affine, 107", "Abschluss, 3", "Ähnlichkeit, 83", "B", "Basis, 3", "Baum, 37",
            "C", "Cauchy-Folge, 8", "D", "dicht, 3", "Dimension, 34"]  # fmt: skip
    right = ["G", "Gauß-Krümmung, 92", "Gerade, 64", "Größe, 7", "H", "Halbebene, 66", "Homotopie, 46",
             "K", "Knoten, 20", "Kugel, 28", "M", "Möbiusband, 30", "Würfel, 12"]  # fmt: skip

    def column(entries: list[str], x: float, gap: float) -> list[list[Glyph]]:
        out, y = [], 100.0
        for k, e in enumerate(entries):
            y += (11 + (gap if len(e) == 1 else 0)) if k else 0
            out.append(glyphs(e, x, y, 9))
        return out

    assert texts(page(*column(left, 60, 9.0), *column(right, 320, 6.4))) == [*left, *right]
    assert texts(page(*column(left, 60, 0.0), *column(right, 320, 0.0))) == [
        f"{a}\t{b}" for a, b in zip(left, right, strict=True)
    ]


#: A table without rules: three columns, cells wrapping on a 11-pt pitch, 6 pt more between rows.
UNRULED = [
    ["Volet", "Responsable", "Secteurs"],
    [["Réseau cyclable", "reliant"], ["Responsable du transport", "actif, urbanisme et", "mobilité"],
     ["Tous les secteurs et", "quartiers de la ville"]],
    [["Sécurité des écoliers"], ["Direction des travaux", "publics"], ["Abords des écoles"]],
    [["Navette électrique", "du centre-ville"], ["Société de transport"], ["Le quai et la gare"]],
]  # fmt: skip


def unruled_table(xs: tuple[float, ...], gap: float = 6.0) -> list[list[Glyph]]:
    drawn, y = [], 100.0
    for r, row in enumerate(UNRULED):
        cells = [[c] if isinstance(c, str) else c for c in row]
        for x, cell in zip(xs, cells, strict=True):
            drawn += [glyphs(t, x, y + 11 * k, 9, advance=0.45) for k, t in enumerate(cell)]
        y += 11 * max(len(c) for c in cells) + (gap if r < len(UNRULED) - 1 else 0)
    return drawn


def _rows_of(table: list[list[str | list[str]]]) -> list[str]:
    return ["\t".join(c if isinstance(c, str) else " ".join(c) for c in row) for row in table]


def test_wrapped_cells_of_a_table_without_rules_read_whole_row_by_row() -> None:
    # columns far apart (the column search would split them) and close together (read line by line)
    for xs in ((60.0, 200.0, 380.0), (60.0, 165.0, 290.0)):
        assert texts(page(*unruled_table(xs))) == _rows_of(UNRULED), xs


def test_a_table_without_space_between_rows_keeps_one_row_a_line() -> None:
    # no space tells the rows apart: each line stays a row of its own (as before)
    got = texts(page(*unruled_table((60.0, 165.0, 290.0), gap=0.0)))
    assert "Réseau cyclable\tResponsable du transport\tTous les secteurs et" in got


def test_rows_of_one_line_cells_under_a_spaced_header_are_not_merged() -> None:
    # a header set off by space, rows of figures, and a last row with fewer cells: one line a row
    rows = [["Stadt", "Plätze", "Kosten"], ["Zürich", "24", "1 200"], ["Genève", "18", "950"],
            ["Köln", "30", "1 480"], ["Summe", "72"]]  # fmt: skip
    drawn = []
    for r, row in enumerate(rows):
        y = 100.0 + 11 * r + (6 if r else 0)
        drawn += [glyphs(c, x, y, 9) for x, c in zip((60.0, 200.0, 320.0), row, strict=False)]
    assert texts(page(*drawn)) == ["\t".join(row) for row in rows]


def test_two_columns_of_text_with_spaced_paragraphs_stay_columns() -> None:
    # paragraphs set off by space, at heights of their own in each column: no table
    left = [column_text(4, 0), column_text(3, 5), column_text(4, 9)]
    right = [column_text(2, 3), column_text(5, 11), column_text(3, 2)]

    def column(paras: list[list[str]], x: float) -> list[list[Glyph]]:
        out, y = [], 100.0
        for para in paras:
            out += [glyphs(t, x, y + 11 * k, 9, advance=0.45) for k, t in enumerate(para)]
            y += 11 * len(para) + 6
        return out

    got = texts(page(*column(left, 60), *column(right, 320)))
    assert got == [t for para in left + right for t in para]


def test_independent_needs_a_column_of_lines_and_few_shared_baselines() -> None:
    def side(x: float, bases: list[float]) -> list[lines.Piece]:
        run = [g for y in bases for g in glyphs("Zürich, 4", x, y, 10)]
        return lines.pieces(words.words(run, S), S)

    grid = [100.0 + 12 * k for k in range(10)]
    shifted = [y + 6 for y in grid]
    assert blocks._independent(side(60, grid), side(300, shifted), S)
    assert not blocks._independent(side(60, grid), side(300, grid), S)  # a table's rows
    assert not blocks._independent(side(60, grid[:7]), side(300, shifted[:7]), S)  # too few lines
    # the share is taken on the side with fewer lines: a key column beside a cell that wraps
    wrapped = [y for b in grid for y in (b, b + 4.5)]
    assert not blocks._independent(side(60, grid), side(300, wrapped), S)


EXAMPLE = [
    "Beispiel. Frau Grün ist verwitwet und ihr zu versteuerndes Einkommen",
    "auf Zeile 40 beträgt 25.300 €. Zuerst sucht sie die Zeile für ihr",
    "Einkommen und liest dann die Spalte für verwitwete Personen bis zu",
    "dem Betrag, den sie auf Zeile 41 einträgt: genau 3.016 € Steuer.",
]
SAMPLE_TABLE = [("25.200", "25.250", "3.393"), ("25.250", "25.300", "3.400"), ("25.300", "25.350", "3.408"),
                ("25.350", "25.400", "3.415"), ("25.400", "25.450", "3.423")]  # fmt: skip


def test_a_paragraph_beside_a_small_table_reads_whole_then_the_table() -> None:
    """The IRS's worked example beside its sample tax table: the table's rows, at their own pitch,
    land near the paragraph's baselines, so the two sides look like one table's cells. The
    paragraph's lines run on into each other and are long: it reads whole, then the table's rows."""
    drawn = [glyphs(t, 50, 100 + 9.5 * k, 8) for k, t in enumerate(EXAMPLE)]
    for k, row in enumerate(SAMPLE_TABLE):
        drawn += [glyphs(cell, 360 + 45 * c, 101.5 + 7.3 * k, 6.5) for c, cell in enumerate(row)]
    assert texts(page(*drawn)) == [*EXAMPLE, *("\t".join(row) for row in SAMPLE_TABLE)]


def test_a_band_of_two_short_columns_of_running_text_reads_column_by_column() -> None:
    """The last lines of a page's two columns above a full-width worksheet: too few for the column
    search, but long lines running on, one per row on each side. A small table of long cells that
    end their sentences, and a marker beside two lines, stay rows."""
    left = ["Juli 1986 und Sie haben diese Methode", "im Vorjahr für den steuerpflichtigen Teil",
            "genutzt, oder (b) Ihr Rentenbeginn lag nach"]  # fmt: skip
    right = ["dem 18. November 1996 und beide der", "folgenden Bedingungen gelten."]
    band = [glyphs(t, 72, 100 + 10 * k, 9) for k, t in enumerate(left)]
    band += [glyphs(t, 320, 100 + 10 * k, 9) for k, t in enumerate(right)]
    assert texts(page(*band)) == [*left, *right]
    cells = [glyphs(t.rstrip(".,") + ".", 72, 100 + 10 * k, 9) for k, t in enumerate(left[:2])]
    cells += [glyphs(t.rstrip(".,") + ".", 320, 100 + 10 * k, 9) for k, t in enumerate(right)]
    assert texts(page(*cells)) == [f"{a.rstrip('.,')}.\t{b.rstrip('.,')}." for a, b in zip(left, right, strict=False)]


def test_two_tables_side_by_side_each_ruled_on_its_own_read_one_after_the_other() -> None:
    """The IRS's tax rate schedules: two tables of short cells side by side, their rows on one grid
    of baselines, each with horizontal rules that span it and stop at the gap between them. Each
    table reads whole; the same cells under rules that run across both (one table), or broken at
    every column (one table ruled cell by cell), stay rows across the page."""
    left_rows = [("Über—", "bis—", "Steuer"), ("0 €", "7.825 €", "10 %"), ("7.825 €", "31.850 €", "15 %"),
                 ("31.850 €", "77.100 €", "25 %"), ("77.100 €", "160.850 €", "28 %")]  # fmt: skip
    right_rows = [("Über—", "bis—", "Steuer"), ("0 €", "15.650 €", "10 %"), ("15.650 €", "63.700 €", "15 %"),
                  ("63.700 €", "128.500 €", "25 %"), ("128.500 €", "195.850 €", "28 %")]  # fmt: skip
    drawn = []
    for k, (a, b) in enumerate(zip(left_rows, right_rows, strict=True)):
        y = 120 + 14 * k
        drawn += [glyphs(cell, 72 + 70 * c, y, 8) for c, cell in enumerate(a)]
        drawn += [glyphs(cell, 330 + 70 * c, y, 8) for c, cell in enumerate(b)]
    heights = [112.0, 126.0, 196.0]  # above the head, under it, under the last row
    apart = [Rule(70, y, 300, y) for y in heights] + [Rule(320, y, 560, y) for y in heights]
    across = [Rule(70, y, 560, y) for y in heights]
    by_cell = [Rule(x, y, x + 65, y) for y in heights for x in (70, 140, 210, 320, 390, 460)]
    rows = ["\t".join(r) for r in left_rows], ["\t".join(r) for r in right_rows]
    assert texts(page(*drawn, rules=apart)) == [*rows[0], *rows[1]]
    together = ["\t".join((*a, *b)) for a, b in zip(left_rows, right_rows, strict=True)]
    assert texts(page(*drawn, rules=across)) == together
    assert texts(page(*drawn, rules=by_cell)) == together
    assert texts(page(*drawn)) == together


def test_tiny_tags_beside_the_boxed_lines_of_a_figure_are_read_after_it() -> None:
    """A figure that dissects a paragraph: each of its lines in a box of its own, tagged on the left
    in 3.6-pt type (``Zusammenfassen``, ``Gruppieren``). The lines read on as one paragraph, the
    tags after the figure; a formula's label among its symbols is no tag."""
    lines_ = ["Mehrere Studien haben gezeigt, dass vortrainierte Modelle selten gut schließen",
              "[Brown et al., 2020; Müller et al., 2022], doch ihre Fähigkeit lässt sich steigern,",
              "indem sie Schritt für Schritt begründen, sei es durch Feinabstimmung oder Beispiele."]  # fmt: skip
    tags = ["Zusammenfassen", "Gruppieren", "Abgleichen"]
    drawn, rules = [], []
    for k, (t, tag) in enumerate(zip(lines_, tags, strict=True)):
        y = 100 + 15 * k
        drawn += [glyphs(t, 180, y, 7), glyphs(tag, 180 - 6 - 0.5 * 3.6 * len(tag), y - 1.5, 3.6)]
        top, bottom = y - 8, y + 3
        rules += [Rule(176, top, 520, top), Rule(176, bottom, 520, bottom), Rule(176, top, 176, bottom)]
        rules += [Rule(520, top, 520, bottom)]
    assert texts(page(*drawn, rules=rules)) == [*lines_, *tags]
    # unboxed, the lines are one paragraph and each tag is read after it
    assert texts(page(*drawn)) == [*lines_, *tags]
    formula = [glyphs("Lehrsatz", 150, 100, 3.6), glyphs("= P n+1 k=0 x k", 170, 100, 10)]
    assert not blocks._tag_words(
        lines.group_rows(lines.pieces(words.words([g for r in formula for g in r], S), S), S)[0]
    )


def test_a_table_whose_long_cells_end_their_rows_stays_rows() -> None:
    """Long cells that each end a sentence are a table's (a list of rules beside their sections):
    they stay rows with their neighbours."""
    rules = ["Die Frist läuft ab dem Tag der Zustellung des Bescheids an.",
             "Ein Einspruch ist schriftlich beim zuständigen Finanzamt einzulegen.",
             "Über den Einspruch entscheidet die Behörde, die den Bescheid erließ.",
             "Die Entscheidung ergeht schriftlich und wird förmlich zugestellt."]  # fmt: skip
    drawn = [glyphs(t, 50, 100 + 12 * k, 8) for k, t in enumerate(rules)]
    drawn += [glyphs(f"§ {355 + k}", 360, 100 + 12 * k, 8) for k in range(len(rules))]
    drawn += [glyphs(f"Abs. {k + 1}", 420, 100 + 12 * k, 8) for k in range(len(rules))]
    assert texts(page(*drawn)) == [f"{r}\t§ {355 + k}\tAbs. {k + 1}" for k, r in enumerate(rules)]


def test_paragraph_needs_long_lines_running_on_at_a_line_pitch() -> None:
    def side(rows: list[tuple[str, float, float]]) -> list[lines.Piece]:
        return lines.pieces(words.words([g for t, x, y in rows for g in glyphs(t, x, y, 8)], S), S)

    running = [(t, 50, 100 + 9.5 * k) for k, t in enumerate(EXAMPLE)]
    assert blocks._paragraph(side(running), S)
    assert not blocks._paragraph(side(running[:2]), S)  # two lines are no paragraph
    # lines ending a sentence each: a table's long cells
    assert not blocks._paragraph(side([(t.rstrip(".:") + ".", x, y) for t, x, y in running]), S)
    # far apart, or at other x: not one paragraph
    assert not blocks._paragraph(side([(t, 50, 100 + 30 * k) for k, (t, _, _) in enumerate(running)]), S)
    assert not blocks._paragraph(side([(t, 50 + 60 * (k % 2), y) for k, (t, _, y) in enumerate(running)]), S)
    # short lines: cells, not running text
    assert not blocks._paragraph(side([(" ".join(t.split()[:4]), x, y) for t, x, y in running]), S)


def test_a_label_beside_a_note_is_read_after_the_note_not_inside_its_sentence() -> None:
    """A tax form's note: a paragraph indented beside a bold ``!`` (larger type) and a ``CAUTION`` (a
    smaller bold font, drawn right before the line's text, as the IRS draws it) standing left of its
    second and third lines. They leave the sentence, and are read after the note."""
    note = ["You may have to pay an extra", "tax if you received a taxable", "distribution from the Zürich",
            "account in that year. See Form 5329."]  # fmt: skip
    drawn = [glyphs(t, 100, 100 + 10 * k, 9.5) for k, t in enumerate(note)]
    bang = [g._replace(font="Bold") for g in glyphs("!", 82, 112.5, 17)]
    caution = [g._replace(font="Black") for g in glyphs("CAUTION", 78, 118.7, 5)]
    after = glyphs("Distributions from a health savings account are", 72, 150, 9.5)
    got = texts(page(drawn[0], bang, drawn[1], caution, drawn[2], drawn[3], after))
    assert got == [*note, "!", "CAUTION", "Distributions from a health savings account are"]


def test_hanging_list_markers_formulas_and_words_left_of_a_paragraph_stay_in_their_line() -> None:
    """The markers of a list whose items end without a full stop, an arrow of a derivation, and a
    lower-case word at a paragraph's left are not labels beside it."""
    items = ["Enter the amount from line 7 of the form", "carried over from the year before",
             "Enter the smaller of line 1 and line 2", "as shown in the table for Zürich"]  # fmt: skip
    drawn = []
    for k, t in enumerate(items):
        drawn.append(glyphs(t, 100, 100 + 10 * k, 9.5))
        if k % 2 == 0:
            drawn.append([g._replace(font="Bold") for g in glyphs(f"{k // 2 + 1}.", 80, 100 + 10 * k, 9.5)])
    assert texts(page(*drawn)) == [f"{k // 2 + 1}. {t}" if k % 2 == 0 else t for k, t in enumerate(items)]
    maths = ["f(x) = g(x) + h(x) for all x", "g(x) = 0 and h(x) = 0 hold too"]
    drawn = [glyphs(maths[0], 100, 100, 10), [g._replace(font="Sym") for g in glyphs("⇒", 85, 110, 10)]]
    drawn.append(glyphs(maths[1], 100, 110, 10))
    assert texts(page(*drawn)) == [maths[0], f"⇒ {maths[1]}"]


def test_a_running_foot_inside_one_column_is_read_after_the_page() -> None:
    """Two columns; the running foot stands at the foot of the left column and the page number under
    the gutter, apart from the body by more than a line's gap: the foot is read last, not inside the
    left column's text."""
    left = column_text(12, 0, 40)
    right = column_text(12, 3, 40)
    drawn = [glyphs(t, 40, 600 + 12 * k, 10) for k, t in enumerate(left)]
    drawn += [glyphs(t, 330, 600 + 12 * k, 10) for k, t in enumerate(right)]
    drawn += [glyphs("Anleitung zur Einkommensteuer", 40, 760, 8), glyphs("-27-", 296, 760, 8)]
    got = texts(page(*drawn))
    assert got == [*left, *right, "Anleitung zur Einkommensteuer\t-27-"]
    # the last line of a column right under the one before it is body, however low it stands
    low = [glyphs(t, 40, 640 + 12 * k, 10) for k, t in enumerate(left)]
    assert texts(page(*low, *(glyphs(t, 330, 100 + 12 * k, 10) for k, t in enumerate(right)))) == [*left, *right]


def test_blocks_stage_reports_kinds_and_groups() -> None:
    body = [glyphs(t, 90, 100 + 14 * k, 10) for k, t in enumerate(BODY * 3)]
    numbers = [glyphs(str(k + 1), 60, 100 + 14 * k, 10) for k in range(9)]
    found = blocks.blocks(lines.pieces(words.words([g for r in numbers + body for g in r], S), S), [], 612, S)
    assert [b.kind for b in found] == ["body", "line_number"]
    assert len(found[0].lines) == 9


# ----------------------------------------------------------------------------- stage 4: order


def starts(rows: list[tuple[str, float, float]]) -> list[tuple[str, bool]]:
    runs = [glyphs(text, LEFT, y + 0.764 * pt, pt) for text, y, pt in rows]
    return [(line.text, line.paragraph_before) for line in layout_page(page(*runs))]


def test_a_heading_in_a_larger_font_is_its_own_paragraph() -> None:
    rows = [("Erstattung für Übernachtungen", 72.0, 14.0)]
    rows += [(t, 92.0 + 12.0 * k, 10.0) for k, t in enumerate(BODY)]
    got = starts(rows)
    assert [t for t, _ in got] == ["Erstattung für Übernachtungen", *BODY]
    # the pitch from the heading is the body's, so only the font size marks the break
    assert [p for _, p in got] == [False, True, False, False]


def test_a_short_numbered_heading_in_the_body_font_is_its_own_paragraph() -> None:
    rows = [(t, 72.0 + 12.0 * k, 10.0) for k, t in enumerate(BODY)]
    rows += [("2 Café-Regeln im Überblick", 108.0, 10.0)]
    rows += [(t, 120.0 + 12.0 * k, 10.0) for k, t in enumerate(BODY)]
    got = starts(rows)
    assert [p for _, p in got] == [False, False, False, True, True, False, False]


def test_body_lines_without_sentence_ends_run_on() -> None:
    body = [BODY[0], BODY[0], BODY[1], BODY[2]]
    got = starts([(t, 72.0 + 12.0 * k, 10.0) for k, t in enumerate(body)])
    assert [p for _, p in got] == [False, False, False, False]


def test_a_short_line_followed_by_lowercase_is_not_a_heading() -> None:
    body = [BODY[0], "Kosten und", "weitere Angaben folgen im nächsten Kapitel."]
    got = starts([(t, 72.0 + 12.0 * k, 10.0) for k, t in enumerate(body)])
    assert [p for _, p in got] == [False, False, False]


def test_order_reads_deferred_blocks_after_the_body_each_a_paragraph() -> None:
    def line(text: str, kind: lines.LineKind, y: float) -> lines.TextLine:
        xs = array("f", [float(v) for k in range(len(text)) for v in (k, k + 1)])
        return lines.TextLine(text, xs, 0, len(text), y, y + 10, y + 8, 10, kind)

    found = [
        blocks.Block([line("Fußnote eins", "footnote", 700)], "footnote", 0),
        blocks.Block([line("Body one.", "body", 100), line("body two", "body", 112)], "body", 0),
        blocks.Block([line("7", "line_number", 100)], "line_number", 1),
        blocks.Block([line("Body three", "body", 100)], "body", 1),
    ]
    got = order.order(found, S)
    assert [(ln.text, ln.kind) for ln in got] == [
        ("Body one.", "body"),
        ("body two", "body"),
        ("Body three", "body"),
        ("Fußnote eins", "footnote"),
        ("7", "line_number"),
    ]
    assert got[3].paragraph_before
    assert got[4].paragraph_before


# ----------------------------------------------------------------------------- the page


def test_rotated_margin_text_is_margin_furniture_outside_the_body() -> None:
    body = [glyphs(t, 90, 300 + 14 * k, 10) for k, t in enumerate(BODY)]
    stamp = []
    y = 500.0
    for ch in "arXiv:2302.07302v1 [cs.HC]":
        if ch != " ":  # read bottom to top in the left margin: x across, y up
            stamp.append(Glyph(ch, 30, 40, y - 6, y, 38, 10, "Times", 90, False))
        y -= 6
    interleaved = [*body[:1], stamp[:10], *body[1:], stamp[10:]]
    laid = layout_page(page(*interleaved))
    assert [ln.text for ln in laid if ln.kind == "body"] == BODY
    (margin,) = [ln for ln in laid if ln.kind == "margin"]
    assert margin.text == "arXiv:2302.07302v1 [cs.HC]"
    assert laid[-1] is margin
    assert (margin.top, margin.bottom) == (344.0, 500.0)
    assert len(margin.xs) == 2 * len(margin.text)


def test_every_code_point_has_two_x_edges() -> None:
    laid = layout_page(page(*[glyphs(t, 72, 100 + 12 * k, 10) for k, t in enumerate(BODY)]))
    for ln in laid:
        assert len(ln.xs) == 2 * len(ln.text)
        assert all(a <= b for a, b in zip(ln.xs[::2], ln.xs[1::2], strict=True))


# ----------------------------------------------------------------------------- vertical writing


def column(text: str, x: float, top: float, size: float = 10.0) -> list[Glyph]:
    """One column of vertical writing: upright glyphs one em square, stacked from ``top`` down."""
    out = []
    for k, ch in enumerate(text):
        t = top + k * size
        out.append(Glyph(ch, x, x + size, t, t + size, t + 0.88 * size, size, "HeiseiMin-W3", 0, False))
    return out


def test_vertical_writing_reads_columns_top_to_bottom_right_to_left_tier_by_tier() -> None:
    # two tiers of three columns; the first column of each paragraph starts one character down
    one = ["　本日は晴天なり。", "風が強いので外出の", "際は注意されたい。", "　午後は会議室で", "打ち合わせを行う。"]
    two = ["　明日は雨の予報で", "ある。傘を忘れずに", "持参すること。", "　以上、連絡する。"]
    tier1 = [column(t, 500 - 18 * k, 100) for k, t in enumerate(one)]
    tier2 = [column(t, 500 - 18 * k, 300) for k, t in enumerate(two)]
    head = glyphs("事業報告書", 250, 60, 10, advance=1.0)  # a horizontal running head
    number = glyphs("12", 300, 500, 10)  # the page number, below the tiers
    got = layout_page(page(head, *tier1, *tier2, number))
    assert [ln.text for ln in got] == ["事業報告書"] + [t.lstrip("　") for t in one + two] + ["12"]
    # the indented columns start paragraphs; a column read on from the one before does not
    assert [ln.paragraph_before for ln in got[1:-1]] == [True, False, False, True, False, True, False, False, True]
    # every code point of a column has the column's box
    first = got[1]
    assert list(first.xs[:2]) == [500.0, 510.0]
    assert (first.top, first.bottom) == (110.0, 190.0)


def test_horizontal_cjk_and_stacked_latin_are_not_vertical_writing() -> None:
    horizontal = [glyphs("本日は晴天なり、風が強い。", 72, 100 + 14 * k, 10, advance=1.0) for k in range(4)]
    assert texts(page(*horizontal)) == ["本日は晴天なり、風が強い。"] * 4
    digits = [column("1234567890", 72 + 20 * k, 100) for k in range(3)]  # a table's digit columns
    got = texts(page(*digits))
    assert got[0].split() == ["1", "1", "1"]
    assert len(got) == 10


def test_a_lone_cjk_character_on_a_vertical_page_is_a_column_of_its_own() -> None:
    title = column("序", 520, 90)
    body = [column("わたくしといふ現象は", 480, 100), column("假定された有機交流", 462, 100)]
    assert texts(page(title, *body)) == ["序", "わたくしといふ現象は", "假定された有機交流"]


def test_cjk_lines_count_as_many_words_when_columns_are_found() -> None:
    # two columns of Chinese text: each line is one "word" between spaces, yet they are text columns
    left = [glyphs("第一条本办法适用于全体员工", 60, 100 + 14 * k, 10, advance=1.0) for k in range(6)]
    right = [glyphs("第二条员工应当遵守本办法", 330, 100 + 14 * k, 10, advance=1.0) for k in range(6)]
    assert texts(page(*left, *right)) == ["第一条本办法适用于全体员工"] * 6 + ["第二条员工应当遵守本办法"] * 6


def test_the_cjk_range_counted_in_c_is_the_one_is_cjk_accepts() -> None:
    # split_vertical rejects a page by counting CJK_CHARS with a regex: it must be is_cjk exactly
    pattern = re.compile(f"[{CJK_CHARS}]")
    differ = [o for o in range(0x30000) if bool(pattern.fullmatch(chr(o))) != is_cjk(chr(o))]
    assert differ == []


def test_vertical_writing_needs_eight_stacked_characters_and_half_the_page() -> None:
    eight, seven = column("本日は晴天なり。", 500, 100), column("本日は晴天なり", 500, 100)
    assert split_vertical(eight) == ([], eight)
    assert split_vertical(seven) == (seven, [])
    latin_9 = glyphs("Page nine", 72, 400, 10)  # nine glyphs, eight of them not spaces
    latin_10 = glyphs("Page ten 10", 72, 400, 10)  # eleven glyphs, nine not spaces
    page_9 = eight + latin_9
    assert split_vertical(page_9) == (latin_9, eight)  # 8 stacked of 16 solid: half the page
    page_10 = eight + latin_10
    assert split_vertical(page_10) == (page_10, [])  # 8 of 17: less than half


def test_the_blocks_screened_for_right_to_left_text_hold_every_right_to_left_letter() -> None:
    # make_line reorders a line only when MAYBE_RTL finds something: it must miss no is_rtl letter
    missed = [o for o in range(0x110000) if is_rtl(chr(o)) and not MAYBE_RTL.match(chr(o))]
    assert missed == []
    assert MAYBE_RTL.search("Preis: 12 € – “שלום” ok")
    assert not MAYBE_RTL.search("Größe – “ok” → 中文")


# ----------------------------------------------------------------------------- diagonal text


def test_turn_rounds_to_quarter_turns_and_keeps_diagonal_angles() -> None:
    from citeline.ingest.extract.glyphs import DIAGONAL_DEGREES, is_diagonal, turn

    table = [
        (0.0, 0), (3.0, 0), (-4.0, 0), (14.9, 0), (89.0, 90), (181.0, 180), (-90.0, 270), (359.5, 0),
        (DIAGONAL_DEGREES, 15), (35.0, 35), (45.4, 45), (-35.0, 325), (135.0, 135), (300.0, 300), (76.0, 90),
    ]  # fmt: skip
    assert [turn(degrees) for degrees, _ in table] == [want for _, want in table]
    assert [is_diagonal(r) for r in (0, 90, 180, 270, 15, 35, 325)] == [False] * 4 + [True] * 3


def test_a_diagonal_stamp_is_read_apart_from_the_lines_it_crosses(tmp_path: Path) -> None:
    """A stamp set across the page at 35 degrees (as "DO NOT SEND THIS PAGE" on a claim form): each
    of its letters stands on a baseline of its own, level with a different body line. With either
    backend every body line reads whole and the stamp is one line of its own."""
    from citeline.ingest.extract import extract
    from citeline.ingest.extract.ocr import OcrSettings
    from tests.simple_pdf import Item, write_pdf

    body = [
        "Die Gebühr für Änderungen wird nach zehn Tagen erstattet.",
        "Le délai de réponse est de trente jours ouvrés au maximum.",
        "Claims for services abroad are paid only in rare cases.",
        "Attach the itemized bill from the physician or supplier.",
        "Keep a copy of everything you send for your own records.",
        "Write your Medicare number exactly as shown on the card.",
        "A claim without a signature is returned to the patient.",
        "Payments are sent to the address shown on your request.",
        "Questions about the form go to the number listed below.",
        "The contractor answers most requests within two weeks.",
    ]
    stamp = (110.0, 540.0, 30.0, "DO NOT SEND THIS PAGE", 35.0)
    items: list[Item] = [(72.0, 700.0 - 16 * k, 10.0, line) for k, line in enumerate(body)] + [stamp]
    pdf = write_pdf(tmp_path / "stamp.pdf", [items])
    for backend in ("pdfium", "pdfplumber"):
        raw = extract(pdf, extractor=backend, fallback=False, ocr=OcrSettings(mode="off")).raw  # type: ignore[arg-type]
        lines = raw.split("\n")
        assert [line for line in body if line not in lines] == [], (backend, raw)
        assert "DO NOT SEND THIS PAGE" in lines, (backend, raw)
