"""HTML, DOCX, PPTX, ODT, EPUB and EML through unstructured, fully offline.

unstructured reaches the network in three places for these formats (unstructured 0.27): a telemetry
ping at import, a telemetry ping per partition call, and a download of the spaCy model
``en_core_web_sm`` (from GitHub, installed into site-packages) on the first text classification.
citeline turns all three off:

* ``DO_NOT_TRACK``/``SCARF_NO_ANALYTICS``/``UNSTRUCTURED_DISABLE_NOTICE`` are set when this module is
  imported, before unstructured is (nothing else in citeline imports unstructured);
* the model downloader ``unstructured.nlp.tokenize._install_spacy_model`` is replaced by one that
  raises, and the loader ``_get_nlp`` by citeline's: ``en_core_web_sm`` when it is installed and
  loads, otherwise a blank spaCy English pipeline with a rule-based sentencizer. Text, titles, lists,
  tables, headers and footers are unaffected; without part-of-speech tags some one-sentence
  paragraphs are classified ``UncategorizedText`` rather than ``NarrativeText``, which citeline does
  not depend on. Install the model (``pip install en_core_web_sm-3.8.0-py3-none-any.whl``) to get
  unstructured's own classification. :func:`offline_mode` says which one is in use, and
  ``Extraction.extractor_version`` records it.

Two more hooks (on unstructured's private PPTX partitioner; each is skipped if the name is gone)
make slides come out as a reader sees them: a paragraph that shows a bullet inherited from its
layout or master is a ``ListItem`` (unstructured only sees bullets set on the paragraph itself), and
text in the footer, date and slide-number placeholders is a ``Footer``/``PageNumber``.

The raw stream is the element texts (stripped; a form feed inside one becomes ``"\\n"``) joined with a
blank line, and with ``"\\f"`` where the page changes: PPTX slides, and DOCX pages when the file
records rendered page breaks. Page numbers are the format's own (slide 3 is page 3; a slide without
text is an empty page). ``Extraction.elements`` gives each element's kind (unstructured's category,
e.g. ``Title``, ``NarrativeText``, ``UncategorizedText``, ``ListItem``, ``Table``) and raw span.
``Header``, ``Footer`` and ``PageNumber`` elements stay in the stream and are listed in
``Extraction.furniture``, so cleaning removes them and keeps their spans. In HTML, unstructured reads
only ``<main>`` when there is one (page headers and footers are then not extracted at all); without
``<main>`` the page-level ``<header>``/``<footer>`` (not those of an ``<article>`` or ``<section>``)
are extracted and marked as furniture. EML attachments are not extracted.
"""

from __future__ import annotations

import codecs
import importlib
import importlib.metadata
import importlib.util
import io
import logging
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from citeline.ingest.errors import CorruptFile, ExtractionError, MissingDependency
from citeline.ingest.extract.files import DOCX, EML, EPUB, HTML, MEDIA_TYPES, ODT, PPTX, SourceFile
from citeline.ingest.extract.model import FOOTER, HEADER, PAGE_NUMBER, Element, Extraction, Furniture, Page, Problem

log = logging.getLogger(__name__)

_FURNITURE_KINDS = {"Header": HEADER, "Footer": FOOTER, "PageNumber": PAGE_NUMBER}
#: The spaCy model unstructured wants, and the components it leaves out when loading it.
_SPACY_MODEL = "en_core_web_sm"
_SPACY_EXCLUDE = ["ner", "lemmatizer", "attribute_ruler"]

_lock = threading.RLock()
_installed = False
_nlp_mode: str | None = None  # "model" or "blank" once the pipeline has been built


def _quiet_environment() -> None:
    """Opt out of unstructured's telemetry and usage notice (read at import and on every call)."""
    for var in ("DO_NOT_TRACK", "SCARF_NO_ANALYTICS"):
        if not os.environ.get(var, "").strip():
            os.environ[var] = "1"
    os.environ["UNSTRUCTURED_DISABLE_NOTICE"] = "1"


# unstructured pings its telemetry endpoint when first imported unless these are set by then
_IMPORTED_UNGUARDED = "unstructured" in sys.modules and not (
    os.environ.get("DO_NOT_TRACK", "").strip() or os.environ.get("SCARF_NO_ANALYTICS", "").strip()
)
_quiet_environment()


class SpacyDownloadBlocked(RuntimeError):
    """unstructured tried to download its spaCy model; citeline never lets it."""


def offline_mode() -> str:
    """``"model"`` when en_core_web_sm is installed (and, once used, loaded), else ``"blank"``."""
    if _nlp_mode is not None:
        return _nlp_mode
    return "model" if importlib.util.find_spec(_SPACY_MODEL) is not None else "blank"


def _build_nlp() -> Any:
    """en_core_web_sm as unstructured would load it, or the blank English pipeline + sentencizer."""
    global _nlp_mode
    import spacy

    if importlib.util.find_spec(_SPACY_MODEL) is not None:
        try:
            nlp = spacy.load(_SPACY_MODEL, exclude=_SPACY_EXCLUDE)
        except Exception as exc:  # a broken or incompatible model: use the offline substitute
            log.warning("cannot load spaCy model %s (%s); using a blank pipeline", _SPACY_MODEL, exc)
        else:
            _nlp_mode = "model"
            return nlp
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    _nlp_mode = "blank"
    return nlp


def install_offline_hooks() -> None:
    """Make unstructured safe to use without network (telemetry off, spaCy download disabled). Idempotent."""
    global _installed
    with _lock:
        if _installed:
            return
        if _IMPORTED_UNGUARDED:
            log.warning("unstructured was imported before citeline could disable its telemetry")
        _quiet_environment()
        from unstructured.nlp import tokenize

        def _no_download(*_args: object, **_kwargs: object) -> None:
            raise SpacyDownloadBlocked(
                f"citeline runs unstructured offline: downloading spaCy model {_SPACY_MODEL} is disabled"
            )

        nlp: list[Any] = []

        def _get_nlp() -> Any:
            if not nlp:
                with _lock:
                    if not nlp:
                        nlp.append(_build_nlp())
            return nlp[0]

        # rebinding the module attributes is enough: unstructured looks both up on every call
        for attr, hook in (("_install_spacy_model", _no_download), ("_get_nlp", _get_nlp)):
            setattr(tokenize, attr, hook)
        for cached in ("_process_cached", "word_tokenize", "pos_tag", "_tokenize_for_cache"):
            clear = getattr(getattr(tokenize, cached, None), "cache_clear", None)
            if clear is not None:
                clear()
        _installed = True


def unstructured_version() -> str:
    try:
        return importlib.metadata.version("unstructured")
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


# -- partitioning ------------------------------------------------------------------------------------

#: Keyword arguments for every partitioner. ``languages`` only feeds ``metadata.languages``, which
#: citeline does not keep; naming it skips langdetect (a third of a second on first use).
_COMMON: dict[str, Any] = {"languages": ["eng"]}


def _partitioner(fmt: str) -> Callable[..., list[Any]]:
    """unstructured's partition function for ``fmt`` (imported here, so a missing extra names itself)."""
    if fmt == HTML:
        from unstructured.partition.html import partition_html

        return partition_html
    if fmt == DOCX:
        from unstructured.partition.docx import partition_docx

        return partition_docx
    if fmt == PPTX:
        from unstructured.partition.pptx import partition_pptx

        _install_pptx_hooks()
        return partition_pptx
    if fmt == ODT:
        from unstructured.partition.odt import partition_odt

        return partition_odt
    if fmt == EPUB:
        from unstructured.partition.epub import partition_epub

        return partition_epub
    if fmt == EML:
        from unstructured.partition.email import partition_email

        return partition_email
    raise ValueError(f"not an unstructured format: {fmt!r}")  # pragma: no cover - dispatcher checks


def _one_line(exc: BaseException, limit: int = 200) -> str:
    text = str(exc).strip()
    first = text.splitlines()[0] if text else ""
    detail = " ".join(first.split())[:limit]
    return f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__


def extract_unstructured(source: SourceFile) -> Extraction:
    """Partition one HTML, DOCX, PPTX, ODT, EPUB or EML file into an :class:`Extraction`."""
    fmt = source.format
    name = fmt.upper()
    try:
        install_offline_hooks()
        partition = _partitioner(fmt)
    except ImportError as exc:
        raise MissingDependency(
            source.path, f"{name} needs {exc.name or 'unstructured'} ({exc}); pip install 'citeline[formats]'"
        ) from None

    problems: list[Problem] = []
    html_furniture: list[tuple[str, list[str]]] = []
    kwargs: dict[str, Any] = {"metadata_filename": source.path, **_COMMON}
    if fmt == HTML:
        text, problems = _decode_html(source.data)
        kwargs["text"] = text
    else:
        kwargs["file"] = io.BytesIO(source.data)
    if fmt == EML:
        kwargs["process_attachments"] = False
    try:
        elements = partition(**kwargs)
    except ExtractionError:
        raise
    except SpacyDownloadBlocked:
        raise MissingDependency(
            source.path, f"spaCy model {_SPACY_MODEL} is installed but unusable, and downloads are disabled"
        ) from None
    except ImportError as exc:
        raise MissingDependency(
            source.path, f"{name} needs module {exc.name!r}; pip install 'citeline[formats]'"
        ) from None
    except OSError as exc:
        if "pandoc" in str(exc).lower() and fmt in (ODT, EPUB):
            raise MissingDependency(
                source.path, f"{name} needs pandoc; pip install pypandoc_binary ({_one_line(exc)})"
            ) from None
        raise CorruptFile(source.path, f"cannot parse {name} ({_one_line(exc)})") from None
    except MemoryError:
        raise  # the worker's memory cap, not a damaged file: the pool says so
    except Exception as exc:  # unstructured raises unrelated types on damaged files
        raise CorruptFile(source.path, f"cannot parse {name} ({_one_line(exc)})") from None
    if fmt == HTML:
        try:
            html_furniture = _html_page_furniture(kwargs["text"], partition)
        except Exception as exc:  # best effort: without it the header and footer stay body text
            log.warning("%s: page header/footer detection failed (%s)", source.path, _one_line(exc))
    return _assemble(source, elements, html_furniture, problems)


def _assemble(
    source: SourceFile,
    elements: Sequence[Any],
    html_furniture: Sequence[tuple[str, list[str]]],
    problems: list[Problem],
) -> Extraction:
    """Join element texts into the raw stream, with page breaks, element spans and furniture."""
    texts = [(el.text or "").replace("\f", "\n").strip() for el in elements]
    kinds = [str(getattr(el, "category", None) or type(el).__name__) for el in elements]
    for kind, fragment in html_furniture:
        _mark_run(texts, kinds, fragment, kind)

    parts: list[str] = []
    records: list[Element] = []
    furniture: list[Furniture] = []
    pages: list[Page] = []
    pos = 0
    page_no = 1
    page_start = 0
    page_has_text = False

    # nothing runs on from one slide to the next: end a slide with a paragraph break, so cleaning
    # does not join its last line to the next slide's title (a bare "\f" joins lines that lack
    # sentence-final punctuation, as a sentence running over a PDF or DOCX page must)
    slide_gap = "\n\n" if source.format == PPTX else ""

    def next_page() -> None:
        nonlocal pos, page_no, page_start, page_has_text
        if page_has_text and slide_gap:
            parts.append(slide_gap)
            pos += len(slide_gap)
        pages.append(Page(page_no, 0.0, 0.0, page_start, pos, has_text=page_has_text))
        parts.append("\f")
        pos += 1
        page_no += 1
        page_start = pos
        page_has_text = False

    for el, text, kind in zip(elements, texts, kinds, strict=True):
        number = getattr(el.metadata, "page_number", None)
        if kind == "PageBreak":
            # PPTX: the break before slide n + 1 carries n, so a trailing slide without text still
            # becomes a page; DOCX breaks carry no number (the next element's number says it)
            if isinstance(number, int) and number >= page_no:
                while page_no <= number:
                    next_page()
            continue
        if isinstance(number, int):
            while page_no < number:
                next_page()
        if not text:
            continue
        if page_has_text:
            parts.append("\n\n")
            pos += 2
        records.append(Element(kind, pos, pos + len(text), page_no))
        if kind in _FURNITURE_KINDS:
            furniture.append(Furniture(_FURNITURE_KINDS[kind], pos, pos + len(text), page_no, text))
        parts.append(text)
        pos += len(text)
        page_has_text = True
    pages.append(Page(page_no, 0.0, 0.0, page_start, pos, has_text=page_has_text))
    if not records:
        problems.append(Problem("no_text", (), f"{source.format.upper()} file has no text"))
    return Extraction(
        path=source.path,
        raw="".join(parts),
        pages=tuple(pages),
        lines=(),
        content_sha256=source.sha256,
        extractor="unstructured",
        extractor_version=f"{unstructured_version()} ({offline_mode()} spaCy)",
        media_type=MEDIA_TYPES[source.format],
        file_size=source.size,
        elements=tuple(records),
        furniture=tuple(furniture),
        problems=tuple(problems),
    )


# -- HTML --------------------------------------------------------------------------------------------

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.IGNORECASE)
_XML_DECLARATION = re.compile(r"\A\s*<\?xml[^>]*\?>")
#: Labels browsers read as Windows-1252 (WHATWG Encoding Standard).
_CP1252_LABELS = {"iso-8859-1", "iso8859-1", "latin1", "latin-1", "us-ascii", "ascii", "windows-1252"}


def _decode_html(data: bytes) -> tuple[str, list[Problem]]:
    """Decode HTML bytes: a byte-order mark, else UTF-8, else the declared charset, else Windows-1252.

    unstructured would guess with charset-normalizer, which misreads short Latin-1 pages.
    """
    if data.startswith(codecs.BOM_UTF8):
        text = data[3:].decode("utf-8", errors="replace")
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16", errors="replace")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            declared = _META_CHARSET.search(data[:4096])
            label = declared.group(1).decode("ascii").lower() if declared else ""
            if label in _CP1252_LABELS:
                label = "cp1252"
            try:
                codecs.lookup(label)
            except LookupError:
                label = ""
            if label:
                text = data.decode(label, errors="replace")
            else:
                text = data.decode("cp1252", errors="replace")
                note = f"not valid UTF-8 at byte {exc.start} and no charset declared; decoded as Windows-1252"
                return _XML_DECLARATION.sub("", text, count=1), [Problem("not_utf8", (), note)]
    # lxml refuses str input that carries an XML encoding declaration; the bytes are decoded already
    return _XML_DECLARATION.sub("", text, count=1), []


#: Where a <header>/<footer> stops belonging to the page (HTML sectioning content and roots).
_SECTIONING = frozenset(
    {"article", "aside", "nav", "section", "blockquote", "details", "dialog", "fieldset", "figure", "td"}
)


def _html_page_furniture(html: str, partition: Callable[..., list[Any]]) -> list[tuple[str, list[str]]]:
    """``(kind, element texts)`` of each page-level ``<header>``/``<footer>``, in document order.

    Only needed when the page has no ``<main>``: with one, unstructured reads only ``<main>``.
    """
    if "<header" not in html.lower() and "<footer" not in html.lower():
        return []
    lxml_etree: Any = importlib.import_module("lxml.etree")  # a dependency of unstructured; no stubs
    lxml_html: Any = importlib.import_module("lxml.html")

    try:
        root = lxml_html.document_fromstring(html)
    except (lxml_etree.ParserError, ValueError):
        return []
    if root.find(".//main") is not None:
        return []
    found: list[tuple[str, list[str]]] = []
    for node in root.iter("header", "footer"):
        anc = node.getparent()
        while anc is not None and anc.tag not in _SECTIONING and anc.tag not in ("header", "footer", "body"):
            anc = anc.getparent()
        if anc is not None and anc.tag != "body":
            continue  # inside an article, a section, or another header/footer
        fragment = lxml_html.tostring(node, encoding="unicode", with_tail=False)
        texts = [
            t for el in partition(text=f"<html><body>{fragment}</body></html>", **_COMMON) if (t := el.text.strip())
        ]
        if texts:
            found.append(("Header" if node.tag == "header" else "Footer", texts))
    return found


def _mark_run(texts: list[str], kinds: list[str], run: list[str], kind: str) -> None:
    """Relabel a run of unmarked elements whose texts are ``run`` as ``kind``: the first such run for
    a header, the last for a footer (the same words may also occur in the body)."""
    n = len(run)
    starts = range(len(texts) - n + 1)
    for i in reversed(starts) if kind == "Footer" else starts:
        if texts[i : i + n] == run and not any(k in _FURNITURE_KINDS for k in kinds[i : i + n]):
            kinds[i : i + n] = [kind] * n
            return


# -- PPTX --------------------------------------------------------------------------------------------

_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_P = "http://schemas.openxmlformats.org/presentationml/2006/main"
_NS = {"a": _A, "p": _P}
_PPTX_FURNITURE = {"ftr": "Footer", "dt": "Footer", "sldNum": "PageNumber"}
_pptx_hooked = False


def _bullet_setting(ppr: Any) -> bool | None:
    """True/False when paragraph properties set or suppress a bullet, None when they are silent."""
    if ppr is None:
        return None
    for child in ppr:
        name = child.tag.rsplit("}", 1)[-1] if isinstance(child.tag, str) else ""
        if name == "buNone":
            return False
        if name in ("buChar", "buAutoNum", "buBlip"):
            return True
    return None


def _placeholder(shape_xml: Any) -> Any:
    return shape_xml.find("p:nvSpPr/p:nvPr/p:ph", _NS)


def _shows_bullet(paragraph: Any) -> bool:
    """Whether PowerPoint draws a bullet before ``paragraph``, following the inheritance chain:
    the paragraph, its shape's list style, the layout placeholder, the master placeholder and the
    master's text styles."""
    p = paragraph._p
    own = _bullet_setting(p.find("a:pPr", _NS))
    if own is not None:
        return own
    level = f"a:lvl{min(max(int(paragraph.level or 0), 0), 8) + 1}pPr"
    shape = p.getparent().getparent()  # a:p -> p:txBody -> p:sp
    ph = _placeholder(shape)
    if ph is None:
        return bool(_bullet_setting(shape.find(f"p:txBody/a:lstStyle/{level}", _NS)))
    ph_type, idx = ph.get("type", "obj"), ph.get("idx", "0")
    master_type = {"ctrTitle": "title", "obj": "body", "subTitle": "body"}.get(ph_type, ph_type)
    layout = paragraph.part.slide_layout
    master = layout.slide_master
    chain = [shape]
    for sp in layout._element.iterfind(".//p:sp", _NS):
        lay_ph = _placeholder(sp)
        if lay_ph is not None and lay_ph.get("idx", "0") == idx:
            chain.append(sp)
            break
    for sp in master._element.iterfind(".//p:sp", _NS):
        mas_ph = _placeholder(sp)
        if (
            mas_ph is not None
            and {"ctrTitle": "title", "obj": "body"}.get(mas_ph.get("type", "obj"), mas_ph.get("type", "obj"))
            == master_type
        ):
            chain.append(sp)
            break
    for sp in chain:
        found = _bullet_setting(sp.find(f"p:txBody/a:lstStyle/{level}", _NS))
        if found is not None:
            return found
    style = {"title": "p:titleStyle", "body": "p:bodyStyle"}.get(master_type, "p:otherStyle")
    return bool(_bullet_setting(master._element.find(f"p:txStyles/{style}/{level}", _NS)))


def _install_pptx_hooks() -> None:
    """Inherited bullets make ``ListItem``; footer, date and slide-number placeholders are furniture."""
    global _pptx_hooked
    with _lock:
        if _pptx_hooked:
            return
        _pptx_hooked = True
        try:
            from unstructured.documents.elements import Footer, PageNumber
            from unstructured.partition import pptx as upptx

            cls = upptx._PptxPartitioner
            is_bulleted = cls._is_bulleted_paragraph
            iter_shape = cls._iter_shape_elements
        except (ImportError, AttributeError) as exc:  # another unstructured version: keep its behaviour
            log.warning("unstructured PPTX hooks not installed (%s)", exc)
            return
        furniture_types = {"Footer": Footer, "PageNumber": PageNumber}

        def _is_bulleted_paragraph(self: Any, paragraph: Any) -> bool:
            if is_bulleted(self, paragraph):
                return True
            try:
                return _shows_bullet(paragraph)
            except Exception:  # unusual XML: fall back to unstructured's answer
                return False

        def _iter_shape_elements(self: Any, shape: Any) -> Iterator[Any]:
            try:
                ph = _placeholder(shape._element)
                kind = _PPTX_FURNITURE.get(ph.get("type", "")) if ph is not None else None
            except Exception:
                kind = None
            for el in iter_shape(self, shape):
                if kind is None:
                    yield el
                else:
                    yield furniture_types[kind](text=el.text, metadata=el.metadata)

        for attr, hook in (
            ("_is_bulleted_paragraph", _is_bulleted_paragraph),
            ("_iter_shape_elements", _iter_shape_elements),
        ):
            setattr(cls, attr, hook)
