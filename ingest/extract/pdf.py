"""PDF backends: pdfplumber (default, from ``page.chars``) and pdfium (pypdfium2 char boxes, fast).

Both feed the same layout engine (:mod:`citeline.ingest.extract.layout`), so they produce the same kind of
raw stream and geometry, and differ only where the two parsers see different glyphs.
"""

from __future__ import annotations

import ctypes
import functools
import io
import re
import struct
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

from citeline.ingest.errors import CorruptFile, Encrypted, ExtractionError, TooLarge
from citeline.ingest.extract.files import MEDIA_TYPES, PDF, Limits, SourceFile
from citeline.ingest.extract.layout import layout_page
from citeline.ingest.extract.model import Extraction, Line, Page, Problem

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_RECT = struct.Struct("4f")  # FS_RECTF: left, top, right, bottom

#: A page whose glyphs are mostly unmapped ``(cid:N)`` codes has no usable text layer.
UNMAPPED_SHARE = 0.3


@dataclass(slots=True)
class PageGlyphs:
    """The glyphs of one page, as parallel lists (one entry per glyph)."""

    number: int
    width: float
    height: float
    texts: list[str] = field(default_factory=list)
    x0: list[float] = field(default_factory=list)
    x1: list[float] = field(default_factory=list)
    top: list[float] = field(default_factory=list)
    bottom: list[float] = field(default_factory=list)
    size: list[float] = field(default_factory=list)
    #: the parser saw a space (drawn, or inserted by pdfium) right before this glyph in stream order
    space_before: list[bool] = field(default_factory=list)


def assemble(
    source: SourceFile,
    pages: Iterable[PageGlyphs],
    *,
    extractor: str,
    version: str,
    limits: Limits,
    problems: Iterable[Problem] = (),
) -> Extraction:
    """Lay out every page and build the raw stream, page records and line geometry."""
    parts: list[str] = []
    page_records: list[Page] = []
    lines: list[Line] = []
    empty_pages: list[int] = []
    unmapped_pages: list[int] = []
    pos = 0
    for pg in pages:
        if not (0 < pg.width <= limits.max_page_side and 0 < pg.height <= limits.max_page_side):
            raise TooLarge(source.path, f"page {pg.number} measures {pg.width:g} x {pg.height:g} pt")
        if pg.number > 1:
            parts.append("\f")
            pos += 1
        page_start = pos
        laid = layout_page(
            pg.texts, pg.x0, pg.x1, pg.top, pg.bottom, pg.size, width=pg.width, space_before=pg.space_before
        )
        for k, ln in enumerate(laid):
            if k > 0:
                sep = "\n\n" if ln.paragraph_before else "\n"
                parts.append(sep)
                pos += len(sep)
            parts.append(ln.text)
            lines.append(Line(pg.number, pos, pos + len(ln.text), round(ln.top, 3), round(ln.bottom, 3), ln.xs))
            pos += len(ln.text)
        glyphs = len(pg.texts)  # both backends leave whitespace glyphs out
        joined = "".join(pg.texts)
        if not glyphs:
            empty_pages.append(pg.number)
        elif joined.count("(cid:") + joined.count("\ufffd") > UNMAPPED_SHARE * glyphs:
            unmapped_pages.append(pg.number)
        page_records.append(Page(pg.number, pg.width, pg.height, page_start, pos, has_text=bool(glyphs)))
    found = list(problems)
    if empty_pages:
        found.append(Problem("no_text_layer", tuple(empty_pages), f"no text layer on {_pages_label(empty_pages)}"))
    if unmapped_pages:
        found.append(
            Problem(
                "unmapped_glyphs",
                tuple(unmapped_pages),
                f"glyphs without Unicode mapping on {_pages_label(unmapped_pages)}",
            )
        )
    raw = "".join(parts)
    if _LONE_SURROGATE.search(raw):  # broken font maps; same length, so offsets are unchanged
        raw = _LONE_SURROGATE.sub("\ufffd", raw)
    return Extraction(
        path=source.path,
        raw=raw,
        pages=tuple(page_records),
        lines=tuple(lines),
        content_sha256=source.sha256,
        extractor=extractor,
        extractor_version=version,
        media_type=MEDIA_TYPES[PDF],
        file_size=source.size,
        problems=tuple(found),
    )


def _pages_label(numbers: list[int]) -> str:
    label = ", ".join(str(n) for n in numbers[:20]) + (" ..." if len(numbers) > 20 else "")
    return f"page{'s' if len(numbers) > 1 else ''} {label}"


def _check_page_count(source: SourceFile, n: int, limits: Limits) -> None:
    if n == 0:
        raise CorruptFile(source.path, "PDF has no pages")
    if n > limits.max_pages:
        raise TooLarge(source.path, f"{n:,} pages, above the limit of {limits.max_pages:,}")


# ----------------------------------------------------------------------------- pdfplumber


def _pdfminer_error(path: str, exc: BaseException) -> ExtractionError:
    from pdfminer.pdfdocument import PDFPasswordIncorrect

    inner = exc.args[0] if exc.args and isinstance(exc.args[0], BaseException) else exc
    if isinstance(inner, PDFPasswordIncorrect):
        return Encrypted(path, "encrypted; the password is missing or wrong (use --password)")
    if isinstance(inner, RecursionError):
        return CorruptFile(path, "corrupt PDF (cross-reference loop)")
    detail = str(inner).strip().splitlines()[0][:160] if str(inner).strip() else type(inner).__name__
    return CorruptFile(path, f"corrupt PDF ({detail})")


def extract_pdfplumber(source: SourceFile, *, password: str | None = None, limits: Limits = Limits()) -> Extraction:
    import pdfplumber
    from pdfplumber.utils.exceptions import PdfminerException

    def pages(pdf: Any) -> Iterator[PageGlyphs]:
        for page in pdf.pages:
            pg = PageGlyphs(page.page_number, float(page.width), float(page.height))
            space = False
            for ch in page.chars:
                if ch["text"].isspace():
                    space = True
                    continue
                pg.space_before.append(space)
                space = False
                pg.texts.append(ch["text"])
                pg.x0.append(ch["x0"])
                pg.x1.append(ch["x1"])
                pg.top.append(ch["top"])
                pg.bottom.append(ch["bottom"])
                pg.size.append(ch["size"])
            page.close()  # drop pdfplumber's per-page caches as we go
            yield pg

    try:
        with pdfplumber.open(io.BytesIO(source.data), password=password or "") as pdf:
            _check_page_count(source, len(pdf.pages), limits)
            return assemble(source, pages(pdf), extractor="pdfplumber", version=pdfplumber.__version__, limits=limits)
    except ExtractionError:
        raise
    except PdfminerException as exc:
        raise _pdfminer_error(source.path, exc) from None
    except RecursionError:
        raise CorruptFile(source.path, "corrupt PDF (cross-reference loop)") from None
    except Exception as exc:  # pdfminer raises many unrelated types on damaged files
        raise _pdfminer_error(source.path, exc) from None


# ----------------------------------------------------------------------------- pdfium


def _pdfium_error(path: str, exc: BaseException) -> ExtractionError:
    msg = str(exc)
    if "password" in msg.lower():
        return Encrypted(path, "encrypted; the password is missing or wrong (use --password)")
    detail = msg.split("(PDFium:", 1)[-1].rstrip(").") if "(PDFium:" in msg else msg
    return CorruptFile(path, f"corrupt PDF ({detail.strip() or type(exc).__name__})")


def extract_pdfium(source: SourceFile, *, password: str | None = None, limits: Limits = Limits()) -> Extraction:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    def pages(doc: pdfium.PdfDocument) -> Iterator[PageGlyphs]:
        for index in range(len(doc)):
            page = doc[index]
            try:
                width, height = page.get_size()
                pg = PageGlyphs(index + 1, float(width), float(height))
                # page space (origin bottom-left of the media box, unrotated) -> top-left display space
                ox, oy, ax, ay, bx, by = _display_transform(page.raw, pdfium_c, float(width), float(height))
                textpage = page.get_textpage()
                try:
                    _pdfium_glyphs(textpage.raw, textpage.count_chars(), (ox, oy, ax, ay, bx, by), pg, pdfium_c)
                finally:
                    textpage.close()
            finally:
                page.close()
            yield pg

    try:
        doc = pdfium.PdfDocument(source.data, password=password)
    except pdfium.PdfiumError as exc:
        raise _pdfium_error(source.path, exc) from None
    try:
        _check_page_count(source, len(doc), limits)
        return assemble(source, pages(doc), extractor="pdfium", version=_pdfium_version(), limits=limits)
    except ExtractionError:
        raise
    except pdfium.PdfiumError as exc:
        raise _pdfium_error(source.path, exc) from None
    finally:
        doc.close()


def _pdfium_glyphs(
    tp: Any, count: int, transform: tuple[float, float, float, float, float, float], pg: PageGlyphs, pdfium_c: Any
) -> None:
    """Append the glyphs of one pdfium text page to ``pg``, in display space.

    The hot loop of the pdfium backend (one ctypes call per character): everything it touches is a
    local, the box call takes plain addresses (:func:`_box_reader`), the box is read with one
    ``struct`` unpack, and the font size is asked for only when the loose box height changes (the
    same font at the same size has the same loose box height)."""
    get_box = _box_reader(pdfium_c)
    get_size = pdfium_c.FPDFText_GetFontSize
    rect = pdfium_c.FS_RECTF()
    rect_ref = ctypes.addressof(rect)
    tp_ref = ctypes.cast(tp, ctypes.c_void_p).value
    read_rect = _RECT.unpack_from
    ox, oy, ax, ay, bx, by = transform
    upright = abs(ax - 1) < 1e-6 and abs(ay) < 1e-6 and abs(bx) < 1e-6 and abs(by + 1) < 1e-6
    texts, x0s, x1s, tops, bottoms, sizes = pg.texts, pg.x0, pg.x1, pg.top, pg.bottom, pg.size
    add_text, add_x0, add_x1, add_top, add_bottom, add_size = (
        texts.append,
        x0s.append,
        x1s.append,
        tops.append,
        bottoms.append,
        sizes.append,
    )
    add_space = pg.space_before.append
    space = False
    last_height, size = -1.0, 0.0
    last_left = last_right = last_bottom = None
    for i, code in enumerate(_page_codes(tp, count, pdfium_c)):
        # generated spaces and line breaks are dropped here, as the layout would
        if code <= 32 or code == 0xA0 or code == 0xFFFE:
            if code == 2 or code == 0xFFFE:
                code = 0x2D  # pdfium's mark for a hyphen that ends a line; the glyph is "-"
            else:
                space = True  # a space or pdfium's generated break: a hint for the layout
                continue
        elif 0xDC00 <= code <= 0xDFFF and texts and "\ud800" <= texts[-1] <= "\udbff":
            # low half of a UTF-16 surrogate pair: complete the previous glyph
            texts[-1] = chr(0x10000 + ((ord(texts[-1]) - 0xD800) << 10) + (code - 0xDC00))
            continue
        if not get_box(tp_ref, i, rect_ref):
            continue
        rl, rt, rr, rb = read_rect(rect)
        height = rt - rb
        if height != last_height:
            size = get_size(tp, i)
            last_height = height
        if upright:
            left, right, bottom = rl + ox, rr + ox, oy - rb
        else:
            xa, ya = ox + ax * rl + bx * rb, oy + ay * rl + by * rb
            xb, yb = ox + ax * rr + bx * rt, oy + ay * rr + by * rt
            left, right, bottom = min(xa, xb), max(xa, xb), max(ya, yb)
        ch = chr(code) if code < 0x110000 else "\ufffd"
        if not space and left == last_left and right == last_right and bottom == last_bottom:
            # one glyph that pdfium hands out as several characters with the same box (a
            # ligature "ﬀ" as "f", "f"): keep it one glyph of two letters
            texts[-1] += ch
            continue
        add_text(ch)
        add_space(space)
        space = False
        add_x0(left)
        add_x1(right)
        add_bottom(bottom)
        add_top(bottom - size if size > 0 else bottom - abs(height))
        add_size(size)
        last_left, last_right, last_bottom = left, right, bottom


@functools.cache
def _box_reader(pdfium_c: Any) -> Callable[[int | None, int, int], int]:
    """``FPDFText_GetLooseCharBox`` taking plain addresses: pypdfium2's binding checks and converts
    a text page and a rectangle object on every call, which costs the per-character loop a fifth of
    its time. Same function, same library, same calling convention."""
    bound = pdfium_c.FPDFText_GetLooseCharBox
    reader = type(bound)(ctypes.cast(bound, ctypes.c_void_p).value)
    reader.argtypes = (ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
    reader.restype = ctypes.c_int
    return cast(Callable[[int | None, int, int], int], reader)


def _page_codes(textpage: object, count: int, pdfium_c: Any) -> list[int]:
    """The code of every character of a pdfium text page: one bulk ``FPDFText_GetText`` call (UTF-16
    units kept unpaired, one per character index), or one call per character when pdfium's text
    and its character count disagree (a few pages do)."""
    if count <= 0:
        return []
    buf = (ctypes.c_ushort * (count + 1))()
    got = pdfium_c.FPDFText_GetText(textpage, 0, count, buf)
    text = bytes(buf)[: 2 * max(got - 1, 0)].decode("utf-16-le", "surrogatepass")
    if len(text) == count:
        # one UTF-16 unit per character (no surrogate pair joined up): the units are the codes
        return buf[:count] if got - 1 == count else [ord(ch) for ch in text]
    return [pdfium_c.FPDFText_GetUnicode(textpage, i) for i in range(count)]


def _display_transform(
    page: object, pdfium_c: object, width: float, height: float
) -> tuple[float, float, float, float, float, float]:
    """The affine map from pdfium page space to top-left display space, as ``(ox, oy, ax, ay, bx,
    by)``: ``x' = ox + ax*x + bx*y``, ``y' = oy + ay*x + by*y``. Measured with pdfium's own
    ``FPDF_PageToDevice`` at 1000x scale (it returns integers); pdfium applies the page's /Rotate
    and box offsets itself, so rotated pages come out as displayed (as pdfplumber reports them)."""
    scale = 1000
    dx, dy = ctypes.c_int(), ctypes.c_int()

    def device(x: float, y: float) -> tuple[float, float]:
        pdfium_c.FPDF_PageToDevice(  # type: ignore[attr-defined]
            page,
            0,
            0,
            round(width * scale),
            round(height * scale),
            0,
            x,
            y,
            ctypes.byref(dx),
            ctypes.byref(dy),
        )
        return dx.value / scale, dy.value / scale

    ox, oy = device(0.0, 0.0)
    px, py = device(1000.0, 0.0)
    qx, qy = device(0.0, 1000.0)
    return ox, oy, (px - ox) / 1000, (py - oy) / 1000, (qx - ox) / 1000, (qy - oy) / 1000


def _pdfium_version() -> str:
    import pypdfium2 as pdfium

    return f"pypdfium2 {pdfium.version.PYPDFIUM_INFO} / pdfium {pdfium.version.PDFIUM_INFO}"
