"""`citeline context` and `citeline verify` from the command line: formats, policies, bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from citeline.cli import cli
from tests.conftest import PDF_FIXTURES


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def indexed(tmp_path: Path) -> tuple[str, list[dict[str, object]]]:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / "policy_handbook.pdf", docs / "policy_handbook.pdf")
    url = f"sqlite:///{tmp_path / 'c.db'}"
    assert run("--db", url, "ingest", str(docs), "-q")[0] == 0
    chunks = [json.loads(x) for x in run("--db", url, "chunks", "--format", "jsonl")[1].splitlines()]
    return url, chunks


def verification_runs(url: str) -> int:
    _, out, _ = run("--db", url, "sql", "SELECT count(*) AS n FROM verification_runs", "--format", "json")
    return int(json.loads(out)[0]["n"])


def test_context_prints_the_prompt_block_and_json(indexed: tuple[str, list[dict[str, object]]]) -> None:
    url, chunks = indexed
    ids = [str(chunks[1]["chunk_id"]), str(chunks[2]["chunk_id"])]
    code, out, _ = run("--db", url, "context", *ids)
    assert code == 0
    assert out.startswith("<!-- citeline context ctx_")
    assert "[S1] policy_handbook.pdf (version 1, p. " in out
    assert str(chunks[1]["text"]) in out
    code, out, _ = run("--db", url, "context", *ids, "--markers", "A,B", "--format", "json")
    payload = json.loads(out)
    assert payload["sources"] == {"A": ids[0], "B": ids[1]}
    assert payload["context_id"].startswith("ctx_")
    code, _, err = run("--db", url, "context", "ck_nope")
    assert (code, err.strip()) == (1, "Error: Chunk 'ck_nope' does not exist")


def _answer(tmp_path: Path, context_id: str, quotes: list[str]) -> Path:
    path = tmp_path / "answer.json"
    body = {
        "answer": " ".join(f"Sentence {i} says so [S1]." for i in range(len(quotes))),
        "context": context_id,
        "citations": [{"marker": "S1", "quote": q} for q in quotes],
    }
    path.write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
    return path


def test_verify_formats_policies_and_the_log(tmp_path: Path, indexed: tuple[str, list[dict[str, object]]]) -> None:
    url, chunks = indexed
    chunk = next(c for c in chunks if "Claims are not reimbursed after 90 days." in str(c["text"]))
    ctx = json.loads(run("--db", url, "context", str(chunk["chunk_id"]), "--format", "json")[1])["context_id"]
    good = "Claims are not reimbursed after 90 days."
    bad = "Claims are not reimbursed after 120 days."
    path = _answer(tmp_path, ctx, [good, bad])

    code, out, _ = run("--db", url, "verify", str(path))
    report = json.loads(out)
    assert code == 0  # annotate never fails the run
    assert [c["status"] for c in report["citations"]] == ["verified", "quote_altered"]
    assert report["summary"]["verified"] == 1
    assert report["run_id"] == 1

    code, out, _ = run("--db", url, "verify", str(path), "--format", "text")
    lines = out.splitlines()
    assert lines[0].startswith("✓  1 [S1] verified (100)  policy_handbook.pdf v1 p.1 [")
    assert lines[1].startswith("✗  2 [S1] quote_altered (")
    assert "number '120'->'90'" in lines[1]
    assert "source says: Claims are not reimbursed after ⟦90⟧ days." in lines[2]

    code, _, _ = run("--db", url, "verify", str(path), "--policy", "strict")
    assert code == 1
    code, out, _ = run("--db", url, "verify", str(path), "--policy", "strip")
    assert json.loads(out)["stripped_answer"] == "Sentence 0 says so [S1]."

    html_path = tmp_path / "report.html"
    code, _, err = run("--db", url, "verify", str(path), "--format", "html", "--output", str(html_path))
    assert code == 0
    assert "Report written to" in err
    page = html_path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "data:image/png;base64," in page  # the page rendered from the ingested PDF
    assert 'data-cite="1"' in page

    # every run was logged; verification_rates charts them by day
    assert verification_runs(url) == 5
    code, out, _ = run(
        "--db", url, "sql", "SELECT citations, verified, quote_altered FROM verification_rates", "--format", "json"
    )
    assert json.loads(out) == [{"citations": 10, "verified": 5, "quote_altered": 5}]

    code, _, _ = run("--db", url, "verify", str(path), "--no-log")
    assert code == 0
    assert verification_runs(url) == 5


def test_verify_reads_stdin_and_explicit_sources(indexed: tuple[str, list[dict[str, object]]]) -> None:
    url, chunks = indexed
    chunk = next(c for c in chunks if "Northwind does not process" in str(c["text"]))
    body = {
        "answer": "The company does not pay claims itself [S1].",
        "sources": {"S1": chunk["chunk_id"]},
        "citations": [{"marker": "S1", "quote": "Northwind does not process medical claims itself."}],
    }
    code, out, _ = run("--db", url, "verify", "-", "--no-log", stdin=json.dumps(body))
    assert code == 0
    assert json.loads(out)["citations"][0]["status"] == "verified"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{oops", "not valid JSON at line 1 column 2"),
        ('{"answer": ["x"], "context": "ctx"}', "'answer' must be a string, got list"),
        ('{"answer": "x", "context": "ctx_unknown"}', "Context 'ctx_unknown' does not exist"),
        (
            '{"answer": "x", "sources": {"S1": "ck"}, "citations": [{"marker": "S1", "quote": ""}]}',
            "citations[0].quote is empty",
        ),
    ],
)
def test_bad_input_is_exit_2_one_line_and_writes_nothing(
    tmp_path: Path, indexed: tuple[str, list[dict[str, object]]], content: str, message: str
) -> None:
    url, _ = indexed
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    before = verification_runs(url)
    code, out, err = run("--db", url, "verify", str(path))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("Error: ")
    assert message in err
    assert verification_runs(url) == before


def test_oversized_answer_and_missing_file(tmp_path: Path, indexed: tuple[str, list[dict[str, object]]]) -> None:
    url, _ = indexed
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"answer": "x" * (10 * 1024 * 1024), "sources": {}}), encoding="utf-8")
    code, _, err = run("--db", url, "verify", str(big))
    assert code == 2
    assert err.strip() == f"Error: {big}: 10.5 MB, above the 5 MB limit for an answer"
    code, _, err = run("--db", url, "verify", str(tmp_path / "nope.json"))
    assert code == 2
    assert err.strip() == f"Error: {tmp_path / 'nope.json'}: no such file"


def test_check_sources_flags_a_changed_file(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / "policy_handbook.pdf", docs / "h.pdf")
    url = f"sqlite:///{tmp_path / 'c.db'}"
    run("--db", url, "ingest", str(docs), "-q")
    chunk = next(
        json.loads(x)
        for x in run("--db", url, "chunks", "--format", "jsonl")[1].splitlines()
        if "Northwind does not process" in json.loads(x)["text"]
    )
    body = {
        "answer": "x [S1].",
        "sources": {"S1": chunk["chunk_id"]},
        "citations": [{"marker": "S1", "quote": "Northwind does not process medical claims itself."}],
    }
    path = tmp_path / "a.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    out = json.loads(run("--db", url, "verify", str(path), "--check-sources", "--no-log")[1])
    assert out["citations"][0]["flags"] == []
    shutil.copy(PDF_FIXTURES / "policy_handbook_v2.pdf", docs / "h.pdf")
    out = json.loads(run("--db", url, "verify", str(path), "--check-sources", "--no-log")[1])
    assert out["citations"][0]["flags"] == ["source_changed"]


def test_highlight_renders_chunks_and_ranges_to_png(
    tmp_path: Path, indexed: tuple[str, list[dict[str, object]]]
) -> None:
    from PIL import Image

    url, chunks = indexed
    crossing = next(c for c in chunks if c["page_start"] != c["page_end"])
    out = tmp_path / "chunk.png"
    code, stdout, _ = run("--db", url, "highlight", str(crossing["chunk_id"]), "-o", str(out))
    assert code == 0
    assert f"pages {crossing['page_start']}, {crossing['page_end']}" in stdout
    with Image.open(out) as img:
        assert img.width == round(612 * 1.5)
        assert img.height > 2 * round(792 * 1.5)  # two pages stacked
        # the first box of the chunk is tinted: sample a row of pixels through its middle
        prov = json.loads(run("--db", url, "provenance", str(crossing["chunk_id"]), "--format", "json")[1])
        box = prov["boxes"][0]
        y = round((box["top"] + box["bottom"]) / 2 * 1.5)
        row = [img.convert("RGB").getpixel((x, y)) for x in range(round(box["x0"] * 1.5), round(box["x1"] * 1.5))]
        assert sum(1 for r, g, b in row if r > 200 and b < 200) > len(row) / 2
    code, stdout, _ = run(
        "--db", url, "highlight", "--range", "policy_handbook.pdf:100:160", "-o", str(out), "--scale", "1"
    )
    assert code == 0
    with Image.open(out) as img:
        assert img.size == (612, 792)
    code, _, err = run("--db", url, "highlight", "-o", str(out))
    assert (code, err.strip()) == (2, "Error: give either CHUNK_ID or --range DOC:START:END")
    code, _, err = run("--db", url, "highlight", "--range", "policy_handbook.pdf:9:x", "-o", str(out))
    assert code == 2
    assert "is not DOC:START:END" in err
