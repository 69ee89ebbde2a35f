"""Hostile PDFs, written by hand at test time (a few hundred bytes each): a form XObject that draws
itself, a flate bomb, and the harmless look-alike (forms sharing one resource dictionary that names
them all, none drawing another), which must not be refused."""

from __future__ import annotations

import zlib
from pathlib import Path


def _pdf(objects: list[bytes]) -> bytes:
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def self_drawing_form(path: Path) -> Path:
    """Form 5 draws itself twice: an endless (or exponential) loop for a renderer."""
    path.write_bytes(
        _pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] "
                b"/Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>",
                _stream(b"/X Do"),
                _stream(
                    b"/X Do /X Do",
                    b"/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /X 5 0 R >> >>",
                ),
            ]
        )
    )
    return path


def flate_bomb(path: Path, inflated: int = 400_000_000) -> Path:
    """A page whose 390 KB content stream inflates to ``inflated`` bytes of spaces."""
    data = zlib.compress(b" " * inflated, 9)
    path.write_bytes(
        _pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
                _stream(data, b"/Filter /FlateDecode"),
            ]
        )
    )
    return path


def shared_resources(path: Path) -> Path:
    """Two forms and the page share one resource dictionary (object 4) naming both forms; the page
    draws A, A draws B, B draws only text: no loop, and the text must come out."""
    resources = b"<< /XObject << /A 6 0 R /B 7 0 R >> /Font << /F1 8 0 R >> >>"
    path.write_bytes(
        _pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources 4 0 R /Contents 5 0 R >>",
                resources,
                _stream(b"/A Do"),
                _stream(b"/B Do", b"/Type /XObject /Subtype /Form /BBox [0 0 300 200] /Resources 4 0 R"),
                _stream(
                    b"BT /F1 12 Tf 20 100 Td (Shared resources, drawn once - caf\\351.) Tj ET",
                    b"/Type /XObject /Subtype /Form /BBox [0 0 300 200] /Resources 4 0 R",
                ),
                _FONT,
            ]
        )
    )
    return path


def ruled_table_in_a_form(path: Path) -> Path:
    """Not hostile: a page whose ruled table is placed as a form XObject at half size (as figure and
    table tools place theirs), its seven borders thin filled rectangles of one path (seven ``re``
    in one ``f``), its cells in Helvetica with non-ASCII letters (WinAnsi octal escapes); the last row's first cell
    wraps onto two lines."""
    form = (
        b"0 g\n"
        b"0 0 360 1 re 0 40 360 1 re 0 80 360 1 re 0 120 360 1 re "
        b"0 0 1 121 re 180 0 1 121 re 359 0 1 121 re f\n"
        b"BT /F1 20 Tf 10 92 Td (Gr\\366\\337e) Tj 180 0 Td (Ma\\337) Tj ET\n"
        b"BT /F1 20 Tf 10 52 Td (L\\344nge) Tj 180 0 Td (12 m) Tj ET\n"
        b"BT /F1 20 Tf 10 22 Td (Breite des) Tj 180 0 Td (3 m) Tj -180 -18 Td (Geb\\344udes) Tj ET\n"
    )
    page = b"BT /F1 10 Tf 20 170 Td (\\334bersicht der Ma\\337e:) Tj ET\nq /T Do Q\n"
    path.write_bytes(
        _pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 240 200] "
                b"/Resources << /Font << /F1 6 0 R >> /XObject << /T 5 0 R >> >> /Contents 4 0 R >>",
                _stream(page),
                _stream(
                    form,
                    b"/Type /XObject /Subtype /Form /BBox [0 0 400 200] /Matrix [0.5 0 0 0.5 20 50] "
                    b"/Resources << /Font << /F1 6 0 R >> >>",
                ),
                _FONT,
            ]
        )
    )
    return path
