"""A ruled table whose rows' cells all wrap (issue 32, layout version 15): a list of states wrapping
over three or four lines beside an address of three lines, rules between the rows and between the columns.
Every line holds text in both columns, so each was read as a row of its own ("Alabama, Arkansas,
Georgia,<tab>CGS Administrators, LLC / Louisiana, …<tab>P.O. Box 20010"): neither cell whole. A line
with all the row's cells goes on with the row when a cell of words above was broken for want of room
and some line of it between the row's rules runs up to its right rule, in a table whose rules part
its lines into rows (``blocks._ruled_rows``, ``blocks._no_room``). A table of labels and figures
ruled between groups of lines stays line by line: a figure is no wrapped cell. The pages are written
by tests/simple_pdf.py (Helvetica, with é, ü and ß in the text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.simple_pdf import Box, Item, read_lines, write_pdf

#: rows of (states, address): each cell's lines as drawn (10 pt, a 12 pt pitch)
ROWS = [
    (
        [
            "Connecticut, Delaware, District of Columbia, Maine,",
            "Maryland, Massachusetts, New Hampshire, New Jersey,",
            "New York, Pennsylvania, Rhode Island, Vermont",
        ],
        ["Noridian JA", "P.O. Box 6780", "Fargo, ND 58108-6780"],
    ),
    (
        [
            "Alabama, Arkansas, Colorado, Florida, Georgia,",
            "Louisiana, Mississippi, New Mexico, North Carolina,",
            "Oklahoma, Puerto Rico, South Carolina, Tennessee,",
            "Texas, U.S. Virgin Islands, Virginia, West Virginia",
        ],
        ["CGS Administrators, LLC", "P.O. Box 20010", "Nashville, TN 37202-0010"],
    ),
    (
        [
            "Alaska, American Samoa, Arizona, California, Guam,",
            "Hawaii, Idaho, Iowa, Kansas, Missouri, Montana,",
            "Nebraska, Nevada, Utah, Wyoming (Müller-Straße)",
        ],
        ["Noridian JD", "P.O. Box 6727", "Fargo, ND 58108-6727 (Café)"],
    ),
]
LEFT, MIDDLE, RIGHT = 36.0, 296.0, 576.0


def _table() -> tuple[list[Item], list[Box]]:
    items: list[Item] = []
    rules: list[Box] = []
    y = 700.0
    rules.append((LEFT, y, RIGHT, y))
    for states, address in ROWS:
        for k, text in enumerate(states):
            items.append((40, y - 12 - 12 * k, 10, text))
        for k, text in enumerate(address):
            items.append((300, y - 12 - 12 * k, 10, text))
        bottom = y - 12 * len(states) - 8
        rules += [(LEFT, bottom, RIGHT, bottom), (LEFT, y, LEFT, bottom), (MIDDLE, y, MIDDLE, bottom)]
        rules.append((RIGHT, y, RIGHT, bottom))
        y = bottom
    return items, rules


#: a table of labels and figures (10 pt), ruled between its groups of lines and its columns
GROUPS = [
    [
        ("Basic clusters of the corpus", "5,543"),
        ("Basic patterns (token)", "643,767"),
        ("Basic patterns (type)", "7,990"),
    ],
    [("Metaclusters", "302"), ("Metaclusters (rows ≥ 3)", "101")],
    [("Consistent tables", "36"), ("Inconsistent tables", "12")],
]


def _figures() -> tuple[list[Item], list[Box]]:
    items: list[Item] = []
    rules: list[Box] = []
    y = 700.0
    left, middle, right = 36.0, 160.0, 220.0
    rules.append((left, y, right, y))
    for group in GROUPS:
        for k, (label, figure) in enumerate(group):
            base = y - 12 - 12 * k
            items += [(40, base, 10, label.replace("≥", ">")), (right - 4 - 5.6 * len(figure), base, 10, figure)]
        bottom = y - 12 * len(group) - 6
        rules += [(left, bottom, right, bottom), (left, y, left, bottom), (middle, y, middle, bottom)]
        rules.append((right, y, right, bottom))
        y = bottom
    return items, rules


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("ruled_rows")
    (a, ra), (b, rb) = _table(), _figures()
    return (
        write_pdf(folder / "ruled_wrapped_rows.pdf", [a], rules=[ra]),
        write_pdf(folder / "ruled_label_figures.pdf", [b], rules=[rb]),
    )


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_a_ruled_row_whose_cells_all_wrap_is_read_whole(pdfs: tuple[Path, Path], backend: str) -> None:
    lines = read_lines(pdfs[0], backend)
    assert lines == [" ".join(states) + "\t" + " ".join(address) for states, address in ROWS], lines


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_figures_beside_labels_stay_rows_of_their_own(pdfs: tuple[Path, Path], backend: str) -> None:
    lines = read_lines(pdfs[1], backend)
    wanted = [f"{label.replace('≥', '>')}\t{figure}" for group in GROUPS for label, figure in group]
    assert lines == wanted, lines
