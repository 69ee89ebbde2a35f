"""Shared fixtures: paths to the generated fixtures, the real corpus, and real databases."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
PDF_FIXTURES = FIXTURES / "pdf"
FORMAT_FIXTURES = FIXTURES / "formats"
CORPUS = Path(os.environ.get("CITELINE_CORPUS", ROOT.parent / "shared" / "corpus"))
CITATIONS = CORPUS.parent / "citations"


def truth(name: str) -> dict[str, Any]:
    """The ground truth JSON of a generated fixture (``policy_handbook`` -> its .truth.json)."""
    for folder in (PDF_FIXTURES, FORMAT_FIXTURES):
        for candidate in folder.glob(f"{name}.truth.json"):
            return json.loads(candidate.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    raise FileNotFoundError(f"no ground truth for fixture {name!r}")


def corpus_manifest() -> list[dict[str, str]]:
    """Rows of ../shared/corpus/MANIFEST.tsv (skips the test when the corpus is absent)."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        pytest.skip(f"real corpus not found at {CORPUS} (set CITELINE_CORPUS or place ../shared/corpus)")
    with manifest.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


@pytest.fixture
def corpus() -> Path:
    corpus_manifest()
    return CORPUS
