"""The ``citeline`` command: a thin click layer over :mod:`citeline.ingest`, :mod:`citeline.store` and
:mod:`citeline.verify`.

Each command opens the store, calls one library function and prints; the commands live in the
``*_commands`` modules beside this one and register themselves on the group in :mod:`citeline.app`.
"""

from __future__ import annotations

import os

from citeline import db_commands, ingest_commands, read_commands, search_commands, verify_commands
from citeline.app import cli

__all__ = ["cli", "db_commands", "ingest_commands", "main", "read_commands", "search_commands", "verify_commands"]


def main() -> None:
    # unstructured and friends log to the root logger; keep the CLI's stderr for our own lines
    os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")
    cli(obj={})


if __name__ == "__main__":  # pragma: no cover
    main()
