"""Predicates named by the graph-engine fixtures and described in their `.md` sidecars."""

from __future__ import annotations

from typing import Any

from . import Verdict, as_set, events_of, expected_set, flag, inner, of_node, pattern, predicate, unique, values_of  # noqa: F401
from ..rules import Context  # noqa: F401
