"""verify reads every answer within the 5 MB limit, whatever it comes from (issue 33, item 1): a
regular file, stdin, or a device such as /dev/zero that never ends; serve's /verify refuses the
audit's answers under the same caps, in one line, fast."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from citeline.verify.load import MAX_ANSWER_BYTES
from citeline.verify.parse import MAX_CITATIONS, MAX_MARKERS
from tests.measure import citeline
from tests.test_safety_serve import Served, request, served  # noqa: F401  (a fixture)

QUOTE = "Zürich: claims are not reimbursed after 90 days"


def test_dev_zero_is_read_within_the_limit(tmp_path: Path) -> None:
    """/dev/zero has no size: before, it was read whole (7.7 GB in 10 s)."""
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    run = citeline("--db", f"sqlite:///{tmp_path / 'v.db'}", "verify", "/dev/zero", "--no-log", timeout=60)
    assert run.code == 2, run.stderr
    (line,) = run.stderr.strip().splitlines()
    assert line == f"Error: /dev/zero: more than {MAX_ANSWER_BYTES / 1e6:.0f} MB, above the limit for an answer"
    assert run.peak_mb < 200, run.peak_mb


def test_stdin_is_read_within_the_limit(tmp_path: Path) -> None:
    body = json.dumps({"answer": "Grüße " * (MAX_ANSWER_BYTES // 6), "sources": {}}).encode()
    assert len(body) > MAX_ANSWER_BYTES
    run = citeline("--db", f"sqlite:///{tmp_path / 'v.db'}", "verify", "-", "--no-log", stdin=body, timeout=60)
    assert run.code == 2, run.stderr
    (line,) = run.stderr.strip().splitlines()
    assert line == f"Error: <stdin>: more than {MAX_ANSWER_BYTES / 1e6:.0f} MB, above the limit for an answer"
    # the read stops one byte past the limit: a 5 MB answer never becomes a copy of everything sent
    assert run.peak_mb < 300, run.peak_mb


def test_a_fifo_is_read_within_the_limit(tmp_path: Path) -> None:
    fifo = tmp_path / "answer.fifo"
    os.mkfifo(fifo)
    pid = os.fork()
    if pid == 0:  # a writer that never stops
        try:
            with open(fifo, "wb") as out:
                while True:
                    out.write(b"\xc3\xa9" * 65536)
        finally:
            os._exit(0)
    try:
        run = citeline("--db", f"sqlite:///{tmp_path / 'v.db'}", "verify", str(fifo), "--no-log", timeout=60)
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    assert run.code == 2, run.stderr
    assert run.stderr.strip() == f"Error: {fifo}: more than 5 MB, above the limit for an answer"


@pytest.mark.parametrize(
    ("shape", "refusal"),
    [
        ("markers", f"a marker list names more than {MAX_MARKERS} sources"),
        ("quotes", f"more than {MAX_CITATIONS} quotes"),
    ],
)
def test_serve_refuses_the_audits_answers_fast(served: Served, shape: str, refusal: str) -> None:  # noqa: F811
    """One 160 KB POST to /verify ran 82 s and left the server at 1.2 GB before the caps."""
    if shape == "markers":
        text = f'Le manuel dit "{QUOTE}" [' + ", ".join(f"S{i}" for i in range(1, 10000)) + "]."
    else:
        text = " ".join(f'"Zürich claim number {i} is here"' for i in range(10000)) + " [S1]."
    answer = json.dumps({"answer": text, "sources": {"S1": served.chunk_id}})
    started = time.monotonic()
    status, _, body = request(
        served,
        "POST",
        "/verify",
        urlencode({"answer": answer}).encode(),
        {"Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://127.0.0.1:{served.port}"},
    )
    assert time.monotonic() - started < 10
    assert status == 400
    assert f"answer: {refusal}".encode() in body
    assert served.runs() == 0


def test_a_slow_client_is_dropped_at_the_request_deadline(served: Served) -> None:  # noqa: F811
    """A byte every second satisfies the socket timeout; the request deadline still ends it."""
    from citeline.present.web import make_server

    server = make_server(served.store, "127.0.0.1", 0, socket_timeout=2.0, request_timeout=3.0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Grüße: ".encode())
            closed = False
            while time.monotonic() - started < 8 and not closed:
                try:
                    sock.sendall(b"a")
                    sock.settimeout(1.0)
                    closed = sock.recv(1024) == b""
                except TimeoutError:
                    continue
                except OSError:
                    closed = True
        assert closed
        assert time.monotonic() - started < 6
    finally:
        server.shutdown()
        server.server_close()


def test_a_client_that_leaves_early_prints_no_traceback(
    served: Served,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    from citeline.present.web import make_server

    server = make_server(served.store, "127.0.0.1", 0)
    try:
        try:
            raise BrokenPipeError(32, "Broken pipe: der Client ist weg")
        except BrokenPipeError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert capsys.readouterr().err == ""
        try:
            raise ValueError("ein echter Fehler")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert "ein echter Fehler" in capsys.readouterr().err  # our own bugs are still shown
    finally:
        server.server_close()
