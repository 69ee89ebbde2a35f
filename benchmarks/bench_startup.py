"""Start-up of the command line: ``citeline sql "select 1"`` (and the other read commands) against
``python -c "import sqlalchemy"``, each run as a new process, interleaved, medians of the rounds.

A read command should cost little more than SQLAlchemy itself: alembic, dask, the extractors and the
matcher are imported only by the commands that use them."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import FIXTURES, section

ROUNDS = int(os.environ.get("CITELINE_BENCH_ROUNDS", "5"))


def _seconds(argv: list[str], cwd: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def run() -> dict[str, Any]:
    with section("start-up"), tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "docs").mkdir()
        shutil.copy(FIXTURES / "policy_handbook.pdf", folder / "docs")
        db = f"sqlite:///{folder / 'c.db'}"
        cli = [sys.executable, "-m", "citeline.cli"]
        subprocess.run([*cli, "--db", db, "ingest", "docs", "-q", "--workers", "1"], cwd=folder, check=True)
        commands = {
            "python -c 'import sqlalchemy'": [sys.executable, "-c", "import sqlalchemy"],
            "python -c 'pass'": [sys.executable, "-c", "pass"],
            "citeline sql 'select 1'": [*cli, "--db", db, "sql", "select 1"],
            "citeline show DOC": [*cli, "--db", db, "show", "policy_handbook.pdf"],
            "citeline chunks --limit 1": [*cli, "--db", db, "chunks", "--limit", "1"],
        }
        for argv in commands.values():  # warm the page cache and the bytecode
            _seconds(argv, folder)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(ROUNDS):
            for name, argv in commands.items():
                times[name].append(_seconds(argv, folder))
    medians = {name: round(statistics.median(ts), 4) for name, ts in times.items()}
    base = medians["python -c 'import sqlalchemy'"]
    ratios = {name: round(v / base, 2) for name, v in medians.items() if name.startswith("citeline")}
    return {
        "rounds_run": ROUNDS,
        "seconds_median": medians,
        "seconds_rounds": {name: [round(t, 4) for t in ts] for name, ts in times.items()},
        "ratio_to_import_sqlalchemy": ratios,
    }
