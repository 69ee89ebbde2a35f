"""Extraction throughput (pages/s) per backend on the corpus's text-layer PDFs, with raw pdfplumber
``Page.extract_text()`` and raw pypdfium2 ``get_text_range()`` as references in the same run; OCR
off (the references read only text layers).

Then, as issue 35's acceptance asks, wall time with start-up, one process per file
(``benchmarks/extract_child.py``), medians of paired rounds, on the 91-page set of eight dense
two-column papers (:data:`TWO_COLUMN_SET`) and on the whole text-layer corpus: citeline's extraction
with either backend (OCR off), citeline's ingest with pdfium into SQLite (1 worker, OCR off), raw
pypdfium2 reading the text and every character's box, raw pdfplumber ``extract_text``, and
kreuzberg's ``extract_file_sync`` when it is installed; the same runners once more with **one**
process per runner reading the whole 91-page set (one ``citeline ingest`` of the eight files, as a
corpus is indexed, against one process of each reference reading them in turn); and the peak RSS of
the process extracting the 117-page textbook with either backend."""

from __future__ import annotations

import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium

from benchmarks.common import CORPUS, ROOT, section, text_layer_pdfs, timed
from benchmarks.extract_child import raw_extract_text
from citeline.ingest.errors import ExtractionError
from citeline.ingest.extract import extract
from citeline.ingest.extract.ocr import OcrSettings

#: text layers only, as the references read them (OCR would read the 21 pages of
#: tamreview_cid_garbled.pdf, mostly unmapped glyphs, at about 2.4 s a page)
NO_OCR = OcrSettings(mode="off")


def raw_pdfium(path: Path) -> int:
    doc = pdfium.PdfDocument(str(path))
    try:
        for page in doc:
            tp = page.get_textpage()
            tp.get_text_range()
            tp.close()
            page.close()
        return len(doc)
    finally:
        doc.close()


def ours(backend: str) -> Any:
    def run(path: Path) -> int:
        return extract(path, extractor=backend, fallback=False, ocr=NO_OCR).page_count

    return run


def run(repeat: int = 1) -> dict[str, Any]:
    files = text_layer_pdfs()
    runners = {
        "pdfplumber extract_text (reference)": lambda path: raw_extract_text(str(path)),
        "citeline pdfplumber backend": ours("pdfplumber"),
        "pypdfium2 get_text_range (reference)": raw_pdfium,
        "citeline pdfium backend": ours("pdfium"),
    }
    seconds = dict.fromkeys(runners, 0.0)
    pages = dict.fromkeys(runners, 0)
    with section(f"extraction throughput on {len(files)} text-layer PDFs"):
        for path, _ in files:
            for name, fn in runners.items():
                best = None
                for _ in range(repeat):
                    try:
                        dt, n = timed(lambda fn=fn, path=path: fn(path))
                    except (ExtractionError, Exception):  # a file one parser refuses is left out for all
                        best = None
                        break
                    best = dt if best is None else min(best, dt)
                if best is None:
                    continue
                seconds[name] += best
                pages[name] += n
    rates = {name: pages[name] / seconds[name] for name in runners if seconds[name]}
    plumber = rates["citeline pdfplumber backend"]
    result = {
        "files": len(files),
        "pages": pages,
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "pages_per_second": {k: round(v, 1) for k, v in rates.items()},
        "ratios": {
            "pdfplumber backend / raw extract_text": round(plumber / rates["pdfplumber extract_text (reference)"], 3),
            "pdfium backend / pdfplumber backend": round(rates["citeline pdfium backend"] / plumber, 2),
            "pdfium backend / raw pypdfium2 text": round(
                rates["citeline pdfium backend"] / rates["pypdfium2 get_text_range (reference)"], 3
            ),
        },
    }
    for k, v in result["pages_per_second"].items():
        print(f"   {k:40} {v:8.1f} pages/s")
    for k, v in result["ratios"].items():
        print(f"   {k:40} {v}")
    if os.environ.get("CITELINE_BENCH_EXTRACT_PROCESSES", "1") != "0":
        result.update(processes())
    return result


#: The 91-page set: the eight dense two-column papers of ../shared/corpus (MANIFEST kind tag
#: ``two-column``), 91 pages in all.
TWO_COLUMN_SET = (
    "acl2018_N18-3011_literature_graph_2col.pdf",  # 8 pages
    "acl2020_s2orc_2col.pdf",  # 15
    "acl2020_specter_2col.pdf",  # 13
    "naacl06_shinyama_2col.pdf",  # 8
    "chi2023_citesee_2col.pdf",  # 15
    "chi2023ws_beyond_summarization_2col.pdf",  # 4
    "eacl2023_longeval_2col.pdf",  # 20
    "arxiv_creativity_in_ml.pdf",  # 8
)
#: The 117-page textbook whose peak memory is reported.
TEXTBOOK = "geotopo_german_textbook.pdf"
CHILD = ROOT / "benchmarks" / "extract_child.py"
#: label -> runner of extract_child.py (``ingest`` is citeline's CLI)
PROCESS_RUNNERS = {
    "citeline pdfium extract": "citeline-pdfium",
    "citeline pdfium ingest (SQLite, 1 worker)": "ingest",
    "citeline pdfplumber extract": "citeline-pdfplumber",
    "raw pypdfium2 text + char boxes": "raw-pypdfium2-boxes",
    "raw pypdfium2 raw API text + char boxes": "raw-pypdfium2-api",
    "raw pdfplumber extract_text": "raw-extract-text",
    "kreuzberg extract_file_sync": "kreuzberg",
}


def child(runner: str, path: Path | Sequence[Path], workdir: Path) -> tuple[float, float, float, bool]:
    """``(wall seconds, CPU seconds, peak RSS MB, ok)`` of one fresh process running ``runner`` on
    ``path``, or on several files one after the other (CPU: user + system time of the process and
    its children, from ``wait4``; on a shared machine it moves less than the wall time. ``citeline
    ingest``'s workers are children of a forkserver it never waits for, so its CPU time is the
    command's own, without its workers'; peak RSS:
    the reader's own high-water mark, which it prints). ``ingest`` adds the files to
    ``workdir/ingest.db``: the first file of a round creates the database, as ingesting a corpus
    file by file would."""
    paths = [str(p) for p in ([path] if isinstance(path, Path) else path)]
    if runner == "ingest":
        db = workdir / "ingest.db"
        cmd = [
            sys.executable, "-c", "from citeline.cli import main; main()", "--db", f"sqlite:///{db}", "ingest",
            *paths, "--workers", "1", "--extractor", "pdfium", "--ocr", "off", "--quiet",
        ]  # fmt: skip
    else:
        cmd = [sys.executable, str(CHILD), runner, *paths]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # every runner's modules from compiled bytecode, as an installed package loads them (an editable
    # install under PYTHONDONTWRITEBYTECODE=1 would compile citeline's source in every process)
    env.update(PYTHONWARNINGS="ignore", PYTHONPYCACHEPREFIX=str(workdir / "pycache"))
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, env=env, cwd=workdir)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        printed = out.read().decode("utf-8", "replace").split()
    cpu = usage.ru_utime + usage.ru_stime
    rss = int(printed[1]) / 1024 if runner != "ingest" and len(printed) == 2 else usage.ru_maxrss / 1024
    return wall, cpu, rss, proc.returncode == 0


def drop_database(workdir: Path) -> None:
    for leftover in workdir.glob("ingest.db*"):
        leftover.unlink()


def process_runners() -> tuple[dict[str, str], dict[str, str]]:
    """The runners this environment has, and the reason each missing one is left out."""
    missing = {}
    runners = dict(PROCESS_RUNNERS)
    if importlib.util.find_spec("kreuzberg") is None:
        runners.pop("kreuzberg extract_file_sync")
        missing["kreuzberg extract_file_sync"] = "kreuzberg is not installed (pip install '.[bench]')"
    return runners, missing


def wall_times(files: list[Path], rounds: int, workdir: Path) -> dict[str, Any]:
    """Per runner: the median over ``rounds`` paired rounds of the summed wall time of its processes
    (each round runs every runner on every file, runner by runner per file); a file any runner fails
    on is left out for all."""
    runners, missing = process_runners()
    for runner in runners.values():  # warm-up: the bytecode cache, the page cache
        child(runner, files[0], workdir)
    drop_database(workdir)
    totals: dict[str, list[float]] = {name: [] for name in runners}
    cpu_totals: dict[str, list[float]] = {name: [] for name in runners}
    failed: set[str] = set()
    per_file: dict[str, dict[str, list[float]]] = {p.name: {n: [] for n in runners} for p in files}
    cpu_file: dict[str, dict[str, list[float]]] = {p.name: {n: [] for n in runners} for p in files}
    for _ in range(rounds):
        drop_database(workdir)  # each round ingests into a new database
        for path in files:
            for name, runner in runners.items():
                wall, cpu, _, ok = child(runner, path, workdir)
                if not ok:
                    failed.add(path.name)
                per_file[path.name][name].append(wall)
                cpu_file[path.name][name].append(cpu)
    kept = [p.name for p in files if p.name not in failed]
    for name in runners:
        for r in range(rounds):
            totals[name].append(sum(per_file[f][name][r] for f in kept))
            cpu_totals[name].append(sum(cpu_file[f][name][r] for f in kept))
    medians = {name: round(statistics.median(v), 3) for name, v in totals.items()}
    return {
        "files": len(kept),
        "left_out": sorted(failed),
        "rounds_run": rounds,
        "wall_seconds": medians,
        "cpu_seconds": {name: round(statistics.median(v), 3) for name, v in cpu_totals.items()},
        "not_run": missing,
        "seconds_rounds": {name: [round(x, 3) for x in v] for name, v in totals.items()},
        "per_file": {f: {n: round(statistics.median(v), 3) for n, v in per_file[f].items()} for f in kept},
    }


def batch_times(files: list[Path], rounds: int, workdir: Path) -> dict[str, Any]:
    """Per runner: the median over ``rounds`` paired rounds of the wall time of **one** process
    reading every file of ``files`` in turn (for ``ingest``: one ``citeline ingest`` of them all into
    a new database, as a corpus is indexed), start-up included once."""
    runners, missing = process_runners()
    for runner in runners.values():  # warm-up: the bytecode cache, the page cache
        child(runner, files[:1], workdir)
    walls: dict[str, list[float]] = {name: [] for name in runners}
    failed = set()
    for _ in range(rounds):
        for name, runner in runners.items():
            drop_database(workdir)
            wall, _, _, ok = child(runner, files, workdir)
            walls[name].append(wall)
            if not ok:
                failed.add(name)
    drop_database(workdir)
    return {
        "files": len(files),
        "rounds_run": rounds,
        "wall_seconds": {name: round(statistics.median(v), 3) for name, v in walls.items()},
        "seconds_rounds": {name: [round(x, 3) for x in v] for name, v in walls.items()},
        "failed": sorted(failed),
        "not_run": missing,
    }


def wall_ratios(w: dict[str, float]) -> dict[str, float]:
    out = {}
    raw, plumber_raw, kb = (
        w.get("raw pypdfium2 text + char boxes"), w.get("raw pdfplumber extract_text"),
        w.get("kreuzberg extract_file_sync"),
    )  # fmt: skip
    api = w.get("raw pypdfium2 raw API text + char boxes")
    for ours in ("citeline pdfium extract", "citeline pdfium ingest (SQLite, 1 worker)"):
        if raw:
            out[f"{ours} / raw pypdfium2 text + char boxes"] = round(w[ours] / raw, 2)
        if api:
            out[f"{ours} / raw pypdfium2 raw API"] = round(w[ours] / api, 2)
        if kb:
            out[f"{ours} / kreuzberg"] = round(w[ours] / kb, 2)
    if plumber_raw:
        out["citeline pdfplumber extract / raw pdfplumber extract_text"] = round(
            w["citeline pdfplumber extract"] / plumber_raw, 2
        )
    return out


def peak_memory(workdir: Path) -> dict[str, float]:
    """Peak RSS (MB) of one process extracting the 117-page textbook, per backend."""
    path = CORPUS / TEXTBOOK
    out = {}
    child("citeline-pdfium", path, workdir)  # warm-up: the bytecode cache
    for backend in ("pdfium", "pdfplumber"):
        _, _, rss, ok = child(f"citeline-{backend}", path, workdir)
        if ok:
            out[f"citeline {backend}"] = round(rss, 1)
    _, _, rss, ok = child("raw-pypdfium2-boxes", path, workdir)
    if ok:
        out["raw pypdfium2 text + char boxes"] = round(rss, 1)
    return out


def processes(rounds: int = 3, corpus_rounds: int = 1) -> dict[str, Any]:
    """The per-process figures of issue 35: the 91-page set, the whole text-layer corpus, peak RSS."""
    two_col = [CORPUS / name for name in TWO_COLUMN_SET]
    corpus = [p for p, _ in text_layer_pdfs()]
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="citeline-bench-extract-") as tmp:
        work = Path(tmp)
        with section(f"wall time, one process per file, 91-page two-column set ({rounds} paired rounds)"):
            out["two_column_91"] = wall_times(two_col, rounds, work)
        with section(f"wall time, one process for the whole 91-page set ({rounds} paired rounds)"):
            out["two_column_91_batch"] = batch_times(two_col, rounds, work)
        with section(f"wall time, one process per file, {len(corpus)} text-layer corpus PDFs"):
            out["corpus_wall"] = wall_times(corpus, corpus_rounds, work)
        with section(f"peak RSS extracting {TEXTBOOK} (117 pages)"):
            out["textbook_peak_rss_mb"] = peak_memory(work)
    for part in ("two_column_91", "two_column_91_batch", "corpus_wall"):
        out[part]["ratios"] = wall_ratios(out[part]["wall_seconds"])
        cpu = out[part].get("cpu_seconds")
        if cpu is not None:
            out[part]["cpu_ratios"] = wall_ratios(cpu)
        for k, v in out[part]["wall_seconds"].items():
            print(f"   [{part}] {k:45} {v:8.2f} s wall" + (f" {cpu[k]:8.2f} s CPU" if cpu else ""))
        for k, v in out[part]["ratios"].items():
            print(f"   [{part}] {k:70} {v}" + (f" (CPU: {out[part]['cpu_ratios'][k]})" if cpu else ""))
        for k, v in out[part]["not_run"].items():
            print(f"   [{part}] not run: {k}: {v}")
    for k, v in out["textbook_peak_rss_mb"].items():
        print(f"   peak RSS {k:40} {v:8.1f} MB")
    return out
