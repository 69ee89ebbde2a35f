"""Closed sets are types (issue 30, item 4): outcome status, executor, policy, OCR mode and extractor
are ``Literal`` types in :mod:`citeline.kinds`; the library's fields carry them, the command line
takes its choices and defaults from them, and a value outside the set is one line naming it."""

from __future__ import annotations

import json
import sqlite3
import typing
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from citeline import kinds
from citeline.cli import cli


def _option(command: str, name: str) -> click.Option:
    cmd = cli.commands[command]
    for param in cmd.params:
        if isinstance(param, click.Option) and name in param.opts:
            return param
    raise AssertionError(f"citeline {command} has no option {name}")


# (command, option, the type, its members, its default)
CHOICES = [
    ("ingest", "--extractor", kinds.Extractor, kinds.EXTRACTORS, kinds.DEFAULT_EXTRACTOR),
    ("extract", "--extractor", kinds.Extractor, kinds.EXTRACTORS, kinds.DEFAULT_EXTRACTOR),
    ("ingest", "--executor", kinds.Executor, kinds.EXECUTORS, kinds.DEFAULT_EXECUTOR),
    ("ingest", "--ocr", kinds.OcrMode, kinds.OCR_MODES, kinds.DEFAULT_OCR_MODE),
    ("extract", "--ocr", kinds.OcrMode, kinds.OCR_MODES, kinds.DEFAULT_OCR_MODE),
    ("verify", "--policy", kinds.Policy, kinds.POLICIES, kinds.DEFAULT_POLICY),
]


@pytest.mark.parametrize(("command", "name", "kind", "members", "default"), CHOICES)
def test_cli_choices_and_defaults_are_the_types_members(
    command: str, name: str, kind: object, members: tuple[str, ...], default: str
) -> None:
    assert members == typing.get_args(kind)
    assert len(members) >= 2
    assert default in members
    option = _option(command, name)
    assert isinstance(option.type, click.Choice)
    assert tuple(option.type.choices) == members
    assert option.default == default
    help_text = CliRunner().invoke(cli, [command, "--help"]).stdout
    assert f"[{'|'.join(members)}]" in " ".join(help_text.split())


def test_library_fields_carry_the_types() -> None:
    """mypy checks every value written into these fields against the set (a misspelt ``"faild"``
    is a type error), not just a ``str``."""
    from citeline.batch.ingest import IngestOptions
    from citeline.batch.outcomes import FileOutcome
    from citeline.ingest.extract.ocr import OcrSettings
    from citeline.ingest.pipeline import PipelineSettings
    from citeline.store.records import WriteResult
    from citeline.verify.options import VerifyOptions
    from citeline.verify.report import Report

    def hint(cls: type, name: str) -> object:
        return typing.get_type_hints(cls)[name]

    assert hint(PipelineSettings, "extractor") == kinds.Extractor
    assert hint(OcrSettings, "mode") == kinds.OcrMode
    assert hint(IngestOptions, "executor") == kinds.Executor
    assert hint(FileOutcome, "status") == kinds.OutcomeStatus
    assert hint(WriteResult, "status") == kinds.WriteStatus
    assert set(kinds.WRITE_STATUSES) < set(kinds.OUTCOME_STATUSES)
    assert hint(VerifyOptions, "policy") == kinds.Policy
    assert hint(Report, "policy") == kinds.Policy
    # the library's defaults are the command line's
    assert PipelineSettings().extractor == kinds.DEFAULT_EXTRACTOR
    assert OcrSettings().mode == kinds.DEFAULT_OCR_MODE
    assert IngestOptions().executor == kinds.DEFAULT_EXECUTOR
    assert VerifyOptions().policy == kinds.DEFAULT_POLICY


ONE_OF = "is not one of"


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["ingest", "x", "--extractor", "pdfminer-é"], f"'--extractor': 'pdfminer-é' {ONE_OF} 'auto', 'pdfplumber'"),
        (["extract", "x.pdf", "--extractor", "pdfminer-é"], f"'--extractor': 'pdfminer-é' {ONE_OF}"),
        (["ingest", "x", "--executor", "ray-ü"], f"'--executor': 'ray-ü' {ONE_OF} 'local', 'dask'."),
        (["ingest", "x", "--ocr", "immer-ß"], f"'--ocr': 'immer-ß' {ONE_OF} 'auto', 'off', 'force'."),
        (["verify", "a.json", "--policy", "streng-ö"], f"'--policy': 'streng-ö' {ONE_OF} 'annotate', 'strict'"),
    ],
)  # fmt: skip
def test_a_value_outside_the_set_is_a_one_line_usage_error(args: list[str], shown: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    errors = [ln for ln in result.stderr.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1, result.stderr
    assert shown in errors[0]
    assert "Traceback" not in result.stderr


def _extract(path: Path, extractor: str) -> object:
    from citeline.ingest.extract import extract

    return extract(path, extractor=extractor)  # type: ignore[arg-type]


def _ocr(mode: str) -> object:
    from citeline.ingest.extract.ocr import OcrSettings

    return OcrSettings(mode=mode)  # type: ignore[arg-type]


def _verify_options(policy: str) -> object:
    from citeline.verify.options import VerifyOptions

    return VerifyOptions(policy=policy)  # type: ignore[arg-type]


def _outcome(path: Path, status: str) -> object:
    from citeline.batch.outcomes import FileOutcome

    return FileOutcome(str(path), path.name, status)  # type: ignore[arg-type]


def _ingest(path: Path, executor: str) -> object:
    from citeline.batch.ingest import IngestOptions, ingest_files
    from citeline.store import Store

    with Store(f"sqlite:///{path.parent / 'c.db'}") as store:
        return ingest_files(store, [path], IngestOptions(executor=executor))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda doc: _extract(doc, "pdfminer-é"), "extractor must be one of auto, pdfplumber, pdfium, not 'pdf"),
        (lambda doc: _ocr("immer-ß"), "ocr mode must be one of auto, off, force, not 'immer-ß'"),
        (lambda doc: _verify_options("streng-ö"), "policy 'streng-ö' is not one of annotate, strict, strip"),
        (lambda doc: _outcome(doc, "faild-ü"), "outcome status must be one of added, updated, skipped, failed, not"),
        (lambda doc: _ingest(doc, "ray-ü"), "executor must be one of local, dask, not 'ray-ü'"),
    ],
    ids=["extractor", "ocr", "policy", "outcome", "executor"],
)  # fmt: skip
def test_the_library_refuses_a_value_outside_the_set_in_one_line(
    tmp_path: Path, call: typing.Callable[[Path], object], message: str
) -> None:
    doc = tmp_path / "grüße.txt"
    doc.write_text("Grüße aus Köln: ein naïver Satz über das Café.\n", encoding="utf-8")
    from citeline.verify.errors import InputError

    with pytest.raises((ValueError, InputError)) as caught:
        call(doc)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_outcome_statuses_are_the_summary_columns_and_stored_as_plain_text(tmp_path: Path) -> None:
    """The summary table has one column per outcome status, and what is stored (and printed as
    JSON) is the bare value."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "grüße.txt").write_text("Grüße aus Köln: ein naïver Satz über das Café.\n", encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'c.db'}"
    result = CliRunner().invoke(cli, ["--db", url, "ingest", str(folder), "--workers", "1", "-q"])
    assert result.exit_code == 0, result.output
    header = result.stdout.splitlines()[0].split()
    assert header == [*kinds.OUTCOME_STATUSES, "pages", "chunks", "seconds"]
    with sqlite3.connect(tmp_path / "c.db") as con:
        stored = con.execute("SELECT status, executor FROM ingestion_runs").fetchall()
        outcomes = con.execute("SELECT uri, status FROM ingestion_outcomes").fetchall()
    assert stored == [("completed", "local")]
    assert outcomes == [("grüße.txt", "added")]
    assert json.dumps(outcomes[0][1]) == '"added"'
