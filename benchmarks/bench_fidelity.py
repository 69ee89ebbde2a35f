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
reported beside it (a finer measure, weighted by each PDF's length: a long PDF counts for more).

The PDFs are those of ``../shared/corpus`` and ``../shared/corpus2`` with a text layer, each in the half
``benchmarks/data/split.tsv`` gives it (tuning or evaluation); every figure is reported per half, and
only the tuning half's failures are listed (the evaluation half is counted, never looked at).

*Reference merges*: sentences that pdftotext itself merged with a running head or foot, a page number
or a footnote (a line of its own output that is page furniture, read inside a paragraph of body text)
are not counted against any tool: each figure is given raw and with them set apart. A line of
pdftotext's page is furniture when it is one of the first or last :data:`BAND_LINES` non-blank lines of
its page and either repeats (digits normalised, a page number at either end left out) on at least
:data:`REPEAT_SHARE` of the pages (and two) with at most :data:`RUNNING_WORDS` words, or is a bare
page number (digits or a roman numeral); a footnote is a line among the last :data:`FOOTNOTE_LINES`
non-blank lines of a page, in its lower half and not a running head, that starts with a note mark
(one to three digits or ``* † ‡ §``) before a capital letter, and the lines after it."""

from __future__ import annotations

import csv
import importlib.util
import math
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

from benchmarks.common import NOT_TEXT_LAYER, ROOT, section

#: Sentences sampled per PDF at most.
PER_PDF = 20
#: Failed sentences kept per tool and PDF, for debugging (tuning half only).
EXAMPLES = 3
#: Reference merges: the first and last this many non-blank lines of a pdftotext page may be furniture.
BAND_LINES = 3
#: ... when they repeat on this share of the pages (and two pages at least).
REPEAT_SHARE = 0.2
#: A running head or foot has at most this many words (a body text repeated on every page is no head).
RUNNING_WORDS = 12
#: A footnote starts among the last this many non-blank lines of a page.
FOOTNOTE_LINES = 8
#: The committed split of the corpora into halves, by document.
SPLIT = ROOT / "benchmarks" / "data" / "split.tsv"
HALVES = ("tuning", "evaluation")

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


_RUN_DIGITS = re.compile(r"\d+")
_RUN_EDGE = re.compile(r"^[-–—\[(]?\s?#\s?[-–—\])]? (?=\S)| [-–—\[(]?\s?#\s?[-–—\])]?$")
_PAGE_NUMBER = re.compile(r"^[-–—\[(]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—\])]?$", re.IGNORECASE)
_NOTE_START = re.compile(r"^(?:\d{1,3}|[*†‡§])\s?[^\W\d_a-z]")


def _running_key(line: str) -> str:
    """A line as running heads are compared: digits normalised, a page number at either end left out."""
    return _RUN_EDGE.sub("", " ".join(_RUN_DIGITS.sub("#", line.casefold()).split()))


def furniture_lines(pages: Sequence[Sequence[str]]) -> list[set[int]]:
    """For each page (its lines, as pdftotext wrote them), the indices of its lines that are page
    furniture: running heads and feet, page numbers, footnotes (see the module's docstring)."""
    bands: list[list[int]] = []
    seen: dict[str, set[int]] = {}
    for p, lines in enumerate(pages):
        filled = [i for i, ln in enumerate(lines) if ln.strip()]
        band = sorted(set(filled[:BAND_LINES] + filled[-BAND_LINES:]))
        bands.append(band)
        for i in band:
            key = _running_key(lines[i])
            if key and key != "#":
                seen.setdefault(key, set()).add(p)
    with_text = sum(1 for b in bands if b)
    need = max(2, math.ceil(REPEAT_SHARE * with_text))
    out: list[set[int]] = []
    for p, lines in enumerate(pages):
        marked = {
            i
            for i in bands[p]
            if _PAGE_NUMBER.match(lines[i].strip())
            or (len(lines[i].split()) <= RUNNING_WORDS and len(seen.get(_running_key(lines[i]), ())) >= need)
        }
        filled = [i for i, ln in enumerate(lines) if ln.strip()]
        # a footnote starts in the lower half of the page's lines, below its running head
        for i in filled[max(len(filled) // 2, len(filled) - FOOTNOTE_LINES) :]:
            if i not in marked and _NOTE_START.match(lines[i].strip()):
                marked.update(j for j in filled if j >= i)
                break
        out.append(marked)
    return out


def reference_merges(text: str) -> set[str]:
    """The candidate sentences of a pdftotext output that hold both body text and a line of page
    furniture (a running head or foot, a page number, a footnote) in one paragraph: pdftotext's own
    merges, which no tool that sets furniture apart can keep intact."""
    pages = [page.split("\n") for page in text.split("\f")]
    marks = furniture_lines(pages)
    merged: set[str] = set()
    for lines, marked in zip(pages, marks, strict=True):
        if not marked:
            continue
        # the page's paragraphs as pdftotext's blank lines split them, each char tagged with its line
        paragraph: list[tuple[str, int]] = []
        for i, line in enumerate([*lines, ""]):
            if line.strip():
                if paragraph:
                    paragraph.append(("\n", -1))
                paragraph.extend((c, i) for c in line)
                continue
            if (
                paragraph
                and any(i in marked for _, i in paragraph)
                and any(i not in marked and i >= 0 for _, i in paragraph)
            ):
                merged.update(_merged_sentences(paragraph, marked))
            paragraph = []
    return merged


def _merged_sentences(paragraph: list[tuple[str, int]], marked: set[int]) -> set[str]:
    """The sentences of one paragraph (read as :func:`sentences_of` reads it) that hold characters of
    both a furniture line and another line."""
    raw = "".join(c for c, _ in paragraph)
    keep = [True] * len(raw)
    for m in _HYPHEN_BREAK.finditer(raw):
        if raw[m.end()].islower():
            keep[m.start()] = keep[m.start() + 1] = False
    chars: list[tuple[str, int]] = []
    for (c, line), k in zip(paragraph, keep, strict=True):
        if not k:
            continue
        if c.isspace():
            if chars and chars[-1][0] != " ":
                chars.append((" ", -1))
        else:
            chars.append((c, line))
    while chars and chars[-1][0] == " ":
        chars.pop()
    text = "".join(c for c, _ in chars)
    out, start = set(), 0
    ends = [m.end() for m in _SENTENCE_END.finditer(text) if text[m.end()].isupper()]
    for end in [*ends, len(text) + 1]:
        sentence = text[start : end - 1]
        source = {line for _, line in chars[start : end - 1] if line >= 0}
        if candidate(sentence) and source & marked and source - marked:
            out.add(sentence)
        start = end
    return out


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


def split_pdfs() -> list[tuple[Path, int, str, str]]:
    """Every text-layer PDF of the split (``benchmarks/data/split.tsv``): path, pages (from its
    corpus's MANIFEST.tsv), half and primary kind."""
    shared = ROOT.parent / "shared"
    pages: dict[tuple[str, str], int] = {}
    for corpus in ("corpus", "corpus2"):
        manifest = shared / corpus / "MANIFEST.tsv"
        if not manifest.exists():
            raise SystemExit(f"the fidelity benchmark needs {manifest}")
        with manifest.open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                pages[(corpus, row["file"])] = int(row["pages"] or 1)
    out = []
    with SPLIT.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row["primary_kind"] in NOT_TEXT_LAYER or "vertical-text" in row["kind_tags"].split(","):
                continue
            path = shared / row["corpus"] / row["file"]
            out.append((path, pages[(row["corpus"], row["file"])], row["half"], row["primary_kind"]))
    return out


def _share(n: int, d: int) -> float | None:
    return round(n / d, 4) if d else None


def _tally(per_file: dict[str, Any], tools: Sequence[str], half: str) -> dict[str, Any]:
    """The figures of one half: per tool, raw and with reference merges set apart."""
    entries = [e for e in per_file.values() if e["half"] == half]
    total = sum(e["sentences"] for e in entries)
    merges = sum(e.get("merges", 0) for e in entries)
    prose_total = sum(e["sentences"] for e in entries if not e["tables"])
    every_total = sum(e.get("every", 0) for e in entries)
    every_merges = sum(e.get("every_merges", 0) for e in entries)
    scored = [e for e in entries if "tools" in e]
    overall = {}
    for name in tools:
        kept = sum(e["tools"][name]["intact"] for e in scored)
        kept_apart = sum(e["tools"][name]["intact_apart"] for e in scored)
        prose = sum(e["tools"][name]["intact"] for e in scored if not e["tables"])
        every = sum(e["tools"][name]["intact_every"] for e in scored)
        every_apart = sum(e["tools"][name]["intact_every_apart"] for e in scored)
        overall[name] = {
            "intact": kept,
            "share": _share(kept, total),
            "intact_merges_apart": kept_apart,
            "share_merges_apart": _share(kept_apart, total - merges),
            "intact_without_table_pdfs": prose,
            "share_without_table_pdfs": _share(prose, prose_total),
            "intact_every": every,
            "share_every": _share(every, every_total),
            "share_every_merges_apart": _share(every_apart, every_total - every_merges),
            "seconds": round(sum(e["tools"][name]["seconds"] for e in scored), 2),
            "errors": sum(1 for e in scored if "error" in e["tools"][name]),
        }
    overall = dict(sorted(overall.items(), key=lambda kv: -(kv[1]["share_merges_apart"] or 0)))
    any_tool = sum(e.get("any_tool", 0) for e in entries)
    return {
        "files": len(entries),
        "files_with_sentences": sum(1 for e in entries if e["sentences"]),
        "sentences": total,
        "reference_merges": merges,
        "sentences_without_table_pdfs": prose_total,
        "every_sentence": every_total,
        "every_reference_merges": every_merges,
        "table_pdfs": sorted(n for n, e in per_file.items() if e["tables"] and e["half"] == half),
        "overall": overall,
        "any_tool": {"intact": any_tool, "share": _share(any_tool, total)},
    }


def run() -> dict[str, Any]:
    files = split_pdfs()
    installed = {name: p for name, p in PEERS.items() if importlib.util.find_spec(p[0]) is not None}
    not_installed = [name for name in PEERS if name not in installed]
    tools = CITELINE + list(installed)
    per_file: dict[str, Any] = {}
    with section(f"sentence fidelity on {len(files)} text-layer PDFs, {len(tools)} tools"):
        if not_installed:
            print(f"   not installed: {', '.join(not_installed)}")
        print("   columns: " + ", ".join(tools))
        for path, pages, half, kind in files:
            entry: dict[str, Any] = {"half": half, "pages": pages, "tables": kind == "tables"}
            per_file[f"{path.parent.name}/{path.name}"] = entry
            try:
                reference = reference_text(path)
                candidates = sentences_of(reference)
                sentences = reference_sentences(path, candidates=candidates)
            except (subprocess.SubprocessError, OSError) as exc:
                entry.update(sentences=0, reference_error=_error(exc))
                print(f"   {path.name:45} reference failed: {entry['reference_error']}")
                continue
            merged = reference_merges(reference)
            entry["sentences"] = len(sentences)
            entry["every"] = len(candidates)
            entry["merges"] = sum(1 for s in sentences if s in merged)
            entry["every_merges"] = sum(1 for s in candidates if s in merged)
            if half == "tuning":
                entry["merged"] = [s for s in sentences if s in merged]
            if not sentences:
                print(f"   {path.name:45} no reference sentences")
                continue
            outputs: dict[str, Output | BaseException] = {}
            seconds: dict[str, float] = {}
            for backend in BACKENDS:
                t0 = time.perf_counter()
                try:
                    got, took = citeline_outputs(path, backend)
                except Exception as exc:  # both rows fail; both took the time spent
                    failed = [f"citeline ({backend})", f"citeline chunks ({backend})"]
                    got = dict.fromkeys(failed, exc)
                    took = dict.fromkeys(failed, time.perf_counter() - t0)
                outputs.update(got)
                seconds.update(took)
            for name, (_, _, fn) in installed.items():
                t0 = time.perf_counter()
                try:
                    outputs[name] = fn(path)
                except Exception as exc:
                    outputs[name] = exc
                seconds[name] = time.perf_counter() - t0
            scores: dict[str, Any] = {}
            anywhere = [False] * len(sentences)
            for name in tools:
                out = outputs[name]
                took_s = round(seconds[name], 3)
                if isinstance(out, BaseException):
                    scores[name] = {
                        "intact": 0,
                        "intact_apart": 0,
                        "intact_every": 0,
                        "intact_every_apart": 0,
                        "seconds": took_s,
                        "error": _error(out),
                        "missed": [],
                    }
                    continue
                # the sample is drawn from the candidates: one substring test each, the text folded once
                every = dict(zip(candidates, intact(candidates, out), strict=True))
                ok = [every[s] for s in sentences]
                anywhere = [a or b for a, b in zip(anywhere, ok, strict=True)]
                missed = [s for s, good in zip(sentences, ok, strict=True) if not good and s not in merged]
                scores[name] = {
                    "intact": sum(ok),
                    "intact_apart": sum(1 for s, good in zip(sentences, ok, strict=True) if good and s not in merged),
                    "intact_every": sum(every.values()),
                    "intact_every_apart": sum(1 for s, good in every.items() if good and s not in merged),
                    "seconds": took_s,
                    # only the tuning half's failures are looked at
                    "missed": missed[:EXAMPLES] if half == "tuning" else [],
                }
            entry["tools"] = scores
            # intact in at least one tool's text: the rest are sentences no tool reads as pdftotext
            # does (pdftotext's own merges of neighbouring columns, footers or cells)
            entry["any_tool"] = sum(anywhere)
            print(
                f"   {half[:4]} {path.name:45} {len(sentences):2} sentences ({entry['merges']} merges)  "
                + "  ".join(f"{scores[name]['intact']:2}" for name in tools)
            )
    result = {
        "files": len(files),
        "split": str(SPLIT.relative_to(ROOT)),
        "reference": _pdftotext_version(),
        "versions": {name: _version(dist) for name, (_, dist, _) in installed.items()},
        "not_installed": not_installed,
        "halves": {half: _tally(per_file, tools, half) for half in HALVES},
        "per_file": per_file,
    }
    result["figures"] = figures(result)
    print()
    print(markdown(result))
    return result


def figures(r: dict[str, Any]) -> dict[str, Any]:
    """The summary's figures, two keys deep (``figures.<half>: <tool>.share_merges_apart``), so the
    committed summary (``results/summary/fidelity.json``) keeps every tool's share per half."""
    return {
        f"{half}: {tool}": {
            k: v[k] for k in ("share_merges_apart", "share", "share_every_merges_apart", "share_every", "seconds")
        }
        for half, h in r["halves"].items()
        for tool, v in h["overall"].items()
    }


def markdown(r: dict[str, Any]) -> str:
    """The summary tables: per half, tools by share with reference merges set apart (the raw share
    beside it); then one row per PDF of the tuning half with intact/total per tool (the evaluation
    half's PDFs are counted, never listed)."""
    lines: list[str] = []
    for half, h in r["halves"].items():
        lines += [
            f"| {half} half: {h['sentences']} pdftotext sentences of {h['files_with_sentences']} PDFs, "
            f"{h['reference_merges']} reference merges | intact, merges apart | share, merges apart | raw share "
            f"| without the {len(h['table_pdfs'])} table PDFs | every sentence ({h['every_sentence']}), "
            "merges apart | every, raw | seconds | errors |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        n = h["sentences"] - h["reference_merges"]
        for k, v in h["overall"].items():
            lines.append(
                f"| {k} | {v['intact_merges_apart']}/{n} | **{_pct(v['share_merges_apart'])}** | {_pct(v['share'])} "
                f"| {v['intact_without_table_pdfs']}/{h['sentences_without_table_pdfs']} "
                f"{_pct(v['share_without_table_pdfs'])} | {_pct(v['share_every_merges_apart'])} "
                f"| {_pct(v['share_every'])} | {v['seconds']} | {v['errors']} |"
            )
        c = h["any_tool"]
        lines += [
            f"| (intact in at least one tool's text, raw) | | | {_pct(c['share'])} | | | | | |",
            "",
        ]
    if r["not_installed"]:
        lines += [f"* not installed: {', '.join(r['not_installed'])}", ""]
    tools = list(r["halves"]["tuning"]["overall"])
    lines += [
        "| tuning PDF | sentences (merges) | " + " | ".join(tools) + " | any tool |",
        "|---" * (len(tools) + 3) + "|",
    ]
    for name, e in r["per_file"].items():
        if "tools" not in e or e["half"] != "tuning":
            continue
        cells = [
            f"{e['tools'][t]['intact']}/{e['sentences']}" + (" (error)" if "error" in e["tools"][t] else "")
            for t in tools
        ]
        label = f"{name} (tables)" if e["tables"] else name
        lines.append(
            f"| {label} | {e['sentences']} ({e['merges']}) | " + " | ".join(cells) + f" | {e.get('any_tool', '')} |"
        )
    return "\n".join([*lines, ""])


def _pct(share: float | None) -> str:
    return "-" if share is None else f"{share:.1%}"
