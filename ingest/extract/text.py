"""Plain text and Markdown, read directly: raw offsets are the file's own character offsets.

The file is decoded as UTF-8 (a byte-order mark stays in the stream as U+FEFF, which the space
transform drops); line endings are kept as they are. A form feed in the file is a page break, as in
the PDF stream. Files that are not valid UTF-8 are decoded as Windows-1252 and flagged.
"""

from __future__ import annotations

from ingest.extract.files import MARKDOWN, MEDIA_TYPES, SourceFile
from ingest.extract.model import Extraction, Page, Problem


def extract_text(source: SourceFile) -> Extraction:
    problems: list[Problem] = []
    try:
        raw = source.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raw = source.data.decode("cp1252", errors="replace")
        problems.append(
            Problem("not_utf8", (), f"not valid UTF-8 at byte {exc.start}; decoded as Windows-1252")
        )
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
