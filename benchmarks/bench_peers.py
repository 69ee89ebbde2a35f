"""Side by side with the tools users would pick instead, in one run on the same files.

Needs the peers, installed into a separate environment (never imported by the library):
``pip install -e '.[bench]'`` then ``python -m benchmarks peers``.

1. Ingest throughput (pages/s) on the corpus's text-layer PDFs: citeline (pdfplumber and pdfium
   backends, 1 and 2 workers, into SQLite) against raw pdfplumber ``extract_text``, raw pypdfium2,
   and LangChain (``PyPDFLoader`` and ``PDFPlumberLoader`` + ``RecursiveCharacterTextSplitter`` with
   ``add_start_index=True``), in :data:`ROUNDS` rounds; medians, and the ratios the targets are
   stated in, taken round by round. Plot: throughput against workers.
2. Offset exactness on the generated fixtures: the share of chunks whose reported offset, read back
   in the text the offset claims to index, gives the chunk (citeline: the raw source stream through
   the stored map; LangChain: the loaded page text at ``start_index``; LlamaIndex: the document text
   at ``start_char_idx``), and whether that text is the source's own characters.
3. Quote verification on the labelled calibration set: precision, recall and citations/s of
   citeline, quotecheck's ``check()`` and a ``difflib.SequenceMatcher`` sliding window.
4. Memory: peak RSS of one worker ingesting the largest PDF of the corpus, per backend.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_extract import raw_extract_text, raw_pdfium
from benchmarks.bench_verify import difflib_sliding
from benchmarks.common import FIXTURES, RESULTS, ROOT, linked_corpus, section, text_layer_pdfs, timed
from citeline.batch import IngestOptions, ingest_files
from citeline.ingest.extract.ocr import OcrSettings
from citeline.ingest.pipeline import PipelineSettings
from citeline.store import Store

#: The peers read text layers only, so citeline does too here: with OCR on, the 21 pages of
#: tamreview_cid_garbled.pdf (mostly unmapped glyphs) are OCR'd, about 50 s of each ingest
NO_OCR = OcrSettings(mode="off")

#: Rounds of the throughput measurement (``CITELINE_BENCH_ROUNDS``): this machine's speed drifts
#: from minute to minute, so every pipeline runs once per round and medians are reported.
ROUNDS = int(os.environ.get("CITELINE_BENCH_ROUNDS", "3"))
#: A difflib window ratio at or above this counts as found (the usual choice for this approach).
DIFFLIB_THRESHOLD = 0.9
OFFSET_FIXTURES = ["policy_handbook.pdf", "policy_handbook_v2.pdf", "two_column_paper.pdf", "multilingual.pdf"]


def _langchain(loader_name: str, path: Path) -> tuple[int, list[Any], list[Any]]:
    from langchain_community.document_loaders import PDFPlumberLoader, PyPDFLoader
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    loader = {"PyPDFLoader": PyPDFLoader, "PDFPlumberLoader": PDFPlumberLoader}[loader_name](str(path))
    pages = loader.load()
    splitter = RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=150, add_start_index=True)
    return len(pages), pages, splitter.split_documents(pages)


def throughput() -> dict[str, Any]:
    """Pages/s of every pipeline, :data:`ROUNDS` rounds in a row (each round runs every pipeline
    once, the two citeline backends back to back); the median of the rounds is reported, with
    every round's figure."""
    files = text_layer_pdfs()
    runners = {
        "pdfplumber extract_text": lambda p: raw_extract_text(p),
        "pypdfium2 get_text_range": lambda p: raw_pdfium(p),
        "LangChain PyPDFLoader + splitter": lambda p: _langchain("PyPDFLoader", p)[0],
        "LangChain PDFPlumberLoader + splitter": lambda p: _langchain("PDFPlumberLoader", p)[0],
    }
    rates: dict[str, list[float]] = {}
    workers_of: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = linked_corpus(Path(tmp) / "c", files)
        for round_no in range(1, ROUNDS + 1):
            for name, fn in runners.items():
                with section(f"throughput, round {round_no}/{ROUNDS}: {name}"):
                    pages = 0
                    dt = 0.0
                    for path, _ in files:
                        t, n = timed(lambda fn=fn, path=path: fn(path))
                        dt += t
                        pages += n
                rates.setdefault(name, []).append(pages / dt)
                workers_of[name] = 1
            for workers in (1, 2):
                for backend in ("pdfplumber", "pdfium"):
                    name = citeline_name(backend, workers)
                    db = Path(tmp) / f"{backend}{workers}-{round_no}.db"
                    with section(f"throughput, round {round_no}/{ROUNDS}: {name}"), Store(f"sqlite:///{db}") as s:
                        settings = PipelineSettings(extractor=backend, ocr=NO_OCR)
                        options = IngestOptions(follow_links=True, settings=settings, workers=workers)
                        dt, summary = timed(lambda s=s, options=options: ingest_files(s, [folder], options))
                    rates.setdefault(name, []).append(summary.pages / dt)
                    workers_of[name] = workers
    return {
        name: {
            "workers": workers_of[name],
            "pages_per_second": round(statistics.median(values), 2),
            "rounds": [round(v, 2) for v in values],
        }
        for name, values in rates.items()
    }


def citeline_name(backend: str, workers: int) -> str:
    return f"citeline {backend} (ingest, {workers} worker{'s' if workers > 1 else ''})"


#: Ratios the targets are stated in: (numerator, denominator), both measured in every round.
RATIOS = {
    "citeline pdfium vs citeline pdfplumber, 1 worker": (citeline_name("pdfium", 1), citeline_name("pdfplumber", 1)),
    "citeline pdfium vs citeline pdfplumber, 2 workers": (citeline_name("pdfium", 2), citeline_name("pdfplumber", 2)),
    "citeline pdfplumber (1 worker) vs raw pdfplumber extract_text": (
        citeline_name("pdfplumber", 1),
        "pdfplumber extract_text",
    ),
    "citeline pdfplumber (1 worker) vs LangChain PDFPlumberLoader + splitter": (
        citeline_name("pdfplumber", 1),
        "LangChain PDFPlumberLoader + splitter",
    ),
    "citeline pdfium (1 worker) vs LangChain PyPDFLoader + splitter": (
        citeline_name("pdfium", 1),
        "LangChain PyPDFLoader + splitter",
    ),
}


def ratios(throughput_results: dict[str, Any]) -> dict[str, Any]:
    """Each ratio per round (both sides measured minutes apart at most), and their median."""
    out = {}
    for label, (num, den) in RATIOS.items():
        per_round = [
            a / b for a, b in zip(throughput_results[num]["rounds"], throughput_results[den]["rounds"], strict=True)
        ]
        out[label] = {"median": round(statistics.median(per_round), 2), "rounds": [round(r, 2) for r in per_round]}
    return out


def drawn_text(name: str) -> str:
    """The characters the fixture generator drew, in reading order (ground truth), whitespace
    collapsed: running header, the page's body lines, footer, page after page."""
    truth = json.loads((FIXTURES / name.replace(".pdf", ".truth.json")).read_text(encoding="utf-8"))
    pages: dict[int, list[str]] = {}
    for f in truth["furniture"]:
        if f["kind"] == "header":
            pages.setdefault(f["page"], []).append(f["text"])
    for para in truth["paragraphs"]:
        for line in para["lines"]:
            pages.setdefault(line["page"], []).append(line["text"])
    for f in truth["furniture"]:
        if f["kind"] != "header":
            pages.setdefault(f["page"], []).append(f["text"])
    return _ws(" ".join(" ".join(pages[p]) for p in sorted(pages)))


def _ws(text: str) -> str:
    return " ".join(text.split())


def offsets() -> dict[str, Any]:
    """Do reported chunk offsets give the chunk back (in the text they index), and is that text the
    source's own characters (ground truth of the fixtures: ligature glyphs, line-end hyphens, running
    headers, as drawn)?"""
    from llama_index.core import Document
    from llama_index.core.node_parser import SentenceSplitter

    res: dict[str, dict[str, Any]] = {}

    def tally(tool: str, ok: bool, span_text: str, drawn: str) -> None:
        r = res.setdefault(tool, {"chunks": 0, "offset_gives_chunk": 0, "offset_in_source_characters": 0})
        r["chunks"] += 1
        r["offset_gives_chunk"] += ok
        r["offset_in_source_characters"] += ok and _ws(span_text) in drawn

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "fx"
        folder.mkdir()
        for name in OFFSET_FIXTURES:
            os.symlink(FIXTURES / name, folder / name)
        with Store(f"sqlite:///{Path(tmp) / 'o.db'}") as s:
            ingest_files(s, [folder], IngestOptions(follow_links=True, workers=1))
            for c in s.iter_chunks():
                raw = s.raw_text(c.version_id)
                ok = True
                for r in c.map.runs():  # the raw slice through the stored map gives the chunk
                    src, out = raw[r.orig_start : r.orig_end], c.text[r.norm_start : r.norm_end]
                    if r.kind == 0:
                        ok &= all(a == b or (a.isspace() and b in " \n") for a, b in zip(src, out, strict=True))
                tally("citeline raw_start/raw_end", ok, raw[c.raw_start : c.raw_end], drawn_text(c.document_uri))
    for name in OFFSET_FIXTURES:
        path, drawn = FIXTURES / name, drawn_text(name)
        for loader in ("PyPDFLoader", "PDFPlumberLoader"):
            _, pages, chunks = _langchain(loader, path)
            texts = [p.page_content for p in pages]
            for ch in chunks:
                start = ch.metadata["start_index"]
                span = texts[ch.metadata.get("page", 0)][start : start + len(ch.page_content)]
                tally(f"LangChain {loader} start_index", span == ch.page_content, span, drawn)
        # LlamaIndex users load PDFs with a loader too; its offsets index that document text
        text = "\n\n".join(p.page_content for p in _langchain("PDFPlumberLoader", path)[1])
        for node in SentenceSplitter(chunk_size=256, chunk_overlap=30).get_nodes_from_documents([Document(text=text)]):
            s_, e_ = node.start_char_idx, node.end_char_idx
            span = text[s_:e_] if s_ is not None and e_ is not None else ""
            tally("LlamaIndex SentenceSplitter start_char_idx", span == node.get_content(), span, drawn)
    for r in res.values():
        r["exactness"] = round(r["offset_gives_chunk"] / r["chunks"], 4)
        r["source_exactness"] = round(r["offset_in_source_characters"] / r["chunks"], 4)
    return res


def verification() -> dict[str, Any]:
    import quotecheck

    from benchmarks.calibration.build import build
    from citeline.text.lexicon import document_language
    from citeline.verify.match import locate

    pairs = build(seed=13)
    # verify knows each document's language (found once per version, from its chunks), and the
    # lexicon rules use it: the same here, worked out before the timing as verify has it cached
    langs = {p["chunk"]: document_language(p["chunk"]) for p in pairs}
    tools = {
        "citeline": lambda q, c: locate(q, c, lang=langs[c]).found,
        "quotecheck check()": lambda q, c: quotecheck.check(q, c).ok,
        "difflib sliding window": lambda q, c: difflib_sliding(q, c) >= DIFFLIB_THRESHOLD,
    }
    out: dict[str, Any] = {"pairs": len(pairs)}
    for name, fn in tools.items():
        tp = fp = fn_ = 0
        with section(f"verification: {name} on {len(pairs)} pairs"):
            t0 = time.perf_counter()
            for p in pairs:
                got, pos = fn(p["quote"], p["chunk"]), p["label"] == "match"
                tp += got and pos
                fp += got and not pos
                fn_ += pos and not got
            dt = time.perf_counter() - t0
        out[name] = {
            "precision": round(tp / (tp + fp), 4) if tp + fp else 0.0,
            "recall": round(tp / (tp + fn_), 4),
            "citations_per_second": round(len(pairs) / dt, 1),
        }
    return out


def memory() -> dict[str, Any]:
    """Peak RSS of a process that ingests the largest corpus PDF (one worker, measured in a child)."""
    largest = max(text_layer_pdfs(), key=lambda fp: fp[1])[0]
    out: dict[str, Any] = {"file": largest.name}
    # VmHWM, not ru_maxrss: the latter keeps the (large) benchmark process's peak across fork+exec
    code = (
        "import sys\n"
        "from citeline.ingest.pipeline import process_file, PipelineSettings\n"
        "doc = process_file(sys.argv[1], 'x', PipelineSettings(extractor=sys.argv[2]))\n"
        "hwm = next(l for l in open('/proc/self/status') if l.startswith('VmHWM:')).split()[1]\n"
        "print(int(hwm) / 1024, doc.page_count)\n"
    )
    for backend in ("pdfplumber", "pdfium"):
        res = subprocess.run(
            [sys.executable, "-c", code, str(largest), backend], capture_output=True, text=True, cwd=ROOT, check=True
        )
        rss, pages = res.stdout.split()
        out[backend] = {"peak_rss_mb": round(float(rss), 1), "pages": int(pages)}
    return out


def plot(throughput_results: dict[str, Any]) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    for backend in ("pdfplumber", "pdfium"):
        xs = [1, 2]
        ys = [throughput_results[citeline_name(backend, w)]["pages_per_second"] for w in xs]
        ax.plot(xs, ys, marker="o", label=f"citeline {backend} backend")
    references = (
        "pdfplumber extract_text",
        "LangChain PyPDFLoader + splitter",
        "LangChain PDFPlumberLoader + splitter",
    )
    for name, colour in zip(references, ("C2", "C3", "C4"), strict=True):
        rate = throughput_results[name]["pages_per_second"]
        ax.axhline(rate, color=colour, linestyle="--", linewidth=1, label=f"{name} (1 process)")
    ax.set_xlabel("worker processes")
    ax.set_ylabel("pages per second")
    ax.set_xticks([1, 2])
    ax.set_yscale("log")
    ax.legend(fontsize=7)
    ax.set_title(f"Ingest throughput, text-layer corpus PDFs ({os.cpu_count()} CPUs)")
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / "throughput.png"
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return path


def run(parts: tuple[str, ...] = ("throughput", "offsets", "verification", "memory")) -> dict[str, Any]:
    steps = {"throughput": throughput, "offsets": offsets, "verification": verification, "memory": memory}
    results: dict[str, Any] = {part: steps[part]() for part in parts}
    if "throughput" not in results:
        return results
    results["throughput_ratios"] = ratios(results["throughput"])
    image = plot(results["throughput"])
    results["plot"] = str(image) if image else None
    print(json.dumps(results, indent=2))
    return results
