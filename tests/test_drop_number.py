"""A chapter's drop number beside its title (issue 32, layout version 15): a "5" set four times the
size of the title's three lines, its baseline on the last of them. The title's words, in type under
half its size and inside its height, were taken for its scripts and read into one line with it, word
by word in turn ("5 PhysicalTheand Brain,Sexual Body,DevelopmentDevelopment:Motor Skills,"). A word in
type :data:`~citeline.ingest.extract.layout.lines.DROP_SIZE` times the lines beside it is a line of
its own, read before them, and a script stands by its base (the gap to it is measured in the smaller
type). The page is written by tests/simple_pdf.py (Helvetica, with é, ü and ß in the text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.simple_pdf import Item, read_lines, write_pdf

TITLE = ["Physical Développement:", "The Brain, Body, Motor Skills,", "and Sexual Größe"]
CONTENTS = [
    "An Overview of Maturation and Growth",
    "Development of the Brain (Müller)",
    "Motor Development",
]


def _page() -> list[Item]:
    top = 792.0
    items: list[Item] = [(81, top - 78, 16, "C H A P T E R"), (91, top - 168, 110, "5")]
    items += [(216, top - 106 - 31 * k, 28 if k == 0 else 24, text) for k, text in enumerate(TITLE)]
    items += [(216, top - 230 - 18 * k, 12, text) for k, text in enumerate(CONTENTS)]
    return items


@pytest.fixture(scope="module")
def opener(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pdf(tmp_path_factory.mktemp("drop") / "chapter_drop_number.pdf", [_page()])


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_a_drop_number_is_read_before_the_title_beside_it(opener: Path, backend: str) -> None:
    lines = read_lines(opener, backend)
    assert lines == ["C H A P T E R", "5", *TITLE, *CONTENTS], lines
