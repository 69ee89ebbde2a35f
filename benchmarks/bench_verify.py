"""Citation verification: its speed, and its verdicts on the labelled answers of fixtures/answers
(false fails and false passes per half; ``--by-check``: what each named check adds).

Speed: citations per second in-process (``Verifier.check`` with the store's
lookups cached, as in a RAG request path) on 2,000-character chunks, p50/p99 latency, against the
common reference approach (a ``difflib.SequenceMatcher`` window sliding over the chunk) on the same
cases in the same run.

p50/p99 are of the first pass over the citations with a new verifier, which includes each chunk's
and document's first look-up (store queries, folding); ``warm_p50_ms``/``warm_p99_ms`` of a second
pass over the same citations, every lookup cached and every alignment done again. The passes are
repeated :data:`ROUNDS` times, each with a new verifier; the figures are the medians over the rounds,
with each round's in ``rounds`` (this machine's speed drifts from minute to minute)."""

from __future__ import annotations

import difflib
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import labelled
from benchmarks.common import FIXTURES, section, text_layer_pdfs
from citeline.batch import IngestOptions, ingest_files
from citeline.ingest.pipeline import PipelineSettings
from citeline.store import Store
from citeline.store.records import ChunkInfo
from citeline.verify.parse import CitationInput
from citeline.verify.quotes import folded_quote as _folded_quote
from citeline.verify.verify import Verifier, VerifyOptions

CHUNK_CHARS = 2000
CASES = 600
CONTEXT_SIZE = 8
ROUNDS = 5


def difflib_sliding(quote: str, chunk: str) -> float:
    """The reference: best SequenceMatcher ratio of the quote against every window of its length."""
    n = len(quote)
    best = 0.0
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(quote)
    for i in range(0, max(1, len(chunk) - n + 1)):
        matcher.set_seq1(chunk[i : i + n])
        if matcher.real_quick_ratio() <= best or matcher.quick_ratio() <= best:
            continue
        best = max(best, matcher.ratio())
    return best


def _mutate(quote: str, rng: random.Random) -> str:
    words = quote.split()
    kind = rng.choice(["exact", "typo", "number", "swap"])
    if kind == "typo":
        i = rng.randrange(len(words))
        w = words[i]
        if len(w) > 4:
            j = rng.randrange(1, len(w) - 1)
            words[i] = w[:j] + w[j + 1 :]
    elif kind == "number":
        words.append("42")
    elif kind == "swap" and len(words) > 3:
        words[1], words[2] = words[2], words[1]
    return " ".join(words)


def _round(
    store: Store,
    cases: list[tuple[ChunkInfo, str]],
    contexts: list[dict[str, str]],
    statuses: dict[str, int],
) -> dict[str, float]:
    """One round: a new verifier (and no quote folded yet), 20 citations to warm it up as a service
    would be, the first pass timed, then the warm pass. Seconds."""
    _folded_quote.cache_clear()
    verifier = Verifier(store, VerifyOptions(log=False))
    for i in range(20):
        verifier.check(CitationInput("S1", cases[i][1]), contexts[i], {})
    first, warm = [], []
    for i, (_, q) in enumerate(cases):
        t0 = time.perf_counter()
        checked = verifier.check(CitationInput("S1", q), contexts[i], {})
        first.append(time.perf_counter() - t0)
        statuses[checked.status] = statuses.get(checked.status, 0) + 1
    for i, (_, q) in enumerate(cases):
        t0 = time.perf_counter()
        verifier.check(CitationInput("S1", q), contexts[i], {})
        warm.append(time.perf_counter() - t0)
    sample_mean = statistics.mean(first[:60])
    mean = statistics.mean(first)
    first.sort()
    warm.sort()
    return {
        "mean": mean,
        "sample_mean": sample_mean,
        "p50": first[len(first) // 2],
        "p99": first[int(len(first) * 0.99) - 1],
        "max": first[-1],
        "warm_p50": warm[len(warm) // 2],
        "warm_p99": warm[int(len(warm) * 0.99) - 1],
    }


def run(*, by_check: bool = False) -> dict[str, Any]:
    """Speed, then the labelled answers (:mod:`benchmarks.labelled`), each check switched off in
    turn with ``by_check``."""
    result = speed()
    with section("labelled answers (fixtures/answers)" + (", each check off in turn" if by_check else "")):
        result["labelled"] = labelled.evaluate(by_check=by_check)
    for line in labelled.summary_lines(result["labelled"]):
        print("   " + line)
    return result


def speed() -> dict[str, Any]:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        for path, _ in text_layer_pdfs()[:8]:
            (folder / path.name).symlink_to(path)
        (folder / "policy_handbook.pdf").symlink_to(FIXTURES / "policy_handbook.pdf")
        settings = PipelineSettings(chunk_target=CHUNK_CHARS, chunk_overlap=200)
        with Store(f"sqlite:///{Path(tmp) / 'v.db'}") as store:
            with section("index with 2,000-character chunks"):
                ingest_files(store, [folder], IngestOptions(follow_links=True, settings=settings, workers=2))
            chunks = [c for c in store.iter_chunks() if len(c.text) >= 1500]
            cases = []
            for _ in range(CASES):
                c = rng.choice(chunks)
                start = rng.randrange(0, len(c.text) - 200)
                start = c.text.find(" ", start) + 1
                quote = c.text[start : start + rng.randrange(60, 200)].rsplit(" ", 1)[0]
                cases.append((c, _mutate(quote, rng)))

            def context(i: int) -> dict[str, str]:
                # the cited chunk among seven others, as in a RAG prompt
                others = rng.sample(chunks, CONTEXT_SIZE - 1)
                return {"S1": cases[i][0].chunk_id} | {f"S{k + 2}": c.chunk_id for k, c in enumerate(others)}

            contexts = [context(i) for i in range(CASES)]
            rounds = []
            statuses: dict[str, int] = {}
            for r in range(ROUNDS):
                with section(f"citeline round {r + 1}: {CASES} citations, {CONTEXT_SIZE} injected chunks each"):
                    rounds.append(_round(store, cases, contexts, statuses if r == 0 else {}))
            sample = cases[:60]
            with section(f"difflib sliding window: {len(sample)} of the same citations"):
                t0 = time.perf_counter()
                for c, q in sample:
                    difflib_sliding(q, c.text)
                ref_per_citation = (time.perf_counter() - t0) / len(sample)
    median = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
    result = {
        "cases": CASES,
        "chunk_chars": CHUNK_CHARS,
        "rounds_run": ROUNDS,
        "statuses": statuses,
        "citations_per_second": round(1 / median["mean"], 1),
        "p50_ms": round(median["p50"] * 1e3, 3),
        "p99_ms": round(median["p99"] * 1e3, 3),
        "max_ms": round(median["max"] * 1e3, 3),
        "warm_p50_ms": round(median["warm_p50"] * 1e3, 3),
        "warm_p99_ms": round(median["warm_p99"] * 1e3, 3),
        "difflib_reference_ms_per_citation": round(ref_per_citation * 1e3, 2),
        "speedup_vs_difflib_same_cases": round(ref_per_citation / median["sample_mean"], 1),
        "rounds": [{k: round(v * 1e3, 3) for k, v in r.items()} for r in rounds],
    }
    for k, v in result.items():
        print(f"   {k:40} {v}")
    return result
