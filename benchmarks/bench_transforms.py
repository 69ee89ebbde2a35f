"""The cleaning chain and the chunker over a large real text (>= 2 MB of raw streams from the corpus):
MB/s, peak memory, map size against text size, and the chain's cost against pdfplumber's own
extraction of the same pages, measured in the same run."""

from __future__ import annotations

import gc
import tracemalloc
from typing import Any

from benchmarks.common import section, text_layer_pdfs, timed
from citeline.ingest.chunker import chunk
from citeline.ingest.clean.pipeline import clean
from citeline.ingest.errors import ExtractionError
from citeline.ingest.extract import extract

TARGET_BYTES = 2_000_000


def run() -> dict[str, Any]:
    streams: list[str] = []
    pages = 0
    extract_seconds = 0.0
    with section("raw streams for the transform benchmark"):
        for path, _ in text_layer_pdfs():
            try:
                dt, ex = timed(lambda path=path: extract(path, extractor="pdfplumber", fallback=False))
            except ExtractionError:
                continue
            streams.append(ex.raw)
            pages += ex.page_count
            extract_seconds += dt
    base = "\f".join(streams)
    repeat = max(1, -(-TARGET_BYTES // len(base.encode("utf-8"))))
    text = "\f".join([base] * repeat)
    size_mb = len(text.encode("utf-8")) / 1e6
    with section(f"clean + chunk over {size_mb:.2f} MB ({repeat}x the corpus's {pages} pages)"):
        gc.collect()
        clean_s, cleaned = timed(lambda: clean(text))
        chunk_s, chunks = timed(lambda: chunk(cleaned.text, cleaned.map))
        tracemalloc.start()
        cleaned2 = clean(text)
        chunks2 = chunk(cleaned2.text, cleaned2.map)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    map_bytes = cleaned.map.nbytes()
    chunk_map_bytes = sum(c.map.nbytes() for c in chunks2)
    chain_per_page = (clean_s + chunk_s) / (pages * repeat)
    extract_per_page = extract_seconds / pages
    result = {
        "text_mb": round(size_mb, 2),
        "characters": len(text),
        "pages": pages * repeat,
        "clean_seconds": round(clean_s, 3),
        "chunk_seconds": round(chunk_s, 3),
        "mb_per_second": round(size_mb / (clean_s + chunk_s), 2),
        "chunks": len(chunks),
        "peak_memory_mb": round(peak / 1e6, 1),
        "document_map_bytes": map_bytes,
        "chunk_maps_bytes": chunk_map_bytes,
        "map_bytes_per_text_byte": round(map_bytes / len(text.encode("utf-8")), 4),
        "chunk_maps_bytes_per_text_byte": round(chunk_map_bytes / len(text.encode("utf-8")), 4),
        "pdfplumber_extract_seconds_per_page": round(extract_per_page, 5),
        "chain_seconds_per_page": round(chain_per_page, 6),
        "chain_share_of_extraction": round(chain_per_page / extract_per_page, 4),
    }
    for k, v in result.items():
        print(f"   {k:40} {v}")
    return result
