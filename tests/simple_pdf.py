"""A PDF written byte by byte, for tests that need a page property the fixture generator does not
draw (an offset CropBox, a book's margins): Helvetica in WinAnsiEncoding, so é, ß, ü, „ “ and ’ are
one byte each; each text item is ``(x, y, size, text)`` with ``(x, y)`` its baseline's start in PDF
space (origin bottom-left of the MediaBox), or ``(x, y, size, text, degrees)`` for text turned
counterclockwise by that angle about its start."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

Item = tuple[float, float, float, str] | tuple[float, float, float, str, float]
Box = tuple[float, float, float, float]


def _string(text: str) -> bytes:
    raw = text.encode("cp1252")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def write_pdf(
    path: Path,
    pages: Sequence[Sequence[Item]],
    media: Box = (0, 0, 612, 792),
    crop: Box | None = None,
    rules: Sequence[Sequence[Box]] = (),
) -> Path:
    """``pages`` of text items written to ``path``; ``rules[k]``, when given, are the lines stroked
    on page ``k`` (half a point wide), each ``(x0, y0, x1, y1)`` in PDF space."""
    n = len(pages)
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(n)) + b"] /Count %d >>" % n,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    boxes = b"/MediaBox [%g %g %g %g]" % media + (b" /CropBox [%g %g %g %g]" % crop if crop else b"")
    for i, items in enumerate(pages):
        ops = [b"BT"]
        for x, y, size, text, *turned in items:
            if turned:
                c, s = math.cos(math.radians(turned[0])), math.sin(math.radians(turned[0]))
                matrix = b"%.4f %.4f %.4f %.4f %g %g" % (c, s, -s, c, x, y)
            else:
                matrix = b"1 0 0 1 %g %g" % (x, y)
            ops.append(b"/F1 %g Tf " % size + matrix + b" Tm " + _string(text) + b" Tj")
        ops.append(b"ET")
        if i < len(rules) and rules[i]:
            ops.append(b"0.5 w")
            ops += [b"%g %g m %g %g l S" % rule for rule in rules[i]]
        content = b"\n".join(ops)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R " + boxes + b" /Resources << /Font << /F1 3 0 R >> >> "
            b"/Contents %d 0 R >>" % (5 + 2 * i)
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    return write_objects(path, objects)


def write_objects(path: Path, objects: Sequence[bytes]) -> Path:
    """``objects`` (their bodies, numbered from 1; the first the catalog) written to ``path`` as a
    PDF with its cross-reference table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for k, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % k + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def read_lines(path: Path, backend: str, **options: Any) -> list[str]:
    """The non-blank lines of ``path`` as the ``backend`` extraction reads them (pdfium's fallback
    off), the pages' lines in turn; ``options`` go to :func:`citeline.ingest.extract.extract`."""
    from citeline.ingest.extract import extract

    ex = extract(path, extractor=backend, fallback=False, **options)
    return [ln for ln in ex.raw.replace("\f", "\n").split("\n") if ln.strip()]
