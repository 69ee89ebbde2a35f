"""A list's bullets in smaller type, hanging a little left of their items (issue 32, layout version
15). A bullet on its item's baseline is sorted before the item's first line, in type too small to
join a row as one of its own pieces, and as a script out of reach of the line (more than a word
space away): it was read as a line of its own between the item's lines ("… different from
nonliving / ● / things. All living things …"). A piece in smaller type on a row's baseline, ending
at most :data:`~citeline.ingest.extract.layout.lines.HANG_GAP` ems left of the row, is in that
row. The page is written by tests/simple_pdf.py (Helvetica, with é, ü and ß in the text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.simple_pdf import Item, read_lines, write_pdf

ITEMS = [
    [
        "Living things have certain characteristics that make them different from the",
        "nonliving things. All living things are composed of cells (Müller, Größe).",
    ],
    [
        "Humans are just one of several million different life-forms on Earth. Our",
        "closest relatives are the other primates (including monkeys and apes).",
    ],
    ["Science is a process for studying the natural world („Natur“, la vérité)."],
]


def _page() -> list[Item]:
    top = 792.0
    items: list[Item] = [(60, top - 60, 14, "Key Concepts")]
    y = top - 90
    for lines in ITEMS:
        items.append((45, y, 6.5, "•"))
        for text in lines:
            items.append((60, y, 10, text))
            y -= 12
        y -= 6
    return items


@pytest.fixture(scope="module")
def bullets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pdf(tmp_path_factory.mktemp("bullets") / "hanging_bullets.pdf", [_page()])


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_a_hanging_bullet_is_read_with_its_item(bullets: Path, backend: str) -> None:
    lines = [" ".join(ln.split()) for ln in read_lines(bullets, backend)]
    wanted = ["Key Concepts"]
    for item in ITEMS:
        wanted += ["• " + item[0], *item[1:]]
    assert lines == wanted, lines
