"""Quotes whose words are interrupted in the chunk's text by something set apart on the page: the
proceedings footer, footnotes and the author block of a two-column paper's first page; a photo
credit and the next page's running head in a textbook. A reader copies the passage without them; so
must verify, with a segment for each piece and the report's text holding the quote's words only.
Words of the passage itself left out (no ellipsis) are not forgiven."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from citeline.batch import IngestOptions, ingest_files
from citeline.ingest.pipeline import PipelineSettings
from citeline.store import Store
from citeline.verify import VerifyOptions, verify_answer
from tests.conftest import CORPUS

CORPUS2 = CORPUS.parent / "corpus2"
SPECTER = CORPUS / "acl2020_specter_2col.pdf"
TEXTBOOK = CORPUS2 / "psych_textbook_ch5_physical_development.pdf"
GRAPH = CORPUS / "acl2018_N18-3011_literature_graph_2col.pdf"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    for path in (SPECTER, TEXTBOOK, GRAPH):
        if not path.exists():
            pytest.skip(f"needs the real corpus PDF {path} (../shared/corpus and ../shared/corpus2)")
    folder = tmp_path_factory.mktemp("interrupted")
    docs = folder / "docs"
    docs.mkdir()
    for path in (SPECTER, TEXTBOOK, GRAPH):
        shutil.copy(path, docs / path.name)
    with Store(f"sqlite:///{folder / 'i.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1, settings=PipelineSettings(extractor="pdfium")))
        yield s


def chunk_with(store: Store, uri: str, *texts: str) -> str:
    for c in store.iter_chunks(document=uri):
        if all(t in c.text for t in texts):
            return c.chunk_id
    raise AssertionError(f"no chunk of {uri} holds {texts}")


CASES = [
    # the footer, the footnotes and the author block of page 1 stand between "state-" and "of-the-art"
    (
        SPECTER.name,
        ("substantially outperform the state-", "of-the-art on a variety"),
        "substantially outperform the state-of-the-art on a variety of document-level tasks",
    ),
    # a photo credit, then the next page's running head, between "copy a" and "simple horizontal"
    (
        TEXTBOOK.name,
        ("they can copy a", "simple horizontal"),
        "they can copy a simple horizontal or vertical line and even build towers of five or more blocks",
    ),
    # a figure's caption between a reference's authors and its year: the last piece is one word
    (
        GRAPH.name,
        ("academic search (e.g., Xiong et al.,", "2017). We describe"),
        "improve ranking of results in academic search (e.g., Xiong et al., 2017)",
    ),
]


@pytest.mark.parametrize(("uri", "anchors", "quote"), CASES)
def test_a_quote_interrupted_by_what_is_set_apart_verifies_in_pieces(
    store: Store, uri: str, anchors: tuple[str, ...], quote: str
) -> None:
    chunk = chunk_with(store, uri, *anchors)
    answer = {"answer": f'The text says "{quote}" [S1].', "sources": {"S1": chunk}}
    (c,) = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()["citations"]
    assert (c["status"], c["passed"]) == ("verified", True), c["reason"]
    assert "pieces, around what interrupts the passage" in c["reason"]
    assert len(c["segments"]) >= 2  # a segment for each piece
    # the report's text is the quote's words: nothing of what stood between
    assert " ".join(c["text"].split()) == quote


def test_words_of_the_passage_left_out_are_not_forgiven(store: Store) -> None:
    # the same passage with words of the sentence itself dropped, no ellipsis: not verified
    chunk = chunk_with(store, TEXTBOOK.name, "they can copy a", "simple horizontal")
    stitched = "At 16 months of age, they can copy a simple horizontal or vertical line"
    answer = {"answer": f'The text says "{stitched}" [S1].', "sources": {"S1": chunk}}
    (c,) = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()["citations"]
    assert c["passed"] is False, c["reason"]
    assert "pieces" not in c["reason"]


def test_words_on_the_line_a_piece_ends_on_are_not_set_apart_across_a_page_break(store: Store) -> None:
    # "… the birth canal," ends a line's first words; the rest of that line ("making childbirth
    # easier …") is the passage's own, whatever the page break after it: a quote that goes on with
    # words of the next page ("with pliable points …") stitches two passages
    first = chunk_with(store, TEXTBOOK.name, "the birth canal, making childbirth easier")
    second = chunk_with(store, TEXTBOOK.name, "with pliable points at the seams")
    stitched = (
        "The neonate’s skull consists of several soft bones that can be compressed to allow the child to pass "
        "through the cervix and the birth canal, with pliable points at the seams where skull bones join"
    )
    answer = {"answer": f'The text says "{stitched}" [S1].', "sources": {"S1": first, "S2": second}}
    (c,) = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()["citations"]
    assert c["passed"] is False, c["reason"]


def test_a_changed_number_in_a_last_piece_of_one_word_is_not_found_after_the_gap(store: Store) -> None:
    # the year after the caption is 2017: a quote that says 2016 (or 2018, a year the paper names
    # elsewhere) is not that passage
    chunk = chunk_with(store, GRAPH.name, "academic search (e.g., Xiong et al.,", "2017). We describe")
    for year in ("2016", "2018"):
        quote = f"improve ranking of results in academic search (e.g., Xiong et al., {year})"
        answer = {"answer": f'The paper says "{quote}" [S1].', "sources": {"S1": chunk}}
        (c,) = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()["citations"]
        assert c["passed"] is False, c["reason"]
        assert "pieces" not in c["reason"]


#: A word of a script without spaces broken by a page's foot and the next page's head: Chinese
#: ("担保证 | — 第 12 页 — 年度报告 | 券"), Korean ("여 | — 12 — 검토보고서 | 성").
BROKEN_WORDS = [
    (
        '股东"史宇波"通过光大证券股份有限公司客户信用交易担保证\n\n— 第 12 页 —\f\n年度报告\n\n'
        '券账户持有 3,100,000 股；股东"徐开东"通过国金证券股份有限公司持有 2,431,359 股。\n',
        "通过光大证券股份有限公司客户信用交易担保证券账户持有 {} 股",
        ("3,100,000", "3,200,000"),
    ),
    (
        "이 경우 위원을 위촉할 때에는 아동, 청년, 여\n\n— 12 —\f\n검토보고서\n\n성, 노동자 등 다양한 "
        "사회계층의 대표성이 반영될 수 있도록 하여야 하며 위원은 15명으로 한다.\n",
        "위촉할 때에는 아동, 청년, 여성, 노동자 등 다양한 사회계층의 대표성이 반영될 수 있도록 하여야 하며 "
        "위원은 {}으로 한다",
        ("15명", "25명"),
    ),
]


@pytest.mark.parametrize(("text", "quote", "figures"), BROKEN_WORDS)
def test_a_word_broken_by_a_page_break_verifies_in_pieces_and_a_changed_figure_does_not(
    tmp_path: Path, text: str, quote: str, figures: tuple[str, str]
) -> None:
    # pieces of a script without spaces (Han characters, Hangul syllables) are cut inside a word,
    # and the report's text writes the word whole, as the quote does
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bericht.txt").write_text(text, encoding="utf-8")
    with Store(f"sqlite:///{tmp_path / 'c.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        (chunk,) = s.iter_chunks(document="bericht.txt")
        results = []
        for figure in figures:
            answer = {"answer": f"보고서: “{quote.format(figure)}” [S1].", "sources": {"S1": chunk.chunk_id}}
            results.append(verify_answer(s, answer, options=VerifyOptions(log=False)).as_json()["citations"][0])
    found, changed = results
    assert (found["status"], found["passed"]) == ("verified", True), found["reason"]
    assert "pieces" in found["reason"]
    assert found["text"] == quote.format(figures[0])
    assert changed["passed"] is False, changed["reason"]


def test_pieces_of_a_quote_in_a_text_that_repeats_its_words_are_tried_at_a_bounded_number_of_places(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a table of one short phrase per cell: each piece's words are everywhere within reach, so
    # without a bound the readings multiply with the number of pieces (18 s for this one)
    from citeline.verify import search

    calls = 0
    extend = search._extend

    def counted(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        return extend(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "_extend", counted)
    text = "Zürich cd q " * 300
    quote = " ".join(["Zürich cd"] * 10) + " zz"
    assert search._pieces(search.folded_quote(quote), search.fold(text).text) == []
    assert calls <= search.EXTEND_BUDGET + search.READINGS


def test_a_negation_between_the_pieces_is_not_set_apart(tmp_path: Path) -> None:
    # in a text file (no page geometry), nothing is set apart: a "not" left out is a change
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "note.txt").write_text(
        "Die Kasse erstattet Brillen für Kinder nicht, wenn sie älter als zwölf Jahre sind.\n", encoding="utf-8"
    )
    with Store(f"sqlite:///{tmp_path / 'n.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        (chunk,) = s.iter_chunks(document="note.txt")
        answer = {
            "answer": "Es heißt „Die Kasse erstattet Brillen für Kinder, wenn sie älter als zwölf Jahre sind“ [S1].",
            "sources": {"S1": chunk.chunk_id},
        }
        (c,) = verify_answer(s, answer, options=VerifyOptions(log=False)).as_json()["citations"]
    assert c["passed"] is False
    assert "pieces" not in c["reason"]
