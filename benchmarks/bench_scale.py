"""Scale-out against one PostgreSQL store: throughput with 1 and 2 local worker processes and with a
2-worker Dask LocalCluster (workers write directly), on the corpus's text-layer PDFs; the scaling
ratio and the per-document overhead of the Dask path. Needs PostgreSQL: ``CITELINE_BENCH_PG_URL``
(default: ``postgresql+psycopg://postgres@127.0.0.1:5432/test``); each run uses a fresh schema
(:func:`benchmarks.common.bench_schema`)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.common import bench_schema, linked_corpus, section, text_layer_pdfs, timed
from citeline.batch import IngestOptions, ingest_files
from citeline.store import Store

PG_URL = os.environ.get("CITELINE_BENCH_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _timed_ingest(folder: Path, label: str, options: IngestOptions) -> dict[str, Any]:
    with bench_schema(PG_URL, "scale") as url, Store(url) as store, section(f"PostgreSQL ingest: {label}"):
        dt, summary = timed(lambda: ingest_files(store, [folder], options))
    assert summary.count("failed") == 0
    return {
        "seconds": round(dt, 2),
        "pages": summary.pages,
        "pages_per_second": round(summary.pages / dt, 2),
        "seconds_per_document": round(dt / summary.total, 3),
    }


def run() -> dict[str, Any]:
    files = text_layer_pdfs()
    results: dict[str, Any] = {"files": len(files)}
    with tempfile.TemporaryDirectory() as tmp:
        folder = linked_corpus(Path(tmp) / "corpus", files)
        from distributed import Client, LocalCluster

        for label, options in (
            ("local_1", IngestOptions(follow_links=True, workers=1)),
            ("local_2", IngestOptions(follow_links=True, workers=2)),
        ):
            results[label] = _timed_ingest(folder, label, options)
        for n in (1, 2):
            with section(f"start a {n}-worker Dask LocalCluster (not timed with the ingest)"):
                started, cluster = timed(
                    lambda n=n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
                )
                client = Client(cluster)
                client.run(lambda: (__import__("citeline.batch.distributed"), __import__("pdfplumber")))  # warm workers
            results[f"dask_{n}_cluster_start_seconds"] = round(started, 2)
            options = IngestOptions(follow_links=True, workers=n, executor="dask", scheduler=cluster.scheduler_address)
            results[f"dask_{n}"] = _timed_ingest(folder, f"dask_{n}", options)
            client.close()
            cluster.close()
    one, two = results["local_1"]["pages_per_second"], results["local_2"]["pages_per_second"]
    d1, d2 = results["dask_1"]["pages_per_second"], results["dask_2"]["pages_per_second"]
    results["ratios"] = {
        "2 local workers / 1": round(two / one, 3),
        "dask 2 workers / dask 1 worker": round(d2 / d1, 3),
        "dask 2 workers / local 2 workers": round(d2 / two, 3),
    }
    # the Dask worker extracts and then writes; the local pool overlaps writing (parent) and extraction
    results["dask_overhead_seconds_per_document"] = round(
        results["dask_1"]["seconds_per_document"] - results["local_1"]["seconds_per_document"], 3
    )
    for k, v in results.items():
        print(f"   {k:40} {v}")
    return results
