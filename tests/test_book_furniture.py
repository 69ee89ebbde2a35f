"""Book pages (issue 32): running heads that alternate sides and carry the page number, stripped also
where the paragraph runs on over the page and where the reading order puts them after a margin note;
printer's marks beside the text block ("32S", "S33") kept out of the body lines. The book is written
by tests/simple_pdf.py; its ground truth is below."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.ingest.clean.pipeline import clean
from citeline.ingest.extract import extract
from citeline.ingest.pipeline import PipelineSettings, process_file
from tests.simple_pdf import Item, write_pdf

#: The body, in reading order: one paragraph running over all four pages.
BODY = [
    "Die Größe der öffentlichen Domäne wurde in den zwanzig Jahren nach dem",
    "Gesetz von 1998 nicht größer, und kein Werk trat in diese Domäne über.",
    "Während dieser Zeit hätten Tausende Bücher, Filme und Lieder frei werden",
    "können; stattdessen blieben sie gesperrt, und viele gingen ganz verloren.",
    "Die Archive berichten, dass die Rechteinhaber von neunzig Prozent dieser",
    "Werke nicht mehr auffindbar sind, und niemand darf die Werke kopieren.",
    "Für Bibliotheken bedeutet das eine große Last, denn jede Kopie eines",
    "Werkes verlangt die Suche nach einem Eigentümer, der oft nicht existiert.",
    "Kritiker nennen diese Werke verwaist, weil sie niemandem nützen, während",
    "ihre Rechte noch Jahrzehnte lang bestehen und keinem Leser dienen können.",
    "Schließlich entschied das Gericht, dass der Kongress die Frist verlängern",
    "durfte, obwohl die Verfassung nur begrenzte Zeiten für Urheber vorsieht.",
]
LINES_PER_PAGE = 3
#: The running heads: even pages on the left with the number first, odd pages on the right.
HEADS = {1: "„EIGENTUM“ 133", 2: "134 FREIE KULTUR", 3: "„EIGENTUM“ 135", 4: "136 FREIE KULTUR"}
#: Printer's marks beside the second body line of each page, in the outer margin.
MARKS = {1: "33R", 2: "S34", 3: "35R", 4: "S36"}
#: A margin note left of the text block on page 1, beside the body (a glossary): the reading order
#: takes them first, so the running head comes after them in the page's text.
NOTES = {
    1: ["Domäne: was allen", "gehört und was", "jeder nutzen darf,", "ohne zu fragen."],
}


def book_pdf(path: Path) -> Path:
    pages: list[list[Item]] = []
    for page in range(1, 5):
        items: list[Item] = []
        body = BODY[(page - 1) * LINES_PER_PAGE : page * LINES_PER_PAGE]
        for k, line in enumerate(NOTES.get(page, [])):
            items.append((24, 695 - 9 * k, 7, line))
        head = HEADS[page]
        items.append((150 if page % 2 == 0 else 420, 740, 9, head))
        for k, line in enumerate(body):
            items.append((150, 700 - 14 * k, 10, line))
        x = 560 if page % 2 else 40
        items.append((x, 700 - 14, 8, MARKS[page]))
        pages.append(items)
    return write_pdf(path, pages)


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return book_pdf(tmp_path_factory.mktemp("book") / "book.pdf")


def _one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_printers_marks_stay_out_of_the_body_lines(book: Path, backend: str) -> None:
    ex = extract(book, extractor=backend, fallback=False)
    marks = {f.text: f.kind for f in ex.furniture if f.text in MARKS.values()}
    assert marks == dict.fromkeys(MARKS.values(), "margin")
    for line in BODY:
        assert line in ex.raw, line  # whole, no mark after a tab


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_alternating_running_heads_are_stripped_where_the_paragraph_runs_on(book: Path, backend: str) -> None:
    ex = extract(book, extractor=backend, fallback=False)
    cleaned = clean(ex.raw, geometry=ex.line_geometry(), known_furniture=ex.furniture)
    text = _one_line(cleaned.text)
    assert _one_line(" ".join(BODY)) in text
    for head in HEADS.values():
        assert head not in text
    kinds = {f.text: f.kind for f in cleaned.furniture}
    for head in HEADS.values():
        assert kinds.get(head) == "header", head


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_the_running_paragraph_is_whole_in_one_chunk(book: Path, backend: str) -> None:
    doc = process_file(book, book.name, PipelineSettings(extractor=backend))
    sentence = _one_line(" ".join(BODY[2:7]))  # pages 1 to 3
    assert any(sentence[:120] in _one_line(c.text) for c in doc.chunks)
    for chunk in doc.chunks:
        for head in (*HEADS.values(), *MARKS.values()):
            assert head not in chunk.text


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
