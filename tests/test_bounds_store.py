"""Two processes creating one new SQLite store at once (issue 33, item 8): before, one failed with
"table contexts already exists"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_two_ingests_into_a_new_sqlite_file_both_succeed(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "grüße.txt").write_text("Grüße aus Zürich: zwei Läufe, eine Datei.\n", encoding="utf-8")
    for attempt in range(3):
        url = f"sqlite:///{tmp_path / f'new{attempt}.db'}"
        command = [sys.executable, "-m", "citeline.cli", "--db", url, "ingest", str(docs), "-q"]
        env = {**os.environ, "PYTHONUTF8": "1"}
        runs = [subprocess.Popen(command, stderr=subprocess.PIPE, env=env) for _ in range(2)]
        errors = [p.communicate(timeout=120)[1].decode() for p in runs]
        assert [p.returncode for p in runs] == [0, 0], errors
        assert not any("already exists" in e for e in errors), errors
