"""Exceptions raised by :mod:`citeline.verify`. Messages are one line naming the thing and the reason."""

from __future__ import annotations


class VerifyError(Exception):
    """Base class of every error raised by the verify package."""


class InputError(VerifyError):
    """The answer document is malformed (bad JSON, wrong types, too large, empty quote...)."""
