"""Printing helpers for the command line: tables, CSV, JSON lines, progress."""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any, TextIO

import click

from citeline.text.names import escape_name


def jsonable(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    return value


def dumps(value: Any, *, indent: int | None = 2) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent, default=jsonable)


def table(columns: Sequence[str], rows: Iterable[Sequence[Any]], *, max_width: int = 60) -> str:
    """A plain aligned text table (cells are cut to ``max_width`` characters, newlines shown as ⏎)."""

    body = [[_cell(v, max_width) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in body]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines.extend("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in body)
    return "\n".join(lines)


def stream_table(
    columns: Sequence[str], rows: Iterable[Sequence[Any]], out: TextIO, *, sample: int = 1000, max_width: int = 60
) -> int:
    """An aligned text table written as the rows come: column widths from the first ``sample``
    rows (later cells pad to them, or run past); returns the number of rows."""
    it = iter(rows)
    first: list[Sequence[Any]] = []
    for row in it:
        first.append(row)
        if len(first) >= sample:
            break
    head = table(columns, first, max_width=max_width)
    out.write(head + "\n")
    widths = [len(d) for d in head.splitlines()[1].split("  ")]
    n = len(first)
    for row in it:
        cells = [_cell(v, max_width) for v in row]
        out.write("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip() + "\n")
        n += 1
    return n


def stream_json(columns: Sequence[str], rows: Iterable[Sequence[Any]], out: TextIO) -> int:
    """A JSON array of objects written as the rows come; returns the number of rows."""
    n = 0
    out.write("[")
    for row in rows:
        out.write(",\n  " if n else "\n  ")
        out.write(json.dumps(dict(zip(columns, row, strict=True)), ensure_ascii=False, default=jsonable))
        n += 1
    out.write("\n]\n" if n else "]\n")
    return n


def stream_jsonl(columns: Sequence[str], rows: Iterable[Sequence[Any]], out: TextIO) -> int:
    """One JSON object per row and line, written as the rows come; returns the number of rows."""
    n = 0
    for row in rows:
        out.write(json.dumps(dict(zip(columns, row, strict=True)), ensure_ascii=False, default=jsonable) + "\n")
        n += 1
    return n


def _cell(v: Any, max_width: int) -> str:
    s = "" if v is None else str(jsonable(v))
    s = s.replace("\n", "⏎").replace("\f", "␌")
    if not s.isprintable():  # an escape sequence in a stored name must not reach the terminal raw
        s = printable(s)
    return s if len(s) <= max_width else s[: max_width - 1] + "…"


def write_csv(columns: Sequence[str], rows: Iterable[Sequence[Any]], out: TextIO) -> None:
    """CSV with a header row and ``\n`` line ends (so ``tail``, ``cut`` and ``$(...)`` see no stray
    ``\r``); fields holding newlines are quoted."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([jsonable(v) for v in row])


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buf = io.StringIO()
    write_csv(columns, rows, buf)
    return buf.getvalue()


def printable(text: str) -> str:
    """``text`` safe for one log line: bytes of a file name that are not UTF-8 as ``%XX``
    (:func:`citeline.text.names.escape_name`), control and format characters (a newline in a file
    name, an escape sequence, a bidi override) written as escapes; letters of any script kept."""
    if text.isprintable():
        return text
    text = escape_name(text)
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


class Progress:
    """Files/pages per second on a terminal (one updating line on stderr), plain log lines otherwise."""

    def __init__(self, total: int, *, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.total = total
        self.quiet = quiet
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.started = time.perf_counter()
        self.pages = 0

    def update(self, *, done: int, status: str, path: str, pages: int, message: str | None) -> None:
        if self.quiet:
            return
        self.pages += pages
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        if self.tty:
            width = 24
            filled = int(width * done / max(self.total, 1))
            bar = "#" * filled + "-" * (width - filled)
            line = (
                f"\r[{bar}] {done}/{self.total} files  {done / elapsed:5.1f} files/s  "
                f"{self.pages / elapsed:6.1f} pages/s  {printable(path)[-40:]}"
            )
            click.echo(line.ljust(120)[:140], nl=False, err=True)
            if done == self.total:
                click.echo("", err=True)
            if status == "failed" and message:
                click.echo(f"\r{'failed':8} {printable(message)}".ljust(120), err=True)
        else:
            detail = f"  ({pages} pages)" if pages else ""
            note = f"  {message}" if message and status != "skipped" else ""
            click.echo(printable(f"{status:8} {path}{detail}{note}"), err=True)
