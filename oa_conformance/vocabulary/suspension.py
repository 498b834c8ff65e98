"""Directives specific to the suspension fixtures (the capability's spec and its §3.2 header notes)."""

from __future__ import annotations

from .registry import Directive, Family
from .shapes import *  # noqa: F403 - the shape vocabulary is this module's language

CAPABILITY = "suspension"

FAMILIES: list[Family] = [
    Family("descriptor", "SignalDescriptor", "A suspension signal descriptor (suspension §3)."),
]

DIRECTIVES: list[Directive] = [
    Directive("signal_id", ("descriptor",), STR, "§5.1", CAPABILITY, "0.48.0", "The signal the suspension waits for."),
    Directive("metadata", ("descriptor",), Data(("map",)), "§5.1", CAPABILITY, "0.48.0", "Descriptor metadata."),
    Directive("suspend_with_descriptor", ("node",), Section("descriptor"), "§5.1", CAPABILITY, "0.48.0", "The node calls suspend(descriptor)."),
]
