"""MkDocs hook: the benchmarks page's tables, generated at build time.

Every ``benchmarks/results/summary/<name>.json`` (written by ``python -m benchmarks NAME``, see
``benchmarks/common.py``'s ``write_summary``) becomes one table of current figures, put where the
page says ``<!-- benchmark-tables -->``. A summary that cannot be read stops the build with one line
naming the file and the reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: Where the summaries live, from the folder holding mkdocs.yml.
SUMMARIES = Path("benchmarks") / "results" / "summary"
#: The marker the page holds where the tables go.
MARKER = "<!-- benchmark-tables -->"
#: The order of the page; a summary not named here follows, by name.
ORDER = [
    "extract",
    "fidelity",
    "transforms",
    "ingest",
    "peers",
    "scale",
    "ocr",
    "verify",
    "report",
    "search",
    "startup",
    "calibration",
]


class SummaryError(Exception):
    """A summary file that cannot be turned into a table."""


def _cell(value: Any) -> str:
    if value is None:
        text = "n/a"
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, float):
        text = f"{value:g}"
    else:
        text = str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def load(path: Path) -> dict[str, Any]:
    """One summary, checked: a ``figures`` list of objects with a ``name`` and a ``value``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SummaryError(f"{path}: not a readable JSON summary ({exc})") from None
    figures = data.get("figures") if isinstance(data, dict) else None
    if not isinstance(figures, list) or not all(isinstance(f, dict) and "name" in f and "value" in f for f in figures):
        raise SummaryError(f"{path}: 'figures' must be a list of objects with 'name' and 'value'")
    return data


def table(name: str, data: dict[str, Any]) -> str:
    """The Markdown of one benchmark: a heading, where the figures come from, then what | figure | target."""
    machine = data.get("machine") or {}
    when = f"measured {machine['date']}" if machine.get("date") else "date not recorded"
    where = f"{machine['cpus']} CPUs" if machine.get("cpus") else "this project's machine"
    python = f", Python {machine['python']}" if machine.get("python") else ""
    lines = [
        f"### {data.get('title', name)}",
        "",
        f"`python -m benchmarks {name}` · {when}, {where}{python} · source: {data.get('source', 'unknown')}",
        "",
    ]
    figures = data["figures"]
    if not figures:
        return "\n".join([*lines, "No figures yet.", ""])
    with_target = any("target" in f for f in figures)
    lines += ["| what | figure | target |" if with_target else "| what | figure |"]
    lines += ["|---|---|---|" if with_target else "|---|---|"]
    # the figures held against a target first, then those described, then the rest (in the run's order)
    for f in sorted(figures, key=lambda f: ("target" not in f, "label" not in f)):
        aside = "; ".join(_cell(f[k]) for k in ("note", "measured") if k in f)
        figure = _cell(f["value"]) + (f" ({aside})" if aside else "")
        row = [_cell(f.get("label", f["name"])), figure]
        if with_target:
            row.append(_cell(f.get("target", "")))
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join([*lines, ""])


def render(folder: Path) -> str:
    """Every summary in ``folder`` as tables, in :data:`ORDER`."""
    paths = {p.stem: p for p in sorted(folder.glob("*.json"))} if folder.is_dir() else {}
    if not paths:
        raise SummaryError(f"{folder}: no benchmark summaries (run python -m benchmarks)")
    names = [n for n in ORDER if n in paths] + sorted(set(paths) - set(ORDER))
    return "\n".join(table(n, load(paths[n])) for n in names)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARKER not in markdown:
        return markdown
    from mkdocs.exceptions import PluginError

    root = Path(config["config_file_path"]).resolve().parent
    try:
        return markdown.replace(MARKER, render(root / SUMMARIES))
    except SummaryError as exc:
        raise PluginError(f"benchmarks page: {exc}") from None
