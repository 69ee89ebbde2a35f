"""What verification reads from the store, and what it keeps of it.

:class:`Lookup` owns every cache of a verifier: chunks, versions, a version's chunks, folded texts and
words, a document's vocabulary, chunks' raw characters and line geometry, pages. Chunks and versions
never change once stored, so they are kept across answers (up to :data:`CHUNK_CACHE` chunks, then
started over); which version of a document is current is read fresh every time. The code that judges
citations (:mod:`citeline.verify.verify`) only asks; it never decides what is kept or for how long.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable

from citeline.store.records import ChunkInfo, PageInfo, VersionInfo
from citeline.store.store import Store
from citeline.text import lang as language
from citeline.text.errors import MapError
from citeline.text.geometry import Geometry
from citeline.text.lang import Language
from citeline.text.lexicon import document_language
from citeline.text.offsets import BLOCK, Normalized, OffsetMap, Original
from citeline.verify.classify import Vocabulary
from citeline.verify.fold import Folded, fold
from citeline.verify.match import tokens

#: Chunks whose raw characters and line geometry are kept for resolving quotes (the least recently
#: used are dropped beyond this; a chunk's are a few KB).
SOURCE_CACHE = 1024
#: Chunks (with their folded texts and words) kept across answers; beyond this the caches start over
#: before the next answer, so a long-running ``citeline serve`` does not grow with the corpus.
CHUNK_CACHE = 100_000


class Lookup:
    """Reads of one store for verification, cached."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._reset()

    def _reset(self) -> None:
        self._chunks: dict[str, ChunkInfo | None] = {}
        self._folded: dict[str, Folded] = {}
        self._versions: dict[int, VersionInfo] = {}
        self._version_chunks: dict[int, list[ChunkInfo]] = {}
        self._vocabulary: dict[int, Vocabulary] = {}
        self._languages: dict[int, Language] = {}
        self._chunk_words: dict[str, frozenset[str]] = {}
        self._sources: dict[str, tuple[str, Geometry]] = {}
        self._pages: dict[int, list[PageInfo]] = {}
        self._joined: dict[tuple[str, str], tuple[ChunkInfo, int, int] | None] = {}

    def trim(self) -> None:
        """Start over when the kept chunks exceed :data:`CHUNK_CACHE` (called between answers)."""
        if len(self._chunks) > CHUNK_CACHE:
            self._reset()

    def chunk(self, chunk_id: str) -> ChunkInfo | None:
        self.prefetch([chunk_id])
        return self._chunks[chunk_id]

    def prefetch(self, chunk_ids: Iterable[str]) -> None:
        """Load the uncached among ``chunk_ids`` in one query: a citation looks at its whole
        injected set (the other chunks, for a misattributed quote)."""
        missing = [cid for cid in chunk_ids if cid not in self._chunks]
        if missing:
            found = self.store.chunks(missing)
            for cid in missing:
                self._chunks[cid] = found.get(cid)

    def folded(self, chunk: ChunkInfo) -> Folded:
        got = self._folded.get(chunk.chunk_id)
        if got is None:
            got = self._folded[chunk.chunk_id] = fold(chunk.text)
        return got

    def version(self, version_id: int) -> VersionInfo:
        if version_id not in self._versions:
            self._versions[version_id] = self.store.version(version_id)
        return self._versions[version_id]

    def remember_version(self, version: VersionInfo) -> None:
        self._versions[version.version_id] = version

    def current_version(self, uri: str, *, collection: str | None = None) -> VersionInfo | None:
        """The current version of a document, read fresh (a re-ingest may have superseded it)."""
        current = self.store.current_version(uri, collection=collection)
        if current is not None:
            self._versions[current.version_id] = current
        return current

    def version_chunks(self, version_id: int) -> list[ChunkInfo]:
        if version_id not in self._version_chunks:
            chunks = self.store.chunks_of_version(version_id)
            self._version_chunks[version_id] = chunks
            for c in chunks:
                self._chunks.setdefault(c.chunk_id, c)
        return self._version_chunks[version_id]

    def chunk_words(self, chunk: ChunkInfo) -> frozenset[str]:
        words = self._chunk_words.get(chunk.chunk_id)
        if words is None:
            words = self._chunk_words[chunk.chunk_id] = frozenset(tokens(self.folded(chunk).text))
        return words

    def vocabulary(self, version_id: int) -> Vocabulary:
        """The folded words of a whole document version, with how often each is written: a quote
        word found there is a real word, so a one-letter difference to it is a substitution, not a
        typo."""
        if version_id not in self._vocabulary:
            counts: Counter[str] = Counter()
            for c in self.version_chunks(version_id):
                words = tokens(self.folded(c).text)
                counts.update(words)
                self._chunk_words.setdefault(c.chunk_id, frozenset(words))
            self._vocabulary[version_id] = Vocabulary(counts)
        return self._vocabulary[version_id]

    def language(self, version_id: int) -> Language:
        """The language of a document version (its words, its lexicon), from its first chunks."""
        if version_id not in self._languages:
            # ingest stores it, found the same way (store.writer.chunks_language): a cold document
            # then costs no load of all its chunks
            code = self.version(version_id).language
            if code is None:
                code = document_language(" ".join(c.text for c in self.version_chunks(version_id)[:20]))
            self._languages[version_id] = language.of(code)
        return self._languages[version_id]

    def source(self, chunk: ChunkInfo) -> tuple[str, Geometry]:
        """The raw characters of a chunk's span and the geometry of its lines: all that resolving a
        quote in it needs (loading a whole version's would cost a cold document tens of ms)."""
        data = self._sources.pop(chunk.chunk_id, None)
        if data is None:
            data = self.store.source(chunk.version_id, Original(chunk.raw_start, chunk.raw_end))
            if len(self._sources) >= SOURCE_CACHE:
                self._sources.pop(next(iter(self._sources)))
        self._sources[chunk.chunk_id] = data  # most recently used last
        return data

    def joined(self, first: ChunkInfo, second: ChunkInfo) -> tuple[ChunkInfo, int, int] | None:
        """Two consecutive chunks read as one (:func:`joined_chunks`)."""
        key = (first.chunk_id, second.chunk_id)
        if key not in self._joined:
            self._joined[key] = joined_chunks(first, second)
        return self._joined[key]

    def pages(self, version_id: int) -> list[PageInfo]:
        if version_id not in self._pages:
            self._pages[version_id] = self.store.pages(version_id)
        return self._pages[version_id]


def joined_chunks(first: ChunkInfo, second: ChunkInfo) -> tuple[ChunkInfo, int, int] | None:
    """Two consecutive chunks of one version as one chunk, for a quote that runs from one into the
    other: the second's repeat of the first's last sentences left out, the paragraph break between
    them put back (as line breaks standing for the raw characters between the two). Returns the
    joined chunk (id ``FIRST+SECOND``), where the second's text starts in it and where the first's
    ends; ``None`` when the two do not follow each other in one version."""
    if (
        first.version_id != second.version_id
        or second.ordinal != first.ordinal + 1
        or not first.text
        or not second.text
        or second.clean_start < first.clean_start
        or second.clean_end <= first.clean_end
    ):
        return None
    runs = [(r.norm_start, r.norm_end, r.orig_start, r.orig_end, r.kind) for r in first.map.runs()]
    head = len(first.text)
    if second.clean_start <= first.clean_end:  # overlapping (the repeated sentences) or touching
        cut, gap = first.clean_end - second.clean_start, ""
    else:
        cut, gap = 0, "\n" * (second.clean_start - first.clean_end)
        raw_end = first.map.original_extent.end
        lo, hi = (raw_end, second.raw_start) if second.raw_start > raw_end else (raw_end - 1, raw_end)
        runs.append((head, head + len(gap), lo, hi, BLOCK))
    shift = head + len(gap)
    tail = second.map.slice(Normalized(cut, len(second.text)))
    runs.extend((r.norm_start + shift, r.norm_end + shift, r.orig_start, r.orig_end, r.kind) for r in tail.runs())
    try:
        joined_map = OffsetMap(
            runs, orig_start=first.map.original_extent.start, orig_end=second.map.original_extent.end
        )
    except MapError:  # the two do not follow each other in the raw stream
        return None
    joined = dataclasses.replace(  # the first's place and version, running to the second's end
        first,
        chunk_id=f"{first.chunk_id}+{second.chunk_id}",
        text=first.text + gap + second.text[cut:],
        text_sha256="",
        clean_end=second.clean_end,
        raw_end=second.raw_end,
        page_end=second.page_end,
        map=joined_map,
    )
    return joined, shift - cut, head
