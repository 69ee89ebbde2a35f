"""A figure's caption set in the margin column of a textbook page (issue 32, layout version 14): its
first lines run into the gutter beside the body column and float, read after the column flow; its
last line, short of the gutter, was read as a line of the margin column, apart from the caption
("… as chubby toddlers turn" / "into long-legged children."). The lines that go on a floating
caption's text, starting where it starts, in its type, a line below, float with it. The page is
written by tests/simple_pdf.py (Helvetica, with é, ü, ß and „ “ in the text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.simple_pdf import Item, read_lines, write_pdf

GLOSSARY = [
    "cephalocaudal development",
    "a sequence of physical matura-",
    "tion and growth that proceeds",
    "from the head („cephalic“) to",
    "the tail (or caudal region).",
    "proximodistal development",
    "a sequence of physical matura-",
    "tion and growth that proceeds",
    "from the center of the body to",
    "the extremities (distal regions).",
    "ossification the process by",
    "which soft cartilage hardens.",
]
CAPTION = [
    "Body proportions change rapidly over",
    "the first years as chubby toddlers turn",
    "into long-legged children.",
]
BODY = [
    f"Line {k + 1} of the body: the skeletal structures formed before birth are soft (Müller, Straße)."
    for k in range(40)
]


def _page() -> list[Item]:
    items: list[Item] = []
    for k, text in enumerate(BODY):
        items.append((236, 740 - 12.5 * k, 9, text))
    for k, text in enumerate(GLOSSARY):
        items.append((72, 700 - 10 * k, 8, text))
    for k, text in enumerate(CAPTION):
        items.append((72, 300 - 12 * k, 10, text))
    return items


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pdf(tmp_path_factory.mktemp("caption") / "caption_in_margin.pdf", [_page()])


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_a_floating_captions_last_line_floats_with_it(page: Path, backend: str) -> None:
    lines = read_lines(page, backend)
    k = lines.index(CAPTION[0])
    assert lines[k : k + 3] == CAPTION, lines
    k = lines.index(BODY[0])
    assert lines[k : k + len(BODY)] == BODY, lines
    k = lines.index(GLOSSARY[0])
    assert lines[k : k + len(GLOSSARY)] == GLOSSARY, lines
