"""``citeline serve``: a small local web app on the standard library's ``http.server``.

Browse documents, versions and chunks; open any chunk's provenance on its page; paste or upload an
answer JSON and see its verification report live. No JavaScript build step, no framework: pages are
server-rendered HTML with everything from documents or answers escaped. Binds to 127.0.0.1 unless
told otherwise.
"""

from __future__ import annotations

import html
import threading
from email.parser import BytesParser
from email.policy import HTTP
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

from citeline.ingest.extract.model import Box
from citeline.ingest.offsets import Normalized
from citeline.store.errors import NotFound, StoreError
from citeline.store.store import Store
from citeline.verify.errors import InputError
from citeline.verify.html import build_html
from citeline.verify.pages import PageRenderer
from citeline.verify.parse import MAX_ANSWER_BYTES, load_answer, parse_answer
from citeline.verify.verify import Verifier, VerifyOptions

_CSS = """
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{padding:12px 24px;background:#1d2330;color:#fff}header a{color:#fff;margin-right:18px}
main{padding:20px 24px}table{border-collapse:collapse;background:#fff}
td,th{padding:4px 10px;border-bottom:1px solid #e3e6ea;text-align:left}
.chunk{white-space:pre-wrap;background:#fff;padding:12px;border-radius:6px}
figure.page{position:relative;margin:10px 0;border:1px solid #c9ced6;max-width:900px}
figure.page img{display:block;width:100%;height:auto}
.hl{position:absolute;background:rgba(255,213,0,.35);outline:2px solid rgba(230,170,0,.9)}
textarea{width:100%;min-height:240px;font:13px monospace}.muted{color:#6b7280}.error{color:#b42318}
"""


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _page(title: str, body: str) -> bytes:
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)} · citeline</title><style>{_CSS}</style></head><body>"
        '<header><a href="/">Documents</a><a href="/verify">Verify an answer</a></header>'
        f"<main><h1>{_e(title)}</h1>{body}</main></body></html>"
    ).encode()


class App:
    """Request handling, independent of the HTTP plumbing (what the tests call too)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.renderer = PageRenderer(store)
        self.verifier = Verifier(store, VerifyOptions(log=True))
        self._lock = threading.Lock()  # pdfium is not thread-safe

    def handle(self, method: str, target: str, headers: dict[str, str], body: bytes) -> tuple[int, str, bytes]:
        url = urlparse(target)
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        try:
            if method == "GET" and url.path == "/":
                return self.index()
            if method == "GET" and url.path == "/document":
                return self.document(q.get("uri", ""))
            if method == "GET" and url.path == "/chunk":
                return self.chunk(q.get("id", ""))
            if method == "GET" and url.path == "/page.png":
                return self.page_png(int(q.get("version", "0")), int(q.get("page", "0")))
            if method == "GET" and url.path == "/verify":
                return self.verify_form()
            if method == "POST" and url.path == "/verify":
                return self.verify(headers, body)
        except (NotFound, ValueError) as exc:
            return HTTPStatus.NOT_FOUND, "text/html", _page("Not found", f'<p class="error">{_e(exc)}</p>')
        except InputError as exc:
            return HTTPStatus.BAD_REQUEST, "text/html", _page("Bad answer", f'<p class="error">{_e(exc)}</p>')
        except StoreError as exc:
            return HTTPStatus.INTERNAL_SERVER_ERROR, "text/html", _page("Error", f'<p class="error">{_e(exc)}</p>')
        return HTTPStatus.NOT_FOUND, "text/html", _page("Not found", f"<p>No page at {_e(url.path)}.</p>")

    def index(self) -> tuple[int, str, bytes]:
        rows = []
        for uri in self.store.documents():
            info = self.store.document(uri)
            cur = info.current
            rows.append(
                f'<tr><td><a href="/document?{urlencode({"uri": uri})}">{_e(uri)}</a></td>'
                f"<td>{len(info.versions)}</td><td>{_e(cur.version_no if cur else '-')}</td>"
                f"<td>{_e(cur.page_count if cur else '')}</td><td>{_e(cur.chunk_count if cur else '')}</td>"
                f"<td>{'deleted' if info.deleted_at else ''}</td></tr>"
            )
        table = (
            "<table><tr><th>document</th><th>versions</th><th>current</th><th>pages</th><th>chunks</th><th></th></tr>"
            + "".join(rows)
            + "</table>"
        )
        return HTTPStatus.OK, "text/html", _page("Documents", table if rows else "<p>The store is empty.</p>")

    def document(self, uri: str) -> tuple[int, str, bytes]:
        info = self.store.document(uri)
        versions = "".join(
            f"<tr><td>{v.version_no}</td><td>{'current' if v.is_current else 'superseded'}</td>"
            f"<td class=muted>{_e(v.content_sha256[:16])}</td><td>{v.page_count}</td><td>{v.chunk_count}</td>"
            f"<td>{_e(v.ingested_at.strftime('%Y-%m-%d %H:%M'))}</td></tr>"
            for v in info.versions
        )
        chunks = "".join(
            f'<tr><td><a href="/chunk?{urlencode({"id": c.chunk_id})}">{_e(c.chunk_id)}</a></td><td>{c.version_no}</td>'
            f"<td>{_e(c.page_start)}–{_e(c.page_end)}</td><td>{_e(c.text[:140])}</td></tr>"
            for c in self.store.iter_chunks(document=uri, all_versions=True)
        )
        body = (
            "<h2>Versions</h2><table><tr><th>version</th><th></th><th>sha256</th><th>pages</th><th>chunks</th>"
            f"<th>ingested</th></tr>{versions}</table><h2>Chunks</h2><table><tr><th>chunk</th><th>version</th>"
            f"<th>pages</th><th>text</th></tr>{chunks}</table>"
        )
        return HTTPStatus.OK, "text/html", _page(uri, body)

    def chunk(self, chunk_id: str) -> tuple[int, str, bytes]:
        p = self.store.provenance(chunk_id)
        figures = []
        for page in p.pages:
            size = self.renderer.size(p.chunk.version_id, page)
            if size is None:
                continue
            w, h = size
            hls = "".join(
                f'<div class="hl" data-page="{page}" data-box="{b.x0:.2f},{b.top:.2f},{b.x1:.2f},{b.bottom:.2f}" '
                f'style="left:{100 * b.x0 / w:.4f}%;top:{100 * b.top / h:.4f}%;width:{100 * (b.x1 - b.x0) / w:.4f}%;'
                f'height:{100 * (b.bottom - b.top) / h:.4f}%"></div>'
                for b in p.boxes
                if b.page == page
            )
            src = f"/page.png?{urlencode({'version': p.chunk.version_id, 'page': page})}"
            figures.append(
                f'<figure class="page" data-page="{page}" data-width="{w:g}" data-height="{h:g}">'
                f'<img alt="page {page}" src="{src}">{hls}</figure>'
            )
        v = p.version
        body = (
            f'<p><a href="/document?{urlencode({"uri": v.document_uri})}">{_e(v.document_uri)}</a> '
            f"version {v.version_no} ({'current' if v.is_current else 'superseded'}) · pages "
            f"{_e(', '.join(map(str, p.pages)))} · raw [{p.chunk.raw_start}, {p.chunk.raw_end})</p>"
            f'<div class="chunk"><span class=muted>{_e(p.context_before[-200:])}</span>'
            f"<b>{_e(p.raw_text)}</b><span class=muted>{_e(p.context_after[:200])}</span></div>" + "".join(figures)
        )
        return HTTPStatus.OK, "text/html", _page(f"Chunk {chunk_id}", body)

    def page_png(self, version_id: int, page: int) -> tuple[int, str, bytes]:
        if self.renderer.size(version_id, page) is None:
            raise NotFound(f"Version {version_id} has no page {page} with a size")
        with self._lock:
            return HTTPStatus.OK, "image/png", self.renderer.png(version_id, page)

    def verify_form(self, error: str = "", answer: str = "") -> tuple[int, str, bytes]:
        body = (
            (f'<p class="error">{_e(error)}</p>' if error else "")
            + '<form method="post" action="/verify" enctype="multipart/form-data">'
            f'<p><textarea name="answer" placeholder="answer JSON">{_e(answer)}</textarea></p>'
            '<p>or upload: <input type="file" name="file" accept=".json,application/json"></p>'
            '<p>context id (optional): <input name="context" size="28"></p>'
            '<p><button type="submit">Verify</button></p></form>'
        )
        return HTTPStatus.OK if not error else HTTPStatus.BAD_REQUEST, "text/html", _page("Verify an answer", body)

    def verify(self, headers: dict[str, str], body: bytes) -> tuple[int, str, bytes]:
        if len(body) > MAX_ANSWER_BYTES + 65536:
            return self.verify_form(f"the upload is {len(body) / 1e6:.1f} MB, above the limit")
        fields = _form_fields(headers.get("content-type", ""), body)
        raw = fields.get("file") or fields.get("answer") or b""
        context = (fields.get("context") or b"").decode("utf-8", "replace").strip() or None
        try:
            data = load_answer(raw.strip() or b"", name="answer")
            parsed = parse_answer(data, name="answer")
            with self._lock:
                report = self.verifier.verify(parsed, context_id=context)
                page = build_html(report, self.store)
        except InputError as exc:
            return self.verify_form(str(exc), raw.decode("utf-8", "replace"))
        except NotFound as exc:
            return self.verify_form(str(exc), raw.decode("utf-8", "replace"))
        return HTTPStatus.OK, "text/html", page.encode("utf-8")

    def close(self) -> None:
        self.renderer.close()


def _form_fields(content_type: str, body: bytes) -> dict[str, bytes]:
    """Fields of a urlencoded or multipart/form-data body."""
    if content_type.startswith("multipart/form-data"):
        msg = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)
        out: dict[str, bytes] = {}
        for part in msg.iter_parts():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True)
            if isinstance(name, str) and isinstance(payload, bytes) and payload:
                out[name] = payload
        return out
    return {k: v[0].encode() for k, v in parse_qs(body.decode("utf-8", "replace")).items()}


def make_server(store: Store, host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    """An HTTP server for ``store`` (call ``serve_forever()``; ``port=0`` picks a free port)."""
    app = App(store)

    class Handler(BaseHTTPRequestHandler):
        server_version = "citeline"

        def _respond(self, method: str) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, ctype, payload = app.handle(method, self.path, headers, body)
            self.send_response(status)
            self.send_header("Content-Type", f"{ctype}; charset=utf-8" if ctype.startswith("text/") else ctype)
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Content-Security-Policy", _CSP)
            self.end_headers()
            self.wfile.write(payload)

        def do_GET(self) -> None:
            self._respond("GET")

        def do_POST(self) -> None:
            self._respond("POST")

        def log_message(self, format: str, *args: Any) -> None:
            return  # quiet: the CLI prints the address once

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    server.app = app  # type: ignore[attr-defined]
    return server


_CSP = (
    "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "form-action 'self'"
)


def highlight_boxes(store: Store, chunk_id: str) -> tuple[int, list[Box]]:
    """The version and boxes of a whole chunk (what ``citeline highlight CHUNK_ID`` draws)."""
    info = store.chunk(chunk_id)
    if info is None:
        raise NotFound(f"Chunk {chunk_id!r} does not exist")
    sources = info.map.source_spans(Normalized(0, info.map.normalized_length))
    return info.version_id, store.boxes(info.version_id, sources)
