"""A quote as the answer writes it: its parts around ellipses, the writer's square brackets, its
folded form, its length in words; and whether an ellipsis between two found parts splices two
sentences into one."""

from __future__ import annotations

import functools
import re

from citeline.text.lang import Language
from citeline.text.scripts import CJK_CHARS, count_words
from citeline.text.sentences import ends_at, ends_one
from citeline.verify.fold import fold
from citeline.verify.match import Match

_WORDS = re.compile(r"[^\W_]+")
_CJK = re.compile(f"[{CJK_CHARS}]")
#: An ellipsis in a quote: the model left something out.
ELLIPSIS = re.compile(r"\s*(?:…|\.\s?\.\s?\.)\s*")
_LEADING_DOTS = re.compile(r"^[.\s…]+")
_BRACKETED = re.compile(r"\[([^\[\]]{0,80})\]")


def word_count(text: str) -> int:
    """Words of ``text``; in scripts written without spaces (Chinese, Japanese), a word for every
    two characters, as the layout counts them (a run of them is not one word)."""
    words = _WORDS.findall(text)
    if _CJK.search(text) is None:  # nearly every quote: no character to count one by one
        return len(words)
    return count_words(words)


def cjk_count(folded: str) -> int:
    """The Chinese and Japanese characters of a folded quote (each counts twice toward its length)."""
    return len(_CJK.findall(folded)) if not folded.isascii() else 0


def quote_parts(quote: str, *, writer_brackets: bool = False) -> list[str]:
    """A quote split at its ellipses (``"A … B"``, ``"A ... B"``); an ellipsis at either end only
    says the sentence goes on, and is dropped. With ``writer_brackets``, square brackets are the
    writer's marks, as quoting conventions have them (``"A [...] B"``, ``[t]he``; see
    :func:`unbracketed`): for a quote not found as written."""
    if writer_brackets:
        quote = unbracketed(quote)
    # (dots left over from a longer run, "foods. . . . . It was", are no part of a part)
    parts = [_LEADING_DOTS.sub("", p).strip() for p in ELLIPSIS.split(quote.strip())]
    parts = [p for p in parts if p]
    return parts or [quote.strip()]


def unbracketed(quote: str) -> str:
    """A quote without the writer's bracketed alterations, as legal and academic quoting marks
    them: ``[...]`` is an ellipsis, a letter or two attached to a word is the source's own
    (``[t]he``, ``employ[ee]s``: a change of case or ending), and other bracketed text is an
    insertion the source does not have (``Claims [for dental care] are``, ``[sic]``), left out."""
    if "[" not in quote:
        return quote
    return re.sub(r"[ \t]{2,}", " ", _BRACKETED.sub(lambda m: _bracket_edit(quote, m), quote)).strip()


def _bracket_edit(quote: str, m: re.Match[str]) -> str:
    inner = m.group(1).strip()
    if ELLIPSIS.fullmatch(inner):
        return " … "
    if re.fullmatch(r"[\d\s,;–-]+", inner):
        return m.group()  # a reference marker of the source ("as shown in [12]")
    before = m.start() > 0 and quote[m.start() - 1].isalnum()
    after = m.end() < len(quote) and quote[m.end()].isalnum()
    if re.fullmatch(r"[^\W\d_]{1,2}", inner) and (before or after):
        return inner
    return " "


def insertions(quote: str) -> list[str]:
    """The bracketed insertions :func:`unbracketed` leaves out of a quote."""
    return [m.group() for m in _BRACKETED.finditer(quote) if _bracket_edit(quote, m) == " "]


@functools.lru_cache(maxsize=4096)
def folded_quote(quote: str) -> str:
    """``fold(quote).text``: one check folds its quote for every chunk it looks in, and the same
    quotes come back (a report re-rendered, a served answer re-checked)."""
    return fold(quote).text


_STOPS = ".!?。！？"


#: Marks that end a clause inside a sentence (a comma, a semicolon, a colon, in any script)
_CLAUSE_ENDS = ",;:，；：、"


def spliced(text: str, first: Match, second: Match, lang: Language) -> bool:
    """Two parts of an elided quote that an ellipsis joins across a sentence end, when the first
    does not end its sentence or the second does not start one: "Claims are not reimbursed …
    when the employee was in hospital" makes one statement of two the source keeps apart. Whole
    sentences may be elided between whole sentences. ``lang``: the text's language (its
    abbreviations end no sentence: "rate of U.S. tax is …")."""
    if not ends_one(text, first.end, second.start, lang):
        return False  # a gap inside one sentence: "Claims are … reimbursed", "rate of U.S. tax is …"
    # the first part ends its sentence, or one of its clauses: what the ellipsis leaves out of the
    # sentence is its end, as a quote of the first part alone would ("… were often a mess … In
    # summaries that …" for "a mess, and even …. In summaries that …")
    after = text[first.end : first.end + 2].lstrip()
    ends = text[first.end - 1 : first.end] in _STOPS or ends_at(text, first.end, lang) or after[:1] in _CLAUSE_ENDS
    before = text[: second.start].rstrip()
    starts = not before or before[-1] in _STOPS + ":" or text[: second.start].endswith("\n")
    return not (ends and starts)
