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

    def cell(v: Any) -> str:
        s = "" if v is None else str(jsonable(v))
        s = s.replace("\n", "⏎").replace("\f", "␌")
        return s if len(s) <= max_width else s[: max_width - 1] + "…"

    body = [[cell(v) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in body]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines.extend("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in body)
    return "\n".join(lines)


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
                f"{self.pages / elapsed:6.1f} pages/s  {path[-40:]}"
            )
            click.echo(line.ljust(120)[:140], nl=False, err=True)
            if done == self.total:
                click.echo("", err=True)
            if status == "failed" and message:
                click.echo(f"\r{'failed':8} {message}".ljust(120), err=True)
        else:
            detail = f"  ({pages} pages)" if pages else ""
            note = f"  {message}" if message and status != "skipped" else ""
            click.echo(f"{status:8} {path}{detail}{note}", err=True)
