"""The layout's output on every fixture and every real-corpus PDF is what ``tests/golden/layout.json``
records (sha256 of the page texts, offsets and boxes per file and backend; see
``tests/layout_golden.py``). A change to it is a fix named with ``--reason`` when the record is
regenerated."""

from __future__ import annotations

import os

import pytest

from tests import layout_golden as golden


def _check(files: list[golden.Path], backends: tuple[str, ...] = golden.BACKENDS) -> None:
    record = golden.recorded()
    found = golden.compute(files, backends=backends)
    assert found, "no file was fingerprinted"
    assert not golden.differences(found, record), "\n".join(golden.differences(found, record))


def test_fixtures_lay_out_as_recorded() -> None:
    files = golden.fixture_files()
    assert len(files) >= 15, [f.name for f in files]
    _check(files)


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize("corpus", golden.CORPORA)
@pytest.mark.parametrize("backend", golden.BACKENDS)
def test_corpus_lays_out_as_recorded(corpus: str, backend: str) -> None:
    """Every text-layer file with pdfium; with pdfplumber those of at most
    :data:`~tests.layout_golden.QUICK_PLUMBER_PAGES` pages unless ``CITELINE_GOLDEN_FULL=1``."""
    full = backend == "pdfium" or os.environ.get("CITELINE_GOLDEN_FULL") == "1"
    files = golden.corpus_files(corpus, max_pages=None if full else golden.QUICK_PLUMBER_PAGES)
    if not files:
        pytest.skip(f"real corpus not found at {golden.SHARED / corpus}")
    _check(files, (backend,))


def test_the_record_names_every_file_and_backend() -> None:
    """Each recorded entry has its hashes or a failure reason; the multilingual fixture (Greek,
    Cyrillic, CJK: non-ASCII text) is among them."""
    record = golden.recorded()
    assert "fixtures/multilingual.pdf [pdfium]" in record
    assert "fixtures/multilingual.pdf [pdfplumber]" in record
    for key, value in record.items():
        assert set(value) in ({"failed"}, {"chars", "lines", "text", "pages", "boxes", "furniture"}), key


def test_regenerating_needs_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as err:
        golden.main(["--regenerate"])
    assert err.value.code == 2
    assert "--regenerate needs --reason" in capsys.readouterr().err


def test_a_changed_box_is_a_difference() -> None:
    record = {"fixtures/ä.pdf [pdfium]": {"text": "a", "boxes": "b"}}
    assert golden.differences({"fixtures/ä.pdf [pdfium]": {"text": "a", "boxes": "c"}}, record) == [
        "fixtures/ä.pdf [pdfium]: boxes changed"
    ]
    assert golden.differences({"fixtures/ä.pdf [pdfium]": {"text": "a", "boxes": "b"}}, record) == []
