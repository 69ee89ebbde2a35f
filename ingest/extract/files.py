"""Reading a file once, hashing it, and recognising its format from magic bytes."""

from __future__ import annotations

import hashlib
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path

from citeline.ingest.errors import (
    CorruptFile,
    EmptyFile,
    Encrypted,
    FileMissing,
    FileUnreadable,
    NotAPdf,
    TooLarge,
    UnsupportedFormat,
)

#: Formats citeline reads, by the name used in ``--extractor auto`` decisions and in the store.
PDF, TEXT, MARKDOWN, HTML, DOCX, PPTX, ODT, EPUB, EML, PNG, JPEG, TIFF = (
    "pdf",
    "text",
    "markdown",
    "html",
    "docx",
    "pptx",
    "odt",
    "epub",
    "eml",
    "png",
    "jpeg",
    "tiff",
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
    PNG: "image/png",
    JPEG: "image/jpeg",
    TIFF: "image/tiff",
}
UNSTRUCTURED_FORMATS = frozenset({HTML, DOCX, PPTX, ODT, EPUB, EML})
#: Images: read by OCR, one page per image (per frame of a multi-page TIFF).
IMAGE_FORMATS = frozenset({PNG, JPEG, TIFF})
IMAGE_MEDIA_TYPES = frozenset(MEDIA_TYPES[f] for f in IMAGE_FORMATS)


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on what one document may cost. Exceeding one is a ``too_large`` or ``timeout`` error."""

    max_file_bytes: int = 1 << 30  # 1 GiB
    max_pages: int = 20_000
    #: PDF's own limit on a page side without UserUnit (200 inches); anything larger is absurd
    max_page_side: float = 14_400.0
    #: seconds one document may take; enforced by the isolated runner (see ``citeline.ingest.isolate``)
    timeout: float = 300.0
    #: what the members of a DOCX, PPTX, ODT or EPUB may hold unzipped, in all, by the zip directory
    #: (read before any member is): the largest real ones hold tens of MB; a 1.6 MB EPUB held 1 GB
    max_unzipped_bytes: int = 512 * 1024 * 1024
    #: bytes of memory one extraction worker may use (``--max-memory``), applied as a resource limit
    #: in the worker process; ``None``: :func:`default_max_memory` for the number of workers
    max_memory: int | None = None


#: Share of the machine's memory the extraction workers of one run may use between them.
MEMORY_SHARE = 0.75
#: No worker's cap is below this (the parsers alone take about 300 MB).
MIN_MEMORY = 1 << 30


def default_max_memory(workers: int) -> int:
    """Each worker's memory cap when ``--max-memory`` is not given: :data:`MEMORY_SHARE` of the
    machine's physical memory, split between ``workers``, and at least :data:`MIN_MEMORY`."""
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX system that tells
        physical = 8 << 30
    return max(MIN_MEMORY, int(physical * MEMORY_SHARE / max(1, workers)))


def format_bytes(n: int) -> str:
    """``1.5 GB``, ``512 MB``: a cap as a message names it."""
    return f"{n / (1 << 30):.1f} GB" if n >= 1 << 30 else f"{n / (1 << 20):.0f} MB"


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
    """Hex sha256 of a file's bytes, read in chunks (what the ingester compares to skip a file).
    Only a regular file is read (after following links): a FIFO would block the read forever and a
    device never end, so either raises ``OSError``."""
    with _open_regular(str(path)) as fh:
        h = hashlib.sha256()
        while block := fh.read(chunk):
            h.update(block)
        return h.hexdigest()


def _open_regular(path: str) -> io.BufferedReader:
    """Open a regular file for reading without ever blocking on a FIFO (``O_NONBLOCK`` for the open,
    then a check of what was opened)."""
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise IsADirectoryError(21, "is a directory") if stat.S_ISDIR(mode) else NotARegularFile(_kind(mode))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class NotARegularFile(OSError):
    """What is at the path is a FIFO, a device or a socket: never a document."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"not a regular file but {kind}")
        self.strerror = f"not a regular file but {kind}"


def _kind(mode: int) -> str:
    import stat

    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a file"


def read_source(path: str | os.PathLike[str], *, limits: Limits = Limits()) -> SourceFile:
    """Read a file once: bytes, sha256 and sniffed format. Raises a one-line :class:`ExtractionError`."""
    p = str(path)
    try:
        fh = _open_regular(p)
    except FileNotFoundError:
        raise FileMissing(p, "no such file") from None
    except IsADirectoryError:
        raise FileUnreadable(p, "is a directory") from None
    except NotARegularFile as exc:
        raise FileUnreadable(p, str(exc)) from None
    except OSError as exc:
        raise FileUnreadable(p, f"cannot read file ({exc.strerror or exc})") from None
    with fh:
        # the limit applies to the file itself (a link is followed to what it names)
        size = os.fstat(fh.fileno()).st_size
        if size > limits.max_file_bytes:
            raise TooLarge(p, f"file is {size:,} bytes, above the limit of {limits.max_file_bytes:,}")
        try:
            # the size it has, then what it grew by in pieces: read(limit + 1) would ask for a
            # buffer of the whole limit (1 GiB) at once, which a worker's memory cap refuses
            data = fh.read(size + 1)
            while len(data) > size and len(data) <= limits.max_file_bytes:
                more = fh.read(1 << 20)
                if not more:
                    break
                data += more
        except OSError as exc:
            raise FileUnreadable(p, f"cannot read file ({exc.strerror or exc})") from None
    if len(data) > limits.max_file_bytes:  # it grew while read
        raise TooLarge(p, f"file is over the limit of {limits.max_file_bytes:,} bytes")
    if not data:
        raise EmptyFile(p, "file is empty (0 bytes)")
    fmt = sniff_format(p, data)
    if fmt in ZIP_FORMATS:
        check_unzipped(p, data, limits.max_unzipped_bytes)
    return SourceFile(p, data, hashlib.sha256(data).hexdigest(), fmt)


#: Formats in a zip container, whose unzipped size is checked before a member is read.
ZIP_FORMATS = frozenset({DOCX, PPTX, ODT, EPUB})


def check_unzipped(path: str, data: bytes, limit: int) -> None:
    """Refuse a zip container whose members hold more than ``limit`` bytes unzipped, from the sizes
    its central directory declares (Python's zipfile reads no member past its declared size)."""
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            members = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError, EOFError):
        return  # the extractor says what is wrong with it
    total = sum(m.file_size for m in members)
    if total > limit:
        biggest = max(members, key=lambda m: m.file_size)
        raise TooLarge(
            path,
            f"unzips to {format_bytes(total)} ({len(data) / (1 << 20):.1f} MB zipped; {biggest.filename[:80]!r}"
            f" alone {format_bytes(biggest.file_size)}), above the {format_bytes(limit)} limit for a zip container",
        )


def sniff_format(path: str, data: bytes) -> str:
    """The format from magic bytes and content first; the extension only tells text flavours apart.

    A DOCX named ``.txt`` is still a DOCX, an HTML page without an extension is HTML and a message
    without one is email. Raises :class:`UnsupportedFormat` (or :class:`CorruptFile` for a damaged
    container, :class:`Encrypted` for a password-protected Office file) for what citeline cannot read.
    """
    head = data[:2048]
    if b"%PDF-" in head[:1024]:
        return PDF
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if head.startswith(b"\xff\xd8\xff"):
        return JPEG
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return TIFF
    ext = Path(path).suffix.lower()
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _zip_format(path, data)
    if head.startswith(_OLE_MAGIC):
        if _ENCRYPTED_PACKAGE in data:
            raise Encrypted(path, "password-protected Office file (encrypted OOXML package)")
        raise UnsupportedFormat(path, "legacy Office (OLE) file; convert it to DOCX/PPTX first")
    if head.startswith(b"{\\rtf"):
        raise UnsupportedFormat(path, "RTF is not supported; convert it to DOCX first")
    text = _as_text(head)
    if text is None:
        raise UnsupportedFormat(path, "unrecognised binary format")
    html = _looks_like_html(text)
    # a text file named as a binary format is a wrong download or a renamed file, not that format
    holds = "HTML" if html else "text"
    if ext == ".pdf":
        raise NotAPdf(path, f"not a PDF (no %PDF- header; the file holds {holds})")
    if ext in _CONTAINER_EXTENSIONS:
        name = _CONTAINER_EXTENSIONS[ext]
        raise UnsupportedFormat(path, f"not a {name} file (no zip container; the file holds {holds})")
    if html or ext in _HTML_EXTENSIONS:
        return HTML
    if ext == ".eml" or _looks_like_email(text):
        return EML
    if ext in _MARKDOWN_EXTENSIONS:
        return MARKDOWN
    return TEXT


_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: The stream name an encrypted OOXML file (a DOCX/PPTX/XLSX with a password) keeps in its OLE directory.
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")
_HTML_EXTENSIONS = frozenset({".html", ".htm", ".xhtml", ".xht"})
_MARKDOWN_EXTENSIONS = frozenset({".md", ".markdown", ".mdown", ".mkd", ".mkdn"})
_CONTAINER_EXTENSIONS = {".docx": "DOCX", ".pptx": "PPTX", ".odt": "ODT", ".epub": "EPUB"}
#: What may precede the first tag of an HTML page: an XML declaration, comments, white space.
_HTML_PROLOG = re.compile(r"\A(?:\s+|<\?xml[^>]*>|<!--.*?-->)*", re.DOTALL)
_HTML_START = re.compile(r"<(?:!doctype\s+html|html|head|body)[\s>/]", re.IGNORECASE)


def _looks_like_html(text: str) -> bool:
    rest = text.lstrip("\ufeff")
    prolog = _HTML_PROLOG.match(rest)
    if prolog:
        rest = rest[prolog.end() :]
    return _HTML_START.match(rest) is not None


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
    first = text.lstrip("\ufeff").splitlines()[:30]
    headers = {ln.split(":", 1)[0].strip().lower() for ln in first if ":" in ln and not ln.startswith(" ")}
    return len(headers & {"from", "to", "subject", "date", "mime-version", "message-id", "received"}) >= 3


#: Content types of the main part of the OOXML formats (from ``[Content_Types].xml``).
_WORD_MAIN = b"wordprocessingml.document.main+xml"
_SLIDES_MAIN = b"presentationml.presentation.main+xml"
_SHEET_MAIN = b"spreadsheetml.sheet.main+xml"
_OPENDOCUMENT_NAMES = {
    "application/vnd.oasis.opendocument.spreadsheet": "OpenDocument spreadsheets (ODS)",
    "application/vnd.oasis.opendocument.presentation": "OpenDocument presentations (ODP)",
    "application/vnd.oasis.opendocument.graphics": "OpenDocument drawings (ODG)",
}


def _zip_format(path: str, data: bytes) -> str:
    import zipfile  # only zip-based formats need it (it costs a read command 15 ms to import)

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = set(zf.namelist())
            if "mimetype" in names:
                with zf.open("mimetype") as fh:
                    mt = fh.read(200).decode("ascii", "replace").strip()
                if mt == "application/epub+zip":
                    return EPUB
                if mt == "application/vnd.oasis.opendocument.text":
                    return ODT
                what = _OPENDOCUMENT_NAMES.get(mt, f"zip type {mt[:60]!r}")
                raise UnsupportedFormat(path, f"{what} not supported")
            if "word/document.xml" in names:
                return DOCX
            if "ppt/presentation.xml" in names:
                return PPTX
            if "xl/workbook.xml" in names:
                raise UnsupportedFormat(path, "spreadsheets (XLSX) are not supported")
            if "[Content_Types].xml" in names:
                with zf.open("[Content_Types].xml") as fh:
                    types = fh.read(1 << 20)
                if _WORD_MAIN in types:
                    return DOCX
                if _SLIDES_MAIN in types:
                    return PPTX
                if _SHEET_MAIN in types:
                    raise UnsupportedFormat(path, "spreadsheets (XLSX) are not supported")
    except zipfile.BadZipFile:
        guess = _guess_damaged_zip(data)
        if guess:
            raise CorruptFile(path, f"damaged {guess} file (its zip container is truncated or corrupt)") from None
        raise CorruptFile(path, "damaged zip container (truncated or corrupt)") from None
    except (zipfile.LargeZipFile, NotImplementedError, OSError, EOFError) as exc:
        raise CorruptFile(path, f"unreadable zip container ({type(exc).__name__})") from None
    raise UnsupportedFormat(path, "zip archive that is not DOCX, PPTX, ODT or EPUB")


def _guess_damaged_zip(data: bytes) -> str | None:
    """Which format a zip that cannot be opened was meant to be, from the member names and the
    uncompressed ``mimetype`` member in its local headers (they survive truncation)."""
    head = data[: 1 << 16]
    if b"mimetypeapplication/epub+zip" in head:
        return "EPUB"
    if b"mimetypeapplication/vnd.oasis.opendocument.text" in head:
        return "ODT"
    if b"word/document.xml" in data:
        return "DOCX"
    if b"ppt/presentation.xml" in data or b"ppt/slides/" in data:
        return "PPTX"
    return None
