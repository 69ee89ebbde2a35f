"""Full-text search: recall against ``rank_bm25`` over the same chunks, latency at the corpus size
and at 100,000 chunks, and what the index costs an ingest, all in one run.

* **Queries**: sentences of the corpus's chunks (text-layer PDFs, pdfplumber backend), at most
  ``PER_DOC`` per document, sampled with a fixed seed; each query is the sentence's five longest
  words (in Chinese and Japanese, written without spaces, the words are the index's character
  pairs: otherwise a "word" would be a whole clause). A query is answered when a chunk holding
  the sentence (the chunk it came from, or its overlapping neighbour) is in the top 5.
* **Reference**: ``rank_bm25.BM25Okapi`` over the same chunks, tokenized by citeline's own index
  tokenizer (so the comparison is of ranking, not of tokenizing).
* **Latency**: ``Store.search(query, k=5)`` per query (a new connection from the pool, the SQL,
  snippets), p50/p95 at the corpus size, then with the database grown to 100,000 chunks by
  synthetic chunks whose words are drawn from the corpus's own word frequencies (so posting lists
  grow as they would).
* **Ingest cost**: the corpus ingested (pdfium backend, OCR off, one worker: the fastest ingest,
  so the writer's share is largest) with the index, and with the writer's index step replaced by
  a no-op in this process, alternating, three rounds each: the ratio of the medians.
"""

from __future__ import annotations

import itertools
import random
import re
import shutil
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks import search_questions
from benchmarks.common import linked_corpus, section, text_layer_pdfs, timed
from citeline.batch import IngestOptions, ingest_files
from citeline.ingest.extract.ocr import OcrSettings
from citeline.ingest.pipeline import PipelineSettings
from citeline.store import Store
from citeline.store.search import fold_text, terms
from citeline.text.scripts import CJK_LETTERS

PER_DOC = 25
SEED = 20261201
SCALE_CHUNKS = 100_000
ROUNDS = 3
_CJK = re.compile(f"[{CJK_LETTERS}]")
_SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]")


def queries(chunks: list[Any]) -> list[tuple[str, str, str]]:
    """``(query, sentence, document)`` for sampled sentences of ``chunks``."""
    rng = random.Random(SEED)
    by_doc: dict[str, list[str]] = {}
    for c in chunks:
        for s in _SENTENCE.findall(" ".join(c.text.split())):
            s = s.strip()
            words = re.findall(r"[^\W_]+", s)
            if len(words) >= 8 and len(s) <= 400:
                by_doc.setdefault(c.document_uri, []).append(s)
    out = []
    for doc, sentences in sorted(by_doc.items()):
        for s in rng.sample(sorted(set(sentences)), min(PER_DOC, len(set(sentences)))):
            words = sorted(dict.fromkeys(_words(s)), key=lambda w: (-len(w), w))[:5]
            if len(words) >= 3:
                out.append((" ".join(words), s, doc))
    return out


def _words(sentence: str) -> list[str]:
    """The words of a sentence: letters between spaces and punctuation; a run of Chinese or
    Japanese (written without spaces, so a "word" would be the whole clause) in the index's own
    words, its overlapping character pairs."""
    out = []
    for word in re.findall(r"[^\W\d_]+", sentence):
        out.extend(terms(word) if _CJK.search(word) else [word])
    return out


def holders(folded: list[tuple[str, str]], sentence: str) -> set[str]:
    """The chunks (``(chunk_id, folded text)``) holding ``sentence``."""
    key = fold_text(" ".join(sentence.split()))
    return {cid for cid, text in folded if key in text}


def latency(store: Store, qs: list[tuple[str, str, str]]) -> dict[str, float]:
    times = []
    for q, _, _ in qs:
        t0 = time.perf_counter()
        store.search(q, k=5)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {
        "p50_ms": round(statistics.median(times), 3),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 3),
        "max_ms": round(times[-1], 3),
    }


def recall(store: Store, qs: list[tuple[str, str, str]], want: list[set[str]]) -> float:
    found = sum(1 for (q, _, _), w in zip(qs, want, strict=True) if w & {h.chunk_id for h in store.search(q, k=5)})
    return round(found / len(qs), 4)


def _templates(conn: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], int, int]:
    """The rows a synthetic document, version and chunk copy (the store's first), and the next free
    document and version ids."""
    from sqlalchemy import select

    from citeline.store import models as m

    doc = dict(conn.execute(select(m.Document.__table__)).mappings().first() or {})
    version = dict(conn.execute(select(m.DocumentVersion.__table__)).mappings().first() or {})
    chunk = dict(conn.execute(select(m.Chunk.__table__)).mappings().first() or {})
    next_doc = (conn.scalar(select(m.Document.id).order_by(m.Document.id.desc())) or 0) + 1
    next_version = (conn.scalar(select(m.DocumentVersion.id).order_by(m.DocumentVersion.id.desc())) or 0) + 1
    return doc, version, chunk, next_doc, next_version


def grow(db: Path | str, chunks: list[Any], total: int) -> int:
    """Add synthetic chunks (words drawn from the corpus's word frequencies, lengths from its
    chunks) until the database holds ``total``: rows copied from a real version, so every column
    is as the writer leaves it, indexed by the writer's own index step."""
    from sqlalchemy import create_engine

    from citeline.store import models as m
    from citeline.store.writer import index_chunks

    vocabulary = Counter(w for c in chunks for w in re.findall(r"[^\W_]+", c.text))
    words, counts = zip(*vocabulary.items(), strict=True)
    # cumulative once: random.choices given plain weights sums the whole vocabulary on every call
    # (most of the load's time), and given these draws exactly the same words
    weights = list(itertools.accumulate(counts))
    lengths = [len(c.text.split()) for c in chunks]
    rng = random.Random(SEED)
    engine = create_engine(db if isinstance(db, str) else f"sqlite:///{db}")  # a SQLite file or a database URL
    if engine.dialect.name == "postgresql":
        try:
            return _grow_postgres(engine, chunks, total, words, weights, lengths, rng)
        finally:
            engine.dispose()
    per_version = 100
    added = 0
    with engine.begin() as conn:
        doc, version, chunk, next_doc, next_version = _templates(conn)
        need = total - len(chunks)
        n = 0
        while added < need:
            conn.execute(m.Document.__table__.insert(), {**doc, "id": next_doc + n, "uri": f"synthetic/{n:05}.pdf"})
            vid = next_version + n
            conn.execute(
                m.DocumentVersion.__table__.insert(),
                {**version, "id": vid, "document_id": next_doc + n, "content_sha256": f"{n:064x}"},
            )
            rows = []
            for ordinal in range(min(per_version, need - added)):
                body = " ".join(rng.choices(words, cum_weights=weights, k=rng.choice(lengths)))
                rows.append({**chunk, "id": f"ck_syn{vid:08}{ordinal:04}", "version_id": vid, "ordinal": ordinal})
                rows[-1]["text"] = body
            conn.execute(m.Chunk.__table__.insert(), rows)
            index_chunks(conn, vid, [(r["ordinal"], r["id"], r["text"]) for r in rows], version.get("language"))
            added += len(rows)
            n += 1
    engine.dispose()
    return len(chunks) + added


def _grow_postgres(
    engine: Any, chunks: list[Any], total: int, words: Any, weights: Any, lengths: list[int], rng: random.Random
) -> int:
    """:func:`grow` on PostgreSQL: the same synthetic rows, loaded with ``COPY`` into the tables and
    the search column filled by one statement with the writer's own expression
    (``to_tsvector(<the version's configuration>, search_text(text))``), the GIN index dropped for
    the load and made again after it (building it once is far faster than 100,000 row updates:
    the row-by-row load took tens of minutes)."""

    from citeline.store import models as m
    from citeline.store.search import search_text
    from citeline.store.stemming import pg_config

    per_version = 100
    # a chunk's search text is its words' search texts joined (the index splits words apart): each
    # word of the vocabulary folded once, not each of 100,000 texts
    indexed = {w: search_text(w) for w in words}.__getitem__
    with engine.begin() as conn:
        doc, version, chunk, next_doc, next_version = _templates(conn)
        need = total - len(chunks)
        n_versions = -(-need // per_version)
        gin = conn.exec_driver_sql(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() "
            "AND tablename = 'chunks' AND indexdef ILIKE '%%USING gin%%'"
        ).all()
        for name, _ in gin:
            conn.exec_driver_sql(f'DROP INDEX "{name}"')
        raw = conn.connection.driver_connection  # psycopg: COPY
        with raw.cursor() as cur:
            for table, row_of in (
                (m.Document.__table__, lambda i: {**doc, "id": next_doc + i, "uri": f"synthetic/{i:05}.pdf"}),
                (
                    m.DocumentVersion.__table__,
                    lambda i: (
                        {**version, "id": next_version + i, "document_id": next_doc + i}
                        | {"content_sha256": f"{i:064x}"}
                    ),
                ),
            ):
                cols = [c.name for c in table.columns]
                with cur.copy(f"COPY {table.name} ({', '.join(cols)}) FROM STDIN") as copy:
                    for i in range(n_versions):
                        row = row_of(i)
                        copy.write_row([row[c] for c in cols])
            cols = [c.name for c in m.Chunk.__table__.columns]
            # staged, then inserted with the search column computed: no row is written twice
            cur.execute("CREATE TEMP TABLE synthetic_chunks (LIKE chunks, body text) ON COMMIT DROP")
            with cur.copy(f"COPY synthetic_chunks ({', '.join(cols)}, body) FROM STDIN") as copy:
                for i in range(n_versions):
                    vid = next_version + i
                    for ordinal in range(min(per_version, need - i * per_version)):
                        drawn = rng.choices(words, cum_weights=weights, k=rng.choice(lengths))
                        row = {**chunk, "id": f"ck_syn{vid:08}{ordinal:04}", "version_id": vid, "ordinal": ordinal}
                        row["text"] = " ".join(drawn)
                        copy.write_row([row[c] for c in cols] + [" ".join(filter(None, map(indexed, drawn)))])
            config = pg_config(version.get("language"))
            cur.execute(
                f"INSERT INTO chunks ({', '.join(cols)}, search) "
                f"SELECT {', '.join(cols)}, to_tsvector('{config}', body) FROM synthetic_chunks"
            )
        for _, definition in gin:
            conn.exec_driver_sql(definition.replace("%", "%%"))
        # the planner's statistics, as autovacuum would gather them after a load this size: before
        # them it joined 1,018 documents to their chunks one by one (0.8 s a query)
        for table in ("documents", "document_versions", "chunks", "embeddings"):
            conn.exec_driver_sql(f"ANALYZE {table}")
    return len(chunks) + need


def _ingest(folder: Path, db: Path, *, index: bool) -> float:
    from citeline.store import writer

    real = writer.index_chunks
    if not index:
        writer.index_chunks = lambda *args, **kwargs: None  # type: ignore[assignment]
    try:
        with Store(f"sqlite:///{db}") as store:
            settings = PipelineSettings(extractor="pdfium", ocr=OcrSettings(mode="off"))
            options = IngestOptions(follow_links=True, workers=1, settings=settings)
            dt, summary = timed(lambda: ingest_files(store, [folder], options))
        assert summary.count("failed") == 0
        return dt
    finally:
        writer.index_chunks = real  # type: ignore[assignment]


def run() -> dict[str, Any]:
    try:
        from rank_bm25 import BM25Okapi
    except ImportError:
        raise SystemExit("the search benchmark compares with rank_bm25: pip install -e '.[bench]'") from None

    files = text_layer_pdfs()
    results: dict[str, Any] = {"files": len(files)}
    with tempfile.TemporaryDirectory() as tmp:
        folder = linked_corpus(Path(tmp) / "corpus", files)
        db = Path(tmp) / "search.db"
        with section("ingest the corpus (pdfplumber backend)"):
            store = Store(f"sqlite:///{db}")
            ingest_files(store, [folder], IngestOptions(follow_links=True, workers=2))
        chunks = list(store.iter_chunks())
        qs = queries(chunks)
        folded = [(c.chunk_id, fold_text(" ".join(c.text.split()))) for c in chunks]
        want = [holders(folded, s) for _, s, _ in qs]
        results.update(chunks=len(chunks), queries=len(qs))

        with section(f"recall@5, {len(qs)} queries: citeline and rank_bm25 over the same {len(chunks)} chunks"):
            ours = recall(store, qs, want)
            bm25 = BM25Okapi([terms(c.text) for c in chunks])
            ids = [c.chunk_id for c in chunks]
            t0 = time.perf_counter()
            found = 0
            for (q, _, _), w in zip(qs, want, strict=True):
                scores = bm25.get_scores(terms(q))
                top = sorted(range(len(ids)), key=lambda i: -scores[i])[:5]
                found += bool(w & {ids[i] for i in top})
            bm25_ms = (time.perf_counter() - t0) * 1000 / len(qs)
            results["recall_at_5"] = {"citeline": ours, "rank_bm25": round(found / len(qs), 4)}
            results["recall_at_5"]["difference"] = round(ours - found / len(qs), 4)
            results["rank_bm25_ms_per_query"] = round(bm25_ms, 2)

        with section("latency at the corpus size"):
            latency(store, qs[:20])  # warm the pool and the page cache
            results["latency_corpus"] = {"chunks": len(chunks), **latency(store, qs)}
        store.engine.dispose()

        with section(f"grow the database to {SCALE_CHUNKS:,} chunks"):
            grow_s, n = timed(lambda: grow(db, chunks, SCALE_CHUNKS))
            results["scale_build_seconds"] = round(grow_s, 1)
        with section(f"latency and recall at {n:,} chunks"):
            store = Store(f"sqlite:///{db}")
            latency(store, qs[:20])
            results["latency_100k"] = {"chunks": n, **latency(store, qs)}
            results["recall_at_5_100k"] = recall(store, qs, want)
            store.engine.dispose()

        with section(f"ingest with and without the index, {ROUNDS} rounds each (pdfium, OCR off, 1 worker)"):
            with_index, without = [], []
            for r in range(ROUNDS):
                for index in (True, False):
                    target = Path(tmp) / f"ingest_{r}_{index}.db"
                    (with_index if index else without).append(_ingest(folder, target, index=index))
                    target.unlink()
            results["ingest_seconds"] = {
                "with_index": [round(x, 2) for x in with_index],
                "without_index": [round(x, 2) for x in without],
            }
            results["ingest_ratio_with_index"] = round(statistics.median(with_index) / statistics.median(without), 3)
        shutil.rmtree(folder)
    with section("questions as people ask them (issue 34): every mode, rank_bm25, latency at 100,000 chunks"):
        results["questions"] = search_questions.run(SCALE_CHUNKS)
    for k, v in results.items():
        print(f"   {k:32} {v}")
    return results


def markdown(r: dict[str, Any]) -> str:
    rc, lc, lk = r["recall_at_5"], r["latency_corpus"], r["latency_100k"]
    return "\n".join(
        [
            f"| search ({r['queries']} keyword queries from corpus sentences) | recall@5 | p50 ms | p95 ms |",
            "|---|---|---|---|",
            f"| citeline, SQLite FTS5, {lc['chunks']:,} chunks | {rc['citeline']} | {lc['p50_ms']} | {lc['p95_ms']} |",
            f"| rank_bm25 over the same chunks (in memory) | {rc['rank_bm25']} | {r['rank_bm25_ms_per_query']} | |",
            f"| citeline, SQLite FTS5, {lk['chunks']:,} chunks | {r['recall_at_5_100k']} | {lk['p50_ms']} | "
            f"{lk['p95_ms']} |",
            "",
            f"* ingest with the index / without it (medians of {len(r['ingest_seconds']['with_index'])} rounds): "
            f"**{r['ingest_ratio_with_index']}x**",
            "",
            search_questions.markdown(r["questions"]) if "questions" in r else "",
        ]
    )
