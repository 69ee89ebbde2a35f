"""Text fidelity: the share of reference sentences each tool keeps intact, on the corpus's text-layer PDFs.

The reference is poppler's ``pdftotext -enc UTF-8 FILE -``. From its output, per PDF: pages are split on
form feeds, paragraphs on blank lines, ``-\\n`` before a lower-case letter is rejoined, whitespace is
collapsed, and sentences are split after ``.!?`` followed by a space and a capital letter. Sentences of
8-60 words and 60-400 characters, at least 70% letters and without ``(cid:``, are candidates; up to 20 per
PDF are sampled with a seed taken from the file name (the same sentences for every tool).

A sentence is *intact* when its folded form (ligatures expanded, NFKC, lower case, no quotes, hyphens,
dashes, soft hyphens, control or format characters, or whitespace) is a substring of the tool's folded
whole-document text; for the chunk rows, of the folded text of one chunk. Tools in the same run:
citeline's cleaned text and its chunks with each backend, and the raw text of pdfplumber, pypdfium2,
PyMuPDF, pypdf, pdfminer.six and kreuzberg. A peer that is not importable here is reported as not
installed; a tool that raises on a PDF scores 0 on it and the error is kept. Overall share = intact /
sampled sentences over all PDFs. The same count over *every* candidate sentence of every PDF is
reported beside it (a finer measure, weighted by each PDF's length: a long PDF counts for more)."""

from __future__ import annotations

import importlib.util
import random
import re
import subprocess
import time
import unicodedata
import zlib
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from benchmarks.common import primary_kinds, section, text_layer_pdfs

#: Sentences sampled per PDF at most.
PER_PDF = 20
#: Failed sentences kept per tool and PDF, for debugging.
EXAMPLES = 3

_LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"}
#: Characters the fold drops: quotes, primes, accents used as quotes, hyphen-minus, hyphens and dashes;
#: and every control and format character (the soft hyphen, zero-width and bidi marks, pdftotext's
#: stray control bytes).
_DROPPED = "'\"`´‘’‚‛“”„‟«»‹›′″‴-\u2010\u2011\u2012\u2013\u2014\u2015" + "".join(
    chr(c) for c in (*range(0x10000), *range(0xE0000, 0xE0080)) if unicodedata.category(chr(c)) in ("Cc", "Cf")
)
_FOLD_TABLE = str.maketrans({**_LIGATURES, **dict.fromkeys(_DROPPED, "")})
_SENTENCE_END = re.compile(r"[.!?] (?=\S)")
_HYPHEN_BREAK = re.compile(r"-\n(?=[^\W\d_])")
_PARAGRAPH = re.compile(r"\n[ \t\r\v]*\n")


def fold(text: str) -> str:
    """Normalise ``text`` for the substring test: ligatures, NFKC, lower case; no quotes, hyphens,
    dashes, soft hyphens, control or format characters, or whitespace."""
    text = unicodedata.normalize("NFKC", text.translate(_FOLD_TABLE)).lower()
    return "".join(text.translate(_FOLD_TABLE).split())


def reference_text(path: str | Path) -> str:
    """poppler's ``pdftotext -enc UTF-8 FILE -``."""
    done = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, timeout=300, check=True)
    return done.stdout.decode("utf-8", errors="replace")


def split_sentences(paragraph: str) -> list[str]:
    """Split after ``.!?`` followed by a space and a capital letter."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(paragraph):
        if paragraph[m.end()].isupper():
            out.append(paragraph[start : m.end() - 1])
            start = m.end()
    out.append(paragraph[start:])
    return [s for s in out if s]


def candidate(sentence: str) -> bool:
    words = len(sentence.split())
    letters = sum(c.isalpha() for c in sentence)
    return (
        8 <= words <= 60 and 60 <= len(sentence) <= 400 and letters >= 0.7 * len(sentence) and "(cid:" not in sentence
    )


def _rejoin(m: re.Match[str]) -> str:
    return "" if m.string[m.end()].islower() else m.group(0)


def sentences_of(text: str) -> list[str]:
    """Every candidate sentence of a pdftotext output, deduplicated and sorted."""
    found = set()
    for page in text.split("\f"):
        for paragraph in _PARAGRAPH.split(page):
            paragraph = _HYPHEN_BREAK.sub(_rejoin, paragraph)
            paragraph = " ".join(paragraph.split())
            found.update(s for s in split_sentences(paragraph) if candidate(s))
    return sorted(found)


def reference_sentences(path: str | Path, limit: int = PER_PDF, candidates: list[str] | None = None) -> list[str]:
    """Up to ``limit`` reference sentences of one PDF (of its ``candidates``, read from pdftotext when
    not given), sampled with a seed taken from its file name."""
    if candidates is None:
        candidates = sentences_of(reference_text(path))
    rng = random.Random(zlib.crc32(Path(path).name.encode("utf-8")))
    return rng.sample(candidates, min(limit, len(candidates)))


def intact(sentences: Sequence[str], text: str | Sequence[str]) -> list[bool]:
    """Whether each sentence survives in ``text``: a string is one whole document; a sequence of strings
    is a list of chunks, and the sentence must lie inside one of them."""
    pieces = [fold(text)] if isinstance(text, str) else [fold(t) for t in text]
    return [any(f in p for p in pieces) for f in map(fold, sentences)]


# ----------------------------------------------------------------------------- the tools

#: What a tool returns for one PDF: its whole text, or its chunks.
Output = str | list[str]


def citeline_outputs(path: Path, backend: str) -> tuple[dict[str, Output], dict[str, float]]:
    """One pipeline run gives both citeline rows: the cleaned whole text (what ``citeline extract FILE
    --cleaned --extractor BACKEND`` prints, cleaned again from the pipeline's extraction) and the chunks
    of ``process_file``. The whole-text row is timed as the pipeline without its chunking step, the
    chunk row as the whole pipeline."""
    from citeline.ingest.clean.pipeline import clean
    from citeline.ingest.pipeline import PipelineSettings, process_file

    t0 = time.perf_counter()
    doc = process_file(path, path.name, PipelineSettings(extractor=backend))
    seconds = time.perf_counter() - t0
    ex = doc.extraction
    text = clean(ex.raw, geometry=ex.line_geometry() if ex.lines else None, known_furniture=ex.furniture).text
    whole, chunks = f"citeline ({backend})", f"citeline chunks ({backend})"
    return (
        {whole: text, chunks: [c.text for c in doc.chunks]},
        {whole: seconds - doc.seconds["chunk"], chunks: seconds},
    )


def pdfplumber_text(path: Path) -> str:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def pypdfium2_text(path: Path) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    try:
        parts = []
        for page in doc:
            tp = page.get_textpage()
            parts.append(tp.get_text_range())
            tp.close()
            page.close()
        return "\n".join(parts)
    finally:
        doc.close()


def pymupdf_text(path: Path) -> str:
    import pymupdf

    with pymupdf.open(path) as doc:
        return "\n".join(page.get_text() for page in doc)


def pypdf_text(path: Path) -> str:
    import pypdf

    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


def pdfminer_text(path: Path) -> str:
    from pdfminer.high_level import extract_text

    return str(extract_text(path))


def kreuzberg_text(path: Path) -> str:
    import kreuzberg

    return str(kreuzberg.extract_file_sync(str(path)).content)


#: Peer name -> (import name, distribution name, function).
PEERS: dict[str, tuple[str, str, Callable[[Path], str]]] = {
    "pdfplumber": ("pdfplumber", "pdfplumber", pdfplumber_text),
    "pypdfium2": ("pypdfium2", "pypdfium2", pypdfium2_text),
    "PyMuPDF": ("pymupdf", "pymupdf", pymupdf_text),
    "pypdf": ("pypdf", "pypdf", pypdf_text),
    "pdfminer.six": ("pdfminer", "pdfminer.six", pdfminer_text),
    "kreuzberg": ("kreuzberg", "kreuzberg", kreuzberg_text),
}
BACKENDS = ("pdfplumber", "pdfium")
CITELINE = [f"citeline{kind} ({b})" for b in BACKENDS for kind in ("", " chunks")]


def _version(dist: str) -> str | None:
    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]


def _pdftotext_version() -> str:
    done = subprocess.run(["pdftotext", "-v"], capture_output=True, text=True, check=False)
    return (done.stderr or done.stdout).splitlines()[0].strip()


# ----------------------------------------------------------------------------- the run


def run() -> dict[str, Any]:
    files = text_layer_pdfs()
    kinds = primary_kinds()
    installed = {name: p for name, p in PEERS.items() if importlib.util.find_spec(p[0]) is not None}
    not_installed = [name for name in PEERS if name not in installed]
    tools = CITELINE + list(installed)
    seconds = dict.fromkeys(tools, 0.0)
    per_file: dict[str, Any] = {}
    with section(f"sentence fidelity on {len(files)} text-layer PDFs, {len(tools)} tools"):
        if not_installed:
            print(f"   not installed: {', '.join(not_installed)}")
        print("   columns: " + ", ".join(tools))
        for path, pages in files:
            entry: dict[str, Any] = {"pages": pages, "tables": kinds.get(path.name) == "tables"}
            per_file[path.name] = entry
            try:
                candidates = sentences_of(reference_text(path))
                sentences = reference_sentences(path, candidates=candidates)
            except (subprocess.SubprocessError, OSError) as exc:
                entry.update(sentences=0, reference_error=_error(exc))
                print(f"   {path.name:45} reference failed: {entry['reference_error']}")
                continue
            entry["sentences"] = len(sentences)
            entry["every"] = len(candidates)
            if not sentences:
                print(f"   {path.name:45} no reference sentences")
                continue
            outputs: dict[str, Output | BaseException] = {}
            for backend in BACKENDS:
                t0 = time.perf_counter()
                try:
                    got, took = citeline_outputs(path, backend)
                except Exception as exc:  # both rows fail; both took the time spent
                    failed = [f"citeline ({backend})", f"citeline chunks ({backend})"]
                    got = dict.fromkeys(failed, exc)
                    took = dict.fromkeys(failed, time.perf_counter() - t0)
                outputs.update(got)
                for name, s in took.items():
                    seconds[name] += s
            for name, (_, _, fn) in installed.items():
                t0 = time.perf_counter()
                try:
                    outputs[name] = fn(path)
                except Exception as exc:
                    outputs[name] = exc
                seconds[name] += time.perf_counter() - t0
            scores: dict[str, Any] = {}
            anywhere = [False] * len(sentences)
            for name in tools:
                out = outputs[name]
                if isinstance(out, BaseException):
                    scores[name] = {"intact": 0, "intact_every": 0, "error": _error(out), "missed": []}
                    continue
                # the sample is drawn from the candidates: one substring test each, the text folded once
                every = dict(zip(candidates, intact(candidates, out), strict=True))
                ok = [every[s] for s in sentences]
                anywhere = [a or b for a, b in zip(anywhere, ok, strict=True)]
                missed = [s for s, good in zip(sentences, ok, strict=True) if not good]
                scores[name] = {
                    "intact": sum(ok),
                    "intact_every": sum(every.values()),
                    "missed": missed[:EXAMPLES],
                }
            entry["tools"] = scores
            # intact in at least one tool's text: the rest are sentences no tool reads as pdftotext
            # does (pdftotext's own merges of neighbouring columns, footers or cells)
            entry["any_tool"] = sum(anywhere)
            print(
                f"   {path.name:45} {len(sentences):2} sentences  "
                + "  ".join(f"{scores[name]['intact']:2}" for name in tools)
            )
    total = sum(e["sentences"] for e in per_file.values())
    # PDFs whose primary kind is tables: pdftotext reads their cells column by column, so its
    # "sentences" there are a column's cells run together; citeline keeps rows as rows (a tab
    # between cells), which such a sentence cannot survive. Reported apart, never left out.
    prose_total = sum(e["sentences"] for e in per_file.values() if not e["tables"])
    every_total = sum(e.get("every", 0) for e in per_file.values())
    every_prose = sum(e.get("every", 0) for e in per_file.values() if not e["tables"])
    overall = {}
    for name in tools:
        every = sum(e["tools"][name]["intact_every"] for e in per_file.values() if "tools" in e)
        every_p = sum(e["tools"][name]["intact_every"] for e in per_file.values() if "tools" in e and not e["tables"])
        kept = sum(e["tools"][name]["intact"] for e in per_file.values() if "tools" in e)
        prose = sum(e["tools"][name]["intact"] for e in per_file.values() if "tools" in e and not e["tables"])
        errors = sum(1 for e in per_file.values() if "error" in e.get("tools", {}).get(name, {}))
        overall[name] = {
            "intact": kept,
            "share": round(kept / total, 4) if total else None,
            "intact_without_table_pdfs": prose,
            "share_without_table_pdfs": round(prose / prose_total, 4) if prose_total else None,
            "intact_every": every,
            "share_every": round(every / every_total, 4) if every_total else None,
            "share_every_without_table_pdfs": round(every_p / every_prose, 4) if every_prose else None,
            "seconds": round(seconds[name], 2),
            "errors": errors,
        }
    overall = dict(sorted(overall.items(), key=lambda kv: -(kv[1]["share"] or 0)))
    any_tool = sum(e.get("any_tool", 0) for e in per_file.values())
    any_prose = sum(e.get("any_tool", 0) for e in per_file.values() if not e["tables"])
    ceiling = {
        "intact": any_tool,
        "share": round(any_tool / total, 4) if total else None,
        "intact_without_table_pdfs": any_prose,
        "share_without_table_pdfs": round(any_prose / prose_total, 4) if prose_total else None,
    }
    result = {
        "files": len(files),
        "files_with_sentences": sum(1 for e in per_file.values() if e["sentences"]),
        "sentences": total,
        "sentences_without_table_pdfs": prose_total,
        "every_sentence": every_total,
        "every_sentence_without_table_pdfs": every_prose,
        "table_pdfs": sorted(n for n, e in per_file.items() if e["tables"]),
        "reference": _pdftotext_version(),
        "versions": {name: _version(dist) for name, (_, dist, _) in installed.items()},
        "not_installed": not_installed,
        "overall": overall,
        "any_tool": ceiling,
        "per_file": per_file,
    }
    print()
    print(markdown(result))
    return result


def markdown(r: dict[str, Any]) -> str:
    """The summary tables: tools by overall share, then one row per PDF with intact/total per tool."""
    tools = list(r["overall"])
    lines = [
        f"| sentence fidelity ({r['sentences']} pdftotext sentences, {r['files_with_sentences']} PDFs) "
        f"| intact | share | without the {len(r['table_pdfs'])} table PDFs "
        f"| every sentence ({r['every_sentence']}) | every, without tables | seconds | errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {k} | {v['intact']}/{r['sentences']} | **{v['share']:.1%}** | "
        f"{v['intact_without_table_pdfs']}/{r['sentences_without_table_pdfs']} "
        f"**{v['share_without_table_pdfs']:.1%}** | {v['intact_every']} **{v['share_every']:.1%}** | "
        f"{v['share_every_without_table_pdfs']:.1%} | {v['seconds']} | {v['errors']} |"
        for k, v in r["overall"].items()
    ]
    if "any_tool" in r:
        c = r["any_tool"]
        lines += [
            f"| (intact in at least one tool's text) | {c['intact']}/{r['sentences']} | {c['share']:.1%} | "
            f"{c['intact_without_table_pdfs']}/{r['sentences_without_table_pdfs']} "
            f"{c['share_without_table_pdfs']:.1%} | | | | |"
        ]
    if r["not_installed"]:
        lines += ["", f"* not installed: {', '.join(r['not_installed'])}"]
    lines += ["", "| PDF | sentences | " + " | ".join(tools) + " | any tool |", "|---" * (len(tools) + 3) + "|"]
    empty = []
    for name, e in r["per_file"].items():
        if "tools" not in e:
            empty.append(name)
            continue
        cells = [
            f"{e['tools'][t]['intact']}/{e['sentences']}" + (" (error)" if "error" in e["tools"][t] else "")
            for t in tools
        ]
        label = f"{name} (tables)" if e["tables"] else name
        lines.append(f"| {label} | {e['sentences']} | " + " | ".join(cells) + f" | {e.get('any_tool', '')} |")
    if empty:
        lines += ["", f"* no reference sentences: {', '.join(empty)}"]
    return "\n".join([*lines, ""])
