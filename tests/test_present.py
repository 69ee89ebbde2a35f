"""How citations look: one table for the HTML report, ``serve`` and the terminal."""

from __future__ import annotations

import pytest

from citeline.present.styles import style
from citeline.present.text import colour
from citeline.verify.report import CitationResult, Flag, Status


def result(status: Status, flags: tuple[Flag, ...] = ()) -> CitationResult:
    c = CitationResult("S1", "ck_x", status, "a quoted passage of the handbook", flags=list(flags))
    c.judge(frozenset({"numeric_mismatch", "negation_mismatch", "missing_terms", "stale_gone"}))
    return c


@pytest.mark.parametrize(
    ("status", "flags", "css", "terminal"),
    [
        ("verified", (), "ok", "green"),
        ("verified_fuzzy", (), "fuzzy", "green"),
        ("verified", ("stale_version",), "ok", "green"),  # a flag that does not fail it
        # failed: red, whatever the reason (these were amber before, though they failed)
        ("verified", ("numeric_mismatch",), "fail", "red"),
        ("verified_fuzzy", ("negation_mismatch",), "fail", "red"),
        ("quote_altered", ("numeric_mismatch",), "fail", "red"),
        ("misattributed", (), "fail", "red"),
        ("quote_not_found", (), "fail", "red"),
        ("fabricated_marker", (), "fail", "red"),
        ("unknown_chunk", (), "fail", "red"),
        # nothing to check: amber
        ("no_quote", (), "warn", "yellow"),
        ("too_short", (), "warn", "yellow"),
    ],
)
def test_each_status_has_one_look(status: Status, flags: tuple[Flag, ...], css: str, terminal: str) -> None:
    c = result(status, flags)
    assert style(c).css == css
    assert colour(c) == terminal
