"""Expected-outcome shapes specific to pipeline-utilities fixtures (failure isolation, checkpoints)."""

from __future__ import annotations

from typing import Any

from .rules import FAILED, UNVERIFIED, VERIFIED, Check, Context, Rule, ValueRule, shape  # noqa: F401
