"""verify on answers written the way models write them: two quotes and two markers in one sentence,
marker lists, quotes before their marker, semicolons, numbers inside tokens, ellipses, page-crossing
quotes, one-letter noise, flags that fail, stale passages that are gone, Anthropic locations."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from hypothesis import Phase, assume, given, settings
from hypothesis import strategies as st

from citeline.batch import IngestOptions, ingest_files
from citeline.cli import cli
from citeline.store import Store
from citeline.text import lang as language
from citeline.text.lang import Language
from citeline.text.lexicon import document_language
from citeline.verify import VerifyOptions, verify_answer
from citeline.verify.errors import InputError
from tests.conftest import PDF_FIXTURES, ROOT

HANDBOOK = "policy_handbook.pdf"


def lang_of(text: str) -> Language:
    """The language verify reads a text in: the one its words say (as for a document or an answer)."""
    return language.of(document_language(text))


SCHEMA = json.loads((ROOT / "verify" / "schema" / "report.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    folder = tmp_path_factory.mktemp("rules")
    docs = folder / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / HANDBOOK, docs / HANDBOOK)
    shutil.copy(PDF_FIXTURES / "two_column_paper.pdf", docs / "two_column_paper.pdf")
    with Store(f"sqlite:///{folder / 'v.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        yield s


def chunk_of(store: Store, text: str, uri: str = HANDBOOK) -> str:
    for c in store.iter_chunks(document=uri):
        if text in c.text:
            return c.chunk_id
    raise AssertionError(f"no chunk of {uri} holds {text!r}")


def run(store: Store, answer: dict[str, Any], **options: Any) -> dict[str, Any]:
    report = verify_answer(store, answer, options=VerifyOptions(log=False, **options)).as_json()
    jsonschema.validate(report, SCHEMA)
    return report  # type: ignore[no-any-return]


def statuses(report: dict[str, Any]) -> list[tuple[str, str, bool]]:
    return [(c["marker"], c["status"], c["passed"]) for c in report["citations"]]


# ----------------------------------------------------------------------------- pairing in practice


def test_two_quotes_two_markers_in_one_sentence(store: Store) -> None:
    s1 = chunk_of(store, "Claims are not reimbursed after 90 days.")
    s2 = chunk_of(store, "Northwind does not process medical claims itself.")
    answer = {
        "answer": (
            'The handbook says claims "are not reimbursed after 90 days" [S1] and that Northwind '
            '"does not process medical claims itself" [S2].'
        ),
        "sources": {"S1": s1, "S2": s2},
    }
    report = run(store, answer)
    assert statuses(report) == [("S1", "verified", True), ("S2", "verified", True)]
    # each claim is its own clause: the other quote's number does not flag this one
    assert report["citations"][1]["claim"].startswith("and that Northwind")
    assert report["summary"]["passed"] == 2


def test_semicolons_markers_before_quotes_and_marker_lists(store: Store) -> None:
    s1 = chunk_of(store, "Claims are not reimbursed after 90 days.")
    s2 = chunk_of(store, "bound by the same confidentiality obligations")
    answer = {
        "answer": (
            '[S1] says "Claims are not reimbursed after 90 days"; the administrators are "bound by the same '
            'confidentiality obligations as Northwind employees" [S1][S2].'
        ),
        "sources": {"S1": s1, "S2": s2},
    }
    report = run(store, answer)
    # each marker of the list after the second quote is a citation of its own: S1's chunk does
    # not hold the quote (S2's does), so under S1 it is misattributed, found in S2
    assert statuses(report) == [("S1", "verified", True), ("S1", "misattributed", False), ("S2", "verified", True)]
    assert report["citations"][1]["found_in"]["marker"] == "S2"
    assert "markers" not in report["citations"][2]  # a citation names its own marker, not the list


def test_a_marker_list_where_no_chunk_holds_the_quote_fails(store: Store) -> None:
    s1 = chunk_of(store, "Claims are not reimbursed after 90 days.")
    s2 = chunk_of(store, "bound by the same confidentiality obligations")
    answer = {
        "answer": 'The plan "pays for every gym membership in Zürich and Genève" [S1, S2].',
        "sources": {"S1": s1, "S2": s2},
    }
    got = run(store, answer)["citations"]
    assert [(c["marker"], c["status"], c["passed"]) for c in got] == [
        ("S1", "quote_not_found", False),
        ("S2", "quote_not_found", False),
    ]


# ----------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "quote",
    [
        "once the annual deductible of $1,300 has been met",  # thousands separator
        "are reimbursed at 71% of the allowed amount",  # percentage
        "A 12.6% employer match applies to contributions",  # after the decimal point
        "set aside up to $3,200 per year before tax and 2.9x more",  # an added number in a token
    ],
)
def test_a_digit_that_differs_is_never_fuzzy(store: Store, quote: str) -> None:
    chunk = chunk_of(store, "annual deductible of $1,200")
    (c,) = run(store, {"answer": f'It says "{quote}" [S1].', "sources": {"S1": chunk}})["citations"]
    assert c["status"] in ("quote_altered", "quote_not_found")
    assert c["passed"] is False
    if c["status"] == "quote_altered":
        assert "numeric_mismatch" in c["flags"]


def test_a_number_in_the_claim_but_not_the_quote_fails_the_citation(store: Store) -> None:
    chunk = chunk_of(store, "Claims are not reimbursed after 90 days.")
    answer = {
        "answer": 'After 120 days, claims are not reimbursed: "Claims are not reimbursed after 90 days." [S1]',
        "sources": {"S1": chunk},
        "citations": [
            {
                "marker": "S1",
                "quote": "Claims are not reimbursed after 90 days.",
                "claim": "after 120 days claims are not reimbursed",
            }
        ],
    }
    (c,) = run(store, answer)["citations"]
    assert c["status"] == "verified"
    assert "numeric_mismatch" in c["flags"]
    assert c["passed"] is False
    # a flag need not fail: --fail-on decides
    (c,) = run(store, answer, fail_on=frozenset())["citations"]
    assert c["passed"] is True


@pytest.mark.parametrize(
    "lead",
    [
        "Section 4 of the handbook says",
        "Table 8 (Übersicht) states",
        "Laut Abschnitt 3.2 und Bemerkung 2 gilt:",
        "Definition 20:",
        "As § 5 puts it,",
    ],
)
def test_the_number_of_a_part_of_the_document_states_no_quantity(store: Store, lead: str) -> None:
    chunk = chunk_of(store, "Claims are not reimbursed after 90 days.")
    answer = {"answer": f'{lead} "Claims are not reimbursed after 90 days" [S1].', "sources": {"S1": chunk}}
    (c,) = run(store, answer)["citations"]
    assert (c["status"], c["flags"], c["passed"]) == ("verified", [], True)
    # a quantity beside the label still counts
    answer["answer"] = f'{lead} within 120 days: "Claims are not reimbursed after 90 days" [S1].'
    (c,) = run(store, answer)["citations"]
    assert "numeric_mismatch" in c["flags"]
    assert c["passed"] is False


# ----------------------------------------------------------------------------- ellipses and page breaks


def test_an_elided_quote_verifies_part_by_part_in_order(store: Store) -> None:
    chunk = chunk_of(store, "Claims are not reimbursed after 90 days.")
    for ellipsis in ("…", "..."):
        quote = (
            f"Out-of-network claims are reimbursed at 70% {ellipsis} once the annual deductible of $1,200 has been met"
        )
        (c,) = run(store, {"answer": f'It says "{quote}" [S1].', "sources": {"S1": chunk}})["citations"]
        assert c["status"] == "verified"
        assert len(c["segments"]) == 2
        # the raw characters of each part (its line breaks and all), parts joined with an ellipsis
        assert " ".join(c["text"].split()) == (
            "Out-of-network claims are reimbursed at 70% … once the annual deductible of $1,200 has been met"
        )
    # parts out of order are not the passage
    swapped = "once the annual deductible of $1,200 has been met … Out-of-network claims are reimbursed at 70%"
    (c,) = run(store, {"answer": f'It says "{swapped}" [S1].', "sources": {"S1": chunk}})["citations"]
    assert c["status"] != "verified"
    # each part must be long enough to mean something on its own
    short = "Out-of-network claims are reimbursed at 70% … 90 days"
    (c,) = run(store, {"answer": f'It says "{short}" [S1].', "sources": {"S1": chunk}})["citations"]
    assert c["status"] == "too_short"


def test_an_ellipsis_may_not_splice_parts_of_two_sentences_into_one(store: Store) -> None:
    """ "Claims are not reimbursed … when the employee was in hospital" joins the start of one
    sentence to the end of another, saying what neither says; whole sentences may be elided."""
    chunk = chunk_of(store, "Claims are not reimbursed after 90 days.")
    text = store.chunk(chunk).text
    spliced = "Claims are not reimbursed … when the employee was in hospital or abroad for the whole period"
    whole = next(p.strip() for p in text.split(".") if "Claims are not reimbursed after 90 days" in p) + "."
    late = next(p.strip() for p in text.split(".") if "when the employee was in hospital" in p) + "."
    if late not in text or whole not in text:
        pytest.skip("the fixture's sentences changed")
    (c,) = run(store, {"answer": f'It says "{spliced}" [S1].', "sources": {"S1": chunk}})["citations"]
    assert c["status"] != "verified"
    assert c["passed"] is False
    # both parts are in the chunk: the reason says why that is not the quote, not that it is absent
    assert c["reason"] == (
        "its parts are in the cited chunk in order, but the ellipsis joins part of one sentence to part of another"
    )
    (c,) = run(store, {"answer": f'It says "{whole} … {late}" [S1].', "sources": {"S1": chunk}})["citations"]
    assert (c["status"], c["passed"]) == ("verified", True)


@pytest.mark.parametrize(
    ("first", "second", "spliced"),
    [
        ("all other baselines", "cannot be used in real-world setting", True),  # a footnote mark after the stop
        ("all other baselines except for SGC", "to the citation graph at training", False),  # one sentence
        ("the citation graph at training and test time.", "On the other hand, on co-citation data", False),
        # a full stop inside a sentence: an abbreviation, an initial, before a lower-case word or a number
        ("If you are entitled to a reduced rate", "tax is the same as the treaty rate", False),
        ("Be sure you have read the Exception", "to figure your deduction", False),
        ("As Řehůřek", "Showed in Zürich", False),
        ("If you are entitled to a reduced rate", "Using the treaty rate", True),
        # the end of a sentence left out from a clause's end, then a whole sentence: no splice
        ("Die Hinweise waren oft chaotisch", "In korrekten Zusammenfassungen", False),
        ("Die Hinweise waren oft", "In korrekten Zusammenfassungen", True),
        ("Die Hinweise waren oft chaotisch", "genügte es, die Stelle", True),
    ],
)
def test_an_ellipsis_splice_across_a_sentence_end(first: str, second: str, spliced: bool) -> None:
    from citeline.verify.match import Match
    from citeline.verify.quotes import spliced as _spliced

    text = (
        "our model outperforming virtually all other baselines except for SGC, which has access to the citation "
        "graph at training and test time.12 Note that methods like SGC cannot be used in real-world setting to "
        "embed new papers that are not cited yet. On the other hand, on co-citation data our method is best. "
        "If you are entitled to a reduced rate of U.S. tax is the same as the treaty rate. Using the treaty "
        "rate is allowed. Be sure you have read the Exception instead of Pub. 535 to figure your deduction. "
        "As Řehůřek et al. Showed in Zürich, the rate is 0%. Die Hinweise waren oft chaotisch, und selbst "
        "richtige Stellen mussten geprüft werden. In korrekten Zusammenfassungen genügte es, die Stelle zu lesen."
    )
    a, b = text.index(first), text.index(second)
    m1, m2 = Match("exact", 100, a, a + len(first)), Match("exact", 100, b, b + len(second))
    assert _spliced(text, m1, m2, language.of("en")) is spliced


def test_a_trailing_ellipsis_only_says_the_sentence_goes_on(store: Store) -> None:
    chunk = chunk_of(store, "Claims are not reimbursed after 90 days.")
    quote = "Each claim must include an itemised receipt and the provider’s tax number…"
    (c,) = run(store, {"answer": f"It says “{quote}” [S1].", "sources": {"S1": chunk}})["citations"]
    assert c["status"] == "verified"


# ----------------------------------------------------------------------------- noise and words


def test_one_letter_noise_in_short_words_is_fuzzy_but_another_word_is_not(store: Store) -> None:
    chunk = chunk_of(store, "Claims are not reimbursed after 90 days.")
    cases = {
        "Each claim must include an itemised receipt and th provider’s tax number": "verified_fuzzy",
        "Each claim must include an itemised receipt nd the provider’s tax number": "verified_fuzzy",
        "Each claim must include an itemised receipt and the provider’s tax numbers": "quote_altered",
        "Each claim must include an itemised receipt or the provider’s tax number": "quote_altered",
    }
    for quote, status in cases.items():
        (c,) = run(store, {"answer": f"It says “{quote}” [S1].", "sources": {"S1": chunk}})["citations"]
        assert c["status"] == status, (quote, c["reason"])


# ----------------------------------------------------------------------------- stale and gone


def test_a_stale_citation_whose_passage_is_gone_fails(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    target = docs / HANDBOOK
    shutil.copy(PDF_FIXTURES / HANDBOOK, target)
    with Store(f"sqlite:///{tmp_path / 's.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        kept = "Northwind does not process medical claims itself."
        gone = "Employees who work from home more than three days per week may claim a one-off allowance"
        ctx = s.create_context([chunk_of(s, kept), chunk_of(s, gone)])
        shutil.copy(PDF_FIXTURES / "policy_handbook_v2.pdf", target)
        ingest_files(s, [docs], IngestOptions(workers=1))
        answer = {"answer": f'It says "{kept}" [S1] and "{gone}" [S2].', "context": ctx.context_id}
        report = run(s, answer)
        first, second = report["citations"]
        assert first["flags"] == ["stale_version"]
        assert first["passed"] is True  # still there in the current version
        assert second["flags"] == ["stale_version", "stale_gone"]
        assert second["passed"] is False
        assert second["stale"] == {"current_version": 2, "found": False}


# ----------------------------------------------------------------------------- Anthropic locations


def test_anthropic_locations_that_disagree_are_flagged(store: Store) -> None:
    chunk_id = chunk_of(store, "Claims are not reimbursed after 90 days.")
    text = store.chunk(chunk_id).text  # type: ignore[union-attr]
    quote = "Claims are not reimbursed after 90 days."
    start = text.index(quote)

    def cite(s: int, e: int) -> dict[str, Any]:
        return {
            "content": [
                {
                    "type": "text",
                    "text": "Claims are not paid after 90 days.",
                    "citations": [
                        {
                            "type": "char_location",
                            "document_index": 0,
                            "cited_text": quote,
                            "start_char_index": s,
                            "end_char_index": e,
                        }
                    ],
                }
            ],
            "documents": [chunk_id],
        }

    (good,) = run(store, cite(start, start + len(quote)))["citations"]
    assert good["status"] == "verified"
    assert good["flags"] == []
    (bad,) = run(store, cite(0, len(quote)))["citations"]
    assert bad["status"] == "verified"
    assert "location_mismatch" in bad["flags"]
    assert "it is at" in bad["reason"]
    # a whole version cited: the indices are into its cleaned text (or its raw stream)
    chunk = store.chunk(chunk_id)
    assert chunk is not None
    whole = {
        **cite(chunk.clean_start + start, chunk.clean_start + start + len(quote)),
        "documents": [{"document": HANDBOOK}],
    }
    (doc,) = run(store, whole)["citations"]
    assert (doc["status"], doc["flags"]) == ("verified", []), doc["reason"]
    raw = {**cite(doc["range"]["start"], doc["range"]["end"]), "documents": [{"document": HANDBOOK}]}
    assert run(store, raw)["citations"][0]["flags"] == []
    off = {**cite(start, start + len(quote)), "documents": [{"document": HANDBOOK}]}
    if chunk.clean_start > 10:  # the chunk's own offsets are not the version's
        assert "location_mismatch" in run(store, off)["citations"][0]["flags"]


# ----------------------------------------------------------------------------- the command line


def _answer_file(tmp_path: Path, store: Store, quotes: list[str]) -> Path:
    chunk = chunk_of(store, "Claims are not reimbursed after 90 days.")
    sentences = " ".join(f'Rule {k}: "{q}" [S1].' for k, q in enumerate(quotes, 1))
    path = tmp_path / "answer.json"
    path.write_text(json.dumps({"answer": sentences, "sources": {"S1": chunk}}), encoding="utf-8")
    return path


def test_strict_and_strip_act_on_citations_that_do_not_pass(tmp_path: Path, store: Store) -> None:
    good = "Claims are not reimbursed after 90 days."
    flagged = "Each claim must include an itemised receipt and the provider’s tax number"
    path = tmp_path / "answer.json"
    chunk = chunk_of(store, good)
    path.write_text(
        json.dumps(
            {
                "answer": f'Rule one: "{good}" [S1]. Rule two: "{flagged}" [S1].',
                "sources": {"S1": chunk},
                "citations": [
                    {"marker": "S1", "quote": good},
                    {"marker": "S1", "quote": flagged, "claim": "receipts older than 30 days need a tax number"},
                ],
            }
        ),
        encoding="utf-8",
    )
    url = store.url
    runner = CliRunner()
    done = runner.invoke(cli, ["--db", url, "verify", str(path), "--policy", "strict", "--no-log"])
    assert done.exit_code == 1  # verified, but flagged numeric_mismatch: it does not pass
    report = json.loads(done.stdout)
    assert [c["passed"] for c in report["citations"]] == [True, False]
    assert report["summary"]["passed"] == 1
    done = runner.invoke(cli, ["--db", url, "verify", str(path), "--policy", "strict", "--no-log", "--fail-on", "none"])
    assert done.exit_code == 0
    done = runner.invoke(cli, ["--db", url, "verify", str(path), "--policy", "strip", "--no-log", "--format", "text"])
    assert done.exit_code == 0
    assert "Rule two" not in done.stderr.split("--- answer without failing sentences ---")[1]
    assert "Rule one" in done.stderr.split("--- answer without failing sentences ---")[1]
    done = runner.invoke(cli, ["--db", url, "verify", str(path), "--fail-on", "numeric_mismatch,bogus"])
    assert done.exit_code == 2
    assert done.stderr.strip() == (
        "Error: --fail-on: unknown flag 'bogus' (flags: numeric_mismatch, negation_mismatch, direction_mismatch, "
        "missing_terms, stale_version, stale_gone, location_mismatch, source_changed, or none)"
    )


def test_contexts_refuse_duplicates_and_superseded_chunks_and_carry_their_prompt(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    target = docs / HANDBOOK
    shutil.copy(PDF_FIXTURES / HANDBOOK, target)
    url = f"sqlite:///{tmp_path / 'c.db'}"
    with Store(url) as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        old = chunk_of(s, "Northwind does not process medical claims itself.")
        ctx = s.create_context([old])
        assert ctx.prompt.splitlines()[:2] == [
            f"<!-- citeline context {ctx.context_id} -->",
            f"[S1] {HANDBOOK} (version 1, p. 1-2)",
        ]
        assert "Keller & Söhne" in ctx.prompt
        shutil.copy(PDF_FIXTURES / "policy_handbook_v2.pdf", target)
        ingest_files(s, [docs], IngestOptions(workers=1))
    runner = CliRunner()
    done = runner.invoke(cli, ["--db", url, "context", old])
    assert done.exit_code == 2
    assert done.stderr == (
        f"Error: Chunk {old!r} is from {HANDBOOK!r} version 1, which is not current "
        "(use --allow-superseded to inject it anyway)\n"
    )
    done = runner.invoke(cli, ["--db", url, "context", old, "--allow-superseded"])
    assert done.exit_code == 0
    assert done.stdout.startswith("<!-- citeline context ctx_")
    done = runner.invoke(cli, ["--db", url, "context", old, old, "--allow-superseded"])
    assert done.exit_code == 2
    assert done.stderr == f"Error: Chunk {old!r} is given twice\n"


@pytest.mark.parametrize(
    ("text", "quote", "clause"),
    [
        # the negation of one clause is not the polarity of the other
        (
            "Claims are not reimbursed after 90 days, and receipts are converted at the day's rate.",
            "converted at the day's rate",
            " receipts are converted at the day's rate.",
        ),
        (
            "Claims are not reimbursed after 90 days, and receipts are converted at the day's rate.",
            "reimbursed after 90 days",
            "Claims are not reimbursed after 90 days",
        ),
        # a comma alone does not start a clause: the negation stays with the quote
        (
            "Claims are not, in any case, reimbursed after 90 days.",
            "reimbursed after 90 days",
            "Claims are not, in any case, reimbursed after 90 days.",
        ),
        # semicolons and colons do; German and French conjunctions too
        (
            "Kein Anspruch besteht; die Gebühr wird erstattet.",
            "die Gebühr wird erstattet",
            " die Gebühr wird erstattet.",
        ),
        (
            "Le délai n'est pas prolongé, mais la décision est définitive.",
            "la décision est définitive",
            " la décision est définitive.",
        ),
        # a quote across the break keeps both clauses
        (
            "Fees are waived; claims are not reimbursed.",
            "waived; claims",
            "Fees are waived; claims are not reimbursed.",
        ),
    ],
)
def test_clause_around_a_quote(text: str, quote: str, clause: str) -> None:
    from citeline.verify.claims import clause_bounds

    start = text.index(quote)
    lang = lang_of(text)
    assert text[slice(*clause_bounds(text, start, start + len(quote), lang))] == clause


def test_a_chinese_quote_is_long_enough_at_half_the_characters(tmp_path: Path) -> None:
    """A Chinese character says as much as two letters: a quote of 12 characters is a claim to check
    (it was too_short, so faithful Chinese quotes failed), one of 7 is not, and a negation left out
    of a long enough one is caught."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "report.txt").write_text(
        "上述股东关联关系或一致行动的说明：就本公司知晓的范围内，前十名股东中的法人股东之间不存在关联关系。"
        "本公司确认公众持股量足够。\n",
        encoding="utf-8",
    )
    with Store(f"sqlite:///{tmp_path / 'c.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        (chunk,) = s.iter_chunks(document="report.txt")
        cases = (
            ("公司表示「本公司确认公众持股量足够」[S1]。", "verified", True),
            # 7 characters are checked as written only: found so, verified; changed, too short
            ("The float is sufficient: “公众持股量足够” [S1].", "verified", True),
            ("The float is sufficient: “公众持股量不足” [S1].", "too_short", False),
            ("公司表示“前十名股东中的法人股东之间存在关联关系”[S1]。", "quote_altered", False),
        )
        for answer, status, passed in cases:
            (c,) = run(s, {"answer": answer, "sources": {"S1": chunk.chunk_id}})["citations"]
            assert (c["status"], c["passed"]) == (status, passed), (answer, c["reason"])
        assert c["reason"].startswith("closest passage differs")
        (c,) = run(s, {"answer": cases[2][0], "sources": {"S1": chunk.chunk_id}})["citations"]
        assert c["reason"] == (
            "quote has 7 characters and 4 words; a quote shorter than 20 characters (a Chinese or Japanese "
            "character counts twice) or 4 words is checked as written only, and is not in the cited chunk as written"
        )


def test_a_number_the_source_spells_out_is_the_claims_number(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "brief.txt").write_text(
        "Many a family is dependent upon the thirteen dollars a month. Die Kasse zahlt zwölf Monate lang.\n",
        encoding="utf-8",
    )
    with Store(f"sqlite:///{tmp_path / 'n.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        (chunk,) = s.iter_chunks(document="brief.txt")
        for claim, passed in (("13 dollars a month", True), ("14 dollars a month", False)):
            answer = {
                "answer": f'Families lived on {claim}: "Many a family is dependent upon the thirteen dollars" [S1].',
                "sources": {"S1": chunk.chunk_id},
            }
            (c,) = verify_answer(s, answer, options=VerifyOptions(log=False)).as_json()["citations"]
            assert (c["status"], c["passed"]) == ("verified", passed), c["reason"]
            assert ("numeric_mismatch" in c["flags"]) is not passed


@pytest.mark.parametrize(
    ("claim", "passed"),
    [
        ("For twelve months", True),  # the source's "zwölf Monate" is twelve months
        ("For eleven months", False),  # a number word of the claim is checked like digits
        ("For twenty-five days", True),  # a tens word and a unit are one number
        ("For twenty-six days", False),
        ("In two hundred cases", True),  # a run with a scale states no number word by word
        ("One of the rules", True),  # "one" is as often a pronoun
        ("On 07/06/2023", True),  # a date as the German source writes it, "7. Juni 2023"
        ("On 08/06/2023", False),
        ("On 7 June 2023", True),
        ("On 7 August 2023", False),  # the month differs
        ("In a survey of 162 papers", True),  # the sentence before the quote's gives the number
        ("In a survey of 163 papers", False),
        ("It may take 3 weeks", True),  # "may" is no month here
    ],
)
def test_numbers_a_claim_spells_or_dates_or_takes_from_the_sentence_before(
    tmp_path: Path, claim: str, passed: bool
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "brief.txt").write_text(
        "Die Kasse zahlt zwölf Monate lang. Die Frist beträgt 25 Tage. Der Vertrag wurde am 7. Juni 2023 "
        "in 200 Fällen unterzeichnet, nach 3 Wochen. Wir haben 162 Artikel untersucht. 73 % dieser Artikel "
        "zitieren die Regeln der Ärztekammer.\n",
        encoding="utf-8",
    )
    quote = {
        "months": "Die Kasse zahlt zwölf Monate lang",
        "days": "Die Frist beträgt 25 Tage",
        "cases": "Der Vertrag wurde am 7. Juni 2023 in 200 Fällen unterzeichnet",
        "papers": "73 % dieser Artikel zitieren die Regeln der Ärztekammer",
    }
    words = claim.lower().split()
    which = "months" if "months" in words else "days" if "days" in words else "papers" if "papers" in words else "cases"
    if claim.startswith("One"):
        which = "months"
    with Store(f"sqlite:///{tmp_path / 'n.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        (chunk,) = s.iter_chunks(document="brief.txt")
        answer = {"answer": f'{claim}, "{quote[which]}" [S1].', "sources": {"S1": chunk.chunk_id}}
        (c,) = verify_answer(s, answer, options=VerifyOptions(log=False)).as_json()["citations"]
        assert (c["status"], c["passed"]) == ("verified", passed), c["reason"]
        assert ("numeric_mismatch" in c["flags"]) is not passed


@pytest.mark.parametrize(
    ("document", "answer", "status", "passed"),
    [
        # a number's marks as the document's language reads them, in the quote itself
        ("de", 'Sie zahlt "1 200 € pro Jahr und 3,5 % Zinsen" [S1].', "verified_fuzzy", True),
        ("de", 'Sie zahlt "1.200 € pro Jahr und 3.5 % Zinsen" [S1].', "verified_fuzzy", True),
        ("de", 'Sie zahlt "1.200 € pro Jahr und 4,5 % Zinsen" [S1].', "quote_altered", False),
        # a number of the neighbouring sentence backs a claim, unless the quote's has one of its kind
        ("de", 'Von den 162 Anträgen gilt: "73 % dieser Anträge wurden in Köln bewilligt" [S1].', "verified", True),
        (
            "de",
            'Das Land trägt 90 % der Kosten: "Das Land trägt 50 % der Kosten für die Prüfung" [S1].',
            "verified",
            False,
        ),
        # contractions, and one dropped letter that makes no word
        ("en", 'It "doesn\'t extend beyond the baseline of the survey" [S1].', "verified_fuzzy", True),
        ("en", 'It "does extend beyond the baseline of the survey" [S1].', "quote_altered", False),
        ("en", 'It says "the rivr does not extend beyond the baselin of the survey" [S1].', "verified_fuzzy", True),
        # negations that are none, and a negation of a claim's leading clause
        ("en", 'Not only that: "the index covers every paper of the corpus" [S1].', "verified", True),
        (
            "en",
            'While SGC cannot embed new papers, "the index covers every paper of the corpus" [S1].',
            "verified",
            True,
        ),
        (
            "en",
            'The index is unable to cover "every paper of the corpus" [S1].',
            "verified",
            False,
        ),
        # a negated clause before a clause break is not the quote's ("…, yet" opens another clause)
        (
            "en",
            'The index is unable to hold them, yet "the index covers every paper of the corpus" [S1].',
            "verified",
            True,
        ),
        ("fr", 'Elle rembourse "70 % des frais de santé en France" [S1].', "verified", True),
        ("fr", 'Elle ne rembourse pas "70 % des frais de santé en France" [S1].', "verified", False),
        # full-width digits and commas are their ASCII forms
        ("zh", "报告称「公司营业收入为272,727,700元，同比增长」[S1]。", "verified", True),
        # 非 as a prefix ("非居民": nonresident) denies nothing, "并非" does
        ("zh", "非居民报告称「公司营业收入为272,727,700元，同比增长」[S1]。", "verified", True),
        ("zh", "报告并非称「公司营业收入为272,727,700元，同比增长」[S1]。", "verified", False),
        # a year of the heading the quote stands under is the section's ("What's New for 2008")
        ("irs", 'For 2008 you "may be able to deduct up to $5,000 at age 50" [S1].', "verified", True),
        ("irs", 'For 2009 you "may be able to deduct up to $5,000 at age 50" [S1].', "verified", False),
        # a form's number with letters after it names the form
        ("irs", 'You must file Form 1040NR if "you had no wages as an employee" [S1].', "verified", True),
        # a twelve-hour time of day is the twenty-four-hour one
        ("irs", 'The meeting opens at 4 p.m. ("La séance est ouverte à 16h00") [S1].', "verified", True),
        ("irs", 'The meeting opens at 5 p.m. ("La séance est ouverte à 16h00") [S1].', "verified", False),
        # "without" restricts a noun or leads a phrase; it does not deny the predicate
        ("irs", 'Papers without text "are filtered out of the corpus" [S1].', "verified", True),
        ("irs", 'Without wages, "you had no wages as an employee" [S1].', "verified", True),
        ("irs", 'Papers without text are not "filtered out of the corpus" [S1].', "verified", False),
        # the lead-in of the list the quote is an item of is the item's sentence too
        ("irs", 'After June 3, 2004, wealth counts: "Your net worth was $2,000,000 or more" [S1].', "verified", True),
        ("irs", 'After June 4, 2004, wealth counts: "Your net worth was $2,000,000 or more" [S1].', "verified", False),
        # the number of a study or an experiment names it
        ("r7", 'Study 1 highlighted "12 to 20 total highlighted citations per paper" [S1].', "verified", True),
        ("r7", 'In Experiment 2, "12 to 20 total highlighted citations per paper" [S1].', "verified", True),
        # an uncited clause's number is backed wherever the chunk it is cited with states it
        (
            "r7",
            'They kept 48 tables; "among these tables, we found that 36 tables were consistent" [S1].',
            "verified",
            True,
        ),
        (
            "r7",
            'They kept 50 tables; "among these tables, we found that 36 tables were consistent" [S1].',
            "verified",
            False,
        ),
        # a quoted condition holds in its main clause, whose polarity is the quote's
        (
            "r7",
            "Refunds must be subtracted from the deduction, per the instructions: "
            '"If, during 2007, you received any refunds of income tax paid in earlier years" [S1].',
            "verified",
            False,
        ),
        (
            "r7",
            'Refunds are not subtracted: "If, during 2007, you received any refunds of income tax paid in earlier '
            'years" [S1].',
            "verified",
            True,
        ),
        (
            "r7",
            'Articles are not clustered together when "the word-based similarity between two articles is too small" '
            "[S1].",
            "verified",
            True,
        ),
        (
            "r7",
            'Articles are clustered together when "the word-based similarity between two articles is too small" [S1].',
            "verified",
            False,
        ),
        # a claim in its own words beside a negated quote: asserting what the negation denies, in
        # other words too, after an attribution ("as the paper says", an opened parenthesis)
        (
            "r7n",
            "SPECTER needs citation information at inference time, as the paper says "
            '"at inference time, our model does not require any citation information" [S1].',
            "verified",
            False,
        ),
        (
            "r7n",
            "SPECTER needs no citation information at inference time, as the paper says "
            '"at inference time, our model does not require any citation information" [S1].',
            "verified",
            True,
        ),
        (
            "r7n",
            "Most surveyed papers do run human evaluation on long-form summaries "
            '("119 papers (73%) do not perform human evaluation on long-form summaries") [S1].',
            "verified",
            False,
        ),
        (
            "r7n",
            "Most surveyed papers skip human evaluation of long-form summaries "
            '("119 papers (73%) do not perform human evaluation on long-form summaries") [S1].',
            "verified",
            True,
        ),
        (
            "r7n",
            'Teacher assessment in Zürich is informal ("There is no formal procedure for teacher assessment") [S1].',
            "verified",
            True,
        ),
        (
            "r7n",
            "SGC can embed new, uncited papers in real-world settings (the paper notes "
            '"methods like SGC cannot be used in real-world setting to embed new papers that are not cited yet") [S1].',
            "verified",
            False,
        ),
        (
            "r7n",
            'Unlike SGC, SPECTER embeds new papers in real-world settings ("methods like SGC cannot be used in '
            'real-world setting to embed new papers that are not cited yet") [S1].',
            "verified",
            True,
        ),
        # "NE" in capitals is an acronym, not French "ne"; "rare" is the claim's own negative
        (
            "r7n",
            'The NE tagger told hurricane names apart from person names ("Our NE tagger did not distinguish a '
            'hurricane name from a person") [S1].',
            "verified",
            False,
        ),
        (
            "r7n",
            'Human evaluation of long-form summaries is rare ("119 papers (73%) do not perform human evaluation on '
            'long-form summaries") [S1].',
            "verified",
            True,
        ),
        # ... in a verb of the same sense too ("change" for "alter")
        (
            "r7n",
            'Events change the geometry, as the model notes: "Event information does not alter the geometric '
            'representation in any way" [S1].',
            "verified",
            False,
        ),
        (
            "r7n",
            'Events leave the geometry as it is, as the model notes: "Event information does not alter the '
            'geometric representation in any way" [S1].',
            "verified",
            True,
        ),
        # a claim negated by a word of shortfall ("lack") restates evidence that says "limited"
        (
            "r7n",
            'Current models lack long-form skill, being "limited in reasoning and long-form generation" [S1].',
            "verified",
            True,
        ),
        # "not weak" set apart from the quote by a comma, against "limited": a contradiction in other
        # words, which no negation of the two holds against a shared word: not judged (a negation is
        # held against its target, or, without one, only right next to the quote)
        (
            "r7n",
            'Current models are not weak at long-form text, being "limited in reasoning and long-form generation" '
            "[S1].",
            "verified",
            True,
        ),
        (
            "r7n",
            'Current models are not "limited in reasoning and long-form generation" [S1].',
            "verified",
            False,
        ),
        # "N times" says how often unless a comparison follows it ("2.7 times faster")
        ("r7c", 'It was cited 5,000 times, "suggesting that it is a popular dataset" [S1].', "verified", False),
        ("r7c", 'It was cited 500 times, "suggesting that it is a popular dataset" [S1].', "verified", True),
        ("r7c", 'The index is 2.7 times faster: "the new index of Zürich is faster" [S1].', "verified", True),
        ("r7c", 'The index is 4 times faster: "the new index of Zürich is faster" [S1].', "verified", False),
        # a bound against the evidence's bound the same way is a threshold: the same number, or none
        ("r7c", 'It applies below 183 days ("present for fewer than 183 days during 2007") [S1].', "verified", True),
        ("r7c", 'It applies below 190 days ("present for fewer than 183 days during 2007") [S1].', "verified", False),
        ("r7c", 'Over 400 citations "suggesting that it is a popular dataset" [S1].', "verified", True),
        # a bound against the quote's sentence's bound: no neighbour's larger number backs it
        ("r7c", 'A pair is linked above 0.9: "a pair is linked when its score is above 0.8" [S1].', "verified", False),
        ("r7c", 'A pair is linked above 0.8: "a pair is linked when its score is above 0.8" [S1].', "verified", True),
    ],
)
def test_numbers_and_negations_as_answers_write_them(
    tmp_path: Path, document: str, answer: str, status: str, passed: bool
) -> None:
    texts = {
        "de": "Die Police zahlt 1.200 € pro Jahr und 3,5 % Zinsen für Kunden in Köln. Das Land trägt 90 % der "
        "Planung. Das Land trägt 50 % der Kosten für die Prüfung. Wir prüften 162 Anträge. 73 % dieser Anträge "
        "wurden in Köln bewilligt.",
        "en": "The river does not extend beyond the baseline of the survey near Zürich. The index covers every "
        "paper of the corpus. SPECTER cannot embed unseen papers.",
        "fr": "L'assurance ne rembourse que 70 % des frais de santé en France. Le bâtiment préservé est au registre.",
        "zh": "报告期内，公司营业收入为２７２，７２７，７００元，同比增长。",
        "irs": "What’s New for 2008\n\nIRA deduction expanded. You may be able to deduct up to $5,000 at age 50 "
        "or older. Your modified AGI must be less than $63,000.\n\nFile Form 1040NR if you had no wages as an "
        "employee. La séance est ouverte à 16h00. Although papers that lack text may be useful as nodes, they "
        "are filtered out of the corpus.\n\nThe rules after June 3, 2004 apply if:\n\n1. Your income was over "
        "$100,000 in the last five years, or\n\n2. Your net worth was $2,000,000 or more.\n\nÜbrigens: Ende.",
        "r7": "Participants saw 12 to 20 total highlighted citations per paper. We collected 48 tables "
        "from the news corpus of Zürich. The clustering ran twice. Its output was stored. Among these tables, we "
        "found that 36 tables were consistent. If, during 2007, you received any refunds of income tax paid in "
        "earlier years, do not subtract them from the deduction. To tell two articles apart: if the word-based "
        "similarity between two articles is too small, we do not bring them together into the same cluster.",
        "r7n": "At inference time, our model does not require any citation information. Of the surveyed papers, "
        "119 papers (73%) do not perform human evaluation on long-form summaries. There is no formal procedure "
        "for teacher assessment in Zürich. But methods like SGC cannot be used in real-world setting to embed new "
        "papers that are not cited yet. Current models are limited in reasoning and long-form generation. Event "
        "information does not alter the geometric representation in any way. Our NE tagger did not distinguish a "
        "hurricane name from a person.",
        "r7c": "The dataset is highly cited with 500 citations, suggesting that it is a popular dataset. At 2.7 "
        "times the speed of the old one, the new index of Zürich is faster. It applies if you were present for "
        "fewer than 183 days during 2007. Each title is read 2 times. A pair is linked when its score is above "
        "0.8. Each pair is checked 2 times.",
    }
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / f"{document}.txt").write_text(texts[document] + "\n", encoding="utf-8")
    with Store(f"sqlite:///{tmp_path / 'n.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        (chunk,) = s.iter_chunks(document=f"{document}.txt")
        report = verify_answer(
            s, {"answer": answer, "sources": {"S1": chunk.chunk_id}}, options=VerifyOptions(log=False)
        )
        (c,) = report.as_json()["citations"]
        assert (c["status"], c["passed"]) == (status, passed), c["reason"]


def test_required_terms_are_whole_words_accents_aside_around_the_quote(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "registre.txt").write_text(
        "Le bâtiment préservé de Sainte-Adèle figure au registre. Il se trouve sur la ligne 74 du plan "
        "cadastral. Sa façade date de 1890.\n",
        encoding="utf-8",
    )
    with Store(f"sqlite:///{tmp_path / 'r.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        (chunk,) = s.iter_chunks(document="registre.txt")
        for terms, passed in (
            (["batiment preserve", "Sainte-Adele"], True),  # accents aside; the sentence before the quote's
            (["ligne 74"], True),
            (["ligne 7"], False),  # not inside "ligne 74"
            (["façade de 1890"], False),  # not in the sentences around the quote, as a phrase
        ):
            answer = {
                "answer": "x",
                "sources": {"S1": chunk.chunk_id},
                "citations": [
                    {"marker": "S1", "quote": "Il se trouve sur la ligne 74 du plan", "required_terms": terms}
                ],
            }
            (c,) = verify_answer(s, answer, options=VerifyOptions(log=False)).as_json()["citations"]
            assert c["passed"] is passed, (terms, c["reason"])
            assert ("missing_terms" in c["flags"]) is not passed


def test_another_quote_is_left_out_of_a_claim_whatever_its_whitespace() -> None:
    from citeline.verify.claims import without as _without

    claim = "Zeilen „Köln\t57\t88“ und „Bonn\t12\t986“"
    assert _without(claim, ("Bonn 12 986",)) == "Zeilen „Köln\t57\t88“ und „ “"


def test_words_of_scripts_without_spaces_count_two_characters_each() -> None:
    from citeline.verify.quotes import word_count as _word_count

    assert _word_count("所有董事均已出席了审议本次季报的董事会会议") == 11  # not one word: never too short
    assert _word_count("claims are not reimbursed") == 4
    assert _word_count("本公司 report 2018") == 4
    assert _word_count("中文") == 1


@pytest.mark.parametrize(
    ("text", "quote", "negated"),
    [
        # a negation in a subordinate clause after the quote is not the quote's polarity
        (
            "The plan pays a daily benefit of $150 for up to 1,095 days when an employee can no longer work.",
            "pays a daily benefit of $150 for up to 1,095 days",
            False,
        ),
        ("Les frais sont remboursés lorsque le patient n'est pas hospitalisé.", "Les frais sont remboursés", False),
        ("Claims are reimbursed in euros, not in dollars.", "Claims are reimbursed in euros", False),
        # a quote that ends with its sentence's full stop ends there: the next sentence is not its
        (
            "Claims are paid once the deductible is met. Claims are not paid late.",
            "paid once the deductible is met.",
            False,
        ),
        # ... nor one in a subordinate clause that leads the sentence
        ("When an employee can no longer work, the plan pays a daily benefit.", "the plan pays a daily benefit", False),
        # a negation before the quote in its clause, or right after it, is
        ("Unless the employee objects, claims are not reimbursed after 90 days.", "reimbursed after 90 days", True),
        ("Claims are not, in any case, reimbursed after 90 days.", "reimbursed after 90 days", True),
        (
            "Die Versicherung übernimmt die Kosten für Brillen nicht.",
            "Die Versicherung übernimmt die Kosten für Brillen",
            True,
        ),
        ("Fees are waived; claims are not reimbursed.", "claims are", True),
        # a relative clause on the subject is not the polarity of the verb the quote opens with ...
        (
            "Income that is not effectively connected with a U.S. trade is subject to the flat 30% rate.",
            "is subject to the flat 30% rate",
            False,
        ),
        ("Leistungen, die nicht beantragt wurden, werden erstattet.", "werden erstattet", False),
        # ... but the subject's own negation is, and one inside the quote
        ("No income that is effectively connected is subject to the flat rate.", "is subject to the flat rate", True),
        ("Income that is connected is not subject to the flat rate.", "is not subject to the flat rate", True),
        # another predicate joined after the quote has its own polarity
        (
            "These models are targeted towards sentence-level objectives and do not leverage citations.",
            "These models are targeted towards sentence-level objectives",
            False,
        ),
        ("Die Kasse zahlt die Brille und übernimmt die Gläser nicht.", "Die Kasse zahlt die Brille", False),
        # Chinese negations are characters inside a word; words that hold one without denying are not
        ("公司第一季度报告未经审计。", "公司第一季度报告未经审计", True),
        ("本期无新增借款。", "本期无新增借款", True),
        ("两种方法的结果不同。", "两种方法的结果不同", False),
        ("公司未来将继续扩大生产。", "公司未来将继续扩大生产", False),
        # German and French words a negation is written with
        ("Das Intervall ist weder offen noch abgeschlossen.", "Das Intervall ist", True),
        ("Das Ergebnis ist keineswegs eindeutig.", "Das Ergebnis ist", True),
        ("Le bâtiment n’est plus protégé par le règlement.", "Le bâtiment", True),
        ("Le bâtiment est protégé par le règlement.", "Le bâtiment", False),
        # an item of a list run into the sentence: the list's head and its own words, not the
        # other items'
        (
            "We remove papers with (i) no title, (ii) no authors, (iii) fewer than 100 characters of text in Zürich.",
            "fewer than 100 characters of text",
            False,
        ),
        ("We do not remove papers with (i) short titles, (ii) fewer than 100 characters.", "fewer than 100", True),
        ("Es gilt: a) keine Frist, b) eine Gebühr von 5 €.", "eine Gebühr von 5 €", False),
    ],
)
def test_the_negations_that_apply_to_a_quote(text: str, quote: str, negated: bool) -> None:
    from citeline.verify.claims import scope_around
    from citeline.verify.negation import negated as is_negated

    start = text.index(quote)
    lang = lang_of(text)
    assert is_negated(scope_around(text, start, start + len(quote), lang), lang) is negated


@pytest.mark.parametrize(
    ("claim", "quote", "negated"),
    [
        # a quote set off in parentheses is what the claim cites, not what it says
        ('The report was audited ("公司第一季度报告未经审计"', "公司第一季度报告未经审计", False),
        ('The report was not audited ("公司第一季度报告未经审计"', "公司第一季度报告未经审计", True),
        # so is one after a colon that ends a statement of the claim's own ...
        ("Die Sitzung fand am Montag statt: « la séance n’a pas eu lieu »", "la séance n’a pas eu lieu", False),
        # ... but not one after a lead-in: then the quote is what the claim says
        (
            'The handbook states: "Claims are not reimbursed after 90 days"',
            "Claims are not reimbursed after 90 days",
            True,
        ),
        ('Definition 20: "Claims are not reimbursed after 90 days"', "Claims are not reimbursed after 90 days", True),
        ('According to § 5: "Claims are not reimbursed"', "Claims are not reimbursed", True),
        ('Claims are "not reimbursed after 90 days"', "not reimbursed after 90 days", True),
    ],
)
def test_the_claims_polarity_is_its_own_words_when_the_quote_is_set_off(claim: str, quote: str, negated: bool) -> None:
    from citeline.verify.claims import claim_scope
    from citeline.verify.negation import negated as is_negated

    mine = lang_of(claim.replace(quote, " "))  # the claim's own words, in the answer's language
    scope = claim_scope(claim, quote, mine)[0]
    own = scope.replace(quote, " ")
    assert (is_negated(own, mine) or (own != scope and is_negated(quote, lang_of(quote)))) is negated


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("Claims are not reimbursed after 90 days", ["reimbursed"]),
        ("Claims are not yet reimbursed in Zürich", ["reimbursed"]),
        # a contrast ends what the negation reaches (found quoting a real paper: "What readers do not
        # have, but could benefit from, are tools …" was flagged against itself)
        ("What readers do not have, but could benefit from, are tools", []),
        ("Les frais ne sont pas remboursés, mais compensés", ["remboursés", "remboursés"]),  # ne … pas: two
        ("Die Kosten werden nicht, aber teilweise erstattet", []),
        # and so does its clause's end: a colon, a semicolon, a spaced dash, a sentence's end
        ("Laut Abschnitt 3 nicht: Abbildung 4.21 in Zürich", []),
        ("Claims are not reimbursed; payments in Zürich follow", ["reimbursed"]),
        ("The fee is not waived. Payments in Zürich follow", ["waived"]),
        # a typographic apostrophe denies as a straight one does
        ("Claims in Zürich aren’t reimbursed", ["reimbursed"]),
    ],
)
def test_what_a_negation_denies_stops_at_a_contrast(text: str, targets: list[str]) -> None:
    from citeline.verify.negation import targets as negation_targets

    assert negation_targets(text, lang_of(text)) == targets


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        # a light verb's object says what is denied
        ("The annotations did not yield a consistent ordering in Zürich", ["consistent"]),
        ("The study did not find differences between the groups", ["differences"]),
        ("L'enquête n'a pas donné de résultat cohérent pour Zürich", ["résultat"]),
        ("El estudio no produjo un orden consistente en Zürich", ["orden"]),
        # any other verb is what is denied
        ("The reform did not reduce costs in Zürich", ["reduce"]),
        ("Les frais ne sont pas remboursés à Zürich", ["remboursés", "remboursés"]),  # ne … pas: two
    ],
)
def test_a_negation_before_a_light_verb_denies_its_object(text: str, targets: list[str]) -> None:
    """In a claim's own words, held against its evidence; a source's negation keeps its verb ("did
    not find the defendant liable" denies no "defendant")."""
    from citeline.verify.negation import targets as negation_targets

    assert negation_targets(text, lang_of(text), light=True) == targets
    verbs = negation_targets(text, lang_of(text))
    assert verbs == targets or (verbs and verbs[0] in lang_of(text).light_verbs)


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        # the first part of a hyphen compound names a thing and denies nothing
        ("such as the Never-Ending Language Learner (NELL) and OpenIE", False),
        ("Flüge auf der no-fly list; a not-for-profit body", False),
        ("Die Daten sind nicht-öffentlich gespeichert", False),
        # "no-one" denies, as do the words on their own
        ("No-one may enter the café", True),
        ("the learner is never ending its training in Zürich", True),
    ],
)
def test_a_negation_in_a_hyphen_compound_denies_nothing(text: str, negated: bool) -> None:
    from citeline.verify.negation import negated as is_negated

    assert is_negated(text, lang_of(text)) is negated


def test_a_negation_is_held_against_what_it_denies(store: Store) -> None:
    """Both sides have a negative word, but not on the same thing: the claim denies what the
    evidence asserts. And a list item is negated by its list's lead-in."""
    chunk = chunk_of(store, "Results are shared only with the employee")
    wrong = (
        'Screening results are not shared with the employee: "Results are shared only with the employee '
        'and are never passed to Northwind" [S1].'
    )
    (c,) = run(store, {"answer": wrong, "sources": {"S1": chunk}})["citations"]
    assert (c["flags"], c["passed"]) == (["negation_mismatch"], False)
    right = (
        'Screening results are never passed to Northwind: "Results are shared only with the employee '
        'and are never passed to Northwind" [S1].'
    )
    (c,) = run(store, {"answer": right, "sources": {"S1": chunk}})["citations"]
    assert (c["flags"], c["passed"]) == ([], True)


def test_an_uncited_clause_answers_for_a_number_the_evidence_counts_otherwise(store: Store) -> None:
    """The clause before "; it" cites nothing, but its "three business days" counts what the quote's
    "two business days" counts: the marker answers for it. A number of another kind it may state."""
    chunk = chunk_of(store, "requests within two business days")
    wrong = 'The desk replies within three business days; it "answers most requests within two business days" [S1].'
    (c,) = run(store, {"answer": wrong, "sources": {"S1": chunk}})["citations"]
    assert (c["flags"], c["passed"]) == (["numeric_mismatch"], False)
    other = 'The desk has 12 staff; it "answers most requests within two business days" [S1].'
    (c,) = run(store, {"answer": other, "sources": {"S1": chunk}})["citations"]
    assert (c["flags"], c["passed"]) == ([], True)


def test_an_ellipsis_may_not_leave_out_a_negation(store: Store) -> None:
    chunk = chunk_of(store, "Results are shared only with the employee")
    quote = (
        "Results are shared only with the employee and are … passed to Northwind or to any third-party administrator"
    )
    (c,) = run(store, {"answer": f'Results reach the employer: "{quote}" [S1].', "sources": {"S1": chunk}})["citations"]
    assert c["status"] != "verified"
    assert c["passed"] is False
    assert c["reason"] == "its parts are in the cited chunk in order, but the ellipsis leaves out a negation"


def test_own_words_beside_a_set_off_quote_assert_only_what_they_predicate(store: Store) -> None:
    """ "asks you *to pay*" is no claim that you pay: the quote's "do not pay it" does not contradict it;
    "The report was audited" against "… was not audited" does, in Chinese too."""
    chunk = chunk_of(store, "do not pay it and report it")
    answer = (
        "A statement that asks you to pay a fee by gift card should be reported: "
        '"do not pay it and report it to the service desk at once" [S1].'
    )
    (c,) = run(store, {"answer": answer, "sources": {"S1": chunk}})["citations"]
    assert (c["flags"], c["passed"]) == ([], True)
    from citeline.verify.negation import denied_at, targets

    zh = language.of("zh")
    assert targets("公司报告期无违规对外担保情况", zh) == ["违规"]
    assert denied_at("公司报告期内存在违规对外担保", "违规", zh) is False
    assert denied_at("公司报告期无违规对外担保", "违规", zh) is True


@pytest.mark.parametrize(
    ("text", "start", "lead"),
    [
        (
            "Exceptions. You do not need to file if: 1. Your wages were low.",
            "Your wages",
            "You do not need to file if:",
        ),
        ("Die Ausnahmen:\n• Ihr Lohn war niedrig.", "Ihr Lohn", "Die Ausnahmen:"),
        ("You need to file. Your wages were low.", "Your wages", ""),
        # a sentence announcing the list, and an item after other items
        (
            "In general, do not count the following as days of presence.\n\n• Days you commute to work in "
            "the\n\nUnited States from Canada.\n\n• Days you are in the United States for\n\nless than 24 hours.",
            "less than 24",
            "In general, do not count the following as days of presence.",
        ),
        ("Die Ausnahmen:\n1. Ihr Lohn war niedrig.\n2. Sie waren im Ausland.", "Sie waren", "Die Ausnahmen:"),
        ("Der Lohn war hoch. Er war über 3.400 $.\n• Sie waren im Ausland.", "Sie waren", ""),
    ],
)
def test_the_lead_in_of_a_list_item(text: str, start: str, lead: str) -> None:
    from citeline.verify.claims import lead_in

    assert lead_in(text, text.index(start), lang_of(text)) == lead


def test_a_quote_is_not_judged_by_the_numbers_and_negations_of_its_neighbours(store: Store) -> None:
    # two quotes before one marker: the first one's claim runs over the second, whose $640 is not
    # in the first one's sentence; a quote whose sentence goes on "when ... no longer ..." is not
    # negated. Both answers are right; the negated twin of the last quote is not.
    fsa = chunk_of(store, "Unused balances of up to $640")
    care = chunk_of(store, "The long-term care plan pays a daily benefit")
    answer = {
        "answer": (
            'You can set aside "up to $3,200 per year before tax", and "Unused balances of up to $640 roll over" '
            '[S1]. Long-term care "pays a daily benefit of $150 for up to 1,095 days" [S2]; the handbook says it '
            '"does not pay a daily benefit of $150" [S2].'
        ),
        "sources": {"S1": fsa, "S2": care},
    }
    report = run(store, answer)
    assert [(c["status"], c["flags"], c["passed"]) for c in report["citations"]] == [
        ("verified", [], True),
        ("verified", [], True),
        ("verified", [], True),
        ("quote_altered", ["negation_mismatch"], False),
    ]


def test_an_answer_citing_named_markers_of_a_context_is_checked(store: Store) -> None:
    # `citeline context --markers doc1,doc2`: the prompt shows [doc1], so the answer cites [doc1]
    a = chunk_of(store, "Claims are not reimbursed after 90 days.")
    b = chunk_of(store, "Keller & Söhne")
    ctx = store.create_context([a, b], markers=["doc1", "doc2"])
    assert "[doc1] " in ctx.prompt
    answer = {
        "answer": (
            'Late claims: "Claims are not reimbursed after 90 days" [doc1]. Claims in Europe go to '
            '"Keller & Söhne Gesundheitsdienste GmbH of Hamburg" [Doc2], not "Midland Claims Inc. of Hamburg" [doc3].'
        )
    }
    report = verify_answer(store, answer, context_id=ctx.context_id, options=VerifyOptions(log=False)).as_json()
    assert statuses(report) == [
        ("doc1", "verified", True),
        ("doc2", "verified", True),
        ("doc3", "fabricated_marker", False),
    ]


def test_markers_as_models_also_write_them_are_checked(store: Store) -> None:
    # (S1), [^1], [Source 1] and a page pinpoint: each is a citation; a page the quote is not on is
    # location_mismatch, which does not fail by default
    a = chunk_of(store, "Claims are not reimbursed after 90 days.")
    b = chunk_of(store, "Keller & Söhne")
    answer = {
        "answer": (
            'Late claims: "Claims are not reimbursed after 90 days" (S1). Europe: "Keller & Söhne '
            'Gesundheitsdienste GmbH of Hamburg" [^2]. Also "an itemised receipt and the provider’s tax number" '
            '[Source 1, p. 1], and "Claims are not reimbursed after 90 days" [S1 p. 4].'
        ),
        "sources": {"S1": a, "S2": b},
    }
    report = run(store, answer)
    assert [(c["marker"], c["status"], c["flags"], c["passed"]) for c in report["citations"]] == [
        ("S1", "verified", [], True),
        ("S2", "verified", [], True),
        ("S1", "verified", [], True),
        ("S1", "verified", ["location_mismatch"], True),
    ]
    assert report["citations"][3]["reason"].endswith("the answer placed it on page 4, it is on page 1")


def test_min_coverage_fails_an_answer_that_cites_too_little(tmp_path: Path, store: Store) -> None:
    # markers a parser does not know leave sentences uncited: without a coverage floor, strict
    # passes an answer with no citation at all
    chunk = chunk_of(store, "Claims are not reimbursed after 90 days.")
    path = tmp_path / "answer.json"
    path.write_text(
        json.dumps(
            {
                "answer": 'Late claims are "not reimbursed after 90 days" [S1]. Zürich claims are paid in full {S1}.',
                "sources": {"S1": chunk},
            }
        ),
        encoding="utf-8",
    )
    runner = CliRunner()
    base = ["--db", store.url, "verify", str(path), "--policy", "strict", "--no-log"]
    done = runner.invoke(cli, base)
    assert done.exit_code == 0
    summary = json.loads(done.stdout)["summary"]
    assert (summary["passed"], summary["coverage"], summary["min_coverage"], summary["answer_passed"]) == (
        1,
        0.5,
        0.0,
        True,
    )
    done = runner.invoke(cli, [*base, "--min-coverage", "0.8", "--format", "text"])
    assert done.exit_code == 1
    assert "1/1 citations passed (1 verified); coverage 50% of asserting sentences cited, below the 80% required" in (
        done.stdout
    )
    done = runner.invoke(cli, [*base, "--min-coverage", "0.8", "--format", "html"])
    assert done.exit_code == 1
    assert "coverage 50%, below the 80% required" in done.stdout
    done = runner.invoke(cli, [*base, "--min-coverage", "0.5"])
    assert done.exit_code == 0
    done = runner.invoke(cli, [*base, "--min-coverage", "1.5"])
    assert done.exit_code == 2
    assert "1.5 is not in the range 0<=x<=1" in done.stderr
    with pytest.raises(InputError, match=r"minimum coverage 2\.0 is outside 0-1"):
        VerifyOptions(min_coverage=2.0)


def test_a_markdown_answer_is_judged_sentence_by_sentence(tmp_path: Path, store: Store) -> None:
    a = chunk_of(store, "Claims are not reimbursed after 90 days.")
    answer = {
        "answer": "\n".join(
            [
                "## Erstattung",
                '- Out-of-network claims are "reimbursed at 70% of the allowed amount" [S1]',
                '- Claims are "reimbursed after 120 days" [S1]',
                "- Late claims are paid in full",
                "",
                "> Claims are not reimbursed after 90 days. [S1]",
            ]
        ),
        "sources": {"S1": a},
    }
    report = run(store, answer, policy="strip")
    assert statuses(report) == [("S1", "verified", True), ("S1", "quote_altered", False), ("S1", "verified", True)]
    assert [(s["text"][:20], s["asserting"], s["cited"]) for s in report["sentences"]] == [
        ("Erstattung", False, False),  # a heading asserts nothing
        ("Out-of-network claim", True, True),
        ('Claims are "reimburs', True, True),
        ("Late claims are paid", True, False),  # the uncited bullet is uncited, not part of a cited run
        ("Claims are not reimb", True, True),
    ]
    assert report["uncited"] == ["Late claims are paid in full"]
    assert report["summary"]["coverage"] == 0.75
    # strip drops the failing bullet only, with its "- "
    assert report["stripped_answer"] == "\n".join(
        [
            "## Erstattung",
            '- Out-of-network claims are "reimbursed at 70% of the allowed amount" [S1]',
            "- Late claims are paid in full",
            "",
            "> Claims are not reimbursed after 90 days. [S1]",
        ]
    )


LISTED = (
    "Do not count the following days as days of presence in Zürich:\n\n"
    "- Days you commute to work from a residence in Canada or Mexico.\n\n"
    "- Days you are in transit between two foreign points.\n"
)


@pytest.mark.parametrize(
    ("source", "lead", "passed"),
    [
        (LISTED, "Days that do not count toward presence in Zürich include:", True),
        (LISTED, "Days that count toward presence in Zürich include:", False),
        # a list without a lead-in is judged item by item
        (LISTED, "Days of presence in Zürich.", False),
        # the source's list runs on from a chunk before, its lead-in not in the cited chunk: the
        # answer's lead-in has nothing to be held against
        (LISTED.split("\n\n", 1)[1], "Days that do not count toward presence in Zürich include:", True),
        # the source says it of its own sentence: the answer's lead-in denies it
        (
            "Days you commute to work from a residence in Canada or Mexico count as days of presence in Zürich.\n",
            "Days that do not count toward presence in Zürich include:",
            False,
        ),
    ],
)
def test_the_lead_in_of_an_answers_list_is_its_items_polarity(
    tmp_path: Path, source: str, lead: str, passed: bool
) -> None:
    """The source negates its list's items through its lead-in; so may the answer: "Days that do not
    count … include:" over a bullet quoting one of those days is no contradiction."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "presence.txt").write_text(source, encoding="utf-8")
    answer = f'{lead}\n\n- commuting days: "Days you commute to work from a residence in Canada or Mexico" [S1]\n'
    with Store(f"sqlite:///{tmp_path / 'p.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        (chunk,) = s.iter_chunks(document="presence.txt")
        (c,) = run(s, {"answer": answer, "sources": {"S1": chunk.chunk_id}})["citations"]
    assert (c["status"], c["passed"]) == ("verified", passed), c["reason"]
    assert c["flags"] == ([] if passed else ["negation_mismatch"])


@pytest.mark.parametrize(
    ("quote", "parts"),
    [
        ("[c]laims are not reimbursed after 90 days", ["claims are not reimbursed after 90 days"]),
        ("the employ[ee]s who recieve [sic] Leistungen", ["the employees who recieve Leistungen"]),
        ("Claims [for dental care] are not reimbursed", ["Claims are not reimbursed"]),
        (
            "Each claim must include [...] the provider’s tax number",
            ["Each claim must include", "the provider’s tax number"],
        ),
        (
            "Each claim must include […] the provider’s tax number",
            ["Each claim must include", "the provider’s tax number"],
        ),
        (
            "as shown in [12], and in [3, 4–6], the results hold",
            ["as shown in [12], and in [3, 4–6], the results hold"],
        ),
    ],
)
def test_square_brackets_in_a_quote_are_the_writers_marks(quote: str, parts: list[str]) -> None:
    from citeline.verify.quotes import quote_parts

    assert quote_parts(quote, writer_brackets=True) == parts


@pytest.mark.parametrize(
    ("quote", "parts"),
    [
        ("Claims are … reimbursed after 90 days", ["Claims are", "reimbursed after 90 days"]),
        ("Vitamin C in foods like café au lait. . . . .", ["Vitamin C in foods like café au lait"]),
        ("… Vitamin C in foods like café au lait …", ["Vitamin C in foods like café au lait"]),
        ("Vitamin C in foods. . . . . It was found", ["Vitamin C in foods", "It was found"]),
    ],
)
def test_an_ellipsis_splits_a_quote_and_leftover_dots_are_no_part(quote: str, parts: list[str]) -> None:
    from citeline.verify.quotes import quote_parts

    assert quote_parts(quote) == parts  # as a quote is first looked for
    assert quote_parts(quote, writer_brackets=True) == parts  # and with its brackets read


def test_quotes_as_lawyers_and_models_mark_them(store: Store) -> None:
    # brackets for a changed letter, an insertion, an elision; a marker inside the quote marks; a
    # thousands separator left out (English: "$3200" is "$3,200"); a bracket cannot hide a negation
    # or a number, which the claim keeps
    a = chunk_of(store, "Claims are not reimbursed after 90 days.")
    b = chunk_of(store, "Unused balances of up to $640")
    answer = {
        "answer": " ".join(
            [
                'The handbook says "[c]laims are not reimbursed after 90 days" [S1].',
                'Also "Claims [for out-of-network care] are not reimbursed after 90 days" [S1].',
                'Each "claim must include an itemised receipt [...] late claims are only accepted" [S1].',
                'The deductible: "the annual deductible of $1,200 has been met [S1]".',
                'The FSA lets you "set aside up to $3200 per year before tax" [S2].',
                'But "[c]laims [are never] reimbursed after 90 days" [S1].',
                'And "[c]laims are not reimbursed after [120] days" [S1].',
            ]
        ),
        "sources": {"S1": a, "S2": b},
    }
    report = run(store, answer)
    got = [(c["status"], c["flags"], c["passed"]) for c in report["citations"]]
    assert got[:5] == [("verified", [], True)] * 3 + [("verified", [], True), ("verified_fuzzy", [], True)]
    assert report["citations"][1]["reason"] == (
        "exact after folding; the writer's insertions left out: [for out-of-network care]"
    )
    assert report["citations"][2]["reason"] == "exact after folding (2 parts, in order)"
    assert report["citations"][3]["quote"] == "the annual deductible of $1,200 has been met"
    assert got[5:] == [("quote_altered", ["negation_mismatch"], False), ("quote_altered", ["numeric_mismatch"], False)]
    assert len(report["citations"]) == 7  # "[120]" inside the quote is no marker


@pytest.mark.parametrize(
    ("number", "lang", "value"),
    [
        ("3,200", "en", "3200"),
        ("1,234,567.5", "en", "1234567.5"),
        ("3.200", "en", "3.2"),  # three point two: a point does not group in English
        ("3,2000", "en", "3.2"),  # not a group of three: a decimal comma
        ("3.200", "de", "3200"),
        ("1.234.567,89", "de", "1234567.89"),
        ("3,200", "de", "3.2"),  # a decimal comma
        ("3.5", "de", "3.5"),  # a point before one digit cannot group: a decimal point in German too
        ("1,200,000", "fr", "1200000"),  # a mark used twice groups, whatever the language
        ("80.0", "en", "80"),  # trailing zeros
        ("007", "en", "7"),
        ("46.50", "en", "46.5"),
    ],
)
def test_a_written_number_has_one_value(number: str, lang: str, value: str) -> None:
    from decimal import Decimal

    from citeline.verify.numbers import canonical

    assert canonical(number, lang) == Decimal(value)


#: The claims of the table below written in English about a document in another language.
_ENGLISH_CLAIMS = dict.fromkeys(
    [
        "about 90 % der kosten",
        "on 07/06/2023",
        "on 7 june 2023",
        "in june 2023",
        "on 7 july 2023",
        "on 2023-06-08",
        "it may take 3 weeks",
        "one of twelve rules",
        "eleven rules",
        "400 euros",
    ],
    "en",
)


@pytest.mark.parametrize(
    ("claim", "evidence", "lang", "unbacked"),
    [
        ("plafonné à 1500 € par an", "plafonné à 1 500 € par an", "fr", []),  # grouped by spaces
        ("plus de 2 000 dossiers", "2 450 dossiers", "fr", []),  # "plus de" is a hedge: more than
        ("$1,200,000", "1,2 million d'euros", "fr", []),  # a magnitude word
        ("$1.2 million", "1,248,000 dollars", "en", []),  # rounded at its magnitude
        ("5,400 downloads", "5.4k downloads", "en", []),
        ("约3775万元", "37,745,190元", "zh", []),  # 万, hedged by 约
        ("2.73亿元", "272,727,700元", "zh", []),
        ("the 2019–2020 season", "the 2019-20 season", "en", []),  # a shortened year range
        ("fifty thousand men", "50,000 men", "en", []),
        ("nearly two thirds of them", "64% of them", "en", []),  # a fraction word states no count
        # ... but a share: against the evidence's percentages
        ("roughly a third of discoveries", "around one in five (21%) of discoveries", "en", ["a third"]),
        ("a third of discoveries", "32 % of discoveries in Zürich", "en", []),
        ("about half of them", "47% of them", "en", []),
        ("half of them", "6 of 12 of them", "en", []),
        ("a third of patients", "1 in 5 patients find a mistake", "en", ["a third"]),
        ("more than half of the papers", "57% of the papers in Zürich", "en", []),
        ("more than half of the papers", "47% of the papers in Zürich", "en", ["half"]),
        ("one in five patients", "20% of the patients in Zürich", "en", []),
        # the evidence's "3 out of 4" counts as well; a claim's states the share
        ("3 of 4 tests in Zürich", "3 out of 4 tests passed", "en", []),
        ("3 out of 4 tests", "75% of the tests in Zürich", "en", []),
        ("20 requests", "the desk answered 20 in 30 minutes", "en", []),
        # bounds in German, and a bound denied ("no more than" is "at most")
        ("größer als zwei rechte", "kleiner als zwei rechte", "de", ["zwei"]),
        ("no more than 5 days", "at most 5 days", "en", []),
        ("more than 5 days", "at most 5 days", "en", ["5"]),
        ("only 33% agreed", "33.2% agreed", "en", []),  # rounded
        ("over 1,000 firms", "1,248 firms", "en", []),
        ("under 1,000 firms", "1,248 firms", "en", ["1,000"]),
        ("about 90 % der kosten", "50 % der kosten", "de", ["90"]),  # a hedge is not a licence
        ("gut vier tage", "4,2 tage", "de", []),
        ("3.5 % zinsen", "3,5 % zinsen", "de", []),
        ("guideline v2.3 says", "the guideline says", "en", []),  # a code's digits
        ("hba1c below 7% in q1 2018", "an hba1c below 7 % in 2018", "en", []),
        ("form 6251 and line 7", "the alternative minimum tax", "en", []),  # parts of the document
        ("for 7 days", "the ex-dividend date was july 6, 2007", "en", ["7"]),  # a month is no count
        ("on 3 march 2017", "certified since 14 march 2017", "en", ["3 march 2017"]),
        ("on 07/06/2023", "le 7 juin 2023", "fr", []),
        ("on 7 june 2023", "am 07.06.2023", "de", []),
        ("in june 2023", "le 7 juin 2023", "fr", []),
        ("on 7 july 2023", "le 7 juin 2023", "fr", ["7 july 2023"]),
        ("on 2023-06-08", "le 7 juin 2023", "fr", ["2023-06-08"]),
        ("it may take 3 weeks", "nach 3 wochen", "de", []),  # "may" is no month here
        ("one of twelve rules", "zwölf regeln", "de", []),  # "one" is as often a pronoun
        ("eleven rules", "zwölf regeln", "de", ["eleven"]),
        # the same number of another unit of its kind is not the number
        ("24 days to report", "reported within 24 hours", "en", ["24"]),
        ("a $400 allowance", "an allowance of €400", "en", ["400"]),
        ("20 dollars a mile", "20 cents a mile", "en", ["20"]),
        ("rose by 2.7%", "rose by 2.7 points", "en", ["2.7"]),
        ("24 hours to report", "within 24 hours", "en", []),
        ("400 euros", "an allowance of €400", "de", []),
        # a bound is not its opposite, nor said of a value far beyond it; "about" is as close as the
        # claim's last digit
        ("more than $8,500", "that income totaled less than $8,500", "en", ["8,500"]),
        ("at most 45 days", "at least 45 days", "en", ["45"]),
        ("over 90% were women", "open university education 57 986 80", "en", ["90"]),
        ("plus de 50 logements", "l'ajout de 43 logements au 1069 rue ouimet", "fr", ["50"]),
        ("at least 90 credits", "a minimum of 60 credits. in 1999 the reform", "en", ["90"]),
        ("约564.9万元", "4,648,986.52 5,699,227.63", "zh", ["564.9万"]),
        ("about a 46% lift", "by 46.5%", "en", []),
        ("~4,100 clicks", "4,113 clicks", "en", []),
        # fractions and multipliers, against the evidence's own
        ("only half of the days", "only 1/3 the number of days", "en", ["half"]),
        ("a third of them", "for half the generations", "en", ["a third"]),
        ("rose fivefold", "a 2.7x increase", "en", ["fivefold"]),
        ("doubled", "increased by 100%", "en", []),
        ("a 2.7-fold rise", "a 2.7x increase", "en", []),
        # times of day, number words of German, French and Chinese, a year spelled out
        ("à 16h45", "la séance est levée à 16h05", "fr", ["45"]),
        ("vingt logements", "43 logements", "fr", ["vingt"]),
        ("quatre-vingt-dix jours", "90 jours", "fr", []),
        ("fünfundvierzig wohnungen", "43 wohnungen", "de", ["fünfundvierzig"]),
        ("zweihundert wohnungen", "200 wohnungen", "de", []),
        ("公司下属三家全资子公司", "公司下属两家全资子公司", "zh", ["三"]),
        ("in 1775", "the year of our lord one thousand seven hundred and seventy-five", "en", []),
        # "and" joins number words after a scale or a ten only: "two and seven" are two numbers
        ("between two and seven weeks", "from 2–7 weeks of age", "en", []),
        ("between two and seven months", "from 2–7 weeks of age", "en", ["seven"]),
        ("vingt et un jours", "21 jours", "fr", []),
        ("treinta y dos días", "32 días", "es", []),
        # a date at a coarser precision, a Chinese date; table cells are not one grouped number
        ("in 2008", "on or before march 17, 2008", "en", []),
        ("from 06/2018 to 09/2022", "between june 2018 and september 2022", "en", []),
        ("2023年6月7日发布", "le 7 juin 2023", "fr", []),
        ("the tax is $131", "1,300 1,325 131 131 131", "en", []),
        # a rate's period: another period is another rate, none said is any
        ("staff working 20 hours a month", "who work at least 20 hours per week", "en", ["20"]),
        ("staff working 20 hours weekly", "who work at least 20 hours per week", "en", []),
        ("up to $5,000 per year", "you may deduct up to $5,000", "en", []),
        ("20 stunden pro monat", "20 stunden pro woche", "de", ["20"]),
        ("3 jours par semaine", "3 jours par an", "fr", ["3"]),
        ("3 jours par mois", "3 jours par mois", "fr", []),
    ],
)
def test_claim_numbers_against_evidence_numbers(claim: str, evidence: str, lang: str, unbacked: list[str]) -> None:
    from citeline.verify.fold import fold
    from citeline.verify.numbers import numbers
    from citeline.verify.numbers import unbacked as unbacked_numbers

    # the claim in its own language (an English claim about a German document), the evidence in the
    # document's
    said = numbers(fold(claim).text, _ENGLISH_CLAIMS.get(claim, lang), claim=True)
    given = numbers(fold(evidence).text, lang, claim=False)
    assert unbacked_numbers(said, given) == unbacked


def test_a_fraction_is_not_backed_by_a_text_that_states_none_on_a_second_look() -> None:
    """The quote's sentence says "half": a claim's "two thirds" is wrong there, and a list's lead-in
    or a neighbouring sentence without any fraction does not back it (as a first look at a text
    without fractions would let it pass: it has none to contradict)."""
    from citeline.verify.fold import fold
    from citeline.verify.numbers import numbers, unbacked

    claim = numbers(fold("at least two thirds of the cost").text, "en", claim=True)
    lead = numbers(fold("Für 2007 gilt: you kept up a home in Zürich").text, "en", claim=False)
    assert unbacked(claim, lead) == []
    assert unbacked(claim, lead, unstated_ok=False) == ["two thirds"]


@pytest.mark.parametrize(
    ("sentence", "asserting"),
    [
        ("Part-time staff qualify for the same plan.", True),  # no number, no name, no listed verb
        ("Note: the plan documents prevail [S1].", True),
        ("Die Frist beträgt neunzig Tage.", True),
        ("**Deadline:** claims are not reimbursed after 90 days", True),
        ("Here, the deductible applies first.", True),
        ("Here's what the handbook says:", False),
        ("Based on the provided documents, the plan covers dental care.", True),
        ("In short, claims are not reimbursed after 90 days.", True),
        ("Based on the provided documents, here is a summary.", False),
        ("The sources do not mention vision care.", False),
        ("I could not find anything about vision care in the sources.", False),
        ("Would you like more details about the dental plan?", False),
        ("If you have more questions, ask the People Operations team.", False),
        ("Hope this helps!", False),
        ("**Eligibility**", False),
        # Chinese: a word per two characters, not one for the run
        ("公司本期实现盈利，净利润大幅增长。", True),
        ("谢谢！", False),
    ],
)
def test_which_sentences_assert_something(sentence: str, asserting: bool) -> None:
    from citeline.verify.coverage import is_asserting

    assert is_asserting(sentence) is asserting


# ----------------------------------------------------------------------------- answers of every style

_OPEN_CLOSE = [('"', '"'), ("“", "”"), ("„", "“"), ("« ", " »"), ("'", "'")]
_MARKER_STYLES = ["[{m}]", "({m})", "[^{n}]", "[{n}]", "[Source {n}]", "[{m}, p. 1]"]


@given(data=st.data())
@settings(max_examples=60, phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])
def test_faithful_answers_of_every_style_pass(store: Store, data: st.DataObject) -> None:
    """Quotes cut verbatim from the cited chunks, written with any of the quote marks and marker
    styles models use, one to three per sentence, in prose, bullets or numbered lists: every
    citation is verified, passes, and is found in the chunk it cites."""
    from citeline.verify.negation import negated as is_negated

    en = language.of("en")
    chunks = [c for c in store.iter_chunks(document=HANDBOOK) if len(c.text) > 200][:4]
    sources = {f"S{k + 1}": c.chunk_id for k, c in enumerate(chunks)}
    sentences, expected = [], []
    for _ in range(data.draw(st.integers(1, 4), label="sentences")):
        parts = []
        for _ in range(data.draw(st.integers(1, 3), label="quotes")):
            k = data.draw(st.integers(0, len(chunks) - 1), label="chunk")
            words = chunks[k].text.split()
            start = data.draw(st.integers(0, len(words) - 8), label="start")
            length = data.draw(st.integers(5, 12), label="length")
            quote = " ".join(words[start : start + length]).strip('"“”„«»[]()')
            if len(quote) < 25 or any(ch in quote for ch in '"“”„«»[]()\n'):
                continue  # too short to check, or holding quote marks or brackets of its own
            if is_negated(" ".join(words[max(0, start - 10) : start + length + 4]), en):
                continue  # cut out of a negated clause, the quote is rightly flagged negation_mismatch
            opening, closing = data.draw(st.sampled_from(_OPEN_CLOSE), label="marks")
            style = data.draw(st.sampled_from(_MARKER_STYLES), label="marker")
            marker = style.format(m=f"S{k + 1}", n=k + 1)
            lead = data.draw(st.sampled_from(["It says", "and", "while", "; also"]), label="lead")
            parts.append(f"{lead} {opening}{quote}{closing} {marker}")
            expected.append(chunks[k].chunk_id)
        if parts:
            bullet = data.draw(st.sampled_from(["", "- ", "1. ", "* "]), label="bullet")
            sentences.append(bullet + " ".join(parts).lstrip("; ") + ".")
    text = "Here is what the handbook says:\n\n" + "\n".join(sentences)
    if data.draw(st.booleans(), label="list of sources"):
        text += "\n\nSources:\n" + "\n".join(f"[S{k + 1}] {HANDBOOK}, p. {k + 1}" for k in range(len(chunks)))
    answer = {"answer": text, "sources": sources}
    report = run(store, answer)
    got = [(c["status"], c["passed"], c["chunk_id"]) for c in report["citations"]]
    assert [g[2] for g in got] == expected, answer["answer"]
    assert all(status in ("verified", "verified_fuzzy") and passed for status, passed, _ in got), (got, answer)
    assert report["summary"]["coverage"] == 1.0, report["uncited"]


@given(data=st.data())
@settings(max_examples=60, phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])
def test_a_changed_number_or_an_added_negation_never_passes(store: Store, data: st.DataObject) -> None:
    """The same answers, but with one digit of the quote changed, or a "not" put into the claim
    in front of the quote: the citation must not pass, whatever the style."""
    from citeline.verify.negation import negated as is_negated

    chunks = [c for c in store.iter_chunks(document=HANDBOOK) if any(ch.isdigit() for ch in c.text)][:6]
    k = data.draw(st.integers(0, len(chunks) - 1), label="chunk")
    words = chunks[k].text.split()
    with_digit = [i for i, w in enumerate(words) if any(ch.isdigit() for ch in w) and i >= 4]
    i = data.draw(st.sampled_from(with_digit), label="word")
    quote = " ".join(words[i - 4 : i + 4]).strip('"“”„«»[]()')
    assume(len(quote) >= 25 and not any(ch in quote for ch in '"“”„«»[]()\n'))
    opening, closing = data.draw(st.sampled_from(_OPEN_CLOSE), label="marks")
    marker = data.draw(st.sampled_from(_MARKER_STYLES), label="marker").format(m="S1", n=1)
    if data.draw(st.booleans(), label="change a digit"):
        at = data.draw(st.sampled_from([j for j, ch in enumerate(quote) if ch.isdigit()]), label="digit")
        digit = data.draw(st.sampled_from([d for d in "0123456789" if d != quote[at]]), label="to")
        answer_text = f"It says {opening}{quote[:at]}{digit}{quote[at + 1 :]}{closing} {marker}."
    else:
        # a quote cut next to a negation of the source is negated there too: no change to catch
        assume(not is_negated(" ".join(words[max(0, i - 14) : i + 8]), language.of("en")))
        answer_text = f"It is not true that {opening}{quote}{closing} {marker}."
    report = run(store, {"answer": answer_text, "sources": {"S1": chunks[k].chunk_id}})
    (c,) = report["citations"]
    assert not c["passed"], (answer_text, c["status"], c["flags"])


def test_an_answer_with_a_list_of_its_sources_passes(store: Store) -> None:
    # models often end with the sources they used: those lines are no citations without quotes
    a = chunk_of(store, "Claims are not reimbursed after 90 days.")
    b = chunk_of(store, "Keller & Söhne")
    answer = {
        "answer": (
            'Late claims: "Claims are not reimbursed after 90 days" [S1]. Europe: "Keller & Söhne '
            'Gesundheitsdienste GmbH of Hamburg" [S2].\n\nSources:\n[S1] policy_handbook.pdf (version 1, p. 1)\n'
            "[S2] policy_handbook.pdf (version 1, p. 2)"
        ),
        "sources": {"S1": a, "S2": b},
    }
    report = run(store, answer, policy="strict")
    assert statuses(report) == [("S1", "verified", True), ("S2", "verified", True)]
    assert report["summary"]["answer_passed"]
    assert [s["asserting"] for s in report["sentences"]] == [True, True, False, False, False]


def test_the_sources_own_brackets_are_found_as_written(tmp_path: Path) -> None:
    # "[Smith et al., 2020]" and "[Reserved]" are the source's: a verbatim quote of them is exact;
    # only a quote not found as written has its brackets read as the writer's marks
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "paper.md").write_text(
        "# Methods\n\nAs argued before [Smith et al., 2020], the method holds for all inputs of the "
        "Größenordnung considered here. Section 4 [Reserved] is left empty on purpose.\n",
        encoding="utf-8",
    )
    with Store(f"sqlite:///{tmp_path / 'b.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        (chunk,) = [c.chunk_id for c in s.iter_chunks()]
        answer = {
            "answer": (
                'It notes "As argued before [Smith et al., 2020], the method holds for all inputs" [S1] and '
                '"Section 4 [Reserved] is left empty on purpose" [S1]; "[t]he method holds [in practice] for '
                'all inputs" [S1].'
            ),
            "sources": {"S1": chunk},
        }
        report = verify_answer(s, answer, options=VerifyOptions(log=False)).as_json()
    got = [(c["status"], c["reason"]) for c in report["citations"]]
    assert got == [
        ("verified", "exact after folding"),
        ("verified", "exact after folding"),
        ("verified", "exact after folding; the writer's insertions left out: [in practice]"),
    ]


# ------------------------------------------------------------------------ the word lists shipped


@pytest.mark.parametrize("code", ["en", "de", "fr", "es"])
def test_the_lists_of_rises_falls_and_opposites_are_shipped_and_hold_no_word_on_both_sides(code: str) -> None:
    """directions/ and opposites/ are package data (an installed citeline reads them); no form is
    both a rise and a fall, and every form is one lower-case word."""
    lang = language.of(code)
    listed_up, listed_down = language.directions_of(code, "up"), language.directions_of(code, "down")
    assert len(listed_up) > 50
    assert len(listed_down) > 50
    assert listed_up <= lang.up
    assert listed_down <= lang.down
    assert not lang.up & lang.down
    assert all(w == w.lower() and " " not in w for w in listed_up | listed_down)
    assert len(lang.antonyms) > 80
    assert all(one and other and not one & other for one, other in lang.antonyms)
    # the lists are the language's own: German "steigt", French "baisse", Spanish "aumenta"
    own = {"en": "increases", "de": "steigt", "fr": "baisse", "es": "aumenta"}[code]
    assert own in lang.up | lang.down
    assert all(
        own not in language.of(other).up | language.of(other).down for other in {"en", "de", "fr", "es"} - {code}
    )
