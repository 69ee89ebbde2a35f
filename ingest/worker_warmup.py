"""Imported once by the ingest workers' forkserver (:data:`citeline.ingest.workers.COMMON_PRELOAD`),
so every worker forked from it starts ready: what a worker's first file would otherwise load,
wordfreq (with its ftfy and langcodes tables) and the English word frequencies that dehyphenation
looks words up in (English: the language most documents are in; another language loads on first use).
Nothing else happens on import."""

from __future__ import annotations

from citeline.text.lexicon import zipf

zipf("en")("the")
