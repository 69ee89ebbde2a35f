"""LlamaIndex: a retriever over a citeline store (``pip install 'citeline[llama-index]'``).

::

    from citeline import Store
    from citeline.adapters.llama_index import CitelineRetriever, record_context, verify

    store = Store("sqlite:///citeline.db")
    nodes = CitelineRetriever(store, k=4).retrieve("What does the licence require of distributors?")
    ctx = record_context(store, nodes)         # ctx.prompt goes into the model's prompt
    report = verify(store, model_answer, ctx)  # report.failed: citations that did not pass

Each hit is a ``NodeWithScore`` whose node is a ``TextNode(id_=chunk_id)`` with metadata
``chunk_id, document, version, pages, raw_start, raw_end, score, is_current``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from citeline.adapters import hit_metadata, verify
from citeline.adapters import record_context as _record

try:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(
        "citeline.adapters.llama_index needs llama-index-core: pip install 'citeline[llama-index]'"
    ) from exc

if TYPE_CHECKING:
    from citeline.store.records import ContextInfo
    from citeline.store.store import Store

__all__ = ["CitelineRetriever", "record_context", "verify"]


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
        **kwargs: Any,
    ) -> None:
        self.store = store
        self.k = k
        self.document = document
        self.all_versions = all_versions
        self.collection = collection
        super().__init__(**kwargs)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = self.store.search(
            query_bundle.query_str,
            self.k,
            document=self.document,
            all_versions=self.all_versions,
            collection=self.collection,
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


def record_context(
    store: Store, nodes: Sequence[NodeWithScore], *, markers: Sequence[str] | None = None
) -> ContextInfo:
    """Record the retrieved nodes (by their ids, the chunk ids) as an injected set; see
    :func:`citeline.adapters.record_context`."""
    return _record(store, [n.node.node_id for n in nodes], markers=markers)
