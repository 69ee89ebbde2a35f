"""An author block over a two-column paper (issue 32, layout version 15). The middle name of a row
of three crosses the gutter of the columns below: it cut the columns into sections as a title does,
and the names beside it went to the columns, so the row was read name, then left names, then right
names; and in a section of the title's two lines and that one name, in smaller type than the title,
the name was taken for a footnote and read after the page. A centred e-mail address between the
affiliation and another address floated to the region's end as a label in the gutter would. Now a
row of short pieces across the gutter, over two columns of running text, is read whole in its place
(``blocks._names_row``); a footnote stands under three body lines at least
(``blocks.FOOTNOTE_BODY_LINES``); and a piece between two lines crossing the gutter is a line of
their section, not a floating label (``blocks._not_between_spanning``). The page is written by
tests/simple_pdf.py (Helvetica, with é, ü, ß and „ “ in the text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.simple_pdf import Item, read_lines, write_pdf

TITLE = ["Guidelines for Human Évaluation of", "Faithfulness in Long-form Summarization"]
#: the rows of names (12 pt), each centred on the page, the middle one across the gutter at x 306
ROWS = [
    [(158, "Kalpesh Krishna"), (272, "Erin Bransöm"), (380, "Bailey Kühl")],
    [(132, "Mohit Iyyer"), (215, "Pradeep Dasigi"), (330, "Arman Cohan"), (430, "Kyle Lo")],
]
AFFILIATION = "University of Massachusetts Amherst, Allen Institute for AI, Yale University"
MAILS = ["{kalpesh,miyyer}@cs.umass.edu", "{erinbransom,baileyk,pradeepd,armanc}@allenai.org"]

LEFT = [
    "While human evaluation remains the best practice for",
    "accurately judging the faithfulness of the generated",
    "summaries, few solutions exist to address the growing",
    "difficulty and workload when evaluating the long-form",
    "summaries („Straße“). Through a survey of 162 papers on",
    "long-form summarization, we first shed light on many",
    "current human evaluation practices surrounding these",
    "summaries. We find that 73% of these papers do not",
    "perform any human evaluation on the generated model",
    "summaries, while other works face new difficulties that",
    "manifest when dealing with the long documents (Müller).",
    "Motivated by our survey, we present a set of guidelines",
]
RIGHT = [
    "Human judgments are considered the gold standard for",
    "evaluating model-generated summaries and the text that",
    "machines generate more broadly. Unfortunately, human",
    "evaluation tends to be labor-intensive, expensive to",
    "scale, and difficult to design, all of which get worse",
    "for long inputs and outputs. In long-form settings the",
    "annotators must read and understand every document of",
    "the source, which often spans more than several pages.",
    "They must also hold the whole summary in their mind to",
    "judge its faithfulness and quality (Café et al., 2021).",
    "We study this problem closely in the sections below, to",
    "find out how annotators can be supported in their work.",
]


def _page() -> list[Item]:
    top = 792.0
    items: list[Item] = [(150, top - 76 - 16 * k, 16, text) for k, text in enumerate(TITLE)]
    for k, row in enumerate(ROWS):
        items += [(x, top - 128 - 14 * k, 12, name) for x, name in row]
    items.append((105, top - 162, 12, AFFILIATION))
    items.append((234, top - 176, 9, MAILS[0]))
    items.append((176, top - 190, 9, MAILS[1]))
    for k, text in enumerate(LEFT):
        items.append((60, top - 238 - 11 * k, 9, text))
    for k, text in enumerate(RIGHT):
        items.append((322, top - 238 - 11 * k, 9, text))
    return items


@pytest.fixture(scope="module")
def paper(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pdf(tmp_path_factory.mktemp("authors") / "author_block_two_columns.pdf", [_page()])


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_an_author_block_is_read_row_by_row_in_its_place(paper: Path, backend: str) -> None:
    lines = [" ".join(ln.split()) for ln in read_lines(paper, backend)]
    rows = [" ".join(name for _, name in row) for row in ROWS]
    head = [*TITLE, rows[0]]
    assert lines[: len(head)] == head, lines
    # the second row's names in order (its two halves may be read as two lines, left then right)
    second = " ".join(lines[len(head) : lines.index(AFFILIATION)])
    assert second == rows[1], lines
    assert lines[lines.index(AFFILIATION) + 1 : lines.index(AFFILIATION) + 3] == MAILS, lines
    # the columns below whole, left then right, after the block
    k = lines.index(LEFT[0])
    assert lines[k : k + len(LEFT) + len(RIGHT)] == LEFT + RIGHT, lines
    assert k > lines.index(MAILS[1])
