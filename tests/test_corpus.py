"""Real PDFs from public projects (../shared/corpus): every file extracts or fails with one line,
the two backends agree, two-column pages read in order, and the whole corpus ingests with every
chunk's offsets intact. Skips (with the reason) when the corpus folder is absent."""

from __future__ import annotations

import collections
import functools
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from citeline.batch import IngestOptions, ingest_files
from citeline.ingest.errors import ExtractionError
from citeline.ingest.extract import extract
from citeline.ingest.extract.glyphs import UNMAPPED
from citeline.ingest.isolate import IsolatedPool
from citeline.store import Store
from citeline.text.scripts import is_cjk
from tests.conftest import CORPUS, corpus_manifest
from tests.test_cli_store import run as run_cli
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
    from citeline.ingest.extract.ocr import OcrSettings

    path, backend = args
    try:
        # OCR off: what is compared is the two parsers' text layers (OCR'd pages would read alike)
        ex = extract(path, extractor=backend, fallback=False, ocr=OcrSettings(mode="off"))
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
        # the abstract is indented, so the gutter above the introduction is wide: the left column's
        # last line, reaching a little into it, still reads before the right column
        (
            "eacl2023_longeval_2col.pdf",
            "Human judgments are considered the gold standard for evaluating model-generated summaries "
            "(Kryscinski et al., 2019; Fabbri et al., 2021)",
        ),
        # the last page's right column of references stops early: still a column, not table cells
        (
            "chi2023ws_beyond_summarization_2col.pdf",
            "Threddy: An Interactive System for Personalized Thread-based Exploration and Organization of "
            "Scientific Literature.",
        ),
        # ... but a table's narrow first column above a two-column body is no column of the page:
        # the body's columns and their footnotes stay apart
        (
            "eacl2023_longeval_2col.pdf",
            "14The FINE annotations in Section 3.1 were shown hints in the source document.",
        ),
        # TeX's math fonts carry no encoding pdfminer reads: their glyphs take pdfium's text, each
        # its own where two start at one x ("7" and "→" of \\mapsto, "6" and "⇐" of \\not\\Leftarrow)
        (
            "geotopo_german_textbook.pdf",
            "der Bahnenraum versehen mit der Quotiententopologie, π : X → X, x 7→ [x]∼. Dann ist π stetig.",
        ),
        ("geotopo_german_textbook.pdf", "b) X ist wegzusammenhängend 6⇐ X ist zusammenhängend"),
        # pdfium hands out TeX's accent of "F¨arber" after the word: it goes back over its letter,
        # and the cleaner composes the pair
        (
            "acl2020_s2orc_2col.pdf",
            "and 54k papers at the time of writing). Saier and Färber (2019) is derived from arXiv",
        ),
        # raised over a capital ("Ř" of TeX's \v{R}) and over math letters (\tilde X, \hat P): seated
        # on the letter's line, not a line of accents above the text
        ("acl2020_specter_2col.pdf", "Radim Řehůřek and Petr Sojka. 2010. Software Framework for Topic"),
        ("geotopo_german_textbook.pdf", "Eine Überlagerung p : X\u0303 → X heißt universell, wenn X\u0303 einfach"),
        ("geotopo_german_textbook.pdf", "einem Punkt P\u0302. P wird auf P\u0302 abgebildet."),
        # the last lines of a page's two columns above a full-width worksheet, column by column
        (
            "irs_i1040nr_instructions.pdf",
            "July 1, 1986, and you used this method last year to figure the taxable part, or (b) your annuity "
            "starting date was after November 18, 1996, and both of the following apply.",
        ),
        # two tax rate schedules side by side, each ruled on its own: each heading and table whole
        ("irs_i1040nr_instructions.pdf", "Married Filing Separate Returns—If you checked Filing Status Box 3, 4, or 5"),
        # a worked example beside a small sample table reads whole, not across the table's rows
        (
            "irs_i1040nr_instructions.pdf",
            "Next he finds the column for qualifying widower and reads down the column. The amount shown "
            "where the income line and filing status column meet is $3,016.",
        ),
    ],
)
def test_sentences_that_once_broke_read_through(name: str, sentence: str, backend: str) -> None:
    corpus_manifest()
    assert " ".join(sentence.split()) in _cleaned_words(name, backend)


@functools.cache
def _cleaned_words(name: str, backend: str) -> str:
    """A corpus PDF's cleaned text, its whitespace runs one space: extracted once for all of its
    sentences (the 117-page textbook takes 20 seconds with the pdfplumber backend)."""
    from citeline.ingest.clean.pipeline import clean

    ex = extract(CORPUS / name, extractor=backend)
    return " ".join(clean(ex.raw, geometry=ex.line_geometry(), known_furniture=ex.furniture).text.split())


def test_corpus_ingests_end_to_end_with_every_chunk_offset_intact(tmp_path: Path, sqlite_url: str) -> None:
    corpus_manifest()
    with Store(sqlite_url) as store:
        summary = ingest_files(store, [CORPUS], IngestOptions(workers=2, globs=("*.pdf",)))
        failed = {o.uri for o in summary.outcomes if o.status == "failed"}
        rows = {row["file"]: row for row in corpus_manifest()}
        assert all(rows[u]["primary_kind"] in ("broken", "encrypted") for u in failed), failed
        assert summary.count("added") >= 30
        assert check_all_chunks(store) == summary.chunks > 1000
        # a version's lines follow each other in the raw stream without overlapping: the store's
        # look-up of the lines under a span relies on it
        overlapping = store.sql(
            "SELECT count(*) FROM (SELECT raw_start, LAG(raw_end) OVER "
            "(PARTITION BY version_id ORDER BY raw_start) AS previous_end FROM lines) AS t "
            "WHERE raw_start < previous_end"
        )[1]
        assert overlapping[0][0] == 0
        assert store.sql("SELECT count(*) FROM lines")[1][0][0] > 10_000
        # the scans without a text layer gained text by OCR, and `show` lists their OCR pages
        scans = [
            r["file"] for r in rows.values() if r["primary_kind"] == "scanned" and "ocr-layer" not in r["kind_tags"]
        ]
        assert len(scans) >= 3
        for name in scans:
            info = store.document(name)
            ocr_pages = [p for p in info.pages if p.ocr_engine is not None]
            assert ocr_pages, f"{name}: no page read by OCR"
            assert all(p.has_text and p.ocr_confidence is not None for p in ocr_pages), name
            assert (
                len(
                    store.sql(
                        "SELECT 1 FROM chunks c JOIN document_versions v ON v.id = c.version_id "
                        "JOIN documents d ON d.id = v.document_id WHERE d.uri = :u",
                        {"u": name},
                    )[1]
                )
                >= 1
            )
            code, out, _ = run_cli("--db", sqlite_url, "show", name)
            assert code == 0
            listed = [ln.split() for ln in out[out.index("Pages:") :].splitlines()[3:] if ln.split()[:1] != []]
            shown = {int(row[0]): row for row in listed if row[0].isdigit()}
            for page in ocr_pages:
                row = shown[page.page_no]
                assert row[5:7] == ["yes", "tesseract"], (name, row)
                assert float(row[9]) == pytest.approx(page.ocr_confidence, abs=0.05), (name, row)


def _ocr_auto_against_off(path: str) -> tuple[str, int, int, int]:
    """Worker: one text-layer PDF through the pipeline (pdfium backend) with ``--ocr off`` and
    ``--ocr auto``: (file, pages OCR'd under auto, differing chunks, raw streams equal as 0/1). For a
    PDF whose text layer is known to be unusable only ``off`` runs (OCR is slow), and the pages
    counted are those whose glyphs are mostly unmapped, which ``auto`` reads by OCR."""
    from citeline.ingest.extract.ocr import UNUSABLE_UNMAPPED, OcrSettings
    from citeline.ingest.pipeline import PipelineSettings, process_file

    name = Path(path).name

    def run(mode: str) -> Any:
        return process_file(Path(path), name, PipelineSettings(extractor="pdfium", ocr=OcrSettings(mode=mode)))

    off = run("off")
    if name in UNUSABLE_TEXT_LAYER:
        raw = off.extraction.raw
        pages = [raw[p.raw_start : p.raw_end] for p in off.extraction.pages]
        drawn = ["".join(t.split()) for t in pages]
        unusable = sum(1 for t in drawn if t and t.count(UNMAPPED) > UNUSABLE_UNMAPPED * len(t))
        return name, unusable, 0, 1
    auto = run("auto")
    docs = [off, auto]
    ocr_pages = sum(1 for p in auto.extraction.pages if p.ocr_engine is not None)
    chunks = [[(c.text, c.raw_start, c.raw_end) for c in d.chunks] for d in docs]
    differing = sum(1 for a, b in zip(*chunks, strict=False) if a != b) + abs(len(chunks[0]) - len(chunks[1]))
    same_lines = [(ln.page, ln.raw_start, ln.raw_end, ln.top, ln.bottom, ln.xs) for ln in off.extraction.lines] == [
        (ln.page, ln.raw_start, ln.raw_end, ln.top, ln.bottom, ln.xs) for ln in auto.extraction.lines
    ]
    return Path(path).name, ocr_pages, differing, int(off.extraction.raw == auto.extraction.raw and same_lines)


#: text-layer PDFs whose text layer ``--ocr auto`` rightly finds unusable, and why
UNUSABLE_TEXT_LAYER = {"tamreview_cid_garbled.pdf": "most of its glyphs have no Unicode mapping"}


def test_text_layer_pdfs_read_the_same_with_ocr_auto_and_off() -> None:
    rows = [
        r
        for r in corpus_manifest()
        if r["primary_kind"] not in ("broken", "encrypted", "scanned") and r["file"].endswith(".pdf")
    ]
    tasks = [(r["file"], str(CORPUS / r["file"])) for r in rows]
    with IsolatedPool(_ocr_auto_against_off, workers=2, timeout=300) as pool:
        results = dict(pool.imap_unordered(tasks))
    assert len(results) == len(tasks) >= 20
    for name, result in results.items():
        assert not isinstance(result, BaseException), (name, result)
        _, ocr_pages, differing, same = result
        if name in UNUSABLE_TEXT_LAYER:
            assert ocr_pages > 0, f"{name}: {UNUSABLE_TEXT_LAYER[name]}, so auto reads it by OCR"
            continue
        assert (ocr_pages, differing, same) == (0, 0, 1), name
