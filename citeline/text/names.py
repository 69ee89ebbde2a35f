"""File names in any bytes, stored as text without loss.

A POSIX file name is bytes; Python reads one that is not UTF-8 with ``surrogateescape`` (the byte
``0xFF`` becomes the lone surrogate ``U+DCFF``), which no database, JSON encoder or terminal takes.
:func:`escape_name` writes each such byte as ``%XX`` (upper-case hex, always ``80``-``FF``) and a
``%`` that would read as an escape (``%25`` or ``%`` before two hex digits ``80``-``FF``) as
``%25``; every other name, ``100%.txt`` included, is unchanged. :func:`unescape_name` reverses it
exactly, so the stored URI or path gives back the name the file system holds::

    >>> escape_name("bad\\udcff\\udcfename.txt")
    'bad%FF%FEname.txt'
    >>> unescape_name("bad%FF%FEname.txt") == "bad\\udcff\\udcfename.txt"
    True
"""

from __future__ import annotations

import re

#: what :func:`unescape_name` reads as an escape: ``%25`` or an escaped high byte
_ESCAPE = re.compile(r"%(25|[89A-Fa-f][0-9A-Fa-f])")
_SURROGATE = re.compile("[\udc80-\udcff]")
_NEEDS = re.compile("[\udc80-\udcff]|%(?=25|[89A-Fa-f][0-9A-Fa-f])")


def escape_name(name: str) -> str:
    """``name`` (maybe holding ``surrogateescape`` bytes) as plain text; see the module docstring."""
    if not _NEEDS.search(name):
        return name
    return _NEEDS.sub(lambda m: "%25" if m.group() == "%" else f"%{ord(m.group()) - 0xDC00:02X}", name)


def unescape_name(text: str) -> str:
    """The name :func:`escape_name` was given (undecodable bytes as ``surrogateescape`` again)."""
    if "%" not in text:
        return text

    def back(m: re.Match[str]) -> str:
        code = m.group(1)
        return "%" if code == "25" else chr(0xDC00 + int(code, 16))

    return _ESCAPE.sub(back, text)


def has_raw_bytes(name: str) -> bool:
    """Whether ``name`` holds bytes that are not UTF-8 (as ``surrogateescape`` surrogates)."""
    return _SURROGATE.search(name) is not None


def show_name(text: str) -> str:
    """``text`` (a message naming a file) with its undecodable bytes as ``%XX`` and nothing else
    changed: for reading, not for reading back (:func:`escape_name` is the lossless one)."""
    if not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(lambda m: f"%{ord(m.group()) - 0xDC00:02X}", text)
