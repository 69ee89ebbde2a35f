"""Real PDFs from public projects (../shared/corpus): every file extracts or fails with one line,
the two backends agree, two-column pages read in order, and the whole corpus ingests with every
chunk's offsets intact. Skips (with the reason) when the corpus folder is absent."""

from __future__ import annotations

import collections
import re
import unicodedata
from pathlib import Path

import pytest

from citeline.ingest.errors import ExtractionError
from citeline.ingest.extract import extract
from citeline.ingest.isolate import IsolatedPool
from citeline.ingest.scripts import is_cjk
from citeline.store import IngestOptions, Store, ingest
from tests.conftest import CORPUS, corpus_manifest
from tests.test_store import check_all_chunks

pytestmark = pytest.mark.corpus


def words(text: str) -> collections.Counter[str]:
    """Words for the agreement measure: NFKC, letters/digits runs, each CJK character a word, pdfminer's
    ``(cid:N)`` placeholders for unmapped glyphs dropped (there is no text to compare)."""
    text = re.sub(r"\(cid:\d+\)", " ", unicodedata.normalize("NFKC", text))
    out: list[str] = []
    for w in re.findall(r"\w+", text):
        if any(is_cjk(ch) for ch in w):
            out.extend(w)
        else:
            out.append(w)
    return collections.Counter(out)


def _extract_outcome(args: tuple[str, str]) -> tuple[str, str, str, collections.Counter[str]]:
    """Worker: (status, reason or extractor, message, words) for one file and backend."""
    path, backend = args
    try:
        ex = extract(path, extractor=backend, fallback=False)
    except ExtractionError as err:
        return ("failed", err.reason, str(err), collections.Counter())
    return ("ok", ex.extractor, ",".join(p.code for p in ex.problems), words(ex.raw))


@pytest.fixture(scope="module")
def outcomes() -> dict[tuple[str, str], object]:
    """Every corpus file through both backends, in isolated workers with a time limit."""
    rows = corpus_manifest()
    tasks = [((r["file"], b), (str(CORPUS / r["file"]), b)) for r in rows for b in ("pdfplumber", "pdfium")]
    results: dict[tuple[str, str], object] = {}
    with IsolatedPool(_extract_outcome, workers=2, timeout=120) as pool:
        for key, result in pool.imap_unordered(tasks):
            results[key] = result
    assert len(results) == len(tasks)
    return results


def test_every_corpus_file_extracts_or_fails_with_one_line(outcomes: dict[tuple[str, str], object]) -> None:
    rows = {row["file"]: row for row in corpus_manifest()}
    for (name, backend), result in sorted(outcomes.items()):
        assert isinstance(result, tuple), f"{name} [{backend}]: no crash, no hang expected, got {result!r}"
        status, _, message, found = result
        row = rows[name]
        if status == "failed":
            assert message.startswith(str(CORPUS / name) + ": "), message
            assert "\n" not in message
            assert "Traceback" not in message
            # only the files the manifest calls broken or encrypted may fail
            assert row["primary_kind"] in ("broken", "encrypted") or "encrypted" in row["kind_tags"], (name, message)
        elif row["primary_kind"] in ("two-column", "headers", "hyphenation", "large", "ligatures", "tables"):
            assert sum(found.values()) > 0, (name, backend)  # every text-layer PDF gives text
    # the encrypted samples open with the password the manifest lists (where pdfminer supports it)
    opened = 0
    for row in rows.values():
        password = row["password"].split(" ")[0].strip("'") if row["password"] else ""
        if row["primary_kind"] == "encrypted" and password and password.isascii():
            ex = extract(CORPUS / row["file"], password=password)
            assert ex.raw.strip(), row["file"]
            opened += 1
    assert opened >= 3


def test_pdfplumber_and_pdfium_agree_on_words(outcomes: dict[tuple[str, str], object]) -> None:
    agree = total = 0
    per_file = {}
    # words with a doubled letter drawn as one ligature glyph ("ﬀ", "ﬃ"): pdfium hands such a glyph
    # out as two equal characters in one box, which must not be read as a glyph drawn twice
    ff_seen = ff_common = 0
    for name in sorted({name for name, _ in outcomes}):
        a, b = outcomes[(name, "pdfplumber")], outcomes[(name, "pdfium")]
        assert isinstance(a, tuple)
        assert isinstance(b, tuple)
        if a[0] != "ok" or b[0] != "ok" or not a[3]:
            continue
        wa, wb = a[3], b[3]
        n = max(sum(wa.values()), sum(wb.values()))
        common = sum((wa & wb).values())
        per_file[name] = common / n
        agree += common
        total += n
        ff_a = collections.Counter({w: k for w, k in wa.items() if "ff" in w})
        ff_b = collections.Counter({w: k for w, k in wb.items() if "ff" in w})
        ff_seen += sum(ff_a.values())
        ff_common += sum((ff_a & ff_b).values())
    assert len(per_file) >= 25
    assert agree / total >= 0.95, sorted(per_file.items(), key=lambda kv: kv[1])[:5]
    assert ff_seen > 500
    assert ff_common / ff_seen >= 0.99, (ff_common, ff_seen)


@pytest.mark.parametrize(
    ("name", "minimum"),
    [
        ("acl2020_specter_2col.pdf", 0.93),
        ("acl2018_N18-3011_literature_graph_2col.pdf", 0.95),
        ("chi2023_citesee_2col.pdf", 0.95),
        ("acl2020_s2orc_2col.pdf", 0.9),
    ],
)
def test_two_column_papers_read_column_by_column(name: str, minimum: float) -> None:
    """Reference: pdfplumber's own text of each half page (a crop per column), three lines at a time.
    Each window must appear contiguously in our raw stream (whitespace ignored). Windows holding a
    line of under four characters are left out: pdfplumber puts sub- and superscripts (``P`` of
    ``𝒫+``, a footnote mark) on lines of their own, where citeline keeps them in their line; so are
    windows with ``(cid:N)``, which citeline writes as one U+FFFD."""
    import pdfplumber

    corpus_manifest()

    def norm(t: str) -> str:
        return re.sub(r"\s+", "", unicodedata.normalize("NFKC", t))

    ours = norm(extract(CORPUS / name).raw)
    found = windows = 0
    with pdfplumber.open(CORPUS / name) as pdf:
        for page in pdf.pages[1:]:
            w = page.width
            for box in ((0, 0, w / 2, page.height), (w / 2, 0, w, page.height)):
                lines = [ln for ln in (page.crop(box).extract_text() or "").split("\n") if ln.strip()]
                for i in range(len(lines) - 2):
                    three = lines[i : i + 3]
                    window = norm("".join(three))
                    if len(window) < 60 or "(cid:" in window or min(len(norm(ln)) for ln in three) < 4:
                        continue
                    windows += 1
                    found += window in ours
    assert windows > 200
    assert found / windows >= minimum


@pytest.mark.parametrize("backend", ["pdfplumber", "pdfium"])
@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        # a reference list's hanging labels ([Mit97], [NV15]) stand 10 pt right of the left column:
        # they belong to the right column, not inside the left column's sentences
        (
            "arxiv_creativity_in_ml.pdf",
            "Although clever algorithms were implemented for composing music, it seems as if there is "
            "still a lot of supervision involved.",
        ),
        # pdfium's mark for a line-end hyphen (code 2) is the drawn hyphen, not an unmapped glyph
        (
            "acl2018_N18-3011_literature_graph_2col.pdf",
            "The literature graph is a property graph with directed edges.",
        ),
    ],
)
def test_sentences_that_once_broke_read_through(name: str, sentence: str, backend: str) -> None:
    from citeline.ingest.clean.pipeline import clean

    corpus_manifest()
    ex = extract(CORPUS / name, extractor=backend)
    text = clean(ex.raw, geometry=ex.line_geometry(), known_furniture=ex.furniture).text
    assert " ".join(sentence.split()) in " ".join(text.split())


def test_corpus_ingests_end_to_end_with_every_chunk_offset_intact(tmp_path: Path, sqlite_url: str) -> None:
    corpus_manifest()
    with Store(sqlite_url) as store:
        summary = ingest(store, [CORPUS], IngestOptions(workers=2, globs=("*.pdf",)))
        failed = {o.uri for o in summary.outcomes if o.status == "failed"}
        rows = {row["file"]: row for row in corpus_manifest()}
        assert all(rows[u]["primary_kind"] in ("broken", "encrypted") for u in failed), failed
        assert summary.count("added") >= 30
        assert check_all_chunks(store) == summary.chunks > 1000
