"""verify against the generated fixtures' ground truth: what must verify, what must fail, and where a
verified quote lands (raw characters, pages, boxes)."""

from __future__ import annotations

import itertools
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from citeline.batch import IngestOptions, ingest_files
from citeline.ingest.pipeline import PipelineSettings
from citeline.store import Store
from citeline.store.records import ChunkInfo
from citeline.text.offsets import Normalized
from citeline.verify import InputError, VerifyOptions, verify_answer
from citeline.verify.lookup import joined_chunks
from tests.conftest import PDF_FIXTURES, ROOT, truth

SCHEMAS = ROOT / "verify" / "schema"
HANDBOOK = "policy_handbook.pdf"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    folder = tmp_path_factory.mktemp("verify")
    docs = folder / "docs"
    docs.mkdir()
    for name in (HANDBOOK, "two_column_paper.pdf", "multilingual.pdf"):
        shutil.copy(PDF_FIXTURES / name, docs / name)
    with Store(f"sqlite:///{folder / 'v.db'}") as s:
        # pdfplumber, not the default pdfium: these tests check quotes against raw text that keeps
        # the fixtures' ligature code points (ﬁ, ﬂ), which pdfium spells out
        ingest_files(s, [docs], IngestOptions(workers=2, settings=PipelineSettings(extractor="pdfplumber")))
        yield s


def chunk_with(store: Store, uri: str, text: str) -> ChunkInfo:
    for c in store.iter_chunks(document=uri):
        if text in c.text:
            return c
    raise AssertionError(f"no chunk of {uri} holds {text!r}")


def check(store: Store, cites: list[tuple[str, str]], **kwargs: Any) -> list[dict[str, Any]]:
    """Verify citations given as (chunk-locating text, quote) pairs, one marker each."""
    sources = {
        f"S{i}": chunk_with(store, kwargs.pop("uri", HANDBOOK), where).chunk_id for i, (where, _) in enumerate(cites, 1)
    }
    answer = {
        "answer": " ".join(f"Claim {i} [S{i}]." for i in range(1, len(cites) + 1)),
        "sources": sources,
        "citations": [{"marker": f"S{i}", "quote": q} for i, (_, q) in enumerate(cites, 1)],
    }
    report = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()
    jsonschema.validate(report, json.loads((SCHEMAS / "report.schema.json").read_text()))
    return report["citations"]  # type: ignore[no-any-return]


def line(para: int, index: int) -> dict[str, Any]:
    return truth("policy_handbook")["paragraphs"][para]["lines"][index]  # type: ignore[no-any-return]


def assert_box_on_line(box: dict[str, Any], ln: dict[str, Any]) -> None:
    assert box["page"] == ln["page"]
    assert box["top"] == pytest.approx(ln["top"], abs=1.0)
    assert box["bottom"] == pytest.approx(ln["bottom"], abs=1.0)
    assert ln["x0"] - 1.0 <= box["x0"] < box["x1"] <= ln["x1"] + 1.0


# ----------------------------------------------------------------------------- what must verify


def test_true_quotes_resolve_to_source_characters_and_line_boxes(store: Store) -> None:
    one_line = "Claims are not reimbursed after 90 days."
    two_lines = "reviews the status of each open long-term care claim every 12 months"
    ligature = "bound by the same confidentiality obligations as Northwind employees."
    c1, c2, c3 = check(store, [(one_line, one_line), (two_lines, two_lines), ("same confidentiality", ligature)])
    assert c1["status"] == c2["status"] == c3["status"] == "verified"
    assert c1["score"] == 100.0
    assert c1["text"] == one_line
    (box,) = c1["boxes"]
    assert_box_on_line(box, line(7, 1))
    assert box["x1"] == pytest.approx(line(7, 1)["x1"], abs=1.0)  # the quote ends the line
    assert c1["pages"] == [1]
    # the raw characters keep the line break and the compound's hyphen; one box per line
    assert c2["text"] == "reviews the status of each open long-\nterm care claim every 12 months"
    assert len(c2["boxes"]) == 2
    assert_box_on_line(c2["boxes"][0], line(16, 1))
    assert_box_on_line(c2["boxes"][1], line(16, 2))
    assert c3["text"] == "bound by the same conﬁdentiality obligations as Northwind\nemployees."
    # the document block names the version the range indexes
    assert c1["document"]["uri"] == HANDBOOK
    assert c1["document"]["current"] is True
    assert c1["document"]["content_hash"].startswith("sha256:")
    raw = store.raw_text(store.current_version(HANDBOOK).version_id)  # type: ignore[union-attr]
    for c in (c1, c2, c3):
        assert raw[c["range"]["start"] : c["range"]["end"]] == c["text"]


@pytest.mark.parametrize(
    ("where", "quote", "status"),
    [
        # straight quotes for the document's curly ones
        ("Herr Jürgen", 'A statement addressed to "Herr Jürgen Weiß, Große Straße 12, München" is genuine', "verified"),
        # the model rejoins a hyphenated line break and expands the ligature
        ("documentation", "documentation", "verified"),
        ("same confidentiality", "bound by the same confidentiality obligations", "verified"),
        ("same confidentiality", "bound by the same conﬁdentiality obligations", "verified"),
        # lower case at the start of the sentence
        ("Claims are not reimbursed", "claims are not reimbursed after 90 days", "verified"),
        # one-character typos
        (
            "itemised receipt",
            "Each claim must include an itemised reciept and the provider’s tax number",
            "verified_fuzzy",
        ),
        ("Northwind does not process", "Northwind does not procss medical claims itself.", "verified_fuzzy"),
    ],
)
def test_quotes_a_model_would_repair_still_verify(store: Store, where: str, quote: str, status: str) -> None:
    if quote == "documentation":  # find the sentence that holds the rejoined word
        chunk = chunk_with(store, HANDBOOK, "documentation")
        start = chunk.text.index("documentation")
        sentence_start = chunk.text.rfind(". ", 0, start) + 2
        quote = chunk.text[sentence_start : chunk.text.index(".", start) + 1]
    (c,) = check(store, [(where, quote)])
    assert c["status"] == status, c["reason"]
    assert c["flags"] == []
    if status == "verified_fuzzy":
        assert 85 <= c["score"] < 100
        assert all(d["kind"] in ("typo", "punctuation", "spacing", "reference_marker") for d in c["differences"])


def test_dropped_reference_marker_is_noise(store: Store) -> None:
    quote = "asking annotators to judge whether a cited passage supports a claim. Such judgements are expensive"
    (c,) = check(store, [("supports a claim [3, 7]", quote)], uri="two_column_paper.pdf")
    assert c["status"] == "verified_fuzzy"
    assert {"kind": "reference_marker", "quote": "", "source": "[3, 7]"} in c["differences"]
    assert "[3, 7]" in c["text"]


def test_quote_across_a_page_break_skips_the_running_header_and_footer(store: Store) -> None:
    quote = "is covered in full without a deductible and without prior approval from the claims administrator"
    (c,) = check(store, [("without prior approval", quote)])
    assert c["status"] == "verified"
    assert c["passed"] is True
    assert c["pages"] == [2, 3]
    # the range encloses the footer and the header between the pages; the segments and the text
    # leave them out, and so do the boxes
    raw = store.raw_text(store.chunk(c["chunk_id"]).version_id)  # type: ignore[union-attr]
    assert "Page 2 of 4" in raw[c["range"]["start"] : c["range"]["end"]]
    first, second = c["segments"]
    assert (first["page"], second["page"]) == (2, 3)
    assert c["range"]["start"] == first["start"] < first["end"] < second["start"] < second["end"] == c["range"]["end"]
    assert (
        raw[first["start"] : first["end"]]
        == "is covered in full without a deductible and without prior approval from the"
    )
    assert raw[second["start"] : second["end"]] == "claims administrator"
    assert c["text"] == quote
    assert "Page 2 of 4" not in c["text"]
    assert "Northwind Benefits Handbook" not in c["text"]
    assert [b["page"] for b in c["boxes"]] == [2, 3]
    assert_box_on_line(c["boxes"][0], line(18, 4))
    assert_box_on_line(c["boxes"][1], line(18, 5))


# ----------------------------------------------------------------------------- what must fail


@pytest.mark.parametrize(
    ("quote", "flag"),
    [
        ("Claims are not reimbursed after 120 days.", "numeric_mismatch"),
        ("annual deductible of $1,500 has been met", "numeric_mismatch"),
        ("Claims are reimbursed after 90 days.", "negation_mismatch"),
        ("Claims are never reimbursed after 90 days.", "negation_mismatch"),
        ("the independent claims administrator checks the state of each open long-term care claim", None),
        ("Each claim must include a dated invoice and the provider’s tax number", None),
    ],
)
def test_changed_numbers_negations_and_paraphrases_fail(store: Store, quote: str, flag: str | None) -> None:
    where = "Claims are not reimbursed" if ("reimbursed" in quote or "deductible" in quote) else "itemised receipt"
    if "administrator checks" in quote:
        where = "independent claims administrator"
    (c,) = check(store, [(where, quote)])
    assert c["status"] in ("quote_altered", "quote_not_found"), c
    assert c["range"] is None
    assert c["boxes"] == []
    if flag:
        assert flag in c["flags"]
    if c["status"] == "quote_altered":
        assert "⟦" in c["drift"]  # the differing source words are marked
        assert c["drift_range"] is not None


def test_quote_from_another_injected_chunk_is_misattributed(store: Store) -> None:
    a = "Claims are not reimbursed after 90 days."
    b = "The wellness programme reimburses gym memberships, yoga classes and smoking-cessation courses"
    c = check(store, [(a, b), (b, a)])
    assert [x["status"] for x in c] == ["misattributed", "misattributed"]
    assert c[0]["found_in"]["marker"] == "S2"
    assert c[0]["found_in"]["text"].startswith("The wellness programme")
    assert c[1]["found_in"]["marker"] == "S1"


def test_quote_elsewhere_in_the_document_is_misattributed(store: Store) -> None:
    quote = "The wellness programme reimburses gym memberships, yoga classes and smoking-cessation courses"
    (c,) = check(store, [("Claims are not reimbursed", quote)])
    assert c["status"] == "misattributed"
    assert c["found_in"]["marker"] is None
    assert c["found_in"]["chunk_id"] == chunk_with(store, HANDBOOK, "wellness programme reimburses").chunk_id


def test_a_long_running_verifier_starts_its_caches_over_with_the_same_results(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citeline.verify import verify as verify_module

    def answer(uri: str, where: str, quote: str) -> Any:
        return verify_module.parse_answer(
            {
                "answer": "Belegt, „wörtlich“ [S1].",
                "sources": {"S1": chunk_with(store, uri, where).chunk_id},
                "citations": [{"marker": "S1", "quote": quote}],
            },
            name="answer",
        )

    paper = answer("two_column_paper.pdf", "", "a quote that this paper does not hold anywhere at all")
    handbook = answer(
        HANDBOOK,
        "Claims are not reimbursed",
        "The wellness programme reimburses gym memberships, yoga classes and smoking-cessation courses",
    )
    verifier = verify_module.Verifier(store, VerifyOptions(log=False))
    verifier.verify(paper)
    first = verifier.verify(handbook).as_json()["citations"]
    from citeline.verify import lookup as lookup_module

    paper_version = verifier.lookup.chunk(paper.sources["S1"]).version_id  # type: ignore[union-attr,index]
    assert paper_version in verifier.lookup._version_chunks  # kept across answers
    monkeypatch.setattr(lookup_module, "CHUNK_CACHE", 2)
    again = verifier.verify(handbook).as_json()["citations"]
    assert again == first
    assert first[0]["status"] == "misattributed"
    assert paper_version not in verifier.lookup._version_chunks  # started over before this answer


def test_invented_markers_unknown_chunks_and_short_quotes(store: Store) -> None:
    chunk = chunk_with(store, HANDBOOK, "Claims are not reimbursed").chunk_id
    answer = {
        "answer": "A [S1]. B [S2]. C [S9].",
        "sources": {"S1": chunk, "S2": "ck_00000000000000000000"},
        "citations": [
            {"marker": "S1", "quote": "after 60 days"},
            {"marker": "S2", "quote": "Claims are not reimbursed after 90 days."},
            {"marker": "S9", "quote": "Claims are not reimbursed after 90 days."},
            {"marker": "S1", "quote": "after 90 days"},
        ],
    }
    c = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()["citations"]
    assert [x["status"] for x in c] == ["too_short", "unknown_chunk", "fabricated_marker", "verified"]
    assert c[0]["reason"] == (
        "quote has 13 characters and 3 words; a quote shorter than 20 characters or 4 words is checked as "
        "written only, and is not in the cited chunk as written"
    )
    # a short quote is taken as written: found so, it is verified (a fuzzy match of a few words is chance)
    assert c[3]["passed"] is True


def test_required_terms_and_claim_flags(store: Store) -> None:
    where = "Claims are not reimbursed"
    chunk = chunk_with(store, HANDBOOK, where).chunk_id
    answer = {
        "answer": "Late claims are reimbursed within 45 days [S1].",
        "sources": {"S1": chunk},
        "citations": [
            {
                "marker": "S1",
                "quote": "Claims are not reimbursed after 90 days.",
                "claim": "Late claims are reimbursed within 45 days",
                "required_terms": ["itemised receipt", "Steuernummer"],
            }
        ],
    }
    (c,) = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()["citations"]
    assert c["status"] == "verified"
    assert set(c["flags"]) == {"numeric_mismatch", "negation_mismatch", "missing_terms"}
    assert "Steuernummer" in c["reason"]
    assert "itemised receipt" not in c["reason"]


# ----------------------------------------------------------------------------- stale versions


def test_stale_version_reanchors_unchanged_quotes_and_reports_rewritten_ones(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    target = docs / HANDBOOK
    shutil.copy(PDF_FIXTURES / HANDBOOK, target)
    with Store(f"sqlite:///{tmp_path / 's.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        rewritten = "Claims are not reimbursed after 90 days."
        unchanged = "Each site has a health and safety coordinator who keeps the first-aid kits stocked"
        removed = "Employees who work from home more than three days per week may claim a one-off allowance"
        cites = [(rewritten, rewritten), (unchanged, unchanged), (removed, removed)]
        # two of the quotes are in one chunk: a context refuses an id twice, explicit sources allow it
        sources = {f"S{i}": chunk_with(s, HANDBOOK, w).chunk_id for i, (w, _) in enumerate(cites, 1)}
        shutil.copy(PDF_FIXTURES / "policy_handbook_v2.pdf", target)
        ingest_files(s, [docs], IngestOptions(workers=1))
        answer = {
            "answer": "One [S1]. Two [S2]. Three [S3].",
            "sources": sources,
            "citations": [{"marker": f"S{i}", "quote": q} for i, (_, q) in enumerate(cites, 1)],
        }
        c = verify_answer(s, answer, options=VerifyOptions(log=False)).as_json()["citations"]
        assert [x["status"] for x in c] == ["verified"] * 3  # they are still in the version they cite
        assert all("stale_version" in x["flags"] for x in c)
        assert all(x["document"]["version"] == 1 and x["document"]["current"] is False for x in c)
        assert c[0]["stale"] == {"current_version": 2, "found": False}
        assert c[2]["stale"] == {"current_version": 2, "found": False}
        moved = c[1]["stale"]
        assert moved["found"] is True
        assert moved["current_version"] == 2
        assert moved["status"] == "verified"
        raw2 = s.raw_text(s.current_version(HANDBOOK).version_id)  # type: ignore[union-attr]
        assert raw2[moved["range"]["start"] : moved["range"]["end"]] == moved["text"]
        assert moved["text"].startswith("Each site has a health")
        assert moved["range"] != c[1]["range"]  # re-anchored: the paragraph before it was removed in version 2
        assert moved["boxes"]


# ----------------------------------------------------------------------------- parsing


def test_markers_and_quotes_parsed_from_the_answer(store: Store) -> None:
    a = chunk_with(store, HANDBOOK, "Claims are not reimbursed").chunk_id
    b = chunk_with(store, HANDBOOK, "Northwind does not process").chunk_id
    answer = {
        "answer": (
            "Here is what the handbook says:\n\n"
            "The handbook states “Claims are not reimbursed after 90 days.” [1] "
            'It also says "Northwind does not process medical claims itself." [S2] '
            "Both rules apply [S1, S2]. A third source 【3】 is invented. The plan covers 1,095 days of care."
        ),
        "sources": {"S1": a, "S2": b},
    }
    report = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()
    statuses = [(c["marker"], c["status"]) for c in report["citations"]]
    assert statuses == [
        ("S1", "verified"),
        ("S2", "verified"),
        ("S1", "no_quote"),
        ("S2", "no_quote"),
        ("3", "fabricated_marker"),
    ]
    assert report["uncited"] == ["The plan covers 1,095 days of care."]
    assert report["sentences"][0]["asserting"] is False  # framing
    # "Both rules apply [S1, S2]." states something too: it asserts (and is cited)
    assert [s["asserting"] for s in report["sentences"]] == [False, True, True, True, True, True]
    assert report["summary"]["coverage"] == pytest.approx(4 / 5)


def test_anthropic_style_citation_blocks(store: Store) -> None:
    a = chunk_with(store, HANDBOOK, "Claims are not reimbursed")
    start = a.text.index("Claims are not reimbursed")
    answer = {
        "content": [
            {"type": "text", "text": "Late claims are refused. "},
            {
                "type": "text",
                "text": "They are not paid after 90 days.",
                "citations": [
                    {
                        "type": "char_location",
                        "cited_text": "Claims are not reimbursed after 90 days.",
                        "document_index": 0,
                        "start_char_index": start,
                        "end_char_index": start + 40,
                    },
                    {
                        "type": "page_location",
                        "cited_text": "Northwind does not process medical claims itself.",
                        "document_index": 1,
                        "start_page_number": 2,
                        "end_page_number": 3,
                    },
                ],
            },
        ],
        "documents": [a.chunk_id, {"document": HANDBOOK}],
    }
    jsonschema.validate(answer, json.loads((SCHEMAS / "answer.schema.json").read_text()))
    c = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()["citations"]
    assert [(x["marker"], x["status"]) for x in c] == [("0", "verified"), ("1", "verified")]
    assert c[1]["pages"] == [2]
    # the char_location indices were taken: the range is theirs, mapped to the raw stream
    assert c[0]["range"]["start"] == a.map.to_original(Normalized(start, start + 40)).start
    # wrong indices do not hide a quote that is in the chunk
    answer["content"][1]["citations"][0]["start_char_index"] = 0  # type: ignore[index]
    again = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()["citations"]
    assert again[0]["status"] == "verified"
    assert again[0]["range"] == c[0]["range"]


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"{not json", "answer: not valid JSON at line 1 column 2"),
        (b"[1, 2]", "answer: expected a JSON object, got list"),
        (b'{"answer": 5, "sources": {}}', "answer: 'answer' must be a string, got int"),
        (b'{"answer": "x", "sources": ["S1"]}', "answer: 'sources' must map markers to chunk ids (strings)"),
        (
            b'{"answer": "x", "sources": {}, "citations": [{"marker": "S1", "quote": "  "}]}',
            "answer: citations[0].quote is empty",
        ),
        (
            b'{"answer": "x", "sources": {}, "citations": [{"marker": "S1", "quote": 3}]}',
            "answer: citations[0].quote must be a string, got int",
        ),
        (
            b'{"answer": "x", "sources": {}, "citations": {"marker": "S1"}}',
            "answer: 'citations' must be a list, got dict",
        ),
    ],
)
def test_bad_answers_are_one_line_input_errors(store: Store, payload: bytes, message: str) -> None:
    with pytest.raises(InputError) as err:
        verify_answer(store, payload, options=VerifyOptions(log=False))
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_answer_example_in_the_readme_matches_the_schema() -> None:
    example = {
        "answer": "text with markers like [S1] ...",
        "sources": {"S1": "<chunk id>", "S2": "<chunk id>"},
        "citations": [{"marker": "S1", "quote": "verbatim span", "claim": "optional", "required_terms": ["optional"]}],
    }
    jsonschema.validate(example, json.loads((SCHEMAS / "answer.schema.json").read_text()))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {"answer": "x", "sources": {}, "context": "ctx"}, json.loads((SCHEMAS / "answer.schema.json").read_text())
        )


# ----------------------------------------------------------------------------- across two chunks

PAPER = "two_column_paper.pdf"
ACROSS = "the removal of running headers, footers and page numbers. Quotes were matched with an exact search first"


def consecutive(store: Store, uri: str, ending: str) -> tuple[ChunkInfo, ChunkInfo]:
    """The chunk whose text ends with ``ending`` and the one after it."""
    chunks = list(store.iter_chunks(document=uri))
    first = next(c for c in chunks if c.text.rstrip().endswith(ending))
    return first, next(c for c in chunks if c.ordinal == first.ordinal + 1)


def verified_across(store: Store, sources: dict[str, str], marker: str, quote: str) -> dict[str, Any]:
    answer = {"answer": "x", "sources": sources, "citations": [{"marker": marker, "quote": quote}]}
    report = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()
    jsonschema.validate(report, json.loads((SCHEMAS / "report.schema.json").read_text()))
    return report["citations"][0]  # type: ignore[no-any-return]


@pytest.mark.parametrize("marker", ["S1", "S2"])
def test_quote_running_on_into_the_next_injected_chunk_is_found_in_both(store: Store, marker: str) -> None:
    first, second = consecutive(store, PAPER, "page numbers.")
    # neither chunk holds the quote alone: it runs over the paragraph break between them
    assert "Quotes were matched" not in first.text
    assert "footers and page numbers" not in second.text
    c = verified_across(store, {"S1": first.chunk_id, "S2": second.chunk_id}, marker, ACROSS)
    assert (c["status"], c["passed"], c["marker"]) == ("verified", True, marker)
    assert c["chunk_id"] == (first if marker == "S1" else second).chunk_id
    assert f"runs on from S1 ({first.chunk_id}) into S2 ({second.chunk_id})" in c["reason"]
    raw = store.raw_text(first.version_id)
    (segment,) = c["segments"]
    assert (c["range"]["start"], c["range"]["end"]) == (segment["start"], segment["end"])
    assert first.raw_start < segment["start"] < first.raw_end <= second.raw_start < segment["end"] < second.raw_end
    assert " ".join(raw[segment["start"] : segment["end"]].split()) == ACROSS.replace("fi", "ﬁ").replace("fl", "ﬂ")
    assert c["text"] == raw[segment["start"] : segment["end"]]
    assert c["pages"] == [1]
    assert len(c["boxes"]) == 4  # the four lines the quote is on
    assert c["flags"] == []


def test_a_quote_one_injected_chunk_holds_whole_is_not_a_run_on(tmp_path: Path) -> None:
    """whole_quote_first: a quote that runs on from the cited chunk into the next is the other injected
    chunk's when that one holds all of it (here a French note that repeats the passage); off, or
    without that chunk, it runs on (the near miss: the run-on stays verified)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / PAPER, docs / PAPER)
    (docs / "note_fr.txt").write_text(f"Note de lecture (Zürich, été) : « {ACROSS}. »\n", encoding="utf-8")
    with Store(f"sqlite:///{tmp_path / 'w.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1, settings=PipelineSettings(extractor="pdfplumber")))
        first, second = consecutive(s, PAPER, "page numbers.")
        (note,) = s.iter_chunks(document="note_fr.txt")
        sources = {"S1": first.chunk_id, "S2": second.chunk_id, "S3": note.chunk_id}

        def cited(sources: dict[str, str], disabled: frozenset[str] = frozenset()) -> dict[str, Any]:
            answer = {"answer": "x", "sources": sources, "citations": [{"marker": "S1", "quote": ACROSS}]}
            options = VerifyOptions(log=False, disabled=disabled)
            return verify_answer(s, answer, options=options).as_json()["citations"][0]  # type: ignore[no-any-return]

        whole = cited(sources)
        assert (whole["status"], whole["passed"], whole["found_in"]["marker"]) == ("misattributed", False, "S3")
        assert cited(sources, frozenset({"whole_quote_first"}))["status"] == "verified"
        run_on = cited({"S1": first.chunk_id, "S2": second.chunk_id})
        assert (run_on["status"], run_on["passed"]) == ("verified", True)


def test_quote_running_on_into_a_chunk_the_model_never_saw_or_changed_is_not_verified(store: Store) -> None:
    first, second = consecutive(store, PAPER, "page numbers.")
    alone = verified_across(store, {"S1": first.chunk_id}, "S1", ACROSS)
    assert alone["status"] in ("quote_not_found", "quote_altered")  # only its first half is there
    assert alone["passed"] is False
    changed = verified_across(
        store, {"S1": first.chunk_id, "S2": second.chunk_id}, "S1", ACROSS.replace("exact", "fuzzy")
    )
    assert changed["status"] in ("quote_not_found", "quote_altered")
    assert changed["passed"] is False
    # a marker list after the quote: each marker a citation, each found across the two
    answer = {
        "answer": f'The study found that "{ACROSS}" [S1][S2].',
        "sources": {"S1": first.chunk_id, "S2": second.chunk_id},
    }
    report = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()
    assert [(x["marker"], x["status"]) for x in report["citations"]] == [("S1", "verified"), ("S2", "verified")]


def test_joined_chunks_map_every_character_where_its_own_chunk_does(store: Store) -> None:
    pairs = 0
    for uri in (HANDBOOK, PAPER):
        chunks = list(store.iter_chunks(document=uri))
        for first, second in itertools.pairwise(chunks):
            got = joined_chunks(first, second)
            assert got is not None
            joined, second_from, first_to = got
            pairs += 1
            assert joined.text[:first_to] == first.text
            assert joined.text[second_from:] == second.text
            assert joined.text[first_to:second_from].strip() == ""  # the paragraph break put back
            for i in range(len(joined.text)):
                if i < first_to:
                    assert joined.map.source_of(i) == first.map.source_of(i)
                elif i >= second_from:
                    assert joined.map.source_of(i) == second.map.source_of(i - second_from)
                else:  # the break stands for the raw characters between the two chunks
                    gap = joined.map.source_of(i)
                    assert first.raw_end - 1 <= gap.start < gap.end <= max(second.raw_start, first.raw_end)
        assert joined_chunks(chunks[1], chunks[0]) is None  # not in reading order
        assert joined_chunks(chunks[0], chunks[2]) is None  # not consecutive
    assert pairs >= 10


def test_quote_past_the_overlap_of_one_long_paragraph(tmp_path: Path) -> None:
    # one paragraph of 40 sentences: its chunks overlap by whole sentences, and a quote of three
    # sentences around a chunk end is in neither chunk alone
    sentences = [f"Die Station {i} in Göteborg meldet {i * 7} Fähren und {i + 3} Brücken am Kai." for i in range(40)]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "hafen.txt").write_text(" ".join(sentences) + "\n", encoding="utf-8")
    with Store(f"sqlite:///{tmp_path / 'o.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        chunks = list(s.iter_chunks(document="hafen.txt"))
        assert len(chunks) >= 3
        first, second = chunks[0], chunks[1]
        assert second.clean_start < first.clean_end  # they overlap
        joined, second_from, first_to = joined_chunks(first, second)  # type: ignore[misc]
        assert joined.text == first.text + second.text[first_to - second_from :]
        for i in range(len(joined.text)):
            own = first.map.source_of(i) if i < first_to else second.map.source_of(i - second_from)
            assert joined.map.source_of(i) == own
        # from the last sentence before the overlap to the first one after it
        last = max(k for k, t in enumerate(sentences) if t in first.text and t not in second.text)
        after = min(k for k, t in enumerate(sentences) if t in second.text and t not in first.text)
        assert after > last + 1  # at least one sentence in both
        quote = " ".join(sentences[last : after + 1])
        assert quote not in first.text
        assert quote not in second.text
        answer = {"answer": "x", "sources": {"S1": first.chunk_id, "S2": second.chunk_id}}
        report = verify_answer(
            s, {**answer, "citations": [{"marker": "S2", "quote": quote}]}, options=VerifyOptions(log=False)
        ).as_json()
        (c,) = report["citations"]
        assert (c["status"], c["marker"], c["chunk_id"], c["flags"]) == ("verified", "S2", second.chunk_id, [])
        assert s.raw_text(first.version_id)[c["range"]["start"] : c["range"]["end"]] == quote
