"""pdfium's characters as :class:`~citeline.ingest.extract.glyphs.PageGlyphs`, fast.

The hot loop of the pdfium backend: one ``ctypes`` call per character for its loose box, plus a few
per *run* of characters of one font, size and direction, recognised by the loose box height: the
same font at the same size has the same loose box height, so the font size, text matrix (effective
size, reading direction), origin (baseline) and font name are asked for only when that height
changes. The glyph geometry given to the layout engine is the same kind pdfplumber gives: a box one
font size tall standing on the font's descent, the baseline, the effective size, the rotation.
"""

from __future__ import annotations

import ctypes
import functools
import itertools
import math
import struct
from collections.abc import Callable
from operator import itemgetter
from typing import Any, cast

from citeline.ingest.extract.glyphs import SPACING_ACCENTS, UNMAPPED, Glyph, PageGlyphs, Rule, turn
from citeline.ingest.extract.guards import MAX_PAGE_TEXT, PageFlood

_RECT = struct.Struct("4f")  # FS_RECTF: left, top, right, bottom
#: A path object at most this thin (points) is a ruling line.
RULE_THICKNESS = 2.0

Transform = tuple[float, float, float, float, float, float]
#: Codes below a space that pdfium uses for what it generates itself (its line-end hyphen 2, a tab),
#: but also hands out for a drawn glyph it cannot map (then ``FPDFText_IsGenerated`` says no, and the
#: glyph is one U+FFFD). Its generated line breaks (10, 13) are never glyphs.
_CONTROL_GLYPHS = frozenset(c for c in range(32) if c not in (0, 10, 13))


def pdfium_page(page: Any, number: int, pdfium_c: Any, textpage: Any = None) -> PageGlyphs:
    """The glyphs and rules of one ``pypdfium2.PdfPage``; ``textpage``: its text page, when the
    caller has it open already (and closes it), else one is opened and closed here."""
    width, height = page.get_size()
    transform = display_transform(page.raw, pdfium_c, float(width), float(height))
    own = textpage is None
    textpage = page.get_textpage() if own else textpage
    try:
        count = textpage.count_chars()
        if count > MAX_PAGE_TEXT:  # before a Glyph is built for each: 2M of them took minutes and GBs
            raise PageFlood(number, count, "characters")
        glyphs, unmapped = _glyphs(textpage.raw, count, transform, pdfium_c)
    finally:
        if own:
            textpage.close()
    return PageGlyphs(number, float(width), float(height), glyphs, _rules(page.raw, transform, pdfium_c), unmapped)


def _glyphs(tp: Any, count: int, transform: Transform, pdfium_c: Any) -> tuple[list[Glyph], int]:
    """The page's glyphs, and how many of them pdfium could not map to Unicode."""
    get_box = _box_reader(pdfium_c)
    generated = pdfium_c.FPDFText_IsGenerated
    unmapped_glyph = pdfium_c.FPDFText_HasUnicodeMapError
    calls = _RunCalls(pdfium_c)
    runs: dict[float, tuple[float, int, str, float]] = {}
    # the box lands in a bytearray (read back with one struct unpack, the cheapest read Python has);
    # the arguments are ctypes pointers made once, which ctypes passes on without converting
    rect = bytearray(_RECT.size)
    rect_view = (ctypes.c_char * _RECT.size).from_buffer(rect)  # keeps the address valid
    rect_ref = ctypes.c_void_p(ctypes.addressof(rect_view))
    tp_ref = ctypes.c_void_p(ctypes.cast(tp, ctypes.c_void_p).value)
    read_rect = _RECT.unpack_from
    ox, oy, ax, ay, bx, by = transform
    upright_page = abs(ax - 1) < 1e-6 and abs(ay) < 1e-6 and abs(bx) < 1e-6 and abs(by + 1) < 1e-6
    out: list[Glyph] = []
    add = out.append
    new = tuple.__new__  # builds a Glyph twice as fast as its constructor (a hundred thousand per second)
    space = False
    last_height = -1.0
    size = 0.0
    rotation = 0
    font = ""
    base_offset = 0.0  # baseline minus the box edge it is measured from, for the current run
    fast = upright_page  # the current run is upright on an unrotated page
    unmapped = 0
    last_left = last_right = last_bottom = -1e9
    for i, code in enumerate(_page_codes(tp, count, pdfium_c)):
        # generated spaces and line breaks are dropped here, as the layout would
        if code <= 32 or code == 0xA0 or code == 0xFFFE:
            if code == 2 and not unmapped_glyph(tp, i):
                code = 0x2D  # pdfium's mark for a drawn hyphen that ends a line (it says "not generated")
            elif (code in _CONTROL_GLYPHS and not generated(tp, i)) or (
                code == 32 and out and out[-1].text == UNMAPPED and unmapped_glyph(tp, i)
            ):
                # a drawn glyph pdfium could not map: it hands out the glyph's code (a "space" right
                # after an unmapped glyph is asked about: the font's code 32 may be any glyph)
                code = 0xFFFD
            elif code == 2 or code == 0xFFFE:
                code = 0x2D  # pdfium's mark for a hyphen that ends a line; the glyph is "-"
            else:
                space = True  # a space or pdfium's generated break: a hint for the layout
                continue
        elif 0xDC00 <= code <= 0xDFFF and out and "\ud800" <= out[-1].text[-1:] <= "\udbff":
            # low half of a UTF-16 surrogate pair: complete the previous glyph
            prev = out[-1]
            full = chr(0x10000 + ((ord(prev.text[-1]) - 0xD800) << 10) + (code - 0xDC00))
            out[-1] = prev._replace(text=prev.text[:-1] + full)
            continue
        if not get_box(tp_ref, i, rect_ref):
            continue
        rl, rt, rr, rb = read_rect(rect)
        height = rt - rb
        if height != last_height:
            last_height = height
            known = runs.get(height)
            if known is None:
                known = _run(tp, i, rl, rt, rr, rb, transform, upright_page, calls)
                if known[1] == 0:
                    # upright runs of one font and size share a loose height: remember it (math
                    # switches fonts every few glyphs); turned glyphs' heights are their advances
                    runs[height] = known
            size, rotation, font, base_offset = known
            fast = upright_page and rotation == 0
        if fast:
            left, right, bottom = rl + ox, rr + ox, oy - rb
            top = bottom - size
            baseline = bottom + base_offset
        else:
            left, top, right, bottom = _edges(rl, rt, rr, rb, ox, oy, ax, ay, bx, by, upright_page, rotation, size)
            baseline = (left if rotation in (90, 270) else bottom) + base_offset
        if code < 0x110000 and code != 0xFFFD:
            ch = chr(code)
        else:
            ch = UNMAPPED
            unmapped += 1
        if left == last_left and right == last_right and bottom == last_bottom and not space:
            # one glyph that pdfium hands out as several characters with the same box (a ligature
            # "ﬀ" as "f", "f"): keep it one glyph of two letters
            prev = out[-1]
            out[-1] = prev._replace(text=prev.text + ch)
            continue
        add(new(Glyph, (ch, left, right, top, bottom, baseline, size, font, rotation, space)))
        space = False
        last_left, last_right, last_bottom = left, right, bottom
    return _accents_in_place(out), unmapped


_TEXT = itemgetter(0)
#: How far back (glyphs) an accent is looked for its letter.
_ACCENT_REACH = 80


def _accents_in_place(glyphs: list[Glyph]) -> list[Glyph]:
    """pdfium hands out some accents later than the content stream draws them (TeX's ``F\"arber`` as
    ``Farber`` then ``¨``, sometimes at the end of the line), where pdfplumber has them in drawing
    order, right before their letter. An accent left of the glyph before it on the same line goes
    back to right before the letter it stands over, so both backends give the engine one order."""
    if SPACING_ACCENTS.isdisjoint(map(_TEXT, glyphs)):  # counted in C: most pages have none
        return glyphs
    out = list(glyphs)
    for i in range(1, len(out)):
        g = out[i]
        if g.text not in SPACING_ACCENTS or g.x0 >= out[i - 1].x0:
            continue
        middle, tolerance = (g.x0 + g.x1) / 2, 0.5 * (g.size or g.bottom - g.top)
        for k in range(i - 1, max(i - _ACCENT_REACH, 0) - 1, -1):
            letter = out[k]
            if abs(letter.baseline - g.baseline) > tolerance:
                break  # another line: the accent stays where pdfium put it
            if letter.x0 <= middle < letter.x1 and letter.text not in SPACING_ACCENTS:
                del out[i]
                out.insert(k, g._replace(space_before=letter.space_before))
                out[k + 1] = letter._replace(space_before=False)
                break
    return out


class _RunCalls:
    """The pdfium calls made once per run of characters, with their output buffers."""

    def __init__(self, pdfium_c: Any) -> None:
        self.size = pdfium_c.FPDFText_GetFontSize
        self.matrix = pdfium_c.FPDFText_GetMatrix
        self.origin = pdfium_c.FPDFText_GetCharOrigin
        self.font = pdfium_c.FPDFText_GetFontInfo
        self.m = pdfium_c.FS_MATRIX()
        self.ox, self.oy = ctypes.c_double(), ctypes.c_double()
        self.font_buf = ctypes.create_string_buffer(128)
        self.flags = ctypes.c_int()


def _run(
    tp: Any, i: int, rl: float, rt: float, rr: float, rb: float, transform: Transform, upright_page: bool,
    calls: _RunCalls,
) -> tuple[float, int, str, float]:  # fmt: skip
    """``(effective size, rotation, font name, baseline offset)`` of the run character ``i`` starts."""
    ox, oy, ax, ay, bx, by = transform
    calls.matrix(tp, i, ctypes.byref(calls.m))
    a, b, c, d = calls.m.a, calls.m.b, calls.m.c, calls.m.d
    font_size = calls.size(tp, i)
    scale = math.hypot(c, d) or 1.0
    size = font_size * scale if font_size > 0 else abs(rt - rb)
    # the reading direction on the page as displayed (display space has y down)
    dx, dy = ax * a + bx * b, ay * a + by * b
    rotation = turn(math.degrees(math.atan2(-dy, dx)))
    calls.origin(tp, i, ctypes.byref(calls.ox), ctypes.byref(calls.oy))
    x, y = calls.ox.value, calls.oy.value
    gx, gy = ox + ax * x + bx * y, oy + ay * x + by * y
    got = calls.font(tp, i, calls.font_buf, len(calls.font_buf), ctypes.byref(calls.flags))
    font = calls.font_buf.value.decode("latin-1", "replace") if got else ""
    left, _top, _right, bottom = _edges(rl, rt, rr, rb, ox, oy, ax, ay, bx, by, upright_page, rotation, size)
    # the baseline is a y, as for upright and diagonal text, or an x, for quarter-turned text
    return size, rotation, font, (gx - left) if rotation in (90, 270) else (gy - bottom)


def _edges(
    rl: float, rt: float, rr: float, rb: float, ox: float, oy: float, ax: float, ay: float, bx: float, by: float,
    upright_page: bool, rotation: int, size: float,
) -> tuple[float, float, float, float]:  # fmt: skip
    """A loose box in display space, ``(left, top, right, bottom)``; upright text stands one font size
    tall on the box's bottom (the font's descent), as pdfminer reports it."""
    if upright_page:
        left, right, top, bottom = rl + ox, rr + ox, oy - rt, oy - rb
    else:
        xa, ya = ox + ax * rl + bx * rb, oy + ay * rl + by * rb
        xb, yb = ox + ax * rr + bx * rt, oy + ay * rr + by * rt
        left, right, top, bottom = min(xa, xb), max(xa, xb), min(ya, yb), max(ya, yb)
    # a glyph box one font size tall standing on the font's descent, as pdfminer reports it, whichever
    # way the glyph is turned: the edge on the descent side stays, the opposite one moves
    if rotation == 0:
        top = bottom - size
    elif rotation == 90:  # glyph tops point left
        left = right - size
    elif rotation == 270:  # glyph tops point right
        right = left + size
    elif rotation == 180:  # upside down
        bottom = top + size
    # diagonal: the box as pdfium gives it
    return left, top, right, bottom


#: A PDF matrix ``(a, b, c, d, e, f)``: ``x' = a*x + c*y + e``, ``y' = b*x + d*y + f``.
Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: A path with more segments than this is a plot or a drawing, not a table's ruling: its bounds are
#: taken whole (one ``ctypes`` call) instead of segment by segment.
MAX_PATH_SEGMENTS = 1000
#: A path of at most this many segments is one subpath (``m`` and four ``l``: a rectangle): its
#: bounds are taken whole.
SIMPLE_PATH = 5
#: How deep form objects nest before the rest are left out (a malformed file may nest forever).
MAX_FORM_DEPTH = 8


def _rules(page: Any, transform: Transform, pdfium_c: Any) -> list[Rule]:
    """Horizontal and vertical lines, in display space, as pdfplumber finds them: each subpath of a
    path object (one ``re`` is one subpath; a path may hold many) that is a straight line or an
    axis-aligned polygon of at most five points, at most :data:`RULE_THICKNESS` thin; inside form
    objects too (a figure or a table placed as a form), through each form's matrix."""
    count = pdfium_c.FPDFPage_CountObjects(page)
    if count <= 0:
        return []
    calls = _object_readers(pdfium_c)
    out: list[Rule] = []
    _collect_rules(calls, ctypes.cast(page, ctypes.c_void_p).value, None, _IDENTITY, transform, out, 0)
    return out


def _collect_rules(
    calls: _ObjectCalls, page: int | None, form: int | None, outer: Matrix, transform: Transform, out: list[Rule],
    depth: int,
) -> None:  # fmt: skip
    """The rules among the objects of ``page`` (or of the form object ``form``), whose coordinates
    ``outer`` takes to page space."""
    count = calls.count_page(page) if form is None else calls.count_form(form)
    path, form_type = calls.path_type, calls.form_type
    box = (ctypes.c_float * 4)()
    b = ctypes.addressof(box)
    left, bottom, right, top = b, b + 4, b + 8, b + 12
    plain = outer == _IDENTITY
    for k in range(count):
        obj = calls.page_object(page, k) if form is None else calls.form_object(form, k)
        kind = calls.get_type(obj)
        if kind == form_type and depth < MAX_FORM_DEPTH:
            _collect_rules(calls, None, obj, _then(calls.matrix_of(obj), outer), transform, out, depth + 1)
            continue
        if kind != path:
            continue
        if not calls.get_bounds(obj, left, bottom, right, top):
            continue
        x0, y0, x1, y1 = box
        if plain:
            corners = [(x0, y0), (x1, y1)]
        else:
            corners = [_apply(outer, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        if _thin(corners):
            # a line, a thin rectangle, a thin bundle of them (a dashed line): one rule
            _add_rule(corners, transform, out)
            continue
        segments = calls.count_segments(obj)
        if SIMPLE_PATH < segments <= MAX_PATH_SEGMENTS:
            # a path of many subpaths (several ``re`` in one path: a table's cell borders, a
            # figure's boxes): each on its own
            for points in _subpaths(calls, obj, segments, _then(calls.matrix_of(obj), outer)):
                _add_rule(points, transform, out)


def _thin(points: list[tuple[float, float]]) -> bool:
    """The points' bounding box is at most :data:`RULE_THICKNESS` thin."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(max(xs) - min(xs), max(ys) - min(ys)) <= RULE_THICKNESS


def _subpaths(calls: _ObjectCalls, obj: int, segments: int, matrix: Matrix) -> list[list[tuple[float, float]]]:
    """The page-space points of each subpath of path ``obj`` drawn with straight segments only (a
    subpath with a curve in it is no rule)."""
    x, y = calls.x, calls.y
    xr, yr = ctypes.addressof(x), ctypes.addressof(y)
    a, b, c, d, e, f = matrix
    out: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = []
    curved = False
    for i in range(segments):
        seg = calls.segment(obj, i)
        kind = calls.segment_type(seg)
        if kind == calls.moveto:
            if len(current) >= 2 and not curved:
                out.append(current)
            current, curved = [], False
        elif kind != calls.lineto:
            curved = True
        if not calls.point(seg, xr, yr):
            curved = True
            continue
        px, py = x.value, y.value
        current.append((a * px + c * py + e, b * px + d * py + f))
    if len(current) >= 2 and not curved:
        out.append(current)
    return out


def _add_rule(points: list[tuple[float, float]], transform: Transform, out: list[Rule]) -> None:
    """A rule for a line or an axis-aligned polygon of at most five points (a rectangle, closed or
    not) in page space, when it is thin; what pdfminer calls an ``LTLine`` or an ``LTRect``."""
    if len(points) > 5:
        return
    if len(points) > 2 and any(
        abs(x1 - x0) > 0.01 and abs(y1 - y0) > 0.01 for (x0, y0), (x1, y1) in itertools.pairwise(points)
    ):
        return
    if not _thin(points):
        return
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    ox, oy, ax, ay, bx, by = transform
    xa, ya = ox + ax * x0 + bx * y0, oy + ay * x0 + by * y0
    xb, yb = ox + ax * x1 + bx * y1, oy + ay * x1 + by * y1
    out.append(Rule(min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb)))


def _then(inner: Matrix, outer: Matrix) -> Matrix:
    """The matrix that applies ``inner``, then ``outer``."""
    a, b, c, d, e, f = inner
    oa, ob, oc, od, oe, of = outer
    return (
        a * oa + b * oc, a * ob + b * od, c * oa + d * oc, c * ob + d * od, e * oa + f * oc + oe, e * ob + f * od + of,
    )  # fmt: skip


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


class _ObjectCalls:
    """pdfium's page-object and path calls on plain addresses (see :func:`_box_reader`), with their
    output buffers: one per process (pdfium is not thread-safe; citeline reads PDFs in one thread per
    worker process)."""

    def __init__(self, pdfium_c: Any) -> None:
        voidp, cint, boolean = ctypes.c_void_p, ctypes.c_int, ctypes.c_int

        def plain(bound: Any, argtypes: tuple[Any, ...], restype: Any) -> Any:
            fn = type(bound)(ctypes.cast(bound, ctypes.c_void_p).value)
            fn.argtypes, fn.restype = argtypes, restype
            return fn

        c = pdfium_c
        self.count_page = plain(c.FPDFPage_CountObjects, (voidp,), cint)
        self.page_object = plain(c.FPDFPage_GetObject, (voidp, cint), voidp)
        self.count_form = plain(c.FPDFFormObj_CountObjects, (voidp,), cint)
        self.form_object = plain(c.FPDFFormObj_GetObject, (voidp, ctypes.c_ulong), voidp)
        self.get_type = plain(c.FPDFPageObj_GetType, (voidp,), cint)
        self.get_bounds = plain(c.FPDFPageObj_GetBounds, (voidp, voidp, voidp, voidp, voidp), boolean)
        self.count_segments = plain(c.FPDFPath_CountSegments, (voidp,), cint)
        self.segment = plain(c.FPDFPath_GetPathSegment, (voidp, cint), voidp)
        self.segment_type = plain(c.FPDFPathSegment_GetType, (voidp,), cint)
        self.point = plain(c.FPDFPathSegment_GetPoint, (voidp, voidp, voidp), boolean)
        self._get_matrix = plain(c.FPDFPageObj_GetMatrix, (voidp, voidp), boolean)
        self.path_type, self.form_type = c.FPDF_PAGEOBJ_PATH, c.FPDF_PAGEOBJ_FORM
        self.moveto, self.lineto = c.FPDF_SEGMENT_MOVETO, c.FPDF_SEGMENT_LINETO
        self.x, self.y = ctypes.c_float(), ctypes.c_float()
        self._m = c.FS_MATRIX()
        self._m_ref = ctypes.addressof(self._m)

    def matrix_of(self, obj: int) -> Matrix:
        """An object's own matrix (a path's points, a form's contents, to its parent's space)."""
        if not self._get_matrix(obj, self._m_ref):
            return _IDENTITY
        m = self._m
        return (m.a, m.b, m.c, m.d, m.e, m.f)


@functools.cache
def _object_readers(pdfium_c: Any) -> _ObjectCalls:
    return _ObjectCalls(pdfium_c)


@functools.cache
def _box_reader(pdfium_c: Any) -> Callable[[ctypes.c_void_p, int, ctypes.c_void_p], int]:
    """``FPDFText_GetLooseCharBox`` without argument conversion: pypdfium2's binding checks and
    converts a text page and a rectangle object on every call, which cost the per-character loop a
    fifth of its time, and declared argument types still convert each argument. Called with a
    ``c_void_p`` text page, a Python ``int`` index (a C ``int``, ctypes' default) and a ``c_void_p``
    to four floats, made once per page: the call alone 20% faster (0.26 -> 0.21 s for the 415,224
    characters of the 91-page set). Same function, same library, same calling convention."""
    bound = pdfium_c.FPDFText_GetLooseCharBox
    reader = type(bound)(ctypes.cast(bound, ctypes.c_void_p).value)
    reader.argtypes = None
    reader.restype = ctypes.c_int
    return cast(Callable[[ctypes.c_void_p, int, ctypes.c_void_p], int], reader)


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


def display_transform(page: object, pdfium_c: object, width: float, height: float) -> Transform:
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
