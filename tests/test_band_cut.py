"""A side column whose gutter moves (issue 32, layout version 15): a textbook page with a photo's
caption in a narrow side column beside the top of the body, and a chart with its caption in a wide
side column beside the body's foot. No gutter runs the page's height (the two gutters stand at two x
positions), and the one horizontal gap between the two bands is the space above the body's next
heading, less than a line tall: the page was read whole, row by row, each caption line inside a body
line ("At birth, girls are average male infant at 12 months only 4 to 6 weeks ahead"). A gap of
:data:`~citeline.ingest.extract.layout.blocks.BAND_CUT` of a line's height cuts the page into bands,
each with its own gutter. The page is written by tests/simple_pdf.py (Helvetica, with é, ü, ß and
„ “ in the text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.ingest.extract.layout import blocks
from tests.simple_pdf import Item, read_lines, write_pdf

HEAD = "172   PART TWO  Biological Foundations of Développement"

#: the body's top, beside the photo's caption (10 pt, x 180..540, a 12.5 pt pitch)
BODY_TOP = [
    "spots, or fontanelles, that are gradually filled in by minerals to form a single",
    "skull by age 2, with pliable points at the seams where skull bones join. These",
    "seams, or sutures, allow the skull to expand as the brain grows larger. Other",
    "parts of the body, namely the ankles, feet, wrists and hands, develop more",
    "bone as the child matures. In Figure 5.3, we see that the wrist and hand bones",
    "of a one-year-old are both fewer and less interconnected than the bones of the",
    "skeletal equipment of an adolescent. One method of estimating a child’s level",
    "of physical maturation is to X-ray his or her wrist and hand (Müller, 1990).",
    "At birth, girls are only 4 to 6 weeks ahead of boys in their skeletal growth;",
    "but by age 12, the gender difference has widened to two full years („Straße“).",
]
#: the photo's caption in the side column (8 pt, x 36..150, a 10 pt pitch)
PHOTO_CAPTION = [
    "Figure 5.3 X-rays showing",
    "the amount of skeletal",
    "development seen in the",
    "hand of an average male",
    "infant at 12 months or of",
    "an average female infant.",
]
HEADING = "Muscular Développement"
#: the body's foot, beside the chart (10 pt, x 288..540)
BODY_FOOT = [
    "Newborns are born with all the muscle fibers",
    "they will ever have (Tanner, 1990). At birth,",
    "muscle tissue is 35 percent water, and it gives",
    "no more than 18 to 24 percent of a baby’s body",
    "weight. However, muscle fibers soon begin to",
    "grow as the cellular fluid in muscle tissue is",
    "bolstered by the addition of protein and salts.",
    "Muscular development proceeds in cephalocaudal",
    "and proximodistal directions, with the muscles",
    "in the head and neck maturing before those in",
    "the trunk and limbs. Like many other aspects of",
    "physical development, the muscle tissue grows",
    "gradually over childhood and then accelerates",
    "during early adolescence (Malina, Lüdke 1990).",
]
#: the chart beside the body's foot: its y axis's ticks and its curves' names (8 pt)
TICKS = ["200%", "180", "160", "140", "120", "100", "80", "60", "40", "20"]
#: the chart's caption under it (8 pt, x 36..262)
CHART_CAPTION = [
    "Figure 5.4 Growth curves for the different body",
    "systems. Each curve plots the size of a group of",
    "organs as a percentage of their size at age 20.",
]


def _page() -> list[Item]:
    top = 792.0
    items: list[Item] = [(36, top - 45, 9, HEAD)]
    for k, text in enumerate(BODY_TOP):
        items.append((180, top - 80 - 12.5 * k, 10, text))
    last = top - 80 - 12.5 * (len(BODY_TOP) - 1)
    # the caption's last line level with the body's
    for k, text in enumerate(PHOTO_CAPTION):
        items.append((36, last + 10 * (len(PHOTO_CAPTION) - 1 - k), 8, text))
    # the heading's top some 7 pt below the body's last line (less than a line), the chart's top
    # level with it
    heading_y = last - 18
    items.append((288, heading_y, 12, HEADING))
    for k, text in enumerate(TICKS):
        items.append((40, heading_y - 14 * k, 8, text))
    items.append((130, heading_y - 20, 8, "Lymphoid"))
    items.append((150, heading_y - 74, 8, "Brain and head"))
    items.append((60, heading_y - 146, 8, "2    4    6    8    10    12    14    16    18    20"))
    for k, text in enumerate(BODY_FOOT):
        items.append((288, heading_y - 18 - 12.5 * k, 10, text))
    for k, text in enumerate(CHART_CAPTION):
        items.append((36, heading_y - 160 - 10 * k, 8, text))
    return items


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pdf(tmp_path_factory.mktemp("band_cut") / "side_column_moves.pdf", [_page()])


def _run(lines: list[str], wanted: list[str]) -> bool:
    """``wanted`` stands in ``lines`` as one run, in order, nothing between."""
    k = lines.index(wanted[0]) if wanted[0] in lines else -1
    return k >= 0 and lines[k : k + len(wanted)] == wanted


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_a_side_column_whose_gutter_moves_is_read_band_by_band(page: Path, backend: str) -> None:
    lines = read_lines(page, backend)
    for run in (BODY_TOP, PHOTO_CAPTION, BODY_FOOT, CHART_CAPTION):
        assert _run(lines, run), lines
    # the top band before the heading, the heading before the foot of the body
    assert lines.index(BODY_TOP[-1]) < lines.index(HEADING) < lines.index(BODY_FOOT[0])


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
def test_without_the_band_cut_the_captions_are_read_inside_body_lines(
    page: Path, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cut only at a gap a line tall (the rule before layout 15) finds no band: the page is read
    row by row, the side column's lines between the body's."""
    monkeypatch.setattr(blocks, "BAND_CUT", 1.0)
    lines = read_lines(page, backend)
    assert not _run(lines, BODY_TOP), lines
    assert not _run(lines, BODY_FOOT), lines
