"""citeline.garbage: the collector's settings while a document is read, and after."""

from __future__ import annotations

import gc

from citeline.garbage import OLDER_THRESHOLDS, YOUNG_THRESHOLD, few_collections
from citeline.ingest.extract import extract
from tests.conftest import FIXTURES


def test_thresholds_raised_within_and_restored_after() -> None:
    before = gc.get_threshold()
    with few_collections():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
        assert gc.get_freeze_count() > 0
        with few_collections():  # nested: the outermost one restores
            pass
        assert gc.get_threshold() == (YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_restored_when_the_reading_fails() -> None:
    before = gc.get_threshold()
    try:
        with few_collections():
            raise KeyError("x")
    except KeyError:
        pass
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_objects_frozen_by_someone_else_stay_frozen() -> None:
    gc.freeze()
    try:
        with few_collections():
            pass
        assert gc.get_freeze_count() > 0  # not thawed
    finally:
        gc.unfreeze()


def test_a_cycle_made_while_reading_is_collected_after() -> None:
    class Node:
        pass

    with few_collections():
        a, b = Node(), Node()
        a.other, b.other = b, a  # type: ignore[attr-defined]
        del a, b
    assert gc.collect() >= 2


def test_extract_leaves_the_collector_as_it_was() -> None:
    before = gc.get_threshold()
    extract(FIXTURES / "pdf" / "policy_handbook.pdf", extractor="pdfium")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
