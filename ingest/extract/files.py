"""Reading a file once, hashing it, and recognising its format from magic bytes."""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ingest.errors import EmptyFile, FileMissing, FileUnreadable, NotAPdf, TooLarge, UnsupportedFormat

#: Formats citeline reads, by the name used in ``--extractor auto`` decisions and in the store.
PDF, TEXT, MARKDOWN, HTML, DOCX, PPTX, ODT, EPUB, EML = (
    "pdf",
    "text",
    "markdown",
    "html",
    "docx",
    "pptx",
    "odt",
    "epub",
    "eml",
)
MEDIA_TYPES = {
    PDF: "application/pdf",
    TEXT: "text/plain",
    MARKDOWN: "text/markdown",
    HTML: "text/html",
    DOCX: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    PPTX: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ODT: "application/vnd.oasis.opendocument.text",
    EPUB: "application/epub+zip",
    EML: "message/rfc822",
}
UNSTRUCTURED_FORMATS = frozenset({HTML, DOCX, PPTX, ODT, EPUB, EML})


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on what one document may cost. Exceeding one is a ``too_large`` or ``timeout`` error."""

    max_file_bytes: int = 1 << 30  # 1 GiB
    max_pages: int = 20_000
    #: PDF's own limit on a page side without UserUnit (200 inches); anything larger is absurd
    max_page_side: float = 14_400.0
    #: seconds one document may take; enforced by the isolated runner (see ``ingest.extract.isolate``)
    timeout: float = 300.0


@dataclass(frozen=True, slots=True)
class SourceFile:
    path: str
    data: bytes
    sha256: str
    format: str

    @property
    def size(self) -> int:
        return len(self.data)


def sha256_file(path: str | os.PathLike[str], *, chunk: int = 1 << 20) -> str:
    """Hex sha256 of a file's bytes, read in chunks (what the ingester compares to skip a file)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def read_source(path: str | os.PathLike[str], *, limits: Limits = Limits()) -> SourceFile:
    """Read a file once: bytes, sha256 and sniffed format. Raises a one-line :class:`ExtractionError`."""
    p = str(path)
    try:
        size = os.stat(p).st_size
    except FileNotFoundError:
        raise FileMissing(p, "no such file") from None
    except OSError as exc:
        raise FileUnreadable(p, f"cannot read file ({exc.strerror or exc})") from None
    if Path(p).is_dir():
        raise FileUnreadable(p, "is a directory")
    if size > limits.max_file_bytes:
        raise TooLarge(p, f"file is {size:,} bytes, above the limit of {limits.max_file_bytes:,}")
    try:
        with open(p, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise FileUnreadable(p, f"cannot read file ({exc.strerror or exc})") from None
    if not data:
        raise EmptyFile(p, "file is empty (0 bytes)")
    return SourceFile(p, data, hashlib.sha256(data).hexdigest(), sniff_format(p, data))


def sniff_format(path: str, data: bytes) -> str:
    """The format from magic bytes first, the extension only to tell text flavours apart."""
    head = data[:2048]
    if b"%PDF-" in head[:1024]:
        return PDF
    ext = Path(path).suffix.lower()
    if head.startswith(b"PK\x03\x04"):
        return _zip_format(path, data)
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        raise UnsupportedFormat(path, "legacy Office (OLE) file; convert it to DOCX/PPTX first")
    text = _as_text(head)
    if text is None:
        raise UnsupportedFormat(path, "unrecognised binary format")
    lowered = text.lstrip("\ufeff \t\r\n").lower()
    if ext in (".html", ".htm", ".xhtml") or lowered.startswith(("<!doctype html", "<html")):
        return HTML
    if ext == ".eml" or _looks_like_email(text):
        return EML
    if ext in (".md", ".markdown", ".mdown", ".mkd"):
        return MARKDOWN
    if ext == ".pdf":
        raise NotAPdf(path, "not a PDF (no %PDF- header; the file holds text)")
    return TEXT


def _as_text(head: bytes) -> str | None:
    if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None
    for enc in ("utf-8", "utf-16"):
        try:
            return head.decode(enc)
        except UnicodeDecodeError as exc:
            if enc == "utf-8" and exc.start >= len(head) - 4:  # a character cut by the 2 KB window
                return head[: exc.start].decode(enc)
    printable = sum(1 for b in head if b >= 32 or b in (9, 10, 13, 12))
    return head.decode("latin-1") if printable >= 0.95 * len(head) else None


def _looks_like_email(text: str) -> bool:
    first = text.splitlines()[:30]
    headers = {ln.split(":", 1)[0].strip().lower() for ln in first if ":" in ln and not ln.startswith(" ")}
    return len(headers & {"from", "to", "subject", "date", "mime-version", "message-id", "received"}) >= 3


def _zip_format(path: str, data: bytes) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = set(zf.namelist())
            if "mimetype" in names:
                mt = zf.read("mimetype").decode("ascii", "replace").strip()
                if mt == "application/epub+zip":
                    return EPUB
                if mt == "application/vnd.oasis.opendocument.text":
                    return ODT
                raise UnsupportedFormat(path, f"unsupported OpenDocument/zip type {mt!r}")
            if "word/document.xml" in names:
                return DOCX
            if "ppt/presentation.xml" in names:
                return PPTX
            if "xl/workbook.xml" in names:
                raise UnsupportedFormat(path, "spreadsheets (XLSX) are not supported")
    except zipfile.BadZipFile:
        raise UnsupportedFormat(path, "damaged zip container") from None
    raise UnsupportedFormat(path, "zip archive that is not DOCX, PPTX, ODT or EPUB")
