"""Plain text and Markdown, read directly: raw offsets are the file's own character offsets.

``Extraction.raw`` is exactly the decoded file, character for character: a UTF-8 byte-order mark
stays in the stream as U+FEFF (which the space transform drops) and line endings are kept as they
are (``"\\r\\n"`` stays two characters), so ``raw == path.read_text(encoding="utf-8", newline="")``.
A file with a UTF-16 byte-order mark is decoded as UTF-16 (the codec consumes the mark). A form feed
in the file is a page break, as in the PDF stream. Files that are not valid UTF-8 are decoded as
Windows-1252 and flagged with a ``not_utf8`` problem.
"""

from __future__ import annotations

from citeline.ingest.extract.files import MARKDOWN, MEDIA_TYPES, SourceFile
from citeline.ingest.extract.model import Extraction, Page, Problem


def decode_text(data: bytes) -> tuple[str, list[Problem]]:
    """The characters of a text file and any problem met decoding it."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), []
        except UnicodeDecodeError as exc:
            text = data.decode("utf-16", errors="replace")
            return text, [Problem("bad_encoding", (), f"invalid UTF-16 at byte {exc.start}; replaced")]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        text = data.decode("cp1252", errors="replace")
        return text, [Problem("not_utf8", (), f"not valid UTF-8 at byte {exc.start}; decoded as Windows-1252")]


def extract_text(source: SourceFile) -> Extraction:
    raw, problems = decode_text(source.data)
    pages = []
    pos = 0
    for number, chunk in enumerate(raw.split("\f"), start=1):
        pages.append(Page(number, 0.0, 0.0, pos, pos + len(chunk), has_text=bool(chunk.strip())))
        pos += len(chunk) + 1
    return Extraction(
        path=source.path,
        raw=raw,
        pages=tuple(pages),
        lines=(),
        content_sha256=source.sha256,
        extractor="markdown" if source.format == MARKDOWN else "text",
        extractor_version="1",
        media_type=MEDIA_TYPES[source.format],
        file_size=source.size,
        problems=tuple(problems),
    )
