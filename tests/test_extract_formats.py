"""Non-PDF formats: plain text and Markdown read directly; HTML, DOCX, PPTX, ODT, EPUB and EML through
unstructured, offline. Every test works on real files: the generated fixtures in fixtures/formats and
variants written to tmp_path."""

from __future__ import annotations

import copy
import email.message
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from citeline.ingest.clean.pipeline import Cleaned, clean
from citeline.ingest.errors import CorruptFile, EmptyFile, Encrypted, ExtractionError, UnsupportedFormat
from citeline.ingest.extract import Extraction, extract
from citeline.ingest.extract.files import DOCX, EML, HTML, MARKDOWN, PPTX, TEXT, sniff_format
from citeline.ingest.extract.unstructured_backend import install_offline_hooks, offline_mode
from citeline.text.offsets import Normalized, Original
from tests.conftest import FORMAT_FIXTURES, ROOT, truth

FORMATS = ["txt", "md", "html", "docx", "pptx", "eml", "odt", "epub"]
UNSTRUCTURED = ["html", "docx", "pptx", "eml", "odt", "epub"]
FURNITURE_KINDS = {"Header", "Footer", "PageNumber"}
BODY_KINDS = {"NarrativeText", "UncategorizedText"}  # which one depends on the spaCy pipeline
#: Not on the development and CI machines, where unstructured gets the blank spaCy pipeline.
MODEL_INSTALLED = importlib.util.find_spec("en_core_web_sm") is not None


def fixture(fmt: str) -> Path:
    return FORMAT_FIXTURES / f"sample.{fmt}"


@cache
def extracted(fmt: str) -> tuple[Extraction, Cleaned]:
    """Each fixture is extracted and cleaned once per session (the results are immutable)."""
    ex = extract(fixture(fmt))
    return ex, clean(ex.raw, known_furniture=ex.furniture)


def collapse(text: str) -> str:
    return " ".join(text.split())


def paragraphs_of(text: str) -> list[str]:
    return [p for p in text.split("\n\n") if p.strip()]


# -- 1. every fixture: the truth's paragraphs are in the cleaned text, in order --------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_truth_paragraph_is_in_the_cleaned_text(fmt: str) -> None:
    ex, cleaned = extracted(fmt)
    t = truth(f"sample.{fmt}")
    assert ex.raw.strip()
    assert not ex.problems
    pos = 0
    for para in t["paragraphs"]:
        # Truth paragraphs are logical text: hard-wrapped source lines joined with single spaces, which
        # is also what cleaning does to the TXT/MD lines, so the match is exact. The one exception is
        # EML: unstructured splits the short lines of a plain-text body ("Best regards," / name / team)
        # into separate elements, which the raw stream joins with paragraph breaks, while the truth
        # joins them with spaces; there only whitespace may differ.
        if fmt == "eml" and para not in cleaned.text:
            found = collapse(cleaned.text).find(collapse(para), len(collapse(cleaned.text[:pos])))
            assert found >= 0, para
            continue
        found = cleaned.text.find(para, pos)
        assert found >= 0, f"{para!r} missing or out of order in {fmt}"
        pos = found + len(para)
    for table in t.get("tables", []):
        # a Table element's text is its cells in reading order, joined with spaces
        assert " ".join(cell for row in table for cell in row) in cleaned.text


@pytest.mark.parametrize("fmt", FORMATS)
def test_truth_furniture_is_removed_or_reported(fmt: str) -> None:
    ex, cleaned = extracted(fmt)
    t = truth(f"sample.{fmt}")
    reported = {f.text for f in cleaned.furniture}
    body = paragraphs_of(cleaned.text)
    for text in t["furniture"]:
        if text in reported:
            continue
        # not extracted at all: the words may still occur in the body ("the Northwind Clinic in …", a
        # heading repeated on the EPUB title page and in its table of contents), but never as a
        # paragraph of their own beyond those the body really has
        assert body.count(text) <= t["paragraphs"].count(text), f"{text!r} kept as body text in {fmt}"
    for f in cleaned.furniture:
        assert ex.raw[f.raw_start : f.raw_end] == f.text


def test_docx_header_and_footer_are_furniture_with_raw_spans() -> None:
    ex, cleaned = extracted("docx")
    header, footer = truth("sample.docx")["furniture"]
    assert [(f.kind, f.text) for f in ex.furniture] == [("header", header), ("footer", footer)]
    assert [(f.kind, f.text) for f in cleaned.furniture] == [("header", header), ("footer", footer)]
    for f in cleaned.furniture:
        assert ex.raw[f.raw_start : f.raw_end] == f.text
        assert f.page == 1
    assert header not in cleaned.text
    assert footer not in cleaned.text
    assert cleaned.text.startswith("Expense reimbursement procedure")
    # the cleaned text still maps into the raw stream past the removed header
    first = cleaned.map.to_original(Normalized(0, len("Expense reimbursement procedure")))
    assert ex.raw[first.start : first.end] == "Expense reimbursement procedure"


def test_html_fixture_reads_only_main() -> None:
    # the fixture has <main>: unstructured reads only it, so the page header and footer are not
    # extracted at all (nothing to report as furniture)
    ex, cleaned = extracted("html")
    header, footer = truth("sample.html")["furniture"]
    assert footer not in ex.raw
    assert header not in [ex.raw[e.raw_start : e.raw_end] for e in ex.elements]
    assert not ex.furniture
    assert not cleaned.furniture


def test_html_page_header_and_footer_without_main_are_furniture(tmp_path: Path) -> None:
    # With <main> (the fixture) unstructured reads only <main>. Without it, the page's <header> and
    # <footer> are extracted and reported as furniture; an article's own header and footer are body.
    page = tmp_path / "nomain.html"
    page.write_text(
        "<!-- saved page -->\n<html><head><title>t</title></head><body>\n"
        "<header><p>Northwind Clinic</p><nav><a href='/'>Home</a></nav></header>\n"
        "<article><header><h1>Opening hours</h1></header>\n"
        "<p>The clinic opens at 08:00. Visitors are welcome until 19:00.</p>\n"
        "<footer><p>Written by the front desk</p></footer></article>\n"
        "<p>Contact us</p>\n"
        "<footer><p>Contact us</p><p>© 2024 Northwind Clinic</p></footer>\n"
        "</body></html>\n",
        encoding="utf-8",
    )
    ex = extract(page)
    cleaned = clean(ex.raw, known_furniture=ex.furniture)
    assert [(f.kind, f.text) for f in cleaned.furniture] == [
        ("header", "Northwind Clinic"),
        ("footer", "Contact us"),
        ("footer", "© 2024 Northwind Clinic"),
    ]
    for f in cleaned.furniture:
        assert ex.raw[f.raw_start : f.raw_end] == f.text
    assert paragraphs_of(cleaned.text) == [
        "Opening hours",
        "The clinic opens at 08:00. Visitors are welcome until 19:00.",
        "Written by the front desk",
        "Contact us",  # the body paragraph; only the footer's copy is furniture
    ]
    assert "Home" not in ex.raw  # unstructured drops <nav>


# -- 2. raw offsets -----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["txt", "md"])
@pytest.mark.parametrize("variant", ["as_is", "crlf", "bom", "bom_crlf"])
def test_text_raw_is_the_decoded_file(fmt: str, variant: str, tmp_path: Path) -> None:
    data = fixture(fmt).read_bytes()
    assert b"\r" not in data
    assert not data.startswith(b"\xef\xbb\xbf")
    if "crlf" in variant:
        data = data.replace(b"\n", b"\r\n")
    if "bom" in variant:
        data = b"\xef\xbb\xbf" + data
    path = tmp_path / f"variant.{fmt}"
    path.write_bytes(data)
    ex = extract(path)
    # Path.read_text(newline="") needs Python 3.13; open() keeps "\r\n" the same way on 3.11
    with open(path, encoding="utf-8", newline="") as fh:
        assert ex.raw == fh.read()
    assert ex.extractor == ("markdown" if fmt == "md" else "text")
    assert ex.file_size == len(data)
    assert [(p.number, p.raw_start, p.raw_end) for p in ex.pages] == [(1, 0, len(ex.raw))]
    cleaned = clean(ex.raw)
    assert "\r" not in cleaned.text
    assert "\ufeff" not in cleaned.text
    heading = truth(f"sample.{fmt}")["paragraphs"][0]
    assert cleaned.text.lstrip("# ").startswith(heading)
    for para in truth(f"sample.{fmt}")["paragraphs"]:
        at = cleaned.text.find(para)
        assert at >= 0, para
        # the cleaned paragraph maps back to its hard-wrapped (CRLF) lines in the file's characters
        span = cleaned.map.to_original(Normalized(at, at + len(para)))
        assert collapse(ex.raw[span.start : span.end]) == para


def test_text_encodings_and_form_feeds(tmp_path: Path) -> None:
    utf16 = tmp_path / "utf16.txt"
    utf16.write_text("Zürich\n\nclaims\fpage two\n", encoding="utf-16")
    ex = extract(utf16)
    assert ex.raw == "Zürich\n\nclaims\fpage two\n"
    assert not ex.problems
    assert [(p.number, ex.raw[p.raw_start : p.raw_end]) for p in ex.pages] == [
        (1, "Zürich\n\nclaims"),
        (2, "page two\n"),
    ]
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Genève, €25\n".encode("cp1252"))
    ex = extract(latin)
    assert ex.raw == "Genève, €25\n"
    assert [p.code for p in ex.problems] == ["not_utf8"]


@pytest.mark.parametrize("fmt", UNSTRUCTURED)
def test_elements_are_spans_of_the_raw_stream(fmt: str) -> None:
    ex, _ = extracted(fmt)
    assert ex.extractor == "unstructured"
    assert ex.elements
    prev_end = 0
    for e in ex.elements:
        text = ex.raw[e.raw_start : e.raw_end]
        assert text
        assert text == text.strip()
        assert prev_end <= e.raw_start
        # between two elements there is only the separator: a blank line, or a page break
        assert ex.raw[prev_end : e.raw_start].strip() == ""
        prev_end = e.raw_end
        assert ex.pages_of(Original(e.raw_start, e.raw_end)) == [e.page]
    assert ex.raw[prev_end:].strip() == ""
    assert all(ex.raw[f.start : f.end] == f.text for f in ex.furniture)


def test_docx_element_spans_hold_unstructureds_element_texts() -> None:
    install_offline_hooks()
    from unstructured.partition.docx import partition_docx

    ex, _ = extracted("docx")
    direct = [el.text.strip() for el in partition_docx(filename=str(fixture("docx"))) if el.text.strip()]
    assert [ex.raw[e.raw_start : e.raw_end] for e in ex.elements] == direct


@pytest.mark.parametrize("fmt", ["html", "docx", "pptx", "odt", "epub"])
def test_element_kinds(fmt: str) -> None:
    ex, _ = extracted(fmt)
    t = truth(f"sample.{fmt}")
    elements = [(e.kind, ex.raw[e.raw_start : e.raw_end]) for e in ex.elements]
    body = [(k, text) for k, text in elements if k not in FURNITURE_KINDS | {"Table"}]
    assert [text for _, text in body] == t["paragraphs"]
    tables = [text for k, text in elements if k == "Table"]
    assert tables == [" ".join(cell for row in table for cell in row) for table in t.get("tables", [])]
    lists = {
        "html": t["paragraphs"][3:6],
        "docx": t["paragraphs"][3:5],
        "odt": t["paragraphs"][4:7],
        "epub": t["paragraphs"][4:7],
        "pptx": [b for slide in t.get("slides", []) for b in slide["bullets"]],
    }[fmt]
    for kind, text in body:
        if text in t["headings"]:
            assert kind == "Title", text
        elif text in lists:
            assert kind == "ListItem", text
        else:
            assert kind in BODY_KINDS, (kind, text)


def test_eml_elements() -> None:
    ex, _ = extracted("eml")
    t = truth("sample.eml")
    texts = [ex.raw[e.raw_start : e.raw_end] for e in ex.elements]
    assert collapse(" ".join(texts)) == collapse(" ".join(t["paragraphs"]))
    assert {e.kind for e in ex.elements} <= BODY_KINDS | {"Title", "ListItem"}
    assert ex.media_type == "message/rfc822"


def test_pptx_slides_are_pages() -> None:
    ex, cleaned = extracted("pptx")
    slides = truth("sample.pptx")["slides"]
    assert [p.number for p in ex.pages] == [1, 2, 3]
    assert ex.raw.count("\f") == 2
    # the page spans partition the stream: consecutive, separated by exactly the "\f"
    assert ex.pages[0].raw_start == 0
    assert ex.pages[-1].raw_end == len(ex.raw)
    for a, b in zip(ex.pages, ex.pages[1:], strict=False):
        assert ex.raw[a.raw_end] == "\f"
        assert b.raw_start == a.raw_end + 1
    for page, slide in zip(ex.pages, slides, strict=True):
        on_page = [(e.kind, ex.raw[e.raw_start : e.raw_end]) for e in ex.elements if e.page == page.number]
        assert on_page == [("Title", slide["title"])] + [("ListItem", b) for b in slide["bullets"]]
        assert page.has_text
    # a slide ends with a paragraph break: its last bullet is not joined to the next slide's title
    assert "Deductible stays at $1,200\n\nClaims deadlines" in cleaned.text


def _deck(path: Path) -> None:
    """4 slides: a title slide (its subtitle shows no bullet), an empty slide, a content slide with a
    free text box and footer, date and slide-number placeholders, and an empty last slide."""
    pptx = pytest.importorskip("pptx")
    from pptx.util import Inches

    ns = {"p": "http://schemas.openxmlformats.org/presentationml/2006/main"}
    a = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
    prs = pptx.Presentation()
    title = prs.slides.add_slide(prs.slide_layouts[0])
    title.shapes.title.text = "Annual review"
    title.placeholders[1].text = "Prepared by the benefits team"
    prs.slides.add_slide(prs.slide_layouts[6])
    layout = prs.slide_layouts[1]
    slide = prs.slides.add_slide(layout)
    slide.shapes.title.text = "Highlights"
    body = slide.placeholders[1].text_frame
    body.text = "Costs went down"
    sub = body.add_paragraph()
    sub.text = "Dental costs went down most"
    sub.level = 1
    box = slide.shapes.add_textbox(Inches(1), Inches(5.5), Inches(4), Inches(0.5))
    box.text_frame.text = "A free text box"
    texts = {"dt": "2024-05-01", "ftr": "Northwind confidential", "sldNum": "3"}
    for ph in layout.placeholders:  # python-pptx does not copy these onto slides; do it by hand
        sp = copy.deepcopy(ph._element)
        kind = sp.find("p:nvSpPr/p:nvPr/p:ph", ns).get("type")
        if kind in texts:
            tx = sp.find("p:txBody", ns)
            for para in list(tx.iterfind(f"{a}p")):
                tx.remove(para)
            run = tx.makeelement(f"{a}r", {})
            run.append(tx.makeelement(f"{a}t", {}))
            run[0].text = texts[kind]
            para = tx.makeelement(f"{a}p", {})
            para.append(run)
            tx.append(para)
            slide.shapes._spTree.append(sp)
    prs.slides.add_slide(prs.slide_layouts[6])
    prs.save(str(path))


def test_pptx_empty_slides_bullets_and_footer_placeholders(tmp_path: Path) -> None:
    deck = tmp_path / "deck.pptx"
    _deck(deck)
    ex = extract(deck)
    assert [(p.number, p.has_text) for p in ex.pages] == [(1, True), (2, False), (3, True), (4, False)]
    assert ex.raw.count("\f") == 3
    assert ex.pages[1].raw_start == ex.pages[1].raw_end  # the empty slide is an empty page
    kinds = [(e.page, e.kind, ex.raw[e.raw_start : e.raw_end]) for e in ex.elements]
    by_text = {text: (page, kind) for page, kind, text in kinds}
    assert by_text["Annual review"] == (1, "Title")
    assert by_text["Prepared by the benefits team"][1] != "ListItem"  # the layout suppresses bullets
    assert by_text["Highlights"] == (3, "Title")
    assert by_text["Costs went down"] == (3, "ListItem")  # bullet inherited from the master
    assert by_text["Dental costs went down most"] == (3, "ListItem")
    assert by_text["A free text box"][1] != "ListItem"
    assert by_text["Northwind confidential"] == (3, "Footer")
    assert by_text["2024-05-01"] == (3, "Footer")
    assert by_text["3"] == (3, "PageNumber")
    cleaned = clean(ex.raw, known_furniture=ex.furniture)
    assert {(f.kind, f.text, f.page) for f in cleaned.furniture} == {
        ("footer", "Northwind confidential", 3),
        ("footer", "2024-05-01", 3),
        ("page_number", "3", 3),
    }
    assert "Northwind confidential" not in cleaned.text
    assert "2024" not in cleaned.text
    assert "Prepared by the benefits team\n\nHighlights" in cleaned.text


def test_docx_rendered_page_breaks_are_pages(tmp_path: Path) -> None:
    docx = pytest.importorskip("docx")
    from docx.oxml import OxmlElement

    doc = docx.Document()
    doc.sections[0].header.paragraphs[0].text = "Running head"
    doc.sections[0].footer.paragraphs[0].text = "Confidential"
    doc.add_heading("Intro", level=1)
    doc.add_paragraph("First page text ends here.")
    para = doc.add_paragraph("A sentence that starts on page one and")
    run = para.add_run(" continues on page two.")
    run._r.insert(0, OxmlElement("w:lastRenderedPageBreak"))  # what Word writes where a page ended
    run = doc.add_paragraph().add_run("Third page paragraph.")
    run._r.insert(0, OxmlElement("w:lastRenderedPageBreak"))
    path = tmp_path / "paged.docx"
    doc.save(str(path))
    ex = extract(path)
    assert [p.number for p in ex.pages] == [1, 2, 3]
    assert ex.raw.count("\f") == 2
    cleaned = clean(ex.raw, known_furniture=ex.furniture)
    assert [f.text for f in cleaned.furniture] == ["Running head", "Confidential"]
    # a paragraph split by a page break joins up again, as in a PDF
    assert "starts on page one and continues on page two." in cleaned.text
    at = cleaned.text.find("and continues")
    assert ex.pages_of(cleaned.map.to_original(Normalized(at, at + len("and continues")))) == [1, 2]


def test_html_encodings(tmp_path: Path) -> None:
    undeclared = tmp_path / "latin.html"
    undeclared.write_bytes("<html><body><p>Café naïve ©</p></body></html>".encode("latin-1"))
    ex = extract(undeclared)
    assert ex.raw == "Café naïve ©"
    assert [p.code for p in ex.problems] == ["not_utf8"]
    declared = tmp_path / "declared.html"
    declared.write_bytes(
        '<html><head><meta charset="iso-8859-1"></head><body><p>Straße 5</p></body></html>'.encode("latin-1")
    )
    ex = extract(declared)
    assert ex.raw == "Straße 5"
    assert not ex.problems
    xhtml = tmp_path / "page.xhtml"
    xhtml.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">'
        "<body><p>Zürich &amp; Köln</p></body></html>",
        encoding="utf-8",
    )
    assert extract(xhtml).raw == "Zürich & Köln"


# -- 3. offline -----------------------------------------------------------------------------------

_GUARDED_RUN = r"""
import importlib.util, json, os, socket, subprocess, sys, sysconfig

attempts = []

def _blocked(*args, **kwargs):
    attempts.append(repr(args[-1] if args else kwargs)[:200])
    raise OSError("network disabled by the test")

socket.socket.connect = lambda self, *a, **k: _blocked(*a, **k)
socket.socket.connect_ex = lambda self, *a, **k: _blocked(*a, **k)
socket.create_connection = _blocked
socket.getaddrinfo = _blocked
commands = []
_popen_init = subprocess.Popen.__init__

def _recording_init(self, args, *a, **k):
    commands.append(repr(args)[:200])
    _popen_init(self, args, *a, **k)

subprocess.Popen.__init__ = _recording_init
site_dir = sysconfig.get_paths()["purelib"]
before = sorted(os.listdir(site_dir))

from citeline.ingest.extract import extract
from citeline.ingest.extract.unstructured_backend import offline_mode

results = {}
for path in sys.argv[1:]:
    ex = extract(path)
    results[path] = {"chars": len(ex.raw), "elements": len(ex.elements), "version": ex.extractor_version}
print(json.dumps({
    "attempts": attempts,
    "commands": commands,
    "results": results,
    "mode": offline_mode(),
    "model_installed": importlib.util.find_spec("en_core_web_sm") is not None,
    "site_changed": sorted(os.listdir(site_dir)) != before,
    "telemetry_off": os.environ.get("DO_NOT_TRACK"),
}))
"""


def test_offline_in_a_fresh_process_with_sockets_blocked(tmp_path: Path) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DO_NOT_TRACK", "SCARF_NO_ANALYTICS", "UNSTRUCTURED_DISABLE_NOTICE")
    }
    env["TMPDIR"] = str(tmp_path)  # where unstructured would leave its model-install lock file
    paths = [str(fixture("html")), str(fixture("docx"))]
    proc = subprocess.run(
        [sys.executable, "-c", _GUARDED_RUN, *paths],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["attempts"] == []
    assert not any("nvidia-smi" in c for c in report["commands"])  # telemetry's GPU probe
    assert report["results"][paths[0]]["elements"] == 8
    assert report["results"][paths[1]]["elements"] == 9
    mode = "model" if MODEL_INSTALLED else "blank"
    assert report["mode"] == mode
    assert all(f"{mode} spaCy" in r["version"] for r in report["results"].values())
    assert report["telemetry_off"]
    assert report["model_installed"] is MODEL_INSTALLED  # nothing was downloaded or installed
    assert report["site_changed"] is False
    assert not (tmp_path / "en_core_web_sm.install.lock").exists()
    assert "Thank you for using Unstructured" not in proc.stdout + proc.stderr


def test_blank_spacy_pipeline_is_in_use() -> None:
    if MODEL_INSTALLED:
        pytest.skip("en_core_web_sm is installed here, so unstructured uses it")
    ex, _ = extracted("docx")
    assert offline_mode() == "blank"
    assert "blank spaCy" in ex.extractor_version
    from unstructured.nlp import tokenize

    nlp = tokenize._get_nlp()
    assert nlp.pipe_names == ["sentencizer"]


# -- 4. bad input and format sniffing ---------------------------------------------------------------


def _rewrite_zip(src: Path, dst: Path, member: str, data: bytes) -> None:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            zout.writestr(info, data if info.filename == member else zin.read(info.filename))


def _truncated_docx(p: Path) -> None:
    data = fixture("docx").read_bytes()
    p.write_bytes(data[: len(data) // 2])


def _bad_document_xml(p: Path) -> None:
    _rewrite_zip(fixture("docx"), p, "word/document.xml", b"<w:document>not xml")


def _plain_zip(p: Path) -> None:
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("readme.txt", "hello")


def _xlsx(p: Path) -> None:
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("xl/workbook.xml", "<workbook/>")


def _ole(p: Path) -> None:
    p.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504))


def _encrypted_ooxml(p: Path) -> None:
    # what Office writes for a DOCX with a password: an OLE container holding an EncryptedPackage stream
    p.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504) + "EncryptedPackage".encode("utf-16-le"))


def _rtf(p: Path) -> None:
    p.write_bytes(b"{\\rtf1\\ansi Hello}")


def _blob(p: Path) -> None:
    p.write_bytes(bytes(range(256)) * 8)


def _empty(p: Path) -> None:
    p.write_bytes(b"")


def _bad_slide(p: Path) -> None:
    _rewrite_zip(fixture("pptx"), p, "ppt/slides/slide1.xml", b"<garbage")


def _bad_odt(p: Path) -> None:
    _rewrite_zip(fixture("odt"), p, "content.xml", b"<garbage")


def _text_named_docx(p: Path) -> None:
    p.write_text("just some text\n", encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "make", "error", "message"),
    [
        ("truncated.docx", _truncated_docx, CorruptFile, "damaged DOCX file"),
        ("bad_xml.docx", _bad_document_xml, CorruptFile, "cannot parse DOCX (XMLSyntaxError: "),
        ("bad_slide.pptx", _bad_slide, CorruptFile, "cannot parse PPTX (XMLSyntaxError: "),
        ("bad_content.odt", _bad_odt, CorruptFile, "cannot parse ODT (RuntimeError: Pandoc died"),
        ("archive.zip", _plain_zip, UnsupportedFormat, "zip archive that is not DOCX, PPTX, ODT or EPUB"),
        ("archive.docx", _plain_zip, UnsupportedFormat, "zip archive that is not DOCX, PPTX, ODT or EPUB"),
        ("book.xlsx", _xlsx, UnsupportedFormat, "spreadsheets (XLSX) are not supported"),
        ("legacy.doc", _ole, UnsupportedFormat, "legacy Office (OLE) file"),
        ("locked.docx", _encrypted_ooxml, Encrypted, "password-protected Office file"),
        ("letter.rtf", _rtf, UnsupportedFormat, "RTF is not supported"),
        ("blob.bin", _blob, UnsupportedFormat, "unrecognised binary format"),
        ("blob.html", _blob, UnsupportedFormat, "unrecognised binary format"),
        ("empty.html", _empty, EmptyFile, "file is empty (0 bytes)"),
        ("text.docx", _text_named_docx, UnsupportedFormat, "not a DOCX file (no zip container"),
    ],
)
def test_bad_files_give_one_line_errors(
    name: str, make: Callable[[Path], None], error: type[ExtractionError], message: str, tmp_path: Path
) -> None:
    path = tmp_path / name
    make(path)
    with pytest.raises(error) as err:
        extract(path)
    text = str(err.value)
    assert text.startswith(f"{path}: {message}"), text
    assert "\n" not in text
    assert "\r" not in text
    assert "Traceback" not in text
    assert err.value.path == str(path)


@pytest.mark.parametrize(
    ("source", "name", "fmt"),
    [
        ("docx", "renamed.txt", DOCX),
        ("pptx", "slides", PPTX),
        ("html", "page", HTML),
        ("eml", "message", EML),
        ("md", "notes", TEXT),  # Markdown without its extension is read as plain text: same raw
        ("md", "notes.markdown", MARKDOWN),
    ],
)
def test_format_comes_from_the_content(source: str, name: str, fmt: str, tmp_path: Path) -> None:
    path = tmp_path / name
    shutil.copy(fixture(source), path)
    data = path.read_bytes()
    assert sniff_format(str(path), data) == fmt
    ex = extract(path)
    expected, _ = extracted(source)
    assert ex.raw == expected.raw
    assert ex.content_sha256 == expected.content_sha256


@pytest.mark.parametrize(
    ("head", "fmt"),
    [
        (b"<!-- saved -->\n<?xml version='1.0'?>\n<html><body>x</body></html>", HTML),
        (b"\xef\xbb\xbf<!DOCTYPE html>\n<title>x</title>", HTML),
        (b"<body><p>x</p></body>", HTML),
        (b"<p>not enough to call it a page</p>", TEXT),
        (b"From: a@example.org\nTo: b@example.org\nSubject: hi\n\nbody\n", EML),
        (b"From the desk of the editor: hello\n", TEXT),
    ],
)
def test_sniffing_text_flavours(head: bytes, fmt: str) -> None:
    assert sniff_format("noext", head) == fmt


# -- 5. EML -------------------------------------------------------------------------------------------


def test_python_dateutil_is_installed() -> None:
    # unstructured's email partitioner imports python-dateutil, which none of its extras declares
    assert importlib.import_module("dateutil.parser").parse("Wed, 01 May 2024 12:00:00 +0000").year == 2024


def test_eml_attachments_are_not_extracted(tmp_path: Path) -> None:
    msg = email.message.EmailMessage()
    msg["From"] = "Anneliese Groß <anneliese.gross@northwind.example>"
    msg["To"] = "benefits@northwind.example"
    msg["Subject"] = "Claims deadline"
    msg["Date"] = "Wed, 01 May 2024 12:00:00 +0000"
    msg.set_content("Claims are not reimbursed after 90 days.\n\nBest regards,\nAnneliese\n")
    msg.add_attachment(
        b"Attachment text that must not be indexed.\n", maintype="text", subtype="plain", filename="note.txt"
    )
    path = tmp_path / "with_attachment.eml"
    path.write_bytes(msg.as_bytes())
    ex = extract(path)
    assert "Claims are not reimbursed after 90 days." in ex.raw
    assert "Attachment" not in ex.raw


def test_eml_html_body_is_preferred(tmp_path: Path) -> None:
    msg = email.message.EmailMessage()
    msg["From"] = "a@example.org"
    msg["To"] = "b@example.org"
    msg["Subject"] = "Both bodies"
    msg.set_content("Plain version.\n")
    msg.add_alternative("<html><body><h1>Notice</h1><p>HTML version.</p></body></html>", subtype="html")
    path = tmp_path / "alternative.eml"
    path.write_bytes(msg.as_bytes())
    ex = extract(path)
    assert next((e.kind, ex.raw[e.raw_start : e.raw_end]) for e in ex.elements) == ("Title", "Notice")
    assert "HTML version." in ex.raw
    assert "Plain version." not in ex.raw


# -- misc ---------------------------------------------------------------------------------------------


def test_extraction_records() -> None:
    ex, _ = extracted("html")
    assert ex.media_type == "text/html"
    assert ex.file_size == fixture("html").stat().st_size
    assert re.fullmatch(r"\d+\.\d+\.\d+\S* \((blank|model) spaCy\)", ex.extractor_version)
    assert [(p.number, p.raw_start, p.raw_end) for p in ex.pages] == [(1, 0, len(ex.raw))]
    # deterministic: a second extraction gives the same stream, spans and furniture
    again = extract(fixture("docx"))
    first, _ = extracted("docx")
    assert (again.raw, again.elements, again.furniture) == (first.raw, first.elements, first.furniture)
