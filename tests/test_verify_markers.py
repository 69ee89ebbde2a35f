"""Every marker accounted for: each (sentence, marker) of an answer gets exactly one citation result.

Answers are generated the way models write them: one to three quotes a sentence, each followed by
a marker list in one of the usual spellings (``[S1][S2]``, ``[S1, S2]``, ``(S1)``, ``[1]``,
``【S2】``), with markers that were injected, markers that were not, and two spellings of one marker
(``[S1][1]``). The quotes are real sentences of the injected chunks (in English, German and French),
so each marker's own chunk decides: ``verified`` where it holds the quote, ``misattributed`` (with
``found_in``) where another injected chunk does, ``fabricated_marker`` where it was never injected.
"""

from __future__ import annotations

import itertools
import re
import shutil
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citeline.batch import IngestOptions, ingest_files
from citeline.store import Store
from citeline.verify import VerifyOptions, verify_answer
from tests.conftest import PDF_FIXTURES

DOCUMENTS = ("policy_handbook.pdf", "multilingual.pdf")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    folder = tmp_path_factory.mktemp("markers")
    docs = folder / "docs"
    docs.mkdir()
    for name in DOCUMENTS:
        shutil.copy(PDF_FIXTURES / name, docs / name)
    with Store(f"sqlite:///{folder / 'm.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        yield s


def sentences_of(text: str) -> list[str]:
    """Whole sentences of a chunk of 6 to 30 words, without quote marks or brackets (they would end
    the answer's quote, or read as markers)."""
    out = []
    for s in re.split(r"(?<=[.!?])\s+", text):
        s = " ".join(s.split())
        if 6 <= len(s.split()) <= 30 and not re.search(r"[\"“”„«»\[\]()【】]", s):
            out.append(s)
    return out


@pytest.fixture(scope="module")
def pool(store: Store) -> list[tuple[str, list[str]]]:
    """(chunk id, its sentences) for chunks with at least one usable sentence."""
    got = []
    for c in store.iter_chunks():
        found = sentences_of(c.text)
        if found:
            got.append((c.chunk_id, found))
    assert len(got) >= 4
    return got


SPELLINGS = {
    "brackets": lambda ms: "".join(f"[{m}]" for m in ms),
    "comma list": lambda ms: "[" + ", ".join(ms) + "]",
    "parentheses": lambda ms: " ".join(f"({m})" for m in ms),
    "lenticular": lambda ms: "".join(f"【{m}】" for m in ms),
}


@st.composite
def answers(
    draw: st.DrawFn, pool: list[tuple[str, list[str]]]
) -> tuple[dict[str, object], set[str], list[list[tuple[str, str]]]]:
    """An answer, its injected markers, and per sentence the (quote, marker) pairs it cites: each
    marker of a quote's list once, named as the report names it."""
    size = draw(st.integers(2, min(4, len(pool))))
    picked = draw(st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size, unique=True))
    sources = {f"S{i}": pool[k][0] for i, k in enumerate(picked, 1)}
    sentences, expected = [], []
    for _ in range(draw(st.integers(1, 3))):
        parts, cites = [], []
        for _ in range(draw(st.integers(1, 3))):
            holder = draw(st.sampled_from(picked))
            quote = draw(st.sampled_from(pool[holder][1])).rstrip(".!?")
            cited = draw(st.lists(st.sampled_from([*sources, "S7", "S9"]), min_size=1, max_size=3, unique=True))
            cites.extend((quote, m) for m in cited)
            if draw(st.booleans()) and any(m in sources for m in cited):
                # the same source spelled twice: "[S1][1]" (one citation)
                first = next(m for m in cited if m in sources)
                cited.append(first[1:])
            spelling = draw(st.sampled_from(sorted(SPELLINGS)))
            if spelling == "parentheses" and any(m.isdigit() for m in cited):
                spelling = "brackets"  # "(1)" is an enumeration, not a marker
            lead = draw(st.sampled_from(["The source says", "It adds that", "Also,", "Laut Quelle"]))
            parts.append(f'{lead} "{quote}" {SPELLINGS[spelling](cited)}')
        sentences.append("; ".join(parts) + ".")
        expected.append(cites)
    return {"answer": " ".join(sentences), "sources": sources}, set(sources), expected


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_every_marker_of_a_sentence_has_exactly_one_result(
    store: Store, pool: list[tuple[str, list[str]]], data: st.DataObject
) -> None:
    answer, injected, expected = data.draw(answers(pool))
    report = verify_answer(store, answer, options=VerifyOptions(log=False))
    assert len(report.sentences) == len(expected)
    for i, cites in enumerate(expected):
        got = [(c.quote, c.marker) for c in report.citations if c.sentence == i]
        assert sorted(got) == sorted(cites), report.sentences[i].text
    # (whitespace as the quotes have it: one space for every run)
    chunk_text = {cid: " ".join(store.chunk(cid).text.split()) for cid in answer["sources"].values()}  # type: ignore[union-attr]
    for c in report.citations:
        if c.marker not in injected:
            assert c.status == "fabricated_marker"
            continue
        holds = c.quote is not None and c.quote in chunk_text[answer["sources"][c.marker]]  # type: ignore[index]
        if holds:
            assert c.status == "verified", (c.marker, c.quote, c.reason)
        else:
            assert c.status == "misattributed", (c.marker, c.quote, c.reason)
            assert c.found_in is not None
            assert c.found_in["marker"] in injected


def test_a_quote_in_two_overlapping_chunks_verifies_under_both_markers(store: Store) -> None:
    """The case users sent: "…" [S1][S2] where neighbouring chunks overlap and both hold the quote;
    the second marker was neither verified nor flagged before."""
    chunks = list(store.iter_chunks(document="policy_handbook.pdf"))
    for first, second in itertools.pairwise(chunks):
        shared = [s for s in sentences_of(first.text) if s in second.text]
        if shared:
            break
    else:
        pytest.fail("no two neighbouring chunks of the handbook share a sentence")
    quote = shared[-1]
    sources = {"S1": first.chunk_id, "S2": second.chunk_id, "S3": chunks[-1].chunk_id}
    for spelling in ("[S1][S2]", "[S1, S2]", "[S2] [S1]"):
        answer = {"answer": f'The handbook says "{quote}" {spelling}.', "sources": sources}
        report = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()
        got = sorted((c["marker"], c["status"], c["passed"]) for c in report["citations"])
        assert got == [("S1", "verified", True), ("S2", "verified", True)], spelling
    # a third marker whose chunk lacks the quote fails on its own, the others still pass
    answer = {"answer": f'The handbook says "{quote}" [S1][S2][S3].', "sources": sources}
    report = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()
    got = [(c["marker"], c["status"]) for c in report["citations"]]
    assert got == [("S1", "verified"), ("S2", "verified"), ("S3", "misattributed")]
    assert report["citations"][2]["found_in"]["marker"] in ("S1", "S2")


def test_a_marker_never_injected_in_a_list_is_reported_and_the_others_checked(store: Store) -> None:
    chunk = next(store.iter_chunks(document="multilingual.pdf"))
    quote = sentences_of(chunk.text)[0]
    answer = {"answer": f"Es heißt „{quote}“ [S1, S4].", "sources": {"S1": chunk.chunk_id}}
    report = verify_answer(store, answer, options=VerifyOptions(log=False)).as_json()
    assert [(c["marker"], c["status"]) for c in report["citations"]] == [
        ("S1", "verified"),
        ("S4", "fabricated_marker"),
    ]
    assert report["sentences"][0]["markers"] == ["S1", "S4"]
