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
from typing import Any

from benchmarks.bench_fidelity import fold
from benchmarks.common import CORPUS, ROOT, section

OCR_FIXTURES = ROOT / "fixtures" / "ocr"
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
    from citeline.ingest.extract import Limits, read_source
    from citeline.ingest.offsets import Original
    from citeline.ingest.pipeline import PipelineSettings, process_source

    anchored = total = 0
    cover: list[float] = []
    spill: list[float] = []
    for truth_path in sorted(OCR_FIXTURES.glob("*.truth.json")):
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        doc = process_source(
            read_source(OCR_FIXTURES / truth["file"]), truth["file"], PipelineSettings(), limits=Limits()
        )
        raw = doc.extraction.raw
        geometry = doc.extraction.geometry()
        folded_chunks = [fold(c.text) for c in doc.chunks]
        for sentence in truth["sentences"]:
            total += 1
            if any(fold(sentence["text"]) in fc for fc in folded_chunks):
                anchored += 1
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
        "box_cover_median": round(sorted(cover)[len(cover) // 2], 3) if cover else None,
        "box_spill_median": round(sorted(spill)[len(spill) // 2], 3) if spill else None,
    }


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
    return result


def markdown(r: dict[str, Any]) -> str:
    lines = ["| OCR engine | s/page | fixture sentences intact |", "|---|---|---|"]
    for name, e in r["engines"].items():
        lines.append(
            f"| {name} | {e['seconds_per_page']} | {e['fixture_sentences_intact']} ({e['fixture_share']:.1%}) |"
        )
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(json.dumps(run(), indent=1))
