"""Side-by-side blocks (issue 32, layout version 14): a margin glossary beside the body column of a
textbook page, over a boxed insert in two columns of its own. The insert's gutter runs through the
body column's lines; read as full-width lines cutting the page into sections, they alternated with
the glossary's, line by line ("… as gender roles / physically active play / have changed …"). Text
beside a line across a gap wider than ``beside_gap`` ems stands in another column: the glossary is
read whole, and the body column whole. The page is written by tests/simple_pdf.py (Helvetica, with
é, ü, ß and „ “ in the text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.ingest.extract.layout import DEFAULT_SETTINGS, LayoutSettings
from citeline.ingest.extract.layout_settings import BOUNDS
from tests.simple_pdf import Item, read_lines, write_pdf

HEAD = "186   PART TWO  Biological Foundations of Développement"

#: the glossary beside the body column: a term, then its definition (8 pt, x 36..150)
GLOSSARY = [
    "physically active play",
    "moderate to vigorous play",
    "activities such as running,",
    "jumping, climbing, or game",
    "playing that raise a child’s",
    "metabolic rate far above",
    "resting levels („Spiel“).",
]

#: the body column (10 pt, x 180..540): one paragraph running on line to line
BODY = [
    "to outperform them on tests of physical strength (Tanner, 1990). Yet the",
    "biological developments do not account for all the difference in the",
    "large-muscle performance between boys and girls, nor do they explain the",
    "declining performance of many girls, who continue to grow taller and",
    "heavier between ages 12 and 17. The apparent physical decline of the",
    "adolescent girls may be a product of gender-role socialization: girls are",
    "often encouraged to become less tomboyish and more interested in the",
    "traditionally feminine activities (Blakemore & Müller, 2008). There is",
    "clearly an element of truth to this notion in that female athletes show",
    "no apparent decline in large-muscle performance over time. Furthermore,",
    "as gender roles have changed in the past few decades, female athletes",
    "have been steadily improving their performances, and the male/female",
    "gap in physical performance has narrowed dramatically (Dyer, 1977).",
]

#: the boxed insert below, in two columns (10 pt, x 36..279 and x 297..540)
LEFT = [
    "Recently, developmentalists have begun to",
    "consider the benefits of physically active play,",
    "speculating that it serves as a mechanism for",
    "building muscle strength and endurance and",
    "possibly for reducing levels of fat in the",
    "growing bodies of children (Pellegrini, 1998).",
    "Physically active play typically peaks in the",
    "early to middle childhood and declines after.",
    "This reduction in vigorous physical activity",
    "is much more apparent for girls than for boys,",
    "which helps explain the decline in strength.",
    "Interestingly, over the past forty years, our",
    "society has become much more supportive of",
    "one kind of physical activity for the girls.",
    "High school programs for the female athletes",
    "have expanded greatly over the same period of",
    "time, and the colleges followed them closely.",
    "Is there any basis for the latter claim? To",
    "find out, two researchers built an elaborate",
    "questionnaire to measure both the depth and",
    "the breadth of the participation of students.",
]
RIGHT = [
    "Title IX, a federal law passed in 1972 that",
    "bans discrimination on the basis of gender in",
    "federally funded institutions, has resulted",
    "in dramatic increases in funding for female",
    "athletic programs at the college level. The",
    "high school programs for female athletes have",
    "expanded greatly over the same period, and",
    "even private corporations have entered the",
    "playing field with an advertising campaign",
    "featuring young girls pleading to play. The",
    "results provided some support for the claims",
    "made in the campaign: the girls who had taken",
    "part in sports enjoyed higher self-esteem as",
    "students at the college (Richman, Straße 2000).",
    "Further analysis revealed that the apparently",
    "beneficial effect of earlier sporting activity",
    "reflected the findings that sports were tied",
    "to increases in perceived physical competence,",
    "a more favorable body image, and the desirable",
    "attributes such as assertiveness; all of them",
    "were correlated with the college self-esteem.",
]


def _page() -> list[Item]:
    top = 792.0
    items: list[Item] = [(36, top - 45, 9, HEAD)]
    # the body column from y 73 down, at a 12.5 pt pitch; the glossary beside its lower lines, at 10 pt
    for k, text in enumerate(BODY):
        items.append((180, top - 73 - 12.5 * k, 10, text))
    for k, text in enumerate(GLOSSARY):
        items.append((36, top - 146 - 10 * k, 8, text))
    # the insert, set off below by a wide gap
    for k, text in enumerate(LEFT):
        items.append((36, top - 260 - 11 * k, 10, text))
    for k, text in enumerate(RIGHT):
        items.append((297, top - 260 - 11 * k, 10, text))
    return items


@pytest.fixture(scope="module")
def beside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pdf(tmp_path_factory.mktemp("beside") / "glossary_beside_body.pdf", [_page()])


def _lines(path: Path, backend: str, settings: LayoutSettings = DEFAULT_SETTINGS) -> list[str]:
    return read_lines(path, backend, layout=settings)


def _run(lines: list[str], wanted: list[str]) -> bool:
    """``wanted`` stands in ``lines`` as one run, in order, nothing between."""
    k = lines.index(wanted[0]) if wanted[0] in lines else -1
    return k >= 0 and lines[k : k + len(wanted)] == wanted


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_a_glossary_beside_the_body_is_read_apart_from_it(beside: Path, backend: str) -> None:
    lines = _lines(beside, backend)
    assert _run(lines, GLOSSARY), lines
    assert _run(lines, BODY), lines
    # each column of the insert whole too, left before right
    assert _run(lines, LEFT), lines
    assert _run(lines, RIGHT), lines
    assert lines.index(LEFT[0]) < lines.index(RIGHT[0])
    assert not any("\t" in ln for ln in lines if ln != HEAD), lines


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_without_the_beside_rule_the_columns_alternate_line_by_line(beside: Path, backend: str) -> None:
    """``beside_gap`` at its upper bound (no gap is that wide) gives back the old reading: the body
    column's lines cut the page into sections at the insert's gutter, and the glossary's lines come
    between them."""
    high = LayoutSettings(beside_gap=BOUNDS["beside_gap"][1])
    lines = _lines(beside, backend, high)
    assert not _run(lines, BODY), lines
    assert not _run(lines, GLOSSARY), lines
