"""``citeline status``: which stored documents changed on disk or went missing, and which files are new."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from citeline.ingest.extract.files import sha256_file
from citeline.store.batch import discover
from citeline.store.store import Store


@dataclass(frozen=True, slots=True)
class StatusEntry:
    state: str  # changed, missing, new, deleted (just marked)
    uri: str
    path: str | None
    version_no: int | None

    def as_json(self) -> dict[str, Any]:
        return {"state": self.state, "uri": self.uri, "path": self.path, "version": self.version_no}


def check_status(
    store: Store, paths: Sequence[str | os.PathLike[str]] = (), *, mark_deleted: bool = False
) -> list[StatusEntry]:
    """Compare current versions with the files on disk (at their last ingested path)."""
    current = store.current_files()
    out: list[StatusEntry] = []
    for uri, cur in sorted(current.items()):
        path = cur.last_path
        if path is None or not os.path.exists(path):
            if mark_deleted and store.mark_deleted(uri):
                out.append(StatusEntry("deleted", uri, path, cur.version_no))
            else:
                out.append(StatusEntry("missing", uri, path, cur.version_no))
        elif sha256_file(path) != cur.content_sha256:
            out.append(StatusEntry("changed", uri, path, cur.version_no))
    if paths:
        for ref in discover(paths):
            if ref.uri not in current:
                out.append(StatusEntry("new", ref.uri, ref.path, None))
    return out
