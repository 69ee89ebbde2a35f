"""The extraction benchmark's per-process figures (issue 35): the 91-page set is what the corpus's
MANIFEST calls two-column, a child process reports its wall time, CPU time and peak memory, and the
ratios divide the right figures."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from benchmarks.bench_extract import TEXTBOOK, TWO_COLUMN_SET, child, wall_ratios
from tests.conftest import CORPUS, ROOT


@pytest.mark.corpus
def test_the_two_column_set_is_the_manifests_91_two_column_pages() -> None:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        pytest.skip(f"real corpus not found at {CORPUS}")
    with manifest.open(encoding="utf-8") as fh:
        rows = {row["file"]: row for row in csv.DictReader(fh, delimiter="\t")}
    assert all("two-column" in rows[name]["kind_tags"].split(",") for name in TWO_COLUMN_SET)
    assert sum(int(rows[name]["pages"]) for name in TWO_COLUMN_SET) == 91
    assert rows[TEXTBOOK]["pages"] == "117"
    assert "german" in rows[TEXTBOOK]["kind_tags"]  # Größe, Übung: the textbook is non-ASCII text


@pytest.mark.parametrize("runner", ["citeline-pdfium", "raw-pypdfium2-api"])
def test_a_child_process_reports_wall_cpu_and_memory(runner: str, tmp_path: Path) -> None:
    wall, cpu, rss, ok = child(runner, ROOT / "fixtures" / "pdf" / "multilingual.pdf", tmp_path)
    assert ok
    assert wall > 0
    assert 0 < cpu < wall * 2  # one thread: CPU time near wall time at most
    assert 10 < rss < 500  # MB: a Python process with pypdfium2 loaded


def test_a_runner_that_fails_is_reported(tmp_path: Path) -> None:
    wall, _, _, ok = child("citeline-pdfium", ROOT / "fixtures" / "pdf" / "not_a_pdf.pdf", tmp_path)
    assert not ok
    assert wall > 0


def test_ratios_divide_citeline_by_each_reference() -> None:
    ratios = wall_ratios(
        {
            "citeline pdfium extract": 5.0,
            "citeline pdfium ingest (SQLite, 1 worker)": 6.0,
            "citeline pdfplumber extract": 11.0,
            "raw pypdfium2 text + char boxes": 2.0,
            "raw pypdfium2 raw API text + char boxes": 1.0,
            "raw pdfplumber extract_text": 10.0,
            "kreuzberg extract_file_sync": 2.5,
        }
    )
    assert ratios["citeline pdfium extract / raw pypdfium2 text + char boxes"] == 2.5
    assert ratios["citeline pdfium extract / raw pypdfium2 raw API"] == 5.0
    assert ratios["citeline pdfium ingest (SQLite, 1 worker) / kreuzberg"] == 2.4
    assert ratios["citeline pdfplumber extract / raw pdfplumber extract_text"] == 1.1
    assert "citeline pdfium extract / kreuzberg" in ratios
    # kreuzberg not installed: its ratios are left out, not divided by zero
    ours = ("citeline pdfium extract", "citeline pdfium ingest (SQLite, 1 worker)", "citeline pdfplumber extract")
    assert wall_ratios(dict.fromkeys(ours, 1.0)) == {}
