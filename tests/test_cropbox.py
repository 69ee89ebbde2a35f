"""Pages whose CropBox is offset from and smaller than their MediaBox (issue 32): geometry in the
CropBox's coordinates on both backends (what a viewer shows), and text outside the CropBox set apart
as furniture of its own kind, ``outside_crop``, never in a chunk."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.ingest.extract import extract
from citeline.ingest.pipeline import PipelineSettings, process_file
from citeline.text.offsets import Original

#: MediaBox 612 x 792; CropBox from (50, 100) to (550, 700): a viewer shows 500 x 600 points.
MEDIA = (0, 0, 612, 792)
CROP = (50, 100, 550, 700)
#: (x, y of the baseline in PDF space, size, text): the body inside the CropBox, a printer's note
#: above it (y 740 > 700) and one left of it (x 10 < 50).
INSIDE = [
    (100, 600, 12, "Die Größe der Prüfung für das Café wird jährlich neu festgelegt."),
    (100, 584, 12, "Naïve façades déjà vu: the committee’s résumé is kept on file."),
]
OUTSIDE = [
    (100, 740, 10, "Hinweis für die Druckerei: MUST be removed before printing ÄÖÜ"),
    (4, 400, 8, "Zuschnitt"),
]


def _pdf_string(text: str) -> bytes:
    raw = text.replace("’", "'").encode("cp1252")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def offset_cropbox_pdf(path: Path) -> Path:
    """A one-page PDF, written byte by byte: Helvetica in WinAnsiEncoding (so é, ß, ü, ’ are one byte)."""
    ops = [b"BT"]
    for x, y, size, text in INSIDE + OUTSIDE:
        ops.append(b"/F1 %d Tf 1 0 0 1 %d %d Tm " % (size, x, y) + _pdf_string(text) + b" Tj")
    ops.append(b"ET")
    content = b"\n".join(ops)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [%d %d %d %d] /CropBox [%d %d %d %d] " % (*MEDIA, *CROP)
        + b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


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
