"""Run the benchmarks: ``python -m benchmarks [extract] [transforms] [ingest] [verify] [report]
[scale] [calibration] [startup] [fidelity] [ocr] [search]`` (``verify --by-check``: each check of
verify switched off in turn on the labelled answers)
(all when none is named), ``python -m benchmarks peers`` in the `bench` environment, ``--help`` for
this and a line on each. Results go to benchmarks/results/<name>.json and a Markdown summary to
benchmarks/results/summary.md, and each benchmark's figures to benchmarks/results/summary/<name>.json,
from which the manual's benchmarks page is built."""

from __future__ import annotations

import sys
from typing import Any

from benchmarks import (
    bench_calibration,
    bench_extract,
    bench_fidelity,
    bench_ingest,
    bench_ocr,
    bench_report,
    bench_scale,
    bench_search,
    bench_startup,
    bench_transforms,
    bench_verify,
)
from benchmarks.common import RESULTS, machine, save

BENCHMARKS = {
    "extract": bench_extract.run,
    "transforms": bench_transforms.run,
    "ingest": bench_ingest.run,
    "verify": bench_verify.run,
    "report": bench_report.run,
    "scale": bench_scale.run,
    "calibration": bench_calibration.run,
    "startup": bench_startup.run,
    # runs the peers it can import in this environment and reports the others as not installed
    "fidelity": bench_fidelity.run,
    "ocr": bench_ocr.run,
    "search": bench_search.run,
}
#: Run only when named: needs the peers of the `bench` extra (a separate environment).
OPTIONAL = {"peers"}


def summary(results: dict[str, dict[str, Any]]) -> str:
    m = machine()
    lines = [f"Measured {m['date']} on {m['cpus']} CPUs, Python {m['python']}.", ""]
    if "extract" in results:
        r = results["extract"]
        lines += ["| extraction (text-layer corpus PDFs) | pages/s |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in r["pages_per_second"].items()]
        lines += [""] + [f"* {k}: **{v}**" for k, v in r["ratios"].items()] + [""]
    if "transforms" in results:
        r = results["transforms"]
        lines += [
            f"* clean + chunk: {r['mb_per_second']} MB/s over {r['text_mb']} MB; "
            f"{r['chain_share_of_extraction']:.1%} of pdfplumber's extraction time per page; "
            f"document map {r['map_bytes_per_text_byte']}x and chunk maps {r['chunk_maps_bytes_per_text_byte']}x "
            f"the text size; peak {r['peak_memory_mb']} MB",
            "",
        ]
    if "ingest" in results:
        r = results["ingest"]
        lines += [
            f"* ingest, 1 worker: {r['workers_1']['pages_per_second']} pages/s "
            f"(raw extract_text: {r['reference_pages_per_second']}; ratio "
            f"**{r['ratios']['ingest (1 worker) / raw extract_text']}**); 2 workers: "
            f"{r['workers_2']['pages_per_second']} pages/s (**{r['ratios']['2 workers / 1 worker']}x**)",
            f"* re-ingest of the unchanged corpus: {r['reingest_seconds']} s "
            f"({r['reingest_share_of_first']:.2%} of the first ingest)",
            f"* database: {r['database_bytes_per_page']} bytes per page (the PDFs: {r['raw_pdf_bytes_per_page']})",
            "",
        ]
    if "verify" in results:
        r = results["verify"]
        lines += [
            f"* verify (medians of {r['rounds_run']} rounds): {r['citations_per_second']} citations/s, "
            f"p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms (rounds: "
            f"{min(x['p99'] for x in r['rounds'])}-{max(x['p99'] for x in r['rounds'])} ms) "
            f"(warm: p50 {r['warm_p50_ms']} ms, p99 {r['warm_p99_ms']} ms; rounds: "
            f"{min(x['warm_p99'] for x in r['rounds'])}-{max(x['warm_p99'] for x in r['rounds'])} ms) "
            f"({r['chunk_chars']}-character chunks); difflib sliding window "
            f"{r['difflib_reference_ms_per_citation']} ms per citation: "
            f"**{r['speedup_vs_difflib_same_cases']}x** faster",
            "",
        ]
    if "verify" in results and "labelled" in results["verify"]:
        from benchmarks import labelled

        lines += [
            "Labelled answers (fixtures/answers):",
            "",
            *labelled.summary_lines(results["verify"]["labelled"]),
            "",
        ]
        if "by_check" in results["verify"]["labelled"]:
            lines += [*labelled.by_check_lines(results["verify"]["labelled"]), ""]
    if "report" in results:
        r = results["report"]
        lines += [
            f"* HTML report, {r['citations']} citations over {r['pages_rendered']} pages: "
            f"{r['total_seconds']} s ({r['render_seconds']} s rendering)",
            "",
        ]
    if "scale" in results:
        r = results["scale"]
        lines += [
            f"* PostgreSQL, {r['files']} PDFs: local pool 1 worker {r['local_1']['pages_per_second']} pages/s, "
            f"2 workers {r['local_2']['pages_per_second']} (**{r['ratios']['2 local workers / 1']}x**); Dask "
            f"LocalCluster 1 worker {r['dask_1']['pages_per_second']}, 2 workers {r['dask_2']['pages_per_second']} "
            f"(**{r['ratios']['dask 2 workers / dask 1 worker']}x**); Dask overhead "
            f"{r['dask_overhead_seconds_per_document']} s per document",
            "",
        ]
    if "calibration" in results:
        r = results["calibration"]
        lines += [
            f"| threshold ({r['pairs']} labelled pairs: {r['labels'].get('match', 0)} match, "
            f"{r['labels'].get('no_match', 0)} no_match) | precision | recall | false accepts | false rejects |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| {t} | {v['precision']} | {v['recall']} | {v['false_accepts']} | {v['false_rejects']} |"
            for t, v in r["thresholds"].items()
        ]
        lines += ["", f"| class (label/kind) | pairs | wrong at {r['default_threshold']:g} |", "|---|---|---|"]
        lines += [f"| {k} | {v['pairs']} | {v['wrong']} |" for k, v in r.get("classes", {}).items()]
        lines += [""]
    if "startup" in results:
        r = results["startup"]
        lines += ["| start-up, new process (median of the rounds) | seconds | vs `import sqlalchemy` |"]
        lines += ["|---|---|---|"]
        lines += [
            f"| {k} | {v} | {r['ratio_to_import_sqlalchemy'].get(k, '')} |" for k, v in r["seconds_median"].items()
        ]
        lines += [""]
    if "fidelity" in results:
        lines += [bench_fidelity.markdown(results["fidelity"])]
    if "ocr" in results:
        lines += [bench_ocr.markdown(results["ocr"]), ""]
    if "search" in results:
        lines += [bench_search.markdown(results["search"]), ""]
    if "peers" in results:
        r = results["peers"]
        lines += ["| ingest throughput (pages/s, median of the rounds) | workers | pages/s | rounds |"]
        lines += ["|---|---|---|---|"]
        lines += [
            f"| {k} | {v['workers']} | {v['pages_per_second']} | {', '.join(map(str, v['rounds']))} |"
            for k, v in r["throughput"].items()
        ]
        lines += ["", "| ratio (each round, then the median) | median | rounds |", "|---|---|---|"]
        lines += [
            f"| {k} | **{v['median']}x** | {', '.join(map(str, v['rounds']))} |"
            for k, v in r["throughput_ratios"].items()
        ]
        lines += ["", "| chunk offsets on the fixtures | offset gives the chunk | ...in the source's own characters |"]
        lines += ["|---|---|---|"]
        lines += [f"| {k} | {v['exactness']:.0%} | {v['source_exactness']:.0%} |" for k, v in r["offsets"].items()]
        lines += ["", f"| quote verification ({r['verification']['pairs']} labelled pairs) | precision | recall | /s |"]
        lines += ["|---|---|---|---|"]
        lines += [
            f"| {k} | {v['precision']} | {v['recall']} | {v['citations_per_second']} |"
            for k, v in r["verification"].items()
            if isinstance(v, dict)
        ]
        m = r["memory"]
        lines += [
            "",
            f"* peak RSS of one worker ingesting {m['file']} ({m['pdfplumber']['pages']} pages): "
            f"pdfplumber backend {m['pdfplumber']['peak_rss_mb']} MB, pdfium backend {m['pdfium']['peak_rss_mb']} MB",
            "",
        ]
    return "\n".join(lines)


def usage() -> str:
    """The module's help, with each benchmark's first line (``peers`` needs the `bench` extra)."""
    import importlib

    out = [(__doc__ or "").strip(), "", "benchmarks:"]
    for name in [*BENCHMARKS, *sorted(OPTIONAL)]:
        doc = (importlib.import_module(f"benchmarks.bench_{name}").__doc__ or "").strip()
        first = " ".join(doc.split("\n\n")[0].split())
        out.append(f"  {name:12} {first[:100] + ('...' if len(first) > 100 else '')}")
    return "\n".join(out)


def main(names: list[str]) -> None:
    if any(n in ("-h", "--help") for n in names):
        print(usage())
        return
    flags = {n for n in names if n.startswith("--")}
    names = [n for n in names if not n.startswith("--")]
    unknown_flags = flags - {"--by-check"}
    if unknown_flags:
        raise SystemExit(f"unknown option(s): {', '.join(sorted(unknown_flags))} (verify takes --by-check)")
    chosen = names or list(BENCHMARKS)
    if "peers" in chosen:
        from benchmarks import bench_peers

        BENCHMARKS["peers"] = bench_peers.run
    unknown = [n for n in chosen if n not in BENCHMARKS]
    if unknown:
        raise SystemExit(f"unknown benchmark(s): {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    results = {
        name: bench_verify.run(by_check="--by-check" in flags) if name == "verify" else BENCHMARKS[name]()
        for name in chosen
    }
    for name, data in results.items():
        save(name, data)
    text = summary(results)
    (RESULTS / "summary.md").write_text(text + "\n", encoding="utf-8")
    print("\n" + text)


if __name__ == "__main__":
    main(sys.argv[1:])
