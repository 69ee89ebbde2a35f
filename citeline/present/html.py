"""The self-contained HTML report: no network, no CDN, everything inline.

The answer is shown with every citation marker coloured by whether it passed (green), failed (red),
or gave nothing to check (amber: no quote, or one too short; see :mod:`citeline.present.styles`);
a side panel lists the citations with reasons and scores, and then
every page a citation lands on, once, with the boxes of all the citations on it, rendered to PNG
(pypdfium2, from the file the version was ingested from, when it is still there unchanged) or,
failing that, drawn from the stored line geometry. Clicking a marker or a card scrolls to its
highlight and flashes it. Everything from documents or answers is escaped.
"""

from __future__ import annotations

import base64
import hashlib
import html
from typing import Any

from citeline.present.pages import PageRenderer
from citeline.present.styles import style
from citeline.verify.report import CitationResult, Report


def _class(c: CitationResult) -> str:
    """The citation's CSS class (:func:`citeline.present.styles.style`)."""
    return style(c).css


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


#: The report's one script, allowed by its hash (no inline script runs but this one).
SCRIPT_HASH = "'sha256-" + base64.b64encode(hashlib.sha256(_JS.encode()).digest()).decode() + "'"
#: The policy of a report page (a ``<meta>`` in the file; ``serve`` sends it as a header too).
REPORT_CSP = f"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src {SCRIPT_HASH}; base-uri 'none'"


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
    pages: _Pages, version_id: int, page: int, marks: list[tuple[int, dict[str, Any], bool]], label: str
) -> str:
    """One page with the boxes of every citation on it: ``marks`` are (citation number, box, other)."""
    size = pages.size(version_id, page)
    if size is None:
        return ""
    w, h = size
    hls = "".join(
        f'<div class="hl{" other" if other else ""}" data-cite="{n}" data-page="{page}" '
        f'data-box="{b["x0"]:.2f},{b["top"]:.2f},{b["x1"]:.2f},{b["bottom"]:.2f}" '
        f'style="left:{100 * b["x0"] / w:.4f}%;top:{100 * b["top"] / h:.4f}%;'
        f'width:{100 * (b["x1"] - b["x0"]) / w:.4f}%;height:{100 * (b["bottom"] - b["top"]) / h:.4f}%"></div>'
        for n, b, other in marks
    )
    cited = ", ".join(f"[{n}]" for n in dict.fromkeys(n for n, _, _ in marks))
    return (
        f'<figure class="page" data-version="{version_id}" data-page="{page}" data-width="{w:g}" data-height="{h:g}">'
        f'<div class="sheet"><div class="pageimg {pages.css_class(version_id, page)}" role="img" '
        f'aria-label="page {page}" style="aspect-ratio:{w:g}/{h:g}"></div>{hls}</div>'
        f"<figcaption>{_e(label)} — page {page} · {_e(cited)}</figcaption></figure>"
    )


def _places(n: int, c: CitationResult) -> list[tuple[int, str, list[int], list[dict[str, Any]], bool]]:
    """Where a citation lands: (version id, label, pages, boxes, other) for the quote's location and
    for where it really is (found_in) or is now (stale)."""
    out = []
    loc = c.location
    if loc is not None and loc.version_id:
        out.append((loc.version_id, f"{loc.document_uri} v{loc.version_no}", list(loc.pages), list(loc.boxes), False))
    for extra in (c.found_in, c.stale if c.stale and c.stale.get("found") else None):
        if extra and extra.get("version_id"):
            doc = extra.get("document", {})
            label = f"{doc.get('uri', '')} v{doc.get('version', '')}"
            out.append(
                (int(extra["version_id"]), label, list(extra.get("pages", [])), list(extra.get("boxes", [])), True)
            )
    return out


def _pages_html(pages: _Pages, report: Report) -> str:
    """Every page a citation lands on, once, in order of first mention, with all their boxes."""
    by_page: dict[tuple[int, int], tuple[str, list[tuple[int, dict[str, Any], bool]]]] = {}
    for n, c in enumerate(report.citations, start=1):
        for version_id, label, page_numbers, boxes, other in _places(n, c):
            for p in page_numbers:
                entry = by_page.setdefault((version_id, p), (label, []))
                entry[1].extend((n, b, other) for b in boxes if b["page"] == p)
    return "".join(
        _figure(pages, version_id, page, marks, label) for (version_id, page), (label, marks) in by_page.items()
    )


def _card(n: int, c: CitationResult) -> str:
    cls = _class(c)
    passed = str(c.passed).lower()
    out = [f'<div class="card" id="card-{n}" data-show="{n}" data-status="{_e(c.status)}" data-passed="{passed}">']
    score = f" · {c.score:g}" if c.score is not None else ""
    flags = f" · {_e(', '.join(c.flags))}" if c.flags else ""
    verdict = "passed" if c.passed else "did not pass"
    out.append(f'<h3><span class="{cls}">[{_e(c.marker)}] {_e(c.status)}</span> · {verdict}{score}{flags}</h3>')
    out.append(f'<div class="reason">{_e(c.reason)}</div>')
    if c.quote:
        out.append(f"<blockquote>{_e(c.quote)}</blockquote>")
    if c.drift:
        marked = _e(c.drift).replace("⟦", "<mark>").replace("⟧", "</mark>")
        out.append(f'<div class="drift">Source says: {marked}</div>')
    where = [f"{label}, page {', '.join(map(str, pp))}" for _, label, pp, _, _ in _places(n, c) if pp]
    if where:
        out.append(f'<div class="reason">On: {_e("; ".join(where))}</div>')
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
            f' <a class="cite {_class(report.citations[n - 1])}'
            f'{" stale" if "stale_version" in report.citations[n - 1].flags else ""}" data-show="{n}" '
            f'href="#card-{n}" title="{_e(report.citations[n - 1].status)}">{n}</a>'
            for n in by_sentence.get(i, [])
        )
        parts.append(f'<span class="sentence{uncited}" data-sentence="{i}">{_e(s.text)}{cites}</span> ')
    return "<p>" + "".join(parts) + "</p>"


def build_html(report: Report, store: Any = None) -> str:
    pages = _Pages(store) if store is not None else None
    try:
        cards = "".join(_card(n, c) for n, c in enumerate(report.citations, start=1))
        figures = _pages_html(pages, report) if pages is not None else ""
        images = pages.stylesheet() if pages is not None else ""
    finally:
        if pages is not None:
            pages.close()
    s = report.summary()
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{REPORT_CSP}">'
        f"<title>citeline report</title><style>{_CSS}</style><style>{images}</style></head><body>"
        '<header><h1>citeline verification report</h1><div class="sum">'
        f"{s['passed']} of {s['citations']} citations passed ({s['verified']} verified) · "
        f"coverage {s['coverage']:.0%}{report.coverage_shortfall()} · "
        f"{s['uncited']} uncited asserting sentence(s)</div></header>"
        f'<main><section class="answer"><h2>Answer</h2>{_answer_html(report)}</section>'
        f'<section class="citations"><h2>Citations</h2>{cards}'
        f"{'<h2>Pages</h2>' + figures if figures else ''}</section></main>"
        f"<script>{_JS}</script></body></html>"
    )
