"""Pages whose CropBox is offset from and smaller than their MediaBox (issue 32): geometry in the
CropBox's coordinates on both backends (what a viewer shows), and text outside the CropBox set apart
as furniture of its own kind, ``outside_crop``, never in a chunk."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.ingest.extract import extract
from citeline.ingest.pipeline import PipelineSettings, process_file
from citeline.text.offsets import Original
from tests.simple_pdf import write_pdf

#: MediaBox 612 x 792; CropBox from (50, 100) to (550, 700): a viewer shows 500 x 600 points.
MEDIA = (0.0, 0.0, 612.0, 792.0)
CROP = (50.0, 100.0, 550.0, 700.0)
#: (x, y of the baseline in PDF space, size, text): the body inside the CropBox, a printer's note
#: above it (y 740 > 700) and one left of it (x 10 < 50).
INSIDE: list[tuple[float, float, float, str]] = [
    (100, 600, 12, "Die Größe der Prüfung für das Café wird jährlich neu festgelegt."),
    (100, 584, 12, "Naïve façades déjà vu: the committee’s résumé is kept on file."),
]
OUTSIDE: list[tuple[float, float, float, str]] = [
    (100, 740, 10, "Hinweis für die Druckerei: MUST be removed before printing ÄÖÜ"),
    (4, 400, 8, "Zuschnitt"),
]


def offset_cropbox_pdf(path: Path) -> Path:
    """One page, MediaBox :data:`MEDIA`, CropBox :data:`CROP`, the text of :data:`INSIDE` and :data:`OUTSIDE`."""
    return write_pdf(path, [INSIDE + OUTSIDE], media=MEDIA, crop=CROP)


@pytest.fixture(scope="module")
def cropped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return offset_cropbox_pdf(tmp_path_factory.mktemp("crop") / "offset_cropbox.pdf")


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_geometry_is_in_cropbox_coordinates(cropped: Path, backend: str) -> None:
    ex = extract(cropped, extractor=backend, fallback=False)
    (page,) = ex.pages
    assert (page.width, page.height) == pytest.approx((500, 600), abs=0.01)
    geometry = ex.geometry()
    for (x, y, size, text), top_of_page in zip(INSIDE, (0, 1), strict=True):
        start = ex.raw.index(text[:20])
        (box,) = geometry.boxes(Original(start, start + 20), ex.raw)
        # PDF point (x, y) is (x - 50, 700 - y) from the CropBox's top-left corner
        assert box.page == 1
        assert box.x0 == pytest.approx(x - CROP[0], abs=1.0), (backend, text, top_of_page)
        baseline = CROP[3] - y
        assert box.top < baseline < box.bottom <= baseline + 0.3 * size


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_text_outside_the_cropbox_is_furniture_of_its_own_kind(cropped: Path, backend: str) -> None:
    ex = extract(cropped, extractor=backend, fallback=False)
    kinds = {f.text: f.kind for f in ex.furniture}
    assert kinds == {OUTSIDE[0][3]: "outside_crop", OUTSIDE[1][3]: "outside_crop"}
    for f in ex.furniture:
        assert ex.raw[f.start : f.end] == f.text
    # read last on its page: the body comes first, whole
    assert ex.raw.index(INSIDE[1][3].replace("’", "'")[:30]) < ex.raw.index("Hinweis")


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_no_chunk_holds_text_from_outside_the_cropbox(cropped: Path, backend: str) -> None:
    doc = process_file(cropped, cropped.name, PipelineSettings(extractor=backend))
    text = " ".join(c.text for c in doc.chunks)
    assert "Die Größe der Prüfung für das Café" in text
    for outside in ("Hinweis", "Druckerei", "Zuschnitt"):
        assert outside not in text
    assert {f.kind for f in doc.furniture} == {"outside_crop"}


def test_both_backends_draw_the_same_boxes(cropped: Path) -> None:
    boxes = []
    for backend in ("pdfplumber", "pdfium"):
        ex = extract(cropped, extractor=backend, fallback=False)
        start = ex.raw.index("Naïve")
        boxes.append(ex.geometry().boxes(Original(start, start + 5), ex.raw)[0])
    a, b = boxes
    assert (a.x0, a.top, a.x1, a.bottom) == pytest.approx((b.x0, b.top, b.x1, b.bottom), abs=1.5)


def test_the_store_keeps_the_outside_text_in_its_furniture_table(cropped: Path, tmp_path: Path) -> None:
    from citeline.batch import IngestOptions, ingest_files
    from citeline.store import Store

    with Store(f"sqlite:///{tmp_path / 'crop.db'}") as store:
        summary = ingest_files(store, [cropped], IngestOptions(workers=1))
        assert summary.chunks > 0
        _, rows = store.sql("SELECT kind, page_no, text FROM furniture ORDER BY raw_start")
        assert [tuple(r) for r in rows] == [("outside_crop", 1, OUTSIDE[0][3]), ("outside_crop", 1, OUTSIDE[1][3])]
        _, versions = store.sql("SELECT extractor FROM document_versions")
        assert [r[0] for r in versions] == ["pdfium"]  # auto reads PDFs with pdfium, and says so
        for chunk in store.iter_chunks():
            assert "Druckerei" not in chunk.text


#: A line that starts on the page and runs on past the CropBox's right edge (x 550).
OVERFULL = (300, 500, 12, "Die überlange Zeile läuft über den Rand hinaus: commons.wikimedia.org/wiki/Größe")


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_a_line_running_past_the_cropbox_edge_stays_whole(tmp_path: Path, backend: str) -> None:
    path = write_pdf(tmp_path / "overfull.pdf", [[*INSIDE, OVERFULL, OUTSIDE[1]]], media=MEDIA, crop=CROP)
    ex = extract(path, extractor=backend, fallback=False)
    assert OVERFULL[3] in ex.raw
    assert {f.text for f in ex.furniture} == {OUTSIDE[1][3]}  # the note left of the page, level with nothing
