"""HTML, DOCX, PPTX, ODT, EPUB and EML through unstructured, fully offline.

unstructured reaches the network in three places for these formats (unstructured 0.27): a telemetry
ping at import, a telemetry ping per partition call, and a download of the spaCy model
``en_core_web_sm`` on the first text classification. citeline turns all three off:

* ``DO_NOT_TRACK``/``SCARF_NO_ANALYTICS``/``UNSTRUCTURED_DISABLE_NOTICE`` are set before unstructured
  is first imported;
* when ``en_core_web_sm`` is not installed, unstructured gets a blank spaCy English pipeline with a
  rule-based sentencizer instead (its loader ``unstructured.nlp.tokenize._get_nlp`` is replaced and
  its downloader disabled). Text, titles, lists, tables, headers and footers are unaffected; without
  part-of-speech tags some one-sentence paragraphs are classified ``UncategorizedText`` rather than
  ``NarrativeText``, which citeline does not depend on. Install the model
  (``pip install en_core_web_sm-3.8.0-py3-none-any.whl``) to get unstructured's own classification.

Elements are joined into the raw stream with a blank line between them and ``"\\f"`` where the page
(slide) number changes; raw offsets index that stream. ``Header``, ``Footer`` and ``PageNumber``
elements stay in the stream and are passed to the furniture transform as known furniture.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import io
import os
from typing import Any

from ingest.clean.furniture import FOOTER, HEADER, PAGE_NUMBER, Furniture
from ingest.errors import CorruptFile, ExtractionError, MissingDependency
from ingest.extract.files import EML, MEDIA_TYPES, SourceFile
from ingest.extract.model import Element, Extraction, Page

_FURNITURE_KINDS = {"Header": HEADER, "Footer": FOOTER, "PageNumber": PAGE_NUMBER}
_installed = False


def offline_mode() -> str:
    """``"model"`` when en_core_web_sm is installed, else ``"blank"`` (the offline substitute)."""
    return "model" if importlib.util.find_spec("en_core_web_sm") is not None else "blank"


def install_offline_hooks() -> None:
    """Make unstructured safe to use without network. Idempotent."""
    global _installed
    if _installed:
        return
    for var in ("DO_NOT_TRACK", "SCARF_NO_ANALYTICS"):
        if not os.environ.get(var, "").strip():
            os.environ[var] = "1"
    os.environ["UNSTRUCTURED_DISABLE_NOTICE"] = "1"
    from unstructured.nlp import tokenize

    def _no_download() -> None:
        raise RuntimeError("citeline runs unstructured offline: spaCy model download disabled")

    tokenize._install_spacy_model = _no_download
    if offline_mode() == "blank":
        import spacy

        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")
        tokenize._get_nlp = lambda: nlp  # type: ignore[assignment]  # replaces an lru_cache wrapper
        for cached in (
            tokenize._process_cached,
            tokenize.word_tokenize,
            tokenize.pos_tag,
            tokenize._tokenize_for_cache,
        ):
            cached.cache_clear()
    _installed = True


def unstructured_version() -> str:
    try:
        return importlib.metadata.version("unstructured")
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def extract_unstructured(source: SourceFile) -> Extraction:
    try:
        install_offline_hooks()
        from unstructured.partition.auto import partition
    except ImportError as exc:
        raise MissingDependency(
            source.path,
            f"{source.format.upper()} needs unstructured ({exc.name or exc}); "
            "pip install 'citeline[formats]'",
        ) from None

    kwargs: dict[str, Any] = {}
    if source.format == EML:
        kwargs["process_attachments"] = False
    try:
        elements = partition(
            file=io.BytesIO(source.data),
            metadata_filename=source.path,
            content_type=MEDIA_TYPES[source.format],
            **kwargs,
        )
    except ExtractionError:
        raise
    except ImportError as exc:
        raise MissingDependency(
            source.path, f"missing module {exc.name!r}; pip install 'citeline[formats]'"
        ) from None
    except Exception as exc:  # unstructured raises unrelated types on damaged files
        detail = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
        raise CorruptFile(source.path, f"cannot parse {source.format.upper()} ({detail})") from None

    parts: list[str] = []
    records: list[Element] = []
    furniture: list[Furniture] = []
    pages: list[Page] = []
    pos = 0
    page_no: int | None = None
    page_start = 0
    for el in elements:
        text = (el.text or "").strip()
        if not text or type(el).__name__ == "PageBreak":
            continue
        el_page = getattr(el.metadata, "page_number", None)
        if parts:
            sep = "\f" if el_page is not None and page_no is not None and el_page != page_no else "\n\n"
            if sep == "\f":
                pages.append(Page(len(pages) + 1, 0.0, 0.0, page_start, pos))
                page_start = pos + 1
            parts.append(sep)
            pos += len(sep)
        if el_page is not None:
            page_no = el_page
        kind = type(el).__name__
        n_page = len(pages) + 1
        records.append(Element(kind, pos, pos + len(text), n_page))
        if kind in _FURNITURE_KINDS:
            furniture.append(Furniture(_FURNITURE_KINDS[kind], pos, pos + len(text), n_page, text))
        parts.append(text)
        pos += len(text)
    pages.append(Page(len(pages) + 1, 0.0, 0.0, page_start, pos, has_text=bool(parts)))
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
    )
