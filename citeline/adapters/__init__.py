"""Retrievers for RAG frameworks over :meth:`citeline.store.Store.search`, each an optional extra:
``citeline[langchain]`` (:mod:`citeline.adapters.langchain`) and ``citeline[llama-index]``
(:mod:`citeline.adapters.llama_index`).

Both return the chunk id with every hit, so what the model saw can be recorded as a context
(:func:`record_context`) and its answer checked against exactly that set (:func:`verify`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citeline.store.records import ChunkInfo, ContextInfo
    from citeline.store.search import SearchHit
    from citeline.store.store import Store
    from citeline.verify.report import Report
    from citeline.verify.verify import VerifyOptions

__all__ = ["chunk_metadata", "hit_metadata", "record_context", "verify"]


def hit_metadata(hit: SearchHit) -> dict[str, Any]:
    """The metadata both adapters attach to a search hit: where its chunk is, and its score."""
    return _metadata(hit.chunk_id, hit.document, hit.version, hit, hit.score, hit.is_current)


def chunk_metadata(chunk: ChunkInfo) -> dict[str, Any]:
    """The same for a stored chunk (a loader's): ``score`` is None."""
    return _metadata(chunk.chunk_id, chunk.document_uri, chunk.version_no, chunk, None, chunk.is_current)


def _metadata(
    chunk_id: str, document: str, version: int, span: Any, score: float | None, current: bool
) -> dict[str, Any]:
    return {
        # LangChain's and LlamaIndex's conventions: where a node comes from, and its first page
        "source": document,
        "page": span.page_start,
        "chunk_id": chunk_id,
        "document": document,
        "version": version,
        "pages": [span.page_start, span.page_end],
        "raw_start": span.raw_start,
        "raw_end": span.raw_end,
        "score": score,
        "is_current": current,
        "collection": getattr(span, "collection", ""),
    }


def record_context(
    store: Store,
    chunk_ids: Sequence[str],
    *,
    markers: Sequence[str] | None = None,
    merge: bool = False,
    max_tokens: int | None = None,
) -> ContextInfo:
    """Record the retrieved chunks (in the order the model sees them) as an injected set: its
    ``prompt`` is the block to put in the model's prompt (markers ``S1..Sn`` unless given), its
    ``context_id`` what :func:`verify` checks the answer's markers against. ``merge`` and
    ``max_tokens``: see :meth:`citeline.store.Store.create_context`."""
    return store.create_context(list(chunk_ids), markers=markers, merge=merge, max_tokens=max_tokens)


def verify(store: Store, answer: str, context: ContextInfo | str, *, options: VerifyOptions | None = None) -> Report:
    """Check a model's answer (text with ``[S1]`` markers and quotes) against a recorded context:
    only its markers may be cited, and each quote must be in the chunk its marker names."""
    from citeline.verify.verify import VerifyOptions, verify_answer

    context_id = context if isinstance(context, str) else context.context_id
    return verify_answer(store, {"answer": answer, "context": context_id}, options=options or VerifyOptions())
