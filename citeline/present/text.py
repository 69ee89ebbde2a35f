"""Human-readable reports: coloured text for the terminal, and a self-contained HTML file."""

from __future__ import annotations

from typing import Any

import click

from citeline.present.styles import style
from citeline.verify.report import CitationResult, Report


def colour(c: CitationResult) -> str:
    """The citation's terminal colour (:func:`citeline.present.styles.style`)."""
    return style(c).colour


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rsplit(" ", 1)[0] + "…"


def _where(c: CitationResult) -> str:
    loc = c.location
    if loc is None:
        return ""
    pages = ",".join(map(str, loc.pages))
    return f"{loc.document_uri} v{loc.version_no}" + (f" p.{pages}" if pages else "") + f" [{loc.start}:{loc.end}]"


def render_text(report: Report, *, color: bool = False) -> str:
    """One line per citation with its status and the reason, then coverage."""
    lines = []
    for n, c in enumerate(report.citations, start=1):
        mark = "✓" if c.passed else "✗"
        head = f"{mark} {n:>2} [{c.marker}] {c.status}"
        if c.score is not None:
            head += f" ({c.score:g})"
        if c.flags:
            head += " +" + ",".join(c.flags)
        line = f"{head}  {_where(c)}  {c.reason}".rstrip()
        if c.drift:
            line += f"\n        source says: {_one_line(c.drift)}"
        if c.found_in:
            where = c.found_in.get("marker") or c.found_in.get("chunk_id")
            line += f"\n        found in {where}: {_one_line(str(c.found_in.get('text', '')))}"
        if c.stale:
            if c.stale.get("found"):
                rng, now = c.stale["range"], c.stale["current_version"]
                line += f"\n        stale: still in current version {now} at [{rng['start']}:{rng['end']}]"
            else:
                line += f"\n        stale: not found in current version {c.stale.get('current_version')}"
        lines.append(click.style(line, fg=colour(c)) if color else line)
    s = report.summary()
    lines.append("")
    lines.append(f"{s['passed']}/{s['citations']} citations passed ({s['verified']} verified); ")
    lines[-1] += f"coverage {s['coverage']:.0%} of asserting sentences cited" + report.coverage_shortfall()
    for text in (x.text for x in report.sentences if x.asserting and not x.cited):
        lines.append(f"  uncited: {text}")
    return "\n".join(lines)


def render_html(report: Report, store: Any = None) -> str:
    """A self-contained HTML report (no network): the answer with citations coloured by status and
    a side panel of citations with reasons; page images come from :mod:`citeline.present.html` when a store
    with geometry is given."""
    from citeline.present.html import build_html

    return build_html(report, store)
