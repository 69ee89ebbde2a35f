"""The numbers a claim states and the numbers its evidence gives, compared as values.

:mod:`~citeline.verify.numbers.reading` reads them from a folded text in its language;
:mod:`~citeline.verify.numbers.values` says whether one backs another. Everything works on folded text
(:func:`citeline.verify.fold.fold`: lower case, one space).
"""

from citeline.verify.numbers.reading import numbers, reader
from citeline.verify.numbers.values import (
    FRACTION,
    TIMES,
    Date,
    Numbers,
    Quantity,
    canonical,
    same_unit_elsewhere,
    unbacked,
)

__all__ = [
    "FRACTION",
    "TIMES",
    "Date",
    "Numbers",
    "Quantity",
    "canonical",
    "numbers",
    "reader",
    "same_unit_elsewhere",
    "unbacked",
]
