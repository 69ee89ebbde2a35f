"""LlamaIndex: a retriever and a reader over a citeline store (``pip install 'citeline[llama-index]'``).

::

    from citeline import Store
    from citeline.adapters.llama_index import CitelineRetriever, record_context, verify

    store = Store("sqlite:///citeline.db")
    nodes = CitelineRetriever(store, k=4).retrieve("What does the licence require of distributors?")
    ctx = record_context(store, nodes)         # ctx.prompt goes into the model's prompt
    report = verify(store, model_answer, ctx)  # report.failed: citations that did not pass

Each hit is a ``NodeWithScore`` whose node is a ``TextNode(id_=chunk_id)`` with metadata
``source`` (the document URI), ``page`` (its first page), ``chunk_id, document, version, pages,
raw_start, raw_end, score, is_current``. ``mode="hybrid"`` (or ``"vector"``) with ``embedder``
ranks by the stored embeddings too. :class:`CitelineReader` loads the current chunks as
``TextNode`` s (same ids and metadata, ``score`` None) to build an index of your own.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from citeline.adapters import chunk_metadata, hit_metadata, verify
from citeline.adapters import record_context as _record

try:
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(
        "citeline.adapters.llama_index needs llama-index-core: pip install 'citeline[llama-index]'"
    ) from exc

if TYPE_CHECKING:
    from citeline.store.records import ContextInfo
    from citeline.store.store import Store

__all__ = ["CitelineReader", "CitelineRetriever", "record_context", "verify"]


class CitelineRetriever(BaseRetriever):
    """Full-text search over current chunks (:meth:`Store.search`), ``k`` best first."""

    def __init__(
        self,
        store: Store,
        k: int = 8,
        *,
        document: str | None = None,
        all_versions: bool = False,
        collection: str | None = None,
        mode: str = "keyword",
        embedder: Any = None,
        **kwargs: Any,
    ) -> None:
        self.store = store
        self.k = k
        self.document = document
        self.all_versions = all_versions
        self.collection = collection
        self.mode = mode
        self.embedder = embedder
        super().__init__(**kwargs)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = self.store.search(
            query_bundle.query_str,
            self.k,
            document=self.document,
            all_versions=self.all_versions,
            collection=self.collection,
            mode=self.mode,  # type: ignore[arg-type]
            embedder=self.embedder,
        )
        return [
            NodeWithScore(
                node=TextNode(
                    id_=h.chunk_id,
                    text=h.text,
                    metadata=hit_metadata(h),
                ),
                score=h.score,
            )
            for h in hits
        ]


class CitelineReader(BaseReader):
    """The stored chunks as ``TextNode`` s (``id_`` = chunk id, the adapters' metadata), in
    document and reading order, current versions only unless ``all_versions``: for an index whose
    hits keep their chunk ids, so :func:`record_context` and :func:`verify` work on them."""

    def __init__(
        self,
        store: Store,
        *,
        document: str | None = None,
        all_versions: bool = False,
        collection: str | None = None,
    ) -> None:
        super().__init__()
        self._store = store
        self._document = document
        self._all_versions = all_versions
        self._collection = collection

    def lazy_load_data(self, *args: Any, **load_kwargs: Any) -> Iterator[TextNode]:  # type: ignore[override]
        chunks = self._store.iter_chunks(
            document=self._document, all_versions=self._all_versions, collection=self._collection
        )
        for c in chunks:
            yield TextNode(id_=c.chunk_id, text=c.text, metadata=chunk_metadata(c))

    def load_data(self, *args: Any, **load_kwargs: Any) -> list[TextNode]:  # type: ignore[override]
        return list(self.lazy_load_data())


def record_context(
    store: Store,
    nodes: Sequence[NodeWithScore | TextNode],
    *,
    markers: Sequence[str] | None = None,
    merge: bool = False,
    max_tokens: int | None = None,
) -> ContextInfo:
    """Record the retrieved nodes (by their ids, the chunk ids) as an injected set; see
    :func:`citeline.adapters.record_context`."""
    ids = [n.node.node_id if isinstance(n, NodeWithScore) else n.node_id for n in nodes]
    return _record(store, ids, markers=markers, merge=merge, max_tokens=max_tokens)
