"""A list numbered with big figures (issue 32, layout version 14): each item's "5" is set two and a
half times the size of the body type and stands on the item's second line, its top reaching the line
above and its foot the line below, whose type is smaller than the page's body. The lines beside it
are lines of their own, not sub- or superscripts of the figure: read as its scripts, two lines of
the item were joined word by word in turn into one ("5surroundings.sense ofCatssmell.mark their…").
The page is written by tests/simple_pdf.py (Helvetica, with é, ü, ß and „ “ in the text)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.simple_pdf import Item, read_lines, write_pdf

#: the page's introduction, in the body type (9 pt)
INTRO = [
    "Cats are sensitive to their surroundings, and stress shows in their health and",
    "behaviour long before an owner sees it. Meeting a cat’s environmental needs is",
    "as important as food and water: the five needs below come from the guidelines",
    "of the feline medicine societies („Richtlinien“), written for owners and vets.",
    "Each need is met in the home by small changes that cost little (see Café Ütz).",
    "The list is the same for cats living indoors, outdoors, or both, at any age.",
]

#: per item: its number, its first two lines in the body type (9 pt), then its lines in 8 pt, all
#: at an 8.8 pt pitch; the number stands on the second line
ITEMS = [
    (
        "4",
        [
            "Provide positive, consistent and predictable human interaction, and respect",
            "the cat’s individual preferences for human contact: petting, grooming,",
            "being played with or talked to, or being picked up. Remind the guests and",
            "household members not to force interaction and let the cat choose the contact.",
        ],
    ),
    (
        "5",
        [
            "Provide an environment that respects the importance of the cat’s sense",
            "of smell. Unlike humans, cats use their sense of smell to evaluate their",
            "surroundings. Cats mark their scent by rubbing their face and body, which",
            "deposits natural pheromones to establish boundaries where they feel safe.",
        ],
    ),
]


def _page() -> list[Item]:
    items: list[Item] = [(72, 720, 12, "Five needs of the cat at home (Café Müller, Straße 5)")]
    y = 700.0
    for k, text in enumerate(INTRO):
        items.append((72, y - 10.8 * k, 9, text))
    y -= 10.8 * len(INTRO) + 14
    numbers: list[Item] = []
    for number, lines in ITEMS:
        numbers.append((72, y - 8.8, 21.6, number))
        for k, text in enumerate(lines):
            items.append((90, y - 8.8 * k, 9 if k < 2 else 8, text))
        y -= 8.8 * len(lines) + 20
    return items + numbers  # the numbers drawn after the text, as the newsletter draws them


@pytest.fixture(scope="module")
def numbered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pdf(tmp_path_factory.mktemp("numbers") / "big_list_numbers.pdf", [_page()])


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_the_lines_beside_a_big_list_number_are_read_whole(numbered: Path, backend: str) -> None:
    lines = read_lines(numbered, backend)
    for number, item in ITEMS:
        # the number read with the line it stands on, every line whole and in order
        k = lines.index(item[0])
        assert lines[k : k + len(item)] == [item[0], f"{number} {item[1]}", *item[2:]], lines
