"""Write ``benchmarks/data/split.tsv``: every PDF of ``../shared/corpus`` and ``../shared/corpus2`` in a
tuning half or an evaluation half, by document.

Run once; the committed list is what every quality benchmark reads (fidelity, labelled answers,
questions), and it is never regenerated to move a document: a document moves from evaluation to
tuning by editing its row (with the reason in ``note``), when a failure of it was looked at.

* ``corpus`` is tuning, all of it: earlier rounds tuned the layout engine and verify on its files,
  so none of them is unseen.
* ``corpus2`` is split within each primary kind (the MANIFEST's ``primary_kind``), its files in the
  order of their sha256, alternating halves, so that every kind of ``corpus2`` is on both sides
  where it has two files or more.

Usage: ``python -m benchmarks.make_split [--check]`` (``--check`` compares with the committed list).
"""

from __future__ import annotations

import csv
import io
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
OUT = ROOT / "benchmarks" / "data" / "split.tsv"
FIELDS = ["corpus", "file", "half", "primary_kind", "kind_tags", "note"]


def rows() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for corpus in ("corpus", "corpus2"):
        with (SHARED / corpus / "MANIFEST.tsv").open(encoding="utf-8") as fh:
            manifest = list(csv.DictReader(fh, delimiter="\t"))
        if corpus == "corpus":
            for r in manifest:
                out.append(_row(corpus, r, "tuning", "tuned on by earlier rounds"))
            continue
        groups: dict[str, list[dict[str, str]]] = defaultdict(list)
        for r in manifest:
            groups[r["primary_kind"]].append(r)
        flip = 0
        for kind in sorted(groups):
            members = sorted(groups[kind], key=lambda r: r["sha256"])
            for i, r in enumerate(members):
                out.append(_row(corpus, r, ("evaluation", "tuning")[(i + flip) % 2], ""))
            flip = (flip + len(members)) % 2
    return out


def _row(corpus: str, r: dict[str, str], half: str, note: str) -> dict[str, str]:
    return {
        "corpus": corpus,
        "file": r["file"],
        "half": half,
        "primary_kind": r["primary_kind"],
        "kind_tags": r["kind_tags"],
        "note": note,
    }


def render(table: list[dict[str, str]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, FIELDS, delimiter="\t", lineterminator="\n")
    writer.writeheader()
    writer.writerows(table)
    return buf.getvalue()


if __name__ == "__main__":
    text = render(rows())
    if "--check" in sys.argv:
        sys.exit(0 if OUT.read_text(encoding="utf-8") == text else "split.tsv differs from the generated split")
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
