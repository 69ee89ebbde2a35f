"""``citeline highlight`` within bounds (issue 33, items 2 and 8): a range over more pages than
``--max-pages`` or more pixels than one image may hold is refused in one line naming ``--pages`` or
``--max-pages``; offsets past the text and a missing output folder are one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from citeline.present.pages import MAX_STACK_PIXELS
from citeline.store import Store
from tests.measure import citeline

PAGES = 30


@pytest.fixture(scope="module")
def long_pdf(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int]:
    """A store holding one PDF of :data:`PAGES` pages of German text; the URL and the raw length."""
    from fpdf import FPDF

    folder = tmp_path_factory.mktemp("highlight")
    docs = folder / "docs"
    docs.mkdir()
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    for n in range(1, PAGES + 1):
        pdf.add_page()
        pdf.multi_cell(0, 8, f"Seite {n}: Die Prüfung der Ansprüche erfolgt binnen 90 Tagen. " * 6)
    pdf.output(str(docs / "lang.pdf"))
    url = f"sqlite:///{folder / 'h.db'}"
    run = citeline("--db", url, "ingest", str(docs), "-q")
    assert run.code == 0, run.stderr
    with Store(url, migrate=False) as store:
        length = len(store.raw_text(store.document("lang.pdf").versions[-1].version_id))
    return url, length


def test_a_range_over_too_many_pages_is_refused_naming_the_options(long_pdf: tuple[str, int], tmp_path: Path) -> None:
    url, length = long_pdf
    out = tmp_path / "all.png"
    run = citeline("--db", url, "highlight", "--range", f"lang.pdf:0:{length}", "-o", str(out))
    assert run.code == 2, run.stderr
    assert run.stderr.strip() == (
        f"Error: lang.pdf [0, {length}) covers {PAGES} pages, above --max-pages 20; choose some with --pages "
        f"(its pages: 1-{PAGES})"
    )
    assert not out.exists()
    assert run.seconds < 15


def test_pages_chooses_and_the_image_holds_just_those(long_pdf: tuple[str, int], tmp_path: Path) -> None:
    url, length = long_pdf
    out = tmp_path / "some.png"
    run = citeline("--db", url, "highlight", "--range", f"lang.pdf:0:{length}", "--pages", "2-3,5", "-o", str(out))
    assert run.code == 0, run.stderr
    assert "pages 2, 3, 5" in run.stdout
    with Image.open(out) as image:
        assert image.height > 3 * image.width  # three portrait pages stacked
    missing = citeline("--db", url, "highlight", "--range", "lang.pdf:0:40", "--pages", "7", "-o", str(out))
    assert missing.code == 2
    assert missing.stderr.strip() == "Error: --pages 7: lang.pdf [0, 40) has nothing on page 7 (its pages: 1)"


def test_the_pixels_of_one_image_are_capped(long_pdf: tuple[str, int], tmp_path: Path) -> None:
    url, length = long_pdf
    out = tmp_path / "big.png"
    run = citeline(
        "--db", url, "highlight", "--range", f"lang.pdf:0:{length}", "--max-pages", "30", "--scale", "6", "-o", str(out)
    )
    assert run.code == 2, run.stderr
    line = run.stderr.strip()
    assert line.startswith(f"Error: lang.pdf [0, {length}): {PAGES} pages stack to ")
    assert line.endswith(
        f"above the {MAX_STACK_PIXELS / 1e6:.0f} allowed in one image; choose fewer with --pages or --max-pages, "
        "or lower --scale"
    )
    assert not out.exists()
    assert run.peak_mb < 500


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--range", "lang.pdf:0:999999999999999"], "--range 'lang.pdf:0:999999999999999': offsets beyond"),
        (["--range", "lang.pdf:0:40", "--pages", "0"], "--pages '0' is not a list of pages"),
        (["--range", "lang.pdf:0:40", "--pages", "5-2"], "--pages '5-2' is not a list of pages"),
        (["--range", "lang.pdf:0:40", "--pages", "²"], "--pages '²' is not a list of pages"),
        (["--range", "lang.pdf:0:40", "--max-pages", "0"], "Invalid value for '--max-pages'"),
    ],
)
def test_numbers_out_of_range_are_one_line_errors(
    long_pdf: tuple[str, int], tmp_path: Path, args: list[str], message: str
) -> None:
    url, _ = long_pdf
    run = citeline("--db", url, "highlight", *args, "-o", str(tmp_path / "x.png"))
    assert run.code == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert message in run.stderr.strip().splitlines()[-1]
    assert not (tmp_path / "x.png").exists()


def test_a_missing_output_folder_is_one_line(long_pdf: tuple[str, int], tmp_path: Path) -> None:
    url, _ = long_pdf
    out = tmp_path / "nicht-da" / "x.png"
    run = citeline("--db", url, "highlight", "--range", "lang.pdf:0:40", "-o", str(out))
    assert run.code == 2, run.stderr
    assert run.stderr.strip() == f"Error: Cannot write {out}: folder {str(out.parent)!r} does not exist"
