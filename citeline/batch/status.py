"""``citeline status``: which stored documents changed on disk or went missing, and which files are new."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from citeline.batch.ingest import collection_name, discover
from citeline.ingest.extract.files import sha256_file
from citeline.store.errors import StatusError
from citeline.store.store import CurrentFile, Store
from citeline.text.names import escape_name

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
    collection: str = ""

    def as_json(self) -> dict[str, Any]:
        out = {
            "state": self.state,
            "collection": self.collection,
            "uri": self.uri,
            "path": self.path,
            "version": self.version_no,
        }
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
    collection: str | None = None,
) -> list[StatusEntry]:
    """Compare current versions with the files on disk (at the absolute path each was last ingested
    from). ``mark_deleted`` marks the missing ones deleted, but refuses to mark more than half the
    documents it looks at unless ``force``; ``duplicates`` also lists documents whose current
    content is another document's.

    Which documents: with ``paths``, those of each PATH's collection (``collection``, or the name
    of the folder, as ``ingest PATH`` names it) last read from under PATH; without, every document
    (of ``collection`` when given)."""
    everything = store.current_files(collection)
    if paths:
        scopes = [(collection if collection is not None else collection_name(p), os.path.abspath(p)) for p in paths]
        current = {key: cur for key, cur in everything.items() if any(_under(key, cur, scope) for scope in scopes)}
    else:
        current = everything
    out: list[StatusEntry] = []
    missing = [key for key, cur in sorted(current.items()) if cur.local_path is None or not _exists(cur.local_path)]
    if mark_deleted and not force and missing and len(missing) > MASS_DELETE_SHARE * len(current):
        raise StatusError(
            f"--mark-deleted would mark {len(missing)} of {len(current)} current documents deleted: their files "
            "are not where they were ingested from (a moved or unmounted folder?); if they are really gone, add --force"
        )
    gone = set(missing)
    for key, cur in sorted(current.items()):
        coll, uri = key
        path = cur.last_path
        if key in gone:
            if mark_deleted and store.mark_deleted(uri, collection=coll):
                out.append(StatusEntry("deleted", uri, path, cur.version_no, collection=coll))
            else:
                out.append(StatusEntry("missing", uri, path, cur.version_no, collection=coll))
        elif cur.local_path is not None and sha256_file(cur.local_path) != cur.content_sha256:
            out.append(StatusEntry("changed", uri, path, cur.version_no, collection=coll))
    if duplicates:
        first: dict[str, str] = {}
        for (coll, uri), cur in current.items():  # oldest first: the later copy is the duplicate
            if cur.content_sha256 in first:
                out.append(
                    StatusEntry(
                        "duplicate", uri, cur.last_path, cur.version_no, first[cur.content_sha256], collection=coll
                    )
                )
            else:
                first[cur.content_sha256] = uri
    if paths:
        for ref in discover(paths, collection=collection):
            if ref.skip_reason is None and (ref.collection, ref.uri) not in everything:
                out.append(StatusEntry("new", ref.uri, escape_name(ref.path), None, collection=ref.collection))
    return out


def _under(key: tuple[str, str], cur: CurrentFile, scope: tuple[str, str]) -> bool:
    """Whether a document is in a PATH's scope: its collection, and last read from under PATH."""
    collection, folder = scope
    path = cur.local_path
    if key[0] != collection or path is None:
        return False
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _exists(path: str) -> bool:
    """A regular file is there (a FIFO or device at the path is not the document)."""
    import stat

    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False
