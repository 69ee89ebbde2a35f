"""Deterministic citation verification (no model call).

from citeline.store import Store
from citeline.verify import verify_answer
report = verify_answer(Store(), {"answer": "...", "sources": {"S1": "ck_..."}, "citations": [...]})
report.as_json()
"""

from citeline.verify.errors import InputError, VerifyError
from citeline.verify.report import CitationResult, Report
from citeline.verify.verify import Verifier, VerifyOptions, verify_answer

__all__ = [
    "CitationResult",
    "InputError",
    "Report",
    "Verifier",
    "VerifyError",
    "VerifyOptions",
    "verify_answer",
]
