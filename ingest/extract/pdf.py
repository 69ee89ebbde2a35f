"""PDF backends: pdfplumber (default, from ``page.chars``) and pdfium (pypdfium2 char boxes, fast).

Both feed the same layout engine (:mod:`citeline.ingest.extract.layout`), so they produce the same kind of
raw stream and geometry, and differ only where the two parsers see different glyphs.
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import io
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from citeline.ingest.errors import CorruptFile, Encrypted, ExtractionError, TooLarge
from citeline.ingest.extract.files import MEDIA_TYPES, PDF, Limits, SourceFile
from citeline.ingest.extract.glyphs import LIGATURES, UNMAPPED, PageGlyphs
from citeline.ingest.extract.layout import DEFAULT_SETTINGS, LAYOUT_VERSION, LayoutSettings, layout_page
from citeline.ingest.extract.layout.order import LayoutLine
from citeline.ingest.extract.model import Extraction, Furniture, Page, Problem
from citeline.ingest.extract.ocr import (
    CONFIDENCE_FLOOR,
    OcrInfo,
    OcrLine,
    OcrSettings,
    image_coverage,
    low_confidence_pages,
    ocr_pdf_page,
    wants_ocr,
)
from citeline.text.geometry import Line

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

#: A page whose glyphs are mostly unmapped (U+FFFD) has no usable text layer.
UNMAPPED_SHARE = 0.3
#: Layout kinds that are furniture: reported to the cleaner, which removes them from the body.
_FURNITURE_KINDS = ("line_number", "margin", "outside_crop")


def assemble(
    source: SourceFile,
    pages: Iterable[PageGlyphs],
    *,
    extractor: str,
    version: str,
    limits: Limits,
    problems: Iterable[Problem] = (),
    media_type: str = MEDIA_TYPES[PDF],
    layout: LayoutSettings = DEFAULT_SETTINGS,
) -> Extraction:
    """Lay out every page and build the raw stream, page records, line geometry and the furniture the
    layout found (margin line numbers, margin stamps). A page read by OCR brings its lines in
    reading order already."""
    parts: list[str] = []
    page_records: list[Page] = []
    lines: list[Line] = []
    furniture: list[Furniture] = []
    empty_pages: list[int] = []
    unmapped_pages: list[int] = []
    ocr_pages: list[tuple[int, OcrInfo]] = []
    pos = 0
    for pg in pages:
        if not (0 < pg.width <= limits.max_page_side and 0 < pg.height <= limits.max_page_side):
            raise TooLarge(source.path, f"page {pg.number} measures {pg.width:g} x {pg.height:g} pt")
        if pg.number > 1:
            parts.append("\f")
            pos += 1
        page_start = pos
        laid = layout_page(pg, layout) if pg.ocr_lines is None else _ocr_layout(pg.ocr_lines)
        for k, ln in enumerate(laid):
            if k > 0:
                sep = "\n\n" if ln.paragraph_before else "\n"
                parts.append(sep)
                pos += len(sep)
            parts.append(ln.text)
            lines.append(Line(pg.number, pos, pos + len(ln.text), round(ln.top, 3), round(ln.bottom, 3), ln.xs))
            if ln.kind in _FURNITURE_KINDS:
                furniture.append(Furniture(ln.kind, pos, pos + len(ln.text), pg.number, ln.text))  # type: ignore[arg-type]
            pos += len(ln.text)
        glyphs = len(pg.glyphs) if pg.ocr is None else pos - page_start  # whitespace glyphs are left out
        if not glyphs:
            empty_pages.append(pg.number)
        elif pg.ocr is None and unmapped_share(pg) > UNMAPPED_SHARE:
            unmapped_pages.append(pg.number)
        info = pg.ocr
        if info is not None:
            ocr_pages.append((pg.number, info))
        page_records.append(
            Page(
                pg.number,
                pg.width,
                pg.height,
                page_start,
                pos,
                has_text=bool(glyphs),
                ocr_engine=info.engine if info else None,
                ocr_languages=info.languages if info else None,
                ocr_confidence=info.confidence if info else None,
                ocr_dpi=info.dpi if info else None,
            )
        )
    found = list(problems)
    if empty_pages:
        read = {n for n, _ in ocr_pages}
        what = "no text found by OCR" if set(empty_pages) <= read else "no text layer"
        found.append(Problem("no_text_layer", tuple(empty_pages), f"{what} on {pages_label(empty_pages)}"))
    low = low_confidence_pages(ocr_pages)
    if low:
        found.append(
            Problem(
                "low_ocr_confidence",
                tuple(low),
                f"OCR confidence under {CONFIDENCE_FLOOR:g} on {pages_label(low)} "
                f"(mean word confidence {min(i.confidence for n, i in ocr_pages if n in low):g} at the lowest)",
            )
        )
    if unmapped_pages:
        found.append(
            Problem(
                "unmapped_glyphs",
                tuple(unmapped_pages),
                f"glyphs without Unicode mapping on {pages_label(unmapped_pages)}",
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
        extractor=f"{extractor}+tesseract" if ocr_pages else extractor,
        extractor_version=f"{version} / layout {LAYOUT_VERSION}"
        + (f" / {ocr_pages[0][1].engine}" if ocr_pages else ""),
        media_type=media_type,
        file_size=source.size,
        furniture=tuple(furniture),
        problems=tuple(found),
    )


def _ocr_layout(lines: list[OcrLine]) -> list[LayoutLine]:
    return [LayoutLine(ln.text, ln.xs, ln.top, ln.bottom, ln.paragraph_before) for ln in lines]


def _ocr_page(
    pg: PageGlyphs, settings: OcrSettings, path: str, open_page: Callable[[], Any], *, text_layer: bool = True
) -> PageGlyphs:
    """``pg``, or the same page read by OCR when it has no usable text layer (``--ocr``).
    ``open_page`` opens the page in pypdfium2 (which renders it); it returns ``None`` when pdfium
    cannot read the file, and the page keeps what the parser found."""
    if settings.mode == "off":
        return pg
    import pypdfium2.raw as pdfium_c

    def coverage() -> float:
        page = open_page()
        if page is None:
            return 0.0
        try:
            return image_coverage(page, pdfium_c)
        finally:
            page.close()

    if not wants_ocr(settings, len(pg.glyphs), unmapped_share(pg), coverage, text_layer=text_layer):
        return pg
    page = open_page()
    if page is None:
        return pg
    try:
        lines, info = ocr_pdf_page(page, path, settings)
    finally:
        page.close()
    return dataclasses.replace(pg, glyphs=[], rules=[], unmapped=0, ocr_lines=lines, ocr=info)


#: A page drawn with at least one text object per this many glyphs (a word per object, as an OCR
#: engine's text layer) is looked at object by object for objects pdfium read nothing from ...
WORDS_PER_OBJECT = 8
#: ... and has lost text when at least this share of its text objects (and :data:`LOST_OBJECTS`) gave
#: pdfium no character. On a Russian datasheet's OCR layer pdfium reads no character from the objects
#: of one-letter words ("в", "к", "с") and their spaces: 45 to 50% of each page's objects; a typeset
#: page loses none, a newsletter's page at most 9 of 36 (its space objects).
LOST_SHARE = 0.3
LOST_OBJECTS = 20


def lost_text(page: Any, glyphs: int, pdfium_c: Any, textpage: Any = None) -> bool:
    """Whether pdfium lost text on a page: it drew more text objects than it read characters (each
    text object shows at least one glyph: a non-embedded CJK font whose predefined CMap pdfium lacks,
    HeiseiMin, Ryumin in Japanese official documents); or, on a page of a text object per word or
    so, at least :data:`LOST_SHARE` of them gave it no character (an OCR layer whose one-letter words
    pdfium drops). Objects are only counted on pages with more page objects than twice their
    characters, or a text object per :data:`WORDS_PER_OBJECT` glyphs. ``textpage``: the page's raw
    text page when the caller has it open (it is not loaded a second time), else one is loaded."""
    objects = pdfium_c.FPDFPage_CountObjects(page)
    if objects <= 2 * glyphs and objects * WORDS_PER_OBJECT < glyphs:
        return False
    get, kind, text = pdfium_c.FPDFPage_GetObject, pdfium_c.FPDFPageObj_GetType, pdfium_c.FPDF_PAGEOBJ_TEXT
    texts = []
    for i in range(objects):
        obj = get(page, i)
        if kind(obj) == text:
            texts.append(ctypes.cast(obj, ctypes.c_void_p).value)
            if len(texts) > glyphs:
                return True
    if len(texts) < LOST_OBJECTS or len(texts) * WORDS_PER_OBJECT < glyphs:
        return False
    own = textpage is None
    textpage = pdfium_c.FPDFText_LoadPage(page) if own else textpage
    try:
        of_char = pdfium_c.FPDFText_GetTextObject
        read = {
            ctypes.cast(of_char(textpage, i), ctypes.c_void_p).value
            for i in range(pdfium_c.FPDFText_CountChars(textpage))
        }
    finally:
        if own:
            pdfium_c.FPDFText_ClosePage(textpage)
    lost = sum(1 for obj in texts if obj not in read)
    return lost >= LOST_OBJECTS and lost >= LOST_SHARE * len(texts)


def unmapped_share(page: PageGlyphs) -> float:
    """The share of a page's glyphs that have no Unicode mapping."""
    return page.unmapped / len(page.glyphs) if page.glyphs else 0.0


def pages_label(numbers: list[int]) -> str:
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


def extract_pdfplumber(
    source: SourceFile,
    *,
    password: str | None = None,
    limits: Limits = Limits(),
    ocr: OcrSettings = OcrSettings(),
    layout: LayoutSettings = DEFAULT_SETTINGS,
) -> Extraction:
    """pdfminer's characters through pdfplumber. Glyphs pdfminer cannot map to Unicode, and glyphs of
    fonts that carry neither a ToUnicode map nor an encoding (TeX's math fonts: pdfminer reads their
    built-in encoding as a standard one, so ``∈`` comes out as ``2``), are looked up in pdfium, which
    reads those encodings, at the same place on the same page. Pages without a usable text layer
    are read by OCR (``ocr``), rendered by pdfium."""
    import pdfplumber
    from pdfplumber.utils.exceptions import PdfminerException

    from citeline.ingest.extract.guards import check_forms, install_pdfminer_caps, too_large
    from citeline.ingest.extract.plumber_glyphs import fonts_without_unicode, plumber_page

    install_pdfminer_caps()
    check_forms(source.path, source.data)  # the same verdict as pdfium's (which fills unmapped glyphs here)

    other = _OtherBackend(source, password, "pdfium")

    def pages(pdf: Any) -> Iterator[PageGlyphs]:
        for index, page in enumerate(pdf.pages):
            pg = plumber_page(page)
            unsure = fonts_without_unicode(page)
            page.close()  # drop pdfplumber's per-page caches as we go
            if pg.unmapped or (unsure and any(g.font in unsure for g in pg.glyphs)):
                other.fill_unmapped(pg, unsure)
            yield _ocr_page(pg, ocr, source.path, functools.partial(other.pdfium_page, index))

    try:
        with pdfplumber.open(io.BytesIO(source.data), password=password or "") as pdf:
            _check_page_count(source, len(pdf.pages), limits)
            return assemble(
                source, pages(pdf), extractor="pdfplumber", version=pdfplumber.__version__, limits=limits, layout=layout
            )
    except (ExtractionError, MemoryError):
        raise  # a MemoryError is the worker's memory cap, not a damaged file: the pool says so
    except (PdfminerException, Exception) as exc:  # pdfminer raises many unrelated types on damaged files
        capped = too_large(exc)
        if capped is not None:
            raise TooLarge(source.path, capped) from None
        if isinstance(exc, RecursionError):
            raise CorruptFile(source.path, "corrupt PDF (cross-reference loop)") from None
        raise _pdfminer_error(source.path, exc) from None
    finally:
        other.close()


# ----------------------------------------------------------------------------- pdfium


def _pdfium_error(path: str, exc: BaseException) -> ExtractionError:
    msg = str(exc)
    if "password" in msg.lower():
        return Encrypted(path, "encrypted; the password is missing or wrong (use --password)")
    detail = msg.split("(PDFium:", 1)[-1].rstrip(").") if "(PDFium:" in msg else msg
    return CorruptFile(path, f"corrupt PDF ({detail.strip() or type(exc).__name__})")


def extract_pdfium(
    source: SourceFile,
    *,
    password: str | None = None,
    limits: Limits = Limits(),
    ocr: OcrSettings = OcrSettings(),
    layout: LayoutSettings = DEFAULT_SETTINGS,
) -> Extraction:
    """pdfium's character boxes. A page whose text pdfium cannot map (mostly U+FFFD) is read with
    pdfplumber instead when pdfplumber does better, and the version's problems say which pages.
    Pages without a usable text layer are read by OCR (``ocr``)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    from citeline.ingest.extract.guards import PageFlood, check_forms
    from citeline.ingest.extract.pdfium_glyphs import pdfium_page

    check_forms(source.path, source.data)  # pdfium expands forms as it loads a page, without bound
    other = _OtherBackend(source, password, "pdfplumber")
    replaced: list[int] = []
    hopeless: set[str] = set()  # fonts whose glyphs pdfplumber could not map either: not asked again

    def pages(doc: pdfium.PdfDocument) -> Iterator[PageGlyphs]:
        for index in range(len(doc)):
            page = doc[index]
            textpage = None
            try:
                textpage = page.get_textpage()  # one text page for the glyphs and the lost-text count
                pg = pdfium_page(page, index + 1, pdfium_c, textpage)
                lost = lost_text(page.raw, len(pg.glyphs), pdfium_c, textpage.raw)
            finally:
                if textpage is not None:
                    textpage.close()
                page.close()
            if lost:
                # text objects pdfium read no characters from (a CJK font it has no CMap for, an OCR
                # layer's one-letter words)
                better = other.page(index)
                if better is not None and len(better.glyphs) > len(pg.glyphs):
                    replaced.append(pg.number)
                    pg = better
            elif unmapped_share(pg) > UNMAPPED_SHARE:
                fonts = {g.font for g in pg.glyphs if UNMAPPED in g.text}
                if not fonts <= hopeless:  # pdfplumber did no better with these fonts before
                    better = other.page(index)
                    if better is not None and unmapped_share(better) < unmapped_share(pg):
                        replaced.append(pg.number)
                        pg = better
                    else:
                        hopeless.update(fonts)
            yield _ocr_page(pg, ocr, source.path, functools.partial(doc.__getitem__, index))

    try:
        doc = pdfium.PdfDocument(source.data, password=password)
    except pdfium.PdfiumError as exc:
        raise _pdfium_error(source.path, exc) from None
    try:
        _check_page_count(source, len(doc), limits)
        result = assemble(
            source, pages(doc), extractor="pdfium", version=_pdfium_version(), limits=limits, layout=layout
        )
    except ExtractionError:
        raise
    except PageFlood as exc:
        raise TooLarge(source.path, str(exc)) from None
    except pdfium.PdfiumError as exc:
        raise _pdfium_error(source.path, exc) from None
    finally:
        doc.close()
        other.close()
    if replaced:
        note = Problem(
            "page_fallback",
            tuple(replaced),
            f"pdfium could not read or map the text of {pages_label(replaced)}; read with pdfplumber",
        )
        result = dataclasses.replace(result, problems=(*result.problems, note))
    return result


class _OtherBackend:
    """The other parser, opened on the same bytes only when a page needs it."""

    def __init__(self, source: SourceFile, password: str | None, which: str) -> None:
        self.source, self.password, self.which = source, password, which
        self._doc: Any = None
        self._failed = False

    def _open(self) -> Any:
        if self._doc is None and not self._failed:
            try:
                if self.which == "pdfium":
                    import pypdfium2 as pdfium

                    self._doc = pdfium.PdfDocument(self.source.data, password=self.password)
                else:
                    import pdfplumber

                    self._doc = pdfplumber.open(io.BytesIO(self.source.data), password=self.password or "")
            except Exception:  # the other parser cannot read this file: keep what the first one gave
                self._failed = True
        return self._doc

    def pdfium_page(self, index: int) -> Any:
        """Page ``index`` of the file in pypdfium2 (to render it), or ``None``; the caller closes it."""
        doc = self._open() if self.which == "pdfium" else None
        if doc is None:
            return None
        try:
            return doc[index]
        except Exception:
            return None

    def page(self, index: int) -> PageGlyphs | None:
        """Page ``index`` (0-based) as the other parser reads it, or ``None``."""
        doc = self._open()
        if doc is None:
            return None
        try:
            if self.which == "pdfium":
                import pypdfium2.raw as pdfium_c

                from citeline.ingest.extract.pdfium_glyphs import pdfium_page

                page = doc[index]
                try:
                    return pdfium_page(page, index + 1, pdfium_c)
                finally:
                    page.close()
            from citeline.ingest.extract.plumber_glyphs import plumber_page

            plumber = doc.pages[index]
            try:
                return plumber_page(plumber)
            finally:
                plumber.close()
        except Exception:
            return None

    def fill_unmapped(self, pg: PageGlyphs, unsure: frozenset[str] = frozenset()) -> None:
        """Give glyphs without a Unicode mapping, and glyphs of ``unsure`` fonts, the text the other
        parser found at the same spot (a ligature it spells out stays one ligature code point).
        Glyphs drawn at one spot (TeX's ``\\mapsto`` is a bar and an arrow starting at the same x)
        are told apart by where they end, so each takes its own text, not both the first one's."""
        other = self.page(pg.number - 1)
        if other is None:
            return
        cells: dict[tuple[int, int], list[Any]] = {}
        for g in other.glyphs:
            if UNMAPPED not in g.text:
                cells.setdefault((int(g.x0 // 2), int(g.baseline // 2)), []).append(g)
        for k, g in enumerate(pg.glyphs):
            if UNMAPPED not in g.text and g.font not in unsure:
                continue
            cx, cy = int(g.x0 // 2), int(g.baseline // 2)
            best = None
            for key in ((cx + i, cy + j) for i in (-1, 0, 1) for j in (-1, 0, 1)):
                for o in cells.get(key, ()):
                    d = abs(o.x0 - g.x0) + abs(o.baseline - g.baseline)
                    if d < 1.5:
                        score = d + _END_WEIGHT * abs(o.x1 - g.x1)
                        if best is None or score < best[0]:
                            best = (score, o)
            if best is not None and best[1].text != LIGATURES.get(g.text):
                pg.glyphs[k] = g._replace(text=best[1].text)
        pg.unmapped = sum(1 for g in pg.glyphs if UNMAPPED in g.text)

    def close(self) -> None:
        if self._doc is not None:
            self._doc.close()
            self._doc = None


#: How much a difference in where two glyphs end counts against their match, beside where they
#: start and their baseline (within 1.5 points together).
_END_WEIGHT = 0.1


def _pdfium_version() -> str:
    import pypdfium2 as pdfium

    return f"pypdfium2 {pdfium.version.PYPDFIUM_INFO} / pdfium {pdfium.version.PDFIUM_INFO}"


# ----------------------------------------------------------------------------- one page's glyphs


def page_glyphs(source: SourceFile, number: int, *, extractor: str = "auto", password: str | None = None) -> PageGlyphs:
    """The glyphs and rules of page ``number`` (1-based) as ``extractor`` reads them (``auto``:
    pdfplumber), before layout: what ``--debug-layout`` lays out and draws. A page number past the
    end is a :class:`~citeline.ingest.errors.PageOutOfRange`."""
    from citeline.ingest.errors import PageOutOfRange

    if extractor == "pdfium":
        import pypdfium2 as pdfium
        import pypdfium2.raw as pdfium_c

        from citeline.ingest.extract.pdfium_glyphs import pdfium_page

        try:
            doc = pdfium.PdfDocument(source.data, password=password)
        except pdfium.PdfiumError as exc:
            raise _pdfium_error(source.path, exc) from None
        try:
            if not 1 <= number <= len(doc):
                raise PageOutOfRange(source.path, f"has no page {number} (pages: 1-{len(doc)})")
            page = doc[number - 1]
            try:
                return pdfium_page(page, number, pdfium_c)
            finally:
                page.close()
        finally:
            doc.close()
    import pdfplumber

    from citeline.ingest.extract.guards import install_pdfminer_caps
    from citeline.ingest.extract.plumber_glyphs import plumber_page

    install_pdfminer_caps()
    try:
        with pdfplumber.open(io.BytesIO(source.data), password=password or "") as pdf:
            if not 1 <= number <= len(pdf.pages):
                raise PageOutOfRange(source.path, f"has no page {number} (pages: 1-{len(pdf.pages)})")
            return plumber_page(pdf.pages[number - 1])
    except ExtractionError:
        raise
    except Exception as exc:  # pdfminer raises many unrelated types on damaged files
        raise _pdfminer_error(source.path, exc) from None
