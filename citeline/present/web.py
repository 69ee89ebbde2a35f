"""``citeline serve``: a small local web app on the standard library's ``http.server``.

Browse documents, versions and chunks; open any chunk's provenance on its page; paste or upload an
answer JSON and see its verification report live. No JavaScript build step, no framework: pages are
server-rendered HTML with everything from documents or answers escaped. Binds to 127.0.0.1 unless
told otherwise.
"""

from __future__ import annotations

import contextlib
import html
import logging
import secrets
import socket
import sys
import threading
from email.parser import BytesParser
from email.policy import HTTP
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

from citeline.present.html import SCRIPT_HASH, build_html
from citeline.present.pages import PageRenderer
from citeline.store.errors import NotFound, QueryError, StoreError
from citeline.store.store import Store
from citeline.text.geometry import Box
from citeline.text.offsets import Normalized
from citeline.verify.errors import InputError
from citeline.verify.load import MAX_ANSWER_BYTES, load_answer
from citeline.verify.parse import parse_answer
from citeline.verify.verify import Verifier, VerifyOptions

_log = logging.getLogger("citeline.serve")

_CSS = """
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{padding:12px 24px;background:#1d2330;color:#fff}header a{color:#fff;margin-right:18px}
header form{display:inline}header input[type=search]{width:280px}mark{background:#fde68a}
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


def _page(title: str, body: str, *, query: str = "") -> bytes:
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)} · citeline</title><style>{_CSS}</style></head><body>"
        '<header><a href="/">Documents</a><a href="/verify">Verify an answer</a>'
        f'<form method="get" action="/search"><input type="search" name="q" value="{_e(query)}" '
        'placeholder="Search chunks" aria-label="Search chunks"> <button>Search</button></form></header>'
        f"<main><h1>{_e(title)}</h1>{body}</main></body></html>"
    ).encode()


class App:
    """Request handling, independent of the HTTP plumbing (what the tests call too)."""

    def __init__(self, store: Store, *, collection: str | None = None) -> None:
        self.store = store
        #: serve shows the documents of this collection only (all when None)
        self.collection = collection
        self.renderer = PageRenderer(store)
        self.verifier = Verifier(store, VerifyOptions(log=True))
        self._lock = threading.Lock()  # pdfium is not thread-safe
        #: The verify form's token: a POST without Origin and Referer must carry it.
        self.token = secrets.token_urlsafe(24)

    def handle(
        self, method: str, target: str, headers: dict[str, str], body: bytes, *, need_token: bool = False
    ) -> tuple[int, str, bytes]:
        url = urlparse(target)
        try:
            q = {k: v[0] for k, v in parse_qs(url.query, max_num_fields=32).items()}
            if method == "GET" and url.path == "/":
                return self.index()
            if method == "GET" and url.path == "/document":
                return self.document(q.get("uri", ""), q.get("collection"))
            if method == "GET" and url.path == "/chunk":
                return self.chunk(q.get("id", ""))
            if method == "GET" and url.path == "/page.png":
                return self.page_png(_id(q, "version"), _id(q, "page"))
            if method == "GET" and url.path == "/verify":
                return self.verify_form()
            if method == "GET" and url.path == "/search":
                return self.search(q.get("q", ""), q.get("k", "20"), all_versions=q.get("all") == "1")
            if method == "POST" and url.path == "/verify":
                return self.verify(headers, body, need_token=need_token)
            if url.path in ("/", "/document", "/chunk", "/page.png", "/verify", "/search"):
                return (
                    HTTPStatus.METHOD_NOT_ALLOWED,
                    "text/html",
                    _page("Not allowed", f"<p>{_e(method)} is not served here.</p>"),
                )
        except NotFound as exc:
            return HTTPStatus.NOT_FOUND, "text/html", _page("Not found", f'<p class="error">{_e(exc)}</p>')
        except (InputError, ValueError, QueryError) as exc:
            return HTTPStatus.BAD_REQUEST, "text/html", _page("Bad request", f'<p class="error">{_e(exc)}</p>')
        except StoreError as exc:
            return HTTPStatus.INTERNAL_SERVER_ERROR, "text/html", _page("Error", f'<p class="error">{_e(exc)}</p>')
        except Exception:  # a bug: logged with its traceback, one line to the client
            _log.exception("citeline serve: %s %s failed", method, target.encode("unicode_escape").decode())
            return (
                HTTPStatus.INTERNAL_SERVER_ERROR,
                "text/html",
                _page("Error", '<p class="error">Internal error (logged).</p>'),
            )
        return HTTPStatus.NOT_FOUND, "text/html", _page("Not found", f"<p>No page at {_e(url.path)}.</p>")

    def index(self) -> tuple[int, str, bytes]:
        rows = []
        for collection, uri in self.store.document_refs(self.collection):
            info = self.store.document(uri, collection=collection)
            cur = info.current
            link = urlencode({"uri": uri, "collection": collection})
            rows.append(
                f"<tr><td>{_e(collection)}</td>"
                f'<td><a href="/document?{link}">{_e(uri)}</a></td>'
                f"<td>{len(info.versions)}</td><td>{_e(cur.version_no if cur else '-')}</td>"
                f"<td>{_e(cur.page_count if cur else '')}</td><td>{_e(cur.chunk_count if cur else '')}</td>"
                f"<td>{'deleted' if info.deleted_at else ''}</td></tr>"
            )
        table = (
            "<table><tr><th>collection</th><th>document</th><th>versions</th><th>current</th><th>pages</th><th>chunks</th><th></th></tr>"
            + "".join(rows)
            + "</table>"
        )
        return HTTPStatus.OK, "text/html", _page("Documents", table if rows else "<p>The store is empty.</p>")

    def search(self, query: str, k: str, *, all_versions: bool = False) -> tuple[int, str, bytes]:
        """Search results: each hit's document, version, pages and snippet, linked to the chunk's
        page view (where its boxes are drawn on the page)."""
        if not k.isdigit() or not 1 <= int(k) <= 200:
            raise ValueError("k must be a whole number from 1 to 200")
        hits = (
            self.store.search(query, int(k), all_versions=all_versions, collection=self.collection)
            if query.strip()
            else []
        )
        rows = "".join(
            f'<tr><td><a href="/chunk?{urlencode({"id": h.chunk_id})}">{_e(h.chunk_id)}</a></td>'
            f'<td><a href="/document?{urlencode({"uri": h.document, "collection": h.collection})}">'
            f"{_e(h.document)}</a></td>"
            f"<td>{h.version}{'' if h.is_current else ' (superseded)'}</td>"
            f"<td>{_e(h.page_start)}–{_e(h.page_end)}</td><td>{h.score:.2f}</td><td>{_e(h.snippet)}</td></tr>"
            for h in hits
        )
        if not query.strip():
            body = '<p class="muted">Words, "a phrase", prefix*, a OR b, NOT word or -word.</p>'
        elif not hits:
            body = f"<p>No chunk matches {_e(query)}.</p>"
        else:
            body = (
                "<table><tr><th>chunk</th><th>document</th><th>version</th><th>pages</th><th>score</th>"
                f"<th>snippet</th></tr>{rows}</table>"
            )
        title = f"Search: {query}" if query.strip() else "Search"
        return HTTPStatus.OK, "text/html", _page(title, body, query=query)

    def document(self, uri: str, collection: str | None = None) -> tuple[int, str, bytes]:
        if self.collection is not None and collection not in (None, self.collection):
            raise NotFound(f"Document {uri!r} does not exist in collection {collection!r}")
        collection = collection if collection is not None else self.collection
        info = self.store.document(uri, collection=collection)
        versions = "".join(
            f"<tr><td>{v.version_no}</td><td>{'current' if v.is_current else 'superseded'}</td>"
            f"<td class=muted>{_e(v.content_sha256[:16])}</td><td>{v.page_count}</td><td>{v.chunk_count}</td>"
            f"<td>{_e(v.ingested_at.strftime('%Y-%m-%d %H:%M'))}</td></tr>"
            for v in info.versions
        )
        chunks = "".join(
            f'<tr><td><a href="/chunk?{urlencode({"id": c.chunk_id})}">{_e(c.chunk_id)}</a></td><td>{c.version_no}</td>'
            f"<td>{_e(c.page_start)}–{_e(c.page_end)}</td><td>{_e(c.text[:140])}</td></tr>"
            for c in self.store.iter_chunks(document=uri, all_versions=True, collection=info.collection)
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
            f'<p><a href="/document?{urlencode({"uri": v.document_uri, "collection": v.collection})}">'
            f"{_e(v.document_uri)}</a> "
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
            f'<input type="hidden" name="token" value="{_e(self.token)}">'
            '<p><button type="submit">Verify</button></p></form>'
        )
        return HTTPStatus.OK if not error else HTTPStatus.BAD_REQUEST, "text/html", _page("Verify an answer", body)

    def verify(self, headers: dict[str, str], body: bytes, *, need_token: bool = False) -> tuple[int, str, bytes]:
        if len(body) > MAX_BODY_BYTES:
            return self.verify_form(f"the upload is {len(body) / 1e6:.1f} MB, above the limit")
        fields = _form_fields(headers.get("content-type", ""), body)
        if need_token and not secrets.compare_digest(fields.get("token") or b"", self.token.encode()):
            return (
                HTTPStatus.FORBIDDEN,
                "text/html",
                _page(
                    "Refused",
                    '<p class="error">A POST from outside this server\'s pages needs the token its form holds.</p>',
                ),
            )
        raw = fields.get("file") or fields.get("answer") or b""
        context = (fields.get("context") or b"").decode("utf-8", "replace").strip() or None
        try:
            data = load_answer(raw.strip() or b"", name="answer")
            parsed = parse_answer(data, name="answer")
            with self._lock:
                report = self.verifier.verify(parsed, context_id=context)
                page = build_html(report, self.store)
            self.verifier.log(report)  # logged once its page exists
        except InputError as exc:
            return self.verify_form(str(exc), raw.decode("utf-8", "replace"))
        except NotFound as exc:
            return self.verify_form(str(exc), raw.decode("utf-8", "replace"))
        return HTTPStatus.OK, "text/html", page.encode("utf-8")

    def close(self) -> None:
        self.renderer.close()


def _id(q: dict[str, str], name: str) -> int:
    """A positive integer parameter; anything else is a bad request (400)."""
    value = q.get(name, "")
    if not value.isascii() or not value.isdigit() or len(value) > 18 or int(value) < 1:
        raise ValueError(f"Parameter {name}={value[:40]!r} is not a positive integer")
    return int(value)


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


#: Largest request body (an answer upload plus its form fields); beyond it: 413, nothing read.
MAX_BODY_BYTES = MAX_ANSWER_BYTES + 65536
#: Seconds a connection may sit between bytes (a half-sent request is dropped after this).
SOCKET_TIMEOUT = 15.0
#: Seconds a client has to send a whole request, headers and body (a byte every few seconds, which
#: the socket timeout allows, cannot hold a connection longer: slowloris held 1,057 of 3,000 for 45 s).
REQUEST_TIMEOUT = 30.0
#: Pending connections the kernel queues for the server.
BACKLOG = 128
_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_WILDCARD = ("", "0.0.0.0", "::")


class _Refused(Exception):
    """A request refused before it reaches the app: status and one line for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class _Server(ThreadingHTTPServer):
    request_queue_size = BACKLOG
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that left early (a closed tab, a dropped connection) is not an error of ours."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            _log.debug("%s went away", client_address)
            return
        super().handle_error(request, client_address)


def allowed_hosts(host: str, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """Host names a request may name (DNS-rebinding guard): the bound name, loopback names when
    bound to loopback or all interfaces (and this machine's name then), and ``extra``."""
    names = {host.strip("[]").lower(), *(h.strip("[]").lower() for h in extra)}
    if host in _WILDCARD:
        names.update((*_LOOPBACK, socket.gethostname().lower(), socket.getfqdn().lower()))
    elif host in _LOOPBACK:
        names.update(_LOOPBACK)
    return frozenset(names - {""})


def _host_name(value: str) -> str:
    """``example.org`` from ``example.org:8000``, ``::1`` from ``[::1]:8000``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def make_server(
    store: Store,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    allow_hosts: tuple[str, ...] = (),
    socket_timeout: float = SOCKET_TIMEOUT,
    request_timeout: float = REQUEST_TIMEOUT,
    collection: str | None = None,
) -> ThreadingHTTPServer:
    """An HTTP server for ``store`` (call ``serve_forever()``; ``port=0`` picks a free port).

    Requests are bounded: a body over :data:`MAX_BODY_BYTES` is refused (413) before it is read,
    a connection idle for ``socket_timeout`` s, or still sending its request after
    ``request_timeout`` s, is dropped, malformed headers and parameters get
    400. A ``Host`` header outside :func:`allowed_hosts` gets 403 (``allow_hosts``: more names,
    ``"*"`` for any); a POST must come from the server's own pages (``Origin``/``Referer``) or
    carry the token its form holds."""
    app = App(store, collection=collection)
    hosts = allowed_hosts(host, allow_hosts)
    any_host = "*" in allow_hosts

    class Handler(BaseHTTPRequestHandler):
        server_version = "citeline"
        timeout = socket_timeout
        default_request_version = "HTTP/1.0"  # errors on a bad request line get a status line too

        def setup(self) -> None:
            super().setup()
            self._deadline = threading.Timer(0, lambda: None)

        def handle_one_request(self) -> None:
            # each request (a kept-alive connection's next one too) within request_timeout: past it
            # the socket is shut and the read ends
            self._deadline.cancel()
            self._deadline = threading.Timer(request_timeout, self._expire)
            self._deadline.daemon = True
            self._deadline.start()
            super().handle_one_request()

        def _expire(self) -> None:
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)

        def finish(self) -> None:
            self._deadline.cancel()
            super().finish()

        def _check_host(self) -> str:
            value = self.headers.get("host")
            if not value:
                raise _Refused(HTTPStatus.BAD_REQUEST, "The request has no Host header")
            if not any_host and _host_name(value) not in hosts:
                raise _Refused(
                    HTTPStatus.FORBIDDEN,
                    f"Host {value!r} is not served here (start citeline serve with --allow-host NAME to allow it)",
                )
            return value

        def _check_origin(self, own: str) -> bool:
            """Whether the form token is needed: POSTs from a page elsewhere are refused; the
            form's token stands in for the headers when a client sends neither."""
            origin = self.headers.get("origin")
            referer = self.headers.get("referer")
            if origin is not None:
                if urlparse(origin).netloc.lower() != own.lower():
                    raise _Refused(HTTPStatus.FORBIDDEN, f"Cross-origin POST from {origin!r} refused")
                return False
            if referer is not None:
                if urlparse(referer).netloc.lower() != own.lower():
                    raise _Refused(HTTPStatus.FORBIDDEN, "Cross-origin POST refused (Referer is another site)")
                return False
            return True  # neither header: the body must carry the form's token

        def _body(self) -> bytes:
            encoding = (self.headers.get("transfer-encoding") or "").strip().lower()
            length = self.headers.get("content-length")
            if encoding and length is not None:
                raise _Refused(HTTPStatus.BAD_REQUEST, "Both Content-Length and Transfer-Encoding given")
            if encoding:
                if encoding != "chunked":
                    raise _Refused(HTTPStatus.NOT_IMPLEMENTED, f"Transfer-Encoding {encoding!r} is not supported")
                return self._chunked()
            if length is None:
                return b""
            if not length.strip().isdigit() or len(length.strip()) > 18:
                raise _Refused(HTTPStatus.BAD_REQUEST, f"Content-Length {length[:40]!r} is not a byte count")
            size = int(length)
            if size > MAX_BODY_BYTES:
                raise _Refused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, _too_large(size))
            body = self.rfile.read(size)
            if len(body) != size:
                raise _Refused(HTTPStatus.BAD_REQUEST, "The body is shorter than its Content-Length")
            return body

        def _chunked(self) -> bytes:
            parts: list[bytes] = []
            total = 0
            while True:
                line = self.rfile.readline(1026)
                size_text = line.split(b";", 1)[0].strip()
                if not line.endswith(b"\n") or not size_text or len(size_text) > 16:
                    raise _Refused(HTTPStatus.BAD_REQUEST, "Malformed chunk size")
                try:
                    size = int(size_text, 16)
                except ValueError:
                    raise _Refused(HTTPStatus.BAD_REQUEST, "Malformed chunk size") from None
                if size == 0:
                    while self.rfile.readline(1026) not in (b"\r\n", b"\n", b""):
                        pass  # trailers: ignored
                    return b"".join(parts)
                total += size
                if total > MAX_BODY_BYTES:
                    raise _Refused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, _too_large(total))
                chunk = self.rfile.read(size)
                if len(chunk) != size or self.rfile.readline(3) not in (b"\r\n", b"\n"):
                    raise _Refused(HTTPStatus.BAD_REQUEST, "A chunk is shorter than its size")
                parts.append(chunk)

        def _respond(self, method: str) -> None:
            try:
                own = self._check_host()
                need_token = False
                body = b""
                if method == "POST":
                    need_token = self._check_origin(own)
                    body = self._body()
                elif self.headers.get("content-length") not in (None, "0") or self.headers.get("transfer-encoding"):
                    raise _Refused(HTTPStatus.BAD_REQUEST, f"A {method} request has no body")
                self._deadline.cancel()  # the request is in: answering it may take as long as it takes
                headers = {k.lower(): v for k, v in self.headers.items()}
                get = "GET" if method == "HEAD" else method
                status, ctype, payload = app.handle(get, self.path, headers, body, need_token=need_token)
            except _Refused as exc:
                self.close_connection = True
                status, ctype, payload = exc.status, "text/plain", (str(exc) + "\n").encode()
            except (TimeoutError, ConnectionError):
                self.close_connection = True
                return  # the client went quiet or away: nothing to answer
            self._send(status, ctype, payload, body=method != "HEAD")

        def _send(self, status: int, ctype: str, payload: bytes, *, body: bool = True) -> None:
            self.send_response(status)
            self.send_header("Content-Type", f"{ctype}; charset=utf-8" if ctype.startswith("text/") else ctype)
            self.send_header("Content-Length", str(len(payload)))
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            if body:
                self.wfile.write(payload)

        def end_headers(self) -> None:
            for name, value in SECURITY_HEADERS.items():  # on every response, the library's errors too
                self.send_header(name, value)
            super().end_headers()

        def do_GET(self) -> None:
            self._respond("GET")

        def do_HEAD(self) -> None:
            self._respond("HEAD")

        def do_POST(self) -> None:
            self._respond("POST")

        def log_message(self, format: str, *args: Any) -> None:
            _log.debug("%s %s", self.address_string(), (format % args).encode("unicode_escape").decode())

    server = _Server((host, port), Handler)
    server.app = app  # type: ignore[attr-defined]
    return server


def _too_large(size: int) -> str:
    return f"The request body is {size / 1e6:.1f} MB, above the {MAX_BODY_BYTES / 1e6:.1f} MB limit"


#: Sent with every response. Server pages run no script; a verification report runs its one
#: script, allowed by hash. Nothing may frame a page.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        f"default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src {SCRIPT_HASH}; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def highlight_boxes(store: Store, chunk_id: str) -> tuple[int, list[Box]]:
    """The version and boxes of a whole chunk (what ``citeline highlight CHUNK_ID`` draws)."""
    info = store.chunk(chunk_id)
    if info is None:
        raise NotFound(f"Chunk {chunk_id!r} does not exist")
    sources = info.map.source_spans(Normalized(0, info.map.normalized_length))
    return info.version_id, store.boxes(info.version_id, sources)
