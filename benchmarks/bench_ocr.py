"""OCR: Tesseract through its C API (``tesserocr``, what citeline uses) against ``pytesseract`` (the
``tesseract`` command per page), on the same page images, in one run.

Pages: the OCR fixtures (``fixtures/ocr``: images rendered from text fixtures at 200 and 300 dpi,
with ground-truth sentences) and the scanned PDFs of the corpus (rendered at 300 dpi, as citeline
does). For each engine: seconds per page, and on the fixtures the share of ground-truth sentences
found intact (folded as the fidelity benchmark folds) in the page text. Then citeline end to end:
the fixtures' sentences anchored in chunks, and how tight the boxes of the OCR'd characters are.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_fidelity import fold
from benchmarks.common import CORPUS, ROOT, section

OCR_FIXTURES = ROOT / "fixtures" / "ocr"
FIXTURE_LANGUAGES = "eng+deu+fra"
DPI = 300


def fixture_images() -> list[tuple[str, list[Any], float, list[str]]]:
    """``(name, page images, points per pixel, truth sentences)`` of every OCR fixture."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageSequence

    out = []
    for truth_path in sorted(OCR_FIXTURES.glob("*.truth.json")):
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        path = OCR_FIXTURES / truth["file"]
        sentences = [s["text"] for s in truth["sentences"]]
        if truth["kind"] == "image_pdf":
            doc = pdfium.PdfDocument(str(path))
            images = [doc[i].render(scale=DPI / 72, grayscale=True).to_pil() for i in range(len(doc))]
            out.append((path.name, images, 72 / DPI, sentences))
            doc.close()
        else:
            image = Image.open(path)
            frames = [f.convert("L") for f in ImageSequence.Iterator(image)]
            out.append((path.name, frames, 72 / float(truth["dpi"]), sentences))
    return out


def scanned_pages() -> list[tuple[str, list[Any]]]:
    import csv

    import pypdfium2 as pdfium

    from citeline.ingest.extract.ocr import render_scale

    out = []
    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row["primary_kind"] != "scanned":
                continue
            doc = pdfium.PdfDocument(str(CORPUS / row["file"]))
            images = []
            for i in range(len(doc)):
                page = doc[i]
                w, h = page.get_size()
                images.append(page.render(scale=render_scale(w, h, DPI), grayscale=True).to_pil())
            out.append((row["file"], images))
            doc.close()
    return out


def with_tesserocr(image: Any) -> str:
    from citeline.ingest.extract.ocr import OcrSettings, recognize

    lines, _ = recognize(image, 1.0, "bench", OcrSettings())
    return "\n".join(ln.text for ln in lines)


def with_pytesseract(image: Any) -> str:
    import pytesseract

    from citeline.ingest.extract.ocr import tessdata_dir

    data = pytesseract.image_to_data(
        image, lang="eng", config=f"--tessdata-dir {tessdata_dir()}", output_type=pytesseract.Output.DICT
    )
    return " ".join(w for w in data["text"] if w.strip())


def engines() -> dict[str, Any]:
    out: dict[str, Any] = {"tesserocr (citeline)": with_tesserocr}
    if importlib.util.find_spec("pytesseract") is not None and shutil.which("tesseract"):
        out["pytesseract"] = with_pytesseract
    return out


def citeline_end_to_end() -> dict[str, Any]:
    """The fixtures through citeline's pipeline: sentences anchored in one chunk, box fit."""
    from rapidfuzz import fuzz

    from citeline.ingest.extract import Limits, read_source
    from citeline.ingest.extract.ocr import OcrSettings
    from citeline.ingest.pipeline import PipelineSettings, process_source
    from citeline.text.offsets import Original

    # the fixtures name people and places in German and French (Genève, Zürich, Weiß)
    settings = PipelineSettings(ocr=OcrSettings(languages=FIXTURE_LANGUAGES))
    anchored = noisy = total = 0
    cover: list[float] = []
    spill: list[float] = []
    for truth_path in sorted(OCR_FIXTURES.glob("*.truth.json")):
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        doc = process_source(read_source(OCR_FIXTURES / truth["file"]), truth["file"], settings, limits=Limits())
        raw = doc.extraction.raw
        geometry = doc.extraction.geometry()
        folded_chunks = [fold(c.text) for c in doc.chunks]
        for sentence in truth["sentences"]:
            total += 1
            want = fold(sentence["text"])
            if any(want in fc for fc in folded_chunks):
                anchored += 1
                noisy += 1
            elif any(fuzz.partial_ratio(want, fc) >= 90 for fc in folded_chunks):
                noisy += 1  # in one chunk with OCR-level noise (as tests/test_ocr.py counts it)
            # boxes: where the sentence's words are in the raw stream, against the truth boxes
            at = raw.find(sentence["text"][:25])
            if at < 0:
                continue
            got = geometry.boxes(Original(at, min(len(raw), at + len(sentence["text"]))), raw)
            want = list(sentence["boxes"])
            inter = sum(_overlap(g, w) for g in got for w in want)
            want_area = sum(_area(w) for w in want)
            got_area = sum(_area(g) for g in got)
            if want_area and got_area:
                cover.append(min(1.0, inter / want_area))
                spill.append(max(0.0, 1 - inter / got_area))
    return {
        "sentences": total,
        "anchored_in_a_chunk": anchored,
        "anchored_share": round(anchored / total, 4) if total else None,
        "anchored_with_ocr_noise": noisy,
        "anchored_with_ocr_noise_share": round(noisy / total, 4) if total else None,
        "box_cover_median": round(sorted(cover)[len(cover) // 2], 3) if cover else None,
        "box_spill_median": round(sorted(spill)[len(spill) // 2], 3) if spill else None,
    }


def ocr_documents() -> list[Path]:
    """What the throughput part ingests: the OCR fixtures and the corpus's scans without a text layer."""
    import csv

    files = sorted(p for p in OCR_FIXTURES.iterdir() if not p.name.endswith(".json")) if OCR_FIXTURES.exists() else []
    manifest = CORPUS / "MANIFEST.tsv"
    if manifest.exists():
        with manifest.open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                if row["primary_kind"] == "scanned" and "ocr-layer" not in row["kind_tags"]:
                    files.append(CORPUS / row["file"])
    return files


def citeline_ingest(files: list[Path], workers: int, db: Path) -> tuple[float, list[tuple[str, int, float]]]:
    """Seconds to ingest ``files`` with ``--ocr auto`` and ``workers`` workers into a new SQLite file,
    and the pages it OCR'd: ``(path, page number, dpi)``."""
    from citeline import IngestOptions, Store, ingest

    with Store(f"sqlite:///{db}") as store:
        t0 = time.perf_counter()
        summary = ingest(store, [str(f) for f in files], IngestOptions(workers=workers))
        seconds = time.perf_counter() - t0
        failed = [o for o in summary.outcomes if o.status == "failed"]
        if failed:
            raise SystemExit(f"OCR benchmark: {failed[0].uri} failed: {failed[0].message}")
        _, rows = store.sql(
            "SELECT d.uri, p.page_no, p.ocr_dpi FROM pages p JOIN document_versions v ON v.id = p.version_id "
            "JOIN documents d ON d.id = v.document_id WHERE p.ocr_engine IS NOT NULL ORDER BY d.uri, p.page_no"
        )
        pages = [(str(r[0]), int(r[1]), float(r[2])) for r in rows]
    return seconds, pages


def rendered_pages(pages: list[tuple[str, int, float]], by_name: dict[str, Path], folder: Path) -> list[Path]:
    """The pages citeline OCR'd, as the grayscale images citeline hands Tesseract, saved as PNG."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageSequence

    from citeline.ingest.extract.ocr import render_scale

    out = []
    for uri, page_no, dpi in pages:
        path = by_name[Path(uri).name]
        target = folder / f"{path.name}.{page_no}.png"
        if path.suffix.lower() == ".pdf":
            doc = pdfium.PdfDocument(str(path))
            page = doc[page_no - 1]
            w, h = page.get_size()
            page.render(scale=render_scale(w, h, int(dpi)), grayscale=True).to_pil().save(target)
            doc.close()
        else:
            frame = list(ImageSequence.Iterator(Image.open(path)))[page_no - 1]
            frame.convert("L").save(target)
        out.append(target)
    return out


def tesseract_cli(images: list[Path]) -> float:
    """Seconds the ``tesseract`` command takes over ``images``, one process per page as a script runs
    it, one thread each (``OMP_THREAD_LIMIT=1``, as a citeline worker)."""
    import os
    import subprocess

    from citeline.ingest.extract.ocr import tessdata_dir

    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    extra = ["--tessdata-dir", tessdata_dir()] if tessdata_dir() else []
    t0 = time.perf_counter()
    for image in images:
        subprocess.run(["tesseract", str(image), "-", "-l", "eng", *extra], env=env, check=True, capture_output=True)
    return time.perf_counter() - t0


def throughput() -> dict[str, Any]:
    """OCR pages per second of citeline's ingest with 1 and 2 workers, against the ``tesseract``
    command on the same rendered pages, in one run."""
    import tempfile

    files = ocr_documents()
    by_name = {f.name: f for f in files}
    with tempfile.TemporaryDirectory(prefix="citeline-bench-ocr-") as tmp:
        folder = Path(tmp)
        one, pages = citeline_ingest(files, 1, folder / "one.db")
        two, pages_two = citeline_ingest(files, 2, folder / "two.db")
        images = rendered_pages(pages, by_name, folder)
        cli = tesseract_cli(images) if shutil.which("tesseract") else None
    n = len(pages)
    out: dict[str, Any] = {
        "documents": len(files),
        "ocr_pages": n,
        "citeline_1_worker_pages_per_second": round(n / one, 3),
        "citeline_2_workers_pages_per_second": round(len(pages_two) / two, 3),
        "two_workers_over_one": round((len(pages_two) / two) / (n / one), 2),
        "citeline_seconds": {"1": round(one, 1), "2": round(two, 1)},
    }
    if cli is not None:
        out["tesseract_cli_pages_per_second"] = round(n / cli, 3)
        out["tesseract_cli_seconds"] = round(cli, 1)
        out["citeline_1_worker_over_tesseract_cli"] = round(cli / one, 2)
    return out


def _area(b: Any) -> float:
    x0, top, x1, bottom = (
        (b["x0"], b["top"], b["x1"], b["bottom"]) if isinstance(b, dict) else (b.x0, b.top, b.x1, b.bottom)
    )
    return max(0.0, x1 - x0) * max(0.0, bottom - top)


def _overlap(g: Any, w: dict[str, float]) -> float:
    if g.page != w.get("page", g.page):
        return 0.0
    x = max(0.0, min(g.x1, w["x1"]) - max(g.x0, w["x0"]))
    y = max(0.0, min(g.bottom, w["bottom"]) - max(g.top, w["top"]))
    return x * y


def run() -> dict[str, Any]:
    runners = engines()
    fixtures = fixture_images() if OCR_FIXTURES.exists() else []
    scans = scanned_pages() if (CORPUS / "MANIFEST.tsv").exists() else []
    result: dict[str, Any] = {"engines": {}, "fixtures": [f[0] for f in fixtures], "scans": [s[0] for s in scans]}
    with section(
        f"OCR on {sum(len(f[1]) for f in fixtures)} fixture pages and {sum(len(s[1]) for s in scans)} scanned pages"
    ):
        for name, fn in runners.items():
            seconds = 0.0
            pages = 0
            intact = total = 0
            for _, images, _, sentences in fixtures:
                text = ""
                for image in images:
                    t0 = time.perf_counter()
                    text += "\n" + fn(image)
                    seconds += time.perf_counter() - t0
                    pages += 1
                folded = fold(text)
                intact += sum(1 for s in sentences if fold(s) in folded)
                total += len(sentences)
            for _, images in scans:
                for image in images:
                    t0 = time.perf_counter()
                    fn(image)
                    seconds += time.perf_counter() - t0
                    pages += 1
            result["engines"][name] = {
                "pages": pages,
                "seconds": round(seconds, 2),
                "seconds_per_page": round(seconds / pages, 3) if pages else None,
                "fixture_sentences_intact": f"{intact}/{total}",
                "fixture_share": round(intact / total, 4) if total else None,
            }
            print(f"   {name:24} {seconds / max(pages, 1):6.2f} s/page  sentences intact {intact}/{total}")
        if len(result["engines"]) == 2:
            a, b = (result["engines"][k]["seconds"] for k in runners)
            result["pytesseract_over_tesserocr_time"] = round(b / a, 2) if a else None
            print(f"   pytesseract takes {result['pytesseract_over_tesserocr_time']}x the time of tesserocr")
        if fixtures:
            result["citeline"] = citeline_end_to_end()
            print(f"   citeline end to end: {result['citeline']}")
    with section("OCR throughput: citeline ingest (1 and 2 workers) against the tesseract command"):
        result["throughput"] = t = throughput()
        print(
            f"   {t['ocr_pages']} OCR pages: citeline 1 worker {t['citeline_1_worker_pages_per_second']} pages/s, "
            f"2 workers {t['citeline_2_workers_pages_per_second']} ({t['two_workers_over_one']}x); "
            f"tesseract command {t.get('tesseract_cli_pages_per_second')} pages/s "
            f"(citeline 1 worker = {t.get('citeline_1_worker_over_tesseract_cli')}x)"
        )
    return result


def markdown(r: dict[str, Any]) -> str:
    lines = ["| OCR engine | s/page | fixture sentences intact |", "|---|---|---|"]
    for name, e in r["engines"].items():
        lines.append(
            f"| {name} | {e['seconds_per_page']} | {e['fixture_sentences_intact']} ({e['fixture_share']:.1%}) |"
        )
    if "throughput" in r:
        t = r["throughput"]
        lines += [
            "",
            f"| OCR throughput, {t['ocr_pages']} pages | pages/s | ratio |",
            "|---|---|---|",
            f"| citeline ingest, 1 worker | {t['citeline_1_worker_pages_per_second']} | "
            f"{t.get('citeline_1_worker_over_tesseract_cli')}x the tesseract command |",
            f"| citeline ingest, 2 workers | {t['citeline_2_workers_pages_per_second']} | "
            f"{t['two_workers_over_one']}x 1 worker |",
            f"| `tesseract` command, same rendered pages | {t.get('tesseract_cli_pages_per_second')} | |",
        ]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(json.dumps(run(), indent=1))
