"""The layout engine's output pinned: per PDF and backend, sha256 of its page texts, offsets and boxes.

Every PDF of ``fixtures/pdf`` and of the real corpora (``../shared/corpus``, ``../shared/corpus2``)
is extracted by both backends, OCR off, and four hashes are recorded: the raw stream; the pages
(number, size, raw span, has text); the lines (page, raw span, top, bottom and every code point's
x edges, byte for byte); the furniture and problems the extraction reports. A file a backend
refuses is recorded by its failure reason. ``tests/test_layout_golden.py`` asserts today's output
equals the record, so a change to the layout engine or a backend that moves one character, offset
or box fails it; a change meant to do that is a fix that is named when the record is regenerated::

    python -m tests.layout_golden --regenerate --reason "words: a hyphen after a superscript joins its word"

(``--reason`` is required and is written to ``tests/golden/layout_reasons.md`` beside the hashes,
with the date and the entries it changed). ``python -m tests.layout_golden`` alone compares and
lists the entries that differ.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import hashlib
import json
import os
import struct
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "layout.json"
REASONS = ROOT / "tests" / "golden" / "layout_reasons.md"
FIXTURES = ROOT / "fixtures" / "pdf"
SHARED = Path(os.environ.get("CITELINE_CORPUS", ROOT.parent / "shared" / "corpus")).parent
CORPORA = ("corpus", "corpus2")
BACKENDS = ("pdfium", "pdfplumber")
#: MANIFEST primary kinds left out, as the other corpus tests and the benchmarks leave them out:
#: files that do not open without a password or do not open at all (their one-line failures are
#: tested in tests/test_corpus.py), and scans (no text layer: OCR is off here).
SKIPPED_KINDS = frozenset({"broken", "encrypted", "scanned"})


#: The test reads every file with pdfium but, to stay near two minutes on one core, with pdfplumber
#: (pdfminer parses some ten times slower) only the files of at most this many pages; set
#: ``CITELINE_GOLDEN_FULL=1`` (or run ``python -m tests.layout_golden``) for every file.
QUICK_PLUMBER_PAGES = 15


def corpus_files(corpus: str, *, max_pages: int | None = None) -> list[Path]:
    """The text-layer PDFs of ``../shared/<corpus>`` by its MANIFEST.tsv (empty when it is absent),
    those of at most ``max_pages`` pages when it is given."""
    manifest = SHARED / corpus / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    out = []
    with manifest.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            tags = set(row["kind_tags"].split(","))
            if row["primary_kind"] in SKIPPED_KINDS or tags & {"encrypted", "scanned"}:
                continue
            if max_pages is not None and int(row["pages"] or 1) > max_pages:
                continue
            out.append(SHARED / corpus / row["file"])
    return out


def fixture_files() -> list[Path]:
    """The generated fixture PDFs that open (the broken and encrypted ones are tested elsewhere)."""
    out = []
    for path in sorted(FIXTURES.glob("*.pdf")):
        truth = path.with_suffix(".truth.json")
        if truth.exists():
            expect = json.loads(truth.read_text(encoding="utf-8"))
            if expect.get("error") or expect.get("expect_error") or expect.get("failure"):
                continue
        out.append(path)
    return out


def key_of(path: Path) -> str:
    """``fixtures/<name>`` or ``corpus/<name>``, ``corpus2/<name>``."""
    return f"{path.parent.name if path.parent != FIXTURES else 'fixtures'}/{path.name}"


def _sha(parts: Iterator[bytes]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.hexdigest()


def fingerprint(path: Path, backend: str) -> dict[str, Any]:
    """The four hashes of one file through one backend (or its failure reason)."""
    from citeline.ingest.errors import ExtractionError
    from citeline.ingest.extract import extract
    from citeline.ingest.extract.ocr import OcrSettings

    try:
        ex = extract(path, extractor=backend, fallback=False, ocr=OcrSettings(mode="off"))  # type: ignore[arg-type]
    except ExtractionError as err:
        return {"failed": err.reason}
    pack = struct.Struct("<iii").pack
    return {
        "chars": len(ex.raw),
        "lines": len(ex.lines),
        "text": _sha(iter([ex.raw.encode("utf-8", "surrogatepass")])),
        "pages": _sha(
            repr((p.number, p.width, p.height, p.raw_start, p.raw_end, p.has_text)).encode() for p in ex.pages
        ),
        "boxes": _sha(
            b
            for ln in ex.lines
            for b in (pack(ln.page, ln.raw_start, ln.raw_end), repr((ln.top, ln.bottom)).encode(), ln.xs.tobytes())
        ),
        "furniture": _sha(
            repr(item).encode()
            for item in [(f.kind, f.start, f.end, f.page) for f in ex.furniture]
            + [(p.code, p.pages) for p in ex.problems]
        ),
    }


def all_files() -> list[Path]:
    return fixture_files() + [p for c in CORPORA for p in corpus_files(c)]


def compute(
    files: list[Path], *, verbose: bool = False, backends: tuple[str, ...] = BACKENDS
) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path in files:
        for backend in backends:
            t0 = time.perf_counter()
            out[f"{key_of(path)} [{backend}]"] = fingerprint(path, backend)
            if verbose:
                print(f"{time.perf_counter() - t0:7.2f} s  {key_of(path)} [{backend}]", flush=True)
    return out


def recorded() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))["entries"]
    return data


def differences(found: dict[str, dict[str, Any]], record: dict[str, dict[str, Any]]) -> list[str]:
    """One line per entry whose hashes differ from the record (entries recorded but not computed
    now, a corpus folder absent, are not differences)."""
    out = []
    for key, value in sorted(found.items()):
        old = record.get(key)
        if old is None:
            out.append(f"{key}: not recorded")
        elif old != value:
            what = sorted(k for k in set(old) | set(value) if old.get(k) != value.get(k))
            out.append(f"{key}: {', '.join(what)} changed")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.layout_golden", description=__doc__.split("\n\n")[0])
    parser.add_argument("--regenerate", action="store_true", help="record today's output (needs --reason)")
    parser.add_argument("--reason", help="the fix that changes the output, written beside the hashes")
    parser.add_argument("-v", "--verbose", action="store_true", help="time each file")
    args = parser.parse_args(argv)
    if args.regenerate and not (args.reason and args.reason.strip()):
        parser.error("--regenerate needs --reason: name the fix that changes the layout's output")
    files = all_files()
    found = compute(files, verbose=args.verbose)
    record = recorded() if GOLDEN.exists() else {}
    changed = differences(found, record)
    if not args.regenerate:
        print("\n".join(changed) or f"{len(found)} entries as recorded")
        return 1 if changed else 0
    if not any(corpus_files(c) for c in CORPORA):
        print(f"the corpora are absent from {SHARED}: not regenerating a partial record", file=sys.stderr)
        return 2
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(
        json.dumps({"entries": dict(sorted(found.items()))}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    note = [f"## {today}", "", args.reason.strip(), ""]
    if not record:
        note.append(f"- first record: {len(found)} entries")
    else:
        note += [f"- {line}" for line in changed] or ["- (no entry changed)"]
    old_text = REASONS.read_text(encoding="utf-8") if REASONS.exists() else "# Why the layout record changed\n"
    REASONS.write_text(old_text.rstrip("\n") + "\n\n" + "\n".join(note) + "\n", encoding="utf-8")
    print(f"recorded {len(found)} entries; {len(changed)} changed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
