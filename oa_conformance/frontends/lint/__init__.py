"""``oa-lint``: a static lint pass over a conformance-fixture corpus.

It runs the interpreter's static passes (load → schema check → version check) and then lint rules
over the typed AST, without the runtime. Rules live one per module in :mod:`.rules` (an explicit
registry); :mod:`.engine` runs them; :mod:`.formatters` renders the findings — immutable
:class:`~oa_conformance.model.diagnostics.Diagnostic` records — as text, JSON, GitHub annotations or
SARIF. The command line is :mod:`oa_conformance.frontends.cli.oa_lint`; docs/LINT.md describes every rule.
"""

from .engine import LintResult, Selection, UsageError, fixture_refs, lint_file, lint_paths
from .rules import BY_CODE, RULES, LintRule

__all__ = ["BY_CODE", "LintResult", "RULES", "LintRule", "Selection", "UsageError", "fixture_refs", "lint_file", "lint_paths"]
