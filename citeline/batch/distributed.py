"""``--executor dask``: spread extraction over a Dask cluster.

Workers read the files from a path they all see (shared storage); a document keeps its identity,
the path relative to the ingest root, whichever machine reads it. Each task extracts, cleans and
chunks one file. With a PostgreSQL store the worker writes the version itself, in one transaction,
and sends back only the outcome; with SQLite (one writer) it sends the processed document back and
this process writes it. A worker that dies mid-document leaves nothing half-written (its transaction
never commits); Dask reruns the task on another worker, and a task whose workers die twice is
reported failed. A task that runs past the per-document time limit ends its worker process, which
counts as such a death.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from citeline.batch.outcomes import FileOutcome, SourceRef, outcome_of_error, outcome_of_write
from citeline.ingest.errors import ExtractionError, ExtractorCrashed
from citeline.ingest.pipeline import FileTask, ProcessedDocument, run_task
from citeline.store.errors import StoreError
from citeline.store.store import Store

#: Worker deaths a task may cause before it is reported failed (Dask's ``allowed-failures``; applied
#: to clusters citeline starts itself: set it on your own scheduler for the same behaviour).
ALLOWED_FAILURES = 1

_WORKER_STORES: dict[str, Store] = {}


class DaskUnavailable(StoreError):
    """``--executor dask`` without dask/distributed installed, or a scheduler that cannot be reached."""


def _worker_store(url: str) -> Store:
    store = _WORKER_STORES.get(url)
    if store is None:
        store = _WORKER_STORES[url] = Store(url, migrate=False)
    return store


def run_on_worker(task: FileTask, db_url: str | None, run_id: int, settings_json: str, timeout: float) -> Any:
    """The Dask task: process one file; write it when the store is shared (PostgreSQL).

    Returns a :class:`FileOutcome` when written here, a :class:`ProcessedDocument` otherwise, or a
    failed :class:`FileOutcome` for a file that cannot be extracted.
    """
    ref = SourceRef(task.path, task.uri, task.collection)
    started = time.perf_counter()
    # no way to interrupt a hung parser thread: past the limit the worker process ends itself, and
    # Dask treats that like any other worker death
    watchdog = threading.Timer(timeout, os._exit, args=(70,))
    watchdog.daemon = True
    watchdog.start()
    try:
        try:
            doc = run_task(task)
        except ExtractionError as exc:
            return outcome_of_error(ref, exc, time.perf_counter() - started, task.limits)
        if db_url is None:
            return doc
        outcome: FileOutcome = outcome_of_write(ref, doc, _worker_store(db_url), run_id, settings_json, started)
        return outcome
    finally:
        watchdog.cancel()


def ingest_with_dask(
    store: Store,
    tasks: list[FileTask],
    *,
    workers: int,
    scheduler: str | None,
    run_id: int,
    settings_json: str,
    timeout: float,
    done: Callable[[Any], None],
    refs: dict[str, SourceRef] | None = None,
) -> None:
    """Run ``tasks`` on a Dask cluster (``scheduler`` address, or a local cluster of ``workers``
    single-threaded processes) and report each outcome through ``done``."""
    try:
        import dask
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise DaskUnavailable("--executor dask needs dask and distributed: pip install 'citeline[dask]'") from None

    direct = store.dialect == "postgresql"
    cluster = None
    with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES}):
        try:
            if scheduler:
                client = Client(scheduler, timeout="20s")
            else:
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
                client = Client(cluster)
        except (OSError, TimeoutError) as exc:
            raise DaskUnavailable(f"Dask scheduler {scheduler!r} cannot be reached: {exc}") from None
    try:
        futures = {}
        for task in tasks:
            key = "citeline-" + hashlib.sha256(f"{run_id}\0{task.path}".encode()).hexdigest()[:24]
            fut = client.submit(
                run_on_worker, task, store.url if direct else None, run_id, settings_json, timeout, key=key, pure=False
            )
            futures[fut] = (task, time.perf_counter())
        for fut in as_completed(futures):
            task, started = futures.pop(fut)
            ref = (refs or {}).get(task.path) or SourceRef(task.path, task.uri, task.collection)
            try:
                result = fut.result()
            except Exception as exc:  # KilledWorker: its workers died ALLOWED_FAILURES + 1 times
                name = type(exc).__name__
                error = ExtractorCrashed(
                    task.path, f"worker processes died while extracting it ({name}: crash or time limit)"
                )
                done(outcome_of_error(ref, error, time.perf_counter() - started, task.limits))
                continue
            if isinstance(result, ProcessedDocument):
                done(outcome_of_write(ref, result, store, run_id, settings_json, started))
            else:
                assert isinstance(result, FileOutcome)
                if result.content_sha256 is None and ref.content_sha256 is not None:
                    # written on the worker: the hash read here is what a failure is remembered by
                    result = dataclasses.replace(result, content_sha256=ref.content_sha256)
                done(result)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
