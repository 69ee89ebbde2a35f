"""Extraction within memory caps (issue 33, item 3): zip containers whose directory declares more
than the unzipped limit, a PDF page flooded with ``Tj`` operators, and a task over the worker's
memory cap each fail with a one-line reason while an ordinary file beside them is indexed."""

from __future__ import annotations

import io
import os
import time
import zipfile
import zlib
from pathlib import Path

import pytest

from citeline.ingest.extract.files import Limits, default_max_memory
from citeline.ingest.extract.guards import MAX_PAGE_TEXT
from citeline.ingest.isolate import IsolatedPool, OverMemory
from tests.isolate_tasks import square
from tests.measure import citeline


def zip_bomb(path: Path, kind: str, unzipped: int) -> None:
    """A DOCX or an EPUB whose one text part holds ``unzipped`` bytes of repeated XML (a few hundred KB
    zipped), written in pieces so the test never holds it."""
    piece = "<p>Grüße aus Zürich, ein Absatz.</p>".encode() * 4096
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        if kind == "epub":
            zf.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
            zf.writestr("META-INF/container.xml", "<container/>")
            name = "OEBPS/chapter1.xhtml"
        else:
            zf.writestr("[Content_Types].xml", "<Types/>")
            name = "word/document.xml"
        with zf.open(name, "w", force_zip64=True) as out:
            written = 0
            while written < unzipped:
                out.write(piece)
                written += len(piece)


def tj_flood(path: Path, operators: int) -> None:
    """One page whose content stream shows a character ``operators`` times (tens of KB compressed)."""
    content = b"BT /F1 12 Tf 72 700 Td " + b"(\xe9) Tj " * operators + b"ET"
    stream = zlib.compress(content, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >>"
        b" /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    pdf = io.BytesIO()
    pdf.write(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(pdf.tell())
        pdf.write(b"%d 0 obj\n" % i + body + b"\nendobj\n")
    xref = pdf.tell()
    pdf.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    pdf.write(b"".join(b"%010d 00000 n \n" % o for o in offsets))
    pdf.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    path.write_bytes(pdf.getvalue())


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = tmp_path_factory.mktemp("bombs") / "docs"
    docs.mkdir()
    over = Limits().max_unzipped_bytes + (64 << 20)
    zip_bomb(docs / "bomb.epub", "epub", over)
    zip_bomb(docs / "bomb.docx", "docx", over)
    tj_flood(docs / "flood.pdf", 2_000_000)
    (docs / "ordinary.txt").write_text("Grüße aus Zürich: ein gewöhnliches Dokument.\n", encoding="utf-8")
    return docs


@pytest.mark.parametrize("extractor", ["pdfplumber", "pdfium"])
def test_bombs_and_a_flood_fail_in_one_line_and_the_batch_goes_on(
    hostile: Path, tmp_path: Path, extractor: str
) -> None:
    started = time.monotonic()
    run = citeline(
        "--db", f"sqlite:///{tmp_path / 'b.db'}", "ingest", str(hostile), "--extractor", extractor, "--workers", "2"
    )
    seconds = time.monotonic() - started
    assert run.code == 1, run.stderr
    failed = sorted(line for line in (run.stdout + run.stderr).splitlines() if line.startswith("failed: "))
    zipped = "MB zipped;"
    assert len(failed) == 3, failed
    assert failed[0].startswith(f"failed: {hostile / 'bomb.docx'}: unzips to ")
    assert zipped in failed[0]
    assert failed[0].endswith("above the 512 MB limit for a zip container")
    assert failed[1].startswith(f"failed: {hostile / 'bomb.epub'}: unzips to ")
    flood = f"failed: {hostile / 'flood.pdf'}: "
    if extractor == "pdfium":
        assert (
            failed[2]
            == flood
            + f"page 1 draws 2,000,000 characters, above the limit of {MAX_PAGE_TEXT:,} per page (a text flood)"
        )
    else:
        assert (
            failed[2]
            == flood + f"a page draws more than {MAX_PAGE_TEXT:,} text operators, the limit per page (a text flood)"
        )
    found = citeline("--db", f"sqlite:///{tmp_path / 'b.db'}", "search", "gewöhnliches")
    assert "ordinary.txt" in found.stdout
    assert seconds < 60, seconds


def grab(megabytes: int) -> int:
    """A task that needs ``megabytes`` of memory."""
    return len(bytearray(megabytes << 20))


def test_a_task_over_the_workers_memory_cap_fails_and_the_next_one_runs() -> None:
    cap = 400 << 20
    with IsolatedPool(grab, workers=1, max_memory=cap) as pool:
        results = dict(pool.imap_unordered([("big", 2000), ("small", 20)]))
    assert isinstance(results["big"], OverMemory)
    assert str(results["big"]) == "needed more than the 400 MB memory cap per worker"
    assert results["small"] == 20 << 20
    with IsolatedPool(square, workers=1, max_memory=cap) as pool:
        assert dict(pool.imap_unordered([("é", 12)])) == {"é": 144}


def test_the_default_cap_is_a_share_of_the_machine() -> None:
    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert default_max_memory(1) == max(1 << 30, int(physical * 0.75))
    assert default_max_memory(4) == max(1 << 30, int(physical * 0.75 / 4))
    assert default_max_memory(10_000) == 1 << 30


@pytest.mark.parametrize(("value", "message"), [("12", "'12' is not a size"), ("lots", "'lots' is not a size")])
def test_max_memory_values_are_checked(tmp_path: Path, value: str, message: str) -> None:
    run = citeline("--db", f"sqlite:///{tmp_path / 'm.db'}", "ingest", str(tmp_path), "--max-memory", value)
    assert run.code == 2
    assert run.stderr.strip() == f"Error: --max-memory {message} of at least 256M (like 2G or 800M)"


def docx_over_memory(path: Path, megabytes: int) -> None:
    """A valid DOCX (made by python-docx) whose body holds ``megabytes`` MB of paragraphs: under the
    unzipped limit, so only the worker's memory cap stops it."""
    import docx

    made = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("Grüße aus Zürich")
    document.save(made)
    with zipfile.ZipFile(made) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as out:
        head, tail = src.read("word/document.xml").decode().split("<w:body>", 1)
        for item in src.infolist():
            if item.filename != "word/document.xml":
                out.writestr(item, src.read(item.filename))
        with out.open("word/document.xml", "w", force_zip64=True) as body:
            body.write((head + "<w:body>").encode())
            piece = ("<w:p><w:r><w:t>Grüße aus Zürich, ein Absatz.</w:t></w:r></w:p>" * 5000).encode()
            for _ in range((megabytes << 20) // len(piece)):
                body.write(piece)
            body.write(tail.encode())


def test_a_file_over_the_memory_cap_fails_and_the_rest_is_indexed(tmp_path: Path) -> None:
    """Under --max-memory 700M a PDF and a text file are indexed (the file is read in pieces, not
    into a buffer of the 1 GiB file limit), and a DOCX needing more fails in one line."""
    from tests.conftest import PDF_FIXTURES

    docs = tmp_path / "docs"
    docs.mkdir()
    docx_over_memory(docs / "schwer.docx", 300)
    (docs / "ordinary.txt").write_text("Grüße aus Zürich: ein gewöhnliches Dokument.\n", encoding="utf-8")
    (docs / "handbook.pdf").write_bytes((PDF_FIXTURES / "policy_handbook.pdf").read_bytes())
    url = f"sqlite:///{tmp_path / 'm.db'}"
    run = citeline("--db", url, "ingest", str(docs), "--max-memory", "700M", "--workers", "1")
    assert run.code == 1, run.stderr
    failed = [line for line in (run.stdout + run.stderr).splitlines() if line.startswith("failed: ")]
    assert failed == [
        f"failed: {docs / 'schwer.docx'}: needed more than the 700 MB memory cap per worker (--max-memory)"
    ]
    assert "ordinary.txt" in citeline("--db", url, "search", "gewöhnliches").stdout
    assert "handbook.pdf" in citeline("--db", url, "search", "reimbursed").stdout
