"""What the layout engine decided on one page, for a picture of it (``citeline extract
--debug-layout``): the columns and sections the column search found, the gutters it split them at,
the blocks, and the lines in reading order.

The stages note their decisions only while :func:`tracing` is active (a context variable: nothing
is kept, and nothing is slower than one lookup per column split, otherwise)::

    with tracing() as trace:
        laid = layout_page(page, settings)
    trace.gutters  # [Region(x0=286.0, x1=314.0, top=72.0, bottom=700.5)]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citeline.ingest.extract.layout.blocks import Block
    from citeline.ingest.extract.layout.lines import Piece


@dataclass(frozen=True, slots=True)
class Region:
    """A rectangle on the page, in PDF points, origin top-left."""

    x0: float
    x1: float
    top: float
    bottom: float


@dataclass
class LayoutTrace:
    """The decisions of one page's layout, in page coordinates."""

    #: the reading-order groups of the page body: one per column flow and full-width section
    columns: list[Region] = field(default_factory=list)
    #: where the column search split a region: the empty band between two columns
    gutters: list[Region] = field(default_factory=list)
    #: the blocks (one column's run of body lines, a table, footnotes, line numbers, the page foot,
    #: rotated text), each with its kind
    blocks: list[Block] = field(default_factory=list)
    #: nested stages laid out in another frame (vertical writing) note nothing while this is > 0
    paused: int = 0


_CURRENT: ContextVar[LayoutTrace | None] = ContextVar("citeline_layout_trace", default=None)


@contextmanager
def tracing() -> Iterator[LayoutTrace]:
    """Collect the layout's decisions made inside the ``with`` block."""
    trace = LayoutTrace()
    token = _CURRENT.set(trace)
    try:
        yield trace
    finally:
        _CURRENT.reset(token)


@contextmanager
def paused() -> Iterator[None]:
    """Note nothing inside (a stage run in a turned frame, whose coordinates are not the page's)."""
    trace = _CURRENT.get()
    if trace is not None:
        trace.paused += 1
    try:
        yield
    finally:
        if trace is not None:
            trace.paused -= 1


def _active() -> LayoutTrace | None:
    trace = _CURRENT.get()
    return trace if trace is not None and not trace.paused else None


def bounds(items: Sequence[Piece]) -> Region:
    return Region(
        min(p.x0 for p in items), max(p.x1 for p in items), min(p.top for p in items), max(p.bottom for p in items)
    )


def note_gutter(x0: float, x1: float, items: Sequence[Piece]) -> None:
    """A region was split at the gutter ``[x0, x1]`` between the columns of ``items``."""
    trace = _active()
    if trace is not None and items:
        box = bounds(items)
        trace.gutters.append(Region(x0, x1, box.top, box.bottom))


def note_columns(groups: Sequence[tuple[Sequence[Piece], bool]]) -> None:
    """The reading-order groups of the page body (floating ones are not columns)."""
    trace = _active()
    if trace is not None:
        trace.columns.extend(bounds(group) for group, floating in groups if group and not floating)


def note_blocks(found: Sequence[Block]) -> None:
    trace = _active()
    if trace is not None:
        trace.blocks.extend(found)
