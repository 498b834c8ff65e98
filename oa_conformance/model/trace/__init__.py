"""The execution trace: the contract between the interpreter (which records it) and the assertions
(which read it). It sits below both packages; neither imports the other through it.

``record`` holds the frozen records the execute pass builds; ``document`` thaws one case's records
once into the plain JSON-like trace document that catalogue queries read (docs/TRACE.md).
"""

from .record import CaseFacts, CaseTrace, ErrorRecord, InvocationOutcome, InvocationTrace, freeze, plain, primary_observer

__all__ = ["CaseFacts", "CaseTrace", "ErrorRecord", "InvocationOutcome", "InvocationTrace", "freeze", "plain", "primary_observer"]
