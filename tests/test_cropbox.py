"""Pages whose CropBox is offset from and smaller than their MediaBox (issue 32): geometry in the
CropBox's coordinates on both backends (what a viewer shows), and text outside the CropBox set apart
as furniture of its own kind, ``outside_crop``, never in a chunk. The page is the fixture
``layout_offset_cropbox`` (fixtures/layouts_pages.py), whose truth gives every box in the MediaBox's
coordinates and ``crop_box`` in the same; a line running past the CropBox's edge is written by
tests/simple_pdf.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.ingest.extract import extract
from citeline.ingest.pipeline import PipelineSettings, process_file
from citeline.text.offsets import Original
from tests.conftest import PDF_FIXTURES, truth
from tests.simple_pdf import write_pdf

CROPPED = PDF_FIXTURES / "layout_offset_cropbox.pdf"


def _body_lines() -> list[dict]:  # type: ignore[type-arg]
    return [ln for p in truth("layout_offset_cropbox")["paragraphs"] for ln in p["lines"]]


def _outside() -> list[str]:
    return [f["text"] for f in truth("layout_offset_cropbox")["furniture"] if f["kind"] == "outside_crop"]


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_geometry_is_in_cropbox_coordinates(backend: str) -> None:
    gt = truth("layout_offset_cropbox")
    crop = gt["crop_box"]
    ex = extract(CROPPED, extractor=backend, fallback=False)
    (page,) = ex.pages
    assert (page.width, page.height) == pytest.approx((crop["x1"] - crop["x0"], crop["bottom"] - crop["top"]), abs=0.01)
    geometry = ex.geometry()
    for ln in _body_lines():
        start = ex.raw.index(ln["text"][:12])
        (box,) = geometry.boxes(Original(start, start + 12), ex.raw)
        # a box of the truth (from the MediaBox's top-left) less the CropBox's top-left corner
        assert box.page == 1
        assert box.x0 == pytest.approx(ln["x0"] - crop["x0"], abs=1.0), (backend, ln["text"])
        assert box.top == pytest.approx(ln["top"] - crop["top"], abs=2.0), (backend, ln["text"])
        assert box.bottom == pytest.approx(ln["bottom"] - crop["top"], abs=2.0), (backend, ln["text"])


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_text_outside_the_cropbox_is_furniture_of_its_own_kind(backend: str) -> None:
    ex = extract(CROPPED, extractor=backend, fallback=False)
    assert {f.text: f.kind for f in ex.furniture} == dict.fromkeys(_outside(), "outside_crop")
    for f in ex.furniture:
        assert ex.raw[f.start : f.end] == f.text
    # read last on its page: the body comes first, whole
    last_body = _body_lines()[-1]["text"]
    assert ex.raw.index(last_body) < ex.raw.index(_outside()[0])


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_no_chunk_holds_text_from_outside_the_cropbox(backend: str) -> None:
    gt = truth("layout_offset_cropbox")
    doc = process_file(CROPPED, CROPPED.name, PipelineSettings(extractor=backend))
    text = " ".join(" ".join(c.text.split()) for c in doc.chunks)
    for sentence in gt["sentences"]:
        assert sentence in text
    for outside in ("Hinweis", "Druckerei", "Zuschnitt"):
        assert outside not in text
    assert {f.kind for f in doc.furniture} == {"outside_crop"}


def test_both_backends_draw_the_same_boxes() -> None:
    boxes = []
    for backend in ("pdfplumber", "pdfium"):
        ex = extract(CROPPED, extractor=backend, fallback=False)
        start = ex.raw.index("Naïve")
        boxes.append(ex.geometry().boxes(Original(start, start + 5), ex.raw)[0])
    a, b = boxes
    assert (a.x0, a.top, a.x1, a.bottom) == pytest.approx((b.x0, b.top, b.x1, b.bottom), abs=1.5)


def test_the_store_keeps_the_outside_text_in_its_furniture_table(tmp_path: Path) -> None:
    from citeline.batch import IngestOptions, ingest_files
    from citeline.store import Store

    with Store(f"sqlite:///{tmp_path / 'crop.db'}") as store:
        summary = ingest_files(store, [CROPPED], IngestOptions(workers=1))
        assert summary.chunks > 0
        _, rows = store.sql("SELECT kind, page_no, text FROM furniture ORDER BY raw_start")
        assert [tuple(r) for r in rows] == [("outside_crop", 1, text) for text in _outside()]
        _, versions = store.sql("SELECT extractor FROM document_versions")
        assert [r[0] for r in versions] == ["pdfium"]  # auto reads PDFs with pdfium, and says so
        for chunk in store.iter_chunks():
            assert "Druckerei" not in chunk.text


#: A page written byte by byte: MediaBox 612 x 792, CropBox from (50, 100) to (550, 700); (x, y of the
#: baseline in PDF space, size, text) of two lines inside it and a word left of it (x 4 < 50).
MEDIA = (0.0, 0.0, 612.0, 792.0)
CROP = (50.0, 100.0, 550.0, 700.0)
INSIDE: list[tuple[float, float, float, str]] = [
    (100, 600, 12, "Die Größe der Prüfung für das Café wird jährlich neu festgelegt."),
    (100, 584, 12, "Naïve façades déjà vu: the committee’s résumé is kept on file."),
]
LEFT_OF_PAGE = (4.0, 400.0, 8.0, "Zuschnitt")
#: A line that starts on the page and runs on past the CropBox's right edge (x 550).
OVERFULL = (300, 500, 12, "Die überlange Zeile läuft über den Rand hinaus: commons.wikimedia.org/wiki/Größe")


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_a_line_running_past_the_cropbox_edge_stays_whole(tmp_path: Path, backend: str) -> None:
    path = write_pdf(tmp_path / "overfull.pdf", [[*INSIDE, OVERFULL, LEFT_OF_PAGE]], media=MEDIA, crop=CROP)
    ex = extract(path, extractor=backend, fallback=False)
    assert OVERFULL[3] in ex.raw
    assert {f.text for f in ex.furniture} == {LEFT_OF_PAGE[3]}  # the note left of the page, level with nothing
