"""AST values → plain Python data for the runtime (inputs only; expected values are matchers).

The conversion is the AST's own ``unparse`` — the data a fixture author wrote — with fresh lists
and dicts on every call, so the runtime can never alias a fixture value.
"""

from __future__ import annotations

from ..ast.dump import unparse as literal

__all__ = ["literal"]
