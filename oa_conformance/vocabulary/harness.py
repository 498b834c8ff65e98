"""Directives specific to the harness fixtures (the capability's spec and its §3.2 header notes)."""

from __future__ import annotations

from .registry import Directive, Family
from .shapes import *  # noqa: F403 - the shape vocabulary is this module's language

CAPABILITY = "harness"

FAMILIES: list[Family] = []

DIRECTIVES: list[Directive] = []
