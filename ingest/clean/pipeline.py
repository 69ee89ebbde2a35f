"""The cleaning pipeline: furniture, soft hyphens, lone unmapped glyphs, spacing accents, ligatures,
spaces, dehyphenation, whitespace.

Each step maps its output back to its input; :func:`clean` composes the steps into one map from the
cleaned text to the raw source stream, and translates every removed region and hyphen decision into
raw offsets.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from citeline.ingest.clean.characters import (
    compose_accents,
    drop_lone_unmapped,
    expand_ligatures,
    fold_spaces,
    remove_soft_hyphens,
)
from citeline.ingest.clean.furniture import Furniture, LineGeometry, strip_furniture
from citeline.ingest.clean.hyphenation import dehyphenate
from citeline.ingest.clean.whitespace import normalize_whitespace
from citeline.text.offsets import Normalized, OffsetMap

#: Bumped whenever cleaning can turn the same raw stream into another text (it enters the settings hash).
PIPELINE_VERSION = 7


@dataclass(frozen=True, slots=True)
class CleanSettings:
    """Which steps run. The fingerprint goes into every document version's settings hash."""

    furniture: bool = True
    soft_hyphens: bool = True
    lone_unmapped: bool = True
    accents: bool = True
    ligatures: bool = True
    spaces: bool = True
    dehyphenate: bool = True
    whitespace: bool = True

    def as_dict(self) -> dict[str, object]:
        return {"pipeline_version": PIPELINE_VERSION, **asdict(self)}


@dataclass(frozen=True, slots=True)
class RawFurniture:
    """A removed header, footer or page number, in raw-stream offsets."""

    kind: str
    raw_start: int
    raw_end: int
    page: int
    text: str


@dataclass(frozen=True, slots=True)
class RawHyphenation:
    """A line-end hyphen decision, in raw-stream offsets (the hyphen and the break)."""

    raw_start: int
    raw_end: int
    left: str
    right: str
    joined: bool
    reason: str


@dataclass(frozen=True, slots=True)
class Cleaned:
    """Cleaned text and the composed map from it to the raw stream."""

    text: str
    map: OffsetMap
    furniture: tuple[RawFurniture, ...]
    hyphenations: tuple[RawHyphenation, ...]


def settings_fingerprint(*parts: dict[str, object]) -> str:
    """A stable hash of settings dictionaries (what decides whether a file must be re-processed)."""
    blob = json.dumps(parts, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def clean(
    raw: str,
    *,
    geometry: Sequence[LineGeometry] | None = None,
    known_furniture: Sequence[Furniture] = (),
    settings: CleanSettings = CleanSettings(),
) -> Cleaned:
    """Clean a raw source stream; the result's map takes cleaned offsets back to raw offsets."""
    text = raw
    current = OffsetMap.identity(len(raw))
    furniture: tuple[RawFurniture, ...] = ()
    hyphenations: tuple[RawHyphenation, ...] = ()

    if settings.furniture or known_furniture:
        stripped = strip_furniture(raw, geometry=geometry, known=known_furniture, detect=settings.furniture)
        furniture = tuple(RawFurniture(f.kind, f.start, f.end, f.page, f.text) for f in stripped.removed)
        text, current = stripped.text, stripped.map
    steps = [
        (settings.soft_hyphens, remove_soft_hyphens),
        (settings.lone_unmapped, drop_lone_unmapped),
        (settings.ligatures, expand_ligatures),
        (settings.accents, compose_accents),  # after the ligatures: an accent goes with one letter
        (settings.spaces, fold_spaces),
    ]
    for enabled, step in steps:
        if enabled:
            out = step(text)
            text, current = out.text, current.then(out.map)
    if settings.dehyphenate:
        result = dehyphenate(text)
        hyphenations = tuple(
            RawHyphenation(span.start, span.end, h.left, h.right, h.joined, h.reason)
            for h in result.decisions
            for span in [current.to_original(Normalized(h.start, h.end))]
        )
        text, current = result.text, current.then(result.map)
    if settings.whitespace:
        out = normalize_whitespace(text)
        text, current = out.text, current.then(out.map)
    return Cleaned(text, current, furniture, hyphenations)
