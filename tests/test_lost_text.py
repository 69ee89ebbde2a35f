"""pdfium's lost text (issue 32): on a page drawn with a text object per word or so, pdfium gets no
character from the objects of one character in a Type0 font (an OCR layer's one-letter Russian words
"в", "к", "с" in a datasheet; a Japanese poem's one-kana objects): when it reads nothing from at
least 30% of a page's text objects, the page is read with pdfplumber (problem ``page_fallback``).
Before, the fallback needed more text objects than characters read, and the page lost a letter in
every few words. The page is written byte by byte (HeiseiMin-W3 with UniJIS-UCS2-H, not embedded;
Helvetica for the Latin lines, with é, ü and ß)"""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.ingest.extract import extract
from tests.simple_pdf import write_objects

POEM = [
    "わたくしといふ現象は",
    "假定された有機交流電燈の",
    "ひとつの青い照明です",
    "あらゆる透明な幽霊の複合体",
    "風景やみんなといつしよに",
    "せはしくせはしく明滅しながら",
    "いかにもたしかにともりつづける",
    "因果交流電燈の",
    "ひとつの青い照明です",
    "ひかりはたもち、その電燈は失はれ",
]
LATIN = [
    "Miyazawa Kenji, Haru to Shura (Frühling und Asura), Vorwort: Übersetzung von Jürgen Straß",
    "Édition bilingue, texte japonais établi d’après l’édition originale de 1924, Tokio",
]


def _latin(text: str) -> bytes:
    raw = text.encode("cp1252")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _words(line: str) -> list[tuple[int, str]]:
    """The line cut into objects of two characters and one in turn, each with its offset."""
    out, j, two = [], 0, True
    while j < len(line):
        n = 2 if two else 1
        out.append((j, line[j : j + n]))
        j, two = j + n, not two
    return out


def write_poem(path: Path) -> Path:
    """The page, byte by byte: the Latin lines in Helvetica (WinAnsi), the poem in HeiseiMin-W3
    (a Type0 font, encoding UniJIS-UCS2-H, not embedded), a text object for each two characters and
    each one in turn, as an OCR layer draws a word per object."""
    ops = [b"BT /F1 9 Tf"]
    for k, text in enumerate(LATIN):
        ops.append(b"1 0 0 1 60 %g Tm " % (790 - 12 * k) + _latin(text) + b" Tj")
    ops.append(b"ET")
    for k, line in enumerate(POEM):
        for j, word in _words(line):
            code = word.encode("utf-16-be").hex().encode()
            ops.append(b"BT /F2 12 Tf 1 0 0 1 %g %g Tm <" % (60 + 12 * j, 740 - 20 * k) + code + b"> Tj ET")
    content = b"\n".join(ops)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R /F2 6 0 R >> >> "
        b"/Contents 5 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiMin-W3 /Encoding /UniJIS-UCS2-H /DescendantFonts [7 0 R] >>",
        b"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiMin-W3 /DW 1000 /FontDescriptor 8 0 R "
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> >>",
        b"<< /Type /FontDescriptor /FontName /HeiseiMin-W3 /Flags 6 /FontBBox [-123 -257 1001 910] "
        b"/ItalicAngle 0 /Ascent 723 /Descent -241 /CapHeight 709 /StemV 69 >>",
    ]
    return write_objects(path, objects)


@pytest.fixture(scope="module")
def poem(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_poem(tmp_path_factory.mktemp("lost") / "poem_heiseimin.pdf")


def test_a_page_whose_text_objects_pdfium_cannot_read_is_read_with_pdfplumber(poem: Path) -> None:
    ex = extract(poem, extractor="pdfium")
    lines = ex.raw.split("\n")
    for line in POEM:
        assert line in lines, ex.raw
    for line in LATIN:
        assert line in lines, ex.raw
    assert [(p.code, p.pages) for p in ex.problems] == [("page_fallback", (1,))]


def test_pdfium_alone_loses_the_one_character_objects(poem: Path) -> None:
    """What pdfium itself reads of the page: every Latin letter, the poem with characters missing;
    :func:`~citeline.ingest.extract.pdf.lost_text` says so."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    from citeline.ingest.extract.pdf import lost_text
    from citeline.ingest.extract.pdfium_glyphs import pdfium_page

    doc = pdfium.PdfDocument(poem)
    try:
        page = doc[0]
        glyphs = pdfium_page(page, 1, pdfium_c).glyphs
        read = "".join(g.text for g in glyphs)
        assert all(c in read for c in "".join(LATIN).replace(" ", ""))
        assert len(read) < len("".join(LATIN + POEM).replace(" ", ""))
        assert lost_text(page.raw, len(glyphs), pdfium_c)
        page.close()
    finally:
        doc.close()
