"""The fuzzy threshold against the labelled calibration set: precision and recall of
``citeline.verify.match.locate`` at each threshold, on the set ``benchmarks/calibration/build.py`` builds
(seed 13). The manual's calibration tables (docs/calibration.md) come from here."""

from __future__ import annotations

from collections import Counter
from typing import Any

from benchmarks.calibration.build import MATCH, build
from benchmarks.common import section
from citeline.text.lexicon import document_language
from citeline.verify.match import ALTERED_MIN, FUZZY_THRESHOLD, locate

THRESHOLDS = (70.0, 75.0, 80.0, 85.0, 90.0, 95.0)


def run() -> dict[str, Any]:
    with section("calibration: building the labelled set (seed 13)"):
        pairs = build(seed=13)
    labels = Counter(p["label"] for p in pairs)
    sweep: dict[str, dict[str, Any]] = {}
    for threshold in THRESHOLDS:
        tp = fp = fn = 0
        misses: list[str] = []
        with section(f"calibration: threshold {threshold:g} on {len(pairs)} pairs"):
            for p in pairs:
                accepted = locate(
                    p["quote"],
                    p["chunk"],
                    threshold=threshold,
                    altered_min=min(ALTERED_MIN, threshold),
                    lang=document_language(p["chunk"]),  # as verify does: the document's language
                )
                positive = p["label"] == MATCH
                tp += accepted.found and positive
                fp += accepted.found and not positive
                fn += positive and not accepted.found
                if accepted.found != positive:
                    misses.append(p["id"])
        sweep[f"{threshold:g}"] = {
            "precision": round(tp / (tp + fp), 4) if tp + fp else 0.0,
            "recall": round(tp / (tp + fn), 4) if tp + fn else 0.0,
            "false_accepts": fp,
            "false_rejects": fn,
            "wrong": misses,
        }
    # per class (label and kind of pair): how many, and how many the default threshold gets wrong
    wrong = set(sweep[f"{FUZZY_THRESHOLD:g}"]["wrong"])
    classes: dict[str, dict[str, int]] = {}
    for p in sorted(pairs, key=lambda p: (p["label"], p["kind"])):
        c = classes.setdefault(f"{p['label']}/{p['kind']}", {"pairs": 0, "wrong": 0})
        c["pairs"] += 1
        c["wrong"] += p["id"] in wrong
    return {
        "pairs": len(pairs),
        "labels": dict(labels),
        "classes": classes,
        "default_threshold": FUZZY_THRESHOLD,
        "thresholds": sweep,
    }
