"""verify is linear in the answer and bounded: the audit's hostile answers are refused in one line,
fast and small, and each citation names its own marker only (never the whole list)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from citeline.batch import IngestOptions, ingest_files
from citeline.store import Store
from citeline.verify import VerifyOptions, verify_answer
from citeline.verify.errors import InputError
from citeline.verify.parse import MAX_CITATIONS, MAX_MARKERS
from tests.conftest import PDF_FIXTURES
from tests.measure import citeline

QUOTE = "Claims are not reimbursed after 90 days"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("hostile_verify")
    docs = folder / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / "policy_handbook.pdf", docs)
    url = f"sqlite:///{folder / 'v.db'}"
    with Store(url) as store:
        ingest_files(store, [docs], IngestOptions(workers=1))
        chunk = next(c.chunk_id for c in store.iter_chunks() if QUOTE in c.text)
    return url, chunk


@pytest.mark.parametrize(
    ("shape", "refusal"),
    [
        # one quote followed by [S1, S2, … S9999]: 11.9 GB and 1.7 GB of JSON before
        ("markers", f"a marker list names more than {MAX_MARKERS} sources"),
        # 10,000 quotes before one [S1]: 63 s and 1.2 GB before
        ("quotes", f"more than {MAX_CITATIONS} quotes"),
    ],
)
def test_the_audits_answers_are_refused_in_one_line_fast_and_small(
    indexed: tuple[str, str], tmp_path: Path, shape: str, refusal: str
) -> None:
    url, chunk = indexed
    if shape == "markers":
        text = f'The handbook says "{QUOTE}" [' + ", ".join(f"S{i}" for i in range(1, 10000)) + "]."
    else:
        text = " ".join(f'"Zürich claim number {i} is here"' for i in range(10000)) + " [S1]."
    path = tmp_path / "answer.json"
    path.write_text(json.dumps({"answer": text, "sources": {"S1": chunk}}), encoding="utf-8")
    run = citeline("--db", url, "verify", str(path), "--no-log")
    assert run.code == 2, run.stderr
    (line,) = run.stderr.strip().splitlines()
    assert line.startswith(f"Error: {path}: {refusal}"), line
    assert run.seconds < 10, run.seconds
    assert run.peak_mb < 500, run.peak_mb


def test_the_caps_hold_at_their_bounds(indexed: tuple[str, str]) -> None:
    url, chunk = indexed
    with Store(url) as store:
        at_cap = f'The handbook says "{QUOTE}" [' + ", ".join(f"S{i}" for i in range(1, MAX_MARKERS + 1)) + "]."
        report = verify_answer(store, {"answer": at_cap, "sources": {"S1": chunk}}, options=VerifyOptions(log=False))
        assert len(report.citations) == MAX_MARKERS  # each marker of the list a citation of its own
        assert [c.status for c in report.citations[:2]] == ["verified", "fabricated_marker"]
        # a citation's report names its own marker, never the list
        assert all("markers" not in c.as_json() for c in report.citations)
        over = at_cap.replace("]", f", S{MAX_MARKERS + 1}]")
        with pytest.raises(InputError, match=f"more than {MAX_MARKERS} sources"):
            verify_answer(store, {"answer": over, "sources": {"S1": chunk}}, options=VerifyOptions(log=False))
        many = {"marker": "S1", "quote": QUOTE}
        with pytest.raises(InputError, match=f"at most {MAX_CITATIONS} are checked"):
            verify_answer(
                store,
                {"answer": "x", "sources": {"S1": chunk}, "citations": [many] * (MAX_CITATIONS + 1)},
                options=VerifyOptions(log=False),
            )
