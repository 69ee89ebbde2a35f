"""The layout engine on glyphs placed by hand: headings start and end paragraphs, body lines run on.
(The fixtures and the corpus test the same engine through real PDFs.)"""

from __future__ import annotations

from citeline.ingest.extract.glyphs import Glyph, PageGlyphs
from citeline.ingest.extract.layout import layout_page

PAGE_WIDTH = 612.0
LEFT = 72.0
COLUMN = 468.0


def page(lines: list[tuple[str, float, float]]) -> PageGlyphs:
    """The glyphs of ``(text, top, font size)`` lines set from the left margin, each glyph 0.5 em
    wide, spaces drawn as gaps, in reading order."""
    glyphs: list[Glyph] = []
    for text, y, pt in lines:
        x = LEFT
        for ch in text:
            if ch != " ":
                glyphs.append(Glyph(ch, x, x + 0.5 * pt, y, y + pt, y + 0.764 * pt, pt, "Vera", 0, False))
            x += 0.5 * pt
    return PageGlyphs(1, PAGE_WIDTH, 792.0, glyphs)


def starts(lines: list[tuple[str, float, float]]) -> list[tuple[str, bool]]:
    return [(line.text, line.paragraph_before) for line in layout_page(page(lines))]


# body lines: about 90 characters at 10 pt fill the 468 pt column
BODY = [
    "Die Prüfung der Anträge erfolgt nach den Vorgaben des Handbuchs für Reisekosten und wird",
    "in der Regel innerhalb von dreißig Tagen abgeschlossen, sofern alle Belege vollständig sind",
    "und keine Rückfragen an die antragstellende Person notwendig werden, was selten geschieht.",
]


def test_a_heading_in_a_larger_font_is_its_own_paragraph() -> None:
    lines = [("Erstattung für Übernachtungen", 72.0, 14.0)]
    lines += [(t, 92.0 + 12.0 * k, 10.0) for k, t in enumerate(BODY)]
    got = starts(lines)
    assert [t for t, _ in got] == ["Erstattung für Übernachtungen", *BODY]
    # the pitch from the heading is the body's, so only the font size marks the break
    assert [p for _, p in got] == [False, True, False, False]


def test_a_short_numbered_heading_in_the_body_font_is_its_own_paragraph() -> None:
    lines = [(t, 72.0 + 12.0 * k, 10.0) for k, t in enumerate(BODY)]
    lines += [("2 Café-Regeln im Überblick", 108.0, 10.0)]
    lines += [(t, 120.0 + 12.0 * k, 10.0) for k, t in enumerate(BODY)]
    got = starts(lines)
    assert [p for _, p in got] == [False, False, False, True, True, False, False]


def test_body_lines_without_sentence_ends_run_on() -> None:
    # full-width lines ending without punctuation, one of them capitalised: one paragraph
    body = [BODY[0], BODY[0], BODY[1], BODY[2]]
    got = starts([(t, 72.0 + 12.0 * k, 10.0) for k, t in enumerate(body)])
    assert [p for _, p in got] == [False, False, False, False]


def test_a_short_line_followed_by_lowercase_is_not_a_heading() -> None:
    body = [BODY[0], "Kosten und", "weitere Angaben folgen im nächsten Kapitel."]
    got = starts([(t, 72.0 + 12.0 * k, 10.0) for k, t in enumerate(body)])
    assert [p for _, p in got] == [False, False, False]
