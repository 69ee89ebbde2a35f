"""LangChain: a retriever and a loader over a citeline store (``pip install 'citeline[langchain]'``).

::

    from citeline import Store
    from citeline.adapters.langchain import CitelineRetriever, record_context, verify

    store = Store("sqlite:///citeline.db")
    retriever = CitelineRetriever(store=store, k=4)
    docs = retriever.invoke("What does the licence require of distributors?")
    ctx = record_context(store, docs)          # ctx.prompt goes into the model's prompt
    report = verify(store, model_answer, ctx)  # report.failed: citations that did not pass

Every ``Document`` has ``id`` = the chunk id and metadata ``source`` (the document URI) and
``page`` (its first page), LangChain's conventions, beside ``chunk_id, document, version, pages,
raw_start, raw_end, score, is_current`` (``score`` is None for loaded chunks). The retriever's
``mode`` is ``keyword`` (default), ``vector`` or ``hybrid`` (with ``embedder``, the one
``citeline embed`` used).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from citeline.adapters import chunk_metadata, hit_metadata, verify
from citeline.adapters import record_context as _record

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("citeline.adapters.langchain needs langchain-core: pip install 'citeline[langchain]'") from exc

if TYPE_CHECKING:
    from citeline.store.records import ContextInfo
    from citeline.store.store import Store

__all__ = ["CitelineLoader", "CitelineRetriever", "record_context", "verify"]


class CitelineRetriever(BaseRetriever):
    """Full-text search over current chunks (:meth:`Store.search`), ``k`` best first."""

    store: Any
    k: int = 8
    document: str | None = None
    """Only documents whose URI matches this glob."""
    all_versions: bool = False
    collection: str | None = None
    """Only documents of this collection."""
    mode: str = "keyword"
    """keyword, vector or hybrid (see :meth:`Store.search`)."""
    embedder: Any = None
    """The :class:`citeline.store.embeddings.Embedder` the chunks were embedded with (vector, hybrid)."""

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        hits = self.store.search(
            query,
            self.k,
            document=self.document,
            all_versions=self.all_versions,
            collection=self.collection,
            mode=self.mode,
            embedder=self.embedder,
        )
        return [
            Document(
                id=h.chunk_id,
                page_content=h.text,
                metadata=hit_metadata(h),
            )
            for h in hits
        ]


class CitelineLoader(BaseLoader):
    """The stored chunks as ``Document`` s, in document and reading order (current versions only
    unless ``all_versions``): to fill a vector store whose hits keep their chunk ids."""

    def __init__(
        self,
        store: Store,
        *,
        document: str | None = None,
        all_versions: bool = False,
        collection: str | None = None,
    ) -> None:
        self.store = store
        self.document = document
        self.all_versions = all_versions
        self.collection = collection

    def lazy_load(self) -> Iterator[Document]:
        chunks = self.store.iter_chunks(
            document=self.document, all_versions=self.all_versions, collection=self.collection
        )
        for c in chunks:
            yield Document(
                id=c.chunk_id,
                page_content=c.text,
                metadata=chunk_metadata(c),
            )


def record_context(
    store: Store,
    documents: Sequence[Document],
    *,
    markers: Sequence[str] | None = None,
    merge: bool = False,
    max_tokens: int | None = None,
) -> ContextInfo:
    """Record the retrieved documents (by their ``chunk_id``) as an injected set; see
    :func:`citeline.adapters.record_context`."""
    return _record(store, [_chunk_id(d) for d in documents], markers=markers, merge=merge, max_tokens=max_tokens)


def _chunk_id(document: Document) -> str:
    cid = document.metadata.get("chunk_id") or document.id
    if not cid:
        raise ValueError("a Document without a chunk_id: only citeline's retriever and loader give chunk ids")
    return str(cid)
