"""One extraction in a fresh process, for ``python -m benchmarks extract``'s wall-time figures
(start-up included): ``python benchmarks/extract_child.py RUNNER PATH...`` (several paths are read
in turn). Each runner imports only what it reads with, so a reference does not pay for citeline's
imports. Prints the page count.

Run as a script (not ``-m``) so that no package ``__init__`` is imported first.
"""

from __future__ import annotations

import sys


def citeline_extract(path: str, backend: str) -> int:
    from citeline.ingest.extract import extract
    from citeline.ingest.extract.ocr import OcrSettings

    return extract(path, extractor=backend, fallback=False, ocr=OcrSettings(mode="off")).page_count  # type: ignore[arg-type]


def raw_pypdfium2_boxes(path: str) -> int:
    """pypdfium2's text of every page and every character's box (``get_charbox``): the least a
    reader of text with geometry asks of pdfium."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    try:
        for page in doc:
            tp = page.get_textpage()
            tp.get_text_range()
            box = tp.get_charbox
            for i in range(tp.count_chars()):
                box(i)
            tp.close()
            page.close()
        return len(doc)
    finally:
        doc.close()


def raw_pypdfium2_api(path: str) -> int:
    """The same through pypdfium2's raw API, as tight as Python makes it: the page text in one
    ``FPDFText_GetText`` call, then ``FPDFText_GetCharBox`` per character on plain addresses (no
    argument conversion) into one reused buffer of four doubles."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as c

    bound = c.FPDFText_GetCharBox
    box = type(bound)(ctypes.cast(bound, ctypes.c_void_p).value)
    box.argtypes = (ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
    box.restype = ctypes.c_int
    buf = (ctypes.c_double * 4)()
    b = ctypes.addressof(buf)
    left, right, bottom, top = b, b + 8, b + 16, b + 24
    doc = pdfium.PdfDocument(path)
    try:
        for page in doc:
            tp = page.get_textpage()
            count = tp.count_chars()
            text = (ctypes.c_ushort * (count + 1))()
            c.FPDFText_GetText(tp.raw, 0, count, text)
            ref = ctypes.cast(tp.raw, ctypes.c_void_p).value
            for i in range(count):
                box(ref, i, left, right, bottom, top)
                _left, _right, _bottom, _top = buf  # read, as a reader of the boxes would
            tp.close()
            page.close()
        return len(doc)
    finally:
        doc.close()


def raw_extract_text(path: str) -> int:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            page.extract_text()
            page.close()
        return len(pdf.pages)


def kreuzberg_extract(path: str) -> int:
    from kreuzberg import extract_file_sync

    result = extract_file_sync(path)
    return int((result.metadata or {}).get("page_count") or 0) if hasattr(result, "metadata") else 0


RUNNERS = {
    "citeline-pdfium": lambda p: citeline_extract(p, "pdfium"),
    "citeline-pdfplumber": lambda p: citeline_extract(p, "pdfplumber"),
    "raw-pypdfium2-boxes": raw_pypdfium2_boxes,
    "raw-pypdfium2-api": raw_pypdfium2_api,
    "raw-extract-text": raw_extract_text,
    "kreuzberg": kreuzberg_extract,
}


def peak_kb() -> int:
    """This program's peak resident memory (KiB): ``VmHWM``, the high-water mark of the process's
    own memory since ``exec``. (``ru_maxrss`` also counts the parent's pages the child was forked
    with, which is the benchmark's size, not the reader's.)"""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


if __name__ == "__main__":
    runner, files = sys.argv[1], sys.argv[2:]
    pages = sum(RUNNERS[runner](file) for file in files)
    print(f"{pages}\t{peak_kb()}")
