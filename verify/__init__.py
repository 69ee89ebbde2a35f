"""Deterministic citation verification (no model call).

from store import Store
from verify import verify_answer
report = verify_answer(Store(), {"answer": "...", "sources": {"S1": "ck_..."}, "citations": [...]})
report.as_json()
"""

from verify.errors import InputError, VerifyError
from verify.report import CitationResult, Report
from verify.verify import Verifier, VerifyOptions, verify_answer

__all__ = [
    "CitationResult",
    "InputError",
    "Report",
    "Verifier",
    "VerifyError",
    "VerifyOptions",
    "verify_answer",
]
