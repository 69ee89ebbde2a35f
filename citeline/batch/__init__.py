"""Ingest orchestration: discover files, skip unchanged ones, run the ingest pipeline in isolated
worker processes (or on a Dask cluster), write each version through the store, record every file's
outcome, and tell what changed on disk since (``status``).

The pipeline itself (extract, clean, chunk) is :mod:`citeline.ingest`, pure and without a database;
the database is :mod:`citeline.store`. This package is the only one that drives both::

    from citeline.batch import IngestOptions, ingest_files
    summary = ingest_files(store, ["corpus/"], IngestOptions(workers=4))
"""

from citeline.batch.ingest import DiscoveryError, IngestOptions, IngestSummary, discover, ingest_files

__all__ = ["DiscoveryError", "IngestOptions", "IngestSummary", "discover", "ingest_files"]
