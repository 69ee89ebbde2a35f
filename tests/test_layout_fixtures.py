"""The layout fixtures (``fixtures/layouts.py``) through both PDF backends: three columns on a tight
pitch, margin line numbers, a rotated margin stamp, a footnote block, figure labels in the gutter,
sub- and superscripts, line-end hyphens, glyphs without a Unicode mapping, a ruled table and a page
of vertical Japanese in two tiers, a two-column index and an unruled table, notes with labels beside
them; a book's pages, a table without rules whose cells wrap, an offset CropBox (more in
tests/test_book_furniture.py and tests/test_cropbox.py). Each test states the correct behaviour."""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Any

import pytest

from citeline.ingest.clean.pipeline import Cleaned, clean
from citeline.ingest.extract import extract
from citeline.ingest.extract.model import Extraction
from citeline.text.offsets import Original
from tests.conftest import PDF_FIXTURES, truth

BACKENDS = ["pdfplumber", "pdfium"]
LAYOUT_FIXTURES = [
    "layout_three_columns",
    "layout_line_numbers",
    "layout_rotated_stamp",
    "layout_footnote",
    "layout_figure_labels",
    "layout_scripts",
    "layout_hyphenation",
    "layout_unmapped",
    "layout_ruled_table",
    "layout_index",
    "layout_side_notes",
    "layout_vertical_japanese",
    "layout_book",
    "layout_wrapped_cells",
    "layout_offset_cropbox",
]
#: Fixtures whose body lines are each drawn by one text() call (so each is a whole raw line).
WHOLE_LINE_FIXTURES = [
    "layout_three_columns",
    "layout_line_numbers",
    "layout_rotated_stamp",
    "layout_footnote",
    "layout_figure_labels",
    "layout_hyphenation",
    "layout_ruled_table",
    "layout_index",
    "layout_book",
    "layout_offset_cropbox",
]
UNMAPPED = "\ufffd"


@functools.cache
def extracted(name: str, backend: str) -> tuple[Extraction, Cleaned]:
    ex = extract(PDF_FIXTURES / f"{name}.pdf", extractor=backend)
    return ex, clean(ex.raw, geometry=ex.line_geometry(), known_furniture=ex.furniture)


def fold(text: str) -> str:
    """Whitespace differences ignored: runs collapsed to one space, the ends trimmed."""
    return " ".join(text.split())


def raw_lines(ex: Extraction) -> list[str]:
    return re.split(r"[\n\f]", ex.raw)


def sentence_params() -> list[Any]:
    return [
        pytest.param(name, i, backend, id=f"{name}-{i}-{backend}")
        for name in LAYOUT_FIXTURES
        for i, _ in enumerate(truth(name)["sentences"])
        for backend in BACKENDS
    ]


# ----------------------------------------------------------------------------- every fixture


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", LAYOUT_FIXTURES)
def test_every_char_has_x_edges_and_every_furniture_span_is_its_text(name: str, backend: str) -> None:
    gt = truth(name)
    ex, _ = extracted(name, backend)
    assert [p.number for p in ex.pages] == [p["number"] for p in gt["pages"]]
    assert ex.lines
    for ln in ex.lines:
        assert len(ln.xs) == 2 * (ln.raw_end - ln.raw_start)
    for f in ex.furniture:
        assert f.text == ex.raw[f.start : f.end], f


@pytest.mark.parametrize(("name", "index", "backend"), sentence_params())
def test_truth_sentence_is_intact_in_the_cleaned_text(name: str, index: int, backend: str) -> None:
    sentence = truth(name)["sentences"][index]
    _, cleaned = extracted(name, backend)
    assert fold(sentence) in fold(cleaned.text)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", WHOLE_LINE_FIXTURES)
def test_body_lines_are_whole_raw_lines_in_reading_order(name: str, backend: str) -> None:
    # nothing is glued to a body line (a label, a margin number, a glyph of the stamp) and the
    # lines come in reading order: column by column, the body before footnotes and furniture
    gt = truth(name)
    ex, _ = extracted(name, backend)
    lines = raw_lines(ex)
    k = 0
    for para in gt["paragraphs"]:
        if para["role"] != "body":
            continue
        for ln in para["lines"]:
            at = next((j for j in range(k, len(lines)) if lines[j] == ln["text"]), -1)
            assert at >= 0, f"{ln['text']!r} is not a whole raw line after line {k}: {lines[k : k + 3]}"
            k = at + 1


# ----------------------------------------------------------------------------- three columns


@pytest.mark.parametrize("backend", BACKENDS)
def test_three_columns_sentences_run_from_column_to_column(backend: str) -> None:
    gt = truth("layout_three_columns")
    _, cleaned = extracted("layout_three_columns", backend)
    assert len(gt["crossing_sentences"]) >= 2
    for sentence in gt["crossing_sentences"]:
        assert fold(sentence) in fold(cleaned.text)


# ----------------------------------------------------------------------------- line numbers


@pytest.mark.parametrize("backend", BACKENDS)
def test_margin_line_numbers_are_furniture_and_leave_the_cleaned_text(backend: str) -> None:
    gt = truth("layout_line_numbers")
    ex, cleaned = extracted("layout_line_numbers", backend)
    found = Counter((f.page, f.text) for f in ex.furniture if f.kind == "line_number")
    assert found == Counter((n["page"], n["text"]) for n in gt["line_numbers"])
    removed = {(f.raw_start, f.raw_end) for f in cleaned.furniture}
    assert all((f.start, f.end) in removed for f in ex.furniture if f.kind == "line_number")
    # the only numbers left are the ones in the body text
    body = " ".join(p["text"] for p in gt["paragraphs"])
    assert Counter(re.findall(r"\d+", cleaned.text)) == Counter(re.findall(r"\d+", body))
    # a hyphen split next to a number joins up, with no number in between
    for h in gt["hyphenation"]:
        assert re.search(rf"\b{h['expected']}\b", cleaned.text), h


# ----------------------------------------------------------------------------- rotated stamp


@pytest.mark.parametrize("backend", BACKENDS)
def test_rotated_stamp_is_margin_furniture_outside_the_body(backend: str) -> None:
    gt = truth("layout_rotated_stamp")
    ex, cleaned = extracted("layout_rotated_stamp", backend)
    margin = [f for f in ex.furniture if f.kind == "margin"]
    assert [(f.page, f.text) for f in margin] == [(1, gt["stamp"])]
    assert gt["stamp"] not in cleaned.text
    assert "arXiv" not in cleaned.text
    # the abstract, which the stamp overlaps vertically, reads through
    for sentence in gt["abstract_sentences"]:
        assert fold(sentence) in fold(cleaned.text)


@pytest.mark.parametrize("backend", BACKENDS)
def test_rotated_stamp_box_is_where_it_was_drawn(backend: str) -> None:
    gt = truth("layout_rotated_stamp")
    ex, _ = extracted("layout_rotated_stamp", backend)
    (stamp,) = [f for f in ex.furniture if f.kind == "margin"]
    (box,) = ex.geometry().boxes(Original(stamp.start, stamp.end), ex.raw)
    want = gt["stamp_box"]
    assert (box.x0, box.top, box.x1, box.bottom) == pytest.approx(
        (want["x0"], want["top"], want["x1"], want["bottom"]), abs=1.0
    )


# ----------------------------------------------------------------------------- footnote block


@pytest.mark.parametrize("backend", BACKENDS)
def test_sentence_runs_from_the_left_column_foot_over_the_footnotes_to_the_right_column(backend: str) -> None:
    gt = truth("layout_footnote")
    ex, cleaned = extracted("layout_footnote", backend)
    # in the raw stream the left column's last line is followed by the right column's first
    assert re.search(r"the state-\nof-the-art systems", ex.raw)
    assert "state-of-the-art" in gt["crossing_sentence"]
    assert fold(gt["crossing_sentence"]) in fold(cleaned.text)


@pytest.mark.parametrize("backend", BACKENDS)
def test_footnotes_stay_intact_after_the_page_body(backend: str) -> None:
    gt = truth("layout_footnote")
    _, cleaned = extracted("layout_footnote", backend)
    text = fold(cleaned.text)
    body_end = max(text.index(fold(s)) + len(fold(s)) for s in gt["sentences"])
    for note in gt["footnotes"]:
        assert fold(note) in text
        assert text.index(fold(note)) >= body_end, note


# ----------------------------------------------------------------------------- figure labels


@pytest.mark.parametrize("backend", BACKENDS)
def test_figure_labels_are_kept_but_not_inside_body_lines(backend: str) -> None:
    gt = truth("layout_figure_labels")
    ex, cleaned = extracted("layout_figure_labels", backend)
    lines = raw_lines(ex)
    for label in gt["labels"]:
        assert any(label in ln for ln in lines), label  # not lost
    assert fold(gt["caption"]) in fold(cleaned.text)


# ----------------------------------------------------------------------------- scripts


@pytest.mark.parametrize("backend", BACKENDS)
def test_scripts_sit_inline_right_after_their_base(backend: str) -> None:
    gt = truth("layout_scripts")
    _, cleaned = extracted("layout_scripts", backend)
    missing = [e for e in gt["script_examples"] + ["= r2, where", "CO2-like"] if e not in fold(cleaned.text)]
    assert not missing


# ----------------------------------------------------------------------------- hyphenation


def hyphen_params() -> list[Any]:
    gt = truth("layout_hyphenation")
    return [
        pytest.param(h["left"], h["right"], h["expected"], backend, id=f"{h['expected']}-{backend}")
        for h in gt["hyphenation"]
        for backend in BACKENDS
    ]


@pytest.mark.parametrize(("left", "right", "expected", "backend"), hyphen_params())
def test_line_end_hyphen_is_joined_or_kept(left: str, right: str, expected: str, backend: str) -> None:
    _, cleaned = extracted("layout_hyphenation", backend)
    wrong = f"{left}-{right}" if expected == left + right else left + right
    assert re.search(rf"(?<![\w-]){re.escape(expected)}(?![\w-])", cleaned.text), expected
    assert not re.search(rf"(?<![\w-]){re.escape(wrong)}(?![\w-])", cleaned.text), wrong


# ----------------------------------------------------------------------------- unmapped glyphs


def unmapped_line(gt: dict[str, Any], replace: bool = True) -> tuple[str, list[tuple[int, dict[str, Any]]]]:
    """The drawn line holding the unmapped words (each glyph as U+FFFD when ``replace``), and the
    offset of each unmapped word in it."""
    words = gt["unmapped"]["words"]
    para = next(p for p in gt["paragraphs"] if any(it.get("run") == "italic" for it in p["lines"]))
    bottom = words[0]["bottom"]
    runs = sorted((it for it in para["lines"] if it["bottom"] == bottom), key=lambda it: it["x0"])
    text, at = "", []
    for it in runs:
        if it.get("run") == "italic":
            at.append((len(text), it))
            text += UNMAPPED * len(it["text"]) if replace else it["text"]
        else:
            text += it["text"]
    return text, at


def test_unmapped_glyphs_are_one_replacement_character_each_with_pdfplumber() -> None:
    gt = truth("layout_unmapped")
    ex, cleaned = extracted("layout_unmapped", "pdfplumber")
    assert "(cid:" not in ex.raw
    assert "(cid:" not in cleaned.text
    assert ex.raw.count(UNMAPPED) == gt["unmapped"]["glyphs"]
    line, words = unmapped_line(gt)
    start = ex.raw.index(line)
    geometry = ex.geometry()
    for offset, word in words:
        for k in range(len(word["text"])):
            (box,) = geometry.boxes(Original(start + offset + k, start + offset + k + 1), ex.raw)
            assert word["x0"] - 1 <= box.x0 < box.x1 <= word["x1"] + 1
            assert box.top == pytest.approx(word["top"], abs=1)
            assert box.bottom == pytest.approx(word["bottom"], abs=1)
    assert fold(line) in fold(cleaned.text)


def test_unmapped_glyphs_are_one_code_point_each_with_pdfium() -> None:
    gt = truth("layout_unmapped")
    ex, cleaned = extracted("layout_unmapped", "pdfium")
    assert "(cid:" not in cleaned.text
    line, words = unmapped_line(gt)
    drawn, _ = unmapped_line(gt, replace=False)
    got = next((ln for ln in raw_lines(ex) if ln.startswith(line[:20])), "")
    assert len(got) == len(line), got
    for k, (want, have) in enumerate(zip(line, got, strict=True)):
        assert have == want or (want == UNMAPPED and have == drawn[k]), (k, got)
    assert words


@pytest.mark.parametrize("backend", BACKENDS)
def test_text_in_the_mapped_fonts_is_untouched_by_the_unmapped_glyphs(backend: str) -> None:
    gt = truth("layout_unmapped")
    ex, cleaned = extracted("layout_unmapped", backend)
    assert not [p for p in ex.problems if p.code == "unmapped_glyphs"]  # 11 glyphs of a full page
    for sentence in gt["sentences"]:
        assert fold(sentence) in fold(cleaned.text)


# ----------------------------------------------------------------------------- ruled table


@pytest.mark.parametrize("backend", BACKENDS)
def test_ruled_table_rows_are_consecutive_lines_of_tab_separated_cells(backend: str) -> None:
    gt = truth("layout_ruled_table")
    ex, _ = extracted("layout_ruled_table", backend)
    rows = ["\t".join(row) for row in gt["table"]]
    lines = raw_lines(ex)
    start = lines.index(rows[0])
    assert lines[start : start + len(rows)] == rows


@pytest.mark.parametrize("backend", BACKENDS)
def test_wrapped_cells_of_a_table_without_rules_are_whole_row_by_row(backend: str) -> None:
    # each cell's two or three lines joined in its place, cells in a row, rows in order
    gt = truth("layout_wrapped_cells")
    ex, cleaned = extracted("layout_wrapped_cells", backend)
    rows = ["\t".join(row) for row in gt["table"]]
    lines = raw_lines(ex)
    start = lines.index(rows[0])
    assert lines[start : start + len(rows)] == rows
    text = fold(cleaned.text)
    for row in gt["table"]:
        for cell in row:
            assert fold(cell) in text, cell


# ----------------------------------------------------------------------------- vertical Japanese


@pytest.mark.parametrize("backend", BACKENDS)
def test_index_columns_read_one_after_the_other(backend: str) -> None:
    gt = truth("layout_index")
    ex, cleaned = extracted("layout_index", backend)
    drawn = {p["text"] for p in gt["paragraphs"] if p["role"] in ("index_heading", "index_entry")}
    page_one = [ln for ln in re.split(r"\n+", ex.raw.split("\f")[0]) if ln in drawn]
    left, right = gt["index_columns"]
    assert page_one == [*left, *right]
    # the cleaned text runs each column on whole (whitespace aside)
    assert fold(" ".join(left)) in fold(cleaned.text)
    assert fold(" ".join(right)) in fold(cleaned.text)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_unruled_table_of_short_cells_keeps_its_rows(backend: str) -> None:
    gt = truth("layout_index")
    ex, _ = extracted("layout_index", backend)
    page_two = ex.raw.split("\f")[1].split("\n")
    rows = ["\t".join(row) for row in gt["table"]]
    start = page_two.index(rows[0])
    assert page_two[start : start + len(rows)] == rows


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_worked_example_beside_a_sample_table_reads_whole_then_the_table(backend: str) -> None:
    gt = truth("layout_index")
    ex, _ = extracted("layout_index", backend)
    page_three = ex.raw.split("\f")[2].split("\n")
    example = [ln["text"] for p in gt["paragraphs"] if p["role"] == "body" for ln in p["lines"]]
    rows = ["\t".join(row) for row in gt["sample_table"]]
    # the example's lines one after the other, no cell inside them; then the table's rows
    assert page_three[page_three.index(example[0]) :][: len(example)] == example
    start = page_three.index(rows[0])
    assert page_three[start : start + len(rows)] == rows
    assert start > page_three.index(example[-1])


@pytest.mark.parametrize("backend", BACKENDS)
def test_labels_beside_a_note_are_read_after_the_note(backend: str) -> None:
    gt = truth("layout_side_notes")
    ex, cleaned = extracted("layout_side_notes", backend)
    lines = [ln for ln in raw_lines(ex) if ln]
    # the notes' lines are whole, without the ! and CAUTION beside them, and run on in the cleaned text
    assert "you received a taxable distribution from" in lines
    assert "may be able to decrease the tax" in lines
    # each label comes right after the note it stands beside
    assert lines[lines.index("Form 5329.") + 1 :][:2] == ["!", "CAUTION"] == gt["side_labels"][:2]
    assert lines[lines.index("first of the month.") + 1] == "TIP" == gt["side_labels"][2]
    # a list's marker stays at the head of its item, though the item before ends without a full stop
    for item in gt["list_items"]:
        assert fold(item) in fold(cleaned.text)


@pytest.mark.parametrize("backend", BACKENDS)
def test_vertical_japanese_reads_column_by_column_tier_by_tier(backend: str) -> None:
    # each column is one raw line, right to left, the upper tier before the lower; the horizontal
    # running head comes first and the page number last
    gt = truth("layout_vertical_japanese")
    ex, cleaned = extracted("layout_vertical_japanese", backend)
    lines = [ln for ln in raw_lines(ex) if ln.strip()]
    assert "".join(lines[0].split()) == gt["vertical"]["head"]
    assert lines[1:-1] == gt["vertical"]["columns"]
    assert lines[-1] == "3"
    # paragraphs start at the indented columns: the cleaned text has one per truth paragraph, its
    # columns joined without a space (one page: the head and number are not known as running yet)
    body = [p.strip() for p in cleaned.text.split("\n\n") if p.strip()]
    assert body[1:-1] == [p["text"] for p in gt["paragraphs"]]


@pytest.mark.parametrize("backend", BACKENDS)
def test_vertical_japanese_characters_have_their_columns_box(backend: str) -> None:
    gt = truth("layout_vertical_japanese")
    ex, _ = extracted("layout_vertical_japanese", backend)
    glyphs = [it for p in gt["paragraphs"] for it in p["lines"]]
    k = 0
    for column in gt["vertical"]["columns"]:
        drawn, k = glyphs[k : k + len(column)], k + len(column)
        line = next(ln for ln in ex.lines if ex.raw[ln.raw_start : ln.raw_end] == column)
        for j, g in enumerate(drawn):
            assert g["text"] == column[j]
            x0, x1 = line.xs[2 * j], line.xs[2 * j + 1]
            assert x0 - 0.5 <= g["x0"], (column, g)
            assert g["x1"] <= x1 + 0.5, (column, g)
            assert line.top - 0.5 <= g["top"], (column, g)
            assert g["bottom"] <= line.bottom + 0.5, (column, g)
            assert x1 - x0 < 2 * (g["x1"] - g["x0"])  # the column's width, not the page's


def test_pdfium_hands_vertical_japanese_it_cannot_read_to_pdfplumber() -> None:
    ex, _ = extracted("layout_vertical_japanese", "pdfium")
    assert [(p.code, p.pages) for p in ex.problems] == [("page_fallback", (1,))]
