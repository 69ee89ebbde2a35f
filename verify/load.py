"""Reading an answer document from a file, bytes or a dict: its size, its JSON, and what JSON allows
but an answer cannot hold (lone surrogates, deep nesting, numbers of thousands of digits)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, BinaryIO

from citeline.verify.errors import InputError

#: Answers larger than this are refused (an answer is a few KB; 5 MB is a mistake, not an answer).
MAX_ANSWER_BYTES = 5 * 1024 * 1024


def load_answer(source: str | bytes | Path | dict[str, Any], *, name: str = "answer") -> dict[str, Any]:
    """Read and size-check an answer document; ``name`` is used in error messages."""
    if isinstance(source, dict):
        _checked(source, name)
        return source
    if isinstance(source, Path):
        name = str(source)
        try:
            size = source.stat().st_size  # a regular file's size is known before reading it
            if size > MAX_ANSWER_BYTES:
                raise InputError(_too_large(name, size))
            with source.open("rb") as stream:  # a device or a pipe: read with the same bound
                source = read_bounded(stream, name)
        except OSError as exc:
            raise InputError(f"{name}: cannot read ({exc.strerror or exc})") from None
    if len(source) > MAX_ANSWER_BYTES:
        raise InputError(_too_large(name, len(source)))
    try:
        data = json.loads(source, parse_int=_parse_int)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = f" at line {exc.lineno} column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise InputError(f"{name}: not valid JSON{where} ({getattr(exc, 'msg', exc)})") from None
    except _NumberTooLong as exc:
        raise InputError(f"{name}: a number of {exc.digits:,} digits (at most {MAX_INT_DIGITS})") from None
    except RecursionError:
        raise InputError(f"{name}: nested more than {MAX_DEPTH} levels deep") from None
    if not isinstance(data, dict):
        raise InputError(f"{name}: expected a JSON object, got {type(data).__name__}")
    _checked(data, name)
    return data


def read_bounded(stream: BinaryIO, name: str = "answer") -> bytes:
    """At most :data:`MAX_ANSWER_BYTES` from ``stream`` (a file, a pipe, stdin, ``/dev/zero``): one
    byte more than the limit is read to tell, never the whole of an endless stream."""
    data = stream.read(MAX_ANSWER_BYTES + 1)
    if len(data) > MAX_ANSWER_BYTES:
        raise InputError(_too_large(name, None))
    return data


def _too_large(name: str, size: int | None) -> str:
    """``size`` None: a stream, known only to hold more than the limit."""
    limit = f"{MAX_ANSWER_BYTES / 1e6:.0f} MB"
    if size is None:
        return f"{name}: more than {limit}, above the limit for an answer"
    return f"{name}: {size / 1e6:.1f} MB, above the {limit} limit for an answer"


def no_nulls(data: dict[str, Any], keys: tuple[str, ...], name: str, where: str = "") -> None:
    """``null`` is not "absent": the schema allows neither, and a null quote silently turning a
    citation into a marker-only one hides a bug in the caller."""
    for key in keys:
        if key in data and data[key] is None:
            raise InputError(f"{name}: {where}{key} is null (leave the key out instead)")


def _checked(data: Any, name: str) -> None:
    """Refuse what JSON allows but text cannot be: lone surrogates (``"\\ud800"``), and nesting
    deeper than :data:`MAX_DEPTH`. Iterative, so no input can exhaust the stack here."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InputError(f"{name}: nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, str):
            bad = _SURROGATE.search(value)
            if bad:
                raise InputError(
                    f"{name}: a string holds a lone surrogate (U+{ord(bad.group()):04X}), which is not text"
                )
        elif isinstance(value, dict):
            stack.extend((k, depth + 1) for k in value)
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


_SURROGATE = re.compile("[\ud800-\udfff]")
#: Deepest nesting an answer may have (real answers: 5 or 6).
MAX_DEPTH = 64
#: Longest integer literal an answer may hold (page numbers and indexes: a few digits).
MAX_INT_DIGITS = 18


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _NumberTooLong(len(text.lstrip("-")))
    return int(text)


class _NumberTooLong(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def type_error(name: str, key: str, expected: str, value: Any) -> InputError:
    return InputError(f"{name}: {key!r} must be {expected}, got {type(value).__name__}")
