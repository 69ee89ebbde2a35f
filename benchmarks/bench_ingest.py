"""End-to-end ingest of the corpus's text-layer PDFs into a fresh SQLite store with the pdfplumber
backend, one and two workers, against raw pdfplumber ``extract_text`` over the same files measured
in the same run; re-ingest of the unchanged corpus; database bytes per page. OCR is off, as the
reference reads text layers only (``--ocr auto`` would read the cid-garbled review's pages by
Tesseract: ``python -m benchmarks ocr`` measures that)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.bench_extract import raw_extract_text
from benchmarks.common import linked_corpus, section, text_layer_pdfs, timed
from citeline.batch import IngestOptions, ingest_files
from citeline.ingest.extract.ocr import OcrSettings
from citeline.ingest.pipeline import PipelineSettings
from citeline.store import Store


def _ingest(folder: Path, db: Path, workers: int) -> tuple[float, Any]:
    with Store(f"sqlite:///{db}") as store:
        options = IngestOptions(
            follow_links=True, workers=workers, settings=PipelineSettings(ocr=OcrSettings(mode="off"))
        )
        return timed(lambda: ingest_files(store, [folder], options))


def run() -> dict[str, Any]:
    files = text_layer_pdfs()
    with tempfile.TemporaryDirectory() as tmp:
        folder = linked_corpus(Path(tmp) / "corpus", files)
        with section("raw pdfplumber extract_text over the same files (reference)"):
            ref_s, pages = timed(lambda: sum(raw_extract_text(p) for p, _ in files))
        results: dict[str, Any] = {"files": len(files), "pages": pages, "reference_seconds": round(ref_s, 2)}
        for workers in (1, 2):
            db = Path(tmp) / f"w{workers}.db"
            with section(f"citeline ingest, {workers} worker(s)"):
                dt, summary = _ingest(folder, db, workers)
            assert summary.count("failed") == 0, [o.message for o in summary.outcomes if o.status == "failed"]
            results[f"workers_{workers}"] = {
                "seconds": round(dt, 2),
                "pages_per_second": round(summary.pages / dt, 2),
                "chunks": summary.chunks,
            }
            if workers == 1:
                with section("re-ingest of the unchanged corpus"):
                    again_s, again = _ingest(folder, db, 1)
                assert again.count("skipped") == len(files)
                results["reingest_seconds"] = round(again_s, 3)
                results["reingest_share_of_first"] = round(again_s / dt, 4)
                with Store(f"sqlite:///{db}") as store, store.engine.begin() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
                size = db.stat().st_size
                results["database_bytes"] = size
                results["database_bytes_per_page"] = round(size / summary.pages)
                results["raw_pdf_bytes_per_page"] = round(sum(p.stat().st_size for p, _ in files) / summary.pages)
        one, two = results["workers_1"]["pages_per_second"], results["workers_2"]["pages_per_second"]
        results["reference_pages_per_second"] = round(pages / ref_s, 2)
        results["ratios"] = {
            "ingest (1 worker) / raw extract_text": round(one / (pages / ref_s), 3),
            "2 workers / 1 worker": round(two / one, 3),
        }
        shutil.rmtree(folder)
    for k, v in results.items():
        print(f"   {k:40} {v}")
    return results
