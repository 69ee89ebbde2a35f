"""``citeline status``: which stored documents changed on disk or went missing, and which files are new."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from citeline.batch.ingest import discover
from citeline.ingest.extract.files import sha256_file
from citeline.store.errors import StatusError
from citeline.store.store import Store

#: ``--mark-deleted`` refuses, without ``--force``, to delete more than this share of the current
#: documents at once (the files are more likely mounted elsewhere than all gone).
MASS_DELETE_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class StatusEntry:
    state: str  # changed, missing, new, deleted (just marked), duplicate
    uri: str
    path: str | None
    version_no: int | None
    of: str | None = None  # duplicate: the document whose current content it repeats

    def as_json(self) -> dict[str, Any]:
        out = {"state": self.state, "uri": self.uri, "path": self.path, "version": self.version_no}
        if self.of is not None:
            out["of"] = self.of
        return out


def check_status(
    store: Store,
    paths: Sequence[str | os.PathLike[str]] = (),
    *,
    mark_deleted: bool = False,
    force: bool = False,
    duplicates: bool = False,
) -> list[StatusEntry]:
    """Compare current versions with the files on disk (at the absolute path each was last ingested
    from). ``mark_deleted`` marks the missing ones deleted, but refuses to mark more than half the
    current documents unless ``force``; ``duplicates`` also lists documents whose current content
    is another document's."""
    current = store.current_files()
    out: list[StatusEntry] = []
    missing = [uri for uri, cur in sorted(current.items()) if cur.last_path is None or not _exists(cur.last_path)]
    if mark_deleted and not force and missing and len(missing) > MASS_DELETE_SHARE * len(current):
        raise StatusError(
            f"--mark-deleted would mark {len(missing)} of {len(current)} current documents deleted: their files "
            "are not where they were ingested from (a moved or unmounted folder?); if they are really gone, add --force"
        )
    gone = set(missing)
    for uri, cur in sorted(current.items()):
        path = cur.last_path
        if uri in gone:
            if mark_deleted and store.mark_deleted(uri):
                out.append(StatusEntry("deleted", uri, path, cur.version_no))
            else:
                out.append(StatusEntry("missing", uri, path, cur.version_no))
        elif path is not None and sha256_file(path) != cur.content_sha256:
            out.append(StatusEntry("changed", uri, path, cur.version_no))
    if duplicates:
        first: dict[str, str] = {}
        for uri, cur in current.items():  # oldest first: the later copy is the duplicate
            if cur.content_sha256 in first:
                out.append(StatusEntry("duplicate", uri, cur.last_path, cur.version_no, first[cur.content_sha256]))
            else:
                first[cur.content_sha256] = uri
    if paths:
        for ref in discover(paths):
            if ref.uri not in current:
                out.append(StatusEntry("new", ref.uri, ref.path, None))
    return out


def _exists(path: str) -> bool:
    """A regular file is there (a FIFO or device at the path is not the document)."""
    import stat

    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False
