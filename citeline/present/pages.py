"""Page images for reports, the local server and ``citeline highlight``.

A page is rendered with pypdfium2 from the file its version was ingested from, when that file is
still there with the same sha256; otherwise it is drawn from the stored line geometry (the raw
text at its positions), so a highlight can always be shown.
"""

from __future__ import annotations

import functools
import io
from typing import Any

from citeline.ingest.extract.files import sha256_file
from citeline.text.geometry import Box
from citeline.text.names import unescape_name

#: Render scale: 1.5 = 108 dpi, readable and small.
RENDER_SCALE = 1.5
#: Every page render is capped (``highlight``, ``serve``, the HTML report): at most this many pixels
#: on the long side and :data:`MAX_PIXELS` in all, whichever is smaller; a larger page (PDF pages go
#: up to 14,400 pt) is rendered at the scale that fits.
MAX_SIDE_PX = 4000
MAX_PIXELS = 16_000_000
#: Pixels of one stacked image (``citeline highlight`` over pages): four pages at the per-page cap,
#: or about 50 letter pages at the default scale; about 200 MB as RGB while it is built.
MAX_STACK_PIXELS = 64_000_000
HIGHLIGHT = (255, 200, 0, 90)
HIGHLIGHT_EDGE = (230, 150, 0, 255)


#: Fonts tried for drawing a page from stored geometry, in order (wide Unicode coverage: §, €, ß,
#: Cyrillic, Greek); Pillow's own default font when none is installed.
FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "C:/Windows/Fonts/arial.ttf",
)


@functools.cache
def _font(size: int) -> Any:
    from PIL import ImageFont

    for path in FONT_FILES:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


class PageRenderer:
    """Renders pages of stored versions; keeps the PDFs it opened until :meth:`close`."""

    def __init__(self, store: Any, *, scale: float = RENDER_SCALE) -> None:
        self.store = store
        self.scale = scale
        self._docs: dict[int, Any] = {}
        self._sizes: dict[int, dict[int, tuple[float, float]]] = {}

    def size(self, version_id: int, page: int) -> tuple[float, float] | None:
        """Page size in points, or ``None`` for formats without pages of a size (HTML, DOCX...)."""
        if version_id not in self._sizes:
            self._sizes[version_id] = {p.page_no: (p.width, p.height) for p in self.store.pages(version_id)}
        size = self._sizes[version_id].get(page)
        return size if size and size[0] > 0 and size[1] > 0 else None

    def scale_for(self, width: float, height: float) -> float:
        """The scale a ``width`` x ``height`` pt page renders at: :attr:`scale` within the caps."""
        if width <= 0 or height <= 0:
            return self.scale
        return float(min(self.scale, MAX_SIDE_PX / max(width, height), (MAX_PIXELS / (width * height)) ** 0.5))

    def _pdf(self, version_id: int) -> Any:
        """The version's source opened for drawing: a pypdfium2 document for a PDF, a PIL image
        (frames = pages) for an image document, ``None`` when the file is gone or changed."""
        if version_id not in self._docs:
            doc = None
            try:
                version = self.store.version(version_id)
                stored = self.store.document(version.document_uri, collection=version.collection).last_path
                path = unescape_name(stored) if stored else None
                if path and sha256_file(path) == version.content_sha256:
                    if version.media_type == "application/pdf":
                        import pypdfium2 as pdfium

                        doc = pdfium.PdfDocument(path)
                    elif version.media_type.startswith("image/"):
                        from PIL import Image

                        doc = Image.open(path)
            except Exception:  # moved, changed or unreadable: fall back to the stored geometry
                doc = None
            self._docs[version_id] = doc
        return self._docs[version_id]

    def _image_page(self, image: Any, version_id: int, page: int) -> Any:
        """Frame ``page`` of an image document at the page's scale, or ``None``."""
        size = self.size(version_id, page)
        try:
            image.seek(page - 1)
        except (EOFError, ValueError):
            return None
        if size is None:
            return None
        scale = self.scale_for(*size)
        frame = image.convert("RGB").resize((max(1, round(size[0] * scale)), max(1, round(size[1] * scale))))
        frame.info["scale"] = scale
        return frame

    def image(self, version_id: int, page: int) -> Any:
        """The page as a PIL image at :meth:`scale_for` its size (``img.info["scale"]``)."""
        from PIL import Image, ImageDraw

        doc = self._pdf(version_id)
        if doc is not None and not hasattr(doc, "get_page"):  # an image document
            frame = self._image_page(doc, version_id, page)
            if frame is not None:
                return frame
            doc = None
        if doc is not None and 0 < page <= len(doc):
            pdf_page = doc[page - 1]
            scale = self.scale_for(*pdf_page.get_size())
            img = pdf_page.render(scale=scale).to_pil().convert("RGB")
            img.info["scale"] = scale
            return img
        w, h = self.size(version_id, page) or (612.0, 792.0)
        scale = self.scale_for(w, h)
        img = Image.new("RGB", (max(1, round(w * scale)), max(1, round(h * scale))), "white")
        img.info["scale"] = scale
        draw = ImageDraw.Draw(img)
        raw = self.store.raw_text(version_id)
        for ln in self.store.geometry(version_id).lines_on(page):
            # every code point at its own left edge, so a box drawn over it covers its glyph
            font = _font(max(6, round((ln.bottom - ln.top) * scale * 0.8)))
            for k, ch in enumerate(raw[ln.raw_start : ln.raw_end]):
                if not ch.isspace():
                    draw.text((ln.xs[2 * k] * scale, ln.top * scale), ch, fill="black", font=font)
        return img

    def png(self, version_id: int, page: int, boxes: list[Box] | None = None) -> bytes:
        """PNG bytes of a page, with ``boxes`` (PDF points, top-left origin) drawn over it."""
        img = self.image(version_id, page)
        scale = img.info.get("scale", self.scale)
        if boxes:
            from PIL import Image, ImageDraw

            overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
            draw = ImageDraw.Draw(overlay)
            for b in boxes:
                if b.page == page:
                    rect = [b.x0 * scale, b.top * scale, b.x1 * scale, b.bottom * scale]
                    draw.rectangle(rect, fill=HIGHLIGHT, outline=HIGHLIGHT_EDGE, width=2)
            img = Image.alpha_composite(img.convert("RGBA"), overlay).convert("RGB")
        buf = io.BytesIO()
        img.save(buf, format="PNG", compress_level=6)
        return buf.getvalue()

    def close(self) -> None:
        for doc in self._docs.values():
            if doc is not None:
                doc.close()
        self._docs.clear()

    def __enter__(self) -> PageRenderer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def stack_png(images: list[bytes], *, gap: int = 12) -> bytes:
    """Several PNG pages one under the other in one PNG (for ``citeline highlight`` over pages)."""
    from PIL import Image

    pages = [Image.open(io.BytesIO(data)).convert("RGB") for data in images]
    width = max(p.width for p in pages)
    height = sum(p.height for p in pages) + gap * (len(pages) - 1)
    sheet = Image.new("RGB", (width, height), (200, 200, 200))
    y = 0
    for p in pages:
        sheet.paste(p, (0, y))
        y += p.height + gap
    buf = io.BytesIO()
    sheet.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()
