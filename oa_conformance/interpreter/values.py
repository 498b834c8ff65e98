"""AST values → plain Python data for the runtime (inputs only; expected values are matchers).

The conversion is the AST's own ``unparse`` — the data a fixture author wrote — with fresh lists
and dicts on every call, so the runtime can never alias a fixture value; within one value, a YAML
alias is one shared list or dict (what the alias means), so an alias DAG costs its distinct nodes.
"""

from __future__ import annotations

from ..ast.dump import unparse as literal

__all__ = ["literal"]
