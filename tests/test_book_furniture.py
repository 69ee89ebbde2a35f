"""Book pages (issue 32): running heads that alternate sides and carry the page number, stripped also
where the paragraph runs on over the page and where the reading order puts them after a margin note;
printer's marks beside the text block ("133R", "S134") kept out of the body lines. The book is the
fixture ``layout_book`` (fixtures/layouts_pages.py); pleading paper is written by tests/simple_pdf.py."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from citeline.ingest.clean.pipeline import Cleaned, clean
from citeline.ingest.extract import extract
from citeline.ingest.extract.model import Extraction
from citeline.ingest.pipeline import PipelineSettings, process_file
from tests.conftest import PDF_FIXTURES, truth
from tests.simple_pdf import Item, write_pdf

BOOK = PDF_FIXTURES / "layout_book.pdf"


@functools.cache
def book(backend: str) -> tuple[Extraction, Cleaned]:
    ex = extract(BOOK, extractor=backend, fallback=False)
    return ex, clean(ex.raw, geometry=ex.line_geometry(), known_furniture=ex.furniture)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _body(gt: dict) -> list[dict]:  # type: ignore[type-arg]
    return [p for p in gt["paragraphs"] if p["role"] == "body"]


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_printers_marks_stay_out_of_the_body_lines(backend: str) -> None:
    gt = truth("layout_book")
    ex, _ = book(backend)
    marks = [m["text"] for m in gt["printers_marks"]]
    assert {f.text: f.kind for f in ex.furniture if f.text in marks} == dict.fromkeys(marks, "margin")
    lines = ex.raw.replace("\f", "\n").split("\n")
    for para in _body(gt):
        for ln in para["lines"]:
            assert ln["text"] in lines, ln["text"]  # whole, no mark after a tab


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_alternating_running_heads_are_stripped_where_the_paragraph_runs_on(backend: str) -> None:
    gt = truth("layout_book")
    _, cleaned = book(backend)
    text = _one_line(cleaned.text)
    for para in _body(gt):
        assert para["text"] in text
    for sentence in gt["crossing_sentences"]:
        assert sentence in text
    heads = [h["text"] for h in gt["running_heads"]]
    assert {h["side"] for h in gt["running_heads"]} == {"left", "right"}
    for head in heads:
        assert head not in text
    kinds = {f.text: f.kind for f in cleaned.furniture}
    assert {head: kinds.get(head) for head in heads} == dict.fromkeys(heads, "header")


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_the_margin_note_is_kept_and_the_head_after_it_is_still_a_head(backend: str) -> None:
    gt = truth("layout_book")
    ex, cleaned = book(backend)
    (note,) = [p["text"] for p in gt["paragraphs"] if p["role"] == "margin_note"]
    first_head = gt["running_heads"][0]["text"]
    assert ex.raw.index(note.split()[0]) < ex.raw.index(first_head)  # the reading order: note, head
    assert note in _one_line(cleaned.text)
    assert first_head not in cleaned.text


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_the_running_paragraph_is_whole_in_one_chunk(backend: str) -> None:
    gt = truth("layout_book")
    doc = process_file(BOOK, BOOK.name, PipelineSettings(extractor=backend))
    for sentence in gt["crossing_sentences"]:
        assert any(sentence in _one_line(c.text) for c in doc.chunks), sentence
    furniture = [h["text"] for h in gt["running_heads"]] + [m["text"] for m in gt["printers_marks"]]
    for chunk in doc.chunks:
        for text in furniture:
            assert text not in chunk.text


#: Pleading paper: line numbers 1 to 12 in the left margin, the body beside them, and a court's
#: filing stamp above them set further left than the body.
PLEADING = [
    "Die Klägerin hat glaubhaft gemacht, dass der Beklagte den Quellcode ohne",
    "Erlaubnis kopiert hat; eine einstweilige Verfügung ist daher gerechtfertigt.",
    "Der Beklagte darf den Code weder nutzen noch an Dritte weitergeben, auch",
    "nicht an seinen jetzigen Arbeitgeber, und muss alle Unterlagen aufbewahren.",
]


def pleading_pdf(path: Path) -> Path:
    pages: list[list[Item]] = []
    for page in range(1, 3):
        items: list[Item] = [(30, 770, 8, f"Fall 8:16-cv-01261 Dokument 42 eingereicht am 05.08.16 Seite {page} von 2")]
        for k in range(12):
            number = str(k + 1)
            items.append((86 - 6 * len(number), 720 - 24 * k, 12, number))
        for k, line in enumerate(PLEADING):
            items.append((108, 720 - 24 * k, 12, line))
        pages.append(items)
    return write_pdf(path, pages)


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_margin_line_numbers_beside_the_body_under_a_stamp_set_further_out(tmp_path: Path, backend: str) -> None:
    ex = extract(pleading_pdf(tmp_path / "pleading.pdf"), extractor=backend, fallback=False)
    numbers = [f for f in ex.furniture if f.kind == "line_number"]
    assert len(numbers) == 24
    for line in PLEADING:
        assert line in ex.raw, line  # no line number inside or beside it
