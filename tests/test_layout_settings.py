"""The layout engine's settings as a public, validated parameter object (issue 30, item 5): bounds
and one-line errors, the stored settings hash (the defaults hash as before), ``--layout KEY=VALUE``
on ingest and extract, ``layout=`` in the API, and ``extract --debug-layout OUT.png``."""

from __future__ import annotations

import dataclasses
import math
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from citeline.cli import cli
from citeline.ingest.errors import IngestError, LayoutSettingError
from citeline.ingest.extract.layout import BOUNDS, DEFAULT_SETTINGS, LayoutSettings

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#: The generated page: two columns of running text with a 40-point gutter between them.
PAGE_W, PAGE_H = 600.0, 800.0
LEFT = (50.0, 280.0)
RIGHT = (320.0, 550.0)
TOP = 100.0
PARAGRAPH = (
    "Die Gemeinde Überlingen prüft jährlich, ob die Fähre über den See pünktlich fährt und ob die "
    "Gebühren für Fahrräder gerecht sind. Les habitants de Genève préfèrent le bateau à vapeur, "
    "même quand la bise souffle fort et que le café du pont est fermé. Ærøskøbing und Växjö haben "
    "ähnliche Fähren, deren Fahrpläne sich nach dem Wetter und der Jahreszeit richten. "
)


def _wrap(pdf: object, text: str, width: float) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if pdf.get_string_width(trial) > width and current:  # type: ignore[attr-defined]
            lines.append(current)
            current = word
        else:
            current = trial
    return [*lines, current] if current else lines


@pytest.fixture(scope="module")
def two_columns(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-page PDF, two columns of German and French text (30 lines each), nothing across."""
    from fpdf import FPDF

    pdf = FPDF(unit="pt", format=(PAGE_W, PAGE_H))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.add_font("DejaVu", fname=FONT)
    pdf.set_font("DejaVu", size=10)
    lines = _wrap(pdf, PARAGRAPH * 6, LEFT[1] - LEFT[0] - 2)[:60]
    for k, line in enumerate(lines):
        x = LEFT[0] if k < 30 else RIGHT[0]
        pdf.text(x, TOP + 16 * (k % 30), line)
    path = tmp_path_factory.mktemp("layout") / "zwei_spalten_überlingen.pdf"
    pdf.output(str(path))
    return path


# ----------------------------------------------------------------------------- the object


def test_every_setting_has_bounds_holding_its_default() -> None:
    names = [f.name for f in dataclasses.fields(LayoutSettings)]
    assert sorted(BOUNDS) == sorted(names)
    for name in names:
        low, high = BOUNDS[name]
        assert low <= getattr(DEFAULT_SETTINGS, name) <= high, name
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_SETTINGS.min_gutter = 8.0  # type: ignore[misc]


def _pairs(*pairs: str) -> LayoutSettings:
    return LayoutSettings.from_pairs(pairs)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: LayoutSettings(min_gutter=-1.0), "layout setting min_gutter=-1.0 is outside 1-200"),
        (lambda: LayoutSettings(max_spanning_share=1.5), "layout setting max_spanning_share=1.5 is outside 0-1"),
        (lambda: LayoutSettings(space_gap=math.nan), "layout setting space_gap=nan is outside 0-5"),
        (lambda: LayoutSettings(min_side_lines=2.5), "layout setting min_side_lines=2.5 is not a whole number"),  # type: ignore[arg-type]
        (lambda: LayoutSettings(space_gap="breit-ä"), "layout setting space_gap='breit-ä' is not a number"),  # type: ignore[arg-type]
        (lambda: _pairs("spaltenbreite_ü=3"), "no layout setting is named 'spaltenbreite_ü' (settings: space_gap, "),
        (lambda: _pairs("min_gutter=acht-ä"), "layout setting min_gutter='acht-ä' is not a number"),
        (lambda: _pairs("min_side_lines=2.5"), "layout setting min_side_lines='2.5' is not a whole number"),
        (lambda: _pairs("space_gap=inf"), "layout setting space_gap='inf' is not a finite number"),
        (lambda: _pairs("min_gutter"), "layout setting 'min_gutter' is not KEY=VALUE"),
        (lambda: _pairs("min_gutter=0.5"), "layout setting min_gutter=0.5 is outside 1-200"),
    ],
)  # fmt: skip
def test_a_bad_setting_is_one_line_naming_it(make: object, message: str) -> None:
    with pytest.raises(LayoutSettingError) as caught:
        make()  # type: ignore[operator]
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, IngestError)  # the command line's usage errors
    assert isinstance(caught.value, ValueError)


def test_pairs_set_fields_and_an_int_is_the_same_setting_as_its_float() -> None:
    tuned = LayoutSettings.from_pairs(["min_gutter=8", " space_gap = 0.2 ", "min_side_lines=4", "min_gutter=9"])
    assert tuned == LayoutSettings(min_gutter=9.0, space_gap=0.2, min_side_lines=4)
    assert tuned.changed() == {"space_gap": 0.2, "min_gutter": 9.0, "min_side_lines": 4}
    assert LayoutSettings(min_gutter=9) == LayoutSettings(min_gutter=9.0)
    assert LayoutSettings(min_gutter=5) == DEFAULT_SETTINGS
    assert LayoutSettings.from_pairs([]) is DEFAULT_SETTINGS


# ----------------------------------------------------------------------------- the settings hash


def test_the_default_settings_hash_as_before_and_others_do_not() -> None:
    """A store made before the layout settings could be set held hash ``bec22e8703334324`` for
    the default settings; issue 32 (layout version 11, ``auto`` reading PDFs with pdfium; 12, the
    wrapped cells of tables without rules read whole; 13, diagonal stamps read apart; 14, a column
    beside another across a gap wider than ``beside_gap`` read apart; 15, a region without a gutter
    cut into bands at the space above a heading, an author block's row read whole, the wrapped rows
    of a ruled table read whole, a drop number read apart, a hanging bullet read with its item) and
    chunker version 7 (no sentence ends inside a spaced ellipsis, "x1, . . . , xn") changed what the
    defaults produce, so it is ``9f03b70c7b66c9e4`` now: old stores report --reprocess."""
    from citeline.ingest.pipeline import PipelineSettings

    assert PipelineSettings().fingerprint() == "9f03b70c7b66c9e4"
    assert PipelineSettings(layout=LayoutSettings(min_gutter=5)).fingerprint() == "9f03b70c7b66c9e4"
    assert PipelineSettings().as_dict()["layout"] == 15
    tuned = PipelineSettings(layout=LayoutSettings(min_gutter=8))
    assert tuned.fingerprint() != "9f03b70c7b66c9e4"
    assert tuned.as_dict()["layout"] == {"version": 15, "min_gutter": 8.0}
    assert tuned.fingerprint() == PipelineSettings(layout=LayoutSettings.from_pairs(["min_gutter=8.0"])).fingerprint()


def test_ingest_layout_option_enters_the_stored_settings(tmp_path: Path, two_columns: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / two_columns.name).write_bytes(two_columns.read_bytes())
    url = f"sqlite:///{tmp_path / 'c.db'}"

    def ingest(*extra: str) -> list[tuple[str, str | None]]:
        result = CliRunner().invoke(cli, ["--db", url, "ingest", str(folder), "--workers", "1", "-q", *extra])
        assert result.exit_code == 0, result.output
        with sqlite3.connect(tmp_path / "c.db") as con:
            run = con.execute("SELECT max(id) FROM ingestion_runs").fetchone()[0]
            return con.execute("SELECT status, reason FROM ingestion_outcomes WHERE run_id = ?", (run,)).fetchall()

    assert ingest() == [("added", None)]
    assert ingest("--layout", "min_gutter=5") == [("skipped", "unchanged")]  # the default, spelt out
    assert ingest("--layout", "min_gutter=60") == [("skipped", "settings_changed")]
    assert ingest("--layout", "min_gutter=60", "--reprocess")[0][0] in ("added", "updated")
    with sqlite3.connect(tmp_path / "c.db") as con:
        hashes = [h for (h,) in con.execute("SELECT settings_hash FROM ingestion_runs ORDER BY id")]
        versions = con.execute("SELECT settings_json, raw_text FROM document_versions ORDER BY id").fetchall()
    assert hashes[0] == hashes[1] == "9f03b70c7b66c9e4"
    assert hashes[2] == hashes[3] != hashes[0]
    # the workers laid the page out with the setting: a gutter narrower than 60 points is no gutter
    (_, before), (settings, after) = versions
    assert '"layout": {"min_gutter": 60.0, "version": 15}' in settings
    assert before.split("\n")[0].startswith("Die Gemeinde Überlingen")
    assert before.split("\n")[30] in after.split("\n")[0]


@pytest.mark.parametrize("command", ["ingest", "extract"])
def test_a_bad_layout_option_is_a_one_line_usage_error(tmp_path: Path, command: str) -> None:
    doc = tmp_path / "grüße.txt"
    doc.write_text("Grüße aus Köln.\n", encoding="utf-8")
    args = ["--db", f"sqlite:///{tmp_path / 'c.db'}", command, str(doc), "--layout", "min_gutter=-3"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.stderr == "Error: --layout: layout setting min_gutter=-3.0 is outside 1-200\n"
    assert not (tmp_path / "c.db").exists()  # refused before anything was opened


# ----------------------------------------------------------------------------- layout=


def test_the_settings_reach_the_layout_engine(two_columns: Path) -> None:
    """With the default settings the 40-point gutter splits the columns, each sentence reads on down
    its column; with ``min_gutter`` wider than the gutter, the page is read row by row across it."""
    from citeline.ingest.extract import extract

    default = extract(two_columns).raw
    across = extract(two_columns, layout=LayoutSettings(min_gutter=60)).raw
    first_left, first_right = default.split("\n")[0], default.split("\n")[30]
    assert first_left.startswith("Die Gemeinde Überlingen")
    assert across != default
    assert across.split("\n")[0].startswith(first_left)
    assert first_right in across.split("\n")[0]  # the right column's first line on the same line
    result = CliRunner().invoke(cli, ["extract", str(two_columns), "--layout", "min_gutter=60"])
    assert result.exit_code == 0
    assert result.stdout.rstrip("\n") == across


# ----------------------------------------------------------------------------- --debug-layout


def _blend(colour: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """``colour`` drawn over white paper."""
    r, g, b, a = colour
    return tuple(round(255 + (c - 255) * a / 255) for c in (r, g, b))  # type: ignore[return-value]


def _near(pixel: tuple[int, ...], colour: tuple[int, ...], tolerance: int = 3) -> bool:
    return all(abs(p - c) <= tolerance for p, c in zip(pixel, colour, strict=False))


def test_debug_layout_draws_the_columns_and_the_gutter_where_they_are(tmp_path: Path, two_columns: Path) -> None:
    from PIL import Image

    from citeline.present.layout import COLUMN, GUTTER, debug_layout

    out = tmp_path / "seite_ü.png"
    result = CliRunner().invoke(
        cli, ["extract", str(two_columns), "--debug-layout", str(out), "--page", "1", "--scale", "1"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Wrote {out}: page 1 (600 x 800 pt at scale 1): ")
    assert "2 columns or sections, 1 gutter, " in result.stdout
    image = Image.open(out)
    assert image.format == "PNG"
    assert image.size == (round(PAGE_W), round(PAGE_H))

    picture = debug_layout(two_columns, 1, scale=1.0)  # what the command drew, with its legend box
    assert picture.image.tobytes() == image.convert("RGB").tobytes()
    lx0, ly0, lx1, ly1 = picture.legend
    pixels = image.convert("RGB").load()
    assert pixels is not None
    gutter, column = _blend(GUTTER), COLUMN[:3]
    gutter_xs: set[int] = set()
    column_xs: set[int] = set()
    for y in range(image.size[1]):
        for x in range(image.size[0]):
            if lx0 <= x <= lx1 and ly0 <= y <= ly1:
                continue
            p = pixels[x, y]
            if _near(p, gutter):
                gutter_xs.add(x)
            elif p == column:
                column_xs.add(x)
    # the gutter's colour fills the band between the columns, and nowhere else
    assert gutter_xs, "no gutter drawn"
    (left, right) = sorted(picture.trace.columns, key=lambda c: c.x0)
    assert LEFT[0] + 200 < left.x1 <= LEFT[1]
    assert min(gutter_xs) >= left.x1 - 1
    assert max(gutter_xs) <= RIGHT[0] + 1
    assert max(gutter_xs) - min(gutter_xs) >= 30
    # the middle of the gutter, halfway down the columns, is the gutter's colour
    assert _near(pixels[round((LEFT[1] + RIGHT[0]) / 2), round(TOP + 15 * 16)], gutter)
    # the columns' outlines stand at each column's edges, none inside the gutter
    assert any(LEFT[0] - 5 <= x <= LEFT[0] for x in column_xs)
    assert any(RIGHT[1] - 20 <= x <= RIGHT[1] + 5 for x in column_xs)
    assert not any(LEFT[1] + 5 <= x <= RIGHT[0] - 5 for x in column_xs)
    # columns found as the engine read them: the left column's lines, then the right column's
    assert left.x0 == pytest.approx(LEFT[0], abs=1)
    assert left.x1 < picture.trace.gutters[0].x0 + 1
    assert right.x0 == pytest.approx(RIGHT[0], abs=1)
    assert picture.lines[0].text.startswith("Die Gemeinde Überlingen")


@pytest.mark.parametrize(
    ("args", "message", "code"),
    [
        (["--page", "2"], "Error: --page: {pdf}: has no page 2 (pages: 1-1)", 2),
        (["--layout", "min_gutter=Ω"], "Error: --layout: layout setting min_gutter='Ω' is not a number", 2),
    ],
)
def test_debug_layout_refuses_in_one_line(
    tmp_path: Path, two_columns: Path, args: list[str], message: str, code: int
) -> None:
    out = tmp_path / "bild.png"
    result = CliRunner().invoke(cli, ["extract", str(two_columns), "--debug-layout", str(out), *args])
    assert result.exit_code == code
    assert result.stderr == message.format(pdf=two_columns) + "\n"
    assert not out.exists()


def test_debug_layout_of_a_text_file_says_it_draws_pdf_pages(tmp_path: Path) -> None:
    doc = tmp_path / "grüße.txt"
    doc.write_text("Grüße aus Köln.\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["extract", str(doc), "--debug-layout", str(tmp_path / "b.png")])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {doc}: --debug-layout draws PDF pages; this is text\n"
