"""The chunker: literal cases and properties over random paragraphs of sentences."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.ingest.chunker import approx_tokens, chunk
from citeline.ingest.clean.pipeline import clean
from citeline.ingest.errors import ChunkerError
from citeline.text import lang as language
from citeline.text.offsets import Normalized, OffsetMap
from citeline.text.scripts import is_cjk
from citeline.text.sentences import sentences


def test_sentences_respect_abbreviations_initials_and_decimals() -> None:
    en, de = language.of("en"), language.of("de")
    text = "Dr. Müller approx. 3.5 mg, e.g. twice. J. Smith agreed! Was it “fine”? Yes. 中文句子。第二句。"
    got = [text[s:e] for s, e in sentences(text, 0, len(text), en)]
    assert got == [
        "Dr. Müller approx. 3.5 mg, e.g. twice.",
        "J. Smith agreed!",
        "Was it “fine”?",
        "Yes.",
        "中文句子。",
        "第二句。",
    ]
    # a German date's ordinal, a time of day, a German magnitude
    text = "Die Sitzung fand am 21. Juni statt. Sie begann um 11 a.m. und kostete 2,1 Mio. Euro. Ende."
    got = [text[s:e] for s, e in sentences(text, 0, len(text), de)]
    assert got == ["Die Sitzung fand am 21. Juni statt.", "Sie begann um 11 a.m. und kostete 2,1 Mio. Euro.", "Ende."]
    # a venue as bibliographies abbreviate it
    text = "Ji et al. published a “Survey of hallucination” in ACM Comput. Surveys (2022). "
    text += "Proc. Natl. Acad. Sci. Ünd."
    got = [text[s:e] for s, e in sentences(text, 0, len(text), en)]
    assert got == [
        "Ji et al. published a “Survey of hallucination” in ACM Comput. Surveys (2022).",
        "Proc. Natl. Acad. Sci. Ünd.",
    ]
    # a number at a sentence's end before a capitalised word that is no month still ends it
    text = "Es waren 21. Dann kam der Juni."
    assert [text[s:e] for s, e in sentences(text, 0, len(text), de)] == ["Es waren 21.", "Dann kam der Juni."]
    # each language knows its own abbreviations only: German "Abs." ends an English sentence
    text = "Siehe Abs. Drei gilt. See Fig. Three holds."
    assert [text[s:e] for s, e in sentences(text, 0, len(text), de)] == [
        "Siehe Abs. Drei gilt.",
        "See Fig.",
        "Three holds.",
    ]
    assert [text[s:e] for s, e in sentences(text, 0, len(text), en)] == [
        "Siehe Abs.",
        "Drei gilt.",
        "See Fig. Three holds.",
    ]


def test_a_spaced_ellipsis_before_a_comma_or_a_small_letter_ends_no_sentence() -> None:
    en = language.of("en")
    # inside a formula's list the sentence goes on
    text = "Neurons take x1, . . . , xn ∈ ℝ as input, multiply them with weights. Zoë agreed."
    assert [text[s:e] for s, e in sentences(text, 0, len(text), en)] == [
        "Neurons take x1, . . . , xn ∈ ℝ as input, multiply them with weights.",
        "Zoë agreed.",
    ]
    text = "a sum over i = 1, . . . n of the weights. Zürich follows."
    assert [text[s:e] for s, e in sentences(text, 0, len(text), en)] == [
        "a sum over i = 1, . . . n of the weights.",
        "Zürich follows.",
    ]
    # a dot leader before a page number still ends an index entry
    text = "Amended return . . . . 31 Zürich office . . . 12"
    assert len(list(sentences(text, 0, len(text), en))) > 1


def test_literal_chunks_with_overlap_and_raw_spans() -> None:
    raw = "Première phrase ici. Deuxième phrase là.\n\nTroisième ﬁn. Quatrième et der-\nnière."
    c = clean(raw)
    assert c.text == "Première phrase ici. Deuxième phrase là.\n\nTroisième fin. Quatrième et dernière."
    chunks = chunk(c.text, c.map, target=45, overlap=20)
    assert [ch.text for ch in chunks] == [
        "Première phrase ici. Deuxième phrase là.",
        "Deuxième phrase là.\n\nTroisième fin.",  # the overlap reaches back over the paragraph break
        "Troisième fin. Quatrième et dernière.",
    ]
    assert raw[chunks[1].raw.start : chunks[1].raw.end] == "Deuxième phrase là.\n\nTroisième ﬁn."
    last = chunks[2]
    assert raw[last.raw.start : last.raw.end] == "Troisième ﬁn. Quatrième et der-\nnière."
    assert last.map.original_extent == last.raw
    assert last.map.to_original(Normalized(10, 13)) == c.map.to_original(Normalized(52, 55))


def test_overlap_repeats_whole_trailing_sentences() -> None:
    text = "Un. Deux deux. Trois trois trois. Quatre quatre."
    chunks = chunk(text, OffsetMap.identity(len(text)), target=35, overlap=20)
    assert [ch.text for ch in chunks] == [
        "Un. Deux deux. Trois trois trois.",
        "Trois trois trois. Quatre quatre.",
    ]
    # with no room for the overlap the next chunk starts fresh rather than repeat alone
    text = "Un. Deux deux. Trois trois trois. Quatre quatre quatre."
    chunks = chunk(text, OffsetMap.identity(len(text)), target=35, overlap=20)
    assert [ch.text for ch in chunks] == ["Un. Deux deux. Trois trois trois.", "Quatre quatre quatre."]
    # the overlap reaches back over a paragraph break: a heading comes again with its paragraph
    text = "Erste Zeile hier.\n\n2.1 Méthode\n\nWir messen die Länge."
    chunks = chunk(text, OffsetMap.identity(len(text)), target=36, overlap=12)
    assert [ch.text for ch in chunks] == ["Erste Zeile hier.\n\n2.1 Méthode", "2.1 Méthode\n\nWir messen die Länge."]
    # but a chunk of one unit is never repeated whole
    text = "Voici la liste suivante :\n\nPremier point de la liste."
    chunks = chunk(text, OffsetMap.identity(len(text)), target=30, overlap=26)
    assert [ch.text for ch in chunks] == ["Voici la liste suivante :", "Premier point de la liste."]


def test_lead_in_comes_again_with_what_it_introduces() -> None:
    # a lead-in longer than the overlap, ending its chunk at a paragraph break, comes again before
    # the quote it introduces; the sentence that runs on over the break is whole in one chunk
    text = (
        "Début. Les participants ont trouvé les citations revues plus utiles:\n\n« Elles servent à autre chose. » Fin."
    )
    chunks = chunk(text, OffsetMap.identity(len(text)), target=110, overlap=10)
    assert [ch.text for ch in chunks] == [
        "Début. Les participants ont trouvé les citations revues plus utiles:",
        "Les participants ont trouvé les citations revues plus utiles:\n\n« Elles servent à autre chose. » Fin.",
    ]
    # a full-width colon too; a sentence ending with a full stop is held to the overlap
    text = "前言。研究人员发现以下三点：\n\n第一点很重要。"
    chunks = chunk(text, OffsetMap.identity(len(text)), target=22, overlap=2)
    assert [ch.text for ch in chunks] == ["前言。研究人员发现以下三点：", "研究人员发现以下三点：\n\n第一点很重要。"]
    text = "前言。研究人员发现以下三点。\n\n第一点很重要。"
    chunks = chunk(text, OffsetMap.identity(len(text)), target=22, overlap=2)
    assert [ch.text for ch in chunks] == ["前言。研究人员发现以下三点。", "第一点很重要。"]
    # with no room for what it introduces, the lead-in is not repeated
    chunks = chunk(text.replace("。\n", "：\n"), OffsetMap.identity(len(text)), target=14, overlap=2)
    assert [ch.text for ch in chunks][-1] == "第一点很重要。"


def test_long_sentence_is_cut_between_words_and_cjk_between_characters() -> None:
    text = "word " * 30 + "end. " + "漢字" * 40 + "。"
    text = text.strip()
    chunks = chunk(text, OffsetMap.identity(len(text)), target=40, overlap=0)
    for ch in chunks:
        s, e = ch.clean.start, ch.clean.end
        assert s == 0 or text[s - 1] == " " or (is_cjk(text[s - 1]) and is_cjk(text[s]))
        assert e == len(text) or text[e] == " " or (is_cjk(text[e - 1]) and is_cjk(text[e]))
        assert len(ch.text) <= 40


def test_token_unit_counts_words_and_cjk_characters() -> None:
    assert approx_tokens("Hello, wörld 42 中文") == 6
    text = "Alpha beta gamma. Delta epsilon zeta. Eta theta iota."
    chunks = chunk(text, OffsetMap.identity(len(text)), target=8, overlap=0, unit="tokens")
    assert [ch.text for ch in chunks] == ["Alpha beta gamma. Delta epsilon zeta.", "Eta theta iota."]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": 0}, "must be positive"),
        ({"target": 10, "overlap": 10}, "below the target"),
        ({"unit": "pages"}, "neither 'chars' nor 'tokens'"),
    ],
)
def test_bad_settings(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ChunkerError, match=message):
        chunk("abc", OffsetMap.identity(3), **kwargs)  # type: ignore[arg-type]


WORDS = st.sampled_from(["alpha", "Über", "naïve", "ﬁnal", "über-\ngroß", "日本語", "café", "3.5", "e.g.", "😀"])


@st.composite
def documents(draw: st.DrawFn) -> str:
    paragraphs = []
    for _ in range(draw(st.integers(1, 4))):
        sents = []
        for _ in range(draw(st.integers(1, 5))):
            words = draw(st.lists(WORDS, min_size=1, max_size=12))
            sents.append(" ".join(words).capitalize() + draw(st.sampled_from([".", "!", "?", "。"])))
        paragraphs.append(draw(st.sampled_from([" ", "\n"])).join(sents))
    return "\n\n".join(paragraphs)


@given(documents(), st.integers(20, 200), st.data())
@settings(max_examples=150, deadline=None)
def test_chunk_properties(raw: str, target: int, data: st.DataObject) -> None:
    overlap = data.draw(st.integers(0, target - 1))
    c = clean(raw)
    chunks = chunk(c.text, c.map, target=target, overlap=overlap)
    assert [ch.ordinal for ch in chunks] == list(range(len(chunks)))
    covered = [False] * len(c.text)
    for ch in chunks:
        assert ch.text == c.text[ch.clean.start : ch.clean.end]
        assert ch.raw == c.map.to_original(ch.clean)
        assert ch.map.normalized_length == len(ch.text)
        assert ch.map.original_extent == ch.raw
        # never inside a word
        s, e = ch.clean.start, ch.clean.end
        assert (
            s == 0 or c.text[s - 1].isspace() or (is_cjk(c.text[s - 1]) and is_cjk(c.text[s])) or c.text[s - 1] in "。"
        )
        assert (
            e == len(c.text)
            or c.text[e].isspace()
            or (is_cjk(c.text[e - 1]) and is_cjk(c.text[e]))
            or c.text[e - 1] in "。"
        )
        for i in range(s, e):
            covered[i] = True
    assert all(covered[i] for i, ch in enumerate(c.text) if not ch.isspace())
    # every sentence no longer than the target lands whole in a chunk
    para_start = 0
    for para in c.text.split("\n\n"):
        for s, e in sentences(c.text, para_start, para_start + len(para)):
            if e - s <= target:
                assert any(ch.clean.start <= s and e <= ch.clean.end for ch in chunks), c.text[s:e]
        para_start += len(para) + 2
