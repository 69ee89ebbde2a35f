"""Build the labelled calibration set for quote verification.

One JSON object per line, each a ``(quote, chunk, label)`` pair with its provenance::

    {"id": ..., "source": "quotesum" | "corpus" | "fixture", "document": ..., "kind": ...,
     "label": "match" | "no_match", "quote": ..., "chunk": ..., "note": ...}

Three sources, all deterministic for a given seed:

* ``quotesum``: real human quotes from QuoteSum (``../shared/citations``), labelled by containment in
  the cited passage after a simple normalisation, and by an explicit word-level rule when not contained.
* ``corpus``: chunks of real PDFs (``../shared/corpus``) produced by the project's own ingest pipeline,
  with exact spans and perturbed copies whose label follows from the perturbation.
* ``fixture``: the same perturbations over the generated fixture PDFs in ``fixtures/pdf``.

The builder deliberately imports no verification code: the set calibrates the matcher, so it must not
be derived from it. See README.md beside this file for every kind, its label and the rule behind it.

Usage::

    python benchmarks/calibration/build.py [--out PATH] [--seed 13] [--limit-per-source N]
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import io
import json
import multiprocessing
import os
import random
import re
import sys
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from citeline.text import lexicon
from citeline.verify.classify import COMMON_WORD_ZIPF

# ----------------------------------------------------------------------------------------------------
# Locations

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHARED = PROJECT_ROOT.parent / "shared"
CORPUS = Path(os.environ.get("CITELINE_CORPUS") or SHARED / "corpus")
#: beside the corpus, as in tests/conftest.py
CITATIONS = CORPUS.parent / "citations"
QUOTESUM_FILE = "quotesum_v1_dev_part1.jsonl"
FIXTURE_PDFS = PROJECT_ROOT / "fixtures" / "pdf"
DEFAULT_OUT = PROJECT_ROOT / "benchmarks" / "results" / "calibration.jsonl"

#: Real PDFs with a usable text layer: (file name, first N pages only or None for all).
#: Listed slowest first so the two extraction workers finish at about the same time.
CORPUS_DOCS: tuple[tuple[str, int | None], ...] = (
    ("eacl2023_longeval_2col.pdf", None),
    ("chi2023_citesee_2col.pdf", None),
    ("irs_i1040nr_instructions.pdf", 10),
    ("acl2020_s2orc_2col.pdf", None),
    ("acl2020_specter_2col.pdf", None),
    ("cn_quarterly_report_2018q1.pdf", None),
    ("chi2023ws_beyond_summarization_2col.pdf", None),
    ("geotopo_german_textbook.pdf", 15),
    ("acl2018_N18-3011_literature_graph_2col.pdf", None),
    ("naacl06_shinyama_2col.pdf", None),
    ("arxiv_creativity_in_ml.pdf", None),
    ("vicksburg_scan_with_ocr_layer.pdf", None),
    ("fr_proces_verbal_2023.pdf", None),
)
FIXTURE_DOCS: tuple[str, ...] = ("policy_handbook.pdf", "two_column_paper.pdf", "multilingual.pdf", "xss_document.pdf")

MATCH = "match"
NO_MATCH = "no_match"

Record = dict[str, str]

# ----------------------------------------------------------------------------------------------------
# Kinds: every kind of pair in the set, its label and the rule that gives it (README.md mirrors this).


@dataclass(frozen=True, slots=True)
class Kind:
    name: str
    label: str  # MATCH, NO_MATCH, or "" when the label is decided per pair (real data)
    rule: str


KINDS: tuple[Kind, ...] = (
    # real QuoteSum pairs
    Kind("real_verbatim", MATCH, "human quote occurs verbatim in the passage it cites"),
    Kind("real_normalised", MATCH, "human quote occurs in its passage after case/whitespace/quote folding"),
    Kind("real_not_contained", "", "human quote not in its passage even after folding; labelled by the word rule"),
    Kind("wrong_source", NO_MATCH, "human quote checked against another passage of the same item"),
    # positives: character-level noise only
    Kind("exact", MATCH, "verbatim span of the chunk"),
    Kind("case_changed", MATCH, "first letter's case flipped (quote starts mid-sentence or is capitalised)"),
    Kind("quote_dash_variant", MATCH, "straight<->curly quotes/apostrophes, en/em dash or hyphen variants"),
    Kind("hyphen_split", MATCH, "a long word split by an end-of-line hyphen ('-\\n' or '- ')"),
    Kind("ligature", MATCH, "fi/fl/ff/ffi/ffl written as a ligature character (U+FB00..U+FB04)"),
    Kind("soft_hyphen", MATCH, "a soft hyphen (U+00AD) inside a long word"),
    Kind("cid_glyph", MATCH, "a ligature rendered as a pdfminer glyph code, e.g. 'e(cid:14)cient'"),
    Kind("marker_dropped", MATCH, "a bracketed numeric reference marker ([12], [3, 7]) of the chunk omitted"),
    Kind("typo", MATCH, "one letter substituted, deleted or transposed inside a word of >= 5 letters (non-word)"),
    Kind("ocr_confusion", MATCH, "one OCR confusion inside a word: rn<->m, l->1, l<->I, cl<->d, e<->c (non-word)"),
    Kind("short_word_noise", MATCH, "one letter inserted, deleted or substituted in a word of 2-4 letters (non-word)"),
    Kind(
        "ocr_source_noise",
        MATCH,
        "the chunk's own text OCR-garbled (a short word losing a letter, rn<->m, l<->I, cl<->d), the quote clean",
    ),
    Kind("space_doubled", MATCH, "a space between two words doubled"),
    Kind("space_missing", MATCH, "the space between two words dropped"),
    Kind("space_in_word", MATCH, "a space inserted inside a word ('fi nd'), or between two CJK characters"),
    # negatives: words, digits, negation or provenance differ
    Kind("word_substituted", NO_MATCH, "one content word replaced by another word of the document (edit >= 3)"),
    Kind("near_word_substituted", NO_MATCH, "one word replaced by another real word one edit away"),
    Kind("word_added", NO_MATCH, "one word inserted"),
    Kind("word_removed", NO_MATCH, "one content word removed (not at either end)"),
    Kind("stopword_removed", NO_MATCH, "one stopword removed (not at either end)"),
    Kind("number_changed", NO_MATCH, "one digit group changed (90->120, 2019->2018, 12.5->15.5)"),
    Kind("negation_flipped", NO_MATCH, "negation inserted or removed, or never<->always"),
    Kind("paraphrase", NO_MATCH, "two or more words replaced by synonyms"),
    Kind("author_year_dropped", NO_MATCH, "a parenthesised author-year citation omitted: words removed"),
    Kind("wrong_chunk", NO_MATCH, "exact span of one chunk checked against another chunk of the same document"),
    Kind("other_document", NO_MATCH, "sentence from another document checked against this chunk"),
)
KIND_BY_NAME: dict[str, Kind] = {k.name: k for k in KINDS}
SYNTHETIC_KINDS: tuple[str, ...] = tuple(
    k.name for k in KINDS if k.name not in {"real_verbatim", "real_normalised", "real_not_contained", "wrong_source"}
)

#: pairs per document and kind; kinds that need rarer material get more tries per document
PER_KIND_DEFAULT = 3
PER_KIND: dict[str, int] = {
    "exact": 5,
    "marker_dropped": 10,
    "author_year_dropped": 6,
    "cid_glyph": 4,
    "ligature": 4,
    "quote_dash_variant": 4,
    "number_changed": 4,
    "negation_flipped": 4,
    "paraphrase": 4,
}

#: cap on constructed wrong-source pairs from QuoteSum (real quote, other passage of the same item)
QUOTESUM_WRONG_SOURCE = 100

# ----------------------------------------------------------------------------------------------------
# Text helpers

#: the documented normalisation for real pairs: quote/dash folding + casefold + whitespace collapse
QUOTE_DASH_FOLD = str.maketrans(
    {
        **dict.fromkeys("‘’‚‛′`´", "'"),
        **dict.fromkeys("“”„‟″«»", '"'),
        **dict.fromkeys("‐‑‒–—―−", "-"),
        **dict.fromkeys("\u00a0\u202f\u2009", " "),
    }
)
_WS = re.compile(r"\s+")


def fold(text: str) -> str:
    """Quote/dash folding, casefold and whitespace collapse (the labelling normalisation)."""
    return _WS.sub(" ", text.translate(QUOTE_DASH_FOLD).casefold()).strip()


def alnum_key(text: str) -> str:
    """Letters and digits only, NFKC + casefold: a deliberately loose key. A negative whose key is
    still inside the chunk's key could be argued to be noise, so such pairs are never emitted."""
    t = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in t if ch.isalnum())


def levenshtein(a: str, b: str) -> int:
    """Plain edit distance (insert, delete, substitute), for short words."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return 0x3400 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF or 0x3040 <= cp <= 0x30FF


WORD = re.compile(r"[^\W\d_]+")
DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
TOKEN = re.compile(r"\w+")

EN_STOP = frozenset(
    "a an the of to in on at for and or but is are was were be been being by with as that this these "
    "those it its from which who whom we our they their there than then so such can may will would "
    "should could has have had do does did into over under about between also more most other some any "
    "each all only if when while both either per via".split()
)
DE_STOP = frozenset(
    "der die das den dem des ein eine einer eines einem einen und oder aber ist sind war waren wird "
    "werden wurde zu zur zum im in mit von vom für auf an am als auch es sich so wie bei aus dass nach "
    "um ob sie er wir ihr".split()
)
FR_STOP = frozenset(
    "le la les l un une des de du d et ou mais est sont a été au aux en dans pour par sur avec que qui "
    "qu ce cette ces se sa son ses leur leurs à il elle on y".split()
)
STOPWORDS: dict[str, frozenset[str]] = {"en": EN_STOP, "de": DE_STOP, "fr": FR_STOP, "zh": frozenset()}
#: negation words in any of the languages: positives never touch them, negatives flip them
#: Number words: a letter changed in one changes what it says (never noise).
NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve twenty hundred thousand million".split()
)
NEGATIONS = frozenset(
    "not no never without none nor neither nothing nobody nowhere cannot "
    "nicht kein keine keinen keiner keinem keines nie niemals ohne weder nichts "
    "ne n pas jamais aucun aucune sans ni rien".split()
)
CJK_NEGATIONS = frozenset("不没未无非否别")


def _pairs(text: str) -> dict[str, str]:
    """``"a=b c=d"`` -> ``{"a": "b", "c": "d"}`` (tables read better written this way)."""
    return dict(item.split("=", 1) for item in text.split())


#: one-word synonyms for ``paraphrase``: keys are casefolded, replacements keep the original's case
SYNONYMS: dict[str, dict[str, str]] = {
    "en": _pairs(
        "use=employ uses=employs used=employed using=employing show=demonstrate shows=demonstrates "
        "showed=demonstrated shown=demonstrated large=big small=little method=technique "
        "methods=techniques approach=strategy approaches=strategies paper=article result=outcome "
        "results=outcomes important=significant help=assist helps=assists get=obtain many=numerous "
        "because=since however=nevertheless need=require needs=requires begin=start begins=starts "
        "first=initial often=frequently usually=typically build=construct make=create makes=creates "
        "find=discover finds=discovers data=information different=distinct similar=comparable "
        "several=various each=every whole=entire enough=sufficient quickly=rapidly main=primary "
        "mainly=primarily describe=outline describes=outlines propose=suggest proposed=suggested "
        "allow=enable allows=enables improve=enhance improves=enhances increase=raise reduce=decrease "
        "reduced=decreased goal=aim document=text documents=texts example=instance problem=issue "
        "problems=issues provide=supply provides=supplies received=obtained therefore=thus thus=therefore "
        "task=job tasks=jobs system=framework systems=frameworks study=investigation user=person "
        "users=people answer=response answers=responses new=novel work=research common=frequent "
        "employee=worker employees=workers claim=request claims=requests rule=regulation "
        "rules=regulations children=kids income=earnings camp=base guns=cannons tent=shelter "
        "friend=comrade"
    ),
    "de": _pairs(
        "auch=ebenfalls gibt=existiert menge=ansammlung mengen=ansammlungen offen=geöffnet "
        "abgeschlossen=geschlossen zeigen=beweisen beispiel=exempel wichtig=bedeutend groß=riesig "
        "klein=winzig oft=häufig immer=stets behandlung=therapie ärztin=medizinerin melden=mitteilen "
        "schlimm=schlecht sagte=meinte tür=pforte raum=bereich räume=bereiche elemente=bestandteile "
        "eigenschaften=merkmale topologie=struktur teilmengen=untermengen aufgaben=übungen "
        "definition=festlegung punkte=stellen heißt=bezeichnet"
    ),
    "fr": _pairs(
        "demande=requête séance=réunion bâtiment=immeuble approuver=accepter reçue=obtenue partie=portion "
        "levée=close publication=diffusion avis=opinion comité=commission médecin=docteur traitement=soin "
        "effets=conséquences signalés=rapportés équipe=groupe grave=sérieux répondu=rétorqué "
        "règlement=règle démolition=destruction résolu=décidé membres=participants conseil=assemblée "
        "projet=plan proposé=suggéré"
    ),
}
#: words to insert for ``word_added`` (besides a content word of the document)
ADDED_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("also", "only", "often", "largely", "very", "mostly", "new", "early"),
    "de": ("auch", "nur", "oft", "sehr", "meist", "neue"),
    "fr": ("aussi", "seulement", "souvent", "très", "surtout", "nouvelle"),
}
#: TeX OT1 glyph codes that pdfminer prints as (cid:N) when a ligature lacks a Unicode mapping
LIGATURES: tuple[tuple[str, str, int], ...] = (
    ("ffi", "ﬃ", 14),
    ("ffl", "ﬄ", 15),
    ("ff", "ﬀ", 11),
    ("fi", "ﬁ", 12),
    ("fl", "ﬂ", 13),
)
#: QWERTY neighbours: a typo substitutes a letter by one next to it
KEYBOARD_NEIGHBOURS = _pairs(
    "a=qswz b=vghn c=xdfv d=serfcx e=wsdr f=drtgvc g=ftyhbv h=gyujnb i=ujko j=huikmn k=jiolm l=kop m=njk "
    "n=bhjm o=iklp p=ol q=wa r=edft s=awedxz t=rfgy u=yhji v=cfgb w=qase x=zsdc y=tghu z=asx"
)
LETTERS = {
    "en": "abcdefghijklmnopqrstuvwxyz",
    "de": "abcdefghijklmnopqrstuvwxyzäöüß",
    "fr": "abcdefghijklmnopqrstuvwxyzàâçéèêëîïôûùüœ",
}


def detect_lang(text: str) -> str:
    """'zh' for mostly-CJK text, else the language whose stopwords occur most (ties: English)."""
    chars = [c for c in text if not c.isspace()]
    if chars and sum(is_cjk(c) for c in chars) / len(chars) > 0.3:
        return "zh"
    words = [w.casefold() for w in WORD.findall(text)]
    scores = {lang: sum(w in STOPWORDS[lang] for w in words) for lang in ("en", "de", "fr")}
    best = max(scores.values())
    return next(lang for lang in ("en", "de", "fr") if scores[lang] == best)


def match_case(template: str, word: str) -> str:
    if template.isupper() and len(template) > 1:
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


# ----------------------------------------------------------------------------------------------------
# Spans: candidate quotes cut from chunks


@dataclass(frozen=True, slots=True)
class Span:
    chunk: int
    text: str  # an exact substring of the chunk
    lang: str


@dataclass
class Doc:
    name: str
    source: str  # "corpus" | "fixture"
    chunks: list[str]
    spans: list[Span] = field(default_factory=list)
    marker_spans: list[Span] = field(default_factory=list)
    cite_spans: list[Span] = field(default_factory=list)
    vocab: list[str] = field(default_factory=list)  # sorted lowercase content words (Latin)
    bigrams: list[str] = field(default_factory=list)  # sorted CJK bigrams


_SENT_END = re.compile(r"[.!?][\"”’)\]]*(?=\s+[\"“‘„«(\[]?[A-ZÀ-ÖØ-Þ])")
_CJK_SENT = re.compile(r"[^。！？；]+[。！？；]?")
_WORDISH = re.compile(r"[(\[„“\"‘'«]*[^\W\d_]+(?:[-–’'.][^\W\d_]+)*[.]?[)\]”“\"’'»,.;:!?]*")
#: a numeric reference marker in running text: after a word (or closing quote/parenthesis), numbers
#: 1-999 only (so intervals like "[0, 1]" and code lists stay out), followed by a space or punctuation
MARKER = re.compile(
    r"(?<=[^\W\d_’”)])\s?(?:\[(?![^\]]*\b0\b)[1-9]\d{0,2}(?:\s*[,–-]\s*[1-9]\d{0,2})*\]|[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]*)"
    r"(?=[\s.,;:)]|$)"
)
#: bibliography entries and front matter read badly as quotes
_BIBLIO = re.compile(
    r"arXiv|preprint|Proceedings|\bIn Proc|\bdoi\b|ISBN|\bpp\.|\bVol\.|\. (?:19|20)\d\d[a-z]?\."
    r"|\((?:19|20)\d\d\)\.|^\[\d+\]"
)
#: extraction garbage: a letter run of 19+ characters, or a token switching lower->upper twice
_GIBBERISH = re.compile(r"[^\W\d_]{19,}|[a-z][A-Z][^\s]*[a-z][A-Z]")
AUTHOR_YEAR = re.compile(r"\s?\((?:e\.g\.,?\s|see\s)?[A-Z][^()]{1,80}?(?:19|20)\d{2}[a-z]?\)")
_MIN_WORDS, _MAX_WORDS = 6, 40


def _clauses(sentence: str, offset: int) -> Iterable[tuple[int, int]]:
    """(start, end) windows of 6-40 words within one sentence, cut at clause punctuation."""
    n = len(sentence.split())
    if n <= _MAX_WORDS:
        yield offset, offset + len(sentence)
        return
    cuts = [m.end() for m in re.finditer(r"[,;:](?=\s)", sentence)] + [len(sentence)]
    start = 0
    for i, cut in enumerate(cuts):
        piece = sentence[start:cut]
        nxt = cuts[i + 1] if i + 1 < len(cuts) else None
        if nxt is not None and len(sentence[start:nxt].split()) <= _MAX_WORDS:
            continue
        if len(piece.split()) > _MAX_WORDS:  # one long clause: its first 25 words
            words = list(re.finditer(r"\S+", piece))
            piece_end = words[24].end()
            yield offset + start, offset + start + piece_end
        else:
            lead = len(piece) - len(piece.lstrip())
            yield offset + start + lead, offset + cut
        start = cut


def _latin_ok(text: str, lang: str) -> bool:
    tokens = text.split()
    if not _MIN_WORDS <= len(tokens) <= _MAX_WORDS or len(text) > 320:
        return False
    if any(bad in text for bad in ("(cid:", "http", "www.", "@", "\ufffd")):
        return False
    if _BIBLIO.search(text) or _GIBBERISH.search(text):
        return False
    wordish = [t for t in tokens if _WORDISH.fullmatch(t)]
    if len(wordish) / len(tokens) < 0.7:
        return False
    if sum(len(t.strip("()[].,;:!?")) <= 1 for t in tokens) / len(tokens) > 0.15:  # formulas, tables
        return False
    lower = sum(1 for t in wordish if t.lstrip("([„“\"‘'«")[:1].islower())
    return lower / len(wordish) >= (0.3 if lang == "de" else 0.45)


def _cjk_ok(text: str) -> bool:
    chars = [c for c in text if not c.isspace()]
    return 12 <= len(text) <= 60 and text.count(" ") <= 2 and sum(is_cjk(c) for c in chars) / len(chars) >= 0.6


def cut_spans(chunk_index: int, chunk: str) -> list[Span]:
    """Sentence- or clause-sized exact substrings of a chunk that read like quotable prose."""
    spans: list[Span] = []
    pos = 0
    for par in chunk.split("\n"):
        base = pos
        pos += len(par) + 1
        if not par.strip():
            continue
        lang = detect_lang(par)
        if lang == "zh":  # sentences, or clauses of long ones, of 12-60 characters
            for m in _CJK_SENT.finditer(par):
                seg = m.group().strip()
                pieces = [seg] if len(seg) <= 60 else [p.strip() for p in re.split(r"(?<=，)", seg)]
                spans.extend(Span(chunk_index, p, lang) for p in pieces if _cjk_ok(p))
            continue
        start = 0
        bounds = [m.end() for m in _SENT_END.finditer(par)] + [len(par)]
        for end in bounds:
            sentence = par[start:end]
            lead = len(sentence) - len(sentence.lstrip())
            sentence = sentence.strip()
            if sentence:
                for s, e in _clauses(sentence, base + start + lead):
                    text = chunk[s:e]
                    if _latin_ok(text, lang):
                        spans.append(Span(chunk_index, text, lang))
            start = end
    return spans


def prepare(doc: Doc) -> None:
    """Fill a document's candidate spans and vocabulary."""
    seen: set[str] = set()
    counts: Counter[str] = Counter()
    bigrams: Counter[str] = Counter()
    for i, chunk in enumerate(doc.chunks):
        for span in cut_spans(i, chunk):
            if span.text in seen:
                continue
            seen.add(span.text)
            doc.spans.append(span)
            stripped = MARKER.sub("", span.text)
            if span.lang != "zh" and MARKER.search(span.text) and len(stripped.split()) >= _MIN_WORDS:
                doc.marker_spans.append(span)
            if span.lang != "zh" and AUTHOR_YEAR.search(span.text):
                doc.cite_spans.append(span)
        # references and author-year citations are too long for _latin_ok when they hold many
        # markers; collect them from whole sentences too
        for m in re.finditer(r"[^.!?\n]{20,300}[.!?]", chunk):
            text = m.group().strip()
            if text in seen or detect_lang(text) == "zh" or "(cid:" in text:
                continue
            n_plain = len(AUTHOR_YEAR.sub("", MARKER.sub("", text)).split())
            if not _MIN_WORDS <= n_plain <= _MAX_WORDS:
                continue
            if MARKER.search(text) and _latin_ok(MARKER.sub("", text), detect_lang(text)):
                seen.add(text)
                doc.marker_spans.append(Span(i, text, detect_lang(text)))
            elif AUTHOR_YEAR.search(text) and _latin_ok(AUTHOR_YEAR.sub("", text), detect_lang(text)):
                seen.add(text)
                doc.cite_spans.append(Span(i, text, detect_lang(text)))
        for w in WORD.findall(chunk):
            if len(w) >= 4 and w.islower() and w.isalpha() and not any(is_cjk(c) for c in w):
                counts[w] += 1
        for run in re.findall(r"[\u3400-\u9fff]+", chunk):
            for j in range(len(run) - 1):
                bigrams[run[j : j + 2]] += 1
    # words seen twice or more: a substitute should be a real word of the document, not extraction debris
    doc.vocab = sorted(
        w for w, c in counts.items() if c >= 2 and w not in NEGATIONS and not any(w in s for s in STOPWORDS.values())
    )
    doc.bigrams = sorted(b for b, c in bigrams.items() if c >= 3 and not set(b) & CJK_NEGATIONS)


# ----------------------------------------------------------------------------------------------------
# Perturbations. Each returns (quote, chunk text, note) or None when it does not apply to the span.

Result = tuple[str, str, str]


@dataclass
class Context:
    doc: Doc
    group: Sequence[Doc]  # documents of the same source, for other_document
    known_words: frozenset[str]  # every word seen in the group, lowercase: a typo must not be one


def _words(span: Span, *, interior: bool = False, min_len: int = 1) -> list[re.Match[str]]:
    """Word tokens of a Latin span, minus negations and words glued to digits or "n't"."""
    found = list(WORD.finditer(span.text))
    if interior:
        found = found[1:-1]
    out = []
    for m in found:
        w = m.group()
        after = span.text[m.end() : m.end() + 2]
        before = span.text[m.start() - 1 : m.start()] if m.start() else ""
        if len(w) < min_len or w.casefold() in NEGATIONS or after in ("'t", "’t"):
            continue
        if before.isdigit() or span.text[m.end() : m.end() + 1].isdigit() or any(is_cjk(c) for c in w):
            continue
        out.append(m)
    return out


def _chunk(span: Span, ctx: Context) -> str:
    return ctx.doc.chunks[span.chunk]


def p_exact(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    return span.text, _chunk(span, ctx), "verbatim span of the chunk"


def p_case_changed(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    m = re.search(r"[^\W\d_]", span.text)
    if span.lang == "zh" or m is None or m.start() > 2:
        return None
    ch = m.group()
    new = ch.lower() if ch.isupper() else ch.upper()
    if new == ch:
        return None
    quote = splice(span.text, m.start(), m.end(), new)
    return quote, _chunk(span, ctx), f"first letter {ch!r} -> {new!r}: case only"


_VARIANTS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("’", lambda _: "'"),
    ("'", lambda _: "’"),
    ("“", lambda _: '"'),
    ("”", lambda _: '"'),
    ("„", lambda _: '"'),
    ("–", lambda _: "-"),
    ("—", lambda _: "-"),
)


def p_quote_dash_variant(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    text = span.text
    present = [(c, f) for c, f in _VARIANTS if c in text]
    if '"' in text:
        count = iter(range(text.count('"')))
        quote = re.sub('"', lambda _: "“" if next(count) % 2 == 0 else "”", text)
        return quote, _chunk(span, ctx), "straight double quotes -> curly “ ”"
    if present:
        char, f = rng.choice(present)
        return text.replace(char, f(char)), _chunk(span, ctx), f"{char!r} -> {f(char)!r} throughout"
    hyphens = list(re.finditer(r"(?<=[^\W\d_])-(?=[^\W\d_])", text))
    if hyphens:
        m = rng.choice(hyphens)
        new = rng.choice(["‐", "–"])
        return splice(text, m.start(), m.end(), new), _chunk(span, ctx), f"hyphen -> {new!r} (U+{ord(new):04X})"
    return None


def p_hyphen_split(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    if span.lang == "zh":
        return None
    words = _words(span, min_len=8)
    if not words:
        return None
    m = rng.choice(words)
    w = m.group()
    cut = rng.randint(3, len(w) - 3)
    joint = rng.choice(["-\n", "- "])
    quote = splice(span.text, m.start(), m.end(), w[:cut] + joint + w[cut:])
    return quote, _chunk(span, ctx), f"{w!r} split as {w[:cut] + joint + w[cut:]!r} (line-break hyphen)"


def _ligature_sites(span: Span) -> list[tuple[int, str, str, int]]:
    """(position, letters, ligature char, cid code) for ligature letter groups inside words."""
    sites: list[tuple[int, str, str, int]] = []
    for m in _words(span):
        w, i = m.group(), 0
        while i < len(w):
            for letters, lig, code in LIGATURES:
                if w.startswith(letters, i):
                    sites.append((m.start() + i, letters, lig, code))
                    i += len(letters) - 1
                    break
            i += 1
    return sites


def p_ligature(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    sites = _ligature_sites(span) if span.lang != "zh" else []
    if not sites:
        return None
    pos, letters, lig, _ = rng.choice(sites)
    quote = splice(span.text, pos, pos + len(letters), lig)
    return quote, _chunk(span, ctx), f"{letters!r} written as ligature {lig!r} (U+{ord(lig):04X})"


def p_cid_glyph(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    sites = _ligature_sites(span) if span.lang != "zh" else []
    if not sites:
        return None
    pos, letters, _, code = rng.choice(sites)
    quote = splice(span.text, pos, pos + len(letters), f"(cid:{code})")
    return quote, _chunk(span, ctx), f"{letters!r} extracted as glyph code '(cid:{code})'"


def p_soft_hyphen(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    words = _words(span, min_len=7) if span.lang != "zh" else []
    if not words:
        return None
    m = rng.choice(words)
    cut = rng.randint(2, len(m.group()) - 2)
    quote = splice(span.text, m.start() + cut, m.start() + cut, "\u00ad")
    return quote, _chunk(span, ctx), f"soft hyphen inserted in {m.group()!r} after {m.group()[:cut]!r}"


def p_marker_dropped(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    markers = list(MARKER.finditer(span.text))
    if not markers:
        return None
    m = rng.choice(markers)
    quote = splice(span.text, m.start(), m.end(), "")
    if fold(quote) in fold(_chunk(span, ctx)):  # marker at an end: trivially contained, not informative
        return None
    return quote, _chunk(span, ctx), f"reference marker {m.group().strip()!r} omitted"


def p_author_year_dropped(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    cites = list(AUTHOR_YEAR.finditer(span.text))
    if not cites:
        return None
    m = rng.choice(cites)
    quote = splice(span.text, m.start(), m.end(), "")
    return quote, _chunk(span, ctx), f"author-year citation {m.group().strip()!r} omitted: words removed"


def _typo_variants(w: str, rng: random.Random) -> list[tuple[str, str]]:
    """(new word, description) candidates: one edit strictly inside the word."""
    out: list[tuple[str, str]] = []
    for i in range(1, len(w) - 1):
        c = w[i]
        lower = c.lower()
        if lower in KEYBOARD_NEIGHBOURS:
            sub = rng.choice(KEYBOARD_NEIGHBOURS[lower])
            out.append((w[:i] + (sub.upper() if c.isupper() else sub) + w[i + 1 :], f"{c!r}->{sub!r}"))
        out.append((w[:i] + w[i + 1 :], f"deleted {c!r}"))
        if i < len(w) - 2 and w[i] != w[i + 1]:
            out.append((w[:i] + w[i + 1] + w[i] + w[i + 2 :], f"transposed {w[i : i + 2]!r}"))
    return out


def p_typo(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    if span.lang == "zh":
        return None
    words = _words(span, min_len=5)
    rng.shuffle(words)
    for m in words:
        w = m.group()
        # a slip that makes a common word of the language ("plain" -> "pain") is a substitution
        options = [
            (n, d)
            for n, d in _typo_variants(w, rng)
            if n.casefold() not in ctx.known_words and lexicon.zipf(span.lang)(n.casefold()) < COMMON_WORD_ZIPF
        ]
        if options:
            new, how = rng.choice(options)
            quote = splice(span.text, m.start(), m.end(), new)
            return quote, _chunk(span, ctx), f"typo in {w!r}: {how} -> {new!r} (no word of the corpus or language)"
    return None


_OCR = (("rn", "m"), ("m", "rn"), ("l", "1"), ("l", "I"), ("I", "l"), ("cl", "d"), ("d", "cl"), ("e", "c"), ("c", "e"))


def p_ocr_confusion(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    if span.lang == "zh":
        return None
    words = _words(span, min_len=4)
    rng.shuffle(words)
    for m in words:
        w = m.group()
        options = []
        for old, new in _OCR:
            for hit in re.finditer(re.escape(old), w):
                variant = splice(w, hit.start(), hit.end(), new)
                if variant.casefold() not in ctx.known_words:
                    options.append((variant, f"{old!r}->{new!r}"))
        if options:
            variant, how = rng.choice(options)
            quote = splice(span.text, m.start(), m.end(), variant)
            return quote, _chunk(span, ctx), f"OCR confusion in {w!r}: {how} -> {variant!r}"
    return None


def _short_variants(w: str, letters: str) -> list[tuple[str, str]]:
    """(new word, description): one letter inserted, deleted or substituted anywhere in ``w``."""
    out = []
    for i in range(len(w)):
        out.append((w[:i] + w[i + 1 :], f"deleted {w[i]!r}"))
        for c in letters[:6]:
            if c != w[i].lower():
                out.append((w[:i] + c + w[i + 1 :], f"{w[i]!r}->{c!r}"))
    for i in range(len(w) + 1):
        for c in letters[:6]:
            out.append((w[:i] + c + w[i:], f"inserted {c!r}"))
    return [(n, d) for n, d in out if len(n) >= 2]


def p_short_word_noise(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    """A model's one-letter slip in a short word of the quote: "th" for "the", "ou" for "you"."""
    if span.lang == "zh":
        return None
    words = [
        m
        for m in _words(span, interior=True)
        if 2 <= len(m.group()) <= 4 and m.group().isalpha() and m.group().casefold() not in NUMBER_WORDS
    ]
    rng.shuffle(words)
    for m in words:
        w = m.group()
        options = [
            (n, d)
            for n, d in _short_variants(w, LETTERS[span.lang])
            if n.casefold() not in ctx.known_words and n.casefold() not in NEGATIONS
        ]
        if options:
            new, how = rng.choice(options)
            quote = splice(span.text, m.start(), m.end(), new)
            return quote, _chunk(span, ctx), f"short word {w!r}: {how} -> {new!r} (not a word of the corpus)"
    return None


def p_ocr_source_noise(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    """An OCR'd source: the chunk's own word garbled where the quote has it clean ("the" read as
    "th", "modern" as "modem" is not used: only variants that are no word of the corpus)."""
    if span.lang == "zh":
        return None
    chunk = _chunk(span, ctx)
    at = chunk.find(span.text)
    if at < 0:
        return None
    words = _words(span, interior=True, min_len=2)
    rng.shuffle(words)
    for m in words:
        w = m.group()
        if not w.isalpha():
            continue
        options = [(w[:-1], f"lost its last letter {w[-1]!r}")] if 3 <= len(w) <= 4 else []
        for old, new in _OCR:
            for hit in re.finditer(re.escape(old), w):
                if new.isalpha():
                    options.append((splice(w, hit.start(), hit.end(), new), f"{old!r}->{new!r}"))
        options = [(n, d) for n, d in options if n.casefold() not in ctx.known_words and len(n) >= 2]
        if options:
            new, how = rng.choice(options)
            garbled = splice(chunk, at + m.start(), at + m.end(), new)
            return span.text, garbled, f"the chunk's {w!r} OCR'd as {new!r} ({how}); the quote is clean"
    return None


def p_space_doubled(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    gaps = list(re.finditer(r"(?<=\S) (?=\S)", span.text))
    if not gaps:
        return None
    m = rng.choice(gaps)
    return splice(span.text, m.start(), m.end(), "  "), _chunk(span, ctx), "one space doubled"


def p_space_missing(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    gaps = []
    for g in re.finditer(r"(?<=[^\W\d_]) (?=[^\W\d_])", span.text):  # between two letters
        left, right = span.text[: g.start()].split()[-1], span.text[g.end() :].split()[0]
        if not {left.casefold(), right.casefold()} & NEGATIONS:  # "notreimbursed" would be ambiguous
            gaps.append((g, left, right))
    if not gaps:
        return None
    m, left, right = rng.choice(gaps)
    quote = splice(span.text, m.start(), m.end(), "")
    return quote, _chunk(span, ctx), f"space between {left!r} and {right!r} dropped"


def p_space_in_word(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    if span.lang == "zh":
        sites = [i for i in range(2, len(span.text) - 2) if is_cjk(span.text[i - 1]) and is_cjk(span.text[i])]
        if not sites:
            return None
        i = rng.choice(sites)
        quote = splice(span.text, i, i, " ")
        return quote, _chunk(span, ctx), f"space inserted between {span.text[i - 1]!r} and {span.text[i]!r}"
    words = _words(span, min_len=6)
    if not words:
        return None
    m = rng.choice(words)
    cut = rng.randint(2, len(m.group()) - 2)
    w = m.group()
    quote = splice(span.text, m.start() + cut, m.start() + cut, " ")
    return quote, _chunk(span, ctx), f"{w!r} broken as {w[:cut] + ' ' + w[cut:]!r}"


# --- negatives


def _content_words(span: Span, ctx: Context) -> list[re.Match[str]]:
    stop = STOPWORDS[span.lang]
    return [m for m in _words(span, interior=True, min_len=4) if m.group().casefold() not in stop]


def _substitute_far(w: str, ctx: Context, rng: random.Random) -> str | None:
    """A document word at edit distance >= 3 that shares no 4-letter prefix with ``w``."""
    vocab = ctx.doc.vocab
    if not vocab:
        return None
    low = w.casefold()
    for _ in range(60):
        v = rng.choice(vocab)
        if v[:4] != low[:4] and levenshtein(v, low) >= 3:
            return match_case(w, v)
    return None


def _cjk_interior(span: Span, size: int) -> list[int]:
    t = span.text
    return [i for i in range(1, len(t) - size) if all(is_cjk(c) and c not in CJK_NEGATIONS for c in t[i : i + size])]


def p_word_substituted(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    if span.lang == "zh":
        sites = _cjk_interior(span, 2)
        if not sites or not ctx.doc.bigrams:
            return None
        i = rng.choice(sites)
        old = span.text[i : i + 2]
        for _ in range(40):
            new = rng.choice(ctx.doc.bigrams)
            if not set(new) & set(old):
                quote = splice(span.text, i, i + 2, new)
                return quote, _chunk(span, ctx), f"word {old!r} -> {new!r}"
        return None
    words = _content_words(span, ctx)
    rng.shuffle(words)
    for m in words:
        far = _substitute_far(m.group(), ctx, rng)
        if far:
            quote = splice(span.text, m.start(), m.end(), far)
            return quote, _chunk(span, ctx), f"word {m.group()!r} -> {far!r} (another word of the document)"
    return None


def _edits1(word: str, letters: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {a + b[1:] for a, b in splits if b}
    transposes = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    replaces = {a + c + b[1:] for a, b in splits if b for c in letters}
    inserts = {a + c + b for a, b in splits for c in letters}
    return deletes | transposes | replaces | inserts


def p_near_word_substituted(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    if span.lang == "zh":
        return None
    vocab = set(ctx.doc.vocab)
    words = _words(span, interior=True, min_len=4)
    rng.shuffle(words)
    for m in words:
        w = m.group()
        near = sorted(
            v for v in _edits1(w.casefold(), LETTERS[span.lang]) & vocab if v != w.casefold() and v not in NEGATIONS
        )
        if near:
            new = match_case(w, rng.choice(near))
            quote = splice(span.text, m.start(), m.end(), new)
            return quote, _chunk(span, ctx), f"word {w!r} -> {new!r}: a different real word one edit away"
    return None


def p_word_added(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    if span.lang == "zh":
        sites = [i for i in range(2, len(span.text) - 2) if is_cjk(span.text[i - 1]) and is_cjk(span.text[i])]
        if not sites or not ctx.doc.bigrams:
            return None
        i, new = rng.choice(sites), rng.choice(ctx.doc.bigrams)
        return splice(span.text, i, i, new), _chunk(span, ctx), f"word {new!r} inserted"
    gaps = list(re.finditer(r"(?<=[^\W\d_]) (?=[^\W\d_])", span.text))[1:-1]
    if not gaps:
        return None
    g = rng.choice(gaps)
    use_vocab = rng.random() < 0.5 and ctx.doc.vocab  # a content word of the document, or a filler
    new = rng.choice(ctx.doc.vocab) if use_vocab else rng.choice(ADDED_WORDS[span.lang])
    quote = splice(span.text, g.start(), g.end(), f" {new} ")
    return quote, _chunk(span, ctx), f"word {new!r} inserted"


def _remove_word(span: Span, ctx: Context, rng: random.Random, *, stop: bool) -> Result | None:
    stopset = STOPWORDS[span.lang]
    tokens = list(re.finditer(r"(?<= )([^\W\d_]+)(?= )", span.text))
    words = [
        m
        for m in tokens
        if m.group().casefold() not in NEGATIONS
        and (m.group().casefold() in stopset) == stop
        and (stop or len(m.group()) >= 3)
    ]
    if not words:
        return None
    m = rng.choice(words)
    quote = splice(span.text, m.start(), m.end() + 1, "")
    what = "stopword" if stop else "word"
    return quote, _chunk(span, ctx), f"{what} {m.group()!r} removed"


def p_word_removed(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    if span.lang == "zh":
        sites = _cjk_interior(span, 2)
        if not sites:
            return None
        i = rng.choice(sites)
        return splice(span.text, i, i + 2, ""), _chunk(span, ctx), f"word {span.text[i : i + 2]!r} removed"
    return _remove_word(span, ctx, rng, stop=False)


def p_stopword_removed(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    if span.lang == "zh":
        return None
    return _remove_word(span, ctx, rng, stop=True)


def change_number(token: str, rng: random.Random) -> str:
    """A different number in the same notation: years +-1, small integers scaled, else one digit."""
    if re.fullmatch(r"(19|20)\d\d", token):
        return str(int(token) + rng.choice((-1, 1)))
    if token.isdigit() and 2 <= int(token) < 1000 and rng.random() < 0.4:
        value = int(token)
        new = str(max(1, round(value * rng.choice((0.5, 4 / 3, 1.5, 2)))))
        if new != token:
            return new
    positions = [i for i, c in enumerate(token) if c.isdigit()]
    i = rng.choice(positions)
    leading = i == 0 or not token[i - 1].isdigit()
    choices = [d for d in "0123456789" if d != token[i] and not (leading and d == "0")]
    return token[:i] + rng.choice(choices) + token[i + 1 :]


def p_number_changed(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    text = span.text
    # standalone numbers only: not part of a name such as "F1" or "1040NR", nor a reference marker
    # (a matcher may drop markers, so "[8]" for "[17]" would not be a clean negative)
    markers = [range(m.start(), m.end()) for m in MARKER.finditer(text)]
    numbers = [
        m
        for m in DIGITS.finditer(text)
        if not any(m.start() in r for r in markers)
        and not (m.start() and text[m.start() - 1].isalpha())
        and not (m.end() < len(text) and text[m.end()].isalpha())
    ]
    if not numbers:
        return None
    m = rng.choice(numbers)
    new = change_number(m.group(), rng)
    quote = splice(span.text, m.start(), m.end(), new)
    return quote, _chunk(span, ctx), f"number {m.group()!r} -> {new!r}"


_AUX_EN = r"is|are|was|were|can|could|will|would|should|must|may|might|does|do|did|has|have|had"
_NEGATION_EDITS: dict[str, tuple[tuple[str, str], ...]] = {
    # (regex, replacement); tried in random order, the first that applies is used
    "en": (
        (r"\b(\w+) not\b", r"\1"),
        (r"\bcannot\b", "can"),
        (r"\b(do|does|did|is|are|was|were|could|would|should|has|have|had)n[’']t\b", r"\1"),
        (r"\bnever\b", "always"),
        (r"\balways\b", "never"),
        (r"\bwithout\b", "with"),
        (rf"\b({_AUX_EN})\b(?! not\b)", r"\1 not"),
    ),
    "de": (
        (r" nicht\b", ""),
        (r"\bkein(e[nmrs]?)?\b", r"ein\1"),
        (r"\bKein(e[nmrs]?)?\b", r"Ein\1"),
        (r"\b(ist|sind|wird|werden|kann|können|war|waren|hat|haben)\b(?! nicht\b)", r"\1 nicht"),
    ),
    "fr": (
        (r"\bn[’'](\w+) pas\b", r"\1"),
        (r"\bne (\w+) pas\b", r"\1"),
        (r"\baucune?\b", "une"),
        (r"\b(est|a été|sont|doit|peut)\b", r"n’\1 pas"),
    ),
    "zh": (
        (r"不(存在|属于|适用|是|能|会|得)", r"\1"),
        (r"未(进行|发生|达到)", r"\1"),
        (r"(?<![不未没])(存在|属于|适用|进行)", r"不\1"),
    ),
}


def p_negation_flipped(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    edits = list(_NEGATION_EDITS[span.lang])
    rng.shuffle(edits)
    for pattern, repl in edits:
        hits = list(re.finditer(pattern, span.text))
        if span.lang != "zh":  # keep the edit away from the quote's two ends
            hits = [h for h in hits if h.start() > 0 and h.end() < len(span.text)]
        if hits:
            h = rng.choice(hits)
            new = h.expand(repl)
            if span.lang == "fr" and new.startswith("n’") and new[2:3] in "a":
                new = "n’" + new[2:]
            if span.lang == "fr" and re.match(r"n’[^aeiouéèêh]", new):
                new = "ne " + new[2:]
            quote = splice(span.text, h.start(), h.end(), new)
            return quote, _chunk(span, ctx), f"negation flipped: {h.group()!r} -> {new!r}"
    return None


def p_paraphrase(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    if span.lang == "zh":
        return None
    table = SYNONYMS[span.lang]
    hits = [m for m in _words(span, interior=True) if m.group().casefold() in table]
    rng.shuffle(hits)
    chosen = hits[:3]
    changes: list[tuple[int, int, str, str]] = [
        (m.start(), m.end(), m.group(), match_case(m.group(), table[m.group().casefold()])) for m in chosen
    ]
    if len(changes) < 2:
        return None
    quote = span.text
    for start, end, _, new in sorted(changes, reverse=True):
        quote = splice(quote, start, end, new)
    what = ", ".join(f"{old!r}->{new!r}" for _, _, old, new in sorted(changes))
    return quote, _chunk(span, ctx), f"{len(changes)} words replaced: {what}"


def p_wrong_chunk(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    n = len(ctx.doc.chunks)
    if n < 2:
        return None
    far = [j for j in range(n) if abs(j - span.chunk) >= 2] or [j for j in range(n) if j != span.chunk]
    j = rng.choice(far)
    return span.text, ctx.doc.chunks[j], f"exact span of chunk {span.chunk}, checked against chunk {j}"


def p_other_document(span: Span, ctx: Context, rng: random.Random) -> Result | None:
    others = [d for d in ctx.group if d.name != ctx.doc.name and d.spans]
    if not others:
        return None
    other = rng.choice(others)
    foreign = rng.choice(other.spans)
    j = rng.choice(range(len(ctx.doc.chunks)))
    note = f"sentence of {other.name} (chunk {foreign.chunk}), checked against chunk {j} of this document"
    return foreign.text, ctx.doc.chunks[j], note


Perturb = Callable[[Span, Context, random.Random], Result | None]
PERTURBATIONS: dict[str, Perturb] = {
    "exact": p_exact,
    "case_changed": p_case_changed,
    "quote_dash_variant": p_quote_dash_variant,
    "hyphen_split": p_hyphen_split,
    "ligature": p_ligature,
    "soft_hyphen": p_soft_hyphen,
    "cid_glyph": p_cid_glyph,
    "marker_dropped": p_marker_dropped,
    "typo": p_typo,
    "ocr_confusion": p_ocr_confusion,
    "short_word_noise": p_short_word_noise,
    "ocr_source_noise": p_ocr_source_noise,
    "space_doubled": p_space_doubled,
    "space_missing": p_space_missing,
    "space_in_word": p_space_in_word,
    "word_substituted": p_word_substituted,
    "near_word_substituted": p_near_word_substituted,
    "word_added": p_word_added,
    "word_removed": p_word_removed,
    "stopword_removed": p_stopword_removed,
    "number_changed": p_number_changed,
    "negation_flipped": p_negation_flipped,
    "paraphrase": p_paraphrase,
    "author_year_dropped": p_author_year_dropped,
    "wrong_chunk": p_wrong_chunk,
    "other_document": p_other_document,
}
assert set(PERTURBATIONS) == set(SYNTHETIC_KINDS)


def _candidates(doc: Doc, kind: str) -> list[Span]:
    if kind == "marker_dropped":
        return doc.marker_spans
    if kind == "author_year_dropped":
        return doc.cite_spans
    if kind == "number_changed":
        return [s for s in doc.spans if DIGITS.search(s.text)]
    return doc.spans


def _rng(*parts: object) -> random.Random:
    """A generator seeded from a string (str seeds hash with SHA-512: stable across processes)."""
    return random.Random(":".join(str(p) for p in parts))


def synthetic_records(docs: Sequence[Doc], seed: int) -> list[Record]:
    """Perturbed pairs for every document of one source (corpus or fixture)."""
    known = frozenset(w.casefold() for d in docs for chunk in d.chunks for w in WORD.findall(chunk))
    records: list[Record] = []
    for doc in docs:
        ctx = Context(doc, docs, known)
        for kind in SYNTHETIC_KINDS:
            label = KIND_BY_NAME[kind].label
            rng = _rng(seed, doc.source, doc.name, kind)
            pool = list(_candidates(doc, kind))
            rng.shuffle(pool)
            want = PER_KIND.get(kind, PER_KIND_DEFAULT)
            made: list[Record] = []
            quotes: set[str] = set()
            for span in pool:
                if len(made) >= want:
                    break
                result = PERTURBATIONS[kind](span, ctx, rng)
                if result is None:
                    continue
                quote, chunk, note = result
                if quote in quotes or (kind != "exact" and label == MATCH and quote == span.text):
                    continue
                if label == NO_MATCH and alnum_key(quote) in alnum_key(chunk):
                    continue  # the edit is invisible to a letters-and-digits comparison: not a clean negative
                if label == MATCH and span.text not in chunk:
                    raise AssertionError(f"span not in its chunk: {span.text!r}")
                quotes.add(quote)
                made.append(
                    {
                        "id": f"{doc.source}/{Path(doc.name).stem}/{kind}/{len(made):02d}",
                        "source": doc.source,
                        "document": doc.name,
                        "kind": kind,
                        "label": label,
                        "quote": quote,
                        "chunk": chunk,
                        "note": f"{note} -> {label}",
                    }
                )
            records.extend(made)
    return records


# ----------------------------------------------------------------------------------------------------
# QuoteSum: real human quotes

_QUOTE_OPEN = re.compile(r"\[ (\d+) ")


def parse_quotes(summary: str) -> list[tuple[int, str]]:
    """``[ <n> <span> ]`` quotes of a QuoteSum summary as (source number, span). Brackets inside a
    span are balanced by depth, so ``[ 2 see [a] here ]`` gives ``see [a] here``."""
    out: list[tuple[int, str]] = []
    pos = 0
    while (m := _QUOTE_OPEN.search(summary, pos)) is not None:
        depth, j = 1, m.end()
        while j < len(summary) and depth:
            if summary[j] == "[":
                depth += 1
            elif summary[j] == "]":
                depth -= 1
            j += 1
        if depth:  # unbalanced tail: stop rather than guess
            break
        span = summary[m.end() : j - 1].strip()
        if span:
            out.append((int(m.group(1)), span))
        pos = j
    return out


def _folding_steps(quote: str, source: str) -> str:
    """Which parts of the normalisation were needed for containment (for the note)."""
    steps = []
    if _WS.sub(" ", quote) in _WS.sub(" ", source) or quote.strip() in source:
        steps.append("whitespace")
    elif quote.casefold() in source.casefold():
        steps.append("case")
    elif quote.translate(QUOTE_DASH_FOLD) in source.translate(QUOTE_DASH_FOLD):
        steps.append("quote/dash folding")
    else:
        steps.append("case + whitespace + quote/dash folding combined")
    return steps[0]


def _noise_pair(a: str, b: str, known: frozenset[str]) -> bool:
    """Two different words that a fuzzy matcher may treat as one: typo/OCR distance, no digits,
    no negation, and the quote's word is not itself a real word (that would be a substitution)."""
    if any(c.isdigit() for c in a + b) or a in NEGATIONS or b in NEGATIONS:
        return False
    if max(len(a), len(b)) < 5 or a in known:
        return False
    return levenshtein(a, b) <= (2 if max(len(a), len(b)) >= 9 else 1)


def judge_not_contained(quote: str, source: str, known: frozenset[str]) -> tuple[str, str]:
    """The explicit rule for a real quote that is not contained in its passage after folding.

    1. Same words (letters/digits runs, folded) in the same order, contiguous in the passage: the
       difference is punctuation or spacing only -> match.
    2. A window of the passage with the same number of words where every differing pair is
       character-level noise (see :func:`_noise_pair`) -> match.
    3. Anything else (a word added, removed or substituted, a digit or negation differs) -> no_match.
    """
    qw, sw = TOKEN.findall(fold(quote)), TOKEN.findall(fold(source))
    n = len(qw)
    if n == 0:
        return NO_MATCH, "quote has no words"
    for i in range(len(sw) - n + 1):
        window = sw[i : i + n]
        if window == qw:
            return MATCH, "same words in the same order; differs only in punctuation or spacing"
        diffs = [(a, b) for a, b in zip(qw, window, strict=True) if a != b]
        if diffs and all(_noise_pair(a, b, known) for a, b in diffs):
            what = ", ".join(f"{a!r}~{b!r}" for a, b in diffs)
            return MATCH, f"character-level noise only ({what})"
    missing = [w for w in dict.fromkeys(qw) if w not in set(sw)]
    if len(missing) == len(set(qw)):
        return NO_MATCH, "no word of the quote occurs in the passage"
    if missing:
        return NO_MATCH, f"words not in the passage: {' '.join(missing)!r}"
    # every word occurs, but not as one contiguous run: show the closest run's differences
    sm = difflib.SequenceMatcher(None, qw, sw, autojunk=False)
    longest = sm.find_longest_match(0, n, 0, len(sw))
    lo = max(0, longest.b - longest.a)
    window = sw[lo : lo + n + 3]
    parts = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, qw, window, autojunk=False).get_opcodes():
        if tag == "delete":
            parts.append(f"added {' '.join(qw[i1:i2])!r}")
        elif tag == "replace":
            parts.append(f"{' '.join(window[j1:j2])!r} -> {' '.join(qw[i1:i2])!r}")
    return NO_MATCH, "all words occur but not as one run; vs the closest run: " + "; ".join(parts)


def quotesum_records(path: Path, seed: int) -> list[Record]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    known = frozenset(w for row in rows for k in range(1, 9) for w in TOKEN.findall(fold(row.get(f"source{k}") or "")))
    records: list[Record] = []
    wrong: list[Record] = []
    seen: set[tuple[str, int, str]] = set()
    counters: Counter[tuple[str, str]] = Counter()

    def add(out: list[Record], qid: str, kind: str, label: str, quote: str, chunk: str, note: str) -> None:
        n = counters[(qid, kind)]
        counters[(qid, kind)] += 1
        out.append(
            {
                "id": f"quotesum/{qid}/{kind}/{n:02d}",
                "source": "quotesum",
                "document": qid,
                "kind": kind,
                "label": label,
                "quote": quote,
                "chunk": chunk,
                "note": note,
            }
        )

    for row in rows:
        qid, uid = row["qid"], row["unique_id"]
        sources = {k: row.get(f"source{k}") or "" for k in range(1, 9)}
        for n, quote in parse_quotes(row["summary"]):
            if (qid, n, quote) in seen:
                continue
            seen.add((qid, n, quote))
            cited = sources.get(n, "")
            title = row.get(f"title{n}") or ""
            where = f"{uid}, [ {n} ... ] cites source{n} ({title!r})"
            if not cited:
                continue  # cites an empty slot: no passage to pair with
            if quote in cited:
                aligned = re.search(rf"(?<!\w){re.escape(quote)}(?!\w)", cited) is not None
                note = f"{where}: verbatim in source{n}" + (
                    "" if aligned else " (only inside a longer word: the summary splits a word around its bracket)"
                )
                add(records, qid, "real_verbatim", MATCH, quote, cited, note)
                kind_of_real = MATCH
            elif fold(quote) in fold(cited):
                how = _folding_steps(quote, cited)
                add(records, qid, "real_normalised", MATCH, quote, cited, f"{where}: contained after {how}")
                kind_of_real = MATCH
            else:
                elsewhere = [k for k, s in sources.items() if k != n and s and fold(quote) in fold(s)]
                if elsewhere:
                    note = f"{where}: not in source{n} but in source{elsewhere[0]} (miscited)"
                    add(records, qid, "wrong_source", NO_MATCH, quote, cited, note)
                    continue
                label, why = judge_not_contained(quote, cited, known)
                if title and fold(quote).strip(" :") in fold(title) and label == NO_MATCH:
                    why = f"quote comes from the passage title {title!r}, not from the passage text"
                add(records, qid, "real_not_contained", label, quote, cited, f"{where}: {why} -> {label}")
                kind_of_real = label
            if kind_of_real != MATCH:
                continue
            # a constructed negative: the same human quote against another passage of the item
            others = [k for k, s in sorted(sources.items()) if k != n and s]
            if others:
                k = _rng(seed, "quotesum", qid, n, quote).choice(others)
                if alnum_key(quote) not in alnum_key(sources[k]):
                    note = f"{where}; checked against source{k} ({row.get(f'title{k}')!r}) instead"
                    add(wrong, qid, "wrong_source", NO_MATCH, quote, sources[k], note + " -> no_match")
    rng = _rng(seed, "quotesum", "wrong_source")
    keep = sorted(rng.sample(range(len(wrong)), min(QUOTESUM_WRONG_SOURCE, len(wrong))))
    return records + [wrong[i] for i in keep]


# ----------------------------------------------------------------------------------------------------
# PDF extraction through the project pipeline (two worker processes)


@dataclass(frozen=True, slots=True)
class DocTask:
    name: str
    path: str
    source: str
    max_pages: int | None


def _first_pages(path: str, count: int) -> bytes:
    """The first ``count`` pages as a new PDF in memory (nothing is written to disk)."""
    import pypdfium2 as pdfium

    src = pdfium.PdfDocument(path)
    out = pdfium.PdfDocument.new()
    try:
        out.import_pages(src, list(range(min(count, len(src)))))
        buffer = io.BytesIO()
        out.save(buffer)
        return buffer.getvalue()
    finally:
        out.close()
        src.close()


def extract_chunks(task: DocTask) -> tuple[str, list[str], str | None]:
    """Worker: chunk texts of one PDF via ``citeline.ingest.pipeline`` (name, chunks, error or None)."""
    from citeline.ingest.extract import SourceFile
    from citeline.ingest.pipeline import PipelineSettings, process_file, process_source

    try:
        if task.max_pages:
            data = _first_pages(task.path, task.max_pages)
            source = SourceFile(task.path, data, hashlib.sha256(data).hexdigest(), "pdf")
            doc = process_source(source, task.name, PipelineSettings())
        else:
            doc = process_file(task.path, uri=task.name, settings=PipelineSettings())
    except Exception as exc:  # a broken file is reported and skipped, never fatal
        return task.name, [], f"{type(exc).__name__}: {exc}"
    return task.name, [c.text for c in doc.chunks], None


def load_docs(tasks: Sequence[DocTask], workers: int = 2) -> list[Doc]:
    if not tasks:
        return []
    if workers > 1 and len(tasks) > 1:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            results = list(pool.map(extract_chunks, tasks))
    else:
        results = [extract_chunks(t) for t in tasks]
    by_name = {name: (chunks, error) for name, chunks, error in results}
    docs = []
    for task in tasks:
        chunks, error = by_name[task.name]
        if error or not chunks:
            print(f"note: skipped {task.name}: {error or 'no text'}", file=sys.stderr)
            continue
        doc = Doc(task.name, task.source, chunks)
        prepare(doc)
        docs.append(doc)
    return docs


# ----------------------------------------------------------------------------------------------------
# Build, limit, load


def _limit(records: list[Record], limit: int | None) -> list[Record]:
    """At most ``limit`` records per source, taken round-robin over kinds (order kept)."""
    if limit is None:
        return records
    kept: set[int] = set()
    by_source: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for i, r in enumerate(records):
        by_source[r["source"]][r["kind"]].append(i)
    for kinds in by_source.values():
        queues = [list(v) for _, v in sorted(kinds.items())]
        taken = 0
        while taken < limit and any(queues):
            for q in queues:
                if q and taken < limit:
                    kept.add(q.pop(0))
                    taken += 1
    return [r for i, r in enumerate(records) if i in kept]


def build(seed: int = 13, limit_per_source: int | None = None, *, workers: int = 2) -> list[dict[str, str]]:
    """The whole calibration set in memory, deterministic for ``seed``."""
    records: list[Record] = []
    quotesum = CITATIONS / QUOTESUM_FILE
    if quotesum.exists():
        records += quotesum_records(quotesum, seed)
    else:
        print(f"note: {quotesum} not found: QuoteSum pairs skipped", file=sys.stderr)

    tasks: list[DocTask] = []
    if CORPUS.is_dir():
        for name, pages in CORPUS_DOCS:
            if (CORPUS / name).exists():
                tasks.append(DocTask(name, str(CORPUS / name), "corpus", pages))
            else:
                print(f"note: {CORPUS / name} missing: skipped", file=sys.stderr)
    else:
        print(
            f"note: real corpus not found at {CORPUS} (set CITELINE_CORPUS or place ../shared/corpus): "
            "corpus pairs skipped",
            file=sys.stderr,
        )
    fixtures = [DocTask(name, str(FIXTURE_PDFS / name), "fixture", None) for name in FIXTURE_DOCS]
    docs = load_docs([*tasks, *fixtures], workers=workers)
    for source in ("corpus", "fixture"):
        records += synthetic_records([d for d in docs if d.source == source], seed)
    return _limit(records, limit_per_source)


def write_jsonl(records: Iterable[Record], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def read_jsonl(path: Path) -> list[Record]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def load_or_build(path: str | os.PathLike[str] | None = None, *, seed: int = 13) -> list[dict[str, str]]:
    """The set at ``path`` (default: benchmarks/results/calibration.jsonl); built and written there
    first when the file does not exist."""
    target = Path(path) if path is not None else DEFAULT_OUT
    if target.exists():
        return read_jsonl(target)
    records = build(seed)
    write_jsonl(records, target)
    return records


def summary(records: Sequence[Record]) -> str:
    """A source x kind table of match / no_match counts."""
    counts: Counter[tuple[str, str, str]] = Counter((r["source"], r["kind"], r["label"]) for r in records)
    order = {k.name: i for i, k in enumerate(KINDS)}
    rows = sorted({(s, k) for s, k, _ in counts}, key=lambda sk: (sk[0], order.get(sk[1], 99)))
    lines = [f"{'source':<9} {'kind':<22} {'match':>6} {'no_match':>8}", "-" * 48]
    for s, k in rows:
        lines.append(f"{s:<9} {k:<22} {counts[(s, k, MATCH)]:>6} {counts[(s, k, NO_MATCH)]:>8}")
    lines.append("-" * 48)
    for s in sorted({s for s, _ in rows}):
        m = sum(v for (src, _, lab), v in counts.items() if src == s and lab == MATCH)
        n = sum(v for (src, _, lab), v in counts.items() if src == s and lab == NO_MATCH)
        lines.append(f"{s:<9} {'(all)':<22} {m:>6} {n:>8}")
    total_m = sum(v for (_, _, lab), v in counts.items() if lab == MATCH)
    lines.append(f"{'total':<9} {'':<22} {total_m:>6} {len(records) - total_m:>8}")
    by_kind = Counter(r["kind"] for r in records)
    thin = [k for k in SYNTHETIC_KINDS if by_kind[k] < 15]
    if thin:
        lines.append(f"kinds with fewer than 15 pairs: {', '.join(thin)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"JSON Lines output (default {DEFAULT_OUT})")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--limit-per-source", type=int, default=None, metavar="N")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    records = build(args.seed, args.limit_per_source)
    write_jsonl(records, args.out)
    print(summary(records))
    print(f"wrote {len(records)} pairs to {args.out} in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
