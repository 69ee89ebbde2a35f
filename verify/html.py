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
from typing import Any

from citeline.verify.pages import PageRenderer
from citeline.verify.report import CitationResult, Report

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
section.answer{position:sticky;top:12px;align-self:start;max-height:calc(100vh - 24px);overflow:auto}
a.cite{font-weight:600;text-decoration:none;padding:0 2px;border-radius:3px;cursor:pointer}
.ok{color:#0a7a32}.fuzzy{color:#2f7a0a}.warn{color:#9a6700}.fail{color:#b42318}.stale{outline:2px dashed #9a6700}
a.cite.ok{background:#e3f6e8}a.cite.fuzzy{background:#eef7dd}a.cite.warn{background:#fdf1d6}a.cite.fail{background:#fde4e1}
.card{border:1px solid #dde1e7;border-radius:6px;padding:10px 12px;margin:0 0 14px;cursor:pointer}
.card h3{margin:0 0 4px;font-size:14px}.card .reason{font-size:13px;color:#4a5263}
.card blockquote{margin:6px 0;padding:4px 10px;border-left:3px solid #c9ced6;font-size:13px}
.drift{font-size:13px}.drift mark{background:#fde4e1}
figure.page{margin:8px 0;border:1px solid #c9ced6;width:100%}.sheet{position:relative}
.sheet .pageimg{width:100%;background-size:100% 100%;background-repeat:no-repeat}
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
    """Page images embedded once each, as CSS classes whose background is the PNG."""

    def __init__(self, store: Any) -> None:
        self.renderer = PageRenderer(store)
        self._classes: dict[tuple[int, int], str] = {}

    def size(self, version_id: int, page: int) -> tuple[float, float] | None:
        return self.renderer.size(version_id, page)

    def css_class(self, version_id: int, page: int) -> str:
        key = (version_id, page)
        if key not in self._classes:
            self._classes[key] = f"pg{len(self._classes) + 1}"
        return self._classes[key]

    def stylesheet(self) -> str:
        rules = []
        for (version_id, page), name in self._classes.items():
            data = base64.b64encode(self.renderer.png(version_id, page)).decode("ascii")
            rules.append(f".{name}{{background-image:url(data:image/png;base64,{data})}}")
        return "".join(rules)

    def close(self) -> None:
        self.renderer.close()


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
        f'<div class="sheet"><div class="pageimg {pages.css_class(version_id, page)}" role="img" '
        f'aria-label="page {page}" style="aspect-ratio:{w:g}/{h:g}"></div>{hls}</div>'
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
