"""Extraction against the generated fixtures' ground truth, for both PDF backends, and every kind of
bad input as a one-line typed error."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.ingest.clean.characters import LIGATURES
from citeline.ingest.clean.pipeline import clean
from citeline.ingest.errors import CorruptFile, EmptyFile, Encrypted, FileMissing, FileUnreadable, NotAPdf, TooLarge
from citeline.ingest.extract import Limits, extract
from citeline.ingest.extract.ocr import OcrSettings
from citeline.text.offsets import Normalized, Original
from tests.conftest import PDF_FIXTURES, truth
from tests.hostile import ruled_table_in_a_form

BACKENDS = ["pdfplumber", "pdfium"]
TEXT_FIXTURES = ["policy_handbook", "policy_handbook_v2", "two_column_paper", "multilingual", "xss_document"]


def find_line(raw: str, text: str, start: int) -> int:
    """Offset of ``text`` as a whole line of ``raw`` at or after ``start``, or -1."""
    at = raw.find(text, start)
    while at >= 0:
        end = at + len(text)
        if (at == 0 or raw[at - 1] in "\n\f") and (end == len(raw) or raw[end] in "\n\f"):
            return at
        at = raw.find(text, at + 1)
    return -1


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", TEXT_FIXTURES)
def test_body_glyphs_in_reading_order_and_line_boxes_within_1pt(name: str, backend: str) -> None:
    gt = truth(name)
    ex = extract(PDF_FIXTURES / f"{name}.pdf", extractor=backend)
    geometry = ex.geometry()
    cursor = 0
    checked = 0
    for para in gt["paragraphs"]:
        for line in para["lines"]:
            text = line["text"]
            if backend == "pdfium":  # pdfium hands out a ligature glyph as its letters
                text = "".join(LIGATURES.get(ch, ch) for ch in text)
            at = find_line(ex.raw, text, cursor)
            assert at >= 0, f"{text!r} not found as a line in reading order after raw offset {cursor}"
            cursor = at + len(text)
            boxes = geometry.boxes(Original(at, cursor), ex.raw)
            assert len(boxes) == 1, (text, boxes)
            box = boxes[0]
            assert box.page == line["page"]
            for key in ("x0", "top", "x1", "bottom"):
                assert getattr(box, key) == pytest.approx(line[key], abs=1.0), (line["text"], key)
            assert ex.pages_of(Original(at, cursor)) == [line["page"]]
            checked += 1
    assert checked == sum(len(p["lines"]) for p in gt["paragraphs"]) > 0
    # running headers and footers stay in the raw stream; removing them is a transform
    for furniture in gt["furniture"]:
        assert furniture["text"] in ex.raw


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", TEXT_FIXTURES)
def test_cleaned_text_holds_every_logical_paragraph(name: str, backend: str) -> None:
    gt = truth(name)
    ex = extract(PDF_FIXTURES / f"{name}.pdf", extractor=backend)
    cleaned = clean(ex.raw, geometry=ex.line_geometry())
    for para in gt["paragraphs"]:
        assert para["text"] in cleaned.text
    for furniture in gt["furniture"]:
        assert any(f.text == furniture["text"] and f.page == furniture["page"] for f in cleaned.furniture)
    decisions = {(h.left, h.right): h for h in cleaned.hyphenations}
    for expected in gt["hyphenation"]:
        h = decisions[(expected["left"], expected["right"])]
        assert h.left + ("" if h.joined else "-") + h.right == expected["expected"], h.reason
        assert ex.raw[h.raw_start] == "-"


def test_sentence_across_a_page_break_maps_to_both_pages() -> None:
    gt = truth("policy_handbook")
    para = gt["paragraphs"][gt["page_crossing_paragraph"]]
    ex = extract(PDF_FIXTURES / "policy_handbook.pdf")
    cleaned = clean(ex.raw, geometry=ex.line_geometry())
    start = cleaned.text.index(para["text"])
    span = cleaned.map.to_original(Normalized(start, start + len(para["text"])))
    pages = sorted({line["page"] for line in para["lines"]})
    assert ex.pages_of(span) == pages == [2, 3]
    # the raw span runs over page 2's footer and page 3's header; the quote's boxes do not
    assert "Page 2 of 4" in ex.raw[span.start : span.end]
    sources = cleaned.map.source_spans(Normalized(start, start + len(para["text"])))
    boxes = ex.geometry().boxes(sources, ex.raw)
    assert [b.page for b in boxes] == [line["page"] for line in para["lines"]]
    for box, line in zip(boxes, para["lines"], strict=True):
        assert (box.x0, box.top, box.x1, box.bottom) == pytest.approx(
            (line["x0"], line["top"], line["x1"], line["bottom"]), abs=1.0
        )


def test_ligatures_stay_in_the_raw_stream() -> None:
    # pdfminer hands out the ligature code point; pdfium spells it out ("fi", one glyph of two letters)
    ex = extract(PDF_FIXTURES / "policy_handbook.pdf", extractor="pdfplumber")
    assert "ﬁ" in ex.raw
    assert "ﬁ" not in clean(ex.raw).text


def test_image_only_page_is_reported_and_the_page_kept_without_ocr() -> None:
    gt = truth("scanned_page")
    ex = extract(PDF_FIXTURES / "scanned_page.pdf", ocr=OcrSettings(mode="off"))
    assert [p.number for p in ex.pages] == [1, 2]
    assert [p.has_text for p in ex.pages] == [True, False]
    (problem,) = [p for p in ex.problems if p.code == "no_text_layer"]
    assert problem.pages == tuple(gt["image_only_pages"])
    assert problem.message == "no text layer on page 2"
    assert ex.extractor == "pdfium"


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_the_image_only_page_is_read_by_ocr(backend: str) -> None:
    """``--ocr auto`` (the default): the page without a text layer is OCR'd into the same model, the
    page with one is left alone."""
    gt = truth("scanned_page")
    ex = extract(PDF_FIXTURES / "scanned_page.pdf", extractor=backend)
    assert [p.has_text for p in ex.pages] == [True, True]
    first, second = ex.pages
    assert first.ocr_engine is None
    assert second.ocr_engine is not None
    assert second.ocr_engine.startswith("tesseract 5")
    assert second.ocr_languages == "eng"
    assert second.ocr_confidence is not None
    assert second.ocr_confidence > 60
    assert ex.extractor == f"{backend}+tesseract"
    assert not [p for p in ex.problems if p.code == "no_text_layer"]
    page_text = ex.raw[second.raw_start : second.raw_end]
    (image,) = gt["image_text"]
    for line in image["lines"]:
        if "Faßbinder" in line:  # the 100-dpi raster blurs ß
            continue
        assert line.replace("Page 2 of 2", "Page 2") in page_text or line in page_text, line
    # every code point of the OCR'd page has its box inside the page
    geometry = ex.geometry()
    for line in [ln for ln in ex.lines if ln.page == 2]:
        (box,) = geometry.boxes(Original(line.raw_start, line.raw_end), ex.raw)
        assert 0 <= box.x0 < box.x1 <= 612
        assert 0 <= box.top < box.bottom <= 792


def test_hashes_and_extractor_are_recorded() -> None:
    import hashlib

    path = PDF_FIXTURES / "multilingual.pdf"
    ex = extract(path)
    assert ex.content_sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert ex.text_sha256 == hashlib.sha256(ex.raw.encode()).hexdigest()
    assert ex.extractor == "pdfium"  # auto reads PDFs with pdfium (issue 32)
    assert ex.extractor_version.startswith("pypdfium2 ")
    assert extract(path, extractor="pdfplumber").extractor == "pdfplumber"
    assert repr(ex.pages[0]) == "<Page:1>"


def test_an_extraction_survives_the_trip_from_worker_to_writer() -> None:
    # workers pickle whole extractions; a line pickles as a plain constructor call, which must give
    # back an equal line (geometry included) and still refuse a malformed one
    import pickle

    ex = extract(PDF_FIXTURES / "multilingual.pdf", extractor="pdfium")
    back = pickle.loads(pickle.dumps(ex))
    assert back == ex
    assert [ln.xs.tobytes() for ln in back.lines] == [ln.xs.tobytes() for ln in ex.lines]
    assert not all(ex.raw[ln.raw_start : ln.raw_end].isascii() for ln in back.lines)
    make, (page, start, end, top, bottom, xs) = ex.lines[0].__reduce__()
    with pytest.raises(ValueError, match="x edges"):
        make(page, start, end + 1, top, bottom, xs)


def test_boxes_from_a_slice_of_the_raw_stream_equal_those_from_the_whole() -> None:
    # verify resolves a quote with only its chunk's raw characters: the boxes must not change
    from citeline.ingest.extract import Geometry

    ex = extract(PDF_FIXTURES / "multilingual.pdf")
    geometry = Geometry(ex.lines)
    line = next(ln for ln in ex.lines if ln.raw_start > 10 and not ex.raw[ln.raw_start : ln.raw_end].isascii())
    span = Original(line.raw_start - 3, line.raw_end + 5)  # from the line before into the next
    whole = geometry.boxes(span, ex.raw)
    assert whole
    assert whole == geometry.boxes(span, ex.raw[span.start - 7 : span.end + 2], raw_start=span.start - 7)
    # a slice starting at the span trims the same spaces
    assert whole == geometry.boxes(span, ex.raw[span.start : span.end], raw_start=span.start)


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("backend", BACKENDS)
def test_encrypted_needs_the_password(backend: str) -> None:
    path = PDF_FIXTURES / "encrypted_userpw.pdf"
    with pytest.raises(Encrypted) as err:
        extract(path, extractor=backend)
    assert str(err.value) == f"{path}: encrypted; the password is missing or wrong (use --password)"
    with pytest.raises(Encrypted):
        extract(path, extractor=backend, password="wrong-password")
    password = truth("encrypted_userpw")["encryption"]["user_password"]
    ex = extract(path, extractor=backend, password=password)
    assert truth("encrypted_userpw")["paragraphs"][0]["lines"][0]["text"] in ex.raw


@pytest.mark.parametrize("backend", BACKENDS)
def test_empty_user_password_opens_without_one(backend: str) -> None:
    ex = extract(PDF_FIXTURES / "encrypted_ownerpw_only.pdf", extractor=backend)
    assert truth("encrypted_ownerpw_only")["paragraphs"][0]["lines"][0]["text"] in ex.raw


@pytest.mark.parametrize(
    ("name", "error", "message"),
    [
        ("empty.pdf", EmptyFile, "file is empty (0 bytes)"),
        ("not_a_pdf.pdf", NotAPdf, "not a PDF (no %PDF- header; the file holds text)"),
        ("truncated.pdf", CorruptFile, "corrupt PDF"),
        ("does_not_exist.pdf", FileMissing, "no such file"),
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_bad_files_give_one_line_errors(name: str, error: type[Exception], message: str, backend: str) -> None:
    path = PDF_FIXTURES / name
    with pytest.raises(error) as err:
        extract(path, extractor=backend)
    text = str(err.value)
    assert text.startswith(f"{path}: {message}")
    assert "\n" not in text


def test_directory_and_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(FileUnreadable, match="is a directory"):
        extract(tmp_path)
    # a file that opens but cannot be read (permissions do not stop root, which runs CI)
    unreadable = Path("/proc/self/mem")
    if not unreadable.exists():
        pytest.skip("needs Linux /proc")
    with pytest.raises(FileUnreadable, match=r"^/proc/self/mem: cannot read file \("):
        extract(unreadable)


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        (Limits(max_file_bytes=1000), "bytes, above the limit of 1,000"),
        (Limits(max_pages=3), "4 pages, above the limit of 3"),
        (Limits(max_page_side=500.0), "page 1 measures 612 x 792 pt"),
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_absurd_sizes_are_refused(limits: Limits, message: str, backend: str) -> None:
    with pytest.raises(TooLarge, match=message):
        extract(PDF_FIXTURES / "policy_handbook.pdf", extractor=backend, limits=limits)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_ruled_table_placed_as_a_form_reads_as_rows_with_either_backend(tmp_path: Path, backend: str) -> None:
    # the borders are seven thin rectangles of one path inside a form XObject: pdfium reports the
    # path whole and inside the form, so its rules are found subpath by subpath, through the form's
    # matrix, as pdfminer finds them; with them the wrapped cell is read whole in its row
    ex = extract(ruled_table_in_a_form(tmp_path / "form_table.pdf"), extractor=backend, fallback=False)
    assert ex.raw.split("\n") == ["Übersicht der Maße:", "", "Größe\tMaß", "Länge\t12 m", "Breite des Gebäudes\t3 m"]


def test_both_backends_find_the_same_rules_inside_a_form(tmp_path: Path) -> None:
    import pdfplumber
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    from citeline.ingest.extract.pdfium_glyphs import pdfium_page
    from citeline.ingest.extract.plumber_glyphs import plumber_page

    path = ruled_table_in_a_form(tmp_path / "form_table.pdf")
    with pdfplumber.open(path) as pdf:
        plumber = sorted(tuple(round(v, 2) for v in r) for r in plumber_page(pdf.pages[0]).rules)
    doc = pdfium.PdfDocument(str(path))
    try:
        ours = sorted(tuple(round(v, 2) for v in r) for r in pdfium_page(doc[0], 1, pdfium_c).rules)
    finally:
        doc.close()
    # half size, placed at (20, 50): the top border's rectangle, 360 x 1 in the form, spans
    # x 20..200 and sits 200 - 50 - 60.5 = 89.5 .. 90 from the page's top
    assert (20.0, 89.5, 200.0, 90.0) in plumber
    assert len(plumber) == 7
    assert ours == plumber
