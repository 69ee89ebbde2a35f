"""Caps that make a hostile PDF fail in seconds instead of holding a worker until its time limit.

Two kinds of file do that: a *form XObject that draws itself* (directly or through others: a
600-byte file that sends a parser into an endless or exponential loop), and a *decompression bomb*
(a small stream that inflates to gigabytes). Neither parser caps them: pdfium loads a page's
content eagerly and expands forms without bound; pdfminer inflates every stream whole.

* :func:`check_forms` reads the PDF's object graph from the bytes (plain objects and object
  streams, inflated with a cap) and refuses a form XObject that reaches itself, or forms nested
  deeper than :data:`MAX_FORM_DEPTH`, before pdfium loads a page;
* :func:`install_pdfminer_caps` makes pdfminer inflate a stream to at most :data:`MAX_STREAM_BYTES`
  and draw at most :data:`MAX_FORM_DRAWS` forms per page (idempotent; process-wide, which an ingest
  worker is).
"""

from __future__ import annotations

import re
import zlib
from typing import Any

from citeline.ingest.errors import CorruptFile, TooLarge

#: A stream inflating to more than this is a bomb (a page's content is kilobytes to megabytes).
MAX_STREAM_BYTES = 256 * 1024 * 1024
#: Forms within forms deeper than this are a loop in disguise.
MAX_FORM_DEPTH = 24
#: Forms drawn on one page (pdfminer): an exponential fan-out of a few forms ends here.
MAX_FORM_DRAWS = 20_000
#: Characters (pdfium) or text-showing operators (pdfminer) on one page. The densest real pages
#: (a dictionary, a 6-point table on A3) hold 20,000 to 30,000 characters; an 88 KB PDF with 2M
#: ``Tj`` operators on one page took 109 s and 3 GB before this cap.
MAX_PAGE_TEXT = 200_000


class PageFlood(Exception):
    """A page draws more than :data:`MAX_PAGE_TEXT` characters or text operators (``page`` 0:
    not known)."""

    def __init__(self, page: int, count: int, what: str) -> None:
        super().__init__(page, count, what)
        self.page, self.count, self.what = page, count, what

    def __str__(self) -> str:
        where = f"page {self.page}" if self.page else "a page"  # pdfminer does not say which
        if self.what == "characters":
            return (
                f"{where} draws {self.count:,} characters, above the limit of {MAX_PAGE_TEXT:,} per page (a text flood)"
            )
        return f"{where} draws more than {MAX_PAGE_TEXT:,} text operators, the limit per page (a text flood)"


_OBJ_NUMBER = re.compile(rb"(?<![0-9])(\d+)\s+\d+\s+$")
_NAMED_ENTRY = re.compile(rb"/([^\s/<>\[\]()]+)\s*(\d+)\s+\d+\s+R\b")
_DO = re.compile(rb"/([^\s/<>\[\]()]+)\s*Do\b")
_XOBJECT = re.compile(rb"/XObject\s*(?:<<(.*?)>>|(\d+)\s+\d+\s+R)", re.DOTALL)
_RESOURCES = re.compile(rb"/Resources\s*(?:(\d+)\s+\d+\s+R)?")
_FORM = re.compile(rb"/Subtype\s*/Form\b")
_OBJSTM = re.compile(rb"/Type\s*/ObjStm\b")
_STREAM = re.compile(rb"stream\r?\n")


def check_forms(path: str, data: bytes) -> None:
    """Refuse a PDF whose form XObjects reach themselves or nest deeper than :data:`MAX_FORM_DEPTH`.
    Reading the graph from the bytes costs a scan for object headers (and inflating object
    streams); a file without a form is passed at once."""
    if b"/Form" not in data and b"/ObjStm" not in data:
        return
    graph = _Objects(data)
    forms = {n for n, body in graph.all_dicts() if _FORM.search(body)}
    if not forms:
        return
    edges = {n: graph.drawn(n) & forms for n in forms}
    state: dict[int, int] = {}  # 1: on the current path, 2: done

    def visit(n: int, depth: int) -> None:
        if depth > MAX_FORM_DEPTH:
            raise TooLarge(path, f"form XObjects nested more than {MAX_FORM_DEPTH} deep")
        state[n] = 1
        for m in edges.get(n, ()):
            if state.get(m) == 1:
                raise CorruptFile(path, f"corrupt PDF (form XObject {m} draws itself, through a reference loop)")
            if state.get(m) != 2:
                visit(m, depth + 1)
        state[n] = 2

    for n in sorted(forms):
        if n not in state:
            visit(n, 0)


class _Objects:
    """The dictionaries of a PDF's objects, read from the bytes: plain objects by the offset of
    their header, and the objects inside object streams (inflated, with the cap)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.offsets: dict[int, int] = {}
        at = data.find(b"obj")  # a plain find: a regex over the binary streams is ten times slower
        while at >= 0:
            if data[at - 3 : at] != b"end":
                number = _OBJ_NUMBER.search(data, max(0, at - 32), at)
                if number is not None:
                    self.offsets[int(number.group(1))] = at + 3
            at = data.find(b"obj", at + 3)
        self.packed: dict[int, bytes] = {}
        #: each plain object's dictionary, read once (all_dicts gives them again)
        self.heads = {n: self._head(at) for n, at in self.offsets.items()}
        for n, at in self.offsets.items():
            head = self.heads[n]
            if _OBJSTM.search(head):
                self.packed.update(self._unpack(at, head))

    def _head(self, at: int) -> bytes:
        """An object's text up to its stream or its end (the dictionary)."""
        end = self.data.find(b"endobj", at)
        end = len(self.data) if end < 0 else end
        stream = self.data.find(b"stream", at, end)
        return self.data[at : stream if stream >= 0 else end]

    def get(self, n: int) -> bytes:
        if n in self.packed:
            return self.packed[n]
        return self.heads.get(n, b"")

    def all_dicts(self) -> list[tuple[int, bytes]]:
        return [*self.heads.items(), *self.packed.items()]

    def _unpack(self, at: int, head: bytes) -> dict[int, bytes]:
        start = _STREAM.search(self.data, at)
        end = self.data.find(b"endstream", at)
        if start is None or end < 0:
            return {}
        raw = self.data[start.end() : end]
        try:
            inflated = zlib.decompressobj().decompress(raw, MAX_STREAM_BYTES) if b"/FlateDecode" in head else raw
        except zlib.error:
            return {}
        first = re.search(rb"/First\s+(\d+)", head)
        count = re.search(rb"/N\s+(\d+)", head)
        if first is None or count is None:
            return {}
        offset = int(first.group(1))
        numbers = [int(x) for x in re.findall(rb"\d+", inflated[:offset])]
        pairs = list(zip(numbers[0::2], numbers[1::2], strict=False))[: int(count.group(1))]
        out = {}
        for k, (num, pos) in enumerate(pairs):
            stop = pairs[k + 1][1] if k + 1 < len(pairs) else len(inflated) - offset
            out[num] = inflated[offset + pos : offset + stop]
        return out

    def drawn(self, n: int) -> set[int]:
        """The XObjects form ``n`` draws: names its content stream uses with ``Do``, looked up in its
        resources (inline or referenced). A resource dictionary shared by many forms names them all,
        so the names alone would see loops that are not there; content that cannot be read (a
        filter other than Flate) counts as drawing nothing."""
        body = self.get(n)
        resources = _RESOURCES.search(body)
        if resources is None:
            return set()
        used = self._names_drawn(n, body)
        if not used:
            return set()
        text = self.get(int(resources.group(1))) if resources.group(1) else body[resources.end() :]
        named: dict[bytes, int] = {}
        for m in _XOBJECT.finditer(text):
            entries = m.group(1) if m.group(1) is not None else self.get(int(m.group(2)))
            named.update((k, int(v)) for k, v in _NAMED_ENTRY.findall(entries))
        return {named[name] for name in used if name in named}

    def _names_drawn(self, n: int, head: bytes) -> set[bytes]:
        at = self.offsets.get(n)
        if at is None:
            return set()
        start = _STREAM.search(self.data, at)
        end = self.data.find(b"endstream", at)
        if start is None or end < 0 or start.start() > end:
            return set()
        content = self.data[start.end() : end]
        if b"/Filter" in head:
            if b"/FlateDecode" not in head or re.search(rb"/Filter\s*\[[^\]]*/\w+[^\]]*/\w+", head):
                return set()  # another filter, or a chain: not read here
            try:
                content = zlib.decompressobj().decompress(content, MAX_STREAM_BYTES)
            except zlib.error:
                return set()
        return set(_DO.findall(content))


# ----------------------------------------------------------------------------- pdfminer

_installed = False


def install_pdfminer_caps() -> None:
    """Cap what pdfminer inflates per stream and the forms it draws per page (see the module)."""
    global _installed
    if _installed:
        return
    import pdfminer.pdfinterp as interp
    import pdfminer.pdftypes as types

    types.zlib = _CappedZlib()  # type: ignore[attr-defined,assignment]
    original = interp.PDFPageInterpreter.do_Do
    start_page = interp.PDFPageInterpreter.process_page

    def process_page(self: Any, page: Any) -> None:
        _draws[0] = 0
        _texts[0] = 0
        start_page(self, page)

    def shown() -> None:
        _texts[0] += 1
        if _texts[0] > MAX_PAGE_TEXT:
            raise PageFlood(0, _texts[0], "text operators")

    # pdfminer passes each operator as many operands as its handler's signature names: keep them
    tj, tj_array = interp.PDFPageInterpreter.do_Tj, interp.PDFPageInterpreter.do_TJ
    quote, dquote = interp.PDFPageInterpreter.do__q, interp.PDFPageInterpreter.do__w

    def do_Tj(self: Any, s: Any) -> None:
        shown()
        tj(self, s)

    def do_TJ(self: Any, seq: Any) -> None:
        shown()
        tj_array(self, seq)

    def do__q(self: Any, s: Any) -> None:  # the ' operator
        shown()
        quote(self, s)

    def do__w(self: Any, aw: Any, ac: Any, s: Any) -> None:  # the " operator
        shown()
        dquote(self, aw, ac, s)

    interp.PDFPageInterpreter.do_Tj = do_Tj  # type: ignore[method-assign]
    interp.PDFPageInterpreter.do_TJ = do_TJ  # type: ignore[method-assign]
    interp.PDFPageInterpreter.do__q = do__q  # type: ignore[method-assign]
    interp.PDFPageInterpreter.do__w = do__w  # type: ignore[method-assign]

    def do_Do(self: Any, xobjid: Any) -> None:
        _draws[0] += 1
        if _draws[0] > MAX_FORM_DRAWS:
            raise _TooManyForms(f"draws more than {MAX_FORM_DRAWS:,} XObjects on one page (a form that draws itself?)")
        original(self, xobjid)

    interp.PDFPageInterpreter.process_page = process_page  # type: ignore[method-assign]
    interp.PDFPageInterpreter.do_Do = do_Do  # type: ignore[method-assign,assignment]
    _installed = True


_draws = [0]
_texts = [0]


class _TooManyForms(Exception):
    """Raised inside pdfminer; the backend reports it as ``too_large``."""


class StreamTooLarge(Exception):
    """A stream inflates past :data:`MAX_STREAM_BYTES`; the backend reports it as ``too_large``."""


class _CappedZlib:
    """What pdfminer sees as ``zlib``: the same, but ``decompress`` stops at the cap."""

    error = zlib.error

    def __getattr__(self, name: str) -> Any:
        return getattr(zlib, name)

    @staticmethod
    def decompress(data: bytes, *args: Any) -> bytes:
        d = zlib.decompressobj()
        out = d.decompress(data, MAX_STREAM_BYTES)
        if d.unconsumed_tail:
            raise StreamTooLarge(f"a stream inflates to more than {MAX_STREAM_BYTES // (1024 * 1024)} MB")
        return out


def too_large(exc: BaseException) -> str | None:
    """The message when ``exc`` (as pdfminer or pdfplumber wraps it) comes from a cap here."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, (StreamTooLarge, _TooManyForms, PageFlood)):
            return str(exc)
        inner = exc.args[0] if exc.args and isinstance(exc.args[0], BaseException) else None
        exc = inner or exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return None
