"""Shared fixtures: paths to the generated fixtures, the real corpus, and real databases."""

from __future__ import annotations

import csv
import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# Property tests check what the transforms do, not how fast: speed is measured in benchmarks/. No
# per-example deadline, so a slow machine (or the first load of a language's word list inside an
# example) cannot fail a correct test.
settings.register_profile("citeline", deadline=None)
settings.load_profile("citeline")

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


PG_URL = os.environ.get("CITELINE_TEST_PG_URL")


def _pg_schema_url(schema: str) -> str:
    assert PG_URL is not None
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}options=-csearch_path%3D{schema}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a private schema on the test PostgreSQL server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'citeline.db'}"
        return
    if not PG_URL:
        pytest.skip("set CITELINE_TEST_PG_URL to run PostgreSQL tests")
    from sqlalchemy import create_engine, text

    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield _pg_schema_url(schema)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'citeline.db'}"
