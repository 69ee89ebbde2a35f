"""The self-contained HTML report: no network, no CDN, everything inline.

The answer is shown with every citation marker coloured by status; a side panel lists the citations
with reasons and scores, and under each the page(s) where the quote is, rendered to PNG (pypdfium2,
from the file the version was ingested from, when it is still there unchanged) or, failing that,
drawn from the stored line geometry, with the quote's boxes on top. Clicking a marker or a card
scrolls to its highlight and flashes it. Everything from documents or answers is escaped.
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any

from verify.report import CitationResult, Report

#: Render scale for page images: 1.5 = 108 dpi, readable and small.
RENDER_SCALE = 1.5

_STATUS_CLASS = {
    "verified": "ok",
    "verified_fuzzy": "fuzzy",
    "quote_altered": "warn",
    "misattributed": "warn",
    "too_short": "warn",
    "no_quote": "warn",
}

_CSS = """
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{padding:14px 24px;background:#1d2330;color:#fff}header h1{font-size:18px;margin:0}
header .sum{opacity:.85;font-size:13px}
main{display:grid;grid-template-columns:minmax(320px,1fr) minmax(420px,1.3fr);gap:20px;padding:20px}
section{background:#fff;border-radius:8px;padding:16px;box-shadow:0 1px 3px #0002}
.answer p{margin:0 0 .8em}.sentence.uncited{background:#fff3cd}
a.cite{font-weight:600;text-decoration:none;padding:0 2px;border-radius:3px;cursor:pointer}
.ok{color:#0a7a32}.fuzzy{color:#2f7a0a}.warn{color:#9a6700}.fail{color:#b42318}.stale{outline:2px dashed #9a6700}
a.cite.ok{background:#e3f6e8}a.cite.fuzzy{background:#eef7dd}a.cite.warn{background:#fdf1d6}a.cite.fail{background:#fde4e1}
.card{border:1px solid #dde1e7;border-radius:6px;padding:10px 12px;margin:0 0 14px;cursor:pointer}
.card h3{margin:0 0 4px;font-size:14px}.card .reason{font-size:13px;color:#4a5263}
.card blockquote{margin:6px 0;padding:4px 10px;border-left:3px solid #c9ced6;font-size:13px}
.drift{font-size:13px}.drift mark{background:#fde4e1}
figure.page{position:relative;margin:8px 0;border:1px solid #c9ced6;display:inline-block;max-width:100%}
figure.page{width:100%}figure.page .pageimg{width:100%;background-size:100% 100%;background-repeat:no-repeat}
figure.page figcaption{font-size:12px;color:#4a5263;padding:2px 6px}
.hl{position:absolute;background:rgba(255,213,0,.35);outline:2px solid rgba(230,170,0,.9);pointer-events:none}
.hl.other{background:rgba(80,140,255,.25);outline-color:rgba(40,90,220,.8)}
.hl.flash{animation:flash 1.2s ease-in-out 2}
@keyframes flash{0%,100%{background:rgba(255,213,0,.35)}50%{background:rgba(255,120,0,.85)}}
"""

_JS = """
function show(n){
  var card=document.getElementById('card-'+n); if(card){card.scrollIntoView({behavior:'smooth',block:'start'});}
  var hl=document.querySelectorAll('.hl[data-cite="'+n+'"]');
  if(hl.length){hl[0].scrollIntoView({behavior:'smooth',block:'center'});}
  hl.forEach(function(h){h.classList.remove('flash');void h.offsetWidth;h.classList.add('flash');});
}
document.addEventListener('click',function(e){
  var t=e.target.closest('[data-show]'); if(t){e.preventDefault();show(t.getAttribute('data-show'));}
});
"""


def _e(text: object) -> str:
    return html.escape("" if text is None else str(text), quote=True)


class _Pages:
    """Page images per (version, page), rendered once."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._docs: dict[int, Any] = {}
        self._sizes: dict[int, dict[int, tuple[float, float]]] = {}
        self._images: dict[tuple[int, int], str] = {}
        self._classes: dict[tuple[int, int], str] = {}

    def size(self, version_id: int, page: int) -> tuple[float, float] | None:
        if version_id not in self._sizes:
            self._sizes[version_id] = {p.page_no: (p.width, p.height) for p in self.store.pages(version_id)}
        size = self._sizes[version_id].get(page)
        return size if size and size[0] > 0 and size[1] > 0 else None

    def _pdf(self, version_id: int) -> Any:
        if version_id in self._docs:
            return self._docs[version_id]
        doc = None
        try:
            import pypdfium2 as pdfium

            from ingest.extract.files import sha256_file

            version = self.store.version(version_id)
            info = self.store.document(version.document_uri)
            path = info.last_path
            if path and version.media_type == "application/pdf" and sha256_file(path) == version.content_sha256:
                doc = pdfium.PdfDocument(path)
        except Exception:  # the file moved, changed or cannot be opened: fall back to geometry
            doc = None
        self._docs[version_id] = doc
        return doc

    def image(self, version_id: int, page: int) -> str:
        """A data URL (PNG rendered from the PDF, or SVG drawn from stored line geometry)."""
        key = (version_id, page)
        if key in self._images:
            return self._images[key]
        url = ""
        doc = self._pdf(version_id)
        if doc is not None and 0 < page <= len(doc):
            bitmap = doc[page - 1].render(scale=RENDER_SCALE)
            buf = io.BytesIO()
            bitmap.to_pil().save(buf, format="PNG", compress_level=6)
            url = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
        if not url:
            url = self._svg(version_id, page)
        self._images[key] = url
        return url

    def _svg(self, version_id: int, page: int) -> str:
        size = self.size(version_id, page) or (612.0, 792.0)
        w, h = size
        geometry = self.store.geometry(version_id)
        raw = self.store.raw_text(version_id)
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:g} {h:g}" width="{w:g}" height="{h:g}">']
        parts.append(f'<rect width="{w:g}" height="{h:g}" fill="#fff"/>')
        for ln in geometry._lines:
            if ln.page != page:
                continue
            size_pt = max(4.0, (ln.bottom - ln.top) * 0.8)
            baseline = ln.bottom - (ln.bottom - ln.top) * 0.22
            length = max(1.0, ln.xs[-1] - ln.xs[0])
            parts.append(
                f'<text x="{ln.xs[0]:.1f}" y="{baseline:.1f}" font-size="{size_pt:.1f}" font-family="serif" '
                f'textLength="{length:.1f}" lengthAdjust="spacingAndGlyphs">{_e(raw[ln.raw_start : ln.raw_end])}</text>'
            )
        parts.append("</svg>")
        return "data:image/svg+xml;base64," + base64.b64encode("".join(parts).encode("utf-8")).decode("ascii")

    def css_class(self, version_id: int, page: int) -> str:
        """A CSS class whose background is the page image: each image is embedded once, however
        many citations show that page."""
        key = (version_id, page)
        if key not in self._classes:
            self._classes[key] = f"pg{len(self._classes) + 1}"
        return self._classes[key]

    def stylesheet(self) -> str:
        return "".join(f".{name}{{background-image:url({self.image(*key)})}}" for key, name in self._classes.items())

    def close(self) -> None:
        for doc in self._docs.values():
            if doc is not None:
                doc.close()


def _figure(
    pages: _Pages,
    n: int,
    version_id: int,
    page: int,
    boxes: list[dict[str, Any]],
    label: str,
    other: bool = False,
) -> str:
    size = pages.size(version_id, page)
    if size is None:
        return ""
    w, h = size
    hls = "".join(
        f'<div class="hl{" other" if other else ""}" data-cite="{n}" data-page="{page}" '
        f'data-box="{b["x0"]:.2f},{b["top"]:.2f},{b["x1"]:.2f},{b["bottom"]:.2f}" '
        f'style="left:{100 * b["x0"] / w:.4f}%;top:{100 * b["top"] / h:.4f}%;'
        f'width:{100 * (b["x1"] - b["x0"]) / w:.4f}%;height:{100 * (b["bottom"] - b["top"]) / h:.4f}%"></div>'
        for b in boxes
        if b["page"] == page
    )
    return (
        f'<figure class="page" data-cite="{n}" data-page="{page}" data-width="{w:g}" data-height="{h:g}">'
        f'<div class="pageimg {pages.css_class(version_id, page)}" role="img" aria-label="page {page}" '
        f'style="aspect-ratio:{w:g}/{h:g}"></div>{hls}'
        f"<figcaption>{_e(label)} — page {page}</figcaption></figure>"
    )


def _card(pages: _Pages | None, n: int, c: CitationResult) -> str:
    cls = _STATUS_CLASS.get(c.status, "fail")
    out = [f'<div class="card" id="card-{n}" data-show="{n}" data-status="{_e(c.status)}">']
    score = f" · {c.score:g}" if c.score is not None else ""
    flags = f" · {_e(', '.join(c.flags))}" if c.flags else ""
    out.append(f'<h3><span class="{cls}">[{_e(c.marker)}] {_e(c.status)}</span>{score}{flags}</h3>')
    out.append(f'<div class="reason">{_e(c.reason)}</div>')
    if c.quote:
        out.append(f"<blockquote>{_e(c.quote)}</blockquote>")
    if c.drift:
        marked = _e(c.drift).replace("⟦", "<mark>").replace("⟧", "</mark>")
        out.append(f'<div class="drift">Source says: {marked}</div>')
    if pages is not None:
        loc = c.location
        if loc is not None and loc.version_id:
            label = f"{loc.document_uri} v{loc.version_no}"
            for p in loc.pages:
                out.append(_figure(pages, n, loc.version_id, p, list(loc.boxes), label))
        for extra, text in (
            (c.found_in, "really in"),
            (c.stale if c.stale and c.stale.get("found") else None, "current version"),
        ):
            if extra and extra.get("version_id"):
                doc = extra.get("document", {})
                label = f"{text}: {doc.get('uri', '')} v{doc.get('version', '')}"
                for p in extra.get("pages", []):
                    out.append(
                        _figure(
                            pages,
                            n,
                            int(extra["version_id"]),
                            p,
                            list(extra.get("boxes", [])),
                            label,
                            other=True,
                        )
                    )
    out.append("</div>")
    return "".join(out)


def _answer_html(report: Report) -> str:
    by_sentence: dict[int, list[int]] = {}
    for n, c in enumerate(report.citations, start=1):
        if c.sentence is not None:
            by_sentence.setdefault(c.sentence, []).append(n)
    parts = []
    for i, s in enumerate(report.sentences):
        uncited = " uncited" if s.asserting and not s.cited else ""
        cites = "".join(
            f' <a class="cite {_STATUS_CLASS.get(report.citations[n - 1].status, "fail")}'
            f'{" stale" if "stale_version" in report.citations[n - 1].flags else ""}" data-show="{n}" '
            f'href="#card-{n}" title="{_e(report.citations[n - 1].status)}">{n}</a>'
            for n in by_sentence.get(i, [])
        )
        parts.append(f'<span class="sentence{uncited}" data-sentence="{i}">{_e(s.text)}{cites}</span> ')
    return "<p>" + "".join(parts) + "</p>"


def build_html(report: Report, store: Any = None) -> str:
    pages = _Pages(store) if store is not None else None
    try:
        cards = "".join(_card(pages, n, c) for n, c in enumerate(report.citations, start=1))
        images = pages.stylesheet() if pages is not None else ""
    finally:
        if pages is not None:
            pages.close()
    s = report.summary()
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; img-src data:; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
        f"<title>citeline report</title><style>{_CSS}</style><style>{images}</style></head><body>"
        '<header><h1>citeline verification report</h1><div class="sum">'
        f"{s['verified']} of {s['citations']} citations verified · "
        f"coverage {s['coverage']:.0%} · {s['uncited']} uncited asserting sentence(s)</div></header>"
        f'<main><section class="answer"><h2>Answer</h2>{_answer_html(report)}</section>'
        f'<section class="citations"><h2>Citations</h2>{cards}</section></main>'
        f"<script>{_JS}</script></body></html>"
    )
