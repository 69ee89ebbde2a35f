"""The layout engine's settings, and the version that enters every document's settings hash.

Every threshold is a share of the font size (an *em*) unless it says points. The defaults were
calibrated on the generated fixtures and the real corpus (``python -m benchmarks fidelity``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

#: Bumped whenever the engine can turn the same glyphs into a different raw stream: it enters the
#: pipeline settings hash and the extractor version, so a database made by an older engine reports
#: its documents as needing ``--reprocess`` instead of silently mixing outputs. (Also bumped when the
#: glyphs read change: 8 gave pdfplumber's TeX math glyphs each their own pdfium text; 9 reads a
#: paragraph beside a small table as a column of its own and seats raised accents on their letter;
#: 10 gives the pdfium backend the rules pdfplumber finds (inside form objects, each subpath of a
#: path) and reads text inside a frame no rule crosses as a region of its own, not as a table; 11 reads
#: pages in CropBox coordinates on both backends and sets text outside the CropBox apart.)
LAYOUT_VERSION = 11


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
    #: a gutter is at least this wide (points) and leaves this share of the glyphs on each side
    min_gutter: float = 5.0
    min_side_share: float = 0.15
    #: ... or at least this many lines (a short last column)
    min_side_lines: int = 8
    #: inside a frame no rule crosses (a diagram's, a boxed definition's), this many lines make a
    #: side: a diagram's boxes hold a few lines each
    frame_side_lines: int = 3
    #: at most this share of the glyphs may cross a gutter (titles, full-width lines)
    max_spanning_share: float = 0.4
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
    #: ... or when one side runs a paragraph beside a table: this many lines running on into each other,
    #: each of at least this many words
    paragraph_lines: int = 3
    paragraph_words: int = 8

    # margin furniture
    #: at least this many numbers in a margin column make it a column of line numbers
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

    def as_dict(self) -> dict[str, object]:
        return {"layout_version": LAYOUT_VERSION, **asdict(self)}


DEFAULT_SETTINGS = LayoutSettings()
