"""The fidelity benchmark's measure (issue 32): the halves of the committed split, and reference
merges (sentences pdftotext itself ran into a running head, a page number or a footnote) told apart
from sentences a tool garbled."""

from __future__ import annotations

from benchmarks.bench_fidelity import HALVES, furniture_lines, reference_merges, sentences_of, split_pdfs

BODY = "Die Größe der öffentlichen Domäne wurde in den zwanzig Jahren nach dem Gesetz nicht größer."


def _page(number: int, lines: list[str]) -> str:
    head = f"{number} FREIE KULTUR" if number % 2 == 0 else f"„EIGENTUM“ {number}"
    return "\n".join([head, "", *lines, "", str(number)])


def test_a_sentence_run_into_a_running_head_is_a_reference_merge() -> None:
    pages = [
        _page(132, ["Erster Absatz über die Domäne, der auf dieser Seite ganz für sich steht und endet."]),
        # pdftotext ran the head into the paragraph: no blank line between them
        "134 FREIE KULTUR\n"
        "in den zwanzig Jahren nach dem Gesetz wurde die Domäne nicht größer, sagen die Archive.\n\n134",
        _page(135, [BODY]),
        _page(136, ["Schließlich entschied das Gericht, dass der Kongress die Frist verlängern durfte."]),
    ]
    text = "\f".join(pages)
    merged = reference_merges(text)
    assert merged == {
        "134 FREIE KULTUR in den zwanzig Jahren nach dem Gesetz wurde die Domäne nicht größer, sagen die Archive."
    }
    assert merged <= set(sentences_of(text))
    assert BODY in sentences_of(text)
    assert BODY not in merged


def test_a_footnote_read_into_the_body_is_a_reference_merge_and_a_body_sentence_is_not() -> None:
    page = "\n".join(
        [
            "Die Prüfung der Größe erfolgt jährlich durch den Ausschuss der Gemeinde und ihre Ämter.",
            "Der Bericht wird veröffentlicht und allen Bürgern zugänglich gemacht, ohne Gebühr.",
            "1 Siehe die Satzung über die Prüfung, die im Amtsblatt veröffentlicht wurde.",
        ]
    )
    marks = furniture_lines([page.split("\n")])
    assert marks == [{2}]
    merged = reference_merges(page)
    assert len(merged) == 1
    (sentence,) = merged
    assert "Siehe die Satzung" in sentence
    assert sentence.startswith("Der Bericht wird")


def test_every_pdf_is_in_one_half_of_the_split() -> None:
    files = split_pdfs()
    halves = {half for _, _, half, _ in files}
    assert halves == set(HALVES)
    names = [path.name for path, *_ in files]
    assert len(names) == len(set(names))
    assert any(path.parent.name == "corpus2" for path, *_ in files)
