"""Folding and matching: literal tables, fold properties, and precision/recall on the calibration set."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeline.text.lexicon import document_language
from citeline.text.offsets import Normalized, Original
from citeline.verify.classify import Vocabulary
from citeline.verify.fold import COMBINING, DASHES, QUOTES, fold
from citeline.verify.match import _TOKEN, FUZZY_THRESHOLD, AlignmentMemo, classify, drift, locate, tokens


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("  Straße “Zitat” – ﬁne\u00ad  ", 'strasse "zitat" — fine'),
        ("co‑operate", "co-operate"),
        ("re- produce and re-\nproduce", "reproduce and reproduce"),
        ("zur Verfü-\n\nH\n\ngung", "zur verfü- h gung"),  # a paragraph break is not a line split
        ("di(cid:11)erent", "di\ufffderent"),
        ("ÉLÉGANT", "élégant"),
        ("中文  句子", "中文 句子"),
        (" à ", "à"),  # a single space at either end
        ("é \n", "é"),
        (" ", ""),
        # mathematical letters and the symbols standing for Greek ones are the plain letters
        ("𝛽 = 2.23, 𝑝 < 0.001, ∆= + 2.3", "β = 2.23, p < 0.001, δ= + 2.3"),
        # a spacing accent drawn before its letter (TeX) is the accented letter; an acute or grave
        # before anything but a vowel is an apostrophe
        ("Erd˝os, F¨arber, Fr´echet, it´s", "erdős, färber, fréchet, it's"),
        ("a ¨ b", "a ¨ b"),
        # a letter and combining marks after it, as pdftotext and macOS write them, is the letter NFC
        # composes (one that has no composed form stays as it is)
        ("R\u030cehu\u030ar\u030cek, e\u0301te\u0301, か\u3099, q\u0303", "řehůřek, été, が, q\u0303"),
        ("\u0301a", "\u0301a"),
    ],
)
def test_fold_table(text: str, folded: str) -> None:
    assert fold(text).text == folded


def test_fold_map_reports_the_sources_own_characters() -> None:
    text = "Die Straße „heißt“ ﬁnal"
    f = fold(text)
    at = f.text.index("strasse")
    span = f.map.to_original(Normalized(at, at + len("strasse")))
    assert text[span.start : span.end] == "Straße"
    at = f.text.index("final")
    assert f.map.to_original(Normalized(at, at + 5)) == Original(len(text) - 4, len(text))


@given(st.text(alphabet="aÉß“”‘’—–-ﬁ\u00ad \n\t中😀xR\u0301\u030cか\u3099", max_size=50))
def test_fold_properties(text: str) -> None:
    f = fold(text)
    m = f.map
    assert m.normalized_length == len(f.text)
    assert m.original_extent == Original(0, len(text))
    for r in m.runs():
        src, out = text[r.orig_start : r.orig_end], f.text[r.norm_start : r.norm_end]
        if r.kind == 0:  # one for one: the same letter folded, a quote/dash variant, or a space
            for a, b in zip(src, out, strict=True):
                assert a.casefold() == b or QUOTES.get(a) == b or DASHES.get(a) == b or (a.isspace() and b == " ")
        elif any(map(unicodedata.combining, src)):
            # a letter and its combining marks, composed: the marks are in it, on (part of) the letter
            plain = src.replace("\u00ad", "")
            base = "".join(ch for ch in plain if not unicodedata.combining(ch))
            parts = unicodedata.normalize("NFD", out)
            assert set(plain) - set(base) <= set(parts)
            assert parts[0] in unicodedata.normalize("NFD", fold(base).text)
        else:  # a ligature, ß, or similar expansion (or its first part, when a mark composed the rest)
            assert len(src) == 1
            assert out
            assert out in src.casefold() or out in "fi"
    # folding is idempotent, but for a hyphen kept before a paragraph break ("zur Verfü-\n\nH" is
    # "zur verfü- h", which folded again reads as a hyphen split at a line end with a space, "re- produce")
    if not re.search(rf"(?:[^\W\d_]|[{COMBINING}])-[^\S\n]*\n\s*\n\s*[^\W\d_]", text.replace("\u00ad", "")):
        assert fold(f.text).text == f.text


_GLUED = (
    "Ergebnisse für Zürich: 16There were no other direct comparisons in Wu et al. There is more. Prior "
    "studies12, 13 showed effects in 14C dating; claims after 30days are not paid; CO2 emissions rose. "
    "Both GPT4 and SCIDOCS3 agree with GPT and SCIDOCS. 2Es gilt nicht für alle n, sagt es. Both studies "
    "agree. We show that a single 3fixed trigger prompt helps in Zürich."
    # (a mark is taken off a word only when the text has the word on its own too, or, after a word,
    # when it is a common word that measures nothing)
)


@pytest.mark.parametrize(
    ("quote", "kind", "kinds"),
    [
        # a footnote quoted from its first word, without the footnote's own number glued to it
        ("There were no other direct comparisons in Wu et al.", "fuzzy", ["reference_marker"]),
        ("Es gilt nicht für alle n", "fuzzy", ["reference_marker"]),
        # a citation mark glued after a word, and the list it starts
        (
            "Prior studies showed effects in 14C dating",
            "fuzzy",
            ["reference_marker", "reference_marker", "punctuation"],
        ),
        ("Prior studies, 13 showed effects in", "fuzzy", ["reference_marker"]),
        # a note mark set after a word and read into the next one ("single³ fixed")
        ("We show that a single fixed trigger prompt helps in Zürich", "fuzzy", ["reference_marker"]),
        # a number glued before a word inside the quote is the quote's number, dropped
        ("Zürich: There were no other direct comparisons", "altered", ["number"]),
        ("claims after days are not paid", "altered", ["number"]),
        # names with digits: two letters or fewer, or no word of the language
        ("effects in C dating; claims after", "altered", ["number"]),
        ("not paid; CO emissions rose.", "altered", ["number"]),
        ("rose. Both GPT and SCIDOCS agree", "altered", ["number", "number"]),
    ],
)
def test_a_reference_mark_glued_to_a_word_is_noise_a_number_is_not(quote: str, kind: str, kinds: list[str]) -> None:
    m = locate(quote, _GLUED)
    assert m.kind == kind
    assert [d.kind for d in m.differences] == kinds


def test_a_mark_is_taken_off_only_a_word_the_document_has_on_its_own() -> None:
    m = locate("Prior trials showed effects in Zürich", "Prior trials12 showed effects in Zürich.")
    assert (m.kind, [d.kind for d in m.differences]) == ("altered", ["number"])
    m = locate(
        "Prior trials showed effects in Zürich",
        "Prior trials12 showed effects in Zürich.",
        vocabulary=frozenset({"trials"}),
    )
    assert (m.kind, [d.kind for d in m.differences]) == ("fuzzy", ["reference_marker"])


@pytest.mark.parametrize(
    ("quote", "source", "kinds"),
    [
        ("the recieve step", "the receive step", ["typo"]),
        ("a modem approach", "a modern approach", ["typo"]),  # OCR rn -> m
        ("the 1ong document", "the long document", ["typo"]),  # OCR l -> 1 is not a number
        ("di\ufffderent tables", "different tables", ["typo"]),  # an unmapped ligature glyph
        ("a claim. Such", "a claim [3, 7]. Such", ["reference_marker"]),
        ("humanevaluation is hard", "human evaluation is hard", ["spacing"]),
        ("after 120 days", "after 90 days", ["number"]),
        ("after four days", "after five days", ["number"]),
        ("claims are reimbursed", "claims are not reimbursed", ["negation"]),
        ("the pages show", "the page show", ["substituted"]),  # inflection changes the word
        ("agreement along raters", "agreement among raters", ["substituted"]),  # a real word
        ("they were paid", "them were paid", ["substituted"]),
        # two edits or more are another word, however alike: a prefix, an antonym, a compound
        ("it discourages the use", "it encourages the use", ["substituted"]),
        ("the decreased difficulty", "the increased difficulty", ["substituted"]),
        ("reduces intra-annotator variance", "reduces inter-annotator variance", ["substituted"]),
        ("a feasible plan", "a infeasible plan", ["negation"]),  # a negating prefix: never a typo
        ("the majority vote", "the minority vote", ["substituted"]),
        # accents dropped or added are noise, whatever the words
        ("M. Gaetan Gagne a signé", "M. Gaëtan Gagné à signé", ["typo", "typo", "typo"]),
        # one slip (a transposition, a dropped letter) in a similar word stays a typo
        ("potential sloutions", "potential solutions", ["typo"]),
        ("the accomodation costs", "the accommodation costs", ["typo"]),
        ("不属于", "也属于", ["negation"]),
        ("审议本次", "审动产次", ["substituted", "substituted"]),  # CJK: every character is a word
    ],
)
def test_word_level_classification(quote: str, source: str, kinds: list[str]) -> None:
    got = classify(tokens(fold(quote).text), tokens(fold(source).text))
    assert [d.kind for d in got] == kinds


@pytest.mark.parametrize(
    ("quote", "source", "lang", "kind"),
    [
        # the quote's word is a common word of the language, though the document never uses it
        ("please lead all instructions", "please read all instructions", "en", "substituted"),
        ("kept apart for the year", "kept part for the year", "en", "substituted"),
        ("la pérennisation du jour", "la pérennisation du pour", "fr", "substituted"),
        # one letter that makes no word, or only a rare one, is noise
        ("please raed all instructions", "please read all instructions", "en", "typo"),
        ("la premiére séance", "la première séance", "fr", "typo"),
        ("die Stdt Köln", "die Stadt Köln", "de", "typo"),
        ("as plin text", "as plain text", "en", "typo"),
    ],
)
def test_a_common_word_for_another_is_a_substitution_not_a_typo(quote: str, source: str, lang: str, kind: str) -> None:
    got = classify(tokens(fold(quote).text), tokens(fold(source).text), lang=lang)
    assert [d.kind for d in got] == [kind]


@pytest.mark.parametrize(
    ("quote", "source", "written", "kind"),
    [
        # the document writes both words, each more than once: one letter makes the other word
        # ("Homöomorphismus" is not "Homomorphismus", "CPUs" are not "GPUs"), however rare in the lexicon
        (
            "ein Homomorphismus von U",
            "ein Homöomorphismus von U",
            {"homomorphismus": 3, "homöomorphismus": 9},
            "substituted",
        ),
        ("resetting CPUs between jobs", "resetting GPUs between jobs", {"cpus": 2, "gpus": 4}, "substituted"),
        # written once, or far more rarely than the other: a slip of it (a scan's "tbe" for "the")
        ("ein Homomorphismus von U", "ein Homöomorphismus von U", {"homomorphismus": 1, "homöomorphismus": 9}, "typo"),
        ("the results in Zürich", "the resuits in Zürich", {"results": 40, "resuits": 2}, "typo"),
    ],
)
def test_two_words_the_document_writes_are_two_words_not_a_typo(
    quote: str, source: str, written: dict[str, int], kind: str
) -> None:
    vocabulary = Vocabulary(Counter(written))
    got = classify(tokens(fold(quote).text), tokens(fold(source).text), vocabulary, lang="de")
    assert [d.kind for d in got] == [kind]


def test_every_han_character_is_a_token_of_its_own() -> None:
    # the supplementary ideographs (𠀋, 𪚲) too: a script without spaces is compared per character
    assert tokens("中文𠀋𪚲 straße [12]") == ["中", "文", "𠀋", "𪚲", "straße", "[12]"]


def test_locate_reports_spans_in_the_chunks_own_characters() -> None:
    chunk = "Für Kunden gilt: „Anträge werden nicht nach 90 Tagen erstattet“ [12]. Ende."
    m = locate('"anträge werden nicht nach 90 tagen erstattet"', chunk)
    assert m.kind == "exact"
    assert chunk[m.start : m.end] == "„Anträge werden nicht nach 90 Tagen erstattet“"
    m = locate("Anträge werden nicht nach 60 Tagen erstattet", chunk)
    assert m.kind == "altered"
    assert m.numeric_mismatch
    assert (
        drift(chunk, m, "Anträge werden nicht nach 60 Tagen erstattet")
        == "Anträge werden nicht nach ⟦90⟧ Tagen erstattet"
    )
    m = locate("Antrage werden nicht nach 90 Tagen erstatet. Ende", chunk)
    assert m.kind == "fuzzy"
    assert m.score >= FUZZY_THRESHOLD
    assert {d.kind for d in m.differences} <= {"typo", "reference_marker", "punctuation"}


@pytest.mark.parametrize(
    ("quote", "changed"),
    [
        ("before it approves a claim for more than $2,500", True),  # a currency changed
        ("reimbursed at $70 of the amount once the deductible of £1,200 is met", True),
        ("reimbursed at 70 % of the amount once the deductible of €1,200 is met", False),  # spacing only
    ],
)
def test_a_currency_or_percent_sign_changed_at_a_number_is_a_changed_number(quote: str, changed: bool) -> None:
    chunk = "Claims are reimbursed at 70% of the amount once the deductible of €1,200 is met. It approves a "
    chunk += "claim before it approves a claim for more than €2,500."
    m = locate(quote, chunk, lang="en")
    assert m.found is not changed
    assert m.numeric_mismatch is changed


@given(st.text(alphabet="aé9_ [],-–—\ufffd中ー²٣.'\n", max_size=40))
def test_tokens_without_unmapped_glyphs_take_the_fast_pattern_to_the_same_tokens(text: str) -> None:
    # tokens() picks a simpler pattern for text without U+FFFD; the general one is the reference
    assert tokens(text) == _TOKEN.findall(text)
    assert tokens(text.replace("\ufffd", "")) == _TOKEN.findall(text.replace("\ufffd", ""))


def test_a_passage_repeated_in_two_chunks_is_aligned_once() -> None:
    passage = "Die Prüfung der Anträge erfolgt innerhalb von 30 Tagen nach Eingang"
    # the same passage with the same text around it, at different places of two chunks
    around = f"Erster Teil (Übersicht). {passage}. Danach folgt etwas über Gebühren."
    one, two = f"Kurz: {around}", f"Ein ganz anderer, längerer Anfang: {around} Und mehr."
    quote = passage.replace("30 Tagen", "Tagen 30")  # two words swapped: altered, not noise
    vocabulary = frozenset(tokens(fold(one + " " + two).text))
    memo: AlignmentMemo = {}
    for chunk in (one, two):
        plain = locate(quote, chunk, vocabulary=vocabulary)
        assert plain.kind == "altered"
        assert locate(quote, chunk, vocabulary=vocabulary, memo=memo) == plain
    assert len(memo) == 1  # the second chunk's alignment came from the first one's
    # a memo is only used with a vocabulary: without one each chunk's own words count
    empty: AlignmentMemo = {}
    assert locate(quote, one, memo=empty) == locate(quote, one)
    assert not empty


@pytest.mark.parametrize(
    ("quote", "chunk"),
    [
        (
            "like most existing LMs that are fine-tuning based",
            "Unlike most existing LMs that are fine-tuning based, ours",
        ),
        ("resident alien if you qualify as a resident", "a nonresident alien if you qualify as a resident"),
        ("effectively connected with a U.S. trade", "income that is noneffectively connected with a U.S. trade"),
        ("Prüfungen dauern dreißig Tag", "Die Prüfungen dauern dreißig Tage"),  # cut inside the last word
        # a quote leaving out the first or last part of a hyphen compound
        ("network claims are reimbursed at 70%", "In short, out-of-network claims are reimbursed at 70%."),
        ("optimal to use LLMs to generate the piece", "it is sub-optimal to use LLMs to generate the piece"),
        ("les données sont traitées par le sous", "les données sont traitées par le sous-traitant agréé"),
    ],
)
def test_a_quote_starting_or_ending_inside_a_source_word_is_not_exact(quote: str, chunk: str) -> None:
    m = locate(quote, chunk)
    assert m.kind != "exact"
    assert not (m.kind == "fuzzy" and not m.differences)


def test_a_spacing_accent_is_the_accented_letter_at_the_quotes_edge() -> None:
    chunk = "the shortest undirected path between author X and Paul Erd˝os such that all edges"
    m = locate("the shortest undirected path between author X and Paul Erdős", chunk)
    assert m.kind == "exact"
    assert chunk[m.start : m.end] == "the shortest undirected path between author X and Paul Erd˝os"


def test_a_quote_with_a_whole_hyphen_compound_is_exact() -> None:
    chunk = "In short, out-of-network claims are reimbursed at 70% (Überweisung nötig)."
    m = locate("out-of-network claims are reimbursed at 70%", chunk)
    assert m.kind == "exact"
    assert chunk[m.start : m.end] == "out-of-network claims are reimbursed at 70%"


@pytest.mark.parametrize(
    ("quote", "chunk"),
    [
        ("improves the score by 4 F1 points on all tasks", "It improves the score by 4.2 F1 points on all tasks."),
        ("le taux passe à 3 pour cent en moyenne", "le taux passe à 3,5 pour cent en moyenne cette année"),
    ],
)
def test_a_decimal_part_dropped_from_a_number_is_a_changed_number(quote: str, chunk: str) -> None:
    m = locate(quote, chunk)
    assert not m.found
    assert m.numeric_mismatch
    assert [d.kind for d in m.differences] == ["number"]


def test_a_quote_inside_text_without_spaces_is_exact_at_any_character() -> None:
    chunk = "本公司董事会及全体董事保证本报告所载资料不存在任何虚假记载"
    m = locate("全体董事保证本报告所载资料", chunk)
    assert m.kind == "exact"
    assert chunk[m.start : m.end] == "全体董事保证本报告所载资料"


def test_a_quote_ending_at_a_kept_hyphen_is_exact() -> None:
    # the cleaner kept "per-" because a margin letter stands between the halves; a quote cut there
    # is the chunk's own text and must not be read as "perH"
    chunk = "a user’s publishing, reading, and saving activities to provide per-\n\nH\n\nsonalized ­— aides"
    m = locate("a user's publishing, reading, and saving activities to provide per-", chunk)
    assert m.kind == "exact"
    assert chunk[m.start : m.end] == chunk[: chunk.index("per-") + 4]


def test_calibration_set_precision_and_recall() -> None:
    """The labelled set the threshold was chosen on (see benchmarks/calibration/README.md)."""
    from benchmarks.calibration.build import build

    pairs = build(seed=13)
    tp = fp = fn = 0
    for pair in pairs:
        # as verify calls it: with the lexicon of the document's language
        accepted = locate(pair["quote"], pair["chunk"], lang=document_language(pair["chunk"])).found
        positive = pair["label"] == "match"
        tp += accepted and positive
        fp += accepted and not positive
        fn += positive and not accepted
    assert len(pairs) >= 250
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    assert precision >= 0.99, (precision, recall)
    assert recall >= 0.99, (precision, recall)


@pytest.mark.parametrize(
    ("quote", "kind", "kinds"),
    [
        # a Korean quote may end on a word without the particles the source goes on with
        ("시민사회 단체 등 다양한 사회계층", "fuzzy", ["particle"]),
        ("시민사회 단체 등 다양한 사회계층으로", "fuzzy", ["particle"]),
        # not on a part of the word itself, nor inside the quote
        ("시민사회 단체 등 다양한 사회", "altered", ["added"]),
        ("다양한 사회계층 후보를 추천받거나", "altered", ["substituted"]),
    ],
)
def test_a_korean_quote_may_end_before_its_last_words_particles(quote: str, kind: str, kinds: list[str]) -> None:
    source = "아동, 청년, 여성, 시민사회 단체 등 다양한 사회계층으로부터 후보를 추천받거나 의견을 들은 후 위촉한다."
    m = locate(quote, source, lang="ko")
    assert m.kind == kind
    assert [d.kind for d in m.differences] == kinds
