"""Images as documents: PNG, JPEG and TIFF (each frame of a multi-page TIFF is a page), read by OCR.

A page measures the image's pixels at its resolution (72 dpi when the file states none), so boxes
are PDF points of that page as for a PDF, and ``serve``, ``highlight`` and the HTML report draw the
image itself under them.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from citeline.ingest.errors import CorruptFile, TooLarge
from citeline.ingest.extract.files import MEDIA_TYPES, Limits, SourceFile
from citeline.ingest.extract.glyphs import PageGlyphs
from citeline.ingest.extract.model import Extraction
from citeline.ingest.extract.ocr import MAX_OCR_PIXELS, OcrInfo, OcrSettings, engine_version, recognize

#: What an image without a stated resolution is taken to be.
DEFAULT_DPI = 72.0


def image_dpi(image: Any) -> float:
    """The image's horizontal resolution in dpi (``DEFAULT_DPI`` when it states none or nonsense)."""
    dpi = image.info.get("dpi")
    try:
        value = float(dpi[0]) if dpi else 0.0
    except (TypeError, ValueError, IndexError):
        value = 0.0
    return value if 10 <= value <= 10_000 else DEFAULT_DPI


def frames(data: bytes) -> Any:
    """Open image bytes with Pillow (its decompression-bomb check on)."""
    from PIL import Image

    return Image.open(io.BytesIO(data))


def extract_image(source: SourceFile, *, limits: Limits = Limits(), ocr: OcrSettings = OcrSettings()) -> Extraction:
    """One page per image frame, each read by OCR (nothing is read with ``--ocr off``)."""
    from PIL import Image, ImageSequence, UnidentifiedImageError

    from citeline.ingest.extract.pdf import assemble

    try:
        image = frames(source.data)
        count = getattr(image, "n_frames", 1)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise CorruptFile(
            source.path, f"unreadable image ({str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__})"
        ) from None
    except Image.DecompressionBombError as exc:
        raise TooLarge(source.path, f"image too large ({exc})") from None
    if count > limits.max_pages:
        raise TooLarge(source.path, f"{count} frames, above the limit of {limits.max_pages}")

    def pages() -> Iterator[PageGlyphs]:
        for number, frame in enumerate(ImageSequence.Iterator(image), start=1):
            dpi = image_dpi(frame)
            width_px, height_px = frame.size
            if width_px * height_px > MAX_OCR_PIXELS * 4:
                raise TooLarge(source.path, f"frame {number} is {width_px} x {height_px} pixels")
            k = 72.0 / dpi
            pg = PageGlyphs(number, width_px * k, height_px * k)
            if ocr.mode == "off":
                yield pg
                continue
            gray = frame.convert("L")
            lines, confidence = recognize(gray, k, source.path, ocr)
            info = OcrInfo(engine_version(), ocr.languages, confidence, round(dpi, 1))
            pg.ocr_lines, pg.ocr = lines, info
            yield pg

    try:
        return assemble(
            source,
            pages(),
            extractor="image",
            version=f"Pillow {_pillow_version()}",
            limits=limits,
            media_type=MEDIA_TYPES[source.format],
        )
    except (OSError, SyntaxError, ValueError) as exc:  # a frame that does not decode
        raise CorruptFile(
            source.path, f"unreadable image ({str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__})"
        ) from None


def _pillow_version() -> str:
    import PIL

    return PIL.__version__
