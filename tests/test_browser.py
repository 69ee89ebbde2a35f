"""The HTML report and `citeline serve` in a real headless Chromium (Debian's, driven by Playwright;
nothing is downloaded): clicking a citation scrolls to its highlight, the highlight sits on the
citation's boxes within 2 px, and document text that looks like HTML never runs."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citeline.batch import IngestOptions, ingest_files
from citeline.present.html import build_html
from citeline.present.web import make_server
from citeline.store import Store
from citeline.verify.verify import VerifyOptions, verify_answer
from tests.conftest import PDF_FIXTURES, ROOT, truth

sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package (pip install -e '.[test]')")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium)")

ARTIFACTS = ROOT / "artifacts"
XSS = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    folder = tmp_path_factory.mktemp("browser")
    docs = folder / "docs"
    docs.mkdir()
    for name in ("policy_handbook.pdf", "xss_document.pdf"):
        shutil.copy(PDF_FIXTURES / name, docs / name)
    with Store(f"sqlite:///{folder / 'b.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        yield s


def chunk_with(store: Store, text: str) -> str:
    return next(c.chunk_id for c in store.iter_chunks() if text in c.text)


@pytest.fixture(scope="module")
def answer(store: Store) -> dict[str, Any]:
    xss_chunk = next(c for c in store.iter_chunks(document="xss_document.pdf") if XSS in c.text)
    start = xss_chunk.text.index(XSS)
    quote = xss_chunk.text[max(0, start - 40) : start + len(XSS) + 10]
    sources = {
        "S1": chunk_with(store, "Claims are not reimbursed after 90 days."),
        "S2": chunk_with(store, "without prior approval from the claims administrator"),
        "S3": xss_chunk.chunk_id,
    }
    return {
        "answer": (
            "Late claims are refused [S1]. Follow-up examinations are covered [S2]. "
            f"The page shows {XSS} and <img src=x onerror=alert(2)> as text [S3]. Claims lapse after 120 days [S1]."
        ),
        "sources": sources,
        "citations": [
            {"marker": "S1", "quote": "Claims are not reimbursed after 90 days."},
            {
                "marker": "S2",
                "quote": "is covered in full without a deductible and without prior approval "
                "from the claims administrator",
            },
            {"marker": "S3", "quote": quote},
            {"marker": "S1", "quote": "Claims are not reimbursed after 120 days."},
        ],
    }


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield b
        b.close()


def open_page(browser: Any) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return page, dialogs


def check_highlight(page: Any, n: int, expected: list[dict[str, float]]) -> None:
    """Click citation ``n``; its highlights must be visible and sit on ``expected`` boxes (2 px)."""
    page.click(f'a.cite[data-show="{n}"]')
    page.wait_for_timeout(900)  # smooth scrolling
    highlights = page.locator(f'.hl[data-cite="{n}"]:not(.other)')
    assert highlights.count() == len(expected)
    first = highlights.nth(0)
    assert first.is_visible()
    box = first.bounding_box()
    assert 0 <= box["y"] <= 900, "the first highlight is scrolled into view"
    assert "flash" in (first.get_attribute("class") or "")
    for i, want in enumerate(expected):
        hl = highlights.nth(i)
        figure = hl.locator("xpath=ancestor::figure")
        image = figure.locator(".pageimg").bounding_box()
        width, height = float(figure.get_attribute("data-width")), float(figure.get_attribute("data-height"))
        sx, sy = image["width"] / width, image["height"] / height
        got = hl.bounding_box()
        assert got["x"] - image["x"] == pytest.approx(want["x0"] * sx, abs=2)
        assert got["y"] - image["y"] == pytest.approx(want["top"] * sy, abs=2)
        assert got["width"] == pytest.approx((want["x1"] - want["x0"]) * sx, abs=2)
        assert got["height"] == pytest.approx((want["bottom"] - want["top"]) * sy, abs=2)
        assert int(figure.get_attribute("data-page")) == want["page"]


def test_report_click_scrolls_to_highlight_on_the_right_boxes(
    store: Store, answer: dict[str, Any], browser: Any, tmp_path: Path
) -> None:
    report = verify_answer(store, answer, options=VerifyOptions(log=False))
    statuses = [c.status for c in report.citations]
    assert statuses == ["verified", "verified", "verified", "quote_altered"]
    path = tmp_path / "report.html"
    path.write_text(build_html(report, store), encoding="utf-8")
    page, dialogs = open_page(browser)
    page.goto(path.as_uri())
    boxes = [c.location.boxes if c.location else () for c in report.citations]
    check_highlight(page, 2, [dict(b) for b in boxes[1]])  # across the page break: two pages
    assert len({b["page"] for b in boxes[1]}) == 2
    check_highlight(page, 1, [dict(b) for b in boxes[0]])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=False)
    # everything from documents and answers is text, never markup
    assert XSS in page.inner_text("body")
    assert page.locator("script").count() == 1  # only the report's own
    assert page.locator("img[src='x']").count() == 0
    assert dialogs == []
    page.close()


def test_the_same_through_citeline_serve(store: Store, answer: dict[str, Any], browser: Any) -> None:
    server = make_server(store, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        page, dialogs = open_page(browser)
        page.goto(base + "/verify")
        page.fill("textarea[name=answer]", json.dumps(answer))
        page.click("button[type=submit]")
        page.wait_for_selector("section.citations")
        report = verify_answer(store, answer, options=VerifyOptions(log=False))
        check_highlight(page, 1, [dict(b) for b in report.citations[0].location.boxes])  # type: ignore[union-attr]
        assert XSS in page.inner_text("body")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "serve-report.png"))
        # browse: documents, a document, the XSS chunk on its page
        page.goto(base + "/")
        assert page.locator("a", has_text="xss_document.pdf").count() == 1
        page.click("a:has-text('xss_document.pdf')")
        page.click("table >> nth=1 >> a >> nth=0")
        page.wait_for_selector("figure.page img")
        assert XSS in page.inner_text(".chunk")
        image = page.locator("figure.page img").first
        assert image.evaluate("img => img.complete && img.naturalWidth > 0")
        hl = page.locator(".hl").first
        assert hl.is_visible()
        assert page.locator("script").count() == 0  # server pages run no script at all
        assert dialogs == []
        page.close()
    finally:
        server.shutdown()
        server.server_close()


def test_server_refuses_bad_answers_with_one_line(store: Store, browser: Any) -> None:
    server = make_server(store, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page, _ = open_page(browser)
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/verify")
        page.fill("textarea[name=answer]", '{"answer": 5}')
        page.click("button[type=submit]")
        assert page.inner_text(".error") == "answer: 'answer' must be a string, got int"
        page.close()
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module", params=["pdfplumber", "pdfium"])
def cropped_store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """A store holding one page whose CropBox is offset from its MediaBox (the fixture
    ``layout_offset_cropbox``)."""
    from citeline.ingest.pipeline import PipelineSettings

    folder = tmp_path_factory.mktemp(f"crop-{request.param}")
    docs = folder / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / "layout_offset_cropbox.pdf", docs)
    with Store(f"sqlite:///{folder / 'c.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1, settings=PipelineSettings(extractor=request.param)))
        yield s


def test_highlights_land_on_the_quoted_words_under_an_offset_cropbox(
    cropped_store: Store, browser: Any, tmp_path: Path
) -> None:
    """The highlight is where a viewer shows the words: a box of the truth (from the MediaBox's
    top-left corner) less the CropBox's top-left corner, on the page image, which shows the CropBox
    (500 x 600 points), not the MediaBox."""
    gt = truth("layout_offset_cropbox")
    crop = gt["crop_box"]
    line = next(p for p in gt["paragraphs"] if p["role"] == "body")["lines"][0]
    quote = line["text"][: line["text"].index(" wird")]  # "Die Größe der Prüfung für das Café"
    chunk = chunk_with(cropped_store, quote)
    answer = {"answer": "The size is set every year [S1].", "sources": {"S1": chunk}}
    answer["citations"] = [{"marker": "S1", "quote": quote}]
    report = verify_answer(cropped_store, answer, options=VerifyOptions(log=False))
    assert [c.status for c in report.citations] == ["verified"]
    path = tmp_path / "report.html"
    path.write_text(build_html(report, cropped_store), encoding="utf-8")
    page, dialogs = open_page(browser)
    page.goto(path.as_uri())
    page.click('a.cite[data-show="1"]')
    page.wait_for_timeout(900)
    (hl,) = [page.locator('.hl[data-cite="1"]:not(.other)').nth(0)]
    figure = hl.locator("xpath=ancestor::figure")
    assert (float(figure.get_attribute("data-width")), float(figure.get_attribute("data-height"))) == (500, 600)
    image = figure.locator(".pageimg").bounding_box()
    assert image["height"] / image["width"] == pytest.approx(600 / 500, rel=0.02)  # the CropBox, rendered
    sx, sy = image["width"] / 500, image["height"] / 600
    got = hl.bounding_box()
    assert got["x"] - image["x"] == pytest.approx((line["x0"] - crop["x0"]) * sx, abs=3)
    middle = ((line["top"] + line["bottom"]) / 2 - crop["top"]) * sy
    assert got["y"] - image["y"] < middle < got["y"] - image["y"] + got["height"]
    assert got["height"] < 2 * (line["bottom"] - line["top"]) * sy
    assert dialogs == []
    page.close()
