"""What kind of container a value is, by real type (never by class name).

pyrsistent's vector is ``pvectorc.PVector`` with its C extension and ``PythonPVector`` without it
(Python 3.13 wheels, ``PYRSISTENT_NO_C_EXTENSION=1``); both register with the ``PVector`` ABC, which
is what these checks use.
"""

from __future__ import annotations

from typing import Any

from pyrsistent import PVector

SEQUENCE_TYPES = (list, tuple, PVector)


def is_sequence(value: Any) -> bool:
    """A list, tuple or pyrsistent vector (not a string, not a set)."""
    return isinstance(value, SEQUENCE_TYPES)


def is_mapping(value: Any) -> bool:
    """Anything with ``items`` and ``keys`` that is not text: dicts, pmaps, AST mappings."""
    return hasattr(value, "items") and hasattr(value, "keys") and not isinstance(value, (str, bytes))
