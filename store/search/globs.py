"""A ``--document`` shell glob in each database's own syntax: SQLite's ``GLOB``, PostgreSQL's ``~``."""

from __future__ import annotations


def _glob_parts(pattern: str) -> list[tuple[str, str]]:
    """A shell glob as ``(kind, text)`` parts: ``any`` (``*``), ``one`` (``?``), ``class`` (the
    inside of ``[...]``, ``!`` or ``^`` first for "not"), ``char``; a ``[`` without its ``]`` is a
    character."""
    parts: list[tuple[str, str]] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "^") else i + 1)
            if pattern[i + 1 : i + 2] in ("!", "^") and pattern[i + 2 : i + 3] == "]":
                end = pattern.find("]", i + 3)
            elif pattern[i + 1 : i + 2] == "]":
                end = pattern.find("]", i + 2)
            if end > i:
                parts.append(("class", pattern[i + 1 : end]))
                i = end + 1
                continue
        parts.append(("any", "") if ch == "*" else ("one", "") if ch == "?" else ("char", ch))
        i += 1
    return parts


def glob_to_sqlite(pattern: str) -> str:
    """A shell glob in SQLite's ``GLOB`` syntax, whose "not" in a class is ``^`` (``[!a-z]`` is a
    class of ``!`` and a to z there)."""
    out = []
    for kind, text in _glob_parts(pattern):
        if kind == "class":
            out.append("[" + ("^" + text[1:] if text[:1] in ("!", "^") else text) + "]")
        elif kind == "char" and text in "*?[":
            out.append("[" + text + "]")
        else:
            out.append({"any": "*", "one": "?"}.get(kind, text))
    return "".join(out)


def glob_to_regex(pattern: str) -> str:
    """A shell glob as an anchored PostgreSQL regular expression (``~``): the same matches as
    :func:`glob_to_sqlite` gives SQLite's ``GLOB``."""
    out = ["^"]
    for kind, text in _glob_parts(pattern):
        if kind == "any":
            out.append(".*")
        elif kind == "one":
            out.append(".")
        elif kind == "class":
            negated = text[:1] in ("!", "^")
            body = "".join("\\" + c if c in "\\[" else c for c in (text[1:] if negated else text))
            out.append("[" + ("^" if negated else "") + body + "]")
        else:
            out.append(text if text.isalnum() else "\\" + text)
    return "".join(out) + "$"
