"""``citeline serve`` against hostile and careless clients, on a real server on 127.0.0.1 over a
real store (SQLite and PostgreSQL): bodies bounded before they are read, sockets that time out,
malformed requests answered 400, foreign hosts and cross-origin POSTs refused, a policy that runs
no inline script, HEAD answered, a full backlog, and page renders under the pixel cap."""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest
from PIL import Image

from citeline.batch import IngestOptions, ingest_files
from citeline.present.pages import MAX_PIXELS, MAX_SIDE_PX, PageRenderer
from citeline.present.web import BACKLOG, MAX_BODY_BYTES, make_server
from citeline.store import Store
from citeline.store.sql import run_sql
from tests.conftest import PDF_FIXTURES

TIMEOUT = 1.0  # the server's socket timeout in these tests


@dataclass
class Served:
    store: Store
    url: str
    port: int
    chunk_id: str
    quote: str
    version_id: int

    def runs(self) -> int:
        return int(run_sql(self.url, "SELECT count(*) AS n FROM verification_runs")[1][0][0])

    def answer(self) -> bytes:
        return json.dumps(
            {
                "answer": "The handbook says so [S1].",
                "sources": {"S1": self.chunk_id},
                "citations": [{"marker": "S1", "quote": self.quote}],
            }
        ).encode()


@pytest.fixture
def served(db_url: str, tmp_path: Path) -> Iterator[Served]:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(PDF_FIXTURES / "multilingual.pdf", docs)
    with Store(db_url) as store:
        ingest_files(store, [docs], IngestOptions(workers=1))
        chunk = next(c for c in store.iter_chunks() if any(ord(ch) > 127 for ch in c.text))
        words = chunk.text.split()
        quote = " ".join(words[:8])
        server = make_server(store, "127.0.0.1", 0, socket_timeout=TIMEOUT)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield Served(store, db_url, server.server_address[1], chunk.chunk_id, quote, chunk.version_id)
        finally:
            server.shutdown()
            server.server_close()


def raw(port: int, data: bytes, *, wait: float = 5.0) -> bytes:
    """Send ``data`` as is and read until the server closes (or ``wait`` s)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        out = b""
        try:
            while chunk := sock.recv(65536):
                out += chunk
        except TimeoutError:
            pass
        return out


def status_of(reply: bytes) -> int:
    m = re.match(rb"HTTP/1\.[01] (\d{3}) ", reply)
    assert m, reply[:200]
    return int(m.group(1))


def request(
    served: Served, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def form_token(served: Served) -> str:
    _, _, page = request(served, "GET", "/verify")
    m = re.search(rb'name="token" value="([^"]+)"', page)
    assert m
    return m.group(1).decode()


def post_answer(served: Served, headers: dict[str, str], token: str | None = None) -> tuple[int, bytes]:
    fields = {"answer": served.answer().decode()}
    if token is not None:
        fields["token"] = token
    status, _, body = request(
        served,
        "POST",
        "/verify",
        urlencode(fields).encode(),
        {"Content-Type": "application/x-www-form-urlencoded", **headers},
    )
    return status, body


# ----------------------------------------------------------------------------- bodies and sockets


def test_an_oversized_body_is_refused_before_it_is_read(served: Served) -> None:
    head = (
        f"POST /verify HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nOrigin: http://127.0.0.1:{served.port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {200 * 1024 * 1024}\r\n\r\n"
    ).encode()
    started = time.monotonic()
    reply = raw(served.port, head + b"{" * 1024)  # 200 MB announced, 1 KB sent
    assert status_of(reply) == 413
    assert b"above the 5.3 MB limit" in reply
    assert time.monotonic() - started < TIMEOUT + 3
    assert served.runs() == 0


def test_a_chunked_body_is_bounded(served: Served) -> None:
    chunk = b"x" * (1024 * 1024)
    head = (
        f"POST /verify HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nOrigin: http://127.0.0.1:{served.port}\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    body = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(MAX_BODY_BYTES // len(chunk) + 2))
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
        sock.sendall(head)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(body)  # the server may stop reading at the limit and close
        reply = b""
        try:
            while data := sock.recv(65536):
                reply += data
        except (TimeoutError, ConnectionResetError):
            pass
    assert status_of(reply) == 413


@pytest.mark.parametrize(
    ("length", "expected"),
    [("abc", 400), ("-1", 400), ("1e9", 400), ("9" * 40, 400), ("12, 12", 400)],
)
def test_a_malformed_content_length_is_a_bad_request(served: Served, length: str, expected: int) -> None:
    reply = raw(
        served.port,
        f"POST /verify HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Length: {length}\r\n\r\n".encode(),
    )
    assert status_of(reply) == expected
    assert b"is not a byte count" in reply


def test_both_length_and_chunked_is_refused(served: Served) -> None:
    reply = raw(
        served.port,
        (
            f"POST /verify HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Length: 4\r\n"
            "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        ).encode(),
    )
    assert status_of(reply) == 400


def test_half_sent_requests_time_out(served: Served) -> None:
    """Headers that never end, and a body shorter than announced, hold a connection for the socket
    timeout, not forever; the server keeps answering others meanwhile."""
    for partial in (
        f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nX-Slow: ".encode(),
        (f"POST /verify HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Length: 1000\r\n\r\n{{").encode(),
    ):
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", served.port), timeout=TIMEOUT + 5) as sock:
            sock.sendall(partial)
            assert request(served, "GET", "/")[0] == 200  # not blocked by the slow one
            try:
                while sock.recv(65536):
                    pass
            except ConnectionResetError:
                pass
        assert time.monotonic() - started < TIMEOUT + 4


def test_a_full_backlog_of_posts_is_answered(served: Served) -> None:
    """50 concurrent POSTs (connections queued while the server verifies): every one answered."""
    assert BACKLOG >= 128
    token = form_token(served)

    def one(_: int) -> int:
        return post_answer(served, {}, token)[0]

    with ThreadPoolExecutor(50) as pool:
        statuses = list(pool.map(one, range(50)))
    assert statuses == [200] * 50
    assert served.runs() == 50


# ----------------------------------------------------------------------------- malformed requests


@pytest.mark.parametrize(
    "query",
    [
        {"version": "9" * 5000, "page": "1"},
        {"version": "99999999999999999999999", "page": "1"},
        {"version": "abc", "page": "1"},
        {"version": "-1", "page": "1"},
        {"version": "١", "page": "1"},  # an Arabic-Indic digit: isdigit() but not an id
        {"page": "1"},
    ],
)
def test_malformed_parameters_are_bad_requests(served: Served, query: dict[str, str]) -> None:
    status, headers, body = request(served, "GET", "/page.png?" + urlencode(query))
    assert status == 400
    assert b"is not a positive integer" in body
    assert headers["content-type"].startswith("text/html")


def test_a_missing_page_is_not_found(served: Served) -> None:
    status, _, body = request(served, "GET", f"/page.png?version={served.version_id}&page=999")
    assert status == 404
    assert b"has no page 999" in body
    assert request(served, "GET", "/chunk?id=nope")[0] == 404


def test_malformed_request_lines_and_headers(served: Served) -> None:
    assert status_of(raw(served.port, b"GET / HTTP/x.y\r\n\r\n")) == 400
    assert status_of(raw(served.port, b"GET / HTTP/1.1 extra\r\n\r\n")) == 400
    assert status_of(raw(served.port, b"DELETE / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) == 501
    assert status_of(raw(served.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n\r\n")) in (200, 400)
    long_header = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 70000 + b"\r\n\r\n"
    assert status_of(raw(served.port, long_header)) in (400, 431)
    reply = raw(served.port, b"GET / HTTP/1.0\r\n\r\n")  # no Host
    assert status_of(reply) == 400
    assert b"frame-ancestors 'none'" in reply  # the library's own error replies carry the policy too


# ----------------------------------------------------------------------------- hosts and origins


def test_a_foreign_host_is_refused(served: Served) -> None:
    status, _, body = request(served, "GET", "/", headers={"Host": f"evil.example:{served.port}"})
    assert status == 403
    assert b"--allow-host" in body
    assert request(served, "GET", "/", headers={"Host": f"localhost:{served.port}"})[0] == 200


def test_allow_host_admits_a_name(served: Served) -> None:
    server = make_server(served.store, "127.0.0.1", 0, allow_hosts=("citeline.lan",), socket_timeout=TIMEOUT)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
        conn.request("GET", "/", headers={"Host": "citeline.lan"})
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        server.shutdown()
        server.server_close()


def test_cross_origin_posts_are_refused_and_log_nothing(served: Served) -> None:
    own = f"http://127.0.0.1:{served.port}"
    assert post_answer(served, {"Origin": "http://evil.example"})[0] == 403
    assert post_answer(served, {"Origin": "null"})[0] == 403
    assert post_answer(served, {"Referer": "http://evil.example/page"})[0] == 403
    # neither header: the form's token is needed
    status, body = post_answer(served, {})
    assert status == 403
    assert b"needs the token" in body
    assert post_answer(served, {}, "not-the-token")[0] == 403
    assert served.runs() == 0
    # the server's own page, and a client that fetched the form's token
    assert post_answer(served, {"Origin": own})[0] == 200
    assert post_answer(served, {"Referer": own + "/verify"})[0] == 200
    assert post_answer(served, {}, form_token(served))[0] == 200
    assert served.runs() == 3


def test_a_verify_run_is_logged_with_its_page(served: Served) -> None:
    status, body = post_answer(served, {"Origin": f"http://127.0.0.1:{served.port}"})
    assert status == 200
    assert b"1 of 1 citations passed" in body
    assert served.runs() == 1


# ----------------------------------------------------------------------------- headers and HEAD


def test_every_response_carries_the_policy(served: Served) -> None:
    for path in ("/", "/verify", f"/chunk?id={served.chunk_id}", "/nope"):
        _, headers, _ = request(served, "GET", path)
        csp = headers["content-security-policy"]
        script = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
        assert "'unsafe-inline'" not in script
        assert re.fullmatch(r"\s*script-src 'sha256-[A-Za-z0-9+/]+=*'", script)
        assert "frame-ancestors 'none'" in csp
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"


def test_head_is_answered_without_a_body(served: Served) -> None:
    status, headers, body = request(served, "HEAD", "/")
    assert status == 200
    assert body == b""
    get_status, _, get_body = request(served, "GET", "/")
    assert get_status == 200
    assert int(headers["content-length"]) == len(get_body)


def test_wrong_method_is_not_allowed(served: Served) -> None:
    assert request(served, "POST", "/", b"", {"Origin": f"http://127.0.0.1:{served.port}"})[0] == 405


# ----------------------------------------------------------------------------- the pixel cap


def big_page_pdf(path: Path, size_pt: float) -> None:
    from fpdf import FPDF

    pdf = FPDF(unit="pt", format=(size_pt, size_pt))
    pdf.add_page()
    pdf.add_font("DejaVu", fname="/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    pdf.set_font("DejaVu", size=48)
    pdf.text(200, 200, "Großformat: a page of 200 × 200 inches, the largest a PDF may have.")
    pdf.output(str(path))


def test_a_huge_page_renders_under_the_pixel_cap(db_url: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    big_page_pdf(docs / "poster.pdf", 14_400)
    with Store(db_url) as store:
        ingest_files(store, [docs], IngestOptions(workers=1))
        chunk = next(store.iter_chunks())
        assert "Großformat" in chunk.text
        with PageRenderer(store) as renderer:
            png = renderer.png(chunk.version_id, 1, list(store.provenance(chunk.chunk_id).boxes))
        image = Image.open(io.BytesIO(png))
        assert max(image.size) <= MAX_SIDE_PX
        assert image.size[0] * image.size[1] <= MAX_PIXELS
        assert max(image.size) >= MAX_SIDE_PX - 1  # the cap, not a tiny thumbnail
        # the highlight is drawn where the text is: yellow pixels near (200, 200) pt at that scale
        scale = image.size[0] / 14_400
        x, y = round(260 * scale), round(190 * scale)
        region = image.convert("RGB").crop((x - 3, y - 3, x + 3, y + 3))
        assert any(r > 200 and g > 150 and b < 150 for r, g, b in region.get_flattened_data())


def test_the_cap_applies_to_drawn_pages_too(db_url: str, tmp_path: Path) -> None:
    """When the file is gone, the page is drawn from stored geometry: under the same cap."""
    docs = tmp_path / "docs"
    docs.mkdir()
    big_page_pdf(docs / "poster.pdf", 14_400)
    with Store(db_url) as store:
        ingest_files(store, [docs], IngestOptions(workers=1))
        (docs / "poster.pdf").unlink()
        chunk = next(store.iter_chunks())
        with PageRenderer(store) as renderer:
            image = Image.open(io.BytesIO(renderer.png(chunk.version_id, 1)))
        assert max(image.size) <= MAX_SIDE_PX
        assert image.size[0] * image.size[1] <= MAX_PIXELS


def test_the_cap_holds_through_highlight_serve_and_the_html_report(db_url: str, tmp_path: Path) -> None:
    """The three ways a page is rendered for a user, each on the 14,400-pt page."""
    import base64

    from click.testing import CliRunner

    from citeline.cli import cli

    docs = tmp_path / "docs"
    docs.mkdir()
    big_page_pdf(docs / "poster.pdf", 14_400)

    def capped(png: bytes) -> None:
        image = Image.open(io.BytesIO(png))
        assert max(image.size) <= MAX_SIDE_PX
        assert image.size[0] * image.size[1] <= MAX_PIXELS

    with Store(db_url) as store:
        ingest_files(store, [docs], IngestOptions(workers=1))
        chunk = next(store.iter_chunks())
        runner = CliRunner()
        out = tmp_path / "highlight.png"
        done = runner.invoke(cli, ["--db", db_url, "highlight", chunk.chunk_id, "--output", str(out)])
        assert done.exit_code == 0, done.output
        capped(out.read_bytes())
        # the HTML report embeds the page
        answer = tmp_path / "answer.json"
        quote = " ".join(chunk.text.split()[:6])
        answer.write_text(
            json.dumps({"answer": f"It says “{quote}” [S1].", "sources": {"S1": chunk.chunk_id}}), encoding="utf-8"
        )
        html_path = tmp_path / "report.html"
        done = runner.invoke(cli, ["--db", db_url, "verify", str(answer), "--format", "html", "-o", str(html_path)])
        assert done.exit_code == 0, done.output
        pngs = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", html_path.read_text(encoding="utf-8"))
        assert pngs
        for data in pngs:
            capped(base64.b64decode(data))
        # serve's page image
        server = make_server(store, "127.0.0.1", 0, socket_timeout=TIMEOUT)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=60)
            conn.request("GET", "/page.png?" + urlencode({"version": chunk.version_id, "page": 1}))
            response = conn.getresponse()
            assert response.status == 200
            capped(response.read())
            conn.close()
        finally:
            server.shutdown()
            server.server_close()
