"""verify on the labelled answers of ``fixtures/answers/``: false fails and false passes, by half.

The 48 PDFs the answers were written on are ingested with today's code (pdfium backend, default
chunking); each source of a context is mapped to the chunk of its document whose text is the one
the writers saw (the same text while extraction has not changed; otherwise, of the three chunks
most like it, the one holding most of the labelled quotes that text held, and the count of such
sources is reported), the contexts are recorded, and every answer is verified.
Each labelled (quote, marker) is matched to the verdict verify gave for the same marker and quote:

* a **false fail** is a faithful citation that did not pass (or that verify did not find at all);
* a **false pass** is an unfaithful citation that passed (or that verify did not find: nothing
  would have flagged it); claims that contradict a verbatim quote in words other than numbers,
  negation and direction (``claim_contradicts_other``) are counted apart: no deterministic check
  judges them, and how many pass is reported beside;
* ``no_quote`` labels are left out of both counts.

Only the tuning half's failures are listed (``failures``); the evaluation half is counted, never
listed, so that nobody tunes on it.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import re
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from benchmarks.common import ROOT
from citeline.batch import IngestOptions, ingest_files
from citeline.ingest.pipeline import PipelineSettings
from citeline.store import Store
from citeline.verify.checks import CHECKS, DIFFERENCE_RULES, names
from citeline.verify.markers import marker_key
from citeline.verify.parse import parse_answer
from citeline.verify.report import CitationResult
from citeline.verify.verify import Verifier, VerifyOptions

ANSWERS = ROOT / "fixtures" / "answers"
SHARED = ROOT.parent / "shared"
#: Label kinds counted apart from the false passes (see the module's docstring).
APART = frozenset({"claim_contradicts_other"})


@dataclass
class Outcome:
    answer: str
    half: str
    marker: str
    quote: str | None
    faithful: bool | None
    kind: str
    passed: bool
    status: str = "not_found_by_verify"
    flags: tuple[str, ...] = ()
    reason: str = ""
    source: str = ""
    #: whether a source of the answer's context changed since the writer saw it (mapped, see above)
    changed: bool = False

    @property
    def wrong(self) -> bool:
        if self.faithful is None:
            return False
        return self.passed != self.faithful


@dataclass
class Tally:
    faithful: int = 0
    false_fails: int = 0
    unfaithful: int = 0
    false_passes: int = 0
    apart: int = 0
    apart_passed: int = 0
    by_kind: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))

    def add(self, o: Outcome) -> None:
        if o.faithful is None:
            return
        self.by_kind[o.kind][0] += 1
        self.by_kind[o.kind][1] += int(o.wrong)
        if o.kind in APART:
            self.apart += 1
            self.apart_passed += int(o.passed)
        elif o.faithful:
            self.faithful += 1
            self.false_fails += int(not o.passed)
        else:
            self.unfaithful += 1
            self.false_passes += int(o.passed)

    def as_json(self) -> dict[str, Any]:
        return {
            "faithful": self.faithful,
            "false_fails": self.false_fails,
            "false_fail_rate": round(self.false_fails / max(1, self.faithful), 4),
            "unfaithful": self.unfaithful,
            "false_passes": self.false_passes,
            "false_pass_rate": round(self.false_passes / max(1, self.unfaithful), 4),
            "contradicts_other": self.apart,
            "contradicts_other_passed": self.apart_passed,
            "by_kind": {k: {"citations": v[0], "wrong": v[1]} for k, v in sorted(self.by_kind.items())},
        }


def contexts() -> dict[str, dict[str, Any]]:
    """Every round's contexts by id (``contexts.jsonl``, then each later round's ``contexts_*.jsonl``)."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(ANSWERS.glob("contexts*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            out.update((c["id"], c) for c in map(json.loads, fh))
    return out


def answers() -> list[dict[str, Any]]:
    out = []
    for path in sorted(ANSWERS.glob("writer*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            out.extend(map(json.loads, fh))
    return out


def halves() -> dict[str, str]:
    with (ROOT / "benchmarks" / "data" / "split.tsv").open(encoding="utf-8") as fh:
        return {f"{r['corpus']}/{r['file']}": r["half"] for r in csv.DictReader(fh, delimiter="\t")}


@contextmanager
def labelled_store() -> Iterator[tuple[Store, dict[str, dict[str, str]], set[tuple[str, str]]]]:
    """A temporary store of the answers' PDFs, and each context's markers mapped to chunk ids; the
    (context, marker) of each source whose text changed since the writers saw it."""
    ctxs = contexts()
    documents = sorted({s["document"] for c in ctxs.values() for s in c["sources"]})
    missing = [d for d in documents if not (SHARED / d).exists()]
    if missing:
        raise SystemExit(f"the labelled answers need {SHARED / missing[0]} (../shared/corpus and corpus2)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        for d in documents:
            (folder / Path(d).name).symlink_to(SHARED / d)
        store = Store(f"sqlite:///{Path(tmp) / 'answers.db'}")
        try:
            ingest_files(
                store,
                [folder],
                IngestOptions(follow_links=True, settings=PipelineSettings(extractor="pdfium"), workers=2),
            )
            by_doc = {d: list(store.iter_chunks(document=Path(d).name)) for d in documents}
            quoted = _quotes_by_context()
            changed: set[tuple[str, str]] = set()
            mapped: dict[str, dict[str, str]] = {}
            for cid, c in ctxs.items():
                sources: dict[str, str] = {}
                for s in c["sources"]:
                    chunks = by_doc[s["document"]]
                    same = next((k for k in chunks if k.text == s["text"]), None)
                    if same is None:
                        changed.add((cid, s["marker"]))
                        same = _closest(chunks, s["text"], quoted.get(cid, ()))
                    sources[s["marker"]] = same.chunk_id
                mapped[cid] = sources
            yield store, mapped, changed
        finally:
            store.close()


#: A source whose text changed since the writers saw it is mapped among this many chunks closest to it.
CLOSEST = 3


def _quotes_by_context() -> dict[str, set[str]]:
    """Every labelled quote of the answers written on each context, loosened (:func:`_loose`)."""
    out: dict[str, set[str]] = defaultdict(set)
    for a in answers():
        for label in a["citations"]:
            if label["quote"]:
                out[a["context"]].add(_loose(label["quote"]))
    return out


def _closest(chunks: list[Any], seen: str, quotes: Iterable[str]) -> Any:
    """The chunk of today's extraction that stands for a source whose text changed: among the
    :data:`CLOSEST` chunks most like the text the writers saw, the one holding most of the quotes
    that text held (so a boundary that moved a little does not move a quote the writer read in this
    source into the next chunk), then the most alike. Only quotes the writers' text held count: a
    quote of another source cited with this marker (a wrong marker) never pulls a chunk."""
    held = [q for q in quotes if q and q in _loose(seen)]
    # alike by their words (a set ratio): today's text of a chunk whose lines moved keeps its words
    near = sorted(chunks, key=lambda k: fuzz.token_set_ratio(k.text, seen), reverse=True)[:CLOSEST]

    def standing(chunk: Any) -> tuple[int, float]:
        loose = _loose(chunk.text)  # once a chunk, not once a quote
        return sum(q in loose for q in held), fuzz.ratio(chunk.text, seen)

    return max(near, key=standing)


_LOOSE = re.compile(r"[\W_]+")


def _loose(text: str | None) -> str:
    return _LOOSE.sub(" ", (text or "").casefold()).strip()


def _match(
    labels: list[dict[str, Any]], results: list[CitationResult]
) -> Iterator[tuple[dict[str, Any], CitationResult | None]]:
    """Each label with the verdict of the same marker and quote (each verdict used once), in order."""
    free = list(results)
    for label in labels:
        key, quote = marker_key(label["marker"]), _loose(label["quote"])
        found = next(
            (r for r in free if marker_key(r.marker) == key and _loose(r.quote) == quote),
            None,
        )
        if found is None and label["quote"] is not None:
            # the quote as verify read it may differ at its edges (a bracket, an ellipsis at an end)
            found = next(
                (
                    r
                    for r in free
                    if marker_key(r.marker) == key and r.quote and fuzz.ratio(_loose(r.quote), quote) > 90
                ),
                None,
            )
        if found is not None:
            free.remove(found)
        yield label, found


def evaluate(options: VerifyOptions | None = None, *, by_check: bool = False) -> dict[str, Any]:
    """Every labelled answer verified; tallies per half, the tuning half's failures listed. With
    ``by_check``, again with each check and difference rule switched off in turn: per half, the
    false passes each prevents and the false fails each causes (``by_check``)."""
    options = options or VerifyOptions(log=False)
    with labelled_store() as (store, mapped, changed):
        outcomes = _outcomes(store, mapped, options, changed)
        result = _result(outcomes, len(changed))
        if by_check:
            base = result["halves"]
            table: dict[str, Any] = {}
            for name in names():
                off = dataclasses.replace(options, disabled=options.disabled | {name})
                halves_off = _result(_outcomes(store, mapped, off, changed), len(changed))["halves"]
                table[name] = {
                    h: {
                        "false_passes_prevented": halves_off[h]["false_passes"] - base[h]["false_passes"],
                        "false_fails_caused": base[h]["false_fails"] - halves_off[h]["false_fails"],
                        "contradicts_other_prevented": halves_off[h]["contradicts_other_passed"]
                        - base[h]["contradicts_other_passed"],
                    }
                    for h in base
                }
                print(f"   {name:20} {table[name]}", flush=True)
            result["by_check"] = table
    return result


def _outcomes(
    store: Store, mapped: dict[str, dict[str, str]], options: VerifyOptions, changed: set[tuple[str, str]]
) -> list[Outcome]:
    half_of = halves()
    ctxs = contexts()
    outcomes: list[Outcome] = []
    verifier = Verifier(store, options)
    for a in answers():
        ctx = ctxs[a["context"]]
        half = ctx["half"]
        assert all(half_of[s["document"]] == half for s in ctx["sources"]), a["context"]
        # the injected set as the answer's sources (two sources of a context may now be one chunk)
        report = verifier.verify(parse_answer({"answer": a["answer"], "sources": mapped[a["context"]]}))
        for label, r in _match(a["citations"], report.citations):
            outcomes.append(
                Outcome(
                    a["id"],
                    half,
                    label["marker"],
                    label["quote"],
                    label["faithful"],
                    label["kind"],
                    passed=r.passed if r is not None else not label["faithful"],
                    status=r.status if r is not None else "not_found_by_verify",
                    flags=tuple(r.flags) if r is not None else (),
                    reason=r.reason if r is not None else "",
                    source=label.get("source", ""),
                    changed=any((a["context"], s["marker"]) in changed for s in ctx["sources"]),
                )
            )
    return outcomes


def _result(outcomes: list[Outcome], changed: int) -> dict[str, Any]:
    tallies = {h: Tally() for h in ("tuning", "evaluation")}
    unchanged = {h: Tally() for h in ("tuning", "evaluation")}
    for o in outcomes:
        tallies[o.half].add(o)
        if not o.changed:
            unchanged[o.half].add(o)
    return {
        "answers": len({o.answer for o in outcomes}),
        "sources_changed_since_written": changed,
        "halves": {h: t.as_json() for h, t in tallies.items()},
        # the same, on the answers whose context's every source is the text its writer saw (no
        # mapping to today's chunks: what verify does, apart from what extraction changed since)
        "unchanged_contexts": {
            h: {k: v for k, v in t.as_json().items() if k != "by_kind"} for h, t in unchanged.items()
        },
        "failures": [o.__dict__ for o in outcomes if o.half == "tuning" and o.wrong],
        "statuses": dict(Counter(o.status for o in outcomes)),
    }


def by_check_lines(result: dict[str, Any]) -> Iterable[str]:
    yield (
        "| check | flag | tuning: false passes prevented | tuning: false fails caused "
        "| evaluation: false passes prevented | evaluation: false fails caused |"
    )
    yield "|---|---|---|---|---|---|"
    flags = {c.name: c.flag for c in CHECKS} | {r.name: r.flag or "(altered)" for r in DIFFERENCE_RULES}
    for name, halves_ in result.get("by_check", {}).items():
        t, e = halves_["tuning"], halves_["evaluation"]
        yield (
            f"| `{name}` | {flags.get(name, '')} | {t['false_passes_prevented']} | {t['false_fails_caused']} | "
            f"{e['false_passes_prevented']} | {e['false_fails_caused']} |"
        )


def summary_lines(result: dict[str, Any]) -> Iterable[str]:
    yield "| half | faithful | false fails | unfaithful | false passes | contradicts in other words (passed) |"
    yield "|---|---|---|---|---|---|"
    rows = [(half, t) for half, t in result["halves"].items()]
    rows += [(f"{half}, unchanged sources only", t) for half, t in result.get("unchanged_contexts", {}).items()]
    for half, t in rows:
        yield (
            f"| {half} | {t['faithful']} | {t['false_fails']} ({t['false_fail_rate']:.1%}) | {t['unfaithful']} | "
            f"{t['false_passes']} ({t['false_pass_rate']:.1%}) | {t['contradicts_other']} "
            f"({t['contradicts_other_passed']}) |"
        )
