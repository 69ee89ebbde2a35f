"""Rendering the HTML report: 20 citations over 10 pages of a real paper (page images rendered with
pypdfium2 and embedded), end to end from verification to the HTML string."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import CORPUS, section
from citeline.batch import IngestOptions, ingest_files
from citeline.present.html import build_html
from citeline.store import Store
from citeline.verify.verify import VerifyOptions, verify_answer

PAPER = "acl2020_s2orc_2col.pdf"


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        (folder / PAPER).symlink_to(CORPUS / PAPER)
        with Store(f"sqlite:///{Path(tmp) / 'r.db'}") as store:
            ingest_files(store, [folder], IngestOptions(follow_links=True, workers=1))
            chunks = list(store.iter_chunks())
            # two citations on each of ten pages: a sentence from each page's first chunks
            by_page: dict[int, list[Any]] = {}
            for c in chunks:
                by_page.setdefault(c.page_start or 0, []).append(c)
            picked = [c for page in sorted(by_page)[:10] for c in by_page[page][:2]]
            citations, sources = [], {}
            for i, c in enumerate(picked, 1):
                sources[f"S{i}"] = c.chunk_id
                start = c.text.find(" ", len(c.text) // 3) + 1
                citations.append({"marker": f"S{i}", "quote": c.text[start : start + 120].rsplit(" ", 1)[0]})
            answer = {
                "answer": " ".join(f"Claim number {i} holds [S{i}]." for i in range(1, len(picked) + 1)),
                "sources": sources,
                "citations": citations,
            }
            with section(f"verify + render the HTML report: {len(picked)} citations"):
                t0 = time.perf_counter()
                report = verify_answer(store, answer, options=VerifyOptions(log=False))
                t1 = time.perf_counter()
                html = build_html(report, store)
                t2 = time.perf_counter()
    pages = sorted({p for c in report.citations if c.location for p in c.location.pages})
    result = {
        "citations": len(report.citations),
        "verified": report.summary()["verified"],
        "pages_rendered": len(pages),
        "verify_seconds": round(t1 - t0, 3),
        "render_seconds": round(t2 - t1, 3),
        "total_seconds": round(t2 - t0, 3),
        "html_bytes": len(html.encode("utf-8")),
    }
    for k, v in result.items():
        print(f"   {k:40} {v}")
    return result
