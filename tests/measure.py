"""Running a command as a user would, and measuring it: exit status, output, its own peak memory
and its wall time."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

#: Runs a command and writes its peak resident memory (KiB) to the file named first. A process's
#: peak counts the memory of the process it was forked from (Linux carries it over exec), so the
#: command is started from this small launcher, not from the test process, which holds hundreds of
#: megabytes under pytest-xdist.
PEAK_OF = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
open(sys.argv[1], "w").write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


@dataclass(frozen=True)
class Measured:
    code: int
    stdout: str
    stderr: str
    peak_mb: float
    seconds: float


def citeline(*args: str, stdin: bytes | None = None, timeout: float = 120) -> Measured:
    """``python -m citeline.cli ARGS`` in a process of its own, measured."""
    with tempfile.TemporaryDirectory() as tmp:
        peak = Path(tmp) / "peak"
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", PEAK_OF, str(peak), sys.executable, "-m", "citeline.cli", *args],
            input=stdin,
            capture_output=True,
            timeout=timeout,
            env={**os.environ, "PYTHONUTF8": "1"},
            check=False,
        )
        seconds = time.perf_counter() - t0
        return Measured(
            done.returncode,
            done.stdout.decode("utf-8", "replace"),
            done.stderr.decode("utf-8", "replace"),
            int(peak.read_text()) / 1024,
            seconds,
        )
