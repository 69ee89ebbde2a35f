"""Stage 1, glyphs -> words: runs of glyphs that follow each other in content order on one line with
no space between them.

Words come from *adjacency in content order*: a glyph continues the word before it only when it was
drawn right after it, on the same baseline (or as a sub- or superscript of it: smaller type inside
the line's band) and a little to its right. Glyphs of two different text lines are therefore never
merged into one word, however close the lines are (8-pt type on an 8.8-pt pitch, columns whose
baselines are offset), which clustering glyphs by position cannot promise.

Glyphs are upright here: the engine turns text at another rotation into its own upright frame
before this stage (see :mod:`citeline.ingest.extract.layout`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from citeline.ingest.extract.glyphs import SPACING_ACCENTS, Glyph
from citeline.ingest.extract.layout_settings import LayoutSettings
from citeline.text.scripts import is_cjk, is_rtl


@dataclass(slots=True)
class Word:
    """Glyphs without a space between them. ``xs`` holds the left and right edge of every code point
    of ``text``; ``baseline`` and ``size`` are those of its largest glyph (a word that starts with a
    footnote mark sits on the baseline of the letters after it)."""

    text: str
    xs: list[float]
    x0: float
    x1: float
    top: float
    bottom: float
    baseline: float
    size: float
    font: str
    #: the parser saw a space right before this word
    space_before: bool
    #: index of its first glyph in content order
    seq: int

    def __repr__(self) -> str:
        return f"<Word {self.text!r} x={self.x0:.1f}-{self.x1:.1f} base={self.baseline:.1f}>"


_TEXT = itemgetter(0)
#: A raised accent stands at most this many of its letter's ems above the letter's baseline.
ACCENT_LIFT = 1.0


def seat_accents(glyphs: list[Glyph]) -> list[Glyph]:
    """Accents drawn as glyphs of their own and raised over the letter next to them in content order
    (TeX's ``\\"U`` in a font without "Ü", math's ``\\tilde X`` and ``\\hat P``) are set on that
    letter's baseline right before it, where TeX draws a lowercase letter's accent, their box moved
    down onto the letter's line (a highlight of the pair covers the letter). Raised, they would make
    a line of accents of their own above the text (``˜  ˜`` over ``f : Z → Y``) and leave the letters
    plain; seated, they stay in their word, and the cleaner composes the pair. Upright glyphs only."""
    if SPACING_ACCENTS.isdisjoint(map(_TEXT, glyphs)):  # counted in C: most pages have none
        return glyphs
    out = list(glyphs)
    for i, g in enumerate(out):
        if g.text not in SPACING_ACCENTS:
            continue
        # drawn before its letter (TeX), or handed out after it (pdfium): of the two, the one it is
        # centred over (a subscript after a math letter is no accent's letter)
        middle = g.x0 + g.x1
        near = [j for j in (i + 1, i - 1) if 0 <= j < len(out) and _raised_over(g, out[j])]
        if not near:
            continue
        j = min(near, key=lambda k: abs(out[k].x0 + out[k].x1 - middle))
        letter, first = out[j], min(i, j)
        # the pair starts a word where its first glyph did, unless the letter abuts the glyph before
        # it (pdfium marks a space before a letter an accent overlaps, with no gap to speak of)
        space = out[first].space_before and (first == 0 or letter.x0 > out[first - 1].x1 + 0.1 * _em(letter))
        seated = g._replace(
            top=letter.top, bottom=letter.bottom, baseline=letter.baseline, size=letter.size, space_before=space
        )
        out[first], out[max(i, j)] = seated, letter._replace(space_before=False)
    return out


def _raised_over(accent: Glyph, letter: Glyph) -> bool:
    """``accent`` stands over ``letter``: above its baseline by at most :data:`ACCENT_LIFT` of its size
    and centred on it; or on its baseline and centred well inside it (pdfium hands out TeX's ``\\~p``
    as ``p˜``; an apostrophe drawn as an acute, ``it´s``, stands after its letter, not over it)."""
    if not letter.text[:1].isalpha() or letter.rotation or accent.rotation:
        return False
    em = _em(letter)
    middle = (accent.x0 + accent.x1) / 2
    lift = letter.baseline - accent.baseline
    if lift > 0.1 * em:
        return letter.x0 - 0.15 * em <= middle <= letter.x1 + 0.15 * em and lift <= ACCENT_LIFT * em
    return abs(lift) <= 0.1 * em and letter.x0 + 0.1 * em < middle < letter.x1 - 0.1 * em


def _em(g: Glyph) -> float:
    """A glyph's em: its font size, or its box's height where the parser gives none."""
    return g.size if g.size > 0 else g.bottom - g.top


def same_line(
    base: float, size: float, top: float, bottom: float, line_base: float, line_size: float, line_top: float,
    line_bottom: float, settings: LayoutSettings,
) -> bool:  # fmt: skip
    """Whether something (a glyph, a word) sits on a line: on its baseline, or, in smaller type than the
    other, inside the other's band (a subscript, a superscript, a footnote mark)."""
    if abs(base - line_base) <= settings.baseline_tolerance * max(size, line_size):
        return True
    if size < settings.script_size * line_size:
        return top < line_bottom and bottom > line_top and line_top - 0.2 * line_size < (top + bottom) / 2
    if line_size < settings.script_size * size:
        return line_top < bottom and line_bottom > top and top - 0.2 * size < (line_top + line_bottom) / 2
    return False


def words(glyphs: Sequence[Glyph], settings: LayoutSettings) -> list[Word]:
    """Words in content order. Whitespace glyphs only mark a space; a glyph drawn again at the same
    spot right after itself (fake bold) is kept once.

    The per-glyph loop of the engine: the common case (the next letter of the word, on its baseline)
    is decided with locals and one comparison each; :func:`same_line` is asked only when the
    baselines differ."""
    out: list[Word] = []
    space_gap, cjk_gap, back = settings.space_gap, settings.cjk_space_gap, settings.overlap
    tolerance, script = settings.baseline_tolerance, settings.script_size
    text_parts: list[str] = []
    xs: list[float] = []
    add_part, add_x = text_parts.append, xs.append
    w_x0 = w_x1 = w_top = w_bottom = w_base = w_size = 0.0
    w_font = ""
    w_space = False
    w_seq = -1
    last_text = ""
    last_x0 = 0.0
    last_em = 0.0
    pending_space = False

    for seq, (text, x0, x1, top, bottom, base, size, font, _rotation, space) in enumerate(glyphs):
        if not text or text.isspace():
            pending_space = True
            continue
        if x1 < x0:
            continue
        if pending_space:
            space = True
            pending_space = False
        em = size if size > 0 else bottom - top
        if w_seq >= 0:
            gap = x0 - w_x1
            if (
                (gap >= -back * em or (last_text in SPACING_ACCENTS and x0 - back * em <= last_x0 <= x1))
                and not (space and gap > 0 and not _script_edge(em, last_em, gap, space_gap, script))
                and (
                    gap <= space_gap * em
                    or (gap <= cjk_gap * em and ((text >= "\u3000" and is_cjk(text[0])) or is_cjk(last_text[-1])))
                )
                and (
                    abs(base - w_base) <= tolerance * (em if em > w_size else w_size)
                    or same_line(base, em, top, bottom, w_base, w_size, w_top, w_bottom, settings)
                )
            ):
                if text == last_text and abs(x0 - last_x0) < 0.3 * max(x1 - x0, 0.1):
                    continue  # the same glyph drawn twice
                add_part(text)
                if len(text) == 1:
                    add_x(x0)
                    add_x(x1)
                else:
                    _split_width(xs, text, x0, x1)
                if x1 > w_x1:
                    w_x1 = x1
                if top < w_top:
                    w_top = top
                if bottom > w_bottom:
                    w_bottom = bottom
                if w_size < script * em:
                    w_base, w_size, w_font = base, em, font  # the first letters were smaller (a mark)
                last_text, last_x0, last_em = text, x0, em
                continue
            if (
                text >= "\u0590"
                and -back * em <= w_x0 - x1 <= space_gap * em
                and not space
                and is_rtl(text[0])
                and is_rtl(last_text[-1])
                and abs(base - w_base) <= tolerance * (em if em > w_size else w_size)
            ):
                # right-to-left script drawn in reading order, each glyph left of the one before:
                # the word grows leftwards and keeps its glyphs in x order, as other words do
                text_parts.insert(0, text)
                head: list[float] = []
                if len(text) == 1:
                    head = [x0, x1]
                else:
                    _split_width(head, text, x0, x1)
                xs[:0] = head
                w_x0 = x0
                if top < w_top:
                    w_top = top
                if bottom > w_bottom:
                    w_bottom = bottom
                last_text, last_x0, last_em = text, x0, em
                continue
            out.append(
                Word("".join(text_parts), xs, w_x0, w_x1, w_top, w_bottom, w_base, w_size, w_font, w_space, w_seq)
            )
            text_parts = [text]
            xs = []
            add_part, add_x = text_parts.append, xs.append
        else:
            add_part(text)
        if len(text) == 1:
            add_x(x0)
            add_x(x1)
        else:
            _split_width(xs, text, x0, x1)
        w_x0, w_x1, w_top, w_bottom, w_base, w_size, w_font, w_space, w_seq = (
            x0, x1, top, bottom, base, em, font, space, seq,
        )  # fmt: skip
        last_text, last_x0, last_em = text, x0, em
    if w_seq >= 0:
        out.append(Word("".join(text_parts), xs, w_x0, w_x1, w_top, w_bottom, w_base, w_size, w_font, w_space, w_seq))
    return out


def _script_edge(em: float, last_em: float, gap: float, space_gap: float, script: float) -> bool:
    """A glyph right after a sub- or superscript (or a script right after its base) with no gap to
    speak of: a parser's space hint there is its own artefact of the baseline change, not a space."""
    small, large = (em, last_em) if em < last_em else (last_em, em)
    return small < script * large and gap <= space_gap * small


def _split_width(xs: list[float], text: str, x0: float, x1: float) -> None:
    """One glyph, several code points (a ligature the parser spelled out): they share its width."""
    w = (x1 - x0) / len(text)
    for k in range(len(text)):
        xs.append(x0 + k * w)
        xs.append(x0 + (k + 1) * w)
