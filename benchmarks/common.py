"""Shared helpers for the benchmarks: the corpus, timing, memory, results."""

from __future__ import annotations

import csv
import json
import os
import platform
import resource
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
CORPUS = Path(os.environ.get("CITELINE_CORPUS", ROOT.parent / "shared" / "corpus"))
FIXTURES = ROOT / "fixtures" / "pdf"

T = TypeVar("T")

#: MANIFEST primary kinds that are not text-layer PDFs.
NOT_TEXT_LAYER = {"broken", "encrypted", "scanned"}


def text_layer_pdfs() -> list[tuple[Path, int]]:
    """The corpus PDFs with a text layer, with their page counts (from MANIFEST.tsv)."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        raise SystemExit(f"benchmarks need the real corpus at {CORPUS} (set CITELINE_CORPUS)")
    out = []
    with manifest.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row["primary_kind"] in NOT_TEXT_LAYER or "vertical-text" in row["kind_tags"]:
                continue
            out.append((CORPUS / row["file"], int(row["pages"] or 1)))
    return out


def linked_corpus(folder: Path, files: list[tuple[Path, int]]) -> Path:
    """``folder`` (made here) holding a symlink to each of ``files``: the corpus as one ingest root."""
    folder.mkdir()
    for path, _ in files:
        os.symlink(path, folder / path.name)
    return folder


def primary_kinds() -> dict[str, str]:
    """Each corpus file's primary kind (MANIFEST.tsv): ``tables``, ``two-column``, ``scanned``..."""
    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8") as fh:
        return {row["file"]: row["primary_kind"] for row in csv.DictReader(fh, delimiter="\t")}


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def best_of(n: int, fn: Callable[[], Any]) -> float:
    """Median of ``n`` timings (seconds)."""
    return statistics.median(timed(fn)[0] for _ in range(n))


def peak_rss_mb(children: bool = False) -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF)
    return usage.ru_maxrss / 1024  # Linux reports KiB


@contextmanager
def section(name: str) -> Iterator[None]:
    print(f"== {name}", flush=True)
    t0 = time.perf_counter()
    yield
    print(f"   done in {time.perf_counter() - t0:.1f} s", flush=True)


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "date": time.strftime("%Y-%m-%d"),
    }


def save(name: str, data: dict[str, Any]) -> Path:
    """Write ``results/<name>.json`` (every figure) and ``results/summary/<name>.json`` (the figures
    the manual's benchmarks page shows, see :func:`write_summary`)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps({"machine": machine(), **data}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    write_summary(name, data)
    return path


#: Where the per-benchmark summaries live; committed, unlike the rest of ``results/``. The docs hook
#: (``docs/hooks/benchmarks.py``) turns each into one table of the manual's benchmarks page.
SUMMARIES = RESULTS / "summary"
#: Keys whose values are per-file detail, examples or raw round timings: the full results keep them,
#: the summary does not.
SUMMARY_SKIP = {"machine", "per_file", "missed", "rounds", "seconds_rounds", "errors", "fixtures", "scans", "plot"}
#: How deep nested figures are read (``overall.citeline pdfium.share`` is three keys deep).
SUMMARY_DEPTH = 3


def flatten_figures(data: dict[str, Any], prefix: str = "", depth: int = 1) -> dict[str, Any]:
    """The scalar figures of a benchmark's result, keys joined with ``.`` (``ratios.2 workers / 1
    worker``); lists and anything deeper than :data:`SUMMARY_DEPTH` stay in the full results."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in SUMMARY_SKIP:
            continue
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            if depth < SUMMARY_DEPTH:
                out.update(flatten_figures(value, f"{name}.", depth + 1))
        elif isinstance(value, bool | int | float | str) or value is None:
            out[name] = value
    return out


def write_summary(name: str, data: dict[str, Any], folder: Path | None = None) -> Path:
    """Replace ``summary/<name>.json`` with this run's figures: a figure is replaced when it is measured
    again. A figure's ``label`` and ``target`` in the summary it replaces are kept (they are written by
    hand: the run knows its keys, not what they are held against); its ``note`` and ``measured`` are
    not (they speak of the figure replaced)."""
    folder = folder or SUMMARIES
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    before: dict[str, dict[str, Any]] = {}
    title = name
    if path.exists():
        old = json.loads(path.read_text(encoding="utf-8"))
        title = old.get("title", name)
        before = {f["name"]: f for f in old.get("figures", [])}
    figures = []
    for key, value in flatten_figures(data).items():
        row: dict[str, Any] = {"name": key, "value": value}
        for kept in ("label", "target"):
            if kept in before.get(key, {}):
                row[kept] = before[key][kept]
        figures.append(row)
    summary = {
        "benchmark": name,
        "title": title,
        "source": f"python -m benchmarks {name}",
        "machine": machine(),
        "figures": figures,
    }
    path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


#: the prefix of every schema a benchmark makes on PostgreSQL
BENCH_SCHEMA_PREFIX = "bench_"


def _schema_lock(schema: str) -> str:
    # the advisory lock a running benchmark holds on its schema, named by the schema's own name
    return f"SELECT {{}}(hashtext('{schema}'))"


def drop_stale_bench_schemas(admin: Any) -> list[str]:
    """Drop the ``bench_*`` schemas no running benchmark holds (a run killed before its ``finally``
    leaves its schema behind: 100,000 chunks and their indexes). A schema whose advisory lock a
    live run holds (:func:`bench_schema`) is kept, and so is one whose tables another session has
    locked (a ``DROP`` waits at most 2 s for them); what was dropped is returned."""
    from sqlalchemy import text

    dropped = []
    with admin.connect() as conn:
        conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        names = conn.execute(
            text("SELECT nspname FROM pg_namespace WHERE starts_with(nspname, :prefix) ORDER BY nspname"),
            {"prefix": BENCH_SCHEMA_PREFIX},
        ).scalars()
        for schema in list(names):
            if not conn.execute(text(_schema_lock(schema).format("pg_try_advisory_lock"))).scalar():
                continue  # a live run holds it
            try:
                conn.execute(text("SET lock_timeout = '2s'"))
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
                dropped.append(schema)
            except Exception:  # in use: its tables locked by another session
                pass
            finally:
                conn.execute(text("RESET lock_timeout"))
                conn.execute(text(_schema_lock(schema).format("pg_advisory_unlock")))
    return dropped


@contextmanager
def bench_schema(url: str, label: str = "") -> Iterator[str]:
    """A fresh schema of the PostgreSQL database at ``url`` for one benchmark run, yielded as the
    database URL with ``search_path`` set to it: stale ``bench_*`` schemas dropped first
    (:func:`drop_stale_bench_schemas`), the new one held by an advisory lock while the run lasts
    and dropped when it ends, failed or not."""
    import uuid

    from sqlalchemy import create_engine, text

    admin = create_engine(url)
    schema = f"{BENCH_SCHEMA_PREFIX}{label + '_' if label else ''}{uuid.uuid4().hex[:10]}"
    try:
        dropped = drop_stale_bench_schemas(admin)
        if dropped:
            print(f"   dropped stale schemas: {', '.join(dropped)}", flush=True)
        with admin.connect() as holder:
            holder = holder.execution_options(isolation_level="AUTOCOMMIT")
            holder.execute(text(_schema_lock(schema).format("pg_advisory_lock")))
            holder.execute(text(f'CREATE SCHEMA "{schema}"'))
            try:
                sep = "&" if "?" in url else "?"
                yield f"{url}{sep}options=-csearch_path%3D{schema}"
            finally:
                holder.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
                holder.execute(text(_schema_lock(schema).format("pg_advisory_unlock")))
    finally:
        admin.dispose()
