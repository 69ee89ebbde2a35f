"""Extraction throughput (pages/s) per backend on the corpus's text-layer PDFs, with raw pdfplumber
``Page.extract_text()`` and raw pypdfium2 ``get_text_range()`` as references in the same run; OCR
off (the references read only text layers)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2 as pdfium

from benchmarks.common import section, text_layer_pdfs, timed
from citeline.ingest.errors import ExtractionError
from citeline.ingest.extract import extract
from citeline.ingest.extract.ocr import OcrSettings

#: text layers only, as the references read them (OCR would read the 21 pages of
#: tamreview_cid_garbled.pdf, mostly unmapped glyphs, at about 2.4 s a page)
NO_OCR = OcrSettings(mode="off")


def raw_extract_text(path: Path) -> int:
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            page.extract_text()
            page.close()
        return len(pdf.pages)


def raw_pdfium(path: Path) -> int:
    doc = pdfium.PdfDocument(str(path))
    try:
        for page in doc:
            tp = page.get_textpage()
            tp.get_text_range()
            tp.close()
            page.close()
        return len(doc)
    finally:
        doc.close()


def ours(backend: str) -> Any:
    def run(path: Path) -> int:
        return extract(path, extractor=backend, fallback=False, ocr=NO_OCR).page_count

    return run


def run(repeat: int = 1) -> dict[str, Any]:
    files = text_layer_pdfs()
    runners = {
        "pdfplumber extract_text (reference)": raw_extract_text,
        "citeline pdfplumber backend": ours("pdfplumber"),
        "pypdfium2 get_text_range (reference)": raw_pdfium,
        "citeline pdfium backend": ours("pdfium"),
    }
    seconds = dict.fromkeys(runners, 0.0)
    pages = dict.fromkeys(runners, 0)
    with section(f"extraction throughput on {len(files)} text-layer PDFs"):
        for path, _ in files:
            for name, fn in runners.items():
                best = None
                for _ in range(repeat):
                    try:
                        dt, n = timed(lambda fn=fn, path=path: fn(path))
                    except (ExtractionError, Exception):  # a file one parser refuses is left out for all
                        best = None
                        break
                    best = dt if best is None else min(best, dt)
                if best is None:
                    continue
                seconds[name] += best
                pages[name] += n
    rates = {name: pages[name] / seconds[name] for name in runners if seconds[name]}
    plumber = rates["citeline pdfplumber backend"]
    result = {
        "files": len(files),
        "pages": pages,
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "pages_per_second": {k: round(v, 1) for k, v in rates.items()},
        "ratios": {
            "pdfplumber backend / raw extract_text": round(plumber / rates["pdfplumber extract_text (reference)"], 3),
            "pdfium backend / pdfplumber backend": round(rates["citeline pdfium backend"] / plumber, 2),
            "pdfium backend / raw pypdfium2 text": round(
                rates["citeline pdfium backend"] / rates["pypdfium2 get_text_range (reference)"], 3
            ),
        },
    }
    for k, v in result["pages_per_second"].items():
        print(f"   {k:40} {v:8.1f} pages/s")
    for k, v in result["ratios"].items():
        print(f"   {k:40} {v}")
    return result
