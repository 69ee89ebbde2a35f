"""One import namespace (``citeline.*``), the public API, one version, and what a read command loads.

The wheel test builds the wheel, installs it into a new virtual environment outside the checkout and
runs there, where the checkout's folders cannot be on ``sys.path``.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import citeline
from citeline.migrations import HEAD
from tests.conftest import PDF_FIXTURES, ROOT

PACKAGES = ("ingest", "store", "verify", "migrations")
#: Libraries a read command must not import: migrations, scale-out, extraction, matching.
HEAVY = ("alembic", "dask", "distributed", "pdfplumber", "pdfminer", "pypdfium2", "unstructured", "rapidfuzz")


@pytest.mark.parametrize("name", PACKAGES)
def test_subpackages_are_the_top_level_folders_under_the_citeline_name(name: str) -> None:
    link = ROOT / "citeline" / name
    assert link.is_symlink(), f"citeline/{name} must link to ../{name} (a checkout without symlinks breaks imports)"
    assert link.resolve() == (ROOT / name).resolve()
    module = __import__(f"citeline.{name}", fromlist=["_"])
    assert Path(module.__file__ or "").resolve() == (ROOT / name / "__init__.py").resolve()


def test_public_api_names_resolve_and_are_listed() -> None:
    from citeline.batch.ingest import IngestOptions
    from citeline.store.errors import StoreError
    from citeline.store.store import Store
    from citeline.verify.report import Report
    from citeline.verify.verify import VerifyOptions, verify_answer

    for name in citeline.__all__:
        assert getattr(citeline, name) is not None, name
    assert citeline.Store is Store
    assert citeline.IngestOptions is IngestOptions
    assert citeline.verify_answer is verify_answer
    assert citeline.VerifyOptions is VerifyOptions
    assert citeline.Report is Report
    assert citeline.StoreError is StoreError
    assert {"Store", "ingest_files", "IngestOptions", "verify_answer", "VerifyOptions", "Report"} <= set(
        citeline.__all__
    )
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = citeline.nope  # type: ignore[attr-defined]


def test_ingest_files_runs_a_batch_and_the_ingest_package_is_a_plain_package(tmp_path: Path) -> None:
    import types

    import citeline.ingest.extract as extract_module
    from citeline import IngestOptions, Store, ingest_files

    package = sys.modules["citeline.ingest"]
    assert type(package) is types.ModuleType  # no class swapped in at import
    assert package.extract is extract_module
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(PDF_FIXTURES / "policy_handbook.pdf", folder)
    with Store(f"sqlite:///{tmp_path / 'c.db'}") as store:
        summary = ingest_files(store, [folder], IngestOptions(workers=1))
        assert summary.counts()["added"] == 1
        assert summary.counts()["chunks"] > 0
        assert store.documents() == ["policy_handbook.pdf"]


def test_the_old_names_in_citeline_store_still_work_with_a_deprecation_warning() -> None:
    import citeline.store
    from citeline.batch import IngestOptions, ingest_files

    with pytest.warns(DeprecationWarning, match=r"citeline.store.ingest moved to citeline.batch.ingest_files"):
        assert citeline.store.ingest is ingest_files
    with pytest.warns(DeprecationWarning, match="citeline.batch.IngestOptions"):
        assert citeline.store.IngestOptions is IngestOptions


def _imports(folder: Path) -> dict[str, set[str]]:
    """The modules each file of a top-level folder imports (every import statement, wherever it is)."""
    import ast

    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
        out[str(path.relative_to(ROOT))] = names
    return out


def test_each_package_imports_only_what_its_room_may() -> None:
    """store/ is the database alone, verify/ holds no web or rendering code, ingest/ no database, and
    no module swaps a class at import."""
    rules = {
        Path("store"): ("citeline.batch", "citeline.present", "citeline.verify", "citeline.ingest.isolate", "click"),
        Path("verify"): ("citeline.batch", "citeline.present", "http", "click", "pypdfium2", "socketserver"),
        Path("ingest"): ("citeline.store", "citeline.verify", "citeline.batch", "citeline.present", "sqlalchemy"),
    }
    for folder, banned in rules.items():
        for path, names in _imports(folder).items():
            bad = sorted(n for n in names if any(n == b or n.startswith(b + ".") for b in banned))
            assert bad == [], f"{path} imports {bad}"
    for path in [*ROOT.glob("citeline/**/*.py"), *ROOT.glob("store/*.py"), *ROOT.glob("verify/**/*.py")]:
        assert ".__class__ =" not in path.read_text(encoding="utf-8"), path


def test_one_version_everywhere() -> None:
    from click.testing import CliRunner

    from citeline.cli import cli

    out = CliRunner().invoke(cli, ["--version"]).stdout
    assert out.strip() == f"citeline, version {citeline.__version__}"
    assert importlib.metadata.version("citeline") == citeline.__version__
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


_IMPORTS_OF = """
import json, sys
from citeline.cli import main
sys.argv = ["citeline", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit:
    pass
print("\\n@@" + json.dumps(sorted(sys.modules)))
"""


def _modules_after(args: list[str], cwd: Path) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS_OF, json.dumps(args)], cwd=cwd, capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stdout.rsplit("\n@@", 1)[1]))


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A SQLite store with one fixture PDF: (folder, database URL, a chunk id)."""
    from citeline import IngestOptions, Store, ingest_files

    folder = tmp_path_factory.mktemp("reads")
    (folder / "docs").mkdir()
    shutil.copy(PDF_FIXTURES / "policy_handbook.pdf", folder / "docs")
    url = f"sqlite:///{folder / 'c.db'}"
    with Store(url) as store:
        ingest_files(store, [folder / "docs"], IngestOptions(workers=1))
        chunk_id = next(store.iter_chunks()).chunk_id
    return folder, url, chunk_id


@pytest.mark.parametrize(
    "command",
    [
        ["sql", "SELECT count(*) FROM chunks"],
        ["show", "policy_handbook.pdf"],
        ["chunks", "--limit", "2"],
        ["provenance", "CHUNK"],
        ["context", "CHUNK"],
    ],
)
def test_read_commands_import_no_migrations_scale_out_or_extractors(
    indexed: tuple[Path, str, str], command: list[str]
) -> None:
    folder, url, chunk_id = indexed
    args = ["--db", url, *(chunk_id if a == "CHUNK" else a for a in command)]
    loaded = _modules_after(args, folder)
    assert "citeline.cli" in loaded
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert heavy == [], f"citeline {command[0]} imported {heavy[:8]}"
    if command[0] == "sql":
        # a query needs SQLAlchemy's core only
        assert "sqlalchemy.orm" not in loaded
        assert not [m for m in loaded if m.startswith("citeline.ingest.") and m != "citeline.ingest.errors"]
        assert "citeline.store.models" not in loaded


@pytest.mark.slow
def test_wheel_installs_one_namespace_and_works_outside_the_checkout(tmp_path: Path) -> None:
    """Build the wheel, install it into a new virtual environment, and use it from another folder."""
    # build from a copy: setuptools writes build/ and *.egg-info/ beside the sources it builds
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        symlinks=True,
        ignore=shutil.ignore_patterns(
            ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", "results", "*.db"
        ),
    )
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("citeline-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    top = {n.split("/", 1)[0] for n in names}
    assert top == {"citeline", f"citeline-{citeline.__version__}.dist-info"}, top
    for needed in (
        "citeline/store/store.py",
        "citeline/migrations/env.py",
        "citeline/migrations/script.py.mako",
        "citeline/migrations/versions/0001_initial_schema.py",
        "citeline/verify/schema/answer.schema.json",
        "citeline/verify/schema/report.schema.json",
        "citeline/py.typed",
    ):
        assert needed in names, needed
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "CITELINE_DB")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel)], check=True, env=env, capture_output=True)

    elsewhere = tmp_path / "app"
    elsewhere.mkdir()
    for name in PACKAGES:
        gone = subprocess.run([str(py), "-c", f"import {name}"], cwd=elsewhere, capture_output=True, text=True, env=env)
        assert gone.returncode == 1
        assert f"ModuleNotFoundError: No module named '{name}'" in gone.stderr
    found = subprocess.run(
        [str(py), "-c", "import citeline.store, citeline; print(citeline.store.__file__, citeline.__version__)"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert str(venv) in found.stdout
    assert str(ROOT) not in found.stdout
    assert found.stdout.split()[1] == citeline.__version__

    cli = str(venv / "bin" / "citeline")
    url = f"sqlite:///{elsewhere / 'c.db'}"
    up = subprocess.run([cli, "--db", url, "db", "upgrade"], cwd=elsewhere, capture_output=True, text=True, env=env)
    assert up.returncode == 0, up.stderr
    assert f"is at revision {HEAD}" in up.stdout
    shutil.copy(PDF_FIXTURES / "policy_handbook.pdf", elsewhere / "handbook.pdf")
    done = subprocess.run(
        [cli, "--db", url, "ingest", "handbook.pdf", "-q", "--workers", "1"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    rows = subprocess.run(
        [
            cli,
            "--db",
            url,
            "sql",
            "SELECT document_uri, count(*) AS n FROM chunk_provenance GROUP BY 1",
            "--format=json",
        ],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    (row,) = json.loads(rows.stdout)
    assert row["document_uri"] == "handbook.pdf"
    assert row["n"] > 0


def test_python_api_example_imports_only_the_public_api() -> None:
    page = (ROOT / "docs" / "guide" / "python-api.md").read_text(encoding="utf-8")
    section = page.split("# Python API", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python", 1)[1].split("```", 1)[0]
    imports = [ln for ln in code.splitlines() if ln.startswith(("from ", "import "))]
    assert imports, "the manual's Python API page has no import"
    for line in imports:
        assert line.startswith("from citeline import "), line
        names = [n.strip() for n in line.removeprefix("from citeline import ").split(",")]
        assert set(names) <= set(citeline.__all__), names
