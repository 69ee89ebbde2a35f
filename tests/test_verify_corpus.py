"""Verdicts on real PDFs: sentences as another reader copies them out of the PDF (poppler's
``pdftotext``, the fidelity benchmark's reference: decomposed accents, footnote numbers set apart,
small capitals split), quoted the way models quote, against the chunks citeline made of the same
PDFs. A faithful quote of a sentence that one chunk holds must pass; the same quote with a number
changed must not; cited to another chunk, it is misattributed. Skips (with the reason) when the
corpus folder or ``pdftotext`` is absent."""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.bench_fidelity import fold, reference_text, sentences_of
from citeline.batch import IngestOptions, ingest_files
from citeline.store import Store
from citeline.verify import verify_answer
from tests.conftest import CORPUS, corpus_manifest

pytestmark = pytest.mark.corpus

#: Two-column papers with footnotes, small capitals and accented names ("Řehůřek").
PDFS = (
    "acl2020_specter_2col.pdf",
    "chi2023ws_beyond_summarization_2col.pdf",
    "acl2018_N18-3011_literature_graph_2col.pdf",
)
PER_PDF = 40


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    corpus_manifest()  # skips without the corpus
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (Debian package poppler-utils) is not installed: it gives the quotes")
    folder = tmp_path_factory.mktemp("verify_corpus")
    for name in PDFS:
        (folder / name).symlink_to(CORPUS / name)
    with Store(f"sqlite:///{folder / 'v.db'}") as store:
        summary = ingest_files(store, [folder], IngestOptions(follow_links=True, workers=2, globs=("*.pdf",)))
        assert summary.count("added") == len(PDFS)
        yield store


def quotable(store: Store, name: str) -> list[tuple[str, str, str]]:
    """``(sentence, chunk id holding it, id of another chunk)`` for up to :data:`PER_PDF` of the
    reference's sentences that one chunk holds (the extraction's share is the fidelity benchmark's
    business; here the verdicts are)."""
    chunks = list(store.iter_chunks(document=name))
    folded = [fold(c.text) for c in chunks]
    sentences = [s for s in sentences_of(reference_text(Path(CORPUS / name))) if '"' not in s]
    random.Random(name).shuffle(sentences)
    out = []
    for s in sentences:
        holding = [i for i, t in enumerate(folded) if fold(s) in t]
        if holding and len(chunks) > 1:
            other = chunks[(holding[0] + len(chunks) // 2) % len(chunks)]
            out.append((s, chunks[holding[0]].chunk_id, other.chunk_id))
        if len(out) == PER_PDF:
            break
    return out


#: How models set a quote and its marker, taken in turn (``{q}`` is the quote).
STYLES = (
    'The paper states that "{q}" [S1].',
    "It reports: “{q}” (S1).",
    '- **Finding:** "{q}" [^1]',
    "The authors write '{q}' [1].",  # straight single quotes, as answers inside JSON strings have them
    'They note that "{lower}" 【S1】.',
)


@pytest.mark.parametrize("name", PDFS)
def test_sentences_copied_from_the_pdf_verify_and_changed_ones_do_not(store: Store, name: str) -> None:
    cases = quotable(store, name)
    assert len(cases) >= 15, f"{name}: only {len(cases)} reference sentences inside one chunk"
    failed, changed_passed, changed, not_misattributed = [], [], 0, []
    for k, (sentence, chunk_id, other) in enumerate(cases):
        quote = sentence.rstrip(". ")
        ctx = store.create_context([chunk_id, other])
        style = STYLES[k % len(STYLES)] if "'" not in quote and "“" not in quote else STYLES[0]
        answer = style.format(q=quote, lower=quote[:1].lower() + quote[1:])
        report = verify_answer(store, {"answer": answer, "context": ctx.context_id})
        if [c.passed for c in report.citations] != [True]:
            failed.append((answer, [(c.status, c.reason) for c in report.citations]))
        number = re.search(r"(?<![\d.,])\d{1,4}(?![\d.,])", quote)
        if number:
            changed += 1
            bad = quote[: number.start()] + str(int(number.group()) + 7) + quote[number.end() :]
            report = verify_answer(store, {"answer": f'It says "{bad}" [S1].', "context": ctx.context_id})
            if any(c.passed for c in report.citations):
                changed_passed.append(bad)
        # the same quote under the other chunk's marker: found, but not where it says
        report = verify_answer(store, {"answer": f'The paper states that "{quote}" [S2].', "context": ctx.context_id})
        if [c.status for c in report.citations] != ["misattributed"]:
            not_misattributed.append((sentence, [c.status for c in report.citations]))
    assert not failed, f"{name}: {len(failed)} of {len(cases)} faithful quotes failed: {failed[:3]}"
    assert changed >= 5
    assert not changed_passed, f"{name}: quotes with a changed number passed: {changed_passed[:3]}"
    assert not not_misattributed, f"{name}: {not_misattributed[:3]}"
