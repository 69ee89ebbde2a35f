"""The README is a guide, the manual in docs/ a reference built with MkDocs (issue 30, item 2).

The README stays short and names every command; the manual's command reference is generated from the
click group, so the built page must hold every command and option; the benchmarks page's tables are
generated from the JSON summaries the benchmarks write.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import click
import pytest

from benchmarks.__main__ import BENCHMARKS, OPTIONAL
from benchmarks.common import flatten_figures, write_summary
from citeline.cli import cli

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
SUMMARIES = ROOT / "benchmarks" / "results" / "summary"

#: The two commands of the README's quick start: .ci/run and tests/test_cli_store.py rely on them.
INDEX_COMMAND = "pip install '.[formats,ocr]' && citeline ingest fixtures/ --allow-failures"
TEST_COMMAND = "pip install -e '.[test]' && python -m pytest"


def readme() -> str:
    return README.read_text(encoding="utf-8")


def section(text: str, title: str) -> str:
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def every_command() -> list[str]:
    """``citeline NAME`` for every command of the group and ``citeline NAME SUB`` for every subcommand."""
    out = []
    for name, cmd in sorted(cli.commands.items()):
        out.append(f"citeline {name}")
        if isinstance(cmd, click.Group):
            out += [f"citeline {name} {sub}" for sub in sorted(cmd.commands)]
    return out


def hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hook_benchmarks", DOCS / "hooks" / "benchmarks.py")
    assert spec
    assert spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ----------------------------------------------------------------------------- the README


def test_readme_is_at_most_300_lines() -> None:
    lines = readme().splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; the manual belongs in docs/"


def test_readme_keeps_the_two_commands_and_ci_runs_the_test_one() -> None:
    quick = section(readme(), "Quick start")
    assert INDEX_COMMAND in quick
    assert TEST_COMMAND in quick
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_command_table_names_every_command() -> None:
    table = section(readme(), "Commands")
    rows = [line for line in table.splitlines() if line.startswith("| `citeline ")]
    named = set()
    for row in rows:
        words = row.removeprefix("| `").split("`", 1)[0].split()
        named |= {" ".join(words[:2]), " ".join(words[:3])}  # `citeline db upgrade` names `citeline db` too
    missing = [c for c in every_command() if c not in named]
    assert not missing, f"README's command table lacks {missing}"


def test_readme_loop_is_the_tested_one_of_the_manual() -> None:
    """The README's RAG loop is a copy of the getting-started page's first blocks, which
    tests/test_search.py runs as written: the short copy cannot drift from the tested one."""
    ours = section(readme(), "From question to verified answer")
    theirs = section((DOCS / "getting-started.md").read_text(encoding="utf-8"), "From question to verified answer")
    blocks = re.findall(r"```(?:bash|python)\n.*?```", ours, flags=re.S)
    assert len(blocks) == 2
    for block in blocks:
        assert block in theirs, block[:80]


def test_readme_links_resolve() -> None:
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme())
    assert any(t.startswith("docs/") for t in targets)
    broken = [t for t in targets if not t.startswith("http") and not (ROOT / t).exists()]
    assert not broken, broken


def test_report_image_moved_to_the_manual() -> None:
    assert not (ROOT / "README.report.png").exists()
    assert (DOCS / "images" / "report.png").stat().st_size > 10_000
    assert "](docs/images/report.png)" in readme()


# ----------------------------------------------------------------------------- the manual's sources


def test_cli_reference_is_generated_from_the_click_group() -> None:
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    assert "::: mkdocs-click" in page
    assert ":module: citeline.cli" in page
    assert ":command: cli" in page
    assert ":prog_name: citeline" in page
    from citeline import cli as cli_module

    assert isinstance(cli_module.cli, click.Group)


def test_every_nav_page_exists_and_every_page_is_in_the_nav() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = re.findall(r":\s+([\w/.-]+\.md)\s*$", config, flags=re.M)
    assert "reference/cli.md" in nav
    assert "benchmarks.md" in nav
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md") if "_incoming" not in p.parts}
    assert set(nav) == pages, set(nav) ^ pages


def test_changelog_keeps_the_history_the_readme_held() -> None:
    """Earlier figures and each round's fixes moved to the changelog, not lost."""
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    for figure in ("p99 1.27 ms", "**475x** faster", "Known misjudgements", "What changed on 2026-12-03"):
        assert figure in changelog, figure
    assert "p99 1.27 ms" not in readme()


def test_ci_builds_the_manual_after_the_tests() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -e '.[docs]'" in run
    assert run.index("mkdocs build --strict") > run.index(TEST_COMMAND)
    assert "site/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()


# ----------------------------------------------------------------------------- benchmark summaries


def test_every_benchmark_has_a_committed_summary() -> None:
    for name in [*BENCHMARKS, *OPTIONAL]:
        data = json.loads((SUMMARIES / f"{name}.json").read_text(encoding="utf-8"))
        assert data["benchmark"] == name
        assert data["figures"], name
        assert all({"name", "value"} <= set(f) for f in data["figures"]), name


def test_a_run_replaces_its_summary_and_keeps_labels_and_targets(tmp_path: Path) -> None:
    seeded = {
        "benchmark": "verify",
        "title": "Vérification",
        "source": "README before the docs move",
        "figures": [
            {"name": "p99_ms", "label": "p99 par citation, ms", "value": 3.89, "target": "< 2", "note": "nuit"},
            {"name": "gone", "label": "a figure this run does not measure", "value": 1},
        ],
    }
    (tmp_path / "verify.json").write_text(json.dumps(seeded, ensure_ascii=False), encoding="utf-8")
    write_summary("verify", {"p99_ms": 1.45, "rounds": [1, 2], "ratios": {"ü / a": 2.5}}, folder=tmp_path)
    data = json.loads((tmp_path / "verify.json").read_text(encoding="utf-8"))
    assert data["source"] == "python -m benchmarks verify"
    assert data["title"] == "Vérification"
    assert data["figures"] == [
        {"name": "p99_ms", "value": 1.45, "label": "p99 par citation, ms", "target": "< 2"},
        {"name": "ratios.ü / a", "value": 2.5},
    ]


def test_figures_are_flattened_to_three_keys_without_lists_or_detail() -> None:
    data = {
        "overall": {"citeline (pdfium)": {"share": 0.811, "missed": ["…"], "deep": {"x": 1}}},
        "per_file": {"Übersicht.pdf": {"pages": 3}},
        "pages": 363,
        "rounds": [1.2],
        "name": "Zürich",
    }
    assert flatten_figures(data) == {"overall.citeline (pdfium).share": 0.811, "pages": 363, "name": "Zürich"}


def test_the_hook_renders_one_table_per_summary_in_order(tmp_path: Path) -> None:
    h = hook()
    for name, figure in (("search", "p95 ≤ 20 ms"), ("extract", "4.6x | behind")):
        doc = {"benchmark": name, "title": f"Titre {name}", "source": "README before the docs move"}
        doc |= {"machine": {"date": "2026-12-03", "cpus": 2}, "figures": [{"name": "a", "value": figure}]}
        (tmp_path / f"{name}.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    noted = {"benchmark": "ocr", "figures": [{"name": "b", "label": "Genève", "value": 1.17, "note": "23 pages"}]}
    noted["figures"][0] |= {"target": "≥ 1.0x", "measured": "2026-12-02"}
    (tmp_path / "ocr.json").write_text(json.dumps(noted, ensure_ascii=False), encoding="utf-8")
    text = h.render(tmp_path)
    assert text.index("### Titre extract") < text.index("### ocr") < text.index("### Titre search")  # ORDER
    assert "| a | 4.6x \\| behind |" in text
    assert "| Genève | 1.17 (23 pages; 2026-12-02) | ≥ 1.0x |" in text
    assert "`python -m benchmarks ocr` · date not recorded, this project's machine · source: unknown" in text
    assert "measured 2026-12-03, 2 CPUs · source: README before the docs move" in text


def test_the_hook_names_a_broken_summary(tmp_path: Path) -> None:
    h = hook()
    (tmp_path / "größe.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(h.SummaryError, match=r"größe\.json: not a readable JSON summary"):
        h.render(tmp_path)
    (tmp_path / "größe.json").write_text('{"figures": [{"value": 1}]}', encoding="utf-8")
    with pytest.raises(h.SummaryError, match=r"größe\.json: 'figures' must be a list of objects"):
        h.render(tmp_path)


# ----------------------------------------------------------------------------- the build


def test_mkdocs_build_strict_passes_and_the_cli_page_lists_every_command_and_option(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocs_click") is None:
        pytest.skip("mkdocs is not installed: pip install -e '.[docs]'")
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": str(Path(sys.executable).parent)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    page = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    for command in every_command():
        assert 'id="' + command.replace(" ", "-") + '"' in page, command
    for name, cmd in cli.commands.items():
        for sub in [cmd, *getattr(cmd, "commands", {}).values()]:
            for param in sub.params:
                for opt in getattr(param, "opts", []):
                    if opt.startswith("-"):
                        assert opt in page, (name, sub.name, opt)
    bench = (site / "benchmarks" / "index.html").read_text(encoding="utf-8")
    assert "benchmark-tables" not in bench  # the marker was replaced by the tables
    assert "README before the docs move" in bench
    assert "≥ 8x" in bench


def test_the_verify_guide_lists_every_named_check_with_its_flag() -> None:
    from citeline.verify.checks import CHECKS, DIFFERENCE_RULES

    guide = (ROOT / "docs" / "guide" / "verify.md").read_text(encoding="utf-8")
    for c in CHECKS:
        assert f"| `{c.name}` | `{c.flag}` |" in guide, c.name
        assert c.summary in guide, c.name
    for r in DIFFERENCE_RULES:
        assert f"| `{r.name}` |" in guide, r.name
