"""Embeddings kept in the store, optional: vectors of chunk texts, keyed by the text's sha256 and
the model's name, so a chunk whose text is unchanged in a new version reuses its vector.

Storage: a table ``embeddings`` (model, text_sha256, dimension, vector as little-endian float32
bytes, created_at) on both databases. This machine's Python ``sqlite3`` cannot load extensions
(no ``enable_load_extension``), so ``sqlite-vec`` is not used, and PostgreSQL's ``pgvector`` is not
packaged for the server here: vectors are scored in this process with numpy, a brute-force
cosine over the current chunks' vectors, which are read once and kept while the store does not
change (:data:`_MATRICES`).

An :class:`Embedder` is any callable from texts to vectors with a ``name`` and a ``dimension``:
sentence-transformers' models and API clients fit in a few lines (see docs). The
:class:`HashingEmbedder` here is a deterministic test embedder (hashed words and word pieces, no
model, no meaning beyond shared words): it exists for the tests and benchmarks, not for use.
"""

from __future__ import annotations

import fnmatch
import hashlib
import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from citeline.store.errors import QueryError

#: reciprocal rank fusion's constant (Cormack et al. 2009: 60, the value everyone uses)
RRF_K = 60
#: how many of each list hybrid search fuses, at least (and 4 k)
FUSE_DEPTH = 50


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise QueryError("Embeddings need numpy: pip install 'citeline[embeddings]'") from None
    return numpy


@runtime_checkable
class Embedder(Protocol):
    """Texts to vectors (one per text, each of ``dimension`` floats); ``name`` identifies the
    model (and its version): vectors of two names are never compared."""

    name: str
    dimension: int

    def __call__(self, texts: Sequence[str]) -> Sequence[Sequence[float]]: ...


class HashingEmbedder:
    """A deterministic embedder written for citeline's tests and benchmarks (not a language model):
    each folded word and each of its 4-letter pieces is hashed (blake2b) to a coordinate and a
    sign; the vector is L2-normalised. Texts that share words are close; synonyms are not."""

    def __init__(self, dimension: int = 256) -> None:
        if dimension < 8:
            raise QueryError(f"HashingEmbedder dimension {dimension} is below 8")
        self.dimension = dimension
        self.name = f"citeline-test-hashing-{dimension}"

    def _features(self, text: str) -> list[str]:
        from citeline.store.search import terms

        out: list[str] = []
        for word in terms(text):
            out.append("w:" + word)
            out.extend("p:" + word[i : i + 4] for i in range(max(1, len(word) - 3)))
        return out

    def __call__(self, texts: Sequence[str]) -> list[list[float]]:
        np = _numpy()

        vectors = []
        for text in texts:
            v = np.zeros(self.dimension, dtype=np.float32)
            for feature in self._features(text):
                h = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
                v[h % self.dimension] += 1.0 if (h >> 63) else -1.0
            norm = float(np.linalg.norm(v))
            vectors.append((v / norm if norm else v).tolist())
        return vectors


def load_embedder(spec: str) -> Embedder:
    """An embedder from a command line: ``hashing`` or ``hashing:DIM`` (the test embedder), or
    ``module:attribute`` naming an :class:`Embedder` or a callable with no arguments returning one."""
    if spec == "hashing" or spec.startswith("hashing:"):
        dim = spec.partition(":")[2]
        if dim and not dim.isdigit():
            raise QueryError(f"Embedder {spec!r}: the dimension {dim!r} is not a number")
        return HashingEmbedder(int(dim) if dim else 256)
    module, _, attribute = spec.partition(":")
    if not module or not attribute:
        raise QueryError(f"Embedder {spec!r}: expected 'hashing' or 'module:attribute'")
    try:
        found = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as exc:
        raise QueryError(f"Embedder {spec!r}: {exc}") from None
    embedder = found if isinstance(found, Embedder) else found() if callable(found) else found
    if not isinstance(embedder, Embedder):
        raise QueryError(f"Embedder {spec!r} has no name, dimension or call: not an Embedder")
    return embedder


def pack(vector: Sequence[float], dimension: int) -> bytes:
    np = _numpy()

    array = np.asarray(vector, dtype="<f4")
    if array.shape != (dimension,):
        raise QueryError(f"An embedding has {array.size} values, the embedder's dimension is {dimension}")
    if not np.isfinite(array).all():
        raise QueryError("An embedding holds a value that is not a finite number")
    return bytes(array.tobytes())


@dataclass(frozen=True, slots=True)
class EmbedResult:
    """What :meth:`Store.embed` did: ``embedded`` texts sent to the embedder (new vectors),
    ``reused`` current chunks whose text already had a vector of this model, ``chunks`` current
    chunks in all."""

    model: str
    embedded: int
    reused: int
    chunks: int

    def as_json(self) -> dict[str, Any]:
        return {"model": self.model, "embedded": self.embedded, "reused": self.reused, "chunks": self.chunks}


_MISSING = """
SELECT c.id, c.text_sha256, c.text FROM chunks c
JOIN document_versions v ON v.id = c.version_id JOIN documents d ON d.id = v.document_id
WHERE v.superseded_at IS NULL AND d.deleted_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model = :model AND e.text_sha256 = c.text_sha256)
ORDER BY c.version_id, c.ordinal
"""
_CURRENT_COUNT = """
SELECT count(*) FROM chunks c
JOIN document_versions v ON v.id = c.version_id JOIN documents d ON d.id = v.document_id
WHERE v.superseded_at IS NULL AND d.deleted_at IS NULL
"""


def missing(connection: Any, model: str) -> list[tuple[str, str, str]]:
    """``(chunk_id, text_sha256, text)`` of current chunks with no vector of ``model``."""
    from sqlalchemy import text as sql

    return [(r[0], r[1], r[2]) for r in connection.execute(sql(_MISSING), {"model": model})]


def embed_missing(engine: Any, embedder: Embedder, *, batch_size: int = 64) -> EmbedResult:
    """Fill vectors for current chunks whose text has none of ``embedder.name``: each distinct text
    once, in batches, each batch in its own transaction (an interrupted run keeps what it did)."""
    from sqlalchemy import text as sql

    from citeline.store.models import utcnow

    with engine.connect() as conn:
        todo = missing(conn, embedder.name)
        total = int(conn.scalar(sql(_CURRENT_COUNT)) or 0)
    texts: dict[str, str] = {}
    for _, digest, body in todo:
        texts.setdefault(digest, body)
    items = list(texts.items())
    insert = sql(
        "INSERT INTO embeddings(model, text_sha256, dimension, vector, created_at) "
        "VALUES (:model, :digest, :dimension, :vector, :at)"
    )
    for i in range(0, len(items), batch_size):
        batch = items[i : i + batch_size]
        vectors = embedder([body for _, body in batch])
        if len(vectors) != len(batch):
            raise QueryError(f"Embedder {embedder.name!r} returned {len(vectors)} vectors for {len(batch)} texts")
        rows = [
            {
                "model": embedder.name,
                "digest": d,
                "dimension": embedder.dimension,
                "at": utcnow(),
                "vector": pack(v, embedder.dimension),
            }
            for (d, _), v in zip(batch, vectors, strict=True)
        ]
        with engine.begin() as conn:
            conn.execute(insert, rows)
    return EmbedResult(embedder.name, len(items), total - len(todo), total)


# ----------------------------------------------------------------------------- vector search

_VECTORS = """
SELECT c.id, d.uri, e.vector, d.collection FROM chunks c
JOIN document_versions v ON v.id = c.version_id JOIN documents d ON d.id = v.document_id
JOIN embeddings e ON e.model = :model AND e.text_sha256 = c.text_sha256
{current}
"""
_STATE = """
SELECT (SELECT max(id) FROM document_versions),
       (SELECT count(*) FROM document_versions WHERE superseded_at IS NOT NULL),
       (SELECT count(*) FROM documents WHERE deleted_at IS NOT NULL),
       (SELECT count(*) FROM embeddings WHERE model = :model)
"""
#: (database, model, all versions) -> (store state, chunk ids, document URIs, collections,
#: unit-length matrix)
_MATRICES: dict[tuple[str, str, bool], tuple[tuple[Any, ...], list[str], list[str], list[str], Any]] = {}


def _matrix(connection: Any, model: str, all_versions: bool) -> tuple[list[str], list[str], list[str], Any]:
    np = _numpy()
    from sqlalchemy import text as sql

    state = tuple(connection.execute(sql(_STATE), {"model": model}).one())
    key = (str(connection.engine.url), model, all_versions)
    cached = _MATRICES.get(key)
    if cached is not None and cached[0] == state:
        return cached[1], cached[2], cached[3], cached[4]
    current = "" if all_versions else "WHERE v.superseded_at IS NULL AND d.deleted_at IS NULL"
    rows = connection.execute(sql(_VECTORS.format(current=current)), {"model": model}).all()
    ids = [r[0] for r in rows]
    uris = [r[1] for r in rows]
    collections = [r[3] for r in rows]
    if rows:
        matrix = np.frombuffer(b"".join(bytes(r[2]) for r in rows), dtype="<f4").reshape(len(rows), -1)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        matrix = matrix / np.where(norms == 0, 1, norms)
    else:
        matrix = np.zeros((0, 1), dtype=np.float32)
    if len(_MATRICES) >= 4:
        _MATRICES.clear()
    _MATRICES[key] = (state, ids, uris, collections, matrix)
    return ids, uris, collections, matrix


def vector_ranking(
    connection: Any,
    embedder: Embedder,
    query: str,
    *,
    k: int,
    document: str | None,
    all_versions: bool,
    collection: str | None = None,
) -> list[tuple[str, float]]:
    """``(chunk_id, cosine)`` of the ``k`` chunks nearest ``query`` among those with a vector of
    ``embedder.name`` (current versions unless ``all_versions``; URIs matching the glob ``document``;
    documents of ``collection``)."""
    np = _numpy()

    ids, uris, collections, matrix = _matrix(connection, embedder.name, all_versions)
    if not ids:
        return []
    q = np.asarray(embedder([query])[0], dtype=np.float32)
    if q.shape != (matrix.shape[1],):
        raise QueryError(f"Embedder {embedder.name!r} gives {q.size} values, the stored vectors have {matrix.shape[1]}")
    # einsum's own loop, one thread: BLAS's threads only wait for each other on a busy machine
    scores = np.einsum("ij,j->i", matrix, q / (np.linalg.norm(q) or 1.0))
    if document is not None:
        keep = np.array([fnmatch.fnmatchcase(u, document) for u in uris])
        scores = np.where(keep, scores, -np.inf)
    if collection is not None:
        scores = np.where(np.array([c == collection for c in collections]), scores, -np.inf)
    n = min(k, len(ids))
    top = np.argpartition(-scores, n - 1)[:n]
    top = top[np.argsort(-scores[top], kind="stable")]
    return [(ids[i], float(scores[i])) for i in top if np.isfinite(scores[i])]


def fuse(rankings: Sequence[Sequence[str]], k: int) -> list[tuple[str, float]]:
    """Reciprocal rank fusion: each chunk scores the sum of ``1 / (RRF_K + rank)`` over the lists
    it is in (rank from 1); the ``k`` best, ties by first appearance."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, chunk_id in enumerate(ranking, start=1):
            scores[chunk_id] = scores.get(chunk_id, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(scores.items(), key=lambda item: -item[1])[:k]
