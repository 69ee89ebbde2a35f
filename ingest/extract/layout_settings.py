"""The layout engine's settings, and the version that enters every document's settings hash.

:class:`LayoutSettings` is the one public, validated parameter object of the layout engine (as
pdfminer.six's ``LAParams``): frozen, every field documented with its bounds (:data:`BOUNDS`), a bad
value refused in one line (:class:`~citeline.ingest.errors.LayoutSettingError`). Every threshold is
a share of the font size (an *em*) unless it says points or lines. The defaults were calibrated on
the generated fixtures and the real corpus (``python -m benchmarks fidelity``)::

    from citeline.ingest.extract import extract
    from citeline.ingest.extract.layout import LayoutSettings

    layout = LayoutSettings(min_gutter=8.0)  # or LayoutSettings.from_pairs(["min_gutter=8"])
    extraction = extract("paper.pdf", layout=layout)

Settings other than the defaults enter the stored settings hash (:meth:`LayoutSettings.fingerprint_part`);
the defaults hash as the bare :data:`LAYOUT_VERSION`, as before the settings could be set, so a store
made then is not re-ingested.

The module stands beside the engine's package, not in it, so that reading settings does not import
the engine: ``citeline ingest`` builds them (and the worker's task) in a process that never lays out
a page, and imports them before it starts the workers' forkserver.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from citeline.ingest.errors import LayoutSettingError

#: Bumped whenever the engine can turn the same glyphs into a different raw stream: it enters the
#: pipeline settings hash and the extractor version, so a database made by an older engine reports
#: its documents as needing ``--reprocess`` instead of silently mixing outputs. (Also bumped when the
#: glyphs read change: 8 gave pdfplumber's TeX math glyphs each their own pdfium text; 9 reads a
#: paragraph beside a small table as a column of its own and seats raised accents on their letter;
#: 10 gives the pdfium backend the rules pdfplumber finds (inside form objects, each subpath of a
#: path) and reads text inside a frame no rule crosses as a region of its own, not as a table; 11 reads
#: pages in CropBox coordinates on both backends and sets text outside the CropBox apart; 12 reads the
#: cells of a table without rules whose cells wrap whole, row by row; 13 reads diagonal text, a
#: stamp across the page, apart from the lines it crosses; 14 reads a column beside another across a
#: gap wider than ``beside_gap`` apart from it, a margin glossary beside the body, instead of line by
#: line in turn with it, and the lines beside a big list number as lines of their own, not as its
#: scripts; and reads with pdfplumber a pdfium page that lost a Type0 font's one-character objects;
#: 15 cuts a region without a gutter into bands at a gap of ``blocks.BAND_CUT`` of a line, the space
#: above a heading, where a side column's gutter moves; and reads an author block's row across the
#: gutter whole in its place, not name by name into the columns below it; and reads whole the rows
#: of a table ruled between its rows whose cells all wrap, a chapter's drop number as a line of its
#: own before the title beside it, and a list's bullet in smaller type hanging before its item in
#: the item's first line.)
LAYOUT_VERSION = 15


@dataclass(frozen=True, slots=True)
class LayoutSettings:
    """Thresholds of the stages glyphs -> words -> lines -> blocks -> order."""

    # words: glyphs adjacent in content order
    #: a horizontal gap wider than this is a space between words
    space_gap: float = 0.15
    #: next to a CJK glyph a space needs a gap this wide (their boxes vary by parser)
    cjk_space_gap: float = 0.5
    #: the next glyph may start this far left of the previous one's end (kerning, overlaps)
    overlap: float = 0.5
    #: glyphs whose baselines differ by at most this are on one line
    baseline_tolerance: float = 0.25
    #: a glyph at most this size of its line's may sit off the baseline (sub- and superscripts)
    script_size: float = 0.9

    # lines: words adjacent in content order, then pieces of one baseline within a column
    #: a gap wider than this starts a new piece (which may belong to another column)
    piece_gap: float = 0.9
    #: table cells: pieces of a row farther apart than this are separated by a tab
    cell_gap: float = 1.5

    # blocks: columns and sections
    #: a gutter is at least this wide (points) ...
    min_gutter: float = 5.0
    #: ... and leaves at least this share of the glyphs on each side ...
    min_side_share: float = 0.15
    #: ... or at least this many lines (a short last column) (lines)
    min_side_lines: int = 8
    #: inside a frame no rule crosses (a diagram's, a boxed definition's), this many lines make a
    #: side: a diagram's boxes hold a few lines each (lines)
    frame_side_lines: int = 3
    #: at most this share of the glyphs may cross a gutter (titles, full-width lines)
    max_spanning_share: float = 0.4
    #: text beside a piece across a horizontal gap wider than this stands in another column: a piece
    #: crossing a gutter with text beside it is no full-width line, and a side standing beside the
    #: other across a clear gutter this wide is a column of its own however short (a margin glossary)
    beside_gap: float = 1.5
    #: bins crossed by at most this share of glyphs more than the emptiest one still count as gutter
    gutter_slack: float = 0.03
    #: a piece crossing a gutter narrower than this share of the region floats (a figure label)
    #: instead of cutting the columns into sections
    floating_width: float = 0.3
    #: a side made of pieces this short on median (words) is a table column, not a text column
    min_column_words: float = 2.5
    #: ... unless at most this share of the shorter side's pieces shares a baseline with the other
    #: side: two columns of short lines (an index), where a table's cells line up in rows
    max_row_share: float = 0.6
    #: ... or when one side runs a paragraph beside a table: this many lines running on into each other
    #: (lines) ...
    paragraph_lines: int = 3
    #: ... each of at least this many words (words)
    paragraph_words: int = 8

    # margin furniture
    #: at least this many numbers in a margin column make it a column of line numbers (numbers)
    min_line_numbers: int = 5
    #: footnotes: trailing lines of a column in type at most this size of the column's body
    footnote_size: float = 0.92

    # paragraphs
    #: a line pitch above this multiple of the page's median pitch marks a paragraph gap
    paragraph_pitch: float = 1.45
    #: a line in a font this much larger than the page's median is a heading
    heading_size: float = 1.15
    #: a heading in the body font is shorter than this share of its column
    heading_width: float = 0.6
    #: a line ending a sentence this share of the column width before its right edge ends a paragraph
    short_line: float = 0.1

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            low, high = BOUNDS[f.name]
            if f.type == "int" or isinstance(f.default, int):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise LayoutSettingError(f"layout setting {f.name}={value!r} is not a whole number")
            elif isinstance(value, bool) or not isinstance(value, (int, float)):
                raise LayoutSettingError(f"layout setting {f.name}={value!r} is not a number")
            elif isinstance(value, int):  # 8 and 8.0 are one setting, and hash as one
                value = float(value)
                object.__setattr__(self, f.name, value)
            if not low <= value <= high:  # False for NaN too
                raise LayoutSettingError(f"layout setting {f.name}={value!r} is outside {low:g}-{high:g}")

    def as_dict(self) -> dict[str, object]:
        return {"layout_version": LAYOUT_VERSION, **asdict(self)}

    def changed(self) -> dict[str, float | int]:
        """The settings that differ from the defaults, by name."""
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(DEFAULT_SETTINGS, f.name)
        }

    def fingerprint_part(self) -> object:
        """What enters the pipeline's settings hash: the engine's version, and the settings that
        differ from the defaults (the defaults hash as the bare version, as they always have)."""
        changed = self.changed()
        return {"version": LAYOUT_VERSION, **changed} if changed else LAYOUT_VERSION

    @classmethod
    def from_pairs(cls, pairs: Iterable[str], base: LayoutSettings | None = None) -> LayoutSettings:
        """``base`` (default: the defaults) with ``KEY=VALUE`` pairs applied, as ``--layout`` gives
        them (``min_gutter=8``); the last of two pairs for one key wins."""
        changes: dict[str, Any] = {}  # each value checked by __post_init__
        known = {f.name: f for f in fields(cls)}
        for pair in pairs:
            key, sep, text = pair.partition("=")
            key, text = key.strip(), text.strip()
            if not sep or not key or not text:
                raise LayoutSettingError(f"layout setting {pair!r} is not KEY=VALUE (e.g. min_gutter=8)")
            if key not in known:
                raise LayoutSettingError(f"no layout setting is named {key!r} (settings: {', '.join(known)})")
            whole = isinstance(getattr(DEFAULT_SETTINGS, key), int)
            try:
                number: float | int = int(text) if whole else float(text)
            except ValueError:
                what = "a whole number" if whole else "a number"
                raise LayoutSettingError(f"layout setting {key}={text!r} is not {what}") from None
            if not whole and not math.isfinite(number):
                raise LayoutSettingError(f"layout setting {key}={text!r} is not a finite number")
            changes[key] = number
        base = base or DEFAULT_SETTINGS
        return replace(base, **changes) if changes else base


#: The bounds of each setting, both included: a value outside them is refused. They are wide (a
#: setting at either end still gives a raw stream), not recommendations; the defaults are those.
BOUNDS: dict[str, tuple[float, float]] = {
    "space_gap": (0.0, 5.0),
    "cjk_space_gap": (0.0, 5.0),
    "overlap": (0.0, 5.0),
    "baseline_tolerance": (0.0, 2.0),
    "script_size": (0.0, 1.0),
    "piece_gap": (0.1, 20.0),
    "cell_gap": (0.1, 20.0),
    "min_gutter": (1.0, 200.0),
    "min_side_share": (0.0, 0.5),
    "min_side_lines": (1, 1000),
    "frame_side_lines": (1, 1000),
    "max_spanning_share": (0.0, 1.0),
    "beside_gap": (0.0, 20.0),
    "gutter_slack": (0.0, 1.0),
    "floating_width": (0.0, 1.0),
    "min_column_words": (0.0, 100.0),
    "max_row_share": (0.0, 1.0),
    "paragraph_lines": (1, 1000),
    "paragraph_words": (1, 1000),
    "min_line_numbers": (1, 1000),
    "footnote_size": (0.0, 1.0),
    "paragraph_pitch": (1.0, 10.0),
    "heading_size": (1.0, 10.0),
    "heading_width": (0.0, 1.0),
    "short_line": (0.0, 1.0),
}

DEFAULT_SETTINGS = LayoutSettings()
