"""The ``citeline`` command: a thin click layer over :mod:`citeline.ingest`, :mod:`citeline.store` and
:mod:`citeline.verify`.

Each command opens the store, calls one library function and prints; the commands live in the
``*_commands`` modules beside this one and register themselves on the group in :mod:`citeline.app`.
"""

from __future__ import annotations

import contextlib
import os
import sys

import click

from citeline import db_commands, ingest_commands, read_commands, search_commands, verify_commands
from citeline.app import cli

__all__ = [
    "cli", "db_commands", "exit_now", "ingest_commands", "main", "read_commands", "search_commands", "verify_commands",
]  # fmt: skip

#: The key of the click context object that says the command is the process (set by :func:`main`;
#: absent under click's ``CliRunner`` and when ``cli`` is called from Python).
OWN_PROCESS = "own_process"


def main() -> None:
    # unstructured and friends log to the root logger; keep the CLI's stderr for our own lines
    os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")
    cli(obj={OWN_PROCESS: True})


def exit_now(code: int = 0) -> None:
    """End the process with ``code`` at once, its output flushed: without the interpreter's
    teardown, which frees every object one by one (after an ingest: the modules of SQLAlchemy,
    pdfium and the layout engine, the outcomes, the word frequencies) and runs the exit handlers.
    Only a command whose work is committed and whose resources are closed calls it, as its last
    step; where the command is not the process (click's ``CliRunner``, ``cli`` called from Python)
    it is ``sys.exit(code)`` when ``code`` is not 0 and does nothing otherwise."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or not (ctx.find_root().obj or {}).get(OWN_PROCESS):
        if code:
            sys.exit(code)
        return
    for stream in (sys.stdout, sys.stderr):
        # a closed pipe (| head) or a closed stream: nothing more to say
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()
