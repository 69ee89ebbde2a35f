"""A check of a rank the claim gives one of the things the quote counts: "A/B testing is the most
widely used protocol" beside "Likert-scale (24 papers), A/B testing (13 papers), binary per-sentence
labels (4 papers)" ranks first what the quote counts second."""

from __future__ import annotations

import re
from decimal import Decimal

from citeline.verify.checks import Check, Evidence
from citeline.verify.negation import WORD

#: A count in one item of a list: its first number (digits, a decimal mark or thousands mark inside).
_COUNT = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w.,]*\d)")
#: Items of a list are set apart by commas, semicolons or a line's end.
_ITEM = re.compile(r"[,;\n]")
#: A list of things counted has at least this many items.
RANKED_ITEMS = 3
#: Words other than a language's determiners a ranking word stands after (German "am häufigsten").
RANK_OPENERS = frozenset({"am"})
#: How many words of an item's name the claim says for the item to be the one it ranks.
NAME_WORDS = 1


def _items(text: str) -> list[tuple[str, set[str], Decimal]]:
    """The items of ``text`` that hold one count each: the item, the words of its name and the count."""
    out = []
    for piece in _ITEM.split(text):
        counts = _COUNT.findall(piece)
        if len(counts) != 1:
            continue
        try:
            value = Decimal(counts[0].replace(",", ""))
        except ArithmeticError:
            continue
        name = {w.lower() for w in WORD.findall(piece) if len(w) >= 2}
        if name:
            out.append((piece.strip(), name, value))
    return out


def rank_among(e: Evidence) -> str | None:
    """The claim's own words rank one item of a list the quote counts first ("the most widely used",
    "the largest") or last ("the fewest"), and the quote counts another item more (or fewer). The
    item is the one whose name's words the claim says before the ranking word and no other item's;
    a list is :data:`RANKED_ITEMS` items or more, each with one count."""
    if not e.cit.claim or not e.cit.quote or e.answer.code != e.doc.code:
        return None
    lang = e.answer
    if not lang.rank_top and not lang.rank_bottom:
        return None
    items = _items(e.chunk.text[e.start : e.end])
    if len(items) < RANKED_ITEMS:
        return None
    words = [w.lower() for w in WORD.findall(e.stated)]
    ranking = lang.rank_top | lang.rank_bottom
    # a ranking word after a determiner ("the most widely used", "die häufigste", "am häufigsten"):
    # "in most settings" ranks nothing
    at = next(
        (k for k, w in enumerate(words) if w in ranking and k and words[k - 1] in lang.determiners | RANK_OPENERS),
        None,
    )
    if at is None or any(lang.denies(w) for w in words[:at]):
        return None
    top = words[at] in lang.rank_top
    subject = set(words[:at])
    common = set.intersection(*(name for _, name, _ in items))  # (what every item counts: "papers")
    named = [
        n for n, (_, name, _) in enumerate(items) if len((name - common - lang.function_words) & subject) >= NAME_WORDS
    ]
    if len(named) != 1:
        return None
    item, _, value = items[named[0]]
    best = max(v for _, _, v in items) if top else min(v for _, _, v in items)
    if value == best:
        return None
    return f"the claim ranks {item!r} {words[at]}, the quote's list counts {best} for another"


CHECKS = (
    Check(
        "rank_among",
        "numeric_mismatch",
        frozenset({"en", "de"}),
        rank_among,
        "an item the claim ranks first ('the most widely used') or last is the one the quote's list counts most "
        "(or fewest)",
    ),
)
