"""OCR: pages without a usable text layer, and images, become lines of the same raw-stream model.

Tesseract 5 reads the page image (rendered with pypdfium2 at ``--ocr-dpi``, or the image file's own
pixels) through its C API (``tesserocr``, one engine per worker process, ``OMP_THREAD_LIMIT=1`` so
workers scale). Its symbols, in its reading order (blocks, paragraphs, lines, words), become
:class:`~citeline.ingest.extract.layout.order.LayoutLine` s: a line's text is its words joined by
one space, and every code point has the left and right edge of its symbol's box in PDF points of
the page (a symbol of several code points shares its box evenly; a space spans the gap between its
words). From there furniture, dehyphenation, chunking, provenance and highlights work as on a text
page.

Why ``tesserocr`` rather than ``pytesseract``: measured on the same pages (``python -m benchmarks
ocr``), the C API is faster (no process per page, no image encoding, no TSV parsing) and gives a box
per symbol, where pytesseract's TSV stops at words; see the README.
"""

from __future__ import annotations

import os
import threading
from array import array
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from citeline.ingest.errors import MissingDependency
from citeline.kinds import DEFAULT_OCR_MODE, OCR_MODES, OcrMode, member

os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # before Tesseract starts: one thread per worker

DEFAULT_DPI = 300
#: Pages whose mean word confidence (0-100) is under this are listed as ``low_ocr_confidence``.
CONFIDENCE_FLOOR = 60.0
#: A page image is rendered with at most this many pixels (a 14,400-pt page at 300 dpi would be
#: 3.6 gigapixels); a larger page is rendered at the dpi that fits.
MAX_OCR_PIXELS = 60_000_000
#: In ``auto`` mode, a page with fewer glyphs than this whose images cover at least
#: :data:`SCAN_COVERAGE` of it is a scan with a stamp on it (a Bates number, a date): OCR'd.
STAMP_GLYPHS = 40
SCAN_COVERAGE = 0.5
#: ... and a page with more than this share of unmapped glyphs has no usable text layer.
UNUSABLE_UNMAPPED = 0.5

#: Where Debian (and others) put Tesseract's language data; ``TESSDATA_PREFIX`` comes first.
TESSDATA_DIRS = (
    "/usr/share/tesseract-ocr/5/tessdata",
    "/usr/share/tesseract-ocr/4.00/tessdata",
    "/usr/share/tessdata",
    "/usr/local/share/tessdata",
    "/opt/homebrew/share/tessdata",
)


@dataclass(frozen=True, slots=True)
class OcrSettings:
    """``--ocr``, ``--ocr-lang`` (Tesseract codes joined by ``+``) and ``--ocr-dpi``."""

    mode: OcrMode = DEFAULT_OCR_MODE
    languages: str = "eng"
    dpi: int = DEFAULT_DPI

    def __post_init__(self) -> None:
        member(self.mode, OCR_MODES, "ocr mode")
        if not 50 <= self.dpi <= 1200:
            raise ValueError(f"ocr dpi {self.dpi} is outside 50-1200")
        if not self.languages or any(not part.replace("_", "").isalnum() for part in self.languages.split("+")):
            raise ValueError(f"ocr languages {self.languages!r} are not Tesseract codes joined by '+' (eng+deu)")

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class OcrInfo:
    """How one page was read by OCR."""

    engine: str  # "tesseract 5.5.4"
    languages: str
    confidence: float  # mean word confidence, 0-100 (0 for a page where nothing was read)
    dpi: float


@dataclass(frozen=True, slots=True)
class OcrLine:
    """One recognised line: text, two x edges per code point (points), box, paragraph start."""

    text: str
    xs: array[float]
    top: float
    bottom: float
    paragraph_before: bool


def tessdata_dir() -> str | None:
    """The folder holding ``*.traineddata``: ``TESSDATA_PREFIX`` (or its ``tessdata``), else the
    first of :data:`TESSDATA_DIRS` that exists."""
    prefix = os.environ.get("TESSDATA_PREFIX")
    candidates = [prefix, os.path.join(prefix, "tessdata")] if prefix else []
    for folder in [*candidates, *TESSDATA_DIRS]:
        if folder and os.path.isdir(folder) and any(n.endswith(".traineddata") for n in os.listdir(folder)):
            return folder
    return None


def debian_package(language: str) -> str:
    """The Debian package with a language's data (``chi_sim`` -> ``tesseract-ocr-chi-sim``)."""
    return "tesseract-ocr-" + language.lower().replace("_", "-")


_engines: dict[tuple[str, str], Any] = {}
_lock = threading.Lock()


def engine(path: str, languages: str) -> Any:
    """The process's Tesseract engine for ``languages`` (made once; a worker keeps it)."""
    key = (tessdata_dir() or "", languages)
    with _lock:
        if key in _engines:
            return _engines[key]
        try:
            import tesserocr
        except ImportError:
            raise MissingDependency(
                path,
                "OCR needs the tesserocr package (pip install 'citeline[ocr]') and Tesseract's language data "
                f"(apt-get install {' '.join(debian_package(lang) for lang in languages.split('+'))}); "
                "or ingest with --ocr off",
            ) from None
        folder = key[0]
        missing = [
            lang for lang in languages.split("+") if not folder or not Path(folder, f"{lang}.traineddata").exists()
        ]
        if missing:
            where = f" in {folder}" if folder else " (no tessdata folder found; set TESSDATA_PREFIX)"
            raise MissingDependency(
                path,
                f"no Tesseract language data for {', '.join(missing)}{where} "
                f"(apt-get install {' '.join(debian_package(lang) for lang in missing)})",
            )
        api = tesserocr.PyTessBaseAPI(path=folder.rstrip("/") + "/", lang=languages, psm=tesserocr.PSM.AUTO)
        _engines[key] = api
        return api


def engine_version() -> str:
    import tesserocr

    return str(tesserocr.tesseract_version()).splitlines()[0].strip()


def recognize(image: Any, points_per_pixel: float, path: str, settings: OcrSettings) -> tuple[list[OcrLine], float]:
    """Tesseract's lines on a PIL image, in PDF points (``points_per_pixel``: 72 / dpi), and the
    page's mean word confidence."""
    import tesserocr
    from tesserocr import RIL

    api = engine(path, settings.languages)
    with _lock:  # one engine per process: threads (serve, tests) take turns
        api.SetImage(image)
        api.Recognize()
        it = api.GetIterator()
        lines: list[OcrLine] = []
        confidences: list[float] = []
        if it is None or it.Empty(RIL.SYMBOL):
            return [], 0.0
        k = points_per_pixel
        text: list[str] = []
        xs = array("f")
        top = bottom = 0.0
        para_start = False
        last_x1 = None
        for sym in tesserocr.iterate_level(it, RIL.SYMBOL):
            if sym.IsAtBeginningOf(RIL.TEXTLINE):
                if text:
                    lines.append(OcrLine("".join(text), xs, top, bottom, para_start))
                text, xs, last_x1 = [], array("f"), None
                box = sym.BoundingBox(RIL.TEXTLINE)
                if box is not None:
                    top, bottom = box[1] * k, box[3] * k
                para_start = bool(lines) and sym.IsAtBeginningOf(RIL.PARA)
            char = sym.GetUTF8Text(RIL.SYMBOL) or ""
            box = sym.BoundingBox(RIL.SYMBOL)
            if not char.strip() or box is None:
                continue
            x0, x1 = box[0] * k, box[2] * k
            if sym.IsAtBeginningOf(RIL.WORD):
                conf = sym.Confidence(RIL.WORD)
                if conf >= 0:
                    confidences.append(conf)
                if text and last_x1 is not None:
                    text.append(" ")
                    xs.extend((last_x1, max(last_x1, x0)))
            if x1 < x0:
                x1 = x0
            if len(char) == 1:
                xs.extend((x0, x1))
            else:
                step = (x1 - x0) / len(char)
                for n in range(len(char)):
                    xs.extend((x0 + n * step, x0 + (n + 1) * step))
            text.append(char)
            last_x1 = x1
        if text:
            lines.append(OcrLine("".join(text), xs, top, bottom, para_start))
    mean = sum(confidences) / len(confidences) if confidences else 0.0
    return lines, round(mean, 1)


def render_scale(width: float, height: float, dpi: int) -> float:
    """The render scale (pixels per point) for a page at ``dpi``, within :data:`MAX_OCR_PIXELS`."""
    scale = dpi / 72
    pixels = width * height * scale * scale
    if pixels > MAX_OCR_PIXELS:
        scale *= (MAX_OCR_PIXELS / pixels) ** 0.5
    return scale


def ocr_pdf_page(pdfium_page: Any, path: str, settings: OcrSettings) -> tuple[list[OcrLine], OcrInfo]:
    """OCR one pypdfium2 page, rendered in grayscale at the settings' dpi (within the pixel cap)."""
    width, height = pdfium_page.get_size()
    scale = render_scale(float(width), float(height), settings.dpi)
    image = pdfium_page.render(scale=scale, grayscale=True).to_pil()
    lines, confidence = recognize(image, 1 / scale, path, settings)
    return lines, OcrInfo(engine_version(), settings.languages, confidence, round(scale * 72, 1))


def wants_ocr(
    settings: OcrSettings, glyphs: int, unmapped_share: float, image_coverage: Any, *, text_layer: bool = True
) -> bool:
    """Whether a page is read by OCR: every page with ``force``; with ``auto`` a page without a
    usable text layer (no glyphs, mostly unmapped glyphs, or a scan with a few glyphs stamped on
    it); ``image_coverage`` is called only for that last question."""
    if settings.mode == "off":
        return False
    if settings.mode == "force" or not text_layer or glyphs == 0:
        return True
    if unmapped_share > UNUSABLE_UNMAPPED:
        return True
    return glyphs < STAMP_GLYPHS and image_coverage() >= SCAN_COVERAGE


def image_coverage(pdfium_page: Any, pdfium_c: Any) -> float:
    """The share of the page the bounds of its image objects cover (the largest one's, and their
    sum capped at 1: a scan is one image, sometimes a few strips)."""
    import ctypes

    width, height = pdfium_page.get_size()
    area = float(width) * float(height)
    if area <= 0:
        return 0.0
    page = pdfium_page.raw
    count = pdfium_c.FPDFPage_CountObjects(page)
    covered = 0.0
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    for i in range(count):
        obj = pdfium_c.FPDFPage_GetObject(page, i)
        if pdfium_c.FPDFPageObj_GetType(obj) != pdfium_c.FPDF_PAGEOBJ_IMAGE:
            continue
        if pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
            covered += max(0.0, right.value - left.value) * max(0.0, top.value - bottom.value)
    return min(1.0, covered / area)


def low_confidence_pages(infos: Sequence[tuple[int, OcrInfo]]) -> list[int]:
    return [number for number, info in infos if info.confidence < CONFIDENCE_FLOOR]
